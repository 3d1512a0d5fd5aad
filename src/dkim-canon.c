/*
 * dkim-canon.c - a message's line ends, header fields and body, and their
 * two canonical forms, simple and relaxed (RFC 6376 3.4; dkim.h).
 */
#include <string.h>

#include "dkim.h"

static bool wsp(char c)
{
	return c == ' ' || c == '\t';
}

void dkim_crlf(const char *msg, size_t len, struct strbuf *out)
{
	if (len > 5 && !memcmp(msg, "From ", 5)) {
		/* an mbox envelope line (procmail hands one over) */
		const char *nl = memchr(msg, '\n', len);
		size_t skip = nl ? (size_t)(nl + 1 - msg) : len;
		msg += skip;
		len -= skip;
	}
	strbuf_grow(out, len + len / 32 + 2);
	for (size_t i = 0; i < len; i++) {
		if (msg[i] == '\n' && (i == 0 || msg[i - 1] != '\r'))
			strbuf_addch(out, '\r');
		strbuf_addch(out, msg[i]);
	}
}

int dkim_split(const char *msg, size_t len, struct dkim_field *fields, size_t max,
	       size_t *n, const char **body)
{
	const char *p = msg, *end = msg + len;

	*n = 0;
	*body = end;
	while (p < end) {
		const char *eol, *colon, *start = p;
		if (end - p >= 2 && p[0] == '\r' && p[1] == '\n') {
			*body = p + 2;	/* the empty line */
			return 0;
		}
		if (wsp(*p))
			return -1;	/* a continuation with nothing to continue */
		/* the field runs on over continuation lines */
		for (;;) {
			eol = memmem(p, (size_t)(end - p), "\r\n", 2);
			if (!eol) {
				eol = end;
				break;
			}
			if (eol + 2 < end && wsp(eol[2])) {
				p = eol + 2;
				continue;
			}
			break;
		}
		colon = memchr(start, ':', (size_t)(eol - start));
		if (!colon || colon == start)
			return -1;
		if (*n < max) {
			size_t nl = (size_t)(colon - start);
			while (nl && wsp(start[nl - 1]))
				nl--;
			fields[*n] = (struct dkim_field){ start, nl, (size_t)(eol - start) };
			(*n)++;
		}
		p = eol < end ? eol + 2 : end;
	}
	return 0;
}

void dkim_canon_header(enum dkim_canon c, const struct dkim_field *f, struct strbuf *out)
{
	const char *p, *end = f->start + f->len;
	size_t mark;

	if (c == DKIM_SIMPLE) {
		strbuf_add(out, f->start, f->len);
		strbuf_addstr(out, "\r\n");
		return;
	}
	for (size_t i = 0; i < f->name_len; i++) {
		char ch = f->start[i];
		strbuf_addch(out, ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
	}
	strbuf_addch(out, ':');
	p = memchr(f->start, ':', f->len) + 1;
	/* the value unfolded, blanks one space, none at either end */
	while (p < end && (wsp(*p) || *p == '\r' || *p == '\n'))
		p++;
	mark = out->len;
	while (p < end) {
		if (*p == '\r' || *p == '\n') {
			p++;
			continue;
		}
		if (wsp(*p)) {
			while (p < end && (wsp(*p) || *p == '\r' || *p == '\n'))
				p++;
			strbuf_addch(out, ' ');
			continue;
		}
		strbuf_addch(out, *p++);
	}
	if (out->len > mark && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	strbuf_addstr(out, "\r\n");
}

void dkim_canon_body(enum dkim_canon c, const char *body, size_t len, struct strbuf *out)
{
	size_t start = out->len, keep;
	const char *p = body, *end = body + len;

	if (c == DKIM_SIMPLE) {
		strbuf_add(out, body, len);
	} else {
		while (p < end) {
			const char *eol = memmem(p, (size_t)(end - p), "\r\n", 2);
			const char *le = eol ? eol : end;
			size_t line_start = out->len;
			for (const char *q = p; q < le;) {
				if (wsp(*q)) {
					while (q < le && wsp(*q))
						q++;
					strbuf_addch(out, ' ');
				} else {
					strbuf_addch(out, *q++);
				}
			}
			while (out->len > line_start && out->buf[out->len - 1] == ' ')
				out->buf[--out->len] = '\0';
			if (!eol)
				break;	/* a last line without CRLF gets one below */
			strbuf_addstr(out, "\r\n");
			p = eol + 2;
		}
	}
	/* no empty lines at the end, and the last line ended */
	keep = out->len;
	while (keep - start >= 2 && out->buf[keep - 2] == '\r' && out->buf[keep - 1] == '\n' &&
	       (keep - start == 2 ||
		(keep - start >= 4 && out->buf[keep - 4] == '\r' && out->buf[keep - 3] == '\n')))
		keep -= 2;
	out->len = keep;
	out->buf[keep] = '\0';
	if (out->len > start && !(out->len - start >= 2 && out->buf[out->len - 2] == '\r' &&
				  out->buf[out->len - 1] == '\n'))
		strbuf_addstr(out, "\r\n");
	if (out->len == start && c == DKIM_SIMPLE)
		strbuf_addstr(out, "\r\n");
}
