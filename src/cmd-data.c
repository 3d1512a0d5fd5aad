/*
 * cmd-data.c - `postrider data`: the component data as loaded, or checked.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "data.h"
#include "game.h"

static int exec_data(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "game", required_argument, NULL, 'g' },
		{ "data", required_argument, NULL, 'd' },
		{ "check", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *module = "washingtons-war", *dir_opt = NULL;
	bool check = false;
	struct strbuf errs = STRBUF_INIT, out = STRBUF_INIT;
	struct data *d;
	char *dir;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'g': module = optarg; break;
		case 'd': dir_opt = optarg; break;
		case 'c': check = true; break;
		default: return cmd_usage(&cmd_data_entry);
		}
	}
	if (optind != argc)
		return cmd_usage(&cmd_data_entry);
	dir = game_data_dir(dir_opt, module);
	d = data_load(dir, &errs);
	if (!d) {
		fprintf(stderr, "%s", errs.buf);
		fprintf(stderr, "error: the data in '%s' fails its check\n", dir);
		free(dir);
		strbuf_release(&errs);
		return EXIT_REJECTED;
	}
	if (check) {
		printf("%s: %d spaces, %d connections, %d generals, %d cards: ok (hash %s)\n",
		       dir, d->n_spaces, d->n_connections, d->n_generals, d->n_cards, d->hash);
		data_provenance(d, &out);
		printf("\n%s", out.buf);
	} else {
		data_dump(d, &out);
		fputs(out.buf, stdout);
	}
	data_free(d);
	free(dir);
	strbuf_release(&errs);
	strbuf_release(&out);
	return 0;
}

const struct cmd_entry cmd_data_entry = {
	"data", "data [--game NAME] [--data DIR] [--check]",
	"print or check the component data (docs/data.md)",
	"  --game NAME   the game module (default washingtons-war)\n"
	"  --data DIR    a data folder instead of games/NAME\n"
	"  --check       validate only; each problem as file:line:column\n",
	exec_data,
};
