/*
 * order-standing.c - conditional standing orders (docs/orders.md, "Standing orders"):
 * "if battle [at SPACE]: battle CARD | discard CARD | none",
 * "if intercepted: ..." (a battle after an interception, the same
 * answers), "if attacked [at SPACE]: retreat SPACE | stand" (the
 * American's retreat before battle). Kept sealed in the side's private
 * state, canonical, one a line, and used once when the decision comes.
 */
#include "order-internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cond_when { WHEN_BATTLE, WHEN_INTERCEPTED, WHEN_ATTACKED };
static const char *const when_words[] = { "battle", "intercepted", "attacked" };

struct cond {
	enum cond_when when;
	int space;		/* -1: anywhere */
	int general;		/* -1: any; else the side's general there */
	const char *answer;	/* the rest of the line after ':' */
	size_t answer_len;	/* without a final "always" */
	bool always;		/* kept after use, until withdrawn */
	size_t head_len;	/* "if WHEN [at SPACE]:" */
};

/* Is card in the hand of side? */
bool order_hand_has(const struct state *s, enum side side, int card)
{
	for (int i = 0; side && i < s->n_hand[side]; i++)
		if (s->hand[side][i] == card)
			return true;
	return false;
}

/* Parses "if WHEN [at SPACE]: ANSWER"; 0, or -1 with the reason. */
static int cond_parse(const struct data *d, const char *t, struct cond *c,
		      struct strbuf *why)
{
	const char *p = t + 2, *colon = strchr(t, ':');
	size_t n;

	if (!colon) {
		strbuf_addstr(why, "a standing order reads 'if battle: battle CARD', 'if attacked at SPACE: retreat SPACE' (a ':' before the answer)");
		return -1;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, " \t:");
	c->space = -1;
	for (c->when = 0; c->when < ARRAY_SIZE(when_words); c->when++)
		if (n && n <= strlen(when_words[c->when]) &&
		    !ascii_strncasecmp(p, when_words[c->when], n))
			break;
	if (c->when == ARRAY_SIZE(when_words)) {
		strbuf_addf(why, "'if %.*s': a standing order is for 'battle', 'intercepted' or 'attacked'",
			    (int)n, p);
		return -1;
	}
	p += n;
	c->general = -1;
	while (*p == ' ' || *p == '\t')
		p++;
	while (p < colon) {
		/* "at SPACE" and "with GENERAL", in either order */
		const char *end = colon, *w;
		bool at = !ascii_strncasecmp(p, "at ", 3), with = !ascii_strncasecmp(p, "with ", 5);
		if (!at && !with) {
			strbuf_addf(why, "'%.*s': after 'if %s' come 'at SPACE', 'with GENERAL' or ':'",
				    (int)(colon - p), p, when_words[c->when]);
			return -1;
		}
		w = p + (at ? 3 : 5);
		for (const char *q = w; q + 5 < colon; q++)
			if ((q[0] == ' ' && !ascii_strncasecmp(q + 1, "with ", 5)) ||
			    (q[0] == ' ' && !ascii_strncasecmp(q + 1, "at ", 3))) {
				end = q;
				break;
			}
		char *name = xstrndup(w, (size_t)(end - w));
		if (at)
			c->space = order_find_space(d, name, why);
		else
			c->general = order_find_general(d, name, why);
		free(name);
		if ((at && c->space < 0) || (with && c->general < 0))
			return -1;
		if (at && c->when == WHEN_INTERCEPTED) {
			strbuf_addstr(why, "'if intercepted' holds for every interception: no 'at SPACE'");
			return -1;
		}
		for (p = end; *p == ' ' || *p == '\t'; p++)
			;
	}
	c->head_len = (size_t)(colon + 1 - t);
	for (c->answer = colon + 1; *c->answer == ' ' || *c->answer == '\t'; c->answer++)
		;
	/* "... always": kept after use, until withdrawn */
	c->answer_len = strlen(c->answer);
	while (c->answer_len && strchr(" \t", c->answer[c->answer_len - 1]))
		c->answer_len--;
	c->always = c->answer_len > 7 &&
		    !ascii_strncasecmp(c->answer + c->answer_len - 6, "always", 6) &&
		    strchr(" \t", c->answer[c->answer_len - 7]);
	if (c->always)
		for (c->answer_len -= 6; c->answer_len && strchr(" \t", c->answer[c->answer_len - 1]);)
			c->answer_len--;
	return 0;
}

/* The canonical head: "if battle at Boston MA:". */
static void cond_head(const struct data *d, const struct cond *c, struct strbuf *out)
{
	strbuf_addf(out, "if %s", when_words[c->when]);
	if (c->space >= 0)
		strbuf_addf(out, " at %s", d->spaces[c->space].full_name);
	if (c->general >= 0)
		strbuf_addf(out, " with %s", d->generals[c->general].name);
	strbuf_addch(out, ':');
}

/* Removes line i (0-based) of a newline-joined list in place. */
static void list_remove(char *list, int i)
{
	char *p = list;

	for (; i > 0 && *p; i--)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	size_t n = strcspn(p, "\n");
	char *next = p + n + (p[n] == '\n');
	memmove(p, next, strlen(next) + 1);
	n = strlen(list);
	if (n && list[n - 1] == '\n')
		list[n - 1] = '\0';
}

/* Finds the standing order of side with the same head; its index or -1. */
static int cond_find(const struct state *s, enum side side, const char *head)
{
	const char *p = s->standing[side];
	size_t h = strlen(head);

	for (int i = 0; *p; i++) {
		size_t n = strcspn(p, "\n");
		if (n >= h && !memcmp(p, head, h))
			return i;
		p += n + (p[n] == '\n');
	}
	return -1;
}

int order_cond_words(const struct data *d, enum side side, const char *t,
		     struct strbuf *why)
{
	struct cond c;
	struct action a;
	int column, ret = -1;
	char *answer;

	if (cond_parse(d, t, &c, why) < 0)
		return -1;
	if (!ascii_strncasecmp(c.answer, "ask", 3) && !c.answer[3 + strspn(c.answer + 3, " \t")])
		return 0;
	answer = xstrndup(c.answer, c.answer_len);
	ret = order_parse(d, NULL, side, answer, &a, why, &column, NULL);
	free(answer);
	return ret;
}

/* An "if ..." line of side's order: stores, replaces or withdraws a
 * standing order. 0, or -1 with the reason (the order is refused). */
int order_cond_line(const struct data *d, struct state *s, enum side side,
		     const char *t, struct order_result *res, struct strbuf *why)
{
	struct cond c;
	struct action a;
	struct strbuf head = STRBUF_INIT, line = STRBUF_INIT, note = STRBUF_INIT;
	int column, i, ret = -1;
	char *answer = NULL;

	if (cond_parse(d, t, &c, why) < 0)
		goto out;
	if (c.when == WHEN_ATTACKED && side != SIDE_AMERICAN) {
		strbuf_addstr(why, "only the American retreats before battle (7.9): 'if attacked' is his");
		goto out;
	}
	cond_head(d, &c, &head);
	i = cond_find(s, side, head.buf);
	if (!ascii_strncasecmp(c.answer, "ask", 3) && !c.answer[3 + strspn(c.answer + 3, " \t")]) {
		if (i < 0) {
			strbuf_addf(why, "you have no standing order '%s' to withdraw", head.buf);
			goto out;
		}
		list_remove(s->standing[side], i);
		strbuf_addf(&res->log, "The %s withdraws a standing order.\n", side_title(side));
		ret = 0;
		goto out;
	}
	answer = xstrndup(c.answer, c.answer_len);
	if (order_parse(d, s, side, answer, &a, why, &column, &note) < 0)
		goto out;
	if (c.always && (a.kind == ACT_BATTLE || a.kind == ACT_DISCARD)) {
		strbuf_addstr(why, "a card is played once: 'always' is for 'none', 'stand' and 'retreat SPACE'");
		goto out;
	}
	bool fits = c.when == WHEN_ATTACKED ? a.kind == ACT_RETREAT || a.kind == ACT_STAND
		    : a.kind == ACT_BATTLE || a.kind == ACT_DISCARD || a.kind == ACT_NOCARD;
	if (!fits) {
		strbuf_addf(why, "'%s' does not answer '%s': %s", answer, head.buf,
			    c.when == WHEN_ATTACKED ? "'retreat SPACE' or 'stand'"
			    : "'battle CARD', 'discard CARD' or 'none'");
		goto out;
	}
	if ((a.kind == ACT_BATTLE || a.kind == ACT_DISCARD) && !order_hand_has(s, side, a.card)) {
		strbuf_addf(why, "#%d is not in your hand", a.card);
		goto out;
	}
	strbuf_addf(&line, "%s ", head.buf);
	action_format(d, &a, &line);
	if (c.always)
		strbuf_addstr(&line, " always");
	if (i >= 0)
		list_remove(s->standing[side], i);
	size_t have = strlen(s->standing[side]);
	if (have + line.len + 2 > STATE_NOTE_MAX) {
		strbuf_addstr(why, "too many standing orders: withdraw one first ('if ...: ask')");
		goto out;
	}
	snprintf(s->standing[side] + have, STATE_NOTE_MAX - have, "%s%s", have ? "\n" : "", line.buf);
	strbuf_addf(&res->log, "The %s gives a standing order (sealed until it is used).\n",
		    side_title(side));
	ret = 0;
out:
	free(answer);
	strbuf_release(&head);
	strbuf_release(&line);
	strbuf_release(&note);
	return ret;
}

/* Adds a sentence to side's private note (a line each, while it fits). */
static void note_add(struct state *s, enum side side, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void note_add(struct state *s, enum side side, const char *fmt, ...)
{
	char *dst = s->held_note[side];
	size_t have = strlen(dst);
	va_list ap;
	int n;

	if (have && have + 2 < STATE_NOTE_MAX)
		dst[have++] = '\n', dst[have] = '\0';
	va_start(ap, fmt);
	n = vsnprintf(dst + have, STATE_NOTE_MAX - have, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= STATE_NOTE_MAX - have)
		dst[have ? have - 1 : 0] = '\0';	/* no room: left out */
}

/* Does standing order c fit the decision now asked of its side? */
static bool cond_matches(const struct data *d, const struct state *s,
			 const struct cond *c)
{
	if (c->general >= 0 && (s->general[c->general] != s->battle.space ||
				d->generals[c->general].side != s->prompt.side))
		return false;	/* not his battle */
	switch (c->when) {
	case WHEN_BATTLE:
		return s->prompt.kind == PROMPT_BATTLE_CARD &&
		       (c->space < 0 || c->space == s->battle.space);
	case WHEN_INTERCEPTED:
		return s->prompt.kind == PROMPT_BATTLE_CARD && s->battle.intercepted;
	case WHEN_ATTACKED:
		return s->prompt.kind == PROMPT_RETREAT_BEFORE &&
		       (c->space < 0 || c->space == s->battle.space);
	}
	return false;
}

/* After an action: a standing order of the side now asked answers for
 * him, once; one that does not fit is set aside and told to him. */
void order_answer_standing(const struct data *d, struct state *s, struct rng *r,
			    struct order_result *res)
{
	for (int guard = 0; guard < 8 && !engine_game_over(s); guard++) {
		enum side k = s->prompt.side;
		const char *p;
		struct cond c;
		struct action a;
		struct strbuf why = STRBUF_INIT, note = STRBUF_INIT;
		int i, column;
		char line[STATE_NOTE_MAX];

		if (k != SIDE_AMERICAN && k != SIDE_BRITISH)
			return;
		for (i = 0, p = s->standing[k]; *p; i++) {
			size_t n = strcspn(p, "\n");
			memcpy(line, p, n);
			line[n] = '\0';
			if (cond_parse(d, line, &c, &why) == 0 && cond_matches(d, s, &c))
				break;
			strbuf_reset(&why);
			p += n + (p[n] == '\n');
		}
		if (!*p) {
			strbuf_release(&why);
			return;
		}
		char *answer = xstrndup(c.answer, c.answer_len);
		if (!c.always)
			list_remove(s->standing[k], i);	/* used once */
		size_t loglen = res->log.len;
		strbuf_addf(&res->log, "The %s's standing order answers.\n", side_title(k));
		int parsed = order_parse(d, s, k, answer, &a, &why, &column, &note);
		free(answer);
		if (parsed == 0 &&
		    engine_apply(d, s, &a, r, &res->log, &why) == ENGINE_OK) {
			action_format(d, &a, &res->actions);
			strbuf_addch(&res->actions, '\n');
			note_add(s, k, "Your standing order '%.200s' was used.", line);
		} else {
			res->log.len = loglen;
			if (res->log.alloc)
				res->log.buf[loglen] = '\0';
			if (c.always)
				list_remove(s->standing[k], i);
			note_add(s, k, "Your standing order '%.150s' could not be used (%.250s); it is withdrawn.",
				 line, why.len ? why.buf : "it does not fit");
			strbuf_release(&why);
			strbuf_release(&note);
			return;
		}
		strbuf_release(&why);
		strbuf_release(&note);
	}
}
