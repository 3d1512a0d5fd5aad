/*
 * cmd-show.c - `postrider show`, `postrider options` and `postrider log`:
 * reading a game without changing it.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "game.h"
#include "engine/engine.h"
#include "report.h"

/* Opens dir for reading; prints the error and returns -1 on failure. */
static int open_game(const char *dir, struct game *g)
{
	struct strbuf err = STRBUF_INIT;
	int r = game_open(dir, g, 0, &err);

	if (r != 0) {
		fprintf(stderr, "error: %s", err.buf);
		game_close(g);
	}
	strbuf_release(&err);
	return r ? -1 : 0;
}

static int exec_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "as", required_argument, NULL, 'a' },
		{ "svg", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct game g;
	struct strbuf out = STRBUF_INIT;
	int c, as = 0;
	bool svg = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'a') {
			as = side_parse(optarg);
			if (as <= 0) {
				fprintf(stderr, "postrider show: --as takes american or british\n");
				return EXIT_USAGE;
			}
		} else if (c == 's') {
			svg = true;
		} else {
			return cmd_usage(&cmd_show_entry);
		}
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_show_entry);
	if (open_game(argv[optind], &g) < 0)
		return EXIT_TEMPFAIL;
	if (svg) {
		report_svg(g.data, &g.state, &out);
		fputs(out.buf, stdout);
		goto done;
	}
	strbuf_addf(&out, "Washington's War, game %s: %s (American) v %s (British)\n",
		    g.id, g.player[SIDE_AMERICAN].name, g.player[SIDE_BRITISH].name);
	strbuf_addf(&out, "Order %u, commit %.12s\n\nNow: ", g.state.seq, g.head);
	engine_describe_prompt(g.data, &g.state, &out);
	strbuf_addstr(&out, "\n\n");
	if (as) {
		if (g.have_private) {
			strbuf_addf(&out, "The %s hand:\n", side_title((enum side)as));
			report_hand(g.data, &g.state, (enum side)as, &out);
			strbuf_addch(&out, '\n');
		} else {
			strbuf_addstr(&out, "(the hands are sealed: this is not the host's copy)\n\n");
		}
		if (!engine_game_over(&g.state) && (int)g.state.prompt.side == as && g.have_private) {
			report_options(g.data, &g.state, false, &out);
			strbuf_addch(&out, '\n');
		}
	}
	report_board(g.data, &g.state, &out);
	fputs(out.buf, stdout);
done:
	strbuf_release(&out);
	game_close(&g);
	return 0;
}

static int exec_options(int argc, char **argv)
{
	struct game g;
	struct strbuf out = STRBUF_INIT;
	bool plain = false;
	const char *dir = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--plain"))
			plain = true;
		else if (argv[i][0] == '-' || dir)
			return cmd_usage(&cmd_options_entry);
		else
			dir = argv[i];
	}
	if (!dir)
		return cmd_usage(&cmd_options_entry);
	if (open_game(dir, &g) < 0)
		return EXIT_TEMPFAIL;
	if (!g.have_private && (g.state.prompt.kind == PROMPT_PLAY ||
				g.state.prompt.kind == PROMPT_EXCHANGE)) {
		fprintf(stderr, "error: the legal orders depend on a sealed hand: run this on the host's copy\n");
		game_close(&g);
		return EXIT_TEMPFAIL;
	}
	if (!plain) {
		engine_describe_prompt(g.data, &g.state, &out);
		strbuf_addch(&out, '\n');
	}
	report_options(g.data, &g.state, plain, &out);
	fputs(out.buf, stdout);
	strbuf_release(&out);
	game_close(&g);
	return 0;
}

static int exec_log(int argc, char **argv)
{
	struct game g;
	struct strbuf log = STRBUF_INIT;

	if (argc != 2 || argv[1][0] == '-')
		return cmd_usage(&cmd_log_entry);
	if (open_game(argv[1], &g) < 0)
		return EXIT_TEMPFAIL;
	if (repo_read(g.repo, g.head, "log.txt", &log) != 0) {
		fprintf(stderr, "error: the game has no log.txt\n");
		game_close(&g);
		return EXIT_TEMPFAIL;
	}
	fputs(log.buf, stdout);
	strbuf_release(&log);
	game_close(&g);
	return 0;
}

const struct cmd_entry cmd_show_entry = {
	"show", "show DIR [--as american|british] [--svg]",
	"the report a side would receive now (never the other side's hand)",
	"  --as SIDE   include that side's hand and, if it is to decide, its options\n"
	"  --svg       print the map as an SVG picture instead\n",
	exec_show,
};

const struct cmd_entry cmd_options_entry = {
	"options", "options DIR [--plain]",
	"who must decide now, and the legal orders",
	"  --plain     for scripts: the side to decide on the first line (american,\n"
	"              british or none), then one legal order per line\n",
	exec_options,
};

const struct cmd_entry cmd_log_entry = {
	"log", "log DIR",
	"the game's log so far",
	NULL, exec_log,
};
