/*
 * order-parse.c - one line of an order into an action (the grammar is at
 * the top of order.h): the verb, its arguments, comments, and the prose
 * a player writes around his order.
 */
#include "order-internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The words that start a line: every action's verb from its descriptor
 * (engine.h, action_desc), and "never" and "ask", which set standing
 * reactions. Returns how many, at most ORDER_N_VERBS. */
int order_verbs(struct order_verb out[ORDER_N_VERBS])
{
	int n = 0;

	for (int k = ACT_NONE + 1; k < ACT__COUNT; k++) {
		if (k == ACT_REACT)
			continue;
		out[n++] = (struct order_verb){ action_verb((enum action_kind)k), (enum action_kind)k, 0 };
		if (k == ACT_LAND) {	/* where the old list had them: messages keep their order */
			out[n++] = (struct order_verb){ "never", ACT_REACT, REACT_NEVER };
			out[n++] = (struct order_verb){ "ask", ACT_REACT, REACT_ASK };
		}
	}
	return n;
}

/* The verb that word[0..len) names, into *out: the whole word, or a
 * prefix no other verb shares. 0, or -1 with the reason in err. */
static int find_verb(const char *word, size_t len, struct order_verb *out,
		     struct strbuf *err)
{
	struct order_verb verbs[ORDER_N_VERBS];
	int nv = order_verbs(verbs), found = -1, n = 0;

	for (int i = 0; i < nv; i++) {
		const char *v = verbs[i].word;
		if (strlen(v) == len && !ascii_strncasecmp(v, word, len)) {
			*out = verbs[i];
			return 0;
		}
		if (verbs[i].kind == ACT_RESIGN)
			continue;	/* only the whole word */
		if (len <= strlen(v) && !ascii_strncasecmp(v, word, len)) {
			found = i;
			n++;
		}
	}
	if (n == 1) {
		*out = verbs[found];
		return 0;
	}
	if (n == 0) {
		const char *names[ORDER_N_VERBS];
		char *w = xstrndup(word, len);
		for (int i = 0; i < nv; i++)
			names[i] = verbs[i].word;
		strbuf_addf(err, "unknown word '%s'", w);
		order_suggest(w, names, nv, err);
		free(w);
		return -1;
	}
	strbuf_addf(err, "'%.*s' is ambiguous: ", (int)len, word);
	for (int i = 0, k = 0; i < nv; i++) {
		if (len > strlen(verbs[i].word) || ascii_strncasecmp(verbs[i].word, word, len) ||
		    verbs[i].kind == ACT_RESIGN)
			continue;
		k++;
		strbuf_addf(err, "%s'%s'", k == 1 ? "" : (k == n ? " or " : ", "),
			    verbs[i].word);
	}
	return -1;
}

/* Resolves a standing reaction's name by prefix. */
static int find_reaction(const char *ref, struct strbuf *err)
{
	size_t l = strlen(ref);

	for (int r = 0; l && r < REACT__COUNT; r++)
		if (!ascii_strncasecmp(reaction_name((enum reaction)r), ref, l))
			return r;
	strbuf_addf(err, "unknown standing reaction '%s' (known: ", ref);
	for (int r = 0; r < REACT__COUNT; r++)
		strbuf_addf(err, "%s%s", r ? ", " : "", reaction_name((enum reaction)r));
	strbuf_addch(err, ')');
	return -1;
}

/* A count of CUs: one to three digits. */
static bool parse_count(const char *w, size_t len, int *out)
{
	int v = 0;

	if (!len || len > 3)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)w[i]))
			return false;
		v = v * 10 + (w[i] - '0');
	}
	*out = v;
	return true;
}

/*
 * A space for an action of kind by side (docs/orders.md, "Names"): by
 * name first (order_find_space); where the name is ambiguous or unknown,
 * the legal orders settle it: of the spaces legal for this kind now, the
 * only one the name fits, else the only one within one typo of it (never
 * when two are that close). A space so read is said in note ("read
 * 'savanah' as 'Savannah GA'"). Returns the space, or -1 with err.
 */
static int resolve_space(const struct data *d, const struct state *s,
			 enum side side, enum action_kind kind, const char *ref,
			 struct strbuf *err, struct strbuf *note)
{
	struct strbuf why = STRBUF_INIT;
	int sp = order_find_space(d, ref, &why), n, pick = -1, n_pick = 0;
	bool legal[DATA_MAX_SPACES] = { false };
	struct action *acts;
	char r[128];

	if (sp < 0 && !s) {
		/* words only: a name the legal orders could settle reads */
		order_normalize(ref, r, sizeof(r));
		for (int i = 0; sp < 0 && i < d->n_spaces; i++)
			if (sp == ORDER_AMBIGUOUS || order_space_fits(d, i, r, true))
				sp = i;
		goto out;
	}
	if (sp >= 0 || !note || engine_game_over(s) || s->prompt.side != side)
		goto out;
	n = engine_legal(d, s, NULL, 0);
	acts = xcalloc((size_t)n + 1, sizeof(*acts));
	engine_legal(d, s, acts, n);
	for (int i = 0; i < n; i++)
		if (acts[i].kind == kind && acts[i].space >= 0)
			legal[acts[i].space] = true;
	free(acts);
	order_normalize(ref, r, sizeof(r));
	for (int pass = 0; pass < 2 && !n_pick && *r; pass++)
		for (int i = 0; i < d->n_spaces; i++)
			if (legal[i] && order_space_fits(d, i, r, pass == 1)) {
				pick = i;
				n_pick++;
			}
	if (n_pick == 1) {
		sp = pick;
		strbuf_addf(note, "(read '%s' as '%s', the legal one.)\n", ref,
			    d->spaces[sp].full_name);
	}
out:
	if (sp < 0)
		strbuf_add(err, why.buf ? why.buf : "", why.len);
	strbuf_release(&why);
	return sp;
}

static int parse_movement(const struct data *d, const struct state *s,
			  enum side side, struct action *out, char *rest,
			  struct strbuf *err, struct strbuf *note)
{
	size_t len = strlen(rest);
	char *last;

	if (out->kind == ACT_TAKE) {
		char *second;
		if (!len) {
			strbuf_addstr(err, "'take' needs a number of CUs: 'take 3'");
			return -1;
		}
		/* "take 3 1": 3 CUs, 1 of them French (12.2.C) */
		if ((second = strchr(rest, ' '))) {
			char *f = second;
			while (*f == ' ')
				f++;
			if (!parse_count(f, strlen(f), &out->french)) {
				strbuf_addf(err, "expected the number of French CUs among them after 'take %.*s', not '%s'",
					    (int)(second - rest), rest, f);
				return -1;
			}
			*second = '\0';
			len = strlen(rest);
		}
		if (!parse_count(rest, len, &out->value)) {
			strbuf_addf(err, "expected a number of CUs after 'take', not '%s'", rest);
			return -1;
		}
		return 0;
	}
	if (out->kind == ACT_STOP) {
		if (len && (out->general = order_find_general(d, rest, err)) < 0)
			return -1;
		return 0;
	}
	if (out->kind == ACT_SEND) {
		if (!len) {
			strbuf_addstr(err, "'send' needs the general who goes to the Reinforcements box: 'send Lee'");
			return -1;
		}
		return (out->general = order_find_general(d, rest, err)) < 0 ? -1 : 0;
	}
	if (out->kind == ACT_INTERCEPT) {
		char *tail;
		if (!len) {
			strbuf_addstr(err, "'intercept' needs the general of the intercepting Army: 'intercept Greene'");
			return -1;
		}
		/* "intercept Greene 2": 2 French among his CUs (7.8.C) */
		tail = strrchr(rest, ' ');
		if (tail && parse_count(tail + 1, strlen(tail + 1), &out->french)) {
			while (tail > rest && tail[-1] == ' ')
				tail--;
			*tail = '\0';
		}
		return (out->general = order_find_general(d, rest, err)) < 0 ? -1 : 0;
	}
	if (out->kind == ACT_LOSE) {
		if (!parse_count(rest, len, &out->value)) {
			strbuf_addstr(err, "'lose' needs the number of French CUs among the losses: 'lose 1'");
			return -1;
		}
		return 0;
	}
	if (out->kind == ACT_NAVY) {
		if (!len) {
			strbuf_addstr(err, "'navy' needs a blockade zone: 'navy Chesapeake'");
			return -1;
		}
		out->space = order_find_zone(d, rest, err);
		return out->space < 0 ? -1 : 0;
	}
	/* land */
	if (!len) {
		strbuf_addstr(err, "'land' needs a space: 'land New York 3'");
		return -1;
	}
	last = strrchr(rest, ' ');
	if (last && order_general_word(d, last + 1) >= 0) {
		out->general = order_general_word(d, last + 1);
		while (last > rest && last[-1] == ' ')
			last--;
		*last = '\0';
		last = strrchr(rest, ' ');
	}
	if (last && parse_count(last + 1, strlen(last + 1), &out->value)) {
		while (last > rest && last[-1] == ' ')
			last--;
		*last = '\0';
	} else if (side == SIDE_AMERICAN && !s) {
		out->value = 0;	/* words only: his card may fix the number */
	} else if (side == SIDE_AMERICAN && s->prompt.kind == PROMPT_LAND &&
		   s->prompt.side == SIDE_AMERICAN) {
		/* The French forces all land together (12.2.B.ii). */
		if (out->general >= 0 && d->generals[out->general].nation == NATION_FRENCH &&
		    s->box_cu[NATION_FRENCH] > 0)
			out->value = s->box_cu[NATION_FRENCH];
		else
			out->value = s->prompt.left;
	} else {
		strbuf_addstr(err, "'land' needs the number of CUs after the space: 'land New York 3 [GENERAL]'");
		return -1;
	}
	out->space = resolve_space(d, s, side, out->kind, rest, err, note);
	return out->space < 0 ? -1 : 0;
}

int order_parse(const struct data *d, const struct state *s,
		      enum side side, const char *line, struct action *out,
		      struct strbuf *err, int *column, struct strbuf *note)
{
	const char *p = line, *arg;
	struct order_verb vb, *v = &vb;
	size_t vlen;
	char *rest;
	int ret = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	vlen = strcspn(p, " \t");
	*column = (int)(p - line) + 1;
	if (find_verb(p, vlen, v, err) < 0)
		return -1;
	*out = (struct action)ACTION_INIT;
	out->kind = v->kind;
	out->value = v->value;
	arg = p + vlen;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	rest = xstrdup(arg);
	for (size_t k = strlen(rest); k && (rest[k - 1] == ' ' || rest[k - 1] == '\t'); k--)
		rest[k - 1] = '\0';
	*column = (int)(arg - line) + 1;
	if (out->kind == ACT_TAKE || out->kind == ACT_STOP || out->kind == ACT_LAND ||
	    out->kind == ACT_LOSE || out->kind == ACT_NAVY ||
	    out->kind == ACT_INTERCEPT || out->kind == ACT_SEND) {
		for (char *t = rest; *t; t++)	/* tabs count as spaces */
			if (*t == '\t')
				*t = ' ';
		ret = parse_movement(d, s, side, out, rest, err, note);
		free(rest);
		return ret;
	}

	if (out->kind == ACT_RESIGN) {
		/* "resign confirm": the word says it was meant */
		out->side = side;
		if (ascii_strcasecmp(rest, "confirm")) {
			strbuf_addstr(err, "to resign, write 'resign confirm' (the game ends at once and the other side wins)");
			*column = (int)(p - line) + 1;
			ret = -1;
		}
		free(rest);
		return ret;
	}
	bool wants = action_takes_card(out->kind) || action_takes_space(out->kind) ||
		     action_takes_side(out->kind) || out->kind == ACT_REACT;
	if (!wants && *rest) {
		strbuf_addf(err, "'%s' takes nothing after it", v->word);
		ret = -1;
	} else if (wants && !*rest) {
		*column = (int)(p - line + vlen) + 1;
		strbuf_addf(err, "'%s' needs %s", v->word,
			    action_takes_card(out->kind) ? "a card (number or title)"
			    : action_takes_space(out->kind) ? "a space"
			    : out->kind == ACT_REACT ? "what it applies to: exchange, intercept, retreat or battle"
			    : "a side: american or british");
		ret = -1;
	} else if (out->kind == ACT_REACT) {
		/* "never intercept [GENERAL]": the reaction, then maybe whose */
		size_t rl = strcspn(rest, " \t");
		char *who = rest + rl;
		while (*who == ' ' || *who == '\t')
			who++;
		if (rest[rl])
			rest[rl] = '\0';
		out->side = side;
		out->reaction = find_reaction(rest, err);
		if (out->reaction < 0) {
			ret = -1;
		} else if (*who) {
			*column = (int)(who - rest) + *column;
			out->general = order_find_general(d, who, err);
			if (out->general < 0)
				ret = -1;
		}
	} else if (action_takes_card(out->kind)) {
		/* "move 12 Washington": the card first, a general may follow */
		char *card = rest, *gen = NULL;
		if (out->kind == ACT_ACTIVATE) {
			size_t cl = strcspn(rest, " \t");
			if (rest[cl]) {
				rest[cl] = '\0';
				gen = rest + cl + 1;
			}
		}
		out->card = order_find_card(d, s, side, card, err);
		if (out->card == ORDER_AMBIGUOUS && !s)
			out->card = 0;	/* words only: the hand may settle it */
		else if (out->card < 0)
			ret = -1;
		if (!ret && gen) {
			while (*gen == ' ')
				gen++;
			if ((out->general = order_find_general(d, gen, err)) < 0) {
				*column += (int)(gen - rest);
				ret = -1;
			}
		}
	} else if (action_takes_space(out->kind)) {
		/* "remove Boston MA 1", "retreat Trenton 2": the French CUs
		 * among an event's removals (6.31) or those retreating
		 * before battle (7.9.B) */
		char *last = strrchr(rest, ' ');
		if (action_takes_french(out->kind) && last &&
		    parse_count(last + 1, strlen(last + 1), &out->french)) {
			while (last > rest && (last[-1] == ' ' || last[-1] == '\t'))
				last--;
			*last = '\0';
		}
		out->space = resolve_space(d, s, side, out->kind, rest, err, note);
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

int order_parse_line(const struct data *d, const struct state *s,
		     enum side side, const char *line, struct action *out,
		     struct strbuf *err, int *column)
{
	return order_parse(d, s, side, line, out, err, column, NULL);
}

/*
 * Cuts a comment off a line. '#' starts a comment, except right after the
 * first word when a digit follows: "pc #12 # my best" is the card #12.
 */
void order_strip_comment(char *line)
{
	char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	p += strcspn(p, " \t#");
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#' && isdigit((unsigned char)p[1]) && p > line &&
	    (p[-1] == ' ' || p[-1] == '\t'))
		p++;
	p = strchr(p, '#');
	if (!p)
		p = line + strlen(line);
	*p = '\0';
	while (p > line && (p[-1] == ' ' || p[-1] == '\t'))
		*--p = '\0';
}

/*
 * Is this line prose around an order ("Hi Bob,", "Cheers, Alice")? Its
 * first word is no order word, no beginning of one, and not within one
 * edit of one (so "plce worcester" is a mistake to be told, not prose),
 * nor a number or a card ("#12"). docs/orders.md, "Prose around the order".
 */
/* Does line read as a sentence: a final stop, question or exclamation
 * mark, a comma or colon at its end or after a word, a semicolon? */
static bool sentence(const char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (n && strchr(".!?,;:", line[n - 1]))
		return true;
	for (size_t i = 0; i + 1 < n; i++)
		if (strchr(",;:", line[i]) && (line[i + 1] == ' ' || line[i + 1] == '\t'))
			return true;
	return false;
}

bool order_prose_line(const struct data *d, enum side side, const char *line)
{
	char w[32];
	size_t n = 0;
	const char *t = line;

	while (*t == ' ' || *t == '\t')
		t++;
	if (!*t || *t == '#' || isdigit((unsigned char)*t))
		return false;
	while (t[n] && t[n] != ' ' && t[n] != '\t' && n + 1 < sizeof(w)) {
		w[n] = (char)tolower((unsigned char)t[n]);
		n++;
	}
	w[n] = '\0';
	/* trailing punctuation is prose's, never an order word's */
	while (n && strchr(",.!?;:", w[n - 1]))
		w[--n] = '\0';
	if (!n)
		return true;
	if (!strcmp(w, "words") || !strcmp(w, "say") || !strcmp(w, "if"))
		return false;
	struct order_verb verbs[ORDER_N_VERBS];
	int nv = order_verbs(verbs);
	bool verb = false;
	for (int i = 0; i < nv && !verb; i++) {
		const char *v = verbs[i].word;
		verb = !strncmp(v, w, n) || order_levenshtein(w, v) <= 1;
	}
	if (!verb)
		return true;
	/* "Pass my regards to the Admiral.", "To be honest, ...": a
	 * sentence whose words read as no order, whatever the state */
	if (!d)
		return false;
	struct strbuf why = STRBUF_INIT;
	struct action a;
	int column;
	char *copy = xstrdup(t);
	order_strip_comment(copy);
	bool prose = sentence(copy) &&
		     order_parse(d, NULL, side, copy, &a, &why, &column, NULL) < 0;
	free(copy);
	strbuf_release(&why);
	return prose;
}

/* Blank after the comment is cut? */
static bool blank_line(const char *p, size_t len)
{
	char *line = xstrndup(p, len);
	bool blank;

	order_strip_comment(line);
	blank = line[strspn(line, " \t\r")] == '\0';
	free(line);
	return blank;
}

/*
 * The lines from first to last (1-based) hold the order; the non-blank
 * lines before and after are prose. 0, 0 if no line looks like an order:
 * then nothing is prose, and the first line is refused with its reason.
 */
void order_span(const struct data *d, enum side side, const char *text,
		int *first, int *last)
{
	int lineno = 0;

	*first = *last = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);

		lineno++;
		if (!blank_line(p, len) && !order_prose_line(d, side, line)) {
			if (!*first)
				*first = lineno;
			*last = lineno;
		}
		free(line);
		p += len + (p[len] == '\n');
	}
}

bool order_text_is(const char *text, const char *word)
{
	size_t n = strlen(word);

	while (*text == ' ' || *text == '\t' || *text == '\n')
		text++;
	if (ascii_strncasecmp(text, word, n))
		return false;
	for (text += n; *text; text++)
		if (*text != ' ' && *text != '\t' && *text != '\n')
			return false;
	return true;
}
