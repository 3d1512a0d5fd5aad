/*
 * state-yaml.c - the canonical YAML form of a state (state-yaml.h): its
 * public and private parts. The writer emits keys in one fixed order; the
 * reader accepts exactly that schema and checks every value.
 */
#include "state-yaml.h"

#include <stddef.h>
#include "engine/engine.h"
#include "rng.h"
#include "ytree.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const nation_keys[] = { "american", "british", "french" };
static const char *const reaction_values[] = { "ask", "never" };

/* ---- writing ---- */

/* The generals whose bits are set in mask, comma-separated, in data order. */
static void emit_generals(struct strbuf *out, const struct data *d, uint32_t mask)
{
	for (int g = 0, first = 1; g < d->n_generals; g++) {
		if (!(mask & (1u << g)))
			continue;
		strbuf_addstr(out, first ? "" : ", ");
		ytree_emit_scalar(out, d->generals[g].name);
		first = 0;
	}
}

static void emit_bool(struct strbuf *out, const char *indent, const char *key,
		      bool v)
{
	strbuf_addf(out, "%s%s: %s\n", indent, key, v ? "true" : "false");
}

static void emit_cards(struct strbuf *out, const int *cards, int n)
{
	strbuf_addch(out, '[');
	for (int i = 0; i < n; i++)
		strbuf_addf(out, "%s%d", i ? ", " : "", cards[i]);
	strbuf_addstr(out, "]\n");
}

static const char *general_location(const struct data *d, int loc)
{
	switch (loc) {
	case LOC_REINFORCEMENTS: return "reinforcements";
	case LOC_CAPTURED: return "captured";
	case LOC_REMOVED: return "removed";
	case LOC_FRENCH_BOX: return "french-box";
	default: return d->spaces[loc].full_name;
	}
}

/* The activation in progress (7.3), written only while there is one. */
static void write_move(const struct state *s, const struct data *d,
		       struct strbuf *out)
{
	const struct move *m = &s->move;

	if (!m->active)
		return;
	strbuf_addstr(out, "move:\n  general: ");
	ytree_emit_scalar(out, d->generals[m->general].name);
	strbuf_addf(out, "\n  card: %d\n  from: ", m->card);
	ytree_emit_scalar(out, d->spaces[m->from].full_name);
	strbuf_addf(out, "\n  used: %d\n", m->used);
	strbuf_addf(out, "  carried: {american: %d, british: %d, french: %d}\n",
		    m->carried[NATION_AMERICAN], m->carried[NATION_BRITISH],
		    m->carried[NATION_FRENCH]);
	emit_bool(out, "  ", "took", m->took);
	emit_bool(out, "  ", "sailed", m->sailed);
	if (m->overran)
		strbuf_addstr(out, "  overran: true\n");
	if (s->intercepted) {
		strbuf_addstr(out, "  intercepted: [");
		emit_generals(out, d, s->intercepted);
		strbuf_addstr(out, "]\n");
	}
}

/* A count by space, as a mapping of the nonzero ones. */
static void write_counts(const struct data *d, const uint8_t *v,
			 const char *key, struct strbuf *out)
{
	strbuf_addf(out, "  %s: {", key);
	for (int i = 0, first = 1; i < d->n_spaces; i++) {
		if (!v[i])
			continue;
		strbuf_addstr(out, first ? "" : ", ");
		ytree_emit_scalar(out, d->spaces[i].full_name);
		strbuf_addf(out, ": %d", v[i]);
		first = 0;
	}
	strbuf_addstr(out, "}\n");
}

/* A campaign in progress (7.2, 7.3.C), written only while there is one. */
static void write_campaign(const struct state *s, const struct data *d,
			   struct strbuf *out)
{
	const struct campaign *c = &s->campaign;

	if (!c->card)
		return;
	strbuf_addf(out, "campaign:\n  card: %d\n  side: %s\n  left: %d\n  allowance: %d\n",
		    c->card, side_name(c->side), c->left, c->allowance);
	emit_bool(out, "  ", "landing_party", c->landing);
	emit_bool(out, "  ", "last_card", c->last);
	strbuf_addstr(out, "  generals: [");
	emit_generals(out, d, c->generals);
	strbuf_addstr(out, "]\n  intercepted: [");
	emit_generals(out, d, s->intercepted);
	strbuf_addstr(out, "]\n");
	write_counts(d, c->done, "moved", out);
	write_counts(d, c->mine, "moving", out);
}

/* A battle in progress (7.8, 7.9, 9.2), written only while there is one,
 * and the replacement draws due (6.33.B), only when there are some. */
static void write_battle(const struct state *s, const struct data *d,
			 struct strbuf *out)
{
	const struct battle *b = &s->battle;

	if (b->active) {
		strbuf_addstr(out, "battle:\n  space: ");
		ytree_emit_scalar(out, d->spaces[b->space].full_name);
		strbuf_addstr(out, "\n  from: ");
		ytree_emit_scalar(out, d->spaces[b->from].full_name);
		strbuf_addf(out, "\n  attacker: %s\n", side_name(b->attacker));
		emit_bool(out, "  ", "intercepted", b->intercepted);
		emit_bool(out, "  ", "winter_offensive", b->winter);
		strbuf_addf(out, "  cards: {american: %d, british: %d}\n",
			    b->card[SIDE_AMERICAN], b->card[SIDE_BRITISH]);
		strbuf_addf(out, "  battle_cards: {american: %s, british: %s}\n",
			    b->played[SIDE_AMERICAN] ? "true" : "false",
			    b->played[SIDE_BRITISH] ? "true" : "false");
		strbuf_addf(out, "  answered: {american: %s, british: %s}\n",
			    b->answered[SIDE_AMERICAN] ? "true" : "false",
			    b->answered[SIDE_BRITISH] ? "true" : "false");
		strbuf_addf(out, "  lost: {american: %d, british: %d}\n",
			    b->lost[SIDE_AMERICAN], b->lost[SIDE_BRITISH]);
	}
	if (s->replacement_draws[SIDE_AMERICAN] || s->replacement_draws[SIDE_BRITISH])
		strbuf_addf(out, "replacement_draws: {american: %d, british: %d}\n",
			    s->replacement_draws[SIDE_AMERICAN],
			    s->replacement_draws[SIDE_BRITISH]);
}

/* The spaces of a bit set, by their full names, in data order. */
static void emit_space_set(struct strbuf *out, const struct data *d,
			   const uint64_t bits[])
{
	for (int i = 0, first = 1; i < d->n_spaces; i++) {
		if (!((bits[i / 64] >> (i % 64)) & 1))
			continue;
		strbuf_addstr(out, first ? "" : ", ");
		ytree_emit_scalar(out, d->spaces[i].full_name);
		first = 0;
	}
}

/* Standing reactions, per side and per general. */
static void write_reactions(const struct state *s, const struct data *d,
                            struct strbuf *out)
{
	strbuf_addstr(out, "standing_reactions:\n");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		strbuf_addf(out, "  %s: {", side_name(side));
		for (int r = 0; r < REACT__COUNT; r++)
			strbuf_addf(out, "%s%s: %s", r ? ", " : "", reaction_name(r),
				    reaction_values[s->react[side][r]]);
		strbuf_addstr(out, "}\n");
	}
	strbuf_addstr(out, "  generals: {");
	for (int g = 0, first = 1; g < d->n_generals; g++) {
		bool any = false;
		for (int r = 0; r < REACT__COUNT; r++)
			any = any || s->react_general[g][r];
		if (!any)
			continue;
		strbuf_addstr(out, first ? "" : ", ");
		ytree_emit_scalar(out, d->generals[g].name);
		strbuf_addstr(out, ": {");
		for (int r = 0, f2 = 1; r < REACT__COUNT; r++) {
			if (!s->react_general[g][r])
				continue;
			strbuf_addf(out, "%s%s: %s", f2 ? "" : ", ", reaction_name(r),
				    reaction_values[s->react_general[g][r] - 1]);
			f2 = 0;
		}
		strbuf_addch(out, '}');
		first = 0;
	}
	strbuf_addstr(out, "}\n");
}

/* The decision the game waits for. */
static void write_prompt(const struct state *s, const struct data *d,
                         struct strbuf *out)
{
	strbuf_addstr(out, "prompt:\n");
	strbuf_addf(out, "  kind: %s\n", prompt_kind_name(s->prompt.kind));
	strbuf_addf(out, "  side: %s\n", side_name(s->prompt.side));
	strbuf_addf(out, "  card: %d\n", s->prompt.card);
	strbuf_addf(out, "  left: %d\n", s->prompt.left);
	strbuf_addstr(out, "  colonies_done: [");
	for (int k = 0, first = 1; k < d->n_colonies; k++) {
		if (!(s->prompt.colonies_done & (1u << k)))
			continue;
		strbuf_addf(out, "%s%s", first ? "" : ", ", d->colonies[k].code);
		first = 0;
	}
	strbuf_addstr(out, "]\n");
	strbuf_addf(out, "  step: %d\n", s->prompt.step);
	strbuf_addstr(out, "  spaces_done: [");
	emit_space_set(out, d, s->prompt.spaces_done);
	strbuf_addstr(out, "]\n");
}

/* The turn, the flags of the year and where the French Navy, the
 * Congress and Kosciuszko's works are. */
static void write_turn(const struct state *s, const struct data *d,
                       struct strbuf *out)
{
	strbuf_addstr(out, "turn:\n");
	strbuf_addf(out, "  first: %s\n", side_name(s->first));
	strbuf_addf(out, "  active: %s\n", side_name(s->active));
	strbuf_addf(out, "  impulse: %d\n", s->impulse);
	emit_bool(out, "  ", "british_choose_first", s->british_choose_first);
	emit_bool(out, "  ", "line_mutinies", s->mutinies);
	strbuf_addstr(out, "  british_pcs_at_card_start: [");
	emit_space_set(out, d, s->british_pc_at_start);
	strbuf_addstr(out, "]\n");

	/* Written only when set, so that older states read the same. */
	if (s->tournament)
		strbuf_addstr(out, "tournament_rule: true\n");
	if (s->extra_action)
		strbuf_addstr(out, "tournament_extra_action: true\n");
	emit_bool(out, "", "british_regulars", s->regulars);
	strbuf_addf(out, "french_alliance: %d\n", s->french_alliance);
	emit_bool(out, "", "french_allied", s->french_allied);
	emit_bool(out, "", "alliance_this_turn", s->alliance_this_turn);
	strbuf_addstr(out, "french_navy: ");
	if (s->french_navy == NAVY_FRENCH_BOX)
		strbuf_addstr(out, "french-box");
	else if (s->french_navy == NAVY_TURN_TRACK)
		strbuf_addstr(out, "turn-track");
	else
		ytree_emit_scalar(out, d->zones[s->french_navy].name);
	strbuf_addstr(out, "\ncongress: ");
	ytree_emit_scalar(out, s->congress < 0 ? "dispersed"
			  : d->spaces[s->congress].full_name);
	strbuf_addch(out, '\n');
	emit_bool(out, "", "congress_dispersed_this_turn", s->dispersed_this_turn);
	if (s->kosciuszko > 0) {
		strbuf_addstr(out, "kosciuszko_works: ");
		ytree_emit_scalar(out, d->spaces[s->kosciuszko - 1].full_name);
		strbuf_addch(out, '\n');
	}
}

/* The boxes' CUs, every general and the spaces that hold anything. */
static void write_pieces(const struct state *s, const struct data *d,
                         struct strbuf *out)
{
	strbuf_addstr(out, "boxes:\n");
	strbuf_addf(out, "  british_cus: %d\n", s->box_cu[NATION_BRITISH]);
	strbuf_addf(out, "  american_cus: %d\n", s->box_cu[NATION_AMERICAN]);
	strbuf_addf(out, "  french_cus: %d\n", s->box_cu[NATION_FRENCH]);

	strbuf_addstr(out, "generals:\n");
	for (int g = 0; g < d->n_generals; g++) {
		strbuf_addstr(out, "  ");
		ytree_emit_scalar(out, d->generals[g].name);
		strbuf_addstr(out, ": ");
		ytree_emit_scalar(out, general_location(d, s->general[g]));
		strbuf_addch(out, '\n');
	}

	strbuf_addstr(out, "spaces:\n");
	for (int i = 0; i < d->n_spaces; i++) {
		const struct space_state *sp = &s->space[i];
		if (!sp->pc && !sp->cu[0] && !sp->cu[1] && !sp->cu[2])
			continue;
		strbuf_addstr(out, "  ");
		ytree_emit_scalar(out, d->spaces[i].full_name);
		strbuf_addstr(out, ": {");
		const char *sep = "";
		if (sp->pc) {
			strbuf_addf(out, "pc: %s", side_name(sp->pc));
			sep = ", ";
		}
		for (int k = 0; k < 3; k++)
			if (sp->cu[k]) {
				strbuf_addf(out, "%s%s: %d", sep, nation_keys[k], sp->cu[k]);
				sep = ", ";
			}
		strbuf_addstr(out, "}\n");
	}
}

/* The public side of the cards. */
static void write_cards(const struct state *s,
			const char *const hand_commitment[3],
			struct strbuf *out)
{
	strbuf_addstr(out, "cards:\n");
	strbuf_addf(out, "  deck: %d\n", s->n_deck);
	strbuf_addf(out, "  hands: {american: %d, british: %d}\n",
		    s->n_hand[SIDE_AMERICAN], s->n_hand[SIDE_BRITISH]);
	if (hand_commitment) {
		strbuf_addstr(out, "  hand_commitments:\n");
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
			strbuf_addf(out, "    %s: %s\n", side_name(side),
				    hand_commitment[side] ? hand_commitment[side] : "none");
	}
	strbuf_addstr(out, "  discard: ");
	emit_cards(out, s->discard, s->n_discard);
	strbuf_addstr(out, "  removed: ");
	emit_cards(out, s->removed, s->n_removed);
	strbuf_addstr(out, "  set_aside: ");
	emit_cards(out, s->set_aside, s->n_set_aside);
	strbuf_addf(out, "  war_ends: %d\n", s->war_ends);
	emit_bool(out, "  ", "reshuffle", s->reshuffle);
	strbuf_addstr(out, "  reinforcement_boxes:\n");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		strbuf_addf(out, "    %s: ", side_name(side));
		emit_cards(out, s->reinf_cards[side], s->n_reinf_cards[side]);
	}
	strbuf_addstr(out, "  queues:\n");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		strbuf_addf(out, "    %s: ", side_name(side));
		emit_cards(out, s->queue[side], s->n_queue[side]);
	}
}

/* A card value as a peer state writes it: a number, or a slot sG.i. */
static void emit_card_value(struct strbuf *out, int v)
{
	if (CARD_IS_SLOT(v))
		strbuf_addf(out, "s%d.%d", CARD_SLOT_GEN(v), CARD_SLOT_POS(v));
	else
		strbuf_addf(out, "%d", v);
}

/*
 * A peer game's section (docs/peer.md 6.2), written only when s->peer.on:
 * the deck's generation and top, the hands as slots and numbers, and the
 * protocol's fields as they are (waits always, as a list; pending and
 * sealed only when set).
 */
static void write_peer(const struct state *s, struct strbuf *out)
{
	const struct state_peer *p = &s->peer;
	bool any = false;

	strbuf_addstr(out, "peer:\n");
	strbuf_addf(out, "  generation: %d\n", p->generation);
	strbuf_addf(out, "  deck_top: %d\n", p->deck_top);
	strbuf_addstr(out, "  hands:\n");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		strbuf_addf(out, "    %s: [", side_name(side));
		for (int i = 0; i < s->n_hand[side]; i++) {
			strbuf_addstr(out, i ? ", " : "");
			emit_card_value(out, s->hand[side][i]);
		}
		strbuf_addstr(out, "]\n");
	}
	strbuf_addstr(out, p->n_waits ? "  waits:\n" : "  waits: []\n");
	for (int i = 0; i < p->n_waits; i++) {
		strbuf_addstr(out, "    - ");
		ytree_emit_scalar(out, p->waits[i]);
		strbuf_addch(out, '\n');
	}
	if (*p->pending) {
		strbuf_addstr(out, "  pending: ");
		ytree_emit_scalar(out, p->pending);
		strbuf_addch(out, '\n');
	}
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		if (!*p->sealed[side])
			continue;
		if (!any)
			strbuf_addstr(out, "  sealed:\n");
		any = true;
		strbuf_addf(out, "    %s: %s\n", side_name(side), p->sealed[side]);
	}
}

/* The end of the game, if any. */
static void write_result(const struct state *s, struct strbuf *out)
{
	strbuf_addstr(out, "result:\n");
	strbuf_addf(out, "  winner: %s\n", side_name(s->winner));
	strbuf_addf(out, "  end: %s\n", game_end_name(s->end));
	strbuf_addf(out, "  colonies: {american: %d, british: %d}\n",
		    s->colonies[SIDE_AMERICAN], s->colonies[SIDE_BRITISH]);
}

void state_write_public(const struct state *s, const struct data *d,
			const char *const hand_commitment[3], struct strbuf *out)
{
	strbuf_addstr(out, "# Washington's War: the public state of the game (postrider).\n");
	strbuf_addf(out, "version: %d\n", s->version);
	strbuf_addf(out, "seq: %u\n", s->seq);
	strbuf_addf(out, "orders: {american: %u, british: %u}\n",
		    s->orders[SIDE_AMERICAN], s->orders[SIDE_BRITISH]);
	strbuf_addf(out, "draws: %llu\n", (unsigned long long)s->draws);
	if (s->has_words[SIDE_AMERICAN] || s->has_words[SIDE_BRITISH]) {
		const char *sep = "";
		strbuf_addstr(out, "words: {");
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			char hex[65];
			if (!s->has_words[side])
				continue;
			hex_encode(s->words[side], 32, hex);
			strbuf_addf(out, "%s%s: %s", sep, side_name(side), hex);
			sep = ", ";
		}
		strbuf_addstr(out, "}\n");
	}
	write_reactions(s, d, out);
	strbuf_addf(out, "year: %d\n", s->year);
	write_prompt(s, d, out);
	write_move(s, d, out);
	write_battle(s, d, out);
	write_campaign(s, d, out);
	write_turn(s, d, out);
	write_pieces(s, d, out);
	write_cards(s, hand_commitment, out);
	write_result(s, out);
	if (s->peer.on)
		write_peer(s, out);
}

void state_write_hand(const struct state *s, enum side side,
		      struct strbuf *out)
{
	emit_cards(out, s->hand[side], s->n_hand[side]);
}

/* The private texts of each side (order.c's), by key. */
static const struct {
	const char *key;
	size_t offset, size;	/* of the [3][size] array in struct state */
} private_texts[] = {
	{ "held", offsetof(struct state, held), STATE_HELD_MAX },
	{ "held_notes", offsetof(struct state, held_note), STATE_NOTE_MAX },
	{ "standing", offsetof(struct state, standing), STATE_NOTE_MAX },
	{ "sealed_lines", offsetof(struct state, sealed_lines), STATE_HELD_MAX },
};

static const char *private_text(const struct state *s, size_t k, enum side side)
{
	return (const char *)s + private_texts[k].offset + (size_t)side * private_texts[k].size;
}

static char *private_text_mut(struct state *s, size_t k, enum side side)
{
	return (char *)s + private_texts[k].offset + (size_t)side * private_texts[k].size;
}

void state_write_private(const struct state *s, const struct data *d,
			 struct strbuf *out)
{
	(void)d;
	strbuf_addstr(out, "# Washington's War: the host's private state (postrider).\n");
	strbuf_addf(out, "seq: %u\n", s->seq);
	strbuf_addstr(out, "deck: ");
	emit_cards(out, s->deck, s->n_deck);
	strbuf_addstr(out, "hands:\n");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		strbuf_addf(out, "  %s: ", side_name(side));
		state_write_hand(s, side, out);
	}
	for (size_t k = 0; k < ARRAY_SIZE(private_texts); k++) {
		/* held:, held_notes:, standing:, sealed_lines: when a side has one */
		bool any = false;
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			const char *v = private_text(s, k, side);
			if (!*v)
				continue;
			if (!any)
				strbuf_addf(out, "%s:\n", private_texts[k].key);
			any = true;
			strbuf_addf(out, "  %s: ", side_name(side));
			ytree_emit_scalar(out, v);
			strbuf_addch(out, '\n');
		}
	}
	if (s->n_shuffles) {
		strbuf_addstr(out, "shuffles:\n");
		for (int i = 0; i < s->n_shuffles; i++) {
			const struct state_shuffle *sh = &s->shuffles[i];
			strbuf_addf(out, "  - draws: %" PRIu64 "-%" PRIu64 "\n    list: ",
				    sh->first, sh->first + (uint64_t)sh->n - 2);
			emit_cards(out, sh->items, sh->n);
		}
	}
}

/* STATE_CARD_DIGITS less the digits of each card of cards[0..n-1]. */
static size_t digits_short(const int *cards, int n)
{
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		int w = cards[i] >= 100 ? 3 : cards[i] >= 10 ? 2 : 1;
		if (cards[i] > 999 || cards[i] < 0)
			BUG("card number %d in the private state", cards[i]);
		k += (size_t)(STATE_CARD_DIGITS - w);
	}
	return k;
}

/* The smallest room of the classes of state_private_padded_size() that
 * holds n bytes: first, then first times a power of two. */
static size_t room_for(size_t n, size_t first)
{
	size_t room = first;

	while (room < n)
		room *= 2;
	return room;
}

size_t state_private_padded_size(const struct state *s, const struct data *d,
				 bool each_side)
{
	struct strbuf full = STRBUF_INIT, bare = STRBUF_INIT;
	struct state *b = xmalloc(sizeof(*b));
	size_t rooms = 0, size;

	*b = *s;
	for (size_t k = 0; k < ARRAY_SIZE(private_texts); k++)
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
			private_text_mut(b, k, side)[0] = '\0';
	state_write_private(b, d, &bare);
	if (each_side) {
		/* each side's texts alone, keys included: what one side
		 * writes never moves the class of the other's room (the
		 * keys they share are counted in both, so the rooms hold
		 * the two together) */
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			struct state *one = xmalloc(sizeof(*one));
			*one = *b;
			for (size_t k = 0; k < ARRAY_SIZE(private_texts); k++)
				memcpy(private_text_mut(one, k, side), private_text(s, k, side),
				       private_texts[k].size);
			strbuf_reset(&full);
			state_write_private(one, d, &full);
			rooms += room_for(full.len - bare.len, STATE_SEALED_ROOM_SIDE);
			free(one);
		}
	} else {
		state_write_private(s, d, &full);
		rooms = room_for(full.len - bare.len, STATE_SEALED_ROOM);
	}
	size = 4 + bare.len + rooms + digits_short(s->deck, s->n_deck) +
	       digits_short(s->hand[SIDE_AMERICAN], s->n_hand[SIDE_AMERICAN]) +
	       digits_short(s->hand[SIDE_BRITISH], s->n_hand[SIDE_BRITISH]);
	for (int i = 0; i < s->n_shuffles; i++)
		size += digits_short(s->shuffles[i].items, s->shuffles[i].n);
	strbuf_release(&full);
	strbuf_release(&bare);
	free(b);
	return size;
}

/* ---- reading ---- */

struct reader {
	struct ytree t;
	const struct data *d;
	struct strbuf *err;
	int errors;
};

#define FAIL(n, ...) do { ytree_error(&rd->t, (n), rd->err, __VA_ARGS__); rd->errors++; } while (0)

static yaml_node_t *need(struct reader *rd, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = ytree_get(&rd->t, map, key);

	if (!n)
		FAIL(map, "missing key '%s'", key);
	return n;
}

static long get_int(struct reader *rd, yaml_node_t *map, const char *key,
		    long min, long max)
{
	yaml_node_t *n = need(rd, map, key);
	long v = 0;

	if (n && ytree_int(&rd->t, n, min, max, &v, rd->err) < 0)
		rd->errors++;
	return v;
}

static bool get_bool(struct reader *rd, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = need(rd, map, key);
	bool v = false;

	if (n && ytree_bool(&rd->t, n, &v, rd->err) < 0)
		rd->errors++;
	return v;
}

static enum side get_side(struct reader *rd, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = need(rd, map, key);
	const char *v = ytree_scalar(n);
	int side;

	if (!n)
		return SIDE_NONE;
	side = v ? side_parse(v) : -1;
	if (side < 0) {
		FAIL(n, "expected american, british or none, found '%s'", v ? v : "?");
		return SIDE_NONE;
	}
	return (enum side)side;
}

static int space_by_name(struct reader *rd, yaml_node_t *n)
{
	const char *v = ytree_scalar(n);
	int i = v ? data_space_index(rd->d, v) : -1;

	if (i < 0)
		FAIL(n, "unknown space '%s'", v ? v : "?");
	return i;
}

static int get_cards(struct reader *rd, yaml_node_t *map, const char *key,
		     int *cards, int max)
{
	yaml_node_t *n = need(rd, map, key);
	int len;

	if (!n)
		return 0;
	if (n->type != YAML_SEQUENCE_NODE) {
		FAIL(n, "'%s' must be a list of card numbers", key);
		return 0;
	}
	len = ytree_len(n);
	if (len > max) {
		FAIL(n, "'%s' holds %d cards, at most %d", key, len, max);
		return 0;
	}
	for (int i = 0; i < len; i++) {
		long v = 0;
		if (ytree_int(&rd->t, ytree_item(&rd->t, n, i), 1,
			      rd->d->n_cards, &v, rd->err) < 0)
			rd->errors++;
		cards[i] = (int)v;
	}
	return len;
}

static yaml_node_t *get_map(struct reader *rd, yaml_node_t *map,
			    const char *key, const char *const *allowed)
{
	yaml_node_t *n = need(rd, map, key);

	if (!n)
		return NULL;
	if (n->type != YAML_MAPPING_NODE) {
		FAIL(n, "'%s' must be a mapping", key);
		return NULL;
	}
	if (allowed)
		rd->errors += ytree_check_keys(&rd->t, n, allowed, rd->err);
	return n;
}

static int parse_prompt_kind(struct reader *rd, yaml_node_t *n)
{
	const char *v = ytree_scalar(n);

	for (int k = 0; v && k < PROMPT__COUNT; k++)
		if (!strcmp(v, prompt_kind_name(k)))
			return k;
	FAIL(n, "unknown prompt kind '%s'", v ? v : "?");
	return PROMPT_NONE;
}

/* The optional move block, read after the rest: it is checked against
 * the prompt, the general's place and the CUs there. */
static void read_move(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const keys[] = {
		"general", "card", "from", "used", "carried", "took", "sailed",
		"overran", "intercepted", NULL
	};
	static const char *const nation_keys3[] = { "american", "british", "french", NULL };
	const struct data *d = rd->d;
	struct move *m = &s->move;
	yaml_node_t *mv = ytree_get(&rd->t, root, "move"), *n, *c;
	unsigned blocks = engine_prompt_blocks(s->prompt.kind);
	bool wants = blocks & PB_MOVE;

	if (!mv) {
		if (wants)
			FAIL(root, "a move prompt needs the 'move' block");
		return;
	}
	if (mv->type != YAML_MAPPING_NODE) {
		FAIL(mv, "'move' must be a mapping");
		return;
	}
	if (!(blocks & (PB_MOVE | PB_MAY_MOVE))) {
		FAIL(mv, "a 'move' block belongs only to a move or capture prompt");
		return;
	}
	rd->errors += ytree_check_keys(&rd->t, mv, keys, rd->err);
	m->active = true;
	m->general = 0;
	if ((n = need(rd, mv, "general"))) {
		const char *v = ytree_scalar(n);
		int g = v ? data_general_index(d, v) : -1;
		if (g < 0)
			FAIL(n, "unknown general '%s'", v ? v : "?");
		else if (s->general[g] < 0)
			FAIL(n, "the moving general %s is not on the map", v);
		else
			m->general = g;
	}
	m->card = (int)get_int(rd, mv, "card", 1, d->n_cards);
	if ((n = need(rd, mv, "from"))) {
		int sp = space_by_name(rd, n);
		m->from = sp < 0 ? 0 : sp;
	}
	m->used = (int)get_int(rd, mv, "used", 0, 6);
	if ((c = get_map(rd, mv, "carried", nation_keys3))) {
		int total = 0;
		for (int k = 0; k < 3; k++) {
			m->carried[k] = (int)get_int(rd, c, nation_keys[k], 0, 5);
			total += m->carried[k];
			if (s->general[m->general] >= 0 &&
			    m->carried[k] > s->space[s->general[m->general]].cu[k])
				FAIL(c, "%d %s CUs move with %s, but his space holds %d",
				     m->carried[k], nation_keys[k], d->generals[m->general].name,
				     s->space[s->general[m->general]].cu[k]);
		}
		if (total > 5)
			FAIL(c, "%d CUs move: at most 5 (7.3.A)", total);
		if (d->generals[m->general].side == SIDE_BRITISH
		    ? m->carried[NATION_AMERICAN] + m->carried[NATION_FRENCH] > 0
		    : m->carried[NATION_BRITISH] > 0)
			FAIL(c, "%s cannot move the other side's CUs", d->generals[m->general].name);
	}
	if ((n = ytree_get(&rd->t, mv, "intercepted"))) {
		for (int i = 0; i < ytree_len(n); i++) {
			yaml_node_t *item = ytree_item(&rd->t, n, i);
			const char *v = ytree_scalar(item);
			int g = v ? data_general_index(d, v) : -1;
			if (g < 0 || d->generals[g].side != SIDE_AMERICAN)
				FAIL(item, "'%s' is not an American general", v ? v : "?");
			else
				s->intercepted |= 1u << g;
		}
	}
	if (s->prompt.kind == PROMPT_MOVE && s->prompt.side != d->generals[m->general].side)
		FAIL(mv, "the move prompt is the %s's, but %s is %s", side_name(s->prompt.side),
		     d->generals[m->general].name, side_name(d->generals[m->general].side));
	m->took = get_bool(rd, mv, "took");
	m->sailed = get_bool(rd, mv, "sailed");
	if (ytree_get(&rd->t, mv, "overran"))
		m->overran = get_bool(rd, mv, "overran");
}

/* A list of general names as a bit set; only generals of side. */
static uint32_t read_generals(struct reader *rd, yaml_node_t *n, enum side side)
{
	uint32_t set = 0;

	if (!n)
		return 0;
	if (n->type != YAML_SEQUENCE_NODE) {
		FAIL(n, "expected a list of generals");
		return 0;
	}
	for (int i = 0; i < ytree_len(n); i++) {
		yaml_node_t *c = ytree_item(&rd->t, n, i);
		const char *v = ytree_scalar(c);
		int g = v ? data_general_index(rd->d, v) : -1;
		if (g < 0 || rd->d->generals[g].side != side)
			FAIL(c, "'%s' is not %s general", v ? v : "?",
			     side == SIDE_AMERICAN ? "an American" : "a British");
		else
			set |= 1u << g;
	}
	return set;
}

/* A count by space (see write_counts). */
static void read_counts(struct reader *rd, yaml_node_t *map, const char *key,
			uint8_t *v)
{
	yaml_node_t *n = get_map(rd, map, key, NULL);

	for (int i = 0; n && i < ytree_map_len(n); i++) {
		const char *name = ytree_map_key(&rd->t, n, i, NULL);
		yaml_node_t *val = ytree_map_value(&rd->t, n, i);
		int sp = name ? data_space_index(rd->d, name) : -1;
		long x = 0;
		if (sp < 0) {
			FAIL(n, "unknown space '%s'", name ? name : "?");
			continue;
		}
		if (ytree_int(&rd->t, val, 0, 255, &x, rd->err) < 0)
			rd->errors++;
		v[sp] = (uint8_t)x;
	}
}

/* The optional campaign block (see write_campaign). */
static void read_campaign(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const keys[] = {
		"card", "side", "left", "allowance", "landing_party", "last_card",
		"generals", "intercepted", "moved", "moving", NULL
	};
	const struct data *d = rd->d;
	struct campaign *c = &s->campaign;
	yaml_node_t *m = ytree_get(&rd->t, root, "campaign");

	if (!m) {
		if (s->prompt.kind == PROMPT_CAMPAIGN)
			FAIL(root, "a campaign prompt needs the 'campaign' block");
		return;
	}
	if (m->type != YAML_MAPPING_NODE) {
		FAIL(m, "'campaign' must be a mapping");
		return;
	}
	rd->errors += ytree_check_keys(&rd->t, m, keys, rd->err);
	c->card = (int)get_int(rd, m, "card", 1, d->n_cards);
	c->side = get_side(rd, m, "side");
	c->left = (int)get_int(rd, m, "left", 0, 3);
	c->allowance = (int)get_int(rd, m, "allowance", 0, 6);
	c->landing = get_bool(rd, m, "landing_party");
	c->last = get_bool(rd, m, "last_card");
	if (c->side != SIDE_AMERICAN && c->side != SIDE_BRITISH) {
		FAIL(m, "a campaign belongs to the american or the british");
		c->side = SIDE_BRITISH;
	}
	c->generals = read_generals(rd, need(rd, m, "generals"), c->side);
	s->intercepted |= read_generals(rd, need(rd, m, "intercepted"), SIDE_AMERICAN);
	read_counts(rd, m, "moved", c->done);
	read_counts(rd, m, "moving", c->mine);
	if (c->card >= 1 && c->card <= d->n_cards && !d->cards[c->card].campaign &&
	    !(c->allowance && c->side == SIDE_AMERICAN))
		FAIL(m, "card %d is not a campaign card", c->card);
	if (s->prompt.kind == PROMPT_CAMPAIGN &&
	    (s->prompt.side != c->side || s->prompt.card != c->card))
		FAIL(m, "the campaign prompt is not that of the campaign in progress");
}

/* The optional battle block and replacement draws (see write_battle). */
static void read_battle(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const keys[] = {
		"space", "from", "attacker", "intercepted", "winter_offensive",
		"cards", "battle_cards", "answered", "lost", NULL
	};
	static const char *const side_keys[] = { "american", "british", NULL };
	const struct data *d = rd->d;
	struct battle *b = &s->battle;
	yaml_node_t *bt = ytree_get(&rd->t, root, "battle"), *n, *m;
	unsigned blocks = engine_prompt_blocks(s->prompt.kind);
	bool wants = blocks & PB_BATTLE;

	if (ytree_get(&rd->t, root, "replacement_draws") &&
	    (m = get_map(rd, root, "replacement_draws", side_keys))) {
		s->replacement_draws[SIDE_AMERICAN] = (int)get_int(rd, m, "american", 0, 10);
		s->replacement_draws[SIDE_BRITISH] = (int)get_int(rd, m, "british", 0, 10);
	}
	if (!bt) {
		if (wants)
			FAIL(root, "a %s prompt needs the 'battle' block",
			     prompt_kind_name(s->prompt.kind));
		return;
	}
	if (bt->type != YAML_MAPPING_NODE) {
		FAIL(bt, "'battle' must be a mapping");
		return;
	}
	if (!(blocks & (PB_BATTLE | PB_MAY_BATTLE))) {
		FAIL(bt, "a 'battle' block belongs only to an interception, retreat or battle prompt");
		return;
	}
	rd->errors += ytree_check_keys(&rd->t, bt, keys, rd->err);
	b->active = true;
	if ((n = need(rd, bt, "space"))) {
		int sp = space_by_name(rd, n);
		b->space = sp < 0 ? 0 : sp;
	}
	if ((n = need(rd, bt, "from"))) {
		int sp = space_by_name(rd, n);
		b->from = sp < 0 ? 0 : sp;
	}
	b->attacker = get_side(rd, bt, "attacker");
	if (b->attacker == SIDE_NONE)
		FAIL(bt, "a battle needs an attacker: american or british");
	b->intercepted = get_bool(rd, bt, "intercepted");
	b->winter = get_bool(rd, bt, "winter_offensive");
	if ((m = get_map(rd, bt, "cards", side_keys))) {
		b->card[SIDE_AMERICAN] = (int)get_int(rd, m, "american", 0, d->n_cards);
		b->card[SIDE_BRITISH] = (int)get_int(rd, m, "british", 0, d->n_cards);
	}
	if ((m = get_map(rd, bt, "battle_cards", side_keys))) {
		b->played[SIDE_AMERICAN] = get_bool(rd, m, "american");
		b->played[SIDE_BRITISH] = get_bool(rd, m, "british");
	}
	if ((m = get_map(rd, bt, "answered", side_keys))) {
		b->answered[SIDE_AMERICAN] = get_bool(rd, m, "american");
		b->answered[SIDE_BRITISH] = get_bool(rd, m, "british");
	}
	if ((m = get_map(rd, bt, "lost", side_keys))) {
		b->lost[SIDE_AMERICAN] = (int)get_int(rd, m, "american", 0, 40);
		b->lost[SIDE_BRITISH] = (int)get_int(rd, m, "british", 0, 40);
	}
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		if (b->played[side] && (!b->card[side] || !d->cards[b->card[side]].battle_card))
			FAIL(bt, "the %s battle card #%d is not a battle card",
			     side_name(side), b->card[side]);
	if ((s->prompt.kind == PROMPT_INTERCEPT || s->prompt.kind == PROMPT_RETREAT_BEFORE) &&
	    (b->attacker != SIDE_BRITISH || !s->move.active ||
	     s->general[s->move.general] != b->space || s->prompt.side != SIDE_AMERICAN))
		FAIL(bt, "an interception or retreat before battle needs a British move into the battle space and the American to answer");
	if (s->prompt.kind == PROMPT_RETREAT_BEFORE) {
		bool found = false;
		for (int g = 0; g < d->n_generals; g++)
			found |= s->general[g] == b->space && d->generals[g].side == SIDE_AMERICAN;
		if (!found)
			FAIL(bt, "a retreat before battle needs an American general in %s",
			     d->spaces[b->space].full_name);
	}
	if ((s->prompt.kind == PROMPT_BATTLE_CARD || s->prompt.kind == PROMPT_RETREAT) &&
	    s->prompt.side == SIDE_NONE)
		FAIL(bt, "a battle prompt needs a side to answer it");
	if (s->prompt.kind == PROMPT_LOSSES &&
	    (s->prompt.side != SIDE_AMERICAN || s->prompt.left < 1 || s->prompt.step > 1 ||
	     s->prompt.left > s->space[b->space].cu[NATION_AMERICAN] + s->space[b->space].cu[NATION_FRENCH]))
		FAIL(bt, "a battle-losses prompt needs the American, losses (left) and step 0 (the loser's) or 1 (the winner's)");
}

/* The game's counters: orders per side, and each side's words (fairness.md). */
static void read_counters(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const side_keys[] = { "american", "british", NULL };
	yaml_node_t *m;

	if (ytree_get(&rd->t, root, "words") &&
	    (m = get_map(rd, root, "words", side_keys))) {
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			yaml_node_t *n = ytree_get(&rd->t, m, side_name(side));
			const char *v = ytree_scalar(n);
			if (!n)
				continue;
			if (!v || strlen(v) != 64 || hex_decode(v, s->words[side], 32) < 0)
				FAIL(n, "words: a SHA-256 hash (64 hex digits)");
			else
				s->has_words[side] = true;
		}
	}
	if ((m = get_map(rd, root, "orders", side_keys))) {
		s->orders[SIDE_AMERICAN] = (uint32_t)get_int(rd, m, "american", 0, 100000000);
		s->orders[SIDE_BRITISH] = (uint32_t)get_int(rd, m, "british", 0, 100000000);
	}
}

/* Standing reactions: per side, and per general where a side set one. */
static void read_reactions(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const reaction_names_keys[] = {
		"exchange", "intercept", "retreat", "battle", "declare", NULL
	};
	static const char *const reaction_top_keys[] = { "american", "british", "generals", NULL };
	const struct data *d = rd->d;
	yaml_node_t *m;

	if ((m = get_map(rd, root, "standing_reactions", reaction_top_keys))) {
		yaml_node_t *gm = need(rd, m, "generals");
		for (int i = 0; i < ytree_map_len(gm); i++) {
			yaml_node_t *kn, *vn = ytree_map_value(&rd->t, gm, i);
			const char *k = ytree_map_key(&rd->t, gm, i, &kn);
			int g = k ? data_general_index(d, k) : -1;
			if (g < 0) {
				FAIL(kn, "unknown general '%s'", k ? k : "?");
				continue;
			}
			if (vn->type != YAML_MAPPING_NODE) {
				FAIL(vn, "expected the reactions of %s", k);
				continue;
			}
			rd->errors += ytree_check_keys(&rd->t, vn, reaction_names_keys, rd->err);
			for (int r = 0; r < REACT__COUNT; r++) {
				yaml_node_t *v = ytree_get(&rd->t, vn, reaction_name(r));
				const char *t = ytree_scalar(v);
				if (!v)
					continue;
				if (t && !strcmp(t, "ask"))
					s->react_general[g][r] = 1 + REACT_ASK;
				else if (t && !strcmp(t, "never"))
					s->react_general[g][r] = 1 + REACT_NEVER;
				else
					FAIL(v, "expected ask or never, found '%s'", t ? t : "?");
			}
		}
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			yaml_node_t *r = get_map(rd, m, side_name(side), reaction_names_keys);
			for (int k = 0; r && k < REACT__COUNT; k++) {
				/* "declare" came later: absent means ask */
				yaml_node_t *v = k == REACT_DECLARE ?
					ytree_get(&rd->t, r, reaction_name(k)) :
					need(rd, r, reaction_name(k));
				const char *t = ytree_scalar(v);
				int val = -1;
				for (unsigned j = 0; t && j < ARRAY_SIZE(reaction_values); j++)
					if (!strcmp(t, reaction_values[j]))
						val = (int)j;
				if (v && val < 0)
					FAIL(v, "expected ask or never, found '%s'", t ? t : "?");
				else if (v)
					s->react[side][k] = val;
			}
		}
	}
}

/* The decision the game waits for, and its own checks. */
static void read_prompt(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const prompt_keys[] = {
		"kind", "side", "card", "left", "colonies_done", "step",
		"spaces_done", NULL
	};
	const struct data *d = rd->d;
	yaml_node_t *n, *m;

	if ((m = get_map(rd, root, "prompt", prompt_keys))) {
		if ((n = need(rd, m, "kind")))
			s->prompt.kind = parse_prompt_kind(rd, n);
		s->prompt.side = get_side(rd, m, "side");
		s->prompt.card = (int)get_int(rd, m, "card", 0, d->n_cards);
		s->prompt.left = (int)get_int(rd, m, "left", 0, 100);
		if ((n = need(rd, m, "colonies_done"))) {
			for (int i = 0; i < ytree_len(n); i++) {
				yaml_node_t *c = ytree_item(&rd->t, n, i);
				int k = ytree_scalar(c) ? data_colony_index(d, ytree_scalar(c)) : -1;
				if (k < 0)
					FAIL(c, "unknown colony '%s'", ytree_scalar(c) ? ytree_scalar(c) : "?");
				else
					s->prompt.colonies_done |= 1u << k;
			}
		}
		s->prompt.step = (int)get_int(rd, m, "step", 0, DATA_MAX_EFFECTS - 1);
		if ((n = need(rd, m, "spaces_done"))) {
			for (int i = 0; i < ytree_len(n); i++) {
				int sp = space_by_name(rd, ytree_item(&rd->t, n, i));
				if (sp >= 0)
					s->prompt.spaces_done[sp / 64] |= (uint64_t)1 << (sp % 64);
			}
		}
		/* An event's choices need the event and one of its effects. */
		if (s->prompt.kind == PROMPT_EVENT &&
		    (s->prompt.card < 1 || d->cards[s->prompt.card].ops ||
		     (s->prompt.step >= d->cards[s->prompt.card].n_effects &&
		      !d->cards[s->prompt.card].handler)))
			FAIL(m, "an event prompt needs an event card and one of its effects (card %d, step %d)",
			     s->prompt.card, s->prompt.step);
		/* Winter losses of a mixed stack: one space, some losses (11.3). */
		if (s->prompt.kind == PROMPT_WINTER &&
		    (__builtin_popcountll(s->prompt.spaces_done[0]) +
		     __builtin_popcountll(s->prompt.spaces_done[1]) != 1 ||
		     s->prompt.left < 1))
			FAIL(m, "a winter prompt needs one space and its losses");
		if (s->prompt.kind == PROMPT_NAVY &&
		    (s->prompt.step > 2 || (s->prompt.step == 2 && s->prompt.card < 1)))
			FAIL(m, "a navy prompt has step 0 (the alliance), 1 (the French Naval Phase) or 2 (an event's card)");
	}
}

/* The turn: who plays first and now, the impulse, and the flags of the year. */
static void read_turn(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const turn_keys[] = {
		"first", "active", "impulse", "british_choose_first",
		"line_mutinies", "british_pcs_at_card_start", NULL
	};
	yaml_node_t *n, *m;

	if ((m = get_map(rd, root, "turn", turn_keys))) {
		s->first = get_side(rd, m, "first");
		s->active = get_side(rd, m, "active");
		s->impulse = (int)get_int(rd, m, "impulse", 0, 100);
		s->british_choose_first = get_bool(rd, m, "british_choose_first");
		s->mutinies = get_bool(rd, m, "line_mutinies");
		if ((n = need(rd, m, "british_pcs_at_card_start"))) {
			for (int i = 0; i < ytree_len(n); i++) {
				int sp = space_by_name(rd, ytree_item(&rd->t, n, i));
				if (sp >= 0)
					s->british_pc_at_start[sp / 64] |= (uint64_t)1 << (sp % 64);
			}
		}
	}
	s->regulars = get_bool(rd, root, "british_regulars");
	s->french_alliance = (int)get_int(rd, root, "french_alliance", 0, 9);
	s->french_allied = get_bool(rd, root, "french_allied");
	s->alliance_this_turn = get_bool(rd, root, "alliance_this_turn");
	if (ytree_get(&rd->t, root, "tournament_rule"))
		s->tournament = get_bool(rd, root, "tournament_rule");
	if (ytree_get(&rd->t, root, "tournament_extra_action"))
		s->extra_action = get_bool(rd, root, "tournament_extra_action");
	if ((s->extra_action || s->prompt.kind == PROMPT_EXTRA) && !s->tournament)
		FAIL(root, "an extra action of the Optional Tournament Rule without the rule");
	if (s->prompt.kind == PROMPT_EXTRA && s->prompt.side != SIDE_BRITISH)
		FAIL(root, "the extra action of the Optional Tournament Rule is the British's");
}

/* Where the French Navy, the Congress and Kosciuszko's works are, and the boxes' CUs. */
static void read_places(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const box_keys[] = {
		"british_cus", "american_cus", "french_cus", NULL
	};
	const struct data *d = rd->d;
	yaml_node_t *n, *m;

	if ((n = need(rd, root, "french_navy"))) {
		const char *v = ytree_scalar(n);
		if (v && !strcmp(v, "french-box"))
			s->french_navy = NAVY_FRENCH_BOX;
		else if (v && !strcmp(v, "turn-track"))
			s->french_navy = NAVY_TURN_TRACK;
		else if ((s->french_navy = v ? data_zone_index(d, v) : -1) < 0)
			FAIL(n, "unknown French Navy place '%s'", v ? v : "?");
	}
	if ((n = need(rd, root, "congress"))) {
		const char *v = ytree_scalar(n);
		s->congress = v && !strcmp(v, "dispersed") ? -1 : space_by_name(rd, n);
	}
	s->dispersed_this_turn = get_bool(rd, root, "congress_dispersed_this_turn");
	if ((n = ytree_get(&rd->t, root, "kosciuszko_works"))) {
		int sp = space_by_name(rd, n);
		s->kosciuszko = sp < 0 ? 0 : sp + 1;
	}
	if ((m = get_map(rd, root, "boxes", box_keys))) {
		s->box_cu[NATION_BRITISH] = (int)get_int(rd, m, "british_cus", 0, 200);
		s->box_cu[NATION_AMERICAN] = (int)get_int(rd, m, "american_cus", 0, 200);
		s->box_cu[NATION_FRENCH] = (int)get_int(rd, m, "french_cus", 0, 200);
	}
}

/* Every general's location, each named once. */
static void read_general_places(struct reader *rd, struct state *s, yaml_node_t *root)
{
	const struct data *d = rd->d;
	yaml_node_t *m;

	if ((m = get_map(rd, root, "generals", NULL))) {
		bool seen[DATA_MAX_GENERALS] = { false };
		for (int i = 0; i < ytree_map_len(m); i++) {
			yaml_node_t *kn, *vn = ytree_map_value(&rd->t, m, i);
			const char *k = ytree_map_key(&rd->t, m, i, &kn);
			const char *v = ytree_scalar(vn);
			int g = k ? data_general_index(d, k) : -1;
			if (g < 0) {
				FAIL(kn, "unknown general '%s'", k ? k : "?");
				continue;
			}
			seen[g] = true;
			if (!v)
				FAIL(vn, "expected a location for %s", k);
			else if (!strcmp(v, "reinforcements"))
				s->general[g] = LOC_REINFORCEMENTS;
			else if (!strcmp(v, "captured"))
				s->general[g] = LOC_CAPTURED;
			else if (!strcmp(v, "removed"))
				s->general[g] = LOC_REMOVED;
			else if (!strcmp(v, "french-box"))
				s->general[g] = LOC_FRENCH_BOX;
			else
				s->general[g] = space_by_name(rd, vn);
		}
		for (int g = 0; g < d->n_generals; g++)
			if (!seen[g])
				FAIL(m, "general %s is missing", d->generals[g].name);
		/* the owner chooses one of two generals of his side (7.4.C) */
		if (s->prompt.kind == PROMPT_GENERALS) {
			int pairs = 0;
			for (int g = 0; g < d->n_generals; g++)
				for (int h = g + 1; h < d->n_generals; h++)
					pairs += s->general[g] >= 0 && s->general[g] == s->general[h] &&
						 d->generals[g].side == s->prompt.side &&
						 d->generals[h].side == s->prompt.side;
			if (pairs != 1 || s->prompt.left >= GN__COUNT)
				FAIL(m, "a generals prompt needs two generals of its side in one space");
		}
	}
}

/* PCs and CUs of the spaces that hold any. */
static void read_spaces(struct reader *rd, struct state *s, yaml_node_t *root)
{
	yaml_node_t *n, *m;

	if ((m = get_map(rd, root, "spaces", NULL))) {
		static const char *const sp_keys[] = { "pc", "american", "british", "french", NULL };
		for (int i = 0; i < ytree_map_len(m); i++) {
			yaml_node_t *kn, *vn = ytree_map_value(&rd->t, m, i);
			int sp;
			ytree_map_key(&rd->t, m, i, &kn);
			if ((sp = space_by_name(rd, kn)) < 0)
				continue;
			if (vn->type != YAML_MAPPING_NODE) {
				FAIL(vn, "expected a mapping for a space");
				continue;
			}
			rd->errors += ytree_check_keys(&rd->t, vn, sp_keys, rd->err);
			if ((n = ytree_get(&rd->t, vn, "pc"))) {
				int side = ytree_scalar(n) ? side_parse(ytree_scalar(n)) : -1;
				if (side <= 0)
					FAIL(n, "expected a PC of american or british");
				else
					s->space[sp].pc = (enum side)side;
			}
			for (int k = 0; k < 3; k++) {
				long v = 0;
				if ((n = ytree_get(&rd->t, vn, nation_keys[k]))) {
					if (ytree_int(&rd->t, n, 0, 200, &v, rd->err) < 0)
						rd->errors++;
					s->space[sp].cu[k] = (int)v;
				}
			}
		}
	}
}

/* The public side of the cards: counts, piles, boxes and queues. */
static void read_cards(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const card_keys[] = {
		"deck", "hands", "hand_commitments", "discard", "removed",
		"set_aside", "war_ends", "reshuffle", "reinforcement_boxes",
		"queues", NULL
	};
	static const char *const side_keys[] = { "american", "british", NULL };
	const struct data *d = rd->d;
	yaml_node_t *m;

	if ((m = get_map(rd, root, "cards", card_keys))) {
		yaml_node_t *h;
		s->n_deck = (int)get_int(rd, m, "deck", 0, d->n_cards);
		if ((h = get_map(rd, m, "hands", side_keys))) {
			s->n_hand[SIDE_AMERICAN] = (int)get_int(rd, h, "american", 0, STATE_MAX_HAND);
			s->n_hand[SIDE_BRITISH] = (int)get_int(rd, h, "british", 0, STATE_MAX_HAND);
		}
		s->n_discard = get_cards(rd, m, "discard", s->discard, DATA_MAX_CARDS);
		s->n_removed = get_cards(rd, m, "removed", s->removed, DATA_MAX_CARDS);
		s->n_set_aside = get_cards(rd, m, "set_aside", s->set_aside, 4);
		s->war_ends = (int)get_int(rd, m, "war_ends", 0, d->n_cards);
		s->reshuffle = get_bool(rd, m, "reshuffle");
		if ((h = get_map(rd, m, "reinforcement_boxes", side_keys))) {
			s->n_reinf_cards[SIDE_AMERICAN] = get_cards(rd, h, "american", s->reinf_cards[SIDE_AMERICAN], 2);
			s->n_reinf_cards[SIDE_BRITISH] = get_cards(rd, h, "british", s->reinf_cards[SIDE_BRITISH], 1);
		}
		if ((h = get_map(rd, m, "queues", side_keys))) {
			s->n_queue[SIDE_AMERICAN] = get_cards(rd, h, "american", s->queue[SIDE_AMERICAN], STATE_MAX_QUEUE);
			s->n_queue[SIDE_BRITISH] = get_cards(rd, h, "british", s->queue[SIDE_BRITISH], STATE_MAX_QUEUE);
		}
	}
}

/* The end of a finished game: winner, how, and the colonies counted. */
static void read_result(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const result_keys[] = { "winner", "end", "colonies", NULL };
	static const char *const side_keys[] = { "american", "british", NULL };
	yaml_node_t *n, *m;

	if ((m = get_map(rd, root, "result", result_keys))) {
		yaml_node_t *c;
		s->winner = get_side(rd, m, "winner");
		if ((n = need(rd, m, "end"))) {
			const char *v = ytree_scalar(n);
			int e = -1;
			for (int k = 0; v && k < END__COUNT; k++)
				if (!strcmp(v, game_end_name(k)))
					e = k;
			if (e < 0)
				FAIL(n, "unknown end '%s'", v ? v : "?");
			else
				s->end = (enum game_end)e;
		}
		if ((c = get_map(rd, m, "colonies", side_keys))) {
			s->colonies[SIDE_AMERICAN] = (int)get_int(rd, c, "american", 0, 14);
			s->colonies[SIDE_BRITISH] = (int)get_int(rd, c, "british", 0, 14);
		}
	}
}

/* ---- a peer game's section (docs/peer.md 6.2) ---- */

#define PEER_MAX_GENERATION 100000

/*
 * A card value of a peer hand: a card number, or a slot written sG.i
 * exactly (G from 1, i from 0 to 255, no sign, no leading zero, no space)
 * of a generation the deck has had, and of the deck's generation only
 * above its top. Returns the value, 0 after a message.
 */
static int parse_card_value(struct reader *rd, yaml_node_t *n, int generation,
			    int deck_top)
{
	const char *v = ytree_scalar(n), *p;
	long g = 0, i = 0;
	long c = 0;

	if (v && v[0] >= '0' && v[0] <= '9') {
		if (ytree_int(&rd->t, n, 1, rd->d->n_cards, &c, rd->err) < 0) {
			rd->errors++;
			return 0;
		}
		return (int)c;
	}
	if (!v || v[0] != 's')
		goto bad;
	p = v + 1;
	if (*p < '1' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9' && g <= PEER_MAX_GENERATION; p++)
		g = g * 10 + (*p - '0');
	if (*p++ != '.' || *p < '0' || *p > '9' || (*p == '0' && p[1]))
		goto bad;
	for (; *p >= '0' && *p <= '9' && i < 256; p++)
		i = i * 10 + (*p - '0');
	if (*p || i > 255)
		goto bad;
	if (g > generation || (g == generation && i >= deck_top)) {
		FAIL(n, "slot '%s' is not a card the deck has dealt (generation %d, top %d)",
		     v, generation, deck_top);
		return 0;
	}
	return CARD_SLOT((int)g, (int)i);
bad:
	FAIL(n, "'%s' is neither a card number nor a slot sG.i (G from 1, i from 0 to 255)",
	     v ? v : "?");
	return 0;
}

/* peer.hands: each side's list, as long as cards.hands says, no slot twice. */
static void read_peer_hands(struct reader *rd, struct state *s, yaml_node_t *h)
{
	int seen[2 * STATE_MAX_HAND], n_seen = 0;

	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		yaml_node_t *l = need(rd, h, side_name(side));
		int len;

		if (!l)
			continue;
		if (l->type != YAML_SEQUENCE_NODE) {
			FAIL(l, "a hand must be a list of slots and card numbers");
			continue;
		}
		len = ytree_len(l);
		if (len != s->n_hand[side]) {
			FAIL(l, "the %s hand lists %d cards, cards.hands says %d",
			     side_name(side), len, s->n_hand[side]);
			continue;
		}
		for (int i = 0; i < len; i++) {
			yaml_node_t *e = ytree_item(&rd->t, l, i);
			int v = parse_card_value(rd, e, s->peer.generation, s->peer.deck_top);

			s->hand[side][i] = v;
			for (int k = 0; v && k < n_seen; k++)
				if (seen[k] == v) {
					FAIL(e, "%s is twice in the hands", ytree_scalar(e));
					break;
				}
			seen[n_seen++] = v;
		}
	}
}

/*
 * The deck a peer state implies: the slots of its generation from its top,
 * or before the first shuffle every card that is nowhere else, in
 * ascending order (as rule 4.0's set-up leaves it).
 */
static void peer_deck(struct reader *rd, struct state *s, yaml_node_t *m)
{
	const struct data *d = rd->d;
	bool elsewhere[DATA_MAX_CARDS + 1] = { false };
	int n = 0;

	if (s->peer.generation) {
		if (s->peer.deck_top + s->n_deck > 256)
			FAIL(m, "a deck of %d cards from slot %d does not fit a generation",
			     s->n_deck, s->peer.deck_top);
		for (int i = 0; i < s->n_deck && s->peer.deck_top + i < 256; i++)
			s->deck[i] = CARD_SLOT(s->peer.generation, s->peer.deck_top + i);
		return;
	}
#define MARK(arr, len) for (int i = 0; i < (len); i++) \
		if ((arr)[i] >= 1 && (arr)[i] <= d->n_cards) elsewhere[(arr)[i]] = true;
	MARK(s->discard, s->n_discard);
	MARK(s->removed, s->n_removed);
	MARK(s->set_aside, s->n_set_aside);
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		MARK(s->hand[side], s->n_hand[side]);
		MARK(s->reinf_cards[side], s->n_reinf_cards[side]);
		MARK(s->queue[side], s->n_queue[side]);
	}
#undef MARK
	if (s->war_ends >= 1 && s->war_ends <= d->n_cards)
		elsewhere[s->war_ends] = true;
	for (int c = 1; c <= d->n_cards; c++)
		if (!elsewhere[c] && n < DATA_MAX_CARDS)
			s->deck[n++] = c;
	if (n != s->n_deck)
		FAIL(m, "before the first shuffle the deck holds the %d cards that are nowhere else, not %d",
		     n, s->n_deck);
}

/* A protocol text of peer: (docs/peer.md 6.2), kept verbatim: one line of
 * printable characters, shorter than max. */
static void get_peer_text(struct reader *rd, yaml_node_t *n, char *out, size_t max)
{
	const char *v = ytree_scalar(n);

	if (!v || !*v || strlen(v) >= max) {
		FAIL(n, "expected a text of 1 to %zu characters", max - 1);
		return;
	}
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			FAIL(n, "a control character in a text of peer:");
			return;
		}
	memcpy(out, v, strlen(v) + 1);
}

/* peer.waits: the list of who owes what, in order. */
static void read_peer_waits(struct reader *rd, struct state *s, yaml_node_t *l)
{
	int len;

	if (l->type != YAML_SEQUENCE_NODE) {
		FAIL(l, "'waits' must be a list");
		return;
	}
	len = ytree_len(l);
	if (len > STATE_PEER_MAX_WAITS) {
		FAIL(l, "'waits' holds %d lines, at most %d", len, STATE_PEER_MAX_WAITS);
		return;
	}
	for (int i = 0; i < len; i++)
		get_peer_text(rd, ytree_item(&rd->t, l, i), s->peer.waits[i],
			      sizeof(s->peer.waits[i]));
	s->peer.n_waits = len;
}

/* peer.sealed: a side's commitment, 64 lowercase hex digits. */
static void read_peer_sealed(struct reader *rd, struct state *s, yaml_node_t *h)
{
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		yaml_node_t *n = ytree_get(&rd->t, h, side_name(side));
		const char *v = n ? ytree_scalar(n) : NULL;
		size_t len = v ? strspn(v, "0123456789abcdef") : 0;

		if (!n)
			continue;
		if (!v || len != 64 || v[len]) {
			FAIL(n, "a commitment is 64 lowercase hex digits");
			continue;
		}
		memcpy(s->peer.sealed[side], v, 65);
	}
}

/* `peer:` of a peer game's state.yaml (docs/peer.md 6.2); a host game has
 * none. */
static void read_peer(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const keys[] = {
		"generation", "deck_top", "hands", "waits", "pending", "sealed", NULL
	};
	static const char *const side_keys[] = { "american", "british", NULL };
	yaml_node_t *m, *n;

	if (!ytree_get(&rd->t, root, "peer"))
		return;
	if (!(m = get_map(rd, root, "peer", keys)))
		return;
	s->peer.on = true;
	s->peer.generation = (int)get_int(rd, m, "generation", 0, PEER_MAX_GENERATION);
	s->peer.deck_top = (int)get_int(rd, m, "deck_top", 0, 255);
	if (!s->peer.generation && s->peer.deck_top)
		FAIL(m, "no generation yet, but a deck top of %d", s->peer.deck_top);
	if ((n = get_map(rd, m, "hands", side_keys)))
		read_peer_hands(rd, s, n);
	if ((n = need(rd, m, "waits")))
		read_peer_waits(rd, s, n);
	if ((n = ytree_get(&rd->t, m, "pending")))
		get_peer_text(rd, n, s->peer.pending, sizeof(s->peer.pending));
	if (ytree_get(&rd->t, m, "sealed") && (n = get_map(rd, m, "sealed", side_keys)))
		read_peer_sealed(rd, s, n);
	peer_deck(rd, s, m);
}

static void read_public(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const top_keys[] = {
		"version", "seq", "orders", "draws", "words", "standing_reactions",
		"year", "prompt", "turn",
		"british_regulars", "french_alliance", "french_allied",
		"alliance_this_turn", "french_navy", "congress",
		"congress_dispersed_this_turn", "kosciuszko_works", "boxes", "generals", "spaces",
		"cards", "result", "move", "battle", "replacement_draws",
		"campaign", "tournament_rule", "tournament_extra_action", "peer", NULL
	};
	const struct data *d = rd->d;

	if (!root || root->type != YAML_MAPPING_NODE) {
		FAIL(root, "the state must be a mapping");
		return;
	}
	rd->errors += ytree_check_keys(&rd->t, root, top_keys, rd->err);
	s->version = (int)get_int(rd, root, "version", 1, 1000);
	if (s->version < STATE_VERSION_MIN || s->version > STATE_VERSION)
		FAIL(root, "state version %d is not supported (this postrider reads versions %d to %d)",
		     s->version, STATE_VERSION_MIN, STATE_VERSION);
	s->seq = (uint32_t)get_int(rd, root, "seq", 0, 100000000);
	s->draws = (uint64_t)get_int(rd, root, "draws", 0, 1000000000);
	read_counters(rd, s, root);
	read_reactions(rd, s, root);
	s->year = (int)get_int(rd, root, "year", d->years[0].year,
			       d->years[d->n_years - 1].year);

	read_prompt(rd, s, root);
	read_turn(rd, s, root);
	read_places(rd, s, root);
	read_general_places(rd, s, root);
	read_spaces(rd, s, root);
	read_cards(rd, s, root);
	read_result(rd, s, root);
	read_move(rd, s, root);
	read_battle(rd, s, root);
	read_campaign(rd, s, root);
	read_peer(rd, s, root);
}

/* `shuffles:` of a version 2 private state (state.h). */
static void read_shuffles(struct reader *rd, struct state *s, yaml_node_t *l)
{
	static const char *const keys[] = { "draws", "list", NULL };
	int len;

	if (s->version < 2) {
		FAIL(l, "'shuffles' is not part of a version %d state", s->version);
		return;
	}
	if (l->type != YAML_SEQUENCE_NODE) {
		FAIL(l, "'shuffles' must be a list");
		return;
	}
	len = ytree_len(l);
	if (len < 1 || len > STATE_MAX_SHUFFLES) {
		FAIL(l, "'shuffles' holds %d entries, 1 to %d are allowed", len,
		     STATE_MAX_SHUFFLES);
		return;
	}
	for (int i = 0; i < len; i++) {
		yaml_node_t *e = ytree_item(&rd->t, l, i), *dn;
		struct state_shuffle *sh = &s->shuffles[i];
		unsigned long long a, b;
		int end = 0;

		if (!e || e->type != YAML_MAPPING_NODE) {
			FAIL(e, "a shuffle must be a mapping (draws:, list:)");
			return;
		}
		rd->errors += ytree_check_keys(&rd->t, e, keys, rd->err);
		sh->n = get_cards(rd, e, "list", sh->items, DATA_MAX_CARDS);
		dn = need(rd, e, "draws");
		if (!dn)
			return;
		if (!ytree_scalar(dn) ||
		    sscanf(ytree_scalar(dn), "%llu-%llu%n", &a, &b, &end) != 2 ||
		    ytree_scalar(dn)[end] || sh->n < 2 || b != a + (unsigned long long)sh->n - 2) {
			FAIL(dn, "'draws' must be A-B with B = A + (cards in the list) - 2");
			return;
		}
		sh->first = a;
	}
	s->n_shuffles = len;
}

static void read_private(struct reader *rd, struct state *s, yaml_node_t *root)
{
	static const char *const keys[] = {
		"seq", "deck", "hands", "held", "held_notes", "standing",
		"sealed_lines", "shuffles", NULL
	};
	static const char *const side_keys[] = { "american", "british", NULL };
	yaml_node_t *h, *l;
	int n_deck = s->n_deck, n_hand[3];

	n_hand[SIDE_AMERICAN] = s->n_hand[SIDE_AMERICAN];
	n_hand[SIDE_BRITISH] = s->n_hand[SIDE_BRITISH];
	if (!root || root->type != YAML_MAPPING_NODE) {
		FAIL(root, "the private state must be a mapping");
		return;
	}
	rd->errors += ytree_check_keys(&rd->t, root, keys, rd->err);
	if ((uint32_t)get_int(rd, root, "seq", 0, 100000000) != s->seq)
		FAIL(root, "the private state belongs to another turn than state.yaml (seq differs)");
	s->n_deck = get_cards(rd, root, "deck", s->deck, DATA_MAX_CARDS);
	if (s->n_deck != n_deck)
		FAIL(root, "the deck holds %d cards, state.yaml says %d", s->n_deck, n_deck);
	if ((h = get_map(rd, root, "hands", side_keys))) {
		s->n_hand[SIDE_AMERICAN] = get_cards(rd, h, "american", s->hand[SIDE_AMERICAN], STATE_MAX_HAND);
		s->n_hand[SIDE_BRITISH] = get_cards(rd, h, "british", s->hand[SIDE_BRITISH], STATE_MAX_HAND);
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
			if (s->n_hand[side] != n_hand[side])
				FAIL(h, "the %s hand holds %d cards, state.yaml says %d",
				     side_name(side), s->n_hand[side], n_hand[side]);
	}
	for (size_t k = 0; k < ARRAY_SIZE(private_texts); k++) {
		const char *key = private_texts[k].key;
		if (!(h = ytree_get(&rd->t, root, key)))
			continue;
		if (h->type != YAML_MAPPING_NODE) {
			FAIL(h, "'%s' must be a mapping of sides", key);
			continue;
		}
		rd->errors += ytree_check_keys(&rd->t, h, side_keys, rd->err);
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			yaml_node_t *n = ytree_get(&rd->t, h, side_name(side));
			const char *v = n ? ytree_scalar(n) : "";
			size_t max = private_texts[k].size;
			if (!v || strlen(v) >= max)
				FAIL(n, "a bad or too long text (at most %zu bytes)", max - 1);
			else
				memcpy(private_text_mut(s, k, side), v, strlen(v) + 1);
		}
	}
	s->n_shuffles = 0;
	if ((l = ytree_get(&rd->t, root, "shuffles")))
		read_shuffles(rd, s, l);
}

int state_read(struct state *s, const struct data *d,
	       const char *pub, size_t pub_len,
	       const char *priv, size_t priv_len, struct strbuf *err)
{
	struct reader rd = { .d = d, .err = err };

	memset(s, 0, sizeof(*s));
	s->congress = -1;
	if (ytree_parse(&rd.t, "state.yaml", pub, pub_len, err) < 0)
		return -1;
	read_public(&rd, s, ytree_root(&rd.t));
	ytree_free(&rd.t);
	if (rd.errors)
		return -1;
	if (!priv)
		return 0;
	if (s->peer.on) {
		/* docs/peer.md 6: nothing is sealed in a peer game */
		strbuf_addstr(err, "private state: a peer game has none");
		return -1;
	}
	if (ytree_parse(&rd.t, "private state", priv, priv_len, err) < 0)
		return -1;
	read_private(&rd, s, ytree_root(&rd.t));
	ytree_free(&rd.t);
	return rd.errors ? -1 : 0;
}
