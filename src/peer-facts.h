/*
 * peer-facts.h - one step of the rule of docs/peer.md section 7 (struct
 * peer_step: the parent, the committer, what the commit holds) and its
 * facts: each unmasking share, shuffle and die a commit adds, made with
 * the committer's secret (make) or taken from the patch and checked
 * (verify). The order run (peer-order.h) and the rule itself
 * (peer-step.h) stand on it; it calls neither.
 *
 * Ownership: struct peer_step points to the caller's data, except its
 * why and order_file buffers (peer_step_release()).
 */
#ifndef POSTRIDER_PEER_FACTS_H
#define POSTRIDER_PEER_FACTS_H

#include "peer-record.h"
#include "peer-files.h"

struct peer_step {
	/* the parent */
	struct peer_copy *pc;		/* the copy; pc->g.head is the parent */
	const struct state *parent;	/* its public state */
	struct peer_files *files;	/* its record; the step adds to it */
	/* the commit */
	enum side c;			/* the committer */
	enum peer_kind kind;		/* PEER_ORDER or PEER_ANSWER */
	const char *order;		/* PEER_ORDER: the order's text */
	long long time;
	/* make: the committer's own copy (pc->me == c) */
	bool make;
	/* the requester's VRF proof of the request this commit answers
	 * (from its envelope), or NULL */
	const unsigned char *req_proof;
	/* verify: the facts the patch adds */
	struct peer_files *given;
	const char *cont;		/* the lines the patch adds to an open
					   order's file (a continuation) */
	char given_sealed[65];		/* the commitment its state.yaml adds */

	/* what the record held at the parent */
	int n_old_shares, n_old_dice;
	bool old_sh[PEER_MAX_GEN + 1][3];

	/* results */
	struct strbuf why;		/* a refusal's reason */
	bool gave_key;			/* the committer's key is published */
	bool request;			/* the commit is a request for dice: the
					   committer's proof goes in the envelope */
	unsigned char own_proof[VRF_PROOF_BYTES];
	struct state next;		/* the state it commits */
	unsigned seq;			/* its Postrider-Seq */
	unsigned order_seq;		/* the order file it writes, if any */
	char order_path[64];
	struct strbuf order_file;
};

void peer_step_init(struct peer_step *st);
void peer_step_release(struct peer_step *st);

/* Records a refusal's reason (the first one only); returns 1. */
int refuse_step(struct peer_step *st, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* What side owes by state s's waits: a line "SIDE WHAT [ARG]" for side
 * other than a decision, or NULL. */
const char *peer_owes(const struct state *s, enum side side);

/* The card of each slot of side's hand that this copy knows (its own
 * hand, opened with the other side's shares; cards both opened): writes
 * cards[i] for hand position i (0 when unknown). */
void peer_known_hand(const struct peer_copy *pc, const struct peer_files *f,
		     const struct state *s, enum side side, int *cards);

/* The facts, each made (make) or the patch's checked (verify), then added
 * to st->files: 0, or refused (1, the reason in st->why). */
/* The committer's unmasking share of slot (4.5). */
int peer_fact_share(struct peer_step *st, int slot);
/* The committer's shuffle of generation gen, turn 1 or 2 (4.4), of the n
 * masked cards in (refs: turn 1's inputs by name). */
int peer_fact_shuffle(struct peer_step *st, int gen, int turn,
		      const unsigned char *in, int n, char (*refs)[PEER_REF_MAX]);
/* The dice of the request the parent is (5.1, 5.2), their key into rp. */
int peer_fact_dice(struct peer_step *st, struct rng_peer *rp);
/* The reveal callback of struct rng_peer (ctx a struct peer_step): the
 * committer's share of a slot of his own hand that the rules reveal
 * (9.7), made or checked, and the card it opens; 0 otherwise. */
int peer_step_reveal(void *ctx, enum side side, int slot);

#endif
