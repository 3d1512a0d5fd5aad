/*
 * order-internal.h - what the parts of the order layer share (order.h is
 * the interface for the rest of postrider). The layer is six files:
 *
 *   order-names.c     names of spaces, cards, generals and zones: prefixes,
 *                     typos and suggestions
 *   order-parse.c     one line into an action: the verbs, their arguments,
 *                     comments, prose around the order
 *   order-held.c      lines held over while the other side answers, and the
 *                     public and sealed text of an order
 *   order-standing.c  conditional standing orders ("if battle: ...")
 *   order-run.c       an order run line by line through the engine
 *   order.c           the result of an order (order.h's types)
 *
 * They call one way: order-run.c -> order-held.c -> order-standing.c ->
 * order-parse.c -> order-names.c, all standing on order.c.
 *
 * Ownership: as order.h; nothing here allocates what outlives a call
 * unless it says so.
 */
#ifndef POSTRIDER_ORDER_INTERNAL_H
#define POSTRIDER_ORDER_INTERNAL_H

#include "order.h"

/* --- order-names.c ------------------------------------------------------ */

/* Lowercases and keeps letters, digits and single spaces into out (n
 * bytes): "St. Mary's GA" becomes "st marys ga". */
void order_normalize(const char *in, char *out, size_t n);
/* The edit distance of a and b. */
int order_levenshtein(const char *a, const char *b);
/* Appends "; did you mean 'A' or 'B'?" for the names nearest ref. */
void order_suggest(const char *ref, const char *const *names, int n,
		   struct strbuf *err);
/* A general by name or unique beginning; -1 with a message in err. */
int order_find_general(const struct data *d, const char *ref, struct strbuf *err);
/* A general named by one word, in full or by a unique beginning of three
 * letters or more ("corn"), or -1 (nothing said): for a general that may
 * end a line ("land Lancaster 2 gree"). */
int order_general_word(const struct data *d, const char *word);
/* A blockade zone by the words of its name; -1 with a message in err. */
int order_find_zone(const struct data *d, const char *ref, struct strbuf *err);
/* Does the normalized reference r name space i (nearly: within a typo)? */
bool order_space_fits(const struct data *d, int i, const char *r, bool nearly);

/* --- order-parse.c ------------------------------------------------------ */

/* A word that starts a line: an action's verb, or "never"/"ask". */
struct order_verb {
	const char *word;
	enum action_kind kind;
	int value;
};
#define ORDER_N_VERBS (ACT__COUNT + 1)
/* The words that start a line, into out; returns how many. */
int order_verbs(struct order_verb out[ORDER_N_VERBS]);
/*
 * One line (comment cut) of side into *out, read against state s. 0, or
 * -1 with the reason in err and the 1-based column of the offending word
 * in *column. A name read through the legal orders ("read 'savanah' as
 * 'Savannah GA'") is told in note; with note NULL names are read without
 * the legal orders.
 *
 * With s NULL the line is read for its words only, as no state could make
 * it right: the verb, and names that name something; a name the state
 * could settle (a title several cards share, a space within a typo of one,
 * the American's number in 'land') is taken as read (the action's card or
 * space is then any one it could be). That reading depends on nothing
 * hidden, so it may refuse a line that a die or the other side would
 * reach (order.c).
 */
int order_parse(const struct data *d, const struct state *s, enum side side,
		const char *line, struct action *out, struct strbuf *err,
		int *column, struct strbuf *note);
/* Cuts a comment off a line, in place, and the blanks before it. */
void order_strip_comment(char *line);
/* Is this line prose around an order ("Hi Bob,")? Its first word is no
 * order word nor near one; or (with d) it reads as a sentence whose words
 * are no order of side ("Pass my regards to the Admiral."). */
bool order_prose_line(const struct data *d, enum side side, const char *line);
/* The first and last lines (1-based) that hold the order; 0, 0 if none. */
void order_span(const struct data *d, enum side side, const char *text,
		int *first, int *last);

/* --- order-held.c ------------------------------------------------------- */

/* Keeps line lineno of side's order (text t) out of the public order file. */
void order_seal_line(struct state *s, enum side side, int lineno, const char *t);
/* Holds over line t and the lines from p on (up to line last, 0 for all). */
void order_hold_rest(struct state *s, enum side side, const char *t,
		     const char *p, int last, int lineno, struct order_result *res);
/* Drops side's held lines, with the reason in his private note. */
void order_drop_held(struct state *s, enum side side, const char *first_line,
		     const char *reason, int n, struct strbuf *log);
/* After an action of side: the other side's held lines run if the
 * decision has come back to him. */
void order_resume_held(const struct data *d, struct state *s, struct rng *r,
		       enum side side, struct order_result *res);

/* --- order-standing.c --------------------------------------------------- */

/* Is card in the hand of side? */
bool order_hand_has(const struct state *s, enum side side, int card);

/* An "if ..." line of side's order: stores, replaces or withdraws a
 * standing order. 0, or -1 with the reason in why. */
int order_cond_line(const struct data *d, struct state *s, enum side side,
		    const char *t, struct order_result *res, struct strbuf *why);
/* The words of an "if ..." line only (order_parse() with no state): 0 if
 * they read, or -1 with the reason in why. */
int order_cond_words(const struct data *d, enum side side, const char *t,
		     struct strbuf *why);
/* After an action: a standing order of the side now asked answers for
 * him, once; one that does not fit is withdrawn and told to him. */
void order_answer_standing(const struct data *d, struct state *s, struct rng *r,
			   struct order_result *res);

#endif
