/*
 * report.c - the board, hands and legal orders as text and pictures.
 */
#include "report.h"
#include "paths.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *general_place(const struct data *d, int loc)
{
	switch (loc) {
	case LOC_REINFORCEMENTS: return "Reinforcements box";
	case LOC_CAPTURED: return "Captured Generals box";
	case LOC_REMOVED: return "removed from the game";
	case LOC_FRENCH_BOX: return "French Reinforcements box";
	default: return d->spaces[loc].full_name;
	}
}

/* Appends text in lines of at most width columns (a longer word stands
 * alone), the first led by first, the others by indent. */
static void add_hanging(struct strbuf *out, const char *text, const char *first,
			const char *indent, size_t width)
{
	size_t col = 0, lines = 0;

	for (const char *w = text; *w; ) {
		size_t n;
		while (*w == ' ')
			w++;
		if (!*w)
			break;
		n = strcspn(w, " ");
		if (col && col + 1 + n > width) {
			strbuf_addch(out, '\n');
			col = 0;
		}
		if (!col) {
			const char *lead = lines++ ? indent : first;
			strbuf_addstr(out, lead);
			col = strlen(lead);
		} else {
			strbuf_addch(out, ' ');
			col++;
		}
		/* \001 joins words that must stay on one line */
		for (size_t i = 0; i < n; i++)
			strbuf_addch(out, w[i] == '\001' ? ' ' : w[i]);
		col += n;
		w += n;
	}
	if (col)
		strbuf_addch(out, '\n');
}

/* The same with one indent for every line. */
static void add_wrapped(struct strbuf *out, const char *text, const char *indent,
			size_t width)
{
	add_hanging(out, text, indent, indent, width);
}

/* " (?)" after a card whose title or effect no source confirms (issue
 * 32, docs/data.md "Provenance"), else ""; joined to the label for
 * add_hanging(). */
static const char *unsourced(const struct data_card *c)
{
	return data_card_marked(c) ? "\001" DATA_UNSOURCED_MARK : "";
}

/* " #23 (2 OPS), #80 Paul Revere's Ride" or " none"; a label's words
 * kept together. */
static void card_list(const struct data *d, const int *cards, int n,
		      const char *lead, struct strbuf *out)
{
	if (!n)
		strbuf_addf(out, "%snone", lead);
	for (int i = 0; i < n; i++) {
		strbuf_addstr(out, i ? ", " : lead);
		for (const char *p = d->cards[cards[i]].label; *p; p++)
			strbuf_addch(out, *p == ' ' && (d->cards[cards[i]].ops || p[1] == '(')
				     ? '\001' : *p);
		strbuf_addstr(out, unsourced(&d->cards[cards[i]]));
	}
}

/* " [fortified port, Winter Quarters, blockade zone New England, south
 * of the Winter Attrition Line]" (nothing for a plain space north of it). */
static void terrain(const struct data *d, int i, struct strbuf *out)
{
	const struct data_space *ds = &d->spaces[i];
	int n = 0;

	strbuf_addstr(out, " [");
	if (ds->port)
		strbuf_addf(out, "%s%s", n++ ? ", " : "", ds->fortified ? "fortified port" : "port");
	if (ds->winter_quarters)
		strbuf_addf(out, "%sWinter Quarters", n++ ? ", " : "");
	if (ds->zone >= 0)
		strbuf_addf(out, "%s%s blockade zone", n++ ? ", " : "", d->zones[ds->zone].name);
	if (ds->south_of_winter_line)
		strbuf_addf(out, "%ssouth of the Winter Attrition Line", n++ ? ", " : "");
	if (!n)
		out->len -= 2, out->buf[out->len] = '\0';
	else
		strbuf_addch(out, ']');
}

/* The tracks, the Congress, the War Ends box, the counts of cards and
 * boxes, the open piles of cards and the French Navy. */
static void board_tracks(const struct data *d, const struct state *s,
			 struct strbuf *out)
{
	strbuf_addf(out, "Year %d. French Alliance track %d of 9%s. British Regulars' Advantage: %s.\n",
		    s->year, s->french_alliance, s->french_allied ? " (allied)" : "",
		    s->regulars ? "in effect" : "lost");
	strbuf_addf(out, "Continental Congress: %s. ",
		    s->congress < 0 ? "dispersed" : d->spaces[s->congress].full_name);
	if (s->war_ends && d->cards[s->war_ends].war_ends_year)
		strbuf_addf(out, "War Ends box: #%d %s (the war ends at the end of %d).\n",
			    s->war_ends, d->cards[s->war_ends].title,
			    d->cards[s->war_ends].war_ends_year);
	else
		strbuf_addf(out, "War Ends box: %s.\n",
			    s->war_ends ? d->cards[s->war_ends].title : "empty");
	strbuf_addf(out, "Cards: deck %d, discard %d, removed %d; hands: American %d, British %d.\n",
		    s->n_deck, s->n_discard, s->n_removed,
		    s->n_hand[SIDE_AMERICAN], s->n_hand[SIDE_BRITISH]);
	strbuf_addf(out, "Boxes: British reinforcements %d CUs; French %d CUs.\n",
		    s->box_cu[NATION_BRITISH], s->box_cu[NATION_FRENCH]);
	/* the open piles and boxes of cards, all face up (6.1.C, 7.1.B, 8.0) */
	struct strbuf w = STRBUF_INIT;
	strbuf_addstr(&w, "Discard pile (6.1.C; oldest first):");
	card_list(d, s->discard, s->n_discard, " ", &w);
	strbuf_addch(&w, '.');
	add_wrapped(out, w.buf, "", 72);
	strbuf_reset(&w);
	strbuf_addstr(&w, "Removed from the game:");
	card_list(d, s->removed, s->n_removed, " ", &w);
	strbuf_addch(&w, '.');
	add_wrapped(out, w.buf, "", 72);
	strbuf_reset(&w);
	strbuf_addstr(&w, "Operations Queues (face up, 7.1.B):");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		int ops = 0;
		strbuf_addf(&w, " %s", side_title(side));
		card_list(d, s->queue[side], s->n_queue[side], " ", &w);
		for (int i = 0; i < s->n_queue[side]; i++)
			ops += d->cards[s->queue[side][i]].ops;
		if (s->n_queue[side])
			strbuf_addf(&w, "\001=\001%d\001OPS", ops);
		strbuf_addch(&w, side == SIDE_AMERICAN ? ';' : '.');
	}
	add_wrapped(out, w.buf, "", 72);
	strbuf_reset(&w);
	strbuf_addstr(&w, "Reinforcement Card boxes this turn (8.0):");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		int boxes = side == SIDE_AMERICAN ? 2 : 1;
		strbuf_addf(&w, " %s %d of %d used", side_title(side),
			    s->n_reinf_cards[side], boxes);
		if (s->n_reinf_cards[side]) {
			strbuf_addstr(&w, " (");
			card_list(d, s->reinf_cards[side], s->n_reinf_cards[side], "", &w);
			strbuf_addstr(&w, ")");
		}
		strbuf_addch(&w, side == SIDE_AMERICAN ? ';' : '.');
	}
	add_wrapped(out, w.buf, "", 72);
	strbuf_release(&w);
	if (s->french_allied)	/* 12.2, 12.3 */
		strbuf_addf(out, "French Navy: %s. European War: %s.\n",
			    s->french_navy >= 0 ? d->zones[s->french_navy].name
			    : s->french_navy == NAVY_TURN_TRACK ? "on the turn track"
			    : "in the French box",
			    s->alliance_this_turn ? "from this End Phase" : "in effect");
}

/* Standing reactions: only what differs from "ask" (docs/orders.md). */
static void board_reactions(const struct data *d, const struct state *s,
			    struct strbuf *out)
{
	strbuf_addstr(out, "Standing reactions:");
	int n_react = 0;
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		for (int r = 0; r < REACT__COUNT; r++)
			if (s->react[side][r] == REACT_NEVER)
				strbuf_addf(out, "%s %s never %s", n_react++ ? ";" : "",
					    side_title(side), reaction_name((enum reaction)r));
	for (int g = 0; g < d->n_generals; g++)
		for (int r = 0; r < REACT__COUNT; r++)
			if (s->react_general[g][r])
				strbuf_addf(out, "%s %s %s with %s", n_react++ ? ";" : "",
					    s->react_general[g][r] - 1 == REACT_NEVER ? "never" : "ask",
					    reaction_name((enum reaction)r), d->generals[g].name);
	strbuf_addf(out, "%s (change with 'never|ask exchange|intercept|retreat|battle|declare [GENERAL]').\n",
		    n_react ? "" : " none, every interruption is asked");
}

/* Who controls each colony, and who would win if the war ended now. */
static void board_colonies(const struct data *d, const struct state *s,
			   struct strbuf *out)
{
	strbuf_addstr(out, "\nColonies (PCs American/British -> control):\n");
	for (int k = 0; k < d->n_colonies; k++) {
		int n[3] = { 0, 0, 0 };
		for (int i = 0; i < d->n_spaces; i++)
			if (d->spaces[i].colony == k)
				n[s->space[i].pc]++;
		enum side c = engine_colony_control(d, s, k);
		strbuf_addf(out, "  %-3s %-15s %2d/%-2d -> %s\n", d->colonies[k].code,
			    d->colonies[k].name, n[SIDE_AMERICAN], n[SIDE_BRITISH],
			    c == SIDE_NONE ? "uncontrolled" : side_title(c));
	}

	int col[3];
	enum side w = engine_winner_if_ended(d, s, col);
	strbuf_addf(out, "If the war ended now: the Americans control %d colonies (they need %d),\n"
		    "the British %d (they need %d): the %s would win (13.2: if both or\n"
		    "neither reach their number, the British win).\n",
		    col[SIDE_AMERICAN], VICTORY_AMERICAN_COLONIES,
		    col[SIDE_BRITISH], VICTORY_BRITISH_COLONIES,
		    w == SIDE_AMERICAN ? "Americans" : "British");
}

/* The Winter Attrition (11.0) as things stand: public, and what a
 * player counts before he ends a move. */
static void board_winter(const struct data *d, const struct state *s,
			 struct strbuf *out)
{
	struct strbuf w = STRBUF_INIT;
	int n = 0;
	for (int i = 0; i < d->n_spaces; i++)
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			bool die = false;
			int loss = engine_winter_forecast(d, s, i, side, &die);
			const struct space_state *sp = &s->space[i];
			int cus = side == SIDE_BRITISH ? sp->cu[NATION_BRITISH]
				  : sp->cu[NATION_AMERICAN] + sp->cu[NATION_FRENCH];
			if (!loss)
				continue;
			strbuf_addf(&w, "%s %s loses", n++ ? ";" : "", d->spaces[i].full_name);
			if (die)
				strbuf_addstr(&w, " its one");
			else
				strbuf_addf(&w, " %d of %d", loss, cus);
			strbuf_addf(&w, " %s CU%s%s", side == SIDE_BRITISH ? "British" :
				    sp->cu[NATION_AMERICAN] && sp->cu[NATION_FRENCH] ? "American and French" :
				    sp->cu[NATION_AMERICAN] ? "American" : "French",
				    die || cus == 1 ? "" : "s", die ? " on a die of 1-3" : "");
		}
	if (n) {
		struct strbuf line = STRBUF_INIT;
		strbuf_addf(&line, "If winter came now (11.0, generals stay):%s.", w.buf);
		add_wrapped(out, line.buf, "", 72);
		strbuf_release(&line);
	} else {
		strbuf_addstr(out, "If winter came now (11.0): no CU would be lost.\n");
	}
	strbuf_release(&w);
}

/* Every general, then the spaces with PCs or units, with the
 * neighbours of those with units. */
static void board_spaces(const struct data *d, const struct state *s,
			 struct strbuf *out)
{
	strbuf_addstr(out, "\nGenerals (strategy-battle-agility):\n");
	for (int g = 0; g < d->n_generals; g++)
		strbuf_addf(out, "  %-12s %d-%d-%d  %-8s %s\n", d->generals[g].name,
			    d->generals[g].strategy, d->generals[g].battle,
			    d->generals[g].agility, side_title(d->generals[g].side),
			    general_place(d, s->general[g]));

	strbuf_addstr(out, "\nSpaces with PCs or units, one a line: the space [its terrain]: who\n"
		      "holds it. Under a space with units, the spaces next to it\n"
		      "('~' a Wilderness Connection, 7.3.D; 'only GENERAL' one he alone may use).\n");
	for (int i = 0; i < d->n_spaces; i++) {
		const struct space_state *sp = &s->space[i];
		const struct data_space *ds = &d->spaces[i];
		bool units = sp->cu[0] || sp->cu[1] || sp->cu[2];
		bool any = sp->pc || units || s->congress == i;
		struct strbuf line = STRBUF_INIT;
		for (int g = 0; g < d->n_generals; g++)
			if (s->general[g] == i)
				units = true;
		if (!any && !units)
			continue;
		strbuf_addf(&line, "%s", ds->full_name);
		terrain(d, i, &line);
		strbuf_addf(&line, ": %s", sp->pc ? side_title(sp->pc) : "no");
		strbuf_addstr(&line, " PC");
		if (sp->cu[NATION_AMERICAN])
			strbuf_addf(&line, "; %d American CU%s", sp->cu[NATION_AMERICAN],
				    sp->cu[NATION_AMERICAN] == 1 ? "" : "s");
		if (sp->cu[NATION_FRENCH])
			strbuf_addf(&line, "; %d French CU%s", sp->cu[NATION_FRENCH],
				    sp->cu[NATION_FRENCH] == 1 ? "" : "s");
		if (sp->cu[NATION_BRITISH])
			strbuf_addf(&line, "; %d British CU%s", sp->cu[NATION_BRITISH],
				    sp->cu[NATION_BRITISH] == 1 ? "" : "s");
		for (int g = 0; g < d->n_generals; g++)
			if (s->general[g] == i)
				strbuf_addf(&line, "; %s\001%d-%d-%d", d->generals[g].name,
					    d->generals[g].strategy, d->generals[g].battle,
					    d->generals[g].agility);
		if (s->congress == i)
			strbuf_addstr(&line, "; the Continental Congress");
		strbuf_addch(&line, '.');
		add_hanging(out, line.buf, "  ", "    ", 72);
		if (units) {
			strbuf_reset(&line);
			strbuf_addstr(&line, "next to:");
			for (int k = 0; k < ds->n_adj; k++) {
				const struct data_adj *adj = &ds->adj[k];
				strbuf_addf(&line, "%s %s%s", k ? "," : "", adj->wilderness ? "~" : "",
					    d->spaces[adj->to].full_name);
				if (adj->only_general >= 0)
					strbuf_addf(&line, " (only %s)", d->generals[adj->only_general].name);
				if (adj->unsourced)
					strbuf_addstr(&line, "\001" DATA_UNSOURCED_MARK);
			}
			add_wrapped(out, line.buf, "      ", 72);
		}
		strbuf_release(&line);
	}
}

void report_board(const struct data *d, const struct state *s,
		  struct strbuf *out)
{
	board_tracks(d, s, out);
	board_reactions(d, s, out);
	board_colonies(d, s, out);
	board_winter(d, s, out);
	board_spaces(d, s, out);
}

void report_hand(const struct data *d, const struct state *s, enum side side,
		 struct strbuf *out)
{
	report_hand_since(d, s, NULL, side, out);
}

void report_hand_since(const struct data *d, const struct state *s,
		       const struct state *before, enum side side,
		       struct strbuf *out)
{
	if (!s->n_hand[side])
		strbuf_addstr(out, "  (empty)\n");
	for (int i = 0; i < s->n_hand[side]; i++) {
		bool held = !before;
		for (int j = 0; before && j < before->n_hand[side] && !held; j++)
			held = before->hand[side][j] == s->hand[side][i];
		report_card(d, s->hand[side][i], held ? "  " : "* ", out);
	}
}

void report_cards_named(const struct data *d, const struct state *s,
			enum side side, const char *text, struct strbuf *out)
{
	bool seen[DATA_MAX_CARDS + 1] = { false };

	for (int i = 0; i < s->n_hand[side]; i++)
		if (s->hand[side][i] >= 0 && s->hand[side][i] <= DATA_MAX_CARDS)
			seen[s->hand[side][i]] = true;	/* the hand shows them */
	if (s->prompt.kind == PROMPT_EXCHANGE && s->prompt.card > 0 &&
	    s->prompt.card <= DATA_MAX_CARDS)
		seen[s->prompt.card] = true;	/* report_numbers() shows it */
	for (const char *p = text ? text : ""; (p = strchr(p, '#')); p++) {
		char *end;
		long n;
		if (p > text && isalnum((unsigned char)p[-1]))
			continue;
		n = strtol(p + 1, &end, 10);
		if (end == p + 1 || n < 1 || n > d->n_cards || n > DATA_MAX_CARDS || seen[n] ||
		    d->cards[n].ops || !d->cards[n].text || !*d->cards[n].text)
			continue;
		seen[n] = true;
		report_card(d, (int)n, "  ", out);
	}
}

void report_card(const struct data *d, int card, const char *lead,
		 struct strbuf *out)
{
	const struct data_card *c;

	if (CARD_IS_SLOT(card)) {
		/* a peer game: a card dealt and not yet opened (docs/peer.md 6.2) */
		strbuf_addf(out, "%sa card not yet opened (s%d.%d)\n", lead,
			    CARD_SLOT_GEN(card), CARD_SLOT_POS(card));
		return;
	}
	c = &d->cards[card];
	strbuf_addf(out, "%s%s%s", lead, c->label,
		    data_card_marked(c) ? " " DATA_UNSOURCED_MARK : "");
	if (!c->ops)
		strbuf_addf(out, " (%s%s%s)",
			    c->special ? "special event, must be played" :
			    c->side == CARD_SIDE_AMERICAN ? "American event" :
			    c->side == CARD_SIDE_BRITISH ? "British event" : "event",
			    c->battle_card ? ", battle card" : "",
			    c->removed_after_play ? ", removed after play" : "");
	strbuf_addch(out, '\n');
	/* what the event does, so no rulebook is needed to choose */
	if (!c->ops && c->text && *c->text)
		add_wrapped(out, c->text, "      ", 72);
}

void report_options(const struct data *d, const struct state *s, bool plain,
		    struct strbuf *out)
{
	int n = engine_legal(d, s, NULL, 0);
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));

	engine_legal(d, s, acts, n);
	if (plain) {
		strbuf_addf(out, "%s\n", engine_game_over(s) ? "none" : side_name(s->prompt.side));
	} else if (n) {
		strbuf_addf(out, "%d legal order%s:\n", n, n == 1 ? "" : "s");
	}
	for (int i = 0; i < n; i++) {
		if (!plain)
			strbuf_addstr(out, "  ");
		action_format(d, &acts[i], out);
		if (!plain && acts[i].card > 0) {
			const struct data_card *c = &d->cards[acts[i].card];
			strbuf_addf(out, "    # %s", c->ops ? c->label + strcspn(c->label, " ") + 1
							 : c->title);
		}
		strbuf_addch(out, '\n');
	}
	free(acts);
}

/* --- The legal orders, grouped ------------------------------------------
 *
 * The legal actions of one kind are split into groups, each of which is
 * exactly every combination of its arguments' values ("land SPACE N
 * [GENERAL]" with SPACE, N and GENERAL each one of a list): so one line
 * tells how to write any order of the group, and no order is listed that
 * cannot be given. A group that is not such a product is split by the
 * argument with the fewest values (spaces last) until each part is.
 */

enum { F_CARD, F_GENERAL, F_SPACE, F_VALUE, F_FRENCH, F_SIDE, F__COUNT };

static int field_of(const struct action *a, int f)
{
	switch (f) {
	case F_CARD: return a->card;
	case F_GENERAL: return a->general;
	case F_SPACE: return a->space;
	case F_VALUE: return a->value;
	case F_FRENCH: return a->french;
	case F_SIDE: return (int)a->side;
	}
	BUG("field %d", f);
}

/* Does kind k write field f at all, and what is its "absent" value? */
static bool field_used(enum action_kind k, int f)
{
	switch (f) {
	case F_CARD: return action_takes_card(k);
	case F_GENERAL: return action_takes_general(k);
	case F_SPACE: return action_takes_space(k) || action_takes_zone(k);
	case F_VALUE: return action_takes_count(k);
	case F_FRENCH: return action_takes_french(k);
	case F_SIDE: return action_takes_side(k);
	}
	return false;
}

static int field_absent(int f)
{
	return f == F_GENERAL ? -1 : f == F_FRENCH ? 0 : INT32_MIN;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The distinct values of field f among acts[idx[0..n)], sorted (spaces:
 * in data order, which is north to south). */
static int distinct(const struct action *acts, const int *idx, int n, int f,
		    int *vals)
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		int v = field_of(&acts[idx[i]], f), j;
		for (j = 0; j < m && vals[j] != v; j++)
			;
		if (j == m)
			vals[m++] = v;
	}
	qsort(vals, (size_t)m, sizeof(int), cmp_int);
	return m;
}

static const char *placeholder(enum action_kind k, int f)
{
	switch (f) {
	case F_CARD: return "CARD";
	case F_GENERAL: return "GENERAL";
	case F_SPACE: return action_takes_zone(k) ? "ZONE" : "SPACE";
	case F_VALUE: return "N";
	case F_FRENCH: return "F";
	case F_SIDE: return "SIDE";
	}
	return "?";
}

/* One value of field f as written in an order, with a note after it. */
static void add_value(const struct data *d, const struct state *s,
		      enum action_kind k, int f, int v, struct strbuf *out)
{
	switch (f) {
	case F_CARD: {
		const struct data_card *c = &d->cards[v];
		strbuf_addf(out, "%d", v);
		if (c->ops && k == ACT_ACTIVATE && s->n_queue[s->prompt.side]) {
			int q = 0;
			for (int i = 0; i < s->n_queue[s->prompt.side]; i++)
				q += d->cards[s->queue[s->prompt.side][i]].ops;
			strbuf_addf(out, "\001(%d\001OPS\001+\001%d\001in\001the\001queue\001=\001%d)", c->ops, q, c->ops + q);
		} else if (c->ops) {
			strbuf_addf(out, "\001(%d\001OPS)", c->ops);
		} else {
			strbuf_addf(out, " %s", c->title);
		}
		break;
	}
	case F_GENERAL:
		strbuf_addstr(out, d->generals[v].name);
		break;
	case F_SPACE:
		if (action_takes_zone(k))
			strbuf_addstr(out, v >= 0 && v < d->n_zones ? d->zones[v].name : "?");
		else
			strbuf_addstr(out, d->spaces[v].full_name);
		break;
	case F_SIDE:
		strbuf_addstr(out, side_name((enum side)v));
		break;
	default:
		strbuf_addf(out, "%d", v);
	}
}

/* "SPACE: Boston MA, Salem MA; ..." wrapped; by colony when long. */
static void add_choices(const struct data *d, const struct state *s,
			enum action_kind k, int f, const int *vals, int m,
			struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	int absent = field_absent(f), n_real = 0;
	bool numeric = f == F_VALUE || f == F_FRENCH;

	for (int i = 0; i < m; i++)
		n_real += vals[i] != absent;
	strbuf_addf(&line, "%s:", placeholder(k, f));
	if (numeric) {
		/* runs of numbers: "0-4" */
		for (int i = 0; i < m; ) {
			int j = i;
			while (j + 1 < m && vals[j + 1] == vals[j] + 1)
				j++;
			strbuf_addf(&line, "%s %d", i ? "," : "", vals[i]);
			if (j > i)
				strbuf_addf(&line, "%s%d", j == i + 1 ? ", " : "-", vals[j]);
			i = j + 1;
		}
		if (f == F_FRENCH)
			strbuf_addstr(&line, " French CUs among them (0 may be left out)");
		else if (k == ACT_TAKE || k == ACT_LAND)
			strbuf_addstr(&line, " CUs");
	} else if (f == F_CARD) {
		/* cards by what they are: "19, 22 or 26 (2 OPS); 4 (1 OPS)" */
		bool *shown = xcalloc((size_t)m, sizeof(bool));
		for (int i = 0, groups = 0; i < m; i++) {
			struct strbuf note = STRBUF_INIT, other = STRBUF_INIT;
			int in = 0, total = 0;
			if (shown[i])
				continue;
			add_value(d, s, k, f, vals[i], &note);
			const char *nt = note.buf + strcspn(note.buf, " \001");
			for (int j = i; j < m; j++) {
				strbuf_reset(&other);
				add_value(d, s, k, f, vals[j], &other);
				if (!shown[j] && !strcmp(other.buf + strcspn(other.buf, " \001"), nt))
					total++;
			}
			strbuf_addstr(&line, groups++ ? "; " : " ");
			for (int j = i; j < m; j++) {
				strbuf_reset(&other);
				add_value(d, s, k, f, vals[j], &other);
				if (shown[j] || strcmp(other.buf + strcspn(other.buf, " \001"), nt))
					continue;
				shown[j] = true;
				strbuf_addstr(&line, in ? (in == total - 1 ? " or " : ", ") : "");
				strbuf_addf(&line, "%d", vals[j]);
				in++;
			}
			strbuf_addstr(&line, nt);
			strbuf_release(&note);
			strbuf_release(&other);
		}
		free(shown);
	} else if (f == F_SPACE && !action_takes_zone(k) && n_real > 12) {
		/* a line per colony, in the colonies' order */
		strbuf_addstr(&line, " one of these, by colony:");
		add_wrapped(out, line.buf, "        ", 72);
		strbuf_reset(&line);
		for (int col = 0; col < d->n_colonies; col++) {
			int in = 0;
			for (int i = 0; i < m; i++) {
				if (d->spaces[vals[i]].colony != col)
					continue;
				if (!in++)
					strbuf_addf(&line, "%s:", d->colonies[col].code);
				else
					strbuf_addch(&line, ',');
				strbuf_addch(&line, ' ');
				for (const char *p = d->spaces[vals[i]].full_name; *p; p++)
					strbuf_addch(&line, *p == ' ' ? '\001' : *p);
			}
			if (in)
				add_wrapped(out, line.buf, "          ", 72);
			strbuf_reset(&line);
		}
	} else {
		int shown = 0;
		for (int i = 0; i < m; i++) {
			if (vals[i] == absent)
				continue;
			strbuf_addstr(&line, shown ? (shown == n_real - 1 ? " or " : ", ") : " ");
			add_value(d, s, k, f, vals[i], &line);
			shown++;
		}
		if (n_real < m)
			strbuf_addstr(&line, ", or leave it out");
	}
	if (line.len)
		add_wrapped(out, line.buf, "        ", 72);
	strbuf_release(&line);
}

static void group_emit(const struct data *d, const struct state *s,
		       const struct action *acts, const int *idx, int n,
		       struct strbuf *out)
{
	enum action_kind k = acts[idx[0]].kind;
	int *vals = xcalloc((size_t)n + 1, sizeof(int));
	/* the order of the arguments as action_format writes them */
	static const int order_main[] = { F_CARD, F_GENERAL, F_SPACE, F_VALUE, F_FRENCH, F_SIDE };
	static const int order_land[] = { F_SPACE, F_VALUE, F_GENERAL };
	const int *ord = k == ACT_LAND ? order_land : order_main;
	int n_ord = k == ACT_LAND ? 3 : 6;
	struct strbuf form = STRBUF_INIT;

	if (k == ACT_REACT) {	/* not grouped */
		strbuf_addstr(out, "  ");
		action_format(d, &acts[idx[0]], out);
		strbuf_addch(out, '\n');
		free(vals);
		return;
	}
	strbuf_addstr(&form, action_verb(k));
	for (int o = 0; o < n_ord; o++) {
		int f = ord[o];
		if (!field_used(k, f))
			continue;
		int m = distinct(acts, idx, n, f, vals);
		int absent = field_absent(f);
		if (m == 1 && vals[0] == absent)
			continue;
		strbuf_addch(&form, ' ');
		if (m == 1) {
			struct strbuf v = STRBUF_INIT;
			add_value(d, s, k, f, vals[0], &v);
			/* the literal as written: a card's number, a name */
			if (f == F_CARD)
				strbuf_addf(&form, "%d", vals[0]);
			else
				strbuf_add(&form, v.buf, v.len);
			strbuf_release(&v);
		} else if (vals[0] == absent) {
			strbuf_addf(&form, "[%s]", placeholder(k, f));
		} else {
			strbuf_addstr(&form, placeholder(k, f));
		}
	}
	{
		struct strbuf head = STRBUF_INIT;
		strbuf_addf(&head, "  %-24s  %s", form.buf, action_desc(k)->meaning);
		/* a single card named literally: say what it is */
		if (field_used(k, F_CARD) && distinct(acts, idx, n, F_CARD, vals) == 1) {
			struct strbuf v = STRBUF_INIT;
			add_value(d, s, k, F_CARD, vals[0], &v);
			strbuf_addf(&head, ": #%d", vals[0]);
			strbuf_addstr(&head, v.buf + strcspn(v.buf, " \001"));
			strbuf_release(&v);
		}
		if (head.len <= 76) {
			for (const char *p = head.buf; *p; p++)
				strbuf_addch(out, *p == '\001' ? ' ' : *p);
			strbuf_addch(out, '\n');
		} else {	/* the form alone, what it does under it */
			strbuf_addf(out, "  %s\n", form.buf);
			add_wrapped(out, head.buf + 2 + strlen(form.buf), "        ", 72);
		}
		strbuf_release(&head);
	}
	for (int o = 0; o < n_ord; o++) {
		int f = ord[o];
		if (!field_used(k, f))
			continue;
		int m = distinct(acts, idx, n, f, vals);
		if (m > 1)
			add_choices(d, s, k, f, vals, m, out);
	}
	strbuf_release(&form);
	free(vals);
}

/* Do the actions of acts[x[0..nx)] and acts[y[0..ny)] differ only in
 * field f? */
static bool same_but(const struct action *acts, const int *x, int nx,
		     const int *y, int ny, int f)
{
	if (nx != ny)
		return false;
	for (int i = 0; i < nx; i++) {
		bool found = false;
		for (int j = 0; j < ny && !found; j++) {
			found = true;
			for (int g = 0; g < F__COUNT && found; g++)
				if (g != f && field_of(&acts[x[i]], g) != field_of(&acts[y[j]], g))
					found = false;
		}
		if (!found)
			return false;
	}
	return true;
}

/* exclude: fields already split on (bit per field), never split again */
static void group_split(const struct data *d, const struct state *s,
			const struct action *acts, const int *idx, int n,
			unsigned exclude, struct strbuf *out)
{
	int *vals = xcalloc((size_t)n + 1, sizeof(int));
	long product = 1;
	int best = -1, best_m = 0;

	for (int f = 0; f < F__COUNT; f++) {
		int m = distinct(acts, idx, n, f, vals);
		product *= m;
		if (exclude & (1u << f))
			continue;
		/* split by the field with the fewest values, spaces last */
		if (m > 1 && (best < 0 || (best == F_SPACE && f != F_SPACE) ||
			      (f != F_SPACE && m < best_m))) {
			best = f;
			best_m = m;
		}
	}
	if (product == n || best < 0) {
		free(vals);
		group_emit(d, s, acts, idx, n, out);
		return;
	}
	/* the actions by their value of the field split on, and the values
	 * whose other arguments are the same taken together (they make a
	 * product with them) */
	int m = distinct(acts, idx, n, best, vals);
	int **part = xcalloc((size_t)m, sizeof(int *)), *np = xcalloc((size_t)m, sizeof(int));
	bool *used = xcalloc((size_t)m, sizeof(bool));
	int *sub = xcalloc((size_t)n, sizeof(int));
	for (int j = 0; j < m; j++) {
		part[j] = xcalloc((size_t)n, sizeof(int));
		for (int i = 0; i < n; i++)
			if (field_of(&acts[idx[i]], best) == vals[j])
				part[j][np[j]++] = idx[i];
	}
	for (int j = 0; j < m; j++) {
		int k = 0;
		if (used[j])
			continue;
		for (int l = j; l < m; l++)
			if (!used[l] && same_but(acts, part[j], np[j], part[l], np[l], best)) {
				used[l] = true;
				memcpy(sub + k, part[l], sizeof(int) * (size_t)np[l]);
				k += np[l];
			}
		group_split(d, s, acts, sub, k, exclude | (1u << best), out);
	}
	for (int j = 0; j < m; j++)
		free(part[j]);
	free(part);
	free(np);
	free(used);
	free(sub);
	free(vals);
}

void report_options_grouped(const struct data *d, const struct state *s,
			    struct strbuf *out)
{
	int n = engine_legal(d, s, NULL, 0);
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));
	int *idx = xcalloc((size_t)n + 1, sizeof(int));
	bool *done = xcalloc((size_t)n + 1, sizeof(bool));

	engine_legal(d, s, acts, n);
	if (n)
		strbuf_addf(out, "Your orders now (%d in all), one form a line: write the verb with\n"
			    "one value for each word in capitals, chosen from the list under it\n"
			    "([WORD] may be left out):\n", n);
	for (int i = 0; i < n; i++) {
		int m = 0;
		if (done[i])
			continue;
		for (int j = i; j < n; j++)
			if (!done[j] && acts[j].kind == acts[i].kind) {
				idx[m++] = j;
				done[j] = true;
			}
		group_split(d, s, acts, idx, m, 0, out);
	}
	free(done);
	free(idx);
	free(acts);
}

/* --- The numbers before a choice --------------------------------------- */

static const char *plural_of(enum side side)
{
	return side == SIDE_AMERICAN ? "Americans" : "British";
}

/* A general of side in space, or -1. */
static int general_in(const struct data *d, const struct state *s, int space,
		      enum side side)
{
	for (int g = 0; g < d->n_generals; g++)
		if (s->general[g] == space && d->generals[g].side == side)
			return g;
	return -1;
}

static int cus_of(const struct state *s, int space, enum side side)
{
	const struct space_state *sp = &s->space[space];
	return side == SIDE_BRITISH ? sp->cu[NATION_BRITISH]
	       : sp->cu[NATION_AMERICAN] + sp->cu[NATION_FRENCH];
}

/* One side's DRM as it stands before the dice (9.3, 9.4). */
static void battle_side(const struct data *d, const struct state *s,
			enum side side, struct strbuf *out)
{
	const struct battle *b = &s->battle;
	int sp = b->space, cus = cus_of(s, sp, side), g = general_in(d, s, sp, side);
	struct strbuf why = STRBUF_INIT, line = STRBUF_INIT;
	struct modifier mods[ENGINE_MAX_MODIFIERS];
	int n_mods = engine_battle_modifiers(d, s, side, mods);
	int other = engine_modifiers_total(mods, n_mods);

	engine_modifiers_describe(mods, n_mods, &why);
	int full = 0, half = 0;

	strbuf_addf(&line, "%s (%s): %d CU%s +%d", plural_of(side),
		    side == b->attacker ? "attacking" : "defending", cus,
		    cus == 1 ? "" : "s", cus);
	if (g >= 0) {
		full = d->generals[g].battle;
		half = full / 2;
		if (full > cus)
			full = cus;
		if (half > cus)
			half = cus;
		strbuf_addf(&line, ", %s's Actual Battle Rating +%d on a die of 4-6 or +%d on 1-3 (Battle Rating %d%s, 9.3)",
			    d->generals[g].name, full, half, d->generals[g].battle,
			    d->generals[g].battle > cus ? ", no more than his CUs" : "");
	} else {
		strbuf_addstr(&line, ", no general: +0 (9.3)");
	}
	strbuf_add(&line, why.buf ? why.buf : "", why.len);
	if (full == half)
		strbuf_addf(&line, ": +%d in all.", cus + full + other);
	else
		strbuf_addf(&line, ": +%d or +%d in all.", cus + full + other, cus + half + other);
	add_wrapped(out, line.buf, "  ", 72);
	strbuf_release(&why);
	strbuf_release(&line);
}

/* What side's own cards would add in step 1 (its report only). */
static void battle_cards(const struct data *d, const struct state *s,
			 struct strbuf *out)
{
	int n = engine_legal(d, s, NULL, 0);
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));
	struct strbuf line = STRBUF_INIT;
	int n_battle = 0, n_discard = 0;

	engine_legal(d, s, acts, n);
	strbuf_addstr(&line, "Your choice in step 1:");
	for (int i = 0; i < n; i++)
		if (acts[i].kind == ACT_BATTLE)
			strbuf_addf(&line, "%s 'battle %d' +%d (%s)", n_battle++ ? ";" : "",
				    acts[i].card, engine_battle_card_drm(d, acts[i].card),
				    d->cards[acts[i].card].title);
	for (int i = 0; i < n; i++)
		if (acts[i].kind == ACT_DISCARD)
			strbuf_addf(&line, "%s%d", n_discard++ ? ", " :
				    n_battle ? "; 'discard CARD' +1 with " : " 'discard CARD' +1 with ",
				    acts[i].card);
	strbuf_addf(&line, "%s'none' +0.", n_battle || n_discard ? "; " : " ");
	add_wrapped(out, line.buf, "", 72);
	/* each card of the choice with what it does as an event: a discard
	 * gives that event up (issue 29) */
	if (n_battle || n_discard)
		strbuf_addstr(out, "The cards of that choice:\n");
	for (int i = 0; i < n; i++) {
		bool seen = false;
		if (acts[i].kind != ACT_BATTLE && acts[i].kind != ACT_DISCARD)
			continue;
		for (int j = 0; j < i && !seen; j++)
			seen = (acts[j].kind == ACT_BATTLE || acts[j].kind == ACT_DISCARD) &&
			       acts[j].card == acts[i].card;
		if (!seen)
			report_card(d, acts[i].card, "  ", out);
	}
	strbuf_release(&line);
	free(acts);
}

void report_numbers(const struct data *d, const struct state *s,
		    enum side side, struct strbuf *out)
{
	const struct battle *b = &s->battle;
	enum prompt_kind k = s->prompt.kind;

	if (engine_game_over(s))
		return;
	if (b->active && (k == PROMPT_BATTLE_CARD || k == PROMPT_RETREAT_BEFORE)) {
		enum side att = b->attacker, def = OTHER_SIDE(att);
		strbuf_addf(out, "The battle in %s as it stands, before the dice (9.2 to 9.4):\n",
			    d->spaces[b->space].full_name);
		battle_side(d, s, att, out);
		battle_side(d, s, def, out);
		add_wrapped(out, "Each side rolls a die and adds its DRM; the attacker wins ties (9.2). In step 1 the attacker, then the defender, may play a battle card (+2) or discard an event (+1, 9.45).",
			    "", 72);
		if (k == PROMPT_BATTLE_CARD && side == s->prompt.side)
			battle_cards(d, s, out);
		for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
			struct strbuf w = STRBUF_INIT;
			if (engine_battle_retreats(d, s, sd))
				continue;
			if (sd == att && b->from >= 0)
				strbuf_addf(&w, "Warning: if the %s lose, they surrender: the attacker must retreat to %s, where it cannot go (9.63.A).",
					    plural_of(sd), d->spaces[b->from].full_name);
			else
				strbuf_addf(&w, "Warning: if the %s lose, they surrender: no retreat is open to them (9.63%s).",
					    plural_of(sd), sd == att ? "" : ".B");
			add_wrapped(out, w.buf, "", 72);
			strbuf_release(&w);
		}
	}
	if (k == PROMPT_EXCHANGE && s->prompt.card > 0) {
		/* face up on the discard pile: public, in both reports */
		strbuf_addstr(out, "The discarded event that the exchange would take (6.32.C):\n");
		report_card(d, s->prompt.card, "  ", out);
	}
	if (k == PROMPT_MOVE && s->move.active && side == s->prompt.side) {
		int g = s->move.general, at = s->general[g];
		bool die = false;
		int loss = at >= 0 ? engine_winter_forecast(d, s, at, side, &die) : 0;
		if (loss) {
			struct strbuf w = STRBUF_INIT;
			const struct data_space *sp = &d->spaces[at];
			char nb[16];
			snprintf(nb, sizeof(nb), "%d", loss);
			strbuf_addf(&w, "Winter: if the army stays in %s (%s), the Winter Attrition at the end of the turn takes %s of its %d CUs (11.%d).",
				    sp->full_name,
				    sp->winter_quarters ? "Winter Quarters" :
				    sp->south_of_winter_line ? "south of the Winter Attrition Line" :
				    "not Winter Quarters, north of the Winter Attrition Line",
				    die ? "1 on a die of 1-3" : nb,
				    cus_of(s, at, side), side == SIDE_BRITISH ? 1 : 2);
			add_wrapped(out, w.buf, "", 72);
			strbuf_release(&w);
		}
	}
}

char *report_templates_dir(void)
{
	return paths_find("POSTRIDER_TEMPLATES", NULL, "templates", "turn.txt");
}

static const char *lookup(const char *const *vars, const char *name, size_t len)
{
	for (; vars[0]; vars += 2)
		if (strlen(vars[0]) == len && !strncmp(vars[0], name, len))
			return vars[1] ? vars[1] : "";
	return NULL;
}

int report_render(const char *name, const char *const *vars,
		  struct strbuf *out, struct strbuf *err)
{
	char *dir = report_templates_dir(), *path = xstrfmt("%s/%s", dir, name);
	struct strbuf t = STRBUF_INIT;
	const char *p;
	int skip = 0, ret = 0;

	free(dir);
	if (read_file(path, &t, 1 << 20) < 0) {
		strbuf_addf(err, "cannot read template '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	for (p = t.buf; *p;) {
		const char *open = strstr(p, "{{"), *close;
		if (!open) {
			if (!skip)
				strbuf_addstr(out, p);
			break;
		}
		if (!skip)
			strbuf_add(out, p, (size_t)(open - p));
		close = strstr(open, "}}");
		if (!close) {
			strbuf_addf(err, "template '%s': '{{' without '}}'", path);
			ret = -1;
			break;
		}
		const char *nm = open + 2;
		size_t len = (size_t)(close - nm);
		p = close + 2;
		if (*nm == '#' || *nm == '/') {
			const char *v = lookup(vars, nm + 1, len - 1);
			if (!v) {
				strbuf_addf(err, "template '%s': unknown variable '%.*s'", path, (int)len - 1, nm + 1);
				ret = -1;
				break;
			}
			if (*nm == '#') {
				if (skip || !*v)
					skip++;
			} else if (skip) {
				skip--;
			}
			if (*p == '\n')
				p++;
			continue;
		}
		const char *v = lookup(vars, nm, len);
		if (!v) {
			strbuf_addf(err, "template '%s': unknown variable '%.*s'", path, (int)len, nm);
			ret = -1;
			break;
		}
		if (!skip)
			strbuf_addstr(out, v);
	}
	free(path);
	strbuf_release(&t);
	return ret;
}
