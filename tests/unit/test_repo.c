/*
 * test_repo.c - the git layer against real repositories in /tmp, checked
 * with the real git command line (fsck, status, am).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "publish.h"
#include "repo.h"

/* The identities and times of the fixture commits. */
static const struct repo_ident player = {
	"Benjamin Franklin", "franklin@example.org", 1112911993, -300
};
static const struct repo_ident host = {
	"postrider host", "host@example.net", 1112912000, 60
};

static char *tmp_root;	/* a fresh folder per test, removed afterwards */

/* Runs a shell command formatted from fmt; returns its exit status. */
PRINTF_LIKE(1, 2)
static int run(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	int st;

	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	st = system(strbuf_str(&cmd));
	strbuf_release(&cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs a shell command and returns its standard output (caller frees). */
PRINTF_LIKE(1, 2)
static char *capture(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	char buf[4096];
	size_t n;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	f = popen(strbuf_str(&cmd), "r");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&out, buf, n);
	assert_int_equal(pclose(f), 0);
	strbuf_release(&cmd);
	strbuf_addstr(&out, "");
	return strbuf_detach(&out, NULL);
}

/* The output of a command without its final newline. */
#define capture_line(...) chomp(capture(__VA_ARGS__))
static char *chomp(char *s)
{
	size_t len = strlen(s);

	while (len && s[len - 1] == '\n')
		s[--len] = '\0';
	return s;
}

static int group_setup(void **state)
{
	(void)state;
	/* git and libgit2 read no user or system configuration */
	setenv("HOME", "/nonexistent-postrider-home", 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_AUTHOR_NAME", "postrider host", 1);
	setenv("GIT_AUTHOR_EMAIL", "host@example.net", 1);
	setenv("GIT_COMMITTER_NAME", "postrider host", 1);
	setenv("GIT_COMMITTER_EMAIL", "host@example.net", 1);
	setenv("GIT_COMMITTER_DATE", "1112912000 +0100", 1);
	setenv("GIT_AUTHOR_DATE", "1112912000 +0100", 1);
	setenv("TZ", "UTC", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	repo_global_init();
	repo_set_durable(false);	/* throwaway repositories */
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	repo_global_shutdown();
	return 0;
}

static int setup(void **state)
{
	char tmpl[] = "/tmp/postrider-test-repo-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	tmp_root = xstrdup(tmpl);
	setenv("HOME", tmp_root, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	run("chmod -R u+rwx '%s' && rm -rf '%s'", tmp_root, tmp_root);
	free(tmp_root);
	tmp_root = NULL;
	return 0;
}

/* A path under the test's folder (caller frees). */
static char *tpath(const char *name)
{
	return xstrfmt("%s/%s", tmp_root, name);
}

/* Reads path at rev into a new string (asserts it exists; caller frees). */
static char *read_at(struct repo *r, const char *rev, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(repo_read(r, rev, path, &sb), 0);
	strbuf_addstr(&sb, "");
	return strbuf_detach(&sb, NULL);
}

static void assert_fsck_clean(const char *dir)
{
	char *fsck = capture("git -C '%s' fsck --strict --no-dangling 2>&1", dir);

	assert_string_equal(fsck, "");
	free(fsck);
}

/* fsck finds nothing wrong and the index and work tree match HEAD. */
static void assert_git_clean(const char *dir)
{
	char *st = capture("git -C '%s' status --porcelain --untracked-files=all", dir);

	assert_string_equal(st, "");
	free(st);
	assert_fsck_clean(dir);
}

#define F(p, s) { (p), (s), sizeof(s) - 1 }

static const struct repo_file first_files[] = {
	F("game.yaml", "game: test\nmodule: washingtons-war\n"),
	F("state.yaml", "turn: 1775\nphase: setup\n"),
	F("log.txt", "game created\n"),
};
static const char first_msg[] = "New game test\n\nSeq: 0\n";

static const char bin_data[] = "\0\1\2\3binary\0private\377\376";
static const struct repo_file second_files[] = {
	F("state.yaml", "turn: 1775\nphase: impulse\n"),
	F("orders/0001-american.txt", "play 42\nmove Washington Boston\n"),
	F("log.txt", "game created\n1775: American impulse 1\n"),
	{ "private/deck/hands.bin", bin_data, sizeof(bin_data) - 1 },
};
static const char second_msg[] =
	"1775 American impulse 1: #42 Washington Boston\n\nSeq: 1\nSide: american\n";

/* Makes the two fixture commits in r and publishes them. */
static void make_two(struct repo *r, char c1[41], char c2[41])
{
	assert_int_equal(repo_commit_prepare(r, NULL, first_files, 3, NULL,
					     &host, &host, first_msg, c1), 0);
	assert_int_equal(repo_commit_publish(r, NULL, c1), 0);
	assert_int_equal(repo_commit_prepare(r, c1, second_files, 4, NULL,
					     &player, &host, second_msg, c2), 0);
	assert_int_equal(repo_commit_publish(r, c1, c2), 0);
}

/* The ids these inputs give, on every machine: a change here is a change of format. */
#define FIRST_ID "cde1f4680b0d97a23cc6f62532a32b9c4316dd33"
#define SECOND_ID "251d2f41de9f714e187b0bb4203e349fedc2b90d"

static void test_create(void **state)
{
	char *dir = tpath("game"), *file = tpath("file"), *under = tpath("file/sub");
	char *gitdir = xstrfmt("%s/.git", dir);
	struct repo *r = NULL, *r2 = NULL;
	struct strbuf sb = STRBUF_INIT;
	char hex[41], (*ids)[41];
	size_t n = 99;

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	assert_non_null(r);
	assert_string_equal(repo_gitdir(r), gitdir);
	assert_string_equal(repo_workdir(r), dir);
	assert_false(repo_is_bare(r));
	assert_true(repo_head_on_main(r));
	assert_int_equal(repo_head(r, hex), REPO_MISSING);
	assert_string_equal(hex, "");
	assert_int_equal(repo_read(r, NULL, "state.yaml", &sb), REPO_MISSING);
	assert_int_equal(repo_history(r, &ids, &n), 0);
	assert_null(ids);
	assert_int_equal(n, 0);

	/* not empty any more, a file, below a file */
	assert_int_equal(repo_create(dir, &r2), -1);
	assert_null(r2);
	assert_int_equal(run("echo x > '%s'", file), 0);
	assert_int_equal(repo_create(file, &r2), -1);
	assert_int_equal(repo_create(under, &r2), -1);
	assert_null(r2);

	/* an empty existing folder is fine; git agrees it is on main */
	repo_free(r);
	free(dir);
	dir = tpath("empty");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(repo_create(dir, &r), 0);
	{
		char *head = capture_line("git -C '%s' symbolic-ref HEAD", dir);
		assert_string_equal(head, "refs/heads/main");
		free(head);
	}
	repo_free(r);
	repo_free(NULL);
	strbuf_release(&sb);
	free(dir);
	free(file);
	free(under);
	free(gitdir);
}

/*
 * In a child running as an unprivileged user when we are root (root
 * writes anywhere): creating in a read-only folder fails, and so do
 * committing and locking in a repository we may read but not write.
 */
static void test_unwritable(void **state)
{
	char *dir = tpath("ro"), *sub = tpath("ro/game"), *game = tpath("game");
	struct repo *r = NULL;
	char c1[41], c2[41];
	pid_t pid;
	int st;

	(void)state;
	assert_int_equal(repo_create(game, &r), 0);
	make_two(r, c1, c2);
	repo_free(r);
	assert_int_equal(mkdir(dir, 0555), 0);
	/* the game belongs to the child's user, who may not write it */
	assert_int_equal(run("chmod -R a+rX,a-w '%s' && chmod a+rx '%s'", game,
			     tmp_root), 0);
	if (geteuid() == 0)
		assert_int_equal(run("chown -R 65534:65534 '%s'", game), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const struct repo_file f = F("state.yaml", "x\n");
		char out[41], hex[41];

		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(30);
		if (repo_create(sub, &r) != -1 || r)
			_exit(31);
		if (repo_open(game, &r) < 0)
			_exit(32);
		if (repo_head(r, hex) != 0 || strcmp(hex, c2))
			_exit(33);
		if (repo_commit_prepare(r, c2, &f, 1, NULL, &player, &host, "x", out) != -1)
			_exit(34);
		if (repo_lock(r, 0) != -1)
			_exit(35);
		repo_free(r);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	free(dir);
	free(sub);
	free(game);
}

static void test_open(void **state)
{
	char *dir = tpath("game"), *plain = tpath("plain"), *bare = tpath("bare.git");
	char *other = tpath("other"), *sub = tpath("game/orders");
	struct repo *r = NULL, *b = NULL;
	struct strbuf sb = STRBUF_INIT;
	char c1[41], c2[41], hex[41], c3[41];
	const struct repo_file f = F("state.yaml", "turn: 1776\n");

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	repo_free(r);

	/* a work tree, by its top or by its .git */
	assert_int_equal(repo_open(dir, &r), 0);
	assert_int_equal(repo_head(r, hex), 0);
	assert_string_equal(hex, c2);
	repo_free(r);
	{
		char *g = xstrfmt("%s/.git", dir);
		assert_int_equal(repo_open(g, &r), 0);
		assert_string_equal(repo_gitdir(r), g);
		repo_free(r);
		free(g);
	}

	/* not a repository; a folder inside one is not searched upwards */
	assert_int_equal(mkdir(plain, 0755), 0);
	assert_int_equal(repo_open(plain, &r), -1);
	assert_null(r);
	assert_int_equal(repo_open(sub, &r), -1);
	assert_null(r);

	/* a bare clone: read, commit, publish */
	assert_int_equal(run("git clone -q --bare '%s' '%s'", dir, bare), 0);
	assert_int_equal(repo_open(bare, &b), 0);
	assert_true(repo_is_bare(b));
	assert_null(repo_workdir(b));
	assert_string_equal(repo_gitdir(b), bare);
	assert_int_equal(repo_head(b, hex), 0);
	assert_string_equal(hex, c2);
	assert_int_equal(repo_read(b, c1, "state.yaml", &sb), 0);
	assert_string_equal(strbuf_str(&sb), "turn: 1775\nphase: setup\n");
	assert_int_equal(repo_commit_prepare(b, c2, &f, 1, NULL, &player, &host,
					     "next", c3), 0);
	assert_int_equal(repo_commit_publish(b, c2, c3), 0);
	assert_int_equal(repo_head(b, hex), 0);
	assert_string_equal(hex, c3);
	repo_free(b);
	assert_fsck_clean(bare);

	/* someone else's repository: opens, but has no main */
	assert_int_equal(run("git init -q -b master '%s' && cd '%s' && echo hi > README"
			     " && git add README && git commit -q -m readme", other, other), 0);
	assert_int_equal(repo_open(other, &r), 0);
	assert_false(repo_head_on_main(r));
	assert_int_equal(repo_head(r, hex), REPO_MISSING);
	strbuf_reset(&sb);
	assert_int_equal(repo_read(r, "master", "README", &sb), 0);
	assert_string_equal(strbuf_str(&sb), "hi\n");
	assert_int_equal(repo_read(r, "no-such-branch", "README", &sb), -1);
	/* publishing creates main but leaves master's work tree alone */
	assert_int_equal(repo_commit_prepare(r, NULL, &f, 1, NULL, &player, &host,
					     "game", c3), 0);
	assert_int_equal(repo_commit_publish(r, NULL, c3), 0);
	assert_int_equal(repo_head(r, hex), 0);
	{
		char *st = capture("git -C '%s' status --porcelain", other);
		assert_string_equal(st, "");
		free(st);
	}
	repo_free(r);

	strbuf_release(&sb);
	free(dir);
	free(plain);
	free(bare);
	free(other);
	free(sub);
}

/* What git_tree_create_updated() is not asked to do: write a file over a
 * folder or under a file, remove what is not there; a folder emptied by
 * a removal goes. Nothing is committed for a refused edit. */
static void test_tree_edits(void **state)
{
	char *dir = tpath("game");
	struct repo *r = NULL;
	char c1[41], c2[41], c3[41], head[41];
	char *s;

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	/* the first commit's empty baseline is never written: no dangling
	 * object for git fsck */
	s = capture("git -C '%s' fsck --full --strict --dangling 2>&1", dir);
	assert_null(strstr(s, "dangling"));
	free(s);
	{
		const struct repo_file f = F("orders", "over a folder\n");
		assert_int_equal(repo_commit_prepare(r, c2, &f, 1, NULL, &player, &host, "x", c3), -1);
	}
	{
		const struct repo_file f = F("state.yaml/inside", "under a file\n");
		assert_int_equal(repo_commit_prepare(r, c2, &f, 1, NULL, &player, &host, "x", c3), -1);
	}
	{
		const char *rm[] = { "orders/no-such.txt", NULL };
		const struct repo_file f = F("log.txt", "more\n");
		assert_int_equal(repo_commit_prepare(r, c2, &f, 1, rm, &player, &host, "x", c3), -1);
	}
	assert_int_equal(repo_head(r, head), 0);
	assert_string_equal(head, c2);
	{
		/* the last file of orders/ removed: the folder goes too */
		const char *rm[] = { "orders/0001-american.txt", NULL };
		const struct repo_file f = F("log.txt", "more\n");
		assert_int_equal(repo_commit_prepare(r, c2, &f, 1, rm, &player, &host, "rm", c3), 0);
		assert_int_equal(repo_commit_publish(r, c2, c3), 0);
	}
	s = capture("git -C '%s' ls-tree -r --name-only HEAD", dir);
	assert_string_equal(s, "game.yaml\nlog.txt\nprivate/deck/hands.bin\nstate.yaml\n");
	free(s);
	repo_free(r);
	free(dir);
}

static void test_commits(void **state)
{
	char *dir = tpath("game");
	struct repo *r = NULL;
	struct strbuf sb = STRBUF_INIT, msg = STRBUF_INIT, name = STRBUF_INIT,
		      email = STRBUF_INIT;
	char c1[41], c2[41], c3[41], hex[41], (*ids)[41] = NULL;
	size_t n = 0;
	long long when = 0;
	char *s;

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	assert_int_equal(repo_head(r, hex), 0);
	assert_string_equal(hex, c2);

	/* read back at HEAD and at the older commit */
	s = read_at(r, NULL, "state.yaml");
	assert_string_equal(s, "turn: 1775\nphase: impulse\n");
	free(s);
	s = read_at(r, c1, "state.yaml");
	assert_string_equal(s, "turn: 1775\nphase: setup\n");
	free(s);
	s = read_at(r, "HEAD~1", "log.txt");
	assert_string_equal(s, "game created\n");
	free(s);
	s = read_at(r, NULL, "orders/0001-american.txt");
	assert_string_equal(s, "play 42\nmove Washington Boston\n");
	free(s);
	assert_int_equal(repo_read(r, NULL, "private/deck/hands.bin", &sb), 0);
	assert_int_equal(sb.len, sizeof(bin_data) - 1);
	assert_memory_equal(sb.buf, bin_data, sb.len);
	strbuf_reset(&sb);
	assert_int_equal(repo_read(r, c1, "orders/0001-american.txt", &sb), REPO_MISSING);
	assert_int_equal(repo_read(r, NULL, "orders", &sb), -1);	/* a folder */
	assert_int_equal(repo_read(r, NULL, "state.yaml/x", &sb), REPO_MISSING);
	assert_int_equal(repo_read(r, "0123456789012345678901234567890123456789",
				   "state.yaml", &sb), -1);
	assert_int_equal(sb.len, 0);

	/* history and commit info */
	assert_int_equal(repo_history(r, &ids, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ids[0], c1);
	assert_string_equal(ids[1], c2);
	free(ids);
	assert_int_equal(repo_commit_info(r, c2, &msg, &name, &email, &when), 0);
	assert_string_equal(strbuf_str(&msg), second_msg);
	assert_string_equal(strbuf_str(&name), player.name);
	assert_string_equal(strbuf_str(&email), player.email);
	assert_true(when == player.time);
	assert_int_equal(repo_commit_info(r, NULL, NULL, NULL, NULL, NULL), 0);

	/* git sees the same: files, author, committer, clean work tree */
	s = capture("git -C '%s' log --format='%%an <%%ae> %%ad|%%cn <%%ce> %%cd' "
		    "--date=raw", dir);
	assert_string_equal(s,
		"Benjamin Franklin <franklin@example.org> 1112911993 -0500|"
		"postrider host <host@example.net> 1112912000 +0100\n"
		"postrider host <host@example.net> 1112912000 +0100|"
		"postrider host <host@example.net> 1112912000 +0100\n");
	free(s);
	s = capture("git -C '%s' ls-tree -r --format='%%(objectmode) %%(path)' HEAD", dir);
	assert_string_equal(s,
		"100644 game.yaml\n100644 log.txt\n"
		"100644 orders/0001-american.txt\n"
		"100644 private/deck/hands.bin\n100644 state.yaml\n");
	free(s);
	assert_git_clean(dir);
	s = tpath("game/orders/0001-american.txt");
	assert_int_equal(access(s, F_OK), 0);
	free(s);

	/* remove a file and a whole folder: gone from the work tree too */
	{
		const char *rm[] = { "orders/0001-american.txt", "private", NULL };
		const struct repo_file f = F("orders/0002-british.txt", "pass\n");

		assert_int_equal(repo_commit_prepare(r, c2, &f, 1, rm, &player,
						     &host, "remove", c3), 0);
		assert_int_equal(repo_commit_publish(r, c2, c3), 0);
	}
	s = capture("git -C '%s' ls-tree -r --name-only HEAD", dir);
	assert_string_equal(s, "game.yaml\nlog.txt\norders/0002-british.txt\nstate.yaml\n");
	free(s);
	s = tpath("game/orders/0001-american.txt");
	assert_int_equal(access(s, F_OK), -1);
	free(s);
	s = tpath("game/private");
	assert_int_equal(access(s, F_OK), -1);
	free(s);
	assert_git_clean(dir);

	/* the message is cleaned like git commit does */
	strbuf_reset(&msg);
	assert_int_equal(repo_commit_info(r, c3, &msg, NULL, NULL, NULL), 0);
	assert_string_equal(strbuf_str(&msg), "remove\n");

	repo_free(r);
	strbuf_release(&sb);
	strbuf_release(&msg);
	strbuf_release(&name);
	strbuf_release(&email);
	free(dir);
}

static void test_fixed_ids(void **state)
{
	char *a = tpath("a"), *b = tpath("b");
	struct repo *ra = NULL, *rb = NULL;
	char a1[41], a2[41], b1[41], b2[41];
	/* the same files given in another order */
	const struct repo_file shuffled[] = {
		second_files[3], second_files[1], second_files[0], second_files[2],
	};

	(void)state;
	assert_int_equal(repo_create(a, &ra), 0);
	assert_int_equal(repo_create(b, &rb), 0);
	make_two(ra, a1, a2);
	assert_int_equal(repo_commit_prepare(rb, NULL, first_files, 3, NULL,
					     &host, &host, first_msg, b1), 0);
	assert_int_equal(repo_commit_prepare(rb, b1, shuffled, 4, NULL,
					     &player, &host, second_msg, b2), 0);
	assert_string_equal(a1, b1);
	assert_string_equal(a2, b2);
	assert_string_equal(a1, FIRST_ID);
	assert_string_equal(a2, SECOND_ID);
	repo_free(ra);
	repo_free(rb);
	free(a);
	free(b);
}

/* The bytes of a file, or "" if it does not exist (caller frees). */
static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_file(path, &sb, 1 << 20) < 0)
		assert_int_equal(errno, ENOENT);
	strbuf_addstr(&sb, "");
	return strbuf_detach(&sb, NULL);
}

static void test_stale(void **state)
{
	char *dir = tpath("game");
	char *ref = tpath("game/.git/refs/heads/main");
	char *log = tpath("game/.git/logs/refs/heads/main");
	char *ref_before, *log_before, *status_before, *s;
	struct repo *r = NULL;
	char c1[41], c2[41], a[41], b[41], hex[41];
	const struct repo_file fa = F("state.yaml", "a\n"), fb = F("state.yaml", "b\n");

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	/* two runs prepared children of c2; the first one wins */
	assert_int_equal(repo_commit_prepare(r, c2, &fa, 1, NULL, &player, &host, "a", a), 0);
	assert_int_equal(repo_commit_prepare(r, c2, &fb, 1, NULL, &player, &host, "b", b), 0);
	assert_int_equal(repo_commit_publish(r, c2, a), 0);

	ref_before = slurp(ref);
	log_before = slurp(log);
	status_before = capture("cd '%s' && git status --porcelain && cat state.yaml", dir);
	assert_int_equal(repo_commit_publish(r, c2, b), REPO_STALE);
	assert_int_equal(repo_commit_publish(r, NULL, c1), REPO_STALE);
	/* nothing moved */
	assert_int_equal(repo_head(r, hex), 0);
	assert_string_equal(hex, a);
	s = slurp(ref);
	assert_string_equal(s, ref_before);
	free(s);
	s = slurp(log);
	assert_string_equal(s, log_before);
	free(s);
	s = capture("cd '%s' && git status --porcelain && cat state.yaml", dir);
	assert_string_equal(s, status_before);
	free(s);
	s = read_at(r, NULL, "state.yaml");
	assert_string_equal(s, "a\n");
	free(s);

	/* a crashed git left the ref's lock file: an error, nothing moves */
	{
		char *lock = tpath("game/.git/refs/heads/main.lock");
		char c[41];

		assert_int_equal(repo_commit_prepare(r, a, &fb, 1, NULL, &player,
						     &host, "c", c), 0);
		assert_int_equal(run("touch '%s'", lock), 0);
		assert_int_equal(repo_commit_publish(r, a, c), -1);
		assert_int_equal(repo_head(r, hex), 0);
		assert_string_equal(hex, a);
		assert_int_equal(unlink(lock), 0);
		free(lock);
	}

	/* a commit whose parent is not `expected` is refused */
	assert_int_equal(repo_commit_publish(r, a, b), -1);
	/* not an id, not a commit */
	assert_int_equal(repo_commit_publish(r, a, "main"), -1);
	assert_int_equal(repo_commit_publish(r, a, "0123456789012345678901234567890123456789"), -1);
	assert_int_equal(repo_head(r, hex), 0);
	assert_string_equal(hex, a);

	repo_free(r);
	free(ref_before);
	free(log_before);
	free(status_before);
	free(dir);
	free(ref);
	free(log);
}

/* In a child: opens dir, tries to lock within timeout_ms, exits with the result (+10 for -1). */
static pid_t child_lock(const char *dir, int timeout_ms, int hold_fd)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct repo *r = NULL;
		int rc;

		if (repo_open(dir, &r) < 0)
			_exit(20);
		rc = repo_lock(r, timeout_ms);
		if (hold_fd >= 0) {
			char c = 'L';

			/* tell the parent, then hold the lock until killed */
			if (write(hold_fd, &c, 1) != 1)
				_exit(21);
			for (;;)
				pause();
		}
		_exit(rc < 0 ? 10 : rc);
	}
	return pid;
}

static int child_status(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

static void test_lock(void **state)
{
	char *dir = tpath("game");
	struct repo *r = NULL;
	int p[2];
	char c;
	pid_t pid;

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	assert_int_equal(repo_lock(r, 0), 0);

	/* the child gives up after its timeout */
	pid = child_lock(dir, 100, -1);
	assert_int_equal(child_status(pid), REPO_BUSY);

	/* the child waits, and gets the lock once the parent lets go */
	pid = child_lock(dir, 5000, -1);
	usleep(200 * 1000);
	repo_unlock(r);
	assert_int_equal(child_status(pid), 0);

	/* a killed holder never leaves the lock stuck */
	assert_int_equal(pipe(p), 0);
	pid = child_lock(dir, 1000, p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	assert_int_equal(repo_lock(r, 0), REPO_BUSY);
	kill(pid, SIGKILL);
	assert_int_equal(child_status(pid), -SIGKILL);
	assert_int_equal(repo_lock(r, 1000), 0);
	close(p[0]);
	close(p[1]);

	repo_free(r);	/* releases the lock */
	pid = child_lock(dir, 0, -1);
	assert_int_equal(child_status(pid), 0);
	{
		char *lock = tpath("game/.git/postrider.lock");
		assert_int_equal(access(lock, F_OK), 0);
		free(lock);
	}
	free(dir);
}

static void test_format_patch_am(void **state)
{
	char *dir = tpath("game"), *clone = tpath("clone"), *patch = tpath("p.mbox");
	struct repo *r = NULL;
	struct strbuf sb = STRBUF_INIT;
	char c1[41], c2[41], c3[41], (*ids)[41] = NULL;
	size_t n = 0, i;
	const char *rm[] = { "log.txt", NULL };
	const struct repo_file f = F("state.yaml", "turn: 1775\nphase: winter\n");

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	assert_int_equal(repo_commit_prepare(r, c2, &f, 1, rm, &player, &host,
					     "Winter 1775\n\nSeq: 2\n", c3), 0);
	assert_int_equal(repo_commit_publish(r, c2, c3), 0);

	assert_int_equal(repo_format_patch(r, c2, &sb), 0);
	assert_non_null(strstr(strbuf_str(&sb), "From " ));
	assert_non_null(strstr(strbuf_str(&sb),
		"Subject: [PATCH] 1775 American impulse 1: #42 Washington Boston\n"));
	assert_non_null(strstr(strbuf_str(&sb), "GIT binary patch"));

	/*
	 * Every commit, the root one included, applied to an empty repository
	 * by `git am`, with the committer and date of the host (group_setup).
	 */
	assert_int_equal(run("git init -q -b main '%s'", clone), 0);
	assert_int_equal(repo_history(r, &ids, &n), 0);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++) {
		char *ours, *theirs;

		strbuf_reset(&sb);
		assert_int_equal(repo_format_patch(r, ids[i], &sb), 0);
		assert_int_equal(write_file_atomic(patch, sb.buf, sb.len), 0);
		assert_int_equal(run("git -C '%s' am -q '%s'", clone, patch), 0);
		ours = capture_line("git -C '%s' rev-parse '%s^{tree}'", dir, ids[i]);
		theirs = capture_line("git -C '%s' rev-parse 'HEAD^{tree}'", clone);
		assert_string_equal(ours, theirs);
		free(ours);
		free(theirs);
		/* with the host as committer, even the commit ids agree */
		theirs = capture_line("git -C '%s' rev-parse HEAD", clone);
		assert_string_equal(theirs, ids[i]);
		free(theirs);
	}
	assert_git_clean(clone);

	/* HEAD by default; a merge or no commit is an error */
	strbuf_reset(&sb);
	assert_int_equal(repo_format_patch(r, NULL, &sb), 0);
	assert_non_null(strstr(strbuf_str(&sb), "Subject: [PATCH] Winter 1775\n"));

	repo_free(r);
	free(ids);
	strbuf_release(&sb);
	free(dir);
	free(clone);
	free(patch);
}

static void test_bad_paths(void **state)
{
	static const char *const bad[] = {
		"", "/etc/passwd", "../evil", "a/../../evil", "a//b", "a/", "./a",
		"a/./b", "..", ".git/config", "a/.GIT/hooks/x", ".Git", "a\\b",
		"a\nb", "orders/", "a/.git. .", "GIT~1/config",
	};
	char *dir = tpath("game"), *before, *after;
	struct repo *r = NULL;
	struct strbuf sb = STRBUF_INIT;
	char c1[41], c2[41], out[41], hex[41];
	size_t i;

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	before = capture("cd '%s' && find . -path ./game/.git/objects -prune -o -print | sort"
			 " && git -C game count-objects", tmp_root);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct repo_file f = { bad[i], "x", 1 };
		const char *rm[] = { bad[i], NULL };

		assert_int_equal(repo_check_path(bad[i]), -1);
		assert_int_equal(repo_commit_prepare(r, c2, &f, 1, NULL, &player,
						     &host, "bad", out), -1);
		assert_string_equal(out, "");
		assert_int_equal(repo_commit_prepare(r, c2, NULL, 0, rm, &player,
						     &host, "bad", out), -1);
		assert_int_equal(repo_read(r, NULL, bad[i], &sb), -1);
	}
	assert_int_equal(repo_check_path(NULL), -1);
	assert_int_equal(repo_check_path("a/b.c/.gitignore"), 0);
	assert_int_equal(repo_check_path("...x"), 0);
	assert_int_equal(repo_check_path(".gitx/a.git"), 0);

	/* conflicting or wrong edits */
	{
		const struct repo_file twice[] = { F("a", "1"), F("a", "2") };
		const struct repo_file nested[] = { F("a", "1"), F("a/b", "2") };
		const struct repo_file onfile[] = { F("state.yaml/x", "1") };
		const struct repo_file onfolder[] = { F("orders", "1") };
		const char *rm_missing[] = { "nope/x", NULL };
		const char *rm_twice[] = { "state.yaml", NULL };
		const struct repo_file st[] = { F("state.yaml", "1") };

		assert_int_equal(repo_commit_prepare(r, c2, twice, 2, NULL, &player, &host, "x", out), -1);
		assert_int_equal(repo_commit_prepare(r, c2, nested, 2, NULL, &player, &host, "x", out), -1);
		assert_int_equal(repo_commit_prepare(r, c2, onfile, 1, NULL, &player, &host, "x", out), -1);
		assert_int_equal(repo_commit_prepare(r, c2, onfolder, 1, NULL, &player, &host, "x", out), -1);
		assert_int_equal(repo_commit_prepare(r, c2, NULL, 0, rm_missing, &player, &host, "x", out), -1);
		assert_int_equal(repo_commit_prepare(r, c2, st, 1, rm_twice, &player, &host, "x", out), -1);
		assert_int_equal(repo_commit_prepare(r, c2, st, 1, NULL, &player, &host, " \n\n", out), -1);
		assert_int_equal(repo_commit_prepare(r, c2, st, 1, NULL, &player, &host, NULL, out), -1);
		assert_int_equal(repo_commit_prepare(r, "HEAD", st, 1, NULL, &player, &host, "x", out), -1);
		{
			struct repo_ident bad_id = player;
			bad_id.email = "<evil>";
			assert_int_equal(repo_commit_prepare(r, c2, st, 1, NULL, &bad_id, &host, "x", out), -1);
		}
	}

	/* nothing written anywhere, not even an object; HEAD unchanged */
	after = capture("cd '%s' && find . -path ./game/.git/objects -prune -o -print | sort"
			" && git -C game count-objects", tmp_root);
	assert_string_equal(before, after);
	assert_int_equal(repo_head(r, hex), 0);
	assert_string_equal(hex, c2);
	assert_git_clean(dir);

	repo_free(r);
	strbuf_release(&sb);
	free(before);
	free(after);
	free(dir);
}

static void test_checkout_repair(void **state)
{
	char *dir = tpath("game");
	struct repo *r = NULL;
	char c1[41], c2[41];

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	assert_int_equal(run("cd '%s' && echo tampered > state.yaml && rm log.txt"
			     " && rm -r orders && echo new > untracked.txt", dir), 0);
	assert_int_equal(repo_checkout(r), 0);
	{
		char *st = capture("git -C '%s' status --porcelain", dir);
		assert_string_equal(st, "?? untracked.txt\n");	/* left alone */
		free(st);
	}
	repo_free(r);
	free(dir);
}

static void test_private_path(void **state)
{
	char *dir = tpath("game");
	struct repo *r = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *expect;
	struct stat st;

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	assert_int_equal(repo_private_path(r, "outbox", &sb), 0);
	expect = xstrfmt("%s/postrider/outbox", repo_gitdir(r));
	assert_string_equal(strbuf_str(&sb), expect);
	free(expect);
	expect = xstrfmt("%s/postrider", repo_gitdir(r));
	assert_int_equal(stat(expect, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	free(expect);
	assert_int_equal(repo_private_path(r, "outbox", &sb), 0);	/* again */
	assert_int_equal(repo_private_path(r, "", &sb), -1);
	assert_int_equal(repo_private_path(r, "..", &sb), -1);
	assert_int_equal(repo_private_path(r, "a/b", &sb), -1);
	repo_free(r);
	strbuf_release(&sb);
	free(dir);
}

/*
 * Trailers, as a table: a message, a key, which of its trailers of that
 * key (0 the first), and the value read, or NULL for none. Every row is
 * also put to git itself (interpret-trailers --parse), which must read
 * the same: "what a trailer is" has git's one meaning.
 */
static const struct {
	const char *msg, *key;
	unsigned nth;
	const char *want;
} trailer_rows[] = {
	/* the host's commit: subject, the actions, the trailers */
	{ "1775 American: place Savannah GA\n\nplace Savannah GA\n\n"
	  "Postrider-Game: ww-1\nPostrider-Seq: 1\nPostrider-Side: american\n",
	  "Postrider-Seq", 0, "1" },
	/* the same key in the body, or in the subject, is no trailer */
	{ "Postrider-Seq: 9\n\nPostrider-Seq: 8 said the body\n\n"
	  "Postrider-Game: ww-1\nPostrider-Seq: 2\n", "Postrider-Seq", 0, "2" },
	{ "Postrider-Seq: 9\n\nPostrider-Seq: 8 said the body\n\n"
	  "Postrider-Game: ww-1\nPostrider-Seq: 2\n", "Postrider-Seq", 1, NULL },
	/* a subject alone has none, however it looks */
	{ "Postrider-Seq: 9\n", "Postrider-Seq", 0, NULL },
	{ "Postrider-Seq: 9\nPostrider-Side: british\n", "Postrider-Side", 0, NULL },
	/* a last paragraph with one line that is no trailer has none */
	{ "subject\n\nPostrider-Seq: 3\nthe order was long\n", "Postrider-Seq", 0, NULL },
	/* a key only at the start of a line, and only before its ':' */
	{ "subject\n\nX-Postrider-Seq: 3\n", "Postrider-Seq", 0, NULL },
	{ "subject\n\nPostrider-Seq-Old: 3\n", "Postrider-Seq", 0, NULL },
	/* several of one key (a peer commit's waits lines), in order */
	{ "s\n\nPostrider-Kind: order\nPostrider-Waits: british answer s1.2\n"
	  "Postrider-Waits: american shuffle 2\n", "Postrider-Waits", 1,
	  "american shuffle 2" },
	{ "s\n\nPostrider-Kind: order\nPostrider-Waits: british answer s1.2\n"
	  "Postrider-Waits: american shuffle 2\n", "Postrider-Waits", 2, NULL },
	/* blank lines at the end, blanks around the value, any case */
	{ "s\n\nPostrider-Seq:   7  \n\n\n", "postrider-seq", 0, "7" },
	{ "s\n\nPostrider-Seq : 7\n", "Postrider-Seq", 0, "7" },
	{ "s\n\nPostrider-Seq:7", "Postrider-Seq", 0, "7" },
	/* a continuation line joins the value */
	{ "s\n\nPostrider-Via: host (play --as\n  american)\nPostrider-Seq: 4\n",
	  "Postrider-Via", 0, "host (play --as american)" },
	/* a block that starts with a continuation is none */
	{ "s\n\n  more\nPostrider-Seq: 4\n", "Postrider-Seq", 0, NULL },
	/* an empty value is a value */
	{ "s\n\nPostrider-Fixed-Dice:\n", "Postrider-Fixed-Dice", 0, "" },
	{ "", "Postrider-Seq", 0, NULL },
	{ "s\n\n\n", "Postrider-Seq", 0, NULL },
};

static void test_trailers(void **state)
{
	char *dir = tpath("trailer-msg");

	(void)state;
	for (size_t i = 0; i < sizeof(trailer_rows) / sizeof(trailer_rows[0]); i++) {
		struct strbuf v = STRBUF_INIT;
		const char *want = trailer_rows[i].want;
		int r = repo_trailer_get(trailer_rows[i].msg, trailer_rows[i].key,
					 trailer_rows[i].nth, &v);
		char *git;

		print_message("row %zu: %s\n", i, trailer_rows[i].key);
		if (!want) {
			assert_int_equal(r, -1);
			assert_int_equal(v.len, 0);
		} else {
			assert_int_equal(r, 0);
			assert_string_equal(strbuf_str(&v), want);
		}
		/* git reads the same */
		assert_int_equal(write_file_atomic(dir, trailer_rows[i].msg,
						   strlen(trailer_rows[i].msg)), 0);
		git = capture_line("git interpret-trailers --parse <'%s' | "
				   "grep -i '^%s: ' | sed -n '%up' | cut -d: -f2- | "
				   "sed 's/^ //'", dir, trailer_rows[i].key,
				   trailer_rows[i].nth + 1);
		if (!want)
			assert_string_equal(git, "");
		else
			assert_string_equal(git, want);
		free(git);
		strbuf_release(&v);
	}
	/* what comes before stays: the value is appended */
	{
		struct strbuf v = STRBUF_INIT;
		strbuf_addstr(&v, "seq ");
		assert_int_equal(repo_trailer_get("s\n\nSeq: 5 \n", "Seq", 0, &v), 0);
		assert_string_equal(strbuf_str(&v), "seq 5");
		strbuf_release(&v);
	}
	free(dir);
}

/* A commit's trailer, read from the repository. */
static void test_commit_trailer(void **state)
{
	char *dir = tpath("game");
	struct repo *r = NULL;
	struct strbuf v = STRBUF_INIT;
	char c1[41], c2[41];

	(void)state;
	assert_int_equal(repo_create(dir, &r), 0);
	make_two(r, c1, c2);
	assert_int_equal(repo_trailer(r, c2, "Side", &v), 0);
	assert_string_equal(strbuf_str(&v), "american");
	strbuf_reset(&v);
	assert_int_equal(repo_trailer(r, c1, "Seq", &v), 0);
	assert_string_equal(strbuf_str(&v), "0");
	strbuf_reset(&v);
	assert_int_equal(repo_trailer(r, c1, "Side", &v), -1);
	assert_int_equal(repo_trailer(r, "0123456789012345678901234567890123456789",
				      "Seq", &v), -1);
	assert_int_equal(v.len, 0);
	repo_free(r);
	strbuf_release(&v);
	free(dir);
}

/*
 * Issue 39, item 6: a push's credentials belong to the origin of the
 * game's remote (scheme, host, port); a redirect to any other gets none.
 */
static void test_url_origin(void **state)
{
	static const char *const same[][2] = {
		{ "https://git.example.org/club.git", "https://GIT.example.org:443/club.git/info/refs" },
		{ "https://localhost:8443/git/club.git", "https://localhost:8443/git/club.git" },
		{ "ssh://root@127.0.0.1:2222/srv/club.git", "ssh://127.0.0.1:2222/srv/club.git" },
		{ "git@example.org:club.git", "ssh://git@example.org/club.git" },
		{ "https://[::1]:8443/club.git", "https://[::1]:8443/x" },
	};
	static const char *const other[][2] = {
		{ "https://git.example.org/club.git", "https://evil.example.org/club.git" },
		{ "https://localhost:8443/git/club.git", "https://localhost:9443/git/club.git" },
		{ "https://git.example.org/club.git", "http://git.example.org/club.git" },
		{ "https://git.example.org/club.git", "https://git.example.org.evil.example/club.git" },
		{ "ssh://git@example.org/club.git", "ssh://git@example.org:2222/club.git" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		publish_url_origin(same[i][0], &a);
		publish_url_origin(same[i][1], &b);
		assert_string_equal(a.buf, b.buf);
		strbuf_release(&a);
		strbuf_release(&b);
	}
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		publish_url_origin(other[i][0], &a);
		publish_url_origin(other[i][1], &b);
		if (!strcmp(a.buf, b.buf))
			fail_msg("'%s' and '%s' have one origin, %s", other[i][0], other[i][1], a.buf);
		strbuf_release(&a);
		strbuf_release(&b);
	}
	struct strbuf o = STRBUF_INIT;
	publish_url_origin("https://Referee@Git.Example.org/club.git", &o);
	assert_string_equal(o.buf, "https://git.example.org:443");
	strbuf_release(&o);
}

/*
 * Issue 39, item 6: under umask 000 a new repository holds nothing the
 * group or others may write, and says core.sharedRepository = 0644.
 */
static void test_umask_000(void **state)
{
	struct repo *r;
	mode_t old = umask(0);
	struct stat st;
	char *dir = tpath("g0");
	struct strbuf text = STRBUF_INIT;
	static const char *const paths[] = { "", "/.git", "/.git/config", "/.git/HEAD",
					     "/.git/objects", "/.git/refs" };

	(void)state;
	repo_global_shutdown();	/* its umask is set when it starts */
	umask(0);
	assert_int_equal(repo_create(dir, &r), 0);
	repo_free(r);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char *p = xstrfmt("%s%s", dir, paths[i]);
		assert_int_equal(stat(p, &st), 0);
		if (st.st_mode & 022)
			fail_msg("'%s' has mode %03o", p, (unsigned)(st.st_mode & 0777));
		free(p);
	}
	char *cfg = xstrfmt("%s/.git/config", dir);
	assert_int_equal(read_file(cfg, &text, 1 << 20), 0);
	assert_non_null(strstr(text.buf, "sharedRepository = 0644"));
	free(cfg);
	free(dir);
	strbuf_release(&text);
	umask(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_edits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixed_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_format_patch_am, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checkout_repair, setup, teardown),
		cmocka_unit_test_setup_teardown(test_private_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trailers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_commit_trailer, setup, teardown),
		cmocka_unit_test(test_url_origin),
		cmocka_unit_test_setup_teardown(test_umask_000, setup, teardown),
	};

	return cmocka_run_group_tests_name("repo", tests, group_setup,
					   group_teardown);
}
