/*
 * test_data.c - the component data: facts the rulebook pins, checked on the
 * real games/washingtons-war data, and the exact messages for bad data
 * (tests/fixtures/data-bad/<case>/). Runs from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "data.h"
#include "effects.h"
#include "util.h"

#define GAME_DIR "games/washingtons-war"
#define BAD_DIR "tests/fixtures/data-bad/"

/* Loads the real data once per test (fails the test on any error). */
static int setup_data(void **state)
{
	struct strbuf errs = STRBUF_INIT;
	struct data *d = data_load(GAME_DIR, &errs);

	if (!d)
		print_error("%s", strbuf_str(&errs));
	strbuf_release(&errs);
	*state = d;
	return d ? 0 : -1;
}

static int teardown_data(void **state)
{
	data_free(*state);
	return 0;
}

/* Index of a space that must exist. */
static int space(const struct data *d, const char *name)
{
	int i = data_space_index(d, name);

	if (i < 0)
		fail_msg("no space '%s'", name);
	return i;
}

/* The connection record between two spaces, or NULL. */
static const struct data_adj *adj(const struct data *d, const char *a,
				  const char *b)
{
	const struct data_space *s = &d->spaces[space(d, a)];
	int to = space(d, b);

	for (int i = 0; i < s->n_adj; i++)
		if (s->adj[i].to == to)
			return &s->adj[i];
	return NULL;
}

/* A general that must exist. */
static const struct data_general *general(const struct data *d,
					  const char *name)
{
	int i = data_general_index(d, name);

	if (i < 0)
		fail_msg("no general '%s'", name);
	return &d->generals[i];
}

static void test_counts(void **state)
{
	const struct data *d = *state;
	int british = 0, american = 0, french = 0;

	assert_int_equal(d->n_colonies, 14);
	assert_int_equal(d->n_zones, 7);
	assert_int_equal(d->n_generals, 13);
	assert_int_equal(d->n_cards, 110);
	assert_int_equal(d->n_years, 9);
	assert_int_equal(d->years[0].year, 1775);
	assert_int_equal(d->years[8].year, 1783);
	assert_in_range(d->n_spaces, 70, DATA_MAX_SPACES);
	for (int i = 0; i < d->n_generals; i++) {
		british += d->generals[i].nation == NATION_BRITISH;
		american += d->generals[i].nation == NATION_AMERICAN;
		french += d->generals[i].nation == NATION_FRENCH;
	}
	assert_int_equal(british, 5);
	assert_int_equal(american, 7);
	assert_int_equal(french, 1);
	assert_int_equal(general(d, "Rochambeau")->side, SIDE_AMERICAN);
	assert_string_equal(d->game, "washingtons-war");
	assert_int_equal(strlen(d->hash), 64);
	assert_int_equal(d->cu_pool[NATION_FRENCH], 5);
	assert_int_equal(d->committees_pcs_per_colony, 1);
	assert_int_equal(d->for_the_king_pcs, 3);
}

static void test_ports_12_3(void **state)
{
	static const struct {
		const char *zone, *ports[5];
	} zones[] = {
		{ "St. Lawrence", { "Montreal", "Quebec" } },
		{ "New England", { "Falmouth MA", "Boston MA", "Barnstable MA",
				   "Newport RI" } },
		{ "Long Island Sound", { "New York NY", "Long Island NY",
					 "New Haven CT" } },
		{ "Delaware", { "Philadelphia PA", "Wilmington DE" } },
		{ "Chesapeake", { "Baltimore MD", "Alexandria VA",
				  "Yorktown VA", "Norfolk VA" } },
		{ "Carolinas", { "Wilmington NC", "New Bern NC",
				 "Charleston SC" } },
		{ "South Atlantic", { "Savannah GA", "St. Mary's GA" } },
	};
	const struct data *d = *state;
	int n = 0, ports = 0;

	for (size_t z = 0; z < ARRAY_SIZE(zones); z++) {
		int zi = data_zone_index(d, zones[z].zone);

		assert_true(zi >= 0);
		for (int k = 0; k < 5 && zones[z].ports[k]; k++) {
			const struct data_space *s =
				&d->spaces[space(d, zones[z].ports[k])];

			assert_true(s->port);
			assert_int_equal(s->zone, zi);
			n++;
		}
	}
	assert_int_equal(n, 20);
	for (int i = 0; i < d->n_spaces; i++)
		ports += d->spaces[i].port;
	assert_int_equal(ports, 20);
	assert_int_equal(d->spaces[space(d, "Portsmouth NH")].zone, -1);
	assert_int_equal(data_zone_index(d, "chesapeake"),
			 d->spaces[space(d, "Norfolk VA")].zone);
}

static void test_stars_and_shapes(void **state)
{
	static const char *const stars[] = {
		"Quebec", "Montreal", "Charleston SC", "Philadelphia PA"
	};
	const struct data *d = *state;
	int n = 0;

	for (size_t k = 0; k < ARRAY_SIZE(stars); k++) {
		const struct data_space *s = &d->spaces[space(d, stars[k])];

		assert_int_equal(s->shape, SHAPE_STAR);
		assert_true(s->fortified);
		assert_true(s->port);
		assert_true(s->winter_quarters);
	}
	for (int i = 0; i < d->n_spaces; i++)
		n += d->spaces[i].fortified;
	assert_int_equal(n, 4);
	/* Boston is a square (other sources), so Winter Quarters (2.1.B). */
	assert_int_equal(d->spaces[space(d, "Boston MA")].shape, SHAPE_SQUARE);
	assert_true(d->spaces[space(d, "Boston MA")].winter_quarters);
	assert_false(d->spaces[space(d, "Boston MA")].fortified);
}

static void test_winter_line_and_colonies(void **state)
{
	const struct data *d = *state;

	assert_true(d->spaces[space(d, "Wilmington NC")].south_of_winter_line);
	assert_true(d->spaces[space(d, "Ninety Six SC")].south_of_winter_line);
	assert_true(d->spaces[space(d, "Savannah GA")].south_of_winter_line);
	assert_false(d->spaces[space(d, "Norfolk VA")].south_of_winter_line);
	assert_false(d->spaces[space(d, "Quebec")].south_of_winter_line);
	assert_true(d->colonies[d->spaces[space(d, "Fort Detroit")].colony].canada);
	assert_int_equal(data_colony_index(d, "ny"),
			 data_colony_index(d, "New York"));
	assert_int_equal(data_colony_index(d, "Vermont"), -1);
	/* Two Wilmingtons, told apart by the colony. */
	assert_true(space(d, "Wilmington NC") != space(d, "Wilmington DE"));
	assert_int_equal(data_space_index(d, "Wilmington"), -1);
}

static void test_names_and_aliases(void **state)
{
	const struct data *d = *state;

	assert_int_equal(data_space_index(d, "ft detroit"),
			 space(d, "Fort Detroit"));
	assert_int_equal(data_space_index(d, "Basset Town PA"),
			 space(d, "Bassett Town PA"));
	assert_int_equal(data_space_index(d, "NINETY-SIX SC"),
			 space(d, "Ninety Six SC"));
	assert_int_equal(data_space_index(d, "Nowhere"), -1);
	assert_int_equal(data_general_index(d, "greene"),
			 data_general_index(d, "Greene"));
	assert_int_equal(data_general_index(d, "Putnam"), -1);
	assert_string_equal(d->spaces[space(d, "Quebec")].full_name, "Quebec");
	assert_string_equal(d->spaces[space(d, "Boston MA")].name, "Boston");
}

static void test_connections(void **state)
{
	const struct data *d = *state;
	const struct data_adj *x;
	int arnold = data_general_index(d, "Arnold");

	/* 7.3.D: Fort Detroit - Bassett Town PA is a wilderness connection. */
	x = adj(d, "Fort Detroit", "Bassett Town PA");
	assert_non_null(x);
	assert_true(x->wilderness);
	assert_int_equal(x->only_general, -1);
	assert_true(data_adjacent(d, space(d, "Fort Detroit"),
				  space(d, "Bassett Town PA")));
	/* 7.4.D: Falmouth - Quebec, wilderness, Arnold only. */
	x = adj(d, "Falmouth MA", "Quebec");
	assert_non_null(x);
	assert_true(x->wilderness);
	assert_int_equal(x->only_general, arnold);
	x = adj(d, "Quebec", "Falmouth MA");
	assert_non_null(x);
	assert_int_equal(x->only_general, arnold);
	assert_false(data_adjacent(d, space(d, "Falmouth MA"),
				   space(d, "Quebec")));
	/* 10.11.B: Oswego - Montreal, Fort Stanwix - Oswego. */
	assert_true(data_adjacent(d, space(d, "Oswego NY"), space(d, "Montreal")));
	assert_true(data_adjacent(d, space(d, "Fort Stanwix NY"),
				  space(d, "Oswego NY")));
	assert_false(data_adjacent(d, space(d, "Fort Stanwix NY"),
				   space(d, "Montreal")));
	/* 9.63: Ticonderoga - Saratoga. */
	assert_true(data_adjacent(d, space(d, "Saratoga NY"),
				  space(d, "Ticonderoga NY")));
	/* 7.3.C: Ninety Six - Camden - Eutaw Springs - Charleston -
	 * Savannah - Augusta / St. Mary's. */
	assert_true(data_adjacent(d, space(d, "Ninety Six SC"), space(d, "Camden SC")));
	assert_true(data_adjacent(d, space(d, "Camden SC"), space(d, "Eutaw Springs SC")));
	assert_true(data_adjacent(d, space(d, "Eutaw Springs SC"), space(d, "Charleston SC")));
	assert_true(data_adjacent(d, space(d, "Charleston SC"), space(d, "Savannah GA")));
	assert_true(data_adjacent(d, space(d, "Savannah GA"), space(d, "Augusta GA")));
	assert_true(data_adjacent(d, space(d, "Savannah GA"), space(d, "St. Mary's GA")));
	/* Playbook: Fort Niagara and Ticonderoga each touch a set-up
	 * British PC space. */
	assert_true(data_adjacent(d, space(d, "Ticonderoga NY"), space(d, "Montreal")));
	assert_true(data_adjacent(d, space(d, "Fort Niagara NY"),
				  space(d, "Fort Detroit")));
	assert_false(data_adjacent(d, -1, 0));
}

static void test_generals(void **state)
{
	const struct data *d = *state;

	assert_int_equal(general(d, "Carleton")->strategy, 3);	/* 7.1.A */
	assert_int_equal(general(d, "Gates")->strategy, 2);	/* 7.1.A */
	assert_int_equal(general(d, "Greene")->strategy, 1);	/* 7.1.A */
	assert_int_equal(general(d, "Arnold")->agility, 2);	/* 7.8 */
	assert_int_equal(general(d, "Burgoyne")->battle, 2);	/* 9.63 */
	assert_int_equal(general(d, "Burgoyne")->agility, 1);	/* 9.63 */
	assert_int_equal(general(d, "Gates")->battle / 2, 1);	/* 9.63 */
	assert_int_equal(general(d, "Washington")->retreat_bonus, 2);
	assert_int_equal(general(d, "Greene")->retreat_bonus, 2);
	assert_int_equal(general(d, "Howe")->retreat_bonus, 0);
	assert_true(general(d, "Washington")->never_to_reinforcements);
	assert_false(general(d, "Greene")->never_to_reinforcements);
	assert_int_equal(general(d, "Howe")->side, SIDE_BRITISH);
	assert_int_equal(general(d, "Rochambeau")->nation, NATION_FRENCH);
	for (int i = 0; i < d->n_generals; i++) {
		assert_in_range(d->generals[i].strategy, 1, 3);
		assert_in_range(d->generals[i].battle, 1, 6);
		assert_in_range(d->generals[i].agility, 1, 3);
	}
}

static void test_setup(void **state)
{
	const struct data *d = *state;
	int washington = data_general_index(d, "Washington");
	int congress = 0, in_box = 0;
	bool found = false;

	assert_int_equal(d->n_setup, 21);
	for (int i = 0; i < d->n_setup; i++) {
		const struct data_setup *p = &d->setup[i];

		if (p->general == washington) {
			assert_int_equal(p->space,
					 space(d, "Lexington and Concord MA"));
			assert_int_equal(p->cus, 5);
			assert_true(p->pc);
			found = true;
		}
		if (p->congress) {
			assert_int_equal(p->space, space(d, "Philadelphia PA"));
			congress++;
		}
		if (p->where == SETUP_REINFORCEMENTS)
			in_box++;
		if (p->where == SETUP_FRENCH_BOX) {
			assert_int_equal(p->nation, NATION_FRENCH);
			assert_int_equal(p->cus, 5);
			assert_true(p->french_navy);
		}
	}
	assert_true(found);
	assert_int_equal(congress, 1);
	assert_int_equal(in_box, 8);
}

static void test_cards(void **state)
{
	const struct data *d = *state;
	int specials = 0, aside = 0, war = 0;

	for (int n = 1; n <= DATA_MAX_CARDS; n++) {
		const struct data_card *c = &d->cards[n];

		assert_int_equal(c->number, n);
		assert_non_null(c->title);
		assert_non_null(c->src.source);
		if (c->ops) {
			/* An OPS card is never an event (6.2, 6.3). */
			assert_in_range(c->ops, 1, 3);
			assert_null(c->text);
			assert_false(c->special);
			assert_false(c->battle_card);
			assert_int_equal(c->side, CARD_SIDE_NONE);
		} else {
			assert_non_null(c->text);
			assert_true(strlen(c->text) > 0);
		}
		specials += c->special;
		aside += c->set_aside_until_1776;
		if (c->war_ends_year) {
			assert_true(c->special);
			war++;
		}
		if (c->campaign) {
			assert_int_equal(c->side, CARD_SIDE_NONE);
			assert_int_equal(c->ops, 0);
		}
	}
	assert_int_equal(specials, 7);
	assert_int_equal(war, 5);
	assert_int_equal(aside, 2);
	assert_string_equal(d->cards[99].title, "Declaration of Independence");
	assert_true(d->cards[99].special);
	assert_true(d->cards[99].set_aside_until_1776);
	assert_int_equal(d->cards[99].reshuffle, RESHUFFLE_WHEN_PLAYED);
	assert_int_equal(d->cards[95].reshuffle, RESHUFFLE_WHEN_PLAYED);
	assert_non_null(strstr(d->cards[95].title, "William Pitt"));
	assert_int_equal(d->cards[96].reshuffle, RESHUFFLE_WHEN_DISCARDED);
	assert_non_null(strstr(d->cards[96].title, "Hortelez"));
	assert_int_equal(d->cards[96].n_effects, 1);
	assert_int_equal(d->cards[96].effects[0].verb, EFFECT_FRENCH_ALLIANCE);
	assert_int_equal(d->cards[96].effects[0].amount, 2);	/* 12.1 */
	for (int n = 1; n <= DATA_MAX_CARDS; n++) {
		const struct data_card *c = &d->cards[n];

		if (!strcmp(c->title, "Benedict Arnold Treason!")) {
			assert_true(c->battle_card);
			assert_true(c->removed_after_play);
			assert_int_equal(c->side, CARD_SIDE_BRITISH);
		}
		if (!strcmp(c->title, "Morgan's Riflemen"))
			assert_true(c->battle_card);
		if (strstr(c->title, "Steuben"))
			assert_true(c->set_aside_until_1776);
		if (strstr(c->title, "Benjamin Franklin")) {
			assert_true(c->special);
			assert_int_equal(c->effects[0].verb,
					 EFFECT_FRENCH_ALLIANCE);
			assert_int_equal(c->effects[0].amount, 4);
		}
		if (!strcmp(c->title, "Major Campaign"))
			assert_int_equal(c->campaign, 3);
		if (!strcmp(c->title, "Minor Campaign"))
			assert_int_equal(c->campaign, 2);
	}
}

static void test_hash_and_dump(void **state)
{
	const struct data *d = *state;
	struct strbuf out = STRBUF_INIT, errs = STRBUF_INIT;
	char hash[65];

	assert_int_equal(data_hash(GAME_DIR, hash, &errs), 0);
	assert_string_equal(hash, d->hash);
	assert_int_equal(data_hash("tests/no-such-dir", hash, &errs), -1);
	assert_non_null(strstr(strbuf_str(&errs), "cannot read"));
	data_dump(d, &out);
	assert_non_null(strstr(strbuf_str(&out), "\nspaces:\n  - name: Quebec\n"));
	assert_non_null(strstr(strbuf_str(&out), "\nconnections:\n"));
	assert_non_null(strstr(strbuf_str(&out), "\ngenerals:\n"));
	assert_non_null(strstr(strbuf_str(&out), "\ncards:\n  - number: 1\n"));
	assert_non_null(strstr(strbuf_str(&out),
			       "    blockade_zone: South Atlantic\n"));
	assert_non_null(strstr(strbuf_str(&out), "    only: Arnold\n"));
	strbuf_release(&out);
	strbuf_release(&errs);
}

/*
 * Loading from texts in memory (a game's data/ read from git) gives the
 * same data as loading the folder, and its messages name the label.
 */
static void test_load_texts(void **state)
{
	const struct data *d = *state;
	struct strbuf texts[DATA_N_FILES], errs = STRBUF_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct data *copy;

	for (int i = 0; i < DATA_N_FILES; i++) {
		char *path = xstrfmt("%s/%s", GAME_DIR, data_file_name(i));
		strbuf_init(&texts[i]);
		assert_int_equal(read_file(path, &texts[i], 4 << 20), 0);
		free(path);
	}
	assert_null(data_file_name(DATA_N_FILES));
	copy = data_load_texts("data", "washingtons-war", texts, &errs);
	assert_non_null(copy);
	data_dump(d, &a);
	data_dump(copy, &b);
	assert_string_equal(a.buf, b.buf);
	assert_string_equal(copy->hash, d->hash);
	assert_string_equal(copy->cards[99].src.file, "data/cards.yaml");
	data_free(copy);

	/* a broken text: the message names data/cards.yaml */
	for (int i = 0; i < DATA_N_FILES; i++) {
		char *path = xstrfmt("%s/%s", GAME_DIR, data_file_name(i));
		strbuf_init(&texts[i]);
		assert_int_equal(read_file(path, &texts[i], 4 << 20), 0);
		free(path);
	}
	strbuf_addstr(&texts[DATA_N_FILES - 1], "  - {number: 3, ops: [\n");
	assert_null(data_load_texts("data", "washingtons-war", texts, &errs));
	assert_non_null(strstr(errs.buf, "data/cards.yaml:"));
	strbuf_release(&errs);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* data_check on a copy changed in memory: asymmetric and disconnected. */
static void test_check_in_memory(void **state)
{
	const struct data *d = *state;
	struct data *c = malloc(sizeof(*c));
	struct strbuf errs = STRBUF_INIT;
	struct data_space *s;
	char *expected;
	int q = space(d, "Quebec");

	assert_non_null(c);
	memcpy(c, d, sizeof(*c));	/* shares strings: never data_free() */
	assert_int_equal(data_check(c, &errs), 0);
	s = &c->spaces[q];
	for (int i = 0; i < s->n_adj; i++)
		if (s->adj[i].to == space(d, "Montreal"))
			s->adj[i] = s->adj[--s->n_adj];
	assert_int_equal(data_check(c, &errs), 1);
	expected = xstrfmt(GAME_DIR "/spaces.yaml:%d:5: connection "
			   "'Montreal' - 'Quebec' is not symmetric\n",
			   d->spaces[space(d, "Montreal")].src.line);
	assert_string_equal(strbuf_str(&errs), expected);
	free(expected);
	strbuf_reset(&errs);
	c->cards[99].special = false;
	c->cards[17].number = 0;
	assert_true(data_check(c, &errs) >= 3);
	assert_non_null(strstr(strbuf_str(&errs), "card #17 is missing"));
	strbuf_release(&errs);
	free(c);
}

/* Issue 32: docs/cards.md shows every verb with an example. */
static void test_cards_doc_has_every_verb(void **state)
{
	struct strbuf doc = STRBUF_INIT;

	(void)state;
	assert_int_equal(read_file("docs/cards.md", &doc, 1 << 20), 0);
	for (int v = 1; v < EFFECT__COUNT; v++) {
		char *ex = xstrfmt("`{verb: %s", effect_verbs[v].name);
		if (!strstr(doc.buf, ex))
			fail_msg("docs/cards.md has no example of the verb '%s'",
				 effect_verbs[v].name);
		free(ex);
	}
	strbuf_release(&doc);
}

/* Issue 31: prose and effect held together. Card #71's count changed
 * to 3 while its text says "two" is refused; a "+2" against a +3 too. */
static void test_prose_against_effect(void **state)
{
	const struct data *d = *state;
	struct data *c = malloc(sizeof(*c));
	struct strbuf errs = STRBUF_INIT;
	char *expected;

	assert_non_null(c);
	memcpy(c, d, sizeof(*c));	/* shares strings: never data_free() */
	assert_int_equal(data_check(c, &errs), 0);
	c->cards[71].effects[0].count = 3;
	assert_int_equal(data_check(c, &errs), 1);
	expected = xstrfmt(GAME_DIR "/cards.yaml:%d:5: card #71: the text says "
			   "'two' (PC) but no effect counts 2: change the text "
			   "or the effect\n", d->cards[71].src.line);
	assert_string_equal(strbuf_str(&errs), expected);
	free(expected);
	strbuf_reset(&errs);
	c->cards[71].effects[0].count = 2;
	c->cards[74].effects[0].amount = 3;	/* Morgan: "+2" */
	assert_int_equal(data_check(c, &errs), 1);
	assert_non_null(strstr(strbuf_str(&errs), "card #74: the text says '+2'"));
	c->cards[74].effects[0].amount = 2;
	strbuf_release(&errs);
	free(c);
}

/* Provenance: which facts a source confirms, and the cards marked. */
static void test_provenance(void **state)
{
	const struct data *d = *state;
	static const char *const title[] = { "title", NULL };
	static const char *const effect[] = { "effect", NULL };
	struct strbuf t = STRBUF_INIT;

	assert_false(data_source_covers("unverified", NULL));
	assert_false(data_source_covers("", title));
	assert_true(data_source_covers("rulebook 12.3", NULL));
	assert_false(data_source_covers("rulebook 12.3; position unverified", NULL));
	assert_true(data_source_covers("rulebook 12.3; position unverified", title));
	assert_false(data_source_covers("x; rest of title, number and effect unverified", title));
	assert_false(data_source_covers("x; side and other effects unverified", effect));
	assert_true(data_source_covers("x; count of copies unverified", effect));
	/* #57 Major Campaign: title and effect sourced; #80 not; OPS never */
	assert_false(data_card_marked(&d->cards[57]));
	assert_true(data_card_marked(&d->cards[80]));
	assert_true(data_card_marked(&d->cards[71]));	/* count unverified */
	assert_false(data_card_marked(&d->cards[1]));
	assert_false(data_deck_printed(d));
	data_provenance(d, &t);
	assert_non_null(strstr(t.buf, "| card numbers | 3 | 107 | 110 |\n"));
	assert_non_null(strstr(t.buf, "| ports | 20 | 0 | 20 |\n"));
	strbuf_release(&t);
}

/* Loads a bad fixture and compares the messages exactly. */
static void expect_bad(const char *name, const char *expected)
{
	struct strbuf errs = STRBUF_INIT;
	char *dir = xstrfmt(BAD_DIR "%s", name);
	struct data *d = data_load(dir, &errs);

	assert_null(d);
	assert_string_equal(strbuf_str(&errs), expected);
	strbuf_release(&errs);
	free(dir);
}

static void test_bad_syntax(void **state)
{
	(void)state;
	expect_bad("syntax-error", BAD_DIR "syntax-error/spaces.yaml:3:5: did "
		   "not find expected ',' or '}' while parsing a flow "
		   "mapping\n");
}

static void test_bad_unknown_key(void **state)
{
	(void)state;
	expect_bad("unknown-key", BAD_DIR "unknown-key/spaces.yaml:5:5: "
		   "unknown key 'prot'\n");
}

static void test_bad_duplicate_space(void **state)
{
	(void)state;
	expect_bad("duplicate-space", BAD_DIR "duplicate-space/spaces.yaml:"
		   "4:5: duplicate space 'boston MA' (first at line 2)\n");
}

static void test_bad_unknown_space(void **state)
{
	(void)state;
	expect_bad("unknown-space", BAD_DIR "unknown-space/connections.yaml:"
		   "3:12: unknown space 'Bostn MA'\n");
}

static void test_bad_duplicate_card(void **state)
{
	(void)state;
	expect_bad("duplicate-card", BAD_DIR "duplicate-card/cards.yaml:4:5: "
		   "duplicate card #5 (first at line 2)\n");
}

static void test_bad_ops_and_event(void **state)
{
	(void)state;
	expect_bad("ops-and-event", BAD_DIR "ops-and-event/cards.yaml:2:31: "
		   "card #7 is an OPS card: 'text' is for events only\n");
}

static void test_bad_duplicate_connection(void **state)
{
	(void)state;
	expect_bad("duplicate-connection", BAD_DIR "duplicate-connection/"
		   "connections.yaml:3:5: duplicate connection "
		   "'Lexington and Concord MA' - 'Boston MA'\n");
}

static void test_bad_missing_source(void **state)
{
	(void)state;
	expect_bad("missing-source", BAD_DIR "missing-source/colonies.yaml:"
		   "2:5: missing key 'source'\n");
}

static void test_bad_disconnected(void **state)
{
	struct strbuf errs = STRBUF_INIT;
	struct data *d;

	(void)state;
	d = data_load(BAD_DIR "disconnected", &errs);
	assert_null(d);
	/* The fixture is a tiny map, so the rulebook checks fail too; the
	 * first message is the one this case is about. */
	assert_non_null(strstr(strbuf_str(&errs),
			       BAD_DIR "disconnected/spaces.yaml:4:5: space "
			       "'Worcester MA' cannot be reached from "
			       "'Boston MA' (the map must be connected)\n"));
	strbuf_release(&errs);
}


/*
 * docs/data.md and effects.h name the same verbs, qualifiers and
 * handlers: every name of the tables is a row (or in a row) of the doc's
 * tables, and every backquoted name that starts a row of the verb table is
 * a verb the loader knows.
 */
static void test_doc_lists_the_effect_tables(void **state)
{
	struct strbuf doc = STRBUF_INIT;
	char needle[96];
	const char *verbs, *verbs_end, *quals, *p;

	(void)state;
	assert_int_equal(read_file("docs/data.md", &doc, 1 << 20), 0);
	verbs = strstr(doc.buf, "| verb | count | amount | meaning |");
	quals = strstr(doc.buf, "| qualifier | meaning |");
	assert_non_null(verbs);
	assert_non_null(quals);
	verbs_end = strstr(verbs, "Any other verb");
	assert_non_null(verbs_end);
	for (int v = 1; v < EFFECT__COUNT; v++) {
		snprintf(needle, sizeof(needle), "\n| `%s` |", effect_verbs[v].name);
		if (!strstr(verbs, needle) || strstr(verbs, needle) > verbs_end)
			fail_msg("docs/data.md has no row for the verb '%s'", effect_verbs[v].name);
	}
	for (int i = 0; effect_quals[i].name; i++) {
		snprintf(needle, sizeof(needle), "`%s`", effect_quals[i].name);
		p = strstr(quals, needle);
		if (!p)
			fail_msg("docs/data.md does not list the qualifier '%s'", effect_quals[i].name);
	}
	for (int h = 1; h < HANDLER__COUNT; h++) {
		snprintf(needle, sizeof(needle), "`%s`", card_handlers[h]);
		if (!strstr(doc.buf, needle))
			fail_msg("docs/data.md does not name the handler '%s'", card_handlers[h]);
	}
	/* and the other way: each verb row of the doc is a known verb */
	for (p = strstr(verbs, "\n| `"); p && p < verbs_end; p = strstr(p + 1, "\n| `")) {
		const char *end = strchr(p + 4, '`');
		char name[64];
		assert_non_null(end);
		snprintf(name, sizeof(name), "%.*s", (int)(end - p - 4), p + 4);
		if (effect_verb_lookup(name) == EFFECT_NONE)
			fail_msg("docs/data.md documents a verb '%s' the loader does not know", name);
	}
	strbuf_release(&doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_ports_12_3),
		cmocka_unit_test(test_stars_and_shapes),
		cmocka_unit_test(test_winter_line_and_colonies),
		cmocka_unit_test(test_names_and_aliases),
		cmocka_unit_test(test_connections),
		cmocka_unit_test(test_generals),
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_cards),
		cmocka_unit_test(test_doc_lists_the_effect_tables),
		cmocka_unit_test(test_hash_and_dump),
		cmocka_unit_test(test_load_texts),
		cmocka_unit_test(test_check_in_memory),
		cmocka_unit_test(test_prose_against_effect),
		cmocka_unit_test(test_provenance),
		cmocka_unit_test(test_cards_doc_has_every_verb),
	};
	const struct CMUnitTest bad[] = {
		cmocka_unit_test(test_bad_syntax),
		cmocka_unit_test(test_bad_unknown_key),
		cmocka_unit_test(test_bad_duplicate_space),
		cmocka_unit_test(test_bad_unknown_space),
		cmocka_unit_test(test_bad_duplicate_card),
		cmocka_unit_test(test_bad_ops_and_event),
		cmocka_unit_test(test_bad_duplicate_connection),
		cmocka_unit_test(test_bad_missing_source),
		cmocka_unit_test(test_bad_disconnected),
	};
	int failed;

	failed = cmocka_run_group_tests_name("data", tests, setup_data,
					     teardown_data);
	failed += cmocka_run_group_tests_name("data-bad", bad, NULL, NULL);
	return failed ? 1 : 0;
}
