/*
 * cmd-deadline.c - `postrider deadline DIR [TIME|none]`: the host shows or
 * changes a game's reply deadline and vacation limit (clock.h). A change
 * is mailed to both players; nothing is committed (time is the host's
 * service, kept beside the seed).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "notify.h"

static int exec_deadline(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "vacation-limit", required_argument, NULL, 'V' },
		{ "config", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *config_path = NULL, *vac = NULL, *dir, *arg;
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT, d = STRBUF_INIT;
	struct game g;
	long long deadline = -1, limit = -1;
	int c, r, ret = EXIT_REJECTED;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'V': vac = optarg; break;
		case 'c': config_path = optarg; break;
		default: return cmd_usage(&cmd_deadline_entry);
		}
	}
	if (optind >= argc || argc - optind > 2)
		return cmd_usage(&cmd_deadline_entry);
	dir = argv[optind];
	arg = optind + 1 < argc ? argv[optind + 1] : NULL;
	if (arg && strcmp(arg, "none") && duration_parse(arg, &deadline) < 0) {
		error("'%s' is not a duration (90m, 36h, 3d, 2w) or 'none'", arg);
		return EXIT_USAGE;
	}
	if (arg && !strcmp(arg, "none"))
		deadline = 0;
	if (vac && duration_parse(vac, &limit) < 0) {
		error("--vacation-limit takes a duration (14d)");
		return EXIT_USAGE;
	}
	if (config_load(config_path, &cfg, &err) < 0) {
		error("the configuration is wrong; fix it:\n%s", err.buf);
		strbuf_release(&err);
		return EXIT_CONFIG;
	}
	r = game_open(dir, &g, GAME_NEED_SECRET | GAME_LOCK, &err);
	if (r != 0) {
		error("%s", err.buf);
		ret = r == GAME_BUSY ? EXIT_TEMPFAIL : EXIT_CONFIG;
		goto out;
	}
	if (deadline >= 0 || limit >= 0) {
		if (deadline >= 0) {
			g.clock.deadline = deadline;
			/* a new deadline counts from now for the decision
			 * waited for; the time taken so far stays taken */
			clock_order(&g.clock, g.state.prompt.side, SIDE_NONE, game_now());
			/* and a reminder may be due again under it */
			g.clock.warned = g.clock.late = 0;
		}
		if (limit >= 0)
			g.clock.vacation_limit = limit;
		if (clock_save(g.repo, &g.clock) < 0) {
			ret = EXIT_TEMPFAIL;
			goto out;
		}
		strbuf_addstr(&text, "The host has changed the game's clock. ");
		if (g.clock.deadline) {
			duration_format(g.clock.deadline, &d);
			strbuf_addf(&text, "Each decision is now due within %s.", d.buf);
		} else {
			strbuf_addstr(&text, "There is no deadline any more.");
		}
		strbuf_reset(&d);
		duration_format(g.clock.vacation_limit, &d);
		strbuf_addf(&text, " Each side may take %s of vacation in this game ('vacation 3d' by mail).\n", d.buf);
		notify_init(&n, &g, &cfg);
		if (!engine_game_over(&g.state))
			for (enum side s = SIDE_AMERICAN; s <= SIDE_BRITISH; s++)
				if (notify_notice(&n, &g, s, "deadline", "the deadline has changed",
						  text.buf, NULL) < 0)
					ret = EXIT_TEMPFAIL;
		fputs(text.buf, stdout);
		ret = ret == EXIT_TEMPFAIL ? ret : notify_send(&n, &cfg) > 0 ? EXIT_UNSENT : 0;
		goto out;
	}
	/* only show */
	strbuf_reset(&d);
	if (g.clock.deadline) {
		duration_format(g.clock.deadline, &d);
		printf("deadline: %s a decision\n", d.buf);
	} else {
		printf("deadline: none\n");
	}
	strbuf_reset(&d);
	duration_format(g.clock.vacation_limit, &d);
	printf("vacation limit: %s a side\n", d.buf);
	strbuf_reset(&text);
	if (!engine_game_over(&g.state))
		clock_describe(&g.clock, g.state.prompt.side, game_now(), &text);
	fputs(text.buf, stdout);
	for (enum side s = SIDE_AMERICAN; s <= SIDE_BRITISH; s++) {
		strbuf_reset(&d);
		duration_format(g.clock.side[s].vacation_used, &d);
		printf("%s vacation used: %s\n", side_title(s), d.buf);
	}
	ret = 0;
out:
	notify_release(&n);
	game_close(&g);
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&text);
	strbuf_release(&d);
	return ret;
}

const struct cmd_entry cmd_deadline_entry = {
	"deadline", "deadline DIR [TIME|none] [--vacation-limit TIME] [--config FILE]",
	"show or change a game's reply deadline and vacation limit",
	"  TIME                  each decision is due within TIME (90m, 36h, 3d, 2w);\n"
	"                        'none' removes the deadline; without it, show the clock\n"
	"  --vacation-limit TIME vacation each side may take by mail in this game\n"
	"  --config FILE         mail configuration (as for play)\n"
	"A change is mailed to both players; the decision waited for is due TIME\n"
	"from now.\n",
	exec_deadline,
};
