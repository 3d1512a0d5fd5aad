/*
 * flow.c - the sequence of play (5.0) and the dispatch of actions to the
 * part of the rules that answers the current prompt. Every transition
 * between phases is here.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void flow_prompt(struct state *s, enum prompt_kind kind, enum side side,
		 int card, int left)
{
	s->prompt.kind = kind;
	s->prompt.side = side;
	s->prompt.card = card;
	s->prompt.left = left;
	s->prompt.colonies_done = 0;
	s->prompt.step = 0;
	s->prompt.spaces_done[0] = s->prompt.spaces_done[1] = 0;
}

static void end_phase(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log);

/* 5.1 to 5.3: a new Game Turn up to the choice of the first player. */
void flow_start_turn(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log)
{
	int reinf = 0;

	elog(log, "\n== %d ==", s->year);
	/* 5.1 Reinforcements Phase (8.1.A, 8.2.A) */
	for (int g = 0; g < d->n_generals; g++) {
		if (s->general[g] == LOC_CAPTURED) {
			s->general[g] = LOC_REINFORCEMENTS;
			elog(log, "%s returns from captivity to the Reinforcements box.",
			     d->generals[g].name);
		}
	}
	for (int i = 0; i < d->n_years; i++)
		if (d->years[i].year == s->year)
			reinf = d->years[i].british_reinforcements;
	if (d->cu_pool[NATION_BRITISH]) {
		/* The counter mix limits them (docs/rulings.md, 8.1.A). */
		int stock = d->cu_pool[NATION_BRITISH] - s->box_cu[NATION_BRITISH] -
			    state_cus_on_map(s, d, NATION_BRITISH);
		if (reinf > stock) {
			elog(log, "Only %d British CUs are left in the counter mix for the %d due.",
			     stock, reinf);
			reinf = stock;
		}
	}
	s->box_cu[NATION_BRITISH] += reinf;
	elog(log, "British reinforcements: %d CUs to the Reinforcements box (now %d).",
	     reinf, s->box_cu[NATION_BRITISH]);
	/* 5.2 Strategy Cards Phase (6.1) */
	cards_deal(d, s, r, log);
	/* 5.3 Strategy Phase: 13.1 holds from its first instant, before
	 * anyone decides (the End Phase's European War may have taken the
	 * last British CU of the colonies; docs/rulings.md R14) */
	if (victory_automatic(d, s, log))
		return;
	s->british_choose_first = s->dispersed_this_turn;
	s->dispersed_this_turn = false;
	s->mutinies = false;
	s->kosciuszko = 0;	/* #79: this turn only */
	s->impulse = 0;
	s->first = SIDE_NONE;
	s->active = SIDE_NONE;
	/* 5.3.a before 5.3.c: the British is asked every year, whatever his
	 * hand holds, unless his standing order answers; asking only when he
	 * holds a campaign card would tell the American so (R62). */
	if (s->british_choose_first) {
		elog(log, "The Continental Congress was dispersed in %d (7.7): the British choose who plays first in %d (5.3.b).",
		     s->year - 1, s->year);
		flow_prompt(s, PROMPT_FIRST, SIDE_BRITISH, 0, 0);
	} else if (s->react[SIDE_BRITISH][REACT_DECLARE] == REACT_NEVER) {
		elog(log, "The British does not declare himself first (standing reaction: never declare).");
		flow_prompt(s, PROMPT_FIRST, SIDE_AMERICAN, 0, 0);
	} else {
		flow_prompt(s, PROMPT_FIRST, SIDE_BRITISH, 0, 1);
	}
}

/* 5.4 to 5.7, after the last card of the Strategy Phase. */
static void end_strategy_phase(const struct data *d, struct state *s,
			       struct rng *r, struct strbuf *log)
{
	elog(log, "The Strategy Phase of %d ends.", s->year);
	/* 5.4 Winter Attrition (11.0); it may stop for a choice (11.3). */
	if (winter_attrition(d, s, r, log, 0))
		flow_after_winter(d, s, r, log);
}

void flow_after_winter(const struct data *d, struct state *s, struct rng *r,
		       struct strbuf *log)
{
	if (victory_automatic(d, s, log))
		return;
	/* 5.5 French Naval Phase: from the alliance's turn on (12.2.B.i, 12.3). */
	if (s->french_allied) {
		flow_prompt(s, PROMPT_NAVY, SIDE_AMERICAN, 0, 0);
		s->prompt.step = 1;
		return;
	}
	flow_after_navy(d, s, r, log);
}

void flow_after_navy(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log)
{
	/* 5.6 Political Control Phase (10.2) */
	if (s->congress < 0) {
		if (congress_any_legal(d, s)) {
			flow_prompt(s, PROMPT_CONGRESS, SIDE_AMERICAN, 0, 1);
			return;
		}
		elog(log, "The Continental Congress has nowhere to return and stays out of play (10.2.1).");
	}
	flow_after_congress(d, s, r, log);
}

void flow_after_congress(const struct data *d, struct state *s, struct rng *r,
			 struct strbuf *log)
{
	political_phase_place(d, s, log);
	political_phase_isolation(d, s, log);
	end_phase(d, s, r, log);
}

/* 5.7 End Phase. */
static void end_phase(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log)
{
	/* The European War of the alliance's turn (12.2.B.iii). */
	if (european_war_begin(d, s, log))
		return;
	flow_end_phase(d, s, r, log);
}

void flow_end_phase(const struct data *d, struct state *s, struct rng *r,
		    struct strbuf *log)
{
	if (s->war_ends && d->cards[s->war_ends].war_ends_year <= s->year) {
		victory_final(d, s, END_WAR_ENDS, log);
		return;
	}
	if (s->year >= d->years[d->n_years - 1].year) {
		victory_final(d, s, END_1783, log);
		return;
	}
	cards_end_phase(d, s, log);
	if (s->alliance_this_turn) {
		/* From here on the European War is in effect (R27). */
		s->alliance_this_turn = false;
		cards_reshuffle(d, s, r, log, "the French alliance, 12.2.B.iv");
	}
	s->year++;
	flow_start_turn(d, s, r, log);
}

void flow_next_impulse(const struct data *d, struct state *s, struct rng *r,
		       struct strbuf *log)
{
	enum side next;

	if (s->active == SIDE_NONE)
		next = s->first;
	else if (s->n_hand[OTHER_SIDE(s->active)] > 0)
		next = OTHER_SIDE(s->active);
	else
		next = s->active;
	if (s->n_hand[next] == 0) {
		end_strategy_phase(d, s, r, log);
		return;
	}
	s->active = next;
	flow_prompt(s, PROMPT_PLAY, next, 0, 0);
}

/* After a card play is fully resolved (6.32.C, 12.2.B, 13.1). */
void flow_end_card(const struct data *d, struct state *s, struct rng *r,
		   struct strbuf *log, int discarded_event)
{
	/* The next activation of a campaign first (7.2.A, 9.45, 12.2.B). */
	if (campaign_continue(d, s, log))
		return;
	if (victory_automatic(d, s, log))
		return;
	battle_replacement_draws(d, s, r, log);	/* 6.33.B, 9.45 */
	if (alliance_due(s)) {
		/* After the card, its activations and battles (12.2.B). */
		alliance_begin(d, s, log, discarded_event);
		return;
	}
	if (s->extra_action) {
		/* The Optional Tournament Rule (6.34.C.i): the event first,
		 * then the British "may" draw a replacement card and take
		 * another action (PROMPT_EXTRA). */
		s->extra_action = false;
		flow_prompt(s, PROMPT_EXTRA, SIDE_BRITISH, 0, 0);
		return;
	}
	if (discarded_event) {
		enum side opp = OTHER_SIDE(s->active);
		/* Asked whenever his hand is not empty, whatever it holds:
		 * whether the prompt comes is public (R62, R100). */
		if (s->n_hand[opp] > 0) {
			if (s->react[opp][REACT_EXCHANGE] == REACT_NEVER) {
				elog(log, "%s does not take #%d (standing reaction: never exchange).",
				     side_title(opp), discarded_event);
			} else {
				flow_prompt(s, PROMPT_EXCHANGE, opp, discarded_event, 0);
				return;
			}
		}
	}
	flow_next_impulse(d, s, r, log);
}

void engine_new_game(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log)
{
	int n = 0;

	(void)r;
	memset(s, 0, sizeof(*s));
	s->version = STATE_VERSION;
	s->year = d->years[0].year;
	s->regulars = true;
	s->french_navy = NAVY_FRENCH_BOX;
	s->congress = -1;
	for (int g = 0; g < d->n_generals; g++)
		s->general[g] = d->generals[g].nation == NATION_FRENCH
			? LOC_FRENCH_BOX : LOC_REINFORCEMENTS;
	for (int i = 0; i < d->n_setup; i++) {
		const struct data_setup *e = &d->setup[i];
		enum side side = e->nation == NATION_BRITISH ? SIDE_BRITISH : SIDE_AMERICAN;
		if (e->where == SETUP_SPACE) {
			s->space[e->space].cu[e->nation] += e->cus;
			if (e->pc)
				s->space[e->space].pc = side;
			if (e->general >= 0)
				s->general[e->general] = e->space;
			if (e->congress)
				s->congress = e->space;
		} else {
			s->box_cu[e->nation] += e->cus;
			if (e->general >= 0)
				s->general[e->general] = e->where == SETUP_FRENCH_BOX
					? LOC_FRENCH_BOX : LOC_REINFORCEMENTS;
		}
	}
	/* 4.0: two cards set aside until 1776, the rest is the deck. */
	for (int c = 1; c <= d->n_cards; c++) {
		if (d->cards[c].set_aside_until_1776)
			s->set_aside[s->n_set_aside++] = c;
		else
			s->deck[n++] = c;
	}
	s->n_deck = n;
	elog(log, "Washington's War: the pieces are set up (4.0).");
	elog(log, "#%d and #%d are set aside until 1776 (4.0).",
	     s->set_aside[0], s->n_set_aside > 1 ? s->set_aside[1] : 0);
	flow_prompt(s, PROMPT_CC, SIDE_AMERICAN, 0, 0);
	for (int k = 0; k < d->n_colonies; k++)
		if (!d->colonies[k].canada)
			s->prompt.left++;
		else
			s->prompt.colonies_done |= 1u << k;
}

void engine_begin_order(struct state *s)
{
	s->n_shuffles = 0;
}

/* The deck is shuffled once the set-up decisions are over, so that the
 * placements cannot depend on it. */
void flow_start_first_turn(const struct data *d, struct state *s,
			   struct rng *r, struct strbuf *log)
{
	cards_shuffle_deck(s, r, "the strategy deck (4.0)");
	elog(log, "The strategy deck is shuffled: %d cards.", s->n_deck);
	flow_start_turn(d, s, r, log);
}

static enum engine_result wrong_kind(const struct data *d,
				     const struct state *s,
				     const struct action *a, struct strbuf *why)
{
	struct strbuf list = STRBUF_INIT;
	const struct prompt_desc *p = prompt_desc(s->prompt.kind);
	(void)d;

	for (int i = 0; i < 7 && p->answers[i] != ACT_NONE; i++)
		strbuf_addf(&list, "%s'%s'", i ? ", " : "", action_verb(p->answers[i]));
	illegal(why, "'%s' does not answer this prompt; expected %s",
		action_verb(a->kind), strbuf_str(&list));
	strbuf_release(&list);
	return ENGINE_ILLEGAL;
}

enum engine_result engine_check(const struct data *d, const struct state *s,
				const struct action *a, struct strbuf *why)
{
	const struct prompt *p = &s->prompt;
	const struct prompt_desc *desc;

	if (a->kind == ACT_RESIGN) {
		if (a->side != SIDE_AMERICAN && a->side != SIDE_BRITISH)
			return illegal(why, "a resignation names the side that resigns");
		if (engine_game_over(s))
			return illegal(why, "the game is over");
		return ENGINE_OK;
	}
	if (a->kind == ACT_REACT) {
		if (a->side != SIDE_AMERICAN && a->side != SIDE_BRITISH)
			BUG("a standing reaction without a side");
		if (a->reaction < 0 || a->reaction >= REACT__COUNT)
			return illegal(why, "no such standing reaction");
		if (a->side == SIDE_BRITISH &&
		    (a->reaction == REACT_INTERCEPT || a->reaction == REACT_RETREAT))
			return illegal(why, "only American Armies %s (%s)",
				       a->reaction == REACT_INTERCEPT ? "intercept" : "retreat before battle",
				       a->reaction == REACT_INTERCEPT ? "7.8" : "7.9");
		if (a->general >= 0 && (a->general >= d->n_generals ||
					d->generals[a->general].side != a->side))
			return illegal(why, "%s is not one of your generals",
				       a->general < d->n_generals ? d->generals[a->general].name : "that");
		if (a->side == SIDE_AMERICAN && a->reaction == REACT_DECLARE)
			return illegal(why, "only the British declares himself first with a campaign card (5.3.a)");
		if (a->general >= 0 && a->reaction == REACT_DECLARE)
			return illegal(why, "declaring first is the player's, not a general's: say '%s declare'",
				       a->value == REACT_NEVER ? "never" : "ask");
		if (a->general >= 0 && a->reaction == REACT_EXCHANGE)
			return illegal(why, "the exchange is the player's, not a general's: say '%s exchange'",
				       a->value == REACT_NEVER ? "never" : "ask");
		return ENGINE_OK;
	}
	/* A number after 'remove', 'intercept' or 'retreat' names French
	 * CUs among those removed by an event (6.31), intercepting (7.8.C)
	 * or retreating before battle (7.9.B); nowhere else. */
	if (a->french < 0)
		return illegal(why, "a negative number of CUs");
	if (p->kind == PROMPT_NONE)
		return illegal(why, "the game is over");
	desc = prompt_desc(p->kind);
	if (a->french > 0 && a->kind == ACT_REMOVE && !desc->french_removed &&
	    prompt_answered_by(desc, a->kind))
		return illegal(why, "'remove' takes a number only to name the French CUs removed by an event (6.31)");
	/* the verbs that answer the prompt, from its descriptor */
	if (!desc->own_refusals && !prompt_answered_by(desc, a->kind))
		return wrong_kind(d, s, a, why);
	return desc->check(d, s, a, why);
}

/*
 * A campaign left with no general to activate and no Landing Party to
 * make (7.2.A), by the board alone, ends by itself and is logged (issue
 * 29, docs/rulings.md R101). Never a prompt whose answers depend on a
 * hidden hand (R100): those are asked.
 */
static void decline_if_no_choice(const struct data *d, struct state *s,
				 struct rng *r, struct strbuf *log)
{
	for (int guard = 0; guard < 16 && !engine_game_over(s); guard++) {
		enum prompt_kind k = s->prompt.kind;
		enum action_kind decline = ACT_DONE;
		struct action a = ACTION_INIT;
		int n;
		bool other = false;

		if (k != PROMPT_CAMPAIGN)
			return;
		n = engine_legal(d, s, NULL, 0);
		struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));
		engine_legal(d, s, acts, n);
		for (int i = 0; i < n && !other; i++)
			other = acts[i].kind != decline;
		free(acts);
		if (other || !n)
			return;
		elog(log, "The %s has no general left to activate%s: %s ends by itself (7.2.A).",
		     side_title(s->prompt.side),
		     s->prompt.side == SIDE_BRITISH ? " and no Landing Party to make" : "",
		     d->cards[s->prompt.card].label);
		a.kind = decline;
		prompt_desc(k)->apply(d, s, &a, r, log);
		if (!engine_game_over(s) && !prompt_desc(k)->no_auto_victory)
			victory_automatic(d, s, log);
	}
}

enum engine_result engine_apply(const struct data *d, struct state *s,
				const struct action *a, struct rng *r,
				struct strbuf *log, struct strbuf *why)
{
	struct prompt p = s->prompt;

	if (engine_check(d, s, a, why) != ENGINE_OK)
		return ENGINE_ILLEGAL;
	if (a->kind == ACT_RESIGN) {
		elog(log, "The %s resigns: the %s wins the game.", side_title(a->side),
		     side_title(OTHER_SIDE(a->side)));
		victory_resign(d, s, a->side, log);
		return ENGINE_OK;
	}
	if (a->kind == ACT_REACT) {
		if (a->general >= 0)
			s->react_general[a->general][a->reaction] = 1 + a->value;
		else
			s->react[a->side][a->reaction] = a->value;
		elog(log, "%s standing reaction: %s %s%s%s.", side_title(a->side),
		     a->value == REACT_NEVER ? "never" : "ask",
		     reaction_name((enum reaction)a->reaction),
		     a->general >= 0 ? " with " : "",
		     a->general >= 0 ? d->generals[a->general].name : "");
		return ENGINE_OK;
	}
	prompt_desc(p.kind)->apply(d, s, a, r, log);
	/* 13.1: the instant it holds, in the Strategy Phase or winter, also
	 * in the middle of a card (R14); the descriptor says which prompts
	 * are outside those phases. */
	if (!engine_game_over(s) && !prompt_desc(p.kind)->no_auto_victory)
		victory_automatic(d, s, log);
	if (!engine_game_over(s))
		move_end_if_stuck(d, s, r, log);
	decline_if_no_choice(d, s, r, log);
	s->draws = r ? r->next : s->draws;
	return ENGINE_OK;
}

unsigned engine_prompt_blocks(enum prompt_kind k)
{
	return k == PROMPT_NONE ? 0 : prompt_desc(k)->blocks;
}

bool engine_game_over(const struct state *s)
{
	return s->prompt.kind == PROMPT_NONE;
}
