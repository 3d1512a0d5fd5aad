/*
 * test_sheet.c - the data as sheets (issue 32): the shipped data
 * round-trips through the sheets, the same sheets give the same bytes
 * (so the same hash on any host), each of the transcription errors of the
 * table is refused with its sheet, row and column, and a run of random
 * mutations over the sheets never crashes (run it under ASan with `make
 * sanitize`). Runs from the repository root.
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
#include "util.h"

#define GAME_DIR "games/washingtons-war"

static struct data *shipped;
static struct strbuf base[DATA_N_SHEETS];

static int sheet_index(const char *name)
{
	for (int i = 0; i < DATA_N_SHEETS; i++)
		if (!strcmp(data_sheet_name(i), name))
			return i;
	fail_msg("no sheet %s", name);
	return -1;
}

static int setup(void **state)
{
	struct strbuf errs = STRBUF_INIT;

	(void)state;
	shipped = data_load(GAME_DIR, &errs);
	if (!shipped) {
		print_error("%s", errs.buf);
		return -1;
	}
	for (int i = 0; i < DATA_N_SHEETS; i++)
		strbuf_init(&base[i]);
	if (data_sheet_texts(shipped, base, &errs)) {
		print_error("%s", errs.buf);
		return -1;
	}
	strbuf_release(&errs);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < DATA_N_SHEETS; i++)
		strbuf_release(&base[i]);
	data_free(shipped);
	return 0;
}

/* Copies the shipped sheets into s. */
static void copy_sheets(struct strbuf s[DATA_N_SHEETS])
{
	for (int i = 0; i < DATA_N_SHEETS; i++) {
		strbuf_init(&s[i]);
		strbuf_add(&s[i], base[i].buf, base[i].len);
	}
}

static void release(struct strbuf *s, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_release(&s[i]);
}

/* Imports sheets; returns the number of problems, the YAML in yaml. */
static int import(struct strbuf sheets[DATA_N_SHEETS],
		  struct strbuf yaml[DATA_N_FILES], struct strbuf *errs)
{
	for (int i = 0; i < DATA_N_FILES; i++)
		strbuf_init(&yaml[i]);
	return data_sheet_import("sheets", sheets, yaml, errs);
}

/* The shipped data, as sheets and back, is the same data set. */
static void test_round_trip(void **state)
{
	struct strbuf s[DATA_N_SHEETS], y[DATA_N_FILES], y2[DATA_N_FILES];
	struct strbuf errs = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct strbuf again[DATA_N_SHEETS], yl[DATA_N_FILES];
	struct data *d;

	(void)state;
	copy_sheets(s);
	assert_int_equal(import(s, y, &errs), 0);
	assert_string_equal(errs.buf, "");
	for (int i = 0; i < DATA_N_FILES; i++) {
		strbuf_init(&yl[i]);
		strbuf_add(&yl[i], y[i].buf, y[i].len);
	}
	d = data_load_texts("data", "washingtons-war", yl, &errs);
	assert_non_null(d);
	data_dump(shipped, &a);
	data_dump(d, &b);
	/* the same data but for the hash line */
	assert_string_equal(strstr(a.buf, "\ncolonies:"), strstr(b.buf, "\ncolonies:"));
	/* and the sheets of the imported data are the sheets again */
	for (int i = 0; i < DATA_N_SHEETS; i++)
		strbuf_init(&again[i]);
	assert_int_equal(data_sheet_texts(d, again, &errs), 0);
	for (int i = 0; i < DATA_N_SHEETS; i++)
		assert_string_equal(again[i].buf, base[i].buf);
	/* the same sheets give the same bytes: the same hash anywhere */
	release(again, DATA_N_SHEETS);
	copy_sheets(again);
	assert_int_equal(import(again, y2, &errs), 0);
	for (int i = 0; i < DATA_N_FILES; i++)
		assert_string_equal(y[i].buf, y2[i].buf);
	data_free(d);
	release(s, DATA_N_SHEETS);
	release(again, DATA_N_SHEETS);
	release(y, DATA_N_FILES);
	release(y2, DATA_N_FILES);
	strbuf_release(&errs);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* A spreadsheet's habits are accepted: CRLF line ends, a byte-order
 * mark, quoted cells, columns in another order, blank rows. */
static void test_spreadsheet_habits(void **state)
{
	struct strbuf s[DATA_N_SHEETS], y[DATA_N_FILES], errs = STRBUF_INIT;
	struct strbuf crlf = STRBUF_INIT;
	int t = sheet_index("turns.tsv");

	(void)state;
	copy_sheets(s);
	strbuf_addstr(&crlf, "\xef\xbb\xbf");
	for (const char *p = s[t].buf; *p; p++) {
		if (*p == '\n')
			strbuf_addch(&crlf, '\r');
		strbuf_addch(&crlf, *p);
	}
	strbuf_addstr(&crlf, "\r\n\t\t\r\n");
	strbuf_reset(&s[t]);
	strbuf_addstr(&s[t], crlf.buf);
	strbuf_reset(&s[sheet_index("colonies.tsv")]);
	strbuf_addstr(&s[sheet_index("colonies.tsv")],
		"code\tname\tsource\tcanada\tsouth_of_winter_line\n");
	for (int i = 0; i < shipped->n_colonies; i++) {
		const struct data_colony *c = &shipped->colonies[i];
		strbuf_addf(&s[sheet_index("colonies.tsv")], "%s\t\"%s\"\t\"%s\"\t%s\t%s\n",
			    c->code, c->name, c->src.source, c->canada ? "yes" : "no",
			    c->south_of_winter_line ? "TRUE" : "");
	}
	assert_int_equal(import(s, y, &errs), 0);
	assert_string_equal(errs.buf, "");
	release(s, DATA_N_SHEETS);
	release(y, DATA_N_FILES);
	strbuf_release(&errs);
	strbuf_release(&crlf);
}

/*
 * The transcription errors: in sheet `sheet`, the first `from` becomes
 * `to`; the import must fail with a line that starts "sheets/SHEET:
 * WHERE: " (WHERE is "ROW:COLUMN", or "OTHER.tsv:ROW:COLUMN" for a
 * problem found in another sheet) and contains `says`.
 */
static const struct mistake {
	const char *what, *sheet, *from, *to, *where, *says;
} mistakes[] = {
	{ "a duplicate card number", "cards.tsv", "\n71\tJoseph", "\n70\tJoseph",
	  "72:1", "duplicate card #70 (first at row 71)" },
	{ "a card number past 110", "cards.tsv", "\n110\t", "\n111\t",
	  "111:1", "number" },
	{ "an OPS value that is not a number", "cards.tsv", "\n2\t\t1\t", "\n2\t\tone\t",
	  "3:3", "ops: 'one' is not a whole number" },
	{ "an OPS value beyond 3 (rule 6.2)", "cards.tsv", "\n2\t\t1\t", "\n2\t\t4\t",
	  "3:3", "ops" },
	{ "an OPS card with an event's side", "cards.tsv", "\n2\t\t1\t\t", "\n2\t\t1\tbritish\t",
	  "3:4", "'side' is for events only" },
	{ "a side misspelt", "cards.tsv", "Iroquois Raid\t\tbritish", "Iroquois Raid\t\tbritsh",
	  "72:4", "unknown side 'britsh'" },
	{ "a yes/no cell misspelt", "cards.tsv", "Artillery Commander\t\tamerican\tyes",
	  "Artillery Commander\t\tamerican\tyse", "70:5", "battle_card: 'yse' is neither yes nor no" },
	{ "an effect's verb with a typo", "cards.tsv", "{verb: remove_pc, count: 2, colonies",
	  "{verb: remove_pcs, count: 2, colonies", "72:15", "effects: unknown verb 'remove_pcs'" },
	{ "a qualifier with a typo", "cards.tsv", "where: \"non_port\"}", "where: \"non-port\"}",
	  "72:15", "unknown qualifier 'non-port'" },
	{ "an unknown colony in an effect", "cards.tsv", "[NY, PA, VA]", "[NY, PA, VX]",
	  "72:15", "unknown colony 'VX'" },
	{ "an effect's brackets unbalanced", "cards.tsv", "where: \"non_port\"}\t",
	  "where: \"non_port\"\t", "72:15", "effects: unbalanced brackets" },
	{ "an effect not written {verb: ...}", "cards.tsv", "{verb: opponent_discards_random, count: 1}",
	  "opponent_discards_random", "71:15", "an effect is written {verb: ..., ...}" },
	{ "a bound beyond the text (#71: 'two')", "cards.tsv",
	  "{verb: remove_pc, count: 2, colonies", "{verb: remove_pc, count: 3, colonies",
	  "72:1", "card #71: the text says 'two' (PC) but no effect counts 2" },
	{ "a campaign of four generals (7.2)", "cards.tsv", "{verb: activate_generals, count: 3}",
	  "{verb: activate_generals, count: 4}", "58:15", "effects: 4 is out of range (0 to 3)" },
	{ "two War Ends cards for one year", "cards.tsv", "\t\t1779\t", "\t\t1780\t",
	  "64:1", "second War Ends card for 1780" },
	{ "#95 without its reshuffle (6.1.B)", "cards.tsv", "when_played", "",
	  "96:1", "card #95 reshuffles the deck when played (6.1.B)" },
	{ "a handler misspelt", "cards.tsv", "\tkosciuszko\t", "\tkosciusko\t",
	  "80:14", "handler: unknown handler 'kosciusko'" },
	{ "an event without a title", "cards.tsv", "\n80\tPaul Revere's Ride\t", "\n80\t\t",
	  "81:2", "title: missing key 'title'" },
	{ "a card without a source", "cards.tsv", "\tunverified\n", "\t\n",
	  "81:16", "source: missing key 'source'" },
	{ "a card left out", "cards.tsv", "\n50\t\t3\t\t\t\t\t\t\t\t\t\t\t\t\t"
	  "rulebook 6.2 (OPS cards 1-3); number and value unverified", "",
	  "1:1", "card #50 is missing" },
	{ "a space in an unknown colony", "spaces.tsv", "\nBoston\tMA\t", "\nBoston\tMX\t",
	  "10:2", "colony: unknown colony 'MX'" },
	{ "a duplicate space", "spaces.tsv", "\nWorcester\tMA\t", "\nBoston\tMA\t",
	  "12:1", "duplicate space 'Boston MA' (first at row 10)" },
	{ "a shape misspelt", "spaces.tsv", "\nPortsmouth\tNH\tcircle", "\nPortsmouth\tNH\tcirlce",
	  "6:3", "shape: unknown shape 'cirlce'" },
	{ "a port missing (rule 12.3)", "spaces.tsv", "\nBarnstable\tMA\tcircle\tyes",
	  "\nBarnstable\tMA\tcircle\t", "zones.tsv:3:2",
	  "ports: space 'Barnstable MA' is not a port" },
	{ "a port too many (rule 12.3)", "spaces.tsv", "\nPortsmouth\tNH\tcircle\t",
	  "\nPortsmouth\tNH\tcircle\tyes", "6:1", "space 'Portsmouth NH' is not a port of rule 12.3" },
	{ "a fortified port not a star (2.1.C)", "spaces.tsv", "\nQuebec\tCA\tstar",
	  "\nQuebec\tCA\tsquare", "2:1", "space 'Quebec' must be a star" },
	{ "a position that is not a number", "spaces.tsv", "\nPortsmouth\tNH\tcircle\t\t934",
	  "\nPortsmouth\tNH\tcircle\t\t93a", "6:5", "x: '93a' is not a whole number" },
	{ "an empty alias", "spaces.tsv", "Ft Detroit; Detroit", "Ft Detroit; ; Detroit",
	  "4:7", "aliases: an empty item" },
	{ "an unknown space in a connection", "connections.tsv", "\nQuebec\tMontreal\t",
	  "\nQuebec\tMontreall\t", "2:2", "to: unknown space 'Montreall'" },
	{ "a connection to itself", "connections.tsv", "\nQuebec\tMontreal\t",
	  "\nQuebec\tQuebec\t", "2:1", "space 'Quebec' is connected to itself" },
	{ "a connection entered both ways (one-way rows)", "connections.tsv",
	  "\nFort Niagara NY\tGenesee NY\t", "\nMontreal\tQuebec\t",
	  "9:1", "duplicate connection 'Montreal' - 'Quebec'" },
	{ "a connection's general misspelt", "connections.tsv", "\tArnold\t", "\tArnod\t",
	  "3:4", "only: unknown general 'Arnod'" },
	{ "a British general on the American side", "generals.tsv", "\nHowe\tbritish",
	  "\nHowe\tamerican", "2:1", "general 'Howe': a British general is on the British side" },
	{ "a rating out of range", "generals.tsv", "\nHowe\tbritish\tbritish\t2",
	  "\nHowe\tbritish\tbritish\t4", "2:4", "strategy" },
	{ "a set-up general moved (rule 4.0)", "setup.tsv", "\tBoston MA\t\tHowe",
	  "\tBoston MA\t\tClinton", "1:1", "set-up of rule 4.0: no line for Boston MA, general Howe" },
	{ "a set-up count changed (rule 4.0)", "setup.tsv", "\tBoston MA\t\tHowe\t5",
	  "\tBoston MA\t\tHowe\t4", "5:1", "set-up line not in rule 4.0" },
	{ "a year out of order", "turns.tsv", "\n1777\t", "\n1778\t",
	  "4:1", "expected year 1777" },
	{ "an unknown row of numbers.tsv", "numbers.tsv", "\npc_markers\t", "\npc_marker\t",
	  "5:1", "what: unknown 'pc_marker'" },
	{ "a nation on a count that has none", "numbers.tsv", "\npc_markers\t\t", "\npc_markers\tfrench\t",
	  "5:2", "nation: 'pc_markers' has no nation" },
	{ "a column header misspelt", "cards.tsv", "\ttitle\t", "\ttitel\t",
	  "1:2", "unknown column 'titel'" },
	{ "a column missing", "turns.tsv", "\tsource\n", "\n",
	  "1:1", "missing column 'source'" },
	{ "a quote never closed", "colonies.tsv", "\nCanada\t", "\n\"Canada\t",
	  "2:1", "a cell opens a double quote it never closes" },
	{ "a control character", "colonies.tsv", "\nCanada\t", "\nCan\001ada\t",
	  "2:1", "name: a control character in the cell" },
	{ "a value past the last column", "turns.tsv", "reinforcements unverified\n",
	  "reinforcements unverified\textra\n", "2:4", "a value in a column without a known header ('extra')" },
	{ "a zone's port misspelt", "zones.tsv", "Boston MA;", "Bostn MA;",
	  "3:2", "ports: unknown space 'Bostn MA'" },
	{ "a colony code twice", "colonies.tsv", "\tNH\t", "\tMA\t",
	  "4:1", "duplicate colony 'Massachusetts'" },
};

static void test_mistakes(void **state)
{
	int kinds = 0, failed = 0;

	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(mistakes); m++) {
		const struct mistake *x = &mistakes[m];
		struct strbuf s[DATA_N_SHEETS], y[DATA_N_FILES], errs = STRBUF_INIT;
		struct strbuf t = STRBUF_INIT;
		int i = sheet_index(x->sheet);
		const char *hit;
		char *want;

		copy_sheets(s);
		hit = strstr(s[i].buf, x->from);
		if (!hit)
			fail_msg("%s: '%s' is not in %s", x->what, x->from, x->sheet);
		strbuf_add(&t, s[i].buf, (size_t)(hit - s[i].buf));
		strbuf_addstr(&t, x->to);
		strbuf_addstr(&t, hit + strlen(x->from));
		strbuf_reset(&s[i]);
		strbuf_addstr(&s[i], t.buf);
		if (import(s, y, &errs) == 0)
			fail_msg("%s: imported without a problem", x->what);
		/* where: "ROW:COL" in the sheet changed, or "SHEET:ROW:COL" */
		want = strstr(x->where, ".tsv:") ? xstrfmt("sheets/%s: ", x->where)
			: xstrfmt("sheets/%s:%s: ", x->sheet, x->where);
		{
			bool found = false;
			for (const char *p = errs.buf; *p && !found;) {
				size_t n = strcspn(p, "\n");
				char *line = xstrndup(p, n);
				if (!strncmp(line, want, strlen(want)) && strstr(line, x->says))
					found = true;
				free(line);
				p += n + (p[n] == '\n');
			}
			if (!found) {
				print_error("%s: no line '%s...%s' in:\n%s", x->what, want,
					    x->says, errs.buf);
				failed++;
			}
		}
		kinds++;
		free(want);
		strbuf_release(&t);
		strbuf_release(&errs);
		release(s, DATA_N_SHEETS);
		release(y, DATA_N_FILES);
	}
	assert_int_equal(failed, 0);
	assert_true(kinds >= 30);
}

/* All the problems at once: three mistakes in three sheets, three lines. */
static void test_all_at_once(void **state)
{
	struct strbuf s[DATA_N_SHEETS], y[DATA_N_FILES], errs = STRBUF_INIT;
	int n;

	(void)state;
	copy_sheets(s);
	*strstr(s[sheet_index("cards.tsv")].buf, "\n2\t\t1\t") = '\n';
	strstr(s[sheet_index("cards.tsv")].buf, "\n2\t\t1\t")[4] = 'x';
	strstr(s[sheet_index("turns.tsv")].buf, "\n1777\t")[3] = 'x';
	strstr(s[sheet_index("connections.tsv")].buf, "\tMontreal\t")[8] = 'x';
	n = import(s, y, &errs);
	assert_int_equal(n, 3);
	assert_non_null(strstr(errs.buf, "sheets/cards.tsv:3:3: ops: 'x'"));
	assert_non_null(strstr(errs.buf, "sheets/turns.tsv:4:1: year: '17x7' is not a whole number"));
	assert_non_null(strstr(errs.buf, "sheets/connections.tsv:2:2: to: unknown space 'Montreax'"));
	release(s, DATA_N_SHEETS);
	release(y, DATA_N_FILES);
	strbuf_release(&errs);
}

/* A fixed-seed run of random mutations over the sheets: bytes changed,
 * cut, doubled, tabs and quotes added, rows dropped. Each import ends in
 * either problems or a valid data set, never a crash. */
static void test_mutations(void **state)
{
	static const char noise[] = "\t\"\n;{}[],:#-0123456789xyz'\\ \r\001\377";
	uint64_t seed = 0x9e3779b97f4a7c15u;
	int refused = 0, valid = 0;

	(void)state;
	for (int run = 0; run < 400; run++) {
		struct strbuf s[DATA_N_SHEETS], y[DATA_N_FILES], errs = STRBUF_INIT;
		int k;

		copy_sheets(s);
		for (int m = 0; m < 1 + run % 4; m++) {
			struct strbuf *t;
			size_t at;

			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			k = (int)(seed % DATA_N_SHEETS);
			t = &s[k];
			if (!t->len)
				continue;
			at = (size_t)(seed >> 8) % t->len;
			switch ((seed >> 40) % 5) {
			case 0:
				t->buf[at] = noise[(seed >> 20) % (sizeof(noise) - 1)];
				break;
			case 1:
				t->len = at, t->buf[at] = '\0';
				break;
			case 2: {
				struct strbuf c = STRBUF_INIT;
				strbuf_add(&c, t->buf, at);
				strbuf_addch(&c, noise[(seed >> 24) % (sizeof(noise) - 1)]);
				strbuf_addstr(&c, t->buf + at);
				strbuf_reset(t);
				strbuf_add(t, c.buf, c.len);
				strbuf_release(&c);
				break;
			}
			case 3: {	/* drop a row */
				char *nl = strchr(t->buf + at, '\n'), *b = t->buf + at;
				while (b > t->buf && b[-1] != '\n')
					b--;
				if (nl)
					memmove(b, nl + 1, strlen(nl + 1) + 1), t->len = strlen(t->buf);
				break;
			}
			default: {	/* double a row */
				char *nl = strchr(t->buf + at, '\n'), *b = t->buf + at;
				struct strbuf c = STRBUF_INIT;
				while (b > t->buf && b[-1] != '\n')
					b--;
				if (!nl)
					break;
				strbuf_add(&c, t->buf, (size_t)(nl + 1 - t->buf));
				strbuf_add(&c, b, (size_t)(nl + 1 - b));
				strbuf_addstr(&c, nl + 1);
				strbuf_reset(t);
				strbuf_add(t, c.buf, c.len);
				strbuf_release(&c);
			}
			}
		}
		if (import(s, y, &errs)) {
			refused++;
			assert_true(errs.len > 0);
		} else {
			struct data *d = data_load_texts("data", "x", y, &errs);
			assert_non_null(d);
			data_free(d);
			valid++;
			release(y, DATA_N_FILES);
			for (int i = 0; i < DATA_N_FILES; i++)
				strbuf_init(&y[i]);
		}
		release(s, DATA_N_SHEETS);
		release(y, DATA_N_FILES);
		strbuf_release(&errs);
	}
	print_message("mutations: %d refused, %d imported, 0 crashed\n", refused, valid);
	assert_true(refused > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_spreadsheet_habits),
		cmocka_unit_test(test_mistakes),
		cmocka_unit_test(test_all_at_once),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests_name("sheet", tests, setup, teardown);
}
