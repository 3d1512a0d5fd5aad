/*
 * test_outbox.c - what the outbox keeps of the mail it sent
 * (outbox_prune(), src/outbox.c): two weeks of it, at least the last 20
 * messages, and never a message not sent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outbox.h"

#define NOW 1700000000LL
#define DAY 86400LL

static char dir[64];

static int make_outbox(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/postrider-outbox.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return 0;
}

static int remove_outbox(void **state)
{
	(void)state;
	return remove_tree(dir, false);
}

/* A file SUB/NAME in the outbox, written `age` seconds before NOW. */
static void file_at(const char *sub, const char *name, long long age)
{
	char *folder = xstrfmt("%s/%s", dir, sub), *path = xstrfmt("%s/%s", folder, name);
	struct timespec times[2] = { { NOW - age, 0 }, { NOW - age, 0 } };
	FILE *f;

	assert_int_equal(mkdir_p(folder), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("Subject: a report\r\n\r\ntext\r\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
	free(folder);
	free(path);
}

static int count(const char *sub)
{
	char *path = xstrfmt("%s/%s", dir, sub);
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	free(path);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static bool has(const char *sub, const char *name)
{
	char *path = xstrfmt("%s/%s/%s", dir, sub, name);
	bool r = access(path, F_OK) == 0;

	free(path);
	return r;
}

/* 30 sent messages, a day apart: the last two weeks' stay (15: day 0 to
 * 14), and the last 20 however old; the 10 oldest go. The unsent, the
 * refused and the dropped are never touched, however old. */
static void test_two_weeks_and_the_last_20(void **state)
{
	struct strbuf report = STRBUF_INIT;
	char name[96];

	(void)state;
	for (int k = 0; k < 30; k++) {
		snprintf(name, sizeof(name), "%040d-%04d-american.1:2,S", k, k);
		file_at("cur", name, (29 - k) * DAY);
	}
	file_at("new", "waiting-0001-british.1", 90 * DAY);
	file_at("failed", "refused-0001-british.1", 90 * DAY);
	file_at("dropped", "undone-0001-british.1", 90 * DAY);
	assert_int_equal(outbox_prune(dir, NOW, &report), 10);
	assert_string_equal(report.buf, "");
	assert_int_equal(count("cur"), 20);
	snprintf(name, sizeof(name), "%040d-%04d-american.1:2,S", 9, 9);
	assert_false(has("cur", name));
	snprintf(name, sizeof(name), "%040d-%04d-american.1:2,S", 10, 10);
	assert_true(has("cur", name));	/* 19 days old, but of the last 20 */
	assert_int_equal(count("new"), 1);
	assert_int_equal(count("failed"), 1);
	assert_int_equal(count("dropped"), 1);
	/* once is enough: nothing more to delete */
	assert_int_equal(outbox_prune(dir, NOW, &report), 0);
	strbuf_release(&report);
}

/* A busy fortnight: 50 messages, all within two weeks, all kept. */
static void test_recent_kept(void **state)
{
	struct strbuf report = STRBUF_INIT;
	char name[64];

	(void)state;
	for (int k = 0; k < 50; k++) {
		snprintf(name, sizeof(name), "answer-%04d-british.1:2,S", k);
		file_at("cur", name, k * 6 * 3600);
	}
	assert_int_equal(outbox_prune(dir, NOW, &report), 0);
	assert_int_equal(count("cur"), 50);
	strbuf_release(&report);
}

/* No cur/ yet (nothing ever sent): nothing to do, no error. */
static void test_nothing_sent(void **state)
{
	struct strbuf report = STRBUF_INIT;

	(void)state;
	assert_int_equal(outbox_prune(dir, NOW, &report), 0);
	strbuf_release(&report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_weeks_and_the_last_20, make_outbox, remove_outbox),
		cmocka_unit_test_setup_teardown(test_recent_kept, make_outbox, remove_outbox),
		cmocka_unit_test_setup_teardown(test_nothing_sent, make_outbox, remove_outbox),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
