/*
 * data-dump.c - data_dump(): the loaded component data written back as
 * YAML, one canonical form (for `postrider data` and the tests).
 */
#include "data.h"
#include "data-internal.h"
#include "ytree.h"

#include <stdlib.h>
#include <string.h>

/* ---- data_dump ---- */

/* Appends "<indent>key: value\n" with value as a YAML scalar. */
static void emit_kv(struct strbuf *out, const char *indent, const char *key,
		    const char *value)
{
	strbuf_addf(out, "%s%s: ", indent, key);
	if (value)
		ytree_emit_scalar(out, value);
	else
		strbuf_addstr(out, "null");
	strbuf_addch(out, '\n');
}

/* Appends "<indent>key: true|false\n". */
static void emit_bool(struct strbuf *out, const char *indent,
		      const char *key, bool v)
{
	strbuf_addf(out, "%s%s: %s\n", indent, key, v ? "true" : "false");
}

/* Appends "<indent>key: N\n". */
static void emit_int(struct strbuf *out, const char *indent, const char *key,
		     int v)
{
	strbuf_addf(out, "%s%s: %d\n", indent, key, v);
}

static const char *const dump_sides[] = { "none", "american", "british" };
static const char *const dump_nations[] = { "american", "british", "french" };
static const char *const I = "    ";	/* a field of a list item */

/* One effect of a card. */
static void dump_effect(const struct data *d, const struct data_effect *e,
			struct strbuf *out)
{
	emit_kv(out, "      - ", "verb", effect_verbs[e->verb].name);
	emit_int(out, "        ", "count", e->count);
	strbuf_addstr(out, "        colonies: [");
	for (int ci = 0, first = 1; ci < d->n_colonies; ci++)
		if (e->colonies_mask & (1 << ci)) {
			if (!first)
				strbuf_addstr(out, ", ");
			first = 0;
			ytree_emit_scalar(out, d->colonies[ci].code);
		}
	strbuf_addstr(out, "]\n");
	emit_kv(out, "        ", "where", e->where);
	emit_int(out, "        ", "amount", e->amount);
}

/* The colonies and the blockade zones with their ports. */
static void dump_colonies_zones(const struct data *d, struct strbuf *out)
{
	strbuf_addstr(out, "colonies:\n");
	for (int i = 0; i < d->n_colonies; i++) {
		const struct data_colony *c = &d->colonies[i];

		emit_kv(out, "  - ", "name", c->name);
		emit_kv(out, I, "code", c->code);
		emit_bool(out, I, "canada", c->canada);
		emit_bool(out, I, "south_of_winter_line",
			  c->south_of_winter_line);
		emit_kv(out, I, "source", c->src.source);
	}

	strbuf_addstr(out, "zones:\n");
	for (int i = 0; i < d->n_zones; i++) {
		emit_kv(out, "  - ", "name", d->zones[i].name);
		strbuf_addf(out, "%sports:\n", I);
		for (int s = 0; s < d->n_spaces; s++)
			if (d->spaces[s].zone == i) {
				strbuf_addstr(out, "      - ");
				ytree_emit_scalar(out, d->spaces[s].full_name);
				strbuf_addch(out, '\n');
			}
		emit_kv(out, I, "source", d->zones[i].src.source);
	}
}

/* The spaces. */
static void dump_spaces(const struct data *d, struct strbuf *out)
{
	static const char *const shapes[] = { "circle", "square", "star" };

	strbuf_addstr(out, "spaces:\n");
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *s = &d->spaces[i];

		emit_kv(out, "  - ", "name", s->full_name);
		emit_kv(out, I, "short_name", s->name);
		emit_kv(out, I, "colony", d->colonies[s->colony].code);
		emit_kv(out, I, "shape", shapes[s->shape]);
		emit_bool(out, I, "port", s->port);
		emit_bool(out, I, "fortified", s->fortified);
		emit_bool(out, I, "winter_quarters", s->winter_quarters);
		emit_kv(out, I, "blockade_zone",
			s->zone >= 0 ? d->zones[s->zone].name : NULL);
		emit_bool(out, I, "south_of_winter_line",
			  s->south_of_winter_line);
		emit_int(out, I, "x", s->x);
		emit_int(out, I, "y", s->y);
		strbuf_addf(out, "%saliases: [", I);
		for (int j = 0; j < s->n_aliases; j++) {
			if (j)
				strbuf_addstr(out, ", ");
			ytree_emit_scalar(out, s->aliases[j]);
		}
		strbuf_addstr(out, "]\n");
		emit_kv(out, I, "source", s->src.source);
	}
}

/* The connections between spaces. */
static void dump_connections(const struct data *d, struct strbuf *out)
{
	strbuf_addstr(out, "connections:\n");
	for (int i = 0; i < d->n_connections; i++) {
		const struct data_connection *c = &d->connections[i];

		emit_kv(out, "  - ", "from", d->spaces[c->a].full_name);
		emit_kv(out, I, "to", d->spaces[c->b].full_name);
		emit_bool(out, I, "wilderness", c->wilderness);
		emit_kv(out, I, "only", c->only_general >= 0
			? d->generals[c->only_general].name : NULL);
		emit_kv(out, I, "source", c->src.source);
	}
}

/* The generals, the set-up, the years and the counter mix. */
static void dump_pieces(const struct data *d, struct strbuf *out)
{
	static const char *const wheres[] = {
		"space", "reinforcements", "french"
	};

	strbuf_addstr(out, "generals:\n");
	for (int i = 0; i < d->n_generals; i++) {
		const struct data_general *g = &d->generals[i];

		emit_kv(out, "  - ", "name", g->name);
		emit_kv(out, I, "side", dump_sides[g->side]);
		emit_kv(out, I, "nation", dump_nations[g->nation]);
		emit_int(out, I, "strategy", g->strategy);
		emit_int(out, I, "battle", g->battle);
		emit_int(out, I, "agility", g->agility);
		emit_int(out, I, "retreat_bonus", g->retreat_bonus);
		emit_bool(out, I, "never_to_reinforcements",
			  g->never_to_reinforcements);
		emit_kv(out, I, "source", g->src.source);
	}

	strbuf_addstr(out, "setup:\n");
	for (int i = 0; i < d->n_setup; i++) {
		const struct data_setup *p = &d->setup[i];

		emit_kv(out, "  - ", "nation", dump_nations[p->nation]);
		emit_kv(out, I, "where", wheres[p->where]);
		emit_kv(out, I, "space", p->space >= 0
			? d->spaces[p->space].full_name : NULL);
		emit_kv(out, I, "general", p->general >= 0
			? d->generals[p->general].name : NULL);
		emit_int(out, I, "cus", p->cus);
		emit_bool(out, I, "pc", p->pc);
		emit_bool(out, I, "congress", p->congress);
		emit_bool(out, I, "french_navy", p->french_navy);
		emit_kv(out, I, "source", p->src.source);
	}
	emit_int(out, "", "committees_of_correspondence_pcs_per_colony",
		 d->committees_pcs_per_colony);
	emit_int(out, "", "for_the_king_pcs", d->for_the_king_pcs);

	strbuf_addstr(out, "years:\n");
	for (int i = 0; i < d->n_years; i++) {
		emit_int(out, "  - ", "year", d->years[i].year);
		emit_int(out, I, "british_reinforcements",
			 d->years[i].british_reinforcements);
		emit_kv(out, I, "source", d->years[i].src.source);
	}

	strbuf_addstr(out, "counters:\n");
	emit_int(out, "  ", "american_cus", d->cu_pool[NATION_AMERICAN]);
	emit_int(out, "  ", "british_cus", d->cu_pool[NATION_BRITISH]);
	emit_int(out, "  ", "french_cus", d->cu_pool[NATION_FRENCH]);
	emit_int(out, "  ", "pc_markers", d->pc_markers);
}

/* The cards and their effects. */
static void dump_cards(const struct data *d, struct strbuf *out)
{
	strbuf_addstr(out, "cards:\n");
	for (int k = 1; k <= DATA_MAX_CARDS; k++) {
		static const char *const resh[] = {
			"never", "when_played", "when_discarded"
		};
		const struct data_card *c = &d->cards[k];

		if (!c->number)
			continue;
		emit_int(out, "  - ", "number", c->number);
		emit_kv(out, I, "title", c->title);
		emit_int(out, I, "ops", c->ops);
		emit_kv(out, I, "side", dump_sides[c->side]);
		emit_bool(out, I, "battle_card", c->battle_card);
		emit_bool(out, I, "special", c->special);
		emit_bool(out, I, "removed_after_play", c->removed_after_play);
		emit_kv(out, I, "reshuffle", resh[c->reshuffle]);
		emit_int(out, I, "war_ends_year", c->war_ends_year);
		emit_int(out, I, "campaign", c->campaign);
		emit_bool(out, I, "set_aside_until_1776",
			  c->set_aside_until_1776);
		emit_kv(out, I, "text", c->text);
		emit_kv(out, I, "handler", c->handler ? card_handlers[c->handler] : NULL);
		strbuf_addf(out, "%seffects:%s\n", I, c->n_effects ? "" : " []");
		for (int j = 0; j < c->n_effects; j++)
			dump_effect(d, &c->effects[j], out);
		emit_kv(out, I, "source", c->src.source);
		emit_bool(out, I, "by_player", c->by_player);
	}
}

void data_dump(const struct data *d, struct strbuf *out)
{
	strbuf_addstr(out, "# postrider component data, schema: docs/data.md\n");
	emit_kv(out, "", "game", d->game);
	emit_kv(out, "", "hash", d->hash);
	dump_colonies_zones(d, out);
	dump_spaces(d, out);
	dump_connections(d, out);
	dump_pieces(d, out);
	dump_cards(d, out);
}
