/*
 * replies.h - the replies postrider mails to one player of one game (a
 * rejection, the answer to a question, a vacation's notice): how many may
 * go, and which messages were answered already. A
 * forged From line, a mail loop with an auto-responder that sets no
 * header, or a player's own machine gone wrong must not make the host
 * mail a player without end (issue 28: 2,400 hostile mails once made
 * 1,711 rejections). Reports of accepted orders are not counted: each
 * needs a valid token.
 *
 * Only mails that prove their sender (a valid token: an order refused,
 * a question, a vacation) count against a side's limits, so that mail
 * forged in his name cannot spend them (issue 39: eight forgeries used to
 * silence the American for ten minutes). A mail that proves nothing (no
 * token, a stale one, another game's, a mail that cannot be read) is
 * answered from a budget of its own: at most one reply a day to each
 * address (<gitdir>/postrider/replies-unproven, "TIME ADDRESS" a line).
 *
 * The replies sent are kept in the game's private folder
 * (<gitdir>/postrider/replies, never committed): one line "TIME SIDE" a
 * reply, the lines older than a day dropped when it is written.
 *
 * Ownership: nothing is kept between calls.
 */
#ifndef POSTRIDER_REPLIES_H
#define POSTRIDER_REPLIES_H

#include "repo.h"
#include "state.h"

#define REPLIES_SHORT_WINDOW 600	/* ten minutes */
#define REPLIES_SHORT_MAX 8		/* replies to a side in it */
#define REPLIES_DAY_MAX 40		/* replies to a side in a day */

/*
 * Whether another reply may go to side now: 1 if so, 0 if the limit is
 * reached (the reason appended to why: "N replies to the American in the
 * last 10 minutes"). A file that cannot be read counts as empty.
 */
int replies_allowed(struct repo *r, enum side side, long long now,
		      struct strbuf *why);

/* Records n replies to side at now. Returns 0, or -1 after a warning (the
 * reply still goes: a limit that cannot be kept must not lose mail). */
int replies_record(struct repo *r, enum side side, long long now, int n);

/*
 * The budget of the mails that prove no sender: whether a reply may go to
 * addr now (1, or 0 with the reason appended to why: one went in the last
 * day), and the record of one (0, or -1 after a warning). The address is
 * compared ignoring ASCII case.
 */
#define REPLIES_UNPROVEN_WINDOW 86400	/* one a day an address */
int replies_unproven_allowed(struct repo *r, const char *addr, long long now,
			     struct strbuf *why);
int replies_unproven_record(struct repo *r, const char *addr, long long now);

/*
 * A question or a vacation is answered once per message: the Message-IDs
 * answered are kept (<gitdir>/postrider/answered, the last
 * REPLIES_ANSWERED_KEPT), so a copy of the same mail sent again gets no
 * second answer. replies_answered() says whether message_id (NULL: never)
 * was answered; replies_mark_answered() records it (0, or -1 after a
 * warning).
 */
#define REPLIES_ANSWERED_KEPT 500
bool replies_answered(struct repo *r, const char *message_id);
int replies_mark_answered(struct repo *r, const char *message_id);

/*
 * The last order of side that was refused by mail, kept so that `options`
 * by mail may answer for the point where it failed (query.c): in
 * <gitdir>/postrider/rejected-SIDE (never committed), "SEQ\n" then the
 * order text, SEQ the game's order count when it was refused. keep
 * returns 0, or -1 after a warning; last gives a new string, or NULL when
 * none was kept at seq (any order since makes it stale).
 */
int replies_keep_rejected(struct repo *r, enum side side, unsigned seq,
			  const char *text);
char *replies_last_rejected(struct repo *r, enum side side, unsigned seq);

#endif
