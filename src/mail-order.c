/*
 * mail-order.c - the postrider policy of reading a mail: which lines are
 * the order (quoted replies, attributions and signatures left out), and
 * the one-time tokens and game ids in subjects and addresses.
 */
#include "mail.h"
#include "mail-internal.h"
#include "codec.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	while (k < l->n && mail_is_wsp(l->p[k]))
		k++;
	if (l->n - k < 5 || ascii_strncasecmp(l->p + k, "token", 5))
		return false;
	k += 5;
	while (k < l->n && mail_is_wsp(l->p[k]))
		k++;
	if (k >= l->n || l->p[k] != ':')
		return false;
	k++;
	while (k < l->n && mail_is_wsp(l->p[k]))
		k++;
	while (e > k && isspace((unsigned char)l->p[e - 1]))
		e--;
	/* the token and nothing else */
	return e - k == 14 && token_at(l->p + k, e - k, 0, true, tok);
}

static bool line_quoted(const struct line *l)
{
	size_t k = 0;

	while (k < l->n && mail_is_wsp(l->p[k]))
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

	while (k < l->n && mail_is_wsp(l->p[k]))
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
		if (mail_find_ci(l->p, l->n, *v) < l->n)
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
		while (p < eol && mail_is_wsp(*p))
			p++;
		if (eol - p > 5 && !ascii_strncasecmp(p, "token", 5)) {
			p += 5;
			while (p < eol && mail_is_wsp(*p))
				p++;
			if (p < eol && *p == ':') {
				p++;
				while (p < eol && mail_is_wsp(*p))
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
