/*
 * events.c - the events of the Strategy Cards (6.31, 6.34): a small
 * interpreter over a card's machine form (docs/data.md: verb, count,
 * colonies, where, amount) and the prompt for the choices an event leaves
 * to the player who plays it (PROMPT_EVENT).
 *
 * An event runs its effects in order. Effects that need no choice take
 * place at once; an effect that needs spaces chosen sets PROMPT_EVENT with
 * the effect's index in prompt.step, and the run goes on from the next
 * effect once it is done. "May" (the qualifier `may`) makes an effect
 * optional: `done` ends it. Anything else is done as far as it can be
 * (6.31); an effect with nothing left to act on ends by itself, so that a
 * prompt always has a legal answer.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct data_card *card(const struct data *d, int n)
{
	if (n < 1 || n > d->n_cards)
		BUG("card number %d out of range", n);
	return &d->cards[n];
}

/* ---- The machine form ---------------------------------------------------- */

enum verb {
	V_UNKNOWN = 0,
	V_PLACE_PC, V_REMOVE_PC, V_FLIP_PC, V_PLACE_CU, V_REMOVE_CU,
	V_FRENCH_ALLIANCE, V_RESHUFFLE, V_RANDOM_DISCARD, V_LOSE_REGULARS,
	V_MUTINIES, V_REMOVE_NAVY, V_REQUIRE, V_WAR_ENDS,
	V_BATTLE,	/* only in a battle (6.33): skipped in the Strategy Phase */
	V_MOVEMENT,	/* activations: campaigns (7.2), Glover (7.3.C) */
	V_MOVE_NAVY,	/* the French Navy moves now (de Grasse): PROMPT_NAVY */
};

/* Verbs whose `where` is read by other parts of the rules (a general's
 * name for remove_general), not by this interpreter. */
static bool verb_foreign(enum verb v)
{
	return v == V_BATTLE || v == V_MOVEMENT || v == V_MOVE_NAVY;
}

/* The interpreter's class of a compiled verb (effects.h). */
static enum verb verb_of(const struct data_effect *e)
{
	switch (e->verb) {
	case EFFECT_PLACE_PC: return V_PLACE_PC;
	case EFFECT_REMOVE_PC: return V_REMOVE_PC;
	case EFFECT_FLIP_PC: return V_FLIP_PC;
	case EFFECT_PLACE_CU: return V_PLACE_CU;
	case EFFECT_REMOVE_CU: return V_REMOVE_CU;
	case EFFECT_FRENCH_ALLIANCE: return V_FRENCH_ALLIANCE;
	case EFFECT_RESHUFFLE: return V_RESHUFFLE;
	case EFFECT_OPPONENT_DISCARDS_RANDOM: return V_RANDOM_DISCARD;
	case EFFECT_LOSE_REGULARS: return V_LOSE_REGULARS;
	case EFFECT_NO_AMERICAN_PC_PLACEMENT: return V_MUTINIES;
	case EFFECT_REMOVE_FRENCH_NAVY: return V_REMOVE_NAVY;
	case EFFECT_REQUIRE: return V_REQUIRE;
	case EFFECT_WAR_ENDS: return V_WAR_ENDS;
	case EFFECT_BATTLE_DRM: case EFFECT_DRAW: case EFFECT_REMOVE_GENERAL:
		return V_BATTLE;
	case EFFECT_ACTIVATE_GENERALS: case EFFECT_ACTIVATE_GENERAL:
		return V_MOVEMENT;
	case EFFECT_MOVE_FRENCH_NAVY: return V_MOVE_NAVY;
	case EFFECT_NONE: case EFFECT__COUNT: break;
	}
	BUG("effect verb %d was not compiled by the loader", (int)e->verb);
}

/* An effect's compiled `where` (effects.h): qualifier bits and a space. */
struct where {
	unsigned q;
	int space;	/* a named space, -1 if none */
};

static struct where where_of(const struct data_effect *e)
{
	return (struct where){ .q = e->quals, .space = e->space };
}

/* ---- Conditions ------------------------------------------------------------ */

/* The European War is in effect from the End Phase of the alliance's
 * turn (12.2.B.iii). */
static bool european_war(const struct state *s)
{
	return s->french_allied && !s->alliance_this_turn;
}

/* A condition of `where` that does not hold, or NULL. */
static const char *condition_fails(const struct state *s, unsigned q)
{
	if ((q & QUAL_BEFORE_ALLIANCE) && s->french_allied)
		return "the French alliance has happened";
	if ((q & QUAL_AFTER_ALLIANCE) && !s->french_allied)
		return "the French alliance has not happened";
	if ((q & QUAL_EUROPEAN_WAR) && !european_war(s))
		return "the European War is not in effect (12.2.B.iii)";
	return NULL;
}

/* CUs of a nation not yet in play (the counter mix). */
static int cu_stock(const struct data *d, const struct state *s,
		    enum nation n)
{
	if (!d->cu_pool[n])
		return 99;
	return d->cu_pool[n] - s->box_cu[n] - state_cus_on_map(s, d, n);
}

static enum nation nation_of(enum side side)
{
	return side == SIDE_BRITISH ? NATION_BRITISH : NATION_AMERICAN;
}

/* ---- Targets --------------------------------------------------------------- */

/* One effect being carried out: what is chosen so far. */
struct ectx {
	const struct data_card *c;
	const struct data_effect *e;
	enum verb verb;
	struct where w;
	enum side side;			/* who plays the event */
	uint32_t colonies_done;
	uint64_t spaces_done[2];
};

static struct ectx ectx_make(const struct data *d, int n, int step,
			     enum side side)
{
	struct ectx x;

	memset(&x, 0, sizeof(x));
	x.c = card(d, n);
	if (step < 0 || step >= x.c->n_effects)
		BUG("card #%d has no effect %d", n, step);
	x.e = &x.c->effects[step];
	x.verb = verb_of(x.e);
	x.w.space = -1;
	if (!verb_foreign(x.verb))
		x.w = where_of(x.e);
	/* an event by primitives: every action is the player's, "up to" */
	if (x.c->by_player)
		x.w.q |= QUAL_MAY;
	x.side = side;
	return x;
}

static struct ectx ectx_of_prompt(const struct data *d, const struct state *s)
{
	struct ectx x = ectx_make(d, s->prompt.card, s->prompt.step,
				  s->prompt.side);

	x.colonies_done = s->prompt.colonies_done;
	x.spaces_done[0] = s->prompt.spaces_done[0];
	x.spaces_done[1] = s->prompt.spaces_done[1];
	return x;
}

/* The answer an effect takes: place, flip or remove a space. */
static enum action_kind answer_kind(enum verb v)
{
	switch (v) {
	case V_PLACE_PC: case V_PLACE_CU: return ACT_PLACE;
	case V_FLIP_PC: return ACT_FLIP;
	case V_REMOVE_PC: case V_REMOVE_CU: return ACT_REMOVE;
	default: return ACT_NONE;
	}
}

static void colony_list(const struct data *d, int mask, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < d->n_colonies && len + 4 < n; k++)
		if (mask & (1 << k))
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						len ? ", " : "", d->colonies[k].code);
}

static bool adjacent_to_british_army(const struct data *d,
				     const struct state *s, int space)
{
	const struct data_space *sp = &d->spaces[space];

	for (int i = 0; i < sp->n_adj; i++)
		if (sp->adj[i].only_general < 0 &&
		    has_army(d, s, sp->adj[i].to, SIDE_BRITISH))
			return true;
	return false;
}

/* Checks the qualifiers of the effect for a space. */
static enum engine_result where_check(const struct data *d,
				      const struct state *s,
				      const struct ectx *x, int space,
				      struct strbuf *why)
{
	const char *name = space_name(d, space), *label = x->c->label;
	int colony = d->spaces[space].colony;
	unsigned q = x->w.q;
	char list[64];

	if (x->e->colonies_mask && !(x->e->colonies_mask & (1 << colony))) {
		colony_list(d, x->e->colonies_mask, list, sizeof(list));
		return illegal(why, "'%s' is not in %s: %s acts there only", name, list, label);
	}
	if (x->w.space >= 0 && space != x->w.space)
		return illegal(why, "%s acts on '%s' only", label,
			       space_name(d, x->w.space));
	if ((q & QUAL_PORT) && !d->spaces[space].port)
		return illegal(why, "'%s' is not a port: %s takes ports only", name, label);
	if ((q & QUAL_NON_PORT) && d->spaces[space].port)
		return illegal(why, "'%s' is a port: %s takes non-port spaces only", name, label);
	if ((q & QUAL_ADJ_BRITISH_ARMY) && !adjacent_to_british_army(d, s, space))
		return illegal(why, "'%s' is not adjacent to a British Army (%s)", name, label);
	if ((q & QUAL_NO_AMERICAN_UNIT) && has_american_unit(d, s, space))
		return illegal(why, "'%s' holds an American unit (%s)", name, label);
	if ((q & QUAL_NO_BRITISH_CU) && side_cus(s, space, SIDE_BRITISH) > 0)
		return illegal(why, "'%s' holds British CUs (%s)", name, label);
	if ((q & QUAL_AMERICAN_PC) && s->space[space].pc != SIDE_AMERICAN)
		return illegal(why, "'%s' holds no American PC (%s)", name, label);
	if ((q & QUAL_AMERICAN_GENERAL) &&
	    general_of_side_at(d, s, space, SIDE_AMERICAN) < 0)
		return illegal(why, "'%s' holds no American general (%s)", name, label);
	if ((q & QUAL_NO_GENERAL) &&
	    general_of_side_at(d, s, space, OTHER_SIDE(x->side)) >= 0)
		return illegal(why, "'%s' holds a%s %s general (%s)", name,
			       x->side == SIDE_BRITISH ? "n" : "",
			       side_title(OTHER_SIDE(x->side)), label);
	if ((q & QUAL_ONE_COLONY) && x->colonies_done &&
	    !(x->colonies_done & (1u << colony)))
		return illegal(why, "%s acts in one colony: '%s' is not in it", label, name);
	if ((q & QUAL_ONE_PER_COLONY) && (x->colonies_done & (1u << colony)))
		return illegal(why, "%s acts once per colony: %s is done", label,
			       d->colonies[colony].name);
	if ((q & QUAL_ONE_PER_SPACE) && bit_get(x->spaces_done, space))
		return illegal(why, "%s acts once per space: '%s' is done", label, name);
	return ENGINE_OK;
}

/* Can the effect act on this space with this answer? */
static enum engine_result target_check(const struct data *d,
				       const struct state *s,
				       const struct ectx *x,
				       enum action_kind kind, int space,
				       struct strbuf *why)
{
	enum side enemy = OTHER_SIDE(x->side);
	const char *name;

	if (space < 0 || space >= d->n_spaces)
		return illegal(why, "no such space");
	if (kind != answer_kind(x->verb))
		return illegal(why, "'%s' does not answer this prompt; expected '%s'%s",
			       action_verb(kind), action_verb(answer_kind(x->verb)),
			       (x->w.q & QUAL_MAY) ? " or 'done'" : "");
	name = space_name(d, space);
	switch (x->verb) {
	case V_PLACE_PC:
		if (pc_check(d, s, x->side, ACT_PLACE, space, PCX_EVENT, why) != ENGINE_OK)
			return ENGINE_ILLEGAL;
		break;
	case V_FLIP_PC:
	case V_REMOVE_PC:
		if (s->space[space].pc != enemy)
			return illegal(why, "'%s' holds no %s PC", name, side_title(enemy));
		break;
	case V_PLACE_CU:
		if (x->side == SIDE_AMERICAN ? has_british_unit(d, s, space)
					     : has_american_unit(d, s, space))
			return illegal(why, "'%s' holds %s units", name, side_title(enemy));
		break;
	case V_REMOVE_CU:
		if (side_cus(s, space, enemy) == 0)
			return illegal(why, "'%s' holds no %s CU", name, side_title(enemy));
		break;
	default:
		BUG("target_check: verb %d", x->verb);
	}
	return where_check(d, s, x, space, why);
}

static bool any_target(const struct data *d, const struct state *s,
		       const struct ectx *x)
{
	enum action_kind kind = answer_kind(x->verb);

	for (int i = 0; i < d->n_spaces; i++)
		if (target_check(d, s, x, kind, i, NULL) == ENGINE_OK)
			return true;
	return false;
}

/* Why an effect cannot act at all now, or NULL if it can. */
static const char *effect_blocked(const struct data *d, const struct state *s,
				  const struct ectx *x, char *buf, size_t n)
{
	enum side enemy = OTHER_SIDE(x->side);

	switch (x->verb) {
	case V_FRENCH_ALLIANCE:
		return s->french_allied ? "the French alliance has already happened (12.2.A)" : NULL;
	case V_LOSE_REGULARS:
		return s->regulars ? NULL : "the British have already lost the Regulars' Advantage (9.41)";
	case V_REMOVE_NAVY:
		return s->french_navy >= 0 ? NULL : "the French Navy is not in a Blockade Zone (12.3)";
	case V_MOVEMENT:
		if (campaign_possible(d, s, x->side, x->e->amount > 0))
			return NULL;
		snprintf(buf, n, "no %s general is on the map", side_title(x->side));
		return buf;
	case V_RANDOM_DISCARD:
		if (s->n_hand[enemy] > 0)
			return NULL;
		snprintf(buf, n, "the %s hand is empty", side_title(enemy));
		return buf;
	case V_PLACE_PC:
		if (x->w.q & QUAL_EACH_COLONY)
			return NULL;
		if (any_target(d, s, x))
			return NULL;
		snprintf(buf, n, "no space where it may place a%s %s PC",
			 x->side == SIDE_AMERICAN ? "n" : "", side_title(x->side));
		return buf;
	case V_FLIP_PC:
	case V_REMOVE_PC:
	case V_REMOVE_CU:
		if (any_target(d, s, x))
			return NULL;
		snprintf(buf, n, "no %s %s it may %s", side_title(enemy),
			 x->verb == V_REMOVE_CU ? "CU" : "PC",
			 x->verb == V_FLIP_PC ? "flip" : "remove");
		return buf;
	case V_PLACE_CU:
		if (cu_stock(d, s, nation_of(x->side)) <= 0) {
			snprintf(buf, n, "no %s CU is left in the counter mix",
				 side_title(x->side));
			return buf;
		}
		if ((x->w.q & QUAL_BRITISH_REINFORCEMENTS) || any_target(d, s, x))
			return NULL;
		snprintf(buf, n, "no space where it may place %s CUs",
			 side_title(x->side));
		return buf;
	default:
		return NULL;
	}
}

/* ---- Playing an event ------------------------------------------------------ */

/* ---- Cards with a handler (effects.h): one row each, its functions ---- */

/* #79 Kosciuszko: the American names the space of the works. */
static bool kosciuszko_play(const struct data *d, struct state *s, struct rng *r,
			    int n, enum side side, struct strbuf *log)
{
	(void)d;
	(void)r;
	(void)log;
	flow_prompt(s, PROMPT_EVENT, side, n, 1);
	return false;
}

static enum engine_result kosciuszko_check(const struct data *d, const struct state *s,
					   const struct action *a, struct strbuf *why)
{
	(void)s;
	if (a->kind != ACT_PLACE)
		return illegal(why, "'%s' does not answer this prompt; name the space of Kosciuszko's works: 'place SPACE'",
			       action_verb(a->kind));
	if (a->space < 0 || a->space >= d->n_spaces)
		return illegal(why, "no such space");
	return ENGINE_OK;
}

static void kosciuszko_apply(const struct data *d, struct state *s,
			     const struct action *a, struct rng *r, struct strbuf *log)
{
	s->kosciuszko = a->space + 1;
	elog(log, "Kosciuszko's engineering works in %s: the Americans defending there get +1 for the rest of %d (#79).",
	     space_name(d, a->space), s->year);
	flow_end_card(d, s, r, log, 0);
}

static void kosciuszko_legal(const struct data *d, const struct state *s,
			     struct collect *c)
{
	legal_spaces(d, s, c, ACT_PLACE);
}

static void kosciuszko_describe(const struct data *d, const struct state *s,
				struct strbuf *out)
{
	strbuf_addf(out, "American: event %s: name the space of the works: 'place SPACE'.",
		    card(d, s->prompt.card)->label);
}

const struct card_handler_desc card_handler_descs[HANDLER__COUNT] = {
	[HANDLER_KOSCIUSZKO] = {
		.play = kosciuszko_play, .check = kosciuszko_check,
		.apply = kosciuszko_apply, .legal = kosciuszko_legal,
		.describe = kosciuszko_describe,
	},
};

/* The row of card c, or NULL for a card of primitives alone. */
static const struct card_handler_desc *handler_of(const struct data_card *c)
{
	if (c->handler == HANDLER_NONE)
		return NULL;
	if (c->handler >= HANDLER__COUNT)
		BUG("card #%d: handler %d", c->number, c->handler);
	return &card_handler_descs[c->handler];
}

enum engine_result events_check_play(const struct data *d,
				     const struct state *s, enum side side,
				     int n, struct strbuf *why)
{
	const struct data_card *c = card(d, n);
	const char *needs = NULL;
	int strategy = 0;
	char buf[160];

	if (c->special)
		return ENGINE_OK;	/* must be played, whatever it does (6.34.A) */
	for (int i = 0; i < c->n_effects; i++)
		if (verb_of(&c->effects[i]) != V_BATTLE)
			strategy++;
	if (c->battle_card && !strategy)
		return illegal(why, "%s is a battle card: its event is played in a battle (6.33.A)", c->label);
	/* Conditions first: a card whose condition fails is discarded
	 * whether or not this version could carry it out (6.32.A). */
	for (int i = 0; i < c->n_effects; i++) {
		const char *fail;
		if (verb_of(&c->effects[i]) != V_REQUIRE)
			continue;
		if ((fail = condition_fails(s, where_of(&c->effects[i]).q)))
			return illegal(why, "the event of %s cannot take effect (%s): it must be discarded (6.32.A)",
				       c->label, fail);
	}
	if (handler_of(c))
		return ENGINE_OK;	/* any space will do (R63) */
	if (!needs && !strategy)
		needs = "rules of a later version";
	if (needs)
		return illegal(why, "the event of %s needs %s: not supported yet (see README, \"What is missing\"): discard it instead",
			       c->label, needs);
	/* At least one effect must be able to act (6.32.A). */
	{
		const char *first = NULL;
		for (int i = 0; i < c->n_effects; i++) {
			struct ectx x = ectx_make(d, n, i, side);
			const char *b;
			if (x.verb == V_BATTLE || x.verb == V_REQUIRE)
				continue;
			if (!(x.w.q & QUAL_EACH_COLONY) && (b = condition_fails(s, x.w.q))) {
				if (!first)
					first = b;
				continue;
			}
			b = effect_blocked(d, s, &x, buf, sizeof(buf));
			if (!b)
				return ENGINE_OK;
			if (!first)
				first = b;
		}
		return illegal(why, "the event of %s cannot take effect (%s): it must be discarded (6.32.A)",
			       c->label, first ? first : "nothing to do");
	}
}

void regulars_lost(struct state *s, struct strbuf *log, const char *why)
{
	if (!s->regulars)
		return;
	s->regulars = false;
	elog(log, "The British lose the Regulars' Advantage (%s, 9.41).", why);
	french_alliance_move(s, 2, log, "the Regulars' Advantage is lost, 12.1");
}

/* 6.34.C.iii: the War Ends box. */
static void event_war_ends(const struct data *d, struct state *s, int n,
			   struct strbuf *log)
{
	if (s->war_ends) {
		elog(log, "%s leaves the War Ends box for the discard pile.",
		     card(d, s->war_ends)->label);
		discard_push(s, s->war_ends);
	}
	s->war_ends = n;
	elog(log, "%s goes into the War Ends box: the war ends at the end of %d at the latest.",
	     card(d, n)->label, card(d, n)->war_ends_year);
}

/* The Declaration of Independence: one PC in each colony where possible
 * (6.34.C.i). Returns false if it waits at PROMPT_DOI. */
static bool event_each_colony(const struct data *d, struct state *s, int n,
			      struct strbuf *log)
{
	uint32_t done = 0;
	int left = 0;

	for (int k = 0; k < d->n_colonies; k++) {
		if (d->colonies[k].canada)
			done |= 1u << k;
		else if (doi_colony_possible(d, s, k))
			left++;
		else
			done |= 1u << k;
	}
	if (!left) {
		elog(log, "No colony has a space where an American PC may be placed.");
		return true;
	}
	flow_prompt(s, PROMPT_DOI, SIDE_AMERICAN, n, left);
	s->prompt.colonies_done = done;
	return false;
}

/* The CUs an effect removing enemy CUs takes from space (6.31). */
static int cu_removals(const struct state *s, const struct ectx *x, int space,
		       int left)
{
	int want = (x->w.q & QUAL_ONE_SPACE) ? left : 1;
	int have = side_cus(s, space, OTHER_SIDE(x->side));

	return want < have ? want : have;
}

/* French CUs among the removals: whoever plays the card chooses which
 * units go (6.31), so in a stack of American and French CUs he names the
 * French ones ('remove SPACE N'); the rest are American. */
static enum engine_result french_check(const struct data *d,
				       const struct state *s,
				       const struct ectx *x, int space,
				       int french, struct strbuf *why)
{
	int k, fr, am, lo, hi;

	if (x->verb != V_REMOVE_CU || OTHER_SIDE(x->side) != SIDE_AMERICAN) {
		if (french)
			return illegal(why, "a number after 'remove' names French CUs among American CUs removed (6.31)");
		return ENGINE_OK;
	}
	k = cu_removals(s, x, space, s->prompt.left);
	fr = s->space[space].cu[NATION_FRENCH];
	am = s->space[space].cu[NATION_AMERICAN];
	lo = k - am > 0 ? k - am : 0;
	hi = k < fr ? k : fr;
	if (french < lo || french > hi) {
		if (lo == hi)
			return illegal(why, "%d CU%s go%s from %s, %d of them French: 'remove %s %d' (6.31)",
				       k, k == 1 ? "" : "s", k == 1 ? "es" : "", space_name(d, space), lo,
				       space_name(d, space), lo);
		return illegal(why, "%d CU%s go%s from %s: name the French ones among them, %d to %d: 'remove %s N' (6.31)",
			       k, k == 1 ? "" : "s", k == 1 ? "es" : "", space_name(d, space), lo, hi,
			       space_name(d, space));
	}
	return ENGINE_OK;
}

/* Acts on one space: a placement, flip or removal of the effect. Returns
 * how many of the effect's count it used. */
static int apply_target(const struct data *d, struct state *s,
			const struct ectx *x, int space, int left, int french,
			struct strbuf *log)
{
	enum side enemy = OTHER_SIDE(x->side);
	char tag[160];
	int k;

	snprintf(tag, sizeof(tag), "(%s)", x->c->label);
	switch (x->verb) {
	case V_PLACE_PC:
		set_pc(d, s, space, x->side, log, tag);
		return 1;
	case V_FLIP_PC:
		set_pc(d, s, space, x->side, log, tag);
		return 1;
	case V_REMOVE_PC:
		set_pc(d, s, space, SIDE_NONE, log, tag);
		return 1;
	case V_PLACE_CU:
		k = cu_stock(d, s, nation_of(x->side));
		if (k > left)
			k = left;
		if (k < left)
			elog(log, "Only %d %s CU%s left in the counter mix.", k,
			     side_title(x->side), k == 1 ? " is" : "s are");
		s->space[space].cu[nation_of(x->side)] += k;
		elog(log, "%d %s CU%s placed in %s %s.", k, side_title(x->side),
		     k == 1 ? "" : "s", space_name(d, space), tag);
		return left;	/* all in this one space */
	case V_REMOVE_CU: {
		int n = cu_removals(s, x, space, left);
		/* the card's player named the French among them (6.31) */
		if (enemy == SIDE_BRITISH) {
			s->space[space].cu[NATION_BRITISH] -= n;
		} else {
			s->space[space].cu[NATION_FRENCH] -= french;
			s->space[space].cu[NATION_AMERICAN] -= n - french;
		}
		if (french)
			elog(log, "%d %s CU%s removed from %s %s, %d of them French.", n,
			     side_title(enemy), n == 1 ? "" : "s", space_name(d, space), tag, french);
		else
			elog(log, "%d %s CU%s removed from %s %s.", n, side_title(enemy),
			     n == 1 ? "" : "s", space_name(d, space), tag);
		return (x->w.q & QUAL_ONE_SPACE) ? left : 1;
	}
	default:
		BUG("apply_target: verb %d", x->verb);
	}
}

/* Draws cards at random from the opponent's hand and discards them (6.31);
 * a special event drawn takes effect at once (6.34.B). False if such an
 * event waits at a prompt. */
/*
 * The card under slot of side's hand, which the rules reveal (a peer game,
 * docs/peer.md 9.7, 12): from the stream's card source, or 0 with
 * missing set when this copy cannot know it yet. A number that is no card
 * is the protocol layer's BUG.
 */
static int peer_reveal(const struct data *d, struct rng *r, enum side side,
		       int slot)
{
	int c;

	if (!r->peer)
		BUG("slot s%d.%d in a host game", CARD_SLOT_GEN(slot),
		    CARD_SLOT_POS(slot));
	c = r->peer->reveal ? r->peer->reveal(r->peer->ctx, side, slot) : 0;
	if (!c) {
		r->peer->missing = true;
		return 0;
	}
	if (c < 1 || c > d->n_cards)
		BUG("slot s%d.%d revealed as card %d", CARD_SLOT_GEN(slot),
		    CARD_SLOT_POS(slot), c);
	return c;
}

static bool random_discards(const struct data *d, struct state *s,
			    struct rng *r, const struct ectx *x,
			    struct strbuf *log)
{
	enum side opp = OTHER_SIDE(x->side);
	int count = x->e->count ? x->e->count : 1;
	char purpose[96];

	for (int i = 0; i < count && s->n_hand[opp] > 0; i++) {
		int k, drawn;
		snprintf(purpose, sizeof(purpose), "a card at random from the %s hand (%s)",
			 side_title(opp), x->c->label);
		if (!r)
			BUG("a random draw without a stream");
		k = rng_uniform(r, s->n_hand[opp], purpose);
		if (r->peer && r->peer->missing)
			return true;	/* no draw yet: the action cannot stand */
		drawn = s->hand[opp][k];
		hand_remove(s, opp, drawn);
		if (CARD_IS_SLOT(drawn) && (drawn = peer_reveal(d, r, opp, drawn)) == 0)
			return true;	/* its card is not known yet: as above */
		elog(log, "%s draws %s at random from the %s hand (6.31).",
		     side_title(x->side), card(d, drawn)->label, side_title(opp));
		if (card(d, drawn)->special) {
			elog(log, "%s is a special event: it takes effect at once (6.34.B).",
			     card(d, drawn)->label);
			if (!events_play(d, s, r, drawn, opp, log))
				return false;
		} else {
			discard_push(s, drawn);
			elog(log, "%s is discarded.", card(d, drawn)->label);
		}
	}
	return true;
}

/* Runs the effects of card n from `from` on. True when the event is over,
 * false when it waits at a prompt. */
static bool run_effects(const struct data *d, struct state *s, struct rng *r,
			int n, enum side side, int from, struct strbuf *log)
{
	const struct data_card *c = card(d, n);

	for (int i = from; i < c->n_effects; i++) {
		struct ectx x = ectx_make(d, n, i, side);
		int count = x.e->count ? x.e->count : 1;
		const char *fail;
		char buf[160];

		if (x.verb != V_REQUIRE && !(x.w.q & QUAL_EACH_COLONY) &&
		    (fail = condition_fails(s, x.w.q))) {
			elog(log, "%s: no effect, %s.", c->label, fail);
			continue;
		}
		switch (x.verb) {
		case V_BATTLE:
		case V_REQUIRE:
		case V_WAR_ENDS:
		case V_RESHUFFLE:	/* through the card's reshuffle flag (6.3.D) */
			continue;
		case V_MOVEMENT:
			/* The card's last effect: its activations (7.2, 7.3.C). */
			campaign_begin(d, s, n, side, count, x.e->amount, log);
			return false;
		case V_FRENCH_ALLIANCE:
			french_alliance_move(s, x.e->amount, log, c->label);
			continue;
		case V_LOSE_REGULARS:
			regulars_lost(s, log, c->label);
			continue;
		case V_MUTINIES:
			s->mutinies = true;
			elog(log, "For the rest of %d the American may not place PCs with OPS cards or event discards (10.11.A.iv).",
			     s->year);
			continue;
		case V_REMOVE_NAVY:
			if (s->french_navy >= 0) {
				elog(log, "The French Navy leaves the %s zone for the turn track until the next French Naval Phase (12.3).",
				     d->zones[s->french_navy].name);
				s->french_navy = NAVY_TURN_TRACK;
			}
			continue;
		case V_RANDOM_DISCARD:
			if (!random_discards(d, s, r, &x, log))
				return false;
			continue;
		case V_PLACE_PC:
			if (x.w.q & QUAL_EACH_COLONY) {
				if (!event_each_colony(d, s, n, log))
					return false;
				continue;
			}
			break;
		case V_PLACE_CU:
			if (x.w.q & QUAL_BRITISH_REINFORCEMENTS) {
				int k = cu_stock(d, s, NATION_BRITISH);
				if (k > count)
					k = count;
				s->box_cu[NATION_BRITISH] += k;
				elog(log, "%d British CU%s to the Reinforcements box (now %d)%s.",
				     k, k == 1 ? "" : "s", s->box_cu[NATION_BRITISH],
				     k < count ? ": the counter mix has no more" : "");
				continue;
			}
			break;
		case V_MOVE_NAVY:
			/* The American names the zone (alliance.c); the
			 * card's play ends with it, so it is its last effect. */
			if (i != c->n_effects - 1)
				BUG("move_french_navy is not the last effect of #%d", n);
			flow_prompt(s, PROMPT_NAVY, side, n, 0);
			s->prompt.step = 2;
			return false;
		case V_FLIP_PC:
		case V_REMOVE_PC:
		case V_REMOVE_CU:
			break;
		default:
			BUG("run_effects: verb %s of #%d", effect_verbs[x.e->verb].name, n);
		}
		/* Effects on spaces. */
		if (effect_blocked(d, s, &x, buf, sizeof(buf))) {
			elog(log, "%s: nothing to do (%s).", c->label, buf);
			continue;
		}
		if (x.w.space >= 0 && count == 1 && x.verb != V_REMOVE_CU &&
		    !c->by_player) {
			/* one named space: no choice to make (CU removals
			 * still ask: which units is the player's, 6.31) */
			apply_target(d, s, &x, x.w.space, count, 0, log);
			continue;
		}
		flow_prompt(s, PROMPT_EVENT, side, n, count);
		s->prompt.step = i;
		return false;
	}
	return true;
}

bool events_play(const struct data *d, struct state *s, struct rng *r,
		 int n, enum side side, struct strbuf *log)
{
	const struct data_card *c = card(d, n);

	if (c->war_ends_year) {
		event_war_ends(d, s, n, log);
		return true;
	}
	/* 6.3.C: removed from the game, or to the discard pile */
	if (c->removed_after_play)
		removed_push(s, n);
	else
		discard_push(s, n);
	if (c->reshuffle == RESHUFFLE_WHEN_PLAYED) {
		s->reshuffle = true;
		elog(log, "#%d calls for a reshuffle at the next deal (6.3.D).", n);
	}
	if (handler_of(c))
		return handler_of(c)->play(d, s, r, n, side, log);
	return run_effects(d, s, r, n, side, 0, log);
}

/* ---- PROMPT_EVENT ------------------------------------------------------------ */

static int c_count(const struct data_effect *e)
{
	return e->count ? e->count : 1;
}

/* An event by primitives (by_player): the first action after the current
 * one that answer a takes, on its space, or -1. */
static int by_player_next(const struct data *d, const struct state *s,
			  const struct action *a)
{
	const struct data_card *c = card(d, s->prompt.card);

	for (int j = s->prompt.step + 1; j < c->n_effects; j++) {
		struct ectx y = ectx_make(d, s->prompt.card, j, s->prompt.side);
		if (answer_kind(y.verb) != a->kind || condition_fails(s, y.w.q))
			continue;
		if (target_check(d, s, &y, a->kind, a->space, NULL) == ENGINE_OK)
			return j;
	}
	return -1;
}


enum engine_result events_check(const struct data *d, const struct state *s,
				const struct action *a, struct strbuf *why)
{
	const struct card_handler_desc *h = handler_of(card(d, s->prompt.card));
	struct ectx x;

	if (h)
		return h->check(d, s, a, why);
	x = ectx_of_prompt(d, s);
	if (a->kind == ACT_DONE) {
		if (x.w.q & QUAL_MAY)
			return ENGINE_OK;
		return illegal(why, "the event of %s is not optional: it is carried out as far as it can be (6.31)",
			       x.c->label);
	}
	if (a->kind != ACT_PLACE && a->kind != ACT_FLIP && a->kind != ACT_REMOVE)
		return illegal(why, "'%s' does not answer this prompt; expected '%s'%s",
			       action_verb(a->kind), action_verb(answer_kind(x.verb)),
			       (x.w.q & QUAL_MAY) ? " or 'done'" : "");
	if (x.c->by_player && a->kind != answer_kind(x.verb)) {
		int j = by_player_next(d, s, a);
		if (j < 0)
			return illegal(why, "'%s %s' is none of the actions left of %s",
				       action_verb(a->kind),
				       a->space >= 0 && a->space < d->n_spaces
				       ? space_name(d, a->space) : "?", x.c->label);
		{
			/* the later action as it will stand, begun afresh */
			struct state *t = xmalloc(sizeof(*t));
			enum engine_result r;
			*t = *s;
			t->prompt.step = j;
			t->prompt.left = c_count(&x.c->effects[j]);
			t->prompt.colonies_done = 0;
			t->prompt.spaces_done[0] = t->prompt.spaces_done[1] = 0;
			x = ectx_of_prompt(d, t);
			r = french_check(d, t, &x, a->space, a->french, why);
			free(t);
			return r;
		}
	}
	if (target_check(d, s, &x, a->kind, a->space, why) != ENGINE_OK)
		return ENGINE_ILLEGAL;
	return french_check(d, s, &x, a->space, a->french, why);
}

void events_apply(const struct data *d, struct state *s,
		  const struct action *a, struct rng *r, struct strbuf *log)
{
	struct ectx x;
	int n = s->prompt.card, step = s->prompt.step;
	enum side side = s->prompt.side;

	if (handler_of(card(d, n))) {
		handler_of(card(d, n))->apply(d, s, a, r, log);
		return;
	}
	x = ectx_of_prompt(d, s);
	if (x.c->by_player && a->kind != ACT_DONE && a->kind != answer_kind(x.verb)) {
		/* a later action of the list: the ones before it are passed */
		int j = by_player_next(d, s, a);
		if (j < 0)
			BUG("events_apply: no action of #%d takes '%s'", n, action_verb(a->kind));
		s->prompt.step = step = j;
		s->prompt.left = c_count(&card(d, n)->effects[j]);
		s->prompt.colonies_done = 0;
		s->prompt.spaces_done[0] = s->prompt.spaces_done[1] = 0;
		x = ectx_of_prompt(d, s);
	}

	if (a->kind == ACT_DONE) {
		elog(log, "%s takes no more actions with %s.", side_title(side), x.c->label);
	} else {
		int used = apply_target(d, s, &x, a->space, s->prompt.left,
					a->kind == ACT_REMOVE ? a->french : 0, log);
		s->prompt.left -= used;
		s->prompt.colonies_done |= 1u << d->spaces[a->space].colony;
		bit_set(s->prompt.spaces_done, a->space);
		if (s->prompt.left > 0) {
			x = ectx_of_prompt(d, s);
			if (any_target(d, s, &x))
				return;
			elog(log, "%s: nothing more to do (%d left unused).",
			     x.c->label, s->prompt.left);
		}
	}
	if (run_effects(d, s, r, n, side, step + 1, log))
		flow_end_card(d, s, r, log, 0);
}

void events_legal(const struct data *d, const struct state *s,
		  struct collect *c)
{
	const struct card_handler_desc *h = handler_of(card(d, s->prompt.card));

	if (h) {
		h->legal(d, s, c);
		return;
	}
	legal_spaces(d, s, c, ACT_PLACE);
	legal_spaces(d, s, c, ACT_FLIP);
	legal_spaces_french(d, s, c, ACT_REMOVE);	/* 6.31 */
	legal_simple(d, s, c, ACT_DONE);
}

void events_describe_prompt(const struct data *d, const struct state *s,
			    struct strbuf *out)
{
	struct ectx x;
	enum side enemy;
	int left = s->prompt.left;

	if (handler_of(card(d, s->prompt.card))) {
		handler_of(card(d, s->prompt.card))->describe(d, s, out);
		return;
	}
	x = ectx_of_prompt(d, s);
	enemy = OTHER_SIDE(x.side);

	strbuf_addf(out, "%s: event %s: ", side_title(x.side), x.c->label);
	switch (x.verb) {
	case V_PLACE_PC:
		strbuf_addf(out, "place %s PC markers", side_title(x.side));
		break;
	case V_FLIP_PC:
		strbuf_addf(out, "flip %s PC markers", side_title(enemy));
		break;
	case V_REMOVE_PC:
		strbuf_addf(out, "remove %s PC markers", side_title(enemy));
		break;
	case V_PLACE_CU:
		strbuf_addf(out, "place %d %s CU%s in one space", left,
			    side_title(x.side), left == 1 ? "" : "s");
		break;
	case V_REMOVE_CU:
		strbuf_addf(out, (x.w.q & QUAL_ONE_SPACE) ? "remove %s CUs from one space"
						       : "remove %s CUs", side_title(enemy));
		break;
	default:
		BUG("describe: verb %d", x.verb);
	}
	if (x.verb != V_PLACE_CU)
		strbuf_addf(out, " (%d to go)", left);
	strbuf_addstr(out, (x.w.q & QUAL_MAY) ? ", or 'done'" : "");
	if (x.c->by_player) {
		/* an event by primitives: the actions still to come */
		for (int j = s->prompt.step + 1; j < x.c->n_effects; j++) {
			const struct data_effect *e = &x.c->effects[j];
			enum verb v = verb_of(e);
			if (answer_kind(v) == ACT_NONE)
				continue;
			strbuf_addf(out, "; then up to %d: '%s SPACE' (%s)", c_count(e),
				    action_verb(answer_kind(v)), effect_verbs[e->verb].name);
		}
	}
	strbuf_addch(out, '.');
}
