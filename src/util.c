#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static NORETURN void out_of_memory(size_t n)
{
	fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	if (n)	/* s may be NULL when n is 0 */
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static const char *error_ctx;

void error_context(const char *name)
{
	error_ctx = name;
}

/* "postrider: CONTEXT: [kind: ]message", one newline at the end. */
static void report(const char *kind, const char *fmt, va_list ap) PRINTF_LIKE(2, 0);
static void report(const char *kind, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "postrider: ");
	if (error_ctx)
		strbuf_addf(&sb, "%s: ", error_ctx);
	if (kind)
		strbuf_addf(&sb, "%s: ", kind);
	strbuf_vaddf(&sb, fmt, ap);
	if (!sb.len || sb.buf[sb.len - 1] != '\n')
		strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(NULL, fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("warning", fmt, ap);
	va_end(ap);
}

void hint(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addstr(&sb, "hint: ");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

char strbuf_empty[1];

void strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return res;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (!sb->buf)
		strbuf_init(sb);
	if (want <= sb->alloc)
		return;
	size_t n = sb->alloc ? sb->alloc : 64;
	while (n < want)
		n *= 2;
	if (sb->alloc) {
		sb->buf = xrealloc(sb->buf, n);
	} else {
		sb->buf = xmalloc(n);
		sb->buf[0] = '\0';
	}
	sb->alloc = n;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)	/* data may be NULL then */
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addbuf(struct strbuf *sb, const struct strbuf *other)
{
	strbuf_add(sb, other->buf, other->len);
}

void strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->len + 2 > sb->alloc)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed for format '%s'", fmt);
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

int read_file(const char *path, struct strbuf *sb, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[65536];
	size_t total = 0;

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		total += (size_t)n;
		if (total > max) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = xstrfmt("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	const char *p = data;
	size_t left = len;

	if (fd < 0) {
		error("cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	while (left) {
		ssize_t n = write(fd, p, left);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			error("cannot write '%s': %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			free(tmp);
			return -1;
		}
		p += n;
		left -= (size_t)n;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		error("cannot rename '%s' to '%s': %s", tmp, path,
		      strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int ret = 0;

	/* from the second byte: a leading '/' is no folder to make; an empty
	 * path has none (mkdir("") fails) */
	for (char *s = *p ? p + 1 : p; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, 0777) < 0 && errno != EEXIST) {
				ret = -1;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

int ascii_strcasecmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
		if (ca != cb || !ca)
			return ca - cb;
	}
}

int ascii_strncasecmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
		if (ca != cb || !ca)
			return ca - cb;
	}
	return 0;
}

void hex_encode(const unsigned char *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}

int hex_digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int hex_decode(const char *in, unsigned char *out, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		int hi = hex_digit_value(in[2 * i]), lo;
		if (hi < 0)
			return -1;
		lo = hex_digit_value(in[2 * i + 1]);
		if (lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

static const char *remove_top;
static bool remove_keep_top;

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (remove_keep_top && !strcmp(path, remove_top))
		return 0;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

int remove_tree(const char *path, bool keep_top)
{
	remove_top = path;
	remove_keep_top = keep_top;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

void utc_format(long long t, char out[UTC_TIME_SIZE])
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(out, UTC_TIME_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, UTC_TIME_SIZE, "@%lld", t);
}

int duration_parse(const char *s, long long *seconds)
{
	static const struct { char unit; long long secs; } units[] = {
		{ 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 7 * 86400 },
	};
	char *end;
	long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || v <= 0 || end[0] == '\0' || end[1] != '\0')
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if ((*end | 0x20) != units[i].unit)
			continue;
		if (v > 10LL * 366 * 86400 / units[i].secs)
			return -1;
		*seconds = v * units[i].secs;
		return 0;
	}
	return -1;
}

void duration_format(long long seconds, struct strbuf *out)
{
	static const struct { const char *name; long long secs; } units[] = {
		{ "day", 86400 }, { "hour", 3600 }, { "minute", 60 },
	};
	int parts = 0;

	if (seconds < 60) {
		strbuf_addstr(out, seconds <= 0 ? "no time" : "less than a minute");
		return;
	}
	for (size_t i = 0; i < 3 && parts < 2; i++) {
		long long n = seconds / units[i].secs;
		if (!n) {
			if (parts)
				break;	/* "1 day", not "1 day 0 hours 5 minutes" */
			continue;
		}
		strbuf_addf(out, "%s%lld %s%s", parts ? " " : "", n,
			    units[i].name, n == 1 ? "" : "s");
		seconds -= n * units[i].secs;
		parts++;
	}
}
