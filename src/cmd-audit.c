/*
 * cmd-audit.c - `postrider audit` replays a game's whole history through
 * the engine and checks every committed byte: states, sealed private
 * states, logs, every draw. The checking is the auditor (audit.h); this
 * file parses the options, opens the game (or a bundle) and says what
 * the auditor found.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit.h"
#include "cmd.h"
#include "dkim-audit.h"
#include "game.h"
#include "repo.h"

/* audit --mail: what the auditor found in the folder. 0 or -1. */
static int say_mail(const struct game *g, const char *folder,
		    enum audit_mail_result r, const struct audit_mail *m)
{
	switch (r) {
	case AUDIT_MAIL_UNREADABLE:
		printf("cannot read the mail folder '%s': %s\n", folder, m->why.buf);
		return -1;
	case AUDIT_MAIL_DIFFERS:
		printf("the mail does not match the history: %s\n", m->why.buf);
		return -1;
	case AUDIT_MAIL_NONE:
		printf("the mail folder '%s' holds no report of game %s (nothing to check)\n",
		       folder, g->id);
		return -1;
	case AUDIT_MAIL_OK:
		break;
	}
	printf("mail: every one of the %zu reports of %s names a commit of this history\n",
	       m->reports, g->id);
	return 0;
}

/* One draw of audit --turn, under its log line. */
static void say_draw(const struct game *g, const struct audit_turn_draw *d)
{
	if (d->shuffle)
		printf("      draws %llu-%llu: a shuffle, %s; its draws stay sealed until the seed is revealed\n",
		       d->first, d->last, g->revealed ? "checked by the replay with the revealed seed" : "the deck is secret");
	else if (game_proves(g))
		printf("      draw %llu: proof checked under the game's public key, it gives %llu; %s\n",
		       d->first, d->value, d->rule);
	else
		printf("      draw %llu: fairness version 1, checked by the replay once the seed is revealed%s; %s\n",
		       d->first, g->have_seed ? " (done: the seed is known here)" : "", d->rule);
}

/*
 * audit --turn N: one order explained for a dispute, after the whole
 * history has passed. 0, 1 if there is no order N, -1 if a commit does
 * not match (rep->at, rep->why).
 */
static int say_turn(struct game *g, struct audit_report *rep, unsigned long seq)
{
	struct audit_turn t;
	int r;

	audit_turn_init(&t);
	r = audit_turn(g, rep, seq, &t);
	if (r > 0)
		printf("there is no order %lu in this game (it has %zu commits)\n", seq, rep->n);
	if (r > 0 || (r < 0 && !t.proof_fails && !t.order_unnamed))
		goto out;
	printf("order %lu of game %s, by the %s, commit %.12s (%zu of %zu)\n",
	       seq, g->id, t.side, rep->history[t.at], t.at + 1, rep->n);
	printf("the order, as given (%s):\n", t.order_path);
	if (t.has_order) {
		for (const char *p = t.order.buf; *p;) {
			size_t n = strcspn(p, "\n");
			printf("  | %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	} else {
		printf("  (none: a commit of the host)\n");
	}
	/* who gave it: the player's mail (which he can find among the mails
	 * he sent), or the host by hand (docs/fairness.md 16) */
	if (t.has_order && t.via && !strncmp(t.via, "host", 4))
		printf("how it came: TYPED BY THE HOST, not received by mail (Postrider-Via: %s)\n",
		       t.via);
	else if (t.has_order && t.via)
		printf("how it came: by mail from the %s, Message-ID %s (Postrider-Via: %s)\n",
		       t.side, t.message_id ? t.message_id : "(none)", t.via);
	else if (t.has_order)
		printf("how it came: its commit does not say (no Postrider-Via trailer)\n");
	printf("what happened (log.txt):\n");
	if (t.order_unnamed) {
		printf("  THE ORDER IS NOT NAMED: %s\n", rep->why.buf);
		goto out;
	}
	{
		const char *p = t.log.buf, *end = t.log.buf + t.log.len;
		size_t k = 0;
		for (size_t line = 0; p < end; line++) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			if (!eol)
				break;
			printf("  | %.*s\n", (int)(eol - p), p);
			if (k < t.n_draws && t.draws[k].line == line) {
				if (t.proof_fails && k + 1 == t.n_draws) {
					printf("      draw %llu: THE PROOF FAILS: %s\n",
					       t.draws[k].first, rep->why.buf);
					goto out;
				}
				say_draw(g, &t.draws[k++]);
			}
			p = eol + 1;
		}
	}
	printf("%zu draw%s in this order\n", t.n_draws, t.n_draws == 1 ? "" : "s");
out:
	audit_turn_release(&t);
	return r;
}

/*
 * A git bundle (an archive's game.bundle) is unpacked into a temporary
 * repository, *dir, and audited there. 0 (also when path is no file), or
 * an exit status.
 */
static int open_bundle(const char *path, char **bundle_dir, char **game_dir)
{
	struct stat st;
	const char *tmp = getenv("TMPDIR");

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	*bundle_dir = xstrfmt("%s/postrider-audit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(*bundle_dir)) {
		error("cannot make a temporary folder: %s", strerror(errno));
		free(*bundle_dir);
		*bundle_dir = NULL;
		return EXIT_TEMPFAIL;
	}
	*game_dir = xstrfmt("%s/game.git", *bundle_dir);
	if (repo_from_bundle(path, *game_dir) < 0) {
		printf("the game does not pass the audit: '%s' is not a bundle of a game\n", path);
		remove_tree(*bundle_dir, false);
		free(*bundle_dir);
		free(*game_dir);
		*bundle_dir = *game_dir = NULL;
		return EXIT_REJECTED;
	}
	return 0;
}

/*
 * Who sent each order (docs/fairness.md 22): the counts per player, the
 * orders no signature proves, and every kept mail that can be read
 * checked again. 0, or -1 with rep->at and rep->why for a mismatch.
 */
static int say_senders(struct game *g, struct audit_report *rep)
{
	struct dkim_audit a;
	int r;

	dkim_audit_init(&a);
	r = dkim_audit(g, rep->history, rep->n, &a);
	if (r < 0) {
		printf("the mail records cannot be read\n");
	} else if (r > 0) {
		rep->at = a.at;
		strbuf_reset(&rep->why);
		strbuf_addbuf(&rep->why, &a.why);
	}
	if (r == 0 && !g->peer) {
		for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++) {
			const char *addr = g->player[k].addr, *at = addr ? strchr(addr, '@') : NULL;
			printf("senders: the %s: %u order%s by mail signed by %s, %u by mail without "
			       "that signature, %u typed by the host",
			       side_title(k), a.proven[k], a.proven[k] == 1 ? "" : "s",
			       at ? at + 1 : "his domain", a.unproven[k], a.host[k]);
			if (a.unrecorded[k])
				printf(", %u by mail with no record", a.unrecorded[k]);
			printf("\n");
		}
		for (const char *p = a.notes.buf; *p;) {
			size_t n = strcspn(p, "\n");
			printf("senders: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
		if (a.checked)
			printf("senders: %u kept mail%s checked again against the key records kept with them\n",
			       a.checked, a.checked == 1 ? "" : "s");
		if (a.sealed)
			printf("senders: %u kept mail%s sealed until the reveal (they quote the players' hands); "
			       "their records were read\n", a.sealed, a.sealed == 1 ? " stays" : "s stay");
	}
	dkim_audit_release(&a);
	return r ? -1 : 0;
}

/* What the audit of an opened game found, said; the exit status. */
static int say_audit(struct game *g, const char *mail, long turn)
{
	struct audit_report rep;
	int ret = EXIT_TEMPFAIL, r;

	audit_report_init(&rep);
	if (audit_history(g, &rep) < 0)
		goto out;
	if (mail) {
		struct audit_mail m;
		audit_mail_init(&m);
		r = say_mail(g, mail, audit_mail(g, &rep, mail, &m), &m);
		audit_mail_release(&m);
		if (r < 0) {
			ret = EXIT_REJECTED;
			goto out;
		}
	}
	r = audit_game(g, &rep);
	if (r < 0)
		goto out;
	if (rep.public_passed && game_proves(g)) {
		/* the public dice, each proved under the game's key */
		printf("verified %lu di%s without any secret", rep.dice, rep.dice == 1 ? "e" : "ce");
		if (!g->have_seed && rep.shuffles)
			printf("; %lu shuffle%s wait%s for the end (their draws would show the deck)",
			       rep.shuffles, rep.shuffles == 1 ? "" : "s", rep.shuffles == 1 ? "s" : "");
		printf("\n");
	}
	/* the data set: game_open() refused data/ unless its hash is the
	 * one game.yaml records; a game from before data_name names the
	 * module (issue 32) */
	if (rep.public_passed)
		printf("data set %s, hash %s: data/ matches it\n",
		       g->data_name ? g->data_name : g->module, g->data_hash);
	if (r > 0)
		goto differs;
	if (say_senders(g, &rep) < 0)
		goto differs;
	if (rep.replayed)
		printf("verified: %zu commits\n", rep.n);
	else
		printf("verified without the seed: %zu commits (the orders are re-adjudicated once the seed is revealed)\n", rep.n);
	if (turn > 0) {
		r = say_turn(g, &rep, (unsigned long)turn);
		if (r < 0)
			goto differs;
		if (r > 0) {
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (g->have_seed && !g->revealed)
		printf("note: audited with the host's secret; the seed is not public yet\n");
	/* A game can replay perfectly and still not be fair. */
	rep.fixed = rep.fixed || g->fixed_dice;
	if (rep.fixed || !g->seed_source || strcmp(g->seed_source, "random")) {
		if (rep.fixed)
			printf("not a fair game: fixed dice were used (test mode)\n");
		if (!g->seed_source || strcmp(g->seed_source, "random"))
			printf("not a fair game: the seed was %s by the host (new --seed), so the host chose every card and die\n",
			       g->seed_source ? g->seed_source : "not drawn at random");
		ret = EXIT_NOT_FAIR;
		goto out;
	}
	ret = 0;
	goto out;
differs:
	printf("commit %s (%zu of %zu) does not match: %s\n", rep.history[rep.at],
	       rep.at + 1, rep.n, rep.why.buf);
	ret = EXIT_REJECTED;
out:
	audit_report_release(&rep);
	return ret;
}

static int exec_audit(int argc, char **argv)
{
	struct game g;
	struct strbuf err = STRBUF_INIT;
	int ret;

	static const struct option opts[] = {
		{ "mail", required_argument, NULL, 'm' },
		{ "turn", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	const char *mail = NULL;
	char *bundle_dir = NULL, *game_dir = NULL, *end;
	long turn = -1;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'm') {
			mail = optarg;
		} else if (c == 't') {
			turn = strtol(optarg, &end, 10);
			if (*end || end == optarg || turn < 1) {
				error("--turn takes an order number (1, 2, ...)");
				return EXIT_USAGE;
			}
		} else {
			return cmd_usage(&cmd_audit_entry);
		}
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_audit_entry);
	if ((ret = open_bundle(argv[optind], &bundle_dir, &game_dir)) != 0)
		return ret;
	if (game_open(game_dir ? game_dir : argv[optind], &g, 0, &err) != 0) {
		/* for an audit, a game that does not open is a finding */
		printf("the game does not pass the audit: %s", err.buf);
		ret = EXIT_REJECTED;
	} else {
		ret = say_audit(&g, mail, turn);
	}
	game_close(&g);
	if (bundle_dir) {
		remove_tree(bundle_dir, false);
		free(bundle_dir);
		free(game_dir);
	}
	strbuf_release(&err);
	return ret;
}

const struct cmd_entry cmd_audit_entry = {
	"audit", "audit [--mail FOLDER] [--turn N] DIR",
	"replay the whole history and check every commit, state and die",
	"  --mail FOLDER  also check that every report in FOLDER (a Maildir,\n"
	"                 a folder of messages or an mbox file) names a commit\n"
	"                 of the history (found: a history rewritten or cut short)\n"
	"  --turn N       then explain order N for a dispute: the order, what\n"
	"                 happened, each die with its proof checked and its rule\n"
	"exit status: 0 verified and fair, 1 a commit does not match (it is named),\n"
	"4 every commit verifies but the game is not fair (a seed given to new, fixed dice)\n",
	exec_audit,
};
