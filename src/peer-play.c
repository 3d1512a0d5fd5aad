/*
 * peer-play.c - what `postrider play` does on a peer copy: a mail of the
 * opponent's postrider accepted (8.3) and answered at once when this
 * side owes something (section 7), or the player's own order committed
 * and mailed (8.4).
 */
#include "peer.h"
#include "peer-step.h"
#include "notify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool peer_dir_is_peer(const char *dir)
{
	struct repo *r = NULL;
	struct strbuf why = STRBUF_INIT, text = STRBUF_INIT;
	bool peer = false;

	if (repo_open_why(dir, &r, &why) == 0 &&
	    repo_read(r, NULL, "game.yaml", &text) == 0)
		peer = strstr(text.buf, "\nmode: peer\n") != NULL;
	repo_free(r);
	strbuf_release(&why);
	strbuf_release(&text);
	return peer;
}

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

/* Builds (make) the next commit of this copy's side and, unless check,
 * mails it. 0, 1 refused (why), -1 failure. */
static int make_commit(struct peer_copy *pc, const struct mail_config *cfg,
		       enum peer_kind kind, const char *order, bool check,
		       struct strbuf *why)
{
	struct peer_files files;
	struct strbuf err = STRBUF_INIT;
	struct peer_step st;
	unsigned char req[81], own[VRF_PROOF_BYTES];
	char commit[41];
	int r = -1;

	peer_step_init(&st);
	if (peer_files_load(pc->g.repo, pc->g.head, &files, &err) < 0) {
		strbuf_addf(why, "cannot read this copy's record: %s", err.buf);
		goto out;
	}
	st.pc = pc;
	st.parent = &pc->g.state;
	st.files = &files;
	st.c = pc->me;
	st.kind = kind;
	st.order = order;
	st.make = true;
	st.time = peer_commit_time(pc->g.repo, pc->g.head);
	st.seq = next_seq(pc);
	{
		enum side ps;
		unsigned pseq;
		int pl;
		if (peer_pending(&pc->g.state, &ps, &pseq, &pl) == 0 && pl > 0 && ps != pc->me &&
		    peer_request_proof(pc, pc->g.head, req) == 0)
			st.req_proof = req;
	}
	r = peer_step_build(&st, commit);
	if (r > 0)
		strbuf_addbuf(why, &st.why);
	if (r != 0 || check)
		goto out;
	if (st.request) {
		/* the request's own die proof, for the envelope (5.1) */
		unsigned char oid[20], alpha[PCRYPTO_ALPHA_MAX];
		size_t n;
		if (hex_decode(commit, oid, 20) < 0 ||
		    !(n = pcrypto_dice_alpha(pc->g.id, pc->me, oid, 20, alpha)) ||
		    vrf_prove(pc->sk.vrf, alpha, n, own) < 0) {
			strbuf_addstr(why, "cannot make the die proof of the request");
			r = -1;
			goto out;
		}
	}
	if (peer_commit_mail_dice(pc, cfg, pc->g.head, commit, st.seq, kind,
				  st.request ? own : NULL) < 0) {
		strbuf_addstr(why, "cannot commit and mail");
		r = -1;
		goto out;
	}
	pc->g.state = st.next;
	pc->answered = true;
out:
	peer_step_release(&st);
	peer_files_release(&files);
	strbuf_release(&err);
	return r;
}

int peer_answer_owed(struct peer_copy *pc, const struct mail_config *cfg,
		     struct strbuf *why)
{
	int n = 0;

	while (n < 4 && peer_owes(&pc->g.state, pc->me)) {
		int r = make_commit(pc, cfg, engine_game_over(&pc->g.state) ? PEER_END : PEER_ANSWER,
				    NULL, false, why);
		if (r != 0)
			return -1;
		n++;
	}
	return n;
}

/* Sends what the outbox holds; true when some of it could not go. */
static bool send_outbox(struct peer_copy *pc, const struct mail_config *cfg)
{
	struct notify n = { 0 };
	bool unsent;

	n.outbox = peer_outbox_dir(pc, cfg);
	unsent = notify_send(&n, cfg) > 0;
	notify_release(&n);
	return unsent;
}

/* Opens dir for a run that may commit: 0, or the exit status. */
static int open_copy(const char *dir, struct peer_copy *pc, struct strbuf *said)
{
	struct strbuf err = STRBUF_INIT;
	int r = peer_copy_open(dir, pc, GAME_LOCK, &err);

	while (err.len && err.buf[err.len - 1] == '\n')
		err.buf[--err.len] = '\0';
	if (r != 0)
		strbuf_addf(said, "error: %s (nothing was changed)", err.buf);
	strbuf_release(&err);
	return r == 0 ? 0 : r == GAME_BUSY ? 75 : 78;
}

/* The log since text before (the part of log.txt at the head after it). */
static void log_since(struct peer_copy *pc, size_t before, struct strbuf *out)
{
	struct strbuf log = STRBUF_INIT;

	if (repo_read(pc->g.repo, pc->g.head, "log.txt", &log) == 0 && log.len > before)
		strbuf_add(out, log.buf + before, log.len - before);
	strbuf_release(&log);
}

static size_t log_len(struct peer_copy *pc)
{
	struct strbuf log = STRBUF_INIT;
	size_t n;

	repo_read(pc->g.repo, pc->g.head, "log.txt", &log);
	n = log.len;
	strbuf_release(&log);
	return n;
}

int peer_play(const char *dir, const struct mail_config *cfg,
	      const char *mail, size_t len, struct strbuf *said)
{
	struct peer_copy pc;
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	int r = PEER_FAILED, status;
	size_t before = 0;
	bool joint;

	if ((status = open_copy(dir, &pc, said)) != 0)
		goto out;
	before = log_len(&pc);
	if (!peer_mail_is_peer(mail, len)) {
		/* no envelope: the player's own order by mail (8.4) */
		status = peer_mailed_order(&pc, cfg, mail, len, said);
		if (status == 0)
			goto report;
		if (pc.answered || status == 1)
			send_outbox(&pc, cfg);
		goto out;
	}
	joint = pc.rec.have_joint;
	r = peer_accept_mail(&pc, cfg, mail, len, &line);
	if (r == PEER_ACCEPTED && !joint && pc.rec.have_joint &&
	    peer_join_notice(&pc, cfg) < 0)
		strbuf_addstr(&line, "; the notice to its player could not be written");
	switch (r) {
	case PEER_ACCEPTED:
	case PEER_COPY:
		strbuf_addbuf(said, &line);
		status = 0;
		break;
	case PEER_LATER:
		strbuf_addf(said, "error: %s (nothing was changed)", line.buf);
		status = 75;
		break;
	case PEER_REFUSED:
		strbuf_addf(said, "rejected: %s (nothing was changed)", line.buf);
		status = 1;
		if (peer_notice_refused(&pc, cfg, line.buf) == 0)
			send_outbox(&pc, cfg);
		break;
	default:
		strbuf_addf(said, "error: %s", line.buf);
		status = 75;
	}
	if (r == PEER_ACCEPTED) {
		int n = peer_answer_owed(&pc, cfg, &why);
		if (n < 0) {
			strbuf_addf(said, "; but its answer could not be made: %s", why.buf);
			status = 75;
		} else if (n > 0) {
			strbuf_addf(said, "; answered (%d automatic commit%s)", n, n == 1 ? "" : "s");
		}
	}
report:
	if (status == 0 && (r == PEER_ACCEPTED || pc.answered)) {
		struct strbuf since = STRBUF_INIT;
		log_since(&pc, before, &since);
		if (peer_report(&pc, cfg, since.buf) < 0)
			strbuf_addstr(said, "; the report to its player could not be written");
		strbuf_release(&since);
		if (send_outbox(&pc, cfg) && pc.answered) {
			strbuf_addstr(said, "; its answer waits in the outbox");
			status = 3;
		}
	}
out:
	peer_copy_close(&pc);
	strbuf_release(&line);
	strbuf_release(&why);
	return status;
}

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

int peer_order_now(struct peer_copy *pc, const struct mail_config *cfg,
		   const char *text, bool check, struct strbuf *said, struct strbuf *out)
{
	struct strbuf why = STRBUF_INIT, p = STRBUF_INIT, plain = STRBUF_INIT;
	const char *owed;
	int status = 1, r, left_out = strip_marks(text, &plain);

	if ((owed = peer_owes(&pc->g.state, pc->me)) != NULL &&
	    peer_answer_owed(pc, cfg, &why) < 0) {
		/* a crash between a mail and its answer: answer first */
		strbuf_addf(said, "error: this copy owes '%s' and cannot give it: %s", owed, why.buf);
		status = 75;
		goto out;
	}
	if (engine_game_over(&pc->g.state) || pc->g.state.prompt.side != pc->me ||
	    pc->g.state.peer.n_waits > 1 ||
	    (pc->g.state.peer.n_waits == 1 && !strstr(pc->g.state.peer.waits[0], " decision"))) {
		engine_describe_prompt(pc->g.data, &pc->g.state, &p);
		strbuf_addf(said, "rejected: it is not the %s's decision now (%s; waits: %s)",
			    side_title(pc->me), p.buf,
			    pc->g.state.peer.n_waits ? pc->g.state.peer.waits[0] : "nothing");
		goto out;
	}
	if (!has_decision(plain.buf)) {
		/* an order commit with no line would be refused by the other
		 * copy ("adds no order file"): the two would part */
		strbuf_addstr(said, "rejected: the order holds no decision (nothing was changed)");
		goto out;
	}
	r = make_commit(pc, cfg, PEER_ORDER, plain.buf, check, &why);
	if (r > 0) {
		strbuf_addf(said, "rejected: %s", why.buf);
		goto out;
	}
	if (r < 0) {
		strbuf_addf(said, "error: %s (nothing was changed)", why.buf);
		status = 75;
		goto out;
	}
	status = 0;
	if (left_out)
		strbuf_addf(out, "note: %d line%s that look%s like the protocol's own marks (\"# salt \", \"# dropped: \", a sealed line) %s left out of the order\n",
			    left_out, left_out == 1 ? "" : "s", left_out == 1 ? "s" : "",
			    left_out == 1 ? "was" : "were");
	if (check) {
		strbuf_addstr(out, "the order is valid\n");
		goto out;
	}
	engine_describe_prompt(pc->g.data, &pc->g.state, &p);
	strbuf_addf(out, "accepted: order %u of the %s, mailed to the %s\nnow: %s\n",
		    pc->g.state.seq, side_name(pc->me), side_name(OTHER_SIDE(pc->me)), p.buf);
out:
	strbuf_release(&why);
	strbuf_release(&p);
	strbuf_release(&plain);
	return status;
}

int peer_play_order(const char *dir, const struct mail_config *cfg,
		    enum side side, const char *text, bool check,
		    struct strbuf *said, struct strbuf *out)
{
	struct peer_copy pc;
	int status;

	if ((status = open_copy(dir, &pc, said)) != 0)
		goto out;
	status = 1;
	if (side != pc.me) {
		strbuf_addf(said, "rejected: this copy is the %s's: the %s gives his orders to his own postrider",
			    side_name(pc.me), side_title(side));
		goto out;
	}
	status = peer_order_now(&pc, cfg, text, check, said, out);
	if (status == 0 && !check && send_outbox(&pc, cfg))
		status = 3;
out:
	peer_copy_close(&pc);
	return status;
}

int peer_view_own(const char *dir, struct state *s)
{
	struct peer_copy pc;
	struct peer_files f;
	struct strbuf err = STRBUF_INIT;
	int cards[STATE_MAX_HAND], ret = -1;

	peer_files_init(&f);
	if (peer_copy_open(dir, &pc, 0, &err) != 0 ||
	    peer_files_load(pc.g.repo, pc.g.head, &f, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
		peer_known_hand(&pc, &f, s, sd, cards);
		for (int i = 0; i < s->n_hand[sd]; i++)
			if (cards[i])
				s->hand[sd][i] = cards[i];
	}
	ret = 0;
out:
	peer_files_release(&f);
	peer_copy_close(&pc);
	strbuf_release(&err);
	return ret;
}
