/*
 * cmd-new.c - `postrider new`: creates a game repository, sets the game up
 * (4.0) up to the first decision, commits and mails both players.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "mail.h"
#include "publish.h"
#include "turn.h"

static int parse_player(const char *opt, const char *arg, struct game_player *p)
{
	if (!arg) {
		fprintf(stderr, "postrider new: %s is required\n", opt);
		return -1;
	}
	if (game_player_parse(arg, p) < 0) {
		fprintf(stderr, "postrider new: %s: '%s' is not a mail address (\"Name <addr@example.org>\")\n",
			opt, arg);
		return -1;
	}
	return 0;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int exec_new(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "american", required_argument, NULL, 'a' },
		{ "british", required_argument, NULL, 'b' },
		{ "host", required_argument, NULL, 'H' },
		{ "data", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "tournament", no_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'c' },
		{ "games", required_argument, NULL, 'G' },
		{ "publish", required_argument, NULL, 'P' },
		{ "mail-mode", required_argument, NULL, 'M' },
		{ "deadline", required_argument, NULL, 'D' },
		{ "vacation-limit", required_argument, NULL, 'V' },
		{ "fairness", required_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	const char *am = NULL, *br = NULL, *host = NULL, *data_opt = NULL;
	const char *seed_hex = NULL, *config_path = NULL, *games = NULL;
	const char *publish_url = NULL;
	char *dir = NULL;
	bool tournament = false;
	int fairness = 3;
	long long deadline = 0, vacation_limit = CLOCK_DEFAULT_VACATION;
	enum mail_mode mail_mode[3] = { MAIL_EVERY, MAIL_EVERY, MAIL_EVERY };
	struct game g;
	struct mail_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT, log = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf yaml = STRBUF_INIT, subject = STRBUF_INIT, proofs = STRBUF_INIT;
	struct strbuf files_text[DATA_MAX_FILES];
	struct repo_file extra[DATA_MAX_FILES + 1];
	char *data_paths[DATA_MAX_FILES] = { NULL };
	struct notify n = { 0 };
	char *datadir = NULL, commit[41];
	int c, ret = 1, n_extra = 0, made = 0;
	struct rng r;
	struct state s;

	memset(&g, 0, sizeof(g));
	for (int i = 0; i < DATA_MAX_FILES; i++)
		strbuf_init(&files_text[i]);
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a': am = optarg; break;
		case 'b': br = optarg; break;
		case 'H': host = optarg; break;
		case 'd': data_opt = optarg; break;
		case 's': seed_hex = optarg; break;
		case 't': tournament = true; break;
		case 'c': config_path = optarg; break;
		case 'G': games = optarg; break;
		case 'P': publish_url = optarg; break;
		case 'F':
			if (strcmp(optarg, "1") && strcmp(optarg, "2") && strcmp(optarg, "3")) {
				fprintf(stderr, "postrider new: --fairness takes 3 (each die provable at once as the one its order called for, the default), 2 (dice provable at once) or 1 (checked at the reveal)\n");
				return EXIT_USAGE;
			}
			fairness = *optarg - '0';
			break;
		case 'D':
		case 'V':
			if (duration_parse(optarg, c == 'D' ? &deadline : &vacation_limit) < 0) {
				fprintf(stderr, "postrider new: --%s takes a duration: a number and m, h, d or w (3d)\n",
					c == 'D' ? "deadline" : "vacation-limit");
				return EXIT_USAGE;
			}
			break;
		case 'M': {
			/* MODE for both players, or SIDE=MODE */
			const char *eq = strchr(optarg, '=');
			int side = SIDE_NONE, mode = mail_mode_parse(eq ? eq + 1 : optarg);
			if (eq) {
				char *who = xstrndup(optarg, (size_t)(eq - optarg));
				side = side_parse(who);
				free(who);
			}
			if (mode < 0 || (eq && side <= 0)) {
				fprintf(stderr, "postrider new: --mail-mode takes every, my-move or digest, or SIDE=MODE (american=digest)\n");
				return EXIT_USAGE;
			}
			for (int sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++)
				if (!eq || sd == side)
					mail_mode[sd] = (enum mail_mode)mode;
			break;
		}
		default: return cmd_usage(&cmd_new_entry);
		}
	}
	/* DIR, or --games ROOT: the game goes to ROOT/<game id> */
	if (games ? optind != argc : optind + 1 != argc)
		return cmd_usage(&cmd_new_entry);
	if (config_load(config_path, &cfg, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	/* The host: --host, else the configured sender, else a local name. */
	if (!host)
		host = cfg.from ? cfg.from : "postrider <postrider@localhost.localdomain>";
	if (parse_player("--american", am, &g.player[SIDE_AMERICAN]) < 0 ||
	    parse_player("--british", br, &g.player[SIDE_BRITISH]) < 0 ||
	    parse_player("--host", host, &g.player[0]) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	/* A player is known by the address his mail comes from. */
	if (!ascii_strcasecmp(g.player[SIDE_AMERICAN].addr, g.player[SIDE_BRITISH].addr)) {
		fprintf(stderr, "postrider new: both players have the address '%s': "
			"orders are told apart by their sender, so each side needs its own\n",
			g.player[SIDE_AMERICAN].addr);
		ret = EXIT_USAGE;
		goto out;
	}
	g.module = xstrdup("washingtons-war");
	datadir = game_data_dir(data_opt, g.module);
	g.data = g.data_owned = data_load(datadir, &err);
	if (!g.data) {
		fprintf(stderr, "error: the component data in '%s' does not load:\n%s", datadir, err.buf);
		goto out;
	}
	if (seed_hex) {
		if (fair_seed_parse(seed_hex, g.seed) < 0) {
			fprintf(stderr, "postrider new: --seed takes 64 hex digits\n");
			ret = EXIT_USAGE;
			goto out;
		}
		g.seed_source = xstrdup("given");
	} else {
		if (fair_new_seed(g.seed) < 0)
			goto out;
		g.seed_source = xstrdup("random");
	}
	g.have_seed = true;
	fair_commitment(g.seed, g.commitment);
	g.id = xstrfmt("ww-%.8s", g.commitment);
	g.fairness = fairness;
	if (fairness >= 2 && fair_vrf_keys(g.seed, NULL, g.vrf_pk) < 0) {
		error("cannot derive the game's VRF key");
		goto out;
	}
	g.data_hash = xstrdup(g.data->hash);
	g.data_name = xstrdup(g.data->game);	/* the data folder's name */
	g.tournament = tournament;
	g.player[SIDE_AMERICAN].mail = mail_mode[SIDE_AMERICAN];
	g.player[SIDE_BRITISH].mail = mail_mode[SIDE_BRITISH];
	for (int i = 0; i < g.data->n_files; i++)
		g.data_files[g.n_data_files++] = xstrdup(base(g.data->files[i]));

	dir = games ? xstrfmt("%s/%s", games, g.id) : xstrdup(argv[optind]);
	{
		struct stat st;
		bool existed = stat(dir, &st) == 0;
		if (repo_create(dir, &g.repo) < 0)
			goto out;
		/* from here on a failure takes back all it made */
		made = existed ? 2 : 1;
	}
	g.dir = xstrdup(dir);
	if (publish_url && publish_set_remote(g.repo, publish_url, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	/* The secret first: a game whose secret was lost is no game. */
	if (repo_private_path(g.repo, "secret", &path) < 0)
		goto out;
	{
		char hex[FAIR_SEED_HEX + 1];
		fair_seed_format(g.seed, hex);
		strcat(hex, "\n");
		if (write_file_atomic(path.buf, hex, strlen(hex)) < 0)
			goto out;
		chmod(path.buf, 0600);
	}

	game_rng(&g, &r);
	r.proofs = &proofs;
	engine_new_game(g.data, &s, &r, &log);
	s.tournament = g.tournament;	/* 6.34.C.i */
	s.draws = r.next;
	g.state = s;

	game_write_yaml(&g, &yaml);
	extra[n_extra++] = (struct repo_file){ "game.yaml", yaml.buf, yaml.len };
	for (int i = 0; i < g.data->n_files; i++) {
		if (read_file(g.data->files[i], &files_text[i], 4 << 20) < 0) {
			error("cannot read '%s': %s", g.data->files[i], strerror(errno));
			goto out;
		}
		data_paths[i] = xstrfmt("data/%s", g.data_files[i]);
		extra[n_extra++] = (struct repo_file){ data_paths[i], files_text[i].buf, files_text[i].len };
	}
	/* the host's clock, before the first reports show it */
	clock_init(&g.clock, game_now());
	g.clock.deadline = deadline;
	g.clock.vacation_limit = vacation_limit;
	if (clock_save(g.repo, &g.clock) < 0)
		goto out;
	strbuf_addf(&subject, "New game %s: %s (American) v %s (British)", g.id,
		    g.player[SIDE_AMERICAN].name, g.player[SIDE_BRITISH].name);
	notify_init(&n, &g, &cfg);
	{
		struct turn t = {
			.next = &s, .side = SIDE_NONE, .happened = log.buf,
			.subject = subject.buf, .extra = extra, .n_extra = n_extra,
			.proofs = proofs.buf,
		};
		if (turn_commit(&g, &t, &n, commit, &err) != 0) {
			error("%s", err.buf);
			goto out;
		}
	}
	made = 0;	/* committed: the game stands, mailed or not */
	printf("created game %s in %s (commit %.12s)\n", g.id, dir, commit);
	printf("outbox: %s/new\n", n.outbox);
	printf("now: ");
	fflush(stdout);
	{
		struct strbuf p = STRBUF_INIT;
		engine_describe_prompt(g.data, &s, &p);
		printf("%s\n", p.buf);
		strbuf_release(&p);
	}
	fflush(stdout);
	ret = notify_send(&n, &cfg) > 0 ? EXIT_UNSENT : 0;
	if (ret)
		fprintf(stderr, "postrider: the game is created but its first mail was not sent\n");
	publish_after_commit(g.repo, &cfg);
out:
	for (int i = 0; i < DATA_MAX_FILES; i++)
		free(data_paths[i]);
	for (int i = 0; i < DATA_MAX_FILES; i++)
		strbuf_release(&files_text[i]);
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	/* No half-made game with a secret in it: the folder was absent or
	 * empty, so all that is in it now is ours. */
	if (ret != 0 && made && remove_tree(dir, made == 2) < 0)
		error("could not remove the half-made game in '%s': %s (remove it by hand)",
		      dir, strerror(errno));
	else if (ret != 0 && made)
		fprintf(stderr, "postrider new: nothing was created in '%s'\n", dir);
	free(datadir);
	free(dir);
	strbuf_release(&err);
	strbuf_release(&log);
	strbuf_release(&path);
	strbuf_release(&yaml);
	strbuf_release(&subject);
	strbuf_release(&proofs);
	return ret;
}

const struct cmd_entry cmd_new_entry = {
	"new",
	"new (DIR | --games ROOT) --american \"Name <addr>\" --british \"Name <addr>\" [--host \"Name <addr>\"] [--tournament] [--data DIR] [--seed HEX] [--publish URL] [--mail-mode [SIDE=]MODE] [--deadline TIME] [--vacation-limit TIME] [--fairness 1|2|3]",
	"create a game repository and set the game up",
	"  --american, --british  the players (mail addresses)\n"
	"  --games ROOT           create the game in ROOT/<game id> (for play --games)\n"
	"  --host ADDR            the host's address, the sender of all mail\n"
	"  --tournament           the Optional Tournament Rule (6.34.C.i)\n"
	"  --data DIR             the component data (default: games/washingtons-war)\n"
	"  --seed HEX             a given seed instead of a random one (tests; marked in game.yaml)\n"
	"  --publish URL          a git remote the game is pushed to after every turn\n"
	"  --mail-mode [SIDE=]MODE  when a player is mailed: every turn (every, the\n"
	"                         default), only when he must decide (my-move), or so\n"
	"                         without the board's text (digest); SIDE american|british\n"
	"  --deadline TIME        each decision is due within TIME (90m, 36h, 3d, 2w);\n"
	"                         `postrider remind` mails the reminders (default: none)\n"
	"  --vacation-limit TIME  how much vacation each player may take by mail in\n"
	"                         this game (default 14d)\n"
	"  --fairness 3|2|1       3 (the default): every public die provable at once\n"
	"                         with the game's VRF key, as the one its order called\n"
	"                         for; 2: provable, bound to the shared draw index (older\n"
	"                         games); 1: the keyed stream alone, checked when the\n"
	"                         seed is revealed (docs/fairness.md)\n"
	"  --config FILE          mail configuration (default: $POSTRIDER_CONFIG, else\n"
	"                         ~/.config/postrider/config.yaml, else /etc/postrider/config.yaml)\n"
	"exit status: 0 created and mailed, 3 created but mail waits in the outbox\n",
	exec_new,
};
