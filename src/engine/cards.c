/*
 * cards.c - the Strategy Cards (6.0): the deck, dealing and reshuffling
 * (6.1), card plays (6.2, 6.3), discards and the exchange (6.32), and the
 * special events (6.34).
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static const struct data_card *card(const struct data *d, int n)
{
	if (n < 1 || n > d->n_cards)
		BUG("card number %d out of range", n);
	return &d->cards[n];
}

/*
 * A peer game's shuffle (docs/peer.md 6.2, 9.4, 12): no permutation and no
 * draw; the list is recorded as version 2 records it (the input of the
 * generation's turn 1) and the deck becomes the slots of a new generation.
 */
static void shuffle_to_slots(struct state *s, struct rng *r)
{
	int g = s->peer.generation + 1;

	if (s->n_deck < 1)
		return;
	if (s->n_deck > 256)
		BUG("a deck of %d cards has no slots", s->n_deck);
	if (s->n_shuffles >= STATE_MAX_SHUFFLES)
		BUG("more than %d shuffles in one order", STATE_MAX_SHUFFLES);
	struct state_shuffle *sh = &s->shuffles[s->n_shuffles++];
	sh->first = r->next;
	sh->n = s->n_deck;
	memcpy(sh->items, s->deck, (size_t)s->n_deck * sizeof(*s->deck));
	for (int i = 0; i < s->n_deck; i++)
		s->deck[i] = CARD_SLOT(g, i);
	s->peer.generation = g;
	s->peer.deck_top = 0;
	r->peer->generation = g + 1;
}

void cards_shuffle_deck(struct state *s, struct rng *r, const char *purpose)
{
	if (r->peer) {
		shuffle_to_slots(s, r);
		return;
	}
	/* version 2: what was shuffled goes into the private state, so that
	 * a verifier can check the shuffle without replaying the game */
	if (s->version >= 2 && s->n_deck >= 2) {
		if (s->n_shuffles >= STATE_MAX_SHUFFLES)
			BUG("more than %d shuffles in one order", STATE_MAX_SHUFFLES);
		struct state_shuffle *sh = &s->shuffles[s->n_shuffles++];
		sh->first = r->next;
		sh->n = s->n_deck;
		memcpy(sh->items, s->deck, (size_t)s->n_deck * sizeof(*s->deck));
	}
	rng_shuffle(r, s->deck, s->n_deck, purpose);
}

void cards_reshuffle(const struct data *d, struct state *s, struct rng *r,
		     struct strbuf *log, const char *why)
{
	(void)d;
	/* 6.1.B: the discards and what is left of the deck, without the
	 * War Ends card in its box and removed cards (never in the discard). */
	for (int i = 0; i < s->n_discard; i++)
		s->deck[s->n_deck++] = s->discard[i];
	s->n_discard = 0;
	s->reshuffle = false;
	elog(log, "The strategy deck is reshuffled (%s): %d cards.", why,
	     s->n_deck);
	cards_shuffle_deck(s, r, "reshuffle of the strategy deck");
}

void cards_draw(const struct data *d, struct state *s, enum side side,
		struct rng *r, struct strbuf *log)
{
	if (s->n_deck == 0)
		cards_reshuffle(d, s, r, log, "the deck is empty, 6.1.A");
	if (s->n_deck == 0)
		BUG("no card left to draw: deck and discards are empty");
	int c = s->deck[0];
	memmove(s->deck, s->deck + 1, (size_t)(s->n_deck - 1) * sizeof(int));
	s->n_deck--;
	if (CARD_IS_SLOT(c))	/* a peer game: the top slot moves (6.2) */
		s->peer.deck_top++;
	hand_add(s, side, c);
}

void cards_deal(const struct data *d, struct state *s, struct rng *r,
		struct strbuf *log)
{
	if (s->n_set_aside && s->year >= 1776) {
		/* 6.1.E: shuffled into the deck, not a reshuffle per se. */
		for (int i = 0; i < s->n_set_aside; i++) {
			s->deck[s->n_deck++] = s->set_aside[i];
			elog(log, "%s is shuffled into the deck (6.1.E).",
			     card(d, s->set_aside[i])->label);
		}
		s->n_set_aside = 0;
		cards_shuffle_deck(s, r, "set-aside cards into the strategy deck");
	}
	if (s->reshuffle)
		cards_reshuffle(d, s, r, log, "an event asked for it, 6.3.D");
	for (int i = 0; i < 7; i++) {
		cards_draw(d, s, SIDE_AMERICAN, r, log);
		cards_draw(d, s, SIDE_BRITISH, r, log);
	}
	elog(log, "Seven cards are dealt to each player; %d remain in the deck.",
	     s->n_deck);
}

void cards_end_phase(const struct data *d, struct state *s, struct strbuf *log)
{
	(void)d;
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		for (int i = 0; i < s->n_reinf_cards[side]; i++)
			discard_push(s, s->reinf_cards[side][i]);
		s->n_reinf_cards[side] = 0;
		for (int i = 0; i < s->n_queue[side]; i++)
			discard_push(s, s->queue[side][i]);
		if (s->n_queue[side])
			elog(log, "The %s Operations Queue ends with the turn.",
			     side_title(side));
		s->n_queue[side] = 0;
	}
}

bool doi_colony_possible(const struct data *d, const struct state *s,
			 int colony)
{
	for (int i = 0; i < d->n_spaces; i++)
		if (d->spaces[i].colony == colony &&
		    pc_check(d, s, SIDE_AMERICAN, ACT_PLACE, i, PCX_DOI, NULL) == ENGINE_OK)
			return true;
	return false;
}

enum engine_result play_check(const struct data *d, const struct state *s,
			      const struct action *a, struct strbuf *why)
{
	enum side side = s->prompt.side;
	const struct data_card *c;

	if (a->card < 1 || a->card > d->n_cards)
		return illegal(why, "no card #%d", a->card);
	c = card(d, a->card);
	if (hand_find(s, side, a->card) < 0)
		return illegal(why, "%s is not in your hand", c->label);
	switch (a->kind) {
	case ACT_PC_CARD:
		if (!c->ops)
			return illegal(why, "%s is an event, not an OPS card: discard it or play the event", c->label);
		return ENGINE_OK;
	case ACT_ACTIVATE:
	case ACT_QUEUE:
	case ACT_REINFORCE:
		if (!c->ops)
			return illegal(why, "%s is an event, not an OPS card", c->label);
		return a->kind == ACT_ACTIVATE ? activate_check(d, s, a, why)
		       : a->kind == ACT_QUEUE ? queue_check(d, s, a, why)
		       : reinforce_check(d, s, a, why);
	case ACT_DISCARD:
		if (c->ops)
			return illegal(why, "%s is an OPS card: an OPS card is played, not discarded (6.32)", c->label);
		if (c->special)
			return illegal(why, "%s must be played as the event (6.34.A)", c->label);
		return ENGINE_OK;
	case ACT_EVENT:
		if (c->ops)
			return illegal(why, "%s is an OPS card, it has no event", c->label);
		if (c->side != CARD_SIDE_NONE &&
		    (int)c->side != (side == SIDE_AMERICAN ? CARD_SIDE_AMERICAN : CARD_SIDE_BRITISH))
			return illegal(why, "%s is a%s %s event: the %s can only discard it (6.32.A)", c->label,
				       c->side == CARD_SIDE_AMERICAN ? "n" : "",
				       c->side == CARD_SIDE_AMERICAN ? "American" : "British",
				       side_title(side));
		return events_check_play(d, s, side, a->card, why);
	default:
		BUG("play_check: kind %d", a->kind);
	}
}

void play_apply(const struct data *d, struct state *s, const struct action *a,
		struct rng *r, struct strbuf *log)
{
	enum side side = s->prompt.side;
	const struct data_card *c = card(d, a->card);

	hand_remove(s, side, a->card);
	s->impulse++;
	if (a->kind != ACT_QUEUE && a->kind != ACT_ACTIVATE)
		queue_abandon(d, s, side, log);
	switch (a->kind) {
	case ACT_ACTIVATE:
		activate_apply(d, s, a, log);
		return;
	case ACT_QUEUE:
		queue_apply(d, s, a, r, log);
		return;
	case ACT_REINFORCE:
		reinforce_apply(d, s, a, log);
		return;
	case ACT_PC_CARD:
		elog(log, "%s plays %s to place PC markers.", side_title(side), c->label);
		discard_push(s, a->card);
		remember_british_pcs(d, s);
		flow_prompt(s, PROMPT_PC, side, a->card, c->ops);
		return;
	case ACT_DISCARD:
		elog(log, "%s discards %s.", side_title(side), c->label);
		discard_push(s, a->card);
		if (c->reshuffle == RESHUFFLE_WHEN_DISCARDED) {
			s->reshuffle = true;
			elog(log, "#%d calls for a reshuffle at the next deal (6.1.B).", a->card);
		}
		flow_prompt(s, PROMPT_DISCARD, side, a->card, 1);
		return;
	case ACT_EVENT:
		elog(log, "%s plays the event %s.", side_title(side), c->label);
		/* Declaration of Independence, Benjamin Franklin (6.34.C.i) */
		if (s->tournament && side == SIDE_BRITISH && c->special &&
		    !c->war_ends_year)
			s->extra_action = true;
		if (events_play(d, s, r, a->card, side, log))
			flow_end_card(d, s, r, log, 0);
		return;
	default:
		BUG("play_apply: kind %d", a->kind);
	}
}

/* move CARD GENERAL: each card of the hand (in number order) with each
 * general. */
static void each_activation(const struct data *d, const struct state *s,
			    struct collect *c)
{
	int sorted[STATE_MAX_HAND], n = legal_hand_sorted(s, sorted);

	for (int i = 0; i < n; i++)
		for (int g = 0; g < d->n_generals; g++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_ACTIVATE;
			a.card = sorted[i];
			a.general = g;
			legal_add(d, s, c, &a);
		}
}

void play_legal(const struct data *d, const struct state *s,
		struct collect *c)
{
	legal_hand(d, s, c, ACT_PC_CARD);
	legal_hand(d, s, c, ACT_EVENT);
	legal_hand(d, s, c, ACT_DISCARD);
	each_activation(d, s, c);
	legal_hand(d, s, c, ACT_QUEUE);
	legal_hand(d, s, c, ACT_REINFORCE);
}

void play_describe(const struct data *d, const struct state *s,
		   struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	const char *who = side_title(p->side);
	(void)d;

	strbuf_addf(out, "%s: play a card (%d, card %d of the turn; %d in hand).",
		    who, s->year, s->impulse + 1, s->n_hand[p->side]);
	if (s->n_queue[p->side])
		strbuf_addf(out, " The Operations Queue holds %d card%s: 'queue' or 'move' plays into it, any other play abandons it.",
			    s->n_queue[p->side], s->n_queue[p->side] == 1 ? "" : "s");
}

/* 6.32.C: which OPS cards may be given in exchange. */
static bool exchange_card_ok(const struct data *d, enum side side, int n)
{
	int ops = card(d, n)->ops;

	return side == SIDE_AMERICAN ? ops >= 2 : ops >= 1;
}

enum engine_result exchange_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why)
{
	enum side side = s->prompt.side;

	if (a->card < 1 || a->card > d->n_cards)
		return illegal(why, "no card #%d", a->card);
	if (hand_find(s, side, a->card) < 0)
		return illegal(why, "%s is not in your hand", card(d, a->card)->label);
	if (!card(d, a->card)->ops)
		return illegal(why, "%s is not an OPS card (6.32.C)", card(d, a->card)->label);
	if (!exchange_card_ok(d, side, a->card))
		return illegal(why, "the American must give a 2 or 3 OPS card in exchange (6.32.C)");
	return ENGINE_OK;
}

void exchange_apply(const struct data *d, struct state *s,
		    const struct action *a, struct strbuf *log)
{
	enum side side = s->prompt.side;
	int taken = s->prompt.card;

	if (s->n_discard == 0 || s->discard[s->n_discard - 1] != taken)
		BUG("the discarded event #%d is not on top of the discard pile", taken);
	s->n_discard--;
	hand_remove(s, side, a->card);
	discard_push(s, a->card);
	hand_add(s, side, taken);
	elog(log, "%s gives %s to take %s (6.32.C).", side_title(side),
	     card(d, a->card)->label, card(d, taken)->label);
}
