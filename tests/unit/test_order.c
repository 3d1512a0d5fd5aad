/*
 * test_order.c - the order language, as data: runs every case of
 * tests/orders/orders.test (format below) through order_run() on the real
 * games/washingtons-war data and compares the canonical actions applied,
 * or the exact error text, with what the case expects. Runs from the
 * repository root.
 *
 *   test_order                  run the cases (one cmocka test each)
 *   test_order --list           the starting points and their prompts
 *   test_order --list NAME      one starting point: prompt, hands, legal orders
 *   test_order --regenerate     rewrite the expected text of every case that
 *                               differs, printing each change (explicit only:
 *                               a plain run never writes)
 *   test_order ... FILE         another case file
 *
 * The case file. Outside a case, blank lines and lines starting with '#'
 * are comments. A case is:
 *
 *   @START SIDE                 a starting point (table `starts` below) and
 *                               the side sending the order
 *   order line ...              verbatim, blank and '#' lines included
 *   %%OK                        then the canonical actions applied, one a
 *   place Boston MA             line as action_format writes them; a last
 *   now: <prompt>               "now: " line, if given, is the prompt after
 *                               the order (engine_describe_prompt); before
 *                               it a "said: (read 'x' as 'Y' ...)" line for
 *                               each name the legal orders settled
 * or
 *   %%FAIL                      then the first lines of the error message,
 *   line 1, column 7: ...       as many as given (at least the position
 *     place bostn               line and the two caret lines)
 *         ^
 *
 * The expected block ends at a blank line. In order and expected lines,
 * \t is a tab, \r a carriage return, \s a space (to show a trailing one)
 * and \\ a backslash; a CR is added before each newline of the order when
 * the header ends with "crlf" ("@cc american crlf").
 *
 * The starting points are built with the engine alone (never the parser
 * under test): a new game from a fixed seed, fixed set-up actions, and
 * fixed hands (cards moved between the deck, the set-aside box and the
 * hands, so the 110 cards stay accounted for; the invariants are checked).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "order.h"

#define GAME_DIR "games/washingtons-war"
#define CASES_FILE "tests/orders/orders.test"

static struct data *data;

/* ---- starting points ------------------------------------------------ */

/* The fixed seed of every case: "orders.test" and zeros. */
static void case_seed(unsigned char seed[RNG_SEED_BYTES])
{
	memset(seed, 0, RNG_SEED_BYTES);
	memcpy(seed, "orders.test", 11);
}

/* Fails the test (or aborts outside one) with a message. */
static void setup_failed(const char *what, const char *why)
{
	fprintf(stderr, "test_order: set-up: %s: %s\n", what, why);
	fail_msg("set-up: %s: %s", what, why);
}

/* Applies one set-up action given as words: "place Boston MA",
 * "pc 25", "first british", "done". Fails the test if it is illegal. */
static void step(struct state *s, struct rng *r, const char *verb,
		 const char *arg)
{
	struct action a = ACTION_INIT;
	struct strbuf log = STRBUF_INIT, why = STRBUF_INIT;
	int k;

	for (k = 1; k < ACT__COUNT; k++)
		if (!strcmp(action_verb((enum action_kind)k), verb))
			break;
	if (k == ACT__COUNT)
		setup_failed(verb, "no such verb");
	a.kind = (enum action_kind)k;
	if (action_takes_space(a.kind) && (a.space = data_space_index(data, arg)) < 0)
		setup_failed(arg, "no such space");
	if (action_takes_card(a.kind))
		a.card = atoi(arg);
	if (action_takes_side(a.kind))
		a.side = (enum side)side_parse(arg);
	if (engine_apply(data, s, &a, r, &log, &why) != ENGINE_OK) {
		char *what = xstrfmt("%s %s", verb, arg ? arg : "");
		setup_failed(what, strbuf_str(&why));
		free(what);
	}
	strbuf_release(&log);
	strbuf_release(&why);
}

/* Removes card c from an array of n; true if it was there. */
static bool take_from(int *arr, int *n, int c)
{
	for (int i = 0; i < *n; i++) {
		if (arr[i] == c) {
			memmove(arr + i, arr + i + 1, sizeof(int) * (size_t)(*n - i - 1));
			(*n)--;
			return true;
		}
	}
	return false;
}

/* Gives both sides fixed hands (0-terminated lists): the cards they held
 * go to the bottom of the deck, the wanted ones come from the deck or
 * the set-aside box. */
static void set_hands(struct state *s, const int *american, const int *british)
{
	const int *want[3] = { NULL, american, british };

	for (int side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		for (int i = 0; i < s->n_hand[side]; i++)
			s->deck[s->n_deck++] = s->hand[side][i];
		s->n_hand[side] = 0;
	}
	for (int side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		for (const int *c = want[side]; *c; c++) {
			if (!take_from(s->deck, &s->n_deck, *c) &&
			    !take_from(s->set_aside, &s->n_set_aside, *c))
				setup_failed("set_hands", "a card is neither in the deck nor set aside");
			s->hand[side][s->n_hand[side]++] = *c;
		}
	}
}

static void start_cc(struct state *s, struct rng *r)
{
	struct strbuf log = STRBUF_INIT;

	engine_new_game(data, s, r, &log);
	strbuf_release(&log);
}

/* A new game without the British PC in Wilmington NC, so that both
 * Wilmingtons may take a Committee: two legal spaces of one name. */
static void start_cc_two_wilmingtons(struct state *s, struct rng *r)
{
	start_cc(s, r);
	s->space[data_space_index(data, "Wilmington NC")].pc = SIDE_NONE;
}

/* The Committees of Correspondence, all but Georgia. */
static const char *const cc_placements[] = {
	"Portsmouth NH", "Worcester MA", "Providence RI", "Hartford CT",
	"Albany NY", "Trenton NJ", "Lancaster PA", "Dover DE", "Baltimore MD",
	"Richmond VA", "Hillsborough NC", "Camden SC", NULL,
};

static void start_cc_last(struct state *s, struct rng *r)
{
	start_cc(s, r);
	for (const char *const *p = cc_placements; *p; p++)
		step(s, r, "place", *p);
}

static void start_ftk(struct state *s, struct rng *r)
{
	start_cc_last(s, r);
	step(s, r, "place", "Savannah GA");
}

static const int american_hand[] = { 8, 25, 50, 78, 96, 99, 106, 0 };
static const int british_hand[] = { 5, 20, 45, 57, 62, 71, 101, 0 };

static void start_first(struct state *s, struct rng *r)
{
	start_ftk(s, r);
	step(s, r, "place", "Williamsburg VA");
	step(s, r, "place", "Cross Creek NC");
	step(s, r, "done", NULL);
	step(s, r, "pass", NULL);	/* the British does not declare (5.3.a) */
	set_hands(s, american_hand, british_hand);
}

static void start_play_british(struct state *s, struct rng *r)
{
	start_first(s, r);
	step(s, r, "first", "british");
}

static void start_play_american(struct state *s, struct rng *r)
{
	start_first(s, r);
	step(s, r, "first", "american");
}

static void start_discard_british(struct state *s, struct rng *r)
{
	start_play_british(s, r);
	step(s, r, "discard", "101");
}

static void start_exchange(struct state *s, struct rng *r)
{
	start_discard_british(s, r);
	step(s, r, "pass", NULL);
}

static void start_doi(struct state *s, struct rng *r)
{
	start_play_american(s, r);
	step(s, r, "event", "99");
}

/* The Congress dispersed; the American plays the last card of 1775. */
static void start_congress(struct state *s, struct rng *r)
{
	static const int american[] = { 25, 0 }, british[] = { 0 };

	start_play_american(s, r);
	s->congress = -1;
	set_hands(s, american, british);
	step(s, r, "pc", "25");
	step(s, r, "done", NULL);
}

/* The American plays the first card of 1775 with #57 Major Campaign in
 * his hand: three activations, and two American generals on the map. */
static void start_play_american_campaign(struct state *s, struct rng *r)
{
	static const int american[] = { 57, 8, 25, 0 }, british[] = { 5, 20, 45, 0 };

	start_play_american(s, r);
	set_hands(s, american, british);
}

static const struct start {
	const char *name;
	void (*build)(struct state *s, struct rng *r);
	const char *about;
} starts[] = {
	{ "cc", start_cc, "a new game: the American places the Committees of Correspondence" },
	{ "cc-two-wilmingtons", start_cc_two_wilmingtons, "a new game, but Wilmington NC holds no PC: both Wilmingtons are legal" },
	{ "cc-last", start_cc_last, "Committees placed in every colony but Georgia" },
	{ "ftk", start_ftk, "Committees done: the British places For The King PCs" },
	{ "first", start_first, "set-up done, 1775: the American chooses who plays first; hands fixed" },
	{ "play-british", start_play_british, "the British plays first" },
	{ "play-american", start_play_american, "the American plays first" },
	{ "discard-british", start_discard_british, "the British discarded #101: the minor action" },
	{ "exchange", start_exchange, "the British discarded #101 and passed: the American may exchange" },
	{ "doi", start_doi, "the American played #99 Declaration of Independence" },
	{ "congress", start_congress, "the Congress dispersed, the last card of 1775 played: where it returns" },
	{ "campaign-american", start_play_american_campaign, "the American plays first, #57 Major Campaign in hand, two generals on the map" },
};

static const struct start *find_start(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(starts); i++)
		if (!strcmp(starts[i].name, name))
			return &starts[i];
	return NULL;
}

/* Builds a starting point and checks the invariants. */
static void build(const struct start *st, struct state *s, struct rng *r)
{
	unsigned char seed[RNG_SEED_BYTES];
	struct strbuf why = STRBUF_INIT;

	case_seed(seed);
	rng_init(r, seed, 0);
	st->build(s, r);
	if (engine_invariants(data, s, &why))
		setup_failed(st->name, strbuf_str(&why));
	strbuf_release(&why);
}

/* ---- the case file -------------------------------------------------- */

struct tcase {
	int line;		/* of the header in the file */
	int expect_line;	/* of the first expected line */
	int expect_end;		/* one past the last expected line */
	char *header;		/* "@cc american" */
	char *name;		/* cmocka's test name */
	const struct start *start;
	enum side side;
	bool ok;		/* %%OK, else %%FAIL */
	struct strbuf order;
	struct strbuf expected;
	int n_expected;		/* lines */
	const char *file;
};

/* Undoes the escapes \t \r \s \\ of a case line. */
static void unescape(const char *in, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		if (in[i] == '\\' && i + 1 < len) {
			char c = in[i + 1];
			if (c == 't' || c == 'r' || c == 's' || c == '\\') {
				strbuf_addch(out, c == 't' ? '\t' : c == 'r' ? '\r'
						  : c == 's' ? ' ' : '\\');
				i++;
				continue;
			}
		}
		strbuf_addch(out, in[i]);
	}
}

/* The reverse, for --regenerate: tabs, CRs, backslashes and trailing
 * spaces made visible. */
static void escape_line(const char *in, size_t len, struct strbuf *out)
{
	size_t end = len;

	while (end && in[end - 1] == ' ')
		end--;
	for (size_t i = 0; i < len; i++) {
		char c = in[i];
		if (c == '\t')
			strbuf_addstr(out, "\\t");
		else if (c == '\r')
			strbuf_addstr(out, "\\r");
		else if (c == '\\')
			strbuf_addstr(out, "\\\\");
		else if (c == ' ' && i >= end)
			strbuf_addstr(out, "\\s");
		else
			strbuf_addch(out, c);
	}
}

static void tcase_free(struct tcase *c)
{
	free(c->header);
	free(c->name);
	strbuf_release(&c->order);
	strbuf_release(&c->expected);
}

/*
 * Reads the case file into *cases (an array the caller frees with
 * tcase_free on each). Returns the number of cases, or -1 after printing
 * what is wrong (file:line: message).
 */
static int read_cases(const char *path, const char *text, struct tcase **cases)
{
	enum { OUTSIDE, ORDER, EXPECT } where = OUTSIDE;
	struct tcase *cs = NULL, *c = NULL;
	int n = 0, alloc = 0, lineno = 0;
	bool crlf = false;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *line = p;
		bool last = !p[len];

		lineno++;
		p += len + !last;
		if (where == EXPECT && (!len || line[0] == '@')) {
			c->expect_end = lineno;
			where = OUTSIDE;
		}
		if (where == OUTSIDE) {
			char start[64], side[32], extra[32];
			int k;

			if (!len || line[0] == '#')
				continue;
			if (line[0] != '@') {
				fprintf(stderr, "%s:%d: expected a case ('@START SIDE'), a comment or a blank line\n",
					path, lineno);
				goto fail;
			}
			char *hdr = xstrndup(line, len);
			extra[0] = '\0';
			k = sscanf(hdr, "@%63s %31s %31s", start, side, extra);
			if (k < 2 || side_parse(side) <= 0 || !find_start(start) ||
			    (k == 3 && strcmp(extra, "crlf"))) {
				fprintf(stderr, "%s:%d: bad case header '%s' (known starting points: see --list)\n",
					path, lineno, hdr);
				free(hdr);
				goto fail;
			}
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				cs = xrealloc(cs, sizeof(*cs) * (size_t)alloc);
			}
			c = &cs[n++];
			memset(c, 0, sizeof(*c));
			c->file = path;
			c->line = lineno;
			c->header = hdr;
			c->name = xstrfmt("%s:%d %s", path, lineno, hdr);
			c->start = find_start(start);
			c->side = (enum side)side_parse(side);
			strbuf_init(&c->order);
			strbuf_init(&c->expected);
			crlf = k == 3;
			where = ORDER;
			continue;
		}
		if (where == ORDER) {
			if ((len == 4 && !strncmp(line, "%%OK", 4)) ||
			    (len == 6 && !strncmp(line, "%%FAIL", 6))) {
				c->ok = len == 4;
				c->expect_line = lineno + 1;
				where = EXPECT;
				continue;
			}
			unescape(line, len, &c->order);
			if (crlf)
				strbuf_addch(&c->order, '\r');
			strbuf_addch(&c->order, '\n');
			continue;
		}
		/* EXPECT */
		unescape(line, len, &c->expected);
		strbuf_addch(&c->expected, '\n');
		c->n_expected++;
		if (last)
			c->expect_end = lineno + 1;
	}
	if (where == ORDER) {
		fprintf(stderr, "%s:%d: the case has no %%%%OK or %%%%FAIL\n", path, c->line);
		goto fail;
	}
	if (where == EXPECT && !c->expect_end)
		c->expect_end = lineno + 1;
	*cases = cs;
	return n;
fail:
	for (int i = 0; i < n; i++)
		tcase_free(&cs[i]);
	free(cs);
	return -1;
}

/* A plain run needs every %%FAIL case to pin at least the position line
 * and the caret lines. Returns 0, or -1 after printing the culprits. */
static int check_cases(const char *path, const struct tcase *cs, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		if (!cs[i].ok && cs[i].n_expected < 3) {
			fprintf(stderr, "%s:%d: a %%%%FAIL case gives at least 3 lines (position and caret)\n",
				path, cs[i].line);
			bad++;
		}
	}
	return bad ? -1 : 0;
}

/* The first n lines of text (all if n < 0). */
static void first_lines(const char *text, int n, struct strbuf *out)
{
	const char *p = text;

	while (*p && n--) {
		size_t len = strcspn(p, "\n");
		strbuf_add(out, p, len);
		strbuf_addch(out, '\n');
		p += len + (p[len] == '\n');
	}
}

/* Does the expected text end with a "now: " line? */
static bool wants_prompt(const struct tcase *c)
{
	const char *e = strbuf_str(&c->expected);
	const char *last = e;

	for (const char *q = e; *q; q++)
		if (q[0] == '\n' && q[1])
			last = q + 1;
	return !strncmp(last, "now: ", 5);
}

/* Runs a case and writes what it produced, in the form of its expected
 * block, to actual. *ok_out tells whether the order was accepted. */
static void run_case(const struct tcase *c, struct strbuf *actual, bool *ok_out)
{
	struct state *s = xcalloc(1, sizeof(*s));
	struct rng r;
	struct order_result res;

	build(c->start, s, &r);
	order_result_init(&res);
	order_run(data, s, &r, c->side, strbuf_str(&c->order), &res);
	*ok_out = !res.rejected;
	if (res.rejected) {
		first_lines(strbuf_str(&res.message),
			    c->ok || c->n_expected < 3 ? 3 : c->n_expected, actual);
	} else {
		strbuf_addstr(actual, strbuf_str(&res.actions));
		/* a name read by the legal orders is said in the log */
		for (const char *p = strbuf_str(&res.log); (p = strstr(p, "(read '")); p++) {
			size_t n = strcspn(p, "\n");
			strbuf_addf(actual, "said: %.*s\n", (int)n, p);
		}
		/* conditional standing orders, as kept (sealed) */
		for (const char *p = s->standing[c->side]; *p;) {
			size_t n = strcspn(p, "\n");
			strbuf_addf(actual, "standing: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
		/* lines held over for after the other side's decision */
		for (const char *p = s->held[c->side]; res.held && *p;) {
			size_t n = strcspn(p, "\n");
			strbuf_addf(actual, "held: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
		if (!c->ok || wants_prompt(c)) {
			strbuf_addstr(actual, "now: ");
			engine_describe_prompt(data, s, actual);
			strbuf_addch(actual, '\n');
		}
	}
	order_result_release(&res);
	free(s);
}

/* ---- the descriptors and the docs ---- */

/* docs/orders.md's table of verbs gives every action kind its verb and
 * the argument its descriptor says (the first row of the verb). */
static void test_docs_grammar(void **state)
{
	struct strbuf doc = STRBUF_INIT;

	(void)state;
	if (read_file("docs/orders.md", &doc, 1 << 20) < 0)
		fail_msg("cannot read docs/orders.md");
	for (int k = ACT_NONE + 1; k < ACT__COUNT; k++) {
		const struct action_desc *a = action_desc((enum action_kind)k);
		if (k == ACT_REACT || k == ACT_RESIGN)
			continue;	/* not rows of the table: their own sections */
		char *row = xstrfmt("\n| `%s` | ", a->verb);
		const char *at = strstr(strbuf_str(&doc), row);
		if (!at)
			fail_msg("docs/orders.md has no row for the verb '%s'", a->verb);
		at += strlen(row);
		size_t n = strcspn(at, "|");
		while (n && at[n - 1] == ' ')
			n--;
		if (n != strlen(a->grammar) || memcmp(at, a->grammar, n))
			fail_msg("docs/orders.md gives '%s' the argument '%.*s', its descriptor '%s'",
				 a->verb, (int)n, at, a->grammar);
		free(row);
	}
	strbuf_release(&doc);
}

/* ---- held-over lines across two orders (docs/orders.md, "Held over") ---- */

static const struct start *start_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(starts); i++)
		if (!strcmp(starts[i].name, name))
			return &starts[i];
	fail_msg("no start %s", name);
	return NULL;
}

/* A fresh game at the start "play-british" for a test of several orders. */
static struct state *play_british(struct rng *r, struct order_result *res)
{
	struct state *s = xcalloc(1, sizeof(*s));

	order_result_init(res);
	build(start_named("play-british"), s, r);
	return s;
}

/* Runs one order; fails the test if it is rejected. */
static void run_order(struct state *s, struct rng *r, enum side side,
		      const char *text, struct order_result *res)
{
	order_result_release(res);
	order_result_init(res);
	order_run(data, s, r, side, text, res);
	if (res->rejected)
		fail_msg("'%s' rejected: %s", text, strbuf_str(&res->message));
}

static int general_named(const char *name)
{
	for (int g = 0; g < data->n_generals; g++)
		if (!strcmp(data->generals[g].name, name))
			return g;
	fail_msg("no general %s", name);
	return -1;
}

/* Conditional standing orders answer for the American, once each, and
 * the British reads only that they did. */
static void test_standing_orders(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	/* given at any time, while the British decides */
	run_order(s, &r, SIDE_AMERICAN, "if attacked at lexington: stand\nif battle: none\n", &res);
	assert_string_equal(s->standing[SIDE_AMERICAN],
			    "if attacked at Lexington and Concord MA: stand\nif battle: none");
	assert_null(strstr(strbuf_str(&res.log), "Lexington"));
	assert_null(strstr(strbuf_str(&res.log), ": stand"));
	assert_non_null(strstr(strbuf_str(&res.log), "gives a standing order (sealed until it is used)"));
	assert_string_equal(strbuf_str(&res.actions), "");
	run_order(s, &r, SIDE_BRITISH, "move 45 Howe\nto lexington\nnone\n", &res);
	/* the American stood and played no card without being asked */
	assert_non_null(strstr(strbuf_str(&res.log), "The American's standing order answers.\nWashington stands"));
	assert_non_null(strstr(strbuf_str(&res.actions), "stand\n"));
	assert_string_equal(s->standing[SIDE_AMERICAN], "");
	assert_non_null(strstr(s->held_note[SIDE_AMERICAN], "was used"));
	assert_false(s->battle.active && s->prompt.kind == PROMPT_BATTLE_CARD &&
		     s->prompt.side == SIDE_AMERICAN);
	order_result_release(&res);
	free(s);
}

/* "always" keeps a standing order after it answered. */
static void test_standing_always(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	run_order(s, &r, SIDE_AMERICAN, "if attacked: stand always\n", &res);
	run_order(s, &r, SIDE_BRITISH, "move 45 Howe\nto lexington\n", &res);
	assert_non_null(strstr(strbuf_str(&res.log), "The American's standing order answers.\nWashington stands"));
	assert_string_equal(s->standing[SIDE_AMERICAN], "if attacked: stand always");
	order_result_release(&res);
	free(s);
}

/* "with GENERAL": only his battles. */
static void test_standing_general(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	run_order(s, &r, SIDE_AMERICAN, "if attacked with greene: stand\n", &res);
	run_order(s, &r, SIDE_BRITISH, "move 45 Howe\nto lexington\n", &res);
	/* Washington is attacked, not Greene: the American is asked */
	assert_null(strstr(strbuf_str(&res.log), "standing order answers"));
	assert_int_equal(s->prompt.kind, PROMPT_RETREAT_BEFORE);
	assert_int_equal(s->prompt.side, SIDE_AMERICAN);
	assert_string_equal(s->standing[SIDE_AMERICAN], "if attacked with Greene: stand");
	order_result_release(&res);
	free(s);
}

/* "if ...: ask" withdraws; what does not fit is refused. */
static void test_standing_withdraw(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	run_order(s, &r, SIDE_AMERICAN, "if battle at boston: none\nif battle: none\n", &res);
	run_order(s, &r, SIDE_AMERICAN, "if battle at boston: ask\n", &res);
	assert_string_equal(s->standing[SIDE_AMERICAN], "if battle: none");
	order_result_release(&res);
	order_result_init(&res);
	order_run(data, s, &r, SIDE_BRITISH, "if attacked: stand\n", &res);
	assert_true(res.rejected);
	assert_non_null(strstr(strbuf_str(&res.message), "only the American retreats before battle"));
	order_result_release(&res);
	free(s);
}

/* The American declines the interception: the British lines run. */
static void test_held_resumed(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	run_order(s, &r, SIDE_BRITISH, "move 45 Howe\nto providence\nto boston\nstop\n", &res);
	assert_int_equal(res.held, 2);
	assert_string_equal(s->held[SIDE_BRITISH], "to boston\nstop");
	assert_int_equal(s->prompt.side, SIDE_AMERICAN);
	/* the opponent reads that lines wait, never what they are */
	assert_non_null(strstr(strbuf_str(&res.log), "The rest of the British order (2 lines) waits"));
	assert_null(strstr(strbuf_str(&res.log), "boston"));
	run_order(s, &r, SIDE_AMERICAN, "pass\n", &res);
	assert_non_null(strstr(strbuf_str(&res.log), "The rest of the British order goes on (held over)."));
	assert_non_null(strstr(strbuf_str(&res.actions), "to Boston MA\n"));
	assert_int_equal(s->general[general_named("Howe")], data_space_index(data, "Boston MA"));
	assert_string_equal(s->held[SIDE_BRITISH], "");
	assert_non_null(strstr(s->held_note[SIDE_BRITISH], "applied in full (2 lines)"));
	assert_false(s->move.active);
	order_result_release(&res);
	free(s);
}

/* A held line that no longer fits is dropped with its reason, told to
 * its side only; the decision is his again. */
static void test_held_dropped(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	run_order(s, &r, SIDE_BRITISH, "move 45 Howe\nto providence\nto charleston\nstop\n", &res);
	assert_int_equal(res.held, 2);
	run_order(s, &r, SIDE_AMERICAN, "pass\n", &res);
	assert_non_null(strstr(strbuf_str(&res.log), "2 held-over lines of the British order are dropped"));
	assert_null(strstr(strbuf_str(&res.log), "charleston"));
	assert_non_null(strstr(s->held_note[SIDE_BRITISH], "Dropped from your held-over order: 'to charleston'"));
	assert_string_equal(s->held[SIDE_BRITISH], "");
	assert_int_equal(s->prompt.kind, PROMPT_MOVE);
	assert_int_equal(s->prompt.side, SIDE_BRITISH);
	/* his next order reads the note once: it is gone after it */
	run_order(s, &r, SIDE_BRITISH, "stop\n", &res);
	assert_string_equal(s->held_note[SIDE_BRITISH], "");
	order_result_release(&res);
	free(s);
}

/* Held lines wait only while the other side answers the interruption. */
static void test_held_lapse(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	run_order(s, &r, SIDE_BRITISH, "move 45 Howe\nto lexington\nto boston\n", &res);
	assert_int_equal(res.held, 1);
	assert_int_equal(s->prompt.kind, PROMPT_RETREAT_BEFORE);
	/* standing reactions of the holder are not held: they apply now */
	run_order(s, &r, SIDE_AMERICAN, "stand\n", &res);
	/* the battle ended the move: the held line lapsed or was dropped */
	assert_string_equal(s->held[SIDE_BRITISH], "");
	assert_non_null(strstr(s->held_note[SIDE_BRITISH], "Dropped from your held-over order: 'to boston'"));
	order_result_release(&res);
	free(s);
}

/* Issue 28: from the line that reaches a die or the other side's
 * decision, a line that no longer fits is dropped with the rest, sealed,
 * and the order stands; the sender alone reads why. */
static void test_bound_drops(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	run_order(s, &r, SIDE_AMERICAN, "if attacked: stand\nif battle: none\n", &res);
	run_order(s, &r, SIDE_BRITISH, "move 45 Howe\nto lexington\nnone\nto boston\nstop\n", &res);
	assert_int_equal(res.bound_line, 2);
	assert_false(res.rejected);
	assert_int_equal(res.dropped, 2);
	assert_non_null(strstr(s->held_note[SIDE_BRITISH], "Dropped from your order: 'to boston'"));
	assert_non_null(strstr(s->sealed_lines[SIDE_BRITISH], "4\tto boston\n5\tstop\n"));
	assert_non_null(strstr(strbuf_str(&res.log), "2 lines of the British order are dropped"));
	assert_null(strstr(strbuf_str(&res.log), "to boston"));
	order_result_release(&res);
	free(s);
}

/* Past that line, a line whose words name nothing refuses the order, and
 * the refusal shows nothing after the bound. */
static void test_bound_unreadable(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	order_result_init(&res);
	run_order(s, &r, SIDE_AMERICAN, "if attacked: stand\n", &res);
	order_result_release(&res);
	order_result_init(&res);
	order_run(data, s, &r, SIDE_BRITISH, "move 45 Howe\nto lexington\nnone\nto atlantis\n", &res);
	assert_true(res.rejected);
	assert_int_equal(res.line, 4);
	assert_non_null(strstr(strbuf_str(&res.message), "unknown space 'atlantis'"));
	assert_non_null(strstr(strbuf_str(&res.message), "(line 2 reaches the dice"));
	assert_null(strstr(strbuf_str(&res.message), "now:"));
	assert_null(strstr(strbuf_str(&res.message), "legal orders"));
	order_result_release(&res);
	free(s);
}

/* words runs first wherever it stands. */
static void test_words_first(void **state)
{
	struct rng r;
	struct order_result res;
	struct state *s = play_british(&r, &res);

	(void)state;
	s->draws = 0;	/* as before the first shuffle */
	r.next = 0;
	run_order(s, &r, SIDE_AMERICAN, "never intercept\nwords the tea is in the harbour\n", &res);
	assert_int_equal(strncmp(strbuf_str(&res.log), "The American's words are mixed", 30), 0);
	assert_true(s->has_words[SIDE_AMERICAN]);
	order_result_release(&res);
	free(s);
}

static void test_case(void **state)
{
	const struct tcase *c = *state;
	struct strbuf actual = STRBUF_INIT;
	bool ok;
	bool same;

	run_case(c, &actual, &ok);
	same = ok == c->ok && !strcmp(strbuf_str(&actual), strbuf_str(&c->expected));
	fflush(stdout);
	if (!same)
		print_error("%s:%d: %s\n--- expected (%s)\n%s--- actual (%s)\n%s",
			    c->file, c->line, c->header, c->ok ? "%%OK" : "%%FAIL",
			    strbuf_str(&c->expected), ok ? "%%OK" : "%%FAIL",
			    strbuf_str(&actual));
	strbuf_release(&actual);
	if (!same)
		fail();
}

/* ---- modes ---------------------------------------------------------- */

static int list_starts(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(starts); i++) {
		const struct start *st = &starts[i];
		struct state *s;
		struct rng r;
		struct strbuf out = STRBUF_INIT;

		if (name && strcmp(name, st->name))
			continue;
		s = xcalloc(1, sizeof(*s));
		build(st, s, &r);
		strbuf_addf(&out, "@%s: %s\n  now: ", st->name, st->about);
		engine_describe_prompt(data, s, &out);
		strbuf_addch(&out, '\n');
		if (name) {
			struct action acts[256];
			int n = engine_legal(data, s, acts, 256);
			for (int side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
				strbuf_addf(&out, "  %s hand:", side_title((enum side)side));
				for (int k = 0; k < s->n_hand[side]; k++)
					strbuf_addf(&out, " #%d %s;", s->hand[side][k],
						    data->cards[s->hand[side][k]].title);
				strbuf_addch(&out, '\n');
			}
			strbuf_addf(&out, "  %d legal orders:\n", n);
			for (int k = 0; k < n && k < 256; k++) {
				strbuf_addstr(&out, "    ");
				action_format(data, &acts[k], &out);
				strbuf_addch(&out, '\n');
			}
		}
		fputs(strbuf_str(&out), stdout);
		strbuf_release(&out);
		free(s);
		if (name)
			return 0;
	}
	if (name) {
		fprintf(stderr, "test_order: no starting point '%s'\n", name);
		return 1;
	}
	return 0;
}

/* Rewrites the expected block of every case that differs; prints each
 * change. Returns the number of cases changed. */
static int regenerate(const char *path, const char *text, struct tcase *cs, int n)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = text;
	int lineno = 0, changed = 0, k = 0;

	while (*p || k < n) {
		if (k < n && lineno + 1 == cs[k].expect_line - 1) {
			/* the %%OK/%%FAIL line of case k: replace it and its block */
			struct strbuf actual = STRBUF_INIT, block = STRBUF_INIT;
			bool ok;

			run_case(&cs[k], &actual, &ok);
			if (ok != cs[k].ok || strcmp(strbuf_str(&actual), strbuf_str(&cs[k].expected))) {
				printf("%s:%d: %s\n--- was (%s)\n%s--- now (%s)\n%s\n", path,
				       cs[k].line, cs[k].header, cs[k].ok ? "%%OK" : "%%FAIL",
				       strbuf_str(&cs[k].expected), ok ? "%%OK" : "%%FAIL",
				       strbuf_str(&actual));
				changed++;
			}
			strbuf_addstr(&block, ok ? "%%OK\n" : "%%FAIL\n");
			for (const char *a = strbuf_str(&actual); *a;) {
				size_t len = strcspn(a, "\n");
				escape_line(a, len, &block);
				strbuf_addch(&block, '\n');
				a += len + (a[len] == '\n');
			}
			strbuf_addstr(&out, strbuf_str(&block));
			strbuf_release(&block);
			strbuf_release(&actual);
			/* skip the old marker and expected lines */
			while (*p && lineno + 1 < cs[k].expect_end) {
				size_t len = strcspn(p, "\n");
				p += len + (p[len] == '\n');
				lineno++;
			}
			k++;
			continue;
		}
		if (!*p)
			break;
		size_t len = strcspn(p, "\n");
		strbuf_add(&out, p, len);
		if (p[len] == '\n')
			strbuf_addch(&out, '\n');
		p += len + (p[len] == '\n');
		lineno++;
	}
	if (changed && write_file_atomic(path, out.buf, out.len) < 0)
		changed = -1;
	printf("%s: %d case%s changed\n", path, changed, changed == 1 ? "" : "s");
	strbuf_release(&out);
	return changed;
}

int main(int argc, char **argv)
{
	const char *path = CASES_FILE, *list = NULL;
	bool regen = false, do_list = false;
	struct strbuf errs = STRBUF_INIT, text = STRBUF_INIT;
	struct tcase *cases = NULL;
	int n, ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--regenerate"))
			regen = true;
		else if (!strcmp(argv[i], "--list")) {
			do_list = true;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				list = argv[++i];
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: test_order [--regenerate | --list [START]] [FILE]\n");
			return 2;
		} else
			path = argv[i];
	}
	data = data_load(GAME_DIR, &errs);
	if (!data) {
		fprintf(stderr, "test_order: %s", strbuf_str(&errs));
		strbuf_release(&errs);
		return 1;
	}
	strbuf_release(&errs);
	if (do_list) {
		ret = list_starts(list);
		data_free(data);
		return ret;
	}
	if (read_file(path, &text, 1 << 22) < 0) {
		perror(path);
		data_free(data);
		return 1;
	}
	n = read_cases(path, strbuf_str(&text), &cases);
	if (n >= 0 && !regen && check_cases(path, cases, n) < 0) {
		ret = 1;
	} else if (n < 0) {
		ret = 1;
	} else if (regen) {
		ret = regenerate(path, strbuf_str(&text), cases, n) < 0;
	} else {
		struct CMUnitTest *tests = xcalloc((size_t)(n ? n : 1), sizeof(*tests));
		for (int i = 0; i < n; i++) {
			tests[i].name = cases[i].name;
			tests[i].test_func = test_case;
			tests[i].initial_state = &cases[i];
		}
		ret = _cmocka_run_group_tests("orders.test", tests, (size_t)n, NULL, NULL);
		free(tests);
		const struct CMUnitTest held[] = {
			cmocka_unit_test(test_docs_grammar),
			cmocka_unit_test(test_held_resumed),
			cmocka_unit_test(test_held_dropped),
			cmocka_unit_test(test_held_lapse),
			cmocka_unit_test(test_bound_drops),
			cmocka_unit_test(test_bound_unreadable),
			cmocka_unit_test(test_words_first),
			cmocka_unit_test(test_standing_orders),
			cmocka_unit_test(test_standing_withdraw),
			cmocka_unit_test(test_standing_always),
			cmocka_unit_test(test_standing_general),
		};
		ret |= cmocka_run_group_tests(held, NULL, NULL);
	}
	for (int i = 0; i < (n > 0 ? n : 0); i++)
		tcase_free(&cases[i]);
	free(cases);
	strbuf_release(&text);
	data_free(data);
	return ret;
}
