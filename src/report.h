/*
 * report.h - what players read: the board as text, a hand, the legal
 * orders, the map as SVG, and mail bodies rendered from templates/.
 *
 * Ownership: every function appends to a caller's strbuf.
 */
#ifndef POSTRIDER_REPORT_H
#define POSTRIDER_REPORT_H

#include "engine/engine.h"

/* The public board: tracks, boxes, colonies, every space with pieces. */
void report_board(const struct data *d, const struct state *s,
		  struct strbuf *out);
/* A hand, one card a line ("  #12  Three OPS card (3 OPS)"). */
void report_hand(const struct data *d, const struct state *s, enum side side,
		 struct strbuf *out);
/* The same, each card that was not in the hand in `before` marked with a
 * "*" (new since the last report); before may be NULL (no marks). */
void report_hand_since(const struct data *d, const struct state *s,
		       const struct state *before, enum side side,
		       struct strbuf *out);
/* One card as a hand shows it: lead ("  ", "* "), its label, for an event
 * its kind and, indented under it, what it does; a slot of a peer game
 * (docs/peer.md 6.2) as "a card not yet opened (sG.i)". */
void report_card(const struct data *d, int card, const char *lead,
		 struct strbuf *out);
/* Each event that text names ("#74") and that is not in side's hand, once,
 * as report_card() shows it: what a player is told of cards he does not
 * hold (the opponent's play, a discard) is public, and so is their text. */
void report_cards_named(const struct data *d, const struct state *s,
			enum side side, const char *text, struct strbuf *out);
/*
 * The legal orders now. plain: the side to decide on the first line
 * ("american", "british" or "none"), then one order a line exactly as
 * `postrider play --as` accepts it. Otherwise a readable list (without
 * the prompt: engine_describe_prompt() says that).
 */
void report_options(const struct data *d, const struct state *s, bool plain,
		    struct strbuf *out);
/*
 * The legal orders now, grouped for a mail: one line per form of order
 * ("land SPACE N [GENERAL]") with the values each word may take under it,
 * every combination legal and no legal order left out; the Committees of
 * Correspondence and other long lists of spaces by colony.
 */
void report_options_grouped(const struct data *d, const struct state *s,
			    struct strbuf *out);
/*
 * The numbers a side needs before the decision now, as players count them
 * at the table: before a battle both sides' DRM so far, each part named,
 * and (in the deciding side's report only) what its cards would add; a
 * warning when a loss would be a surrender (9.63) or when the moving army
 * stands where the winter would take CUs. Only what side may know.
 */
void report_numbers(const struct data *d, const struct state *s,
		    enum side side, struct strbuf *out);
/* The map as an SVG picture (positions from the data; src/map.c; the
 * picture itself, and its PNG, in src/map.h). */
void report_svg(const struct data *d, const struct state *s,
		struct strbuf *out);

/* What the last order did that the map draws: each general moved (from a
 * space, or from a box when from < 0, to a space), with the path he took
 * as far as the log tells it (path[0] is where he started, each step to
 * a neighbour, or by sea when sea[k] says so; n_path 0 when it is not
 * known), and each battle. */
#define MAP_LAST_MAX 16
#define MAP_PATH_MAX 24
struct map_move {
	int general, from, to;
	int n_path, path[MAP_PATH_MAX];
	bool sea[MAP_PATH_MAX];	/* the step into path[k] was by sea */
};
struct map_last {
	int n_moves;
	struct map_move moves[MAP_LAST_MAX];
	int n_battles;
	int battles[MAP_LAST_MAX];
};
/*
 * Fills last from the state before the last order (NULL: no moves known),
 * the state after it, and the log (its last order's block names the
 * battles and each step of a move, a sailing, a retreat or an
 * interception; a battle under way is marked too).
 */
void report_last_order(const struct data *d, const struct state *before,
		       const struct state *s, const char *log,
		       struct map_last *last);
/* Finds the templates folder: $POSTRIDER_TEMPLATES, ./templates, the
 * installed copy. Returns a malloc'd path. */
char *report_templates_dir(void);
/*
 * Renders templates/<name> with vars (NULL-terminated pairs of name and
 * value): {{name}} is replaced by the value; {{#name}}...{{/name}} is kept
 * only if the value is not empty. Returns 0, or -1 with a message in err.
 */
int report_render(const char *name, const char *const *vars,
		  struct strbuf *out, struct strbuf *err);

#endif
