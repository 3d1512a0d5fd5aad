/*
 * audit.c - the auditor (audit.h): replays a game's whole history through
 * the engine and checks every committed byte: states, sealed private
 * states, logs, every draw. It prints nothing; src/cmd-audit.c does.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "audit.h"
#include "dkim-audit.h"
#include "engine/engine.h"
#include "state-yaml.h"
#include "game.h"
#include "mail.h"
#include "order.h"
#include "turn.h"
#include "vrf.h"

struct auditor {
	struct game *g;
	char (*history)[41];
	size_t n;
	size_t at;		/* index of the commit being checked */
	struct strbuf why;
	unsigned long dice;	/* version 2: public draws whose proofs verified */
	unsigned long shuffles;	/* shuffles, checked only with the seed */
	int seal_fmt;		/* the newest sealed format seen (FAIR_SEAL_V*) */
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
	struct strbuf yaml = STRBUF_INIT, sealed = STRBUF_INIT, got = STRBUF_INIT;
	int ret, fmt = FAIR_SEAL_V4;

	/* A game begun before the padding holds sealed states of format v2,
	 * one begun before the sides' own rooms of v3, up to its first
	 * commit of a newer version: the replay reproduces each in its own
	 * format, and a step back to an older format is an error. */
	if (repo_read(a->g->repo, a->history[a->at], "private/state.sealed", &got) == 0 &&
	    fair_seal_format(got.buf, got.len) >= FAIR_SEAL_V2)
		fmt = fair_seal_format(got.buf, got.len);
	strbuf_release(&got);
	if (fmt < a->seal_fmt)
		return fail(a, "private/state.sealed is in the %s format v%d after one of format v%d",
			    fmt == FAIR_SEAL_V2 ? "unpadded" : "older", fmt, a->seal_fmt);
	a->seal_fmt = fmt;
	if (game_state_files_as(a->g, s, fmt, &yaml, &sealed) < 0)
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

/* The value of trailer key in a commit message (repo_trailer_get()),
 * malloc'd, or NULL when it has none. */
static char *trailer(const char *msg, const char *key)
{
	struct strbuf v = STRBUF_INIT;

	if (repo_trailer_get(msg, key, 0, &v) < 0)
		return NULL;
	return strbuf_detach(&v, NULL);
}

/* Test-only fixed dice, from the commit's trailer. */
static void forced_dice(struct auditor *a, struct rng *r, bool *fixed)
{
	struct strbuf msg = STRBUF_INIT;
	char *dice;

	r->n_forced = 0;
	if (repo_commit_info(a->g->repo, a->history[a->at], &msg, NULL, NULL, NULL) < 0)
		return;
	if ((dice = trailer(msg.buf, "Postrider-Fixed-Dice"))) {
		for (const char *p = dice; *p >= '1' && *p <= '6' && r->n_forced < RNG_MAX_FORCED;) {
			r->forced[r->n_forced++] = *p - '0';
			p++;
			if (*p == ',')
				p++;
		}
		*fixed = true;
		free(dice);
	}
	strbuf_release(&msg);
}

/*
 * The mark of an order the host typed (turn_mark_host()) that the current
 * commit's log must hold under its heading, appended to mark: when its
 * trailer says `Postrider-Via: host (play --as SIDE[ --default...])` and
 * it was written by a postrider that marks, which sealed it in format v4
 * or later (both came with issue 39). Nothing for an order by mail or an
 * older commit.
 */
static void host_mark(struct auditor *a, enum side side, struct strbuf *mark)
{
	struct strbuf msg = STRBUF_INIT, sealed = STRBUF_INIT;
	char *via = NULL, *as = xstrfmt("host (play --as %s", side_name(side));

	if (repo_read(a->g->repo, a->history[a->at], "private/state.sealed", &sealed) == 0 &&
	    fair_seal_format(sealed.buf, sealed.len) >= FAIR_SEAL_V4 &&
	    repo_commit_info(a->g->repo, a->history[a->at], &msg, NULL, NULL, NULL) == 0 &&
	    (via = trailer(msg.buf, "Postrider-Via")) && !strncmp(via, as, strlen(as)))
		turn_mark_host(mark, side, !strncmp(via + strlen(as), " --default", 10));
	free(via);
	free(as);
	strbuf_release(&msg);
	strbuf_release(&sealed);
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
			if (!engine_game_over(&s) && committed_abandoned(a)) {
				/* what the abandon says is in the committed
				 * log, read below */
				struct strbuf said = STRBUF_INIT;
				engine_abandon(d, &s, &said);
				strbuf_release(&said);
			}
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
			host_mark(a, side, &msg);
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
		game_rng_order_after(a->g, &s, side, proofs.buf, &r);
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
		{
			struct strbuf happened = STRBUF_INIT;
			host_mark(a, side, &happened);
			strbuf_addbuf(&happened, &res.log);
			turn_happened(&log, &s, seq, side, happened.buf);
			strbuf_release(&happened);
		}
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
			if (!ok)	/* a mailed order's record; the reveal's kept mails */
				ok = dkim_audit_path_ok(kind, path, order_path,
							strstr(cur->game_yaml.buf, "revealed_seed:"));
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
 * Versions 3 and 4: the order a commit's public draws belong to
 * (docs/fairness.md section 19): side 0 for the new game, else the side of
 * the order and its count of accepted orders before it (version 3's
 * input); place is the next draw's, in version 3 within the order, in
 * version 4 among the game's public draws (section 19b).
 */
struct draw_order {
	bool bound;		/* version 3 or 4: a draw needs an order */
	bool counted;		/* version 4: place counts the game's draws */
	int side;		/* 0 the new game, 1, 2; -1 a commit without an order */
	unsigned long long n, place;
};

/* The lines of a proofs.txt: the public draws it proves. */
static unsigned long long proof_lines(const struct strbuf *proofs)
{
	unsigned long long n = 0;

	for (size_t i = 0; i < proofs->len; i++)
		n += proofs->buf[i] == '\n';
	return n;
}

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
 * The order of the current commit, in versions 3 and 4, and what names it: the
 * Postrider-Side trailer, the counts of `orders:` (the side's one more,
 * the other's unchanged; neither in a commit without an order) and the
 * order's heading in log.txt. 0, or -1 with the reason.
 */
static int draw_order_of(struct auditor *a, const struct record *prev,
			 const struct record *cur, struct draw_order *o)
{
	char *t, *heading;
	int ret = 0;

	memset(o, 0, sizeof(*o));
	o->bound = a->g->fairness == 3 || a->g->fairness == 4;
	o->counted = a->g->fairness == 4;
	if (o->counted && a->at)
		o->place = proof_lines(&prev->proofs);
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
	t = trailer(cur->msg.buf, "Postrider-Side");
	for (enum side k = SIDE_AMERICAN; t && k <= SIDE_BRITISH; k++)
		if (!strcmp(t, side_name(k)))
			o->side = (int)k;
	free(t);
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
		return fail(a, "log.txt line %d: draw %llu in a commit without an order (version %d binds every die to an order)",
			    line, d->first, a->g->fairness);
	if (o->counted) {
		at = o->place++;
		len = rng_vrf_alpha4(a->g->id, words, at, alpha);
	} else if (o->bound) {
		at = o->place++;
		len = rng_vrf_alpha3(a->g->id, words, o->side, o->n, at, alpha);
	} else {
		len = rng_vrf_alpha(a->g->id, words, d->first, alpha);
	}
	if (vrf_verify(a->g->vrf_pk, pi, alpha, len, beta) < 0)
		return fail(a, "log.txt line %d: the proof of draw %llu in proofs.txt does not verify under the game's public key%s",
			    line, d->first, o->counted ? " for its place among the game's dice" :
			    o->bound ? " for its order and place" : "");
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
	const char *end = cur->log.buf + cur->log.len;
	const bool vrf = game_proves(a->g);
	const char *pp = cur->proofs.buf, *pend = cur->proofs.buf + cur->proofs.len;
	unsigned char words[64] = { 0 };
	int line = 1;
	char *t;
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
	t = trailer(cur->msg.buf, "Postrider-Draws");
	if (t || at > (a->at ? prev->s.draws : 0)) {
		char want[64];
		snprintf(want, sizeof(want), "%llu-%llu",
			 a->at ? (unsigned long long)prev->s.draws : 0ULL, at);
		if (!t || strcmp(t, want)) {
			int r = fail(a, "the commit's Postrider-Draws trailer is '%s', its draws are %s",
				     t ? t : "absent", want);
			free(t);
			return r;
		}
	}
	free(t);
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
static int explain_turn(struct auditor *a, unsigned long seq,
			struct audit_turn *t)
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
		char *side = trailer(rec[1].msg.buf, "Postrider-Side");
		t->at = at;
		t->side = side ? side : xstrdup("none");
		t->via = trailer(rec[1].msg.buf, "Postrider-Via");
		t->message_id = trailer(rec[1].msg.buf, "Postrider-Message-Id");
		snprintf(t->order_path, sizeof(t->order_path), "orders/%04lu-%s.txt",
			 seq, t->side);
		t->has_order = repo_read(a->g->repo, a->history[at], t->order_path,
					 &t->order) == 0;
	}
	{
		const char *p = rec[1].log.buf + rec[0].log.len, *end = rec[1].log.buf + rec[1].log.len;
		const char *pp = rec[1].proofs.buf + rec[0].proofs.len;
		const char *pend = rec[1].proofs.buf + rec[1].proofs.len;
		unsigned char words[64] = { 0 };
		int line = 1;
		struct strbuf rule = STRBUF_INIT;
		struct draw_order o;

		a->at = at;
		if (draw_order_of(a, &rec[0], &rec[1], &o) < 0) {
			t->order_unnamed = true;
			strbuf_release(&rule);
			goto out;
		}

		strbuf_add(&t->log, p, (size_t)(end - p));
		for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++)
			if (rec[0].s.has_words[k])
				memcpy(words + 32 * (k - SIDE_AMERICAN), rec[0].s.words[k], 32);
		for (const char *q = rec[1].log.buf; q < p; q++)
			line += *q == '\n';
		for (size_t i = 0; p < end; line++, i++) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			struct draw d;
			int k;
			if (!eol)
				break;
			k = draw_line(p, eol, &d);
			if (k == 0 && game_proves(a->g))
				mix_line(p, eol, words);
			if (k > 0) {
				struct audit_turn_draw *td;
				strbuf_reset(&rule);
				purpose_rule(&d, &rule);
				t->draws = xrealloc(t->draws, (t->n_draws + 1) * sizeof(*t->draws));
				td = &t->draws[t->n_draws++];
				td->line = i;
				td->shuffle = d.shuffle;
				td->first = d.first;
				td->last = d.first + d.count - 1;
				td->value = d.forced ? d.stream : d.v;
				td->rule = xstrdup(rule.buf);
				if (!d.shuffle && game_proves(a->g)) {
					strbuf_reset(&a->why);
					if (check_proof(a, &d, line, words, &o, &pp, pend) < 0) {
						t->proof_fails = true;
						strbuf_release(&rule);
						goto out;
					}
				}
			}
			p = eol + 1;
		}
		strbuf_release(&rule);
	}
	ret = 0;
out:
	for (int i = 0; i < 2; i++)
		release_record(&rec[i]);
	return ret;
}

/*
 * An order's log marks it as typed by the host exactly when its trailer
 * says so (host_mark(); commits sealed in v4 or later): the line right
 * under its heading. 0, or -1 with the reason.
 */
static int check_host_mark(struct auditor *a, const struct record *prev,
			   const struct record *cur)
{
	static const char typed[] = "Typed by the host (";
	struct strbuf want = STRBUF_INIT, sealed = STRBUF_INIT;
	const char *p, *end = cur->log.buf + cur->log.len, *nl;
	char *t = NULL;
	enum side side = SIDE_NONE;
	int ret = 0;

	if (a->at)
		t = trailer(cur->msg.buf, "Postrider-Side");
	for (enum side k = SIDE_AMERICAN; t && k <= SIDE_BRITISH; k++)
		if (!strcmp(t, side_name(k)))
			side = k;
	free(t);
	if (side == SIDE_NONE ||
	    repo_read(a->g->repo, a->history[a->at], "private/state.sealed", &sealed) != 0 ||
	    fair_seal_format(sealed.buf, sealed.len) < FAIR_SEAL_V4)
		goto out;
	host_mark(a, side, &want);
	/* the heading "\n-- YEAR, order N (Side) --\n" begins the order's lines */
	p = cur->log.buf + prev->log.len;
	nl = p + 1 < end ? memchr(p + 1, '\n', (size_t)(end - p - 1)) : NULL;
	if (!nl || *p != '\n') {
		ret = fail(a, "log.txt: the order's lines do not begin with its heading");
		goto out;
	}
	p = nl + 1;
	if (want.len && ((size_t)(end - p) < want.len || memcmp(p, want.buf, want.len)))
		ret = fail(a, "log.txt: the order the host typed (its Postrider-Via trailer) is not marked so under its heading ('%.*s')",
			   (int)want.len - 1, want.buf);
	else if (!want.len && (size_t)(end - p) >= strlen(typed) && !memcmp(p, typed, strlen(typed)))
		ret = fail(a, "log.txt: the order is marked as typed by the host, but its Postrider-Via trailer says it came by mail");
out:
	strbuf_release(&want);
	strbuf_release(&sealed);
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
		char *t;
		bool fixed, game_named;

		if ((ret = read_record(a, cur)) < 0)
			break;
		t = trailer(cur->msg.buf, "Postrider-Game");
		game_named = t && !strcmp(t, a->g->id);
		free(t);
		if (!game_named) {
			ret = fail(a, "the commit does not name game %s in its Postrider-Game trailer", a->g->id);
			break;
		}
		t = trailer(cur->msg.buf, "Postrider-Fixed-Dice");
		fixed = t != NULL;
		free(t);
		if (a->at) {
			if (prev->log.len > cur->log.len ||
			    memcmp(cur->log.buf, prev->log.buf, prev->log.len)) {
				ret = fail(a, "log.txt does not continue the log of the previous commit");
				break;
			}
			if (cur->s.seq == prev->s.seq + 1) {
				/* an order: the side whose order it is names the file */
				char *side = trailer(cur->msg.buf, "Postrider-Side");
				snprintf(order_path, sizeof(order_path), "orders/%04u-%s.txt",
					 cur->s.seq, side ? side : "none");
				free(side);
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
		    (ret = check_draws(a, prev, cur, fixed)) < 0 ||
		    (*order_path && (ret = check_host_mark(a, prev, cur)) < 0))
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
			const char *start = p, *next;
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
static enum audit_mail_result check_mail(struct auditor *a, const char *folder,
					 struct audit_mail *m)
{
	struct mail_check mc = { .a = a };
	struct stat st;
	int ret;

	strbuf_init(&mc.why);
	if (stat(folder, &st) < 0) {
		strbuf_addstr(&m->why, strerror(errno));
		strbuf_release(&mc.why);
		return AUDIT_MAIL_UNREADABLE;
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
	m->reports = mc.reports;
	strbuf_addbuf(&m->why, &mc.why);
	strbuf_release(&mc.why);
	if (ret)
		return AUDIT_MAIL_DIFFERS;
	return mc.reports ? AUDIT_MAIL_OK : AUDIT_MAIL_NONE;
}


/* ---- the library's entry points (audit.h) ---- */

void audit_report_init(struct audit_report *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->why);
}

void audit_report_release(struct audit_report *r)
{
	free(r->history);
	r->history = NULL;
	r->n = 0;
	strbuf_release(&r->why);
}

int audit_history(struct game *g, struct audit_report *r)
{
	free(r->history);
	r->history = NULL;
	r->n = 0;
	return repo_history(g->repo, &r->history, &r->n) < 0 ? -1 : 0;
}

/* An auditor on r's history; its results go back with auditor_done(). */
static void auditor_start(struct auditor *a, struct game *g,
			  const struct audit_report *r)
{
	memset(a, 0, sizeof(*a));
	a->g = g;
	a->history = r->history;
	a->n = r->n;
	a->dice = r->dice;
	a->shuffles = r->shuffles;
	strbuf_init(&a->why);
}

static void auditor_done(struct auditor *a, struct audit_report *r)
{
	r->at = a->at;
	r->dice = a->dice;
	r->shuffles = a->shuffles;
	strbuf_release(&r->why);
	r->why = a->why;
}

int audit_game(struct game *g, struct audit_report *r)
{
	struct auditor a;
	bool fixed = false;
	int ret = 0;

	if (!r->history && audit_history(g, r) < 0)
		return -1;
	r->public_passed = r->replayed = false;
	auditor_start(&a, g, r);
	if (public_checks(&a) < 0) {
		/* The replay names an earlier commit if one does not match:
		 * a rewritten file shows first where it was rewritten. */
		size_t all = a.n, at = a.at;
		struct strbuf why = a.why;
		if (g->have_seed) {
			strbuf_init(&a.why);
			a.n = at + 1;
			if (replay(&a, &fixed) < 0 && a.at <= at) {
				strbuf_release(&why);
				a.n = all;
				auditor_done(&a, r);
				return 1;
			}
			strbuf_release(&a.why);
		}
		a.why = why;
		a.at = at;
		a.n = all;
		auditor_done(&a, r);
		return 1;
	}
	r->public_passed = true;
	if (g->have_seed) {
		if (replay(&a, &fixed) < 0)
			ret = 1;
		else
			r->replayed = true;
	}
	r->fixed = fixed;
	auditor_done(&a, r);
	return ret;
}

void audit_turn_init(struct audit_turn *t)
{
	memset(t, 0, sizeof(*t));
	strbuf_init(&t->order);
	strbuf_init(&t->log);
}

void audit_turn_release(struct audit_turn *t)
{
	for (size_t i = 0; i < t->n_draws; i++)
		free(t->draws[i].rule);
	free(t->draws);
	free(t->side);
	free(t->via);
	free(t->message_id);
	strbuf_release(&t->order);
	strbuf_release(&t->log);
	audit_turn_init(t);
}

int audit_turn(struct game *g, struct audit_report *r, unsigned long seq,
	       struct audit_turn *t)
{
	struct auditor a;
	int ret;

	if (!r->history && audit_history(g, r) < 0)
		return -1;
	auditor_start(&a, g, r);
	ret = explain_turn(&a, seq, t);
	auditor_done(&a, r);
	return ret;
}

void audit_mail_init(struct audit_mail *m)
{
	m->reports = 0;
	strbuf_init(&m->why);
}

void audit_mail_release(struct audit_mail *m)
{
	strbuf_release(&m->why);
}

enum audit_mail_result audit_mail(struct game *g, struct audit_report *r,
				  const char *folder, struct audit_mail *m)
{
	struct auditor a;
	enum audit_mail_result ret;

	if (!r->history && audit_history(g, r) < 0) {
		strbuf_addstr(&m->why, "the history cannot be read");
		return AUDIT_MAIL_UNREADABLE;
	}
	auditor_start(&a, g, r);
	ret = check_mail(&a, folder, m);
	strbuf_release(&a.why);
	return ret;
}
