/*
 * mail-parse.c - reading a player's order mail.
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

/* Frees every field. */
void mail_fields_release(struct fields *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].value);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* The value of the first field called name, or NULL. */
const char *mail_fields_get(const struct fields *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!ascii_strcasecmp(f->v[i].name, name))
			return f->v[i].value;
	return NULL;
}

/* Returns a copy of raw with CRLF and lone CR turned into LF. */
char *mail_normalize_eol(const char *raw, size_t len, size_t *out_len)
{
	char *out = xmalloc(len + 1);
	size_t j = 0;

	for (size_t i = 0; i < len; i++) {
		if (raw[i] == '\r') {
			out[j++] = '\n';
			if (i + 1 < len && raw[i + 1] == '\n')
				i++;
		} else {
			out[j++] = raw[i];
		}
	}
	out[j] = '\0';
	*out_len = j;
	return out;
}

/* ---- headers ---- */

/*
 * Reads the header block at p (len bytes). On success stores the fields
 * and the offset of the body (after the blank line). what names the
 * entity in messages ("message" or "MIME part").
 */
int mail_parse_fields(const char *p, size_t len, struct fields *f,
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
	mail_fields_release(f);
	return -1;
}

/* Skips a leading mbox "From " envelope line. */
size_t mail_skip_envelope(const char *p, size_t len)
{
	if (len >= 5 && !memcmp(p, "From ", 5)) {
		const char *nl = memchr(p, '\n', len);
		return nl ? (size_t)(nl - p) + 1 : len;
	}
	return 0;
}

/* ---- Content-Type ---- */

void mail_ctype_release(struct ctype *ct)
{
	free(ct->charset);
	free(ct->boundary);
	memset(ct, 0, sizeof(*ct));
}

/* Copies the token at *s (up to one of stop, blank or end) into a buffer. */
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

/* Parses a Content-Type value (NULL means text/plain). */
void mail_parse_ctype(const char *v, struct ctype *ct)
{
	memset(ct, 0, sizeof(*ct));
	strcpy(ct->type, "text");
	strcpy(ct->sub, "plain");
	if (!v)
		return;
	const char *s = v;
	char type[32], sub[64];
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
	/* parameters */
	while ((s = strchr(s, ';'))) {
		char pname[32];
		struct strbuf pv = STRBUF_INIT;
		s++;
		while (isspace((unsigned char)*s))
			s++;
		read_token(&s, "=;", pname, sizeof(pname));
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '=')
			continue;
		s++;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '"') {
			s++;
			while (*s && *s != '"') {
				if (*s == '\\' && s[1])
					s++;
				strbuf_addch(&pv, *s++);
			}
			if (*s == '"')
				s++;
		} else {
			while (*s && *s != ';' && !isspace((unsigned char)*s))
				strbuf_addch(&pv, *s++);
		}
		if (!strcmp(pname, "charset") && !ct->charset) {
			ct->charset = strbuf_detach(&pv, NULL);
		} else if (!strcmp(pname, "boundary") && !ct->boundary) {
			ct->boundary = strbuf_detach(&pv, NULL);
		} else if (!strcmp(pname, "format")) {
			ct->flowed = !ascii_strcasecmp(strbuf_str(&pv),
						       "flowed");
		} else if (!strcmp(pname, "delsp")) {
			ct->delsp = !ascii_strcasecmp(strbuf_str(&pv), "yes");
		}
		strbuf_release(&pv);
	}
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

/* ---- the MIME tree ---- */

static int walk_entity(struct walk *w, const char *p, size_t len, int depth);

/* Records a text leaf as a candidate if it is the first of its kind. */
static void take_candidate(struct candidate *c, const struct fields *f,
			   const struct ctype *ct, const char *p, size_t len)
{
	const char *cte = mail_fields_get(f, "Content-Transfer-Encoding");

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

/* Is the line at p (up to eol) a delimiter of boundary b? 2 = closing. */
int mail_delimiter_kind(const char *p, size_t n, const char *b, size_t bl)
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

int mail_multipart_split(const char *p, size_t len, const char *b,
			 int (*each)(void *ctx, const char *part, size_t plen),
			 void *ctx)
{
	size_t bl = strlen(b), i = 0;
	const char *part = NULL;

	while (i < len) {
		size_t eol = i;
		while (eol < len && p[eol] != '\n')
			eol++;
		int kind = mail_delimiter_kind(p + i, eol - i, b, bl);
		if (kind) {
			if (part) {
				/* the LF before the delimiter belongs to it */
				size_t plen = (size_t)(p + i - part);
				if (plen)
					plen--;
				if (each(ctx, part, plen) < 0)
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

struct walk_part {
	struct walk *w;
	int depth;
};

static int walk_one_part(void *ctx, const char *part, size_t plen)
{
	struct walk_part *wp = ctx;

	return walk_entity(wp->w, part, plen, wp->depth + 1);
}

static int walk_multipart(struct walk *w, const struct ctype *ct,
			  const char *p, size_t len, int depth)
{
	const char *b = ct->boundary;
	struct walk_part wp = { w, depth };
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
	r = mail_multipart_split(p, len, b, walk_one_part, &wp);
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

/* Walks one entity (header and body) at p, len bytes. */
static int walk_entity(struct walk *w, const char *p, size_t len, int depth)
{
	struct fields f = { 0 };
	struct ctype ct;
	size_t off;
	int ret = 0;

	if (depth > MAX_DEPTH) {
		strbuf_addstr(w->err, "MIME parts nested too deeply");
		return -1;
	}
	if (mail_parse_fields(p, len, &f, &off, "MIME part", false, w->err) < 0)
		return -1;
	mail_parse_ctype(mail_fields_get(&f, "Content-Type"), &ct);
	if (!strcmp(ct.type, "multipart")) {
		ret = walk_multipart(w, &ct, p + off, len - off, depth);
	} else if (!strcmp(ct.type, "text") &&
		   !is_attachment(mail_fields_get(&f, "Content-Disposition"))) {
		if (!strcmp(ct.sub, "plain"))
			take_candidate(&w->plain, &f, &ct, p + off, len - off);
		else if (!strcmp(ct.sub, "html"))
			take_candidate(&w->html, &f, &ct, p + off, len - off);
	}
	mail_ctype_release(&ct);
	mail_fields_release(&f);
	return ret;
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
	const char *as = mail_fields_get(f, "Auto-Submitted");
	const char *pr = mail_fields_get(f, "Precedence");
	const char *rp = mail_fields_get(f, "Return-Path");
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
	if (mail_fields_get(f, "X-Autoreply") || mail_fields_get(f, "X-Autorespond"))
		return "an X-Autoreply header";
	if (mail_fields_get(f, "List-Id") || mail_fields_get(f, "List-Post"))
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
	struct walk w = { .err = err };
	struct ctype ct;
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
	start = mail_skip_envelope(msg, n);
	if (header_has_nul(msg + start, n - start)) {
		strbuf_addstr(err, "the message header contains a NUL byte");
		free(msg);
		return -1;
	}
	if (mail_parse_fields(msg + start, n - start, &f, &off, "message", true,
			 err) < 0) {
		free(msg);
		return -1;
	}
	off += start;

	from = mail_fields_get(&f, "From");
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
	out->subject = mail_decode_header(mail_fields_get(&f, "Subject") ?
				     mail_fields_get(&f, "Subject") : "");
	out->message_id = dup_or_null(mail_fields_get(&f, "Message-ID"));
	out->in_reply_to = dup_or_null(mail_fields_get(&f, "In-Reply-To"));
	out->references = dup_or_null(mail_fields_get(&f, "References"));
	out->game_header = dup_or_null(mail_fields_get(&f, "X-Postrider-Game"));
	out->to = dup_or_null(mail_fields_get(&f, "To"));
	out->automatic = automatic_reason(&f, out->from_addr);

	/* the body */
	mail_parse_ctype(mail_fields_get(&f, "Content-Type"), &ct);
	if (!strcmp(ct.type, "multipart")) {
		int r = walk_multipart(&w, &ct, msg + off, n - off, 1);
		mail_ctype_release(&ct);
		if (r < 0)
			goto out;
	} else {
		if (!strcmp(ct.type, "text") && !strcmp(ct.sub, "html"))
			take_candidate(&w.html, &f, &ct, msg + off, n - off);
		else if (!strcmp(ct.type, "text") && !strcmp(ct.sub, "plain"))
			take_candidate(&w.plain, &f, &ct, msg + off, n - off);
		mail_ctype_release(&ct);
	}
	if (w.plain.found)
		out->body = mail_decode_text(&w.plain, false, err);
	else if (w.html.found)
		out->body = mail_decode_text(&w.html, true, err);
	else
		strbuf_addstr(err, "the message has no text/plain or "
			      "text/html part to read the order from");
	if (out->body)
		ret = 0;
out:
	candidate_release(&w.plain);
	candidate_release(&w.html);
	free(name);
	mail_fields_release(&f);
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
	start = mail_skip_envelope(msg, n);
	if (!mail_parse_fields(msg + start, n - start, &f, &off, "message", false,
			  &err)) {
		v = mail_fields_get(&f, name);
		res = dup_or_null(v);
		mail_fields_release(&f);
	}
	strbuf_release(&err);
	free(msg);
	return res;
}
