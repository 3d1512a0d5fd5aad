/*
 * text.c - actions and prompts as words, and the enumeration of legal
 * actions (one function serves options, error messages, self-play and the
 * tests).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * One descriptor per action kind: the verb as orders write it, the kinds of
 * argument that follow it, and the argument column of docs/orders.md's
 * table of verbs (checked by tests/unit/test_order.c). The order parser,
 * the formatter and the enumeration of legal orders read it; ACT_NONE and
 * ACT_REACT are never written as such ("never"/"ask" set reactions).
 */
static const struct action_desc descs[ACT__COUNT] = {
	[ACT_NONE] = { "(none)", 0, NULL, "" },
	[ACT_PLACE] = { "place", ARG_SPACE, "space", "place a PC" },
	[ACT_FLIP] = { "flip", ARG_SPACE, "space", "flip an enemy PC to yours" },
	[ACT_REMOVE] = { "remove", ARG_SPACE | ARG_FRENCH, "space [number]", "remove an enemy PC" },
	[ACT_DONE] = { "done", 0, "\u2014", "stop here" },
	[ACT_PASS] = { "pass", 0, "\u2014", "take nothing, go on" },
	[ACT_FIRST] = { "first", ARG_SIDE, "side", "who plays the first card" },
	[ACT_PC_CARD] = { "pc", ARG_CARD, "card", "an OPS card for PC actions (10.11)" },
	[ACT_DISCARD] = { "discard", ARG_CARD, "card", "discard an event card" },
	[ACT_EVENT] = { "event", ARG_CARD, "card", "play a card's event" },
	[ACT_EXCHANGE] = { "exchange", ARG_CARD, "card",
			   "give this OPS card for the discarded event (6.32.C)" },
	[ACT_CONGRESS] = { "congress", ARG_SPACE, "space", "where the Continental Congress returns" },
	[ACT_REACT] = { "react", 0, NULL, "" },
	[ACT_ACTIVATE] = { "move", ARG_CARD | ARG_GENERAL, "card general",
			   "activate a general with an OPS card (7.1)" },
	[ACT_QUEUE] = { "queue", ARG_CARD, "card", "start or add to your Operations Queue (7.1.B)" },
	[ACT_REINFORCE] = { "reinforce", ARG_CARD, "card",
			    "bring on reinforcements with an OPS card (8.0)" },
	[ACT_TAKE] = { "take", ARG_COUNT | ARG_FRENCH, "number [number]",
		       "the CUs that move with the general from here" },
	[ACT_TO] = { "to", ARG_SPACE, "space", "one step to an adjacent space" },
	[ACT_SAIL] = { "sail", ARG_SPACE, "space", "naval movement to a port (7.5)" },
	[ACT_STOP] = { "stop", ARG_GENERAL, "[general]", "end the move here" },
	[ACT_LAND] = { "land", ARG_SPACE | ARG_COUNT | ARG_GENERAL, "space [number] [general]",
		       "where the reinforcements arrive" },
	[ACT_NAVY] = { "navy", ARG_ZONE, "zone", "the French Navy's blockade zone" },
	[ACT_FRENCH] = { "french", ARG_SPACE, "space", "the port where the French forces arrive" },
	[ACT_LOSE] = { "lose", ARG_COUNT, "number", "the French CUs among the losses" },
	[ACT_INTERCEPT] = { "intercept", ARG_GENERAL | ARG_FRENCH, "general [number]",
			    "try to intercept (7.8)" },
	[ACT_RETREAT] = { "retreat", ARG_SPACE | ARG_FRENCH, "space [number]", "retreat to" },
	[ACT_STAND] = { "stand", 0, "\u2014", "no retreat: fight" },
	[ACT_BATTLE] = { "battle", ARG_CARD, "card", "a card for the battle (9.45)" },
	[ACT_NOCARD] = { "none", 0, "\u2014", "no card in the battle" },
	[ACT_SEND] = { "send", ARG_GENERAL, "general",
		       "send this general to the Reinforcements box" },
	[ACT_DRAW] = { "draw", 0, "\u2014", "take the extra action (6.34.C.i)" },
	[ACT_RESIGN] = { "resign", 0, "confirm", "" },
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

bool action_takes_french(enum action_kind k)
{
	return action_desc(k)->args & ARG_FRENCH;
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
	/* "take 3 1", "remove Boston MA 1", "intercept Greene 2", "retreat
	 * Trenton NJ 1": the French CUs among them */
	if (action_takes_french(a->kind) && a->french > 0)
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

/* The gathering of legal actions (internal.h: struct collect). */
void legal_spaces(const struct data *d, const struct state *s,
		  struct collect *c, enum action_kind kind)
{
	for (int i = 0; i < d->n_spaces; i++) {
		struct action a = ACTION_INIT;
		a.kind = kind;
		a.space = i;
		legal_add(d, s, c, &a);
	}
}

void legal_spaces_french(const struct data *d, const struct state *s,
			 struct collect *c, enum action_kind kind)
{
	for (int f = 0; f <= 5; f++)
		for (int i = 0; i < d->n_spaces; i++) {
			struct action a = ACTION_INIT;
			a.kind = kind;
			a.space = i;
			a.french = f;
			legal_add(d, s, c, &a);
		}
}

int legal_hand_sorted(const struct state *s, int cards[STATE_MAX_HAND])
{
	const int *hand = s->hand[s->prompt.side];
	int n = 0;

	/* a slot is a card this copy does not know (a peer game, docs/peer.md
	 * 12): nothing can be done with it */
	for (int i = 0; i < s->n_hand[s->prompt.side]; i++)
		if (!CARD_IS_SLOT(hand[i]))
			cards[n++] = hand[i];
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cards[j - 1] > cards[j]; j--) {
			int t = cards[j];
			cards[j] = cards[j - 1];
			cards[j - 1] = t;
		}
	return n;
}

void legal_hand(const struct data *d, const struct state *s,
		struct collect *c, enum action_kind kind)
{
	int cards[STATE_MAX_HAND], n = legal_hand_sorted(s, cards);

	for (int i = 0; i < n; i++) {
		struct action a = ACTION_INIT;
		a.kind = kind;
		a.card = cards[i];
		legal_add(d, s, c, &a);
	}
}

void legal_simple(const struct data *d, const struct state *s,
		  struct collect *c, enum action_kind kind)
{
	struct action a = ACTION_INIT;

	a.kind = kind;
	legal_add(d, s, c, &a);
}

void legal_values(const struct data *d, const struct state *s,
		  struct collect *c, enum action_kind kind, int max)
{
	for (int n = 0; n <= max; n++) {
		struct action a = ACTION_INIT;
		a.kind = kind;
		a.value = n;
		legal_add(d, s, c, &a);
	}
}

int engine_legal(const struct data *d, const struct state *s,
		 struct action *out, int max)
{
	struct collect c = { out, max, 0 };

	if (!engine_game_over(s))
		prompt_desc(s->prompt.kind)->legal(d, s, &c);
	return c.n;
}

bool legal_kind_any(const struct data *d, const struct state *s,
		    enum action_kind kind)
{
	int n = engine_legal(d, s, NULL, 0);
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));
	bool any = false;

	engine_legal(d, s, acts, n);
	for (int i = 0; i < n && !any; i++)
		any = acts[i].kind == kind;
	free(acts);
	return any;
}

void engine_describe_prompt(const struct data *d, const struct state *s,
			    struct strbuf *out)
{
	if (!engine_game_over(s)) {
		prompt_desc(s->prompt.kind)->describe(d, s, out);
		return;
	}
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
			    s->end == END_FORFEIT ? (s->winner == SIDE_AMERICAN ?
				"the British having lost by forfeit (they stopped answering)" :
				"the Americans having lost by forfeit (they stopped answering)") :
			    "how is not recorded");
}
