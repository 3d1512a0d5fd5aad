/*
 * mail-internal.h - what the parts of the mail reader share: mail-parse.c
 * (headers and the MIME tree: the order text and the attachments),
 * mail-text.c (line ends, transfer encodings, charsets, HTML to text,
 * RFC 2047), mail-addr.c (addresses) and mail-order.c (the postrider
 * policy: the order text, tokens and game ids). mail-parse.c stands on
 * mail-text.c and mail-addr.c, which call nothing of it. Not for other
 * modules; mail.h is the interface.
 *
 * Ownership: as mail.h; a struct fields owns its strings.
 */
#ifndef POSTRIDER_MAIL_INTERNAL_H
#define POSTRIDER_MAIL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

#define MAX_DEPTH 16

struct field {
	char *name;
	char *value;	/* unfolded, trimmed, raw bytes */
};

struct fields {
	struct field *v;
	size_t n, alloc;
};

/* A slice of the normalized message. */
struct span {
	const char *p;
	size_t len;
};

/* Content-Type and friends of one entity. */
struct ctype {
	char type[32];
	char sub[64];
	char *charset;
	char *boundary;
	bool flowed, delsp;
};

/* A text part chosen while walking the tree. */
struct candidate {
	bool found;
	struct span body;
	char *cte;
	char *charset;
	bool flowed, delsp;
};

/* A blank within a line: space or tab. */
static inline bool mail_is_wsp(int c)
{
	return c == ' ' || c == '\t';
}

/* Appends s (n bytes) with every non-printable byte shown as '?'. */
void mail_add_printable(struct strbuf *sb, const char *s, size_t n);
/* A header value with its RFC 2047 encoded words decoded, as UTF-8 (malloc'd). */
char *mail_decode_header(const char *s);
/* The text of the chosen part c (as HTML if html), as UTF-8 (malloc'd), or NULL with the reason in err. */
char *mail_decode_text(const struct candidate *c, bool html,
			 struct strbuf *err);
/* The offset of the comma that ends the address-list item starting at
 * s[start] (commas in quotes, <> and comments do not count), or the end. */
size_t mail_next_item(const char *s, size_t start);
/* raw[0..len) with CRLF and CR made LF (malloc'd, NUL-terminated); its length in *out_len. */
char *mail_normalize_eol(const char *raw, size_t len, size_t *out_len);
/* Undoes the Content-Transfer-Encoding cte (a field's value; NULL or ""
 * for none) of p (len bytes, LF line ends), appending to out: 0, or -1
 * when cte names no encoding this reader knows (out unchanged). */
int mail_decode_transfer(const char *cte, const char *p, size_t len,
			 struct strbuf *out);
/* Lenient reading of one mailbox s[0..n) ("Name <a@b>", "a@b (Name)",
 * "<a@b>"): the validated address (malloc'd) or NULL; *name the raw phrase or NULL. */
char *mail_read_mailbox(const char *s, size_t n, char **name);
/* s[0..n) without surrounding white space (malloc'd). */
char *mail_trim_dup(const char *s, size_t n);
/* A quoted string's content, backslash escapes undone (malloc'd). */
char *mail_unquote(const char *s);
/* Finds needle (lowercase) in s[0..n) ignoring ASCII case: its offset, or n. */
size_t mail_find_ci(const char *s, size_t n, const char *needle);

#endif
