/*
 * political.c - Political Control (10.0): placing, flipping and removing
 * PC markers in the Strategy Phase (10.11, 6.32.B, 10.12.B), the Political
 * Control Phase (10.2) and isolation (10.3).
 */
#include "internal.h"

#include <string.h>

/* Why an American placement is barred by the Congress or the mutinies. */
static bool american_placement_barred(const struct state *s)
{
	return s->congress < 0 || s->mutinies;
}

static enum engine_result place_check(const struct data *d,
				      const struct state *s, enum side side,
				      int space, enum pc_context ctx,
				      struct strbuf *why)
{
	const char *name = space_name(d, space);
	const struct space_state *sp = &s->space[space];

	if (sp->pc != SIDE_NONE)
		return illegal(why, "'%s' already holds a%s %s PC", name,
			       sp->pc == SIDE_AMERICAN ? "n" : "",
			       side_title(sp->pc));
	if (side == SIDE_AMERICAN) {
		if (ctx == PCX_CC && has_british_unit(d, s, space))
			return illegal(why, "'%s' holds a British piece (4.0)", name);
		if (side_cus(s, space, SIDE_BRITISH) > 0)
			return illegal(why, "'%s' holds British CUs (10.11.A.ii)", name);
		if ((ctx == PCX_OPS || ctx == PCX_DISCARD) &&
		    american_placement_barred(s))
			return illegal(why, s->congress < 0
				? "the Continental Congress is dispersed: the American may flip but not place PCs (10.11.A.iv)"
				: "the Line Mutinies were played this turn: the American may flip but not place PCs (10.11.A.iv)");
		if (ctx == PCX_DISCARD && !adjacent_to_pc(d, s, space, SIDE_AMERICAN))
			return illegal(why, "'%s' is not adjacent to an American PC (6.32.B)", name);
		return ENGINE_OK;
	}
	/* British (10.11.B.ii, iii) */
	if (has_american_unit(d, s, space))
		return illegal(why, "'%s' holds an American unit (10.11.B.ii)", name);
	if (ctx == PCX_EVENT)
		return ENGINE_OK;	/* the card says where (6.31) */
	if (ctx == PCX_DISCARD) {
		if (!adjacent_to_pc(d, s, space, SIDE_BRITISH))
			return illegal(why, "'%s' is not adjacent to a British PC (6.32.B)", name);
		return ENGINE_OK;
	}
	if (ctx == PCX_OPS && has_army(d, s, space, SIDE_BRITISH))
		return ENGINE_OK;	/* 10.11.B.iii: anywhere with a British Army */
	for (int t = 0; t < d->n_spaces; t++)
		if (bit_get(s->british_pc_at_start, t) &&
		    british_adjacent(d, space, t))
			return ENGINE_OK;
	if (adjacent_to_pc(d, s, space, SIDE_BRITISH))
		return illegal(why, "'%s' is adjacent only to British PCs placed %s "
			       "(10.11.B.ii: no daisy-chaining)", name,
			       ctx == PCX_FTK ? "in this step" : "with this card");
	return illegal(why, "'%s' is not adjacent to a British PC (10.11.B.ii)", name);
}

static enum engine_result flip_check(const struct data *d,
				     const struct state *s, enum side side,
				     int space, enum pc_context ctx,
				     struct strbuf *why)
{
	const char *name = space_name(d, space);
	enum side enemy = OTHER_SIDE(side);

	if (ctx == PCX_CC || ctx == PCX_FTK || ctx == PCX_DOI)
		return illegal(why, "PCs can only be placed here, not flipped");
	if (s->space[space].pc != enemy)
		return illegal(why, "'%s' holds no %s PC to flip", name,
			       side_title(enemy));
	if (side == SIDE_AMERICAN) {
		if (general_of_side_at(d, s, space, SIDE_AMERICAN) < 0)
			return illegal(why, "flipping '%s' needs an American general there (10.11.A.iii)", name);
	} else if (!has_army(d, s, space, SIDE_BRITISH)) {
		return illegal(why, "flipping '%s' needs a British Army there (10.11.B.iii)", name);
	}
	if (ctx == PCX_DISCARD && !adjacent_to_pc(d, s, space, side))
		return illegal(why, "'%s' is not adjacent to a%s %s PC (10.12.B)", name,
			       side == SIDE_AMERICAN ? "n" : "", side_title(side));
	return ENGINE_OK;
}

static enum engine_result remove_check(const struct data *d,
				       const struct state *s, enum side side,
				       int space, enum pc_context ctx,
				       struct strbuf *why)
{
	const char *name = space_name(d, space);
	enum side enemy = OTHER_SIDE(side);

	if (ctx != PCX_DISCARD)
		return illegal(why, "an enemy PC can only be removed by discarding an event (6.32.B)");
	if (s->space[space].pc != enemy)
		return illegal(why, "'%s' holds no %s PC to remove", name,
			       side_title(enemy));
	if (!adjacent_to_pc(d, s, space, side))
		return illegal(why, "'%s' is not adjacent to a%s %s PC (6.32.B.iii)", name,
			       side == SIDE_AMERICAN ? "n" : "", side_title(side));
	if (side_cus(s, space, enemy) > 0)
		return illegal(why, "'%s' holds %s CUs (6.32.B.iii)", name,
			       side_title(enemy));
	/* the American General and the Congress protect the space from
	 * either side's removal (docs/rulings.md, R8) */
	if (general_of_side_at(d, s, space, SIDE_AMERICAN) >= 0 ||
	    s->congress == space)
		return illegal(why, "'%s' holds %s (6.32.B.iii)", name,
			       s->congress == space ? "the Continental Congress"
						    : "an American general");
	return ENGINE_OK;
}

enum engine_result pc_check(const struct data *d, const struct state *s,
			    enum side side, enum action_kind kind, int space,
			    enum pc_context ctx, struct strbuf *why)
{
	if (space < 0 || space >= d->n_spaces)
		return illegal(why, "no such space");
	switch (kind) {
	case ACT_PLACE:
		if (ctx == PCX_CC || ctx == PCX_DOI) {
			int c = d->spaces[space].colony;
			if (d->colonies[c].canada)
				return illegal(why, "'%s' is in Canada, not one of the thirteen colonies",
					       space_name(d, space));
			if (s->prompt.colonies_done & (1u << c))
				return illegal(why, ctx == PCX_CC
					? "a PC has already been placed in %s for this set-up"
					: "%s is done for this event (it has its PC, or none can be placed there)",
					d->colonies[c].name);
		}
		return place_check(d, s, side, space, ctx, why);
	case ACT_FLIP:
		return flip_check(d, s, side, space, ctx, why);
	case ACT_REMOVE:
		return remove_check(d, s, side, space, ctx, why);
	default:
		BUG("pc_check: kind %d", kind);
	}
}

void pc_apply(const struct data *d, struct state *s, enum side side,
	      enum action_kind kind, int space, struct strbuf *log,
	      const char *what)
{
	switch (kind) {
	case ACT_PLACE:
	case ACT_FLIP:
		set_pc(d, s, space, side, log, what);
		break;
	case ACT_REMOVE:
		set_pc(d, s, space, SIDE_NONE, log, what);
		break;
	default:
		BUG("pc_apply: kind %d", kind);
	}
}

void remember_british_pcs(const struct data *d, struct state *s)
{
	memset(s->british_pc_at_start, 0, sizeof(s->british_pc_at_start));
	for (int i = 0; i < d->n_spaces; i++)
		if (s->space[i].pc == SIDE_BRITISH)
			bit_set(s->british_pc_at_start, i);
}

/* 10.2.2: each Army places or flips a PC in its space. */
void political_phase_place(const struct data *d, struct state *s,
			   struct strbuf *log)
{
	for (int i = 0; i < d->n_spaces; i++) {
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			if (!has_army(d, s, i, side) || s->space[i].pc == side)
				continue;
			set_pc(d, s, i, side, log, "(Army, 10.2)");
		}
	}
}

/* Is space a place an American trace may end at (10.31.A)? */
static bool american_anchor(const struct data *d, const struct state *s,
			    int i)
{
	const struct space_state *sp = &s->space[i];

	if (s->congress == i)
		return true;
	if (sp->pc == SIDE_NONE)
		return sp->cu[NATION_BRITISH] == 0;
	if (sp->pc == SIDE_AMERICAN)
		return side_cus(s, i, SIDE_AMERICAN) > 0 ||
		       general_of_side_at(d, s, i, SIDE_AMERICAN) >= 0;
	return false;
}

/* Is space a place a British trace may end at (10.32.A)? */
static bool british_anchor(const struct data *d, const struct state *s, int i)
{
	const struct space_state *sp = &s->space[i];

	if (sp->pc == SIDE_NONE)
		return side_cus(s, i, SIDE_AMERICAN) == 0 &&
		       general_of_side_at(d, s, i, SIDE_AMERICAN) < 0;
	if (sp->pc == SIDE_BRITISH)
		return d->spaces[i].port || sp->cu[NATION_BRITISH] > 0;
	return false;
}

/*
 * Marks in `ok` every PC of `side` that can trace through spaces of its
 * own control to an anchor. A PC space that is itself an anchor, or is
 * adjacent to an anchor, is connected; connection spreads through
 * adjacent PC spaces of the same side.
 */
static void trace(const struct data *d, const struct state *s, enum side side,
		  bool ok[DATA_MAX_SPACES])
{
	int queue[DATA_MAX_SPACES], head = 0, tail = 0;

	for (int i = 0; i < d->n_spaces; i++) {
		ok[i] = false;
		if (s->space[i].pc != side)
			continue;
		bool anchored = side == SIDE_AMERICAN ? american_anchor(d, s, i)
						      : british_anchor(d, s, i);
		for (int k = 0; !anchored && k < d->spaces[i].n_adj; k++) {
			int t = d->spaces[i].adj[k].to;
			if (d->spaces[i].adj[k].only_general >= 0)
				continue;
			anchored = side == SIDE_AMERICAN ? american_anchor(d, s, t)
							 : british_anchor(d, s, t);
		}
		if (anchored) {
			ok[i] = true;
			queue[tail++] = i;
		}
	}
	while (head < tail) {
		int i = queue[head++];
		for (int k = 0; k < d->spaces[i].n_adj; k++) {
			int t = d->spaces[i].adj[k].to;
			if (d->spaces[i].adj[k].only_general >= 0 || ok[t] ||
			    s->space[t].pc != side)
				continue;
			ok[t] = true;
			queue[tail++] = t;
		}
	}
}

static void remove_isolated(const struct data *d, struct state *s,
			    enum side side, struct strbuf *log)
{
	bool ok[DATA_MAX_SPACES];
	int n = 0;

	trace(d, s, side, ok);
	/* All isolated markers go at once (10.31.B, 10.32.B). */
	for (int i = 0; i < d->n_spaces; i++) {
		if (s->space[i].pc == side && !ok[i]) {
			set_pc(d, s, i, SIDE_NONE, log, "(isolated, 10.3)");
			n++;
		}
	}
	if (!n)
		elog(log, "No %s PC is isolated.", side_title(side));
}

void political_phase_isolation(const struct data *d, struct state *s,
			       struct strbuf *log)
{
	remove_isolated(d, s, SIDE_AMERICAN, log);
	remove_isolated(d, s, SIDE_BRITISH, log);
}

enum engine_result congress_check(const struct data *d, const struct state *s,
				  int space, struct strbuf *why)
{
	const char *name;

	if (space < 0 || space >= d->n_spaces)
		return illegal(why, "no such space");
	name = space_name(d, space);
	if (d->colonies[d->spaces[space].colony].canada)
		return illegal(why, "the Congress returns to the thirteen colonies, not '%s' (10.2.1)", name);
	if (s->space[space].pc != SIDE_AMERICAN)
		return illegal(why, "'%s' holds no American PC (10.2.1)", name);
	if (has_british_unit(d, s, space))
		return illegal(why, "'%s' holds British pieces (10.2.1)", name);
	return ENGINE_OK;
}

bool congress_any_legal(const struct data *d, const struct state *s)
{
	for (int i = 0; i < d->n_spaces; i++)
		if (congress_check(d, s, i, NULL) == ENGINE_OK)
			return true;
	return false;
}
