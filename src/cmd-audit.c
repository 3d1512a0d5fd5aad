/*
 * cmd-audit.c - `postrider reveal` publishes the seed; `postrider audit`
 * replays a game's whole history through the engine and checks every
 * committed byte: states, sealed private states, logs, every draw.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "notify.h"
#include "order.h"
#include "turn.h"

static int exec_reveal(int argc, char **argv)
{
	struct game g;
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT, yaml = STRBUF_INIT, happened = STRBUF_INIT;
	struct strbuf subject = STRBUF_INIT;
	char hex[FAIR_SEED_HEX], commit[41];
	int ret = EXIT_TEMPFAIL, r;

	bool abandon = false;

	if (argc == 3 && !strcmp(argv[1], "--abandon")) {
		abandon = true;
		argv++;
		argc--;
	}
	if (argc != 2 || argv[1][0] == '-')
		return cmd_usage(&cmd_reveal_entry);
	if (config_load(NULL, &cfg, &err) < 0) {
		fprintf(stderr, "error: %s\n", err.buf);
		goto out;
	}
	r = game_open(argv[1], &g, GAME_NEED_SECRET | GAME_LOCK, &err);
	if (r != 0) {
		fprintf(stderr, "error: %s", err.buf);
		goto close;
	}
	if (g.revealed) {
		fprintf(stderr, "postrider reveal: the seed of %s is already public\n", g.id);
		ret = EXIT_REJECTED;
		goto close;
	}
	/* After a reveal every hand and every future die is known: the game
	 * must be over, or end now (issue 12.2, docs/fairness.md). */
	if (!engine_game_over(&g.state) && !abandon) {
		fprintf(stderr, "postrider reveal: %s is still running; revealing the seed would show both hands and every future die\n"
			"hint: to end the game as abandoned and reveal, run 'postrider reveal --abandon %s';\n"
			"hint: a disputed turn is checked without a reveal: 'postrider audit %s'\n",
			g.id, argv[1], argv[1]);
		ret = EXIT_REJECTED;
		goto close;
	}
	g.revealed = true;
	fair_seed_format(g.seed, hex);
	game_write_yaml(&g, &yaml);
	if (!engine_game_over(&g.state)) {
		engine_abandon(&g.state);
		strbuf_addf(&happened, "\n-- The host abandons the game in %d and reveals the seed: %s --\n"
			    "The game is over: nobody wins.\n", g.state.year, hex);
		strbuf_addf(&subject, "Abandon game %s and reveal the seed", g.id);
	} else {
		strbuf_addf(&happened, "\n-- The host reveals the seed: %s --\n", hex);
		strbuf_addf(&subject, "Reveal the seed of game %s", g.id);
	}
	notify_init(&n, &g, &cfg);
	{
		struct repo_file extra[] = { { "game.yaml", yaml.buf, yaml.len } };
		struct turn t = {
			.next = &g.state, .side = SIDE_NONE, .happened = happened.buf,
			.subject = subject.buf, .extra = extra, .n_extra = 1,
		};
		r = turn_commit(&g, &t, &n, commit, &err);
	}
	if (r != 0) {
		fprintf(stderr, "error: %s (nothing was changed)\n", err.buf);
		goto close;
	}
	printf("revealed the seed of %s in commit %.12s: anyone holding the history can now run 'postrider audit'\n",
	       g.id, commit);
	ret = 0;
close:
	game_close(&g);
out:
	notify_release(&n);
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&yaml);
	strbuf_release(&happened);
	strbuf_release(&subject);
	return ret;
}

struct auditor {
	struct game *g;
	char (*history)[41];
	size_t n;
	size_t at;		/* index of the commit being checked */
	struct strbuf why;
};

/* Records the first difference; returns -1 so callers can `return fail()`. */
static int fail(struct auditor *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int fail(struct auditor *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&a->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* Compares a committed file with the text it must hold. */
static int same_file(struct auditor *a, const char *path, const char *want,
		     size_t want_len)
{
	struct strbuf got = STRBUF_INIT;
	int r = repo_read(a->g->repo, a->history[a->at], path, &got), ret = 0;

	if (r != 0) {
		ret = fail(a, "%s is missing", path);
	} else if (got.len != want_len || memcmp(got.buf, want, want_len)) {
		/* name the first differing line */
		const char *p = got.buf, *q = want;
		int line = 1;
		while (*p && *q && *p == *q) {
			if (*p == '\n')
				line++;
			p++;
			q++;
		}
		ret = fail(a, "%s differs from the replay at line %d:\n  committed: %.*s\n  replayed:  %.*s",
			   path, line,
			   (int)strcspn(p - (p > got.buf && p[-1] != '\n' ? 0 : 0), "\n"), p,
			   (int)strcspn(q, "\n"), q);
	}
	strbuf_release(&got);
	return ret;
}

/* Checks the committed state files against the replayed state s. */
static int check_state(struct auditor *a, const struct state *s,
		       const char *log, size_t log_len)
{
	struct strbuf yaml = STRBUF_INIT, sealed = STRBUF_INIT;
	int ret;

	if (game_state_files(a->g, s, &yaml, &sealed) < 0)
		return fail(a, "cannot seal the replayed state");
	ret = same_file(a, "state.yaml", yaml.buf, yaml.len);
	if (!ret)
		ret = same_file(a, "private/state.sealed", sealed.buf, sealed.len);
	if (!ret)
		ret = same_file(a, "log.txt", log, log_len);
	strbuf_release(&yaml);
	strbuf_release(&sealed);
	return ret;
}

/* Test-only fixed dice, from the commit's trailer. */
static void forced_dice(struct auditor *a, struct rng *r, bool *fixed)
{
	struct strbuf msg = STRBUF_INIT;
	const char *p;

	r->n_forced = 0;
	if (repo_commit_info(a->g->repo, a->history[a->at], &msg, NULL, NULL, NULL) < 0)
		return;
	if ((p = strstr(msg.buf, "\nPostrider-Fixed-Dice: "))) {
		p += strlen("\nPostrider-Fixed-Dice: ");
		while (*p >= '1' && *p <= '6' && r->n_forced < RNG_MAX_FORCED) {
			r->forced[r->n_forced++] = *p - '0';
			p++;
			if (*p == ',')
				p++;
		}
		*fixed = true;
	}
	strbuf_release(&msg);
}

/* The seq committed in state.yaml at the current commit. */
static int committed_seq(struct auditor *a, uint32_t *seq)
{
	struct strbuf pub = STRBUF_INIT, err = STRBUF_INIT;
	struct state tmp;
	int ret = 0;

	if (repo_read(a->g->repo, a->history[a->at], "state.yaml", &pub) != 0)
		ret = fail(a, "state.yaml is missing");
	else if (state_read(&tmp, a->g->data, pub.buf, pub.len, NULL, 0, &err) < 0)
		ret = fail(a, "state.yaml does not load:\n%s", err.buf);
	else
		*seq = tmp.seq;
	strbuf_release(&pub);
	strbuf_release(&err);
	return ret;
}

/* Does the state committed at the current commit say "abandoned"? */
static bool committed_abandoned(struct auditor *a)
{
	struct strbuf pub = STRBUF_INIT, err = STRBUF_INIT;
	struct state tmp;
	bool yes = false;

	if (repo_read(a->g->repo, a->history[a->at], "state.yaml", &pub) == 0 &&
	    state_read(&tmp, a->g->data, pub.buf, pub.len, NULL, 0, &err) == 0)
		yes = tmp.end == END_ABANDONED;
	strbuf_release(&pub);
	strbuf_release(&err);
	return yes;
}

/* Replays the whole history with the seed. */
static int replay(struct auditor *a, bool *fixed)
{
	const struct data *d = a->g->data;
	struct strbuf log = STRBUF_INIT, order = STRBUF_INIT;
	struct state s;
	struct rng r;
	int ret = -1;

	a->at = 0;
	rng_init(&r, a->g->seed, 0);
	r.log = &log;
	engine_new_game(d, &s, &r, &log);
	s.tournament = a->g->tournament;	/* 6.34.C.i */
	s.draws = r.next;
	if (check_state(a, &s, log.buf, log.len) < 0)
		goto out;
	for (a->at = 1; a->at < a->n; a->at++) {
		uint32_t seq;
		if (committed_seq(a, &seq) < 0)
			goto out;
		if (seq == s.seq) {
			/* a commit of the host that plays no order: the reveal,
			 * which ends a running game as abandoned */
			struct strbuf got = STRBUF_INIT;
			if (!engine_game_over(&s) && committed_abandoned(a))
				engine_abandon(&s);
			if (repo_read(a->g->repo, a->history[a->at], "log.txt", &got) != 0 ||
			    got.len < log.len || memcmp(got.buf, log.buf, log.len)) {
				strbuf_release(&got);
				fail(a, "log.txt does not continue the log of the previous commit");
				goto out;
			}
			strbuf_reset(&log);
			strbuf_add(&log, got.buf, got.len);
			strbuf_release(&got);
			if (check_state(a, &s, log.buf, log.len) < 0)
				goto out;
			continue;
		}
		if (seq != s.seq + 1) {
			fail(a, "the order number jumps from %u to %u", s.seq, seq);
			goto out;
		}
		enum side side = SIDE_NONE;
		char path[64];
		for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH && !side; k++) {
			snprintf(path, sizeof(path), "orders/%04u-%s.txt", seq, side_name(k));
			strbuf_reset(&order);
			if (repo_read(a->g->repo, a->history[a->at], path, &order) == 0)
				side = k;
		}
		if (!side) {
			fail(a, "order %u is missing (orders/%04u-SIDE.txt)", seq, seq);
			goto out;
		}
		struct order_result res;
		struct state next = s;
		order_result_init(&res);
		rng_init(&r, a->g->seed, s.draws);
		forced_dice(a, &r, fixed);
		r.log = &res.log;
		order_run(d, &next, &r, side, order.buf, &res);
		if (res.rejected) {
			fail(a, "the committed order %s is illegal on replay:\n%s", path, res.message.buf);
			order_result_release(&res);
			goto out;
		}
		next.draws = r.next;
		next.seq = seq;
		next.orders[side]++;
		turn_happened(&log, &s, seq, side, res.log.buf);
		order_result_release(&res);
		s = next;
		if (check_state(a, &s, log.buf, log.len) < 0)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&log);
	strbuf_release(&order);
	return ret;
}

/* Without the seed: what can be checked from the public files alone. */
static int structure(struct auditor *a)
{
	struct strbuf prev_log = STRBUF_INIT, got = STRBUF_INIT;
	uint32_t prev = 0;
	int ret = 0;

	for (a->at = 0; a->at < a->n && !ret; a->at++) {
		uint32_t seq = 0;
		if ((ret = committed_seq(a, &seq)) < 0)
			break;
		if (a->at && seq != prev && seq != prev + 1)
			ret = fail(a, "the order number jumps from %u to %u", prev, seq);
		strbuf_reset(&got);
		if (!ret && repo_read(a->g->repo, a->history[a->at], "log.txt", &got) != 0)
			ret = fail(a, "log.txt is missing");
		if (!ret && (got.len < prev_log.len || memcmp(got.buf, prev_log.buf, prev_log.len)))
			ret = fail(a, "log.txt does not continue the log of the previous commit");
		strbuf_reset(&prev_log);
		strbuf_add(&prev_log, got.buf, got.len);
		prev = seq;
	}
	strbuf_release(&prev_log);
	strbuf_release(&got);
	return ret;
}

static int exec_audit(int argc, char **argv)
{
	struct game g;
	struct strbuf err = STRBUF_INIT;
	struct auditor a = { .g = &g };
	bool fixed = false;
	int ret = EXIT_TEMPFAIL;

	if (argc != 2 || argv[1][0] == '-')
		return cmd_usage(&cmd_audit_entry);
	strbuf_init(&a.why);
	if (game_open(argv[1], &g, 0, &err) != 0) {
		/* for an audit, a game that does not open is a finding */
		printf("the game does not pass the audit: %s", err.buf);
		strbuf_release(&err);
		strbuf_release(&a.why);
		game_close(&g);
		return EXIT_REJECTED;
	}
	if (repo_history(g.repo, &a.history, &a.n) < 0)
		goto out;
	if (g.have_seed) {
		if (replay(&a, &fixed) < 0)
			goto differs;
		if (!g.revealed)
			printf("note: audited with the host's secret; the seed is not public yet\n");
		if (g.seed_source && strcmp(g.seed_source, "random"))
			printf("note: the seed was %s by the host, not drawn at random\n", g.seed_source);
		if (fixed || g.fixed_dice) {
			printf("replayed %zu commits, but fixed dice were used (test mode): this is not a fair game\n", a.n);
			ret = EXIT_REJECTED;
			goto out;
		}
		printf("verified: %zu commits\n", a.n);
	} else {
		if (structure(&a) < 0)
			goto differs;
		printf("verified without the seed: %zu commits (the orders are re-adjudicated once the seed is revealed)\n", a.n);
	}
	ret = 0;
	goto out;
differs:
	printf("commit %s (%zu of %zu) does not match: %s\n", a.history[a.at], a.at + 1, a.n, a.why.buf);
	ret = EXIT_REJECTED;
out:
	free(a.history);
	strbuf_release(&a.why);
	strbuf_release(&err);
	game_close(&g);
	return ret;
}

const struct cmd_entry cmd_reveal_entry = {
	"reveal", "reveal [--abandon] DIR",
	"publish the secret seed in a commit when the game is over (--abandon: end a running game so)",
	NULL, exec_reveal,
};

const struct cmd_entry cmd_audit_entry = {
	"audit", "audit DIR",
	"replay the whole history and check every commit, state and die",
	"exit status: 0 verified, 1 a commit does not match (or fixed dice were used)\n",
	exec_audit,
};
