/*
 * clock.c - deadlines, time taken and vacations (clock.h).
 */
#include <errno.h>
#include <string.h>

#include "clock.h"
#include "ytree.h"

#define CLOCK_FILE "clock.yaml"

void clock_init(struct game_clock *c, long long since)
{
	memset(c, 0, sizeof(*c));
	c->vacation_limit = CLOCK_DEFAULT_VACATION;
	c->since = since;
}

long long clock_paused(const struct game_clock *c, enum side side,
		       long long from, long long to)
{
	const struct clock_side *s = &c->side[side];
	long long a = s->away_from > from ? s->away_from : from;
	long long b = s->away_until < to ? s->away_until : to;

	return s->away_until && b > a ? b - a : 0;
}

long long clock_due(const struct game_clock *c, enum side to_move)
{
	const struct clock_side *s = &c->side[to_move];
	long long due, pause;

	if (!c->deadline || to_move == SIDE_NONE)
		return 0;
	due = c->since + c->deadline;
	/* the vacation that overlaps the wait pushes the deadline on */
	pause = s->away_until > c->since ?
		s->away_until - (s->away_from > c->since ? s->away_from : c->since) : 0;
	if (pause > 0 && s->away_from < due)
		due += pause;
	return due;
}

void clock_order(struct game_clock *c, enum side waited_for, enum side sender,
		 long long now)
{
	if (waited_for != SIDE_NONE && now > c->since)
		c->side[waited_for].taken += now - c->since -
			clock_paused(c, waited_for, c->since, now);
	if (sender != SIDE_NONE) {
		struct clock_side *s = &c->side[sender];
		if (s->away_until > now) {
			/* back early: the days not used are his again */
			long long from = s->away_from > now ? s->away_from : now;
			s->vacation_used -= s->away_until - from;
			s->away_until = now;
			if (s->away_from > now)
				s->away_from = s->away_until = 0;
		}
	}
	c->since = now;
}

void clock_same_decision(struct game_clock *c, unsigned old_seq, unsigned new_seq)
{
	if (c->warned == old_seq + 1)
		c->warned = new_seq + 1;
	if (c->late == old_seq + 1)
		c->late = new_seq + 1;
}

enum clock_alarm clock_alarm(const struct game_clock *c, unsigned seq,
			     enum side to_move, long long now,
			     long long warn_before)
{
	return clock_alarm_at(clock_due(c, to_move), c->warned, c->late, seq, now,
			      warn_before);
}

enum clock_alarm clock_alarm_at(long long due, unsigned warned, unsigned late,
				unsigned seq, long long now, long long warn_before)
{
	if (!due)
		return CLOCK_QUIET;
	if (now >= due)
		return late == seq + 1 ? CLOCK_QUIET : CLOCK_LATE;
	if (now >= due - warn_before && warned != seq + 1 && late != seq + 1)
		return CLOCK_WARN;
	return CLOCK_QUIET;
}

void clock_alarm_sent(struct game_clock *c, unsigned seq, enum clock_alarm a)
{
	if (a == CLOCK_WARN)
		c->warned = seq + 1;
	else if (a == CLOCK_LATE)
		c->warned = c->late = seq + 1;
}

int clock_vacation(struct game_clock *c, enum side side, long long now,
		   long long length, struct strbuf *why)
{
	struct clock_side *s = &c->side[side];
	long long left = c->vacation_limit - s->vacation_used;

	if (length > left) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		duration_format(c->vacation_limit, &a);
		duration_format(left > 0 ? left : 0, &b);
		strbuf_addf(why, "a vacation may last %s in all in this game; you have %s left",
			    a.buf, b.buf);
		strbuf_release(&a);
		strbuf_release(&b);
		return -1;
	}
	if (s->away_until > now) {
		s->away_until += length;
	} else {
		s->away_from = now;
		s->away_until = now + length;
	}
	s->vacation_used += length;
	return 0;
}

void clock_describe(const struct game_clock *c, enum side to_move,
		    long long now, struct strbuf *out)
{
	struct strbuf d = STRBUF_INIT;
	long long due = clock_due(c, to_move);

	if (!c->deadline)
		return;
	duration_format(c->deadline, &d);
	if (due) {
		char when[UTC_TIME_SIZE];
		utc_format(due, when);
		strbuf_addf(out, "Deadline: the %s's decision is due by %s (%s a decision",
			    side_title(to_move), when, d.buf);
		if (c->side[to_move].away_until > now) {
			char back[UTC_TIME_SIZE];
			utc_format(c->side[to_move].away_until, back);
			strbuf_addf(out, "; on vacation until %s", back);
		}
		strbuf_addstr(out, ").\n");
	}
	strbuf_addstr(out, "Time taken so far:");
	for (enum side s = SIDE_AMERICAN; s <= SIDE_BRITISH; s++) {
		long long t = c->side[s].taken;
		strbuf_reset(&d);
		if (s == to_move && now > c->since)
			t += now - c->since - clock_paused(c, s, c->since, now);
		duration_format(t, &d);
		strbuf_addf(out, " %s %s%s", side_title(s), d.buf,
			    s == SIDE_AMERICAN ? "," : ".\n");
	}
	strbuf_release(&d);
}

void clock_write_yaml(const struct game_clock *c, struct strbuf *out)
{
	strbuf_addf(out, "deadline: %lld\nvacation_limit: %lld\nsince: %lld\n"
		    "warned: %u\nlate: %u\n", c->deadline, c->vacation_limit,
		    c->since, c->warned, c->late);
	for (enum side s = SIDE_AMERICAN; s <= SIDE_BRITISH; s++) {
		const struct clock_side *x = &c->side[s];
		strbuf_addf(out, "%s: {taken: %lld, vacation_used: %lld, away_from: %lld, away_until: %lld}\n",
			    side_name(s), x->taken, x->vacation_used, x->away_from,
			    x->away_until);
	}
}

static int read_ll(struct ytree *t, yaml_node_t *map, const char *key,
		   long long *out, struct strbuf *err)
{
	yaml_node_t *n = ytree_get(t, map, key);
	long v;

	if (!n)
		return 0;
	if (ytree_int(t, n, 0, 1L << 40, &v, err) < 0)
		return -1;
	*out = v;
	return 0;
}

static int parse(struct ytree *t, struct game_clock *c, struct strbuf *err)
{
	static const char *const keys[] = {
		"deadline", "vacation_limit", "since", "warned", "late",
		"american", "british", NULL
	};
	static const char *const side_keys[] = {
		"taken", "vacation_used", "away_from", "away_until", NULL
	};
	yaml_node_t *root = ytree_root(t);
	long long w = 0, l = 0;
	int bad = 0;

	if (!root || root->type != YAML_MAPPING_NODE) {
		strbuf_addf(err, "%s: not a mapping", CLOCK_FILE);
		return -1;
	}
	if (ytree_check_keys(t, root, keys, err) > 0)
		return -1;
	bad |= read_ll(t, root, "deadline", &c->deadline, err);
	bad |= read_ll(t, root, "vacation_limit", &c->vacation_limit, err);
	bad |= read_ll(t, root, "since", &c->since, err);
	bad |= read_ll(t, root, "warned", &w, err);
	bad |= read_ll(t, root, "late", &l, err);
	c->warned = (unsigned)w;
	c->late = (unsigned)l;
	for (enum side s = SIDE_AMERICAN; s <= SIDE_BRITISH; s++) {
		yaml_node_t *m = ytree_get(t, root, side_name(s));
		if (!m)
			continue;
		if (m->type != YAML_MAPPING_NODE || ytree_check_keys(t, m, side_keys, err) > 0) {
			if (m->type != YAML_MAPPING_NODE)
				ytree_error(t, m, err, "'%s' must be a mapping", side_name(s));
			bad = -1;
			continue;
		}
		bad |= read_ll(t, m, "taken", &c->side[s].taken, err);
		bad |= read_ll(t, m, "vacation_used", &c->side[s].vacation_used, err);
		bad |= read_ll(t, m, "away_from", &c->side[s].away_from, err);
		bad |= read_ll(t, m, "away_until", &c->side[s].away_until, err);
	}
	return bad ? -1 : 0;
}

int clock_parse_yaml(const char *text, size_t len, long long head_time,
		     struct game_clock *c, struct strbuf *err)
{
	struct ytree t;
	int ret;

	clock_init(c, head_time);
	if (ytree_parse(&t, CLOCK_FILE, text, len, err) < 0)
		return -1;
	ret = parse(&t, c, err);
	ytree_free(&t);
	return ret;
}

int clock_load(struct repo *r, long long head_time, struct game_clock *c,
	       struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = 0;

	clock_init(c, head_time);
	if (repo_private_path(r, CLOCK_FILE, &path) < 0) {
		strbuf_addstr(err, "cannot find the game's private folder");
		ret = -1;
	} else if (read_file(path.buf, &text, 1 << 16) < 0) {
		if (errno != ENOENT) {
			strbuf_addf(err, "cannot read '%s': %s", path.buf, strerror(errno));
			ret = -1;
		}
	} else {
		ret = clock_parse_yaml(text.buf, text.len, head_time, c, err);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

int clock_save(struct repo *r, const struct game_clock *c)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = -1;

	if (repo_private_path(r, CLOCK_FILE, &path) < 0)
		error("cannot find the game's private folder");
	else {
		clock_write_yaml(c, &text);
		ret = write_file_atomic(path.buf, text.buf, text.len);
		if (ret < 0)
			error("cannot write '%s': %s", path.buf, strerror(errno));
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}
