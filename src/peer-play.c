/*
 * peer-play.c - what `postrider play` and `check` do on a peer copy
 * (docs/peer.md 8.3, 8.4): a mail of the opponent's postrider accepted
 * and answered at once when this side owes something (section 7); any
 * other input (the player's mail, `play --as`) decided by the host's
 * policy, play_decide(), with this mode's step 7 (the commit built by the
 * rule of section 7) and mailed by the path every commit takes. The
 * verdict is the host's struct play_outcome; the player's reports and
 * answers are the host's too (notify.c, report.c), from his own view.
 */
#include "peer.h"
#include "peer-step.h"
#include "cmd.h"
#include "notify.h"
#include "play.h"
#include "repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Postrider-Seq of the head, plus one. */
static unsigned next_seq(struct peer_copy *pc)
{
	struct strbuf seq = STRBUF_INIT;
	unsigned n = 0;

	if (repo_trailer(pc->g.repo, pc->g.head, "Postrider-Seq", &seq) == 0)
		n = (unsigned)strtoul(seq.buf, NULL, 10);
	strbuf_release(&seq);
	return n + 1;
}

/* One commit of this copy's side, built (make) on the head and not yet
 * mailed. */
struct built {
	struct peer_files files;
	struct peer_step st;
	struct state parent;
	unsigned char req[81];
	char commit[41];
};

static void built_init(struct built *b)
{
	memset(b, 0, sizeof(*b));
	peer_files_init(&b->files);
	peer_step_init(&b->st);
}

static void built_release(struct built *b)
{
	peer_step_release(&b->st);
	peer_files_release(&b->files);
}

/* Builds the next commit of this copy's side on parent (the head's public
 * state). 0, 1 refused (why), -1 failure. */
static int build(struct peer_copy *pc, const struct state *parent, enum peer_kind kind,
		 const char *order, struct built *b, struct strbuf *why)
{
	struct strbuf err = STRBUF_INIT;
	struct peer_step *st = &b->st;
	enum side ps;
	unsigned pseq;
	int pl, r = -1;

	b->parent = *parent;
	if (peer_files_load(pc->g.repo, pc->g.head, &b->files, &err) < 0) {
		strbuf_addf(why, "cannot read this copy's record: %s", err.buf);
		goto out;
	}
	st->pc = pc;
	st->parent = &b->parent;
	st->files = &b->files;
	st->c = pc->me;
	st->kind = kind;
	st->order = order;
	st->make = true;
	st->time = peer_commit_time(pc->g.repo, pc->g.head);
	st->seq = next_seq(pc);
	if (peer_pending(parent, &ps, &pseq, &pl) == 0 && pl > 0 && ps != pc->me &&
	    peer_request_proof(pc, pc->g.head, b->req) == 0)
		st->req_proof = b->req;
	r = peer_step_build(st, b->commit);
	if (r > 0)
		strbuf_addbuf(why, &st->why);
out:
	strbuf_release(&err);
	return r;
}

/* Mails a built commit to the other postrider (peer_commit_mail_dice(),
 * the path of turn_publish()) and moves the copy to it. 0 or -1 (why). */
static int mail_built(struct peer_copy *pc, const struct mail_config *cfg,
		      enum peer_kind kind, struct built *b, struct strbuf *why)
{
	unsigned char own[VRF_PROOF_BYTES];

	if (b->st.request) {
		/* the request's own die proof, for the envelope (5.1) */
		unsigned char oid[20], alpha[PCRYPTO_ALPHA_MAX];
		size_t n;
		if (hex_decode(b->commit, oid, 20) < 0 ||
		    !(n = pcrypto_dice_alpha(pc->g.id, pc->me, oid, 20, alpha)) ||
		    vrf_prove(pc->sk.vrf, alpha, n, own) < 0) {
			strbuf_addstr(why, "cannot make the die proof of the request");
			return -1;
		}
	}
	if (peer_commit_mail_dice(pc, cfg, pc->g.head, b->commit, b->st.seq, kind,
				  b->st.request ? own : NULL) < 0) {
		strbuf_addstr(why, "cannot commit and mail");
		return -1;
	}
	pc->g.state = b->st.next;
	pc->answered = true;
	return 0;
}

int peer_answer_owed(struct peer_copy *pc, const struct mail_config *cfg,
		     struct strbuf *why)
{
	int n = 0;

	while (n < 4 && peer_owes(&pc->g.state, pc->me)) {
		struct built b;
		int r;
		built_init(&b);
		r = build(pc, &pc->g.state, engine_game_over(&pc->g.state) ? PEER_END : PEER_ANSWER,
			  NULL, &b, why);
		if (r == 0)
			r = mail_built(pc, cfg, b.st.kind, &b, why);
		built_release(&b);
		if (r != 0)
			return -1;
		n++;
	}
	return n;
}

int peer_view_of(struct peer_copy *pc, struct state *s)
{
	struct peer_files f;
	struct strbuf err = STRBUF_INIT;
	int cards[STATE_MAX_HAND], ret = -1;

	peer_files_init(&f);
	if (peer_files_load(pc->g.repo, pc->g.head, &f, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
		peer_known_hand(pc, &f, s, sd, cards);
		for (int i = 0; i < s->n_hand[sd]; i++)
			if (cards[i])
				s->hand[sd][i] = cards[i];
	}
	ret = 0;
out:
	peer_files_release(&f);
	strbuf_release(&err);
	return ret;
}

int peer_view_own(const char *dir, struct state *s)
{
	struct peer_copy pc;
	struct strbuf err = STRBUF_INIT;
	int ret = -1;

	if (peer_copy_open(dir, &pc, 0, &err) != 0)
		error("%s", err.buf);
	else
		ret = peer_view_of(&pc, s);
	peer_copy_close(&pc);
	strbuf_release(&err);
	return ret;
}

int peer_report(struct peer_copy *pc, struct notify *n, const struct state *before,
		const struct state *hand_before)
{
	struct strbuf log = STRBUF_INIT, patch = STRBUF_INIT, err = STRBUF_INIT;
	struct state *view;
	int ret = -1;

	/* when his decision is due, and once at the end (nothing owed after
	 * the last commit: the keys published, 9.12) */
	if ((!engine_game_over(&pc->g.state) && pc->g.state.prompt.side != pc->me) ||
	    peer_owes(&pc->g.state, pc->me) || peer_owes(&pc->g.state, OTHER_SIDE(pc->me)))
		return 0;
	view = xmalloc(sizeof(*view));
	*view = pc->g.state;
	if (peer_view_of(pc, view) < 0)
		goto out;
	if (repo_read(pc->g.repo, pc->g.head, "log.txt", &log) < 0 ||
	    repo_format_patch(pc->g.repo, pc->g.head, &patch) < 0) {
		error("cannot read the log and the patch of commit %.12s", pc->g.head);
		goto out;
	}
	if (notify_report(n, &pc->g, before, hand_before, view, pc->me, pc->g.head, patch.buf,
			  log.buf, &err) < 0) {
		error("cannot write the report to the %s: %s", side_name(pc->me), err.buf);
		goto out;
	}
	/* written after its commits: released at once */
	ret = notify_publish(n);
out:
	free(view);
	strbuf_release(&log);
	strbuf_release(&patch);
	strbuf_release(&err);
	return ret;
}

/* --- a mail of the other postrider (8.3) --------------------------------- */

static void accept_mail(struct peer_copy *pc, const struct mail_config *cfg,
			struct notify *n, const struct play_request *rq,
			struct play_outcome *out)
{
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	struct state *before = xmalloc(sizeof(*before));
	bool joint = pc->rec.have_joint;
	int r;

	*before = pc->g.state;
	out->verdict = PLAY_ACCEPTED;
	r = peer_accept_mail(pc, cfg, rq->input, rq->len, &line);
	if (r == PEER_ACCEPTED && !joint && pc->rec.have_joint &&
	    peer_join_notice(pc, cfg) < 0)
		strbuf_addstr(&line, "; the notice to its player could not be written");
	switch (r) {
	case PEER_ACCEPTED:
		strbuf_addbuf(&out->said, &line);
		break;
	case PEER_COPY:
		out->verdict = PLAY_IGNORED;
		strbuf_addbuf(&out->said, &line);
		break;
	case PEER_LATER:
		play_fail(out, EXIT_TEMPFAIL, "%s (nothing was changed)", line.buf);
		break;
	case PEER_REFUSED:
		out->verdict = PLAY_REJECTED;
		out->status = EXIT_REJECTED;
		strbuf_addf(&out->said, "rejected: %s (nothing was changed)", line.buf);
		peer_notice_refused(pc, cfg, line.buf);
		break;
	default:
		play_fail(out, EXIT_TEMPFAIL, "%s", line.buf);
	}
	if (r == PEER_ACCEPTED) {
		int k = peer_answer_owed(pc, cfg, &why);
		if (k < 0) {
			strbuf_addf(&line, "; but its answer could not be made: %s", why.buf);
			play_fail(out, EXIT_TEMPFAIL, "%s", line.buf);
		} else if (k > 0) {
			strbuf_addf(&out->said, "; answered (%d automatic commit%s)", k,
				    k == 1 ? "" : "s");
		}
	}
	if (out->verdict == PLAY_ACCEPTED && peer_report(pc, n, before, NULL) < 0)
		strbuf_addstr(&out->said, "; the report to its player could not be written");
	free(before);
	strbuf_release(&line);
	strbuf_release(&why);
}

/* --- the player's own input (8.4) ---------------------------------------- */

/* A player's order on his copy while play_decide() decides it. */
struct player_run {
	struct peer_copy *pc;
	const struct mail_config *cfg;
	struct state public;	/* the head's public state (g->state is
				   the player's view while deciding) */
	struct built b;		/* the order's commit, once built */
	int left_out;		/* lines of the protocol's marks left out */
};

/*
 * A player's order without the lines that look like the protocol's own
 * marks in an order file (6.4: a sealed placeholder, "# salt ", "# dropped: "):
 * they are comments to the engine, but the other side's replay reads them
 * as marks, so they are left out before the order is run and filed
 * (finding 6 of the red team, issue 34). The number left out.
 */
static int strip_marks(const char *text, struct strbuf *out)
{
	static const char *const marks[] = { "# (a line sealed until", "# salt ", "# dropped: " };
	int n = 0;

	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n"), k = strspn(p, " \t");
		bool mark = false;
		for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			mark |= k < l && !strncmp(p + k, marks[i], strlen(marks[i])) &&
				strlen(marks[i]) <= l - k;
		if (mark)
			n++;
		else
			strbuf_add(out, p, l + (p[l] ? 1 : 0));
		p += l + (p[l] ? 1 : 0);
	}
	return n;
}

/* Whether text has a line that is neither blank nor a comment. */
static bool has_decision(const char *text)
{
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n"), k = strspn(p, " \t\r");
		if (k < l && p[k] != '#')
			return true;
		p += l + (p[l] ? 1 : 0);
	}
	return false;
}

/* Step 7 of the policy in a peer copy (play_hooks.order): the order's
 * commit built by the rule of section 7 on the head's public state. */
static void order_step(void *ctx, struct game *g, const struct play_request *rq,
		       enum side side, const char *text, struct play_outcome *out)
{
	struct player_run *run = ctx;
	struct peer_copy *pc = run->pc;
	const struct state *s = &run->public;
	struct strbuf why = STRBUF_INIT, p = STRBUF_INIT, plain = STRBUF_INIT;
	int r;

	run->left_out = strip_marks(text, &plain);
	if (side != pc->me) {
		strbuf_addf(&why, "this copy is the %s's: the %s gives his orders to his own postrider",
			    side_name(pc->me), side_title(side));
		play_refuse(out, rq, side, why.buf);
		goto out;
	}
	if (engine_game_over(s) || s->prompt.side != pc->me || s->peer.n_waits > 1 ||
	    (s->peer.n_waits == 1 && !strstr(s->peer.waits[0], " decision"))) {
		engine_describe_prompt(g->data, s, &p);
		strbuf_addf(&why, "it is not the %s's decision now (%s; waits: %s)",
			    side_title(pc->me), p.buf,
			    s->peer.n_waits ? s->peer.waits[0] : "nothing");
		play_refuse(out, rq, side, why.buf);
		goto out;
	}
	if (!has_decision(plain.buf)) {
		/* an order commit with no line would be refused by the other
		 * copy ("adds no order file"): the two would part */
		play_refuse(out, rq, side, "the order holds no decision (nothing was changed)");
		goto out;
	}
	r = build(pc, s, PEER_ORDER, plain.buf, &run->b, &why);
	if (r > 0) {
		play_refuse(out, rq, side, why.buf);
		goto out;
	}
	if (r < 0) {
		play_fail(out, EXIT_TEMPFAIL, "%s (nothing was changed)", why.buf);
		goto out;
	}
	out->verdict = PLAY_ACCEPTED;
	out->status = 0;
	out->next = run->b.st.next;
	if (run->left_out)
		strbuf_addf(&out->out, "note: %d line%s that look%s like the protocol's own marks (\"# salt \", \"# dropped: \", a sealed line) %s left out of the order\n",
			    run->left_out, run->left_out == 1 ? "" : "s",
			    run->left_out == 1 ? "s" : "", run->left_out == 1 ? "was" : "were");
	if (rq->check)
		strbuf_addstr(&out->out, "the order is valid\n");
out:
	strbuf_release(&why);
	strbuf_release(&p);
	strbuf_release(&plain);
}

/* Carries out an accepted order (play_hooks.commit): its commit mailed
 * to the other postrider. */
static int commit_step(void *ctx, struct game *g, struct notify *n, struct play_outcome *out)
{
	struct player_run *run = ctx;
	struct peer_copy *pc = run->pc;
	struct strbuf why = STRBUF_INIT, p = STRBUF_INIT;
	int ret = -1;

	(void)n;
	if (mail_built(pc, run->cfg, PEER_ORDER, &run->b, &why) < 0) {
		play_fail(out, EXIT_TEMPFAIL, "%s (nothing was changed)", why.buf);
		goto out;
	}
	engine_describe_prompt(g->data, &g->state, &p);
	strbuf_addf(&out->out, "accepted: order %u of the %s, mailed to the %s\nnow: %s\n",
		    g->state.seq, side_name(pc->me), side_name(OTHER_SIDE(pc->me)), p.buf);
	strbuf_reset(&out->said);
	strbuf_addf(&out->said, "accepted: order %u of the %s (commit %.12s)", g->state.seq,
		    side_name(pc->me), pc->g.head);
	ret = 0;
out:
	strbuf_release(&why);
	strbuf_release(&p);
	return ret;
}

static bool player_input(struct peer_copy *pc, const struct mail_config *cfg,
			 struct notify *n, const struct play_request *req,
			 struct play_outcome *out)
{
	struct player_run *run = xcalloc(1, sizeof(*run));
	const struct play_hooks hooks = { run, order_step, commit_step };
	struct play_request rq = *req;
	struct strbuf why = STRBUF_INIT;
	struct state *view = NULL;
	const char *owed;
	bool committed = false;

	run->pc = pc;
	run->cfg = cfg;
	built_init(&run->b);
	rq.hooks = &hooks;
	if (!rq.check && (owed = peer_owes(&pc->g.state, pc->me)) != NULL &&
	    peer_answer_owed(pc, cfg, &why) < 0) {
		/* a crash between a mail and its answer: answer first */
		play_fail(out, EXIT_TEMPFAIL, "this copy owes '%s' and cannot give it: %s", owed,
			  why.buf);
		goto out;
	}
	/* decided on his view (his hand opened): the questions answer from
	 * it; the order is built on the public state */
	run->public = pc->g.state;
	view = xmalloc(sizeof(*view));
	*view = pc->g.state;
	if (peer_view_of(pc, view) < 0) {
		play_fail(out, EXIT_TEMPFAIL, "cannot open the player's hand in this copy");
		goto out;
	}
	pc->g.state = *view;
	play_decide(&pc->g, &rq, out);
	pc->g.state = run->public;
	if (rq.check)
		goto out;
	committed = play_carry_out(&pc->g, n, out);
	/* his order by mail: his next report if his decision is due again
	 * (typed at his machine, he sees the answer there) */
	if (committed && rq.as < 0 && peer_report(pc, n, view, view) < 0)
		strbuf_addstr(&out->said, "; the report to its player could not be written");
out:
	free(view);
	built_release(&run->b);
	free(run);
	strbuf_release(&why);
	return committed;
}

bool peer_play_game(struct game *g, const struct mail_config *cfg, struct notify *n,
		    const struct play_request *rq, struct play_outcome *out)
{
	struct peer_copy pc;
	struct strbuf err = STRBUF_INIT;
	bool committed = false;

	if (peer_copy_adopt(g, &pc, &err) < 0) {
		while (err.len && err.buf[err.len - 1] == '\n')
			err.buf[--err.len] = '\0';
		play_fail(out, EXIT_CONFIG, "%s (nothing was changed)", err.buf);
		goto out;
	}
	if (!rq->check) {
		notify_init(n, &pc.g, cfg);
		if (notify_recover(n, &pc.g) != 0)
			warning("some mail left by an earlier run in '%s/tmp' could not be recovered",
				n->outbox);
	}
	if (rq->as < 0 && peer_mail_is_peer(rq->input, rq->len)) {
		if (rq->check) {
			out->verdict = PLAY_REJECTED;
			out->status = EXIT_REJECTED;
			strbuf_addstr(&out->said, "rejected: a mail between postriders is taken by `play`, not checked");
			goto out;
		}
		accept_mail(&pc, cfg, n, rq, out);
		committed = pc.answered;
	} else {
		player_input(&pc, cfg, n, rq, out);
		committed = pc.answered;
	}
out:
	peer_copy_close(&pc);
	strbuf_release(&err);
	return committed;
}
