/*
 * util.h - small helpers shared by every module: allocation that never
 * fails, a growable string buffer, error reporting, files.
 *
 * Ownership: a struct strbuf owns its buf; strbuf_release() frees it and
 * leaves an empty, reusable buffer. strbuf_detach() hands the buffer to the
 * caller, who frees it with free(). Every x*alloc aborts the program on
 * allocation failure (there is nothing sensible to do), so callers never
 * check for NULL.
 */
#ifndef POSTRIDER_UTIL_H
#define POSTRIDER_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
#else
#define PRINTF_LIKE(f, a)
#define NORETURN
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a newly allocated formatted string. */
char *xstrfmt(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* A broken invariant: prints file, line and message, then aborts. */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
NORETURN void bug_fl(const char *file, int line, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

/*
 * Every error of the program is one line on stderr (docs/postrider.1,
 * DIAGNOSTICS): "postrider: CONTEXT: what, and what to do", CONTEXT the
 * command's name, which main() gives error_context() once. A message
 * may add lines of detail after its first (a configuration's problems,
 * one a line). The text has no newline at its end: the line is ended
 * here; what to do goes in hint() lines after it.
 */
void error_context(const char *name);
/* Prints the error and returns -1, so that I/O failures can be reported
 * and propagated in one line: return error("..."). */
int error(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Prints "postrider: CONTEXT: warning: <message>". */
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Prints "hint: <message>": what to do about the error said before it,
 * a line of its own (git's advice). */
void hint(const char *fmt, ...) PRINTF_LIKE(1, 2);

struct strbuf {
	char *buf;	/* always NUL-terminated, never NULL */
	size_t len;
	size_t alloc;	/* 0: buf is the shared empty string, not owned */
};
extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
/* Appends the text of another buffer. */
void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
/* Returns the buffer's text, "" for a buffer never written to. */
static inline const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/*
 * Reads a whole file into sb (appending). Returns 0, or -1 with errno set
 * (nothing printed). A file larger than max bytes fails with EFBIG.
 */
int read_file(const char *path, struct strbuf *sb, size_t max);
/*
 * Writes data to path atomically: a temporary file in the same folder,
 * fsync, rename. Returns 0, or -1 after printing an error.
 */
int write_file_atomic(const char *path, const void *data, size_t len);
/* Creates path and its parents (mode 0777 & ~umask). 0 or -1 with errno. */
int mkdir_p(const char *path);
/*
 * Removes everything inside the folder path (not following symbolic
 * links), and the folder itself unless keep_top. 0, or -1 with errno.
 */
int remove_tree(const char *path, bool keep_top);

/* Case-insensitive ASCII comparisons. */
/* t (seconds since the epoch) as "2026-11-24T19:35:54Z" (UTC). */
#define UTC_TIME_SIZE 32
void utc_format(long long t, char out[UTC_TIME_SIZE]);
/*
 * Parses a duration: a positive number and a unit, "90m", "36h", "3d",
 * "2w" (minutes, hours, days, weeks), into seconds. Returns 0, or -1 for
 * anything else (no unit, zero, more than 10 years).
 */
int duration_parse(const char *s, long long *seconds);
/* A duration as people read it: "3 days", "1 day 4 hours", "45 minutes". */
void duration_format(long long seconds, struct strbuf *out);

int ascii_strcasecmp(const char *a, const char *b);
int ascii_strncasecmp(const char *a, const char *b, size_t n);
/* Lowercase hex of len bytes into out (2*len+1 bytes). */
void hex_encode(const unsigned char *in, size_t len, char *out);
/* Parses 2*len hex digits; returns 0 or -1. */
int hex_decode(const char *in, unsigned char *out, size_t len);
/* The value of one hex digit (either case), or -1. */
int hex_digit_value(int c);

/* Stores v big-endian in p[0..7] and p[0..3]. */
static inline void put_be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)(v & 0xff);
}

static inline void put_be32(unsigned char *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)(v & 0xff);
}

#endif
