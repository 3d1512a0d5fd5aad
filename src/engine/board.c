/*
 * board.c - what is where on the map: pieces, control, adjacency.
 */
#include "internal.h"

#include <stdio.h>

void elog(struct strbuf *log, const char *fmt, ...)
{
	va_list ap;

	if (!log)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(log, fmt, ap);
	va_end(ap);
	strbuf_addch(log, '\n');
}

enum engine_result illegal(struct strbuf *why, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		strbuf_vaddf(why, fmt, ap);
		va_end(ap);
	}
	return ENGINE_ILLEGAL;
}

const char *space_name(const struct data *d, int space)
{
	if (space < 0 || space >= d->n_spaces)
		BUG("space index %d out of range", space);
	return d->spaces[space].full_name;
}

int side_cus(const struct state *s, int space, enum side side)
{
	const struct space_state *sp = &s->space[space];

	if (side == SIDE_BRITISH)
		return sp->cu[NATION_BRITISH];
	if (side == SIDE_AMERICAN)
		return sp->cu[NATION_AMERICAN] + sp->cu[NATION_FRENCH];
	return 0;
}

int general_of_side_at(const struct data *d, const struct state *s,
		       int space, enum side side)
{
	for (int g = 0; g < d->n_generals; g++)
		if (s->general[g] == space && d->generals[g].side == side)
			return g;
	return -1;
}

bool has_army(const struct data *d, const struct state *s, int space,
	      enum side side)
{
	return general_of_side_at(d, s, space, side) >= 0 &&
	       side_cus(s, space, side) > 0;
}

bool has_american_unit(const struct data *d, const struct state *s, int space)
{
	return side_cus(s, space, SIDE_AMERICAN) > 0 ||
	       general_of_side_at(d, s, space, SIDE_AMERICAN) >= 0 ||
	       s->congress == space;
}

bool has_british_unit(const struct data *d, const struct state *s, int space)
{
	return side_cus(s, space, SIDE_BRITISH) > 0 ||
	       general_of_side_at(d, s, space, SIDE_BRITISH) >= 0;
}


const struct data_adj *connection_for(const struct data *d, int a, int b,
				      int g)
{
	const struct data_space *sp = &d->spaces[a];

	for (int i = 0; i < sp->n_adj; i++)
		if (sp->adj[i].to == b &&
		    (sp->adj[i].only_general < 0 || sp->adj[i].only_general == g))
			return &sp->adj[i];
	return NULL;
}

bool adjacent(const struct data *d, int a, int b)
{
	return connection_for(d, a, b, -1) != NULL;
}

bool british_adjacent(const struct data *d, int a, int b)
{
	if (a != b && d->spaces[a].port && d->spaces[b].port)
		return true;
	return adjacent(d, a, b);
}

bool adjacent_to_pc(const struct data *d, const struct state *s, int space,
		    enum side side)
{
	const struct data_space *sp = &d->spaces[space];

	for (int i = 0; i < sp->n_adj; i++)
		if (sp->adj[i].only_general < 0 &&
		    s->space[sp->adj[i].to].pc == side)
			return true;
	if (side == SIDE_BRITISH && sp->port)
		for (int t = 0; t < d->n_spaces; t++)
			if (t != space && d->spaces[t].port &&
			    s->space[t].pc == SIDE_BRITISH)
				return true;
	return false;
}

bool reaction_never(const struct state *s, enum side side, int general,
		    enum reaction r)
{
	if (general >= 0 && s->react_general[general][r])
		return s->react_general[general][r] - 1 == REACT_NEVER;
	return s->react[side][r] == REACT_NEVER;
}

bool bit_get(const uint64_t set[2], int i)
{
	return (set[i / 64] >> (i % 64)) & 1;
}

void bit_set(uint64_t set[2], int i)
{
	set[i / 64] |= (uint64_t)1 << (i % 64);
}

int hand_find(const struct state *s, enum side side, int card)
{
	for (int i = 0; i < s->n_hand[side]; i++)
		if (s->hand[side][i] == card)
			return i;
	return -1;
}

void hand_remove(struct state *s, enum side side, int card)
{
	int i = hand_find(s, side, card);

	if (i < 0)
		BUG("card %d is not in the %s hand", card, side_name(side));
	for (; i + 1 < s->n_hand[side]; i++)
		s->hand[side][i] = s->hand[side][i + 1];
	s->n_hand[side]--;
}

void hand_add(struct state *s, enum side side, int card)
{
	if (s->n_hand[side] >= STATE_MAX_HAND)
		BUG("the %s hand is full", side_name(side));
	s->hand[side][s->n_hand[side]++] = card;
}

void discard_push(struct state *s, int card)
{
	if (s->n_discard >= DATA_MAX_CARDS)
		BUG("discard pile overflow");
	s->discard[s->n_discard++] = card;
}

void removed_push(struct state *s, int card)
{
	if (s->n_removed >= DATA_MAX_CARDS)
		BUG("removed pile overflow");
	s->removed[s->n_removed++] = card;
}

void set_pc(const struct data *d, struct state *s, int space, enum side pc,
	    struct strbuf *log, const char *why)
{
	enum side old = s->space[space].pc;

	s->space[space].pc = pc;
	if (pc == SIDE_NONE)
		elog(log, "%s PC removed from %s%s%s.", side_title(old),
		     space_name(d, space), why ? " " : "", why ? why : "");
	else if (old == SIDE_NONE)
		elog(log, "%s PC placed in %s%s%s.", side_title(pc),
		     space_name(d, space), why ? " " : "", why ? why : "");
	else
		elog(log, "%s PC in %s flipped to %s%s%s.", side_title(old),
		     space_name(d, space), side_title(pc), why ? " " : "",
		     why ? why : "");
}

void french_alliance_move(struct state *s, int delta, struct strbuf *log,
			  const char *why)
{
	int old = s->french_alliance, v = old + delta;

	if (s->french_allied)
		return;
	if (v < 0)
		v = 0;
	if (v > 9)
		v = 9;
	s->french_alliance = v;
	if (v != old)
		elog(log, "French Alliance marker %d -> %d (%s).", old, v, why);
}
