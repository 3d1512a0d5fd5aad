/*
 * query.c - the questions a player may mail (query.h): one table.
 */
#include "query.h"
#include "order.h"
#include "replies.h"
#include "report.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef void query_answer_fn(const struct game *g, enum side side, int n,
			     const char *text, const char *log, struct strbuf *out);

static query_answer_fn answer_help, answer_options, answer_hand, answer_board,
	answer_log, answer_discards, answer_resend, answer_neighbours;

/* Each question: its word, how it is written, what it answers, whether
 * it takes a number (and its default) or a space, another spelling, and
 * its answer. */
static const struct query_desc {
	const char *name, *form, *what;
	int number;		/* the default of its number; 0: takes none */
	bool space;		/* the rest of the line names a space */
	const char *also;	/* another spelling of its word, or NULL */
	query_answer_fn *answer;
} queries[QUERY__COUNT] = {
	[QUERY_HELP] = { "help", "help", "this text", 0, false, NULL, answer_help },
	[QUERY_OPTIONS] = { "options", "options", "every legal order now, or where refused", 0, false,
			    NULL, answer_options },
	[QUERY_HAND] = { "hand", "hand", "your hand", 0, false, NULL, answer_hand },
	[QUERY_BOARD] = { "board", "board", "the board and the tracks", 0, false, NULL,
			  answer_board },
	[QUERY_LOG] = { "log", "log [N]", "the last N lines of the game's log (40)", 40,
			false, NULL, answer_log },
	[QUERY_DISCARDS] = { "discards", "discards", "the discard pile", 0, false, NULL,
			     answer_discards },
	[QUERY_RESEND] = { "resend", "resend", "your last report again", 0, false, NULL,
			   answer_resend },
	[QUERY_NEIGHBOURS] = { "neighbours", "neighbours SPACE",
			       "the spaces next to SPACE, and how they connect", 0, true,
			       "neighbors", answer_neighbours },
};

const char *query_name(enum query q)
{
	return q > QUERY_NONE && q < QUERY__COUNT ? queries[q].name : "";
}

/* Is word (len bytes) the whole of name? */
static bool is_word(const char *word, size_t len, const char *name)
{
	return name && strlen(name) == len && !ascii_strncasecmp(word, name, len);
}

/* The question that word (len bytes) names, or QUERY_NONE. */
static enum query find(const char *word, size_t len)
{
	for (int q = QUERY_NONE + 1; q < QUERY__COUNT; q++)
		if (is_word(word, len, queries[q].name) || is_word(word, len, queries[q].also))
			return (enum query)q;
	return QUERY_NONE;
}

enum query query_parse(const char *text, int *n)
{
	enum query found = QUERY_NONE;
	const char *p = text ? text : "";

	*n = 0;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len), *t = line, *hash, *end;
		const char *start = p;

		p += len + (p[len] == '\n');
		if ((hash = strchr(t, '#')))
			*hash = '\0';
		while (*t == ' ' || *t == '\t')
			t++;
		end = t + strlen(t);
		while (end > t && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			*--end = '\0';
		if (!*t) {
			free(line);
			continue;
		}
		if (found) {	/* a second line: an order, not a query */
			free(line);
			return QUERY_NONE;
		}
		size_t wl = strcspn(t, " \t");
		char *arg = t + wl;
		while (*arg == ' ' || *arg == '\t')
			arg++;
		found = find(t, wl);
		if (found)
			*n = queries[found].number;
		if (found && queries[found].space) {
			/* the rest of the line names a space: where it starts */
			bool named = *arg;
			*n = (int)(start - text) + (int)(arg - line);
			free(line);
			if (!named)
				return QUERY_NONE;
			continue;
		}
		if (found && *arg) {
			char *e;
			long v = strtol(arg, &e, 10);
			if (!queries[found].number || *e || v < 1 || v > 1000) {
				free(line);
				return QUERY_NONE;
			}
			*n = (int)v;
		}
		free(line);
		if (!found)
			return QUERY_NONE;
	}
	return found;
}

static void answer_help(const struct game *g, enum side side, int n,
			const char *text, const char *log,
			struct strbuf *out)
{
	(void)g, (void)side, (void)n, (void)text, (void)log;
	strbuf_addstr(out,
		"How to play by mail. Reply to your last report and type your order\n"
		"above the quoted text, one decision a line; keep the subject line (it\n"
		"carries your token). Words may be cut short where no other word starts\n"
		"so ('pl worc'), cards go by number or by words of their title ('45',\n"
		"'event franklin'), spaces by the words of their name ('charles sc').\n"
		"Your report lists every order you may give now, with the values each\n"
		"word may take.\n\nThe verbs:\n");
	for (int k = ACT_NONE + 1; k < ACT__COUNT; k++) {
		const struct action_desc *a = action_desc((enum action_kind)k);
		if (!*a->meaning)
			continue;
		struct strbuf form = STRBUF_INIT;
		strbuf_addstr(&form, a->verb);
		if (a->grammar && strcmp(a->grammar, "\u2014")) {
			strbuf_addch(&form, ' ');
			for (const char *c = a->grammar; *c; c++)
				strbuf_addch(&form, toupper((unsigned char)*c));
		}
		if (form.len > 28)
			strbuf_addf(out, "  %s\n  %-28s %s\n", form.buf, "", a->meaning);
		else
			strbuf_addf(out, "  %-28s %s\n", form.buf, a->meaning);
		strbuf_release(&form);
	}
	strbuf_addstr(out,
		"\nAt any time, on a line of its own (several may share one order):\n"
		"  never intercept | retreat | battle | exchange | declare [GENERAL]\n"
		"                               answer that kind of question 'no' without\n"
		"                               being asked; 'ask ...' asks again\n"
		"  if battle [at SPACE]: battle CARD | discard CARD | none\n"
		"  if intercepted: ...          (as 'if battle')\n"
		"  if attacked [at SPACE]: retreat SPACE | stand\n"
		"                               answer a coming question with a choice,\n"
		"                               once ('always' to keep it), sealed from\n"
		"                               your opponent; 'if battle: ask' withdraws\n"
		"  say TEXT                     table talk for your opponent's next report\n"
		"  words TEXT                   before the first deal: your words are mixed\n"
		"                               into the dice\n"
		"  # ...                        a comment\n"
		"\nAlone in a mail:\n"
		"  undo                         take back your last order, while it showed\n"
		"                               nothing new and your opponent has not answered\n"
		"  vacation 7d                  stop your deadlines for a while (m, h, d, w)\n"
		"  resign confirm               end the game; your opponent wins\n");
	for (int k = QUERY_NONE + 1; k < QUERY__COUNT; k++)
		strbuf_addf(out, "  %-28s %s\n", queries[k].form, queries[k].what);
	strbuf_addstr(out, "A question changes nothing and keeps your token valid.\n");
	strbuf_addstr(out, DATA_UNSOURCED_NOTE "\n");
}

/* "Now: <the prompt>" and a line. */
static void now_line(const struct game *g, struct strbuf *out)
{
	strbuf_addstr(out, "Now: ");
	engine_describe_prompt(g->data, &g->state, out);
	strbuf_addch(out, '\n');
}

/*
 * After side's last mailed order was refused (and nothing was played
 * since), the orders where it failed: it is run again on a copy of the
 * game, and stops where it stopped, as the refusal showed it. Only where
 * no die, card or decision of the other side lay before that line (the
 * refusal showed nothing there either). True if answered so.
 */
static bool options_where_refused(const struct game *g, enum side side,
				  struct strbuf *out)
{
	/* a game without its repository (the oracle's worlds) keeps none */
	char *text = g->repo ? replies_last_rejected(g->repo, side, g->state.seq) : NULL;
	struct state *s;
	struct order_result res;
	struct strbuf proofs = STRBUF_INIT;
	struct rng rng;
	bool done = false;

	if (!text)
		return false;
	s = xmalloc(sizeof(*s));
	*s = g->state;
	order_result_init(&res);
	game_rng(g, &rng);
	rng.log = &res.log;
	rng.proofs = &proofs;
	order_run(g->data, s, &rng, side, text, &res);
	if (res.rejected && !res.bound_line && res.applied && !engine_game_over(s) &&
	    s->prompt.side == side) {
		strbuf_addf(out, "Where your last order was refused (line %d), after its "
			    "%d decision%s before it:\nNow: ", res.line, res.applied,
			    res.applied == 1 ? "" : "s");
		engine_describe_prompt(g->data, s, out);
		strbuf_addstr(out, "\n\n");
		report_options(g->data, s, false, out);
		strbuf_addstr(out, "\nNothing of that order counts: send it again whole, "
			      "mended, as one order.\n");
		done = true;
	}
	order_result_release(&res);
	strbuf_release(&proofs);
	free(s);
	free(text);
	return done;
}

static void answer_options(const struct game *g, enum side side, int n,
			   const char *text, const char *log, struct strbuf *out)
{
	(void)n, (void)text, (void)log;
	if (options_where_refused(g, side, out))
		return;
	now_line(g, out);
	if (g->state.prompt.side == side) {
		strbuf_addch(out, '\n');
		report_options(g->data, &g->state, false, out);
	} else {
		strbuf_addf(out, "The %s decides now; your report will say when it is yours.\n",
			    side_title(g->state.prompt.side));
	}
}

static void answer_hand(const struct game *g, enum side side, int n,
			const char *text, const char *log,
			struct strbuf *out)
{
	(void)n, (void)text, (void)log;
	strbuf_addf(out, "The %s hand:\n", side_title(side));
	report_hand(g->data, &g->state, side, out);
}

static void answer_board(const struct game *g, enum side side, int n,
			 const char *text, const char *log, struct strbuf *out)
{
	(void)side, (void)n, (void)text, (void)log;
	now_line(g, out);
	strbuf_addch(out, '\n');
	report_board(g->data, &g->state, out);
}

static void answer_resend(const struct game *g, enum side side, int n,
			  const char *text, const char *log, struct strbuf *out)
{
	(void)n, (void)text, (void)log;
	now_line(g, out);
	strbuf_addch(out, '\n');
	strbuf_addf(out, "The %s hand:\n", side_title(side));
	report_hand(g->data, &g->state, side, out);
	strbuf_addch(out, '\n');
	report_board(g->data, &g->state, out);
	if (g->state.prompt.side == side) {
		strbuf_addch(out, '\n');
		report_options(g->data, &g->state, false, out);
	}
}

static void answer_log(const struct game *g, enum side side, int n,
		       const char *text, const char *log, struct strbuf *out)
{
	const char *end, *p;
	int seen = 0;

	(void)g, (void)side, (void)text;
	log = log ? log : "";
	end = log + strlen(log);
	p = end;
	strbuf_addf(out, "The last %d lines of the log:\n\n", n);
	if (p > log && p[-1] == '\n')
		p--;
	while (p > log && seen < n) {
		p--;
		if (*p == '\n')
			seen++;
	}
	if (*p == '\n')
		p++;
	strbuf_add(out, p, (size_t)(end - p));
}

static void answer_discards(const struct game *g, enum side side, int n,
			    const char *text, const char *log, struct strbuf *out)
{
	const struct state *s = &g->state;

	(void)side, (void)n, (void)text, (void)log;
	strbuf_addf(out, "The discard pile, oldest first (%d cards):\n", s->n_discard);
	/* face up: each event with what it does, as a hand shows it */
	for (int i = 0; i < s->n_discard; i++)
		report_card(g->data, s->discard[i], "  ", out);
	if (!s->n_discard)
		strbuf_addstr(out, "  (empty)\n");
}

/* The spaces next to the one text names (from n on: the rest of its
 * line), each with its kind of connection; or why none is named. */
static void answer_neighbours(const struct game *g, enum side side, int n,
			      const char *text, const char *log,
			      struct strbuf *out)
{
	const struct data *d = g->data;
	struct strbuf err = STRBUF_INIT;
	char *ref = xstrndup(text + n, strcspn(text + n, "\n#"));
	char *end = ref + strlen(ref);
	int i;

	(void)side, (void)log;
	while (end > ref && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	i = order_find_space(d, ref, &err);
	if (i < 0) {
		strbuf_addf(out, "neighbours of '%s': %s\n", ref, err.buf);
	} else {
		const struct data_space *sp = &d->spaces[i];
		bool marked = false;
		strbuf_addf(out, "%s is next to %d space%s (a move there: 'to SPACE'):\n",
			    sp->full_name, sp->n_adj, sp->n_adj == 1 ? "" : "s");
		for (int k = 0; k < sp->n_adj; k++) {
			const struct data_adj *adj = &sp->adj[k];
			strbuf_addf(out, "  %-22s %s", d->spaces[adj->to].full_name,
				    adj->wilderness ? "Wilderness Connection (counts as 3 spaces, 7.3.D)"
						    : "connection");
			if (adj->only_general >= 0)
				strbuf_addf(out, ", only %s (7.4.D)",
					    d->generals[adj->only_general].name);
			if (adj->unsourced) {
				strbuf_addstr(out, " " DATA_UNSOURCED_MARK);
				marked = true;
			}
			strbuf_addch(out, '\n');
		}
		if (sp->port)
			strbuf_addstr(out, "It is a port: the British may sail to and from it (7.5).\n");
		if (marked)
			strbuf_addstr(out, DATA_UNSOURCED_NOTE "\n");
	}
	free(ref);
	strbuf_release(&err);
}

void query_answer(const struct game *g, enum side side, enum query q, int n,
		  const char *text, const char *log, struct strbuf *out)
{
	if (q > QUERY_NONE && q < QUERY__COUNT)
		queries[q].answer(g, side, n, text ? text : "", log, out);
}
