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

#include "authorize.h"
#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "hostlog.h"
#include "mail.h"
#include "notify.h"
#include "publish.h"
#include "query.h"
#include "report.h"
#include "repo.h"
#include "order.h"
#include "outbox.h"
#include "turn.h"
#include "trace.h"

#define MAX_INPUT (1 << 20)

struct play_opts {
	bool check;
	const char *dir, *input, *config_path;
	const char *games;	/* --games ROOT: the game named in the mail */
	int as;			/* -1: the input is a mail message */
	int n_dice, dice[RNG_MAX_FORCED];
	bool default_order;	/* --default: the late side's default order */
};

/*
 * What became of the message, for stderr and the host's log: "rejected:
 * ...", "ignored: ...", "error: ...". Printed once, at the end of run().
 */
static void outcome(struct strbuf *out, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void outcome(struct strbuf *out, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(out);
	va_start(ap, fmt);
	strbuf_vaddf(out, fmt, ap);
	va_end(ap);
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

/*
 * --games ROOT: the game is ROOT/<id>, the id read from the message
 * (X-Postrider-Game, the subject, or our Message-IDs it replies to). Ids
 * are checked to be "ww-" and letters and digits, so a message cannot
 * name a path outside ROOT.
 */
static char *routed_dir;
static int route(struct play_opts *o, const char *raw, size_t len,
		 struct strbuf *why)
{
	struct mail_message m = { 0 };
	struct strbuf err = STRBUF_INIT;
	char id[64];
	int ret = -1;

	if (mail_parse(raw, len, &m, &err) < 0) {
		strbuf_addf(why, "rejected: the message cannot be read: %s", err.buf);
	} else if (m.automatic) {
		strbuf_addf(why, "ignored: an automatic message (%s); no reply sent, nothing changed",
			    m.automatic);
		ret = 1;
	} else if (!mail_find_game(&m, id, sizeof(id)) || !mail_valid_game_id(id)) {
		strbuf_addstr(why, "rejected: the message names no game (no [ww-...] in the subject); no reply sent");
	} else {
		free(routed_dir);
		routed_dir = xstrfmt("%s/%s", o->games, id);
		if (access(routed_dir, F_OK) < 0)
			strbuf_addf(why, "rejected: there is no game %s in '%s'; no reply sent", id, o->games);
		else {
			o->dir = routed_dir;
			ret = 0;
		}
	}
	mail_message_release(&m);
	strbuf_release(&err);
	return ret;
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
 * not spent. Returns the exit status.
 */
static int vacation(struct game *g, struct notify *n, enum side side,
		    const char *text, const char *reply_to, bool check,
		    struct strbuf *said)
{
	struct strbuf why = STRBUF_INIT, news = STRBUF_INIT, len_text = STRBUF_INIT;
	char word[32] = "", extra[2] = "", until[UTC_TIME_SIZE];
	long long len = 0, now = game_now();
	int ret = EXIT_REJECTED;

	if (sscanf(text, "%*s %31s %1s", word, extra) != 1 || duration_parse(word, &len) < 0)
		strbuf_addstr(&why, "a vacation is asked for as 'vacation' and how long: 'vacation 7d' (m, h, d or w), alone in the message");
	else if (clock_vacation(&g->clock, side, now, len, &why) == 0)
		ret = 0;
	if (ret) {
		outcome(said, "rejected: %s", why.buf);
		if (!check)
			notify_reject(n, g, side, why.buf, reply_to);
		goto out;
	}
	if (check) {
		printf("the vacation would be granted\n");
		goto out;
	}
	if (clock_save(g->repo, &g->clock) < 0) {
		outcome(said, "error: the clock could not be saved (nothing was changed)");
		ret = EXIT_TEMPFAIL;
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
		if (notify_notice(n, g, s, "vacation", "vacation", news.buf,
				  s == side ? reply_to : NULL) < 0)
			ret = EXIT_TEMPFAIL;
	printf("%s", news.buf);
	outcome(said, "answered 'vacation' to both players: until %s", until);
out:
	strbuf_release(&why);
	strbuf_release(&news);
	strbuf_release(&len_text);
	return ret;
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
	for (size_t k = 0; k < sizeof(prefer) / sizeof(prefer[0]) && ret < 0; k++)
		for (int i = 0; i < n && ret < 0; i++)
			if (acts[i].kind == prefer[k]) {
				action_format(g->data, &acts[i], out);
				strbuf_addch(out, '\n');
				ret = 0;
			}
	free(acts);
	return ret;
}

/*
 * The state after side takes back its last order (engine_undo): the state
 * before it, read from the parent of HEAD, with the counters carried on.
 * An undo is not undone in turn. Returns 0, or -1 with the reason in why.
 */
static int undo_state(struct game *g, enum side side, struct state *next,
		      struct strbuf *why)
{
	struct state cur = g->state;
	struct strbuf order = STRBUF_INIT, err = STRBUF_INIT;
	char (*history)[41] = NULL, path[64];
	size_t n = 0;
	int ret = -1;

	snprintf(path, sizeof(path), "orders/%04u-%s.txt", cur.seq, side_name(side));
	if (repo_history(g->repo, &history, &n) < 0 || n < 2) {
		strbuf_addstr(why, "there is no order to take back");
	} else if (repo_read(g->repo, g->head, path, &order) != 0) {
		strbuf_addstr(why, "only the side that gave the last order may take it back, and only that order");
	} else if (order_text_is(order.buf, "undo")) {
		strbuf_addstr(why, "the last order is itself an undo");
	} else if (game_load_state(g, history[n - 2], &err) < 0) {
		strbuf_addf(why, "the state before it cannot be read: %s", err.buf);
	} else {
		ret = engine_undo(&g->state, &cur, side, next, why);
	}
	g->state = cur;
	free(history);
	strbuf_release(&order);
	strbuf_release(&err);
	return ret;
}

/* Cuts the log before its first draw; true if it did. */
static bool cut_at_first_draw(struct strbuf *log)
{
	const char *p = log->buf;

	while (p && *p) {
		if (!strncmp(p, "draw", 4)) {
			log->len = (size_t)(p - log->buf);
			log->buf[log->len] = '\0';
			strbuf_addstr(log, "(what follows depends on the dice)\n");
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/*
 * A message that cannot be parsed still gets an answer if its From: line
 * names a player: what was wrong, and that nothing changed. Anyone else
 * gets none.
 */
static void reply_unreadable(const struct game *g, struct notify *n,
			     const char *raw, size_t len, const char *why,
			     bool check)
{
	char *from = mail_header_get(raw, len, "From"), *name = NULL, *addr = NULL;
	char *as = mail_header_get(raw, len, "Auto-Submitted");
	char *rp = mail_header_get(raw, len, "Return-Path");
	/* an unreadable message from a machine gets no answer either */
	bool automatic = (as && !strstr(as, "no")) || (rp && strstr(rp, "<>"));
	enum side side;

	free(as);
	free(rp);
	if (!check && !automatic && from && mail_parse_address(from, &name, &addr) == 0 &&
	    (side = authorize_sender_side(g, addr)) != SIDE_NONE) {
		char *reason = xstrfmt("the message could not be read: %s", why);
		notify_reject(n, g, side, reason, NULL);
		free(reason);
	}
	free(from);
	free(name);
	free(addr);
}

static void commit_subject(const struct game *g, const struct state *before,
			   enum side side, const char *actions,
			   struct strbuf *out)
{
	const char *p = actions;
	int n = 0;
	(void)g;

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
 * parsed here (an automatic one, say) is parsed again for its sender. */
static void log_for_host(const struct mail_config *cfg, const struct game *g,
			 const struct mail_message *m, const struct strbuf *input,
			 int status, const char *what)
{
	struct mail_message again = { 0 };
	struct strbuf err = STRBUF_INIT;
	char id[64] = "";

	if (!cfg->log)
		return;
	if (!m->from_addr && mail_parse(input->buf, input->len, &again, &err) == 0)
		m = &again;
	if (!g->id && m->from_addr && !mail_find_game(m, id, sizeof(id)))
		*id = '\0';
	hostlog_write(cfg->log, game_now(), g->id ? g->id : id, m->message_id,
		      m->from_addr, status, what);
	mail_message_release(&again);
	strbuf_release(&err);
}

static int run(struct play_opts *o)
{
	struct game g;
	struct mail_config cfg = { 0 };
	struct mail_message m = { 0 };
	struct notify n = { 0 };
	struct strbuf input = STRBUF_INIT, err = STRBUF_INIT, subject = STRBUF_INIT;
	struct strbuf happened = STRBUF_INIT, trailers = STRBUF_INIT;
	struct strbuf proofs = STRBUF_INIT;
	struct strbuf said = STRBUF_INIT;
	struct order_result res;
	char *order_text = NULL, commit[41];
	const char *reply_to_id = NULL;
	enum side side;
	bool from_mail = o->as < 0, committed = false, have_cfg = false;
	int ret = EXIT_REJECTED, r;
	struct state next;
	struct rng rng;

	order_result_init(&res);
	memset(&g, 0, sizeof(g));
	if (read_input(o->input, &input) < 0) {
		if (errno == EFBIG) {
			outcome(&said, "rejected: the input is larger than %d bytes", MAX_INPUT);
			ret = EXIT_REJECTED;
		} else {
			outcome(&said, "error: cannot read the order: %s", strerror(errno));
			ret = EXIT_TEMPFAIL;
		}
		goto out;
	}
	if (config_load(o->config_path, &cfg, &err) < 0) {
		/* permanent: a retry reads the same file (cmd.h) */
		outcome(&said, "error: the configuration is wrong; fix it (nothing was changed):\n%s", err.buf);
		ret = EXIT_CONFIG;
		goto out;
	}
	have_cfg = true;
	if (!o->check && !templates_present(&err)) {
		outcome(&said, "error: %s (nothing was changed)", err.buf);
		ret = EXIT_CONFIG;
		goto out;
	}
	strbuf_reset(&err);
	if (o->games && (r = route(o, input.buf, input.len, &err)) != 0) {
		outcome(&said, "%s", err.buf);
		ret = r > 0 ? 0 : EXIT_REJECTED;
		goto out;
	}
	r = game_open(o->dir, &g, GAME_NEED_SECRET | (o->check ? 0 : GAME_LOCK), &err);
	if (r == GAME_BUSY) {
		outcome(&said, "postrider: %s; try again later (nothing was changed)", err.buf);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	if (r < 0) {
		/* not a game, a missing seed, a corrupt file: the host must
		 * look; a mail system that retried would only fail again */
		outcome(&said, "error: %s(the game cannot be opened: nothing was changed; the host must fix it)",
			err.buf);
		ret = EXIT_CONFIG;
		goto out;
	}
	notify_init(&n, &g, &cfg);
	if (!o->check && notify_recover(&n, &g) != 0)
		warning("some mail left by an earlier run in '%s/tmp' could not be recovered", n.outbox);

	if (from_mail) {
		enum authorize_verdict v;

		if (mail_parse(input.buf, input.len, &m, &err) < 0) {
			outcome(&said, "rejected: the message cannot be read: %s", err.buf);
			reply_unreadable(&g, &n, input.buf, input.len, err.buf, o->check);
			goto out;
		}
		strbuf_reset(&err);
		v = authorize_mail(&g, &m, true, &side, &err);
		if (v == AUTHORIZE_IGNORE) {
			outcome(&said, "ignored: %s; no reply sent, nothing changed", err.buf);
			ret = 0;
			goto out;
		}
		if (v == AUTHORIZE_STRANGER) {
			/* No reply: an unknown sender learns nothing about the game. */
			outcome(&said, "rejected: %s; no reply sent", err.buf);
			goto out;
		}
		reply_to_id = m.message_id;
		if (v == AUTHORIZE_OK) {
			order_text = mail_order_text(m.body ? m.body : "");
			/* a question instead of an order: answered to the
			 * sender alone, nothing committed, the token not spent */
			int qn;
			enum query q = query_parse(order_text, &qn);
			if (q != QUERY_NONE) {
				struct strbuf answer = STRBUF_INIT, log = STRBUF_INIT;
				repo_read(g.repo, NULL, "log.txt", &log);
				query_answer(&g, side, q, qn, log.buf ? log.buf : "", &answer);
				if (o->check) {
					fputs(answer.buf, stdout);
				} else if (notify_answer(&n, &g, side, query_name(q), answer.buf,
							 reply_to_id) < 0) {
					outcome(&said, "error: the answer to '%s' could not be written to the outbox",
						query_name(q));
					ret = EXIT_TEMPFAIL;
				}
				if (ret != EXIT_TEMPFAIL) {
					printf("answered '%s' to the %s; nothing was changed\n",
					       query_name(q), side_title(side));
					outcome(&said, "answered '%s' to the %s", query_name(q),
						side_title(side));
					ret = 0;
				}
				strbuf_release(&answer);
				strbuf_release(&log);
				goto out;
			}
			if (engine_game_over(&g.state)) {
				strbuf_addstr(&err, "the game is over");
				v = AUTHORIZE_REFUSE;
			} else if (is_vacation(order_text)) {
				ret = vacation(&g, &n, side, order_text, reply_to_id,
					       o->check, &said);
				goto out;
			}
		}
		if (v == AUTHORIZE_REFUSE) {
			outcome(&said, "rejected: %s", err.buf);
			if (!o->check)
				notify_reject(&n, &g, side, err.buf, reply_to_id);
			goto out;
		}
	} else if (o->default_order) {
		struct strbuf text = STRBUF_INIT, p = STRBUF_INIT;
		side = (enum side)o->as;
		if (!engine_game_over(&g.state) && g.state.prompt.side == side &&
		    default_order(&g, &text) == 0) {
			order_text = strbuf_detach(&text, NULL);
			printf("the default order for the %s: %s", side_title(side), order_text);
		} else {
			engine_describe_prompt(g.data, &g.state, &p);
			outcome(&said, "rejected: there is no default order for the %s now (%s); play one with play --as %s",
				side_title(side), p.buf, side_name(side));
		}
		strbuf_release(&text);
		strbuf_release(&p);
		if (!order_text)
			goto out;
	} else {
		side = (enum side)o->as;
		order_text = xstrdup(input.buf);
		if (engine_game_over(&g.state)) {
			outcome(&said, "rejected: the game is over");
			goto out;
		}
	}

	if (order_text_is(order_text, "undo")) {
		/* a new commit that restores the state before the side's
		 * last order (history is never rewritten) */
		strbuf_reset(&err);
		if (undo_state(&g, side, &next, &err) < 0) {
			outcome(&said, "rejected: the last order cannot be taken back: %s", err.buf);
			if (from_mail && !o->check)
				notify_reject(&n, &g, side, said.buf + 10, reply_to_id);
			goto out;
		}
		strbuf_addf(&res.log, "The %s takes back order %u: the game is as it was before it.\n",
			    side_title(side), g.state.seq);
		strbuf_addf(&res.actions, "undo order %u\n", g.state.seq);
		res.applied = 1;
		if (o->check) {
			printf("the undo is allowed:\n%s", res.log.buf);
			ret = 0;
			goto out;
		}
		goto commit;
	}
	next = g.state;
	game_rng(&g, &rng);
	for (int i = 0; i < o->n_dice; i++)
		rng.forced[i] = o->dice[i];
	rng.n_forced = o->n_dice;
	rng.log = &res.log;
	rng.proofs = &proofs;
	trace_perf("game opened");
	order_run(g.data, &next, &rng, side, order_text, &res);
	trace_perf("order adjudicated");
	if (res.rejected) {
		outcome(&said, "rejected: %s", res.message.buf);
		if (from_mail && !o->check)
			notify_reject(&n, &g, side, res.message.buf, reply_to_id);
		goto out;
	}
	next.draws = rng.next;
	next.seq = g.state.seq + 1;
	next.orders[side]++;
	if (o->check) {
		struct strbuf p = STRBUF_INIT;
		/* After a die, who decides next is the dice's secret too. */
		if (cut_at_first_draw(&res.log))
			strbuf_addstr(&p, "depends on the dice, which check does not roll");
		else
			engine_describe_prompt(g.data, &next, &p);
		printf("the order is valid (%d decision%s):\n%s\nthen: %s\n", res.applied,
		       res.applied == 1 ? "" : "s", res.log.buf, p.buf);
		strbuf_release(&p);
		ret = 0;
		goto out;
	}
commit:
	turn_happened(&happened, &g.state, next.seq, side, res.log.buf);
	commit_subject(&g, &g.state, side, res.actions.buf, &subject);
	/* Who gave the order to postrider: the player by mail (with the
	 * mail's id, so a player can match his sent mail to the commit), or
	 * the host by hand. Players see it in the patch of every report. */
	if (from_mail) {
		const char *id = m.message_id;
		bool usable = id && strlen(id) <= 250 && *id == '<';
		for (const char *p = id; usable && *p; p++)
			usable = *p > ' ' && *p < 0x7f;
		strbuf_addf(&trailers, "Postrider-Via: mail\nPostrider-Message-Id: %s\n",
			    usable ? id : "(none or unusable)");
	} else {
		strbuf_addf(&trailers, "Postrider-Via: host (play --as %s%s)\n", side_name(side),
			    o->default_order ? " --default, the side being late" : "");
	}
	if (o->n_dice) {
		strbuf_addstr(&trailers, "Postrider-Fixed-Dice:");
		for (int i = 0; i < o->n_dice; i++)
			strbuf_addf(&trailers, "%s%d", i ? "," : " ", o->dice[i]);
		strbuf_addch(&trailers, '\n');
	}
	{
		struct strbuf yaml = STRBUF_INIT;
		struct repo_file extra[1];
		int n_extra = 0;
		if (o->n_dice && !g.fixed_dice) {
			g.fixed_dice = true;
			game_write_yaml(&g, &yaml);
			extra[n_extra++] = (struct repo_file){ "game.yaml", yaml.buf, yaml.len };
		}
		/* held-over lines stay sealed until they run: they may name
		 * cards of the hand (docs/orders.md, "Held over") */
		struct strbuf public_order = STRBUF_INIT;
		order_public_text(order_text, &next, side, &public_order);
		struct turn t = {
			.next = &next, .side = side, .order_text = public_order.buf,
			.happened = happened.buf, .subject = subject.buf,
			.body = res.actions.buf, .extra = extra, .n_extra = n_extra,
			.trailers = trailers.len ? trailers.buf : NULL,
			.proofs = proofs.buf,
		};
		/* the reports show the clock as it is after this order */
		clock_order(&g.clock, g.state.prompt.side, side, game_now());
		r = turn_commit(&g, &t, &n, commit, &err);
		trace_perf("turn committed and mailed");
		strbuf_release(&yaml);
		strbuf_release(&public_order);
	}
	if (r >= 0 && clock_save(g.repo, &g.clock) < 0)
		warning("the turn is committed, but the deadline's clock was not saved");
	if (r == TURN_STALE) {
		outcome(&said, "postrider: %s; try again (nothing was changed)", err.buf);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	if (r < 0) {
		outcome(&said, "error: %s (nothing was changed)", err.buf);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	{
		struct strbuf p = STRBUF_INIT;
		engine_describe_prompt(g.data, &next, &p);
		printf("accepted: commit %.12s (order %u)\n%snow: %s\n", commit, next.seq,
		       res.log.buf, p.buf);
		strbuf_release(&p);
	}
	outcome(&said, "accepted: commit %.12s (order %u)", commit, next.seq);
	ret = 0;
	committed = true;
out:
	/* every mail of this run (a report, a rejection) goes now */
	if (!o->check && n.outbox && notify_send(&n, &cfg) > 0 && committed) {
		fprintf(stderr, "postrider: the turn is committed but its mail was not sent\n");
		strbuf_addstr(&said, "; its mail was not sent");
		ret = EXIT_UNSENT;
	}
	while (said.len && said.buf[said.len - 1] == '\n')
		said.buf[--said.len] = '\0';
	if (said.len && !committed && strncmp(said.buf, "answered", 8))
		fprintf(stderr, "%s\n", said.buf);
	if (have_cfg && from_mail && !o->check)
		log_for_host(&cfg, &g, &m, &input, ret, said.buf);
	if (committed)
		publish_after_commit(g.repo, &cfg);
	order_result_release(&res);
	mail_message_release(&m);
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	free(order_text);
	strbuf_release(&input);
	strbuf_release(&err);
	strbuf_release(&subject);
	strbuf_release(&happened);
	strbuf_release(&trailers);
	strbuf_release(&proofs);
	strbuf_release(&said);
	return ret;
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
				fprintf(stderr, "postrider %s: --as takes american or british\n", e->name);
				return EXIT_USAGE;
			}
			break;
		case 'c': o.config_path = optarg; break;
		case 'G': o.games = optarg; break;
		case 'D': o.default_order = true; break;
		case 'f':
			if (parse_dice(optarg, &o) < 0) {
				fprintf(stderr, "postrider %s: --fix-dice takes die values 1-6 separated by commas\n", e->name);
				return EXIT_USAGE;
			}
			break;
		default: return cmd_usage(e);
		}
	}
	if (o.games) {
		/* --games ROOT [FILE]: the game comes from the message */
		if (o.as > 0 || argc - optind > 1) {
			fprintf(stderr, "postrider %s: --games takes a mail message, not --as, and no DIR\n", e->name);
			return EXIT_USAGE;
		}
		o.input = optind < argc ? argv[optind] : "-";
	} else if (o.default_order) {
		if (o.as <= 0 || argc - optind != 1) {
			fprintf(stderr, "postrider %s: --default takes --as SIDE and DIR, and no order\n", e->name);
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
