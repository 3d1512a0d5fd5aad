/*
 * order.h - the order language (docs/orders.md): one decision per line,
 * case-insensitive, names by unique prefix, cards by number or title.
 *
 * Grammar (one line; '#' starts a comment; blank lines are ignored):
 *
 *   line     = [ action | standing | "say" text | "words" text ] [ "#" comment ]
 *   action   = verb [ arguments ]
 *   verb     = a unique prefix of an action's verb, or "never", "ask"
 *   standing = "if" condition [ "at" space ] [ "with" general ] ":" action [ "always" ]
 *
 * The verbs and the arguments each takes are not repeated here: they are
 * the action descriptors (engine.h, action_desc()), which docs/orders.md's
 * table of verbs matches word for word (tests/unit/test_order.c checks
 * it). Cards are given by number or by words of the title, spaces by the
 * words of their name (each a prefix; the colony may be left out where the
 * name alone is unique), sides as "american" or "british".
 *
 * Ownership: order_run fills a caller's struct order_result; release it
 * with order_result_release().
 */
#ifndef POSTRIDER_ORDER_H
#define POSTRIDER_ORDER_H

#include "engine/engine.h"

struct order_result {
	int applied;		/* actions applied */
	int held;		/* lines held over for after the other side's
				   decision (docs/orders.md, "Held over") */
	bool rejected;		/* a line was illegal: nothing may be committed */
	int line, column;	/* where, 1-based, when rejected */
	struct strbuf message;	/* the full error text (with the caret) */
	struct strbuf log;	/* what happened (when not rejected) */
	struct strbuf actions;	/* the canonical text of each applied action */
	struct strbuf set_aside; /* prose before and after the order, a line
				   each (docs/orders.md) */
	/*
	 * Where the order reached what its sender may not see before it
	 * counts (docs/fairness.md, "No reply shows a draw before it
	 * counts"): a die or other draw, a card dealt or moved into a hand
	 * or out of the other side's, or the other side's decision. 0 if it
	 * reached none. From that line on a rejection or `check` shows
	 * nothing: bound_log is the log's length before it and bound_applied
	 * the decisions before it. A line after it that no longer fits is
	 * dropped with the rest (dropped lines), not refused.
	 */
	int bound_line;
	size_t bound_log;
	int bound_applied;
	int dropped;
};

/* Table talk is bounded: each `say` line, and all of an order's. */
#define ORDER_SAY_MAX 500
#define ORDER_SAY_TOTAL_MAX 1500
/* Prose set aside around an order is logged in part only. */
#define ORDER_ASIDE_SHOWN 5
#define ORDER_ASIDE_WIDTH 80

/* What a reply says the order reached, when it stops there. */
#define ORDER_UNSEEN "the dice, a card or the other side's decision"

void order_result_init(struct order_result *res);
void order_result_release(struct order_result *res);

/*
 * Parses one line (no newline, no comment) of side into an action.
 * Returns 0, or -1 with a message in err and the 1-based column of the
 * offending word in *column.
 */
int order_parse_line(const struct data *d, const struct state *s,
		     enum side side, const char *line, struct action *out,
		     struct strbuf *err, int *column);

/*
 * Applies the order text for `side` to s, line by line. A line of
 * "words" runs first. Until the order reaches what its sender may not
 * see (res->bound_line), the first illegal line refuses the order
 * (res->rejected, with line, column and a message that shows the line, a
 * caret and what was expected) - the caller then keeps its copy of the
 * old state; so does a line anywhere whose words do not read, whatever
 * the state (order_parse_line() without one). After it, the first line
 * that no longer fits is dropped with the rest (res->dropped), and the
 * order stands. Lines after the decision passes to the other side are
 * illegal too, unless it interrupts the move: then they are held over.
 * An order with no action is rejected.
 */
void order_run(const struct data *d, struct state *s, struct rng *r,
	       enum side side, const char *text, struct order_result *res);

/*
 * Resolves a space reference; returns the index, or a negative number
 * with a message: -1 unknown (with suggestions), ORDER_AMBIGUOUS (with
 * the candidates).
 */
#define ORDER_AMBIGUOUS (-2)
int order_find_space(const struct data *d, const char *ref, struct strbuf *err);
/* Cards by number or title; where several share a title, the one in the
 * hand of side (s may be NULL). Negative as order_find_space(). */
int order_find_card(const struct data *d, const struct state *s,
		    enum side side, const char *ref, struct strbuf *err);

/*
 * The text of an order as committed to orders/ (public): the order itself,
 * with each line that order_run() sealed for side (held-over lines and
 * conditional standing orders, which may name cards of the hand; listed
 * in s->sealed_lines) replaced by the line "# (a line sealed until it
 * runs or the game ends)".
 */
void order_public_text(const char *text, const struct state *s, enum side side,
		       struct strbuf *out);
/*
 * The reverse, for the audit's replay with the sealed state: appends the
 * public text with each marker line replaced by its sealed line; returns
 * whether any was.
 */
bool order_unseal(const char *public, const char *sealed_lines, struct strbuf *out);

/*
 * Whether an order's text is the one word given, alone (any case, blank
 * lines and surrounding blanks aside): "undo" is read so, by play and by
 * the audit.
 */
bool order_text_is(const char *text, const char *word);

#endif
