/*
 * peer-audit.h - `postrider peer audit` as a library (docs/peer.md 9.12):
 * a peer game checked from one copy, by anyone, its commits rebuilt by
 * the rule of section 7 and, once both masking keys are published, every
 * card opened. Nothing here prints: the results are data, and
 * src/cmd-peer.c says them (as audit.h is to cmd-audit.c).
 *
 * Ownership: the caller owns the report (peer_audit_report_init,
 * peer_audit_report_release).
 */
#ifndef POSTRIDER_PEER_AUDIT_H
#define POSTRIDER_PEER_AUDIT_H

#include <stddef.h>
#include "util.h"

/* What failed, when something did. */
enum peer_audit_failed {
	PEER_AUDIT_PASSED = 0,
	PEER_AUDIT_NO_GAME,	/* no peer game that has begun (why) */
	PEER_AUDIT_START,	/* the invitation or the join (why) */
	PEER_AUDIT_STATE,	/* the state before commit `at` does not load */
	PEER_AUDIT_COMMIT,	/* commit `at` does not replay (why) */
	PEER_AUDIT_KEYS,	/* a slot or a share against the keys (why) */
};

struct peer_audit_report {
	size_t n;		/* the commits of the history */
	enum peer_audit_failed failed;
	size_t at;		/* PEER_AUDIT_STATE, _COMMIT: its index from 0 */
	char commit[41];	/* and its id */
	struct strbuf why;	/* what does not hold */
	int opened;		/* both keys published: the slots opened; 0
				   while the hidden cards stay hidden */
};

void peer_audit_report_init(struct peer_audit_report *r);
void peer_audit_report_release(struct peer_audit_report *r);

/*
 * Audits the peer copy in dir (read only, no lock): 0 when every commit
 * replays and every proof verifies; 1 when not (r->failed, r->at, r->why);
 * -1 when dir holds no peer game that has begun (r->why).
 */
int peer_audit(const char *dir, struct peer_audit_report *r);

#endif
