/*
 * peer-remind.c - `postrider peer remind DIR` (also `postrider remind` on
 * a peer copy) and `postrider peer claim DIR` (docs/peer.md section 11),
 * each on its player's own copy, from what the copy knows, as a library
 * (peer-remind.h): what they find and do is a report, said by the
 * commands.
 */
#include "peer-remind.h"
#include "peer.h"
#include "peer-files.h"
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
 * mail again, at most daily. */
static void resend(struct peer_copy *pc, const struct mail_config *cfg, struct peer_remind *r)
{
	struct strbuf id = STRBUF_INIT, mail = STRBUF_INIT;
	char *dir = peer_outbox_dir(pc, cfg), hint[96];

	if (peer_private_read(pc, "peer-last-mail.id", &id) < 0 || strcmp(id.buf, pc->g.head))
		r->resend = PEER_RESEND_NOT_OURS;
	else if (done_lately(pc, "peer-resent", r->now, PEER_RESEND_EVERY))
		r->resend = PEER_RESEND_LATELY;
	else if (peer_private_read(pc, "peer-last-mail", &mail) < 0)
		r->resend = PEER_RESEND_NOT_OURS;
	else {
		snprintf(hint, sizeof(hint), "%s-peer-again-%.12s", pc->g.id, pc->g.head);
		if (outbox_add(dir, hint, mail.buf, mail.len, NULL) < 0) {
			r->resend = PEER_RESEND_FAILED;
		} else {
			mark_done(pc, "peer-resent", r->now);
			r->resend = PEER_RESEND_DONE;
			snprintf(r->resent, sizeof(r->resent), "%s", pc->g.head);
		}
	}
	free(dir);
	strbuf_release(&id);
	strbuf_release(&mail);
}

/* A notice to this copy's own player, at most daily for a head. */
static void tell_player(struct peer_copy *pc, const struct mail_config *cfg,
			struct peer_remind *r, const char *kind,
			const char *subject, const char *text)
{
	char name[64];

	snprintf(name, sizeof(name), "peer-told-%s", kind);
	if (done_lately(pc, name, r->now, PEER_RESEND_EVERY) || r->n_told == ARRAY_SIZE(r->told))
		return;
	if (peer_notice(pc, cfg, kind, subject, text) == 0) {
		mark_done(pc, name, r->now);
		r->told[r->n_told].kind = kind;
		snprintf(r->told[r->n_told++].subject, sizeof(r->told[0].subject), "%s", subject);
	}
}

/* Sends what the copy's outbox holds: whether some mail is left there. */
static bool send_outbox(struct peer_copy *pc, const struct mail_config *cfg,
			char **outbox, bool *can_send)
{
	struct notify n = { 0 };
	bool unsent;

	n.outbox = peer_outbox_dir(pc, cfg);
	unsent = notify_send(&n, cfg) > 0;
	*can_send = transport_can_send(cfg);
	*outbox = xstrdup(n.outbox);
	notify_release(&n);
	return unsent;
}

void peer_remind_init(struct peer_remind *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->failed);
	r->owed.side = SIDE_NONE;
}

void peer_remind_release(struct peer_remind *r)
{
	strbuf_release(&r->failed);
	free(r->outbox);
	r->outbox = NULL;
}

/* What remind does on the open copy pc (locked). */
static void remind_copy(struct peer_copy *pc, const struct mail_config *cfg,
			const char *dir, struct peer_remind *r)
{
	struct strbuf text = STRBUF_INIT, subj = STRBUF_INIT;
	struct peer_owed *o = &r->owed;
	char since[32], limit[32];

	snprintf(r->game, sizeof(r->game), "%s", pc->g.id);
	r->me = pc->me;
	r->over = engine_game_over(&pc->g.state);
	peer_owed_get(pc, o);
	if (o->side == SIDE_NONE)
		return;
	peer_date_text(o->since, since);
	peer_date_text(o->limit, limit);
	if (o->side == pc->me) {
		/* ours: the automatic part is this postrider's, the decision its player's */
		if (o->automatic)
			peer_answer_owed(pc, cfg, &r->failed);
		else if (r->now - o->since >= PEER_RESEND_EVERY) {
			strbuf_addf(&subj, "[%s] your decision is due since %s", pc->g.id, since);
			strbuf_addf(&text, "Your postrider of game %s: your decision is due since %s.\n"
				    "From %s the other player may claim the game, and you lose by forfeit\n"
				    "(docs/peer.md 11).\n", pc->g.id, since, limit);
			tell_player(pc, cfg, r, "due", subj.buf, text.buf);
		}
		goto out;
	}
	if (o->automatic && r->now - o->since >= PEER_RESEND_AFTER)
		resend(pc, cfg, r);
	if (r->now >= o->limit) {
		r->claimable = true;
		strbuf_addf(&subj, "[%s] the other player is silent: you may claim the game", pc->g.id);
		strbuf_addf(&text, "Your postrider of game %s: the %s owe the next commit (%s)\n"
			    "since %s, and the forfeit limit passed at %s. Run\n\n"
			    "  postrider peer claim %s\n\nto end the game; they lose by forfeit (docs/peer.md 11).\n",
			    pc->g.id, side_name(o->side), o->what, since, limit, dir);
		tell_player(pc, cfg, r, "claimable", subj.buf, text.buf);
	} else if (!o->automatic && r->now - o->since >= PEER_RESEND_EVERY) {
		strbuf_addf(&subj, "[%s] the other player is late", pc->g.id);
		strbuf_addf(&text, "Your postrider of game %s: the %s owe a decision since %s.\n"
			    "Their own postrider reminds them. From %s you may claim the game\n"
			    "(postrider peer claim).\n", pc->g.id, side_name(o->side), since, limit);
		tell_player(pc, cfg, r, "late", subj.buf, text.buf);
	}
out:
	strbuf_release(&text);
	strbuf_release(&subj);
}

int peer_remind(const char *dir, const struct mail_config *cfg,
		struct peer_remind *r, struct strbuf *err)
{
	struct peer_copy pc;
	int ret = peer_copy_open(dir, &pc, GAME_LOCK, err);

	if (ret != 0) {
		peer_copy_close(&pc);	/* what the open left open */
		return ret == GAME_BUSY ? GAME_BUSY : -1;
	}
	r->now = game_now();
	remind_copy(&pc, cfg, dir, r);
	r->unsent = send_outbox(&pc, cfg, &r->outbox, &r->can_send);
	peer_copy_close(&pc);
	return r->resend == PEER_RESEND_FAILED ? 1 : 0;
}

void peer_claim_release(struct peer_claim *c)
{
	free(c->outbox);
	c->outbox = NULL;
}

int peer_claim(const char *dir, const struct mail_config *cfg,
	       struct peer_claim *c, struct strbuf *why)
{
	struct peer_copy pc;
	struct peer_files files;
	struct strbuf err = STRBUF_INIT, seq = STRBUF_INIT, reason = STRBUF_INIT;
	struct state next;
	char parent[41];
	int ret = -1, r;

	memset(c, 0, sizeof(*c));
	r = peer_copy_open(dir, &pc, GAME_LOCK, why);
	if (r != 0) {
		peer_copy_close(&pc);	/* what the open left open */
		return r == GAME_BUSY ? GAME_BUSY : -1;
	}
	if (peer_files_load(pc.g.repo, pc.g.head, &files, &err) < 0) {
		strbuf_addf(why, "cannot read the record: %s", err.buf);
		goto out;
	}
	repo_trailer(pc.g.repo, pc.g.head, "Postrider-Seq", &seq);
	c->seq = (unsigned)strtoul(seq.buf, NULL, 10) + 1;
	snprintf(parent, sizeof(parent), "%s", pc.g.head);
	r = peer_claim_build(&pc, &files, pc.me, peer_commit_time(pc.g.repo, pc.g.head),
			     game_now(), true, NULL, c->seq, &next, c->commit, &reason);
	peer_files_release(&files);
	if (r != 0) {
		strbuf_addf(why, "no claim: %s", r > 0 ? reason.buf : "the commit could not be made");
		ret = r > 0 ? 1 : -1;
		goto out;
	}
	/* a failure here is said where it happens */
	if (peer_commit_mail(&pc, cfg, parent, c->commit, c->seq, PEER_CLAIM, NULL) < 0)
		goto out;
	pc.g.state = next;
	c->loser = OTHER_SIDE(pc.me);
	c->unsent = send_outbox(&pc, cfg, &c->outbox, &c->can_send);
	ret = 0;
out:
	peer_copy_close(&pc);
	strbuf_release(&err);
	strbuf_release(&seq);
	strbuf_release(&reason);
	return ret;
}
