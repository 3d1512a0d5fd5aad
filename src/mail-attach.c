/*
 * mail-attach.c - the attachments of a mail: every leaf of the MIME tree
 * that has a file name, decoded from its transfer encoding. The mail is
 * read as mail-parse.c reads it (line ends made LF, the same header and
 * multipart grammar).
 */
#include "mail.h"
#include "mail-internal.h"
#include "codec.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct found {
	struct mail_attachment *v;
	size_t n, alloc;
	struct strbuf *err;
};

/* The value of parameter pname (lowercase) in a header value, malloc'd,
 * or NULL. "pname*=charset''value" (RFC 2231, one piece) is decoded. */
static char *param_get(const char *v, const char *pname)
{
	size_t pl = strlen(pname);

	for (const char *s = v ? strchr(v, ';') : NULL; s; s = strchr(s, ';')) {
		bool ext = false;
		struct strbuf pv = STRBUF_INIT;
		s++;
		while (isspace((unsigned char)*s))
			s++;
		if (ascii_strncasecmp(s, pname, pl))
			continue;
		s += pl;
		if (*s == '*') {
			ext = true;
			s++;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '=')
			continue;
		s++;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && s[1])
					s++;
				strbuf_addch(&pv, *s);
			}
		} else {
			while (*s && *s != ';' && !isspace((unsigned char)*s))
				strbuf_addch(&pv, *s++);
		}
		if (ext) {
			/* charset'language'percent-encoded */
			const char *q = strchr(pv.buf, '\''), *r;
			struct strbuf dec = STRBUF_INIT;
			r = q ? strchr(q + 1, '\'') : NULL;
			for (r = r ? r + 1 : pv.buf; *r; r++) {
				int hi, lo;
				if (*r == '%' && (hi = hex_digit_value(r[1])) >= 0 &&
				    (lo = hex_digit_value(r[2])) >= 0) {
					strbuf_addch(&dec, hi << 4 | lo);
					r += 2;
				} else {
					strbuf_addch(&dec, *r);
				}
			}
			strbuf_release(&pv);
			return strbuf_detach(&dec, NULL);
		}
		return strbuf_detach(&pv, NULL);
	}
	return NULL;
}

/* Decodes a leaf's body by its Content-Transfer-Encoding into out. */
static int decode_body(const char *cte, const char *p, size_t len,
		       struct strbuf *out, struct strbuf *err)
{
	char word[32];
	size_t k = 0;

	for (const char *s = cte ? cte : ""; *s && k + 1 < sizeof(word); s++)
		if (!isspace((unsigned char)*s))
			word[k++] = (char)tolower((unsigned char)*s);
	word[k] = '\0';
	if (!strcmp(word, "base64")) {
		codec_base64_decode(p, len, out);
	} else if (!strcmp(word, "quoted-printable")) {
		mail_qp_decode(p, len, out);
	} else if (!*word || !strcmp(word, "7bit") || !strcmp(word, "8bit") ||
		   !strcmp(word, "binary")) {
		strbuf_add(out, p, len);
	} else {
		strbuf_addstr(err, "an attachment has an unknown transfer "
			      "encoding '");
		mail_add_printable(err, cte, strlen(cte) > 40 ? 40 : strlen(cte));
		strbuf_addch(err, '\'');
		return -1;
	}
	return 0;
}

static int walk(struct found *fd, const char *p, size_t len, int depth);

struct walk_part {
	struct found *fd;
	int depth;
};

static int walk_one_part(void *ctx, const char *part, size_t plen)
{
	struct walk_part *wp = ctx;

	return walk(wp->fd, part, plen, wp->depth + 1);
}

static int walk_parts(struct found *fd, const struct ctype *ct, const char *p,
		      size_t len, int depth)
{
	struct walk_part wp = { fd, depth };
	int r;

	if (!ct->boundary || !*ct->boundary || strlen(ct->boundary) > 200) {
		strbuf_addstr(fd->err, "a multipart part without a usable "
			      "boundary");
		return -1;
	}
	r = mail_multipart_split(p, len, ct->boundary, walk_one_part, &wp);
	if (r <= 0)
		return r;
	strbuf_addstr(fd->err, "broken MIME structure: a multipart part is "
		      "never closed");
	return -1;
}

/* Records the leaf if it has a file name. */
static int take_leaf(struct found *fd, const struct fields *f,
		     const struct ctype *ct, const char *p, size_t len)
{
	char *name = param_get(mail_fields_get(f, "Content-Disposition"),
			       "filename");
	struct strbuf data = STRBUF_INIT;
	struct mail_attachment *a;

	if (!name)
		name = param_get(mail_fields_get(f, "Content-Type"), "name");
	if (!name)
		return 0;
	if (decode_body(mail_fields_get(f, "Content-Transfer-Encoding"), p, len,
			&data, fd->err) < 0) {
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

static int walk(struct found *fd, const char *p, size_t len, int depth)
{
	struct fields f = { 0 };
	struct ctype ct;
	size_t off;
	int ret;

	if (depth > MAX_DEPTH) {
		strbuf_addstr(fd->err, "MIME parts nested too deeply");
		return -1;
	}
	if (mail_parse_fields(p, len, &f, &off, "MIME part", false, fd->err) < 0)
		return -1;
	mail_parse_ctype(mail_fields_get(&f, "Content-Type"), &ct);
	if (!strcmp(ct.type, "multipart"))
		ret = walk_parts(fd, &ct, p + off, len - off, depth);
	else if (!strcmp(ct.type, "message"))
		ret = 0;	/* a forwarded mail's attachments are not ours */
	else
		ret = take_leaf(fd, &f, &ct, p + off, len - off);
	mail_ctype_release(&ct);
	mail_fields_release(&f);
	return ret;
}

int mail_attachments(const char *raw, size_t len, struct mail_attachment **out,
		     size_t *n, struct strbuf *err)
{
	struct found fd = { NULL, 0, 0, err };
	size_t nlen, skip;
	char *norm;
	int ret;

	*out = NULL;
	*n = 0;
	if (len > MAIL_MAX_SIZE) {
		strbuf_addf(err, "the message is larger than %d bytes",
			    MAIL_MAX_SIZE);
		return -1;
	}
	norm = mail_normalize_eol(raw, len, &nlen);
	skip = mail_skip_envelope(norm, nlen);
	ret = walk(&fd, norm + skip, nlen - skip, 0);
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
