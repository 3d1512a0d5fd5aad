/*
 * internal.h - what the engine's files share with each other and with no
 * one else. Each file is one part of the rules; the transitions between
 * phases live in flow.c.
 */
#ifndef POSTRIDER_ENGINE_INTERNAL_H
#define POSTRIDER_ENGINE_INTERNAL_H

#include "engine.h"

/* A log line: appended with a final newline. */
void elog(struct strbuf *log, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Appends a reason (for ENGINE_ILLEGAL) to why; returns ENGINE_ILLEGAL. */
enum engine_result illegal(struct strbuf *why, const char *fmt, ...)
	PRINTF_LIKE(2, 3);

/* text.c: gathering the legal actions for engine_legal(): each candidate
 * is kept if engine_check() accepts it (counted past max, stored below). */
struct collect {
	struct action *out;
	int max, n;
};
static inline void legal_add(const struct data *d, const struct state *s,
			     struct collect *c, const struct action *a)
{
	if (engine_check(d, s, a, NULL) != ENGINE_OK)
		return;
	if (c->n < c->max)
		c->out[c->n] = *a;
	c->n++;
}
/* Whether any legal action now is of kind (a prompt's words name only the
 * answers it can take). */
bool legal_kind_any(const struct data *d, const struct state *s,
		    enum action_kind kind);
/* kind with each space */
void legal_spaces(const struct data *d, const struct state *s,
		  struct collect *c, enum action_kind kind);
/* kind with each space and 0 to 5 French CUs among those it names
 * (retreating before battle, 7.9.B; removed by an event, 6.31) */
void legal_spaces_french(const struct data *d, const struct state *s,
			 struct collect *c, enum action_kind kind);
/* The deciding side's hand in card-number order (so lists read well),
 * without the slots this copy cannot see (docs/peer.md 12); returns how
 * many cards. */
int legal_hand_sorted(const struct state *s, int cards[STATE_MAX_HAND]);
/* kind with each card of the hand, in number order */
void legal_hand(const struct data *d, const struct state *s,
		struct collect *c, enum action_kind kind);
/* kind alone */
void legal_simple(const struct data *d, const struct state *s,
		  struct collect *c, enum action_kind kind);
/* kind with each value from 0 to max */
void legal_values(const struct data *d, const struct state *s,
		  struct collect *c, enum action_kind kind, int max);

/* board.c: what is where. */
const char *space_name(const struct data *d, int space);
int side_cus(const struct state *s, int space, enum side side);
int general_of_side_at(const struct data *d, const struct state *s,
		       int space, enum side side);
bool has_army(const struct data *d, const struct state *s, int space,
	      enum side side);
/* An American Unit (3.0): an American or French general or CU, or the Congress. */
bool has_american_unit(const struct data *d, const struct state *s, int space);
/* A British playing piece other than a PC: a British CU or general. */
bool has_british_unit(const struct data *d, const struct state *s, int space);
/* Adjacent for everyone (the Arnold-only connection excluded). */
bool adjacent(const struct data *d, int a, int b);
/* The connection from a to b that general g may use (-1: any general), or
 * NULL: Falmouth-Quebec is Arnold's alone (7.4.D). */
const struct data_adj *connection_for(const struct data *d, int a, int b,
				      int g);
/* Adjacent for British PC purposes: also every port to every port (10.11.B). */
bool british_adjacent(const struct data *d, int a, int b);
/* True if some space adjacent to `space` holds a PC of `side`, counting
 * British ports as adjacent to each other when side is British. */
bool adjacent_to_pc(const struct data *d, const struct state *s, int space,
		    enum side side);
/* True if side's standing reaction r, or general's own when he has one
 * (general may be -1), is "never": the engine then answers for them. */
bool reaction_never(const struct state *s, enum side side, int general,
		    enum reaction r);
bool bit_get(const uint64_t set[2], int i);
void bit_set(uint64_t set[2], int i);
int hand_find(const struct state *s, enum side side, int card);
void hand_remove(struct state *s, enum side side, int card);
void hand_add(struct state *s, enum side side, int card);
void discard_push(struct state *s, int card);
void removed_push(struct state *s, int card);
void set_pc(const struct data *d, struct state *s, int space, enum side pc,
	    struct strbuf *log, const char *why);
/* Moves the French Alliance marker by delta within 0-9 unless allied (12.1). */
void french_alliance_move(struct state *s, int delta, struct strbuf *log,
			  const char *why);

/* political.c: PC rules (10.11, 6.32.B, 10.2, 10.3). */
enum pc_context {
	PCX_OPS,	/* an OPS card's PC actions (10.11) */
	PCX_DISCARD,	/* an event discard's one action (6.32.B, 10.12.B) */
	PCX_CC,		/* Committees of Correspondence (4.0) */
	PCX_FTK,	/* For The King (4.0) */
	PCX_DOI,	/* Declaration of Independence (6.34.C.i) */
	PCX_EVENT,	/* an event's placement (6.31): no adjacency needed */
};
enum engine_result pc_check(const struct data *d, const struct state *s,
			    enum side side, enum action_kind kind, int space,
			    enum pc_context ctx, struct strbuf *why);
void pc_apply(const struct data *d, struct state *s, enum side side,
	      enum action_kind kind, int space, struct strbuf *log,
	      const char *what);
void political_phase_place(const struct data *d, struct state *s,
			   struct strbuf *log);
void political_phase_isolation(const struct data *d, struct state *s,
			       struct strbuf *log);
enum engine_result congress_check(const struct data *d, const struct state *s,
				  int space, struct strbuf *why);
bool congress_any_legal(const struct data *d, const struct state *s);
/* Records which spaces hold British PCs now (10.11.B.ii). */
void remember_british_pcs(const struct data *d, struct state *s);

/* cards.c: the deck, hands and card plays (6.0). */
void cards_deal(const struct data *d, struct state *s, struct rng *r,
		struct strbuf *log);
/* Shuffles the deck as it stands with r (never NULL: a shuffle draws),
 * recording the shuffle (state.h). */
void cards_shuffle_deck(struct state *s, struct rng *r, const char *purpose);
void cards_reshuffle(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log, const char *why);
/* Draws the top card for side, reshuffling if the deck is empty. */
void cards_draw(const struct data *d, struct state *s, enum side side,
		struct rng *r, struct strbuf *log);
void cards_end_phase(const struct data *d, struct state *s, struct strbuf *log);
enum engine_result play_check(const struct data *d, const struct state *s,
			      const struct action *a, struct strbuf *why);
void play_apply(const struct data *d, struct state *s, const struct action *a,
		struct rng *r, struct strbuf *log);
void play_legal(const struct data *d, const struct state *s,
		struct collect *c);
void play_describe(const struct data *d, const struct state *s,
		   struct strbuf *out);
enum engine_result exchange_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why);
void exchange_apply(const struct data *d, struct state *s,
		    const struct action *a, struct strbuf *log);
/* Special events (6.34). */
bool doi_colony_possible(const struct data *d, const struct state *s, int colony);

/* events.c: the events (6.31, 6.34), a small interpreter over the machine
 * form of docs/data.md. */
/* Can the event of card n be played by side now? ENGINE_OK, or the reason:
 * not supported yet, a battle card (6.33.A), or conditions that cannot be
 * met, so that it must be discarded (6.32.A). */
enum engine_result events_check_play(const struct data *d,
				     const struct state *s, enum side side,
				     int n, struct strbuf *why);
/* The event of card n takes effect (6.31), played by side or drawn at
 * random (6.34.B): the card goes to its pile and the effects run until one
 * needs a choice. Returns true when the event is over, false when it
 * waits at a prompt (which ends with flow_end_card). */
bool events_play(const struct data *d, struct state *s, struct rng *r,
		 int n, enum side side, struct strbuf *log);
/* PROMPT_EVENT: one answer. */
enum engine_result events_check(const struct data *d, const struct state *s,
				const struct action *a, struct strbuf *why);
void events_apply(const struct data *d, struct state *s,
		  const struct action *a, struct rng *r, struct strbuf *log);
void events_legal(const struct data *d, const struct state *s,
		  struct collect *c);
void events_describe_prompt(const struct data *d, const struct state *s,
			    struct strbuf *out);
/* The British lose the Regulars' Advantage, with its +2 on the French
 * Alliance track (9.41, 12.1); nothing if already lost. */
void regulars_lost(struct state *s, struct strbuf *log, const char *why);

/* winter.c: Winter Attrition (11.0). Goes through the spaces from
 * index `from` on; returns false when it stops at PROMPT_WINTER (11.3: the
 * American chooses the losses of a mixed stack), true when it is over. */
bool winter_attrition(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log, int from);
/* PROMPT_WINTER: `lose N`, N French CUs among the losses (11.3). */
enum engine_result winter_check(const struct data *d, const struct state *s,
				const struct action *a, struct strbuf *why);
void winter_apply(const struct data *d, struct state *s,
		  const struct action *a, struct rng *r, struct strbuf *log);
void winter_legal(const struct data *d, const struct state *s,
		  struct collect *c);
void winter_describe(const struct data *d, const struct state *s,
		     struct strbuf *out);

/* alliance.c: the French alliance (12.2), the French Navy (5.5, 12.3),
 * the European War (12.2.B.iii). */
/* The track is at 9 and the alliance is still to be implemented (12.2.B). */
bool alliance_due(const struct state *s);
/* Implements the alliance after a card (12.2.B): PROMPT_NAVY, then
 * PROMPT_FRENCH, then flow_end_card(discarded_event). */
void alliance_begin(const struct data *d, struct state *s, struct strbuf *log,
		    int discarded_event);
/* A port where the French forces may arrive (12.2.B.ii). */
bool french_port_ok(const struct data *d, const struct state *s, int space);
/* All the French forces waiting arrive in space (12.2.B.ii). */
void french_land(const struct data *d, struct state *s, int space,
		 struct strbuf *log, const char *why);
/* End Phase: if the alliance came this turn, PROMPT_WAR (returns true)
 * or nothing to remove (false). */
bool european_war_begin(const struct data *d, struct state *s,
			struct strbuf *log);
/* The alliance's prompts, PROMPT_NAVY, PROMPT_FRENCH and PROMPT_WAR: their
 * check, apply, legal and describe (their descriptors are in prompts.c). */
enum engine_result alliance_navy_check(const struct data *d,
				       const struct state *s,
				       const struct action *a,
				       struct strbuf *why);
void alliance_navy_apply(const struct data *d, struct state *s,
			 const struct action *a, struct rng *r,
			 struct strbuf *log);
void alliance_navy_legal(const struct data *d, const struct state *s,
			 struct collect *c);
void alliance_navy_describe(const struct data *d, const struct state *s,
			    struct strbuf *out);
enum engine_result alliance_french_check(const struct data *d,
					 const struct state *s,
					 const struct action *a,
					 struct strbuf *why);
void alliance_french_apply(const struct data *d, struct state *s,
			   const struct action *a, struct rng *r,
			   struct strbuf *log);
void alliance_french_legal(const struct data *d, const struct state *s,
			   struct collect *c);
void alliance_french_describe(const struct data *d, const struct state *s,
			      struct strbuf *out);
enum engine_result alliance_war_check(const struct data *d,
				      const struct state *s,
				      const struct action *a,
				      struct strbuf *why);
void alliance_war_apply(const struct data *d, struct state *s,
			const struct action *a, struct rng *r,
			struct strbuf *log);
void alliance_war_legal(const struct data *d, const struct state *s,
			struct collect *c);
void alliance_war_describe(const struct data *d, const struct state *s,
			   struct strbuf *out);

/* victory.c: 13.0. victory_automatic ends the game the instant 13.1
 * holds, whatever is in progress (a move, battle or campaign is closed). */
bool victory_automatic(const struct data *d, struct state *s,
		       struct strbuf *log);
/* side resigns: what is in progress stops (its lines in log), the game is
 * over, the other side wins. */
void victory_resign(const struct data *d, struct state *s, enum side side,
		    struct strbuf *log);
void victory_final(const struct data *d, struct state *s, enum game_end how,
		   struct strbuf *log);

/* flow.c: the sequence of play (5.0). Each continues to the next prompt. */
void flow_start_turn(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log);
void flow_end_card(const struct data *d, struct state *s, struct rng *r,
		   struct strbuf *log, int discarded_event);
void flow_next_impulse(const struct data *d, struct state *s, struct rng *r,
		       struct strbuf *log);
void flow_after_congress(const struct data *d, struct state *s, struct rng *r,
			 struct strbuf *log);
void flow_prompt(struct state *s, enum prompt_kind kind, enum side side,
		 int card, int left);
/* For The King is over: the first turn begins (1775, 5.0). */
void flow_start_first_turn(const struct data *d, struct state *s,
			   struct rng *r, struct strbuf *log);
/* After Winter Attrition (5.4): automatic victory, the French Naval Phase
 * (5.5), then flow_after_navy. */
void flow_after_winter(const struct data *d, struct state *s, struct rng *r,
		       struct strbuf *log);
/* After the French Naval Phase: the Political Control Phase (5.6). */
void flow_after_navy(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log);
/* The End Phase (5.7) after the European War removals. */
void flow_end_phase(const struct data *d, struct state *s, struct rng *r,
		    struct strbuf *log);

/* movement.c: activation (7.1), movement (7.3 to 7.5), captures (7.6),
 * the Congress (7.7). */
enum engine_result activate_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why);
void activate_apply(const struct data *d, struct state *s,
		    const struct action *a, struct strbuf *log);
/* The general g begins his activation with card: PROMPT_MOVE. */
void activation_start(const struct data *d, struct state *s, int g, int card,
		      struct strbuf *log);
/* The spaces the moving general may move (7.3.A, 7.3.C). */
int move_allowance(const struct data *d, const struct state *s);
enum engine_result queue_check(const struct data *d, const struct state *s,
			       const struct action *a, struct strbuf *why);
void queue_apply(const struct data *d, struct state *s, const struct action *a,
		 struct rng *r, struct strbuf *log);
/* Any other card play of side abandons its Operations Queue (7.1.B.iii). */
void queue_abandon(const struct data *d, struct state *s, enum side side,
		   struct strbuf *log);
/* PROMPT_MOVE: take, to, sail, stop. */
enum engine_result move_check(const struct data *d, const struct state *s,
			      const struct action *a, struct strbuf *why);
void move_apply(const struct data *d, struct state *s, const struct action *a,
		struct rng *r, struct strbuf *log);
void move_legal(const struct data *d, const struct state *s,
		struct collect *c);
void move_describe(const struct data *d, const struct state *s,
		   struct strbuf *out);
/* After any action: a move whose general can go no further and whose end
 * asks nothing (no second general, 7.4.C) ends by itself (7.3.A). */
void move_end_if_stuck(const struct data *d, struct state *s, struct rng *r,
		       struct strbuf *log);
/* PROMPT_CAPTURE: the British remove PCs for Washington (7.6.B). */
enum engine_result capture_check(const struct data *d, const struct state *s,
				 const struct action *a, struct strbuf *why);
void capture_apply(const struct data *d, struct state *s,
		   const struct action *a, struct rng *r, struct strbuf *log);
void capture_legal(const struct data *d, const struct state *s,
		   struct collect *c);
void capture_describe(const struct data *d, const struct state *s,
		      struct strbuf *out);
/* Pieces of side have arrived in space (by movement or reinforcement):
 * the Congress may be dispersed (7.7); if `captures` (CUs arrived), a lone
 * enemy general there is captured (7.6, 8.2.C). Returns true if the
 * British now remove PCs for Washington (PROMPT_CAPTURE, card kept). */
bool arrival(const struct data *d, struct state *s, int space, enum side side,
	     bool captures, int card, struct strbuf *log);
/* "an American", "a British". */
const char *side_article(enum side side);
/* A port in the zone of the French Navy (12.3). */
bool port_blockaded(const struct data *d, const struct state *s, int space);
/* A general of side with no CUs of his side in space, or -1. */
int lone_general_at(const struct data *d, const struct state *s, int space,
		    enum side side);

/* Captures general g (7.6); returns true if the British now remove PCs
 * for Washington (PROMPT_CAPTURE). */
bool general_capture(const struct data *d, struct state *s, int g, int card,
		     struct strbuf *log);

/* battle.c: interception (7.8), retreat before battle (7.9), battles
 * (9.0 to 9.6) and overruns (9.7). */
/* The mover has just entered his space from `from` (by land): interception
 * if `interceptable` (7.8.B: a British Army into an American PC space
 * without British CUs), then an overrun, retreat before battle or battle.
 * Leaves PROMPT_MOVE when the move goes on; otherwise sets the next
 * prompt or ends the card. */
void battle_entered(const struct data *d, struct state *s, struct rng *r,
		    int from, bool interceptable, struct strbuf *log);
/* The battle's prompts, their check, apply, legal and describe (descriptors in
 * prompts.c): PROMPT_INTERCEPT (7.8), PROMPT_RETREAT_BEFORE (rbb, 7.9),
 * PROMPT_BATTLE_CARD (9.2), PROMPT_LOSSES (9.5, 12.2.C), PROMPT_RETREAT
 * (9.6). */
enum engine_result battle_intercept_check(const struct data *d,
					  const struct state *s,
					  const struct action *a,
					  struct strbuf *why);
void battle_intercept_apply(const struct data *d, struct state *s,
			    const struct action *a, struct rng *r,
			    struct strbuf *log);
void battle_intercept_legal(const struct data *d, const struct state *s,
			    struct collect *c);
void battle_intercept_describe(const struct data *d, const struct state *s,
			       struct strbuf *out);
enum engine_result battle_rbb_check(const struct data *d,
				    const struct state *s,
				    const struct action *a,
				    struct strbuf *why);
void battle_rbb_apply(const struct data *d, struct state *s,
		      const struct action *a, struct rng *r,
		      struct strbuf *log);
void battle_rbb_legal(const struct data *d, const struct state *s,
		      struct collect *c);
void battle_rbb_describe(const struct data *d, const struct state *s,
			 struct strbuf *out);
enum engine_result battle_card_check(const struct data *d,
				     const struct state *s,
				     const struct action *a,
				     struct strbuf *why);
void battle_card_apply(const struct data *d, struct state *s,
		       const struct action *a, struct rng *r,
		       struct strbuf *log);
void battle_card_legal(const struct data *d, const struct state *s,
		       struct collect *c);
void battle_card_describe(const struct data *d, const struct state *s,
			  struct strbuf *out);
enum engine_result battle_losses_check(const struct data *d,
				       const struct state *s,
				       const struct action *a,
				       struct strbuf *why);
void battle_losses_apply(const struct data *d, struct state *s,
			 const struct action *a, struct rng *r,
			 struct strbuf *log);
void battle_losses_legal(const struct data *d, const struct state *s,
			 struct collect *c);
void battle_losses_describe(const struct data *d, const struct state *s,
			    struct strbuf *out);
enum engine_result battle_retreat_check(const struct data *d,
					const struct state *s,
					const struct action *a,
					struct strbuf *why);
void battle_retreat_apply(const struct data *d, struct state *s,
			  const struct action *a, struct rng *r,
			  struct strbuf *log);
void battle_retreat_legal(const struct data *d, const struct state *s,
			  struct collect *c);
void battle_retreat_describe(const struct data *d, const struct state *s,
			     struct strbuf *out);
/* The game ended in the middle of a battle (13.1): the cards held for
 * step 1 go where the end of the battle would send them, and the battle
 * is over. */
void battle_abandon(const struct data *d, struct state *s,
		    struct strbuf *log);
/* Two generals of side in space after a move, an interception or a
 * retreat (7.4.C, 7.8.D): if one is Washington the other goes to the
 * Reinforcements box (false); else PROMPT_GENERALS asks the owner, and
 * `next` says where the game goes on (true). false if only one is there. */
bool generals_meet(const struct data *d, struct state *s, int space,
		   enum side side, enum generals_next next, int card,
		   struct strbuf *log);
/* PROMPT_GENERALS: send GENERAL. */
enum engine_result generals_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why);
void generals_apply(const struct data *d, struct state *s,
		    const struct action *a, struct rng *r, struct strbuf *log);
void generals_legal(const struct data *d, const struct state *s,
		    struct collect *c);
void generals_describe_prompt(const struct data *d, const struct state *s,
			      struct strbuf *out);
/* The replacement draws of battle cards, after the impulse (6.33.B). */
void battle_replacement_draws(const struct data *d, struct state *s,
			      struct rng *r, struct strbuf *log);

/* campaign.c: Major and Minor Campaigns (7.2), the Landing Party
 * (7.2.B), John Glover (7.3.C). */
/* The event of a campaign card (count activations) or of Glover (1, with
 * allowance 6): PROMPT_CAMPAIGN for side. */
void campaign_begin(const struct data *d, struct state *s, int card,
		    enum side side, int count, int allowance,
		    struct strbuf *log);
/* Called first by flow_end_card: an activation of a campaign is over.
 * Returns true if the campaign goes on (PROMPT_CAMPAIGN set) or the game
 * is over; false when the card itself now ends. */
bool campaign_continue(const struct data *d, struct state *s,
		       struct strbuf *log);
/* PROMPT_CAMPAIGN: move CARD GENERAL, place PORT, flip PORT, done. */
enum engine_result campaign_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why);
void campaign_apply(const struct data *d, struct state *s,
		    const struct action *a, struct rng *r, struct strbuf *log);
void campaign_legal(const struct data *d, const struct state *s,
		    struct collect *c);
void campaign_describe_prompt(const struct data *d, const struct state *s,
			      struct strbuf *out);
/* Has side a general on the map (or, for a British campaign, a port for
 * the Landing Party), so that the event can act (6.32.A)? */
bool campaign_possible(const struct data *d, const struct state *s,
		       enum side side, bool glover);
/* Card n is the campaign in progress. */
bool campaign_for(const struct state *s, int card);
/* The spaces of movement of Glover's activation (6), else 0. */
int campaign_allowance(const struct state *s);
/* The CUs of side in space that the moving general may take: those not
 * moved by an earlier general of the campaign (7.4.E). */
int campaign_free_cus(const struct state *s, int space, enum side side);
/* The moving general's n CUs went from one space to another (7.4.E). */
void campaign_moved(struct state *s, int from, int to, int n);

/* reinforce.c: reinforcements in the Strategy Phase (8.1.B, C; 8.2.B, C). */
enum engine_result reinforce_check(const struct data *d, const struct state *s,
				   const struct action *a, struct strbuf *why);
void reinforce_apply(const struct data *d, struct state *s,
		     const struct action *a, struct strbuf *log);
enum engine_result land_check(const struct data *d, const struct state *s,
			      const struct action *a, struct strbuf *why);
void land_apply(const struct data *d, struct state *s, const struct action *a,
		struct rng *r, struct strbuf *log);
void land_legal(const struct data *d, const struct state *s,
		struct collect *c);
void land_describe(const struct data *d, const struct state *s,
		   struct strbuf *out);

/*
 * prompts.c: one descriptor per kind of prompt (see there). check may
 * assume that the action's kind is one of answers (engine_check() has
 * said so) unless own_refusals.
 */
struct prompt_desc {
	enum action_kind answers[7];	/* ACT_NONE-terminated */
	bool interrupts;		/* the mover's further lines wait */
	/* 13.1 does not apply after its answer: the set-up, the Political
	 * Control Phase, the European War of the End Phase (not the
	 * Strategy Phase or Winter Attrition, where it holds) */
	bool no_auto_victory;
	/* check sees every kind of action and refuses those that do not
	 * answer in its own words (an event's choices are the event's) */
	bool own_refusals;
	/* 'remove SPACE N' names N French CUs among those removed (6.31) */
	bool french_removed;
	enum pc_context pcx;		/* a PC prompt's context (10.11, 4.0) */
	unsigned blocks;		/* enum prompt_blocks: the move and battle
					   the state holds at it */
	enum engine_result (*check)(const struct data *d, const struct state *s,
				    const struct action *a, struct strbuf *why);
	void (*apply)(const struct data *d, struct state *s,
		      const struct action *a, struct rng *r, struct strbuf *log);
	void (*legal)(const struct data *d, const struct state *s,
		      struct collect *c);
	void (*describe)(const struct data *d, const struct state *s,
			 struct strbuf *out);
};
extern const struct prompt_desc prompt_descs[PROMPT__COUNT];

/*
 * A card no primitive expresses (its `handler:` in cards.yaml, effects.h):
 * one row of card_handler_descs (events.c) with its functions, which the
 * event's generic code calls (events_play, events_check, events_apply,
 * events_legal, events_describe_prompt) and nothing else names. A new
 * handler is one enum value and name in effects.h/effects.c and one row
 * here; test_engine fails on a row without all five.
 */
struct card_handler_desc {
	/* the card played as an event: true when it is done, false when
	 * it left a prompt (PROMPT_EVENT) for its answer */
	bool (*play)(const struct data *d, struct state *s, struct rng *r,
		     int n, enum side side, struct strbuf *log);
	/* the answers at its PROMPT_EVENT: as struct prompt_desc's */
	enum engine_result (*check)(const struct data *d, const struct state *s,
				    const struct action *a, struct strbuf *why);
	void (*apply)(const struct data *d, struct state *s,
		      const struct action *a, struct rng *r, struct strbuf *log);
	void (*legal)(const struct data *d, const struct state *s,
		      struct collect *c);
	void (*describe)(const struct data *d, const struct state *s,
			 struct strbuf *out);
};
/* Indexed by enum card_handler; [HANDLER_NONE] is empty. */
extern const struct card_handler_desc card_handler_descs[HANDLER__COUNT];
/* The descriptor of kind k (PROMPT_NONE has none: a broken invariant).
 * Inline: engine_check() asks for it for every candidate action that
 * engine_legal() tries. */
static inline const struct prompt_desc *prompt_desc(enum prompt_kind k)
{
	if (k <= PROMPT_NONE || k >= PROMPT__COUNT)
		BUG("prompt kind %d", k);
	return &prompt_descs[k];
}
/* Is kind one of the kinds of action that answer the prompt p? */
static inline bool prompt_answered_by(const struct prompt_desc *p,
				      enum action_kind kind)
{
	for (int i = 0; i < 7 && p->answers[i] != ACT_NONE; i++)
		if (p->answers[i] == kind)
			return true;
	return false;
}

#endif
