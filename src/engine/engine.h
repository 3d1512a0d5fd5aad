/*
 * engine.h - the rules of Washington's War as a pure state machine.
 *
 * The engine does no I/O, reads no clock or environment and never exits.
 * Given the component data, a state, an action and the random stream, it
 * returns the new state, appends what happened to a log, and leaves the
 * next prompt (who decides what) in the state. Replaying the same actions
 * with the same stream reproduces the same states: that is the audit.
 *
 * Ownership: the engine reads data and writes the caller's state, log and
 * message buffers; it allocates nothing that outlives a call.
 *
 * Three kinds of failure: an illegal action is data (engine_apply returns
 * ENGINE_ILLEGAL with the reason in `why`, the state untouched); the engine
 * has no I/O to fail; a broken invariant is a BUG().
 */
#ifndef POSTRIDER_ENGINE_H
#define POSTRIDER_ENGINE_H

#include <stdbool.h>
#include "data.h"
#include "rng.h"
#include "state.h"

enum action_kind {
	ACT_NONE = 0,
	ACT_PLACE,	/* place a PC: space */
	ACT_FLIP,	/* flip an enemy PC: space */
	ACT_REMOVE,	/* remove an enemy PC: space */
	ACT_DONE,	/* stop taking PC actions */
	ACT_PASS,	/* take no discard action; decline an exchange */
	ACT_FIRST,	/* choose who plays first: side */
	ACT_PC_CARD,	/* play an OPS card to place/flip PCs: card */
	ACT_DISCARD,	/* discard an event: card */
	ACT_EVENT,	/* play a card's event: card */
	ACT_EXCHANGE,	/* give an OPS card for the discarded event: card */
	ACT_CONGRESS,	/* return the Congress: space */
	ACT_REACT,	/* set a standing reaction: side, reaction, value
			   (answers no prompt; either side, at any time) */
	/* Card uses that later rules bring; refused with a clear message. */
	ACT_ACTIVATE,	/* activate a general with an OPS card: card, general */
	ACT_QUEUE,	/* put an OPS card in the Operations Queue: card */
	ACT_REINFORCE,	/* bring on reinforcements with an OPS card: card */
	/* Movement (7.3 to 7.5) and reinforcements (8.1, 8.2). */
	ACT_TAKE,	/* the CUs moving with the general from here: value */
	ACT_TO,		/* one step to an adjacent space: space */
	ACT_SAIL,	/* British naval movement to a port: space */
	ACT_STOP,	/* end the activation; general: the one sent to the
			   Reinforcements box if two meet (7.4.C), or -1 */
	ACT_LAND,	/* reinforcements arrive: space, value (CUs),
			   general (-1 if none) */
	/* The French alliance (12.2), the French Navy (5.5, 12.3), winter (11.3). */
	ACT_NAVY,	/* place or relocate the French Navy: space = zone index */
	ACT_FRENCH,	/* place Rochambeau and the French CUs: space (a port) */
	ACT_LOSE,	/* winter losses of a mixed stack: value = French CUs lost */
	/* Interception, retreat before battle, battles (7.8, 7.9, 9.0). */
	ACT_INTERCEPT,	/* an American Army tries to intercept: general */
	ACT_RETREAT,	/* retreat (before or after a battle) to: space */
	ACT_STAND,	/* no retreat before battle: fight */
	ACT_BATTLE,	/* play a battle card in step 1 (9.2, 9.45): card */
	ACT_NOCARD,	/* no card in step 1 of a battle */
	/* Two generals of a side in a space (7.4.C, 7.8.D). */
	ACT_SEND,	/* the owner sends general to the Reinforcements box */
	ACT_DRAW,	/* take the Tournament Rule's extra action (6.34.C.i) */
	ACT_RESIGN,	/* side resigns: the game ends, the other side wins
			   (answers no prompt; either side, at any time) */
	ACT__COUNT
};

struct action {
	enum action_kind kind;
	int card;	/* card number, 0 if none */
	int space;	/* space index, -1 if none */
	int general;	/* general index, -1 if none */
	enum side side;	/* for ACT_FIRST; the acting side for ACT_REACT */
	int reaction;	/* ACT_REACT: enum reaction */
	int value;	/* ACT_REACT: enum reaction_value; ACT_TAKE, ACT_LAND:
			   a number of CUs */
	int french;	/* French CUs among the CUs of ACT_TAKE (12.2.C),
			   ACT_REMOVE in an event (6.31), ACT_INTERCEPT
			   (7.8.C), ACT_RETREAT before battle (7.9.B) */
};

#define ACTION_INIT { ACT_NONE, 0, -1, -1, SIDE_NONE, 0, 0, 0 }

enum engine_result {
	ENGINE_OK = 0,
	ENGINE_ILLEGAL = 1,
};

/* What follows an action's verb (a bit set). */
enum action_arg {
	ARG_CARD = 1 << 0, ARG_SPACE = 1 << 1, ARG_SIDE = 1 << 2,
	ARG_GENERAL = 1 << 3, ARG_COUNT = 1 << 4, ARG_ZONE = 1 << 5,
	ARG_FRENCH = 1 << 6,	/* a number of French CUs may follow (`french`) */
};

/* The descriptor of an action kind (engine/text.c): one table that the
 * order parser, the formatter, the legal-order enumeration and the docs'
 * table of verbs agree with. */
struct action_desc {
	const char *verb;	/* as written in orders: "place", "pc", ... */
	unsigned args;		/* enum action_arg */
	const char *grammar;	/* the arguments as docs/orders.md writes
				   them ("space [number]"), NULL if none */
	const char *meaning;	/* what it does, for the lists of orders in
				   reports ("place a PC"); "" for none */
};
const struct action_desc *action_desc(enum action_kind k);

/* The verb of each kind as written in orders ("place", "pc", ...). */
const char *action_verb(enum action_kind k);
/* What arguments a kind takes. */
bool action_takes_card(enum action_kind k);
bool action_takes_space(enum action_kind k);
bool action_takes_side(enum action_kind k);
bool action_takes_general(enum action_kind k);
/* A number of CUs (in `value`): take, land. */
bool action_takes_count(enum action_kind k);
/* A blockade zone (in `space`): navy. */
bool action_takes_zone(enum action_kind k);
/* A number of French CUs among those it moves, removes or retreats (in
 * `french`): take, remove, intercept, retreat. */
bool action_takes_french(enum action_kind k);

/*
 * Appends the canonical order text of an action, exactly as `postrider
 * play --as` accepts it: "place Boston MA", "pc 12", "first british".
 */
void action_format(const struct data *d, const struct action *a,
		   struct strbuf *out);

/*
 * Sets up a new game (rule 4.0) and runs to the first decision (the
 * Committees of Correspondence). The stream is needed for the first deal
 * only later; set-up itself draws nothing.
 */
void engine_new_game(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log);

/*
 * Legal actions for the current prompt, at most max written to out.
 * Returns the total number (which may exceed max). 0 only when the game
 * is over.
 */
int engine_legal(const struct data *d, const struct state *s,
		 struct action *out, int max);

/*
 * Checks a single action against the current prompt without changing
 * anything. Returns ENGINE_OK, or ENGINE_ILLEGAL with the reason (one
 * lowercase sentence, no final full stop) appended to why.
 */
enum engine_result engine_check(const struct data *d, const struct state *s,
				const struct action *a, struct strbuf *why);

/*
 * What the state holds at a prompt of kind k (its descriptor): a move in
 * progress (struct move) and a battle (struct battle), needed there, or
 * allowed there. The state reader and the invariants ask it, so a new
 * prompt says it once.
 */
enum prompt_blocks {
	PB_MOVE = 1 << 0, PB_MAY_MOVE = 1 << 1,
	PB_BATTLE = 1 << 2, PB_MAY_BATTLE = 1 << 3,
};
unsigned engine_prompt_blocks(enum prompt_kind k);

/* True if actions of this kind answer the current prompt at all (its
 * descriptor's list). */
bool engine_kind_fits(const struct state *s, enum action_kind kind);
/* True if the current prompt interrupts the other side's move (an
 * interception, a retreat before battle, a battle card). */
bool engine_prompt_interrupts(const struct state *s);

/*
 * Applies one action. On ENGINE_OK the state has advanced through every
 * automatic step to the next prompt, and the log has gained what happened.
 * On ENGINE_ILLEGAL the state and the log are unchanged and `why` says why.
 */
enum engine_result engine_apply(const struct data *d, struct state *s,
				const struct action *a, struct rng *r,
				struct strbuf *log, struct strbuf *why);
/*
 * Starts an order: forgets what the state records of the previous one
 * (the shuffles kept in the private state, state.h). Call it before the
 * first engine_apply() of every order; at most STATE_MAX_SHUFFLES
 * shuffles fit in one order.
 */
void engine_begin_order(struct state *s);

/*
 * A one-line description of the current prompt for players: "American:
 * play a card (1775, impulse 3)". Appended to out.
 */
void engine_describe_prompt(const struct data *d, const struct state *s,
			    struct strbuf *out);

/*
 * Checks the invariants of a state (CU conservation, at most one general
 * per side per space, no space with both sides' units, card count 110, the
 * track in range, hands within size, a legal action unless the game is
 * over). Appends each violation to why; returns their number.
 */
int engine_invariants(const struct data *d, const struct state *s,
		      struct strbuf *why);

/* Summary helpers used by reports. */
/*
 * Who would win if the war ended now (13.2): counts the colonies each side
 * controls into colonies[] (by enum side; Canada counts) and returns the
 * winner: the Americans with 7 or more while the British hold fewer than
 * 6, else the British.
 */
enum side engine_winner_if_ended(const struct data *d, const struct state *s,
				 int colonies[3]);
/*
 * A modifier of a die roll as a value: how much, the rule that gives it,
 * and a label for people ("Regulars"). Narration is made from these
 * (engine_modifiers_describe), so rules tests assert the numbers.
 */
struct modifier {
	int value;
	const char *rule;	/* "9.41", "#79" */
	const char *label;	/* "Regulars", "battle card" (static) */
};
#define ENGINE_MAX_MODIFIERS 12

/*
 * In a battle before step 3 (9.4): side's modifiers apart from its CUs and
 * its general's Actual Battle Rating (9.41 to 9.46; a card of step 1 once
 * it is played), into out. Returns how many. Reports use it to give the
 * numbers before a choice; step 3 counts with the same function.
 */
int engine_battle_modifiers(const struct data *d, const struct state *s,
			    enum side side, struct modifier out[ENGINE_MAX_MODIFIERS]);
/* The sum of n modifiers. */
int engine_modifiers_total(const struct modifier *m, int n);
/* Appends each as ", +1 Regulars (9.41)". */
void engine_modifiers_describe(const struct modifier *m, int n, struct strbuf *out);
/* The DRM a card gives when played as a battle card (9.45): 2 unless the
 * card says otherwise. */
int engine_battle_card_drm(const struct data *d, int card);
/* The retreats open now to side's force in the battle (9.61, 9.62): 0
 * means that a loss would be a surrender (9.63). */
int engine_battle_retreats(const struct data *d, const struct state *s,
			   enum side side);
/*
 * What the Winter Attrition (11.0) would take now from side's CUs in
 * space (the American side: American and French CUs together). A single
 * CU that is lost on a die of 1-3 counts 1 with *on_a_die set.
 */
int engine_winter_forecast(const struct data *d, const struct state *s,
			   int space, enum side side, bool *on_a_die);
/* The colonies each side needs at the end (13.2). */
#define VICTORY_AMERICAN_COLONIES 7
#define VICTORY_BRITISH_COLONIES 6
enum side engine_colony_control(const struct data *d, const struct state *s,
				int colony);
bool engine_game_over(const struct state *s);

/*
 * Ends a running game as abandoned (nobody wins): what the host does when
 * he reveals the seed before the end, since after a reveal every hand and
 * every future die is known. A move, battle or campaign in progress stops
 * there, as at 13.1 (held battle cards go to the discards; what that
 * says is appended to log). BUG() if the game is already over.
 */
void engine_abandon(const struct data *d, struct state *s, struct strbuf *log);
/* A peer game's claim (docs/peer.md 11): silent loses by forfeit; what
 * is in progress stops there, as for a resignation. */
void engine_forfeit(const struct data *d, struct state *s, enum side silent,
		    struct strbuf *log);

/*
 * Takes back side's last order (README.md, "Undo"): prev is the state
 * before that order, mine the state after it, cur the current one (mine,
 * or mine after orders of the opponent that decided nothing:
 * engine_decided_nothing()). Allowed only if mine is the result of one
 * order of side after prev, the game is not over, and the order drew
 * nothing at random, dealt no card and moved no card into or out of any
 * hand, the discard pile, the removed cards or a queue (so the opponent
 * has seen nothing he did not know). Then next is prev with the counters
 * carried on (seq and side's orders one past cur's, so the token is new;
 * draws as in cur) and the opponent's standing reactions and orders as in
 * cur, and 0 is returned; else -1 with the reason (one lowercase
 * sentence) appended to why, next untouched.
 */
int engine_undo(const struct state *prev, const struct state *mine,
		const struct state *cur, enum side side, struct state *next,
		struct strbuf *why);
/*
 * Whether after is before with only orders of side `by` that decided
 * nothing: standing reactions, standing orders, table talk (the counters,
 * the reactions and by's sealed lines and notes aside, nothing changed).
 */
bool engine_decided_nothing(const struct state *before, const struct state *after,
			    enum side by);

#endif
