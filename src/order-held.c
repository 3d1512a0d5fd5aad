/*
 * order-held.c - held-over lines (docs/orders.md, "Held over"): a move cut by the other
 * side's decision (an interception, a retreat before battle, a battle
 * card) keeps the rest of the mover's order in his private state, and it
 * runs when the decision comes back to him, line by line while legal.
 */
#include "order-internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keeps line lineno of side's order (text t) out of the public order
 * file: it goes to the sealed private state instead. */
void order_seal_line(struct state *s, enum side side, int lineno, const char *t)
{
	char *dst = s->sealed_lines[side];
	size_t have = strlen(dst);
	int n;

	if (lineno < 1)
		return;
	n = snprintf(dst + have, STATE_HELD_MAX - have, "%d\t%s\n", lineno, t);
	if (n < 0 || (size_t)n >= STATE_HELD_MAX - have)
		dst[have] = '\0';	/* no room: the line stays out of both */
}

/* Whether a line has anything but blanks (a comment counts). */
static bool order_line_blank(const char *t)
{
	return !t[strspn(t, " \t\r")];
}

/* Keeps for side the line t and the lines from p on (up to line `last`
 * of the order, 0 for all; lineno is t's), in order, without blanks and
 * comments. Every line but a blank one leaves the public order file: a
 * comment of its own line is sealed as "#" (it may speak of the held
 * lines), and so is a line there is no room to hold, and every line after
 * `last` (a comment, a sign-off: issue 39, everything after the first
 * sealed line is sealed), which is not held. */
void order_hold_rest(struct state *s, enum side side, const char *t,
		      const char *p, int last, int lineno, struct order_result *res)
{
	struct strbuf held = STRBUF_INIT, cur = STRBUF_INIT;
	int n = 0;

	for (;;) {
		char *line = xstrdup(t);
		const char *b = line;
		bool beyond = last && lineno > last;
		order_strip_comment(line);
		while (*b == ' ' || *b == '\t')
			b++;
		if (*b && !beyond && held.len + strlen(b) + 2 < STATE_HELD_MAX) {
			strbuf_addf(&held, "%s%s", held.len ? "\n" : "", b);
			n++;
			order_seal_line(s, side, lineno, b);
		} else if (!order_line_blank(t)) {
			order_seal_line(s, side, lineno, "#");
		}
		free(line);
		if (!*p)
			break;
		size_t len = strcspn(p, "\n");
		char *next = xstrndup(p, len);
		p += len + (p[len] == '\n');
		lineno++;
		if (len && next[len - 1] == '\r')
			next[len - 1] = '\0';
		strbuf_reset(&cur);
		strbuf_addstr(&cur, next);
		free(next);
		t = cur.buf;
	}
	memcpy(s->held[side], held.len ? held.buf : "", held.len + 1);
	strbuf_addf(&res->log, "The rest of the %s order (%d line%s) waits for the %s's decision.\n",
		    side_title(side), n, n == 1 ? "" : "s", side_title(OTHER_SIDE(side)));
	res->held = n;
	strbuf_release(&held);
	strbuf_release(&cur);
}

/* Drops side's held lines, with the reason in his private note. */
void order_drop_held(struct state *s, enum side side, const char *first_line,
		      const char *reason, int n, struct strbuf *log)
{
	snprintf(s->held_note[side], STATE_NOTE_MAX,
		 "Dropped from your held-over order: '%.120s' (%.300s)%s.", first_line, reason,
		 n > 1 ? ", and the lines after it" : "");
	s->held[side][0] = '\0';
	strbuf_addf(log, "%d held-over line%s of the %s order %s dropped: %s.\n", n,
		    n == 1 ? "" : "s", side_title(side), n == 1 ? "is" : "are",
		    "it no longer fits the game");
}

/* Runs side's held lines now that the decision is his again. */
static void run_held(const struct data *d, struct state *s, struct rng *r,
		     enum side side, struct order_result *res)
{
	char text[STATE_HELD_MAX];
	struct strbuf why = STRBUF_INIT, note = STRBUF_INIT;
	int applied = 0, n_left = 0;
	const char *p;

	memcpy(text, s->held[side], sizeof(text));
	s->held[side][0] = '\0';
	for (p = text; *p; p++)
		n_left += *p == '\n';
	n_left++;
	strbuf_addf(&res->log, "The rest of the %s order goes on (held over).\n", side_title(side));
	for (p = text; *p; n_left--) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);
		struct action a;
		int column = 1;

		p += len + (p[len] == '\n');
		strbuf_reset(&why);
		strbuf_reset(&note);
		if (!engine_game_over(s) && s->prompt.side != side && engine_prompt_interrupts(s)) {
			/* cut again: the rest waits again */
			order_hold_rest(s, side, line, p, 0, 0, res);
			free(line);
			goto out;
		}
		if (!ascii_strncasecmp(line, "say", 3) && (line[3] == ' ' || !line[3])) {
			const char *talk = line + 3;
			while (*talk == ' ')
				talk++;
			if (*talk)
				strbuf_addf(&res->log, "%s says: \"%s\"\n", side_title(side), talk);
			free(line);
			continue;
		}
		if (!ascii_strncasecmp(line, "if", 2) && (line[2] == ' ' || line[2] == '\t')) {
			/* a standing order written after the move: it waits
			 * with the rest, and is given when its turn comes */
			if (order_cond_line(d, s, side, line, res, &why) == 0) {
				applied++;
				order_answer_standing(d, s, r, res);
				free(line);
				continue;
			}
		} else if (order_parse(d, s, side, line, &a, &why, &column, &note) == 0 &&
		    !engine_game_over(s) &&
		    (a.kind == ACT_REACT || s->prompt.side == side)) {
			size_t loglen = res->log.len;
			if (engine_apply(d, s, &a, r, &res->log, &why) == ENGINE_OK) {
				action_format(d, &a, &res->actions);
				strbuf_addch(&res->actions, '\n');
				res->applied++;
				applied++;
				order_answer_standing(d, s, r, res);
				free(line);
				continue;
			}
			res->log.len = loglen;
			if (res->log.alloc)
				res->log.buf[loglen] = '\0';
		} else if (!why.len) {
			strbuf_addstr(&why, engine_game_over(s) ? "the game is over"
				      : "the decision is not yours now");
		}
		order_drop_held(s, side, line, why.buf, n_left, &res->log);
		free(line);
		goto out;
	}
	strbuf_addf(&res->log, "(%d held-over line%s of the %s order applied.)\n", applied,
		    applied == 1 ? "" : "s", side_title(side));
	snprintf(s->held_note[side], STATE_NOTE_MAX,
		 "Your held-over order was applied in full (%d line%s).", applied,
		 applied == 1 ? "" : "s");
out:
	strbuf_release(&why);
	strbuf_release(&note);
}

/* After an action: the other side's held lines run if the decision has
 * come back to him. */
void order_resume_held(const struct data *d, struct state *s, struct rng *r,
			enum side side, struct order_result *res)
{
	enum side h = OTHER_SIDE(side);

	if (s->held[h][0] && !engine_game_over(s) && s->prompt.side == h)
		run_held(d, s, r, h, res);
}

static const char sealed_marker[] = "# (a line sealed until it runs or the game ends)";

/* The text of line n in a sealed_lines list, or NULL. */
static const char *sealed_line(const char *list, int n, size_t *len)
{
	for (const char *p = list; *p;) {
		char *end;
		long k = strtol(p, &end, 10);
		size_t l = strcspn(p, "\n");
		if (*end == '\t' && k == n) {
			*len = l - (size_t)(end + 1 - p);
			return end + 1;
		}
		p += l + (p[l] == '\n');
	}
	return NULL;
}

void order_public_text(const char *text, const struct state *s, enum side side,
		       struct strbuf *out)
{
	const char *p = text;
	size_t len;

	if (!s->sealed_lines[side][0]) {
		strbuf_addstr(out, text);
		return;
	}
	for (int line = 1; *p; line++) {
		size_t n = strcspn(p, "\n");
		if (sealed_line(s->sealed_lines[side], line, &len))
			strbuf_addstr(out, sealed_marker);
		else
			strbuf_add(out, p, n);
		if (p[n] == '\n')
			strbuf_addch(out, '\n');
		p += n + (p[n] == '\n');
	}
}

bool order_unseal(const char *public, const char *sealed, struct strbuf *out)
{
	const char *p = public, *t;
	size_t len;
	bool any = false;

	for (int line = 1; *p; line++) {
		size_t n = strcspn(p, "\n");
		if (n == strlen(sealed_marker) && !memcmp(p, sealed_marker, n) &&
		    (t = sealed_line(sealed, line, &len))) {
			strbuf_add(out, t, len);
			any = true;
		} else {
			strbuf_add(out, p, n);
		}
		if (p[n] == '\n')
			strbuf_addch(out, '\n');
		p += n + (p[n] == '\n');
	}
	return any;
}
