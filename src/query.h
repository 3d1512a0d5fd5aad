/*
 * query.h - questions a player may mail instead of an order (issue 16,
 * docs/orders.md "Asking by mail"): help, options, hand, board, log [N],
 * discards, resend, neighbours SPACE. They are answered privately to the sender after the
 * same checks as an order (sender, game, token: the answer shows the
 * sender's hand, so a forged From must not get it); nothing is
 * committed, the token stays valid, the opponent sees nothing.
 *
 * Ownership: results are appended to the caller's strbuf.
 */
#ifndef POSTRIDER_QUERY_H
#define POSTRIDER_QUERY_H

#include "game.h"

/* The questions, in the order `help` lists them; one entry each in the
 * table of query.c (its word, how it is written, what it answers and the
 * function that answers it). A new question is one value here and one
 * entry there. */
enum query {
	QUERY_NONE = 0,
	QUERY_HELP, QUERY_OPTIONS, QUERY_HAND, QUERY_BOARD, QUERY_LOG,
	QUERY_DISCARDS, QUERY_RESEND, QUERY_NEIGHBOURS,
	QUERY__COUNT
};

/*
 * The query the order text asks, or QUERY_NONE: its only non-blank line
 * (comments cut) is one of the words above, whole; `log` may take a
 * number of lines (*n, default 40); `neighbours` (or `neighbors`) must
 * name a space, the rest of its line, which starts at text + *n.
 */
enum query query_parse(const char *text, int *n);

/* The word of a query ("options"). */
const char *query_name(enum query q);

/* The answer to q for side, from the game as it stands and its log; text
 * is the order text query_parse() read (n as it gave it). */
void query_answer(const struct game *g, enum side side, enum query q, int n,
		  const char *text, const char *log, struct strbuf *out);

#endif
