/*
 * test_catalog.c - the index of a folder of games (catalog.h): what it
 * keeps of a game comes back from the file field for field (escapes
 * included), a second run reads no game again, a changed game is read
 * again, the key reads a packed ref as libgit2 does, and a damaged file
 * is not believed. Games are real ones, made by `postrider new` in a
 * temporary folder. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "cmd.h"
#include "game_fixture.h"

#define SEED "2222222222222222222222222222222222222222222222222222222222222222"

static char *root;

static void new_game(const char *name, const char *american)
{
	char *dir = xstrfmt("%s/%s", root, name), *am = xstrdup(american);
	char *argv[] = { (char[]){"new"}, dir, (char[]){"--american"}, am,
			 (char[]){"--british"}, (char[]){"Banastre <banastre@example.org>"},
			 (char[]){"--seed"}, (char[]){SEED}, NULL };
	int saved = dup(1);

	assert_non_null(freopen("/dev/null", "w", stdout));
	int ret = cmd_new_entry.exec(8, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(ret, 0);
	free(dir);
	free(am);
}

static int setup(void **state)
{
	(void)state;
	fixture_begin("test_catalog");
	root = xstrfmt("%s/club", fixture_root);
	assert_int_equal(mkdir_p(root), 0);
	new_game("a", "Abigail Adams <abigail@example.org>");
	new_game("b", "Benjamin <benjamin@example.org>");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(root);
	fixture_end();
	return 0;
}

static void same_summary(const struct catalog_summary *a, const struct catalog_summary *b)
{
	assert_string_equal(a->id, b->id);
	assert_string_equal(a->american, b->american);
	assert_string_equal(a->british, b->british);
	assert_int_equal(a->year, b->year);
	assert_int_equal(a->seq, b->seq);
	assert_int_equal(a->side, b->side);
	assert_int_equal(a->since, b->since);
	assert_string_equal(a->prompt, b->prompt);
	assert_string_equal(a->result, b->result);
	assert_int_equal(a->secret, b->secret);
	assert_int_equal(a->deadline, b->deadline);
	assert_int_equal(a->due, b->due);
	assert_int_equal(a->warned, b->warned);
	assert_int_equal(a->late, b->late);
}

/* The index against every game read, entry by entry. */
static void agrees(const struct catalog *c)
{
	struct catalog truth;
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(catalog_open(root, CATALOG_NO_FILE, &truth, &err), 0);
	assert_int_equal(truth.n, c->n);
	for (size_t i = 0; i < c->n; i++) {
		assert_string_equal(truth.e[i].name, c->e[i].name);
		assert_true(c->e[i].sound);
		same_summary(&truth.e[i].sum, &c->e[i].sum);
	}
	catalog_release(&truth);
	strbuf_release(&err);
}

static void round_trip_and_reuse(void **state)
{
	struct catalog c;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	assert_int_equal(catalog_open(root, 0, &c, &err), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.reread, 2);
	assert_true(c.saved);
	assert_string_equal(c.e[0].sum.american, "Abigail Adams");
	catalog_release(&c);

	assert_int_equal(catalog_open(root, 0, &c, &err), 0);
	assert_true(c.file_ok);
	assert_int_equal(c.reread, 0);
	assert_false(c.saved);	/* nothing changed: not written */
	assert_false(c.e[0].fresh);
	agrees(&c);
	catalog_release(&c);

	assert_int_equal(catalog_open(root, CATALOG_REBUILD, &c, &err), 0);
	assert_int_equal(c.reread, 2);
	catalog_release(&c);
	strbuf_release(&err);
}

static void stale_entries_are_read_again(void **state)
{
	struct catalog c;
	struct strbuf err = STRBUF_INIT;
	char *cmd;
	(void)state;

	assert_int_equal(catalog_open(root, 0, &c, &err), 0);
	catalog_release(&c);
	/* the host's clock changes: a deadline set by hand */
	cmd = xstrfmt("sed -i 's/^deadline: 0$/deadline: 86400/' '%s/b/.git/postrider/clock.yaml'", root);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(catalog_open(root, 0, &c, &err), 0);
	assert_int_equal(c.reread, 1);
	assert_true(c.e[1].fresh);
	assert_int_equal(c.e[1].sum.deadline, 86400);
	assert_int_equal(c.e[1].sum.due, 1700000000 + 86400);
	agrees(&c);
	catalog_release(&c);
	strbuf_release(&err);
}

static void key_reads_packed_refs(void **state)
{
	char loose[CATALOG_KEY_SIZE], packed[CATALOG_KEY_SIZE], *dir, *cmd;
	(void)state;

	dir = xstrfmt("%s/a", root);
	assert_int_equal(catalog_key(dir, loose), 0);
	assert_int_equal(strlen(loose) > 41, 1);
	assert_int_equal(loose[40], '+');
	cmd = xstrfmt("git -C '%s' pack-refs --all", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(catalog_key(dir, packed), 0);
	assert_string_equal(loose, packed);
	/* HEAD off main: no cheap key, always read again */
	cmd = xstrfmt("git -C '%s' checkout -q --detach", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(catalog_key(dir, packed), -1);
	assert_string_equal(packed, "");
	cmd = xstrfmt("git -C '%s' checkout -q main", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

static void damaged_file_is_not_believed(void **state)
{
	struct catalog c;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	char *path = xstrfmt("%s/%s", root, CATALOG_FILE), *p;
	(void)state;

	assert_int_equal(catalog_open(root, 0, &c, &err), 0);
	catalog_release(&c);
	assert_int_equal(read_file(path, &text, 1 << 20), 0);
	p = strstr(text.buf, "Benjamin");
	assert_non_null(p);
	*p = 'X';	/* one byte, the checksum left as it was */
	assert_int_equal(write_file_atomic(path, text.buf, text.len), 0);
	assert_int_equal(catalog_open(root, 0, &c, &err), 0);
	assert_false(c.file_ok);
	assert_int_equal(c.reread, 2);
	assert_string_equal(c.e[1].sum.american, "Benjamin");
	agrees(&c);
	catalog_release(&c);
	free(path);
	strbuf_release(&text);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_and_reuse),
		cmocka_unit_test(stale_entries_are_read_again),
		cmocka_unit_test(key_reads_packed_refs),
		cmocka_unit_test(damaged_file_is_not_believed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
