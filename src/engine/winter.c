/*
 * winter.c - Winter Attrition (11.0), in the Winter Attrition Phase (5.4).
 */
#include "internal.h"

#include <stdio.h>

/* What lone_cu_roll() returns for a forecast (no stream). */
#define WINTER_ON_A_DIE 1000

/* A single CU alone: one die, 1-3 it is removed (11.1, 11.2). */
static int lone_cu_roll(const struct data *d, struct rng *r, int space,
			const char *who, struct strbuf *log)
{
	char purpose[160];
	int die;

	if (!r)		/* a forecast: the die is not rolled */
		return WINTER_ON_A_DIE;
	snprintf(purpose, sizeof(purpose), "winter attrition, lone %s CU in %s (11.1)",
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

/* How many of `loss` losses of a stack of am American and fr French CUs
 * may be French: lo to hi (11.3). */
static void french_loss_range(int am, int fr, int loss, int *lo, int *hi)
{
	*lo = loss > am ? loss - am : 0;
	*hi = loss < fr ? loss : fr;
}

/* Removes the losses of a mixed or American stack. */
static void american_losses(const struct data *d, struct state *s, int space,
			    int am_loss, int fr_loss, struct strbuf *log)
{
	s->space[space].cu[NATION_AMERICAN] -= am_loss;
	s->space[space].cu[NATION_FRENCH] -= fr_loss;
	if (fr_loss)
		elog(log, "Americans lose %d American and %d French CU%s in %s (%d left).",
		     am_loss, fr_loss, am_loss + fr_loss > 1 ? "s" : "",
		     space_name(d, space), side_cus(s, space, SIDE_AMERICAN));
	else
		elog(log, "Americans lose %d CU%s in %s (%d left).", am_loss,
		     am_loss > 1 ? "s" : "", space_name(d, space),
		     side_cus(s, space, SIDE_AMERICAN));
}

/* The space of a PROMPT_WINTER. */
static int winter_space(const struct data *d, const struct state *s)
{
	for (int i = 0; i < d->n_spaces; i++)
		if (bit_get(s->prompt.spaces_done, i))
			return i;
	BUG("a winter prompt without its space");
}

enum engine_result winter_check(const struct data *d, const struct state *s,
				const struct action *a, struct strbuf *why)
{
	int sp = winter_space(d, s), lo, hi;
	int am = s->space[sp].cu[NATION_AMERICAN], fr = s->space[sp].cu[NATION_FRENCH];

	french_loss_range(am, fr, s->prompt.left, &lo, &hi);
	if (a->value < lo || a->value > hi)
		return illegal(why, "'lose %d' is not possible: of the %d CUs lost in %s (%d American, %d French), 'lose N' names the French ones, %d to %d (11.3)",
			       a->value, s->prompt.left, space_name(d, sp), am, fr, lo, hi);
	return ENGINE_OK;
}

void winter_apply(const struct data *d, struct state *s,
		  const struct action *a, struct rng *r, struct strbuf *log)
{
	int sp = winter_space(d, s);

	elog(log, "American chooses: %d French CU%s among the losses in %s (11.3).",
	     a->value, a->value == 1 ? "" : "s", space_name(d, sp));
	american_losses(d, s, sp, s->prompt.left - a->value, a->value, log);
	if (winter_attrition(d, s, r, log, sp + 1))
		flow_after_winter(d, s, r, log);
}

void winter_legal(const struct data *d, const struct state *s,
		  struct collect *c)
{
	legal_values(d, s, c, ACT_LOSE, s->prompt.left);
}

void winter_describe(const struct data *d, const struct state *s,
		     struct strbuf *out)
{
	const struct prompt *p = &s->prompt;
	(void)d;

	strbuf_addf(out, "American: Winter Attrition: %d CU%s of the mixed stack %s lost; name the French ones: 'lose N' (11.3).",
		    p->left, p->left == 1 ? "" : "s", p->left == 1 ? "is" : "are");
}

bool winter_attrition(const struct data *d, struct state *s, struct rng *r,
		      struct strbuf *log, int from)
{
	int total = 0;

	if (from == 0)
		elog(log, "Winter Attrition (11.0):");
	for (int i = from; i < d->n_spaces; i++) {
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
			/* 11.3: in a mixed stack the American chooses which
			 * CUs go, when there is a choice (docs/rulings.md). */
			int lo, hi;
			french_loss_range(am, fr, loss, &lo, &hi);
			if (lo < hi) {
				elog(log, "%s: %d of its %d American and %d French CUs %s lost; the American chooses which (11.3).",
				     space_name(d, i), loss, am, fr, loss == 1 ? "is" : "are");
				flow_prompt(s, PROMPT_WINTER, SIDE_AMERICAN, 0, loss);
				bit_set(s->prompt.spaces_done, i);
				return false;
			}
			american_losses(d, s, i, loss - lo, lo, log);
			total += loss;
		}
	}
	if (!total && from == 0)
		elog(log, "No losses.");
	return true;
}

int engine_winter_forecast(const struct data *d, const struct state *s,
			   int space, enum side side, bool *on_a_die)
{
	const struct space_state *sp = &s->space[space];
	int am = sp->cu[NATION_AMERICAN], fr = sp->cu[NATION_FRENCH], loss;
	int am_gen = general_of_side_at(d, s, space, SIDE_AMERICAN);

	if (side == SIDE_BRITISH)
		loss = british_rule_losses(d, s, NULL, space, sp->cu[NATION_BRITISH],
					   general_of_side_at(d, s, space, SIDE_BRITISH) >= 0,
					   "British", NULL);
	else if (am == 0 && fr > 0)
		loss = british_rule_losses(d, s, NULL, space, fr, am_gen >= 0, "French", NULL);
	else
		loss = american_rule_losses(d, s, NULL, space, am + fr, am_gen >= 0,
					    am_gen >= 0 && d->generals[am_gen].never_to_reinforcements,
					    NULL);
	*on_a_die = loss == WINTER_ON_A_DIE;
	return *on_a_die ? 1 : loss;
}
