/*
 * winter.c - Winter Attrition (11.0), in the Winter Attrition Phase (5.4).
 */
#include "internal.h"

#include <stdio.h>

/* A single CU alone: one die, 1-3 it is removed (11.1, 11.2). */
static int lone_cu_roll(const struct data *d, struct rng *r, int space,
			const char *who, struct strbuf *log)
{
	char purpose[160];
	int die;

	snprintf(purpose, sizeof(purpose), "winter attrition, lone %s CU in %s",
		 who, space_name(d, space));
	die = rng_die(r, purpose);
	elog(log, "Lone %s CU in %s rolls %d: %s.", who, space_name(d, space),
	     die, die <= 3 ? "removed" : "survives");
	return die <= 3 ? 1 : 0;
}

/* Losses of a stack by the British rule (11.1): British CUs, and French
 * CUs alone (11.3). */
static int british_rule_losses(const struct data *d, const struct state *s,
			       struct rng *r, int space, int n, bool with_general,
			       const char *who, struct strbuf *log)
{
	const struct data_space *sp = &d->spaces[space];

	if (n == 0 || sp->winter_quarters || sp->south_of_winter_line)
		return 0;
	(void)s;
	if (n == 1)
		return with_general ? 0 : lone_cu_roll(d, r, space, who, log);
	return n / 2;
}

/* Losses of a stack by the American rule (11.2), with Washington's
 * exemption. */
static int american_rule_losses(const struct data *d, const struct state *s,
				struct rng *r, int space, int n,
				bool with_general, bool with_washington,
				struct strbuf *log)
{
	const struct data_space *sp = &d->spaces[space];
	(void)s;

	if (n == 0)
		return 0;
	if (with_washington && (sp->winter_quarters || sp->south_of_winter_line)) {
		int excess = n > 5 ? n - 5 : 0;
		/* 11.2: the excess is evaluated as if alone in the space. */
		if (excess == 0)
			return 0;
		if (excess == 1)
			return lone_cu_roll(d, r, space, "American (beyond Washington's five)", log);
		return excess / 2;
	}
	if (n == 1)
		return with_general ? 0 : lone_cu_roll(d, r, space, "American", log);
	return n / 2;
}

void winter_attrition(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log)
{
	int total = 0;

	elog(log, "Winter Attrition (11.0):");
	for (int i = 0; i < d->n_spaces; i++) {
		struct space_state *sp = &s->space[i];
		int br = sp->cu[NATION_BRITISH];
		int am = sp->cu[NATION_AMERICAN], fr = sp->cu[NATION_FRENCH];
		bool br_gen = general_of_side_at(d, s, i, SIDE_BRITISH) >= 0;
		int am_gen = general_of_side_at(d, s, i, SIDE_AMERICAN);
		bool washington = am_gen >= 0 && d->generals[am_gen].never_to_reinforcements;
		int loss;

		loss = british_rule_losses(d, s, r, i, br, br_gen, "British", log);
		if (loss) {
			sp->cu[NATION_BRITISH] -= loss;
			elog(log, "British lose %d CU%s in %s (%d left).", loss,
			     loss > 1 ? "s" : "", space_name(d, i),
			     sp->cu[NATION_BRITISH]);
			total += loss;
		}
		if (am == 0 && fr > 0) {
			/* French alone: as if British (11.3). */
			loss = british_rule_losses(d, s, r, i, fr, am_gen >= 0, "French", log);
			if (loss) {
				sp->cu[NATION_FRENCH] -= loss;
				elog(log, "French lose %d CU%s in %s.", loss,
				     loss > 1 ? "s" : "", space_name(d, i));
				total += loss;
			}
			continue;
		}
		loss = american_rule_losses(d, s, r, i, am + fr, am_gen >= 0,
					    washington, log);
		if (loss) {
			/* 11.3: in a mixed stack the American chooses; until
			 * the French rules land, American CUs go first
			 * (docs/rulings.md). */
			int from_am = loss <= am ? loss : am;
			sp->cu[NATION_AMERICAN] -= from_am;
			sp->cu[NATION_FRENCH] -= loss - from_am;
			elog(log, "Americans lose %d CU%s in %s (%d left).", loss,
			     loss > 1 ? "s" : "", space_name(d, i),
			     side_cus(s, i, SIDE_AMERICAN));
			total += loss;
		}
	}
	if (!total)
		elog(log, "No losses.");
}
