/*
 * peer-silence.h - deadlines and silence in a peer game (docs/peer.md
 * section 11): who owes the next commit and since when (the head's
 * Postrider-Waits and date), the resend of this copy's last mail when an
 * automatic answer is late (`peer remind`), and the claim of a game the
 * other side stopped answering (`peer claim`, a commit of kind claim,
 * made here and replayed by the other copy and by `peer audit`).
 *
 * Ownership: every argument is the caller's; nothing is kept.
 */
#ifndef POSTRIDER_PEER_SILENCE_H
#define POSTRIDER_PEER_SILENCE_H

#include "peer-record.h"

struct peer_files;

/* An automatic answer the other owes is mailed again after an hour, then
 * at most daily (11). */
#define PEER_RESEND_AFTER 3600LL
#define PEER_RESEND_EVERY 86400LL
/* The forfeit limit: 7 days after the commit left unanswered, for an
 * automatic answer and for a decision (a peer game has no deadline of
 * its own yet: the deadline is 0, and the limit is the deadline + 7
 * days). */
#define PEER_FORFEIT_LIMIT (7LL * 86400)

/* "2023-11-14 22:13 UTC" */
void peer_date_text(long long t, char out[32]);
/* <gitdir>/postrider/NAME, this copy's own (never committed): read into
 * out (0, or -1 when absent), or written (a failure is warned). */
int peer_private_read(struct peer_copy *pc, const char *name, struct strbuf *out);
void peer_private_write(struct peer_copy *pc, const char *name, const char *text, size_t len);

/* Who owes the commit after a parent (its public state s, its date). */
struct peer_owed {
	enum side side;		/* SIDE_NONE: nobody (the game is over) */
	bool automatic;		/* an automatic answer, not a decision */
	char what[STATE_PEER_WAIT_MAX];	/* the first waits line he owes */
	long long since;	/* the parent's date */
	long long limit;	/* since + the forfeit limit */
};

/* "2023-11-14 22:13 UTC" */
void peer_date_text(long long t, char out[32]);
/* <gitdir>/postrider/NAME, this copy's own (never committed): read into
 * out (0, or -1 when absent), or written (a failure is warned). */
int peer_private_read(struct peer_copy *pc, const char *name, struct strbuf *out);
void peer_private_write(struct peer_copy *pc, const char *name, const char *text, size_t len);

/* The head's waits lines: its Postrider-Waits trailers, in order (the
 * join's state.yaml has none, its trailer does). */
struct peer_waits {
	int n;
	char l[STATE_PEER_MAX_WAITS][STATE_PEER_WAIT_MAX];
};
void peer_waits_get(struct peer_copy *pc, struct peer_waits *w);

/* Who owes the commit after the head of pc (its Postrider-Waits, its
 * date): the side of the first waits line. */
void peer_owed_get(struct peer_copy *pc, struct peer_owed *o);

/* This copy accepted its head (a mail of the other's) at now: kept, so
 * that a claim after it counts the silent side's week from then when
 * that is later than the commit's date (a commit dated back). */
void peer_silence_received(struct peer_copy *pc, long long now);

/* A commit mail of this copy, kept for a resend (the last one only). */
void peer_silence_keep(struct peer_copy *pc, const char *commit,
		       const char *mail, size_t len);

/*
 * The claim of side c on the open copy pc (its head the parent, files
 * its record there), dated t: with make, this copy's own claim (its key
 * from its secret); else a claim to replay, whose key is given (given:
 * the facts its patch adds). now is the replaying clock. Prepares the
 * commit (seq its Postrider-Seq) into commit and the state it commits
 * into next: 0; 1 refused with the reason in why; -1 a failure.
 */
int peer_claim_build(struct peer_copy *pc, struct peer_files *files,
		     enum side c, long long t, long long now, bool make,
		     const struct peer_files *given, unsigned seq,
		     struct state *next, char commit[41], struct strbuf *why);

/* A claim mailed by the other side (8.3 steps 5 to 7): PEER_ACCEPTED
 * with the head moved, PEER_REFUSED or PEER_FAILED with said. */
struct peer_envelope;
int peer_claim_accept(struct peer_copy *pc, const struct peer_envelope *e,
		      const char *patch, struct strbuf *said);

/* peer audit: the claim rev (its parent loaded in pc) rebuilt; 0, 1
 * refused (why), -1. */
int peer_claim_audit(struct peer_copy *pc, const char *rev, enum side c,
		     unsigned seq, const char *patch, struct strbuf *why);

#endif
