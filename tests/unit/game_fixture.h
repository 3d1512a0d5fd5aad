/*
 * game_fixture.h - a real game for unit tests that need one: a fresh
 * folder under /tmp, its mail kept in the outbox, a fixed clock, and a
 * game made by `postrider new` itself (cmd_new_entry). Included by the
 * test files that use it (static inline: a test may use some of it);
 * every name starts with fixture_.
 *
 * Ownership: fixture_root and fixture_dir are the fixture's; fixture_end()
 * removes the folder and frees them.
 */
#ifndef POSTRIDER_GAME_FIXTURE_H
#define POSTRIDER_GAME_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

#define FIXTURE_AMERICAN "Abigail <abigail@example.org>"
#define FIXTURE_BRITISH "Banastre <banastre@example.org>"
#define FIXTURE_SEED "1111111111111111111111111111111111111111111111111111111111111111"

static char *fixture_root, *fixture_dir;

/* The folder and the environment: run from the repository root. */
static inline void fixture_begin(const char *name)
{
	char *tmpl = xstrfmt("/tmp/%s.XXXXXX", name);
	char cwd[4096];

	if (!mkdtemp(tmpl) || !getcwd(cwd, sizeof(cwd)))
		BUG("the test fixture cannot make its folder");
	fixture_root = tmpl;
	char *cfg = xstrfmt("%s/config.yaml", fixture_root);
	FILE *f = fopen(cfg, "w");
	if (!f)
		BUG("the test fixture cannot write %s", cfg);
	fputs("transport: outbox\n", f);
	fclose(f);
	setenv("POSTRIDER_CONFIG", cfg, 1);
	setenv("POSTRIDER_NOW", "1700000000", 1);
	char *games = xstrfmt("%s/games", cwd), *templates = xstrfmt("%s/templates", cwd);
	setenv("POSTRIDER_GAMES", games, 0);
	setenv("POSTRIDER_TEMPLATES", templates, 0);
	free(games);
	free(templates);
	free(cfg);
	fixture_dir = xstrfmt("%s/game", fixture_root);
}

/* `postrider new` of the fixture's game, with the fairness version
 * (NULL: the default); its exit status. Its output goes to /dev/null. */
static inline int fixture_new_game(const char *fairness)
{
	char *version = fairness ? xstrdup(fairness) : NULL;
	char *argv[] = {
		(char[]){ "new" }, fixture_dir,
		(char[]){ "--american" }, (char[]){ FIXTURE_AMERICAN },
		(char[]){ "--british" }, (char[]){ FIXTURE_BRITISH },
		(char[]){ "--host" }, (char[]){ "Referee <ref@example.org>" },
		(char[]){ "--seed" }, (char[]){ FIXTURE_SEED },
		(char[]){ "--fairness" }, version, NULL
	};
	int argc = fairness ? 12 : 10, ret;
	int saved1 = dup(1), saved2 = dup(2);

	fflush(stdout);
	fflush(stderr);
	if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
		BUG("the test fixture cannot silence the command");
	if (!fairness)
		argv[10] = NULL;
	ret = cmd_new_entry.exec(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved1, 1);
	dup2(saved2, 2);
	close(saved1);
	close(saved2);
	free(version);	/* getopt may have moved argv's pointers */
	return ret;
}

static inline void fixture_end(void)
{
	char *cmd = xstrfmt("rm -rf '%s'", fixture_root);

	if (system(cmd) != 0)
		warning("the test fixture could not remove %s", fixture_root);
	free(cmd);
	free(fixture_root);
	free(fixture_dir);
}

#endif
