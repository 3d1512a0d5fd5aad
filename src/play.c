/*
 * play.c - the way of one input to a game (play.h): decide, then carry out.
 */
#include "play.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authorize.h"
#include "cmd.h"
#include "engine/engine.h"
#include "mail.h"
#include "order.h"
#include "query.h"
#include "replies.h"
#include "repo.h"
#include "trace.h"
#include "turn.h"

void play_outcome_init(struct play_outcome *out)
{
	memset(out, 0, sizeof(*out));
	strbuf_init(&out->said);
	strbuf_init(&out->out);
	strbuf_init(&out->order);
	strbuf_init(&out->log);
	strbuf_init(&out->actions);
	strbuf_init(&out->subject);
	strbuf_init(&out->trailers);
	strbuf_init(&out->proofs);
	out->side = SIDE_NONE;
}

void play_outcome_release(struct play_outcome *out)
{
	if (!out)
		return;
	strbuf_release(&out->said);
	strbuf_release(&out->out);
	strbuf_release(&out->order);
	strbuf_release(&out->log);
	strbuf_release(&out->actions);
	strbuf_release(&out->subject);
	strbuf_release(&out->trailers);
	strbuf_release(&out->proofs);
	free(out->message_id);
	free(out->references);
	free(out->from);
	free(out->rejected_order);
	out->rejected_order = NULL;
	dkim_intake_free(out->intake);
	out->intake = NULL;
	for (int i = 0; i < out->n_mail; i++) {
		free(out->mail[i].name);
		free(out->mail[i].title);
		free(out->mail[i].text);
	}
	out->n_mail = 0;
}

/* Sets the verdict, the exit status and the one line of what became of
 * the input ("rejected: ..."). */
static void verdict(struct play_outcome *out, enum play_verdict v, int status,
		    const char *fmt, ...) PRINTF_LIKE(4, 5);
static void verdict(struct play_outcome *out, enum play_verdict v, int status,
		    const char *fmt, ...)
{
	va_list ap;

	out->verdict = v;
	out->status = status;
	strbuf_reset(&out->said);
	va_start(ap, fmt);
	strbuf_vaddf(&out->said, fmt, ap);
	va_end(ap);
}

/* The modes' policies (play.h): what a game without a host does not do,
 * and why (docs/peer.md 17). */
static const struct play_policy policies[] = {
	{ .mode = "host", .keep_rejected = true },
	{
		.mode = "peer",
		.no_undo = "a game without a host has no undo: an order once mailed is "
			   "the other player's too (docs/peer.md 17)",
		.no_vacation = "a game without a host has no deadline to stop: no vacation "
			       "(docs/peer.md 11)",
	},
};

const struct play_policy *play_policy_of(const struct game *g)
{
	return &policies[g->peer ? 1 : 0];
}

void play_fail(struct play_outcome *out, int status, const char *fmt, ...)
{
	va_list ap;

	out->verdict = PLAY_FAILED;
	out->status = status;
	strbuf_reset(&out->said);
	va_start(ap, fmt);
	strbuf_vaddf(&out->said, fmt, ap);
	va_end(ap);
}

/* Adds a message to the outcome's mail. */
static void add_mail(struct play_outcome *out, enum play_mail_kind kind,
		     enum side to, const char *name, const char *title,
		     const char *text, bool reply)
{
	if (out->n_mail >= PLAY_MAX_MAIL)
		BUG("more than %d messages for one input", PLAY_MAX_MAIL);
	out->mail[out->n_mail++] = (struct play_mail){
		.kind = kind, .to = to, .name = name ? xstrdup(name) : NULL,
		.title = title ? xstrdup(title) : NULL, .text = xstrdup(text),
		.reply = reply,
	};
}

void play_refuse(struct play_outcome *out, const struct play_request *rq,
		 enum side side, const char *reason)
{
	verdict(out, PLAY_REJECTED, EXIT_REJECTED, "rejected: %s", reason);
	if (rq->as < 0)
		add_mail(out, PLAY_MAIL_REJECT, side, NULL, NULL, reason, true);
}

/* Whether the order is a vacation request, "vacation 7d" alone. */
static bool is_vacation(const char *text)
{
	while (*text == ' ' || *text == '\t' || *text == '\n')
		text++;
	return !ascii_strncasecmp(text, "vacation", 8) &&
	       (!text[8] || text[8] == ' ' || text[8] == '\t' || text[8] == '\n');
}

/*
 * "vacation 7d" by mail: the sender's deadlines stop for that long, within
 * the game's limit (clock.h); both players are told, since it moves the
 * deadline the opponent waits for. Nothing is committed and the token is
 * not spent.
 */
static void vacation(struct game *g, const struct play_request *rq, enum side side,
		     const char *text, struct play_outcome *out)
{
	struct strbuf why = STRBUF_INIT, news = STRBUF_INIT, len_text = STRBUF_INIT;
	char word[32] = "", extra[2] = "", until[UTC_TIME_SIZE];
	long long len = 0, now = game_now();

	if (play_policy_of(g)->no_vacation)
		strbuf_addstr(&why, play_policy_of(g)->no_vacation);
	else if (sscanf(text, "%*s %31s %1s", word, extra) != 1 || duration_parse(word, &len) < 0)
		strbuf_addstr(&why, "a vacation is asked for as 'vacation' and how long: 'vacation 7d' (m, h, d or w), alone in the message");
	else if (clock_vacation(&g->clock, side, now, len, &why) == 0)
		goto granted;
	verdict(out, PLAY_REJECTED, EXIT_REJECTED, "rejected: %s", why.buf);
	add_mail(out, PLAY_MAIL_REJECT, side, NULL, NULL, why.buf, true);
	goto out;
granted:
	if (rq->check) {
		strbuf_addstr(&out->out, "the vacation would be granted\n");
		verdict(out, PLAY_ANSWERED, 0, "%s", "");
		goto out;
	}
	duration_format(len, &len_text);
	utc_format(g->clock.side[side].away_until, until);
	strbuf_addf(&news, "%s (%s) is on vacation until %s: %s deadlines stop for %s.",
		    g->player[side].name, side_title(side), until,
		    side == SIDE_AMERICAN ? "the American's" : "the British's", len_text.buf);
	strbuf_reset(&len_text);
	duration_format(g->clock.vacation_limit - g->clock.side[side].vacation_used, &len_text);
	strbuf_addf(&news, " Vacation left to the %s in this game: %s.\n", side_title(side),
		    len_text.buf);
	for (enum side s = SIDE_AMERICAN; s <= SIDE_BRITISH; s++)
		add_mail(out, PLAY_MAIL_NOTICE, s, "vacation", "vacation", news.buf, s == side);
	strbuf_addstr(&out->out, news.buf);
	out->clock_changed = true;
	verdict(out, PLAY_ANSWERED, 0, "answered 'vacation' to both players: until %s", until);
out:
	strbuf_release(&why);
	strbuf_release(&news);
	strbuf_release(&len_text);
}

/*
 * The default order for a late side (README.md, Deadlines): the first
 * legal action that declines (pass, done, stop, stand, no battle card),
 * else the first discard; none for any other decision. Appends the order
 * text to out and returns 0, or -1.
 */
static int default_order(const struct game *g, struct strbuf *out)
{
	static const enum action_kind prefer[] = {
		ACT_PASS, ACT_DONE, ACT_STOP, ACT_STAND, ACT_NOCARD, ACT_DISCARD,
	};
	int n = engine_legal(g->data, &g->state, NULL, 0), ret = -1;
	struct action *acts = xcalloc((size_t)n + 1, sizeof(*acts));

	engine_legal(g->data, &g->state, acts, n);
	for (size_t k = 0; k < ARRAY_SIZE(prefer) && ret < 0; k++)
		for (int i = 0; i < n && ret < 0; i++)
			if (acts[i].kind == prefer[k]) {
				action_format(g->data, &acts[i], out);
				strbuf_addch(out, '\n');
				ret = 0;
			}
	free(acts);
	return ret;
}

/* The side whose order commit c holds (orders/NNNN-SIDE.txt for its seq),
 * and the order's text; SIDE_NONE for a commit of the host. */
static enum side order_of(struct game *g, const char *c, uint32_t seq, struct strbuf *text)
{
	char path[64];

	for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++) {
		snprintf(path, sizeof(path), "orders/%04u-%s.txt", seq, side_name(k));
		strbuf_reset(text);
		if (repo_read(g->repo, c, path, text) == 0)
			return k;
	}
	return SIDE_NONE;
}

/*
 * The state after side takes back its last order (engine_undo): the state
 * before it, read from the history, with the counters carried on. The
 * opponent's orders since that decided nothing (a standing reaction, a
 * standing order) are walked past and kept; an undo is not undone in
 * turn. Returns 0, or -1 with the reason in why.
 */
static int undo_state(struct game *g, enum side side, struct state *next,
		      struct strbuf *why)
{
	struct state cur = g->state, after = g->state, mine;
	struct strbuf order = STRBUF_INIT, err = STRBUF_INIT;
	char (*history)[41] = NULL;
	size_t n = 0, k;
	int ret = -1;

	if (repo_history(g->repo, &history, &n) < 0 || n < 2) {
		strbuf_addstr(why, "there is no order to take back");
		goto out;
	}
	for (k = n - 1; k >= 1; k--) {
		enum side by = order_of(g, history[k], after.seq, &order);
		if (game_load_state(g, history[k - 1], &err) < 0) {
			strbuf_addf(why, "the state before it cannot be read: %s", err.buf);
			goto out;
		}
		if (by == side)
			break;
		if (g->state.seq == after.seq) {
			after = g->state;	/* a commit of the host: no order */
			continue;
		}
		if (by == SIDE_NONE || order_text_is(order.buf, "undo") ||
		    !engine_decided_nothing(&g->state, &after, by)) {
			strbuf_addstr(why, "only the side that gave the last order may take it back, "
				      "and only that order, before the opponent answers");
			goto out;
		}
		after = g->state;
	}
	if (k < 1) {
		strbuf_addstr(why, "there is no order to take back");
	} else if (order_text_is(order.buf, "undo")) {
		strbuf_addstr(why, "the last order is itself an undo");
	} else {
		mine = after;
		ret = engine_undo(&g->state, &mine, &cur, side, next, why);
	}
out:
	g->state = cur;
	free(history);
	strbuf_release(&order);
	strbuf_release(&err);
	return ret;
}

/*
 * A message that cannot be parsed still gets an answer if its From: line
 * names a player: what was wrong, and that nothing changed. Anyone else
 * gets none.
 */
static void reply_unreadable(const struct game *g, const struct play_request *rq,
			     const char *why, struct play_outcome *out)
{
	char *from = mail_header_get(rq->input, rq->len, "From"), *name = NULL, *addr = NULL;
	char *as = mail_header_get(rq->input, rq->len, "Auto-Submitted");
	char *rp = mail_header_get(rq->input, rq->len, "Return-Path");
	/* an unreadable message from a machine gets no answer either */
	bool automatic = (as && !strstr(as, "no")) || (rp && strstr(rp, "<>"));
	enum side side;

	free(as);
	free(rp);
	if (!automatic && from && mail_parse_address(from, &name, &addr) == 0 &&
	    (side = authorize_sender_side(g, addr)) != SIDE_NONE) {
		char *reason = xstrfmt("the message could not be read: %s", why);
		add_mail(out, PLAY_MAIL_REJECT, side, NULL, NULL, reason, false);
		free(reason);
		out->side = side;
		out->unproven = true;	/* anyone can write that From line */
	}
	free(from);
	free(name);
	free(addr);
}

/* The commit's subject: "1776 British: pc 12; place Boston MA ...". */
static void commit_subject(const struct state *before, enum side side,
			   const char *actions, struct strbuf *out)
{
	const char *p = actions;
	int n = 0;

	strbuf_addf(out, "%d %s:", before->year, side_title(side));
	while (*p) {
		size_t len = strcspn(p, "\n");
		if (out->len + len + 2 > 72) {
			strbuf_addstr(out, " ...");
			break;
		}
		strbuf_addf(out, "%s %.*s", n++ ? ";" : "", (int)len, p);
		p += len;
		if (*p)
			p++;
	}
}

/* Who gave the order to postrider: the player by mail (with the mail's
 * id, so a player can match his sent mail to the commit), or the host
 * by hand. Players see it in the patch of every report. */
static void commit_trailers(const struct play_request *rq, enum side side,
			    const char *message_id, struct strbuf *out)
{
	if (rq->as < 0) {
		const char *id = message_id;
		bool usable = id && strlen(id) <= 250 && *id == '<';
		for (const char *p = id; usable && *p; p++)
			usable = *p > ' ' && *p < 0x7f;
		strbuf_addf(out, "Postrider-Via: mail\nPostrider-Message-Id: %s\n",
			    usable ? id : "(none or unusable)");
	} else {
		strbuf_addf(out, "Postrider-Via: host (play --as %s%s)\n", side_name(side),
			    rq->default_order ? " --default, the side being late" : "");
	}
	if (rq->n_dice) {
		strbuf_addstr(out, "Postrider-Fixed-Dice:");
		for (int i = 0; i < rq->n_dice; i++)
			strbuf_addf(out, "%s%d", i ? "," : " ", rq->dice[i]);
		strbuf_addch(out, '\n');
	}
}

/* A question instead of an order: answered to the sender alone, nothing
 * committed, the token not spent. */
static void question(struct game *g, const struct play_request *rq, enum side side,
		     enum query q, int qn, const char *text, struct play_outcome *out)
{
	struct strbuf answer = STRBUF_INIT, log = STRBUF_INIT;

	repo_read(g->repo, NULL, "log.txt", &log);
	query_answer(g, side, q, qn, text, log.buf ? log.buf : "", &answer);
	if (rq->check)
		strbuf_addbuf(&out->out, &answer);
	else
		add_mail(out, PLAY_MAIL_ANSWER, side, query_name(q), NULL, answer.buf, true);
	strbuf_addf(&out->out, "answered '%s' to the %s; nothing was changed\n",
		    query_name(q), side_title(side));
	verdict(out, PLAY_ANSWERED, 0, "answered '%s' to the %s", query_name(q),
		side_title(side));
	strbuf_release(&answer);
	strbuf_release(&log);
}

/*
 * The mail's DKIM signatures, kept with the order (dkim-intake.h): false
 * when they decide the outcome (a forged From under dmarc: enforce,
 * refused with no reply; DNS down, try later).
 */
static bool mail_intake(struct game *g, const struct play_request *rq,
			const struct mail_message *m, enum authorize_verdict v,
			struct play_outcome *out)
{
	struct strbuf why = STRBUF_INIT;
	enum dkim_intake_result r;

	if (!rq->dkim || rq->dkim->off || g->peer ||
	    !(v == AUTHORIZE_OK || (v == AUTHORIZE_REFUSE && rq->dkim->dmarc_enforce)))
		return true;
	r = dkim_intake(rq->dkim, rq->input, rq->len, m->from_addr, game_now(), &out->intake, &why);
	if (r == DKIM_INTAKE_REFUSE)
		verdict(out, PLAY_REJECTED, EXIT_REJECTED, "rejected: %s; no reply sent", why.buf);
	else if (r == DKIM_INTAKE_RETRY)
		play_fail(out, EXIT_TEMPFAIL, "%s (nothing was changed)", why.buf);
	strbuf_release(&why);
	return r == DKIM_INTAKE_OK;
}

/*
 * Steps 1 to 5 of the policy for a mail: returns the order text to run
 * (malloc'd) with *side set, or NULL when the outcome is decided already.
 */
static char *from_mail(struct game *g, const struct play_request *rq,
		       enum side *side, struct play_outcome *out)
{
	struct mail_message m = { 0 };
	struct strbuf err = STRBUF_INIT;
	enum authorize_verdict v;
	char *text = NULL;

	if (mail_parse(rq->input, rq->len, &m, &err) < 0) {
		verdict(out, PLAY_REJECTED, EXIT_REJECTED,
			"rejected: the message cannot be read: %s", err.buf);
		reply_unreadable(g, rq, err.buf, out);
		goto out;
	}
	out->message_id = m.message_id ? xstrdup(m.message_id) : NULL;
	out->references = m.references ? xstrdup(m.references) : NULL;
	out->from = m.from_addr ? xstrdup(m.from_addr) : NULL;
	strbuf_reset(&err);
	v = authorize_mail(g, &m, true, side, &err);
	out->side = *side;
	/* a refusal by authorize_mail(): no valid token, so the mail proves
	 * nothing about who sent it (replies.h) */
	out->unproven = v == AUTHORIZE_REFUSE;
	if (v == AUTHORIZE_IGNORE) {
		verdict(out, PLAY_IGNORED, 0, "ignored: %s; no reply sent, nothing changed", err.buf);
		goto out;
	}
	if (v == AUTHORIZE_STRANGER) {
		/* No reply: an unknown sender learns nothing about the game. */
		verdict(out, PLAY_REJECTED, EXIT_REJECTED, "rejected: %s; no reply sent", err.buf);
		goto out;
	}
	if (!mail_intake(g, rq, &m, v, out))
		goto out;
	if (v == AUTHORIZE_OK) {
		int qn;
		enum query q;

		text = mail_order_text(m.body ? m.body : "");
		if ((query_parse(text, &qn) != QUERY_NONE || is_vacation(text)) &&
		    replies_answered(g->repo, m.message_id)) {
			/* the same mail again: one answer is enough */
			verdict(out, PLAY_IGNORED, 0, "ignored: this message was answered already "
				"(Message-ID %s); no reply sent, nothing changed", m.message_id);
			free(text);
			text = NULL;
			goto out;
		}
		if ((q = query_parse(text, &qn)) != QUERY_NONE) {
			question(g, rq, *side, q, qn, text, out);
			free(text);
			text = NULL;
			goto out;
		}
		if (engine_game_over(&g->state)) {
			strbuf_addstr(&err, "the game is over");
			v = AUTHORIZE_REFUSE;
		} else if (is_vacation(text)) {
			vacation(g, rq, *side, text, out);
			free(text);
			text = NULL;
			goto out;
		}
	}
	if (v == AUTHORIZE_REFUSE) {
		verdict(out, PLAY_REJECTED, EXIT_REJECTED, "rejected: %s", err.buf);
		add_mail(out, PLAY_MAIL_REJECT, *side, NULL, NULL, err.buf, true);
		free(text);
		text = NULL;
	}
out:
	mail_message_release(&m);
	strbuf_release(&err);
	return text;
}

/* --default: the late side's default order, or NULL (decided). */
static char *late_default(struct game *g, enum side side, struct play_outcome *out)
{
	struct strbuf text = STRBUF_INIT, p = STRBUF_INIT;
	char *order = NULL;

	if (!engine_game_over(&g->state) && g->state.prompt.side == side &&
	    default_order(g, &text) == 0) {
		order = strbuf_detach(&text, NULL);
		strbuf_addf(&out->out, "the default order for the %s: %s", side_title(side), order);
	} else {
		engine_describe_prompt(g->data, &g->state, &p);
		verdict(out, PLAY_REJECTED, EXIT_REJECTED,
			"rejected: there is no default order for the %s now (%s); play one with play --as %s",
			side_title(side), p.buf, side_name(side));
	}
	strbuf_release(&text);
	strbuf_release(&p);
	return order;
}

/* Step 6: "undo" (README.md, Undo). */
static void undo(struct game *g, const struct play_request *rq, enum side side,
		 struct play_outcome *out)
{
	struct strbuf err = STRBUF_INIT;
	const char *no = play_policy_of(g)->no_undo;

	if (no)
		strbuf_addstr(&err, no);
	if (no || undo_state(g, side, &out->next, &err) < 0) {
		verdict(out, PLAY_REJECTED, EXIT_REJECTED,
			"rejected: the last order cannot be taken back: %s", err.buf);
		if (rq->as < 0) {
			char *why = xstrfmt("the last order cannot be taken back: %s", err.buf);
			add_mail(out, PLAY_MAIL_REJECT, side, NULL, NULL, why, true);
			free(why);
		}
		goto out;
	}
	strbuf_addf(&out->log, "The %s takes back order %u: the game is as it was before it.\n",
		    side_title(side), g->state.seq);
	if (!engine_game_over(&g->state) && g->state.prompt.side == OTHER_SIDE(side)) {
		/* the opponent was asked for a decision that is void now: he
		 * is told in every mail mode (his report may not come) */
		struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
		engine_describe_prompt(g->data, &g->state, &p);
		strbuf_addf(&text, "The %s took back order %u. The decision you were asked for "
			    "(%s) is void: there is nothing for you to do until a report asks you "
			    "again.\n", side_title(side), g->state.seq, p.buf);
		add_mail(out, PLAY_MAIL_NOTICE, OTHER_SIDE(side), "void", "your decision is void",
			 text.buf, false);
		strbuf_release(&p);
		strbuf_release(&text);
	}
	strbuf_addf(&out->actions, "undo order %u\n", g->state.seq);
	out->undo = true;
	if (rq->check) {
		strbuf_addf(&out->out, "the undo is allowed:\n%s", out->log.buf);
		verdict(out, PLAY_ACCEPTED, 0, "%s", "");
		goto out;
	}
	verdict(out, PLAY_ACCEPTED, 0, "%s", "");
out:
	strbuf_release(&err);
}

/* Step 7: the order through the engine. */
static void run_order(struct game *g, const struct play_request *rq, enum side side,
		      const char *text, struct play_outcome *out)
{
	struct order_result res;
	struct rng rng;

	order_result_init(&res);
	out->next = g->state;
	game_rng_order(g, &g->state, side, &rng);
	for (int i = 0; i < rq->n_dice; i++)
		rng.forced[i] = rq->dice[i];
	rng.n_forced = rq->n_dice;
	rng.log = &res.log;
	rng.proofs = &out->proofs;
	trace_perf("game opened");
	order_run(g->data, &out->next, &rng, side, text, &res);
	trace_perf("order adjudicated");
	if (res.rejected) {
		play_refuse(out, rq, side, res.message.buf);
		if (rq->as < 0 && !rq->check && play_policy_of(g)->keep_rejected)
			out->rejected_order = xstrdup(text);
		goto out;
	}
	out->next.draws = rng.next;
	out->next.seq = g->state.seq + 1;
	out->next.orders[side]++;
	if (rq->check) {
		struct strbuf p = STRBUF_INIT;
		int n = res.applied;
		/* From a die, a card dealt or the other side's decision on,
		 * nothing is shown before the order counts (order.h). */
		if (res.bound_line) {
			res.log.len = res.bound_log;
			res.log.buf[res.log.len] = '\0';
			strbuf_addf(&res.log, "(line %d reaches %s: what follows depends on it)\n",
				    res.bound_line, ORDER_UNSEEN);
			strbuf_addf(&p, "depends on %s, which check does not show", ORDER_UNSEEN);
			n = res.bound_applied;
		} else {
			engine_describe_prompt(g->data, &out->next, &p);
		}
		strbuf_addf(&out->out, "the order is valid (%d decision%s%s):\n%s\nthen: %s\n",
			    n, n == 1 ? "" : "s", res.bound_line ? " before it" : "", res.log.buf,
			    p.buf);
		strbuf_release(&p);
		verdict(out, PLAY_ACCEPTED, 0, "%s", "");
		goto out;
	}
	strbuf_addbuf(&out->log, &res.log);
	strbuf_addbuf(&out->actions, &res.actions);
	out->fixed_dice = rq->n_dice && !g->fixed_dice;
	verdict(out, PLAY_ACCEPTED, 0, "%s", "");
out:
	order_result_release(&res);
}

/*
 * A player is mailed a bounded number of replies (replies.h): past it,
 * the replies this input would send him are left out, and said says so.
 * A mail that proves no sender draws on a budget of its own, one reply a
 * day to his address, so that forgeries never spend his.
 */
static void bound_replies(struct game *g, const struct play_request *rq,
			  struct play_outcome *out)
{
	struct strbuf why = STRBUF_INIT;
	int kept = 0;

	if (rq->check || rq->as >= 0 || out->side == SIDE_NONE || !out->n_mail ||
	    (out->unproven ?
	     replies_unproven_allowed(g->repo, g->player[out->side].addr, game_now(), &why) :
	     replies_allowed(g->repo, out->side, game_now(), &why)))
		goto out;
	for (int i = 0; i < out->n_mail; i++) {
		struct play_mail *m = &out->mail[i];
		if (m->to == out->side && m->kind != PLAY_MAIL_NOTICE) {
			free(m->name);
			free(m->title);
			free(m->text);
		} else {
			out->mail[kept++] = *m;
		}
	}
	if (kept < out->n_mail && out->unproven)
		strbuf_addf(&out->said, "; no reply sent: %s (at most one a day to an address)",
			    why.buf);
	else if (kept < out->n_mail)
		strbuf_addf(&out->said, "; no reply sent: %s (at most %d in %d minutes, %d a day)",
			    why.buf, REPLIES_SHORT_MAX, REPLIES_SHORT_WINDOW / 60, REPLIES_DAY_MAX);
	out->n_mail = kept;
out:
	strbuf_release(&why);
}

static void decide(struct game *g, const struct play_request *rq,
		   struct play_outcome *out)
{
	enum side side = SIDE_NONE;
	char *text = NULL;

	if (rq->as < 0) {
		if (!(text = from_mail(g, rq, &side, out)))
			return;
	} else if (rq->default_order) {
		side = (enum side)rq->as;
		if (!(text = late_default(g, side, out)))
			return;
	} else {
		side = (enum side)rq->as;
		text = xstrdup(rq->input);
		if (engine_game_over(&g->state)) {
			verdict(out, PLAY_REJECTED, EXIT_REJECTED, "rejected: the game is over");
			free(text);
			return;
		}
	}
	out->side = side;
	/* a host typed it (fairness.md 16c); a peer copy's player types his
	 * own orders at his own copy: there is no host to mark */
	if (rq->as >= 0 && !rq->check && !g->peer)
		turn_mark_host(&out->log, side, rq->default_order);
	if (order_text_is(text, "undo")) {
		/* a new commit that restores the state before the side's
		 * last order (history is never rewritten) */
		undo(g, rq, side, out);
	} else if (rq->hooks && rq->hooks->order) {
		/* the mode's own step 7: it makes its commit itself */
		rq->hooks->order(rq->hooks->ctx, g, rq, side, text, out);
		free(text);
		return;
	} else {
		run_order(g, rq, side, text, out);
	}
	if (out->verdict == PLAY_ACCEPTED && !rq->check) {
		/* held-over lines stay sealed until they run: they may name
		 * cards of the hand (docs/orders.md, "Held over") */
		order_public_text(text, &out->next, side, &out->order);
		commit_subject(&g->state, side, out->actions.buf, &out->subject);
		commit_trailers(rq, side, out->message_id, &out->trailers);
	}
	free(text);
}

void play_decide(struct game *g, const struct play_request *rq,
		 struct play_outcome *out)
{
	out->hooks = rq->hooks;
	decide(g, rq, out);
	bound_replies(g, rq, out);
}

/* Writes the outcome's replies and notices to the outbox; false if one
 * could not be written. */
static bool write_mail(struct game *g, struct notify *n, const struct play_outcome *out)
{
	bool ok = true;
	int to[3] = { 0, 0, 0 };

	for (int i = 0; i < out->n_mail; i++)
		to[out->mail[i].to]++;
	for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++)
		if (to[k] && out->unproven && k == out->side)
			replies_unproven_record(g->repo, g->player[k].addr, game_now());
		else if (to[k])
			replies_record(g->repo, k, game_now(), to[k]);
	if (out->verdict == PLAY_ANSWERED && out->message_id)
		replies_mark_answered(g->repo, out->message_id);

	/* the replies join the sender's thread: his References, then his
	 * message (RFC 5322, 3.6.4) */
	n->thread = out->references;
	for (int i = 0; i < out->n_mail; i++) {
		const struct play_mail *m = &out->mail[i];
		const char *reply = m->reply ? out->message_id : NULL;
		switch (m->kind) {
		case PLAY_MAIL_REJECT:
			notify_reject(n, g, m->to, m->text, reply);
			break;
		case PLAY_MAIL_ANSWER:
			ok = notify_answer(n, g, m->to, m->name, m->text, reply) == 0 && ok;
			break;
		case PLAY_MAIL_NOTICE:
			ok = notify_notice(n, g, m->to, m->name, m->title, m->text, reply) == 0 && ok;
			break;
		}
	}
	n->thread = NULL;
	return ok;
}

/* Commits an accepted outcome: 0, TURN_STALE or -1 with err. */
static int commit_turn(struct game *g, struct notify *n, struct play_outcome *out,
		       char commit[41], struct strbuf *err)
{
	struct strbuf happened = STRBUF_INIT, yaml = STRBUF_INIT;
	struct strbuf mpath = STRBUF_INIT, mrec = STRBUF_INIT;
	struct repo_file extra[2];
	int n_extra = 0, r = -1;

	turn_happened(&happened, &g->state, out->next.seq, out->side, out->log.buf);
	if (out->fixed_dice) {
		g->fixed_dice = true;
		game_write_yaml(g, &yaml);
		extra[n_extra++] = (struct repo_file){ "game.yaml", yaml.buf, yaml.len };
	}
	if (out->intake) {
		/* the mail kept, sealed; its record public (dkim-intake.h) */
		if (dkim_intake_keep(g, out->intake, out->next.seq, out->side, &mpath, &mrec) < 0) {
			strbuf_addstr(err, "the order's mail could not be kept");
			goto out;
		}
		extra[n_extra++] = (struct repo_file){ mpath.buf, mrec.buf, mrec.len };
	}
	struct turn t = {
		.next = &out->next, .side = out->side, .order_text = out->order.buf,
		.happened = happened.buf, .subject = out->subject.buf,
		.body = out->actions.buf, .extra = extra, .n_extra = n_extra,
		.trailers = out->trailers.len ? out->trailers.buf : NULL,
		.proofs = out->proofs.buf,
	};
	/* the reports show the clock as it is after this order; only an
	 * order that decided something moves it (an undo does) */
	if (out->undo || !engine_decided_nothing(&g->state, &out->next, out->side))
		clock_order(&g->clock, g->state.prompt.side, out->side, game_now());
	else
		clock_same_decision(&g->clock, g->state.seq, out->next.seq);
	r = turn_commit(g, &t, n, commit, err);
	trace_perf("turn committed and mailed");
	if (r >= 0 && clock_save(g->repo, &g->clock) < 0)
		warning("the turn is committed, but the deadline's clock was not saved");
out:
	strbuf_release(&happened);
	strbuf_release(&yaml);
	strbuf_release(&mpath);
	strbuf_release(&mrec);
	return r;
}

bool play_carry_out(struct game *g, struct notify *n, struct play_outcome *out)
{
	struct strbuf err = STRBUF_INIT;
	char commit[41];
	int r;

	if (out->clock_changed && clock_save(g->repo, &g->clock) < 0) {
		play_fail(out, EXIT_TEMPFAIL, "the clock could not be saved (nothing was changed)");
		return false;
	}
	if (out->verdict != PLAY_ACCEPTED && !write_mail(g, n, out)) {
		if (out->verdict == PLAY_ANSWERED && out->mail[0].kind == PLAY_MAIL_ANSWER) {
			strbuf_reset(&out->out);
			play_fail(out, EXIT_TEMPFAIL,
				  "the answer to '%s' could not be written to the outbox",
				  out->mail[0].name);
		} else {
			out->status = EXIT_TEMPFAIL;
		}
	}
	if (out->verdict == PLAY_REJECTED && out->rejected_order && out->side != SIDE_NONE)
		replies_keep_rejected(g->repo, out->side, g->state.seq, out->rejected_order);
	if (out->verdict != PLAY_ACCEPTED)
		return false;
	if (out->hooks && out->hooks->commit)
		return out->hooks->commit(out->hooks->ctx, g, n, out) == 0;
	r = commit_turn(g, n, out, commit, &err);
	if (r >= 0 && !write_mail(g, n, out))
		warning("the turn is committed, but a notice could not be written to the outbox");
	if (r == TURN_STALE) {
		play_fail(out, EXIT_TEMPFAIL, "%s; try again (nothing was changed)", err.buf);
	} else if (r < 0) {
		play_fail(out, EXIT_TEMPFAIL, "%s (nothing was changed)", err.buf);
	} else {
		struct strbuf p = STRBUF_INIT;
		engine_describe_prompt(g->data, &out->next, &p);
		strbuf_addf(&out->out, "accepted: commit %.12s (order %u)\n%snow: %s\n", commit,
			    out->next.seq, out->log.buf, p.buf);
		strbuf_release(&p);
		verdict(out, PLAY_ACCEPTED, 0, "accepted: commit %.12s (order %u)", commit,
			out->next.seq);
	}
	strbuf_release(&err);
	return r >= 0;
}
