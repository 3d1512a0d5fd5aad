/*
 * battle.c - interception (7.8), retreat before battle (7.9), battles
 * (9.0 to 9.6, the seven steps of 9.2) and overruns (9.7).
 *
 * A battle starts when an activated general enters a space with enemy
 * CUs (movement.c calls battle_entered). s->battle holds what the prompts
 * between need: the space, where the attacker came from, the cards of
 * step 1 (held until the battle is over) and the losses so far.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const struct data_card *card_of(const struct data *d, int n)
{
	if (n < 1 || n > d->n_cards)
		BUG("card number %d out of range", n);
	return &d->cards[n];
}

/* "Americans", "British": a side as the subject of a sentence. */
static const char *side_plural(enum side side)
{
	return side == SIDE_AMERICAN ? "Americans" : "British";
}

static int b_space(const struct state *s)
{
	return s->battle.space;
}

static bool is_washington(const struct data *d, int g)
{
	return g >= 0 && d->generals[g].never_to_reinforcements;
}


/* Removes n CUs of side from space, American before French. Used only
 * where no choice is left: a surrender (all) or an overrun (the one CU). */
static int remove_cus(struct state *s, int space, enum side side, int n)
{
	int done = 0;
	static const enum nation order[2][2] = {
		{ NATION_AMERICAN, NATION_FRENCH }, { NATION_BRITISH, NATION_BRITISH }
	};
	const enum nation *o = order[side == SIDE_BRITISH];

	for (int k = 0; k < 2 && done < n; k++) {
		int *cu = &s->space[space].cu[o[k]];
		int take = *cu < n - done ? *cu : n - done;
		*cu -= take;
		done += take;
	}
	return done;
}

/* The French CUs that may be among n of the American side's CUs in
 * space: lo to hi. */
static void french_range(const struct state *s, int space, int n, int *lo,
			 int *hi)
{
	int am = s->space[space].cu[NATION_AMERICAN];
	int fr = s->space[space].cu[NATION_FRENCH];

	*lo = n - am > 0 ? n - am : 0;
	*hi = n < fr ? n : fr;
}

/* The player names the French among the (at most five) CUs that go with
 * an American general from space (7.8.C, 7.9.B, 12.2.C): french must be
 * possible. */
static enum engine_result french_ok(const struct data *d,
				    const struct state *s, int space,
				    int french, const char *verb,
				    struct strbuf *why)
{
	int n = side_cus(s, space, SIDE_AMERICAN), lo, hi;

	if (n > 5)
		n = 5;
	french_range(s, space, n, &lo, &hi);
	if (french >= lo && french <= hi)
		return ENGINE_OK;
	if (lo == hi)
		return illegal(why, "%d of the %d CUs going from %s are French: '%s ... %d' (12.2.C)",
			       lo, n, space_name(d, space), verb, lo);
	return illegal(why, "the %d CUs going from %s may include %d to %d French ones: '%s ... N', N the French (12.2.C)",
		       n, space_name(d, space), lo, hi, verb);
}

/* Moves up to five American CUs, french of them French, and general g
 * from one space to another (7.8.C, 7.9.B); returns the CUs moved. */
static int move_five(struct state *s, int from, int to, int g, int french)
{
	int n = side_cus(s, from, SIDE_AMERICAN);

	if (n > 5)
		n = 5;
	s->space[from].cu[NATION_FRENCH] -= french;
	s->space[to].cu[NATION_FRENCH] += french;
	s->space[from].cu[NATION_AMERICAN] -= n - french;
	s->space[to].cu[NATION_AMERICAN] += n - french;
	s->general[g] = to;
	return n;
}

/* Moves up to max CUs of side and general g (if >= 0) from one space to
 * another; returns the CUs moved. Used for retreats after battle, where
 * the whole force goes (9.61): no choice of nation. */
static int move_force(struct state *s, int from, int to, enum side side,
		      int g, int max)
{
	int moved = 0;
	static const enum nation order[2][2] = {
		{ NATION_AMERICAN, NATION_FRENCH }, { NATION_BRITISH, NATION_BRITISH }
	};
	const enum nation *o = order[side == SIDE_BRITISH];

	for (int k = 0; k < (side == SIDE_BRITISH ? 1 : 2) && moved < max; k++) {
		int n = s->space[from].cu[o[k]];
		if (n > max - moved)
			n = max - moved;
		s->space[from].cu[o[k]] -= n;
		s->space[to].cu[o[k]] += n;
		moved += n;
	}
	if (g >= 0)
		s->general[g] = to;
	return moved;
}

/* The space where two generals of side stand, or -1. */
static int generals_space(const struct data *d, const struct state *s,
			  enum side side)
{
	for (int g = 0; g < d->n_generals; g++) {
		if (d->generals[g].side != side || s->general[g] < 0)
			continue;
		for (int h = g + 1; h < d->n_generals; h++)
			if (s->general[h] == s->general[g] && d->generals[h].side == side)
				return s->general[g];
	}
	return -1;
}

bool generals_meet(const struct data *d, struct state *s, int space,
		   enum side side, enum generals_next next, int card,
		   struct strbuf *log)
{
	int two[2], n = 0;

	for (int g = 0; g < d->n_generals && n < 2; g++)
		if (s->general[g] == space && d->generals[g].side == side)
			two[n++] = g;
	if (n < 2)
		return false;
	if (is_washington(d, two[0]) || is_washington(d, two[1])) {
		int send = is_washington(d, two[0]) ? two[1] : two[0];
		s->general[send] = LOC_REINFORCEMENTS;
		elog(log, "%s goes to the Reinforcements box: Washington never does, and one general per side stays in %s (7.4.C).",
		     d->generals[send].name, space_name(d, space));
		return false;
	}
	flow_prompt(s, PROMPT_GENERALS, side, card, (int)next);
	return true;
}

/* Two generals of a side in a space after a retreat or an interception
 * (7.4.C, 7.8.D; R40): the owner chooses which goes (PROMPT_GENERALS,
 * true), unless one is Washington. */
static bool excess_general(const struct data *d, struct state *s, int space,
			   int arrived, enum generals_next next,
			   struct strbuf *log)
{
	if (arrived < 0)
		return false;
	return generals_meet(d, s, space, d->generals[arrived].side, next, 0, log);
}

/* The Congress is dispersed by a battle or overrun in its space that the
 * Americans lose (7.7). */
static void congress_lost(const struct data *d, struct state *s, int space,
			  struct strbuf *log)
{
	if (s->congress != space)
		return;
	s->congress = -1;
	s->dispersed_this_turn = true;
	elog(log, "The Continental Congress in %s is dispersed (7.7).", space_name(d, space));
}

/* The activation is over: the card ends (unless a capture prompt waits). */
static void end_activation(const struct data *d, struct state *s,
			   struct rng *r, struct strbuf *log, bool prompt_set)
{
	memset(&s->move, 0, sizeof(s->move));
	memset(&s->battle, 0, sizeof(s->battle));
	if (!prompt_set)
		flow_end_card(d, s, r, log, 0);
}

/* ---- Overruns (9.7) ------------------------------------------------------ */

/* An army of 4 or 5 CUs against 1 enemy CU without a general. */
static bool overrun_possible(const struct data *d, const struct state *s,
			     int space, enum side attacker)
{
	int n = side_cus(s, space, attacker);

	return n >= 4 && n <= 5 && general_of_side_at(d, s, space, attacker) >= 0 &&
	       side_cus(s, space, OTHER_SIDE(attacker)) == 1 &&
	       general_of_side_at(d, s, space, OTHER_SIDE(attacker)) < 0;
}

static void overrun(const struct data *d, struct state *s, int space,
		    enum side attacker, struct strbuf *log)
{
	enum side enemy = OTHER_SIDE(attacker);

	remove_cus(s, space, enemy, 1);
	elog(log, "Overrun in %s: the %s CU there is eliminated (9.7).",
	     space_name(d, space), side_title(enemy));
	if (enemy == SIDE_BRITISH)
		french_alliance_move(s, 1, log, "the British lose an overrun, 12.1");
	else
		congress_lost(d, s, space, log);
}

/* ---- Interception (7.8) --------------------------------------------------- */

/* Can the American Army of general g try to intercept into the battle
 * space? Returns ENGINE_OK or the reason. */
static enum engine_result intercept_ok(const struct data *d,
				       const struct state *s, int g,
				       struct strbuf *why)
{
	int sp = s->battle.space, at;

	if (g < 0 || g >= d->n_generals)
		return illegal(why, "name the general who intercepts: 'intercept GENERAL' (7.8)");
	if (d->generals[g].side != SIDE_AMERICAN)
		return illegal(why, "%s is a British general: only American Armies intercept (7.8)",
			       d->generals[g].name);
	at = s->general[g];
	if (at < 0 || side_cus(s, at, SIDE_AMERICAN) == 0)
		return illegal(why, "%s leads no Army (a general with CUs) on the map (7.8.A)",
			       d->generals[g].name);
	if (s->intercepted & (1u << g))
		return illegal(why, "%s's Army has already tried to intercept with this card (7.8.E)",
			       d->generals[g].name);
	if (reaction_never(s, SIDE_AMERICAN, g, REACT_INTERCEPT))
		return illegal(why, "your standing reaction is never to intercept with %s "
			       "(send 'ask intercept %s' to change it)",
			       d->generals[g].name, d->generals[g].name);
	if (at == sp || !connection_for(d, at, sp, g))
		return illegal(why, "%s, where %s is, is not adjacent to %s (7.8.A)",
			       space_name(d, at), d->generals[g].name, space_name(d, sp));
	return ENGINE_OK;
}

static bool intercept_any(const struct data *d, const struct state *s)
{
	for (int g = 0; g < d->n_generals; g++)
		if (intercept_ok(d, s, g, NULL) == ENGINE_OK)
			return true;
	return false;
}

/* ---- Retreats (9.61, 9.62) ------------------------------------------------ */

/* Can the losing force of side (general g, cus CUs) retreat by land from
 * the battle space to t? */
static bool retreat_land_ok(const struct data *d, const struct state *s,
			    enum side side, int g, int cus, int t)
{
	const struct battle *b = &s->battle;
	enum side enemy = OTHER_SIDE(side);

	if (!connection_for(d, b->space, t, g))
		return false;
	if (side == b->attacker ? t != b->from : t == b->from)
		return false;
	if (side_cus(s, t, enemy) > 0 || s->space[t].pc == enemy)
		return false;
	/* a general alone never stops with an enemy general alone (7.4.A) */
	return cus > 0 || lone_general_at(d, s, t, enemy) < 0;
}

/* Can the British defender retreat by sea to port t (9.62)? */
static bool retreat_sea_ok(const struct data *d, const struct state *s,
			   enum side side, int cus, int t)
{
	const struct battle *b = &s->battle;
	int sp = b->space;

	if (side != SIDE_BRITISH || side == b->attacker || !d->spaces[sp].port ||
	    port_blockaded(d, s, sp) ||
	    (d->spaces[sp].fortified && s->space[sp].pc != SIDE_BRITISH))
		return false;
	if (t == sp || !d->spaces[t].port || port_blockaded(d, s, t) ||
	    side_cus(s, t, SIDE_AMERICAN) > 0 || s->space[t].pc == SIDE_AMERICAN)
		return false;
	return cus > 0 || lone_general_at(d, s, t, SIDE_AMERICAN) < 0;
}

/* The retreats open to the loser: their number, and the last one found. */
static int retreat_options(const struct data *d, const struct state *s,
			   enum side side, int *one, bool *by_sea)
{
	int sp = s->battle.space, g = general_of_side_at(d, s, sp, side);
	int cus = side_cus(s, sp, side), n = 0;

	for (int t = 0; t < d->n_spaces; t++) {
		if (t != sp && retreat_land_ok(d, s, side, g, cus, t)) {
			n++;
			*one = t;
			*by_sea = false;
		}
		if (retreat_sea_ok(d, s, side, cus, t)) {
			n++;
			*one = t;
			*by_sea = true;
		}
	}
	return n;
}

int engine_battle_retreats(const struct data *d, const struct state *s,
			   enum side side)
{
	int one = -1;
	bool by_sea = false;

	if (!s->battle.active)
		BUG("engine_battle_retreats without a battle");
	return retreat_options(d, s, side, &one, &by_sea);
}

/* ---- The battle (9.2) ----------------------------------------------------- */

static void battle_finish(const struct data *d, struct state *s,
			  struct rng *r, struct strbuf *log, enum side loser,
			  bool prompt_set);

/* Can side answer step 1 with card n as kind (battle or discard)? */
static enum engine_result card_ok(const struct data *d, const struct state *s,
				  enum side side, enum action_kind kind, int n,
				  struct strbuf *why)
{
	const struct data_card *c;

	if (n < 1 || n > d->n_cards)
		return illegal(why, "no card #%d", n);
	c = card_of(d, n);
	if (hand_find(s, side, n) < 0)
		return illegal(why, "%s is not in your hand", c->label);
	if (c->ops)
		return illegal(why, "%s is an OPS card: a battle needs an event card (9.45)", c->label);
	if (kind == ACT_DISCARD) {
		if (c->special)
			return illegal(why, "%s must be played as the event and cannot be discarded (6.34.A)",
				       c->label);
		return ENGINE_OK;
	}
	if (!c->battle_card)
		return illegal(why, "%s is not a battle card: 'discard %d' gives +1 (9.45)", c->label, n);
	if ((int)c->side != (side == SIDE_AMERICAN ? CARD_SIDE_AMERICAN : CARD_SIDE_BRITISH))
		return illegal(why, "%s is a battle card of the other side: 'discard %d' gives +1 (6.33, 9.45)",
			       c->label, n);
	for (int i = 0; i < c->n_effects; i++) {
		const struct data_effect *e = &c->effects[i];
		int col = d->spaces[s->battle.space].colony;
		if (e->verb == EFFECT_BATTLE_DRM && e->colonies_mask &&
		    !(e->colonies_mask & (1 << col)))
			return illegal(why, "%s helps only in a battle in some colonies, not in %s: 'discard %d' gives +1 (9.45)",
				       c->label, d->colonies[col].name, n);
	}
	return ENGINE_OK;
}

/* Step 2: a general's Actual Battle Rating (9.3). */
static int actual_rating(const struct data *d, const struct state *s,
			 struct rng *r, enum side side, struct strbuf *log)
{
	int sp = s->battle.space, g = general_of_side_at(d, s, sp, side), die, v, cus;

	if (g < 0) {
		elog(log, "The %s have no general: Actual Battle Rating 0 (9.3).", side_plural(side));
		return 0;
	}
	die = rng_die(r, side == SIDE_AMERICAN ? "American general's battle rating (9.3)"
		      : "British general's battle rating (9.3)");
	v = die <= 3 ? d->generals[g].battle / 2 : d->generals[g].battle;
	cus = side_cus(s, sp, side);
	/* 9.3: never more than the friendly CUs stacked with him */
	if (v > cus)
		elog(log, "%s rolls %d: Actual Battle Rating %d (%s Battle Rating %d%s, limited to %d by the %d CU%s with him, 9.3).",
		     d->generals[g].name, die, cus, die <= 3 ? "half his" : "his",
		     d->generals[g].battle, die <= 3 ? " rounded down" : "", cus, cus,
		     cus == 1 ? "" : "s");
	else
		elog(log, "%s rolls %d: Actual Battle Rating %d (%s Battle Rating %d%s, 9.3).",
		     d->generals[g].name, die, v, die <= 3 ? "half his" : "his",
		     d->generals[g].battle, die <= 3 ? ", rounded down" : "");
	return v > cus ? cus : v;
}

/* The side with more PCs in the colony of space (9.43), or SIDE_NONE. */
static enum side militia(const struct data *d, const struct state *s, int space)
{
	int col = d->spaces[space].colony, n[3] = { 0, 0, 0 };

	if (d->colonies[col].canada) {
		/* Montreal and Quebec, the fortified spaces of Canada */
		enum side all = SIDE_NONE;
		for (int i = 0; i < d->n_spaces; i++) {
			if (d->spaces[i].colony != col || !d->spaces[i].fortified)
				continue;
			if (s->space[i].pc == SIDE_NONE ||
			    (all != SIDE_NONE && s->space[i].pc != all))
				return SIDE_NONE;
			all = s->space[i].pc;
		}
		return all;
	}
	for (int i = 0; i < d->n_spaces; i++)
		if (d->spaces[i].colony == col)
			n[s->space[i].pc]++;
	return n[SIDE_AMERICAN] > n[SIDE_BRITISH] ? SIDE_AMERICAN
	       : n[SIDE_BRITISH] > n[SIDE_AMERICAN] ? SIDE_BRITISH : SIDE_NONE;
}

/* Adds a modifier to out[*n]. */
static void add_mod(struct modifier *out, int *n, int value, const char *rule,
		    const char *label)
{
	if (*n >= ENGINE_MAX_MODIFIERS)
		BUG("more than %d modifiers", ENGINE_MAX_MODIFIERS);
	out[*n].value = value;
	out[*n].rule = rule;
	out[*n].label = label;
	(*n)++;
}

/* The modifiers of side apart from its CUs and its general's Actual Battle
 * Rating (9.41 to 9.46). */
static int other_mods(const struct data *d, const struct state *s,
		      enum side side, struct modifier out[ENGINE_MAX_MODIFIERS])
{
	const struct battle *b = &s->battle;
	int sp = b->space, n = 0;

	if (side == SIDE_BRITISH && s->regulars)
		add_mod(out, &n, 1, "9.41", "Regulars");
	if (side == SIDE_BRITISH && d->spaces[sp].port && !port_blockaded(d, s, sp) &&
	    (!d->spaces[sp].fortified || s->space[sp].pc == SIDE_BRITISH))
		add_mod(out, &n, 1, "9.42", "Royal Navy");
	if (militia(d, s, sp) == side)
		add_mod(out, &n, 1, "9.43", "militia");
	if (side == SIDE_AMERICAN && b->attacker == SIDE_BRITISH &&
	    s->kosciuszko == sp + 1)
		add_mod(out, &n, 1, "#79", "Kosciuszko's works");
	if (side == SIDE_AMERICAN && b->winter)
		add_mod(out, &n, 2, "9.44", "Winter Offensive");
	if (b->card[side])
		add_mod(out, &n, b->played[side] ? engine_battle_card_drm(d, b->card[side]) : 1,
			"9.45", b->played[side] ? "battle card" : "discard");
	if (side == SIDE_AMERICAN && b->intercepted)
		add_mod(out, &n, 1, "9.46", "interception");
	return n;
}

int engine_modifiers_total(const struct modifier *m, int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += m[i].value;
	return sum;
}

void engine_modifiers_describe(const struct modifier *m, int n, struct strbuf *out)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(out, ", %+d %s (%s)", m[i].value, m[i].label, m[i].rule);
}

int engine_battle_card_drm(const struct data *d, int card)
{
	const struct data_card *c = card_of(d, card);
	int amount = 2;

	for (int i = 0; i < c->n_effects; i++)
		if (c->effects[i].verb == EFFECT_BATTLE_DRM)
			amount = c->effects[i].amount;
	return amount;
}

int engine_battle_modifiers(const struct data *d, const struct state *s,
			    enum side side, struct modifier out[ENGINE_MAX_MODIFIERS])
{
	if (!s->battle.active)
		BUG("engine_battle_modifiers without a battle");
	return other_mods(d, s, side, out);
}

/* Step 3: a side's combat DRM (9.4), described in the log. */
static int combat_drm(const struct data *d, const struct state *s,
		      enum side side, int rating, struct strbuf *log)
{
	const struct battle *b = &s->battle;
	int sp = b->space, cus = side_cus(s, sp, side), drm = cus + rating;
	struct strbuf why = STRBUF_INIT;

	struct modifier mods[ENGINE_MAX_MODIFIERS];
	int n = other_mods(d, s, side, mods);

	strbuf_addf(&why, "%d CU%s, %d battle rating", cus, cus == 1 ? "" : "s", rating);
	drm += engine_modifiers_total(mods, n);
	engine_modifiers_describe(mods, n, &why);
	elog(log, "%s DRM +%d: %s.", side_title(side), drm, strbuf_str(&why));
	strbuf_release(&why);
	return drm;
}

/* Moves the loser's force from the battle space to t (by land or sea),
 * then steps 7 on. */
static void retreat_to(const struct data *d, struct state *s, struct rng *r,
		       enum side loser, int t, bool by_sea, struct strbuf *log)
{
	int sp = s->battle.space, g = general_of_side_at(d, s, sp, loser);
	int n = move_force(s, sp, t, loser, g, 1000);
	bool prompt_set;

	/* "Howe and 3 CUs retreat", "Howe retreats" (no CU left),
	 * "1 British CU retreats" */
	if (g >= 0 && n > 0)
		elog(log, "%s and %d %s CU%s retreat%s to %s (%s).", d->generals[g].name,
		     n, side_title(loser), n == 1 ? "" : "s", by_sea ? " by sea" : "",
		     space_name(d, t), by_sea ? "9.62" : "9.61");
	else if (g >= 0)
		elog(log, "%s, with no CU left, retreats%s to %s (%s).", d->generals[g].name,
		     by_sea ? " by sea" : "", space_name(d, t), by_sea ? "9.62" : "9.61");
	else
		elog(log, "%d %s CU%s retreat%s%s to %s (%s).", n, side_title(loser),
		     n == 1 ? "" : "s", n == 1 ? "s" : "", by_sea ? " by sea" : "",
		     space_name(d, t), by_sea ? "9.62" : "9.61");
	if (loser == SIDE_AMERICAN)
		congress_lost(d, s, sp, log);
	prompt_set = arrival(d, s, t, loser, n > 0, 0, log);
	if (!prompt_set && excess_general(d, s, t, g, GN_RETREAT, log))
		return;
	battle_finish(d, s, r, log, loser, prompt_set);
}

/* Step 6 (9.6): the loser retreats, is asked where, or surrenders. */
static void step_retreat(const struct data *d, struct state *s, struct rng *r,
			 enum side loser, struct strbuf *log)
{
	int sp = s->battle.space, g = general_of_side_at(d, s, sp, loser);
	int cus = side_cus(s, sp, loser), one = -1, n;
	bool by_sea = false, prompt_set = false;

	if (g < 0 && cus == 0) {
		elog(log, "Nothing of the %s force is left to retreat.", side_title(loser));
		if (loser == SIDE_AMERICAN)
			congress_lost(d, s, sp, log);
		battle_finish(d, s, r, log, loser, false);
		return;
	}
	n = retreat_options(d, s, loser, &one, &by_sea);
	if (n == 0) {
		elog(log, "The %s force in %s has no legal retreat and surrenders (9.63%s).",
		     side_title(loser), space_name(d, sp),
		     loser == s->battle.attacker ? ".A" : ".B");
		if (cus) {
			remove_cus(s, sp, loser, cus);
			s->battle.lost[loser] += cus;
			elog(log, "%d %s CU%s eliminated (9.63).", cus, side_title(loser),
			     cus == 1 ? " is" : "s are");
		}
		if (loser == SIDE_AMERICAN)
			congress_lost(d, s, sp, log);
		if (g >= 0)
			prompt_set = general_capture(d, s, g, 0, log);
		battle_finish(d, s, r, log, loser, prompt_set);
		return;
	}
	if (n == 1) {
		retreat_to(d, s, r, loser, one, by_sea, log);
		return;
	}
	flow_prompt(s, PROMPT_RETREAT, loser, 0, 0);
}

/* n CUs of side are lost in the battle space (9.5). From a stack of
 * American and French CUs the American names the French among them when
 * there is a choice (12.2.C, R45): PROMPT_LOSSES (step 0 for the loser's
 * losses, 1 for the winner's), true. */
static bool lose_cus(const struct data *d, struct state *s, enum side side,
		     int n, int step)
{
	int sp = s->battle.space, lo, hi;

	(void)d;
	if (side == SIDE_BRITISH) {
		remove_cus(s, sp, side, n);
		return false;
	}
	french_range(s, sp, n, &lo, &hi);
	if (lo < hi) {
		flow_prompt(s, PROMPT_LOSSES, SIDE_AMERICAN, 0, n);
		s->prompt.step = step;
		return true;
	}
	s->space[sp].cu[NATION_FRENCH] -= lo;
	s->space[sp].cu[NATION_AMERICAN] -= n - lo;
	return false;
}

static void winner_losses(const struct data *d, struct state *s,
			  struct rng *r, enum side loser, struct strbuf *log);

/* Steps 2 to 5, then 6. */
static void resolve(const struct data *d, struct state *s, struct rng *r,
		    struct strbuf *log)
{
	struct battle *b = &s->battle;
	enum side att = b->attacker, def = OTHER_SIDE(att), winner, loser;
	int sp = b->space, ra, rd, drm_a, drm_d, da, dd, die, n;

	ra = actual_rating(d, s, r, att, log);
	rd = actual_rating(d, s, r, def, log);
	drm_a = combat_drm(d, s, att, ra, log);
	drm_d = combat_drm(d, s, def, rd, log);
	da = rng_die(r, att == SIDE_AMERICAN ? "American combat roll (9.2)" : "British combat roll (9.2)");
	dd = rng_die(r, def == SIDE_AMERICAN ? "American combat roll (9.2)" : "British combat roll (9.2)");
	winner = da + drm_a >= dd + drm_d ? att : def;
	loser = OTHER_SIDE(winner);
	elog(log, "The attacking %s roll %d + %d = %d, the defending %s %d + %d = %d: the %s win%s (9.2).",
	     side_plural(att), da, drm_a, da + drm_a, side_plural(def), dd, drm_d, dd + drm_d,
	     side_plural(winner), da + drm_a == dd + drm_d ? " (the attacker wins ties)" : "");
	/* Step 5 (9.5): the loser's losses, then the winner's. */
	die = rng_die(r, "the loser's losses (9.5)");
	n = die <= 3 ? 1 : die <= 5 ? 2 : 3;
	if (n > side_cus(s, sp, loser))
		n = side_cus(s, sp, loser);
	b->lost[loser] += n;
	elog(log, "The %s roll %d for losses and lose %d CU%s (9.5).", side_plural(loser),
	     die, n, n == 1 ? "" : "s");
	if (lose_cus(d, s, loser, n, 0))
		return;
	winner_losses(d, s, r, loser, log);
}

/* The winner's loss (9.5), then the loser's retreat. */
static void winner_losses(const struct data *d, struct state *s,
			  struct rng *r, enum side loser, struct strbuf *log)
{
	struct battle *b = &s->battle;
	enum side winner = OTHER_SIDE(loser);
	int sp = b->space, gl = general_of_side_at(d, s, sp, loser), th, die, n;

	if (side_cus(s, sp, winner) > 0) {
		th = gl < 0 ? 1 : d->generals[gl].agility + 1;
		die = rng_die(r, "the winner's losses (9.5)");
		n = die <= th ? 1 : 0;
		b->lost[winner] += n;
		elog(log, "The %s roll %d for losses (1 CU on %d or less) and lose %d CU%s (9.5).",
		     side_plural(winner), die, th, n, n == 1 ? "" : "s");
		if (n && lose_cus(d, s, winner, n, 1))
			return;
	}
	/* 9.5 Special, a winner without CUs on an enemy PC: see
	 * battle_finish, after the retreat, which it cannot change (R41). */
	step_retreat(d, s, r, loser, log);
}

/* The cards of step 1, held until the battle ends, go to their piles. */
static void held_cards_to_piles(const struct data *d, struct state *s,
				struct strbuf *log)
{
	struct battle *b = &s->battle;

	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		int c = b->card[side];
		if (!c)
			continue;
		b->card[side] = 0;
		if (b->played[side] && card_of(d, c)->removed_after_play) {
			removed_push(s, c);
			elog(log, "%s is removed from the game.", card_of(d, c)->label);
		} else {
			discard_push(s, c);
			if (!b->played[side] && card_of(d, c)->reshuffle == RESHUFFLE_WHEN_DISCARDED) {
				s->reshuffle = true;
				elog(log, "#%d calls for a reshuffle at the next deal (6.1.B).", c);
			}
		}
	}
}

/* Step 7 and the end of the battle (and of the activation). */
static void battle_finish(const struct data *d, struct state *s,
			  struct rng *r, struct strbuf *log, enum side loser,
			  bool prompt_set)
{
	struct battle *b = &s->battle;
	enum side winner = OTHER_SIDE(loser);

	int gw = general_of_side_at(d, s, b->space, winner);

	if (gw >= 0 && side_cus(s, b->space, winner) == 0 &&
	    s->space[b->space].pc == loser) {
		elog(log, "The winning %s general is left without CUs on %s PC (9.5).",
		     side_title(winner), side_article(loser));
		if (!prompt_set)
			prompt_set = general_capture(d, s, gw, 0, log);
		else
			s->general[gw] = LOC_CAPTURED;
	}
	if (winner == SIDE_AMERICAN)
		french_alliance_move(s, 1, log, "an American victory, 9.2 step 7, 12.1");
	if (b->lost[SIDE_BRITISH] >= 3)
		regulars_lost(s, log, "3 or more British CUs lost in a battle");
	held_cards_to_piles(d, s, log);
	end_activation(d, s, r, log, prompt_set);
}

void battle_abandon(const struct data *d, struct state *s,
		    struct strbuf *log)
{
	if (!s->battle.active)
		return;
	held_cards_to_piles(d, s, log);
	memset(&s->battle, 0, sizeof(s->battle));
}

/* Step 1 is done: Arnold's treason may turn it into an overrun (9.2, 9.7). */
static void after_cards(const struct data *d, struct state *s, struct rng *r,
			struct strbuf *log)
{
	struct battle *b = &s->battle;

	if (b->attacker == SIDE_BRITISH && overrun_possible(d, s, b->space, SIDE_BRITISH)) {
		overrun(d, s, b->space, SIDE_BRITISH, log);
		/* the cards go to their piles; the British move is over (R42) */
		b->lost[SIDE_BRITISH] = 0;
		battle_finish(d, s, r, log, SIDE_AMERICAN, false);
		return;
	}
	resolve(d, s, r, log);
}

/* Asks side for step 1 whenever its hand is not empty, whatever the hand
 * holds: skipping the step for a hand with no usable card would tell the
 * other side so (R100). An empty hand is public and is skipped. */
static void ask_card(const struct data *d, struct state *s, struct rng *r,
		     enum side side, struct strbuf *log)
{
	for (;;) {
		int g = general_of_side_at(d, s, s->battle.space, side);
		if (!s->battle.answered[side] && s->n_hand[side] > 0 &&
		    reaction_never(s, side, g, REACT_BATTLE)) {
			elog(log, "The %s play no card in this battle (standing reaction: never battle).",
			     side_plural(side));
		} else if (!s->battle.answered[side] && s->n_hand[side] > 0) {
			flow_prompt(s, PROMPT_BATTLE_CARD, side, 0, 0);
			return;
		}
		s->battle.answered[side] = true;
		if (side != s->battle.attacker)
			break;
		side = OTHER_SIDE(side);
	}
	after_cards(d, s, r, log);
}

/* The battle itself (9.2) in the battle space: the move is over. */
static void battle_begin(const struct data *d, struct state *s, struct rng *r,
			 struct strbuf *log)
{
	struct battle *b = &s->battle;
	int ga = general_of_side_at(d, s, b->space, b->attacker);

	/* 9.44: Washington attacking with the last card of the phase. */
	b->winter = b->attacker == SIDE_AMERICAN && is_washington(d, ga) &&
		    (campaign_for(s, s->move.card) ? s->campaign.last
		     : s->n_hand[SIDE_AMERICAN] == 0 && s->n_hand[SIDE_BRITISH] == 0);
	memset(&s->move, 0, sizeof(s->move));
	elog(log, "Battle in %s: the %s attack (9.2).", space_name(d, b->space),
	     side_plural(b->attacker));
	ask_card(d, s, r, b->attacker, log);
}

/* After the interceptions (none succeeded): the arrival's effects, if
 * they waited for the interceptions (7.8.F: a capture, the Congress);
 * then overrun, retreat before battle, battle, or the move goes on. */
static void after_interceptions(const struct data *d, struct state *s,
				struct rng *r, struct strbuf *log,
				bool arrival_waits)
{
	struct battle *b = &s->battle;
	enum side att = b->attacker, def = OTHER_SIDE(att);
	int g;

	if (arrival_waits &&
	    arrival(d, s, b->space, att, side_cus(s, b->space, att) > 0,
		    s->move.card, log)) {
		/* Washington captured: the removals, then the move goes on */
		memset(b, 0, sizeof(*b));
		return;
	}
	g = general_of_side_at(d, s, b->space, def);
	if (side_cus(s, b->space, def) == 0) {
		memset(b, 0, sizeof(*b));
		flow_prompt(s, PROMPT_MOVE, att, s->move.card, 0);
		return;
	}
	if (overrun_possible(d, s, b->space, att)) {
		overrun(d, s, b->space, att, log);
		s->move.overran = true;		/* no fifth space (7.3.C) */
		memset(b, 0, sizeof(*b));
		flow_prompt(s, PROMPT_MOVE, att, s->move.card, 0);
		return;
	}
	if (att == SIDE_BRITISH && g >= 0 && !(s->intercepted & (1u << g))) {
		bool any = false;
		for (int t = 0; t < d->n_spaces && !any; t++)
			any = t != b->space &&
			      retreat_land_ok(d, s, SIDE_AMERICAN, g, side_cus(s, b->space, def), t);
		if (any && reaction_never(s, SIDE_AMERICAN, g, REACT_RETREAT)) {
			elog(log, "%s stands (standing reaction: never retreat before battle).",
			     d->generals[g].name);
		} else if (any) {
			flow_prompt(s, PROMPT_RETREAT_BEFORE, SIDE_AMERICAN, s->move.card, 0);
			return;
		} else {
			elog(log, "%s has no space to retreat before battle to (7.9.B, 9.61).",
			     d->generals[g].name);
		}
	}
	battle_begin(d, s, r, log);
}

void battle_entered(const struct data *d, struct state *s, struct rng *r,
		    int from, bool interceptable, struct strbuf *log)
{
	struct battle *b = &s->battle;

	memset(b, 0, sizeof(*b));
	b->active = true;
	b->space = s->general[s->move.general];
	b->from = from;
	b->attacker = d->generals[s->move.general].side;
	if (interceptable && intercept_any(d, s)) {
		flow_prompt(s, PROMPT_INTERCEPT, SIDE_AMERICAN, s->move.card, 0);
		return;
	}
	after_interceptions(d, s, r, log, interceptable);
}

/* ---- Prompts -------------------------------------------------------------- */

/* The American Army that may retreat before battle: its general. */
static int rbb_general(const struct data *d, const struct state *s)
{
	return general_of_side_at(d, s, s->battle.space, SIDE_AMERICAN);
}

/* The battle a battle prompt is about. */
static const struct battle *prompt_battle(const struct state *s)
{
	if (!s->battle.active)
		BUG("a battle prompt without a battle");
	return &s->battle;
}

/* engine_check() lets through only the kinds that answer; kept as data
 * all the same. */
static enum engine_result not_an_answer(const struct action *a,
					struct strbuf *why)
{
	return illegal(why, "'%s' does not answer this prompt", action_verb(a->kind));
}

enum engine_result battle_intercept_check(const struct data *d,
					  const struct state *s,
					  const struct action *a,
					  struct strbuf *why)
{
	(void)prompt_battle(s);
	if (a->kind == ACT_PASS)
		return ENGINE_OK;
	if (a->kind != ACT_INTERCEPT)
		return not_an_answer(a, why);
	if (intercept_ok(d, s, a->general, why) != ENGINE_OK)
		return ENGINE_ILLEGAL;
	return french_ok(d, s, s->general[a->general], a->french, "intercept", why);
}

enum engine_result battle_rbb_check(const struct data *d,
				    const struct state *s,
				    const struct action *a,
				    struct strbuf *why)
{
	const struct battle *b = prompt_battle(s);
	int g;

	if (a->kind == ACT_STAND)
		return ENGINE_OK;
	if (a->kind != ACT_RETREAT)
		return not_an_answer(a, why);
	if (a->space < 0 || a->space >= d->n_spaces)
		return illegal(why, "no such space");
	g = rbb_general(d, s);
	if (g < 0)
		BUG("a retreat before battle without an American general");
	if (a->space == b->space ||
	    !retreat_land_ok(d, s, SIDE_AMERICAN, g,
			     side_cus(s, b->space, SIDE_AMERICAN), a->space))
		return illegal(why, "%s cannot retreat to '%s': an adjacent space without British CUs or PC, not %s where the British came from (7.9.B, 9.61)",
			       d->generals[g].name, space_name(d, a->space),
			       space_name(d, b->from));
	return french_ok(d, s, b->space, a->french, "retreat", why);
}

enum engine_result battle_card_check(const struct data *d,
				     const struct state *s,
				     const struct action *a,
				     struct strbuf *why)
{
	(void)prompt_battle(s);
	if (a->kind == ACT_NOCARD)
		return ENGINE_OK;
	if (a->kind != ACT_BATTLE && a->kind != ACT_DISCARD)
		return not_an_answer(a, why);
	return card_ok(d, s, s->prompt.side, a->kind, a->card, why);
}

enum engine_result battle_losses_check(const struct data *d,
				       const struct state *s,
				       const struct action *a,
				       struct strbuf *why)
{
	const struct battle *b = prompt_battle(s);
	int lo, hi;

	if (a->kind != ACT_LOSE)
		return not_an_answer(a, why);
	french_range(s, b->space, s->prompt.left, &lo, &hi);
	if (a->value < lo || a->value > hi)
		return illegal(why, "of the %d CUs lost in %s, %d to %d may be French: 'lose N', N the French (9.5, 12.2.C)",
			       s->prompt.left, space_name(d, b->space), lo, hi);
	return ENGINE_OK;
}

enum engine_result battle_retreat_check(const struct data *d,
					const struct state *s,
					const struct action *a,
					struct strbuf *why)
{
	const struct battle *b = prompt_battle(s);
	enum side side = s->prompt.side;
	int sp = b->space, cus = side_cus(s, sp, side);

	if (a->kind != ACT_RETREAT && a->kind != ACT_SAIL)
		return not_an_answer(a, why);
	if (a->kind == ACT_RETREAT && a->french > 0)	/* unlike before battle, 7.9.B */
		return illegal(why, "after a battle the whole force retreats: 'retreat SPACE' takes no number (9.61)");
	if (a->space < 0 || a->space >= d->n_spaces)
		return illegal(why, "no such space");
	if (a->kind == ACT_SAIL) {
		if (!retreat_sea_ok(d, s, side, cus, a->space))
			return illegal(why, "no retreat by sea to '%s': only a defending British force, from a port not blockaded (a fortified one with a British PC), to another port not blockaded without American CU or PC (9.62)",
				       space_name(d, a->space));
		return ENGINE_OK;
	}
	if (a->space == sp ||
	    !retreat_land_ok(d, s, side, general_of_side_at(d, s, sp, side), cus, a->space))
		return illegal(why, "no retreat to '%s': %s (9.61)", space_name(d, a->space),
			       side == b->attacker ? "the attacker retreats to the space it came from"
			       : "an adjacent space without enemy CUs or PC, not the one the attacker came from");
	return ENGINE_OK;
}

void battle_intercept_apply(const struct data *d, struct state *s,
			    const struct action *a, struct rng *r,
			    struct strbuf *log)
{
	struct battle *b = &s->battle;
	const struct data_general *gd;
	int g = a->general, at, die, n;

	if (a->kind == ACT_PASS) {
		elog(log, "The American makes no %sinterception attempt (7.8).",
		     s->intercepted ? "further " : "");
		after_interceptions(d, s, r, log, true);
		return;
	}
	gd = &d->generals[g];
	at = s->general[g];
	s->intercepted |= 1u << g;
	die = rng_die(r, "interception (7.8.A)");
	if (die > gd->agility) {
		elog(log, "%s tries to intercept from %s into %s: rolls %d against Agility %d and fails (7.8.A).",
		     gd->name, space_name(d, at), space_name(d, b->space), die, gd->agility);
		if (intercept_any(d, s))
			return;
		after_interceptions(d, s, r, log, true);
		return;
	}
	n = move_five(s, at, b->space, g, a->french);
	elog(log, "%s intercepts from %s into %s with %d CU%s%s: rolls %d against Agility %d (7.8.A, 7.8.C).",
	     gd->name, space_name(d, at), space_name(d, b->space), n, n == 1 ? "" : "s",
	     a->french ? " (French among them as named)" : "", die, gd->agility);
	b->intercepted = true;
	elog(log, "The British movement ends (7.8.C).");
	if (excess_general(d, s, b->space, g, GN_INTERCEPT, log))
		return;
	battle_begin(d, s, r, log);
}

static void rbb_after(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log, bool prompt_set);

void battle_rbb_apply(const struct data *d, struct state *s,
		      const struct action *a, struct rng *r, struct strbuf *log)
{
	struct battle *b = &s->battle;
	int g = rbb_general(d, s), die, target, n;
	const struct data_general *gd = &d->generals[g];
	bool prompt_set;

	if (a->kind == ACT_STAND) {
		elog(log, "%s stands and fights in %s (7.9).", gd->name, space_name(d, b->space));
		battle_begin(d, s, r, log);
		return;
	}
	target = gd->agility + gd->retreat_bonus;
	die = rng_die(r, "retreat before battle (7.9.A)");
	if (die > target) {
		elog(log, "%s tries to retreat before battle to %s: rolls %d against %d and fails (7.9.A).",
		     gd->name, space_name(d, a->space), die, target);
		battle_begin(d, s, r, log);
		return;
	}
	n = move_five(s, b->space, a->space, g, a->french);
	elog(log, "%s retreats before battle from %s to %s with %d CU%s%s: rolls %d against %d (7.9.A%s).",
	     gd->name, space_name(d, b->space), space_name(d, a->space), n, n == 1 ? "" : "s",
	     a->french ? " (French among them as named)" : "", die, target,
	     gd->retreat_bonus ? ", +2 for him" : "");
	prompt_set = arrival(d, s, a->space, SIDE_AMERICAN, n > 0, 0, log);
	if (!prompt_set && excess_general(d, s, a->space, g, GN_RETREAT_BEFORE, log))
		return;
	rbb_after(d, s, r, log, prompt_set);
}

/* After a retreat before battle (and the owner's choice of general, if
 * any): the British stop; what is left is overrun or fights (7.9.B). */
static void rbb_after(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log, bool prompt_set)
{
	struct battle *b = &s->battle;
	int left;

	left = side_cus(s, b->space, SIDE_AMERICAN);
	elog(log, "The British movement ends in %s (7.9.B).", space_name(d, b->space));
	if (left == 0) {
		/* no battle: the British Army is alone in the space (7.7) */
		prompt_set |= arrival(d, s, b->space, SIDE_BRITISH, false, 0, log);
		end_activation(d, s, r, log, prompt_set);
		return;
	}
	if (prompt_set)
		BUG("a capture prompt with American CUs left to fight");
	if (overrun_possible(d, s, b->space, SIDE_BRITISH)) {
		overrun(d, s, b->space, SIDE_BRITISH, log);
		end_activation(d, s, r, log, false);
		return;
	}
	battle_begin(d, s, r, log);
}

void battle_card_apply(const struct data *d, struct state *s,
		       const struct action *a, struct rng *r, struct strbuf *log)
{
	struct battle *b = &s->battle;
	enum side side = s->prompt.side;

	b->answered[side] = true;
	if (a->kind == ACT_NOCARD) {
		elog(log, "The %s use no card in the battle.", side_plural(side));
	} else {
		const struct data_card *c = card_of(d, a->card);
		hand_remove(s, side, a->card);
		b->card[side] = a->card;
		b->played[side] = a->kind == ACT_BATTLE;
		elog(log, "The %s %s %s in the battle (+%d, 9.45).", side_plural(side),
		     a->kind == ACT_BATTLE ? "play" : "discard", c->label,
		     a->kind == ACT_BATTLE ? 2 : 1);
		for (int i = 0; a->kind == ACT_BATTLE && i < c->n_effects; i++) {
			const struct data_effect *e = &c->effects[i];
			if (e->verb == EFFECT_DRAW) {
				s->replacement_draws[side] += e->count;
			} else if (e->verb == EFFECT_REMOVE_GENERAL) {
				int g = e->general;	/* a general, checked at load */
				if (s->general[g] != LOC_REMOVED) {
					s->general[g] = LOC_REMOVED;
					elog(log, "%s goes over to the British and leaves the game (9.2 step 1).",
					     d->generals[g].name);
				}
			}
		}
	}
	ask_card(d, s, r, side == b->attacker ? OTHER_SIDE(side) : side, log);
}

void battle_retreat_apply(const struct data *d, struct state *s,
			  const struct action *a, struct rng *r,
			  struct strbuf *log)
{
	retreat_to(d, s, r, s->prompt.side, a->space, a->kind == ACT_SAIL, log);
}

void battle_losses_apply(const struct data *d, struct state *s,
			 const struct action *a, struct rng *r,
			 struct strbuf *log)
{
	int n = s->prompt.left, step = s->prompt.step;

	s->space[b_space(s)].cu[NATION_FRENCH] -= a->value;
	s->space[b_space(s)].cu[NATION_AMERICAN] -= n - a->value;
	elog(log, "The American loses %d French and %d American CU%s in %s (9.5, 12.2.C).",
	     a->value, n - a->value, n - a->value == 1 ? "" : "s", space_name(d, b_space(s)));
	if (step == 0)
		winner_losses(d, s, r, SIDE_AMERICAN, log);
	else
		step_retreat(d, s, r, SIDE_BRITISH, log);
}

void battle_intercept_legal(const struct data *d, const struct state *s,
			    struct collect *c)
{
	for (int g = 0; g < d->n_generals; g++)
		for (int f = 0; f <= 5; f++) {	/* f French (7.8.C) */
			struct action a = ACTION_INIT;
			a.kind = ACT_INTERCEPT;
			a.general = g;
			a.french = f;
			legal_add(d, s, c, &a);
		}
	legal_simple(d, s, c, ACT_PASS);
}

void battle_rbb_legal(const struct data *d, const struct state *s,
		      struct collect *c)
{
	legal_spaces_french(d, s, c, ACT_RETREAT);	/* 7.9.B */
	legal_simple(d, s, c, ACT_STAND);
}

void battle_card_legal(const struct data *d, const struct state *s,
		       struct collect *c)
{
	legal_hand(d, s, c, ACT_BATTLE);
	legal_hand(d, s, c, ACT_DISCARD);
	legal_simple(d, s, c, ACT_NOCARD);
}

void battle_retreat_legal(const struct data *d, const struct state *s,
			  struct collect *c)
{
	legal_spaces(d, s, c, ACT_RETREAT);
	legal_spaces(d, s, c, ACT_SAIL);
}

void battle_losses_legal(const struct data *d, const struct state *s,
			 struct collect *c)
{
	legal_values(d, s, c, ACT_LOSE, s->prompt.left);
}

void battle_intercept_describe(const struct data *d, const struct state *s,
			       struct strbuf *out)
{
	const char *where = space_name(d, s->battle.space);
	/* the numbers the player needs, as he counts them */
	int n = engine_legal(d, s, NULL, 0), shown = 0;
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));
	uint64_t named = 0;	/* a general once, whatever French he takes */

	engine_legal(d, s, acts, n);
	strbuf_addf(out, "American: a British Army enters %s: 'intercept GENERAL' with an adjacent Army (die <= Agility, 7.8) or 'pass'",
		    where);
	for (int i = 0; i < n; i++) {
		if (acts[i].kind != ACT_INTERCEPT || acts[i].general < 0 ||
		    (named & (1ULL << acts[i].general)))
			continue;
		named |= 1ULL << acts[i].general;
		const struct data_general *gd = &d->generals[acts[i].general];
		strbuf_addf(out, "%s%s succeeds on 1-%d", shown++ ? ", " : ": ",
			    gd->name, gd->agility);
	}
	strbuf_addch(out, '.');
	/* what follows a success, certain by the rules (issue 29) */
	{
		int bg = general_of_side_at(d, s, s->battle.space, SIDE_BRITISH),
		    bc = side_cus(s, s->battle.space, SIDE_BRITISH),
		    ac = side_cus(s, s->battle.space, SIDE_AMERICAN);
		strbuf_addf(out, " If one succeeds, the British movement ends and a battle follows in %s: the British attack (%s%s%d CU%s) the intercepting Army (up to 5 CUs%s), the Americans +1 for the interception (7.8.C, 9.46).",
			    where, bg >= 0 ? d->generals[bg].name : "", bg >= 0 ? ", " : "",
			    bc, bc == 1 ? "" : "s",
			    ac ? ", with the American CUs already there" : "");
	}
	free(acts);
}

/*
 * What the rules make certain of a retreat of general g (side) by the
 * legal answers of kind: to a space where a general of his side stands,
 * two generals meet, and one goes to the Reinforcements box (7.4.C): the
 * owner chooses, unless one is Washington, who stays (issue 29).
 */
static void say_meetings(const struct data *d, const struct state *s,
			 enum side side, int g, struct strbuf *out)
{
	int n = engine_legal(d, s, NULL, 0);
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));
	bool said[DATA_MAX_SPACES] = { false };

	engine_legal(d, s, acts, n);
	for (int i = 0; g >= 0 && i < n; i++) {
		int t = acts[i].space, h;
		if ((acts[i].kind != ACT_RETREAT && acts[i].kind != ACT_SAIL) || t < 0 ||
		    t >= DATA_MAX_SPACES || said[t])
			continue;
		said[t] = true;
		h = general_of_side_at(d, s, t, side);
		if (h < 0 || h == g)
			continue;
		strbuf_addf(out, " To %s, where %s stands, two generals would meet: ",
			    space_name(d, t), d->generals[h].name);
		if (is_washington(d, g) || is_washington(d, h))
			strbuf_addf(out, "%s would go to the Reinforcements box (Washington never does, 7.4.C).",
				    d->generals[is_washington(d, g) ? h : g].name);
		else
			strbuf_addstr(out, "you would send one of them to the Reinforcements box (7.4.C).");
	}
	free(acts);
}

void battle_rbb_describe(const struct data *d, const struct state *s,
			 struct strbuf *out)
{
	const char *where = space_name(d, s->battle.space);
	int g = rbb_general(d, s);

	strbuf_addf(out, "American: a British Army attacks %s in %s: 'retreat SPACE' before battle (die <= Agility, 7.9) or 'stand'",
		    g >= 0 ? d->generals[g].name : "the American CUs", where);
	if (g >= 0)
		strbuf_addf(out, ": %s succeeds on 1-%d%s", d->generals[g].name,
			    d->generals[g].agility + d->generals[g].retreat_bonus,
			    d->generals[g].retreat_bonus ? " (+2 for him, 7.9.A)" : "");
	strbuf_addch(out, '.');
	say_meetings(d, s, SIDE_AMERICAN, g, out);
}

void battle_card_describe(const struct data *d, const struct state *s,
			  struct strbuf *out)
{
	strbuf_addf(out, "%s: battle in %s (%s): 'battle CARD' (+2), 'discard CARD' (+1) or 'none' (9.2 step 1).",
		    side_title(s->prompt.side), space_name(d, s->battle.space),
		    s->prompt.side == s->battle.attacker ? "you attack" : "you defend");
}

void battle_losses_describe(const struct data *d, const struct state *s,
			    struct strbuf *out)
{
	strbuf_addf(out, "American: %d CU%s of American and French CUs %s lost in %s: name the French ones among them: 'lose N' (9.5, 12.2.C).",
		    s->prompt.left, s->prompt.left == 1 ? "" : "s",
		    s->prompt.left == 1 ? "is" : "are", space_name(d, s->battle.space));
}

void battle_retreat_describe(const struct data *d, const struct state *s,
			     struct strbuf *out)
{
	bool land = legal_kind_any(d, s, ACT_RETREAT), sea = legal_kind_any(d, s, ACT_SAIL);

	strbuf_addf(out, "%s: you lost the battle in %s: %s%s%s (9.6).",
		    side_title(s->prompt.side), space_name(d, s->battle.space),
		    land || !sea ? "'retreat SPACE'" : "", land && sea ? " or " : "",
		    sea ? "'sail PORT'" : "");
	say_meetings(d, s, s->prompt.side,
		     general_of_side_at(d, s, s->battle.space, s->prompt.side), out);
}

void battle_replacement_draws(const struct data *d, struct state *s,
			      struct rng *r, struct strbuf *log)
{
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		int n = s->replacement_draws[side];
		if (!n)
			continue;
		s->replacement_draws[side] = 0;
		for (int i = 0; i < n; i++)
			cards_draw(d, s, side, r, log);
		elog(log, "The %s draw %d replacement card%s for a battle card (6.33.B).",
		     side_plural(side), n, n == 1 ? "" : "s");
	}
}

/* ---- Two generals of a side in a space (7.4.C, 7.8.D) -------------------- */

enum engine_result generals_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why)
{
	int sp = generals_space(d, s, s->prompt.side), g = a->general;

	if (sp < 0)
		BUG("a generals prompt without two generals of a side in a space");
	if (g < 0 || g >= d->n_generals)
		return illegal(why, "name the general who goes to the Reinforcements box: 'send GENERAL' (7.4.C)");
	if (s->general[g] != sp || d->generals[g].side != s->prompt.side)
		return illegal(why, "%s is not one of the two %s generals in %s (7.4.C)",
			       d->generals[g].name, side_title(s->prompt.side), space_name(d, sp));
	if (is_washington(d, g))
		return illegal(why, "%s may never be sent to the Reinforcements box (7.4.C)",
			       d->generals[g].name);
	return ENGINE_OK;
}

void generals_apply(const struct data *d, struct state *s,
		    const struct action *a, struct rng *r, struct strbuf *log)
{
	int sp = s->general[a->general];

	s->general[a->general] = LOC_REINFORCEMENTS;
	elog(log, "%s sends %s to the Reinforcements box: one general per side in %s (7.4.C%s).",
	     side_title(s->prompt.side), d->generals[a->general].name, space_name(d, sp),
	     s->prompt.left == GN_INTERCEPT ? ", 7.8.D" : "");
	switch ((enum generals_next)s->prompt.left) {
	case GN_MOVE_END:
		flow_end_card(d, s, r, log, 0);
		return;
	case GN_INTERCEPT:
		battle_begin(d, s, r, log);
		return;
	case GN_RETREAT_BEFORE:
		rbb_after(d, s, r, log, false);
		return;
	case GN_RETREAT:
		battle_finish(d, s, r, log, s->prompt.side, false);
		return;
	default:
		BUG("generals_apply: next %d", s->prompt.left);
	}
}

void generals_legal(const struct data *d, const struct state *s,
		    struct collect *c)
{
	for (int g = 0; g < d->n_generals; g++) {
		struct action a = ACTION_INIT;
		a.kind = ACT_SEND;
		a.general = g;
		legal_add(d, s, c, &a);
	}
}

void generals_describe_prompt(const struct data *d, const struct state *s,
			      struct strbuf *out)
{
	int sp = generals_space(d, s, s->prompt.side), two[2], n = 0;

	for (int g = 0; g < d->n_generals && n < 2; g++)
		if (s->general[g] == sp && d->generals[g].side == s->prompt.side)
			two[n++] = g;
	if (n < 2)
		BUG("a generals prompt without two generals of a side in a space");
	strbuf_addf(out, "%s: %s and %s are both in %s: 'send GENERAL' names the one who goes to the Reinforcements box (owner's choice, 7.4.C).",
		    side_title(s->prompt.side), d->generals[two[0]].name,
		    d->generals[two[1]].name, space_name(d, sp));
}
