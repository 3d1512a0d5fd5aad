/*
 * peer-remind.h - `postrider peer remind` (also `postrider remind` on a
 * peer copy) and `postrider peer claim` as a library (docs/peer.md
 * section 11), each on its player's own copy, from what the copy knows.
 * They mail (the resend, the notices to the player, the claim) and say
 * nothing: what they found and did is data, and the commands
 * (src/cmd-peer.c, src/cmd-remind.c) say it.
 *
 * Ownership: the caller owns each report (its _init and _release).
 */
#ifndef POSTRIDER_PEER_REMIND_H
#define POSTRIDER_PEER_REMIND_H

#include <stdbool.h>
#include "config.h"
#include "peer-silence.h"

/* What became of the resend of this copy's last commit (11). */
enum peer_resend {
	PEER_RESEND_NONE = 0,	/* not due: the other owes no automatic
				   answer, or not for an hour yet */
	PEER_RESEND_NOT_OURS,	/* due, but the head is not this copy's */
	PEER_RESEND_LATELY,	/* mailed again less than a day ago */
	PEER_RESEND_DONE,	/* mailed again now */
	PEER_RESEND_FAILED,	/* it could not be put in the outbox */
};

/* A notice mailed to the copy's own player. */
struct peer_told {
	const char *kind;	/* "due", "late" or "claimable" */
	char subject[160];
};

struct peer_remind {
	char game[64];		/* the game's id */
	enum side me;		/* the copy's side */
	long long now;
	struct peer_owed owed;	/* owed.side SIDE_NONE: nobody owes */
	bool over;		/* the game is over */
	struct strbuf failed;	/* this copy owes an automatic answer that
				   could not be made: why */
	enum peer_resend resend;
	char resent[41];	/* PEER_RESEND_DONE: the commit mailed again */
	bool claimable;		/* the other side is past the forfeit limit */
	struct peer_told told[3];
	int n_told;
	bool unsent;		/* mail waits in the outbox */
	bool can_send;		/* a transport sends it */
	char *outbox;		/* the copy's outbox */
};

void peer_remind_init(struct peer_remind *r);
void peer_remind_release(struct peer_remind *r);

/*
 * Remind on the peer copy dir (locked while it runs): who owes what since
 * when; this copy's own automatic answer made when it owes one; its last
 * commit mailed again when the other owes an automatic answer for an
 * hour (then daily); its player told, at most daily, when his decision is
 * late, when the other's is, and when he may claim; the outbox sent.
 * 0 done; 1 a mail could not be written; GAME_BUSY (nothing looked at);
 * -1 the copy cannot be opened (the reason in err).
 */
int peer_remind(const char *dir, const struct mail_config *cfg,
		struct peer_remind *r, struct strbuf *err);

/* What `peer claim` did. */
struct peer_claim {
	unsigned seq;		/* the claim's Postrider-Seq */
	char commit[41];	/* and its id */
	enum side loser;	/* the side that loses by forfeit */
	bool unsent;		/* the claim's mail waits in the outbox */
	bool can_send;
	char *outbox;
};

void peer_claim_release(struct peer_claim *c);

/*
 * Claims the game on the peer copy dir for its player (11): the claim
 * committed and mailed to the other side, the outbox sent. 0 claimed; 1
 * refused, changing nothing (why: "no claim: ..."); GAME_BUSY; -1 a
 * failure (why, or empty when it was said where it happened).
 */
int peer_claim(const char *dir, const struct mail_config *cfg,
	       struct peer_claim *c, struct strbuf *why);

#endif
