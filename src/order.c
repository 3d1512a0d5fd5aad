/*
 * order.c - parsing order lines into actions and running them through the
 * engine. The grammar is at the top of order.h.
 */
#include "order.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void order_result_init(struct order_result *res)
{
	memset(res, 0, sizeof(*res));
	strbuf_init(&res->message);
	strbuf_init(&res->log);
	strbuf_init(&res->actions);
}

void order_result_release(struct order_result *res)
{
	if (!res)
		return;
	strbuf_release(&res->message);
	strbuf_release(&res->log);
	strbuf_release(&res->actions);
}

/* Lowercases and keeps letters, digits and single spaces: "St. Mary's GA"
 * becomes "st marys ga". */
static void normalize(const char *in, char *out, size_t n)
{
	size_t k = 0;
	bool space = true;

	for (; *in && k + 1 < n; in++) {
		unsigned char c = (unsigned char)*in;
		if (isalnum(c) || c >= 0x80) {
			out[k++] = (char)tolower(c);
			space = false;
		} else if ((c == ' ' || c == '\t' || c == '-' || c == '/') && !space) {
			out[k++] = ' ';
			space = true;
		}
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
}

/* True if every word of ref is a prefix of the matching word of name, in
 * order; name may have more words. exact: all words equal and same count. */
static bool words_match(const char *ref, const char *name, bool *exact)
{
	const char *r = ref, *n = name;

	*exact = true;
	while (*r) {
		size_t rl = strcspn(r, " "), nl = strcspn(n, " ");
		if (!*n || rl > nl || strncmp(r, n, rl)) {
			*exact = false;
			return false;
		}
		if (rl != nl)
			*exact = false;
		r += rl;
		n += nl;
		while (*r == ' ')
			r++;
		while (*n == ' ')
			n++;
	}
	if (*n)
		*exact = false;
	return true;
}

static int levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row = xcalloc(lb + 1, sizeof(int)), res;

	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int prev = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cur = row[j];
			int best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	res = row[lb];
	free(row);
	return res;
}

/* Appends "; did you mean 'A' or 'B'?" for the nearest names. */
static void suggest(const char *ref, const char *const *names, int n,
		    struct strbuf *err)
{
	int best[3] = { -1, -1, -1 }, dist[3] = { 1 << 30, 1 << 30, 1 << 30 };
	char a[128], b[128];

	normalize(ref, a, sizeof(a));
	for (int i = 0; i < n; i++) {
		normalize(names[i], b, sizeof(b));
		int dd = levenshtein(a, b);
		/* compare with the name without its colony too */
		char *sp = strrchr(b, ' ');
		if (sp) {
			*sp = '\0';
			int d2 = levenshtein(a, b);
			if (d2 < dd)
				dd = d2;
		}
		for (int k = 0; k < 3; k++) {
			if (dd < dist[k]) {
				for (int m = 2; m > k; m--) {
					dist[m] = dist[m - 1];
					best[m] = best[m - 1];
				}
				dist[k] = dd;
				best[k] = i;
				break;
			}
		}
	}
	int limit = (int)strlen(a) / 2 + 2;
	int shown = 0;
	for (int k = 0; k < 3; k++) {
		if (best[k] < 0 || dist[k] > limit || (k > 0 && dist[k] > dist[0] + 1))
			continue;
		strbuf_addf(err, "%s'%s'", shown ? " or " : "; did you mean ", names[best[k]]);
		shown++;
	}
	if (shown)
		strbuf_addch(err, '?');
}

int order_find_space(const struct data *d, const char *ref, struct strbuf *err)
{
	char r[128], nm[128];
	int found[DATA_MAX_SPACES], n = 0, exact = -1, bare[DATA_MAX_SPACES], n_bare = 0;
	const char *names[DATA_MAX_SPACES];

	/* Priority: the full name exactly, then a bare name or another
	 * spelling exactly ("Charlotte" is Charlotte NC, not Charlottesville
	 * VA), then a unique prefix of each word. */
	normalize(ref, r, sizeof(r));
	for (int i = 0; i < d->n_spaces; i++) {
		bool ex, hit;
		names[i] = d->spaces[i].full_name;
		normalize(d->spaces[i].full_name, nm, sizeof(nm));
		hit = words_match(r, nm, &ex);
		if (hit && ex)
			exact = i;
		normalize(d->spaces[i].name, nm, sizeof(nm));
		bool bex = false;
		if (words_match(r, nm, &bex) && bex)
			hit = true;
		for (int k = 0; k < d->spaces[i].n_aliases; k++) {
			bool aex = false;
			normalize(d->spaces[i].aliases[k], nm, sizeof(nm));
			if (words_match(r, nm, &aex)) {
				hit = true;
				bex = bex || aex;
			}
		}
		if (bex)
			bare[n_bare++] = i;
		if (hit)
			found[n++] = i;
	}
	if (exact >= 0)
		return exact;
	if (n_bare == 1)
		return bare[0];
	if (n_bare > 1) {
		n = n_bare;
		memcpy(found, bare, sizeof(int) * (size_t)n_bare);
	}
	if (n == 1)
		return found[0];
	if (n == 0) {
		strbuf_addf(err, "unknown space '%s'", ref);
		suggest(ref, names, d->n_spaces, err);
		return -1;
	}
	strbuf_addf(err, "'%s' is ambiguous: ", ref);
	for (int k = 0; k < n && k < 6; k++)
		strbuf_addf(err, "%s'%s'", k ? (k + 1 == n ? " or " : ", ") : "",
			    d->spaces[found[k]].full_name);
	if (n > 6)
		strbuf_addf(err, " and %d more", n - 6);
	return -1;
}

int order_find_card(const struct data *d, const char *ref, struct strbuf *err)
{
	char r[160], nm[160];
	const char *p = ref;
	int found[DATA_MAX_CARDS], n = 0, exact = -1;
	const char *names[DATA_MAX_CARDS];

	if (*p == '#')
		p++;
	if (isdigit((unsigned char)*p)) {
		char *end;
		long v = strtol(p, &end, 10);
		while (*end == ' ')
			end++;
		if (*end) {
			strbuf_addf(err, "a card is a number or a title, not '%s'", ref);
			return -1;
		}
		if (v < 1 || v > d->n_cards) {
			strbuf_addf(err, "there is no card #%ld (cards are numbered 1 to %d)",
				    v, d->n_cards);
			return -1;
		}
		return (int)v;
	}
	normalize(p, r, sizeof(r));
	for (int c = 1; c <= d->n_cards; c++) {
		bool ex;
		names[c - 1] = d->cards[c].title;
		normalize(d->cards[c].title, nm, sizeof(nm));
		if (words_match(r, nm, &ex)) {
			found[n++] = c;
			if (ex)
				exact = c;
		}
	}
	if (exact > 0)
		return exact;
	if (n == 1)
		return found[0];
	if (n == 0) {
		strbuf_addf(err, "unknown card '%s'", ref);
		suggest(ref, names, d->n_cards, err);
		return -1;
	}
	strbuf_addf(err, "'%s' is ambiguous: ", ref);
	for (int k = 0; k < n && k < 4; k++)
		strbuf_addf(err, "%s#%d %s", k ? ", " : "", found[k],
			    d->cards[found[k]].title);
	if (n > 4)
		strbuf_addf(err, " and %d more; give the card number", n - 4);
	return -1;
}

static const enum action_kind verb_kinds[] = {
	ACT_PLACE, ACT_FLIP, ACT_REMOVE, ACT_DONE, ACT_PASS, ACT_FIRST,
	ACT_PC_CARD, ACT_DISCARD, ACT_EVENT, ACT_EXCHANGE, ACT_CONGRESS,
	ACT_ACTIVATE, ACT_QUEUE, ACT_REINFORCE,
};

static int find_verb(const char *word, size_t len, struct strbuf *err)
{
	int found = -1, n = 0;

	for (unsigned i = 0; i < ARRAY_SIZE(verb_kinds); i++) {
		const char *v = action_verb(verb_kinds[i]);
		if (strlen(v) == len && !ascii_strncasecmp(v, word, len))
			return (int)verb_kinds[i];
		if (len <= strlen(v) && !ascii_strncasecmp(v, word, len)) {
			found = (int)verb_kinds[i];
			n++;
		}
	}
	if (n == 1)
		return found;
	if (n == 0) {
		const char *names[ARRAY_SIZE(verb_kinds)];
		char *w = xstrndup(word, len);
		for (unsigned i = 0; i < ARRAY_SIZE(verb_kinds); i++)
			names[i] = action_verb(verb_kinds[i]);
		strbuf_addf(err, "unknown word '%s'", w);
		suggest(w, names, (int)ARRAY_SIZE(verb_kinds), err);
		free(w);
	} else {
		strbuf_addf(err, "'%.*s' is ambiguous: say more of the word", (int)len, word);
	}
	return -1;
}

int order_parse_line(const struct data *d, const struct state *s,
		     const char *line, struct action *out, struct strbuf *err,
		     int *column)
{
	const char *p = line, *arg;
	size_t vlen;
	int kind;
	char *rest;
	(void)s;

	while (*p == ' ' || *p == '\t')
		p++;
	vlen = strcspn(p, " \t");
	*column = (int)(p - line) + 1;
	kind = find_verb(p, vlen, err);
	if (kind < 0)
		return -1;
	*out = (struct action)ACTION_INIT;
	out->kind = (enum action_kind)kind;
	arg = p + vlen;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	rest = xstrdup(arg);
	for (size_t k = strlen(rest); k && (rest[k - 1] == ' ' || rest[k - 1] == '\t'); k--)
		rest[k - 1] = '\0';
	*column = (int)(arg - line) + 1;

	bool wants = action_takes_card(out->kind) || action_takes_space(out->kind) ||
		     action_takes_side(out->kind);
	int ret = 0;
	if (!wants && *rest) {
		strbuf_addf(err, "'%s' takes nothing after it", action_verb(out->kind));
		ret = -1;
	} else if (wants && !*rest) {
		*column = (int)(p - line + vlen) + 1;
		strbuf_addf(err, "'%s' needs %s", action_verb(out->kind),
			    action_takes_card(out->kind) ? "a card (number or title)"
			    : action_takes_space(out->kind) ? "a space"
			    : "a side: american or british");
		ret = -1;
	} else if (action_takes_card(out->kind)) {
		/* "move 12 Washington": the card is the first word, a general may follow */
		char *card = rest, *gen = NULL;
		if (out->kind == ACT_ACTIVATE) {
			size_t cl = strcspn(rest, " \t");
			if (rest[cl]) {
				rest[cl] = '\0';
				gen = rest + cl + 1;
			}
		}
		out->card = order_find_card(d, card, err);
		if (out->card < 0)
			ret = -1;
		if (!ret && gen) {
			while (*gen == ' ')
				gen++;
			out->general = data_general_index(d, gen);
		}
	} else if (action_takes_space(out->kind)) {
		out->space = order_find_space(d, rest, err);
		if (out->space < 0)
			ret = -1;
	} else if (action_takes_side(out->kind)) {
		size_t l = strlen(rest);
		if (l && !ascii_strncasecmp(rest, "american", l))
			out->side = SIDE_AMERICAN;
		else if (l && !ascii_strncasecmp(rest, "british", l))
			out->side = SIDE_BRITISH;
		else {
			strbuf_addf(err, "expected 'american' or 'british', not '%s'", rest);
			ret = -1;
		}
	}
	free(rest);
	return ret;
}

/* Appends "  <line>\n  <spaces>^\n". */
static void show_caret(struct strbuf *out, const char *line, int column)
{
	strbuf_addf(out, "  %s\n  ", line);
	for (int i = 1; i < column; i++)
		strbuf_addch(out, line[i - 1] == '\t' ? '\t' : ' ');
	strbuf_addstr(out, "^\n");
}

/* Appends the legal answers to the current prompt, at most a dozen. */
static void show_expected(const struct data *d, const struct state *s,
			  struct strbuf *out)
{
	struct action acts[16];
	int n = engine_legal(d, s, acts, 16);

	strbuf_addstr(out, "now: ");
	engine_describe_prompt(d, s, out);
	strbuf_addstr(out, "\nlegal orders include:\n");
	for (int i = 0; i < n && i < 12; i++) {
		strbuf_addstr(out, "  ");
		action_format(d, &acts[i], out);
		strbuf_addch(out, '\n');
	}
	if (n > 12)
		strbuf_addf(out, "  ... and %d more (postrider options)\n", n - 12);
}

void order_run(const struct data *d, struct state *s, struct rng *r,
	       enum side side, const char *text, struct order_result *res)
{
	const char *p = text;
	int lineno = 0;
	struct strbuf why = STRBUF_INIT;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len), *hash;
		struct action a;
		int column = 1;

		lineno++;
		p += len + (p[len] == '\n');
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		if ((hash = strchr(line, '#'))) {
			/* "#12" right after a verb is a card number, not a comment */
			bool card_ref = hash > line && hash[-1] == ' ' &&
					isdigit((unsigned char)hash[1]);
			if (!card_ref)
				*hash = '\0';
		}
		char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		if (!*t) {
			free(line);
			continue;
		}
		strbuf_reset(&why);
		if (engine_game_over(s)) {
			strbuf_addstr(&why, "the game is over; nothing more can be ordered");
		} else if (s->prompt.side != side) {
			strbuf_addf(&why, "this decision is the %s's, not yours",
				    side_title(s->prompt.side));
		} else if (order_parse_line(d, s, line, &a, &why, &column) == 0) {
			size_t loglen = res->log.len;
			if (engine_apply(d, s, &a, r, &res->log, &why) == ENGINE_OK) {
				action_format(d, &a, &res->actions);
				strbuf_addch(&res->actions, '\n');
				res->applied++;
				free(line);
				continue;
			}
			res->log.len = loglen;
			if (res->log.alloc)
				res->log.buf[loglen] = '\0';
			/* the caret under the argument, or the verb if none */
			if (!engine_kind_fits(s, a.kind) ||
			    (!action_takes_card(a.kind) && !action_takes_space(a.kind) &&
			     !action_takes_side(a.kind)))
				column = (int)(t - line) + 1;
		}
		res->rejected = true;
		res->line = lineno;
		res->column = column;
		strbuf_addf(&res->message, "line %d, column %d: %s\n", lineno,
			    column, strbuf_str(&why));
		show_caret(&res->message, line, column);
		if (!engine_game_over(s))
			show_expected(d, s, &res->message);
		free(line);
		strbuf_release(&why);
		return;
	}
	strbuf_release(&why);
	if (!res->applied) {
		res->rejected = true;
		strbuf_addstr(&res->message, "the order holds no decision\n");
		if (!engine_game_over(s))
			show_expected(d, s, &res->message);
	}
}
