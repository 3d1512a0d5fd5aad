/*
 * cmd-show.c - `postrider show`, `postrider options` and `postrider log`:
 * reading a game without changing it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "game.h"
#include "peer.h"
#include "engine/engine.h"
#include "state-yaml.h"
#include "map.h"
#include "report.h"

/* Opens dir for reading; prints the error and returns -1 on failure. */
static int open_game(const char *dir, struct game *g)
{
	struct strbuf err = STRBUF_INIT;
	int r = game_open(dir, g, 0, &err);

	if (r != 0) {
		error("%s", err.buf);
		game_close(g);
	}
	strbuf_release(&err);
	return r ? -1 : 0;
}

/*
 * The commit that `at` names, into hex: a git revision, an order number
 * ("12": the state after order 12), a year ("1777": the first state of
 * that year) or a year and impulse ("1777/5"). 0, or -1 after a message.
 */
static int resolve_at(struct game *g, const char *at, char hex[41])
{
	char (*history)[41] = NULL;
	size_t n = 0;
	unsigned long a = 0, b = 0;
	int kind = 0, ret = -1;
	char *end;

	/* a number of up to 4 digits is an order or a year, not a commit */
	a = strtoul(at, &end, 10);
	if (end != at && end - at <= 4 && !*end)
		kind = a >= 1775 && a <= 1783 ? 2 : 1;
	else if (end != at && *end == '/' && a >= 1775 && a <= 1783) {
		b = strtoul(end + 1, &end, 10);
		if (!*end && b >= 1)
			kind = 3;
	}
	if (!kind)
		return repo_resolve(g->repo, at, hex) < 0 ? -1 : 0;
	if (repo_history(g->repo, &history, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct strbuf err = STRBUF_INIT;
		if (game_load_state(g, history[i], &err) < 0) {
			error("%s", err.buf);
			strbuf_release(&err);
			break;
		}
		strbuf_release(&err);
		const struct state *s = &g->state;
		bool hit = kind == 1 ? s->seq == a :
			   kind == 2 ? (unsigned long)s->year >= a :
			   ((unsigned long)s->year == a && (unsigned long)s->impulse >= b) ||
			   (unsigned long)s->year > a;
		if (kind == 1 && hit) {
			/* the last commit of that order number (after a reveal too) */
			memcpy(hex, history[i], 41);
			ret = 0;
			continue;
		}
		if (hit) {
			memcpy(hex, history[i], 41);
			ret = 0;
			break;
		}
	}
	if (ret < 0)
		error("the game has no %s %s",
		      kind == 1 ? "order" : kind == 2 ? "year" : "impulse", at);
	free(history);
	return ret;
}

static void last_order(struct game *g, struct map_last *last);

static int exec_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "as", required_argument, NULL, 'a' },
		{ "svg", no_argument, NULL, 's' },
		{ "png", no_argument, NULL, 'p' },
		{ "at", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	struct game g;
	struct strbuf out = STRBUF_INIT;
	int c, as = 0;
	bool svg = false, png = false;
	const char *at = NULL;
	char at_hex[41];

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'a') {
			as = side_parse(optarg);
			if (as <= 0) {
				error("--as takes american or british");
				return EXIT_USAGE;
			}
		} else if (c == 's') {
			svg = true;
		} else if (c == 'p') {
			png = true;
		} else if (c == 't') {
			at = optarg;
		} else {
			return cmd_usage(&cmd_show_entry);
		}
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_show_entry);
	if (open_game(argv[optind], &g) < 0)
		return EXIT_TEMPFAIL;
	if (at) {
		struct strbuf err = STRBUF_INIT;
		bool over = engine_game_over(&g.state);
		if (resolve_at(&g, at, at_hex) < 0 ||
		    game_load_state(&g, at_hex, &err) < 0) {
			if (err.len)
				error("%s", err.buf);
			strbuf_release(&err);
			game_close(&g);
			return EXIT_REJECTED;
		}
		strbuf_release(&err);
		/* a past hand is as secret as a present one until the end */
		if (as && !over && !g.have_seed) {
			error("--as with --at needs the host's copy or a finished game");
			game_close(&g);
			return EXIT_REJECTED;
		}
		memcpy(g.head, at_hex, 41);
	}
	if (svg || png) {
		struct map_last last;
		struct map_picture map;
		last_order(&g, &last);
		map_draw(g.data, &g.state, &last, &map);
		if (png) {
			struct strbuf pic = STRBUF_INIT, err = STRBUF_INIT;
			int r = map_png(&map, MAP_PNG_SCALE, &pic, &err);
			map_release(&map);
			if (r == 0)
				fwrite(pic.buf, 1, pic.len, stdout);
			else
				error("%s", err.buf);
			strbuf_release(&pic);
			strbuf_release(&err);
			if (r < 0) {
				strbuf_release(&out);
				game_close(&g);
				return EXIT_TEMPFAIL;
			}
		} else {
			map_svg(&map, &out);
			map_release(&map);
			fputs(out.buf, stdout);
		}
		goto done;
	}
	strbuf_addf(&out, "Washington's War, game %s: %s (American) v %s (British)\n",
		    g.id, g.player[SIDE_AMERICAN].name, g.player[SIDE_BRITISH].name);
	strbuf_addf(&out, "Order %u, commit %.12s\n\nNow: ", g.state.seq, g.head);
	engine_describe_prompt(g.data, &g.state, &out);
	strbuf_addstr(&out, "\n\n");
	{
		size_t before = out.len;
		/* public numbers, or the side's own when --as names it */
		report_numbers(g.data, &g.state, as && g.have_private ? (enum side)as : SIDE_NONE, &out);
		if (out.len > before)
			strbuf_addch(&out, '\n');
	}
	if (as) {
		if (g.have_private) {
			strbuf_addf(&out, "The %s hand:\n", side_title((enum side)as));
			report_hand(g.data, &g.state, (enum side)as, &out);
			strbuf_addch(&out, '\n');
		} else {
			strbuf_addstr(&out, "(the hands are sealed: this is not the host's copy)\n\n");
		}
		if (!engine_game_over(&g.state) && (int)g.state.prompt.side == as && g.have_private) {
			report_options_grouped(g.data, &g.state, &out);
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

/* What the order of g->head did, for the map: the state of its parent
 * (public part) against the game's, and the log. Nothing for the first
 * commit or when they cannot be read. */
static void last_order(struct game *g, struct map_last *last)
{
	struct strbuf log = STRBUF_INIT, pub = STRBUF_INIT, err = STRBUF_INIT;
	struct state *before = xcalloc(1, sizeof(*before));
	char *parent = xstrfmt("%s^", g->head);

	if (repo_read(g->repo, g->head, "log.txt", &log) != 0)
		strbuf_reset(&log);
	/* seq 0 is the new game's commit, which has no parent */
	if (g->state.seq > 0 && repo_read(g->repo, parent, "state.yaml", &pub) == 0 &&
	    state_read(before, g->data, pub.buf, pub.len, NULL, 0, &err) == 0)
		report_last_order(g->data, before, &g->state, log.buf, last);
	else
		report_last_order(g->data, NULL, &g->state, log.buf, last);
	free(parent);
	free(before);
	strbuf_release(&log);
	strbuf_release(&pub);
	strbuf_release(&err);
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
	if (g.peer && peer_view_own(dir, &g.state) < 0) {
		game_close(&g);
		return EXIT_TEMPFAIL;
	}
	if (!g.peer && !g.have_private && (g.state.prompt.kind == PROMPT_PLAY ||
				g.state.prompt.kind == PROMPT_EXCHANGE)) {
		error("the legal orders depend on a sealed hand: run this on the host's copy");
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
		error("the game has no log.txt");
		game_close(&g);
		return EXIT_TEMPFAIL;
	}
	fputs(log.buf, stdout);
	strbuf_release(&log);
	game_close(&g);
	return 0;
}

const struct cmd_entry cmd_show_entry = {
	"show", "show DIR [--at REF] [--as american|british] [--svg|--png]",
	"the report a side would receive now (never the other side's hand)",
	"  --at REF    as it was then: a commit, an order number (12), a year\n"
	"              (1777: its first state) or a year and impulse (1777/5)\n"
	"  --as SIDE   include that side's hand and, if it is to decide, its options\n"
	"              (with --at: on the host's copy, or once the game is over)\n"
	"  --svg       print the map as an SVG picture instead\n"
	"  --png       print the map as a PNG picture instead (as mailed)\n",
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
