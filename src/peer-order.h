/*
 * peer-order.h - an order in a peer game, run inside a step
 * (peer-facts.h) by the rule of section 7 (peer-step.h): cut at its first
 * draw, its later lines sealed and committed to (docs/peer.md 6.4, 9.5,
 * 9.11). peer-order.c.
 *
 * Ownership: as peer-facts.h.
 */
#ifndef POSTRIDER_PEER_ORDER_H
#define POSTRIDER_PEER_ORDER_H

#include "peer-facts.h"

struct order_result;
/* order_run() of text for side on s with the peer stream rp; whether a
 * draw or a card was missing. */
int peer_run_text(struct peer_step *st, struct state *s, enum side side,
		  const char *text, struct rng_peer *rp, struct order_result *res);
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
