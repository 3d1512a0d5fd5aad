/*
 * movement.c - activating generals with OPS cards and the Operations
 * Queue (7.1), movement (7.3, 7.4), British naval movement (7.5),
 * capturing generals (7.6) and dispersing the Continental Congress (7.7).
 *
 * Entering a space with enemy CUs, or one where an American Army may
 * intercept, hands over to battle.c (7.8, 7.9, 9.0).
 */
#include "internal.h"

#include <string.h>

/* "an American", "a British": for messages. */
const char *side_article(enum side side)
{
	return side == SIDE_AMERICAN ? "an American" : "a British";
}

static const struct data_card *card_of(const struct data *d, int n)
{
	if (n < 1 || n > d->n_cards)
		BUG("card number %d out of range", n);
	return &d->cards[n];
}

/* Where a general off the map is, for messages. */
static const char *box_name(int loc)
{
	switch (loc) {
	case LOC_REINFORCEMENTS: return "in the Reinforcements box";
	case LOC_CAPTURED: return "in the Captured Generals box";
	case LOC_REMOVED: return "out of the game";
	case LOC_FRENCH_BOX: return "in the French Reinforcement box";
	default: return "on the map";
	}
}

bool port_blockaded(const struct data *d, const struct state *s, int space)
{
	return d->spaces[space].port && s->french_navy >= 0 &&
	       d->spaces[space].zone == s->french_navy;
}

int lone_general_at(const struct data *d, const struct state *s, int space,
		    enum side side)
{
	int g = general_of_side_at(d, s, space, side);

	return g >= 0 && side_cus(s, space, side) == 0 ? g : -1;
}

/* ---- The Operations Queue (7.1.B) ---------------------------------------- */

static int queue_total(const struct data *d, const struct state *s,
		       enum side side)
{
	int total = 0;

	for (int i = 0; i < s->n_queue[side]; i++)
		total += card_of(d, s->queue[side][i])->ops;
	return total;
}

enum engine_result queue_check(const struct data *d, const struct state *s,
			       const struct action *a, struct strbuf *why)
{
	enum side side = s->prompt.side;
	const struct data_card *c = card_of(d, a->card);

	if (!s->n_queue[side] && c->ops > 2)
		return illegal(why, "an Operations Queue starts with a 1 or 2 OPS card, not %s (7.1.B.i)",
			       c->label);
	if (s->n_queue[side] >= STATE_MAX_QUEUE)
		return illegal(why, "the Operations Queue already holds %d cards: activate a general with it",
			       s->n_queue[side]);
	return ENGINE_OK;
}

void queue_apply(const struct data *d, struct state *s, const struct action *a,
		 struct rng *r, struct strbuf *log)
{
	enum side side = s->prompt.side;

	s->queue[side][s->n_queue[side]++] = a->card;
	elog(log, "%s plays %s into the Operations Queue (%s %d OPS, 7.1.B).",
	     side_title(side), card_of(d, a->card)->label,
	     s->n_queue[side] == 1 ? "started:" : "now", queue_total(d, s, side));
	flow_end_card(d, s, r, log, 0);
}

void queue_abandon(const struct data *d, struct state *s, enum side side,
		   struct strbuf *log)
{
	if (!s->n_queue[side])
		return;
	for (int i = 0; i < s->n_queue[side]; i++) {
		elog(log, "%s leaves the abandoned %s Operations Queue for the discard pile (7.1.B.iii).",
		     card_of(d, s->queue[side][i])->label, side_title(side));
		discard_push(s, s->queue[side][i]);
	}
	s->n_queue[side] = 0;
}

/* ---- Activation (7.1.A) ---------------------------------------------------- */

enum engine_result activate_check(const struct data *d, const struct state *s,
				  const struct action *a, struct strbuf *why)
{
	enum side side = s->prompt.side;
	const struct data_card *c = card_of(d, a->card);
	const struct data_general *gd;
	int g = a->general, total;

	if (g < 0 || g >= d->n_generals)
		return illegal(why, "name the general to activate: 'move %d GENERAL' (7.1.A)", a->card);
	gd = &d->generals[g];
	if (gd->side != side)
		return illegal(why, "%s is %s general", gd->name, side_article(gd->side));
	if (s->general[g] < 0)
		return illegal(why, "%s is %s, not on the map", gd->name, box_name(s->general[g]));
	total = c->ops + queue_total(d, s, side);
	if (gd->strategy > total) {
		if (s->n_queue[side])
			return illegal(why, "the Operations Queue and %s make %d OPS: %s has Strategy %d (7.1.A, 7.1.B.ii)",
				       c->label, total, gd->name, gd->strategy);
		return illegal(why, "%s has Strategy %d: %s cannot activate him (7.1.A)",
			       gd->name, gd->strategy, c->label);
	}
	return ENGINE_OK;
}

static int carried_total(const struct state *s)
{
	return s->move.carried[0] + s->move.carried[1] + s->move.carried[2];
}

static int mover_space(const struct state *s)
{
	return s->general[s->move.general];
}

static enum side mover_side(const struct data *d, const struct state *s)
{
	return d->generals[s->move.general].side;
}

/* The French CUs that may be among n CUs moving from the mover's space:
 * lo to hi (12.2.C: the player chooses; docs/rulings.md, R31). */
static void french_range(const struct data *d, const struct state *s, int n,
			 int *lo, int *hi)
{
	const struct space_state *sp = &s->space[mover_space(s)];

	*lo = *hi = 0;
	if (mover_side(d, s) == SIDE_BRITISH)
		return;
	*lo = n - sp->cu[NATION_AMERICAN] > 0 ? n - sp->cu[NATION_AMERICAN] : 0;
	*hi = n < sp->cu[NATION_FRENCH] ? n : sp->cu[NATION_FRENCH];
}

/* Sets the CUs moving with the general to n, french of them French. */
static void set_carried(const struct data *d, struct state *s, int n,
			int french)
{
	memset(s->move.carried, 0, sizeof(s->move.carried));
	if (mover_side(d, s) == SIDE_BRITISH) {
		s->move.carried[NATION_BRITISH] = n;
	} else {
		s->move.carried[NATION_AMERICAN] = n - french;
		s->move.carried[NATION_FRENCH] = french;
	}
}

/* 7.3.A and 7.3.C: four spaces, five for the American unless his move
 * executes an overrun, six with Glover. */
static int allowance(const struct data *d, const struct state *s)
{
	if (campaign_allowance(s))
		return campaign_allowance(s);
	return mover_side(d, s) == SIDE_AMERICAN && !s->move.overran ? 5 : 4;
}

int move_allowance(const struct data *d, const struct state *s)
{
	return allowance(d, s);
}

void activate_apply(const struct data *d, struct state *s,
		    const struct action *a, struct strbuf *log)
{
	enum side side = s->prompt.side;
	const struct data_general *gd = &d->generals[a->general];

	if (s->n_queue[side]) {
		int total = card_of(d, a->card)->ops + queue_total(d, s, side);
		elog(log, "%s plays %s into the Operations Queue (%d OPS) and activates %s (7.1.B.ii).",
		     side_title(side), card_of(d, a->card)->label, total, gd->name);
		for (int i = 0; i < s->n_queue[side]; i++)
			discard_push(s, s->queue[side][i]);
		s->n_queue[side] = 0;
	} else {
		elog(log, "%s plays %s to activate %s (Strategy %d, 7.1.A).",
		     side_title(side), card_of(d, a->card)->label, gd->name,
		     gd->strategy);
	}
	discard_push(s, a->card);
	s->intercepted = 0;	/* one attempt per Army per card (7.8.E) */
	activation_start(d, s, a->general, a->card, log);
}

void activation_start(const struct data *d, struct state *s, int g, int card,
		      struct strbuf *log)
{
	const struct data_general *gd = &d->generals[g];
	int here = s->general[g], n;

	memset(&s->move, 0, sizeof(s->move));
	s->move.active = true;
	s->move.general = g;
	s->move.card = card;
	s->move.from = here;
	n = campaign_free_cus(s, here, gd->side);	/* 7.4.E */
	{
		/* with French and American CUs to choose from, the player
		 * says which with 'take' before moving (12.2.C, R31) */
		int m = n < 5 ? n : 5, lo, hi;
		french_range(d, s, m, &lo, &hi);
		set_carried(d, s, m, lo);
	}
	if (n > 5)
		elog(log, "%s is in %s: %d CUs there, up to 5 may move (7.3.A).",
		     gd->name, space_name(d, here), n);
	else
		elog(log, "%s is in %s with %d CU%s ready to move.", gd->name,
		     space_name(d, here), carried_total(s), carried_total(s) == 1 ? "" : "s");
	if (n < side_cus(s, here, gd->side))
		elog(log, "%d CU%s there moved with another general of this campaign and stay (7.4.E).",
		     side_cus(s, here, gd->side) - n, side_cus(s, here, gd->side) - n == 1 ? "" : "s");
	flow_prompt(s, PROMPT_MOVE, gd->side, card, 0);
}

/* ---- Captures (7.6) and the Congress (7.7) ---------------------------------- */

/* The American PCs the British may still remove for Washington (7.6.B). */
enum engine_result capture_check(const struct data *d, const struct state *s,
				 const struct action *a, struct strbuf *why)
{
	int sp = a->space;

	if (sp < 0 || sp >= d->n_spaces)
		return illegal(why, "no such space");
	if (s->space[sp].pc != SIDE_AMERICAN)
		return illegal(why, "'%s' holds no American PC", space_name(d, sp));
	if (side_cus(s, sp, SIDE_AMERICAN) > 0 ||
	    general_of_side_at(d, s, sp, SIDE_AMERICAN) >= 0 || s->congress == sp)
		return illegal(why, "'%s' holds an American CU, general or the Congress (7.6.B)",
			       space_name(d, sp));
	if (s->prompt.colonies_done & (1u << d->spaces[sp].colony))
		return illegal(why, "a PC of %s has already been removed: one per colony (7.6.B)",
			       d->colonies[d->spaces[sp].colony].name);
	return ENGINE_OK;
}

static bool capture_any_legal(const struct data *d, const struct state *s)
{
	for (int i = 0; i < d->n_spaces; i++) {
		struct action a = ACTION_INIT;
		a.kind = ACT_REMOVE;
		a.space = i;
		if (capture_check(d, s, &a, NULL) == ENGINE_OK)
			return true;
	}
	return false;
}

/* After Washington's capture: the move goes on, or the card is over. */
static void capture_done(const struct data *d, struct state *s, struct rng *r,
			 struct strbuf *log)
{
	if (s->move.active)
		flow_prompt(s, PROMPT_MOVE, mover_side(d, s), s->move.card, 0);
	else
		flow_end_card(d, s, r, log, 0);
}

void capture_apply(const struct data *d, struct state *s,
		   const struct action *a, struct rng *r, struct strbuf *log)
{
	set_pc(d, s, a->space, SIDE_NONE, log, "(Washington captured, 7.6.B)");
	s->prompt.colonies_done |= 1u << d->spaces[a->space].colony;
	s->prompt.left--;
	if (s->prompt.left > 0 && capture_any_legal(d, s))
		return;
	if (s->prompt.left > 0)
		elog(log, "No other American PC can be removed (7.6.B).");
	capture_done(d, s, r, log);
}

void capture_legal(const struct data *d, const struct state *s,
		   struct collect *c)
{
	legal_spaces(d, s, c, ACT_REMOVE);
}

void capture_describe(const struct data *d, const struct state *s,
		      struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	(void)d;

	strbuf_addf(out, "British: Washington is captured: remove American PC markers, one per colony (%d to go, 7.6.B).",
		    p->left);
}

bool general_capture(const struct data *d, struct state *s, int g, int card,
		     struct strbuf *log)
{
	const struct data_general *gd = &d->generals[g];
	int where = s->general[g];

	if (!gd->never_to_reinforcements) {
		s->general[g] = LOC_CAPTURED;
		elog(log, "%s is captured in %s (7.6.A).", gd->name, space_name(d, where));
		return false;
	}
	/* Washington (7.6.B), the one general never sent to the box. */
	s->general[g] = LOC_REMOVED;
	elog(log, "%s is captured in %s and removed from the game (7.6.B).",
	     gd->name, space_name(d, where));
	french_alliance_move(s, -3, log, "Washington captured, 7.6.B");
	flow_prompt(s, PROMPT_CAPTURE, SIDE_BRITISH, card, 5);
	if (capture_any_legal(d, s))
		return true;
	elog(log, "No American PC can be removed (7.6.B).");
	return false;
}

bool arrival(const struct data *d, struct state *s, int space, enum side side,
	     bool captures, int card, struct strbuf *log)
{
	int eg = lone_general_at(d, s, space, OTHER_SIDE(side));

	/* 7.7: a British Army in the Congress's space without American CUs. */
	if (side == SIDE_BRITISH && s->congress == space &&
	    has_army(d, s, space, SIDE_BRITISH) &&
	    side_cus(s, space, SIDE_AMERICAN) == 0) {
		s->congress = -1;
		s->dispersed_this_turn = true;
		elog(log, "The British Army disperses the Continental Congress in %s (7.7).",
		     space_name(d, space));
	}
	if (captures && eg >= 0)
		return general_capture(d, s, eg, card, log);
	return false;
}

/* ---- Movement (7.3, 7.4, 7.5) -------------------------------------------- */

/*
 * Can general g, moving alone, get from `space` to a space where he may
 * stop with `left` spaces of movement (7.4.A: he may pass through an
 * enemy general alone but not stop there)? depth bounds the search.
 */
static bool lone_can_go_on(const struct data *d, const struct state *s,
			   int g, int space, int left, int depth)
{
	const struct data_space *sp = &d->spaces[space];
	enum side enemy = OTHER_SIDE(d->generals[g].side);

	for (int i = 0; i < sp->n_adj; i++) {
		int t = sp->adj[i].to, cost = sp->adj[i].wilderness ? 3 : 1;
		if ((sp->adj[i].only_general >= 0 && sp->adj[i].only_general != g) ||
		    cost > left || side_cus(s, t, enemy) > 0 || s->space[t].pc == enemy)
			continue;
		if (lone_general_at(d, s, t, enemy) < 0)
			return true;
		if (depth > 0 && lone_can_go_on(d, s, g, t, left - cost, depth - 1))
			return true;
	}
	return false;
}

static bool nations_unsaid(const struct data *d, const struct state *s);

static enum engine_result to_check(const struct data *d, const struct state *s,
				   int to, struct strbuf *why)
{
	const struct move *m = &s->move;
	const char *who = d->generals[m->general].name;
	enum side side = mover_side(d, s), enemy = OTHER_SIDE(side);
	const struct data_adj *adj;
	int at = mover_space(s), cost, left = allowance(d, s) - m->used, t;
	bool alone = carried_total(s) == 0;

	if (to < 0 || to >= d->n_spaces)
		return illegal(why, "no such space");
	if (m->sailed)
		return illegal(why, "the naval movement was %s's whole move (7.5): 'stop'", who);
	if (nations_unsaid(d, s))
		return illegal(why, "%s has American and French CUs to take in %s: say which move first, 'take N F' with F the French among them (12.2.C)",
			       who, space_name(d, at));
	adj = connection_for(d, at, to, m->general);
	if (!adj) {
		for (int i = 0; i < d->spaces[at].n_adj; i++)
			if (d->spaces[at].adj[i].to == to)
				return illegal(why, "only %s may use the connection from %s to %s (7.4.D)",
					       d->generals[d->spaces[at].adj[i].only_general].name,
					       space_name(d, at), space_name(d, to));
		return illegal(why, "'%s' is not adjacent to %s, where %s is (7.3.B)",
			       space_name(d, to), space_name(d, at), who);
	}
	cost = adj->wilderness ? 3 : 1;
	if (side == SIDE_AMERICAN && m->overran && !campaign_allowance(s) &&
	    m->used + cost > 4)
		return illegal(why, "%s's move executed an overrun: four spaces, not five (7.3.C); %d left and %s costs %d",
			       who, left, space_name(d, to), cost);
	if (cost > left)
		return illegal(why, "%s has %d of his %d spaces of movement left and %s costs %d (7.3.A%s)",
			       who, left, allowance(d, s), space_name(d, to), cost,
			       adj->wilderness ? ", a Wilderness Connection counts 3, 7.3.D"
			       : side == SIDE_AMERICAN ? ", 7.3.C" : "");
	if (side_cus(s, to, enemy) > 0) {
		if (alone)
			return illegal(why, "%s moves without CUs and cannot enter %s, which holds %s CUs (7.4.A)",
				       who, space_name(d, to), side_title(enemy));
		if (side == SIDE_AMERICAN && m->used + cost > 4 && !campaign_allowance(s))
			return illegal(why, "%s's fifth space may not enter %s, which holds British CUs: no battle or overrun there (7.3.C)",
				       who, space_name(d, to));
	}
	if (alone && s->space[to].pc == enemy)
		return illegal(why, "%s moves without CUs and cannot enter %s, which holds %s PC (7.4.B)",
			       who, space_name(d, to), side_article(enemy));
	if (alone && (t = lone_general_at(d, s, to, enemy)) >= 0 &&
	    !lone_can_go_on(d, s, m->general, to, left - cost, 4))
		return illegal(why, "%s moves without CUs: he may pass through %s, where %s is, but not stop there, and could not move on (7.4.A)",
			       who, space_name(d, to), d->generals[t].name);
	return ENGINE_OK;
}

/* Is a port eligible for naval movement (7.5, 12.3)? */
static enum engine_result naval_port(const struct data *d,
				     const struct state *s, int sp,
				     const char *what, struct strbuf *why)
{
	if (!d->spaces[sp].port)
		return illegal(why, "'%s' is not a port: naval movement %s a port (7.5)",
			       space_name(d, sp), what);
	if (port_blockaded(d, s, sp))
		return illegal(why, "'%s' is in a Blockaded Zone: no naval movement into or out of it (7.5, 12.3)",
			       space_name(d, sp));
	if (side_cus(s, sp, SIDE_AMERICAN) > 0 || s->space[sp].pc == SIDE_AMERICAN)
		return illegal(why, "'%s' holds an American CU or PC and is not eligible for naval movement (7.5)",
			       space_name(d, sp));
	return ENGINE_OK;
}

static enum engine_result sail_check(const struct data *d, const struct state *s,
				     int to, struct strbuf *why)
{
	const struct move *m = &s->move;
	const char *who = d->generals[m->general].name;
	int at = mover_space(s), t;

	if (to < 0 || to >= d->n_spaces)
		return illegal(why, "no such space");
	if (mover_side(d, s) != SIDE_BRITISH)
		return illegal(why, "only the British have naval movement (7.5)");
	if (m->used > 0 || m->sailed)
		return illegal(why, "naval movement must be the whole move, and %s has already moved (7.5)", who);
	if (naval_port(d, s, at, "starts in", why) != ENGINE_OK)
		return ENGINE_ILLEGAL;
	if (to == at)
		return illegal(why, "%s is already in %s: sail to another port", who, space_name(d, at));
	if (naval_port(d, s, to, "ends in", why) != ENGINE_OK)
		return ENGINE_ILLEGAL;
	if (carried_total(s) == 0 && (t = lone_general_at(d, s, to, SIDE_AMERICAN)) >= 0)
		return illegal(why, "%s moves without CUs and cannot stop in %s, where %s is (7.4.A)",
			       who, space_name(d, to), d->generals[t].name);
	return ENGINE_OK;
}

static enum engine_result take_check(const struct data *d,
				     const struct state *s, int n, int french,
				     struct strbuf *why)
{
	int lo, hi;

	int here = mover_space(s), avail = campaign_free_cus(s, here, mover_side(d, s));
	int max = avail < 5 ? avail : 5;

	if (s->move.sailed)
		return illegal(why, "the naval movement was the whole move (7.5): 'stop'");
	if (s->move.took)
		return illegal(why, "'take' was already answered in %s: go on with 'to' or end with 'stop'",
			       space_name(d, here));
	if (n < 0 || n > max)
		return illegal(why, "%s can take 0 to %d CUs in %s (%d there; at most 5 move, 7.3.A%s)",
			       d->generals[s->move.general].name, max,
			       space_name(d, here), avail,
			       avail < side_cus(s, here, mover_side(d, s))
			       ? "; the others moved with another general of this campaign, 7.4.E" : "");
	french_range(d, s, n, &lo, &hi);
	if (mover_side(d, s) == SIDE_BRITISH && french)
		return illegal(why, "a second number names French CUs among American ones: 'take %d'", n);
	if (french < lo || french > hi) {
		if (lo == hi)
			return illegal(why, "%d of the %d CUs taken from %s are French: 'take %d %d' (12.2.C)",
				       lo, n, space_name(d, here), n, lo);
		return illegal(why, "the %d CUs taken from %s may include %d to %d French ones: 'take %d N', N the French (12.2.C)",
			       n, space_name(d, here), lo, hi, n);
	}
	return ENGINE_OK;
}

/* With French and American CUs to choose from where the activation
 * began, the player has not yet said which move (12.2.C, R31). */
static bool nations_unsaid(const struct data *d, const struct state *s)
{
	int lo, hi;

	if (s->move.took || s->move.used > 0 || s->move.sailed)
		return false;
	french_range(d, s, carried_total(s), &lo, &hi);
	return lo < hi;
}

/* Another general of the mover's side in his space, or -1. */
static int other_general(const struct data *d, const struct state *s)
{
	int here = mover_space(s);

	for (int g = 0; g < d->n_generals; g++)
		if (g != s->move.general && s->general[g] == here &&
		    d->generals[g].side == mover_side(d, s))
			return g;
	return -1;
}

static enum engine_result stop_check(const struct data *d,
				     const struct state *s, int send,
				     struct strbuf *why)
{
	int here = mover_space(s), mover = s->move.general, other, eg;

	if (carried_total(s) == 0 &&
	    (eg = lone_general_at(d, s, here, OTHER_SIDE(mover_side(d, s)))) >= 0)
		return illegal(why, "%s moves without CUs and may not stop in %s, where %s is (7.4.A): move on",
			       d->generals[mover].name, space_name(d, here), d->generals[eg].name);
	if (send < 0)
		return ENGINE_OK;
	other = other_general(d, s);
	if (send >= d->n_generals)
		return illegal(why, "no such general");
	if (other < 0)
		return illegal(why, "no other general is in %s: just 'stop' (7.4.C)", space_name(d, here));
	if (send != mover && send != other)
		return illegal(why, "%s is not in %s: name %s or %s (7.4.C)", d->generals[send].name,
			       space_name(d, here), d->generals[mover].name, d->generals[other].name);
	if (d->generals[send].never_to_reinforcements)
		return illegal(why, "%s may never be sent to the Reinforcements box (7.4.C)",
			       d->generals[send].name);
	return ENGINE_OK;
}

enum engine_result move_check(const struct data *d, const struct state *s,
			      const struct action *a, struct strbuf *why)
{
	if (!s->move.active)
		BUG("a move prompt without a general");
	switch (a->kind) {
	case ACT_TAKE: return take_check(d, s, a->value, a->french, why);
	case ACT_TO: return to_check(d, s, a->space, why);
	case ACT_SAIL: return sail_check(d, s, a->space, why);
	case ACT_STOP: return stop_check(d, s, a->general, why);
	default: BUG("move_check: kind %d", a->kind);
	}
}

/* Moves the general and his CUs to `to`, without the effects of the
 * arrival. */
static void step(struct state *s, int to)
{
	struct move *m = &s->move;
	int from = mover_space(s);

	campaign_moved(s, from, to, carried_total(s));	/* 7.4.E */
	for (int k = 0; k < 3; k++) {
		s->space[from].cu[k] -= m->carried[k];
		s->space[to].cu[k] += m->carried[k];
	}
	s->general[m->general] = to;
	m->took = false;
}

/* Moves the general and his CUs to `to`; true if a prompt interrupts. */
static bool go(const struct data *d, struct state *s, int to,
	       struct strbuf *log)
{
	step(s, to);
	return arrival(d, s, to, mover_side(d, s), carried_total(s) > 0,
		       s->move.card, log);
}

void move_apply(const struct data *d, struct state *s, const struct action *a,
		struct rng *r, struct strbuf *log)
{
	struct move *m = &s->move;
	const char *who = d->generals[m->general].name;
	int n = carried_total(s), other;

	switch (a->kind) {
	case ACT_TAKE:
		set_carried(d, s, a->value, a->french);
		m->took = true;
		if (a->french)
			elog(log, "%s goes on from %s with %d CU%s, %d of them French (7.3.A, 12.2.C).", who,
			     space_name(d, mover_space(s)), a->value, a->value == 1 ? "" : "s", a->french);
		else
			elog(log, "%s goes on from %s with %d CU%s (7.3.A).", who,
			     space_name(d, mover_space(s)), a->value, a->value == 1 ? "" : "s");
		return;
	case ACT_TO: {
		int from = mover_space(s);
		const struct data_adj *adj = connection_for(d, from, a->space, m->general);
		/* 7.8.A, 7.8.B: a British Army (not by sea) into an American
		 * PC space holding no British CUs before the entry. */
		bool interceptable = mover_side(d, s) == SIDE_BRITISH && n > 0 &&
				     s->space[a->space].pc == SIDE_AMERICAN &&
				     side_cus(s, a->space, SIDE_BRITISH) == 0;
		m->used += adj->wilderness ? 3 : 1;
		elog(log, "%s moves from %s to %s with %d CU%s (%d of %d spaces%s).", who,
		     space_name(d, mover_space(s)), space_name(d, a->space), n,
		     n == 1 ? "" : "s", m->used, allowance(d, s),
		     adj->wilderness ? ", a Wilderness Connection counts 3" : "");
		if (interceptable) {
			/* 7.8.F: an intercepting force is in the space before
			 * the arrival; the capture of a lone general and the
			 * Congress's dispersal wait for the interceptions. */
			step(s, a->space);
			battle_entered(d, s, r, from, true, log);
		} else if (!go(d, s, a->space, log)) {
			battle_entered(d, s, r, from, false, log);
		}
		return;
	}
	case ACT_SAIL:
		m->sailed = true;
		m->took = true;
		elog(log, "%s sails from %s to %s with %d CU%s (7.5).", who,
		     space_name(d, mover_space(s)), space_name(d, a->space), n,
		     n == 1 ? "" : "s");
		go(d, s, a->space, log);
		return;
	case ACT_STOP:
		other = other_general(d, s);
		elog(log, "%s's move ends in %s.", who, space_name(d, mover_space(s)));
		if (other >= 0 && a->general >= 0) {
			s->general[a->general] = LOC_REINFORCEMENTS;
			elog(log, "%s sends %s to the Reinforcements box: one general per side in a space (7.4.C).",
			     side_title(mover_side(d, s)), d->generals[a->general].name);
		} else if (other >= 0) {
			/* the owner's choice (7.4.C): asked unless Washington */
			int here = mover_space(s), card = m->card;
			enum side side = mover_side(d, s);
			memset(m, 0, sizeof(*m));
			if (generals_meet(d, s, here, side, GN_MOVE_END, card, log))
				return;
		}
		memset(m, 0, sizeof(*m));
		flow_end_card(d, s, r, log, 0);
		return;
	default:
		BUG("move_apply: kind %d", a->kind);
	}
}

/* PROMPT_MOVE: take 0-5, to and sail each space, stop (naming no general,
 * or the one sent to the Reinforcements box). */
void move_legal(const struct data *d, const struct state *s,
		struct collect *c)
{
	for (int n = 0; n <= 5; n++)
		for (int f = 0; f <= n; f++) {	/* f French among them */
			struct action a = ACTION_INIT;
			a.kind = ACT_TAKE;
			a.value = n;
			a.french = f;
			legal_add(d, s, c, &a);
		}
	legal_spaces(d, s, c, ACT_TO);
	legal_spaces(d, s, c, ACT_SAIL);
	for (int g = -1; g < d->n_generals; g++) {
		struct action a = ACTION_INIT;
		a.kind = ACT_STOP;
		a.general = g;
		legal_add(d, s, c, &a);
	}
}

void move_describe(const struct data *d, const struct state *s,
		   struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	const char *who = side_title(p->side);
	const struct move *m = &s->move;
	int n = m->carried[0] + m->carried[1] + m->carried[2];
	int at = s->general[m->general];
	int here = campaign_free_cus(s, at, p->side);	/* 7.4.E */

	strbuf_addf(out, "%s: move %s, in %s with %d CU%s", who,
		    d->generals[m->general].name, space_name(d, at), n,
		    n == 1 ? "" : "s");
	/* more CUs here than move: say both (7.3.A) */
	if (here > n && !m->sailed)
		strbuf_addf(out, " moving (%d CUs here, up to %d may move, 7.3.A; ",
			    here, here < 5 ? here : 5);
	else
		strbuf_addstr(out, " (");
	/* only the moves open now (issue 29): no 'sail PORT' from a space
	 * that is no port, no 'to SPACE' when every step is barred */
	strbuf_addf(out, "%d of %d spaces used): 'take N', %s%s'stop'.",
		    m->used, move_allowance(d, s),
		    legal_kind_any(d, s, ACT_TO) ? "'to SPACE', " : "",
		    legal_kind_any(d, s, ACT_SAIL) ? "'sail PORT' or " : "or ");
}

void move_end_if_stuck(const struct data *d, struct state *s, struct rng *r,
		       struct strbuf *log)
{
	struct action stop = ACTION_INIT;

	if (s->prompt.kind != PROMPT_MOVE || !s->move.active ||
	    (s->move.used == 0 && !s->move.sailed))
		return;
	for (int t = 0; t < d->n_spaces; t++)
		if (to_check(d, s, t, NULL) == ENGINE_OK ||
		    sail_check(d, s, t, NULL) == ENGINE_OK)
			return;
	if (other_general(d, s) >= 0 || stop_check(d, s, -1, NULL) != ENGINE_OK)
		return;
	elog(log, "%s can move no further (7.3.A): the move ends by itself.",
	     d->generals[s->move.general].name);
	stop.kind = ACT_STOP;
	move_apply(d, s, &stop, r, log);
}
