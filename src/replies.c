/*
 * replies.c - the replies mailed to each player of a game (replies.h).
 */
#include "replies.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLIES_FILE "replies"
#define DAY 86400

/* The lines of the file, or "" (the caller releases text). */
static void load(struct repo *r, struct strbuf *text)
{
	struct strbuf path = STRBUF_INIT;

	if (repo_private_path(r, REPLIES_FILE, &path) == 0 &&
	    read_file(path.buf, text, 1 << 20) < 0)
		strbuf_reset(text);
	strbuf_release(&path);
}

/* Counts the replies to side since `from` in text. */
static int count(const char *text, enum side side, long long from)
{
	int n = 0;

	for (const char *p = text; *p;) {
		long long t;
		int k;
		if (sscanf(p, "%lld %d", &t, &k) == 2 && k == (int)side && t >= from)
			n++;
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return n;
}

int replies_allowed(struct repo *r, enum side side, long long now,
		      struct strbuf *why)
{
	struct strbuf text = STRBUF_INIT;
	int recent, day, ok = 1;

	load(r, &text);
	recent = count(text.buf, side, now - REPLIES_SHORT_WINDOW);
	day = count(text.buf, side, now - DAY);
	if (recent >= REPLIES_SHORT_MAX) {
		strbuf_addf(why, "%d replies to the %s in the last %d minutes", recent,
			    side_title(side), REPLIES_SHORT_WINDOW / 60);
		ok = 0;
	} else if (day >= REPLIES_DAY_MAX) {
		strbuf_addf(why, "%d replies to the %s in the last day", day, side_title(side));
		ok = 0;
	}
	strbuf_release(&text);
	return ok;
}

int replies_record(struct repo *r, enum side side, long long now, int n)
{
	struct strbuf text = STRBUF_INIT, kept = STRBUF_INIT, path = STRBUF_INIT;
	int ret = -1;

	load(r, &text);
	for (const char *p = text.buf; *p;) {
		long long t;
		int k;
		size_t len = strcspn(p, "\n");
		if (sscanf(p, "%lld %d", &t, &k) == 2 && t >= now - DAY && t <= now)
			strbuf_addf(&kept, "%lld %d\n", t, k);
		p += len + (p[len] == '\n');
	}
	for (int i = 0; i < n; i++)
		strbuf_addf(&kept, "%lld %d\n", now, (int)side);
	if (repo_private_path(r, REPLIES_FILE, &path) < 0)
		warning("cannot find the game's private folder for the count of replies");
	else if (write_file_atomic(path.buf, kept.buf, kept.len) < 0)
		warning("cannot write '%s': %s", path.buf, strerror(errno));
	else
		ret = 0;
	strbuf_release(&text);
	strbuf_release(&kept);
	strbuf_release(&path);
	return ret;
}

#define UNPROVEN_FILE "replies-unproven"

/* Reads the budget of unproven mails: the lines of the last window, kept
 * (to kept, if not NULL); whether addr has one. */
static bool unproven_load(struct repo *r, const char *addr, long long now,
			  struct strbuf *kept)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	bool found = false;

	if (repo_private_path(r, UNPROVEN_FILE, &path) == 0 &&
	    read_file(path.buf, &text, 1 << 20) < 0)
		strbuf_reset(&text);
	for (const char *p = text.buf ? text.buf : ""; *p;) {
		size_t len = strcspn(p, "\n");
		char *end;
		long long t = strtoll(p, &end, 10);
		if (end > p && *end == ' ' && t > now - REPLIES_UNPROVEN_WINDOW && t <= now &&
		    (size_t)(end + 1 - p) < len) {
			size_t alen = len - (size_t)(end + 1 - p);
			if (addr && alen == strlen(addr) && !ascii_strncasecmp(end + 1, addr, alen))
				found = true;
			if (kept)
				strbuf_addf(kept, "%.*s\n", (int)len, p);
		}
		p += len + (p[len] == '\n');
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

int replies_unproven_allowed(struct repo *r, const char *addr, long long now,
			     struct strbuf *why)
{
	if (!unproven_load(r, addr, now, NULL))
		return 1;
	strbuf_addstr(why, "a mail that proves no sender (no valid token) was answered at "
		      "this address in the last day");
	return 0;
}

int replies_unproven_record(struct repo *r, const char *addr, long long now)
{
	struct strbuf kept = STRBUF_INIT, path = STRBUF_INIT;
	int ret = -1;

	if (!addr || strchr(addr, '\n'))
		return 0;
	unproven_load(r, NULL, now, &kept);
	strbuf_addf(&kept, "%lld %s\n", now, addr);
	if (repo_private_path(r, UNPROVEN_FILE, &path) < 0)
		warning("cannot find the game's private folder for the count of replies");
	else if (write_file_atomic(path.buf, kept.buf, kept.len) < 0)
		warning("cannot write '%s': %s", path.buf, strerror(errno));
	else
		ret = 0;
	strbuf_release(&kept);
	strbuf_release(&path);
	return ret;
}

#define ANSWERED_FILE "answered"

bool replies_answered(struct repo *r, const char *message_id)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	bool found = false;
	size_t n = message_id ? strlen(message_id) : 0;

	if (n && repo_private_path(r, ANSWERED_FILE, &path) == 0 &&
	    read_file(path.buf, &text, 1 << 20) == 0)
		for (const char *p = text.buf; *p && !found;) {
			size_t len = strcspn(p, "\n");
			found = len == n && !memcmp(p, message_id, n);
			p += len + (p[len] == '\n');
		}
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

int replies_mark_answered(struct repo *r, const char *message_id)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, kept = STRBUF_INIT;
	int ret = -1, lines = 0;

	if (!message_id || !*message_id || strchr(message_id, '\n'))
		return 0;
	if (repo_private_path(r, ANSWERED_FILE, &path) < 0) {
		warning("cannot find the game's private folder for the messages answered");
		goto out;
	}
	if (read_file(path.buf, &text, 1 << 20) < 0)
		strbuf_reset(&text);
	for (const char *p = text.buf; *p; p++)
		lines += *p == '\n';
	/* keep the newest REPLIES_ANSWERED_KEPT - 1, then this one */
	const char *p = text.buf;
	for (; lines >= REPLIES_ANSWERED_KEPT && *p; lines--)
		p += strcspn(p, "\n") + 1;
	strbuf_addstr(&kept, p);
	strbuf_addf(&kept, "%s\n", message_id);
	if (write_file_atomic(path.buf, kept.buf, kept.len) < 0)
		warning("cannot write '%s': %s", path.buf, strerror(errno));
	else
		ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&kept);
	return ret;
}

/* "rejected-american" */
static int rejected_path(struct repo *r, enum side side, struct strbuf *path)
{
	char name[32];

	snprintf(name, sizeof(name), "rejected-%s", side_name(side));
	return repo_private_path(r, name, path);
}

int replies_keep_rejected(struct repo *r, enum side side, unsigned seq,
			  const char *text)
{
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&body, "%u\n%s", seq, text ? text : "");
	if (rejected_path(r, side, &path) < 0)
		warning("cannot find the game's private folder for the refused order");
	else if (write_file_atomic(path.buf, body.buf, body.len) < 0)
		warning("cannot write '%s': %s", path.buf, strerror(errno));
	else
		ret = 0;
	strbuf_release(&path);
	strbuf_release(&body);
	return ret;
}

char *replies_last_rejected(struct repo *r, enum side side, unsigned seq)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char *order = NULL, *end;

	if (rejected_path(r, side, &path) == 0 &&
	    read_file(path.buf, &text, 1 << 20) == 0 && text.len) {
		unsigned long kept = strtoul(text.buf, &end, 10);
		if (end != text.buf && *end == '\n' && kept == seq)
			order = xstrdup(end + 1);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return order;
}
