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
#include "codec.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- small helpers ---- */

/* Frees every field. */
static void fields_release(struct fields *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].value);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* The value of the first field called name, or NULL. */
static const char *fields_get(const struct fields *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!ascii_strcasecmp(f->v[i].name, name))
			return f->v[i].value;
	return NULL;
}

static bool is_wsp(int c)
{
	return c == ' ' || c == '\t';
}

/* Appends s (n bytes) with every non-printable byte shown as '?'. */
static void add_printable(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		strbuf_addch(sb, c < 0x20 || c == 0x7f ? '?' : c);
	}
}

/* Returns a copy of raw with CRLF and lone CR turned into LF. */
static char *normalize_eol(const char *raw, size_t len, size_t *out_len)
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

/* Appends code point cp as UTF-8. */
static void add_utf8(struct strbuf *sb, unsigned cp)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0)
		cp = 0xFFFD;
	if (cp < 0x80) {
		strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(sb, 0xC0 | (cp >> 6));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		strbuf_addch(sb, 0xE0 | (cp >> 12));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3F));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	} else {
		strbuf_addch(sb, 0xF0 | (cp >> 18));
		strbuf_addch(sb, 0x80 | ((cp >> 12) & 0x3F));
		strbuf_addch(sb, 0x80 | ((cp >> 6) & 0x3F));
		strbuf_addch(sb, 0x80 | (cp & 0x3F));
	}
}

/* Windows-1252 0x80-0x9F; the holes map to the C1 controls. */
static const unsigned short cp1252_high[32] = {
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

enum charset { CS_AUTO, CS_UTF8, CS_CP1252, CS_LATIN9, CS_UNKNOWN };

/* The charset named by name (NULL or "" for none). */
static enum charset charset_of(const char *name)
{
	static const char *const utf8[] = { "utf-8", "utf8", NULL };
	static const char *const ascii[] = {
		"us-ascii", "ascii", "ansi_x3.4-1968", NULL
	};
	static const char *const cp1252[] = {
		"iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1",
		"l1", "windows-1252", "cp1252", "x-cp1252", NULL
	};
	static const char *const latin9[] = {
		"iso-8859-15", "iso8859-15", "iso_8859-15", "latin9",
		"latin-9", NULL
	};

	if (!name || !*name)
		return CS_AUTO;
	for (const char *const *p = utf8; *p; p++)
		if (!ascii_strcasecmp(name, *p))
			return CS_UTF8;
	/* Mislabelled 8-bit text is common; US-ASCII is read as "none". */
	for (const char *const *p = ascii; *p; p++)
		if (!ascii_strcasecmp(name, *p))
			return CS_AUTO;
	for (const char *const *p = cp1252; *p; p++)
		if (!ascii_strcasecmp(name, *p))
			return CS_CP1252;
	for (const char *const *p = latin9; *p; p++)
		if (!ascii_strcasecmp(name, *p))
			return CS_LATIN9;
	return CS_UNKNOWN;
}

/* Appends single-byte text s (n bytes) in cs converted to UTF-8. */
static void add_8bit(struct strbuf *sb, const char *s, size_t n,
		     enum charset cs)
{
	for (size_t i = 0; i < n; i++) {
		unsigned c = (unsigned char)s[i];
		if (c < 0x80) {
			strbuf_addch(sb, (int)c);
			continue;
		}
		if (c < 0xA0) {
			add_utf8(sb, cp1252_high[c - 0x80]);
			continue;
		}
		if (cs == CS_LATIN9) {
			switch (c) {
			case 0xA4: c = 0x20AC; break;
			case 0xA6: c = 0x0160; break;
			case 0xA8: c = 0x0161; break;
			case 0xB4: c = 0x017D; break;
			case 0xB8: c = 0x017E; break;
			case 0xBC: c = 0x0152; break;
			case 0xBD: c = 0x0153; break;
			case 0xBE: c = 0x0178; break;
			}
		}
		add_utf8(sb, c);
	}
}

/* Appends s (n bytes) as UTF-8, invalid sequences becoming U+FFFD. */
static void add_utf8_lossy(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t k = codec_utf8_seq(u + i, n - i);
		if (k) {
			strbuf_add(sb, s + i, k);
			i += k;
		} else {
			add_utf8(sb, 0xFFFD);
			i++;
		}
	}
}

/* Header text conversion: lossy, never fails. */
static void add_header_text(struct strbuf *sb, const char *s, size_t n,
			    enum charset cs)
{
	if (cs == CS_AUTO && codec_utf8_invalid_at(s, n) != n)
		cs = CS_CP1252;
	if (cs == CS_CP1252 || cs == CS_LATIN9)
		add_8bit(sb, s, n, cs);
	else
		add_utf8_lossy(sb, s, n);
}



/*
 * Decodes quoted-printable (LF line endings); a broken "=" sequence is
 * kept as it is, trailing blanks before a line break are dropped.
 */
static void qp_decode(const char *s, size_t n, struct strbuf *out)
{
	size_t i = 0;

	while (i < n) {
		/* one line */
		size_t eol = i, end;
		while (eol < n && s[eol] != '\n')
			eol++;
		end = eol;
		while (end > i && is_wsp(s[end - 1]))
			end--;
		bool soft = false;
		for (size_t k = i; k < end; k++) {
			if (s[k] != '=') {
				strbuf_addch(out, s[k]);
				continue;
			}
			if (k + 1 == end) {
				soft = true;
				break;
			}
			if (k + 2 < end) {
				int hi = hex_digit_value((unsigned char)s[k + 1]);
				int lo = hex_digit_value((unsigned char)s[k + 2]);
				if (hi >= 0 && lo >= 0) {
					strbuf_addch(out, hi << 4 | lo);
					k += 2;
					continue;
				}
			}
			strbuf_addch(out, '=');
		}
		if (eol < n && !soft)
			strbuf_addch(out, '\n');
		i = eol < n ? eol + 1 : n;
	}
}

/* ---- headers ---- */

/*
 * Reads the header block at p (len bytes). On success stores the fields
 * and the offset of the body (after the blank line). what names the
 * entity in messages ("message" or "MIME part").
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
		if (is_wsp(p[i])) {
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
			while (c < eol && is_wsp(p[c]))
				c++;
			if (c == eol || p[c] != ':' || name_end == i) {
				strbuf_addf(err, "malformed header line %d "
					    "of the %s: '", lineno, what);
				add_printable(err, p + i,
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
		while (is_wsp(*s))
			s++;
		l = strlen(s);
		while (l && is_wsp(s[l - 1]))
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

/* Skips a leading mbox "From " envelope line. */
static size_t skip_envelope(const char *p, size_t len)
{
	if (len >= 5 && !memcmp(p, "From ", 5)) {
		const char *nl = memchr(p, '\n', len);
		return nl ? (size_t)(nl - p) + 1 : len;
	}
	return 0;
}

/* ---- Content-Type ---- */

static void ctype_release(struct ctype *ct)
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
static void parse_ctype(const char *v, struct ctype *ct)
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
		if (!is_wsp(p[k]))
			return 0;
	return kind;
}

static int walk_multipart(struct walk *w, const struct ctype *ct,
			  const char *p, size_t len, int depth)
{
	const char *b = ct->boundary;
	size_t bl, i = 0;
	const char *part = NULL;
	bool closed = false;

	if (!b || !*b) {
		strbuf_addf(w->err, "multipart/%s part without a boundary "
			    "parameter", ct->sub);
		return -1;
	}
	bl = strlen(b);
	if (bl > 200) {
		strbuf_addstr(w->err, "MIME boundary longer than 200 bytes");
		return -1;
	}
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
				if (walk_entity(w, part, plen, depth + 1) < 0)
					return -1;
			}
			if (kind == 2) {
				closed = true;
				break;
			}
			part = eol < len ? p + eol + 1 : p + len;
		}
		i = eol + 1;
	}
	if (!part && !closed) {
		strbuf_addf(w->err, "broken MIME structure: boundary '");
		add_printable(w->err, b, bl);
		strbuf_addf(w->err, "' not found in the multipart/%s part",
			    ct->sub);
		return -1;
	}
	if (!closed) {
		strbuf_addf(w->err, "broken MIME structure: boundary '");
		add_printable(w->err, b, bl);
		strbuf_addstr(w->err, "' is never closed");
		return -1;
	}
	return 0;
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
	if (parse_fields(p, len, &f, &off, "MIME part", false, w->err) < 0)
		return -1;
	parse_ctype(fields_get(&f, "Content-Type"), &ct);
	if (!strcmp(ct.type, "multipart")) {
		ret = walk_multipart(w, &ct, p + off, len - off, depth);
	} else if (!strcmp(ct.type, "text") &&
		   !is_attachment(fields_get(&f, "Content-Disposition"))) {
		if (!strcmp(ct.sub, "plain"))
			take_candidate(&w->plain, &f, &ct, p + off, len - off);
		else if (!strcmp(ct.sub, "html"))
			take_candidate(&w->html, &f, &ct, p + off, len - off);
	}
	ctype_release(&ct);
	fields_release(&f);
	return ret;
}

/* ---- turning the chosen part into text ---- */

/* Undoes format=flowed (RFC 3676): joins soft-broken lines. */
static char *unflow(const char *s, bool delsp)
{
	struct strbuf out = STRBUF_INIT;
	int cur_depth = -1;	/* quote depth of the paragraph being joined */

	while (*s) {
		const char *eol = strchrnul(s, '\n');
		int depth = 0;
		const char *c = s;
		while (c < eol && *c == '>') {
			depth++;
			c++;
		}
		if (c < eol && *c == ' ')
			c++;	/* space stuffing */
		size_t n = (size_t)(eol - c);
		bool sig = n == 3 && !memcmp(c, "-- ", 3);
		bool soft = !sig && n && c[n - 1] == ' ';

		if (cur_depth >= 0 && depth != cur_depth)
			strbuf_addch(&out, '\n');	/* broken flow */
		if (cur_depth < 0 || depth != cur_depth) {
			for (int k = 0; k < depth; k++)
				strbuf_addch(&out, '>');
			if (depth)
				strbuf_addch(&out, ' ');
		}
		if (soft && delsp)
			n--;
		strbuf_add(&out, c, n);
		if (soft) {
			cur_depth = depth;
		} else {
			strbuf_addch(&out, '\n');
			cur_depth = -1;
		}
		s = *eol ? eol + 1 : eol;
	}
	if (cur_depth >= 0)
		strbuf_addch(&out, '\n');
	return strbuf_detach(&out, NULL);
}

struct entity_name {
	const char *name;
	unsigned cp;
};

static const struct entity_name html_entities[] = {
	{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
	{ "apos", '\'' }, { "nbsp", ' ' }, { "ndash", 0x2013 },
	{ "mdash", 0x2014 }, { "hellip", 0x2026 }, { "lsquo", 0x2018 },
	{ "rsquo", 0x2019 }, { "ldquo", 0x201C }, { "rdquo", 0x201D },
	{ "laquo", 0xAB }, { "raquo", 0xBB }, { "copy", 0xA9 },
	{ "reg", 0xAE }, { "trade", 0x2122 }, { "euro", 0x20AC },
	{ "middot", 0xB7 }, { "bull", 0x2022 }, { "times", 0xD7 },
	{ "deg", 0xB0 }, { "eacute", 0xE9 }, { "egrave", 0xE8 },
	{ "ecirc", 0xEA }, { "agrave", 0xE0 }, { "aacute", 0xE1 },
	{ "acirc", 0xE2 }, { "ccedil", 0xE7 }, { "ouml", 0xF6 },
	{ "auml", 0xE4 }, { "uuml", 0xFC }, { "Ouml", 0xD6 },
	{ "Auml", 0xC4 }, { "Uuml", 0xDC }, { "szlig", 0xDF },
	{ "iacute", 0xED }, { "oacute", 0xF3 }, { "uacute", 0xFA },
	{ "ntilde", 0xF1 }, { "Eacute", 0xC9 }, { "shy", 0xAD },
	{ "zwnj", 0x200C }, { "zwj", 0x200D },
};

/*
 * Decodes the entity at s ('&' first, n bytes left) into sb; returns the
 * bytes consumed, or 0 if it is not an entity.
 */
static size_t html_entity(const char *s, size_t n, struct strbuf *sb)
{
	size_t k = 1;

	if (n > 2 && s[1] == '#') {
		unsigned long cp = 0;
		bool hex = n > 3 && (s[2] == 'x' || s[2] == 'X');
		size_t start;
		k = hex ? 3 : 2;
		start = k;
		while (k < n && k - start < 8 &&
		       (hex ? isxdigit((unsigned char)s[k])
			    : isdigit((unsigned char)s[k]))) {
			cp = cp * (hex ? 16 : 10) +
			     (unsigned long)hex_digit_value((unsigned char)s[k]);
			k++;
		}
		if (k == start)
			return 0;
		if (k < n && s[k] == ';')
			k++;
		if (cp == 0xA0)
			cp = ' ';
		add_utf8(sb, cp > 0x10FFFF ? 0xFFFD : (unsigned)cp);
		return k;
	}
	while (k < n && k < 12 && isalnum((unsigned char)s[k]))
		k++;
	if (k == 1 || k >= n || s[k] != ';')
		return 0;
	for (size_t e = 0; e < ARRAY_SIZE(html_entities); e++) {
		const char *name = html_entities[e].name;
		if (strlen(name) == k - 1 && !memcmp(name, s + 1, k - 1)) {
			add_utf8(sb, html_entities[e].cp);
			return k + 1;
		}
	}
	return 0;
}

struct html_state {
	struct strbuf out;
	int quote;	/* blockquote depth */
	bool pre;
	bool line_start;
	bool space;	/* collapsed blank pending */
};

static void html_newline(struct html_state *h)
{
	strbuf_addch(&h->out, '\n');
	h->line_start = true;
	h->space = false;
}

static void html_break(struct html_state *h)
{
	if (!h->line_start)
		html_newline(h);
}

/* Starts text output: the quote prefix at a line start, a pending blank. */
static void html_text_start(struct html_state *h)
{
	if (h->line_start) {
		for (int k = 0; k < h->quote; k++)
			strbuf_addch(&h->out, '>');
		if (h->quote)
			strbuf_addch(&h->out, ' ');
		h->line_start = false;
	} else if (h->space) {
		strbuf_addch(&h->out, ' ');
	}
	h->space = false;
}

/* Finds needle (lowercase) in s ignoring case; returns offset or n. */
static size_t find_ci(const char *s, size_t n, const char *needle)
{
	size_t nl = strlen(needle);

	for (size_t i = 0; i + nl <= n; i++)
		if (!ascii_strncasecmp(s + i, needle, nl))
			return i;
	return n;
}

static bool tag_is(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

/* Converts HTML text (UTF-8) to plain text. */
static char *html_to_text(const char *s, size_t n)
{
	static const char *const blocks[] = {
		"p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3",
		"h4", "h5", "h6", "hr", "dd", "dt", "dl", "address", "center",
		"section", "article", "header", "footer", "pre", "body",
		"tbody", "thead", "form", "fieldset", "nav", "aside", NULL
	};
	static const char *const skipped[] = {
		"script", "style", "head", "title", "xml", NULL
	};
	struct html_state h = { STRBUF_INIT, 0, false, true, false };
	size_t i = 0;

	while (i < n) {
		char c = s[i];
		if (c == '<') {
			if (i + 4 <= n && !memcmp(s + i, "<!--", 4)) {
				size_t e = find_ci(s + i + 4, n - i - 4, "-->");
				i += 4 + e + 3;
				continue;
			}
			size_t k = i + 1;
			bool closing = false;
			if (k < n && s[k] == '/') {
				closing = true;
				k++;
			}
			if (k < n && (s[k] == '!' || s[k] == '?')) {
				const char *gt = memchr(s + k, '>', n - k);
				i = gt ? (size_t)(gt - s) + 1 : n;
				continue;
			}
			if (k >= n || !isalpha((unsigned char)s[k])) {
				html_text_start(&h);
				strbuf_addch(&h.out, '<');
				i++;
				continue;
			}
			char name[16];
			size_t nl = 0;
			while (k < n && (isalnum((unsigned char)s[k]) ||
					 s[k] == ':')) {
				if (nl + 1 < sizeof(name))
					name[nl++] = (char)tolower(
						(unsigned char)s[k]);
				k++;
			}
			name[nl] = '\0';
			/* to the end of the tag, past quoted values */
			char q = 0;
			while (k < n && (q || s[k] != '>')) {
				if (q && s[k] == q)
					q = 0;
				else if (!q && (s[k] == '"' || s[k] == '\''))
					q = s[k];
				k++;
			}
			i = k < n ? k + 1 : n;
			if (!closing && tag_is(name, skipped)) {
				char end[24];
				snprintf(end, sizeof(end), "</%s", name);
				size_t e = find_ci(s + i, n - i, end);
				if (e < n - i) {
					const char *gt = memchr(s + i + e, '>',
								n - i - e);
					i = gt ? (size_t)(gt - s) + 1 : n;
				} else {
					i = n;
				}
				continue;
			}
			if (!strcmp(name, "br")) {
				if (h.line_start && h.quote)
					html_text_start(&h);
				html_newline(&h);
			} else if (!strcmp(name, "blockquote")) {
				html_break(&h);
				if (closing) {
					if (h.quote)
						h.quote--;
				} else {
					h.quote++;
				}
			} else if (tag_is(name, blocks)) {
				html_break(&h);
				if (!strcmp(name, "pre"))
					h.pre = !closing;
			} else if (!strcmp(name, "td") || !strcmp(name, "th")) {
				if (!closing)
					h.space = !h.line_start;
			}
			continue;
		}
		if (c == '&') {
			struct strbuf ent = STRBUF_INIT;
			size_t used = html_entity(s + i, n - i, &ent);
			if (used) {
				html_text_start(&h);
				strbuf_add(&h.out, ent.buf, ent.len);
				strbuf_release(&ent);
				i += used;
				continue;
			}
			strbuf_release(&ent);
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f') {
			if (h.pre && c == '\n') {
				html_newline(&h);
			} else if (h.pre) {
				html_text_start(&h);
				strbuf_addch(&h.out, c);
			} else if (!h.line_start) {
				h.space = true;
			}
			i++;
			continue;
		}
		html_text_start(&h);
		strbuf_addch(&h.out, c);
		i++;
	}

	/* trailing blanks off each line; runs of blank lines made one */
	struct strbuf out = STRBUF_INIT;
	const char *t = strbuf_str(&h.out);
	int blanks = 0;
	bool any = false;
	while (*t) {
		const char *eol = strchrnul(t, '\n');
		size_t l = (size_t)(eol - t);
		while (l && (t[l - 1] == ' ' || t[l - 1] == '\t'))
			l--;
		if (!l) {
			blanks++;
		} else {
			if (any && blanks)
				strbuf_addch(&out, '\n');
			strbuf_add(&out, t, l);
			strbuf_addch(&out, '\n');
			any = true;
			blanks = 0;
		}
		t = *eol ? eol + 1 : eol;
	}
	strbuf_release(&h.out);
	return strbuf_detach(&out, NULL);
}

/* Decodes the chosen part into UTF-8 text with LF line endings. */
static char *decode_text(const struct candidate *c, bool html,
			 struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT, conv = STRBUF_INIT;
	const char *cte = c->cte;
	enum charset cs = charset_of(c->charset);
	char *text;
	size_t bad;

	if (!*cte || !ascii_strcasecmp(cte, "7bit") ||
	    !ascii_strcasecmp(cte, "8bit") ||
	    !ascii_strcasecmp(cte, "binary")) {
		strbuf_add(&raw, c->body.p, c->body.len);
	} else if (!ascii_strcasecmp(cte, "quoted-printable")) {
		qp_decode(c->body.p, c->body.len, &raw);
	} else if (!ascii_strcasecmp(cte, "base64")) {
		codec_base64_decode(c->body.p, c->body.len, &raw);
	} else {
		strbuf_addstr(err, "unsupported Content-Transfer-Encoding '");
		add_printable(err, cte, strlen(cte) > 40 ? 40 : strlen(cte));
		strbuf_addstr(err, "' on the text part");
		strbuf_release(&raw);
		return NULL;
	}
	if (memchr(raw.buf ? raw.buf : "", '\0', raw.len)) {
		strbuf_addstr(err, "the text part contains a NUL byte");
		strbuf_release(&raw);
		return NULL;
	}
	switch (cs) {
	case CS_UNKNOWN:
		strbuf_addstr(err, "unsupported charset '");
		add_printable(err, c->charset, strlen(c->charset) > 40 ? 40 :
			      strlen(c->charset));
		strbuf_addstr(err, "' on the text part; please send plain "
			      "text in UTF-8");
		strbuf_release(&raw);
		return NULL;
	case CS_UTF8:
		bad = codec_utf8_invalid_at(strbuf_str(&raw), raw.len);
		if (bad != raw.len) {
			strbuf_addf(err, "the text part is declared UTF-8 but "
				    "byte %zu (0x%02x) is not valid UTF-8; "
				    "check your mail program's encoding",
				    bad, (unsigned char)raw.buf[bad]);
			strbuf_release(&raw);
			return NULL;
		}
		strbuf_add(&conv, strbuf_str(&raw), raw.len);
		break;
	case CS_AUTO:
		if (codec_utf8_invalid_at(strbuf_str(&raw), raw.len) == raw.len) {
			strbuf_add(&conv, strbuf_str(&raw), raw.len);
			break;
		}
		add_8bit(&conv, strbuf_str(&raw), raw.len, CS_CP1252);
		break;
	case CS_CP1252:
	case CS_LATIN9:
		add_8bit(&conv, strbuf_str(&raw), raw.len, cs);
		break;
	}
	strbuf_release(&raw);

	/* CRLF from base64 or QP, and a byte order mark */
	size_t n;
	char *lf = normalize_eol(strbuf_str(&conv), conv.len, &n);
	strbuf_release(&conv);
	if (n >= 3 && !memcmp(lf, "\xEF\xBB\xBF", 3))
		memmove(lf, lf + 3, (n -= 3) + 1);
	if (html) {
		text = html_to_text(lf, n);
		free(lf);
	} else if (c->flowed) {
		text = unflow(lf, c->delsp);
		free(lf);
	} else {
		text = lf;
	}
	return text;
}

/* ---- RFC 2047 ---- */

/*
 * Tries to read an encoded word at s ("=?charset?B|Q?text?="); on success
 * appends its decoded bytes, converted, to out and returns its length.
 */
static size_t encoded_word(const char *s, struct strbuf *out)
{
	char charset[48];
	size_t k = 2, cl = 0;
	char enc;
	const char *text, *end;

	if (s[0] != '=' || s[1] != '?')
		return 0;
	while (s[k] && s[k] != '?' && !isspace((unsigned char)s[k])) {
		if (cl + 1 >= sizeof(charset))
			return 0;
		charset[cl++] = s[k++];
	}
	charset[cl] = '\0';
	if (s[k] != '?' || !cl)
		return 0;
	enc = (char)toupper((unsigned char)s[k + 1]);
	if ((enc != 'B' && enc != 'Q') || s[k + 2] != '?')
		return 0;
	text = s + k + 3;
	end = text;
	/* RFC 2047 allows 75 bytes a word; be lenient, but bounded, so
	 * that a run of "=?" cannot make decoding quadratic */
	while (*end && !(end[0] == '?' && end[1] == '=') &&
	       !isspace((unsigned char)*end) && end - text < 1024)
		end++;
	if (!*end || isspace((unsigned char)*end) || end - text >= 1024)
		return 0;
	char *star = strchr(charset, '*');	/* RFC 2231 language */
	if (star)
		*star = '\0';
	enum charset cs = charset_of(charset);
	if (cs == CS_UNKNOWN)
		return 0;

	struct strbuf bytes = STRBUF_INIT;
	if (enc == 'B') {
		codec_base64_decode(text, (size_t)(end - text), &bytes);
	} else {
		for (const char *p = text; p < end; p++) {
			if (*p == '_') {
				strbuf_addch(&bytes, ' ');
			} else if (*p == '=' && p + 2 < end &&
				   hex_digit_value((unsigned char)p[1]) >= 0 &&
				   hex_digit_value((unsigned char)p[2]) >= 0) {
				strbuf_addch(&bytes,
					     hex_digit_value((unsigned char)p[1]) << 4 |
					     hex_digit_value((unsigned char)p[2]));
				p += 2;
			} else {
				strbuf_addch(&bytes, *p);
			}
		}
	}
	add_header_text(out, strbuf_str(&bytes), bytes.len,
			cs == CS_UTF8 ? CS_UTF8 : cs);
	strbuf_release(&bytes);
	return (size_t)(end + 2 - s);
}

/*
 * Decodes header text s into UTF-8: encoded words, raw 8-bit text (UTF-8
 * or else Windows-1252); control characters become spaces.
 */
static char *decode_header(const char *s)
{
	struct strbuf out = STRBUF_INIT, raw = STRBUF_INIT;
	bool after_word = false;

	while (*s) {
		size_t used = 0;
		if (s[0] == '=' && s[1] == '?') {
			struct strbuf w = STRBUF_INIT;
			used = encoded_word(s, &w);
			if (used) {
				bool only_ws = true;
				for (size_t k = 0; k < raw.len; k++)
					if (!isspace((unsigned char)raw.buf[k]))
						only_ws = false;
				if (!(after_word && only_ws))
					add_header_text(&out, strbuf_str(&raw),
							raw.len, CS_AUTO);
				strbuf_reset(&raw);
				strbuf_add(&out, strbuf_str(&w), w.len);
				after_word = true;
				s += used;
			}
			strbuf_release(&w);
			if (used)
				continue;
		}
		strbuf_addch(&raw, *s++);
	}
	add_header_text(&out, strbuf_str(&raw), raw.len, CS_AUTO);
	strbuf_release(&raw);
	for (size_t k = 0; k < out.len; k++) {
		unsigned char c = (unsigned char)out.buf[k];
		if (c < 0x20 || c == 0x7f)
			out.buf[k] = ' ';
	}
	return strbuf_detach(&out, NULL);
}

/* ---- addresses ---- */

static bool is_atext(int c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+-/=?^_`{|}~", c));
}

/* Validates an addr-spec; returns a copy with the domain lowercased. */
static char *check_addr_spec(const char *s, size_t n)
{
	const char *at = NULL;
	size_t k;

	for (k = 0; k < n; k++) {
		if (s[k] == '@') {
			if (at)
				return NULL;
			at = s + k;
		}
	}
	if (!at)
		return NULL;
	size_t ll = (size_t)(at - s), dl = n - ll - 1;
	if (!ll || ll > 64 || !dl || dl > 253)
		return NULL;
	if (s[0] == '.' || s[ll - 1] == '.')
		return NULL;
	for (k = 0; k < ll; k++) {
		unsigned char c = (unsigned char)s[k];
		if (c == '.') {
			if (s[k + 1] == '.')
				return NULL;
		} else if (c >= 0x80 || !is_atext(c)) {
			return NULL;
		}
	}
	const char *d = at + 1;
	int labels = 0;
	size_t lab = 0;
	for (k = 0; k <= dl; k++) {
		unsigned char c = k < dl ? (unsigned char)d[k] : '.';
		if (c == '.') {
			if (!lab || lab > 63 || d[k - 1] == '-')
				return NULL;
			labels++;
			lab = 0;
		} else if (c < 0x80 && (isalnum(c) || c == '-')) {
			if (!lab && c == '-')
				return NULL;
			lab++;
		} else {
			return NULL;
		}
	}
	if (labels < 2)
		return NULL;
	char *r = xstrndup(s, n);
	for (char *p = r + ll + 1; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* Removes the quotes and backslash escapes of a quoted phrase. */
static char *unquote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '"')
			continue;
		if (*s == '\\' && s[1])
			s++;
		strbuf_addch(&sb, *s);
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * Lenient reading of one mailbox from a header ("Name <a@b>",
 * "a@b (Name)", "<a@b>"): *name gets the raw phrase (or NULL), returns the
 * validated address or NULL.
 */
static char *read_mailbox(const char *s, size_t n, char **name)
{
	const char *lt = NULL, *gt = NULL;
	bool q = false;

	*name = NULL;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == '\\' && q) {
			k++;
			continue;
		}
		if (s[k] == '"')
			q = !q;
		else if (!q && s[k] == '<')
			lt = s + k;
		else if (!q && s[k] == '>' && lt && !gt)
			gt = s + k;
	}
	if (lt && gt && gt > lt) {
		char *addr, *tmp;
		tmp = trim_dup(lt + 1, (size_t)(gt - lt - 1));
		addr = check_addr_spec(tmp, strlen(tmp));
		free(tmp);
		tmp = trim_dup(s, (size_t)(lt - s));
		if (*tmp)
			*name = tmp;
		else
			free(tmp);
		return addr;
	}
	/* bare address, perhaps with a (comment) */
	const char *paren = memchr(s, '(', n);
	size_t an = paren ? (size_t)(paren - s) : n;
	char *tmp = trim_dup(s, an), *addr;
	addr = check_addr_spec(tmp, strlen(tmp));
	free(tmp);
	if (paren) {
		const char *close = memchr(paren, ')', n - (size_t)(paren - s));
		if (close) {
			tmp = trim_dup(paren + 1, (size_t)(close - paren - 1));
			if (*tmp)
				*name = tmp;
			else
				free(tmp);
		}
	}
	return addr;
}

/* Offsets of the commas that separate the items of an address list. */
static size_t next_item(const char *s, size_t start)
{
	bool q = false;
	int angle = 0, paren = 0;
	size_t k;

	for (k = start; s[k]; k++) {
		char c = s[k];
		if (q) {
			if (c == '\\' && s[k + 1])
				k++;
			else if (c == '"')
				q = false;
		} else if (c == '"') {
			q = true;
		} else if (c == '<') {
			angle++;
		} else if (c == '>' && angle) {
			angle--;
		} else if (c == '(') {
			paren++;
		} else if (c == ')' && paren) {
			paren--;
		} else if (c == ',' && !angle && !paren) {
			break;
		}
	}
	return k;
}

int mail_split_addresses(const char *value, char ***addrs, size_t *n)
{
	size_t start = 0;

	if (!value)
		return 0;
	for (;;) {
		size_t end = next_item(value, start);
		char *item = trim_dup(value + start, end - start), *name;
		/* skip an empty group "undisclosed-recipients:;" */
		size_t il = strlen(item);
		if (*item && !(il >= 2 && item[il - 1] == ';' &&
			       !strchr(item, '@'))) {
			const char *colon = NULL;
			/* a group "name: a@b" - take what follows */
			if (!strchr(item, '<') && strchr(item, ':'))
				colon = strchr(item, ':');
			const char *it = colon ? colon + 1 : item;
			size_t itn = strlen(it);
			if (itn && it[itn - 1] == ';')
				itn--;
			char *addr = read_mailbox(it, itn, &name);
			free(name);
			if (!addr) {
				free(item);
				return -1;
			}
			*addrs = xrealloc(*addrs, (*n + 1) * sizeof(**addrs));
			(*addrs)[(*n)++] = addr;
		}
		free(item);
		if (!value[end])
			break;
		start = end + 1;
	}
	return 0;
}

int mail_parse_address(const char *s, char **name, char **addr)
{
	size_t n;
	const char *lt;
	char *nm = NULL, *a;

	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return -1;
	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	if (!n)
		return -1;
	if (codec_utf8_invalid_at(s, n) != n)
		return -1;
	if (s[n - 1] != '>') {
		a = check_addr_spec(s, n);
		if (!a)
			return -1;
		*name = NULL;
		*addr = a;
		return 0;
	}
	lt = NULL;
	for (size_t k = 0; k < n; k++)
		if (s[k] == '<')
			lt = s + k;
	if (!lt)
		return -1;
	a = check_addr_spec(lt + 1, (size_t)(s + n - 1 - lt - 1));
	if (!a)
		return -1;
	size_t nl = (size_t)(lt - s);
	while (nl && s[nl - 1] == ' ')
		nl--;
	if (nl) {
		struct strbuf sb = STRBUF_INIT;
		if (s[0] == '"') {
			size_t k;
			for (k = 1; k < nl && s[k] != '"'; k++) {
				if (s[k] == '\\' && k + 1 < nl)
					k++;
				strbuf_addch(&sb, s[k]);
			}
			if (k != nl - 1) {	/* text after the quotes */
				strbuf_release(&sb);
				free(a);
				return -1;
			}
		} else {
			for (size_t k = 0; k < nl; k++) {
				if (strchr("()<>[]:;@\\,\"", s[k])) {
					strbuf_release(&sb);
					free(a);
					return -1;
				}
			}
			strbuf_add(&sb, s, nl);
		}
		nm = strbuf_detach(&sb, NULL);
		if (!*nm) {
			free(nm);
			nm = NULL;
		}
	}
	*name = nm;
	*addr = a;
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
	msg = normalize_eol(raw, len, &n);
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
		size_t end = next_item(from, 0);
		out->from_addr = read_mailbox(from, end, &name);
	}
	if (!out->from_addr) {
		strbuf_addstr(err, "cannot read the sender address in From: '");
		add_printable(err, from, strlen(from) > 80 ? 80 : strlen(from));
		strbuf_addch(err, '\'');
		goto out;
	}
	if (name) {
		char *uq = unquote(name), *dec = decode_header(uq), *t;
		free(uq);
		t = trim_dup(dec, strlen(dec));
		free(dec);
		if (*t)
			out->from_name = t;
		else
			free(t);
	}
	out->subject = decode_header(fields_get(&f, "Subject") ?
				     fields_get(&f, "Subject") : "");
	out->message_id = dup_or_null(fields_get(&f, "Message-ID"));
	out->in_reply_to = dup_or_null(fields_get(&f, "In-Reply-To"));
	out->references = dup_or_null(fields_get(&f, "References"));
	out->game_header = dup_or_null(fields_get(&f, "X-Postrider-Game"));
	out->to = dup_or_null(fields_get(&f, "To"));
	out->automatic = automatic_reason(&f, out->from_addr);

	/* the body */
	parse_ctype(fields_get(&f, "Content-Type"), &ct);
	if (!strcmp(ct.type, "multipart")) {
		int r = walk_multipart(&w, &ct, msg + off, n - off, 1);
		ctype_release(&ct);
		if (r < 0)
			goto out;
	} else {
		if (!strcmp(ct.type, "text") && !strcmp(ct.sub, "html"))
			take_candidate(&w.html, &f, &ct, msg + off, n - off);
		else if (!strcmp(ct.type, "text") && !strcmp(ct.sub, "plain"))
			take_candidate(&w.plain, &f, &ct, msg + off, n - off);
		ctype_release(&ct);
	}
	if (w.plain.found)
		out->body = decode_text(&w.plain, false, err);
	else if (w.html.found)
		out->body = decode_text(&w.html, true, err);
	else
		strbuf_addstr(err, "the message has no text/plain or "
			      "text/html part to read the order from");
	if (out->body)
		ret = 0;
out:
	candidate_release(&w.plain);
	candidate_release(&w.html);
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
	msg = normalize_eol(raw, len, &n);
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

/* ---- the order text ---- */

struct line {
	const char *p;
	size_t n;
};

static bool token_at(const char *s, size_t n, size_t i, bool bounded,
		     char out[MAIL_TOKEN_SIZE]);

/*
 * "token: k3x9-2mfa-p7q1" on a line of its own: where the docs tell a
 * player to put the token when the subject is lost (mail_find_token()
 * reads it); not an order line.
 */
static bool line_is_token(const struct line *l)
{
	char tok[MAIL_TOKEN_SIZE];
	size_t k = 0, e = l->n;

	while (k < l->n && is_wsp(l->p[k]))
		k++;
	if (l->n - k < 5 || ascii_strncasecmp(l->p + k, "token", 5))
		return false;
	k += 5;
	while (k < l->n && is_wsp(l->p[k]))
		k++;
	if (k >= l->n || l->p[k] != ':')
		return false;
	k++;
	while (k < l->n && is_wsp(l->p[k]))
		k++;
	while (e > k && isspace((unsigned char)l->p[e - 1]))
		e--;
	/* the token and nothing else */
	return e - k == 14 && token_at(l->p + k, e - k, 0, true, tok);
}

static bool line_quoted(const struct line *l)
{
	size_t k = 0;

	while (k < l->n && is_wsp(l->p[k]))
		k++;
	return k < l->n && l->p[k] == '>';
}

static bool line_blank(const struct line *l)
{
	for (size_t k = 0; k < l->n; k++)
		if (!isspace((unsigned char)l->p[k]))
			return false;
	return true;
}

/* l with trailing blanks removed, compared with s. */
static bool line_is(const struct line *l, const char *s)
{
	return l->n == strlen(s) && !memcmp(l->p, s, l->n);
}

static bool line_ends_ci(const struct line *l, const char *suffix)
{
	size_t n = l->n, sl = strlen(suffix);

	while (n && isspace((unsigned char)l->p[n - 1]))
		n--;
	return n >= sl && !ascii_strncasecmp(l->p + n - sl, suffix, sl);
}

static bool line_starts_ci(const struct line *l, const char *prefix)
{
	size_t k = 0, pl = strlen(prefix);

	while (k < l->n && is_wsp(l->p[k]))
		k++;
	return l->n - k >= pl && !ascii_strncasecmp(l->p + k, prefix, pl);
}

/* Does l begin an attribution ("On Mon, ...")? */
static bool attribution_start(const struct line *l)
{
	static const char *const starts[] = {
		"On ", "Am ", "Le ", "El ", "Il ", "Op ", "Den ", NULL
	};

	for (const char *const *s = starts; *s; s++)
		if (line_starts_ci(l, *s))
			return true;
	return false;
}

/* Does l end an attribution ("... wrote:")? */
static bool attribution_end(const struct line *l)
{
	static const char *const ends[] = {
		"wrote:", "writes:", "schrieb:", "a \xC3\xA9" "crit :",
		"a \xC3\xA9" "crit:", "escribi\xC3\xB3:", "ha scritto:",
		"schreef:", "skrev:", NULL
	};

	static const char *const verbs[] = {
		"wrote", "schrieb", "crit", "escribi", "scritto", "schreef",
		"skrev", NULL
	};

	for (const char *const *e = ends; *e; e++)
		if (line_ends_ci(l, *e))
			return true;
	/* "Am 01.01.2026 um 10:00 schrieb X:" */
	if (!line_ends_ci(l, ":") || !attribution_start(l))
		return false;
	for (const char *const *v = verbs; *v; v++)
		if (find_ci(l->p, l->n, *v) < l->n)
			return true;
	return false;
}

char *mail_order_text(const char *body)
{
	struct line *lines = NULL;
	size_t nl = 0, alloc = 0;
	bool *drop;
	const char *s = body ? body : "";
	struct strbuf out = STRBUF_INIT;

	/* split, stopping at a signature or an Outlook quote block */
	while (*s) {
		const char *eol = strchrnul(s, '\n');
		struct line l = { s, (size_t)(eol - s) };
		if (l.n && l.p[l.n - 1] == '\r')
			l.n--;
		if (line_is(&l, "-- ") || line_is(&l, "--"))
			break;
		if (line_starts_ci(&l, "-----Original Message-----") ||
		    line_starts_ci(&l, "----- Original Message -----"))
			break;
		if (l.n >= 10 && strspn(l.p, "_") >= 10 && *eol) {
			const char *nx = eol + 1;
			while (*nx == '\n' || *nx == '\r')
				nx++;
			if (!ascii_strncasecmp(nx, "From:", 5))
				break;
		}
		if (nl == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			lines = xrealloc(lines, alloc * sizeof(*lines));
		}
		lines[nl++] = l;
		s = *eol ? eol + 1 : eol;
	}
	drop = xcalloc(nl ? nl : 1, sizeof(*drop));
	for (size_t i = 0; i < nl; i++) {
		if (line_quoted(&lines[i]) || line_is_token(&lines[i])) {
			drop[i] = true;
			continue;
		}
		if (!attribution_end(&lines[i]))
			continue;
		/* an attribution is followed by a quote or by nothing */
		size_t j = i + 1;
		while (j < nl && line_blank(&lines[j]))
			j++;
		if (j < nl && !line_quoted(&lines[j]))
			continue;
		drop[i] = true;
		if (!attribution_start(&lines[i]) && i > 0 &&
		    !line_blank(&lines[i - 1]) && !drop[i - 1] &&
		    attribution_start(&lines[i - 1]))
			drop[i - 1] = true;
	}

	/* assemble: no-break spaces, trailing blanks, blank lines at ends */
	for (size_t i = 0; i < nl; i++) {
		if (drop[i])
			continue;
		struct strbuf ln = STRBUF_INIT;
		const struct line *l = &lines[i];
		for (size_t k = 0; k < l->n; k++) {
			if (k + 1 < l->n && (unsigned char)l->p[k] == 0xC2 &&
			    (unsigned char)l->p[k + 1] == 0xA0) {
				strbuf_addch(&ln, ' ');
				k++;
			} else {
				strbuf_addch(&ln, l->p[k]);
			}
		}
		while (ln.len && isspace((unsigned char)ln.buf[ln.len - 1]))
			ln.len--;
		/* no blank line at the start, none doubled (a dropped
		 * quote leaves a seam) */
		bool blank_ok = out.len && !(out.len >= 2 &&
					      out.buf[out.len - 2] == '\n');
		if (ln.len || blank_ok) {
			strbuf_add(&out, strbuf_str(&ln), ln.len);
			strbuf_addch(&out, '\n');
		}
		strbuf_release(&ln);
	}
	while (out.len && out.buf[out.len - 1] == '\n' &&
	       (out.len == 1 || out.buf[out.len - 2] == '\n'))
		out.len--;
	if (out.len)
		out.buf[out.len] = '\0';
	free(drop);
	free(lines);
	return strbuf_detach(&out, NULL);
}

/* ---- tokens and game ids ---- */

static bool token_char(int c)
{
	c = tolower(c);
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Is there a token at s[i] (n bytes in s), with no letter, digit or '-'
 * on either side? Copies it, lowercased, into out. */
static bool token_at(const char *s, size_t n, size_t i, bool bounded,
		     char out[MAIL_TOKEN_SIZE])
{
	if (i + 14 > n)
		return false;
	for (size_t k = 0; k < 14; k++) {
		char c = s[i + k];
		if (k == 4 || k == 9) {
			if (c != '-')
				return false;
		} else if (!token_char((unsigned char)c)) {
			return false;
		}
	}
	if (bounded) {
		if (i > 0 && (isalnum((unsigned char)s[i - 1]) ||
			      s[i - 1] == '-'))
			return false;
		if (i + 14 < n && (isalnum((unsigned char)s[i + 14]) ||
				   s[i + 14] == '-'))
			return false;
	}
	for (size_t k = 0; k < 14; k++)
		out[k] = (char)tolower((unsigned char)s[i + k]);
	out[14] = '\0';
	return true;
}

int mail_find_token(const struct mail_message *m, char out[MAIL_TOKEN_SIZE])
{
	const char *s = m->subject;

	if (s) {
		size_t n = strlen(s);
		/* first after the word "token", then anywhere */
		for (size_t i = 0; i + 5 < n; i++) {
			if (ascii_strncasecmp(s + i, "token", 5))
				continue;
			size_t k = i + 5;
			while (k < n && (s[k] == ' ' || s[k] == ':' ||
					 s[k] == '='))
				k++;
			if (token_at(s, n, k, true, out))
				return 1;
		}
		for (size_t i = 0; i < n; i++)
			if (token_at(s, n, i, true, out))
				return 1;
	}
	s = m->to;
	if (s) {
		size_t n = strlen(s);
		for (size_t i = 0; i + 15 < n; i++)
			if (s[i] == '+' && s[i + 15] == '@' &&
			    token_at(s, n, i + 1, false, out))
				return 1;
	}
	s = m->body;
	while (s && *s) {
		const char *eol = strchrnul(s, '\n');
		const char *p = s;
		while (p < eol && is_wsp(*p))
			p++;
		if (eol - p > 5 && !ascii_strncasecmp(p, "token", 5)) {
			p += 5;
			while (p < eol && is_wsp(*p))
				p++;
			if (p < eol && *p == ':') {
				p++;
				while (p < eol && is_wsp(*p))
					p++;
				if (token_at(p, (size_t)(eol - p), 0, true,
					     out))
					return 1;
			}
		}
		s = *eol ? eol + 1 : eol;
	}
	return 0;
}

/* Length of a game id at s (ignoring case), or 0. */
static size_t game_id_at(const char *s, size_t n)
{
	size_t k;

	if (n < 7 || ascii_strncasecmp(s, "ww-", 3))
		return 0;
	for (k = 3; k < n && k < 3 + 17 && isalnum((unsigned char)s[k]); k++)
		;
	if (k - 3 < 4 || k - 3 > 16)
		return 0;
	return k;
}

int mail_valid_game_id(const char *s)
{
	size_t n = strlen(s);

	if (!n || game_id_at(s, n) != n)
		return 0;
	for (size_t k = 0; k < n; k++)
		if (isupper((unsigned char)s[k]))
			return 0;
	return 1;
}

/* Stores the id (k bytes at s) lowercased in out; 1, or 0 if too long. */
static int put_game(const char *s, size_t k, char *out, size_t n)
{
	if (k + 1 > n)
		return 0;
	for (size_t i = 0; i < k; i++)
		out[i] = (char)tolower((unsigned char)s[i]);
	out[k] = '\0';
	return 1;
}

/* Searches a list of message ids for one of ours; the last one first. */
static int game_from_ids(const char *ids, char *out, size_t n)
{
	const char *p, *best = NULL;
	size_t best_len = 0;

	if (!ids)
		return 0;
	for (p = ids; (p = strchr(p, '<')); p++) {
		const char *end = strchr(p, '>');
		if (!end)
			break;
		const char *q = p + 1;
		size_t rest = (size_t)(end - q);
		if (rest > 10 && !ascii_strncasecmp(q, "postrider.", 10)) {
			size_t k = game_id_at(q + 10, rest - 10);
			const char *r = q + 10 + k;
			if (k && r < end && *r == '.' &&
			    isdigit((unsigned char)r[1])) {
				best = q + 10;
				best_len = k;
			}
		}
		p = end;	/* linear, whatever the brackets */
	}
	return best ? put_game(best, best_len, out, n) : 0;
}

int mail_find_game(const struct mail_message *m, char *out, size_t n)
{
	if (m->game_header) {
		const char *s = m->game_header;
		size_t l = strlen(s);
		if (l && game_id_at(s, l) == l && put_game(s, l, out, n))
			return 1;
	}
	if (m->subject) {
		const char *s = m->subject;
		for (const char *b = strchr(s, '['); b; b = strchr(b + 1, '[')) {
			size_t l = strlen(b + 1);
			size_t k = game_id_at(b + 1, l);
			if (k && b[1 + k] == ']' && put_game(b + 1, k, out, n))
				return 1;
		}
	}
	if (game_from_ids(m->in_reply_to, out, n))
		return 1;
	return game_from_ids(m->references, out, n);
}
