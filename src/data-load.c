/*
 * data-load.c - loading the component data (games/<game>/NAME.yaml):
 * reading the files, their hash, the YAML into struct data (data.h), then
 * the checks of the facts the rulebook pins (data-check.c). The look-ups
 * and data_free() are data.c's, the dump data-dump.c's.
 *
 * The files are read in dependency order (colonies before spaces, spaces
 * before zones and connections, ...). Every problem is reported as
 * "file:line:column: message" and loading goes on, so that one run shows
 * as many problems as possible; data_load() then returns NULL. The schema
 * is documented in docs/data.md.
 */
#include "data.h"
#include "data-internal.h"
#include "ytree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#define MAX_FILE_SIZE (4 * 1024 * 1024)



/* State of one data_load() run. */
struct loader {
	struct data *d;
	struct strbuf *errs;
	int nerr;
	struct ytree *t;	/* the file being read */
	const char *file;	/* its name in messages (owned by d) */
};

/* Appends a positioned message for node n of the current file. */
static void PRINTF_LIKE(3, 4) lerr(struct loader *L, yaml_node_t *n,
				   const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(L->errs, "%s:%d:%d: ", L->file, ytree_line(n),
		    ytree_column(n));
	va_start(ap, fmt);
	strbuf_vaddf(L->errs, fmt, ap);
	va_end(ap);
	strbuf_addch(L->errs, '\n');
	L->nerr++;
}

/* Checks the keys of map against allowed, and that none is repeated. */
static void check_keys(struct loader *L, yaml_node_t *map,
		       const char *const *allowed)
{
	int n = ytree_map_len(map);

	L->nerr += ytree_check_keys(L->t, map, allowed, L->errs);
	for (int i = 0; i < n; i++) {
		yaml_node_t *kn;
		const char *k = ytree_map_key(L->t, map, i, &kn);

		for (int j = 0; k && j < i; j++) {
			const char *k2 = ytree_map_key(L->t, map, j, NULL);

			if (k2 && !strcmp(k, k2)) {
				lerr(L, kn, "duplicate key '%s'", k);
				break;
			}
		}
	}
}

/* True if n is a mapping; otherwise reports "expected a mapping". */
static bool need_map(struct loader *L, yaml_node_t *n, const char *what)
{
	if (n && n->type == YAML_MAPPING_NODE)
		return true;
	lerr(L, n, "expected %s (a mapping)", what);
	return false;
}

/* The sequence under key of map, or NULL after reporting it. */
static yaml_node_t *need_seq(struct loader *L, yaml_node_t *map,
			     const char *key)
{
	yaml_node_t *n = ytree_get(L->t, map, key);

	if (!n) {
		lerr(L, map, "missing key '%s'", key);
		return NULL;
	}
	if (n->type != YAML_SEQUENCE_NODE) {
		lerr(L, n, "expected a list for '%s'", key);
		return NULL;
	}
	return n;
}

/* The string under key, or NULL (reported if required or not a scalar). */
static const char *get_str(struct loader *L, yaml_node_t *map,
			   const char *key, bool required)
{
	yaml_node_t *n = ytree_get(L->t, map, key);
	const char *s;

	if (!n) {
		if (required)
			lerr(L, map, "missing key '%s'", key);
		return NULL;
	}
	s = ytree_scalar(n);
	if (!s || (!*s && required)) {
		lerr(L, n, "expected a text for '%s'", key);
		return NULL;
	}
	return s;
}

/* Reads an integer under key into *out (def when absent and optional). */
static void get_int(struct loader *L, yaml_node_t *map, const char *key,
		    bool required, long min, long max, long def, int *out)
{
	yaml_node_t *n = ytree_get(L->t, map, key);
	long v = def;

	if (!n) {
		if (required)
			lerr(L, map, "missing key '%s'", key);
	} else if (ytree_int(L->t, n, min, max, &v, L->errs)) {
		L->nerr++;
		v = def;
	}
	*out = (int)v;
}

/* Reads an optional boolean under key (false when absent). */
static bool get_bool(struct loader *L, yaml_node_t *map, const char *key)
{
	yaml_node_t *n = ytree_get(L->t, map, key);
	bool v = false;

	if (n && ytree_bool(L->t, n, &v, L->errs)) {
		L->nerr++;
		v = false;
	}
	return v;
}

/* Maps the text under key to the index of one of words; -1 if bad. */
static int get_enum(struct loader *L, yaml_node_t *map, const char *key,
		    bool required, int def, const char *const *words)
{
	yaml_node_t *n = ytree_get(L->t, map, key);
	const char *s;
	struct strbuf list = STRBUF_INIT;

	if (!n) {
		if (required) {
			lerr(L, map, "missing key '%s'", key);
			return -1;
		}
		return def;
	}
	s = ytree_scalar(n);
	for (int i = 0; s && words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	for (int i = 0; words[i]; i++)
		strbuf_addf(&list, "%s'%s'", i ? ", " : "", words[i]);
	lerr(L, n, "unknown %s '%s' (expected one of %s)", key,
	     s ? s : "(not a scalar)", strbuf_str(&list));
	strbuf_release(&list);
	return -1;
}

/* Fills src from a record node: position and its 'source' key. */
static void get_source(struct loader *L, yaml_node_t *rec,
		       struct data_source *src)
{
	const char *s = get_str(L, rec, "source", true);

	src->file = L->file;
	src->line = ytree_line(rec);
	src->column = ytree_column(rec);
	src->source = xstrdup(s ? s : "");
}

/* Resolves a space name under key of rec; reports an unknown one. */
static int get_space(struct loader *L, yaml_node_t *rec, const char *key,
		     bool required)
{
	const char *s = get_str(L, rec, key, required);
	int i;

	if (!s)
		return -1;
	i = data_space_index(L->d, s);
	if (i < 0)
		lerr(L, ytree_get(L->t, rec, key), "unknown space '%s'", s);
	return i;
}

/* Resolves a general name under key of rec; reports an unknown one. */
static int get_general(struct loader *L, yaml_node_t *rec, const char *key,
		       bool required)
{
	const char *s = get_str(L, rec, key, required);
	int i;

	if (!s)
		return -1;
	i = data_general_index(L->d, s);
	if (i < 0)
		lerr(L, ytree_get(L->t, rec, key), "unknown general '%s'", s);
	return i;
}

static const char *const side_words[] = { "none", "american", "british", NULL };
static const char *const nation_words[] = {
	"american", "british", "french", NULL
};
static const char *const shape_words[] = {
	"circle", "square", "star", NULL
};
static const char *const reshuffle_words[] = {
	"never", "when_played", "when_discarded", NULL
};

/* colonies.yaml: the thirteen colonies and Canada. */
static void load_colonies(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "colonies", NULL };
	static const char *const keys[] = {
		"name", "code", "canada", "south_of_winter_line", "source", NULL
	};
	struct data *d = L->d;
	yaml_node_t *seq;

	check_keys(L, root, top);
	if (!(seq = need_seq(L, root, "colonies")))
		return;
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i);
		struct data_colony *c;
		const char *name, *code;

		if (!need_map(L, rec, "a colony"))
			continue;
		check_keys(L, rec, keys);
		name = get_str(L, rec, "name", true);
		code = get_str(L, rec, "code", true);
		if (!name || !code)
			continue;
		if (data_colony_index(d, name) >= 0 ||
		    data_colony_index(d, code) >= 0) {
			lerr(L, rec, "duplicate colony '%s'", name);
			continue;
		}
		if (d->n_colonies == DATA_MAX_COLONIES) {
			lerr(L, rec, "too many colonies (at most %d)",
			     DATA_MAX_COLONIES);
			return;
		}
		c = &d->colonies[d->n_colonies++];
		c->name = xstrdup(name);
		c->code = xstrdup(code);
		c->canada = get_bool(L, rec, "canada");
		c->south_of_winter_line =
			get_bool(L, rec, "south_of_winter_line");
		get_source(L, rec, &c->src);
	}
}

/* Adds an alias to space s unless it is taken; reports a clash. */
static void add_alias(struct loader *L, yaml_node_t *n, struct data_space *s,
		      const char *full)
{
	if (data_space_index(L->d, full) >= 0) {
		lerr(L, n, "alias '%s' is already a space name", full);
		return;
	}
	if (s->n_aliases == DATA_MAX_ALIASES) {
		lerr(L, n, "too many aliases (at most %d)", DATA_MAX_ALIASES);
		return;
	}
	s->aliases[s->n_aliases++] = xstrdup(full);
}

/* The full name of a space: name, then " CODE" outside Canada. */
static char *full_space_name(const struct data_colony *c, const char *name)
{
	return c->canada ? xstrdup(name) : xstrfmt("%s %s", name, c->code);
}

/* spaces.yaml: the spaces of the map. */
static void load_spaces(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "spaces", NULL };
	static const char *const keys[] = {
		"name", "colony", "shape", "port", "x", "y", "aliases",
		"source", NULL
	};
	struct data *d = L->d;
	yaml_node_t *seq;

	check_keys(L, root, top);
	if (!(seq = need_seq(L, root, "spaces")))
		return;
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i), *al;
		struct data_space *s;
		const char *name, *col;
		char *full;
		int ci, shape, dup;

		if (!need_map(L, rec, "a space"))
			continue;
		check_keys(L, rec, keys);
		name = get_str(L, rec, "name", true);
		col = get_str(L, rec, "colony", true);
		if (!name || !col)
			continue;
		ci = data_colony_index(d, col);
		if (ci < 0) {
			lerr(L, ytree_get(L->t, rec, "colony"),
			     "unknown colony '%s'", col);
			continue;
		}
		full = full_space_name(&d->colonies[ci], name);
		if ((dup = data_space_index(d, full)) >= 0) {
			lerr(L, rec, "duplicate space '%s' (first at line %d)",
			     full, d->spaces[dup].src.line);
			free(full);
			continue;
		}
		if (d->n_spaces == DATA_MAX_SPACES) {
			lerr(L, rec, "too many spaces (at most %d)",
			     DATA_MAX_SPACES);
			free(full);
			return;
		}
		s = &d->spaces[d->n_spaces++];
		s->name = xstrdup(name);
		s->full_name = full;
		s->colony = ci;
		shape = get_enum(L, rec, "shape", true, 0, shape_words);
		s->shape = shape < 0 ? SHAPE_CIRCLE : (enum shape)shape;
		s->port = get_bool(L, rec, "port");
		s->fortified = s->shape == SHAPE_STAR;
		s->winter_quarters = s->shape != SHAPE_CIRCLE;
		s->zone = -1;
		s->south_of_winter_line =
			d->colonies[ci].south_of_winter_line;
		get_int(L, rec, "x", true, 0, 4000, 0, &s->x);
		get_int(L, rec, "y", true, 0, 4000, 0, &s->y);
		get_source(L, rec, &s->src);
		al = ytree_get(L->t, rec, "aliases");
		if (al && al->type != YAML_SEQUENCE_NODE) {
			lerr(L, al, "expected a list for 'aliases'");
			continue;
		}
		for (int j = 0; j < ytree_len(al); j++) {
			yaml_node_t *an = ytree_item(L->t, al, j);
			const char *a = ytree_scalar(an);

			if (!a || !*a) {
				lerr(L, an, "expected a text for an alias");
				continue;
			}
			full = full_space_name(&d->colonies[ci], a);
			add_alias(L, an, s, full);
			free(full);
		}
	}
}

/* generals.yaml: the generals and their ratings. */
static void load_generals(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "generals", NULL };
	static const char *const keys[] = {
		"name", "side", "nation", "strategy", "battle", "agility",
		"retreat_bonus", "never_to_reinforcements", "source", NULL
	};
	struct data *d = L->d;
	yaml_node_t *seq;

	check_keys(L, root, top);
	if (!(seq = need_seq(L, root, "generals")))
		return;
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i);
		struct data_general *g;
		const char *name;
		int side, nation;

		if (!need_map(L, rec, "a general"))
			continue;
		check_keys(L, rec, keys);
		if (!(name = get_str(L, rec, "name", true)))
			continue;
		if (data_general_index(d, name) >= 0) {
			lerr(L, rec, "duplicate general '%s'", name);
			continue;
		}
		if (d->n_generals == DATA_MAX_GENERALS) {
			lerr(L, rec, "too many generals (at most %d)",
			     DATA_MAX_GENERALS);
			return;
		}
		g = &d->generals[d->n_generals++];
		g->name = xstrdup(name);
		side = get_enum(L, rec, "side", true, 0, side_words);
		if (side == SIDE_NONE) {
			lerr(L, ytree_get(L->t, rec, "side"),
			     "a general's side must be 'american' or 'british'");
			side = -1;
		}
		g->side = side < 0 ? SIDE_AMERICAN : (enum side)side;
		nation = get_enum(L, rec, "nation", true, 0, nation_words);
		g->nation = nation < 0 ? NATION_AMERICAN : (enum nation)nation;
		get_int(L, rec, "strategy", true, 1, 3, 1, &g->strategy);
		get_int(L, rec, "battle", true, 1, 6, 1, &g->battle);
		get_int(L, rec, "agility", true, 1, 3, 1, &g->agility);
		get_int(L, rec, "retreat_bonus", false, 0, 3, 0,
			&g->retreat_bonus);
		g->never_to_reinforcements =
			get_bool(L, rec, "never_to_reinforcements");
		get_source(L, rec, &g->src);
	}
}

/* zones.yaml: the Blockade Zones and their ports. */
static void load_zones(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "zones", NULL };
	static const char *const keys[] = { "name", "ports", "source", NULL };
	struct data *d = L->d;
	yaml_node_t *seq;

	check_keys(L, root, top);
	if (!(seq = need_seq(L, root, "zones")))
		return;
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i), *ports;
		struct data_zone *z;
		const char *name;
		int zi;

		if (!need_map(L, rec, "a blockade zone"))
			continue;
		check_keys(L, rec, keys);
		if (!(name = get_str(L, rec, "name", true)))
			continue;
		if (data_zone_index(d, name) >= 0) {
			lerr(L, rec, "duplicate blockade zone '%s'", name);
			continue;
		}
		if (d->n_zones == DATA_MAX_ZONES) {
			lerr(L, rec, "too many blockade zones (at most %d)",
			     DATA_MAX_ZONES);
			return;
		}
		zi = d->n_zones++;
		z = &d->zones[zi];
		z->name = xstrdup(name);
		get_source(L, rec, &z->src);
		if (!(ports = need_seq(L, rec, "ports")))
			continue;
		for (int j = 0; j < ytree_len(ports); j++) {
			yaml_node_t *pn = ytree_item(L->t, ports, j);
			const char *p = ytree_scalar(pn);
			int si = data_space_index(d, p);

			if (si < 0) {
				lerr(L, pn, "unknown space '%s'",
				     p ? p : "(not a scalar)");
			} else if (!d->spaces[si].port) {
				lerr(L, pn, "space '%s' is not a port", p);
			} else if (d->spaces[si].zone >= 0) {
				lerr(L, pn, "port '%s' is already in zone '%s'",
				     p, d->zones[d->spaces[si].zone].name);
			} else {
				d->spaces[si].zone = zi;
			}
		}
	}
}

/* Adds b to the adjacency list of a; false if the list is full. */
static bool add_adj(struct data_space *a, int b, bool wild, int only)
{
	if (a->n_adj == DATA_MAX_ADJ)
		return false;
	a->adj[a->n_adj].to = b;
	a->adj[a->n_adj].wilderness = wild;
	a->adj[a->n_adj].only_general = only;
	a->n_adj++;
	return true;
}

/* connections.yaml: adjacent spaces, each pair stored once. */
static void load_connections(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "connections", NULL };
	static const char *const keys[] = {
		"from", "to", "wilderness", "only", "source", NULL
	};
	struct data *d = L->d;
	yaml_node_t *seq;

	check_keys(L, root, top);
	if (!(seq = need_seq(L, root, "connections")))
		return;
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i);
		struct data_connection *c;
		int a, b, only = -1;
		bool wild, dup = false;

		if (!need_map(L, rec, "a connection"))
			continue;
		check_keys(L, rec, keys);
		a = get_space(L, rec, "from", true);
		b = get_space(L, rec, "to", true);
		wild = get_bool(L, rec, "wilderness");
		if (ytree_get(L->t, rec, "only") &&
		    (only = get_general(L, rec, "only", false)) < 0)
			continue;
		if (a < 0 || b < 0)
			continue;
		if (a == b) {
			lerr(L, rec, "space '%s' is connected to itself",
			     d->spaces[a].full_name);
			continue;
		}
		for (int j = 0; j < d->spaces[a].n_adj; j++)
			if (d->spaces[a].adj[j].to == b)
				dup = true;
		if (dup) {
			lerr(L, rec, "duplicate connection '%s' - '%s'",
			     d->spaces[a].full_name, d->spaces[b].full_name);
			continue;
		}
		if (d->n_connections == DATA_MAX_CONNECTIONS) {
			lerr(L, rec, "too many connections (at most %d)",
			     DATA_MAX_CONNECTIONS);
			return;
		}
		if (!add_adj(&d->spaces[a], b, wild, only) ||
		    !add_adj(&d->spaces[b], a, wild, only)) {
			if (d->spaces[a].n_adj > 0 &&
			    d->spaces[a].adj[d->spaces[a].n_adj - 1].to == b)
				d->spaces[a].n_adj--;
			lerr(L, rec, "too many connections at '%s' or '%s' "
			     "(at most %d each)", d->spaces[a].full_name,
			     d->spaces[b].full_name, DATA_MAX_ADJ);
			continue;
		}
		c = &d->connections[d->n_connections++];
		c->a = a;
		c->b = b;
		c->wilderness = wild;
		c->only_general = only;
		get_source(L, rec, &c->src);
		if (!data_source_covers(c->src.source, NULL)) {
			d->spaces[a].adj[d->spaces[a].n_adj - 1].unsourced = true;
			d->spaces[b].adj[d->spaces[b].n_adj - 1].unsourced = true;
		}
	}
}

/* setup.yaml: the pieces of rule 4.0 and the final PC placements. */
static void load_setup(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = {
		"pieces", "committees_of_correspondence", "for_the_king", NULL
	};
	static const char *const keys[] = {
		"nation", "space", "box", "general", "cus", "pc", "congress",
		"french_navy", "source", NULL
	};
	static const char *const box_words[] = {
		"", "reinforcements", "french", NULL
	};
	static const char *const coc_keys[] = {
		"pcs_per_colony", "source", NULL
	};
	static const char *const ftk_keys[] = { "pcs", "source", NULL };
	struct data *d = L->d;
	yaml_node_t *seq, *n;

	check_keys(L, root, top);
	if ((seq = need_seq(L, root, "pieces"))) {
		for (int i = 0; i < ytree_len(seq); i++) {
			yaml_node_t *rec = ytree_item(L->t, seq, i);
			struct data_setup *p;
			bool has_space, has_box;
			int nation, box;

			if (!need_map(L, rec, "a set-up line"))
				continue;
			check_keys(L, rec, keys);
			if (d->n_setup == DATA_MAX_SETUP) {
				lerr(L, rec, "too many set-up lines (at most %d)",
				     DATA_MAX_SETUP);
				break;
			}
			p = &d->setup[d->n_setup++];
			nation = get_enum(L, rec, "nation", true, 0,
					  nation_words);
			p->nation = nation < 0 ? NATION_AMERICAN
					       : (enum nation)nation;
			has_space = ytree_get(L->t, rec, "space") != NULL;
			has_box = ytree_get(L->t, rec, "box") != NULL;
			p->space = -1;
			if (has_space == has_box) {
				lerr(L, rec, "expected one of 'space' or 'box'");
			} else if (has_space) {
				p->where = SETUP_SPACE;
				p->space = get_space(L, rec, "space", true);
			} else {
				box = get_enum(L, rec, "box", true, 1,
					       box_words);
				if (box == 0) {
					lerr(L, ytree_get(L->t, rec, "box"),
					     "unknown box ''");
					box = -1;
				}
				p->where = box < 0 ? SETUP_REINFORCEMENTS
						   : (enum setup_where)box;
			}
			p->general = -1;
			if (ytree_get(L->t, rec, "general"))
				p->general = get_general(L, rec, "general",
							 false);
			get_int(L, rec, "cus", false, 0, 30, 0, &p->cus);
			p->pc = get_bool(L, rec, "pc");
			p->congress = get_bool(L, rec, "congress");
			p->french_navy = get_bool(L, rec, "french_navy");
			get_source(L, rec, &p->src);
		}
	}
	n = ytree_get(L->t, root, "committees_of_correspondence");
	if (!n)
		lerr(L, root, "missing key 'committees_of_correspondence'");
	else if (need_map(L, n, "committees_of_correspondence")) {
		check_keys(L, n, coc_keys);
		get_int(L, n, "pcs_per_colony", true, 0, 5, 0,
			&d->committees_pcs_per_colony);
		get_source(L, n, &d->committees_src);
	}
	n = ytree_get(L->t, root, "for_the_king");
	if (!n)
		lerr(L, root, "missing key 'for_the_king'");
	else if (need_map(L, n, "for_the_king")) {
		check_keys(L, n, ftk_keys);
		get_int(L, n, "pcs", true, 0, 20, 0, &d->for_the_king_pcs);
		get_source(L, n, &d->for_the_king_src);
	}
}

/* turns.yaml: the Game Turn track and British reinforcements. */
static void load_turns(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "years", NULL };
	static const char *const keys[] = {
		"year", "british_reinforcements", "source", NULL
	};
	struct data *d = L->d;
	yaml_node_t *seq;

	check_keys(L, root, top);
	if (!(seq = need_seq(L, root, "years")))
		return;
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i);
		struct data_year *y;

		if (!need_map(L, rec, "a year"))
			continue;
		check_keys(L, rec, keys);
		if (d->n_years == DATA_MAX_YEARS) {
			lerr(L, rec, "too many years (at most %d)",
			     DATA_MAX_YEARS);
			return;
		}
		y = &d->years[d->n_years++];
		get_int(L, rec, "year", true, 1775, 1786, 1775, &y->year);
		get_int(L, rec, "british_reinforcements", true, 0, 40, 0,
			&y->british_reinforcements);
		get_source(L, rec, &y->src);
	}
}

/* counters.yaml: the counter mix. */
static void load_counters(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "cus", "pc_markers", NULL };
	static const char *const keys[] = {
		"nation", "count", "source", NULL
	};
	static const char *const pc_keys[] = { "count", "source", NULL };
	struct data *d = L->d;
	struct data_source tmp;
	bool seen[3] = { false, false, false };
	yaml_node_t *seq, *n;

	check_keys(L, root, top);
	if ((seq = need_seq(L, root, "cus"))) {
		for (int i = 0; i < ytree_len(seq); i++) {
			yaml_node_t *rec = ytree_item(L->t, seq, i);
			int nation, count;

			if (!need_map(L, rec, "a CU count"))
				continue;
			check_keys(L, rec, keys);
			nation = get_enum(L, rec, "nation", true, 0,
					  nation_words);
			get_int(L, rec, "count", true, 0, 200, 0, &count);
			get_source(L, rec, &tmp);
			if (nation < 0 || seen[nation]) {
				free(tmp.source);
				if (nation >= 0)
					lerr(L, rec, "duplicate nation '%s'",
					     nation_words[nation]);
				continue;
			}
			d->cu_src[nation] = tmp;
			seen[nation] = true;
			d->cu_pool[nation] = count;
		}
		for (int i = 0; i < 3; i++)
			if (!seen[i])
				lerr(L, seq, "no CU count for nation '%s'",
				     nation_words[i]);
	}
	n = ytree_get(L->t, root, "pc_markers");
	if (!n)
		lerr(L, root, "missing key 'pc_markers'");
	else if (need_map(L, n, "pc_markers")) {
		check_keys(L, n, pc_keys);
		get_int(L, n, "count", true, 0, 500, 0, &d->pc_markers);
		get_source(L, n, &d->pc_markers_src);
	}
}

/*
 * Compiles e->where (the text of node n) for e->verb: qualifiers and at
 * most one space, or a general's name (effects.h). Every word that is
 * none of these is an error at n.
 */
static void compile_where(struct loader *L, yaml_node_t *n,
			  struct data_effect *e)
{
	const char *p = e->where;

	e->quals = 0;
	e->space = -1;
	e->general = -1;
	if (effect_verbs[e->verb].where == WHERE_GENERAL) {
		if (!p || (e->general = data_general_index(L->d, p)) < 0)
			lerr(L, n ? n : NULL, "%s: unknown general '%s' in 'where' "
			     "(the name of a general of generals.yaml)",
			     effect_verbs[e->verb].name, p ? p : "");
		return;
	}
	while (p && *p) {
		size_t len = strcspn(p, ",");
		char *tok = xstrndup(p, len);
		char *t = tok, *end;
		unsigned bit;

		p += len + (p[len] == ',');
		while (*t == ' ' || *t == '\t')
			t++;
		end = t + strlen(t);
		while (end > t && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (!*t) {
			lerr(L, n, "an empty qualifier in 'where' ('%s')", e->where);
		} else if ((bit = effect_qual_lookup(t))) {
			e->quals |= bit;
		} else if (data_space_index(L->d, t) >= 0) {
			if (e->space >= 0)
				lerr(L, n, "two spaces in 'where' ('%s'): at most one",
				     e->where);
			e->space = data_space_index(L->d, t);
		} else {
			lerr(L, n, "unknown qualifier '%s' in 'where' (neither a "
			     "qualifier of docs/data.md nor a space's full name)", t);
		}
		free(tok);
	}
}

/* Reads the effects list of an event into c. */
static void load_effects(struct loader *L, yaml_node_t *seq,
			 struct data_card *c)
{
	static const char *const keys[] = {
		"verb", "count", "colonies", "where", "amount", NULL
	};

	if (seq->type != YAML_SEQUENCE_NODE) {
		lerr(L, seq, "expected a list for 'effects'");
		return;
	}
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i), *cols;
		struct data_effect *e;
		const char *verb, *where;

		if (!need_map(L, rec, "an effect"))
			continue;
		check_keys(L, rec, keys);
		if (c->n_effects == DATA_MAX_EFFECTS) {
			lerr(L, rec, "too many effects (at most %d)",
			     DATA_MAX_EFFECTS);
			return;
		}
		if (!(verb = get_str(L, rec, "verb", true)))
			continue;
		if (effect_verb_lookup(verb) == EFFECT_NONE) {
			lerr(L, ytree_get(L->t, rec, "verb"),
			     "unknown verb '%s' (docs/data.md lists the verbs)", verb);
			continue;
		}
		e = &c->effects[c->n_effects++];
		e->verb = effect_verb_lookup(verb);
		get_int(L, rec, "count", false, 0,
			effect_verbs[e->verb].max_count ? effect_verbs[e->verb].max_count : 20,
			0, &e->count);
		get_int(L, rec, "amount", false, -10000, 10000, 0, &e->amount);
		where = get_str(L, rec, "where", false);
		e->where = where ? xstrdup(where) : NULL;
		compile_where(L, ytree_get(L->t, rec, "where"), e);
		cols = ytree_get(L->t, rec, "colonies");
		if (cols && cols->type != YAML_SEQUENCE_NODE) {
			lerr(L, cols, "expected a list for 'colonies'");
			continue;
		}
		for (int j = 0; j < ytree_len(cols); j++) {
			yaml_node_t *cn = ytree_item(L->t, cols, j);
			const char *code = ytree_scalar(cn);
			int ci = data_colony_index(L->d, code);

			if (ci < 0)
				lerr(L, cn, "unknown colony '%s'",
				     code ? code : "(not a scalar)");
			else
				e->colonies_mask |= 1 << ci;
		}
	}
}

/* An event by primitives (docs/cards.md): only the primitive actions on
 * spaces, each bounded by its count and qualifiers, and conditions. */
static void check_by_player(struct loader *L, yaml_node_t *n,
			    const struct data_card *c)
{
	int actions = 0;

	if (c->handler != HANDLER_NONE)
		lerr(L, n, "card #%d: an event by primitives has no handler", c->number);
	for (int i = 0; i < c->n_effects; i++) {
		const struct data_effect *e = &c->effects[i];

		switch (e->verb) {
		case EFFECT_PLACE_PC: case EFFECT_REMOVE_PC: case EFFECT_FLIP_PC:
		case EFFECT_PLACE_CU: case EFFECT_REMOVE_CU:
			actions++;
			if (e->quals & (QUAL_EACH_COLONY | QUAL_BRITISH_REINFORCEMENTS))
				lerr(L, n, "card #%d: '%s' takes no choice of the "
				     "player: not in an event by primitives",
				     c->number, e->where);
			break;
		case EFFECT_REQUIRE:
			break;
		default:
			lerr(L, n, "card #%d: '%s' is not a primitive action "
			     "(place_pc, remove_pc, flip_pc, place_cu, remove_cu, "
			     "or a require)", c->number, effect_verbs[e->verb].name);
		}
	}
	if (!actions)
		lerr(L, n, "card #%d: an event by primitives lists at least one "
		     "action", c->number);
}

/* cards.yaml: the 110 strategy cards. */
static void load_cards(struct loader *L, yaml_node_t *root)
{
	static const char *const top[] = { "cards", NULL };
	static const char *const keys[] = {
		"number", "title", "ops", "side", "battle_card", "special",
		"removed_after_play", "reshuffle", "war_ends_year",
		"campaign", "set_aside_until_1776", "by_player", "text",
		"handler", "effects", "source", NULL
	};
	static const char *const event_keys[] = {
		"side", "battle_card", "special", "removed_after_play",
		"reshuffle", "war_ends_year", "campaign",
		"set_aside_until_1776", "by_player", "text", "handler",
		"effects", NULL
	};
	struct data *d = L->d;
	yaml_node_t *seq;

	check_keys(L, root, top);
	if (!(seq = need_seq(L, root, "cards")))
		return;
	for (int i = 0; i < ytree_len(seq); i++) {
		yaml_node_t *rec = ytree_item(L->t, seq, i), *n;
		struct data_card *c;
		const char *title, *text, *handler;
		int number, side, resh;

		if (!need_map(L, rec, "a card"))
			continue;
		check_keys(L, rec, keys);
		get_int(L, rec, "number", true, 1, DATA_MAX_CARDS, 0, &number);
		if (number == 0)
			continue;
		c = &d->cards[number];
		if (c->number) {
			lerr(L, rec, "duplicate card #%d (first at line %d)",
			     number, c->src.line);
			continue;
		}
		c->number = number;
		d->n_cards++;
		get_source(L, rec, &c->src);
		get_int(L, rec, "ops", false, 0, 3, 0, &c->ops);
		title = get_str(L, rec, "title", c->ops == 0);
		if (c->ops > 0) {
			for (int j = 0; event_keys[j]; j++)
				if ((n = ytree_get(L->t, rec, event_keys[j])))
					lerr(L, n, "card #%d is an OPS card: "
					     "'%s' is for events only", number,
					     event_keys[j]);
			c->title = title ? xstrdup(title)
					 : xstrfmt("%d OPS", c->ops);
			continue;
		}
		c->title = xstrdup(title ? title : "");
		side = get_enum(L, rec, "side", true, 0, side_words);
		c->side = side < 0 ? CARD_SIDE_NONE : (enum card_side)side;
		c->battle_card = get_bool(L, rec, "battle_card");
		c->special = get_bool(L, rec, "special");
		c->removed_after_play = get_bool(L, rec, "removed_after_play");
		resh = get_enum(L, rec, "reshuffle", false, 0, reshuffle_words);
		c->reshuffle = resh < 0 ? RESHUFFLE_NEVER
					: (enum card_reshuffle)resh;
		if (ytree_get(L->t, rec, "war_ends_year"))
			get_int(L, rec, "war_ends_year", false, 1779, 1783, 0,
				&c->war_ends_year);
		if (ytree_get(L->t, rec, "campaign"))
			get_int(L, rec, "campaign", false, 2, 3, 0,
				&c->campaign);
		c->set_aside_until_1776 =
			get_bool(L, rec, "set_aside_until_1776");
		c->by_player = get_bool(L, rec, "by_player");
		text = get_str(L, rec, "text", true);
		c->text = xstrdup(text ? text : "");
		handler = get_str(L, rec, "handler", false);
		c->handler = HANDLER_NONE;
		if (handler && !(c->handler = card_handler_lookup(handler)))
			lerr(L, ytree_get(L->t, rec, "handler"),
			     "unknown handler '%s' (docs/data.md lists the handlers)",
			     handler);
		if ((n = ytree_get(L->t, rec, "effects")))
			load_effects(L, n, c);
		if (c->by_player)
			check_by_player(L, ytree_get(L->t, rec, "by_player"), c);
	}
}

/* Joins dir and a file name ("dir/name", one slash). */
static char *join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	if (n && dir[n - 1] == '/')
		return xstrfmt("%s%s", dir, name);
	return xstrfmt("%s/%s", dir, name);
}

/* Reads every data file into texts[]; reports unreadable files. */
static int read_all(const char *dir, struct strbuf texts[F_COUNT],
		    char *paths[F_COUNT], struct strbuf *errs)
{
	int bad = 0;

	for (int f = 0; f < F_COUNT; f++) {
		strbuf_init(&texts[f]);
		paths[f] = join_path(dir, data_file_names[f]);
		if (read_file(paths[f], &texts[f], MAX_FILE_SIZE)) {
			strbuf_addf(errs, "%s: cannot read: %s\n", paths[f],
				    strerror(errno));
			bad++;
		}
	}
	return bad;
}

/* SHA-256 of the files as documented in docs/data.md, into out (hex). */
static int hash_texts(struct strbuf texts[F_COUNT], char out[65],
		      struct strbuf *errs)
{
	int order[F_COUNT];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	int ok;

	for (int i = 0; i < F_COUNT; i++)
		order[i] = i;
	for (int i = 1; i < F_COUNT; i++)
		for (int j = i; j > 0 && strcmp(data_file_names[order[j - 1]],
						 data_file_names[order[j]]) > 0; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	if (!(ctx = EVP_MD_CTX_new())) {
		strbuf_addstr(errs, "error: cannot allocate a digest\n");
		return -1;
	}
	ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (int i = 0; ok && i < F_COUNT; i++) {
		const char *name = data_file_names[order[i]];
		const struct strbuf *t = &texts[order[i]];
		char len[32];

		snprintf(len, sizeof(len), "%zu", t->len);
		ok = EVP_DigestUpdate(ctx, name, strlen(name) + 1) &&
		     EVP_DigestUpdate(ctx, len, strlen(len) + 1) &&
		     EVP_DigestUpdate(ctx, strbuf_str(t), t->len);
	}
	if (ok)
		ok = EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	if (!ok || mdlen != 32) {
		strbuf_addstr(errs, "error: SHA-256 failed\n");
		return -1;
	}
	hex_encode(md, mdlen, out);
	return 0;
}

int data_hash(const char *dir, char out[65], struct strbuf *errs)
{
	struct strbuf texts[F_COUNT];
	char *paths[F_COUNT];
	int ret = -1;

	if (!read_all(dir, texts, paths, errs))
		ret = hash_texts(texts, out, errs);
	for (int f = 0; f < F_COUNT; f++) {
		strbuf_release(&texts[f]);
		free(paths[f]);
	}
	return ret;
}

/* The last path component of dir, without trailing slashes. */
static char *base_name(const char *dir)
{
	size_t n = strlen(dir), start;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	start = n;
	while (start > 0 && dir[start - 1] != '/')
		start--;
	return xstrndup(dir + start, n - start);
}

/*
 * Loads the F_COUNT texts (data_file_names order), whose names in messages are
 * paths[] (taken over by the data); bad: the files could not all be read.
 * Releases the texts.
 */
static struct data *load_texts(const char *dir, struct strbuf texts[F_COUNT],
			       char *paths[F_COUNT], int bad,
			       struct strbuf *errs)
{
	static void (*const loaders[F_COUNT])(struct loader *, yaml_node_t *) = {
		load_colonies, load_spaces, load_generals, load_zones,
		load_connections, load_setup, load_turns, load_counters,
		load_cards,
	};
	struct loader L = { 0 };
	struct data *d = xcalloc(1, sizeof(*d));
	int syntax_errors = 0;

	d->dir = xstrdup(dir);
	d->game = base_name(dir);
	L.d = d;
	L.errs = errs;
	for (int f = 0; f < F_COUNT; f++) {
		struct ytree t;
		yaml_node_t *root;
		bool broken = syntax_errors > 0;

		d->files[d->n_files++] = paths[f];	/* d owns them now */
		if (bad)
			continue;
		L.file = paths[f];
		if (ytree_parse(&t, paths[f], strbuf_str(&texts[f]),
				texts[f].len, errs)) {
			L.nerr++;
			syntax_errors++;
			continue;
		}
		L.t = &t;
		root = ytree_root(&t);
		if (broken) {
			/* An earlier file did not parse: its names are
			 * unknown, so only check this file's syntax. */
		} else if (!root) {
			strbuf_addf(errs, "%s:1:1: empty file\n", paths[f]);
			L.nerr++;
		} else if (need_map(&L, root, "a file of keys")) {
			loaders[f](&L, root);
		}
		ytree_free(&t);
		L.t = NULL;
	}
	if (!bad && !L.nerr && hash_texts(texts, d->hash, errs))
		bad++;
	for (int f = 0; f < F_COUNT; f++)
		strbuf_release(&texts[f]);
	if (!bad && !L.nerr)
		L.nerr = data_check(d, errs);
	if (bad || L.nerr) {
		data_free(d);
		return NULL;
	}
	for (int n = 1; n <= d->n_cards; n++) {
		struct data_card *c = &d->cards[n];
		c->label = c->ops ? xstrfmt("#%d (%d OPS)", n, c->ops)
				  : xstrfmt("#%d %s", n, c->title);
	}
	return d;
}

struct data *data_load(const char *dir, struct strbuf *errs)
{
	struct strbuf texts[F_COUNT];
	char *paths[F_COUNT];
	int bad = read_all(dir, texts, paths, errs);

	return load_texts(dir, texts, paths, bad, errs);
}

struct data *data_load_texts(const char *dir, const char *game,
			     struct strbuf texts[], struct strbuf *errs)
{
	char *paths[F_COUNT];
	struct data *d;

	for (int f = 0; f < F_COUNT; f++)
		paths[f] = xstrfmt("%s/%s", dir, data_file_names[f]);
	d = load_texts(dir, texts, paths, 0, errs);
	if (d) {
		free(d->game);
		d->game = xstrdup(game);
	}
	return d;
}
