/*
 * peer-step.h - the rule of docs/peer.md section 7: the commit that
 * follows a parent in a peer game, built from the parent and the facts
 * of its committer. The committer's postrider runs it to make the
 * commit (make: what is due is drawn and proved with its secret); the
 * other postrider runs it to replay a mailed commit (verify: the facts
 * are those the patch adds, each proof checked, each one called for),
 * and the commit ids must agree (8.3 steps 6 and 7).
 *
 * Ownership: struct peer_step points to the caller's data, except its
 * why buffer (peer_step_release()).
 */
#ifndef POSTRIDER_PEER_STEP_H
#define POSTRIDER_PEER_STEP_H

#include "peer.h"
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

/*
 * Builds the commit (prepared, not published): 0 with its id; 1 refused
 * (the facts do not give it, or an order is illegal: st->why); -1 a
 * failure (said).
 */
int peer_step_build(struct peer_step *st, char commit[41]);

/* What side owes by state s's waits: a line "SIDE WHAT [ARG]" for side
 * other than a decision, or NULL. */
const char *peer_owes(const struct state *s, enum side side);

/* The card of each slot of side's hand that this copy knows (its own
 * hand, opened with the other side's shares; cards both opened): writes
 * cards[i] for hand position i (0 when unknown). */
void peer_known_hand(const struct peer_copy *pc, const struct peer_files *f,
		     const struct state *s, enum side side, int *cards);

/* The facts a patch adds (verify): the lines it adds to shares.txt,
 * dice.txt and keys.txt, its new shuffle files into given; the lines it
 * adds to an order file into order. PEER_ACCEPTED, or PEER_REFUSED with
 * the reason in said. */
int peer_given_from_patch(const char *patch, struct peer_files *given,
			  struct strbuf *order, struct strbuf *said);

/* ---- inside the step (peer-order.c and peer-step.c) ---- */
struct order_result;
/* Records a refusal's reason (the first one only); returns 1. */
int refuse_step(struct peer_step *st, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* order_run() of text for side on s with the peer stream rp; whether a
 * draw or a card was missing. */
int peer_run_text(struct peer_step *st, struct state *s, enum side side,
		  const char *text, struct rng_peer *rp, struct order_result *res);
/* The reveal callback of struct rng_peer (ctx a struct peer_step): the
 * committer's share of a slot of his own hand that the rules reveal
 * (9.7), made or checked, and the card it opens; 0 otherwise. */
int peer_step_reveal(void *ctx, enum side side, int slot);
/* The cards of the committer's hand that text plays (up to its first
 * request), each opened by his share: made from his own view (make), or
 * the patch's shares of his own slots (verify; text unused). */
int peer_reveal_played(struct peer_step *st, const char *text);
/* "SIDE NNNN K" of s->peer.pending: 0, or -1 when none. */
int peer_pending(const struct state *s, enum side *side, unsigned *seq, int *line);
/* A new order (PEER_ORDER): run to its end or its first request. */
int peer_order_first(struct peer_step *st, struct strbuf *log);
/* The request's line, run by the answerer with the dice in rp. */
int peer_order_pending(struct peer_step *st, struct rng_peer *rp, struct strbuf *log);
/* The committer's open order, its sealed lines run on. */
int peer_order_continue(struct peer_step *st, struct strbuf *log);

#endif
