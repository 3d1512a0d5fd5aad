/*
 * cmd-index.c - `postrider index ROOT [--rebuild]`: brings the index of a
 * folder of games (ROOT/.postrider-index, catalog.h) up to date, or
 * rebuilds it from every repository, and says what it did. `list` and
 * `remind` keep it up to date themselves; this is for the host who wants
 * it done now (after restoring ROOT from a backup, say) or checked.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"

static int exec_index(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rebuild", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct strbuf err = STRBUF_INIT;
	struct catalog cat;
	unsigned flags = 0;
	size_t bad = 0;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'r')
			return cmd_usage(&cmd_index_entry);
		flags = CATALOG_REBUILD;
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_index_entry);
	if (cmd_is_repository(argv[optind])) {
		error("'%s' is a game; give the folder of games",
		      argv[optind]);
		return EXIT_USAGE;
	}
	if (catalog_open(argv[optind], flags, &cat, &err) < 0) {
		error("%s", err.buf);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	for (size_t i = 0; i < cat.n; i++) {
		if (cat.e[i].sound)
			continue;
		error("%s: not a sound game: %s", cat.e[i].dir, cat.e[i].err);
		bad++;
	}
	printf("%s: %zu game%s, %zu read from the repositor%s; %s\n", cat.path,
	       cat.n - bad, cat.n - bad == 1 ? "" : "s", cat.reread,
	       cat.reread == 1 ? "y" : "ies",
	       cat.saved ? "written" : cat.file_ok ? "up to date" : "not written");
	if (!cat.saved && !cat.file_ok && cat.n > bad) {
		error("cannot write '%s' (the commands still answer, "
		      "reading every game)", cat.path);
		ret = EXIT_TEMPFAIL;
	} else if (bad) {
		ret = EXIT_REJECTED;
	}
out:
	catalog_release(&cat);
	strbuf_release(&err);
	return ret;
}

const struct cmd_entry cmd_index_entry = {
	"index", "index ROOT [--rebuild]",
	"bring the index of a folder of games up to date",
	"  ROOT        a folder of games (what list, remind and doctor take)\n"
	"  --rebuild   believe nothing in the index: read every game again\n"
	"The index ROOT/.postrider-index lets list and remind answer for\n"
	"thousands of games at once. It is never believed blindly: every run\n"
	"checks each game's entry against its repository (the commit of main,\n"
	"the host's clock and secret) and reads again the games that changed,\n"
	"were added or do not open; games removed are dropped; a damaged index,\n"
	"or one written by another build of postrider, is rebuilt whole.\n"
	"Deleting it is always safe.\n"
	"exit status: 0, 1 if a repository under ROOT is not a sound game,\n"
	"75 if ROOT or the index cannot be read or written\n",
	exec_index,
};
