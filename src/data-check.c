/*
 * data-check.c - data_check(): the facts of the component data that the
 * rulebook pins (the map, the pieces, the cards), each checked against
 * its rule and reported at the record it is about.
 */
#include "data.h"
#include "data-internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- data_check: the facts the rulebook pins ---- */

/* Rule 12.3: the seven Blockade Zones and their ports. */
static const struct {
	const char *zone;
	const char *ports[5];
} rule_12_3[] = {
	{ "St. Lawrence", { "Montreal", "Quebec" } },
	{ "New England", { "Falmouth MA", "Boston MA", "Barnstable MA",
			   "Newport RI" } },
	{ "Long Island Sound", { "New York NY", "Long Island NY",
				 "New Haven CT" } },
	{ "Delaware", { "Philadelphia PA", "Wilmington DE" } },
	{ "Chesapeake", { "Baltimore MD", "Alexandria VA", "Yorktown VA",
			  "Norfolk VA" } },
	{ "Carolinas", { "Wilmington NC", "New Bern NC", "Charleston SC" } },
	{ "South Atlantic", { "Savannah GA", "St. Mary's GA" } },
};

/* Rule 2.1.C: the fortified ports, drawn as stars. */
static const char *const rule_2_1_c[] = {
	"Quebec", "Montreal", "Charleston SC", "Philadelphia PA",
};

/* Rule 4.0: the set-up. */
static const struct setup_rule {
	enum nation nation;
	enum setup_where where;
	const char *space, *general;
	int cus;
	bool pc, congress, navy;
} rule_4_0[] = {
	{ NATION_BRITISH, SETUP_SPACE, "Quebec", "Carleton", 2, true, false, false },
	{ NATION_BRITISH, SETUP_SPACE, "Montreal", NULL, 0, true, false, false },
	{ NATION_BRITISH, SETUP_SPACE, "Fort Detroit", NULL, 1, true, false, false },
	{ NATION_BRITISH, SETUP_SPACE, "Boston MA", "Howe", 5, true, false, false },
	{ NATION_BRITISH, SETUP_SPACE, "Norfolk VA", NULL, 0, true, false, false },
	{ NATION_BRITISH, SETUP_SPACE, "Gilbert Town NC", NULL, 0, true, false, false },
	{ NATION_BRITISH, SETUP_SPACE, "Wilmington NC", NULL, 0, true, false, false },
	{ NATION_BRITISH, SETUP_SPACE, "Ninety Six SC", NULL, 0, true, false, false },
	{ NATION_BRITISH, SETUP_REINFORCEMENTS, NULL, "Burgoyne", 0, false, false, false },
	{ NATION_BRITISH, SETUP_REINFORCEMENTS, NULL, "Clinton", 0, false, false, false },
	{ NATION_BRITISH, SETUP_REINFORCEMENTS, NULL, "Cornwallis", 0, false, false, false },
	{ NATION_AMERICAN, SETUP_SPACE, "Lexington and Concord MA", "Washington", 5, true, false, false },
	{ NATION_AMERICAN, SETUP_SPACE, "Newport RI", "Greene", 2, false, false, false },
	{ NATION_AMERICAN, SETUP_SPACE, "Charleston SC", NULL, 2, true, false, false },
	{ NATION_AMERICAN, SETUP_SPACE, "Philadelphia PA", NULL, 0, true, true, false },
	{ NATION_AMERICAN, SETUP_REINFORCEMENTS, NULL, "Arnold", 0, false, false, false },
	{ NATION_AMERICAN, SETUP_REINFORCEMENTS, NULL, "Lincoln", 0, false, false, false },
	{ NATION_AMERICAN, SETUP_REINFORCEMENTS, NULL, "Gates", 0, false, false, false },
	{ NATION_AMERICAN, SETUP_REINFORCEMENTS, NULL, "Lee", 0, false, false, false },
	{ NATION_AMERICAN, SETUP_REINFORCEMENTS, NULL, "Lafayette", 0, false, false, false },
	{ NATION_FRENCH, SETUP_FRENCH_BOX, NULL, "Rochambeau", 5, false, false, true },
};

/* A position for a problem that has no record: the file's first line. */
static struct data_source file_pos(const struct data *d, enum data_file f)
{
	struct data_source s = { NULL, 1, 1, NULL };

	s.file = (int)f < d->n_files ? d->files[f] : data_file_names[f];
	return s;
}

/* True if setup line p is the line r of rule 4.0. */
static bool setup_matches(const struct data *d, const struct data_setup *p,
			  const struct setup_rule *r)
{
	if (p->nation != r->nation || p->where != r->where ||
	    p->cus != r->cus || p->pc != r->pc || p->congress != r->congress ||
	    p->french_navy != r->navy)
		return false;
	if (r->space && (p->space < 0 ||
			 ascii_strcasecmp(d->spaces[p->space].full_name,
					  r->space)))
		return false;
	if (!r->space && p->space >= 0 && p->where == SETUP_SPACE)
		return false;
	if (!r->general != (p->general < 0))
		return false;
	if (r->general &&
	    ascii_strcasecmp(d->generals[p->general].name, r->general))
		return false;
	return true;
}

/* Map checks: symmetry, connectivity, ports, zones, stars. */
static void check_map(const struct data *d, struct strbuf *errs, int *n)
{
	int *queue, head = 0, tail = 0;
	bool *seen;

	for (int a = 0; a < d->n_spaces; a++) {
		const struct data_space *s = &d->spaces[a];

		if (s->colony < 0 || s->colony >= d->n_colonies)
			data_src_err(errs, n, &s->src, "space '%s' has no colony",
				s->full_name);
		for (int i = 0; i < s->n_adj; i++) {
			const struct data_adj *x = &s->adj[i];
			bool back = false;

			if (x->to < 0 || x->to >= d->n_spaces) {
				data_src_err(errs, n, &s->src,
					"space '%s' has a connection to an "
					"unknown space", s->full_name);
				continue;
			}
			for (int j = 0; j < d->spaces[x->to].n_adj; j++) {
				const struct data_adj *y =
					&d->spaces[x->to].adj[j];

				if (y->to == a && y->wilderness == x->wilderness
				    && y->only_general == x->only_general)
					back = true;
			}
			if (!back)
				data_src_err(errs, n, &s->src,
					"connection '%s' - '%s' is not "
					"symmetric", s->full_name,
					d->spaces[x->to].full_name);
			if (x->only_general >= d->n_generals)
				data_src_err(errs, n, &s->src,
					"connection '%s' - '%s' names an "
					"unknown general", s->full_name,
					d->spaces[x->to].full_name);
		}
	}
	if (d->n_spaces > 0) {
		queue = xcalloc(d->n_spaces, sizeof(*queue));
		seen = xcalloc(d->n_spaces, sizeof(*seen));
		seen[0] = true;
		queue[tail++] = 0;
		while (head < tail) {
			const struct data_space *s = &d->spaces[queue[head++]];

			for (int i = 0; i < s->n_adj; i++) {
				int to = s->adj[i].to;

				if (to >= 0 && to < d->n_spaces && !seen[to]) {
					seen[to] = true;
					queue[tail++] = to;
				}
			}
		}
		for (int i = 0; i < d->n_spaces; i++)
			if (!seen[i])
				data_src_err(errs, n, &d->spaces[i].src,
					"space '%s' cannot be reached from "
					"'%s' (the map must be connected)",
					d->spaces[i].full_name,
					d->spaces[0].full_name);
		free(queue);
		free(seen);
	}

	/* Rule 12.3: the ports and zones. */
	if (d->n_zones != (int)ARRAY_SIZE(rule_12_3)) {
		struct data_source p = file_pos(d, F_ZONES);

		data_src_err(errs, n, &p, "expected %d blockade zones (rule 12.3), "
			"found %d", (int)ARRAY_SIZE(rule_12_3), d->n_zones);
	}
	for (size_t z = 0; z < ARRAY_SIZE(rule_12_3); z++) {
		int zi = data_zone_index(d, rule_12_3[z].zone);
		struct data_source p = file_pos(d, F_ZONES);

		if (zi < 0) {
			data_src_err(errs, n, &p, "blockade zone '%s' of rule 12.3 "
				"is missing", rule_12_3[z].zone);
			continue;
		}
		for (int k = 0; k < 5 && rule_12_3[z].ports[k]; k++) {
			const char *port = rule_12_3[z].ports[k];
			int si = data_space_index(d, port);

			if (si < 0 || !d->spaces[si].port ||
			    d->spaces[si].zone != zi)
				data_src_err(errs, n, &d->zones[zi].src,
					"port '%s' must be in blockade zone "
					"'%s' (rule 12.3)", port,
					rule_12_3[z].zone);
		}
	}
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *s = &d->spaces[i];
		bool listed = false;

		if (!s->port) {
			if (s->zone >= 0)
				data_src_err(errs, n, &s->src, "space '%s' is in a "
					"blockade zone but is not a port",
					s->full_name);
			continue;
		}
		for (size_t z = 0; z < ARRAY_SIZE(rule_12_3); z++)
			for (int k = 0; k < 5 && rule_12_3[z].ports[k]; k++)
				if (!ascii_strcasecmp(rule_12_3[z].ports[k],
						      s->full_name))
					listed = true;
		if (!listed)
			data_src_err(errs, n, &s->src, "space '%s' is not a port "
				"of rule 12.3", s->full_name);
		else if (s->zone < 0)
			data_src_err(errs, n, &s->src, "port '%s' is in no "
				"blockade zone", s->full_name);
	}

	/* Rule 2.1.C: exactly the four stars are the fortified ports. */
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *s = &d->spaces[i];
		bool rule = false;

		for (size_t k = 0; k < ARRAY_SIZE(rule_2_1_c); k++)
			if (!ascii_strcasecmp(rule_2_1_c[k], s->full_name))
				rule = true;
		if (rule && s->shape != SHAPE_STAR)
			data_src_err(errs, n, &s->src, "space '%s' must be a star "
				"(fortified port, rule 2.1.C)", s->full_name);
		else if (!rule && s->shape == SHAPE_STAR)
			data_src_err(errs, n, &s->src, "space '%s' is a star but "
				"not a fortified port of rule 2.1.C",
				s->full_name);
		if (s->fortified != (s->shape == SHAPE_STAR) ||
		    s->winter_quarters != (s->shape != SHAPE_CIRCLE))
			data_src_err(errs, n, &s->src, "space '%s': fortified and "
				"winter quarters must follow the shape (2.1.B, "
				"2.1.C)", s->full_name);
	}
}

/* Colonies, generals, set-up, turns. */
static void check_pieces(const struct data *d, struct strbuf *errs, int *n)
{
	int nat[3] = { 0, 0, 0 }, canada = 0;
	bool *used;

	for (int i = 0; i < d->n_colonies; i++)
		canada += d->colonies[i].canada;
	if (d->n_colonies != 14 || canada != 1) {
		struct data_source p = file_pos(d, F_COLONIES);

		data_src_err(errs, n, &p, "expected the thirteen colonies and "
			"Canada, found %d colonies (%d Canada)",
			d->n_colonies, canada);
	}
	for (int i = 0; i < d->n_generals; i++) {
		const struct data_general *g = &d->generals[i];

		nat[g->nation]++;
		if ((g->nation == NATION_BRITISH) != (g->side == SIDE_BRITISH))
			data_src_err(errs, n, &g->src, "general '%s': a British "
				"general is on the British side, others on the "
				"American side (12.2.C)", g->name);
	}
	if (d->n_generals != 13 || nat[NATION_BRITISH] != 5 ||
	    nat[NATION_AMERICAN] != 7 || nat[NATION_FRENCH] != 1) {
		struct data_source p = file_pos(d, F_GENERALS);

		data_src_err(errs, n, &p, "expected 13 generals (5 British, 7 "
			"American, 1 French), found %d (%d, %d, %d)",
			d->n_generals, nat[NATION_BRITISH],
			nat[NATION_AMERICAN], nat[NATION_FRENCH]);
	}

	used = xcalloc(d->n_setup + 1, sizeof(*used));
	for (size_t r = 0; r < ARRAY_SIZE(rule_4_0); r++) {
		bool found = false;

		for (int i = 0; i < d->n_setup && !found; i++)
			if (!used[i] && setup_matches(d, &d->setup[i],
						      &rule_4_0[r]))
				used[i] = found = true;
		if (!found) {
			struct data_source p = file_pos(d, F_SETUP);

			data_src_err(errs, n, &p, "set-up of rule 4.0: no line for "
				"%s%s%s", rule_4_0[r].space ? rule_4_0[r].space
							    : "a box",
				rule_4_0[r].general ? ", general " : "",
				rule_4_0[r].general ? rule_4_0[r].general : "");
		}
	}
	for (int i = 0; i < d->n_setup; i++)
		if (!used[i])
			data_src_err(errs, n, &d->setup[i].src, "set-up line not in "
				"rule 4.0");
	free(used);
	if (d->committees_pcs_per_colony != 1 || d->for_the_king_pcs != 3) {
		struct data_source p = file_pos(d, F_SETUP);

		data_src_err(errs, n, &p, "rule 4.0 places 1 Committees of "
			"Correspondence PC per colony and 3 For The King PCs");
	}

	for (int i = 0; i < d->n_years; i++)
		if (d->years[i].year != 1775 + i)
			data_src_err(errs, n, &d->years[i].src, "expected year %d",
				1775 + i);
	if (d->n_years != 9) {
		struct data_source p = file_pos(d, F_TURNS);

		data_src_err(errs, n, &p, "expected the years 1775 to 1783, found "
			"%d years", d->n_years);
	}
}

/* The cards: 110, seven specials, reshuffles, set-aside cards. */
static void check_cards(const struct data *d, struct strbuf *errs, int *n)
{
	struct data_source p = file_pos(d, F_CARDS);
	int specials = 0, other_specials = 0, aside = 0;
	bool war_year[5] = { false };

	for (int k = 1; k <= DATA_MAX_CARDS; k++) {
		const struct data_card *c = &d->cards[k];

		if (c->number != k) {
			data_src_err(errs, n, &p, "card #%d is missing", k);
			continue;
		}
		if (c->ops > 0 && (c->special || c->battle_card ||
				   c->campaign || c->text || c->n_effects))
			data_src_err(errs, n, &c->src, "card #%d is both an OPS "
				"card and an event", k);
		if (c->special) {
			specials++;
			if (c->side != CARD_SIDE_NONE)
				data_src_err(errs, n, &c->src, "special card #%d "
					"must have no flag (6.3.B)", k);
			if (c->war_ends_year) {
				int y = c->war_ends_year - 1779;

				if (war_year[y])
					data_src_err(errs, n, &c->src, "second "
						"War Ends card for %d",
						c->war_ends_year);
				war_year[y] = true;
			} else if (k != 99) {
				other_specials++;
			}
		} else if (c->war_ends_year) {
			data_src_err(errs, n, &c->src, "card #%d: a War Ends card "
				"must be special (6.34.C)", k);
		}
		if (c->campaign && (c->side != CARD_SIDE_NONE || c->ops))
			data_src_err(errs, n, &c->src, "campaign card #%d must be "
				"an event without a flag (6.3.B)", k);
		if (c->set_aside_until_1776)
			aside++;
		if ((k == 95 || k == 99) &&
		    c->reshuffle != RESHUFFLE_WHEN_PLAYED)
			data_src_err(errs, n, &c->src, "card #%d reshuffles the "
				"deck when played (6.1.B)", k);
		else if (k == 96 && c->reshuffle != RESHUFFLE_WHEN_DISCARDED)
			data_src_err(errs, n, &c->src, "card #96 reshuffles the "
				"deck when discarded (6.1.B)");
		else if (k != 95 && k != 96 && k != 99 &&
			 c->reshuffle != RESHUFFLE_NEVER)
			data_src_err(errs, n, &c->src, "card #%d: only #95, #96 and "
				"#99 reshuffle the deck (6.1.B)", k);
	}
	if (d->cards[99].number == 99 &&
	    (!d->cards[99].special || !d->cards[99].set_aside_until_1776))
		data_src_err(errs, n, &d->cards[99].src, "card #99 (Declaration of "
			"Independence) is special and set aside until 1776 "
			"(4.0, 6.34.C)");
	for (int y = 0; y < 5; y++)
		if (!war_year[y])
			data_src_err(errs, n, &p, "no War Ends card for %d (6.34.C)",
				1779 + y);
	if (specials != 7 || other_specials != 1)
		data_src_err(errs, n, &p, "expected seven special cards: #99, "
			"Benjamin Franklin and five War Ends cards (6.34.C), "
			"found %d", specials);
	if (aside != 2)
		data_src_err(errs, n, &p, "expected two cards set aside until 1776 "
			"(4.0), found %d", aside);
}

/* ---- The card's prose against its effect ------------------------------- */

/* What a number in a card's text counts. */
enum unit { U_NONE, U_PC, U_CU, U_CARD, U_GENERAL, U_SPACE, U_DRM };

static const char *const number_words[] = {
	"zero", "one", "two", "three", "four", "five", "six", "seven",
	"eight", "nine", "ten",
};

/* The number a word of the text spells (one..ten, or 1-20), or -1. */
static int word_number(const char *w, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < ARRAY_SIZE(number_words); i++)
		if (strlen(number_words[i]) == n &&
		    !ascii_strncasecmp(w, number_words[i], n))
			return (int)i;
	if (!n || n > 2)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		v = v * 10 + (w[i] - '0');
	}
	return v <= 20 ? v : -1;
}

static enum unit word_unit(const char *w, size_t n)
{
	static const struct { const char *word; enum unit u; } units[] = {
		{ "PC", U_PC }, { "PCs", U_PC }, { "CU", U_CU }, { "CUs", U_CU },
		{ "card", U_CARD }, { "cards", U_CARD },
		{ "general", U_GENERAL }, { "generals", U_GENERAL },
		{ "space", U_SPACE }, { "spaces", U_SPACE },
	};
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (strlen(units[i].word) == n &&
		    !ascii_strncasecmp(w, units[i].word, n))
			return units[i].u;
	return U_NONE;
}

/* True if the card has an effect that a number v counting u agrees with. */
static bool effect_says(const struct data_card *c, enum unit u, int v)
{
	for (int i = 0; i < c->n_effects; i++) {
		const struct data_effect *e = &c->effects[i];
		int count = e->count ? e->count : 1;
		unsigned per = QUAL_ONE_PER_SPACE | QUAL_ONE_PER_COLONY |
			       QUAL_EACH_COLONY;

		switch (u) {
		case U_PC:
			if ((e->verb == EFFECT_PLACE_PC || e->verb == EFFECT_REMOVE_PC ||
			     e->verb == EFFECT_FLIP_PC) &&
			    (count == v || v == 1))	/* one PC a space */
				return true;
			break;
		case U_CU:
			if ((e->verb == EFFECT_PLACE_CU || e->verb == EFFECT_REMOVE_CU) &&
			    (count == v || (v == 1 && (e->quals & per))))
				return true;
			break;
		case U_CARD:
			if ((e->verb == EFFECT_OPPONENT_DISCARDS_RANDOM ||
			     e->verb == EFFECT_DRAW) && count == v)
				return true;
			break;
		case U_GENERAL:
			if ((e->verb == EFFECT_ACTIVATE_GENERALS ||
			     e->verb == EFFECT_ACTIVATE_GENERAL) && count == v)
				return true;
			break;
		case U_SPACE:
			/* spaces moved, spaces acted on, steps of the track;
			 * losing the Regulars moves the track 2 (12.1) */
			if (count == v || e->amount == v ||
			    (e->verb == EFFECT_LOSE_REGULARS && v == 2))
				return true;
			break;
		case U_DRM:
			if ((e->verb == EFFECT_BATTLE_DRM ||
			     e->verb == EFFECT_FRENCH_ALLIANCE) && e->amount == v)
				return true;
			break;
		case U_NONE:
			break;
		}
	}
	return false;
}

/*
 * A number in the text that counts PCs, CUs, cards, generals or spaces
 * (within the three words after it), or a "+N", must agree with the
 * card's machine form, so that prose and effect cannot drift apart
 * (#71's count changed to 3 while its text says "two").
 */
static void check_prose(const struct data_card *c, struct strbuf *errs, int *n)
{
	static const char *const unit_names[] = {
		"", "PC", "CU", "card", "general", "space", "modifier",
	};
	const char *p = c->text;

	if (!p || c->handler != HANDLER_NONE)
		return;
	while (*p) {
		const char *w = p, *q;
		size_t len;
		int v;
		enum unit u = U_NONE;

		while (*p && (isalnum((unsigned char)*p) || *p == '+' || *p == '.' ||
			      *p == '\'' || *p == '-'))
			p++;
		len = (size_t)(p - w);
		while (len && (w[len - 1] == '.' || w[len - 1] == '\''))
			len--;
		if (len > 1 && w[0] == '+' && (v = word_number(w + 1, len - 1)) >= 0) {
			u = U_DRM;
		} else if ((v = word_number(w, len)) >= 0) {
			/* the unit: one of the next three words */
			q = p;
			for (int k = 0; k < 3 && *q && u == U_NONE; k++) {
				const char *x;
				while (*q && !isalnum((unsigned char)*q))
					q++;
				x = q;
				while (isalnum((unsigned char)*q))
					q++;
				if (word_number(x, (size_t)(q - x)) >= 0)
					break;
				u = word_unit(x, (size_t)(q - x));
			}
			if (u == U_SPACE && v == 1)
				u = U_NONE;	/* "one space", "a space": no count */
		}
		if (u != U_NONE && !effect_says(c, u, v))
			data_src_err(errs, n, &c->src, "card #%d: the text says "
				"'%.*s' (%s) but no effect counts %d: change the "
				"text or the effect", c->number, (int)len, w,
				unit_names[u], v);
		while (*p && !(isalnum((unsigned char)*p) || *p == '+'))
			p++;
	}
}

int data_check(const struct data *d, struct strbuf *errs)
{
	int n = 0;

	check_map(d, errs, &n);
	check_pieces(d, errs, &n);
	check_cards(d, errs, &n);
	for (int k = 1; k <= DATA_MAX_CARDS; k++)
		if (d->cards[k].number == k && !d->cards[k].ops)
			check_prose(&d->cards[k], errs, &n);
	return n;
}
