/*
 * alliance.c - the French alliance (12.2), the French Navy and the French
 * Naval Phase (5.5, 12.3), and the European War in the End Phase
 * (12.2.B.iii, 5.7).
 *
 * The prompts:
 *   PROMPT_NAVY (American): `navy ZONE`. step 0: placement at the
 *     alliance (12.2.B.i), card = the discarded event whose exchange is
 *     still to be offered, 0 if none; step 1: the French Naval Phase (5.5);
 *     step 2: an event that moves the navy at once (de Grasse), card = it.
 *   PROMPT_FRENCH (American): `french PORT`, Rochambeau and the French CUs
 *     (12.2.B.ii); card as above.
 *   PROMPT_WAR (British): `remove SPACE`, one British CU at a time, left =
 *     how many are still to go (12.2.B.iii).
 *
 * The blockade itself (12.3) is port_blockaded() in movement.c, used for
 * British reinforcements (reinforce.c), naval movement (movement.c),
 * retreat by sea and Royal Navy support (battle.c).
 */
#include "internal.h"

bool alliance_due(const struct state *s)
{
	return !s->french_allied && s->french_alliance >= 9;
}

bool french_port_ok(const struct data *d, const struct state *s, int space)
{
	int g;

	if (space < 0 || space >= d->n_spaces || !d->spaces[space].port)
		return false;
	if (s->space[space].cu[NATION_BRITISH] > 0 || s->space[space].pc == SIDE_BRITISH)
		return false;
	/* Washington never makes way for another general (7.4.C, 8.2.C). */
	g = general_of_side_at(d, s, space, SIDE_AMERICAN);
	return g < 0 || !d->generals[g].never_to_reinforcements;
}

static bool any_french_port(const struct data *d, const struct state *s)
{
	for (int i = 0; i < d->n_spaces; i++)
		if (french_port_ok(d, s, i))
			return true;
	return false;
}

void alliance_begin(const struct data *d, struct state *s, struct strbuf *log,
		    int discarded_event)
{
	(void)d;
	s->french_allied = true;
	s->alliance_this_turn = true;
	elog(log, "The French Alliance marker reaches 9: France signs an alliance with the Americans (12.2.A).");
	elog(log, "The European War breaks out in the End Phase of %d (12.2.B.iii); the deck is reshuffled at the end of the turn (12.2.B.iv).",
	     s->year);
	flow_prompt(s, PROMPT_NAVY, SIDE_AMERICAN, discarded_event, 0);
	s->prompt.step = 0;
}

/* 12.2.B.ii: Rochambeau and the French CUs to a port, or to the American
 * Reinforcements box if there is none; then the card play is over. */
static void french_forces(const struct data *d, struct state *s, struct rng *r,
			  struct strbuf *log, int discarded_event)
{
	if (any_french_port(d, s)) {
		flow_prompt(s, PROMPT_FRENCH, SIDE_AMERICAN, discarded_event, 0);
		return;
	}
	for (int g = 0; g < d->n_generals; g++) {
		if (d->generals[g].nation == NATION_FRENCH &&
		    s->general[g] == LOC_FRENCH_BOX) {
			s->general[g] = LOC_REINFORCEMENTS;
			elog(log, "%s goes to the American Reinforcements box.",
			     d->generals[g].name);
		}
	}
	elog(log, "No port without a British CU or PC: the %d French CU%s wait%s in the American Reinforcements box (12.2.B.ii).",
	     s->box_cu[NATION_FRENCH], s->box_cu[NATION_FRENCH] == 1 ? "" : "s",
	     s->box_cu[NATION_FRENCH] == 1 ? "s" : "");
	flow_end_card(d, s, r, log, discarded_event);
}

void french_land(const struct data *d, struct state *s, int space,
		 struct strbuf *log, const char *why)
{
	int n = s->box_cu[NATION_FRENCH];

	s->space[space].cu[NATION_FRENCH] += n;
	s->box_cu[NATION_FRENCH] = 0;
	elog(log, "%d French CU%s arrive%s in %s (%s).", n, n == 1 ? "" : "s",
	     n == 1 ? "s" : "", space_name(d, space), why);
	for (int g = 0; g < d->n_generals; g++) {
		int old;
		if (d->generals[g].nation != NATION_FRENCH ||
		    (s->general[g] != LOC_FRENCH_BOX && s->general[g] != LOC_REINFORCEMENTS))
			continue;
		old = general_of_side_at(d, s, space, SIDE_AMERICAN);
		if (old >= 0) {
			if (d->generals[old].never_to_reinforcements)
				BUG("French forces landing on %s", d->generals[old].name);
			s->general[old] = LOC_REINFORCEMENTS;
			elog(log, "%s makes way and goes to the Reinforcements box (8.2.C).",
			     d->generals[old].name);
		}
		s->general[g] = space;
		elog(log, "%s arrives in %s.", d->generals[g].name, space_name(d, space));
	}
	/* An American arrival never waits for a British choice. */
	if (arrival(d, s, space, SIDE_AMERICAN, n > 0, 0, log))
		BUG("an American arrival asked for a capture prompt");
}

/* How many British CUs are on the map. */
static int british_on_map(const struct data *d, const struct state *s)
{
	int n = 0;

	for (int i = 0; i < d->n_spaces; i++)
		n += s->space[i].cu[NATION_BRITISH];
	return n;
}

bool european_war_begin(const struct data *d, struct state *s,
			struct strbuf *log)
{
	int n = british_on_map(d, s);

	if (!s->alliance_this_turn)
		return false;
	elog(log, "The European War breaks out (12.2.B.iii, 5.7).");
	if (n == 0) {
		elog(log, "No British CU is on the map: none is removed.");
		return false;
	}
	flow_prompt(s, PROMPT_WAR, SIDE_BRITISH, 0, n < 2 ? n : 2);
	return true;
}

/* PROMPT_NAVY: the French Navy placed (12.2.B.i), relocated in the French
 * Naval Phase (5.5, 12.3) or moved by a card (step 2). */
enum engine_result alliance_navy_check(const struct data *d,
				       const struct state *s,
				       const struct action *a,
				       struct strbuf *why)
{
	(void)s;
	if (a->space < 0 || a->space >= d->n_zones)
		return illegal(why, "no such blockade zone (12.3)");
	return ENGINE_OK;
}

void alliance_navy_apply(const struct data *d, struct state *s,
			 const struct action *a, struct rng *r,
			 struct strbuf *log)
{
	struct prompt p = s->prompt;

	if (s->french_navy == a->space)
		elog(log, "The French Navy stays in the %s zone (5.5).",
		     d->zones[a->space].name);
	else if (p.step == 2)
		elog(log, "The French Navy moves to the %s zone (%s).",
		     d->zones[a->space].name, d->cards[p.card].label);
	else
		elog(log, "The French Navy %s the %s zone (%s).",
		     p.step ? "moves to" : "is placed in",
		     d->zones[a->space].name, p.step ? "5.5, 12.3" : "12.2.B.i");
	s->french_navy = a->space;
	if (p.step == 2)
		flow_end_card(d, s, r, log, 0);
	else if (p.step == 1)
		flow_after_navy(d, s, r, log);
	else
		french_forces(d, s, r, log, p.card);
}

void alliance_navy_legal(const struct data *d, const struct state *s,
			 struct collect *c)
{
	for (int z = 0; z < d->n_zones; z++) {
		struct action a = ACTION_INIT;
		a.kind = ACT_NAVY;
		a.space = z;
		legal_add(d, s, c, &a);
	}
}

void alliance_navy_describe(const struct data *d, const struct state *s,
			    struct strbuf *out)
{
	const struct prompt *p = &s->prompt;

	if (p->step == 0)
		strbuf_addstr(out, "American: the French alliance: place the French Navy in a Blockade Zone: 'navy ZONE' (12.2.B.i).");
	else if (p->step == 2)
		strbuf_addf(out, "%s: %s: move the French Navy to a Blockade Zone: 'navy ZONE'%s.",
			    side_title(p->side), d->cards[p->card].label,
			    s->french_navy >= 0 ? ", its present zone to leave it" : "");
	else if (s->french_navy >= 0)
		strbuf_addf(out, "American: French Naval Phase: relocate the French Navy, or keep it with 'navy %s' (5.5).",
			    d->zones[s->french_navy].name);
	else
		strbuf_addstr(out, "American: French Naval Phase: place the French Navy in a Blockade Zone: 'navy ZONE' (5.5, 12.3).");
}

/* PROMPT_FRENCH: Rochambeau and the French CUs arrive (12.2.B.ii). */
enum engine_result alliance_french_check(const struct data *d,
					 const struct state *s,
					 const struct action *a,
					 struct strbuf *why)
{
	if (a->space < 0 || a->space >= d->n_spaces)
		return illegal(why, "no such space");
	if (!d->spaces[a->space].port)
		return illegal(why, "'%s' is not a port: the French forces arrive in a port (12.2.B.ii)",
			       space_name(d, a->space));
	if (s->space[a->space].cu[NATION_BRITISH] > 0)
		return illegal(why, "'%s' holds British CUs (12.2.B.ii)", space_name(d, a->space));
	if (s->space[a->space].pc == SIDE_BRITISH)
		return illegal(why, "'%s' holds a British PC (12.2.B.ii)", space_name(d, a->space));
	if (!french_port_ok(d, s, a->space))
		return illegal(why, "Washington is in '%s' and never makes way for Rochambeau (7.4.C, 8.2.C)",
			       space_name(d, a->space));
	return ENGINE_OK;
}

void alliance_french_apply(const struct data *d, struct state *s,
			   const struct action *a, struct rng *r,
			   struct strbuf *log)
{
	int card = s->prompt.card;

	french_land(d, s, a->space, log, "12.2.B.ii");
	flow_end_card(d, s, r, log, card);
}

void alliance_french_legal(const struct data *d, const struct state *s,
			   struct collect *c)
{
	legal_spaces(d, s, c, ACT_FRENCH);
}

void alliance_french_describe(const struct data *d, const struct state *s,
			      struct strbuf *out)
{
	(void)d;
	strbuf_addf(out, "American: place Rochambeau and the %d French CU%s in a port without British CU or PC: 'french PORT' (12.2.B.ii).",
		    s->box_cu[NATION_FRENCH], s->box_cu[NATION_FRENCH] == 1 ? "" : "s");
}

/* PROMPT_WAR: the European War takes British CUs off the map (12.2.B.iii). */
enum engine_result alliance_war_check(const struct data *d,
				      const struct state *s,
				      const struct action *a,
				      struct strbuf *why)
{
	if (a->space < 0 || a->space >= d->n_spaces)
		return illegal(why, "no such space");
	if (s->space[a->space].cu[NATION_BRITISH] == 0)
		return illegal(why, "'%s' holds no British CU: the European War removes British CUs from the map (12.2.B.iii)",
			       space_name(d, a->space));
	return ENGINE_OK;
}

void alliance_war_apply(const struct data *d, struct state *s,
			const struct action *a, struct rng *r,
			struct strbuf *log)
{
	s->space[a->space].cu[NATION_BRITISH]--;
	elog(log, "The British remove a CU from %s for the European War (12.2.B.iii).",
	     space_name(d, a->space));
	s->prompt.left--;
	if (s->prompt.left > 0 && british_on_map(d, s) > 0)
		return;
	elog(log, "The European War is in effect (12.2.B.iii).");
	flow_end_phase(d, s, r, log);
}

void alliance_war_legal(const struct data *d, const struct state *s,
			struct collect *c)
{
	legal_spaces(d, s, c, ACT_REMOVE);
}

void alliance_war_describe(const struct data *d, const struct state *s,
			   struct strbuf *out)
{
	const struct prompt *p = &s->prompt;

	(void)d;
	strbuf_addf(out, "British: the European War: remove %d British CU%s from the map, one at a time: 'remove SPACE' (12.2.B.iii).",
		    p->left, p->left == 1 ? "" : "s");
}
