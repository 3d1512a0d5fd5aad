/*
 * reinforce.c - bringing on reinforcements in the Strategy Phase with an
 * OPS card (8.1.B, 8.1.C for the British; 8.2.B, 8.2.C for the American).
 * The Reinforcements Phase itself (8.1.A, 8.2.A) is in flow.c.
 *
 * French forces (12.2.B.ii) held in the American Reinforcements box after
 * the alliance come all together, Rochambeau with every French CU, into
 * one port: 'land PORT N Rochambeau'.
 */
#include "internal.h"

#include <string.h>

/* American CUs in stock: neither on the map nor in a box (8.2.C). */
static int american_stock(const struct data *d, const struct state *s)
{
	int n = d->cu_pool[NATION_AMERICAN] - s->box_cu[NATION_AMERICAN] -
		state_cus_on_map(s, d, NATION_AMERICAN);

	return n > 0 ? n : 0;
}

/* How many CUs side could bring on with card (the British: all in the
 * box, any number of them; the American: the card's value). */
static int arriving(const struct data *d, const struct state *s,
		    enum side side, int card)
{
	int stock;

	if (side == SIDE_BRITISH)
		return s->box_cu[NATION_BRITISH];
	stock = american_stock(d, s);
	return d->cards[card].ops < stock ? d->cards[card].ops : stock;
}

/* Is this landing the French forces waiting in the American box (a French
 * general, with French CUs in the box; 12.2.B.ii)? */
static bool french_landing(const struct data *d, const struct state *s,
			   enum side side, int g)
{
	return side == SIDE_AMERICAN && g >= 0 && g < d->n_generals &&
	       d->generals[g].nation == NATION_FRENCH &&
	       s->box_cu[NATION_FRENCH] > 0;
}

/*
 * Can n CUs (and general g, or -1) of side land in space? count is the
 * American's fixed number (8.2.C); the British may land 0 to all.
 */
static enum engine_result land_ok(const struct data *d, const struct state *s,
				  enum side side, int space, int n, int g,
				  int count, struct strbuf *why)
{
	const char *name;
	int old, eg;

	if (space < 0 || space >= d->n_spaces)
		return illegal(why, "no such space");
	name = space_name(d, space);
	if (side == SIDE_BRITISH) {
		if (!d->spaces[space].port)
			return illegal(why, "'%s' is not a port: British reinforcements land in a port (8.1.C)", name);
		if (port_blockaded(d, s, space))
			return illegal(why, "'%s' is in a Blockaded Zone (8.1.C, 12.3)", name);
		if (side_cus(s, space, SIDE_AMERICAN) > 0)
			return illegal(why, "'%s' holds American CUs (8.1.C)", name);
		if (s->space[space].pc == SIDE_AMERICAN)
			return illegal(why, "'%s' holds an American PC (8.1.C)", name);
		if (n < 0 || n > s->box_cu[NATION_BRITISH])
			return illegal(why, "the Reinforcements box holds %d British CU%s: land 0 to %d (8.1.C)",
				       s->box_cu[NATION_BRITISH],
				       s->box_cu[NATION_BRITISH] == 1 ? "" : "s",
				       s->box_cu[NATION_BRITISH]);
	} else if (french_landing(d, s, side, g)) {
		if (!s->french_allied)
			return illegal(why, "the French forces arrive only with the French alliance (12.2.B.ii)");
		if (!d->spaces[space].port)
			return illegal(why, "'%s' is not a port: the French forces arrive in a port (12.2.B.ii)", name);
		if (side_cus(s, space, SIDE_BRITISH) > 0)
			return illegal(why, "'%s' holds British CUs (12.2.B.ii)", name);
		if (s->space[space].pc == SIDE_BRITISH)
			return illegal(why, "'%s' holds a British PC (12.2.B.ii)", name);
		if (n != s->box_cu[NATION_FRENCH])
			return illegal(why, "all the French forces arrive together: 'land %s %d %s' (12.2.B.ii)",
				       name, s->box_cu[NATION_FRENCH], d->generals[g].name);
	} else {
		if (side_cus(s, space, SIDE_BRITISH) > 0)
			return illegal(why, "'%s' holds British CUs (8.2.C)", name);
		if (s->space[space].pc == SIDE_BRITISH)
			return illegal(why, "'%s' holds a British PC (8.2.C)", name);
		if (n != count)
			return illegal(why, "#%d brings exactly %d American CU%s: 'land %s %d' (8.2.C)",
				       s->prompt.card, count, count == 1 ? "" : "s", name, count);
	}
	if (g >= 0) {
		const struct data_general *gd;
		if (g >= d->n_generals)
			return illegal(why, "no such general");
		gd = &d->generals[g];
		if (gd->side != side)
			return illegal(why, "%s is %s general", gd->name, side_article(gd->side));
		if (gd->nation == NATION_FRENCH && !s->french_allied)
			return illegal(why, "the French forces arrive only with the French alliance (12.2.B.ii)");
		if (s->general[g] != LOC_REINFORCEMENTS)
			return illegal(why, "%s is not in the Reinforcements box (%s)", gd->name,
				       side == SIDE_BRITISH ? "8.1.C" : "8.2.C");
		old = general_of_side_at(d, s, space, side);
		if (old >= 0 && d->generals[old].never_to_reinforcements)
			return illegal(why, "%s is in %s and may never go to the Reinforcements box: "
				       "no general may come with reinforcements to his space (8.2.C)",
				       d->generals[old].name, name);
	}
	if (n == 0 && g < 0)
		return illegal(why, "nothing would arrive: land CUs, a general or both");
	if (n == 0 && (eg = lone_general_at(d, s, space, OTHER_SIDE(side))) >= 0)
		return illegal(why, "a general alone cannot arrive where %s is (7.4.A): he would need CUs to capture him (8.2.C)",
			       d->generals[eg].name);
	return ENGINE_OK;
}

/* Is there any landing at all for side with card? */
static bool land_possible(const struct data *d, const struct state *s,
			  enum side side, int card)
{
	int n = arriving(d, s, side, card);

	for (int i = 0; i < d->n_spaces; i++) {
		if (n > 0 && land_ok(d, s, side, i, n, -1, n, NULL) == ENGINE_OK)
			return true;
		for (int g = 0; g < d->n_generals; g++) {
			int k = french_landing(d, s, side, g) ? s->box_cu[NATION_FRENCH] : n;
			if (land_ok(d, s, side, i, k, g, n, NULL) == ENGINE_OK)
				return true;
		}
	}
	return false;
}

enum engine_result reinforce_check(const struct data *d, const struct state *s,
				   const struct action *a, struct strbuf *why)
{
	enum side side = s->prompt.side;

	if (side == SIDE_BRITISH && s->n_reinf_cards[side] >= 1)
		return illegal(why, "the British bring on reinforcements once per turn, and #%d is in the box (8.1.B)",
			       s->reinf_cards[side][0]);
	if (side == SIDE_AMERICAN && s->n_reinf_cards[side] >= 2)
		return illegal(why, "the American brings on reinforcements twice per turn, and both boxes are full (8.2.B)");
	if (!land_possible(d, s, side, a->card))
		return illegal(why, "there are no reinforcements to bring on, or nowhere they may arrive (%s)",
			       side == SIDE_BRITISH ? "8.1.C" : "8.2.C");
	return ENGINE_OK;
}

void reinforce_apply(const struct data *d, struct state *s,
		     const struct action *a, struct strbuf *log)
{
	enum side side = s->prompt.side;

	s->reinf_cards[side][s->n_reinf_cards[side]++] = a->card;
	elog(log, "%s plays %s into the Reinforcement Card box (%s).", side_title(side),
	     d->cards[a->card].label, side == SIDE_BRITISH ? "8.1.B" : "8.2.B");
	flow_prompt(s, PROMPT_LAND, side, a->card, arriving(d, s, side, a->card));
}

enum engine_result land_check(const struct data *d, const struct state *s,
			      const struct action *a, struct strbuf *why)
{
	return land_ok(d, s, s->prompt.side, a->space, a->value, a->general,
		       s->prompt.left, why);
}

void land_apply(const struct data *d, struct state *s, const struct action *a,
		struct rng *r, struct strbuf *log)
{
	enum side side = s->prompt.side;
	int sp = a->space, n = a->value, g = a->general;

	if (french_landing(d, s, side, g)) {
		french_land(d, s, sp, log, "12.2.B.ii");
		flow_end_card(d, s, r, log, 0);
		return;
	}
	if (side == SIDE_BRITISH) {
		s->box_cu[NATION_BRITISH] -= n;
		s->space[sp].cu[NATION_BRITISH] += n;
	} else {
		s->space[sp].cu[NATION_AMERICAN] += n;
	}
	if (n)
		elog(log, "%d %s CU%s arrive%s in %s (%s).", n, side_title(side),
		     n == 1 ? "" : "s", n == 1 ? "s" : "", space_name(d, sp),
		     side == SIDE_BRITISH ? "8.1.C" : "8.2.C");
	if (g >= 0) {
		int old = general_of_side_at(d, s, sp, side);
		if (old >= 0) {
			s->general[old] = LOC_REINFORCEMENTS;
			elog(log, "%s makes way and goes to the Reinforcements box (%s).",
			     d->generals[old].name, side == SIDE_BRITISH ? "8.1.C" : "8.2.C");
		}
		s->general[g] = sp;
		elog(log, "%s arrives in %s.", d->generals[g].name, space_name(d, sp));
	}
	if (!arrival(d, s, sp, side, n > 0, s->prompt.card, log))
		flow_end_card(d, s, r, log, 0);
}

/* PROMPT_LAND: each space, number of CUs and general (or none). */
void land_legal(const struct data *d, const struct state *s,
		struct collect *c)
{
	int max = s->prompt.side == SIDE_BRITISH ? s->box_cu[NATION_BRITISH]
		  : s->prompt.left;

	/* The French forces land all together (12.2.B.ii). */
	if (s->prompt.side == SIDE_AMERICAN && s->box_cu[NATION_FRENCH] > max)
		max = s->box_cu[NATION_FRENCH];

	for (int i = 0; i < d->n_spaces; i++)
		for (int n = 0; n <= max; n++)
			for (int g = -1; g < d->n_generals; g++) {
				struct action a = ACTION_INIT;
				a.kind = ACT_LAND;
				a.space = i;
				a.value = n;
				a.general = g;
				legal_add(d, s, c, &a);
			}
}

void land_describe(const struct data *d, const struct state *s,
		   struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	(void)d;

	if (p->side == SIDE_BRITISH)
		strbuf_addf(out, "British: bring on reinforcements with #%d (%d CU%s in the box): 'land PORT N [GENERAL]'.",
			    p->card, s->box_cu[NATION_BRITISH], s->box_cu[NATION_BRITISH] == 1 ? "" : "s");
	else
		strbuf_addf(out, "American: bring on %d CU%s with #%d: 'land SPACE %d [GENERAL]'.",
			    p->left, p->left == 1 ? "" : "s", p->card, p->left);
}
