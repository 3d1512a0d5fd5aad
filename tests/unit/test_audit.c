/*
 * test_audit.c - the auditor as a library (audit.h), commit kind by
 * commit kind: a new game's first commit, a plain turn, a turn with dice,
 * a shuffle (with the seed and, on a player's clone, without), an undo, a
 * resignation and its reveal, an abandon, and tampered commits that must
 * be refused with the commit and the reason named. The games are real
 * ones, made and played by the commands (`new`, `play --as`, `reveal`) in
 * a temporary folder; the tampering is done with git. Run from the
 * repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "turn.h"
#include "cmd.h"
#include "game.h"
#include "game_fixture.h"



/* Runs a command as main would, its output in fixture_root/out; the status. */
static int run(const struct cmd_entry *e, int argc, char **argv)
{
	char *out = xstrfmt("%s/out", fixture_root);
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int saved1 = dup(1), saved2 = dup(2), ret;

	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	ret = e->exec(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved1, 1);
	dup2(saved2, 2);
	close(saved1);
	close(saved2);
	free(out);
	return ret;
}

/* What the last run() printed (to free). */
static char *output(void)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/out", fixture_root);

	assert_int_equal(read_file(path, &sb, 1 << 20), 0);
	free(path);
	return strbuf_detach(&sb, NULL);
}

static void sh(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void sh(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	strbuf_addstr(&cmd, " >/dev/null 2>&1");
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
}

/* A new game of the fairness version in a fresh folder. */
static void new_game(const char *fairness)
{
	assert_int_equal(fixture_new_game(fairness), 0);
}

static int setup(void **state)
{
	(void)state;
	fixture_begin("test_audit");
	setenv("HOME", fixture_root, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_AUTHOR_NAME", "Tamperer", 1);
	setenv("GIT_AUTHOR_EMAIL", "t@example.org", 1);
	setenv("GIT_COMMITTER_NAME", "Tamperer", 1);
	setenv("GIT_COMMITTER_EMAIL", "t@example.org", 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fixture_end();
	return 0;
}

/* Plays text as side ("american", "british"); the exit status. */
static int play_as(const char *side, const char *text)
{
	char *path = xstrfmt("%s/order", fixture_root);
	FILE *f = fopen(path, "w");
	char *side_arg = xstrdup(side);
	char *argv[] = { (char[]){"play"}, fixture_dir, (char[]){"--as"}, side_arg, path, NULL };
	int ret;

	fputs(text, f);
	fclose(f);
	ret = run(&cmd_play_entry, 5, argv);
	free(side_arg);
	free(path);
	return ret;
}

/* Plays the first legal order of the side to move (`options --plain`);
 * false when the game is over. */
static bool play_first_legal(void)
{
	char *argv[] = { (char[]){"options"}, fixture_dir, (char[]){"--plain"}, NULL };
	char *out, *nl, *order;

	assert_int_equal(run(&cmd_options_entry, 3, argv), 0);
	out = output();
	nl = strchr(out, '\n');
	assert_non_null(nl);
	*nl = '\0';
	if (!strcmp(out, "none")) {
		free(out);
		return false;
	}
	order = xstrndup(nl + 1, strcspn(nl + 1, "\n"));
	char *text = xstrfmt("%s\n", order);
	assert_int_equal(play_as(out, text), 0);
	free(text);
	free(order);
	free(out);
	return true;
}

/* The first order `options --plain` lists for the side to move that
 * starts with prefix and ends with suffix (to free). */
static char *option_like(const char *prefix, const char *suffix)
{
	char *argv[] = { (char[]){"options"}, fixture_dir, (char[]){"--plain"}, NULL };
	char *out, *found = NULL;

	assert_int_equal(run(&cmd_options_entry, 3, argv), 0);
	out = output();
	for (char *p = strchr(out, '\n'); p && *p && !found; p = strchr(p, '\n')) {
		size_t n = strcspn(++p, "\n"), k = strlen(suffix);
		if (!strncmp(p, prefix, strlen(prefix)) && n >= k && !strncmp(p + n - k, suffix, k))
			found = xstrndup(p, n);
	}
	free(out);
	assert_non_null(found);
	return found;
}

/* Plays first legal orders until log.txt holds needle; the orders played. */
static int play_until(const char *needle, int limit)
{
	char *path = xstrfmt("%s/log.txt", fixture_dir);
	int n = 0;

	for (;;) {
		struct strbuf log = STRBUF_INIT;
		assert_int_equal(read_file(path, &log, 1 << 24), 0);
		bool found = strstr(log.buf, needle) != NULL;
		strbuf_release(&log);
		if (found)
			break;
		assert_true(n < limit);
		assert_true(play_first_legal());
		n++;
	}
	free(path);
	return n;
}

/* Audits the game in d (the host's copy: with the seed, if it is there):
 * audit_game()'s result, the report left in r. */
static int audit_dir(const char *d, struct audit_report *r)
{
	struct game g;
	struct strbuf err = STRBUF_INIT;
	int ret;

	memset(&g, 0, sizeof(g));
	if (game_open(d, &g, 0, &err) != 0)
		fail_msg("%s does not open: %s", d, err.buf);
	audit_report_init(r);
	ret = audit_game(&g, r);
	game_close(&g);
	strbuf_release(&err);
	return ret;
}

static void first_commit(void **state)
{
	struct audit_report r;
	(void)state;

	new_game("2");
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_int_equal(r.n, 1);
	assert_true(r.public_passed);
	assert_true(r.replayed);
	assert_false(r.fixed);
	assert_int_equal(r.dice, 0);
	assert_int_equal(r.why.len, 0);
	audit_report_release(&r);

	/* the command: verified, but a seed given to new is not fair, with
	 * a status of its own (3 is mail not sent; issue 31) */
	char *argv[] = { (char[]){"audit"}, fixture_dir, NULL };
	assert_int_not_equal(EXIT_NOT_FAIR, EXIT_UNSENT);
	assert_int_equal(run(&cmd_audit_entry, 2, argv), 4);
	char *out = output();
	assert_non_null(strstr(out, "verified: 1 commits\n"));
	assert_non_null(strstr(out, "not a fair game: the seed was given by the host"));
	free(out);
}

static void plain_turn(void **state)
{
	struct audit_report r;
	(void)state;

	new_game("2");
	assert_true(play_first_legal());
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_int_equal(r.n, 2);
	assert_true(r.replayed);
	assert_int_equal(r.dice, 0);
	audit_report_release(&r);
}

/* A die of version 2: its proof checked without the seed, explained by
 * audit_turn() with its value and rule; a die changed in the log is
 * refused by its proof. */
static void turn_with_dice(void **state)
{
	struct audit_report r;
	struct audit_turn t;
	struct game g;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	/* Howe enters Providence, Greene intercepts (7.8.A): a die */
	new_game("2");
	play_until(": shuffle of ", 100);
	assert_true(play_first_legal());
	assert_int_equal(play_as("american", "first british\n"), 0);
	char *move = option_like("move ", " Howe"), *text = xstrfmt("%s\nto Providence\n", move);
	assert_int_equal(play_as("british", text), 0);
	free(move);
	free(text);
	assert_int_equal(play_as("american", "intercept Greene\n"), 0);
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_true(r.dice >= 1);
	size_t n = r.n;

	/* the die's order: the last one */
	memset(&g, 0, sizeof(g));
	assert_int_equal(game_open(fixture_dir, &g, 0, &err), 0);
	audit_turn_init(&t);
	assert_int_equal(audit_turn(&g, &r, g.state.seq, &t), 0);
	assert_int_equal(t.at, n - 1);
	assert_true(t.has_order);
	assert_true(t.n_draws >= 1);
	const struct audit_turn_draw *d = &t.draws[t.n_draws - 1];
	assert_false(d->shuffle);
	assert_true(d->value >= 1 && d->value <= 6);
	assert_non_null(strstr(t.log.buf, ": d6 -> "));
	assert_string_equal(d->rule, "rule 7.8.A");
	audit_turn_release(&t);
	assert_int_equal(audit_turn(&g, &r, 100000, &t), 1);
	audit_turn_release(&t);
	game_close(&g);
	audit_report_release(&r);

	/* another value for the die, in a rewritten last commit (the
	 * first die of the game is in it): a player's clone finds it by
	 * the proof, the host's copy by the replay */
	sh("cd '%s' && sed -i 's/: d6 -> \\([1-6]\\)/: d6 -> X\\1/' log.txt && "
	   "sed -i 's/d6 -> X1/d6 -> 2/; s/d6 -> X[2-6]/d6 -> 1/' log.txt && "
	   "git commit -q -a --amend --no-edit", fixture_dir);
	assert_int_equal(audit_dir(fixture_dir, &r), 1);
	assert_int_equal(r.at, n - 1);
	assert_non_null(strstr(r.why.buf, "log.txt differs from the replay"));
	audit_report_release(&r);
	char *clone = xstrfmt("%s/clone", fixture_root);
	sh("git clone -q '%s' '%s'", fixture_dir, clone);
	assert_int_equal(audit_dir(clone, &r), 1);
	assert_false(r.public_passed);
	assert_int_equal(r.at, n - 1);
	assert_non_null(strstr(r.why.buf, "but its proof gives"));
	free(clone);
	audit_report_release(&r);
	strbuf_release(&err);
}

/* The first shuffle: replayed with the seed; on a player's clone,
 * counted and left for the end. */
static void shuffle(void **state)
{
	struct audit_report r;
	(void)state;

	new_game("2");
	play_until(": shuffle of ", 100);
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_true(r.shuffles >= 1);
	assert_true(r.replayed);
	audit_report_release(&r);

	char *clone = xstrfmt("%s/clone", fixture_root);
	sh("git clone -q '%s' '%s'", fixture_dir, clone);
	assert_int_equal(audit_dir(clone, &r), 0);
	assert_true(r.public_passed);
	assert_false(r.replayed);
	assert_true(r.shuffles >= 1);
	audit_report_release(&r);
	free(clone);
}

static void undo(void **state)
{
	struct audit_report r;
	(void)state;

	new_game("2");
	assert_true(play_first_legal());
	assert_int_equal(play_as("american", "undo\n"), 0);
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_int_equal(r.n, 3);
	assert_true(r.replayed);
	audit_report_release(&r);

	/* an undo of an undo is no kind of commit: written by hand into the
	 * history, with state files that fit it, the replay refuses it */
	struct game g;
	struct strbuf err = STRBUF_INIT, yaml = STRBUF_INIT, sealed = STRBUF_INIT;
	memset(&g, 0, sizeof(g));
	assert_int_equal(game_open(fixture_dir, &g, GAME_NEED_SECRET, &err), 0);
	g.state.seq++;
	g.state.orders[SIDE_AMERICAN]++;
	assert_int_equal(game_state_files(&g, &g.state, &yaml, &sealed), 0);
	char *path = xstrfmt("%s/state.yaml", fixture_dir);
	assert_int_equal(write_file_atomic(path, yaml.buf, yaml.len), 0);
	free(path);
	path = xstrfmt("%s/private/state.sealed", fixture_dir);
	assert_int_equal(write_file_atomic(path, sealed.buf, sealed.len), 0);
	free(path);
	/* and its log: the heading and the host's mark an undo typed with
	 * --as has (docs/fairness.md 16c), which the public checks read */
	strbuf_reset(&yaml);
	path = xstrfmt("%s/log.txt", fixture_dir);
	assert_int_equal(read_file(path, &yaml, 1 << 20), 0);
	strbuf_addf(&yaml, "\n-- %d, order %u (American) --\n", g.state.year, g.state.seq);
	turn_mark_host(&yaml, SIDE_AMERICAN, false);
	strbuf_addf(&yaml, "The American takes back order %u: the game is as it was before it.\n",
		    g.state.seq - 1);
	assert_int_equal(write_file_atomic(path, yaml.buf, yaml.len), 0);
	free(path);
	game_close(&g);
	strbuf_release(&err);
	strbuf_release(&yaml);
	strbuf_release(&sealed);
	sh("cd '%s' && cp orders/0002-american.txt orders/0003-american.txt && "
	   "git add orders && git commit -q -a -C HEAD", fixture_dir);
	assert_int_equal(audit_dir(fixture_dir, &r), 1);
	assert_true(r.public_passed);
	assert_int_equal(r.at, 3);
	assert_non_null(strstr(r.why.buf, "there is no order to take back"));
	audit_report_release(&r);
}

static void resign_and_reveal(void **state)
{
	struct audit_report r;
	char *argv[] = { (char[]){"reveal"}, fixture_dir, NULL };
	(void)state;

	new_game("2");
	assert_int_equal(play_as("british", "resign confirm\n"), 0);
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_int_equal(r.n, 2);
	audit_report_release(&r);
	assert_int_equal(run(&cmd_reveal_entry, 2, argv), 0);
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_int_equal(r.n, 3);
	assert_true(r.replayed);
	audit_report_release(&r);

	/* a reveal that also changes the state is refused */
	sh("cd '%s' && sed -i 's/^year: 1775$/year: 1776/' state.yaml && "
	   "git commit -q -a --amend --no-edit", fixture_dir);
	assert_int_equal(audit_dir(fixture_dir, &r), 1);
	assert_int_equal(r.at, 2);
	assert_non_null(strstr(r.why.buf, "state.yaml"));
	audit_report_release(&r);
}

static void abandon(void **state)
{
	struct audit_report r;
	char *argv[] = { (char[]){"reveal"}, (char[]){"--abandon"}, fixture_dir, NULL };
	(void)state;

	new_game("1");
	assert_true(play_first_legal());
	assert_int_equal(run(&cmd_reveal_entry, 3, argv), 0);
	assert_int_equal(audit_dir(fixture_dir, &r), 0);
	assert_int_equal(r.n, 3);
	assert_true(r.replayed);
	audit_report_release(&r);
}

/* Tampered commits: refused, the commit and the reason named. */
static void tampered(void **state)
{
	struct audit_report r;
	(void)state;

	new_game("2");
	for (int i = 0; i < 3; i++)
		assert_true(play_first_legal());
	sh("git -C '%s' tag orig", fixture_dir);

	/* a file no order may add: found without the seed */
	sh("cd '%s' && echo x >extra.txt && git add extra.txt && "
	   "git commit -q --amend --no-edit", fixture_dir);
	assert_int_equal(audit_dir(fixture_dir, &r), 1);
	assert_int_equal(r.at, 3);
	assert_false(r.public_passed);
	assert_non_null(strstr(r.why.buf, "adds extra.txt, which no order may add"));
	audit_report_release(&r);

	/* a state the order did not make: found by the replay */
	sh("cd '%s' && git rm -q extra.txt && "
	   "sed -i 's/^year: 1775$/year: 1776/' state.yaml && "
	   "git commit -q -a --amend --no-edit", fixture_dir);
	assert_int_equal(audit_dir(fixture_dir, &r), 1);
	assert_true(r.public_passed);
	assert_false(r.replayed);
	assert_int_equal(r.at, 3);
	assert_non_null(strstr(r.why.buf, "state.yaml differs from the replay"));
	audit_report_release(&r);

	/* a commit cut from the middle: the order numbers jump */
	sh("cd '%s' && git reset -q --hard HEAD~2 && git checkout -q orig -- . && "
	   "git commit -q -C orig", fixture_dir);
	assert_int_equal(audit_dir(fixture_dir, &r), 1);
	assert_int_equal(r.at, 2);
	assert_non_null(strstr(r.why.buf, "the order number jumps from 1 to 3"));
	audit_report_release(&r);
}

/* audit_mail(): reports of this game name commits of the history. */
static void mail_reports(void **state)
{
	struct game g;
	struct strbuf err = STRBUF_INIT;
	struct audit_report r;
	struct audit_mail m;
	(void)state;

	new_game("2");
	assert_true(play_first_legal());
	memset(&g, 0, sizeof(g));
	assert_int_equal(game_open(fixture_dir, &g, 0, &err), 0);
	audit_report_init(&r);
	audit_mail_init(&m);
	char *outbox = xstrfmt("%s/.git/postrider/outbox", fixture_dir);
	assert_int_equal(audit_mail(&g, &r, outbox, &m), AUDIT_MAIL_OK);
	assert_int_equal(m.reports, 4);
	audit_mail_release(&m);
	audit_mail_init(&m);
	assert_int_equal(audit_mail(&g, &r, fixture_root, &m), AUDIT_MAIL_NONE);
	audit_mail_release(&m);
	audit_mail_init(&m);
	char *none = xstrfmt("%s/no-such-folder", fixture_root);
	assert_int_equal(audit_mail(&g, &r, none, &m), AUDIT_MAIL_UNREADABLE);
	audit_mail_release(&m);
	/* the history cut short after the reports were sent */
	game_close(&g);
	audit_report_release(&r);
	sh("git -C '%s' reset -q --hard HEAD~1", fixture_dir);
	memset(&g, 0, sizeof(g));
	assert_int_equal(game_open(fixture_dir, &g, 0, &err), 0);
	audit_report_init(&r);
	audit_mail_init(&m);
	assert_int_equal(audit_mail(&g, &r, outbox, &m), AUDIT_MAIL_DIFFERS);
	assert_non_null(strstr(m.why.buf, "which is not in the history"));
	audit_mail_release(&m);
	audit_report_release(&r);
	game_close(&g);
	free(outbox);
	free(none);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(first_commit, setup, teardown),
		cmocka_unit_test_setup_teardown(plain_turn, setup, teardown),
		cmocka_unit_test_setup_teardown(turn_with_dice, setup, teardown),
		cmocka_unit_test_setup_teardown(shuffle, setup, teardown),
		cmocka_unit_test_setup_teardown(undo, setup, teardown),
		cmocka_unit_test_setup_teardown(resign_and_reveal, setup, teardown),
		cmocka_unit_test_setup_teardown(abandon, setup, teardown),
		cmocka_unit_test_setup_teardown(tampered, setup, teardown),
		cmocka_unit_test_setup_teardown(mail_reports, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
