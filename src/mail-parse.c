/*
 * mail-parse.c - reading a mail: its header, and its MIME tree, walked
 * once (walk_entity) for the two things postrider reads in a mail: the
 * text of a player's order (mail_parse) and the attachments of a peer
 * mail (mail_attachments). Parameters (RFC 2231 too) are read by one
 * function, transfer encodings undone by mail-text.c.
 *
 * The grammar we accept (RFC 5322 and MIME, RFC 2045-2047, reduced):
 *
 *   message  = [mbox "From " line] header LF body
 *   header   = *(field / continuation)
 *   field    = name ":" value LF       name = 1*(%d33-126 except ":")
 *   continuation = (SP / HTAB) text LF (joined to the field above)
 *   body     = text, or for multipart/ *:
 *              preamble *("--" boundary [padding] LF entity)
 *              "--" boundary "--" epilogue
 *   entity   = header LF body (the header may be empty)
 *
 * Everything works on a copy of the message with line endings made LF,
 * with explicit lengths, so a message may hold any byte.
 */
#include "mail.h"
#include "mail-internal.h"
#include "codec.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---- */

/* Frees every field and zeroes f. */
static void fields_release(struct fields *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].value);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* The value of the first field called name (any case), or NULL. */
static const char *fields_get(const struct fields *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!ascii_strcasecmp(f->v[i].name, name))
			return f->v[i].value;
	return NULL;
}

/* ---- headers ---- */

/*
 * Reads the header block at p (len bytes, LF line ends) into f (zeroed
 * by the caller). On success stores the fields and the offset of the body
 * (after the blank line). what names the entity in messages ("message" or
 * "MIME part"); need_blank: a header without the blank line after it is
 * an error. 0, or -1 with the reason in err and f released.
 */
static int parse_fields(const char *p, size_t len, struct fields *f,
			size_t *body_off, const char *what, bool need_blank,
			struct strbuf *err)
{
	size_t i = 0;
	int lineno = 0;
	struct strbuf val = STRBUF_INIT;
	char *name = NULL;

	for (;;) {
		size_t eol = i;
		if (i >= len) {
			if (need_blank) {
				strbuf_addf(err, "no blank line between the "
					    "header and the body of the %s",
					    what);
				goto fail;
			}
			*body_off = len;
			break;
		}
		while (eol < len && p[eol] != '\n')
			eol++;
		lineno++;
		if (eol == i) {
			*body_off = i + 1;
			break;
		}
		if (mail_is_wsp(p[i])) {
			if (!name) {
				strbuf_addf(err, "the %s header starts with "
					    "a folded line", what);
				goto fail;
			}
			strbuf_add(&val, p + i, eol - i);
		} else {
			size_t c = i;
			while (c < eol && p[c] != ':' &&
			       (unsigned char)p[c] > 32 &&
			       (unsigned char)p[c] < 127)
				c++;
			size_t name_end = c;
			while (c < eol && mail_is_wsp(p[c]))
				c++;
			if (c == eol || p[c] != ':' || name_end == i) {
				strbuf_addf(err, "malformed header line %d "
					    "of the %s: '", lineno, what);
				mail_add_printable(err, p + i,
					      eol - i > 60 ? 60 : eol - i);
				strbuf_addch(err, '\'');
				goto fail;
			}
			if (name) {
				struct field fl = { name, NULL };
				char *v = strbuf_detach(&val, NULL);
				fl.value = v;
				if (f->n == f->alloc) {
					f->alloc = f->alloc ? 2 * f->alloc : 16;
					f->v = xrealloc(f->v, f->alloc *
							sizeof(*f->v));
				}
				f->v[f->n++] = fl;
			}
			name = xstrndup(p + i, name_end - i);
			strbuf_add(&val, p + c + 1, eol - c - 1);
		}
		i = eol + 1;
	}
	if (name) {
		struct field fl = { name, strbuf_detach(&val, NULL) };
		if (f->n == f->alloc) {
			f->alloc = f->alloc ? 2 * f->alloc : 16;
			f->v = xrealloc(f->v, f->alloc * sizeof(*f->v));
		}
		f->v[f->n++] = fl;
	}
	strbuf_release(&val);
	/* trim the values */
	for (size_t k = 0; k < f->n; k++) {
		char *v = f->v[k].value, *s = v;
		size_t l;
		while (mail_is_wsp(*s))
			s++;
		l = strlen(s);
		while (l && mail_is_wsp(s[l - 1]))
			l--;
		memmove(v, s, l);
		v[l] = '\0';
	}
	return 0;
fail:
	free(name);
	strbuf_release(&val);
	fields_release(f);
	return -1;
}

/* The length of a leading mbox "From " envelope line (0 if none). */
static size_t skip_envelope(const char *p, size_t len)
{
	if (len >= 5 && !memcmp(p, "From ", 5)) {
		const char *nl = memchr(p, '\n', len);
		return nl ? (size_t)(nl - p) + 1 : len;
	}
	return 0;
}

/* ---- parameters and Content-Type ---- */

static void ctype_release(struct ctype *ct)
{
	free(ct->charset);
	free(ct->boundary);
	memset(ct, 0, sizeof(*ct));
}

/* Copies the token at *s (up to one of stop, blank or end) into a buffer,
 * lowercased. */
static size_t read_token(const char **s, const char *stop, char *buf,
			 size_t n)
{
	size_t k = 0;

	while (**s && !strchr(stop, **s) && !isspace((unsigned char)**s)) {
		if (k + 1 < n)
			buf[k++] = (char)tolower((unsigned char)**s);
		(*s)++;
	}
	buf[k] = '\0';
	return k;
}

/* Undoes RFC 2231's "charset'language'percent-encoded" in place. */
static void param_2231(struct strbuf *v)
{
	const char *q = strchr(strbuf_str(v), '\''), *r;
	struct strbuf dec = STRBUF_INIT;

	r = q ? strchr(q + 1, '\'') : NULL;
	for (r = r ? r + 1 : strbuf_str(v); *r; r++) {
		int hi, lo;
		if (*r == '%' && (hi = hex_digit_value(r[1])) >= 0 &&
		    (lo = hex_digit_value(r[2])) >= 0) {
			strbuf_addch(&dec, hi << 4 | lo);
			r += 2;
		} else {
			strbuf_addch(&dec, *r);
		}
	}
	strbuf_release(v);
	*v = dec;
}

/*
 * The value of parameter pname (lowercase) in a header value
 * ("type/sub; name=value; name="quoted value""), malloc'd, or NULL: the
 * first one of that name. The parameters are read in turn, each value
 * to its end, so a ';' or a name inside a quoted value is no parameter.
 * "pname*=charset''value" (RFC 2231, one piece) is decoded.
 */
static char *param_get(const char *v, const char *pname)
{
	const char *s = v ? strchr(v, ';') : NULL;

	while (s && *s == ';') {
		char name[64];
		struct strbuf pv = STRBUF_INIT;
		size_t nl;
		bool ext = false;

		s++;
		while (isspace((unsigned char)*s))
			s++;
		read_token(&s, "=;*", name, sizeof(name));
		nl = strlen(name);
		if (*s == '*') {
			ext = true;
			s++;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '=') {
			s++;
			while (isspace((unsigned char)*s))
				s++;
			if (*s == '"') {
				for (s++; *s && *s != '"'; s++) {
					if (*s == '\\' && s[1])
						s++;
					strbuf_addch(&pv, *s);
				}
				if (*s == '"')
					s++;
			} else {
				while (*s && *s != ';' && !isspace((unsigned char)*s))
					strbuf_addch(&pv, *s++);
			}
			if (nl && !strcmp(name, pname)) {
				if (ext)
					param_2231(&pv);
				return strbuf_detach(&pv, NULL);
			}
		}
		strbuf_release(&pv);
		s = strchr(s, ';');
	}
	return NULL;
}

/* Parses a Content-Type value (NULL means text/plain) into ct. */
static void parse_ctype(const char *v, struct ctype *ct)
{
	char type[32], sub[64], *p;
	const char *s = v;

	memset(ct, 0, sizeof(*ct));
	strcpy(ct->type, "text");
	strcpy(ct->sub, "plain");
	if (!v)
		return;
	while (isspace((unsigned char)*s))
		s++;
	read_token(&s, "/;", type, sizeof(type));
	if (*s == '/') {
		s++;
		read_token(&s, ";", sub, sizeof(sub));
		if (*type && *sub) {
			strcpy(ct->type, type);
			strcpy(ct->sub, sub);
		}
	}
	ct->charset = param_get(v, "charset");
	ct->boundary = param_get(v, "boundary");
	if ((p = param_get(v, "format")))
		ct->flowed = !ascii_strcasecmp(p, "flowed");
	free(p);
	if ((p = param_get(v, "delsp")))
		ct->delsp = !ascii_strcasecmp(p, "yes");
	free(p);
}

/* True if a Content-Disposition value says "attachment". */
static bool is_attachment(const char *v)
{
	if (!v)
		return false;
	while (isspace((unsigned char)*v))
		v++;
	return !ascii_strncasecmp(v, "attachment", 10) &&
	       (!v[10] || v[10] == ';' || isspace((unsigned char)v[10]));
}

/* ---- the MIME tree: one walk, for the order text and the attachments ---- */

/*
 * What the walk does with each leaf: a part that is neither multipart nor
 * a forwarded message (whose parts are not this mail's). f and ct are the
 * leaf's fields and Content-Type, body its body (transfer encoding not
 * undone), depth 0 for the message itself. 0 to go on, or -1 with the
 * reason in err to stop.
 */
typedef int mime_leaf_fn(void *ctx, const struct fields *f,
			 const struct ctype *ct, const char *body, size_t len,
			 int depth, struct strbuf *err);

struct mime_walk {
	mime_leaf_fn *leaf;
	void *ctx;
	int depth;
	struct strbuf *err;
};

static int walk_entity(const struct mime_walk *w, const struct fields *f,
		       const char *body, size_t len);

/* Is the line at p (up to eol) a delimiter of boundary b? 2 = closing. */
static int delimiter_kind(const char *p, size_t n, const char *b, size_t bl)
{
	if (n < bl + 2 || p[0] != '-' || p[1] != '-' || memcmp(p + 2, b, bl))
		return 0;
	size_t k = bl + 2;
	int kind = 1;
	if (n >= k + 2 && p[k] == '-' && p[k + 1] == '-') {
		kind = 2;
		k += 2;
	}
	for (; k < n; k++)
		if (!mail_is_wsp(p[k]))
			return 0;
	return kind;
}

/*
 * Calls each(w, part, plen) for every body part of the multipart body p
 * (len bytes) delimited by boundary b, in order. 0 when the closing
 * delimiter was reached, -1 when each() failed (its -1), 1 when no
 * delimiter was found, 2 when the body ends before the closing one.
 */
static int multipart_split(const char *p, size_t len, const char *b,
			   int (*each)(const struct mime_walk *w, const char *part,
				       size_t plen),
			   const struct mime_walk *w)
{
	size_t bl = strlen(b), i = 0;
	const char *part = NULL;

	while (i < len) {
		size_t eol = i;
		while (eol < len && p[eol] != '\n')
			eol++;
		int kind = delimiter_kind(p + i, eol - i, b, bl);
		if (kind) {
			if (part) {
				/* the LF before the delimiter belongs to it */
				size_t plen = (size_t)(p + i - part);
				if (plen)
					plen--;
				if (each(w, part, plen) < 0)
					return -1;
			}
			if (kind == 2)
				return 0;
			part = eol < len ? p + eol + 1 : p + len;
		}
		i = eol + 1;
	}
	return part ? 2 : 1;
}

/* One body part of a multipart: its header, then the entity. */
static int walk_part(const struct mime_walk *parent, const char *p, size_t len)
{
	struct mime_walk w = *parent;
	struct fields f = { 0 };
	size_t off;
	int ret;

	w.depth++;
	if (w.depth > MAX_DEPTH) {
		strbuf_addstr(w.err, "MIME parts nested too deeply");
		return -1;
	}
	if (parse_fields(p, len, &f, &off, "MIME part", false, w.err) < 0)
		return -1;
	ret = walk_entity(&w, &f, p + off, len - off);
	fields_release(&f);
	return ret;
}

static int walk_multipart(const struct mime_walk *w, const struct ctype *ct,
			  const char *p, size_t len)
{
	const char *b = ct->boundary;
	int r;

	if (!b || !*b) {
		strbuf_addf(w->err, "multipart/%s part without a boundary "
			    "parameter", ct->sub);
		return -1;
	}
	if (strlen(b) > 200) {
		strbuf_addstr(w->err, "MIME boundary longer than 200 bytes");
		return -1;
	}
	r = multipart_split(p, len, b, walk_part, w);
	if (r <= 0)
		return r;
	strbuf_addf(w->err, "broken MIME structure: boundary '");
	mail_add_printable(w->err, b, strlen(b));
	if (r == 1)
		strbuf_addf(w->err, "' not found in the multipart/%s part",
			    ct->sub);
	else
		strbuf_addstr(w->err, "' is never closed");
	return -1;
}

/* Walks one entity whose header is f and body body (len bytes). */
static int walk_entity(const struct mime_walk *w, const struct fields *f,
		       const char *body, size_t len)
{
	struct ctype ct;
	int ret = 0;

	parse_ctype(fields_get(f, "Content-Type"), &ct);
	if (!strcmp(ct.type, "multipart"))
		ret = walk_multipart(w, &ct, body, len);
	else if (strcmp(ct.type, "message"))
		ret = w->leaf(w->ctx, f, &ct, body, len, w->depth, w->err);
	ctype_release(&ct);
	return ret;
}

/* The text parts found so far: the first text/plain and text/html. */
struct texts {
	struct candidate plain, html;
};

/* Records a text leaf as a candidate if it is the first of its kind. */
static void take_candidate(struct candidate *c, const struct fields *f,
			   const struct ctype *ct, const char *p, size_t len)
{
	const char *cte = fields_get(f, "Content-Transfer-Encoding");

	if (c->found)
		return;
	c->found = true;
	c->body.p = p;
	c->body.len = len;
	c->cte = xstrdup(cte ? cte : "");
	c->charset = ct->charset ? xstrdup(ct->charset) : NULL;
	c->flowed = ct->flowed;
	c->delsp = ct->delsp;
}

/* The leaf function of the order text: a text/plain or text/html leaf
 * that is no attachment (the message's own body is read whatever its
 * Content-Disposition says). */
static int take_text(void *ctx, const struct fields *f, const struct ctype *ct,
		     const char *body, size_t len, int depth, struct strbuf *err)
{
	struct texts *t = ctx;

	(void)err;
	if (strcmp(ct->type, "text") ||
	    (depth && is_attachment(fields_get(f, "Content-Disposition"))))
		return 0;
	if (!strcmp(ct->sub, "plain"))
		take_candidate(&t->plain, f, ct, body, len);
	else if (!strcmp(ct->sub, "html"))
		take_candidate(&t->html, f, ct, body, len);
	return 0;
}

/* ---- the message ---- */

void mail_message_release(struct mail_message *m)
{
	if (!m)
		return;
	free(m->from_addr);
	free(m->from_name);
	free(m->subject);
	free(m->message_id);
	free(m->in_reply_to);
	free(m->references);
	free(m->game_header);
	free(m->to);
	free(m->body);
	memset(m, 0, sizeof(*m));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void candidate_release(struct candidate *c)
{
	free(c->cte);
	free(c->charset);
}

/* True if a NUL byte comes before the first blank line of p. */
static bool header_has_nul(const char *p, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (!p[k])
			return true;
		if (p[k] == '\n' && (k == 0 || p[k - 1] == '\n'))
			return false;
	}
	return false;
}

/* The first word of a header value, lowercased, into buf. */
static const char *first_word(const char *v, char *buf, size_t size)
{
	size_t n = 0;

	while (*v == ' ' || *v == '\t')
		v++;
	while (*v && *v != ';' && *v != ' ' && *v != '\t' && n + 1 < size)
		buf[n++] = (char)tolower((unsigned char)*v++);
	buf[n] = '\0';
	return buf;
}

/*
 * Why a message was sent by a machine and must get no answer (RFC 3834:
 * auto-replies; RFC 3464 bounces; RFC 2369/2919 list mail), or NULL.
 */
static const char *automatic_reason(const struct fields *f, const char *from)
{
	const char *as = fields_get(f, "Auto-Submitted");
	const char *pr = fields_get(f, "Precedence");
	const char *rp = fields_get(f, "Return-Path");
	char w[32];

	if (as && strcmp(first_word(as, w, sizeof(w)), "no"))
		return "Auto-Submitted other than \"no\"";
	if (pr) {
		first_word(pr, w, sizeof(w));
		if (!strcmp(w, "bulk") || !strcmp(w, "junk") ||
		    !strcmp(w, "list") || !strcmp(w, "auto_reply"))
			return "Precedence: bulk, junk, list or auto_reply";
	}
	/* not X-Auto-Response-Suppress: Outlook puts that request on
	 * ordinary mail a person wrote, which must never be dropped */
	if (fields_get(f, "X-Autoreply") || fields_get(f, "X-Autorespond"))
		return "an X-Autoreply header";
	if (fields_get(f, "List-Id") || fields_get(f, "List-Post"))
		return "list mail (List-Id)";
	if (rp) {
		const char *p = rp;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, "<>", 2))
			return "a null sender (Return-Path: <>), a bounce";
	}
	if (from && (!ascii_strncasecmp(from, "mailer-daemon@", 14) ||
		     !ascii_strncasecmp(from, "postmaster@", 11)))
		return "a MAILER-DAEMON sender, a bounce";
	return NULL;
}

int mail_parse(const char *raw, size_t len, struct mail_message *out,
	       struct strbuf *err)
{
	struct fields f = { 0 };
	struct texts texts = { 0 };
	struct mime_walk w = { take_text, &texts, 0, err };
	char *msg, *name = NULL;
	size_t n, off, start;
	const char *from;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (len > MAIL_MAX_SIZE) {
		strbuf_addf(err, "message too large (%zu bytes; the limit is "
			    "%d bytes): send the order without attachments",
			    len, MAIL_MAX_SIZE);
		return -1;
	}
	if (!len) {
		strbuf_addstr(err, "empty message");
		return -1;
	}
	msg = mail_normalize_eol(raw, len, &n);
	start = skip_envelope(msg, n);
	if (header_has_nul(msg + start, n - start)) {
		strbuf_addstr(err, "the message header contains a NUL byte");
		free(msg);
		return -1;
	}
	if (parse_fields(msg + start, n - start, &f, &off, "message", true,
			 err) < 0) {
		free(msg);
		return -1;
	}
	off += start;

	from = fields_get(&f, "From");
	if (!from) {
		strbuf_addstr(err, "no From: header in the message");
		goto out;
	}
	{
		size_t end = mail_next_item(from, 0);
		out->from_addr = mail_read_mailbox(from, end, &name);
	}
	if (!out->from_addr) {
		strbuf_addstr(err, "cannot read the sender address in From: '");
		mail_add_printable(err, from, strlen(from) > 80 ? 80 : strlen(from));
		strbuf_addch(err, '\'');
		goto out;
	}
	if (name) {
		char *uq = mail_unquote(name), *dec = mail_decode_header(uq), *t;
		free(uq);
		t = mail_trim_dup(dec, strlen(dec));
		free(dec);
		if (*t)
			out->from_name = t;
		else
			free(t);
	}
	out->subject = mail_decode_header(fields_get(&f, "Subject") ?
				     fields_get(&f, "Subject") : "");
	out->message_id = dup_or_null(fields_get(&f, "Message-ID"));
	out->in_reply_to = dup_or_null(fields_get(&f, "In-Reply-To"));
	out->references = dup_or_null(fields_get(&f, "References"));
	out->game_header = dup_or_null(fields_get(&f, "X-Postrider-Game"));
	out->to = dup_or_null(fields_get(&f, "To"));
	out->automatic = automatic_reason(&f, out->from_addr);

	/* the body */
	if (walk_entity(&w, &f, msg + off, n - off) < 0)
		goto out;
	if (texts.plain.found)
		out->body = mail_decode_text(&texts.plain, false, err);
	else if (texts.html.found)
		out->body = mail_decode_text(&texts.html, true, err);
	else
		strbuf_addstr(err, "the message has no text/plain or "
			      "text/html part to read the order from");
	if (out->body)
		ret = 0;
out:
	candidate_release(&texts.plain);
	candidate_release(&texts.html);
	free(name);
	fields_release(&f);
	free(msg);
	if (ret < 0)
		mail_message_release(out);
	return ret;
}

char *mail_header_get(const char *raw, size_t len, const char *name)
{
	struct fields f = { 0 };
	struct strbuf err = STRBUF_INIT;
	size_t n, off, start;
	char *msg, *res = NULL;
	const char *v;

	if (len > MAIL_MAX_SIZE)
		len = MAIL_MAX_SIZE;
	msg = mail_normalize_eol(raw, len, &n);
	start = skip_envelope(msg, n);
	if (!parse_fields(msg + start, n - start, &f, &off, "message", false,
			  &err)) {
		v = fields_get(&f, name);
		res = dup_or_null(v);
		fields_release(&f);
	}
	strbuf_release(&err);
	free(msg);
	return res;
}

/* ---- the attachments ---- */

struct found {
	struct mail_attachment *v;
	size_t n, alloc;
};

/* The leaf function of the attachments: a leaf with a file name, its
 * body decoded from its transfer encoding. */
static int take_attachment(void *ctx, const struct fields *f,
			   const struct ctype *ct, const char *body, size_t len,
			   int depth, struct strbuf *err)
{
	struct found *fd = ctx;
	char *name = param_get(fields_get(f, "Content-Disposition"), "filename");
	const char *cte = fields_get(f, "Content-Transfer-Encoding");
	struct strbuf data = STRBUF_INIT;
	struct mail_attachment *a;

	(void)depth;
	if (!name)
		name = param_get(fields_get(f, "Content-Type"), "name");
	if (!name)
		return 0;
	if (mail_decode_transfer(cte, body, len, &data) < 0) {
		strbuf_addstr(err, "an attachment has an unknown transfer "
			      "encoding '");
		mail_add_printable(err, cte, strlen(cte) > 40 ? 40 : strlen(cte));
		strbuf_addch(err, '\'');
		free(name);
		return -1;
	}
	if (fd->n == fd->alloc) {
		fd->alloc = fd->alloc ? 2 * fd->alloc : 4;
		fd->v = xrealloc(fd->v, fd->alloc * sizeof(*fd->v));
	}
	a = &fd->v[fd->n++];
	memset(a, 0, sizeof(*a));
	a->name = name;
	snprintf(a->type, sizeof(a->type), "%s/%s", ct->type, ct->sub);
	a->data = strbuf_detach(&data, &a->len);
	return 0;
}

int mail_attachments(const char *raw, size_t len, struct mail_attachment **out,
		     size_t *n, struct strbuf *err)
{
	struct found fd = { NULL, 0, 0 };
	struct mime_walk w = { take_attachment, &fd, 0, err };
	struct fields f = { 0 };
	size_t nlen, skip, off;
	char *norm;
	int ret = -1;

	*out = NULL;
	*n = 0;
	if (len > MAIL_MAX_SIZE) {
		strbuf_addf(err, "the message is larger than %d bytes",
			    MAIL_MAX_SIZE);
		return -1;
	}
	norm = mail_normalize_eol(raw, len, &nlen);
	skip = skip_envelope(norm, nlen);
	if (parse_fields(norm + skip, nlen - skip, &f, &off, "message", false,
			 err) == 0) {
		ret = walk_entity(&w, &f, norm + skip + off, nlen - skip - off);
		fields_release(&f);
	}
	free(norm);
	if (ret < 0) {
		mail_attachments_free(fd.v, fd.n);
		return -1;
	}
	*out = fd.v;
	*n = fd.n;
	return 0;
}

void mail_attachments_free(struct mail_attachment *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].name);
		free(a[i].data);
	}
	free(a);
}
