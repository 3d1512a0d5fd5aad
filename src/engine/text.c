/*
 * text.c - actions and prompts as words, and the enumeration of legal
 * actions (one function serves options, error messages, self-play and the
 * tests).
 */
#include "internal.h"

#include <string.h>

/*
 * One descriptor per action kind: the verb as orders write it, the kinds of
 * argument that follow it, and the argument column of docs/orders.md's
 * table of verbs (checked by tests/unit/test_order.c). The order parser,
 * the formatter and the enumeration of legal orders read it; ACT_NONE and
 * ACT_REACT are never written as such ("never"/"ask" set reactions).
 */
static const struct action_desc descs[ACT__COUNT] = {
	[ACT_NONE] = { "(none)", 0, NULL },
	[ACT_PLACE] = { "place", ARG_SPACE, "space" },
	[ACT_FLIP] = { "flip", ARG_SPACE, "space" },
	[ACT_REMOVE] = { "remove", ARG_SPACE, "space [number]" },
	[ACT_DONE] = { "done", 0, "\u2014" },
	[ACT_PASS] = { "pass", 0, "\u2014" },
	[ACT_FIRST] = { "first", ARG_SIDE, "side" },
	[ACT_PC_CARD] = { "pc", ARG_CARD, "card" },
	[ACT_DISCARD] = { "discard", ARG_CARD, "card" },
	[ACT_EVENT] = { "event", ARG_CARD, "card" },
	[ACT_EXCHANGE] = { "exchange", ARG_CARD, "card" },
	[ACT_CONGRESS] = { "congress", ARG_SPACE, "space" },
	[ACT_REACT] = { "react", 0, NULL },
	[ACT_ACTIVATE] = { "move", ARG_CARD | ARG_GENERAL, "card general" },
	[ACT_QUEUE] = { "queue", ARG_CARD, "card" },
	[ACT_REINFORCE] = { "reinforce", ARG_CARD, "card" },
	[ACT_TAKE] = { "take", ARG_COUNT, "number [number]" },
	[ACT_TO] = { "to", ARG_SPACE, "space" },
	[ACT_SAIL] = { "sail", ARG_SPACE, "space" },
	[ACT_STOP] = { "stop", ARG_GENERAL, "[general]" },
	[ACT_LAND] = { "land", ARG_SPACE | ARG_COUNT | ARG_GENERAL, "space [number] [general]" },
	[ACT_NAVY] = { "navy", ARG_ZONE, "zone" },
	[ACT_FRENCH] = { "french", ARG_SPACE, "space" },
	[ACT_LOSE] = { "lose", ARG_COUNT, "number" },
	[ACT_INTERCEPT] = { "intercept", ARG_GENERAL, "general [number]" },
	[ACT_RETREAT] = { "retreat", ARG_SPACE, "space [number]" },
	[ACT_STAND] = { "stand", 0, "\u2014" },
	[ACT_BATTLE] = { "battle", ARG_CARD, "card" },
	[ACT_NOCARD] = { "none", 0, "\u2014" },
	[ACT_SEND] = { "send", ARG_GENERAL, "general" },
	[ACT_DRAW] = { "draw", 0, "\u2014" },
	[ACT_RESIGN] = { "resign", 0, "confirm" },
};

const struct action_desc *action_desc(enum action_kind k)
{
	if ((int)k < 0 || k >= ACT__COUNT || !descs[k].verb)
		BUG("action kind %d", k);
	return &descs[k];
}

const char *action_verb(enum action_kind k)
{
	return action_desc(k)->verb;
}

bool action_takes_card(enum action_kind k)
{
	return action_desc(k)->args & ARG_CARD;
}

bool action_takes_space(enum action_kind k)
{
	return action_desc(k)->args & ARG_SPACE;
}

bool action_takes_zone(enum action_kind k)
{
	return action_desc(k)->args & ARG_ZONE;
}

bool action_takes_side(enum action_kind k)
{
	return action_desc(k)->args & ARG_SIDE;
}

bool action_takes_general(enum action_kind k)
{
	return action_desc(k)->args & ARG_GENERAL;
}

bool action_takes_count(enum action_kind k)
{
	return action_desc(k)->args & ARG_COUNT;
}

void action_format(const struct data *d, const struct action *a,
		   struct strbuf *out)
{
	strbuf_addstr(out, action_verb(a->kind));
	if (action_takes_card(a->kind))
		strbuf_addf(out, " %d", a->card);
	if (action_takes_general(a->kind) && a->general >= 0 && a->kind != ACT_LAND)
		strbuf_addf(out, " %s", d->generals[a->general].name);
	if (action_takes_space(a->kind))
		strbuf_addf(out, " %s", space_name(d, a->space));
	if (action_takes_zone(a->kind))
		strbuf_addf(out, " %s", a->space >= 0 && a->space < d->n_zones
			    ? d->zones[a->space].name : "?");
	if (action_takes_count(a->kind))	/* "take 3", "land Boston MA 3 Howe" */
		strbuf_addf(out, " %d", a->value);
	if (a->kind == ACT_TAKE && a->french > 0)	/* "take 3 1": 1 French */
		strbuf_addf(out, " %d", a->french);
	/* "remove Boston MA 1", "intercept Greene 2", "retreat Trenton NJ 1":
	 * the French CUs among them */
	if ((a->kind == ACT_REMOVE || a->kind == ACT_INTERCEPT ||
	     a->kind == ACT_RETREAT) && a->french > 0)
		strbuf_addf(out, " %d", a->french);
	if (a->kind == ACT_LAND && a->general >= 0)
		strbuf_addf(out, " %s", d->generals[a->general].name);
	if (action_takes_side(a->kind))
		strbuf_addf(out, " %s", side_name(a->side));
	if (a->kind == ACT_RESIGN)
		strbuf_addstr(out, " confirm");
	if (a->kind == ACT_REACT) {
		out->len -= strlen("react");	/* "never exchange", "ask exchange" */
		out->buf[out->len] = '\0';
		strbuf_addf(out, "%s %s", a->value == REACT_NEVER ? "never" : "ask",
			    reaction_name((enum reaction)a->reaction));
		if (a->general >= 0)
			strbuf_addf(out, " %s", d->generals[a->general].name);
	}
}

struct collect {
	struct action *out;
	int max, n;
};

static void try_add(const struct data *d, const struct state *s,
		    struct collect *c, struct action a)
{
	if (engine_check(d, s, &a, NULL) != ENGINE_OK)
		return;
	if (c->n < c->max)
		c->out[c->n] = a;
	c->n++;
}

static void try_spaces(const struct data *d, const struct state *s,
		       struct collect *c, enum action_kind kind)
{
	for (int i = 0; i < d->n_spaces; i++) {
		struct action a = ACTION_INIT;
		a.kind = kind;
		a.space = i;
		try_add(d, s, c, a);
	}
}

static void try_hand(const struct data *d, const struct state *s,
		     struct collect *c, enum action_kind kind)
{
	enum side side = s->prompt.side;
	int cards[STATE_MAX_HAND], n = s->n_hand[side];

	/* In card-number order, so the list reads well. */
	memcpy(cards, s->hand[side], sizeof(int) * (size_t)n);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cards[j - 1] > cards[j]; j--) {
			int t = cards[j];
			cards[j] = cards[j - 1];
			cards[j - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		struct action a = ACTION_INIT;
		a.kind = kind;
		a.card = cards[i];
		try_add(d, s, c, a);
	}
}

/* move CARD GENERAL: each card of the hand (in number order) with each
 * general. */
static void try_activations(const struct data *d, const struct state *s,
			    struct collect *c)
{
	int sorted[STATE_MAX_HAND], n = s->n_hand[s->prompt.side];

	memcpy(sorted, s->hand[s->prompt.side], sizeof(int) * (size_t)n);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		for (int g = 0; g < d->n_generals; g++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_ACTIVATE;
			a.card = sorted[i];
			a.general = g;
			try_add(d, s, c, a);
		}
}

/* PROMPT_MOVE: take 0-5, to and sail each space, stop (naming no general,
 * or the one sent to the Reinforcements box). */
static void try_move(const struct data *d, const struct state *s,
		     struct collect *c)
{
	for (int n = 0; n <= 5; n++)
		for (int f = 0; f <= n; f++) {	/* f French among them */
			struct action a = ACTION_INIT;
			a.kind = ACT_TAKE;
			a.value = n;
			a.french = f;
			try_add(d, s, c, a);
		}
	try_spaces(d, s, c, ACT_TO);
	try_spaces(d, s, c, ACT_SAIL);
	for (int g = -1; g < d->n_generals; g++) {
		struct action a = ACTION_INIT;
		a.kind = ACT_STOP;
		a.general = g;
		try_add(d, s, c, a);
	}
}

/* PROMPT_LAND: each space, number of CUs and general (or none). */
static void try_land(const struct data *d, const struct state *s,
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
				try_add(d, s, c, a);
			}
}

static void try_simple(const struct data *d, const struct state *s,
		       struct collect *c, enum action_kind kind)
{
	struct action a = ACTION_INIT;

	a.kind = kind;
	try_add(d, s, c, a);
}

int engine_legal(const struct data *d, const struct state *s,
		 struct action *out, int max)
{
	struct collect c = { out, max, 0 };

	switch (s->prompt.kind) {
	case PROMPT_NONE:
		break;
	case PROMPT_CC:
	case PROMPT_DOI:
		try_spaces(d, s, &c, ACT_PLACE);
		break;
	case PROMPT_FTK:
		try_spaces(d, s, &c, ACT_PLACE);
		try_simple(d, s, &c, ACT_DONE);
		break;
	case PROMPT_FIRST:
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_FIRST;
			a.side = side;
			try_add(d, s, &c, a);
		}
		if (s->prompt.side == SIDE_BRITISH)
			try_hand(d, s, &c, ACT_EVENT);	/* 5.3.a */
		try_simple(d, s, &c, ACT_PASS);
		break;
	case PROMPT_PLAY:
		try_hand(d, s, &c, ACT_PC_CARD);
		try_hand(d, s, &c, ACT_EVENT);
		try_hand(d, s, &c, ACT_DISCARD);
		try_activations(d, s, &c);
		try_hand(d, s, &c, ACT_QUEUE);
		try_hand(d, s, &c, ACT_REINFORCE);
		break;
	case PROMPT_MOVE:
		try_move(d, s, &c);
		break;
	case PROMPT_CAMPAIGN:
		for (int g = 0; g < d->n_generals; g++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_ACTIVATE;
			a.card = s->prompt.card;
			a.general = g;
			try_add(d, s, &c, a);
		}
		try_spaces(d, s, &c, ACT_PLACE);
		try_spaces(d, s, &c, ACT_FLIP);
		try_simple(d, s, &c, ACT_DONE);
		break;
	case PROMPT_LAND:
		try_land(d, s, &c);
		break;
	case PROMPT_CAPTURE:
		try_spaces(d, s, &c, ACT_REMOVE);
		break;
	case PROMPT_PC:
		try_spaces(d, s, &c, ACT_PLACE);
		try_spaces(d, s, &c, ACT_FLIP);
		try_simple(d, s, &c, ACT_DONE);
		break;
	case PROMPT_DISCARD:
		try_spaces(d, s, &c, ACT_PLACE);
		try_spaces(d, s, &c, ACT_FLIP);
		try_spaces(d, s, &c, ACT_REMOVE);
		try_simple(d, s, &c, ACT_PASS);
		break;
	case PROMPT_EXCHANGE:
		try_hand(d, s, &c, ACT_EXCHANGE);
		try_simple(d, s, &c, ACT_PASS);
		break;
	case PROMPT_CONGRESS:
		try_spaces(d, s, &c, ACT_CONGRESS);
		break;
	case PROMPT_EVENT:
		try_spaces(d, s, &c, ACT_PLACE);
		try_spaces(d, s, &c, ACT_FLIP);
		/* the French CUs among the removed, 0 to 5 (6.31) */
		for (int v = 0; v <= 5; v++)
			for (int i = 0; i < d->n_spaces; i++) {
				struct action a = ACTION_INIT;
				a.kind = ACT_REMOVE;
				a.space = i;
				a.french = v;
				try_add(d, s, &c, a);
			}
		try_simple(d, s, &c, ACT_DONE);
		break;
	case PROMPT_NAVY:
		for (int z = 0; z < d->n_zones; z++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_NAVY;
			a.space = z;
			try_add(d, s, &c, a);
		}
		break;
	case PROMPT_FRENCH:
		try_spaces(d, s, &c, ACT_FRENCH);
		break;
	case PROMPT_WAR:
		try_spaces(d, s, &c, ACT_REMOVE);
		break;
	case PROMPT_WINTER:
		for (int n = 0; n <= s->prompt.left; n++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_LOSE;
			a.value = n;
			try_add(d, s, &c, a);
		}
		break;
	case PROMPT_INTERCEPT:
		for (int g = 0; g < d->n_generals; g++)
			for (int f = 0; f <= 5; f++) {	/* f French (7.8.C) */
				struct action a = ACTION_INIT;
				a.kind = ACT_INTERCEPT;
				a.general = g;
				a.french = f;
				try_add(d, s, &c, a);
			}
		try_simple(d, s, &c, ACT_PASS);
		break;
	case PROMPT_RETREAT_BEFORE:
		for (int f = 0; f <= 5; f++)		/* f French (7.9.B) */
			for (int i = 0; i < d->n_spaces; i++) {
				struct action a = ACTION_INIT;
				a.kind = ACT_RETREAT;
				a.space = i;
				a.french = f;
				try_add(d, s, &c, a);
			}
		try_simple(d, s, &c, ACT_STAND);
		break;
	case PROMPT_BATTLE_CARD:
		try_hand(d, s, &c, ACT_BATTLE);
		try_hand(d, s, &c, ACT_DISCARD);
		try_simple(d, s, &c, ACT_NOCARD);
		break;
	case PROMPT_LOSSES:
		for (int n = 0; n <= s->prompt.left; n++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_LOSE;
			a.value = n;
			try_add(d, s, &c, a);
		}
		break;
	case PROMPT_RETREAT:
		try_spaces(d, s, &c, ACT_RETREAT);
		try_spaces(d, s, &c, ACT_SAIL);
		break;
	case PROMPT_EXTRA:
		try_simple(d, s, &c, ACT_DRAW);
		try_simple(d, s, &c, ACT_PASS);
		break;
	case PROMPT_GENERALS:
		for (int g = 0; g < d->n_generals; g++) {
			struct action a = ACTION_INIT;
			a.kind = ACT_SEND;
			a.general = g;
			try_add(d, s, &c, a);
		}
		break;
	default:
		BUG("engine_legal: prompt %d", s->prompt.kind);
	}
	return c.n;
}

void engine_describe_prompt(const struct data *d, const struct state *s,
			    struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	const char *who = side_title(p->side);

	switch (p->kind) {
	case PROMPT_NONE:
		if (s->end == END_ABANDONED)
			strbuf_addstr(out, "The game is over: the host abandoned it and revealed the seed; nobody won.");
		else
			strbuf_addf(out, "The game is over: the %s won, %s.",
				    s->winner == SIDE_AMERICAN ? "Americans" : "British",
				    s->end == END_AUTO_BRITISH ? "an automatic victory: no American or French CU is left on the map (13.1)" :
				    s->end == END_AUTO_AMERICAN ? "an automatic victory: no British CU is left in the thirteen colonies (13.1)" :
				    s->end == END_WAR_ENDS ? "the war having ended by the War Ends card (13.2)" :
				    s->end == END_1783 ? "the war having run to the end of 1783 (13.2)" :
				    s->end == END_RESIGNED ? (s->winner == SIDE_AMERICAN ?
					"the British having resigned" : "the Americans having resigned") :
				    "how is not recorded");
		break;
	case PROMPT_CC:
		strbuf_addf(out, "American: place a Committees of Correspondence PC in each colony (%d to go).", p->left);
		break;
	case PROMPT_FTK:
		strbuf_addf(out, "British: place For The King PCs (%d to go), or 'done'.", p->left);
		break;
	case PROMPT_FIRST:
		if (p->left == 1)
			strbuf_addf(out, "British: declare yourself first player of %d by playing a campaign card ('event CARD', 5.3.a), or 'pass' and the American chooses.",
				    s->year);
		else if (p->side == SIDE_BRITISH)
			strbuf_addf(out, "British: the Continental Congress was dispersed in %d (7.7), so the British choose (5.3.b) who plays the first card of %d: 'first american' or 'first british' (or play a campaign card first: 'event CARD', 5.3.a).",
				    s->year - 1, s->year);
		else
			strbuf_addf(out, "%s: choose who plays the first card of %d (5.3.c).", who, s->year);
		break;
	case PROMPT_PLAY:
		strbuf_addf(out, "%s: play a card (%d, card %d of the turn; %d in hand).",
			    who, s->year, s->impulse + 1, s->n_hand[p->side]);
		if (s->n_queue[p->side])
			strbuf_addf(out, " The Operations Queue holds %d card%s: 'queue' or 'move' plays into it, any other play abandons it.",
				    s->n_queue[p->side], s->n_queue[p->side] == 1 ? "" : "s");
		break;
	case PROMPT_MOVE: {
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
		strbuf_addf(out, "%d of %d spaces used): 'take N', 'to SPACE', %s'stop'.",
			    m->used, move_allowance(d, s),
			    p->side == SIDE_BRITISH ? "'sail PORT' or " : "or ");
		break;
	}
	case PROMPT_LAND:
		if (p->side == SIDE_BRITISH)
			strbuf_addf(out, "British: bring on reinforcements with #%d (%d CU%s in the box): 'land PORT N [GENERAL]'.",
				    p->card, s->box_cu[NATION_BRITISH], s->box_cu[NATION_BRITISH] == 1 ? "" : "s");
		else
			strbuf_addf(out, "American: bring on %d CU%s with #%d: 'land SPACE %d [GENERAL]'.",
				    p->left, p->left == 1 ? "" : "s", p->card, p->left);
		break;
	case PROMPT_CAPTURE:
		strbuf_addf(out, "British: Washington is captured: remove American PC markers, one per colony (%d to go, 7.6.B).",
			    p->left);
		break;
	case PROMPT_PC:
		strbuf_addf(out, "%s: place or flip PC markers with #%d (%d action%s left), or 'done'.",
			    who, p->card, p->left, p->left == 1 ? "" : "s");
		break;
	case PROMPT_DISCARD:
		strbuf_addf(out, "%s: for discarding #%d, place, flip or remove one PC, or 'pass'.",
			    who, p->card);
		break;
	case PROMPT_EXCHANGE:
		strbuf_addf(out, "%s: exchange an OPS card for the discarded %s, or 'pass'.",
			    who, d->cards[p->card].label);
		break;
	case PROMPT_DOI:
		strbuf_addf(out, "American: place a Declaration of Independence PC in each colony where possible (%d to go).", p->left);
		break;
	case PROMPT_CONGRESS:
		strbuf_addstr(out, "American: return the Continental Congress to a space.");
		break;
	case PROMPT_EVENT:
		events_describe_prompt(d, s, out);
		break;
	case PROMPT_NAVY:
	case PROMPT_FRENCH:
	case PROMPT_WAR:
		alliance_describe_prompt(d, s, out);
		break;
	case PROMPT_WINTER:
		strbuf_addf(out, "American: Winter Attrition: %d CU%s of the mixed stack %s lost; name the French ones: 'lose N' (11.3).",
			    p->left, p->left == 1 ? "" : "s", p->left == 1 ? "is" : "are");
		break;
	case PROMPT_INTERCEPT:
	case PROMPT_RETREAT_BEFORE:
	case PROMPT_BATTLE_CARD:
	case PROMPT_RETREAT:
	case PROMPT_LOSSES:
		battle_describe_prompt(d, s, out);
		break;
	case PROMPT_CAMPAIGN:
		campaign_describe_prompt(d, s, out);
		break;
	case PROMPT_GENERALS:
		generals_describe_prompt(d, s, out);
		break;
	case PROMPT_EXTRA:
		strbuf_addstr(out, "British: Optional Tournament Rule: 'draw' a replacement card and take another action with any card, or 'pass' (6.34.C.i).");
		break;
	default:
		BUG("describe: prompt %d", p->kind);
	}
}
