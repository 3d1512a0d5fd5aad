/*
 * cmd-play.c - `postrider play` and `postrider check`: one order, from a
 * player's mail or typed by the host, adjudicated against the current
 * state. play commits and mails; check only says what would happen.
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "game.h"
#include "hostlog.h"
#include "mail.h"
#include "notify.h"
#include "peer.h"
#include "play.h"
#include "publish.h"
#include "report.h"
#include "route.h"

#define MAX_INPUT (1 << 20)

struct play_opts {
	bool check;
	const char *dir, *input, *config_path;
	const char *games;	/* --games ROOT: the game named in the mail */
	int as;			/* -1: the input is a mail message */
	int n_dice, dice[RNG_MAX_FORCED];
	bool default_order;	/* --default: the late side's default order */
};

/* The input was refused or routed before it reached a game: the
 * verdict, the status and what became of it. */
static void routed(struct play_outcome *res, enum play_verdict v, int status,
		   const char *said)
{
	res->verdict = v;
	res->status = status;
	strbuf_reset(&res->said);
	strbuf_addstr(&res->said, said);
}

static int read_input(const char *path, struct strbuf *out)
{
	if (!path || !strcmp(path, "-")) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
			strbuf_add(out, buf, n);
			if (out->len > MAX_INPUT) {
				errno = EFBIG;
				return -1;
			}
		}
		return ferror(stdin) ? -1 : 0;
	}
	return read_file(path, out, MAX_INPUT);
}

static int parse_dice(const char *arg, struct play_opts *o)
{
	for (const char *p = arg; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 6 || o->n_dice >= RNG_MAX_FORCED)
			return -1;
		o->dice[o->n_dice++] = (int)v;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return o->n_dice ? 0 : -1;
}

/* --games ROOT: the game comes from the message (route.h) */
static char *routed_dir;

/* The templates must be there before a mail is taken: without them no
 * reply can be written, and a retry would fail the same way. */
static int templates_present(struct strbuf *why)
{
	char *dir = report_templates_dir(), *probe = xstrfmt("%s/turn.txt", dir);
	int ok = access(probe, R_OK) == 0;

	if (!ok)
		strbuf_addf(why, "the templates are not in '%s' (%s): install postrider with 'make install', or set POSTRIDER_TEMPLATES",
			    dir, strerror(errno));
	free(probe);
	free(dir);
	return ok;
}

/* The host's line for this message; a message routed away before it was
 * decided (an automatic one, say) is parsed here for its sender. */
static void log_for_host(const struct mail_config *cfg, const struct game *g,
			 const struct play_outcome *res, const struct strbuf *input)
{
	struct mail_message m = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *from = res->from, *id = res->message_id;
	char game_id[64] = "";

	if (!cfg->log)
		return;
	if (!from && mail_parse(input->buf, input->len, &m, &err) == 0) {
		from = m.from_addr;
		id = m.message_id;
		if (!g->id && from && !mail_find_game(&m, game_id, sizeof(game_id)))
			*game_id = '\0';
	}
	{
		/* a failure is an error in the log as on stderr */
		char *line = xstrfmt("%s%s", res->verdict == PLAY_FAILED ? "error: " : "",
				     res->said.buf);
		hostlog_write(cfg->log, game_now(), g->id ? g->id : game_id, id, from,
			      res->status, line);
		free(line);
	}
	mail_message_release(&m);
	strbuf_release(&err);
}

/* Says once what became of the input, and returns its exit status. */
static int finish(struct play_outcome *res, const struct strbuf *input,
		  const struct mail_config *cfg, bool have_cfg,
		  const struct game *g, const struct play_opts *o, bool committed)
{
	struct strbuf *said = &res->said;

	fputs(res->out.buf, stdout);
	while (said->len && said->buf[said->len - 1] == '\n')
		said->buf[--said->len] = '\0';
	/* an error as every error; a verdict as it is ("rejected: ..."),
	 * unless stdout says it (a committed order) or the answer is the
	 * mail (a question) */
	if (said->len && res->verdict == PLAY_FAILED)
		error("%s", said->buf);
	else if (said->len && res->verdict != PLAY_ANSWERED && !(committed && res->out.len))
		fprintf(stderr, "%s\n", said->buf);
	if (have_cfg && o->as < 0 && !o->check)
		log_for_host(cfg, g, res, input);
	return res->status;
}

static int run(struct play_opts *o)
{
	struct game g;
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf input = STRBUF_INIT, err = STRBUF_INIT;
	struct play_outcome res;
	bool committed = false, have_cfg = false;
	int r;

	play_outcome_init(&res);
	memset(&g, 0, sizeof(g));
	res.verdict = PLAY_FAILED;
	if (read_input(o->input, &input) < 0) {
		if (errno == EFBIG) {
			strbuf_addf(&err, "rejected: the input is larger than %d bytes", MAX_INPUT);
			routed(&res, PLAY_REJECTED, EXIT_REJECTED, err.buf);
		} else {
			play_fail(&res, EXIT_TEMPFAIL, "cannot read the order: %s", strerror(errno));
		}
		goto out;
	}
	if (config_load(o->config_path, &cfg, &err) < 0) {
		/* permanent: a retry reads the same file (cmd.h) */
		play_fail(&res, EXIT_CONFIG, "the configuration is wrong; fix it (nothing was changed):\n%s",
			  err.buf);
		goto out;
	}
	have_cfg = true;
	if (!o->check && !templates_present(&err)) {
		play_fail(&res, EXIT_CONFIG, "%s (nothing was changed)", err.buf);
		goto out;
	}
	strbuf_reset(&err);
	if (o->games) {
		free(routed_dir);
		r = route_message(o->games, &cfg, input.buf, input.len, &routed_dir, &err);
		if (r != 0) {
			/* to the host's mailbox (0), refused (1), or not handed
			 * over (75): in each case not a game's input */
			routed(&res, r == -1 ? PLAY_REJECTED : PLAY_IGNORED,
			       r > 0 ? 0 : r == -1 ? EXIT_REJECTED : EXIT_TEMPFAIL, err.buf);
			goto out;
		}
		o->dir = routed_dir;
	}
	/* one open for both modes: game.yaml says which (a peer game has no
	 * host's secret, docs/peer.md) */
	r = game_open(o->dir, &g, GAME_NEED_SECRET | (o->check ? 0 : GAME_LOCK), &err);
	while (err.len && err.buf[err.len - 1] == '\n')
		err.buf[--err.len] = '\0';	/* one line (issue 30) */
	if (r == GAME_BUSY) {
		play_fail(&res, EXIT_TEMPFAIL, "%s; try again later (nothing was changed)", err.buf);
		goto out;
	}
	if (r < 0) {
		/* not a game, a missing seed, a corrupt file: the host must
		 * look; a mail system that retried would only fail again */
		play_fail(&res, EXIT_CONFIG,
			  "%s (the game cannot be opened: nothing was changed; the host must fix it)",
			  err.buf);
		goto out;
	}

	struct play_request rq = {
		.input = input.buf, .len = input.len, .as = o->as, .check = o->check,
		.default_order = o->default_order, .dice = o->dice, .n_dice = o->n_dice,
		.dkim = &cfg.dkim,
	};
	if (g.peer) {
		/* a player's own copy, no host (docs/peer.md 8.3, 8.4): the
		 * same policy and verdict, this mode's commit */
		committed = peer_play_game(&g, &cfg, &n, &rq, &res);
		goto out;
	}
	notify_init(&n, &g, &cfg);
	if (!o->check && notify_recover(&n, &g) != 0)
		warning("some mail left by an earlier run in '%s/tmp' could not be recovered", n.outbox);
	play_decide(&g, &rq, &res);
	if (!o->check)
		committed = play_carry_out(&g, &n, &res);
out:
	/* every mail of this run (a report, a rejection) goes now */
	if (!o->check && n.outbox && notify_send(&n, &cfg) > 0 && committed) {
		error("the turn is committed but its mail was not sent");
		strbuf_addstr(&res.said, "; its mail was not sent");
		res.status = EXIT_UNSENT;
	}
	r = finish(&res, &input, &cfg, have_cfg, &g, o, committed);
	if (committed && g.repo)	/* a peer copy has no remote to push to */
		publish_after_commit(g.repo, &cfg);
	play_outcome_release(&res);
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	strbuf_release(&input);
	strbuf_release(&err);
	return r;
}

static int exec_common(int argc, char **argv, bool check,
		       const struct cmd_entry *e)
{
	static const struct option opts[] = {
		{ "as", required_argument, NULL, 'a' },
		{ "config", required_argument, NULL, 'c' },
		{ "fix-dice", required_argument, NULL, 'f' },
		{ "games", required_argument, NULL, 'G' },
		{ "default", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 }
	};
	struct play_opts o = { .check = check, .as = -1 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o.as = side_parse(optarg);
			if (o.as <= 0) {
				error("--as takes american or british");
				return EXIT_USAGE;
			}
			break;
		case 'c': o.config_path = optarg; break;
		case 'G': o.games = optarg; break;
		case 'D': o.default_order = true; break;
		case 'f':
			if (parse_dice(optarg, &o) < 0) {
				error("--fix-dice takes die values 1-6 separated by commas");
				return EXIT_USAGE;
			}
			break;
		default: return cmd_usage(e);
		}
	}
	if (o.games) {
		/* --games ROOT [FILE]: the game comes from the message */
		if (o.as > 0 || argc - optind > 1) {
			error("--games takes a mail message, not --as, and no DIR");
			return EXIT_USAGE;
		}
		o.input = optind < argc ? argv[optind] : "-";
	} else if (o.default_order) {
		if (o.as <= 0 || argc - optind != 1) {
			error("--default takes --as SIDE and DIR, and no order");
			return EXIT_USAGE;
		}
		o.dir = argv[optind];
		o.input = "/dev/null";
	} else {
		if (optind >= argc || argc - optind > 2)
			return cmd_usage(e);
		o.dir = argv[optind];
		o.input = optind + 1 < argc ? argv[optind + 1] : "-";
	}
	int ret = run(&o);
	free(routed_dir);
	routed_dir = NULL;
	return ret;
}

static int exec_play(int argc, char **argv)
{
	return exec_common(argc, argv, false, &cmd_play_entry);
}

static int exec_check(int argc, char **argv)
{
	return exec_common(argc, argv, true, &cmd_check_entry);
}

#define PLAY_HELP \
	"  FILE|-            the order: a whole mail message (default), or with --as the\n" \
	"                    plain order text; '-' or nothing reads standard input\n" \
	"  --as SIDE         plain order text for american or british (the host's use)\n" \
	"  --games ROOT      find the game in ROOT/<game id> from the message itself\n" \
	"  --default         with --as SIDE: play the late side's default order (it\n" \
	"                    declines what can be declined, else discards; README.md)\n" \
	"  --config FILE     mail configuration (default: $POSTRIDER_CONFIG, else\n" \
	"                    ~/.config/postrider/config.yaml, else /etc/postrider/config.yaml)\n" \
	"  --fix-dice LIST   test only: the next dice, e.g. 4,1,5 (marks the game as not fair)\n" \
	"exit status: 0 accepted, 1 rejected, 2 usage, 3 accepted and committed but some\n" \
	"mail could not be sent (it waits in the outbox; see stderr), 75 temporary failure\n" \
	"(nothing was changed; retry later), 78 a permanent failure the host must fix (the\n" \
	"configuration, the templates, a game that cannot be opened; nothing was changed)\n"

const struct cmd_entry cmd_play_entry = {
	"play", "play (DIR | --games ROOT) [--as american|british] [FILE|-] | play DIR --as SIDE --default",
	"adjudicate one order, commit the turn and mail the players",
	PLAY_HELP, exec_play,
};

const struct cmd_entry cmd_check_entry = {
	"check", "check DIR [--as american|british] [FILE|-]",
	"validate an order without committing or mailing anything",
	PLAY_HELP, exec_check,
};
