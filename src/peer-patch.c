/*
 * peer-patch.c - what a mailed peer commit carries and how it lands
 * (docs/peer.md 8.3 steps 4 to 7; peer-patch.h): the date of its patch
 * and the commit's against its parent and the clock, the facts its patch
 * adds, the rebuilt commit against the mailed one, and the head moved to
 * it. Shared by accepting a mail (peer.c), a claim (peer-silence.c) and
 * peer audit; it calls none of them.
 */
#include "peer-patch.h"
#include "fault.h"
#include "mail.h"
#include "peer-files.h"
#include "peer-wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The author date of a patch ("Date: Fri, 27 Nov 2026 02:21:45 +0000").
 * 0 or -1. */
int peer_patch_time(const char *patch, long long *t)
{
	const char *p = strstr(patch, "\nDate: ");
	struct tm tm;
	const char *end;
	int sign, hh, mm;

	if (!p)
		return -1;
	memset(&tm, 0, sizeof(tm));
	end = strptime(p + 7, "%a, %d %b %Y %H:%M:%S ", &tm);
	if (!end || (*end != '+' && *end != '-') ||
	    sscanf(end + 1, "%2d%2d", &hh, &mm) != 2)
		return -1;
	sign = *end == '-' ? -1 : 1;
	*t = (long long)timegm(&tm) - sign * (hh * 3600 + mm * 60);
	return 0;
}

/*
 * The lines the patch adds to the file path ('+' lines of its diff,
 * without the '+'), appended to out. 0, or -1 when the patch has no diff
 * of path.
 */
int peer_patch_added(const char *patch, const char *path, struct strbuf *out)
{
	char *head = xstrfmt("diff --git a/%s b/%s\n", path, path);
	const char *p = strstr(patch, head);
	bool in_hunk = false;

	if (!p) {
		free(head);
		return -1;
	}
	for (p = strchr(p, '\n') + 1; *p && strncmp(p, "diff --git ", 11);) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		if (!strncmp(p, "@@ ", 3))
			in_hunk = true;
		else if (in_hunk && *p == '+')
			strbuf_add(out, p + 1, len - 1);
		else if (len == 4 && !strncmp(p, "-- \n", 4))
			break;	/* the signature of the mbox */
		p += len;
	}
	free(head);
	return 0;
}

/* 8.3 step 7: the patch is the rebuilt commit's, byte for byte (a line
 * changed that no fact reads is a changed patch all the same). */
int peer_built_is_mailed(struct peer_copy *pc, const struct peer_envelope *e,
			 const char *commit, const char *patch, struct strbuf *said)
{
	struct strbuf mine = STRBUF_INIT;
	int ret = 0;

	if (strcmp(commit, e->commit)) {
		strbuf_addf(said, "commit %lu (%s) does not replay: the same facts give %s, not %s (8.3 step 6)",
			    e->seq, e->kind, commit, e->commit);
		return -1;
	}
	if (repo_format_patch(pc->g.repo, commit, &mine) < 0 || strcmp(mine.buf, patch)) {
		strbuf_addf(said, "the mail's patch is not the patch of commit %.12s: it was changed (8.3 step 7)",
			    commit);
		ret = -1;
	}
	strbuf_release(&mine);
	return ret;
}

int peer_publish_head(struct peer_copy *pc, const char *commit, struct strbuf *said)
{
	if (repo_commit_publish(pc->g.repo, pc->g.head, commit) != 0) {
		strbuf_addstr(said, "cannot move the head (nothing changed)");
		return -1;
	}
	snprintf(pc->g.head, sizeof(pc->g.head), "%s", commit);
	fault_point("head-moved");
	return 0;
}

long long peer_commit_time(struct repo *r, const char *parent)
{
	long long now = game_now(), pt = 0;

	if (parent && *parent && repo_commit_info(r, parent, NULL, NULL, NULL, &pt) == 0 &&
	    pt > now)
		return pt;
	return now;
}

int peer_check_time(struct repo *r, const char *parent, long long t,
		    long long now, struct strbuf *said)
{
	char a[40], b[40];
	long long pt = 0;

	if (parent && *parent && repo_commit_info(r, parent, NULL, NULL, NULL, &pt) == 0 &&
	    t < pt) {
		mail_format_date(t, 0, a);
		mail_format_date(pt, 0, b);
		strbuf_addf(said, "the commit is dated %s, before its parent (%s) (8.3)", a, b);
		return PEER_REFUSED;
	}
	if (t > now + PEER_CLOCK_SLACK) {
		mail_format_date(t, 0, a);
		mail_format_date(now, 0, b);
		strbuf_addf(said, "the commit is dated %s, more than an hour after this machine's clock (%s) (8.3)",
			    a, b);
		return PEER_REFUSED;
	}
	return 0;
}

/* The facts a patch adds (verify): the lines of shares.txt and
 * dice.txt, the new shuffle files, the order file. 0 or refused. */
int peer_given_from_patch(const char *patch, struct peer_files *given,
			    struct strbuf *order, struct strbuf *said)
{
	struct strbuf changes = STRBUF_INIT, add = STRBUF_INIT;
	char why[200];
	int ret = PEER_REFUSED;

	if (repo_patch_changes(patch, strlen(patch), &changes, why, sizeof(why)) < 0) {
		strbuf_addf(said, "the patch does not parse: %s", why);
		goto out;
	}
	for (const char *p = changes.buf; *p;) {
		size_t len = strcspn(p, "\n");
		char path[128];
		int g, k, n = 0;
		snprintf(path, sizeof(path), "%.*s", (int)(len > 2 ? len - 2 : 0), p + 2);
		strbuf_reset(&add);
		peer_patch_added(patch, path, &add);
		if (!strcmp(path, "peer/shares.txt") || !strcmp(path, "peer/dice.txt") ||
		    !strcmp(path, "peer/keys.txt")) {
			int (*parse)(const char *, size_t, struct peer_files *, char *, size_t) =
				path[5] == 's' ? peer_share_parse : path[5] == 'd' ? peer_dice_parse
							     : peer_key_parse;
			for (const char *q = add.buf; *q;) {
				size_t l = strcspn(q, "\n");
				if (parse(q, l, given, why, sizeof(why)) < 0) {
					strbuf_addf(said, "%s: %s", path, why);
					goto out;
				}
				q += l + (q[l] ? 1 : 0);
			}
		} else if (sscanf(path, "peer/shuffles/%d-%d.txt%n", &g, &k, &n) == 2 &&
			   (size_t)n == strlen(path) && *p == 'A' && g >= 1 &&
			   g <= PEER_MAX_GEN && (k == 1 || k == 2)) {
			struct peer_shuffle *sh = &given->sh[g][k];
			if (peer_shuffle_parse(add.buf, sh, why, sizeof(why)) < 0 ||
			    sh->gen != g || sh->turn != k) {
				strbuf_addf(said, "%s: %s", path, why);
				goto out;
			}
		} else if (!strncmp(path, "orders/", 7)) {
			strbuf_addbuf(order, &add);
		}
		p += len + (p[len] ? 1 : 0);
	}
	ret = PEER_ACCEPTED;
out:
	strbuf_release(&changes);
	strbuf_release(&add);
	return ret;
}
