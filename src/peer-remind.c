/*
 * peer-remind.c - `postrider peer remind DIR` (also `postrider remind` on
 * a peer copy) and `postrider peer claim DIR` (docs/peer.md section 11),
 * each on its player's own copy, from what the copy knows.
 */
#include "peer-silence.h"
#include "peer-files.h"
#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "notify.h"
#include "outbox.h"
#include "transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Whether NAME holds "HEAD TIME" for the head with TIME within every
 * seconds of now (a notice already given). */
static bool done_lately(struct peer_copy *pc, const char *name, long long now, long long every)
{
	struct strbuf b = STRBUF_INIT;
	char id[41];
	long long t;
	bool yes = false;

	if (peer_private_read(pc, name, &b) == 0 && sscanf(b.buf, "%40s %lld", id, &t) == 2)
		yes = !strcmp(id, pc->g.head) && now - t < every;
	strbuf_release(&b);
	return yes;
}

static void mark_done(struct peer_copy *pc, const char *name, long long now)
{
	char buf[80];

	snprintf(buf, sizeof(buf), "%s %lld\n", pc->g.head, now);
	peer_private_write(pc, name, buf, strlen(buf));
}

/* The other owes an automatic answer for over an hour: this copy's last
 * mail again, at most daily. 1 when mailed. */
static int resend(struct peer_copy *pc, const struct mail_config *cfg, long long now, bool quiet)
{
	struct strbuf id = STRBUF_INIT, mail = STRBUF_INIT;
	char *dir = peer_outbox_dir(pc, cfg), hint[96];
	int ret = 0;

	if (peer_private_read(pc, "peer-last-mail.id", &id) < 0 || strcmp(id.buf, pc->g.head)) {
		if (!quiet)
			printf("the head is not this copy's own commit: nothing to mail again\n");
		goto out;
	}
	if (done_lately(pc, "peer-resent", now, PEER_RESEND_EVERY)) {
		if (!quiet)
			printf("its last commit was mailed again less than a day ago\n");
		goto out;
	}
	if (peer_private_read(pc, "peer-last-mail", &mail) < 0)
		goto out;
	snprintf(hint, sizeof(hint), "%s-peer-again-%.12s", pc->g.id, pc->g.head);
	if (outbox_add(dir, hint, mail.buf, mail.len, NULL) < 0) {
		ret = -1;
		goto out;
	}
	mark_done(pc, "peer-resent", now);
	printf("mailed again: commit %.12s (the other postrider takes a copy as already applied)\n",
	       pc->g.head);
	ret = 1;
out:
	free(dir);
	strbuf_release(&id);
	strbuf_release(&mail);
	return ret;
}

/* A notice to this copy's own player, at most daily for a head. */
static void tell_player(struct peer_copy *pc, const struct mail_config *cfg, long long now,
			const char *kind, const char *subject, const char *text)
{
	char name[64];

	snprintf(name, sizeof(name), "peer-told-%s", kind);
	if (done_lately(pc, name, now, PEER_RESEND_EVERY))
		return;
	if (peer_notice(pc, cfg, kind, subject, text) == 0) {
		mark_done(pc, name, now);
		printf("told the %s: %s\n", side_name(pc->me), subject);
	}
}

/* Sends what the copy's outbox holds; says where it waits when it could
 * not go, or (unless quiet: cron would mail the line every run) when no
 * transport sends it. 0 or EXIT_UNSENT. */
static int send_outbox(struct peer_copy *pc, const struct mail_config *cfg, bool quiet)
{
	struct notify n = { 0 };
	int ret;

	n.outbox = peer_outbox_dir(pc, cfg);
	ret = notify_send(&n, cfg) > 0 ? EXIT_UNSENT : 0;
	if (ret || (!quiet && !transport_can_send(cfg)))
		printf("outbox: %s/new\n", n.outbox);
	notify_release(&n);
	return ret;
}

/* What remind does on the open copy pc (locked); quiet: only what is
 * mailed or fails is printed. */
static int remind_copy(struct peer_copy *pc, const struct mail_config *cfg, const char *dir,
		       bool quiet)
{
	struct strbuf text = STRBUF_INIT, subj = STRBUF_INIT;
	struct peer_owed o;
	long long now = game_now();
	char since[32], limit[32];
	int r = 0;

	peer_owed_get(pc, &o);
	if (o.side == SIDE_NONE) {
		if (!quiet)
			printf("game %s: nobody owes anything%s\n", pc->g.id,
			       engine_game_over(&pc->g.state) ? " (the game is over)" : "");
		return 0;
	}
	peer_date_text(o.since, since);
	peer_date_text(o.limit, limit);
	if (!quiet) {
		printf("game %s: the %s owes %s since %s (%lld h); the forfeit limit is %s\n",
		       pc->g.id, side_name(o.side), o.automatic ? "an automatic answer" : "a decision",
		       since, (now - o.since) / 3600, limit);
		printf("waits: %s\n", o.what);
	}
	if (o.side == pc->me) {
		/* ours: the automatic part is this postrider's, the decision its player's */
		struct strbuf why = STRBUF_INIT;
		if (o.automatic && peer_answer_owed(pc, cfg, &why) < 0)
			error("%s", why.buf);
		else if (!o.automatic && now - o.since >= PEER_RESEND_EVERY) {
			strbuf_addf(&subj, "[%s] your decision is due since %s", pc->g.id, since);
			strbuf_addf(&text, "Your postrider of game %s: your decision is due since %s.\n"
				    "From %s the other player may claim the game, and you lose by forfeit\n"
				    "(docs/peer.md 11).\n", pc->g.id, since, limit);
			tell_player(pc, cfg, now, "due", subj.buf, text.buf);
		}
		strbuf_release(&why);
		goto out;
	}
	if (o.automatic && now - o.since >= PEER_RESEND_AFTER)
		r = resend(pc, cfg, now, quiet);
	if (now >= o.limit) {
		if (!quiet)
			printf("past the forfeit limit: `postrider peer claim %s` ends the game\n", dir);
		strbuf_addf(&subj, "[%s] the other player is silent: you may claim the game", pc->g.id);
		strbuf_addf(&text, "Your postrider of game %s: the %s owe the next commit (%s)\n"
			    "since %s, and the forfeit limit passed at %s. Run\n\n"
			    "  postrider peer claim %s\n\nto end the game; they lose by forfeit (docs/peer.md 11).\n",
			    pc->g.id, side_name(o.side), o.what, since, limit, dir);
		tell_player(pc, cfg, now, "claimable", subj.buf, text.buf);
	} else if (!o.automatic && now - o.since >= PEER_RESEND_EVERY) {
		strbuf_addf(&subj, "[%s] the other player is late", pc->g.id);
		strbuf_addf(&text, "Your postrider of game %s: the %s owe a decision since %s.\n"
			    "Their own postrider reminds them. From %s you may claim the game\n"
			    "(postrider peer claim).\n", pc->g.id, side_name(o.side), since, limit);
		tell_player(pc, cfg, now, "late", subj.buf, text.buf);
	}
out:
	strbuf_release(&text);
	strbuf_release(&subj);
	return r < 0 ? 1 : 0;
}

int peer_remind_dir(const char *dir, const struct mail_config *cfg, bool quiet, int *unsent)
{
	struct peer_copy pc;
	struct strbuf err = STRBUF_INIT;
	int r = peer_copy_open(dir, &pc, GAME_LOCK, &err), ret;

	if (r == GAME_BUSY) {
		printf("%s: busy (another run holds it); it is looked at next time\n", dir);
		strbuf_release(&err);
		return EXIT_TEMPFAIL;
	}
	if (r != 0) {
		error("%s: %s", dir, err.buf);
		strbuf_release(&err);
		return EXIT_REJECTED;
	}
	ret = remind_copy(&pc, cfg, dir, quiet);
	if (send_outbox(&pc, cfg, quiet))
		(*unsent)++;
	peer_copy_close(&pc);
	strbuf_release(&err);
	return ret;
}

/* DIR [--config FILE]: the copy and the configuration. */
static int parse(int argc, char **argv, const char **dir, struct mail_config *cfg)
{
	struct strbuf err = STRBUF_INIT;
	const char *config = NULL;

	*dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (argv[i][0] != '-' && !*dir)
			*dir = argv[i];
		else
			return EXIT_USAGE;
	}
	if (!*dir)
		return EXIT_USAGE;
	if (config_load(config, cfg, &err) < 0) {
		error("the configuration is wrong; fix it:\n%s", err.buf);
		strbuf_release(&err);
		return EXIT_CONFIG;
	}
	return 0;
}

int peer_remind_main(int argc, char **argv)
{
	struct mail_config cfg = { 0 };
	const char *dir;
	int ret, unsent = 0;

	if ((ret = parse(argc, argv, &dir, &cfg)) != 0)
		return ret;
	ret = peer_remind_dir(dir, &cfg, false, &unsent);
	config_release(&cfg);
	return ret ? ret : unsent ? EXIT_UNSENT : 0;
}

int peer_claim_main(int argc, char **argv)
{
	struct mail_config cfg = { 0 };
	struct peer_copy pc;
	struct peer_files files;
	struct strbuf err = STRBUF_INIT, seq = STRBUF_INIT, why = STRBUF_INIT;
	struct state next;
	char commit[41], parent[41];
	const char *dir;
	unsigned s;
	int ret, r;

	if ((ret = parse(argc, argv, &dir, &cfg)) != 0)
		return ret;
	ret = EXIT_REJECTED;
	r = peer_copy_open(dir, &pc, GAME_LOCK, &err);
	if (r != 0) {
		error("%s: %s", dir, r == GAME_BUSY ? "busy: try again" : err.buf);
		config_release(&cfg);
		strbuf_release(&err);
		return r == GAME_BUSY ? EXIT_TEMPFAIL : EXIT_REJECTED;
	}
	if (peer_files_load(pc.g.repo, pc.g.head, &files, &err) < 0) {
		error("cannot read the record: %s", err.buf);
		goto out;
	}
	repo_trailer(pc.g.repo, pc.g.head, "Postrider-Seq", &seq);
	s = (unsigned)strtoul(seq.buf, NULL, 10) + 1;
	snprintf(parent, sizeof(parent), "%s", pc.g.head);
	r = peer_claim_build(&pc, &files, pc.me, peer_commit_time(pc.g.repo, pc.g.head),
			     game_now(), true, NULL, s, &next, commit, &why);
	peer_files_release(&files);
	if (r != 0) {
		error("no claim: %s", r > 0 ? why.buf : "the commit could not be made");
		goto out;
	}
	if (peer_commit_mail(&pc, &cfg, parent, commit, s, PEER_CLAIM, NULL) < 0)
		goto out;
	pc.g.state = next;
	printf("claimed: commit %u (%.12s); the %s lose by forfeit, the claim is mailed to them\n",
	       s, commit, OTHER_SIDE(pc.me) == SIDE_AMERICAN ? "Americans" : "British");
	ret = send_outbox(&pc, &cfg, false);
out:
	peer_copy_close(&pc);
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&seq);
	strbuf_release(&why);
	return ret;
}
