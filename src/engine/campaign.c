/*
 * campaign.c - the Major and Minor Campaigns (7.2.A, 7.4.E), the British
 * Landing Party (7.2.B) and John Glover's one activation (7.3.C).
 *
 * The event sets PROMPT_CAMPAIGN: each answer activates one general (his
 * whole activation, battles included, is done before the next answer) or
 * takes the Landing Party, until the activations are used or the player
 * says `done`. Every activation ends with flow_end_card, which hands back
 * here first (campaign_continue): the card itself ends, with its
 * replacement draws (9.45) and the French alliance (12.2.B), only after
 * the last activation.
 */
#include "internal.h"

#include <string.h>

bool campaign_for(const struct state *s, int card)
{
	return s->campaign.card && s->campaign.card == card;
}

int campaign_allowance(const struct state *s)
{
	return s->move.active && campaign_for(s, s->move.card)
	       ? s->campaign.allowance : 0;
}

int campaign_free_cus(const struct state *s, int space, enum side side)
{
	int n = side_cus(s, space, side), done = s->campaign.done[space];

	if (!s->campaign.card || s->campaign.side != side ||
	    !s->move.active || !campaign_for(s, s->move.card))
		return n;
	return done < n ? n - done : 0;
}

void campaign_moved(struct state *s, int from, int to, int n)
{
	struct campaign *c = &s->campaign;

	if (!c->card || !s->move.active || !campaign_for(s, s->move.card))
		return;
	c->mine[from] -= (uint8_t)(c->mine[from] < n ? c->mine[from] : n);
	c->mine[to] = (uint8_t)(c->mine[to] + n > 255 ? 255 : c->mine[to] + n);
}

/* May the general be activated by the campaign (7.2.A, 7.4.E)? */
static enum engine_result general_check(const struct data *d,
					const struct state *s, int g,
					struct strbuf *why)
{
	const struct campaign *c = &s->campaign;
	const struct data_general *gd;

	if (g < 0 || g >= d->n_generals)
		return illegal(why, "name the general to activate: 'move %d GENERAL' (7.2.A)", c->card);
	gd = &d->generals[g];
	if (gd->side != c->side)
		return illegal(why, "%s is %s general", gd->name, side_article(gd->side));
	if (s->general[g] < 0)
		return illegal(why, "%s is not on the map", gd->name);
	if (c->generals & (1u << g))
		return illegal(why, "%s has already been activated with %s: a general only once per campaign (7.2.A, 7.4.E)",
			       gd->name, d->cards[c->card].label);
	return ENGINE_OK;
}

/* The port of a Landing Party (7.2.B): place a British PC or flip an
 * American one. */
static enum engine_result landing_space(const struct data *d,
					const struct state *s,
					enum action_kind kind, int sp,
					struct strbuf *why)
{
	if (sp < 0 || sp >= d->n_spaces)
		return illegal(why, "no such space");
	if (!d->spaces[sp].port)
		return illegal(why, "'%s' is not a port: a Landing Party lands in a port (7.2.B)",
			       space_name(d, sp));
	if (d->spaces[sp].fortified)
		return illegal(why, "'%s' is a fortified port: no Landing Party there (7.2.B, 2.1.C)",
			       space_name(d, sp));
	if (port_blockaded(d, s, sp))
		return illegal(why, "'%s' is in a Blockaded Zone: no Landing Party there (7.2.B, 12.3)",
			       space_name(d, sp));
	if (kind == ACT_FLIP) {
		if (s->space[sp].pc != SIDE_AMERICAN)
			return illegal(why, "'%s' holds no American PC to flip (7.2.B)", space_name(d, sp));
		if (side_cus(s, sp, SIDE_AMERICAN) > 0 ||
		    general_of_side_at(d, s, sp, SIDE_AMERICAN) >= 0 || s->congress == sp)
			return illegal(why, "'%s' holds an American general, CU or the Congress: no Landing Party flip (7.2.B)",
				       space_name(d, sp));
		return ENGINE_OK;
	}
	if (s->space[sp].pc != SIDE_NONE || has_american_unit(d, s, sp) ||
	    has_british_unit(d, s, sp))
		return illegal(why, "'%s' is not empty: the Landing Party places a PC only in an empty port (7.2.B)",
			       space_name(d, sp));
	return ENGINE_OK;
}

static enum engine_result landing_check(const struct data *d,
					const struct state *s,
					enum action_kind kind, int sp,
					struct strbuf *why)
{
	const struct campaign *c = &s->campaign;

	if (c->allowance || c->side != SIDE_BRITISH)
		return illegal(why, "only a British campaign card allows a Landing Party (7.2.B)");
	if (c->landing)
		return illegal(why, "the Landing Party has been used: one per campaign card (7.2.B)");
	return landing_space(d, s, kind, sp, why);
}

enum engine_result campaign_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why)
{
	const struct campaign *c = &s->campaign;

	if (!c->card)
		BUG("a campaign prompt without a campaign");
	switch (a->kind) {
	case ACT_DONE:
		return ENGINE_OK;
	case ACT_ACTIVATE:
		if (a->card != c->card)
			return illegal(why, "the campaign activates with its own card: 'move %d GENERAL' (7.2.A)",
				       c->card);
		return general_check(d, s, a->general, why);
	case ACT_PLACE:
	case ACT_FLIP:
		return landing_check(d, s, a->kind, a->space, why);
	default:
		return illegal(why, "'%s' does not answer this prompt; expected 'move', 'place', 'flip' or 'done'",
			       action_verb(a->kind));
	}
}

void campaign_apply(const struct data *d, struct state *s,
		    const struct action *a, struct rng *r, struct strbuf *log)
{
	struct campaign *c = &s->campaign;
	const char *label = d->cards[c->card].label;

	switch (a->kind) {
	case ACT_DONE:
		elog(log, "%s ends %s with %d activation%s unused (7.2.A).",
		     side_title(c->side), label, c->left, c->left == 1 ? "" : "s");
		c->left = 0;
		flow_end_card(d, s, r, log, 0);
		return;
	case ACT_ACTIVATE:
		c->generals |= 1u << a->general;
		c->left--;
		elog(log, "%s activates %s (%s, 7.2.A%s).", side_title(c->side),
		     d->generals[a->general].name, label,
		     c->allowance ? ", 7.3.C: up to six spaces, battles allowed" : "");
		activation_start(d, s, a->general, c->card, log);
		return;
	case ACT_PLACE:
	case ACT_FLIP:
		c->landing = true;
		c->left--;
		set_pc(d, s, a->space, SIDE_BRITISH, log, "(Landing Party, 7.2.B)");
		flow_end_card(d, s, r, log, 0);
		return;
	default:
		BUG("campaign_apply: kind %d", a->kind);
	}
}

void campaign_begin(const struct data *d, struct state *s, int card,
		    enum side side, int count, int allowance,
		    struct strbuf *log)
{
	struct campaign *c = &s->campaign;

	memset(c, 0, sizeof(*c));
	c->card = card;
	c->side = side;
	c->left = count;
	c->allowance = allowance;
	/* 9.44: the last card of the phase, whatever the order of activations. */
	c->last = s->n_hand[SIDE_AMERICAN] == 0 && s->n_hand[SIDE_BRITISH] == 0;
	s->intercepted = 0;	/* one attempt per Army for the whole card (7.8.E) */
	elog(log, "%s: %s may activate %d general%s one after another (%s).",
	     d->cards[card].label, side_title(side), count, count == 1 ? "" : "s",
	     allowance ? "7.3.C" : "7.2.A");
	flow_prompt(s, PROMPT_CAMPAIGN, side, card, count);
}

bool campaign_continue(const struct data *d, struct state *s,
		       struct strbuf *log)
{
	struct campaign *c = &s->campaign;

	if (!c->card)
		return false;
	for (int i = 0; i < DATA_MAX_SPACES; i++) {
		int n = c->done[i] + c->mine[i];
		c->done[i] = (uint8_t)(n > 255 ? 255 : n);
		c->mine[i] = 0;
	}
	if (c->left > 0 && !engine_game_over(s) && !victory_automatic(d, s, log)) {
		flow_prompt(s, PROMPT_CAMPAIGN, c->side, c->card, c->left);
		return true;
	}
	if (!engine_game_over(s))
		elog(log, "%s is over.", d->cards[c->card].label);
	memset(c, 0, sizeof(*c));
	return engine_game_over(s);
}

bool campaign_possible(const struct data *d, const struct state *s,
		       enum side side, bool glover)
{
	for (int g = 0; g < d->n_generals; g++)
		if (d->generals[g].side == side && s->general[g] >= 0)
			return true;
	if (glover || side != SIDE_BRITISH)
		return false;
	for (int i = 0; i < d->n_spaces; i++)
		if (landing_space(d, s, ACT_PLACE, i, NULL) == ENGINE_OK ||
		    landing_space(d, s, ACT_FLIP, i, NULL) == ENGINE_OK)
			return true;
	return false;
}

void campaign_legal(const struct data *d, const struct state *s,
		    struct collect *c)
{
	for (int g = 0; g < d->n_generals; g++) {
		struct action a = ACTION_INIT;
		a.kind = ACT_ACTIVATE;
		a.card = s->prompt.card;
		a.general = g;
		legal_add(d, s, c, &a);
	}
	legal_spaces(d, s, c, ACT_PLACE);
	legal_spaces(d, s, c, ACT_FLIP);
	legal_simple(d, s, c, ACT_DONE);
}

void campaign_describe_prompt(const struct data *d, const struct state *s,
			      struct strbuf *out)
{
	const struct campaign *c = &s->campaign;

	strbuf_addf(out, "%s: %s: activate a general with 'move %d GENERAL' (%d left)",
		    side_title(c->side), d->cards[c->card].label, c->card, c->left);
	if (c->side == SIDE_BRITISH && !c->allowance && !c->landing)
		strbuf_addstr(out, ", or a Landing Party with 'place PORT' or 'flip PORT' (7.2.B)");
	strbuf_addstr(out, ", or 'done'.");
}
