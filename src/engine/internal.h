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
/* Adjacent for British PC purposes: also every port to every port (10.11.B). */
bool british_adjacent(const struct data *d, int a, int b);
/* True if some space adjacent to `space` holds a PC of `side`, counting
 * British ports as adjacent to each other when side is British. */
bool adjacent_to_pc(const struct data *d, const struct state *s, int space,
		    enum side side);
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
enum engine_result exchange_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why);
bool exchange_possible(const struct data *d, const struct state *s,
		       enum side side);
void exchange_apply(const struct data *d, struct state *s,
		    const struct action *a, struct strbuf *log);
/* Special events (6.34). */
bool doi_colony_possible(const struct data *d, const struct state *s, int colony);

/* winter.c: Winter Attrition (11.0). */
void winter_attrition(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log);

/* victory.c: 13.0. */
bool victory_automatic(const struct data *d, struct state *s,
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

#endif
