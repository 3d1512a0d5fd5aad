/*
 * mail-compose.c - building the messages postrider sends.
 *
 * The output is canonical RFC 5322 with CRLF line endings, ready for SMTP.
 * It depends only on the struct mail_out given: no clock, no randomness;
 * the MIME boundary is derived from the message-id.
 */
#include "mail.h"
#include "codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE_MAX_LEN 78

/* Appends "field: value" to h, folding at single spaces before col 78. */
static void add_folded(struct strbuf *h, const char *field, const char *value)
{
	size_t col = strlen(field) + 1;
	const char *w = value;
	bool first = true;

	strbuf_addstr(h, field);
	strbuf_addch(h, ':');
	for (;;) {
		const char *sp = strchr(w, ' ');
		size_t wl = sp ? (size_t)(sp - w) : strlen(w);
		if (!first && wl && col + 1 + wl > LINE_MAX_LEN) {
			strbuf_addstr(h, "\r\n ");
			col = 1;
		} else {
			strbuf_addch(h, ' ');
			col++;
		}
		strbuf_add(h, w, wl);
		col += wl;
		first = false;
		if (!sp)
			break;
		w = sp + 1;
	}
	strbuf_addstr(h, "\r\n");
}

/* True if s has a control character (CR, LF, ...) or DEL. */
static bool has_ctl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Length of the UTF-8 sequence starting with byte c (1 if broken). */
static size_t seq_len(unsigned char c)
{
	if (c >= 0xF0)
		return 4;
	if (c >= 0xE0)
		return 3;
	if (c >= 0xC0)
		return 2;
	return 1;
}

/* True if s is valid UTF-8. */
static bool valid_utf8(const char *s)
{
	return codec_utf8_invalid_at(s, strlen(s)) == strlen(s);
}

/*
 * Appends s as RFC 2047 Q encoded words (UTF-8), each at most 66 bytes,
 * separated by spaces (which a reader drops between encoded words).
 */
static void add_encoded_words(struct strbuf *out, const char *s)
{
	static const char prefix[] = "=?UTF-8?Q?";
	struct strbuf word = STRBUF_INIT;
	const unsigned char *u = (const unsigned char *)s;
	bool any = false;

	while (*u) {
		size_t n = seq_len(*u);
		struct strbuf enc = STRBUF_INIT;
		for (size_t k = 0; k < n && u[k]; k++) {
			unsigned char c = u[k];
			if (c == ' ')
				strbuf_addch(&enc, '_');
			else if ((c >= 'a' && c <= 'z') ||
				 (c >= 'A' && c <= 'Z') ||
				 (c >= '0' && c <= '9') || strchr("!*+-/", c))
				strbuf_addch(&enc, c);
			else
				strbuf_addf(&enc, "=%02X", c);
			if (!u[k + 1])
				n = k + 1;
		}
		/* at most 66 bytes a word, so that "Subject: " and one
		 * word fit in 76 columns (RFC 2047, section 2) */
		if (word.len + enc.len + sizeof(prefix) - 1 + 2 > 66) {
			if (any)
				strbuf_addch(out, ' ');
			strbuf_addf(out, "%s%s?=", prefix, word.buf);
			any = true;
			strbuf_reset(&word);
		}
		strbuf_add(&word, enc.buf, enc.len);
		strbuf_release(&enc);
		u += n;
	}
	if (word.len || !any) {
		if (any)
			strbuf_addch(out, ' ');
		strbuf_addf(out, "%s%s?=", prefix, strbuf_str(&word));
	}
	strbuf_release(&word);
}

/* Appends a display name: as is, quoted, or encoded. */
static void add_phrase(struct strbuf *out, const char *name)
{
	bool plain = true;

	if (!is_ascii(name) || strstr(name, "=?")) {
		add_encoded_words(out, name);
		return;
	}
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == ' ' ||
		      strchr("!#$%&'*+-/=?^_`{|}~", *p)))
			plain = false;
	if (plain && name[0] != ' ' && name[strlen(name) - 1] != ' ') {
		strbuf_addstr(out, name);
		return;
	}
	strbuf_addch(out, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

/* Splits an address list at commas outside quotes and angle brackets. */
static size_t list_item_end(const char *s)
{
	bool q = false;
	int angle = 0;
	size_t k;

	for (k = 0; s[k]; k++) {
		if (q) {
			if (s[k] == '\\' && s[k + 1])
				k++;
			else if (s[k] == '"')
				q = false;
		} else if (s[k] == '"') {
			q = true;
		} else if (s[k] == '<') {
			angle++;
		} else if (s[k] == '>' && angle) {
			angle--;
		} else if (s[k] == ',' && !angle) {
			break;
		}
	}
	return k;
}

/* Appends an address-list header, each address validated. */
static int add_addresses(struct strbuf *h, const char *field,
			 const char *value, bool single, struct strbuf *err)
{
	struct strbuf v = STRBUF_INIT;
	const char *s = value;
	int count = 0;

	if (has_ctl(value)) {
		strbuf_addf(err, "control character (CR, LF, ...) in the %s "
			    "address", field);
		return -1;
	}
	for (;;) {
		size_t end = list_item_end(s);
		char *item = xstrndup(s, end), *name, *addr;
		if (mail_parse_address(item, &name, &addr) < 0) {
			strbuf_addf(err, "invalid %s address '%s'", field,
				    item);
			free(item);
			strbuf_release(&v);
			return -1;
		}
		free(item);
		if (count++)
			strbuf_addstr(&v, ", ");
		if (name) {
			add_phrase(&v, name);
			strbuf_addf(&v, " <%s>", addr);
		} else {
			strbuf_addstr(&v, addr);
		}
		free(name);
		free(addr);
		if (!s[end])
			break;
		s += end + 1;
	}
	if (single && count > 1) {
		strbuf_addf(err, "more than one %s address in '%s'", field,
			    value);
		strbuf_release(&v);
		return -1;
	}
	add_folded(h, field, v.buf);
	strbuf_release(&v);
	return 0;
}

/* The longest message id kept in In-Reply-To or References: with the
 * field name it stays well inside the 998 bytes of a header line. */
#define MSG_ID_MAX 900

/* Checks "<left@right>": printable ASCII, no blanks or brackets inside. */
static bool valid_msg_id(const char *s, size_t n)
{
	size_t at = 0;

	if (n < 5 || s[0] != '<' || s[n - 1] != '>')
		return false;
	for (size_t k = 1; k + 1 < n; k++) {
		unsigned char c = (unsigned char)s[k];
		if (c <= 32 || c >= 127 || c == '<' || c == '>')
			return false;
		if (c == '@')
			at++;
	}
	return at == 1 && s[1] != '@' && s[n - 2] != '@';
}

/* Appends a header of message ids separated by blanks. */
static int add_msg_ids(struct strbuf *h, const char *field, const char *value,
		       bool single, struct strbuf *err)
{
	struct strbuf v = STRBUF_INIT;
	const char *s = value;
	int count = 0;

	if (has_ctl(value)) {
		strbuf_addf(err, "control character (CR, LF, ...) in %s",
			    field);
		return -1;
	}
	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		size_t n = strcspn(s, " ");
		if (!single && n > MSG_ID_MAX) {
			/* A message id too long to fit a header line (998)
			 * of someone else's mail: threading loses one link,
			 * the message still goes out. */
			s += n;
			continue;
		}
		if (!valid_msg_id(s, n) || (single && count)) {
			strbuf_addf(err, "invalid %s '%s'", field, value);
			strbuf_release(&v);
			return -1;
		}
		if (count++)
			strbuf_addch(&v, ' ');
		strbuf_add(&v, s, n);
		s += n;
	}
	if (!count && !single && *value)
		return 0;	/* every id was dropped: no header */
	if (!count) {
		strbuf_addf(err, "empty %s", field);
		strbuf_release(&v);
		return -1;
	}
	add_folded(h, field, v.buf);
	strbuf_release(&v);
	return 0;
}

/* 64-bit FNV-1a, for the boundary. */
static unsigned long long fnv1a(const char *s)
{
	unsigned long long h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Does the text need quoted-printable (8-bit, long lines, "=_", ...)? */
static bool needs_qp(const char *t)
{
	size_t col = 0;

	if (strstr(t, "=_"))
		return true;
	for (const char *p = t; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\n') {
			if (p > t && (p[-1] == ' ' || p[-1] == '\t'))
				return true;
			col = 0;
			continue;
		}
		if (c >= 0x80 || (c < 0x20 && c != '\t' && c != '\r') ||
		    c == 0x7f)
			return true;
		if (c == '\r' && p[1] != '\n')
			return true;
		if (++col > 76)
			return true;
	}
	return false;
}

/* Appends text with LF (or CRLF) turned into CRLF, ending with CRLF. */
static void add_text_7bit(struct strbuf *out, const char *t)
{
	for (const char *p = t; *p; p++) {
		if (*p == '\r' && p[1] == '\n')
			continue;
		if (*p == '\n')
			strbuf_addstr(out, "\r\n");
		else
			strbuf_addch(out, *p);
	}
	if (*t && t[strlen(t) - 1] != '\n')
		strbuf_addstr(out, "\r\n");
}

/* Appends text quoted-printable, lines at most 76 characters. */
static void add_text_qp(struct strbuf *out, const char *t)
{
	const char *s = t;

	while (*s) {
		const char *eol = strchrnul(s, '\n');
		size_t n = (size_t)(eol - s), col = 0;
		if (n && s[n - 1] == '\r')
			n--;
		for (size_t k = 0; k < n; k++) {
			static const char hex[] = "0123456789ABCDEF";
			unsigned char c = (unsigned char)s[k];
			char tok[3];
			size_t tl;
			bool last = k + 1 == n;
			if ((c >= 33 && c <= 126 && c != '=') ||
			    ((c == ' ' || c == '\t') && !last)) {
				tok[0] = (char)c;
				tl = 1;
			} else {
				tok[0] = '=';
				tok[1] = hex[c >> 4];
				tok[2] = hex[c & 15];
				tl = 3;
			}
			if (col + tl > (last ? 76 : 75)) {
				strbuf_add(out, "=\r\n", 3);
				col = 0;
			}
			strbuf_add(out, tok, tl);
			col += tl;
		}
		strbuf_addstr(out, "\r\n");
		s = *eol ? eol + 1 : eol;
	}
}

/* Printable ASCII and tabs in LF-ended lines under 999 bytes, not
 * empty: a text that goes as 7bit byte for byte (but its line ends). */
static bool note_is_7bit(const char *t)
{
	size_t col = 0;

	if (!*t || t[strlen(t) - 1] != '\n')
		return false;
	for (const char *p = t; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\n') {
			col = 0;
			continue;
		}
		if ((c < 0x20 && c != '\t') || c >= 0x7f || ++col > 998)
			return false;
	}
	return true;
}

static int check_plain(const char *what, const char *v, struct strbuf *err)
{
	if (has_ctl(v) || !is_ascii(v) || !*v) {
		strbuf_addf(err, "invalid %s '%s' (empty, control or non-ASCII "
			    "characters)", what, v);
		return -1;
	}
	return 0;
}

static bool safe_file_name(const char *s)
{
	if (!*s || *s == '.')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-", *s)))
			return false;
	return true;
}

int mail_compose(const struct mail_out *m, struct strbuf *out,
		 struct strbuf *err)
{
	struct strbuf h = STRBUF_INIT;
	const char *text = m->text ? m->text : "";
	char boundary[40];
	bool multi = m->patch || m->svg || m->png || m->note;
	bool qp;

	if (!m->from || !m->to || !m->subject || !m->message_id || !m->date) {
		strbuf_addstr(err, "cannot compose a message without From, To, "
			      "Subject, Message-ID and Date");
		return -1;
	}
	if (add_addresses(&h, "From", m->from, true, err) < 0 ||
	    add_addresses(&h, "To", m->to, false, err) < 0 ||
	    (m->cc && add_addresses(&h, "Cc", m->cc, false, err) < 0) ||
	    (m->reply_to &&
	     add_addresses(&h, "Reply-To", m->reply_to, true, err) < 0))
		goto fail;
	if (has_ctl(m->subject) || !valid_utf8(m->subject)) {
		strbuf_addstr(err, "invalid subject (control characters or "
			      "invalid UTF-8)");
		goto fail;
	}
	if (!is_ascii(m->subject) || strstr(m->subject, "=?")) {
		struct strbuf enc = STRBUF_INIT;
		add_encoded_words(&enc, m->subject);
		add_folded(&h, "Subject", enc.buf);
		strbuf_release(&enc);
	} else {
		add_folded(&h, "Subject", m->subject);
	}
	if (check_plain("date", m->date, err) < 0)
		goto fail;
	add_folded(&h, "Date", m->date);
	if (add_msg_ids(&h, "Message-ID", m->message_id, true, err) < 0 ||
	    (m->in_reply_to &&
	     add_msg_ids(&h, "In-Reply-To", m->in_reply_to, false, err) < 0) ||
	    (m->references &&
	     add_msg_ids(&h, "References", m->references, false, err) < 0))
		goto fail;
	if (m->game_id) {
		if (!mail_valid_game_id(m->game_id)) {
			strbuf_addf(err, "invalid game id '%s'", m->game_id);
			goto fail;
		}
		add_folded(&h, "X-Postrider-Game", m->game_id);
	}
	if (m->commit) {
		if (strlen(m->commit) != 40 ||
		    strspn(m->commit, "0123456789abcdef") != 40) {
			strbuf_addf(err, "invalid commit id '%s'", m->commit);
			goto fail;
		}
		add_folded(&h, "X-Postrider-Commit", m->commit);
	}
	strbuf_addstr(&h, "Auto-Submitted: auto-generated\r\n");
	strbuf_addstr(&h, "MIME-Version: 1.0\r\n");
	if (!valid_utf8(text)) {
		strbuf_addstr(err, "the message text is not valid UTF-8");
		goto fail;
	}
	if (m->patch && m->patch_name && !safe_file_name(m->patch_name)) {
		strbuf_addf(err, "invalid patch file name '%s' (letters, "
			    "digits, '.', '_' and '-' only)", m->patch_name);
		goto fail;
	}
	if (m->note && (!m->note_name || !safe_file_name(m->note_name) ||
			!note_is_7bit(m->note))) {
		strbuf_addstr(err, "invalid text attachment (no safe file "
			      "name, or not 7-bit text with LF line ends)");
		goto fail;
	}
	if (m->patch_type && (has_ctl(m->patch_type) || !is_ascii(m->patch_type) ||
			      !strchr(m->patch_type, '/'))) {
		strbuf_addf(err, "invalid patch type '%s'", m->patch_type);
		goto fail;
	}
	qp = needs_qp(text);
	snprintf(boundary, sizeof(boundary), "=_postrider_%016llx",
		 fnv1a(m->message_id));

	if (multi) {
		strbuf_addf(&h, "Content-Type: multipart/mixed;\r\n"
			    " boundary=\"%s\"\r\n\r\n", boundary);
		strbuf_addf(&h, "This is a MIME message.\r\n\r\n--%s\r\n",
			    boundary);
	}
	strbuf_addstr(&h, "Content-Type: text/plain; charset=utf-8\r\n");
	strbuf_addf(&h, "Content-Transfer-Encoding: %s\r\n\r\n",
		    qp ? "quoted-printable" : "7bit");
	if (qp)
		add_text_qp(&h, text);
	else
		add_text_7bit(&h, text);
	if (m->note) {
		strbuf_addf(&h, "\r\n--%s\r\n", boundary);
		strbuf_addf(&h, "Content-Type: text/plain; charset=us-ascii;\r\n"
			    " name=\"%s\"\r\n", m->note_name);
		strbuf_addf(&h, "Content-Disposition: attachment;\r\n"
			    " filename=\"%s\"\r\n", m->note_name);
		strbuf_addstr(&h, "Content-Transfer-Encoding: 7bit\r\n\r\n");
		add_text_7bit(&h, m->note);
	}
	if (m->patch) {
		const char *name = m->patch_name ? m->patch_name
						 : "postrider.patch";
		strbuf_addf(&h, "\r\n--%s\r\n", boundary);
		strbuf_addf(&h, "Content-Type: %s; charset=utf-8;\r\n"
			    " name=\"%s\"\r\n",
			    m->patch_type ? m->patch_type : "text/x-patch", name);
		strbuf_addf(&h, "Content-Disposition: attachment;\r\n"
			    " filename=\"%s\"\r\n", name);
		strbuf_addstr(&h, "Content-Transfer-Encoding: base64\r\n\r\n");
		codec_base64_lines(m->patch, strlen(m->patch), "\r\n", &h);
	}
	if (m->svg) {
		strbuf_addf(&h, "\r\n--%s\r\n", boundary);
		strbuf_addstr(&h, "Content-Type: image/svg+xml; name=\"map.svg\""
			      "\r\n");
		strbuf_addstr(&h, "Content-Disposition: attachment; "
			      "filename=\"map.svg\"\r\n");
		strbuf_addstr(&h, "Content-Transfer-Encoding: base64\r\n\r\n");
		codec_base64_lines(m->svg, strlen(m->svg), "\r\n", &h);
	}
	if (m->png) {
		/* inline, so that a mail client shows it under the text */
		strbuf_addf(&h, "\r\n--%s\r\n", boundary);
		strbuf_addstr(&h, "Content-Type: image/png; name=\"map.png\"\r\n");
		strbuf_addstr(&h, "Content-Disposition: inline; filename=\"map.png\"\r\n");
		strbuf_addstr(&h, "Content-Transfer-Encoding: base64\r\n\r\n");
		codec_base64_lines(m->png, m->png_len, "\r\n", &h);
	}
	if (multi)
		strbuf_addf(&h, "\r\n--%s--\r\n", boundary);
	strbuf_add(out, h.buf, h.len);
	strbuf_release(&h);
	return 0;
fail:
	strbuf_release(&h);
	return -1;
}

void mail_format_date(long long unix_time, int tz_minutes, char out[40])
{
	static const char days[7][4] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
	};
	static const char months[12][4] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
	};
	struct tm tm;
	time_t t;
	int off = tz_minutes < 0 ? -tz_minutes : tz_minutes;

	if (tz_minutes <= -24 * 60 || tz_minutes >= 24 * 60)
		tz_minutes = off = 0;
	t = (time_t)(unix_time + (long long)tz_minutes * 60);
	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 < 0 ||
	    tm.tm_year + 1900 > 9999) {
		t = 0;
		gmtime_r(&t, &tm);
	}
	snprintf(out, 40, "%s, %u %s %04u %02u:%02u:%02u %c%02u%02u",
		 days[tm.tm_wday % 7], (unsigned)tm.tm_mday % 32u,
		 months[tm.tm_mon % 12], (unsigned)(tm.tm_year + 1900) % 10000u,
		 (unsigned)tm.tm_hour % 24u, (unsigned)tm.tm_min % 60u,
		 (unsigned)tm.tm_sec % 61u, tz_minutes < 0 ? '-' : '+',
		 (unsigned)(off / 60) % 24u, (unsigned)off % 60u);
}

/* ---- the envelope ---- */

char *mail_envelope_sender(const struct mail_envelope *env, const char *from,
			   const char *msg, size_t len)
{
	char *name = NULL, *addr = NULL, *v;
	char **addrs = NULL;
	size_t n = 0;

	if (env && env->from)
		return xstrdup(env->from);
	if (from && !mail_parse_address(from, &name, &addr)) {
		free(name);
		return addr;
	}
	v = mail_header_get(msg, len, "From");
	if (v && !mail_split_addresses(v, &addrs, &n) && n)
		addr = xstrdup(addrs[0]);
	for (size_t i = 0; i < n; i++)
		free(addrs[i]);
	free(addrs);
	free(v);
	return addr;
}

/* Appends the addresses of header field to *list. */
static int collect(const char *msg, size_t len, const char *field,
		   char ***list, size_t *n, struct strbuf *err)
{
	char *v = mail_header_get(msg, len, field);
	char **addrs = NULL;
	size_t k = 0;
	int ret = 0;

	if (v && mail_split_addresses(v, &addrs, &k) < 0) {
		strbuf_addf(err, "cannot read the %s addresses '%s'", field, v);
		ret = -1;
	}
	for (size_t i = 0; i < k; i++) {
		/* an address a program would take for an option: left out */
		if (!ret && addrs[i][0] != '-') {
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			(*list)[(*n)++] = addrs[i];
		} else {
			free(addrs[i]);
		}
	}
	free(addrs);
	free(v);
	return ret;
}

int mail_envelope_recipients(const struct mail_envelope *env, const char *msg,
			     size_t len, char ***list, size_t *n,
			     struct strbuf *err)
{
	if (env && env->rcpts) {
		for (size_t i = 0; i < env->n_rcpts; i++) {
			if (env->rcpts[i][0] == '-')
				continue;
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			(*list)[(*n)++] = xstrdup(env->rcpts[i]);
		}
		return 0;
	}
	if (collect(msg, len, "To", list, n, err) < 0 ||
	    collect(msg, len, "Cc", list, n, err) < 0)
		return -1;
	return 0;
}
