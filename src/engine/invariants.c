/*
 * invariants.c - what must hold in every state, whatever the rules did.
 * Self-play and the tests check these after every action.
 */
#include "internal.h"

#include <stdio.h>

static int bad(struct strbuf *why, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int bad(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		strbuf_vaddf(why, fmt, ap);
		va_end(ap);
		strbuf_addch(why, '\n');
	}
	return 1;
}

/*
 * A slot (a peer game, docs/peer.md 12) counts as a card: it must be of a
 * generation the deck has had, and nowhere twice. Returns the faults.
 */
static int count_slot(const struct state *s, int v, int slots[DATA_MAX_CARDS],
		      int *n_slots, struct strbuf *why)
{
	int g = CARD_SLOT_GEN(v), i = CARD_SLOT_POS(v);

	if (g < 1 || g > s->peer.generation)
		return bad(why, "slot s%d.%d of a generation the deck has not had", g, i);
	for (int k = 0; k < *n_slots; k++)
		if (slots[k] == v)
			return bad(why, "slot s%d.%d is in two places", g, i);
	if (*n_slots >= DATA_MAX_CARDS)
		return bad(why, "more slots than cards");
	slots[(*n_slots)++] = v;
	return 0;
}

int engine_invariants(const struct data *d, const struct state *s,
		      struct strbuf *why)
{
	int n = 0, seen[DATA_MAX_CARDS + 1] = { 0 }, total = 0;
	int slots[DATA_MAX_CARDS], n_slots = 0;
	int on_map[3] = { 0, 0, 0 };

	for (int i = 0; i < d->n_spaces; i++) {
		const struct space_state *sp = &s->space[i];
		for (int k = 0; k < 3; k++) {
			if (sp->cu[k] < 0)
				n += bad(why, "negative CUs in %s", space_name(d, i));
			on_map[k] += sp->cu[k];
		}
		if ((int)sp->pc < 0 || sp->pc > SIDE_BRITISH)
			n += bad(why, "bad PC value in %s", space_name(d, i));
		int gen[3] = { 0, 0, 0 };
		for (int g = 0; g < d->n_generals; g++)
			if (s->general[g] == i)
				gen[d->generals[g].side]++;
		/* A moving general passes through friendly generals, and alone
		 * through an enemy general alone (7.4.A, 7.4.C). */
		bool passing = s->move.active && s->move.general >= 0 &&
			       s->move.general < d->n_generals &&
			       s->general[s->move.general] == i;
		/* an interception puts a second general in the space until the
		 * battle (7.8.D); both sides meet in a battle's space */
		bool battle = s->battle.active && s->battle.space == i;
		/* an automatic victory stops the game the instant it holds,
		 * maybe in the middle of a step (13.1, R14) */
		bool stopped = s->end == END_AUTO_BRITISH || s->end == END_AUTO_AMERICAN;
		/* the owner is asked which of two goes (7.4.C) */
		bool asked = s->prompt.kind == PROMPT_GENERALS;
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH && !stopped; side++)
			if (gen[side] > 1 + ((passing && side == d->generals[s->move.general].side) ||
					     (asked && side == s->prompt.side)))
				n += bad(why, "%d %s generals in %s", gen[side],
					 side_name(side), space_name(d, i));
		if ((side_cus(s, i, SIDE_AMERICAN) || gen[SIDE_AMERICAN]) &&
		    (side_cus(s, i, SIDE_BRITISH) || gen[SIDE_BRITISH]) &&
		    !(passing && !side_cus(s, i, SIDE_AMERICAN) && !side_cus(s, i, SIDE_BRITISH)) &&
		    !battle && !stopped)
			n += bad(why, "both sides' units in %s outside a battle",
				 space_name(d, i));
	}
	for (int k = 0; k < 3; k++)
		if (d->cu_pool[k] && on_map[k] + s->box_cu[k] > d->cu_pool[k])
			n += bad(why, "%d CUs of nation %d in play, more than the %d counters",
				 on_map[k] + s->box_cu[k], k, d->cu_pool[k]);
	for (int g = 0; g < d->n_generals; g++)
		if (s->general[g] < LOC_FRENCH_BOX || s->general[g] >= d->n_spaces)
			n += bad(why, "general %s has a bad location %d",
				 d->generals[g].name, s->general[g]);
	if (s->move.active) {
		const struct move *m = &s->move;
		if (m->general < 0 || m->general >= d->n_generals || s->general[m->general] < 0)
			n += bad(why, "the moving general is not on the map");
		else if (m->carried[0] + m->carried[1] + m->carried[2] > 5)
			n += bad(why, "more than 5 CUs move with %s", d->generals[m->general].name);
		else
			for (int k = 0; k < 3; k++)
				if (m->carried[k] < 0 || m->carried[k] > s->space[s->general[m->general]].cu[k])
					n += bad(why, "%d CUs of nation %d move with %s, not on his space",
						 m->carried[k], k, d->generals[m->general].name);
		if (!(engine_prompt_blocks(s->prompt.kind) & (PB_MOVE | PB_MAY_MOVE)))
			n += bad(why, "a general is moving at prompt '%s'",
				 prompt_kind_name(s->prompt.kind));
	} else if (engine_prompt_blocks(s->prompt.kind) & PB_MOVE) {
		n += bad(why, "a %s prompt without a moving general",
			 prompt_kind_name(s->prompt.kind));
	}
	if (s->prompt.kind == PROMPT_CAMPAIGN &&
	    (!s->campaign.card || s->campaign.left < 1 || s->campaign.side != s->prompt.side))
		n += bad(why, "a campaign prompt without a campaign in progress of its side");
	if (s->campaign.card && (s->campaign.left < 0 || s->campaign.left > 3))
		n += bad(why, "a campaign with %d activations left", s->campaign.left);
	if (s->congress < -1 || s->congress >= d->n_spaces)
		n += bad(why, "bad Congress location %d", s->congress);
	if (s->french_alliance < 0 || s->french_alliance > 9)
		n += bad(why, "French Alliance track at %d, outside 0-9", s->french_alliance);

#define COUNT(arr, len) \
	for (int i = 0; i < (len); i++) { \
		int c = (arr)[i]; \
		if (CARD_IS_SLOT(c)) \
			n += count_slot(s, c, slots, &n_slots, why); \
		else if (c < 1 || c > d->n_cards) \
			n += bad(why, "bad card number %d", c); \
		else \
			seen[c]++; \
		total++; \
	}
	COUNT(s->deck, s->n_deck);
	COUNT(s->discard, s->n_discard);
	COUNT(s->removed, s->n_removed);
	COUNT(s->set_aside, s->n_set_aside);
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		if (s->n_hand[side] > 7)
			n += bad(why, "the %s hand holds %d cards", side_name(side),
				 s->n_hand[side]);
		COUNT(s->hand[side], s->n_hand[side]);
		COUNT(s->reinf_cards[side], s->n_reinf_cards[side]);
		COUNT(s->queue[side], s->n_queue[side]);
	}
#undef COUNT
	if (s->war_ends) {
		seen[s->war_ends]++;
		total++;
	}
	for (enum side side = SIDE_AMERICAN; s->battle.active && side <= SIDE_BRITISH; side++) {
		int c = s->battle.card[side];	/* held until the battle ends */
		if (c >= 1 && c <= d->n_cards) {
			seen[c]++;
			total++;
		}
	}
	if (s->prompt.kind != PROMPT_GENERALS &&
	    s->battle.active != (s->prompt.kind == PROMPT_INTERCEPT ||
				 s->prompt.kind == PROMPT_RETREAT_BEFORE ||
				 s->prompt.kind == PROMPT_BATTLE_CARD ||
				 s->prompt.kind == PROMPT_RETREAT ||
				 s->prompt.kind == PROMPT_LOSSES))
		n += bad(why, "a battle %s at prompt '%s'",
			 s->battle.active ? "in progress" : "missing",
			 prompt_kind_name(s->prompt.kind));
	if (s->prompt.kind == PROMPT_EXCHANGE || s->prompt.kind == PROMPT_DISCARD ||
	    s->prompt.kind == PROMPT_PC || s->prompt.kind == PROMPT_DOI) {
		/* the card being resolved is already on its pile */
	}
	if (total != d->n_cards)
		n += bad(why, "%d cards accounted for instead of %d", total, d->n_cards);
	for (int c = 1; c <= d->n_cards; c++)
		if (seen[c] > 1)
			n += bad(why, "card #%d is in %d places", c, seen[c]);
	/* a copy that holds slots of the deciding side's hand cannot list
	 * what that side may do with them (docs/peer.md 12): the check is
	 * for the view where that hand is known */
	bool unseen = false;
	for (int i = 0; s->prompt.kind != PROMPT_NONE && i < s->n_hand[s->prompt.side]; i++)
		unseen |= CARD_IS_SLOT(s->hand[s->prompt.side][i]);
	if (s->prompt.kind != PROMPT_NONE && !unseen && engine_legal(d, s, NULL, 0) == 0)
		n += bad(why, "no legal action at prompt '%s' (dead end)",
			 prompt_kind_name(s->prompt.kind));
	return n;
}
