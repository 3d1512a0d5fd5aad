/*
 * mail-addr.c - mail addresses (RFC 5322 section 3.4, reduced): the
 * mailboxes of From, Sender and Reply-To, checked and normalized.
 */
#include "mail.h"
#include "mail-internal.h"
#include "codec.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *mail_trim_dup(const char *s, size_t n)
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
char *mail_unquote(const char *s)
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
char *mail_read_mailbox(const char *s, size_t n, char **name)
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
		tmp = mail_trim_dup(lt + 1, (size_t)(gt - lt - 1));
		addr = check_addr_spec(tmp, strlen(tmp));
		free(tmp);
		tmp = mail_trim_dup(s, (size_t)(lt - s));
		if (*tmp)
			*name = tmp;
		else
			free(tmp);
		return addr;
	}
	/* bare address, perhaps with a (comment) */
	const char *paren = memchr(s, '(', n);
	size_t an = paren ? (size_t)(paren - s) : n;
	char *tmp = mail_trim_dup(s, an), *addr;
	addr = check_addr_spec(tmp, strlen(tmp));
	free(tmp);
	if (paren) {
		const char *close = memchr(paren, ')', n - (size_t)(paren - s));
		if (close) {
			tmp = mail_trim_dup(paren + 1, (size_t)(close - paren - 1));
			if (*tmp)
				*name = tmp;
			else
				free(tmp);
		}
	}
	return addr;
}

/* Offsets of the commas that separate the items of an address list. */
size_t mail_next_item(const char *s, size_t start)
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
		size_t end = mail_next_item(value, start);
		char *item = mail_trim_dup(value + start, end - start), *name;
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
			char *addr = mail_read_mailbox(it, itn, &name);
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
