/*
 * mail-text.c - the bytes of a mail made text: line ends, transfer
 * encodings (quoted-printable; base64 through codec.h) for every part
 * (mail_decode_transfer), and for the chosen part of an order mail its
 * charset (UTF-8 strictly, Windows-1252 and Latin-9 by table), format=flowed
 * and HTML to text; and the encoded words of RFC 2047 in headers. Below
 * mail-parse.c, which walks the MIME tree: nothing here calls it.
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

/* Appends s (n bytes) with every non-printable byte shown as '?'. */
void mail_add_printable(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		strbuf_addch(sb, c < 0x20 || c == 0x7f ? '?' : c);
	}
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
		while (end > i && mail_is_wsp(s[end - 1]))
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


int mail_decode_transfer(const char *cte, const char *p, size_t len,
			 struct strbuf *out)
{
	char word[32];
	size_t k = 0;
	const char *s = cte ? cte : "";

	/* the mechanism is one token (RFC 2045 6.1), in any case */
	while (mail_is_wsp(*s))
		s++;
	for (; *s && *s != ';' && *s != '(' && !mail_is_wsp(*s); s++) {
		if (k + 1 >= sizeof(word))
			return -1;
		word[k++] = (char)tolower((unsigned char)*s);
	}
	word[k] = '\0';
	if (!strcmp(word, "base64"))
		codec_base64_decode(p, len, out);
	else if (!strcmp(word, "quoted-printable"))
		qp_decode(p, len, out);
	else if (!*word || !strcmp(word, "7bit") || !strcmp(word, "8bit") ||
		 !strcmp(word, "binary"))
		strbuf_add(out, p, len);
	else
		return -1;
	return 0;
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
size_t mail_find_ci(const char *s, size_t n, const char *needle)
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
				size_t e = mail_find_ci(s + i + 4, n - i - 4, "-->");
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
				size_t e = mail_find_ci(s + i, n - i, end);
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
char *mail_decode_text(const struct candidate *c, bool html,
			 struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT, conv = STRBUF_INIT;
	const char *cte = c->cte;
	enum charset cs = charset_of(c->charset);
	char *text;
	size_t bad;

	if (mail_decode_transfer(cte, c->body.p, c->body.len, &raw) < 0) {
		strbuf_addstr(err, "unsupported Content-Transfer-Encoding '");
		mail_add_printable(err, cte, strlen(cte) > 40 ? 40 : strlen(cte));
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
		mail_add_printable(err, c->charset, strlen(c->charset) > 40 ? 40 :
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
				    bad, (unsigned char)strbuf_str(&raw)[bad]);
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
	char *lf = mail_normalize_eol(strbuf_str(&conv), conv.len, &n);
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
char *mail_decode_header(const char *s)
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
