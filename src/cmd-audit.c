/*
 * cmd-audit.c - `postrider reveal` publishes the seed; `postrider audit`
 * replays a game's whole history through the engine and checks every
 * committed byte: states, sealed private states, logs, every draw.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "mail.h"
#include "notify.h"
#include "order.h"
#include "publish.h"
#include "turn.h"
#include "vrf.h"

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
	r = turn_commit_host(&g, &yaml, happened.buf, subject.buf, &n, commit, &err);
	if (r != 0) {
		fprintf(stderr, "error: %s (nothing was changed)\n", err.buf);
		goto close;
	}
	printf("revealed the seed of %s in commit %.12s: anyone holding the history can now run 'postrider audit'\n",
	       g.id, commit);
	ret = 0;
	if (notify_send(&n, &cfg) > 0) {
		fprintf(stderr, "postrider: the seed is revealed but its mail was not sent\n");
		ret = EXIT_UNSENT;
	}
	publish_after_commit(g.repo, &cfg);
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
	unsigned long dice;	/* version 2: public draws whose proofs verified */
	unsigned long shuffles;	/* shuffles, checked only with the seed */
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
	struct strbuf log = STRBUF_INIT, order = STRBUF_INIT, proofs = STRBUF_INIT;
	struct state s;
	/* by side, what an undo needs: the state before its last order and
	 * after it, while the opponent has decided nothing since */
	struct state *prev = xcalloc(3, sizeof(*prev)), *mine = xcalloc(3, sizeof(*mine));
	bool have_prev[3] = { false, false, false };
	struct rng r;
	int ret = -1;

	a->at = 0;
	memset(&s, 0, sizeof(s));
	game_rng_for(a->g, &s, &r);
	r.log = &log;
	r.proofs = &proofs;
	engine_new_game(d, &s, &r, &log);
	s.tournament = a->g->tournament;	/* 6.34.C.i */
	s.draws = r.next;
	if (check_state(a, &s, log.buf, log.len) < 0 ||
	    (game_proves(a->g) && same_file(a, "proofs.txt", proofs.buf, proofs.len) < 0))
		goto out;
	for (a->at = 1; a->at < a->n; a->at++) {
		uint32_t seq = 0;
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
		if (order_text_is(order.buf, "undo")) {
			/* the state before the side's last order again, with
			 * the counters carried on (engine_undo) */
			struct state next;
			struct strbuf why = STRBUF_INIT, msg = STRBUF_INIT;
			if (!have_prev[side] ||
			    engine_undo(&prev[side], &mine[side], &s, side, &next, &why) < 0) {
				fail(a, "the undo %s is not allowed: %s", path,
				     have_prev[side] ? why.buf : "there is no order to take back");
				strbuf_release(&why);
				goto out;
			}
			strbuf_addf(&msg, "The %s takes back order %u: the game is as it was before it.\n",
				    side_title(side), s.seq);
			turn_happened(&log, &s, seq, side, msg.buf);
			strbuf_release(&why);
			strbuf_release(&msg);
			/* an undo is not undone, and what it undid is gone */
			have_prev[SIDE_AMERICAN] = have_prev[SIDE_BRITISH] = false;
			s = next;
			if (check_state(a, &s, log.buf, log.len) < 0)
				goto out;
			continue;
		}
		{
			/* held-over lines: sealed in this commit's private
			 * state, and run from the order again */
			struct strbuf full = STRBUF_INIT, e = STRBUF_INIT;
			struct state saved = a->g->state;
			if (strstr(order.buf, "# (a line sealed until it runs") &&
			    game_load_state(a->g, a->history[a->at], &e) == 0 &&
			    order_unseal(order.buf, a->g->state.sealed_lines[side], &full)) {
				strbuf_reset(&order);
				strbuf_addstr(&order, full.buf);
			}
			a->g->state = saved;
			strbuf_release(&full);
			strbuf_release(&e);
		}
		struct order_result res;
		struct state next = s;
		order_result_init(&res);
		game_rng_order(a->g, &s, side, &r);
		forced_dice(a, &r, fixed);
		r.log = &res.log;
		r.proofs = &proofs;
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
		have_prev[OTHER_SIDE(side)] = have_prev[OTHER_SIDE(side)] &&
					      engine_decided_nothing(&s, &next, side);
		prev[side] = s;
		mine[side] = next;
		have_prev[side] = true;
		s = next;
		if (check_state(a, &s, log.buf, log.len) < 0 ||
		    (game_proves(a->g) &&
		     same_file(a, "proofs.txt", proofs.buf, proofs.len) < 0))
			goto out;
	}
	ret = 0;
out:
	free(prev);
	free(mine);
	strbuf_release(&log);
	strbuf_release(&proofs);
	strbuf_release(&order);
	return ret;
}

/*
 * The checks that need no secret (docs/fairness.md, "What a player checks"):
 * run by every audit, with or without the seed.
 */

/* A decimal without sign or leading zero; advances *p. */
static bool parse_num(const char **p, const char *end, unsigned long long *v)
{
	const char *q = *p;

	if (q >= end || *q < '0' || *q > '9' || (*q == '0' && q + 1 < end &&
						  q[1] >= '0' && q[1] <= '9'))
		return false;
	*v = 0;
	while (q < end && *q >= '0' && *q <= '9') {
		if (*v > (~0ULL - 9) / 10)
			return false;
		*v = *v * 10 + (unsigned long long)(*q++ - '0');
	}
	*p = q;
	return true;
}

static bool eat(const char **p, const char *end, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(end - *p) < n || memcmp(*p, word, n))
		return false;
	*p += n;
	return true;
}

/* The optional " (purpose)" at the end of a draw line. */
static bool purpose_ok(const char *p, const char *end)
{
	if (p == end)
		return true;
	if (end - p < 3 || p[0] != ' ' || p[1] != '(' || end[-1] != ')')
		return false;
	for (; p < end; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* One draw line of the log, read (docs/fairness.md section 6.6). */
struct draw {
	unsigned long long first, count;	/* indices first .. first+count-1 */
	bool shuffle;		/* "draws A-B: shuffle of n" */
	bool die;		/* "d6", else "uniform(n)" */
	unsigned long long n, v;	/* the bound (6 for a die) and the value shown */
	bool forced;		/* a fixed die; stream is the stream's own */
	unsigned long long stream;
	const char *purpose;	/* "(...)" or empty, not NUL-terminated */
	int purpose_len;
};

/*
 * One log line (without its '\n'): 0 if it is not a draw line, 1 with the
 * draw read into *d, -1 if it starts like one but breaks the grammar of
 * docs/fairness.md section 6.6.
 */
static int draw_line(const char *p, const char *end, struct draw *d)
{
	unsigned long long a, b, n, v, st;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	memset(d, 0, sizeof(*d));
	if (eat(&p, end, "draws ")) {
		if (!parse_num(&p, end, &a) || !eat(&p, end, "-") ||
		    !parse_num(&p, end, &b) || !eat(&p, end, ": shuffle of ") ||
		    !parse_num(&p, end, &n) || n < 2 || b != a + n - 2 ||
		    !purpose_ok(p, end))
			return -1;
		d->first = a;
		d->count = n - 1;
		d->shuffle = true;
		d->n = n;
		d->purpose = p;
		d->purpose_len = (int)(end - p);
		return 1;
	}
	if (!eat(&p, end, "draw "))
		return 0;
	if (!parse_num(&p, end, &a) || !eat(&p, end, ": "))
		return -1;
	if (eat(&p, end, "d6 -> ")) {
		if (!parse_num(&p, end, &v) || v < 1 || v > 6)
			return -1;
		d->die = true;
		d->n = 6;
		if (eat(&p, end, " forced, stream ")) {
			if (!parse_num(&p, end, &st) || st < 1 || st > 6)
				return -1;
			d->forced = true;
			d->stream = st;
		}
	} else if (eat(&p, end, "uniform(")) {
		if (!parse_num(&p, end, &n) || n < 1 || !eat(&p, end, ") -> ") ||
		    !parse_num(&p, end, &v) || v >= n)
			return -1;
		d->n = n;
	} else {
		return -1;
	}
	if (!purpose_ok(p, end))
		return -1;
	d->first = a;
	d->count = 1;
	d->v = v;
	d->purpose = p;
	d->purpose_len = (int)(end - p);
	return 1;
}

/* A trailer's value in a commit message ("Key: value"), or NULL. */
static const char *trailer(const char *msg, const char *key, size_t *len)
{
	size_t k = strlen(key);

	for (const char *p = msg; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (!strncmp(p, key, k) && p[k] == ':' && p[k + 1] == ' ') {
			*len = strcspn(p + k + 2, "\n");
			return p + k + 2;
		}
	}
	return NULL;
}

/* The public record of one commit. */
struct record {
	struct state s;
	struct strbuf log, game_yaml, msg, changes, proofs;
	unsigned parents;
};

static int read_record(struct auditor *a, struct record *r)
{
	struct strbuf pub = STRBUF_INIT, err = STRBUF_INIT;
	const char *id = a->history[a->at];
	int ret = 0;

	strbuf_reset(&r->log);
	strbuf_reset(&r->game_yaml);
	strbuf_reset(&r->msg);
	strbuf_reset(&r->changes);
	strbuf_reset(&r->proofs);
	if (repo_read(a->g->repo, id, "state.yaml", &pub) != 0)
		ret = fail(a, "state.yaml is missing");
	else if (state_read(&r->s, a->g->data, pub.buf, pub.len, NULL, 0, &err) < 0)
		ret = fail(a, "state.yaml does not load:\n%s", err.buf);
	else if (repo_read(a->g->repo, id, "log.txt", &r->log) != 0)
		ret = fail(a, "log.txt is missing");
	else if (repo_read(a->g->repo, id, "game.yaml", &r->game_yaml) != 0)
		ret = fail(a, "game.yaml is missing");
	else if (game_proves(a->g) && repo_read(a->g->repo, id, "proofs.txt", &r->proofs) != 0)
		ret = fail(a, "proofs.txt is missing (a game of fairness version %d keeps every die's proof)",
			   a->g->fairness);
	else if (repo_commit_info(a->g->repo, id, &r->msg, NULL, NULL, NULL) < 0 ||
		 repo_changes(a->g->repo, id, &r->changes, &r->parents) < 0)
		ret = fail(a, "the commit cannot be read");
	strbuf_release(&pub);
	strbuf_release(&err);
	return ret;
}

static void init_record(struct record *r)
{
	strbuf_init(&r->log);
	strbuf_init(&r->game_yaml);
	strbuf_init(&r->msg);
	strbuf_init(&r->changes);
	strbuf_init(&r->proofs);
}

static void release_record(struct record *r)
{
	strbuf_release(&r->log);
	strbuf_release(&r->game_yaml);
	strbuf_release(&r->msg);
	strbuf_release(&r->changes);
	strbuf_release(&r->proofs);
}

/*
 * game.yaml of a commit, against its parent's: unchanged, or changed only
 * as `kind` allows (the fixed-dice mark by an order with fixed dice; the
 * revealed seed by a reveal). Returns the kind's name for messages.
 */
static int check_game_yaml(struct auditor *a, const struct record *prev,
			   const struct record *cur, bool order, bool fixed)
{
	struct game before, after;
	struct strbuf want = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	if (prev->game_yaml.len == cur->game_yaml.len &&
	    !memcmp(prev->game_yaml.buf, cur->game_yaml.buf, cur->game_yaml.len))
		return order ? 0 : fail(a, "a commit without an order that is not a reveal (it changes no game.yaml): no kind of commit does that");
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	if (game_parse_yaml(&before, prev->game_yaml.buf, prev->game_yaml.len, &err) < 0 ||
	    game_parse_yaml(&after, cur->game_yaml.buf, cur->game_yaml.len, &err) < 0) {
		ret = fail(a, "game.yaml does not load:\n%s", err.buf);
		goto out;
	}
	if (order) {
		/* an order may only mark the game as played with fixed dice */
		before.fixed_dice = before.fixed_dice || fixed;
	} else if (!before.revealed && after.revealed) {
		/* a reveal adds the seed, which matches the commitment */
		before.revealed = true;
		memcpy(before.seed, after.seed, sizeof(before.seed));
	} else if (!after.revealed) {
		/* an address change (postrider player): the name and address
		 * of one player or the host, nothing else, and the log says
		 * so in the line the command writes */
		struct strbuf said = STRBUF_INIT;
		int changed = 0;
		for (int i = 0; i < 3; i++) {
			if (!strcmp(before.player[i].name, after.player[i].name) &&
			    !strcmp(before.player[i].addr, after.player[i].addr))
				continue;
			changed++;
			game_address_change_line(&before, i, after.player[i].name,
						 after.player[i].addr, &said);
			free(before.player[i].name);
			free(before.player[i].addr);
			before.player[i].name = xstrdup(after.player[i].name);
			before.player[i].addr = xstrdup(after.player[i].addr);
		}
		if (changed == 1 && (cur->log.len != prev->log.len + said.len ||
				     memcmp(cur->log.buf, prev->log.buf, prev->log.len) ||
				     memcmp(cur->log.buf + prev->log.len, said.buf, said.len)))
			ret = fail(a, "game.yaml changes an address, but log.txt does not say so as an address change does ('%s')",
				   said.buf);
		else if (changed > 1)
			ret = fail(a, "game.yaml changes %d addresses in one commit; an address change changes one", changed);
		strbuf_release(&said);
		if (ret)
			goto out;
	}
	game_write_yaml(&before, &want);
	if (want.len != cur->game_yaml.len || memcmp(want.buf, cur->game_yaml.buf, want.len))
		ret = fail(a, "game.yaml changes in a way no %s may (players, options, data, the commitment or the seed's source)",
			   order ? "order" : after.revealed ? "reveal" : "address change");
out:
	game_close(&before);
	game_close(&after);
	strbuf_release(&want);
	strbuf_release(&err);
	return ret;
}

/* What the commit changes, against what its kind may change. */
static int check_changes(struct auditor *a, const struct record *cur,
			 const char *order_path)
{
	const char *p = cur->changes.buf;
	bool seen_order = false;

	if (!a->at) {
		/* the new game: only files added, the data among them */
		static const char *const need[] = {
			"game.yaml", "state.yaml", "log.txt", "private/state.sealed"
		};
		if (cur->parents)
			return fail(a, "the first commit has a parent");
		for (size_t i = 0; i < ARRAY_SIZE(need); i++) {
			char *line = xstrfmt("A %s\n", need[i]);
			bool there = strstr(cur->changes.buf, line) != NULL;
			free(line);
			if (!there)
				return fail(a, "the new game's commit has no %s", need[i]);
		}
	} else if (cur->parents != 1) {
		return fail(a, "a merge commit (%u parents): the game's history is a single line", cur->parents);
	}
	while (*p) {
		size_t n = strcspn(p, "\n");
		char kind = p[0];
		char *path = xstrndup(p + 2, n > 2 ? n - 2 : 0);
		bool ok;

		bool proofs = game_proves(a->g) && !strcmp(path, "proofs.txt");
		if (!a->at) {
			ok = kind == 'A' &&
			     (!strcmp(path, "game.yaml") || !strcmp(path, "state.yaml") ||
			      !strcmp(path, "log.txt") || !strcmp(path, "private/state.sealed") ||
			      proofs);
			for (int i = 0; !ok && i < a->g->n_data_files; i++) {
				char *d = xstrfmt("data/%s", a->g->data_files[i]);
				ok = kind == 'A' && !strcmp(path, d);
				free(d);
			}
		} else {
			ok = kind == 'M' &&
			     (!strcmp(path, "game.yaml") || !strcmp(path, "state.yaml") ||
			      !strcmp(path, "log.txt") || !strcmp(path, "private/state.sealed") ||
			      proofs);
			if (!ok && order_path && kind == 'A' && !strcmp(path, order_path))
				ok = seen_order = true;
		}
		if (!ok) {
			fail(a, "%s %s, which no %s may %s", kind == 'A' ? "adds" :
			     kind == 'D' ? "deletes" : "changes", path,
			     !a->at ? "new game's commit" : order_path ? "order" : "commit without an order",
			     kind == 'A' ? "add" : kind == 'D' ? "delete" : "change");
			free(path);
			return -1;
		}
		free(path);
		p += n + (p[n] == '\n');
	}
	if (order_path && !seen_order)
		return fail(a, "order %u has no order file (%s)", cur->s.seq, order_path);
	return 0;
}

/* "words mixed: american H british H": the words' hashes, or 0 (words
 * may then be half written). */
static int mix_line(const char *p, const char *end, unsigned char words[64])
{
	static const char *const side[2] = { "words mixed: american ", " british " };

	for (int i = 0; i < 2; i++) {
		if (!eat(&p, end, side[i]))
			return 0;
		if (eat(&p, end, "-")) {
			memset(words + 32 * i, 0, 32);
		} else {
			char hex[65];
			if (end - p < 64 || strspn(p, "0123456789abcdef") < 64)
				return 0;	/* lower case only (section 20.2) */
			memcpy(hex, p, 64);
			hex[64] = '\0';
			if (hex_decode(hex, words + 32 * i, 32) < 0)
				return 0;
			p += 64;
		}
	}
	return p == end;
}

/*
 * Version 3: the order a commit's public draws belong to (docs/fairness.md
 * section 19): side 0 for the new game, else the side of the order and
 * its count of accepted orders before it; place is the next draw's.
 */
struct draw_order {
	bool bound;		/* version 3 */
	int side;		/* 0 the new game, 1, 2; -1 a commit without an order */
	unsigned long long n, place;
};

/* Whether a line of [p, end) that follows a '\n' at p or later is an
 * order heading "-- YEAR, order N (" (section 19.4). */
static bool order_headings(const char *p, const char *end)
{
	for (; p && p < end; p = memchr(p + 1, '\n', (size_t)(end - p - 1))) {
		const char *q = p + 1;
		if (*p != '\n' || end - q < 4 || memcmp(q, "-- ", 3))
			continue;
		q += 3;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		if (q > p + 4 && end - q >= 9 && !memcmp(q, ", order ", 8))
			return true;
	}
	return false;
}

/*
 * The order of the current commit, in version 3, and what names it: the
 * Postrider-Side trailer, the counts of `orders:` (the side's one more,
 * the other's unchanged; neither in a commit without an order) and the
 * order's heading in log.txt. 0, or -1 with the reason.
 */
static int draw_order_of(struct auditor *a, const struct record *prev,
			 const struct record *cur, struct draw_order *o)
{
	const char *t;
	size_t tlen;
	char *heading;
	int ret = 0;

	memset(o, 0, sizeof(*o));
	o->bound = a->g->fairness == 3;
	if (!o->bound || !a->at)
		return 0;
	if (cur->s.seq != prev->s.seq + 1) {
		o->side = -1;
		if (memcmp(cur->s.orders, prev->s.orders, sizeof(cur->s.orders)))
			return fail(a, "state.yaml changes the counts of orders in a commit without an order");
		if (order_headings(cur->log.buf + prev->log.len - (prev->log.len > 0),
				   cur->log.buf + cur->log.len))
			return fail(a, "log.txt: an order heading in a commit without an order");
		return 0;
	}
	t = trailer(cur->msg.buf, "Postrider-Side", &tlen);
	for (enum side k = SIDE_AMERICAN; t && k <= SIDE_BRITISH; k++)
		if (tlen == strlen(side_name(k)) && !memcmp(t, side_name(k), tlen))
			o->side = (int)k;
	if (!o->side)
		return fail(a, "the commit names no side in a Postrider-Side trailer (american or british)");
	o->n = prev->s.orders[o->side];
	if (cur->s.orders[o->side] != prev->s.orders[o->side] + 1 ||
	    cur->s.orders[OTHER_SIDE(o->side)] != prev->s.orders[OTHER_SIDE(o->side)])
		return fail(a, "state.yaml's counts of orders (american %u, british %u) do not count this order of the %s alone",
			    cur->s.orders[SIDE_AMERICAN], cur->s.orders[SIDE_BRITISH], side_name(o->side));
	heading = xstrfmt("\n-- %d, order %u (%s) --\n", prev->s.year, cur->s.seq,
			  side_title(o->side));
	if (cur->log.len - prev->log.len < strlen(heading) ||
	    memcmp(cur->log.buf + prev->log.len, heading, strlen(heading)))
		ret = fail(a, "log.txt: the order's lines do not begin with its heading '%.*s'",
			   (int)strlen(heading) - 2, heading + 1);
	else if (order_headings(cur->log.buf + prev->log.len + strlen(heading) - 1,
				cur->log.buf + cur->log.len))
		ret = fail(a, "log.txt: a second order heading in the lines of one order");
	free(heading);
	return ret;
}

/*
 * A proof line of proofs.txt (docs/fairness.md 18.4, 20.2), strictly:
 * a decimal without a leading zero, one space, 162 lowercase hex digits,
 * LF. Reads the number and the proof; false if the line breaks it.
 */
static bool proof_line(const char *p, const char *eol, unsigned long long *n,
		       unsigned char pi[VRF_PROOF_BYTES])
{
	char hex[2 * VRF_PROOF_BYTES + 1];

	if (!parse_num(&p, eol, n) || !eat(&p, eol, " ") ||
	    eol - p != 2 * VRF_PROOF_BYTES ||
	    strspn(p, "0123456789abcdef") < 2 * VRF_PROOF_BYTES)
		return false;
	memcpy(hex, p, sizeof(hex) - 1);
	hex[sizeof(hex) - 1] = '\0';
	return hex_decode(hex, pi, VRF_PROOF_BYTES) == 0;
}

/*
 * Version 2 or 3: the proof of one public draw, the next line of the
 * proofs a commit added ("N HEX"), checked under the game's public key for
 * the draw's input (version 2: its index; version 3: its order o and its
 * place there, which advances); the value it gives must be the one the
 * log shows. 0, or -1 with the reason.
 */
static int check_proof(struct auditor *a, const struct draw *d, int line,
		       const unsigned char words[64], struct draw_order *o,
		       const char **pp, const char *pend)
{
	unsigned long long n, at = d->first;
	unsigned char pi[VRF_PROOF_BYTES], beta[VRF_HASH_BYTES], alpha[RNG_ALPHA_MAX];
	const char *p = *pp, *eol = memchr(p, '\n', (size_t)(pend - p));
	size_t len;

	if (p >= pend || !eol)
		return fail(a, "log.txt line %d: draw %llu has no proof in proofs.txt", line, d->first);
	if (!proof_line(p, eol, &n, pi))
		return fail(a, "proofs.txt: a malformed line where the proof of draw %llu belongs (a line is N, a space, 162 lowercase hex digits and LF)",
			    d->first);
	if (n != d->first)
		return fail(a, "log.txt line %d: draw %llu has no proof in proofs.txt (the next proof is of draw %llu)",
			    line, d->first, n);
	if (o->bound && o->side < 0)
		return fail(a, "log.txt line %d: draw %llu in a commit without an order (version 3 binds every die to its order)",
			    line, d->first);
	if (o->bound) {
		at = o->place++;
		len = rng_vrf_alpha3(a->g->id, words, o->side, o->n, at, alpha);
	} else {
		len = rng_vrf_alpha(a->g->id, words, d->first, alpha);
	}
	if (vrf_verify(a->g->vrf_pk, pi, alpha, len, beta) < 0)
		return fail(a, "log.txt line %d: the proof of draw %llu in proofs.txt does not verify under the game's public key%s",
			    line, d->first, o->bound ? " for its order and place" : "");
	unsigned long long got = rng_vrf_value(beta, at, d->n) + (d->die ? 1 : 0);
	unsigned long long shown = d->forced ? d->stream : d->v;
	if (got != shown)
		return fail(a, "log.txt line %d: draw %llu shows %s %llu, but its proof gives %llu",
			    line, d->first, d->die ? "the die" : "the value", shown, got);
	a->dice++;
	*pp = eol + 1;
	return 0;
}

/* The draw lines a commit adds to the log, and its trailers about draws. */
static int check_draws(struct auditor *a, const struct record *prev,
		       const struct record *cur, bool fixed)
{
	unsigned long long at = a->at ? prev->s.draws : 0;
	const char *p = cur->log.buf + (a->at ? prev->log.len : 0);
	const char *end = cur->log.buf + cur->log.len, *t;
	const bool vrf = game_proves(a->g);
	const char *pp = cur->proofs.buf, *pend = cur->proofs.buf + cur->proofs.len;
	unsigned char words[64] = { 0 };
	int line = 1;
	size_t tlen;
	struct draw d;
	struct draw_order o;

	if (draw_order_of(a, prev, cur, &o) < 0)
		return -1;
	if (vrf && a->at) {
		if (prev->proofs.len > cur->proofs.len ||
		    memcmp(cur->proofs.buf, prev->proofs.buf, prev->proofs.len))
			return fail(a, "proofs.txt does not continue the proofs of the previous commit");
		pp += prev->proofs.len;
		for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++)
			if (prev->s.has_words[k])
				memcpy(words + 32 * (k - SIDE_AMERICAN), prev->s.words[k], 32);
	}
	for (const char *q = cur->log.buf; q < p; q++)
		line += *q == '\n';
	for (; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			return fail(a, "log.txt line %d does not end with a newline", line);
		int k = draw_line(p, eol, &d);
		if (k < 0)
			return fail(a, "log.txt line %d is a malformed draw line: %.*s", line,
				    (int)(eol - p), p);
		if (k > 0 && d.first != at)
			return fail(a, "log.txt line %d: the draws go from index %llu to %llu (%s)",
				    line, at, d.first, d.first < at ? "a draw used twice" : "draws missing");
		if (k > 0 && d.forced && !fixed)
			return fail(a, "log.txt line %d: a fixed die in a commit that does not say it used fixed dice",
				    line);
		if (k == 0 && vrf && eol - p >= 13 && !memcmp(p, "words mixed: ", 13) &&
		    !mix_line(p, eol, words))
			return fail(a, "log.txt line %d is a malformed words line: %.*s", line,
				    (int)(eol - p), p);
		if (k > 0 && vrf && !d.shuffle && check_proof(a, &d, line, words, &o, &pp, pend) < 0)
			return -1;
		if (k > 0 && d.shuffle)
			a->shuffles++;
		if (k > 0)
			at += d.count;
		p = eol + 1;
	}
	if (vrf && pp != pend)
		return fail(a, "proofs.txt holds a proof of no draw of this commit: %.*s",
			    (int)strcspn(pp, "\n"), pp);
	if (cur->s.draws != at)
		return fail(a, "state.yaml says draws: %llu, but the log's draws end at %llu%s",
			    (unsigned long long)cur->s.draws, at,
			    cur->s.draws < at ? " (the draw counter was lowered)" : "");
	t = trailer(cur->msg.buf, "Postrider-Draws", &tlen);
	if (t || at > (a->at ? prev->s.draws : 0)) {
		char want[64];
		snprintf(want, sizeof(want), "%llu-%llu",
			 a->at ? (unsigned long long)prev->s.draws : 0ULL, at);
		if (!t || tlen != strlen(want) || memcmp(t, want, tlen))
			return fail(a, "the commit's Postrider-Draws trailer is '%.*s', its draws are %s",
				    t ? (int)tlen : 6, t ? t : "absent", want);
	}
	return 0;
}

/* The rule a draw's purpose names: its last "(N.N...)", or its card. */
static void purpose_rule(const struct draw *d, struct strbuf *out)
{
	const char *p = d->purpose, *end = p + d->purpose_len;

	for (const char *q = end - 1; q > p; q--) {
		if (*q != '(')
			continue;
		const char *r = q + 1;
		while (r < end && ((*r >= '0' && *r <= '9') || *r == '.' ||
				   (*r >= 'A' && *r <= 'Z')))
			r++;
		if (r > q + 1 && *r == ')' && q[1] >= '1' && q[1] <= '9') {
			strbuf_addf(out, "rule %.*s", (int)(r - q - 1), q + 1);
			return;
		}
		if (q[1] == '#') {
			strbuf_addf(out, "the event of card %.*s (data/cards.yaml)",
				    (int)(strcspn(q + 1, ")") < (size_t)(end - q - 1) ?
					  strcspn(q + 1, ")") : (size_t)(end - q - 1)), q + 1);
			return;
		}
	}
	strbuf_addstr(out, "(no rule named)");
}

/*
 * audit --turn N: one order explained for a dispute, after the whole
 * history has passed: the order as given, what happened, and each die with
 * its purpose, its proof checked and the rule that used it.
 */
static int explain_turn(struct auditor *a, unsigned long seq)
{
	struct record rec[2];
	size_t at = 0;
	int ret = -1;

	for (int i = 0; i < 2; i++)
		init_record(&rec[i]);
	/* the commit of order seq: the first whose state has that number */
	for (a->at = 1; a->at < a->n; a->at++) {
		uint32_t s;
		if (committed_seq(a, &s) < 0)
			goto out;
		if (s == seq) {
			at = a->at;
			break;
		}
	}
	if (!at) {
		printf("there is no order %lu in this game (it has %zu commits)\n", seq, a->n);
		ret = 1;
		goto out;
	}
	a->at = at - 1;
	if (read_record(a, &rec[0]) < 0)
		goto out;
	a->at = at;
	if (read_record(a, &rec[1]) < 0)
		goto out;
	{
		size_t tlen;
		const char *side = trailer(rec[1].msg.buf, "Postrider-Side", &tlen);
		char path[64];
		struct strbuf order = STRBUF_INIT;
		snprintf(path, sizeof(path), "orders/%04lu-%.*s.txt", seq,
			 side ? (int)tlen : 4, side ? side : "none");
		printf("order %lu of game %s, by the %.*s, commit %.12s (%zu of %zu)\n",
		       seq, a->g->id, side ? (int)tlen : 4, side ? side : "none",
		       a->history[at], at + 1, a->n);
		printf("the order, as given (%s):\n", path);
		if (repo_read(a->g->repo, a->history[at], path, &order) == 0) {
			for (const char *p = order.buf; *p;) {
				size_t n = strcspn(p, "\n");
				printf("  | %.*s\n", (int)n, p);
				p += n + (p[n] == '\n');
			}
		} else {
			printf("  (none: a commit of the host)\n");
		}
		strbuf_release(&order);
	}
	printf("what happened (log.txt):\n");
	{
		const char *p = rec[1].log.buf + rec[0].log.len, *end = rec[1].log.buf + rec[1].log.len;
		const char *pp = rec[1].proofs.buf + rec[0].proofs.len;
		const char *pend = rec[1].proofs.buf + rec[1].proofs.len;
		unsigned char words[64] = { 0 };
		int line = 1, n_draws = 0;
		struct strbuf rule = STRBUF_INIT;
		struct draw_order o;

		a->at = at;
		if (draw_order_of(a, &rec[0], &rec[1], &o) < 0) {
			printf("  THE ORDER IS NOT NAMED: %s\n", a->why.buf);
			goto out;
		}

		for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++)
			if (rec[0].s.has_words[k])
				memcpy(words + 32 * (k - SIDE_AMERICAN), rec[0].s.words[k], 32);
		for (const char *q = rec[1].log.buf; q < p; q++)
			line += *q == '\n';
		for (; p < end; line++) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			struct draw d;
			int k;
			if (!eol)
				break;
			printf("  | %.*s\n", (int)(eol - p), p);
			k = draw_line(p, eol, &d);
			if (k == 0 && game_proves(a->g))
				mix_line(p, eol, words);
			if (k > 0) {
				n_draws++;
				strbuf_reset(&rule);
				purpose_rule(&d, &rule);
				if (d.shuffle) {
					printf("      draws %llu-%llu: a shuffle, %s; its draws stay sealed until the seed is revealed\n",
					       d.first, d.first + d.count - 1, a->g->revealed ? "checked by the replay with the revealed seed" : "the deck is secret");
				} else if (game_proves(a->g)) {
					strbuf_reset(&a->why);
					if (check_proof(a, &d, line, words, &o, &pp, pend) < 0) {
						printf("      draw %llu: THE PROOF FAILS: %s\n", d.first, a->why.buf);
						strbuf_release(&rule);
						goto out;
					}
					printf("      draw %llu: proof checked under the game's public key, it gives %llu; %s\n",
					       d.first, d.forced ? d.stream : d.v, rule.buf);
				} else {
					printf("      draw %llu: fairness version 1, checked by the replay once the seed is revealed%s; %s\n",
					       d.first, a->g->have_seed ? " (done: the seed is known here)" : "", rule.buf);
				}
			}
			p = eol + 1;
		}
		strbuf_release(&rule);
		printf("%d draw%s in this order\n", n_draws, n_draws == 1 ? "" : "s");
	}
	ret = 0;
out:
	for (int i = 0; i < 2; i++)
		release_record(&rec[i]);
	return ret;
}

static int public_checks(struct auditor *a)
{
	struct record rec[2];
	int ret = 0;

	for (int i = 0; i < 2; i++)
		init_record(&rec[i]);
	for (a->at = 0; a->at < a->n && !ret; a->at++) {
		struct record *cur = &rec[a->at % 2], *prev = &rec[(a->at + 1) % 2];
		char order_path[64] = "";
		const char *t;
		size_t tlen;
		bool fixed;

		if ((ret = read_record(a, cur)) < 0)
			break;
		t = trailer(cur->msg.buf, "Postrider-Game", &tlen);
		if (!t || tlen != strlen(a->g->id) || memcmp(t, a->g->id, tlen)) {
			ret = fail(a, "the commit does not name game %s in its Postrider-Game trailer", a->g->id);
			break;
		}
		fixed = trailer(cur->msg.buf, "Postrider-Fixed-Dice", &tlen) != NULL;
		if (a->at) {
			if (prev->log.len > cur->log.len ||
			    memcmp(cur->log.buf, prev->log.buf, prev->log.len)) {
				ret = fail(a, "log.txt does not continue the log of the previous commit");
				break;
			}
			if (cur->s.seq == prev->s.seq + 1) {
				/* an order: the side whose order it is names the file */
				const char *side = trailer(cur->msg.buf, "Postrider-Side", &tlen);
				snprintf(order_path, sizeof(order_path), "orders/%04u-%.*s.txt",
					 cur->s.seq, side ? (int)tlen : 4, side ? side : "none");
			} else if (cur->s.seq != prev->s.seq) {
				ret = fail(a, "the order number jumps from %u to %u", prev->s.seq, cur->s.seq);
				break;
			} else if (fixed) {
				ret = fail(a, "a commit without an order says it used fixed dice");
				break;
			}
		} else if (cur->s.seq != 0) {
			ret = fail(a, "the new game's state has order number %u, not 0", cur->s.seq);
			break;
		}
		if ((ret = check_changes(a, cur, *order_path ? order_path : NULL)) < 0 ||
		    (a->at && (ret = check_game_yaml(a, prev, cur, *order_path, fixed)) < 0) ||
		    (ret = check_draws(a, prev, cur, fixed)) < 0)
			break;
	}
	if (ret < 0 && a->at >= a->n)
		a->at = a->n - 1;
	for (int i = 0; i < 2; i++)
		release_record(&rec[i]);
	return ret;
}

/* ---- audit --mail: the reports a player received ---- */

struct mail_check {
	struct auditor *a;
	size_t reports;
	struct strbuf why;
};

static bool in_history(const struct auditor *a, const char *id)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->history[i], id))
			return true;
	return false;
}

/* One received message: a report of this game names a commit that must be
 * in the history. 0, or -1 with the reason in mc->why. */
static int check_one_mail(struct mail_check *mc, const char *raw, size_t len,
			  const char *where)
{
	char *game = mail_header_get(raw, len, "X-Postrider-Game");
	char *commit = NULL, *subject = NULL;
	int ret = 0;

	if (!game || strcmp(game, mc->a->g->id))
		goto out;	/* another game's mail, or not postrider's */
	commit = mail_header_get(raw, len, "X-Postrider-Commit");
	if (!commit)
		goto out;	/* a rejection or a mail that reports no commit */
	mc->reports++;
	if (strlen(commit) != 40 || strspn(commit, "0123456789abcdef") != 40) {
		strbuf_addf(&mc->why, "%s: X-Postrider-Commit '%s' is not a commit id", where, commit);
		ret = -1;
	} else if (!in_history(mc->a, commit)) {
		subject = mail_header_get(raw, len, "Subject");
		strbuf_addf(&mc->why, "%s (\"%s\") reports commit %s, which is not in the history: the history was rewritten or cut short after that report was sent",
			    where, subject ? subject : "", commit);
		ret = -1;
	}
out:
	free(game);
	free(commit);
	free(subject);
	return ret;
}

static int check_mail_file(struct mail_check *mc, const char *path, bool mbox)
{
	struct strbuf text = STRBUF_INIT;
	int ret = 0;

	if (read_file(path, &text, 64 << 20) < 0) {
		strbuf_addf(&mc->why, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!mbox) {
		ret = check_one_mail(mc, text.buf, text.len, path);
	} else {
		/* mbox: messages begin at lines "From " (mboxrd/o/cl alike) */
		const char *p = text.buf, *end = text.buf + text.len;
		int n = 0;
		while (p < end && !ret) {
			const char *start = p, *next = p;
			char where[64];
			if (!strncmp(p, "From ", 5))
				start = strchr(p, '\n') ? strchr(p, '\n') + 1 : end;
			next = start;
			for (;;) {
				const char *nl = memchr(next, '\n', (size_t)(end - next));
				if (!nl) {
					next = end;
					break;
				}
				next = nl + 1;
				if (next < end && !strncmp(next, "From ", 5))
					break;
			}
			snprintf(where, sizeof(where), "message %d", ++n);
			char *w = xstrfmt("%s, %s", path, where);
			ret = check_one_mail(mc, start, (size_t)(next - start), w);
			free(w);
			p = next;
		}
	}
	strbuf_release(&text);
	return ret;
}

static int check_mail_dir(struct mail_check *mc, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return 0;	/* a Maildir may lack new/ or cur/ */
	while (!ret && (de = readdir(d))) {
		struct stat st;
		char *path;
		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			ret = check_mail_file(mc, path, false);
		free(path);
	}
	closedir(d);
	return ret;
}

/*
 * Every report in FOLDER (a Maildir, a folder of messages, or an mbox
 * file) that names a commit of this game must find it in the history.
 */
static int check_mail(struct auditor *a, const char *folder)
{
	struct mail_check mc = { .a = a };
	struct stat st;
	int ret;

	strbuf_init(&mc.why);
	if (stat(folder, &st) < 0) {
		printf("cannot read the mail folder '%s': %s\n", folder, strerror(errno));
		strbuf_release(&mc.why);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		char *cur = xstrfmt("%s/cur", folder), *new = xstrfmt("%s/new", folder);
		ret = check_mail_dir(&mc, cur);
		if (!ret)
			ret = check_mail_dir(&mc, new);
		if (!ret)
			ret = check_mail_dir(&mc, folder);
		free(cur);
		free(new);
	} else {
		ret = check_mail_file(&mc, folder, true);
	}
	if (ret)
		printf("the mail does not match the history: %s\n", mc.why.buf);
	else if (!mc.reports)
		printf("the mail folder '%s' holds no report of game %s (nothing to check)\n",
		       folder, a->g->id);
	else
		printf("mail: every one of the %zu reports of %s names a commit of this history\n",
		       mc.reports, a->g->id);
	strbuf_release(&mc.why);
	return ret || !mc.reports ? -1 : 0;
}

static int exec_audit(int argc, char **argv)
{
	struct game g;
	struct strbuf err = STRBUF_INIT;
	struct auditor a = { .g = &g };
	bool fixed = false;
	int ret = EXIT_TEMPFAIL;

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
				fprintf(stderr, "postrider audit: --turn takes an order number (1, 2, ...)\n");
				return EXIT_USAGE;
			}
		} else {
			return cmd_usage(&cmd_audit_entry);
		}
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_audit_entry);
	strbuf_init(&a.why);
	{
		/* a git bundle (an archive's game.bundle) is unpacked into a
		 * temporary repository and audited there */
		struct stat st;
		if (stat(argv[optind], &st) == 0 && S_ISREG(st.st_mode)) {
			const char *tmp = getenv("TMPDIR");
			bundle_dir = xstrfmt("%s/postrider-audit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
			if (!mkdtemp(bundle_dir)) {
				fprintf(stderr, "error: cannot make a temporary folder: %s\n", strerror(errno));
				free(bundle_dir);
				strbuf_release(&a.why);
				return EXIT_TEMPFAIL;
			}
			game_dir = xstrfmt("%s/game.git", bundle_dir);
			if (repo_from_bundle(argv[optind], game_dir) < 0) {
				printf("the game does not pass the audit: '%s' is not a bundle of a game\n", argv[optind]);
				remove_tree(bundle_dir, false);
				free(bundle_dir);
				free(game_dir);
				strbuf_release(&a.why);
				return EXIT_REJECTED;
			}
		}
	}
	if (game_open(game_dir ? game_dir : argv[optind], &g, 0, &err) != 0) {
		/* for an audit, a game that does not open is a finding */
		printf("the game does not pass the audit: %s", err.buf);
		ret = EXIT_REJECTED;
		goto out;
	}
	if (repo_history(g.repo, &a.history, &a.n) < 0)
		goto out;
	if (mail && check_mail(&a, mail) < 0) {
		ret = EXIT_REJECTED;
		goto out;
	}
	if (public_checks(&a) < 0) {
		/* The replay names an earlier commit if one does not match:
		 * a rewritten file shows first where it was rewritten. */
		size_t all = a.n, at = a.at;
		struct strbuf why = a.why;
		if (g.have_seed) {
			strbuf_init(&a.why);
			a.n = at + 1;
			if (replay(&a, &fixed) < 0 && a.at <= at) {
				strbuf_release(&why);
				a.n = all;
				goto differs;
			}
			strbuf_release(&a.why);
		}
		a.why = why;
		a.at = at;
		a.n = all;
		goto differs;
	}
	if (game_proves(&g)) {
		/* the public dice, each proved under the game's key */
		printf("verified %lu di%s without any secret", a.dice, a.dice == 1 ? "e" : "ce");
		if (!g.have_seed && a.shuffles)
			printf("; %lu shuffle%s wait%s for the end (their draws would show the deck)",
			       a.shuffles, a.shuffles == 1 ? "" : "s", a.shuffles == 1 ? "s" : "");
		printf("\n");
	}
	/* the data set: game_open() refused data/ unless its hash is the
	 * one game.yaml records; a game from before data_name names the
	 * module (issue 32) */
	printf("data set %s, hash %s: data/ matches it\n",
	       g.data_name ? g.data_name : g.module, g.data_hash);
	if (g.have_seed) {
		if (replay(&a, &fixed) < 0)
			goto differs;
		printf("verified: %zu commits\n", a.n);
	} else {
		printf("verified without the seed: %zu commits (the orders are re-adjudicated once the seed is revealed)\n", a.n);
	}
	if (turn > 0) {
		int r = explain_turn(&a, (unsigned long)turn);
		if (r < 0)
			goto differs;
		if (r > 0) {
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (g.have_seed && !g.revealed)
		printf("note: audited with the host's secret; the seed is not public yet\n");
	/* A game can replay perfectly and still not be fair. */
	fixed = fixed || g.fixed_dice;
	if (fixed || !g.seed_source || strcmp(g.seed_source, "random")) {
		if (fixed)
			printf("not a fair game: fixed dice were used (test mode)\n");
		if (!g.seed_source || strcmp(g.seed_source, "random"))
			printf("not a fair game: the seed was %s by the host (new --seed), so the host chose every card and die\n",
			       g.seed_source ? g.seed_source : "not drawn at random");
		ret = EXIT_NOT_FAIR;
		goto out;
	}
	ret = 0;
	goto out;
differs:
	printf("commit %s (%zu of %zu) does not match: %s\n", a.history[a.at], a.at + 1, a.n, a.why.buf);
	ret = EXIT_REJECTED;
out:
	if (bundle_dir) {
		game_close(&g);
		remove_tree(bundle_dir, false);
		free(bundle_dir);
		free(game_dir);
	}
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
	"audit", "audit [--mail FOLDER] [--turn N] DIR",
	"replay the whole history and check every commit, state and die",
	"  --mail FOLDER  also check that every report in FOLDER (a Maildir,\n"
	"                 a folder of messages or an mbox file) names a commit\n"
	"                 of the history (found: a history rewritten or cut short)\n"
	"  --turn N       then explain order N for a dispute: the order, what\n"
	"                 happened, each die with its proof checked and its rule\n"
	"exit status: 0 verified and fair, 1 a commit does not match (it is named),\n"
	"3 every commit verifies but the game is not fair (a seed given to new, fixed dice)\n",
	exec_audit,
};
