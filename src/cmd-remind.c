/*
 * cmd-remind.c - `postrider remind ROOT|DIR...`: the deadlines' mail, run
 * from cron or the systemd timer in contrib/. For each game with a
 * deadline (clock.h) whose side to move is late or nearly so: a reminder
 * to that side before the deadline, a notice to both sides once it has
 * passed; each once per decision, never twice, however often it runs.
 * Over a folder of games the folder's index (catalog.h), checked against
 * each repository, says which games have nothing due; only the others
 * are opened (and locked).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "notify.h"
#include "peer.h"
#include "peer-remind.h"

/* The time before the deadline when the reminder goes: --before, else a
 * quarter of the deadline, at most a day. */
static long long warn_time(long long before, long long deadline)
{
	if (before > 0)
		return before;
	return deadline / 4 < 86400 ? deadline / 4 : 86400;
}

/* Says what is due in one game; returns 0, 1 mail not written, 75 busy. */
/* --quiet: nothing on stdout when nothing is sent (cron mails output) */
static bool quiet;

static int remind_one(const char *dir, const struct mail_config *cfg,
		      long long before, int *unsent)
{
	struct game g;
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT, prompt = STRBUF_INIT;
	struct strbuf left = STRBUF_INIT;
	enum clock_alarm a;
	enum side side;
	char due_text[UTC_TIME_SIZE];
	long long now = game_now(), due;
	int r = game_open(dir, &g, GAME_NEED_SECRET | GAME_LOCK, &err), ret = 0;

	if (r == GAME_BUSY) {
		if (!quiet)
			printf("%s: busy (another run holds it); it is looked at next time\n", dir);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	if (r < 0) {
		error("%s: %s", dir, err.buf);
		ret = EXIT_REJECTED;
		goto out;
	}
	side = g.state.prompt.side;
	if (engine_game_over(&g.state) || !g.clock.deadline)
		goto out;
	a = clock_alarm(&g.clock, g.state.seq, side, now,
			warn_time(before, g.clock.deadline));
	due = clock_due(&g.clock, side);
	utc_format(due, due_text);
	if (a == CLOCK_QUIET) {
		if (!quiet)
			printf("%s: the %s's decision is due by %s; nothing to send\n", g.id,
			       side_title(side), due_text);
		goto out;
	}
	engine_describe_prompt(g.data, &g.state, &prompt);
	notify_init(&n, &g, cfg);
	{
		/* recorded before the mail is written: once written it goes,
		 * and a run that died here must not write it again */
		struct game_clock was = g.clock;
		clock_alarm_sent(&g.clock, g.state.seq, a);
		if (clock_save(g.repo, &g.clock) < 0) {
			ret = EXIT_TEMPFAIL;
			goto out;
		}
		g.clock = was;	/* the mail shows the clock as it stands */
	}
	if (a == CLOCK_WARN) {
		duration_format(due - now, &left);
		strbuf_addf(&text, "A reminder: your decision is due by %s, in %s.\n"
			    "Now: %s\n\nReply to your last report with your order ('resend' by mail\n"
			    "sends it again; 'vacation 3d' stops your clock for three days).\n",
			    due_text, left.buf, prompt.buf);
		if (notify_notice(&n, &g, side, "remind", "reminder: your move", text.buf, NULL) < 0)
			ret = EXIT_REJECTED;
	} else {
		duration_format(now - due, &left);
		for (enum side s = SIDE_AMERICAN; s <= SIDE_BRITISH; s++) {
			strbuf_reset(&text);
			if (s == side)
				strbuf_addf(&text, "Your decision was due by %s: the deadline passed %s ago.\n"
					    "Now: %s\n\nYour order is still taken until the host decides otherwise;\n"
					    "the host may also play the default order for a late side\n"
					    "(README.md, Deadlines).\n", due_text, left.buf, prompt.buf);
			else
				strbuf_addf(&text, "The %s's decision was due by %s: the deadline passed %s ago.\n"
					    "The host has been told; you will hear again when there is news.\n",
					    side_title(side), due_text, left.buf);
			if (notify_notice(&n, &g, s, "late", s == side ? "deadline passed: your move" :
					  "deadline passed", text.buf, NULL) < 0)
				ret = EXIT_REJECTED;
		}
	}
	if (ret) {
		/* not written: it may be tried again */
		if (clock_save(g.repo, &g.clock) < 0)
			error("%s: the reminder was not written, and is recorded as sent", g.id);
	} else {
		printf("%s: %s (due by %s)\n", g.id,
		       a == CLOCK_WARN ? "reminded the side to move" : "told both sides the deadline has passed",
		       due_text);
		if (notify_send(&n, cfg) > 0)
			(*unsent)++;
	}
out:
	notify_release(&n);
	game_close(&g);
	strbuf_release(&err);
	strbuf_release(&text);
	strbuf_release(&prompt);
	strbuf_release(&left);
	return ret;
}

/*
 * Whether the index of ROOT (catalog.h), its key checked against the
 * repository just now, shows that a game has nothing due: over, without
 * a deadline, or with its alarm quiet; then says so as remind_one()
 * would. Any game it cannot vouch for is opened and locked as always.
 */
static bool nothing_due(const struct catalog_entry *e, long long before)
{
	const struct catalog_summary *s = &e->sum;
	char due_text[UTC_TIME_SIZE];

	if (!e->sound || !s->secret)
		return false;
	if (!*s->result && s->deadline &&
	    clock_alarm_at(s->due, s->warned, s->late, s->seq, game_now(),
			   warn_time(before, s->deadline)) != CLOCK_QUIET)
		return false;
	if (!*s->result && s->deadline && !quiet) {
		utc_format(s->due, due_text);
		printf("%s: the %s's decision is due by %s; nothing to send\n", s->id,
		       side_title(s->side), due_text);
	}
	return true;
}

int cmd_peer_remind(const char *dir, const struct mail_config *cfg, bool terse,
		    int *unsent)
{
	struct peer_remind r;
	struct strbuf err = STRBUF_INIT;
	const struct peer_owed *o = &r.owed;
	int ret;

	peer_remind_init(&r);
	ret = peer_remind(dir, cfg, &r, &err);
	if (ret == GAME_BUSY) {
		printf("%s: busy (another run holds it); it is looked at next time\n", dir);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	if (ret < 0) {
		error("%s: %s", dir, err.buf);
		ret = EXIT_REJECTED;
		goto out;
	}
	if (!terse && o->side == SIDE_NONE)
		printf("game %s: nobody owes anything%s\n", r.game,
		       r.over ? " (the game is over)" : "");
	if (!terse && o->side != SIDE_NONE) {
		char since[32], limit[32];
		peer_date_text(o->since, since);
		peer_date_text(o->limit, limit);
		printf("game %s: the %s owes %s since %s (%lld h); the forfeit limit is %s\n",
		       r.game, side_name(o->side), o->automatic ? "an automatic answer" : "a decision",
		       since, (r.now - o->since) / 3600, limit);
		printf("waits: %s\n", o->what);
	}
	if (r.failed.len)
		error("%s", r.failed.buf);
	if (r.resend == PEER_RESEND_DONE)
		printf("mailed again: commit %.12s (the other postrider takes a copy as already applied)\n",
		       r.resent);
	else if (!terse && r.resend == PEER_RESEND_NOT_OURS)
		printf("the head is not this copy's own commit: nothing to mail again\n");
	else if (!terse && r.resend == PEER_RESEND_LATELY)
		printf("its last commit was mailed again less than a day ago\n");
	if (!terse && r.claimable)
		printf("past the forfeit limit: `postrider peer claim %s` ends the game\n", dir);
	for (int i = 0; i < r.n_told; i++)
		printf("told the %s: %s\n", side_name(r.me), r.told[i].subject);
	if (r.unsent || (!terse && !r.can_send))
		printf("outbox: %s/new\n", r.outbox);
	if (r.unsent)
		(*unsent)++;
	ret = ret ? EXIT_REJECTED : 0;
out:
	peer_remind_release(&r);
	strbuf_release(&err);
	return ret;
}

static int exec_remind(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "before", required_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	const char *config_path = NULL;
	struct mail_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT;
	long long before = 0;
	int c, ret = 0, unsent = 0;

	optind = 1;
	quiet = false;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c': config_path = optarg; break;
		case 'q': quiet = true; break;
		case 'b':
			if (duration_parse(optarg, &before) < 0) {
				error("--before takes a duration (12h, 1d)");
				return EXIT_USAGE;
			}
			break;
		default: return cmd_usage(&cmd_remind_entry);
		}
	}
	if (optind >= argc)
		return cmd_usage(&cmd_remind_entry);
	if (config_load(config_path, &cfg, &err) < 0) {
		error("the configuration is wrong; fix it:\n%s", err.buf);
		strbuf_release(&err);
		return EXIT_CONFIG;
	}
	for (int i = optind; i < argc; i++) {
		struct catalog cat;
		strbuf_reset(&err);
		if (game_dir_is_peer(argv[i])) {
			/* a peer copy: its own player's side (docs/peer.md 11) */
			int r = cmd_peer_remind(argv[i], &cfg, quiet, &unsent);
			if (r && (!ret || r == EXIT_REJECTED))
				ret = r;
			continue;
		}
		if (catalog_open(argv[i], 0, &cat, &err) < 0) {
			error("%s", err.buf);
			ret = EXIT_REJECTED;
		}
		for (size_t j = 0; j < cat.n; j++) {
			int r = 0;
			if (!nothing_due(&cat.e[j], before))
				r = remind_one(cat.e[j].dir, &cfg, before, &unsent);
			if (r && (!ret || r == EXIT_REJECTED))
				ret = r;
		}
		catalog_release(&cat);
	}
	config_release(&cfg);
	strbuf_release(&err);
	if (!ret && unsent) {
		error("some mail was not sent; it waits in the outbox");
		ret = EXIT_UNSENT;
	}
	return ret;
}

const struct cmd_entry cmd_remind_entry = {
	"remind", "remind (ROOT|DIR)... [--before TIME] [--quiet] [--config FILE]",
	"mail the reminders and late notices of games with a deadline",
	"  ROOT|DIR        a game, or a folder of games (each looked at in turn)\n"
	"  --before TIME   remind the side to move this long before its deadline\n"
	"                  (default: a quarter of the game's deadline, at most 1d)\n"
	"  --quiet         print only what was sent and what failed (for cron, which\n"
	"                  mails the host whatever a job prints)\n"
	"  --config FILE   mail configuration (as for play)\n"
	"Each reminder and each late notice goes once per decision, however often\n"
	"remind runs (cron, or contrib/postrider-remind.timer). Time is the clock,\n"
	"or $POSTRIDER_NOW (seconds since the epoch) for tests.\n"
	"exit status: 0 done, 1 a game could not be read, 3 mail waits in the\n"
	"outbox, 75 a game was busy (it is looked at next time)\n",
	exec_remind,
};
