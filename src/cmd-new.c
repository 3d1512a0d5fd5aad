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
#include "transport.h"
#include "turn.h"

static int parse_player(const char *opt, const char *arg, struct game_player *p)
{
	if (!arg) {
		error("%s is required", opt);
		return -1;
	}
	if (game_player_parse(arg, p) < 0) {
		error("%s: '%s' is not a mail address (\"Name <addr@example.org>\")",
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

/* What the command line asks for. */
struct new_opts {
	const char *am, *br, *host, *data, *seed_hex, *config_path, *games;
	const char *publish_url, *dir;
	bool tournament;
	int fairness;
	long long deadline, vacation_limit;
	enum mail_mode mail_mode[3];
};

/* --mail-mode MODE for both players, or SIDE=MODE; -1 if it is neither. */
static int parse_mail_mode(const char *arg, enum mail_mode mode_of[3])
{
	const char *eq = strchr(arg, '=');
	int side = SIDE_NONE, mode = mail_mode_parse(eq ? eq + 1 : arg);

	if (eq) {
		char *who = xstrndup(arg, (size_t)(eq - arg));
		side = side_parse(who);
		free(who);
	}
	if (mode < 0 || (eq && side <= 0))
		return -1;
	for (int sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++)
		if (!eq || sd == side)
			mode_of[sd] = (enum mail_mode)mode;
	return 0;
}

/* The options and the folder; 0, or the exit status of a usage error. */
static int parse_new_opts(int argc, char **argv, struct new_opts *o)
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
	int c;

	memset(o, 0, sizeof(*o));
	o->fairness = GAME_FAIRNESS_MAX;
	o->vacation_limit = CLOCK_DEFAULT_VACATION;
	for (int sd = 0; sd < 3; sd++)
		o->mail_mode[sd] = MAIL_EVERY;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a': o->am = optarg; break;
		case 'b': o->br = optarg; break;
		case 'H': o->host = optarg; break;
		case 'd': o->data = optarg; break;
		case 's': o->seed_hex = optarg; break;
		case 't': o->tournament = true; break;
		case 'c': o->config_path = optarg; break;
		case 'G': o->games = optarg; break;
		case 'P': o->publish_url = optarg; break;
		case 'F':
			if (strcmp(optarg, "1") && strcmp(optarg, "2") && strcmp(optarg, "3") &&
			    strcmp(optarg, "4")) {
				error("--fairness takes 4 (each die provable at once as the one due at its place among the game's dice, the default), 3 (bound to its side's count of orders), 2 (dice provable at once) or 1 (checked at the reveal)");
				return EXIT_USAGE;
			}
			o->fairness = *optarg - '0';
			break;
		case 'D':
		case 'V':
			if (duration_parse(optarg, c == 'D' ? &o->deadline : &o->vacation_limit) < 0) {
				error("--%s takes a duration: a number and m, h, d or w (3d)",
				      c == 'D' ? "deadline" : "vacation-limit");
				return EXIT_USAGE;
			}
			break;
		case 'M':
			if (parse_mail_mode(optarg, o->mail_mode) < 0) {
				error("--mail-mode takes every, my-move or digest, or SIDE=MODE (american=digest)");
				return EXIT_USAGE;
			}
			break;
		default: return cmd_usage(&cmd_new_entry);
		}
	}
	/* DIR, or --games ROOT: the game goes to ROOT/<game id> */
	if (o->games ? optind != argc : optind + 1 != argc)
		return cmd_usage(&cmd_new_entry);
	o->dir = o->games ? NULL : argv[optind];
	return 0;
}

/*
 * The game in memory: its players, data, seed, id, keys and options.
 * 0, -1 (said), or EXIT_USAGE.
 */
static int make_game(struct game *g, const struct new_opts *o,
		     const struct mail_config *cfg, char **datadir)
{
	struct strbuf err = STRBUF_INIT;
	/* The host: --host, else the configured sender, else a local name. */
	const char *host = o->host ? o->host : cfg->from ? cfg->from :
			   "postrider <postrider@localhost.localdomain>";
	int ret = -1;

	if (parse_player("--american", o->am, &g->player[SIDE_AMERICAN]) < 0 ||
	    parse_player("--british", o->br, &g->player[SIDE_BRITISH]) < 0 ||
	    parse_player("--host", host, &g->player[0]) < 0)
		return EXIT_USAGE;
	/* A player is known by the address his mail comes from. */
	if (!ascii_strcasecmp(g->player[SIDE_AMERICAN].addr, g->player[SIDE_BRITISH].addr)) {
		error("both players have the address '%s': "
		      "orders are told apart by their sender, so each side needs its own",
		      g->player[SIDE_AMERICAN].addr);
		return EXIT_USAGE;
	}
	g->module = xstrdup("washingtons-war");
	*datadir = game_data_dir(o->data, g->module);
	g->data = g->data_owned = data_load(*datadir, &err);
	if (!g->data) {
		error("the component data in '%s' does not load:\n%s", *datadir, err.buf);
		goto out;
	}
	if (o->seed_hex) {
		if (fair_seed_parse(o->seed_hex, g->seed) < 0) {
			error("--seed takes 64 hex digits");
			ret = EXIT_USAGE;
			goto out;
		}
		g->seed_source = xstrdup("given");
	} else {
		if (fair_new_seed(g->seed) < 0)
			goto out;
		g->seed_source = xstrdup("random");
	}
	g->have_seed = true;
	fair_commitment(g->seed, g->commitment);
	g->id = xstrfmt("ww-%.8s", g->commitment);
	g->fairness = o->fairness;
	if (o->fairness >= 2 && fair_vrf_keys(g->seed, NULL, g->vrf_pk) < 0) {
		error("cannot derive the game's VRF key");
		goto out;
	}
	g->data_hash = xstrdup(g->data->hash);
	g->data_name = xstrdup(g->data->game);	/* the data folder's name */
	g->tournament = o->tournament;
	g->player[SIDE_AMERICAN].mail = o->mail_mode[SIDE_AMERICAN];
	g->player[SIDE_BRITISH].mail = o->mail_mode[SIDE_BRITISH];
	for (int i = 0; i < g->data->n_files; i++)
		g->data_files[g->n_data_files++] = xstrdup(base(g->data->files[i]));
	ret = 0;
out:
	strbuf_release(&err);
	return ret;
}

/* The secret first: a game whose secret was lost is no game. */
static int write_secret(struct game *g)
{
	struct strbuf path = STRBUF_INIT;
	char hex[FAIR_SEED_HEX + 2];
	int ret = -1;

	if (repo_private_path(g->repo, "secret", &path) < 0)
		goto out;
	fair_seed_format(g->seed, hex);
	strcat(hex, "\n");
	if (write_file_atomic(path.buf, hex, strlen(hex)) < 0)
		goto out;
	chmod(path.buf, 0600);
	ret = 0;
out:
	strbuf_release(&path);
	return ret;
}

/*
 * The set-up (4.0) up to the first decision, committed with game.yaml and
 * the data, and the first reports staged in n. 0 or -1 (said).
 */
static int first_commit(struct game *g, const struct new_opts *o,
			struct notify *n, struct state *s, char commit[41])
{
	struct strbuf log = STRBUF_INIT, yaml = STRBUF_INIT, subject = STRBUF_INIT;
	struct strbuf proofs = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf files_text[DATA_MAX_FILES];
	struct repo_file extra[DATA_MAX_FILES + 1];
	char *data_paths[DATA_MAX_FILES] = { NULL };
	int n_extra = 0, ret = -1;
	struct rng r;

	for (int i = 0; i < DATA_MAX_FILES; i++)
		strbuf_init(&files_text[i]);
	game_rng(g, &r);
	r.proofs = &proofs;
	engine_new_game(g->data, s, &r, &log);
	s->tournament = g->tournament;	/* 6.34.C.i */
	s->draws = r.next;
	g->state = *s;

	game_write_yaml(g, &yaml);
	extra[n_extra++] = (struct repo_file){ "game.yaml", yaml.buf, yaml.len };
	for (int i = 0; i < g->data->n_files; i++) {
		if (read_file(g->data->files[i], &files_text[i], 4 << 20) < 0) {
			error("cannot read '%s': %s", g->data->files[i], strerror(errno));
			goto out;
		}
		data_paths[i] = xstrfmt("data/%s", g->data_files[i]);
		extra[n_extra++] = (struct repo_file){ data_paths[i], files_text[i].buf, files_text[i].len };
	}
	/* the host's clock, before the first reports show it */
	clock_init(&g->clock, game_now());
	g->clock.deadline = o->deadline;
	g->clock.vacation_limit = o->vacation_limit;
	if (clock_save(g->repo, &g->clock) < 0)
		goto out;
	strbuf_addf(&subject, "New game %s: %s (American) v %s (British)", g->id,
		    g->player[SIDE_AMERICAN].name, g->player[SIDE_BRITISH].name);
	struct turn t = {
		.next = s, .side = SIDE_NONE, .happened = log.buf,
		.subject = subject.buf, .extra = extra, .n_extra = n_extra,
		.proofs = proofs.buf,
	};
	if (turn_commit(g, &t, n, commit, &err) != 0) {
		error("%s", err.buf);
		goto out;
	}
	ret = 0;
out:
	for (int i = 0; i < DATA_MAX_FILES; i++) {
		free(data_paths[i]);
		strbuf_release(&files_text[i]);
	}
	strbuf_release(&log);
	strbuf_release(&yaml);
	strbuf_release(&subject);
	strbuf_release(&proofs);
	strbuf_release(&err);
	return ret;
}

static int exec_new(int argc, char **argv)
{
	struct new_opts o;
	struct game g;
	struct mail_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct notify n = { 0 };
	char *dir = NULL, *datadir = NULL, commit[41];
	int ret, made = 0;
	struct state s;

	if ((ret = parse_new_opts(argc, argv, &o)) != 0)
		return ret;
	ret = 1;
	memset(&g, 0, sizeof(g));
	if (o.publish_url && publish_check_url(o.publish_url, &err) < 0) {
		error("--publish: %s (nothing was made)", err.buf);
		strbuf_release(&err);
		return EXIT_USAGE;
	}
	if (config_load(o.config_path, &cfg, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if ((ret = make_game(&g, &o, &cfg, &datadir)) != 0) {
		ret = ret < 0 ? 1 : ret;
		goto out;
	}
	ret = 1;
	dir = o.games ? xstrfmt("%s/%s", o.games, g.id) : xstrdup(o.dir);
	{
		struct stat st;
		bool existed = stat(dir, &st) == 0;
		if (repo_create(dir, &g.repo) < 0)
			goto out;
		/* from here on a failure takes back all it made */
		made = existed ? 2 : 1;
	}
	g.dir = xstrdup(dir);
	if (o.publish_url && publish_set_remote(g.repo, o.publish_url, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (write_secret(&g) < 0)
		goto out;
	notify_init(&n, &g, &cfg);
	if (first_commit(&g, &o, &n, &s, commit) < 0)
		goto out;
	made = 0;	/* committed: the game stands, mailed or not */
	printf("created game %s in %s (commit %.12s)\n", g.id, dir, commit);
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
	/* where the mail waits, if it waits: not once it is sent */
	if (ret || !transport_can_send(&cfg))
		printf("outbox: %s/new\n", n.outbox);
	fflush(stdout);
	if (ret)
		error("the game is created but its first mail was not sent");
	publish_after_commit(g.repo, &cfg);
out:
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	/* No half-made game with a secret in it: the folder was absent or
	 * empty, so all that is in it now is ours. */
	if (ret != 0 && made && remove_tree(dir, made == 2) < 0)
		error("could not remove the half-made game in '%s': %s (remove it by hand)",
		      dir, strerror(errno));
	else if (ret != 0 && made)
		error("nothing was created in '%s'", dir);
	free(datadir);
	free(dir);
	strbuf_release(&err);
	return ret;
}

const struct cmd_entry cmd_new_entry = {
	"new",
	"new (DIR | --games ROOT) --american \"Name <addr>\" --british \"Name <addr>\" [--host \"Name <addr>\"] [--tournament] [--data DIR] [--seed HEX] [--publish URL] [--mail-mode [SIDE=]MODE] [--deadline TIME] [--vacation-limit TIME] [--fairness 1|2|3|4]",
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
	"  --fairness 4|3|2|1     4 (the default): every public die provable at once\n"
	"                         with the game's VRF key, as the one due at its place\n"
	"                         among the game's dice; 3: bound to its side's count of\n"
	"                         orders, 2: to the shared draw index (older games); 1:\n"
	"                         the keyed stream alone, checked when the seed is\n"
	"                         revealed (docs/fairness.md)\n"
	"  --config FILE          mail configuration (default: $POSTRIDER_CONFIG, else\n"
	"                         ~/.config/postrider/config.yaml, else /etc/postrider/config.yaml)\n"
	"exit status: 0 created and mailed, 3 created but mail waits in the outbox\n",
	exec_new,
};
