/*
 * order-run.c - an order run line by line through the engine
 * (order_run(), order.h): the top of the order layer, over the parts
 * listed in order-internal.h.
 */
#include "order-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "report.h"
#include "rng.h"

/* Appends "  <line>\n  <spaces>^\n". */
static void show_caret(struct strbuf *out, const char *line, int column)
{
	strbuf_addf(out, "  %s\n  ", line);
	for (int i = 1; i < column; i++)
		strbuf_addch(out, line[i - 1] == '\t' ? '\t' : ' ');
	strbuf_addstr(out, "^\n");
}

/* Appends what is asked now and, to the side that decides, every legal
 * answer, grouped as the report gives them (report.h): the whole list,
 * never a host's command. The other side's options would show what his
 * hand holds: him it tells only who decides. */
static void show_expected(const struct data *d, const struct state *s,
			  enum side side, struct strbuf *out)
{
	strbuf_addstr(out, "now: ");
	engine_describe_prompt(d, s, out);
	strbuf_addch(out, '\n');
	if (s->prompt.side != side) {
		strbuf_addf(out, "the %s decides now; your next report will say when it is yours\n",
			    side_title(s->prompt.side));
		return;
	}
	report_options_grouped(d, s, out);
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

/* The number of draws made so far, of any kind. */
static uint64_t rng_draws_made(const struct rng *r)
{
	return r->next;
}

/* Is card among the n cards of hand? */
static bool order_hand_has_in(const int *hand, int n, int card)
{
	for (int i = 0; i < n; i++)
		if (hand[i] == card)
			return true;
	return false;
}

/*
 * What an order has reached that its sender may not see before he is
 * bound to it (docs/fairness.md, "No reply shows a draw before it
 * counts"): a die or any other draw, a card dealt or moved into a hand or
 * out of the other side's, the deck changed, or a decision of the other
 * side (his interruption of the move, which his sealed standing order may
 * answer, or his held-over lines). A sight is taken before each line and
 * compared after it.
 */
struct sight {
	uint64_t draws;
	int n_deck, deck[DATA_MAX_CARDS];
	int n_hand[3], hand[3][STATE_MAX_HAND];
};

static void sight_take(struct sight *v, const struct state *s, const struct rng *r)
{
	v->draws = rng_draws_made(r);
	v->n_deck = s->n_deck;
	memcpy(v->deck, s->deck, sizeof(v->deck[0]) * (size_t)s->n_deck);
	memcpy(v->n_hand, s->n_hand, sizeof(v->n_hand));
	memcpy(v->hand, s->hand, sizeof(v->hand));
}

/* Has the order gone past what side may see, since v was taken? */
static bool sight_passed(const struct sight *v, const struct state *s,
			 const struct rng *r, enum side side)
{
	enum side o = OTHER_SIDE(side);

	if (rng_draws_made(r) != v->draws || s->n_deck != v->n_deck ||
	    memcmp(s->deck, v->deck, sizeof(s->deck[0]) * (size_t)s->n_deck) ||
	    s->n_hand[o] != v->n_hand[o] ||
	    memcmp(s->hand[o], v->hand[o], sizeof(s->hand[o][0]) * (size_t)s->n_hand[o]))
		return true;
	for (int i = 0; i < s->n_hand[side]; i++)
		if (!order_hand_has_in(v->hand[side], v->n_hand[side], s->hand[side][i]))
			return true;	/* a card came into his hand */
	return !engine_game_over(s) && s->prompt.side == o && engine_prompt_interrupts(s);
}

#define NOT_AN_ORDER "this line is not an order; other words may stand only " \
	"before the first order line and after the last"

/* One order's run (order_run): where it is and what it has reached. */
struct run {
	const struct data *d;
	struct state *s;
	struct rng *r;
	enum side side;
	struct order_result *res;
	int first, last;	/* the lines of the order proper (order_span) */
	int words;		/* the line of "words", run first; 0 if none */
	int unreadable;		/* the first line whose words do not read */
	int unreadable_column;
	struct strbuf unreadable_why;
	char *unreadable_text;
	bool move_ended;	/* the last line was a step that ended the move */
	bool campaign_ended;	/* the last line left a campaign that ended by
				   itself, no general left (R101) */
};

/* Is t a "say", "words" or "if" line (of that word)? */
static bool line_is(const char *t, const char *word)
{
	size_t n = strlen(word);
	return !ascii_strncasecmp(t, word, n) && (!t[n] || t[n] == ' ' || t[n] == '\t');
}

/* The line at p (up to its newline) with its comment cut; *t is its first
 * non-blank character. The caller frees the line. */
static char *next_line(const char **p, char **t)
{
	size_t len = strcspn(*p, "\n");
	char *line = xstrndup(*p, len);

	*p += len + ((*p)[len] == '\n');
	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	order_strip_comment(line);
	for (*t = line; **t == ' ' || **t == '\t'; (*t)++)
		;
	return line;
}

/*
 * A "say" line t: the number of characters (UTF-8) of its talk, after
 * "say" and the blanks that follow; *ctl is the offset in t of its first
 * control character (below 0x20 but a tab, or DEL), or -1. Such a byte
 * would go raw into log.txt and the other side's report (a CR overwrites
 * a line on a terminal), so the line is refused (docs/orders.md, "Table
 * talk").
 */
static size_t say_chars(const char *t, int *ctl)
{
	const char *talk = t + 3;
	size_t n = 0;

	*ctl = -1;
	for (const char *p = t; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f) {
			*ctl = (int)(p - t);
			break;
		}
	while (*talk == ' ' || *talk == '\t')
		talk++;
	for (const char *p = talk; *p; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;	/* not a continuation byte */
	return n;
}

/*
 * The words of every line of the order, read as no state could make them
 * right (order_parse() without a state): the first line that does not
 * read, with its reason, goes into run->unreadable. This depends on
 * nothing hidden, so it may refuse a line past a die.
 */
static void read_words(struct run *run, const char *text)
{
	const char *p = text;
	struct action a;
	int lineno = 0;
	size_t said = 0;

	while (*p && !run->unreadable) {
		char *t, *line = next_line(&p, &t);
		int column = (int)(t - line) + 1;
		struct strbuf *why = &run->unreadable_why;

		lineno++;
		if (*t && !(run->first && (lineno < run->first || lineno > run->last)) &&
		    !line_is(t, "words")) {
			int bad, ctl = -1;
			size_t talk = line_is(t, "say") ? say_chars(t, &ctl) : 0;
			said += talk;
			if (ctl >= 0)
				bad = (column += ctl,
				       strbuf_addf(why, "a 'say' line may hold no control character (this one "
						   "has byte 0x%02x at column %d): the log and the other side's "
						   "report would show it as it is; send the line without it",
						   (unsigned char)t[ctl], column), 1);
			else if (talk > ORDER_SAY_MAX)
				bad = (strbuf_addf(why, "a 'say' line holds at most %d characters (this one %zu)",
						   ORDER_SAY_MAX, talk), 1);
			else if (said > ORDER_SAY_TOTAL_MAX)
				bad = (strbuf_addf(why, "the 'say' lines of one order hold at most %d characters",
						   ORDER_SAY_TOTAL_MAX), 1);
			else if (talk || line_is(t, "say"))
				bad = 0;
			else if (line_is(t, "if"))
				bad = order_cond_words(run->d, run->side, t, why) < 0;
			else if (run->first && order_prose_line(run->d, run->side, t))
				bad = (strbuf_addstr(why, NOT_AN_ORDER), 1);
			else
				bad = order_parse(run->d, NULL, run->side, line, &a, why, &column, NULL) < 0;
			if (bad) {
				run->unreadable = lineno;
				run->unreadable_column = column;
				run->unreadable_text = xstrdup(line);
			} else {
				strbuf_reset(why);
			}
		}
		free(line);
	}
}

/* Refuses the order at line lineno (text line, the caret at column):
 * why, then what is legal now. */
static void refuse(struct run *run, int lineno, const char *line, int column,
		   const char *why)
{
	struct order_result *res = run->res;

	res->rejected = true;
	res->line = lineno;
	res->column = column;
	strbuf_addf(&res->message, "line %d, column %d: %s\n", lineno, column, why);
	show_caret(&res->message, line, column);
	if (res->bound_line)
		strbuf_addf(&res->message, "(line %d reaches %s: nothing after it is shown "
			    "before the order counts)\n", res->bound_line, ORDER_UNSEEN);
	else if (!engine_game_over(run->s))
		show_expected(run->d, run->s, run->side, &res->message);
}

/* The order has reached what its sender may not see, at line lineno
 * whose log began at loglen, after `applied` decisions: from here on nothing is shown before it
 * counts, and a line that does not read refuses the order now. */
static void bind(struct run *run, int lineno, size_t loglen, int applied)
{
	struct order_result *res = run->res;

	res->bound_line = lineno;
	res->bound_log = loglen;
	res->bound_applied = applied;
	if (run->unreadable > lineno)
		refuse(run, run->unreadable, run->unreadable_text, run->unreadable_column,
		       run->unreadable_why.buf);
}

/* After the order is bound, a line that no longer fits drops itself and
 * the rest, sealed (they may name cards of the hand), with the reason
 * told to the sender alone. */
static void drop_rest(struct run *run, int lineno, const char *t, const char *p,
		      const char *why)
{
	struct state *s = run->s;
	int n = 0;

	order_seal_line(s, run->side, lineno, t);
	n++;
	while (*p) {
		/* a comment of its own line leaves the public file too, and
		 * so does every line after the order (a sign-off): issue 39 */
		bool comment = p[strspn(p, " \t\r")] == '#';
		char *u, *line = next_line(&p, &u);
		bool beyond = run->first && lineno + 1 > run->last;
		lineno++;
		if (*u && !beyond) {
			order_seal_line(s, run->side, lineno, u);
			n++;
		} else if (comment || *u) {
			order_seal_line(s, run->side, lineno, "#");
		}
		free(line);
	}
	snprintf(s->held_note[run->side], STATE_NOTE_MAX,
		 "Dropped from your order: '%.120s' (%.300s)%s.", t, why,
		 n > 1 ? ", and the lines after it" : "");
	strbuf_addf(&run->res->log, "%d line%s of the %s order %s dropped: %s.\n", n,
		    n == 1 ? "" : "s", side_title(run->side), n == 1 ? "is" : "are",
		    "it no longer fits the game");
	run->res->dropped = n;
}

/*
 * "words" anywhere in the order runs first, before anything the order
 * draws (docs/fairness.md 6.8). 0, or -1 after refusing the order.
 */
static int words_first(struct run *run, const char *text)
{
	const char *p = text;
	struct strbuf why = STRBUF_INIT;
	int lineno = 0, applied, ret = 0;

	while (*p && !run->words) {
		char *t, *line = next_line(&p, &t);
		lineno++;
		if (*t && !(run->first && (lineno < run->first || lineno > run->last)) &&
		    words_line(run->s, run->r, run->side, t, run->res, &why, &applied)) {
			run->words = lineno;
			if (applied) {
				run->res->applied++;
			} else {
				refuse(run, lineno, line, (int)(t - line) + 1, why.buf);
				ret = -1;
			}
		}
		free(line);
	}
	strbuf_release(&why);
	return ret;
}

/*
 * Applies one line t (line lineno of the order, whole text `line`) of
 * the sender. 0 if it was carried out, or -1 with the reason in why and
 * the caret's column in *column.
 */
static int apply_line(struct run *run, const char *line, const char *t, int *column,
		      struct strbuf *why)
{
	const struct data *d = run->d;
	struct state *s = run->s;
	struct order_result *res = run->res;
	struct strbuf note = STRBUF_INIT;
	struct action a;
	size_t loglen = res->log.len;
	int ret = -1;

	*column = (int)(t - line) + 1;
	if (order_parse(d, s, run->side, line, &a, why, column, &note) < 0)
		goto out;
	strbuf_addbuf(&res->log, &note);
	if (a.kind == ACT_STOP && a.general < 0 && run->move_ended &&
	    !(s->prompt.kind == PROMPT_MOVE && s->prompt.side == run->side)) {
		/* the move this order made has ended already (by itself,
		 * 7.3.A, or in a battle): nothing to stop */
		strbuf_addstr(&res->log, "('stop': the move had ended already.)\n");
		run->move_ended = false;
		ret = 0;
		goto out;
	}
	if (a.kind == ACT_DONE && run->campaign_ended &&
	    !(s->prompt.kind == PROMPT_CAMPAIGN && s->prompt.side == run->side)) {
		/* the campaign ended by itself (R101): nothing to end */
		strbuf_addstr(&res->log, "('done': the campaign had ended already.)\n");
		run->campaign_ended = false;
		ret = 0;
		goto out;
	}
	if (a.kind != ACT_REACT && engine_game_over(s)) {
		strbuf_addstr(why, "the game is over; nothing more can be ordered");
		*column = (int)(t - line) + 1;
	} else if (a.kind != ACT_REACT && a.kind != ACT_RESIGN && s->prompt.side != run->side) {
		strbuf_addf(why, "this decision is the %s's, not yours", side_title(s->prompt.side));
		*column = (int)(t - line) + 1;
	} else if (engine_apply(d, s, &a, run->r, &res->log, why) == ENGINE_OK) {
		run->move_ended = (a.kind == ACT_TO || a.kind == ACT_SAIL) &&
				  !(s->prompt.kind == PROMPT_MOVE && s->prompt.side == run->side);
		run->campaign_ended = res->log.len > loglen &&
				      strstr(res->log.buf + loglen, "ends by itself (7.2.A)") != NULL;
		action_format(d, &a, &res->actions);
		strbuf_addch(&res->actions, '\n');
		res->applied++;
		ret = 0;
	} else {
		/* the caret under the argument, or under the verb when the
		 * verb itself is what does not fit */
		bool unsupported = a.kind == ACT_ACTIVATE || a.kind == ACT_QUEUE ||
				   a.kind == ACT_REINFORCE;
		if (!engine_kind_fits(s, a.kind) ||
		    (unsupported && order_hand_has(s, run->side, a.card)) ||
		    (!action_takes_card(a.kind) && !action_takes_space(a.kind) &&
		     !action_takes_side(a.kind) && !action_takes_count(a.kind)))
			*column = (int)(t - line) + 1;
	}
out:
	if (ret < 0) {
		res->log.len = loglen;
		if (res->log.alloc)
			res->log.buf[loglen] = '\0';
	}
	strbuf_release(&note);
	return ret;
}

/* After a line of the sender: the other side's standing order or held
 * lines answer if the decision is now his. Returns whether the decision
 * was his to make, by them or himself (which the sender may not see). */
static bool others_answer(struct run *run)
{
	struct state *s = run->s;
	enum side o = OTHER_SIDE(run->side);
	bool his = !engine_game_over(s) && s->prompt.side == o &&
		   (engine_prompt_interrupts(s) || s->held[o][0]);

	order_answer_standing(run->d, s, run->r, run->res);
	order_resume_held(run->d, s, run->r, run->side, run->res);
	return his;
}

/* Held lines of the other side wait only while the sender answers his
 * interruption; when the decision went elsewhere they lapse. */
static void lapse_others_held(struct run *run)
{
	struct state *s = run->s;
	enum side h = OTHER_SIDE(run->side);

	if (!s->held[h][0] || (!engine_game_over(s) && s->prompt.side == run->side &&
			       engine_prompt_interrupts(s)))
		return;
	int n = 1;
	for (const char *q = s->held[h]; *q; q++)
		n += *q == '\n';
	char first_line[STATE_HELD_MAX];
	size_t fl = strcspn(s->held[h], "\n");
	memcpy(first_line, s->held[h], fl);
	first_line[fl] = '\0';
	order_drop_held(s, h, first_line, "the decision did not come back to you", n, &run->res->log);
}

/* The prose set aside around the order, said once in the log: the
 * first few lines, each cut short (the whole mail is the sender's). */
static void say_set_aside(struct order_result *res)
{
	int n = 0;

	if (!res->applied || !res->set_aside.len)
		return;
	strbuf_addstr(&res->log, "Set aside, not orders:");
	for (const char *q = res->set_aside.buf; *q; n++) {
		size_t len = strcspn(q, "\n"), i = 0, chars = 0;
		if (n < ORDER_ASIDE_SHOWN) {
			/* ORDER_ASIDE_WIDTH characters (whole UTF-8 ones), a
			 * control character as a space: nothing raw goes into
			 * the log and the other side's report (issue 39) */
			strbuf_addstr(&res->log, " '");
			for (; i < len; i++) {
				unsigned char c = (unsigned char)q[i];
				bool starts = (c & 0xc0) != 0x80;	/* a character */
				if (starts && chars == ORDER_ASIDE_WIDTH)
					break;
				chars += starts;
				strbuf_addch(&res->log, c < 0x20 || c == 0x7f ? ' ' : (char)c);
			}
			strbuf_addf(&res->log, "%s'", i < len ? "..." : "");
		}
		q += len + (q[len] == '\n');
	}
	if (n > ORDER_ASIDE_SHOWN)
		strbuf_addf(&res->log, " and %d more line%s", n - ORDER_ASIDE_SHOWN,
			    n - ORDER_ASIDE_SHOWN == 1 ? "" : "s");
	strbuf_addstr(&res->log, ".\n");
}

/*
 * One line of the order, t within line (number lineno), p the text after
 * it. Returns 1 to go on, 0 when the order stops here (held over,
 * dropped) and -1 when it is refused.
 */
static int run_line(struct run *run, int lineno, char *line, const char *t, const char *p)
{
	struct state *s = run->s;
	struct order_result *res = run->res;
	struct strbuf why = STRBUF_INIT;
	struct sight before;
	size_t loglen = res->log.len;
	int column = (int)(t - line) + 1, ret = 1, applied = res->applied;

	if (line_is(t, "say")) {
		/* table talk: into the log (both reports, the history); not
		 * a decision; bounded (read_words) */
		const char *talk = t + 3;
		if (lineno == run->unreadable) {
			refuse(run, lineno, line, run->unreadable_column, run->unreadable_why.buf);
			return -1;
		}
		while (*talk == ' ' || *talk == '\t')
			talk++;
		if (*talk)
			strbuf_addf(&res->log, "%s says: \"%s\"\n", side_title(run->side), talk);
		return 1;
	}
	if (lineno == run->words)
		return 1;	/* run first */
	if (res->applied && !engine_game_over(s) && s->prompt.side != run->side &&
	    engine_prompt_interrupts(s) && ascii_strncasecmp(t, "never", 5) &&
	    ascii_strncasecmp(t, "ask", 3) && ascii_strncasecmp(t, "resign", 6) &&
	    !line_is(t, "if")) {
		/* the other side must answer first: the rest waits (standing
		 * reactions and orders apply at once: they are for what comes) */
		order_hold_rest(s, run->side, t, p, run->first ? run->last : 0, lineno, res);
		return 0;
	}
	sight_take(&before, s, run->r);
	if (line_is(t, "if")) {
		/* a conditional standing order: sealed, not public */
		if (order_cond_line(run->d, s, run->side, t, res, &why) == 0) {
			order_seal_line(s, run->side, lineno, t);
			res->applied++;
			goto out;
		}
	} else if (line_is(t, "words")) {
		strbuf_addstr(&why, "your words are mixed in already (once per side)");
	} else if (run->first && order_prose_line(run->d, run->side, t)) {
		strbuf_addstr(&why, NOT_AN_ORDER);
	} else if (apply_line(run, line, t, &column, &why) == 0) {
		bool sealed = others_answer(run);
		if (!res->bound_line && (sealed || sight_passed(&before, s, run->r, run->side)))
			bind(run, lineno, loglen, applied);
		ret = res->rejected ? -1 : 1;
		goto out;
	}
	if (res->bound_line) {
		drop_rest(run, lineno, t, p, why.buf);
		ret = 0;
	} else {
		refuse(run, lineno, line, column, why.buf);
		ret = -1;
	}
out:
	strbuf_release(&why);
	return ret;
}

/* Seals the comments of their own lines among lines from..to-1 of text:
 * those just before a line held over or dropped may speak of it. */
static void seal_comments(struct run *run, const char *text, int from, int to)
{
	const char *p = text;

	for (int lineno = 1; *p && lineno < to; lineno++) {
		size_t len = strcspn(p, "\n");
		if (lineno >= from && p[strspn(p, " \t\r")] == '#')
			order_seal_line(run->s, run->side, lineno, "#");
		p += len + (p[len] == '\n');
	}
}

void order_run(const struct data *d, struct state *s, struct rng *r,
	       enum side side, const char *text, struct order_result *res)
{
	struct run run = { .d = d, .s = s, .r = r, .side = side, .res = res };
	const char *p = text;
	int lineno = 0, go = 1, after = 1;	/* the line after the last that ran */

	strbuf_init(&run.unreadable_why);
	order_span(d, side, text, &run.first, &run.last);
	engine_begin_order(s);
	s->held_note[side][0] = '\0';	/* shown once, in the last report */
	s->sealed_lines[side][0] = '\0';	/* this order's, from now */
	read_words(&run, text);
	if (words_first(&run, text) < 0)
		go = -1;
	while (*p && go > 0) {
		/* from the first sealed line on, what the sender writes around
		 * his orders is sealed too (issue 39): a comment, a sign-off */
		bool sealed = s->sealed_lines[side][0] != '\0';
		const char *raw = p;
		size_t rawlen = strcspn(p, "\n"), had = strlen(s->sealed_lines[side]);
		char *t, *line = next_line(&p, &t);
		lineno++;
		if (!*t) {
			/* a blank line or a comment (sealed once, not again
			 * by seal_comments(): after moves past it) */
			if (sealed && raw[strspn(raw, " \t\r")] != '\n' && raw[strspn(raw, " \t\r")]) {
				order_seal_line(s, side, lineno, "#");
				after = lineno + 1;
			}
		} else if (run.first && (lineno < run.first || lineno > run.last)) {
			/* prose before or after the order: set aside */
			if (sealed)
				order_seal_line(s, side, lineno, "#");
			else
				strbuf_addf(&res->set_aside, "%s\n", t);
		} else {
			go = run_line(&run, lineno, line, t, p);
			if (go == 0 || (go > 0 && strlen(s->sealed_lines[side]) > had))
				/* held, dropped or a standing order: the
				 * comments before it may speak of it */
				seal_comments(&run, text, after, lineno);
			else if (go > 0 && sealed && strlen(line) < rawlen &&
				 memchr(raw + strlen(line), '#', rawlen - strlen(line))) {
				/* a line that ran, with a comment: sealed whole */
				char *whole = xstrndup(raw, rawlen - (raw[rawlen - 1] == '\r'));
				order_seal_line(s, side, lineno, whole);
				free(whole);
			}
			after = lineno + 1;
		}
		free(line);
	}
	if (go >= 0) {
		lapse_others_held(&run);
		say_set_aside(res);
		if (!res->applied) {
			res->rejected = true;
			strbuf_addstr(&res->message, "the order holds no decision\n");
			if (!engine_game_over(s))
				show_expected(d, s, side, &res->message);
		}
	}
	strbuf_release(&run.unreadable_why);
	free(run.unreadable_text);
}
