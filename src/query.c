/*
 * query.c - the questions a player may mail (query.h).
 */
#include "query.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Each question: its word, how it is written, what it answers. */
static const struct {
	const char *name, *form, *what;
} queries[] = {
	[QUERY_HELP] = { "help", "help", "this text" },
	[QUERY_OPTIONS] = { "options", "options", "every legal order now, in full" },
	[QUERY_HAND] = { "hand", "hand", "your hand" },
	[QUERY_BOARD] = { "board", "board", "the board and the tracks" },
	[QUERY_LOG] = { "log", "log [N]", "the last N lines of the game's log (40)" },
	[QUERY_DISCARDS] = { "discards", "discards", "the discard pile" },
	[QUERY_RESEND] = { "resend", "resend", "your last report again" },
};

const char *query_name(enum query q)
{
	return q > QUERY_NONE && q <= QUERY_RESEND ? queries[q].name : "";
}

enum query query_parse(const char *text, int *n)
{
	enum query found = QUERY_NONE;
	const char *p = text ? text : "";

	*n = 40;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len), *t = line, *hash, *end;

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
		for (int q = QUERY_HELP; q <= QUERY_RESEND; q++)
			if (strlen(queries[q].name) == wl &&
			    !ascii_strncasecmp(t, queries[q].name, wl))
				found = (enum query)q;
		if (found && *arg) {
			char *e;
			long v = strtol(arg, &e, 10);
			if (found != QUERY_LOG || *e || v < 1 || v > 1000) {
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

static void tail_lines(const char *log, int n, struct strbuf *out)
{
	const char *end = log + strlen(log), *p = end;
	int seen = 0;

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

void query_answer(const struct game *g, enum side side, enum query q, int n,
		  const char *log, struct strbuf *out)
{
	const struct state *s = &g->state;

	switch (q) {
	case QUERY_HELP:
		strbuf_addstr(out,
			"Reply to your last report with your order, one decision a line\n"
			"(docs/orders.md): place, flip, remove, pc, event, discard, move,\n"
			"take, to, sail, stop, battle, retreat, intercept, done, pass...\n"
			"Instead of an order you may ask, one word alone in the mail:\n");
		for (int k = QUERY_HELP; k <= QUERY_RESEND; k++)
			strbuf_addf(out, "  %-10s %s\n", queries[k].form, queries[k].what);
		strbuf_addstr(out, "A question changes nothing and keeps your token valid.\n");
		strbuf_addstr(out, DATA_UNSOURCED_NOTE "\n");
		break;
	case QUERY_OPTIONS:
		strbuf_addstr(out, "Now: ");
		engine_describe_prompt(g->data, s, out);
		strbuf_addch(out, '\n');
		if (s->prompt.side == side) {
			strbuf_addch(out, '\n');
			report_options(g->data, s, false, out);
		} else {
			strbuf_addf(out, "The %s decides now; your report will say when it is yours.\n",
				    side_title(s->prompt.side));
		}
		break;
	case QUERY_HAND:
		strbuf_addf(out, "The %s hand:\n", side_title(side));
		report_hand(g->data, s, side, out);
		break;
	case QUERY_BOARD:
	case QUERY_RESEND:
		strbuf_addstr(out, "Now: ");
		engine_describe_prompt(g->data, s, out);
		strbuf_addstr(out, "\n\n");
		if (q == QUERY_RESEND) {
			strbuf_addf(out, "The %s hand:\n", side_title(side));
			report_hand(g->data, s, side, out);
			strbuf_addch(out, '\n');
		}
		report_board(g->data, s, out);
		if (q == QUERY_RESEND && s->prompt.side == side) {
			strbuf_addch(out, '\n');
			report_options(g->data, s, false, out);
		}
		break;
	case QUERY_LOG:
		strbuf_addf(out, "The last %d lines of the log:\n\n", n);
		tail_lines(log ? log : "", n, out);
		break;
	case QUERY_DISCARDS:
		strbuf_addf(out, "The discard pile, oldest first (%d cards):\n", s->n_discard);
		for (int i = 0; i < s->n_discard; i++)
			strbuf_addf(out, "  %s\n", g->data->cards[s->discard[i]].label);
		if (!s->n_discard)
			strbuf_addstr(out, "  (empty)\n");
		break;
	case QUERY_NONE:
		break;
	}
}
