/*
 * mail-internal.h - what the parts of the mail reader share: mail-parse.c
 * (headers and the MIME tree), mail-text.c (transfer encodings, charsets,
 * HTML to text, RFC 2047), mail-addr.c (addresses) and mail-order.c (the
 * postrider policy: the order text, tokens and game ids). Not for other
 * modules; mail.h is the interface.
 *
 * Ownership: as mail.h; a struct fields owns its strings
 * (mail_fields_release()).
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

/* The text part found so far while walking the tree. */
struct candidate {
	bool found;
	struct span body;
	char *cte;
	char *charset;
	bool flowed, delsp;
};

struct walk {
	struct candidate plain, html;
	struct strbuf *err;
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
/* Lenient reading of one mailbox s[0..n) ("Name <a@b>", "a@b (Name)",
 * "<a@b>"): the validated address (malloc'd) or NULL; *name the raw phrase or NULL. */
char *mail_read_mailbox(const char *s, size_t n, char **name);
/* s[0..n) without surrounding white space (malloc'd). */
char *mail_trim_dup(const char *s, size_t n);
/* A quoted string's content, backslash escapes undone (malloc'd). */
char *mail_unquote(const char *s);
/* Finds needle (lowercase) in s[0..n) ignoring ASCII case: its offset, or n. */
size_t mail_find_ci(const char *s, size_t n, const char *needle);

/* ---- mail-parse.c, shared with mail-attach.c ---- */

/* Frees every field and zeroes f. */
void mail_fields_release(struct fields *f);
/* The value of the first field called name (any case), or NULL. */
const char *mail_fields_get(const struct fields *f, const char *name);
/*
 * Parses the header at p (len bytes, LF line ends) into f (zeroed by the
 * caller); *body_off is where the body starts. need_blank: a header
 * without the blank line after it is an error. 0, or -1 with the reason
 * appended to err (what names the entity) and f released.
 */
int mail_parse_fields(const char *p, size_t len, struct fields *f,
		      size_t *body_off, const char *what, bool need_blank,
		      struct strbuf *err);
/* The length of a leading mbox "From " line (0 if none). */
size_t mail_skip_envelope(const char *p, size_t len);
/* Parses a Content-Type value (NULL: text/plain) into ct. */
void mail_parse_ctype(const char *v, struct ctype *ct);
void mail_ctype_release(struct ctype *ct);
/* Is the line p[0..n) a delimiter of boundary b (bl bytes)? 0 no, 1 yes,
 * 2 the closing one. */
int mail_delimiter_kind(const char *p, size_t n, const char *b, size_t bl);
/*
 * Calls each(ctx, part, plen) for every body part of the multipart body p
 * (len bytes) delimited by boundary b, in order. 0 when the closing
 * delimiter was reached, -1 when each() failed (its -1), 1 when no
 * delimiter was found, 2 when the body ends before the closing one.
 */
int mail_multipart_split(const char *p, size_t len, const char *b,
			 int (*each)(void *ctx, const char *part, size_t plen),
			 void *ctx);
/* Decodes quoted-printable text (LF line ends), appending to out. */
void mail_qp_decode(const char *s, size_t n, struct strbuf *out);

#endif
