/*
 * order.c - an order run line by line through the engine (order.h); its
 * parts are listed in order-internal.h.
 */
#include "order-internal.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "rng.h"

/* Is card in the hand of side? */
bool order_hand_has(const struct state *s, enum side side, int card)
{
	for (int i = 0; side && i < s->n_hand[side]; i++)
		if (s->hand[side][i] == card)
			return true;
	return false;
}

void order_result_init(struct order_result *res)
{
	memset(res, 0, sizeof(*res));
	strbuf_init(&res->message);
	strbuf_init(&res->log);
	strbuf_init(&res->actions);
	strbuf_init(&res->set_aside);
}

void order_result_release(struct order_result *res)
{
	if (!res)
		return;
	strbuf_release(&res->message);
	strbuf_release(&res->log);
	strbuf_release(&res->actions);
	strbuf_release(&res->set_aside);
}

/* Appends "  <line>\n  <spaces>^\n". */
static void show_caret(struct strbuf *out, const char *line, int column)
{
	strbuf_addf(out, "  %s\n  ", line);
	for (int i = 1; i < column; i++)
		strbuf_addch(out, line[i - 1] == '\t' ? '\t' : ' ');
	strbuf_addstr(out, "^\n");
}

/* Appends the legal answers to the current prompt: at most a dozen, and
 * always those without an argument ("done", "pass"). Only to the side that
 * decides: the other side's options would show what its hand holds. */
static void show_expected(const struct data *d, const struct state *s,
			  enum side side, struct strbuf *out)
{
	int n, shown = 0;
	struct action *acts;

	strbuf_addstr(out, "now: ");
	engine_describe_prompt(d, s, out);
	strbuf_addch(out, '\n');
	if (s->prompt.side != side) {
		strbuf_addf(out, "the %s decides now; your next report will say when it is yours\n",
			    side_title(s->prompt.side));
		return;
	}
	n = engine_legal(d, s, NULL, 0);
	acts = xcalloc((size_t)n + 1, sizeof(*acts));
	engine_legal(d, s, acts, n);
	strbuf_addstr(out, "legal orders include:\n");
	for (int i = 0; i < n; i++) {
		bool bare = !action_takes_card(acts[i].kind) &&
			    !action_takes_space(acts[i].kind) &&
			    !action_takes_side(acts[i].kind);
		if (shown >= 12 && !bare)
			continue;
		strbuf_addstr(out, "  ");
		action_format(d, &acts[i], out);
		strbuf_addch(out, '\n');
		shown++;
	}
	if (n > shown)
		strbuf_addf(out, "  ... and %d more (postrider options)\n", n - shown);
	free(acts);
}

/*
 * "words TEXT": a side's own words, mixed into the random stream before
 * its first draw, so that a host who chose the seed cannot have chosen the
 * shuffles (docs/fairness.md 6.8). 1 if the line is one (applied, or the
 * reason in why), 0 if it is not.
 */
static int words_line(struct state *s, struct rng *r, enum side side,
		      const char *t, struct order_result *res,
		      struct strbuf *why, int *applied)
{
	const char *w;
	char hex[2][65];

	*applied = 0;
	if (ascii_strncasecmp(t, "words", 5) || (t[5] && t[5] != ' ' && t[5] != '\t'))
		return 0;
	for (w = t + 5; *w == ' ' || *w == '\t'; w++)
		;
	size_t n = strlen(w);
	while (n && (w[n - 1] == ' ' || w[n - 1] == '\t'))
		n--;
	if (!n) {
		strbuf_addstr(why, "words of your own must follow 'words' (any text: they are mixed into the dice)");
	} else if (s->draws > 0) {
		strbuf_addstr(why, "too late for words: they are mixed in only before the first draw, and the dice have begun");
	} else if (s->has_words[side]) {
		strbuf_addstr(why, "your words are mixed in already (once per side)");
	} else {
		SHA256((const unsigned char *)w, n, s->words[side]);
		s->has_words[side] = true;
		state_mix_words(s, r);
		for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++) {
			if (s->has_words[k])
				hex_encode(s->words[k], 32, hex[k - 1]);
			else
				strcpy(hex[k - 1], "-");
		}
		strbuf_addf(&res->log, "The %s's words are mixed into the dice and shuffles.\n"
			    "words mixed: american %s british %s\n",
			    side_title(side), hex[0], hex[1]);
		strbuf_addstr(&res->actions, "words (mixed into the dice)\n");
		*applied = 1;
	}
	return 1;
}

void order_run(const struct data *d, struct state *s, struct rng *r,
	       enum side side, const char *text, struct order_result *res)
{
	const char *p = text;
	int lineno = 0, first, last;
	bool move_ended = false;	/* the last line was a step that ended the move */
	struct strbuf why = STRBUF_INIT, note = STRBUF_INIT;

	order_span(text, &first, &last);

	engine_begin_order(s);
	s->held_note[side][0] = '\0';	/* shown once, in the last report */
	s->sealed_lines[side][0] = '\0';	/* this order's, from now */
	while (*p) {
		size_t len = strcspn(p, "\n");
		strbuf_reset(&note);
		char *line = xstrndup(p, len), *t;
		struct action a;
		int column = 1;

		lineno++;
		p += len + (p[len] == '\n');
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		order_strip_comment(line);
		for (t = line; *t == ' ' || *t == '\t'; t++)
			;
		if (!*t) {
			free(line);
			continue;
		}
		if (first && (lineno < first || lineno > last)) {
			/* prose before or after the order: set aside */
			strbuf_addf(&res->set_aside, "%s\n", t);
			free(line);
			continue;
		}
		strbuf_reset(&why);
		int applied;
		if (!ascii_strncasecmp(t, "say", 3) && (t[3] == ' ' || t[3] == '\t' || !t[3])) {
			/* table talk: into the log (both reports, the
			 * history); not a decision */
			const char *talk = t + 3;
			while (*talk == ' ' || *talk == '\t')
				talk++;
			if (*talk)
				strbuf_addf(&res->log, "%s says: \"%s\"\n",
					    side_title(side), talk);
			free(line);
			continue;
		}
		if (res->applied && !engine_game_over(s) && s->prompt.side != side &&
		    engine_prompt_interrupts(s) && ascii_strncasecmp(t, "never", 5) &&
		    ascii_strncasecmp(t, "ask", 3) && ascii_strncasecmp(t, "resign", 6)) {
			/* the other side must answer first: the rest waits */
			order_hold_rest(s, side, t, p, first ? last : 0, lineno, res);
			free(line);
			break;
		}
		if (!ascii_strncasecmp(t, "if", 2) && (t[2] == ' ' || t[2] == '\t')) {
			/* a conditional standing order: sealed, not public */
			if (order_cond_line(d, s, side, t, res, &why) == 0) {
				order_seal_line(s, side, lineno, t);
				res->applied++;
				free(line);
				continue;
			}
			column = (int)(t - line) + 1;
		} else if (first && order_prose_line(t)) {
			/* prose between two orders: the order is refused */
			strbuf_addstr(&why, "this line is not an order; other words may "
				      "stand only before the first order line and after the last");
			column = (int)(t - line) + 1;
		} else if (words_line(s, r, side, t, res, &why, &applied)) {
			if (applied) {
				res->applied++;
				free(line);
				continue;
			}
			column = (int)(t - line) + 1;
		} else if (order_parse(d, s, side, line, &a, &why, &column, &note) == 0) {
			size_t loglen = res->log.len;
			if (note.len)
				strbuf_add(&res->log, note.buf, note.len);
			if (a.kind == ACT_STOP && a.general < 0 && move_ended &&
			    !(s->prompt.kind == PROMPT_MOVE && s->prompt.side == side)) {
				/* the move this order made has ended already (by
				 * itself, 7.3.A, or in a battle): nothing to stop */
				strbuf_addstr(&res->log, "('stop': the move had ended already.)\n");
				move_ended = false;
				free(line);
				continue;
			}
			if (a.kind != ACT_REACT && engine_game_over(s)) {
				strbuf_addstr(&why, "the game is over; nothing more can be ordered");
				column = (int)(t - line) + 1;
			} else if (a.kind != ACT_REACT && a.kind != ACT_RESIGN &&
				   s->prompt.side != side) {
				strbuf_addf(&why, "this decision is the %s's, not yours",
					    side_title(s->prompt.side));
				column = (int)(t - line) + 1;
			} else if (engine_apply(d, s, &a, r, &res->log, &why) == ENGINE_OK) {
				move_ended = (a.kind == ACT_TO || a.kind == ACT_SAIL) &&
					     !(s->prompt.kind == PROMPT_MOVE && s->prompt.side == side);
				action_format(d, &a, &res->actions);
				strbuf_addch(&res->actions, '\n');
				res->applied++;
				order_answer_standing(d, s, r, res);
				order_resume_held(d, s, r, side, res);
				free(line);
				continue;
			} else {
				res->log.len = loglen;
				if (res->log.alloc)
					res->log.buf[loglen] = '\0';
				/* the caret under the argument, or under the verb
				 * when the verb itself is what does not fit */
				bool unsupported = a.kind == ACT_ACTIVATE ||
						   a.kind == ACT_QUEUE ||
						   a.kind == ACT_REINFORCE;
				if (!engine_kind_fits(s, a.kind) ||
				    (unsupported && order_hand_has(s, side, a.card)) ||
				    (!action_takes_card(a.kind) && !action_takes_space(a.kind) &&
				     !action_takes_side(a.kind) && !action_takes_count(a.kind)))
					column = (int)(t - line) + 1;
			}
		}
		res->rejected = true;
		res->line = lineno;
		res->column = column;
		strbuf_addf(&res->message, "line %d, column %d: %s\n", lineno,
			    column, strbuf_str(&why));
		show_caret(&res->message, line, column);
		if (!engine_game_over(s))
			show_expected(d, s, side, &res->message);
		free(line);
		strbuf_release(&why);
		strbuf_release(&note);
		return;
	}
	strbuf_release(&why);
	strbuf_release(&note);
	{
		/* held lines wait only while the other side answers the
		 * interruption; when the decision went elsewhere they lapse */
		enum side h = OTHER_SIDE(side);
		if (s->held[h][0] && !res->rejected &&
		    (engine_game_over(s) || !(s->prompt.side == side && engine_prompt_interrupts(s)))) {
			int n = 1;
			for (const char *q = s->held[h]; *q; q++)
				n += *q == '\n';
			char first_line[STATE_HELD_MAX];
			size_t fl = strcspn(s->held[h], "\n");
			memcpy(first_line, s->held[h], fl);
			first_line[fl] = '\0';
			order_drop_held(s, h, first_line, "the decision did not come back to you", n, &res->log);
		}
	}
	if (res->applied && res->set_aside.len) {
		strbuf_addstr(&res->log, "Set aside, not orders:");
		for (const char *q = res->set_aside.buf; *q;) {
			size_t len = strcspn(q, "\n");
			strbuf_addf(&res->log, " '%.*s'", (int)len, q);
			q += len + (q[len] == '\n');
		}
		strbuf_addstr(&res->log, ".\n");
	}
	if (!res->applied) {
		res->rejected = true;
		strbuf_addstr(&res->message, "the order holds no decision\n");
		if (!engine_game_over(s))
			show_expected(d, s, side, &res->message);
	}
}
