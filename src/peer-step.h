/*
 * peer-step.h - the rule of docs/peer.md section 7: the commit that
 * follows a parent in a peer game, built from the parent and the facts
 * of its committer. The committer's postrider runs it to make the
 * commit (make: what is due is drawn and proved with its secret); the
 * other postrider runs it to replay a mailed commit (verify: the facts
 * are those the patch adds, each proof checked, each one called for),
 * and the commit ids must agree (8.3 steps 6 and 7). The step and its
 * facts are peer-facts.h's, the order run peer-order.h's; the rule
 * stands on both.
 *
 * Ownership: as peer-facts.h.
 */
#ifndef POSTRIDER_PEER_STEP_H
#define POSTRIDER_PEER_STEP_H

#include "peer-facts.h"
#include "peer-order.h"
#include "peer-patch.h"

/*
 * Builds the commit (prepared, not published): 0 with its id; 1 refused
 * (the facts do not give it, or an order is illegal: st->why); -1 a
 * failure (said).
 */
int peer_step_build(struct peer_step *st, char commit[41]);

/*
 * Section 7: whether c owes a commit of kind after the parent state p
 * (commit seq - 1), the first check of a mailed commit (finding 4 of
 * issue 34; as order_step() in peer-play.c asks before making one, and
 * peer_answer_owed() makes answers). An order when c's decision is due (p's prompt is his, the
 * game is not over, waits is empty or "SIDE decision"); an answer when
 * p's waits say he owes something (peer_owes()); an end when he does and
 * the game is over. 0, or 1 with the reason appended to why.
 */
int peer_step_owed(const struct state *p, enum side c, enum peer_kind kind,
		   unsigned seq, struct strbuf *why);

#endif
