/*
 * state.h - the whole state of one game of Washington's War, as the engine
 * sees it: the types, their names and a few pure look-ups (state.c). Its
 * YAML form on disk is state-yaml.h, above the engine.
 *
 * struct state is a plain value: no pointers, so it is copied with
 * assignment (the engine applies an action to a copy and keeps it only if
 * the action was legal). Indices refer to the loaded struct data.
 *
 * Ownership: nothing here allocates.
 */
#ifndef POSTRIDER_STATE_H
#define POSTRIDER_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include "data.h"

/*
 * Version 2 adds `shuffles:` to the private state (each shuffle of the
 * order: its first draw and the list it permuted, docs/fairness.md
 * section 13), so that a verifier can check every shuffle without the
 * engine. Version 1 games are still read, played and audited as they were
 * written (no shuffles recorded); new games are version 2.
 */
#define STATE_VERSION 2
#define STATE_VERSION_MIN 1
#define STATE_MAX_SHUFFLES 4
#define STATE_HELD_MAX 1024	/* held-over order lines of a side */
#define STATE_NOTE_MAX 512	/* a private note to a side */
#define STATE_MAX_HAND 16
#define STATE_MAX_QUEUE 8
#define STATE_PEER_MAX_WAITS 8	/* lines of peer.waits (docs/peer.md 6.2) */
#define STATE_PEER_WAIT_MAX 160	/* one waits line, with its NUL */

/*
 * A card value is a card number (1 and up), or, in a peer game
 * (docs/peer.md 6.2, 12), a slot: the card at position i (0 the top) of
 * the deck's generation g, whose number this copy does not know. A slot is
 * negative, so it never equals a card number; anything that indexes by a
 * card value must check CARD_IS_SLOT first. 0 stays "no card".
 * g >= 1, 0 <= i < 256.
 */
#define CARD_SLOT(g, i)		(-((g) * 256 + (i)) - 1)
#define CARD_IS_SLOT(v)		((v) < 0)
#define CARD_SLOT_GEN(v)	((-(v) - 1) / 256)
#define CARD_SLOT_POS(v)	((-(v) - 1) % 256)

/* Where a general is when not on a space (space indices are >= 0). */
enum general_box {
	LOC_REINFORCEMENTS = -1,	/* his side's Reinforcements box */
	LOC_CAPTURED = -2,		/* Captured Generals box (7.6) */
	LOC_REMOVED = -3,		/* out of the game (Washington 7.6.B, Arnold 6.33) */
	LOC_FRENCH_BOX = -4,		/* French Reinforcement box until the alliance */
};

/* The French Navy when not in a blockade zone (zone indices are >= 0). */
enum navy_box {
	NAVY_FRENCH_BOX = -1,		/* before the alliance */
	NAVY_TURN_TRACK = -2,		/* d'Estaing (12.3) */
};

/* Every kind of decision the engine can wait for (architecture, 3). */
enum prompt_kind {
	PROMPT_NONE = 0,	/* the game is over */
	PROMPT_CC,		/* American: Committees of Correspondence (4.0) */
	PROMPT_FTK,		/* British: For The King (4.0) */
	PROMPT_FIRST,		/* who plays the first card this turn (5.3) */
	PROMPT_PLAY,		/* play a card from the hand (5.3) */
	PROMPT_PC,		/* PC actions with an OPS card (10.11) */
	PROMPT_DISCARD,		/* the minor action of a discard (6.32.B) */
	PROMPT_EXCHANGE,	/* take the discarded event for an OPS card (6.32.C) */
	PROMPT_DOI,		/* Declaration of Independence placements (6.34.C.i) */
	PROMPT_CONGRESS,	/* return the dispersed Congress (10.2.1) */
	PROMPT_MOVE,		/* the activated general moves (7.3 to 7.5) */
	PROMPT_LAND,		/* where reinforcements arrive (8.1.C, 8.2.C) */
	PROMPT_CAPTURE,		/* British: PCs removed for Washington (7.6.B) */
	PROMPT_EVENT,		/* the choices of an event: card, effect step (6.31) */
	PROMPT_NAVY,		/* American: the French Navy's zone (12.2.B.i, 5.5) */
	PROMPT_FRENCH,		/* American: the port of the French forces (12.2.B.ii) */
	PROMPT_WAR,		/* British: CUs removed for the European War (12.2.B.iii) */
	PROMPT_WINTER,		/* American: losses of a mixed French stack (11.3) */
	PROMPT_INTERCEPT,	/* American: intercept a British Army (7.8) */
	PROMPT_RETREAT_BEFORE,	/* American: retreat before battle (7.9) */
	PROMPT_BATTLE_CARD,	/* step 1 of a battle: a card for a DRM (9.2, 9.45) */
	PROMPT_RETREAT,		/* the loser of a battle retreats (9.6) */
	PROMPT_CAMPAIGN,	/* the next activation of a campaign (7.2), or
				   John Glover's one activation (7.3.C) */
	PROMPT_GENERALS,	/* two generals of a side in one space: the
				   owner sends one to the Reinforcements box
				   (7.4.C, 7.8.D) */
	PROMPT_EXTRA,		/* British: take the extra action of the Optional
				   Tournament Rule, or not (6.34.C.i) */
	PROMPT_LOSSES,		/* American: the French CUs among a battle's
				   losses of a mixed stack (9.5, 12.2.C) */
	PROMPT__COUNT
};

enum game_end {
	END_NONE = 0,
	END_AUTO_BRITISH,	/* no American or French CU on the map (13.1) */
	END_AUTO_AMERICAN,	/* no British CU in the thirteen colonies (13.1) */
	END_WAR_ENDS,		/* the War Ends card (13.2) */
	END_1783,		/* no War Ends card came (5.7) */
	END_ABANDONED,		/* the host ended it by revealing the seed */
	END_RESIGNED,		/* a player resigned: the other side wins */
	END_FORFEIT,		/* peer game: a side stopped answering (docs/peer.md 11) */
	END__COUNT
};

struct prompt {
	enum prompt_kind kind;
	enum side side;		/* who decides */
	int card;		/* the card being resolved, 0 if none */
	int left;		/* PC actions left, placements left;
				   PROMPT_GENERALS: what comes after
				   (enum generals_next) */
	uint32_t colonies_done;	/* PROMPT_CC / PROMPT_DOI: bit per colony */
	int step;		/* PROMPT_EVENT: index of the effect being done */
	uint64_t spaces_done[2]; /* PROMPT_EVENT: spaces used by this effect */
};

/* PROMPT_GENERALS: where the game goes on once a general is sent away. */
enum generals_next {
	GN_MOVE_END = 0,	/* the move ended with 'stop': the card ends */
	GN_INTERCEPT,		/* an interception: the battle follows */
	GN_RETREAT_BEFORE,	/* a retreat before battle: what is left fights */
	GN_RETREAT,		/* a retreat after battle: the battle ends */
	GN__COUNT
};

struct space_state {
	enum side pc;		/* SIDE_NONE, SIDE_AMERICAN, SIDE_BRITISH */
	int cu[3];		/* by enum nation */
};

/*
 * Standing reactions (architecture, 3): how a side answers an interruption
 * without being asked. The default is to ask.
 */
enum reaction {
	REACT_EXCHANGE = 0,	/* take a discarded event (6.32.C) */
	REACT_INTERCEPT,	/* attempt interception (7.8), American */
	REACT_RETREAT,		/* attempt retreat before battle (7.9), American */
	REACT_BATTLE,		/* play or discard a card in battle (9.2 step 1) */
	REACT_DECLARE,		/* declare himself first with a campaign (5.3.a),
				   British */
	REACT__COUNT
};
enum reaction_value { REACT_ASK = 0, REACT_NEVER = 1 };

/*
 * An activation in progress (7.3): the general, how far he has come and
 * the CUs moving with him. The carried CUs are always on his space, so
 * the map is right at every step.
 */
struct move {
	bool active;		/* a general is being moved */
	int general;		/* the activated general */
	int card;		/* the card that activated him */
	int from;		/* the space where the activation began */
	int used;		/* spaces moved (a Wilderness Connection counts 3) */
	int carried[3];		/* CUs moving with him, by enum nation */
	bool took;		/* 'take' was answered in this space */
	bool sailed;		/* the move was a naval movement (7.5) */
	bool overran;		/* the army executed an overrun (7.3.C) */
};

/*
 * A battle and the interruptions before it (7.8, 7.9, 9.2): active from
 * the entry of an enemy space (or an interceptable one) until the battle
 * is over. The cards of step 1 are held here until the battle ends.
 */
struct battle {
	bool active;
	int space;		/* the space entered, where the battle is */
	int from;		/* the space the attacker entered it from */
	enum side attacker;
	bool intercepted;	/* a successful interception: +1 (9.46) */
	bool winter;		/* American Winter Offensive: +2 (9.44) */
	int card[3];		/* by side: the card of step 1, 0 if none */
	bool played[3];		/* by side: a battle card (+2), else a discard (+1) */
	bool answered[3];	/* by side: step 1 answered */
	int lost[3];		/* by side: CUs lost so far (losses, surrender) */
};

/*
 * A Campaign card (7.2) or John Glover (7.3.C) in progress: from the
 * event until its last activation is over. CUs are counters without
 * identity, so 7.4.E is kept as counts by space (docs/rulings.md, R60):
 * `done` are the CUs there moved by an earlier general of this card,
 * `mine` those the general now moving has moved and left there or carries.
 */
struct campaign {
	int card;		/* the card, 0 if none */
	enum side side;
	int left;		/* activations left (7.2.A) */
	int allowance;		/* Glover: 6 spaces, battles allowed; else 0 */
	bool landing;		/* the Landing Party was used (7.2.B) */
	bool last;		/* the last card of the phase (9.44) */
	uint32_t generals;	/* bit per general activated (7.4.E) */
	uint8_t done[DATA_MAX_SPACES];
	uint8_t mine[DATA_MAX_SPACES];
};

/*
 * The peer game's part of the state (docs/peer.md 6.2, 12); all zero (on
 * false) in host mode, where it is neither written nor read. The engine
 * reads on, generation and deck_top; the protocol fields after them are
 * the protocol layer's, saved and loaded verbatim by state-yaml.c.
 */
struct state_peer {
	bool on;		/* a peer game: hidden cards are slots */
	int generation;		/* the deck's generation, 0 before the first */
	int deck_top;		/* position in it of deck[0] */
	/* protocol fields (the engine never reads them) */
	int n_waits;
	char waits[STATE_PEER_MAX_WAITS][STATE_PEER_WAIT_MAX];
				/* "SIDE WHAT [ARG]", in order */
	char pending[64];	/* "SIDE ORDER LINE", "" for none */
	char sealed[3][65];	/* by side: hex commitment, "" for none */
};

struct state {
	int version;
	uint32_t seq;		/* accepted orders so far */
	uint32_t orders[3];	/* accepted orders of each side (tokens) */
	int react[3][REACT__COUNT];	/* by side: enum reaction_value */
	/* per general, overriding his side's: 0 follow the side, else
	 * 1 + enum reaction_value ("never intercept Arnold") */
	int react_general[DATA_MAX_GENERALS][REACT__COUNT];
	uint64_t draws;		/* index of the next random draw */
	/* SHA-256 of each side's words, mixed into the stream before the
	 * first draw (docs/fairness.md 6.8); by side */
	bool has_words[3];
	unsigned char words[3][32];

	int year;
	bool regulars;		/* British Regulars' Advantage in effect (9.41) */
	int french_alliance;	/* the track, 0-9 (12.1) */
	bool french_allied;	/* the alliance has happened */
	bool alliance_this_turn; /* European War at this End Phase (12.2.B.iii) */
	int french_navy;	/* zone index or enum navy_box */
	int congress;		/* space, or -1 while dispersed (7.7) */
	bool dispersed_this_turn; /* 5.3.b next turn */
	bool british_choose_first; /* set at the start of the Strategy Phase */
	bool mutinies;		/* Line Mutinies played this turn (10.11.A.iv) */
	int kosciuszko;		/* space + 1 of Kosciuszko's works this turn
				   (#79, docs/rulings.md R63), 0 if none */
	bool tournament;	/* the Optional Tournament Rule (6.34.C.i), a
				   game option: set after engine_new_game */
	bool extra_action;	/* the British's extra action of that rule is
				   due when the card ends */

	struct space_state space[DATA_MAX_SPACES];
	int general[DATA_MAX_GENERALS];	/* space index or enum general_box */
	int box_cu[3];		/* CUs in the British Reinforcements box,
				   and the French CUs waiting (by nation) */

	/* Cards. The deck's top is deck[0]; the discard's top is last. */
	int n_deck, deck[DATA_MAX_CARDS];
	int n_discard, discard[DATA_MAX_CARDS];
	int n_removed, removed[DATA_MAX_CARDS];
	int n_set_aside, set_aside[4];
	int n_hand[3], hand[3][STATE_MAX_HAND];		/* by enum side */
	int n_reinf_cards[3], reinf_cards[3][2];	/* 1 British, 2 American */
	int n_queue[3], queue[3][STATE_MAX_QUEUE];	/* Operations Queues */
	int war_ends;		/* card in the War Ends box, 0 if none */
	bool reshuffle;		/* a reshuffle waits for the next deal (6.3.D) */
	/* The shuffles of the order being adjudicated (version 2, private:
	 * what each shuffle permuted, and its first draw); order_run()
	 * starts each order with none. */
	int n_shuffles;
	struct state_shuffle {
		uint64_t first;
		int n, items[DATA_MAX_CARDS];
	} shuffles[STATE_MAX_SHUFFLES];

	/*
	 * Private: the lines of a side's order held over while the other
	 * side answers an interruption of its move (order.c, docs/orders.md
	 * "Held over"), one line after another, and what became of them,
	 * for that side's next report. Empty strings when there are none.
	 */
	char held[3][STATE_HELD_MAX];
	char held_note[3][STATE_NOTE_MAX];
	/* Private: conditional standing orders, one a line, canonical
	 * ("if battle at Boston MA: battle 98"), used once (order.c). */
	char standing[3][STATE_NOTE_MAX];
	/* Private: the lines of the side's last order kept out of the public
	 * order file (held lines, standing orders), "N<TAB>TEXT" a line, N
	 * its line number: the audit's replay puts them back. */
	char sealed_lines[3][STATE_HELD_MAX];

	/* The Strategy Phase. */
	enum side first;	/* who played first this turn */
	enum side active;	/* whose impulse it is */
	int impulse;		/* cards played this turn */
	uint64_t british_pc_at_start[2]; /* bitset: no daisy-chaining (10.11.B.ii) */

	struct prompt prompt;
	struct move move;	/* PROMPT_MOVE, and a capture during a move */
	struct battle battle;	/* 7.8, 7.9, 9.0 */
	uint32_t intercepted;	/* bit per general: tried to intercept with
				   this card (7.8.E); reset at each card */
	int replacement_draws[3]; /* battle cards' draws due after the impulse
				   (6.33.B, 9.45) */
	struct campaign campaign; /* 7.2, 7.3.C */

	/* The end. */
	enum side winner;
	enum game_end end;
	int colonies[3];	/* colonies (with Canada) each side controls at the end */

	struct state_peer peer;	/* a peer game's slots and protocol state */
};

/* Names used in YAML, reports and orders. */
const char *side_name(enum side s);		/* "american", "british", "none" */
const char *side_title(enum side s);		/* "American", "British" */
int side_parse(const char *s);			/* -1 if unknown */
const char *prompt_kind_name(enum prompt_kind k); /* "play", "pc", ... */
const char *game_end_name(enum game_end e);
const char *reaction_name(enum reaction r);	/* "exchange" */
int reaction_parse(const char *s);		/* -1 if unknown */

/* The number of CUs of a nation on the map. */
int state_cus_on_map(const struct state *s, const struct data *d,
		     enum nation n);

struct rng;
/* Mixes the words recorded in s into r's key (rng_mix; fairness.md 6.8). */
void state_mix_words(const struct state *s, struct rng *r);

#endif
