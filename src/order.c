/*
 * order.c - parsing order lines into actions and running them through the
 * engine. The grammar is at the top of order.h.
 */
#include "order.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "rng.h"

#include <stdarg.h>
#include <stdio.h>

/* Is card in the hand of side? */
static bool hand_has(const struct state *s, enum side side, int card)
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

/*
 * Does the word r (rl bytes) fit the word n (nl bytes)? Exactly: r is a
 * beginning of n. Nearly: r has 3 letters or more and is within one edit
 * of n or of its beginning ("brnt" and "Brant").
 */
static bool word_fits(const char *r, size_t rl, const char *n, size_t nl,
		      bool nearly)
{
	char rw[64], nw[64];
	size_t cut = nl < rl + 1 ? nl : rl + 1;

	if (!nearly)
		return rl <= nl && !strncmp(r, n, rl);
	if (rl < 3 || rl >= sizeof(rw) || nl >= sizeof(nw))
		return false;
	memcpy(rw, r, rl);
	rw[rl] = '\0';
	memcpy(nw, n, nl);
	nw[nl] = '\0';
	if (levenshtein(rw, nw) <= 1)
		return true;
	nw[cut] = '\0';
	if (levenshtein(rw, nw) <= 1)
		return true;
	nw[cut > 0 ? cut - 1 : 0] = '\0';
	return cut > rl && levenshtein(rw, nw) <= 1;
}

/* True if every word of ref fits (word_fits) some word of name, in any
 * order ("concord ma" and "Lexington and Concord MA"). */
static bool words_in(const char *ref, const char *name, bool nearly)
{
	const char *r = ref;

	if (!*r)
		return false;
	while (*r) {
		size_t rl = strcspn(r, " ");
		bool found = false;
		for (const char *n = name; *n && !found;) {
			size_t nl = strcspn(n, " ");
			found = word_fits(r, rl, n, nl, nearly);
			n += nl;
			while (*n == ' ')
				n++;
		}
		if (!found)
			return false;
		r += rl;
		while (*r == ' ')
			r++;
	}
	return true;
}

/*
 * Appends "; did you mean 'A' or 'B'?": the nearest names by edit distance
 * (with or without the colony code), then names that hold every word of
 * the reference ("concord ma": Lexington and Concord MA); three at most.
 */
static void suggest(const char *ref, const char *const *names, int n,
		    struct strbuf *err)
{
	int best[3] = { -1, -1, -1 }, dist[3] = { 1 << 30, 1 << 30, 1 << 30 };
	int pick[3], n_pick = 0;
	char a[128], b[128];

	normalize(ref, a, sizeof(a));
	for (int i = 0; i < n; i++) {
		normalize(names[i], b, sizeof(b));
		int dd = levenshtein(a, b);
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
	for (int k = 0; k < 3; k++)
		if (best[k] >= 0 && dist[k] <= limit && (k == 0 || dist[k] <= dist[0] + 1))
			pick[n_pick++] = best[k];
	for (int i = 0; i < n && n_pick < 3 && *a; i++) {
		bool seen = false;
		normalize(names[i], b, sizeof(b));
		for (int k = 0; k < n_pick; k++)
			seen = seen || pick[k] == i;
		if (!seen && (words_in(a, b, false) || words_in(a, b, true)))
			pick[n_pick++] = i;
	}
	for (int k = 0; k < n_pick; k++)
		strbuf_addf(err, "%s'%s'", k ? " or " : "; did you mean ", names[pick[k]]);
	if (n_pick)
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

int order_find_card(const struct data *d, const struct state *s,
		    enum side side, const char *ref, struct strbuf *err)
{
	char r[160], nm[160];
	const char *p = ref;
	int found[DATA_MAX_CARDS], n = 0, exact[DATA_MAX_CARDS], n_exact = 0;
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
				exact[n_exact++] = c;
		}
	}
	/* Then any distinctive word or words of the title, in any place:
	 * "franklin", "de grasse", "kings mountain". */
	for (int c = 1; !n && *r && c <= d->n_cards; c++) {
		normalize(d->cards[c].title, nm, sizeof(nm));
		if (words_in(r, nm, false))
			found[n++] = c;
	}
	if (n_exact) {
		memcpy(found, exact, sizeof(int) * (size_t)n_exact);
		n = n_exact;
	}
	/* Several cards share a title (the campaigns): the one in the hand. */
	if (n > 1 && s && side) {
		int in_hand = -1, k = 0;
		for (int i = 0; i < n; i++)
			for (int h = 0; h < s->n_hand[side]; h++)
				if (s->hand[side][h] == found[i]) {
					in_hand = found[i];
					k++;
				}
		if (k >= 1 && (k == 1 || n_exact))
			return in_hand;
	}
	if (n == 1)
		return found[0];
	if (n == 0) {
		/* suggestions only among the sender's own cards, never the
		 * titles of cards he does not hold */
		const char *mine[STATE_MAX_HAND];
		int n_mine = 0;
		strbuf_addf(err, "unknown card '%s'", ref);
		if (s && side) {
			for (int h = 0; h < s->n_hand[side] && n_mine < STATE_MAX_HAND; h++)
				if (!d->cards[s->hand[side][h]].ops)
					mine[n_mine++] = d->cards[s->hand[side][h]].title;
			suggest(ref, mine, n_mine, err);
		} else {
			suggest(ref, names, d->n_cards, err);
		}
		return -1;
	}
	strbuf_addf(err, "'%s' is ambiguous: ", ref);
	for (int k = 0; k < n && k < 4; k++)
		strbuf_addf(err, "%s%s", k ? (k + 1 == n ? " or " : ", ") : "",
			    d->cards[found[k]].label);
	if (n > 4)
		strbuf_addf(err, " and %d more", n - 4);
	strbuf_addstr(err, "; give the card number");
	return -1;
}

/* A word that starts a line: an action's verb, or "never"/"ask". */
struct verb {
	const char *word;
	enum action_kind kind;
	int value;
};
#define N_VERBS (ACT__COUNT + 1)

/* The words that start a line: every action's verb from its descriptor
 * (engine.h, action_desc), and "never" and "ask", which set standing
 * reactions. Returns how many, at most N_VERBS. */
static int order_verbs(struct verb out[N_VERBS])
{
	int n = 0;

	for (int k = ACT_NONE + 1; k < ACT__COUNT; k++) {
		if (k == ACT_REACT)
			continue;
		out[n++] = (struct verb){ action_verb((enum action_kind)k), (enum action_kind)k, 0 };
		if (k == ACT_LAND) {	/* where the old list had them: messages keep their order */
			out[n++] = (struct verb){ "never", ACT_REACT, REACT_NEVER };
			out[n++] = (struct verb){ "ask", ACT_REACT, REACT_ASK };
		}
	}
	return n;
}

/* A blockade zone by name, its words as prefixes: "chesapeake",
 * "long island", "st law". -1 with a message if none or several. */
static int find_zone(const struct data *d, const char *ref, struct strbuf *err)
{
	char want[128], name[128];
	int found = -1, n = 0;
	bool exact;

	normalize(ref, want, sizeof(want));
	for (int z = 0; *want && z < d->n_zones; z++) {
		normalize(d->zones[z].name, name, sizeof(name));
		if (words_match(want, name, &exact)) {
			if (exact)
				return z;
			found = z;
			n++;
		}
	}
	if (n == 1)
		return found;
	strbuf_addf(err, "%s blockade zone '%s' (zones:", n ? "ambiguous" : "unknown", ref);
	for (int z = 0; z < d->n_zones; z++)
		strbuf_addf(err, "%s %s", z ? "," : "", d->zones[z].name);
	strbuf_addch(err, ')');
	return -1;
}

/* The verb that word[0..len) names, into *out: the whole word, or a
 * prefix no other verb shares. 0, or -1 with the reason in err. */
static int find_verb(const char *word, size_t len, struct verb *out,
		     struct strbuf *err)
{
	struct verb verbs[N_VERBS];
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
		const char *names[N_VERBS];
		char *w = xstrndup(word, len);
		for (int i = 0; i < nv; i++)
			names[i] = verbs[i].word;
		strbuf_addf(err, "unknown word '%s'", w);
		suggest(w, names, nv, err);
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

/* A general by name or by a unique beginning of it ("wash", "corn"), or
 * -1 with a message (unknown, with suggestions, or ambiguous). */
static int find_general(const struct data *d, const char *ref,
			struct strbuf *err)
{
	int g = data_general_index(d, ref), n = 0, hit[DATA_MAX_GENERALS];
	size_t len = strlen(ref);

	for (int i = 0; g < 0 && len && i < d->n_generals; i++)
		if (!ascii_strncasecmp(d->generals[i].name, ref, len))
			hit[n++] = i;
	if (g < 0 && n == 1)
		g = hit[0];
	if (g < 0 && n > 1) {
		strbuf_addf(err, "'%s' is ambiguous: ", ref);
		for (int k = 0; k < n; k++)
			strbuf_addf(err, "%s'%s'", k ? (k + 1 == n ? " or " : ", ") : "",
				    d->generals[hit[k]].name);
		return -1;
	}
	if (g < 0) {
		const char *names[DATA_MAX_GENERALS];
		for (int i = 0; i < d->n_generals; i++)
			names[i] = d->generals[i].name;
		strbuf_addf(err, "unknown general '%s'", ref);
		suggest(ref, names, d->n_generals, err);
	}
	return g;
}

/*
 * The arguments of the movement verbs (docs/orders.md): "take N",
 * "stop [GENERAL]", "land SPACE [N] [GENERAL]". The American's N may be
 * left out of "land": it is fixed by his card (8.2.C).
 */
/* Does the normalized reference r name space i: each word a beginning of
 * a word of its full name, bare name or another spelling (nearly: the
 * whole of one of them within one edit, for four letters or more)? */
static bool space_fits(const struct data *d, int i, const char *r, bool nearly)
{
	const struct data_space *sp = &d->spaces[i];
	char nm[128];
	bool ex;

	for (int k = -2; k < sp->n_aliases; k++) {
		normalize(k == -2 ? sp->full_name : k == -1 ? sp->name : sp->aliases[k],
			  nm, sizeof(nm));
		if (!nearly ? words_match(r, nm, &ex) :
		    strlen(r) >= 4 && levenshtein(r, nm) <= 1)
			return true;
	}
	return false;
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

	if (sp >= 0 || !s || !note || engine_game_over(s) || s->prompt.side != side)
		goto out;
	n = engine_legal(d, s, NULL, 0);
	acts = xcalloc((size_t)n + 1, sizeof(*acts));
	engine_legal(d, s, acts, n);
	for (int i = 0; i < n; i++)
		if (acts[i].kind == kind && acts[i].space >= 0)
			legal[acts[i].space] = true;
	free(acts);
	normalize(ref, r, sizeof(r));
	for (int pass = 0; pass < 2 && !n_pick && *r; pass++)
		for (int i = 0; i < d->n_spaces; i++)
			if (legal[i] && space_fits(d, i, r, pass == 1)) {
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
		if (len && (out->general = find_general(d, rest, err)) < 0)
			return -1;
		return 0;
	}
	if (out->kind == ACT_SEND) {
		if (!len) {
			strbuf_addstr(err, "'send' needs the general who goes to the Reinforcements box: 'send Lee'");
			return -1;
		}
		return (out->general = find_general(d, rest, err)) < 0 ? -1 : 0;
	}
	if (out->kind == ACT_INTERCEPT) {
		char *last;
		if (!len) {
			strbuf_addstr(err, "'intercept' needs the general of the intercepting Army: 'intercept Greene'");
			return -1;
		}
		/* "intercept Greene 2": 2 French among his CUs (7.8.C) */
		last = strrchr(rest, ' ');
		if (last && parse_count(last + 1, strlen(last + 1), &out->french)) {
			while (last > rest && last[-1] == ' ')
				last--;
			*last = '\0';
		}
		return (out->general = find_general(d, rest, err)) < 0 ? -1 : 0;
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
		out->space = find_zone(d, rest, err);
		return out->space < 0 ? -1 : 0;
	}
	/* land */
	if (!len) {
		strbuf_addstr(err, "'land' needs a space: 'land New York 3'");
		return -1;
	}
	last = strrchr(rest, ' ');
	if (last && data_general_index(d, last + 1) >= 0) {
		out->general = data_general_index(d, last + 1);
		while (last > rest && last[-1] == ' ')
			last--;
		*last = '\0';
		last = strrchr(rest, ' ');
	}
	if (last && parse_count(last + 1, strlen(last + 1), &out->value)) {
		while (last > rest && last[-1] == ' ')
			last--;
		*last = '\0';
	} else if (side == SIDE_AMERICAN && s && s->prompt.kind == PROMPT_LAND &&
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

static int parse_line(const struct data *d, const struct state *s,
		      enum side side, const char *line, struct action *out,
		      struct strbuf *err, int *column, struct strbuf *note)
{
	const char *p = line, *arg;
	struct verb vb, *v = &vb;
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
			out->general = find_general(d, who, err);
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
		if (out->card < 0)
			ret = -1;
		if (!ret && gen) {
			while (*gen == ' ')
				gen++;
			if ((out->general = find_general(d, gen, err)) < 0) {
				*column += (int)(gen - rest);
				ret = -1;
			}
		}
	} else if (action_takes_space(out->kind)) {
		/* "remove Boston MA 1", "retreat Trenton 2": the French CUs
		 * among an event's removals (6.31) or those retreating
		 * before battle (7.9.B) */
		char *last = strrchr(rest, ' ');
		if ((out->kind == ACT_REMOVE || out->kind == ACT_RETREAT) && last &&
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
	return parse_line(d, s, side, line, out, err, column, NULL);
}

/*
 * Cuts a comment off a line. '#' starts a comment, except right after the
 * first word when a digit follows: "pc #12 # my best" is the card #12.
 */
static void strip_comment(char *line)
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

/*
 * Is this line prose around an order ("Hi Bob,", "Cheers, Alice")? Its
 * first word is no order word, no beginning of one, and not within one
 * edit of one (so "plce worcester" is a mistake to be told, not prose),
 * nor a number or a card ("#12"). docs/orders.md, "Prose around the order".
 */
static bool prose_line(const char *line)
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
	struct verb verbs[N_VERBS];
	int nv = order_verbs(verbs);
	for (int i = 0; i < nv; i++) {
		const char *v = verbs[i].word;
		if (!strncmp(v, w, n) || levenshtein(w, v) <= 1)
			return false;
	}
	return true;
}

/* Blank after the comment is cut? */
static bool blank_line(const char *p, size_t len)
{
	char *line = xstrndup(p, len);
	bool blank;

	strip_comment(line);
	blank = line[strspn(line, " \t\r")] == '\0';
	free(line);
	return blank;
}

/*
 * The lines from first to last (1-based) hold the order; the non-blank
 * lines before and after are prose. 0, 0 if no line looks like an order:
 * then nothing is prose, and the first line is refused with its reason.
 */
static void order_span(const char *text, int *first, int *last)
{
	int lineno = 0;

	*first = *last = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);

		lineno++;
		if (!blank_line(p, len) && !prose_line(line)) {
			if (!*first)
				*first = lineno;
			*last = lineno;
		}
		free(line);
		p += len + (p[len] == '\n');
	}
}

/*
 * Held-over lines (docs/orders.md, "Held over"): a move cut by the other
 * side's decision (an interception, a retreat before battle, a battle
 * card) keeps the rest of the mover's order in his private state, and it
 * runs when the decision comes back to him, line by line while legal.
 */
static bool interrupted(const struct state *s)
{
	return engine_prompt_interrupts(s);
}

/* Keeps line lineno of side's order (text t) out of the public order
 * file: it goes to the sealed private state instead. */
static void seal_line(struct state *s, enum side side, int lineno, const char *t)
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

/* Keeps for side the line t and the lines from p on (up to line `last`
 * of the order, 0 for all; lineno is t's), in order, without blanks and
 * comments. */
static void hold_rest(struct state *s, enum side side, const char *t,
		      const char *p, int last, int lineno, struct order_result *res)
{
	struct strbuf held = STRBUF_INIT, cur = STRBUF_INIT;
	int n = 0;

	for (;;) {
		char *line = xstrdup(t);
		const char *b = line;
		strip_comment(line);
		while (*b == ' ' || *b == '\t')
			b++;
		if (*b && held.len + strlen(b) + 2 < STATE_HELD_MAX) {
			strbuf_addf(&held, "%s%s", held.len ? "\n" : "", b);
			n++;
			seal_line(s, side, lineno, b);
		}
		free(line);
		if (!*p || (last && lineno >= last))
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
static void drop_held(struct state *s, enum side side, const char *first_line,
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

static void answer_standing(const struct data *d, struct state *s, struct rng *r,
			    struct order_result *res);

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
		if (!engine_game_over(s) && s->prompt.side != side && interrupted(s)) {
			/* cut again: the rest waits again */
			hold_rest(s, side, line, p, 0, 0, res);
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
		if (parse_line(d, s, side, line, &a, &why, &column, &note) == 0 &&
		    !engine_game_over(s) &&
		    (a.kind == ACT_REACT || s->prompt.side == side)) {
			size_t loglen = res->log.len;
			if (engine_apply(d, s, &a, r, &res->log, &why) == ENGINE_OK) {
				action_format(d, &a, &res->actions);
				strbuf_addch(&res->actions, '\n');
				res->applied++;
				applied++;
				answer_standing(d, s, r, res);
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
		drop_held(s, side, line, why.buf, n_left, &res->log);
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

/*
 * Conditional standing orders (docs/orders.md, "Standing orders"):
 * "if battle [at SPACE]: battle CARD | discard CARD | none",
 * "if intercepted: ..." (a battle after an interception, the same
 * answers), "if attacked [at SPACE]: retreat SPACE | stand" (the
 * American's retreat before battle). Kept sealed in the side's private
 * state, canonical, one a line, and used once when the decision comes.
 */
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
			c->general = find_general(d, name, why);
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

/* An "if ..." line of side's order: stores, replaces or withdraws a
 * standing order. 0, or -1 with the reason (the order is refused). */
static int cond_line(const struct data *d, struct state *s, enum side side,
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
	if (parse_line(d, s, side, answer, &a, why, &column, &note) < 0)
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
	if ((a.kind == ACT_BATTLE || a.kind == ACT_DISCARD) && !hand_has(s, side, a.card)) {
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
static void answer_standing(const struct data *d, struct state *s, struct rng *r,
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
		int parsed = parse_line(d, s, k, answer, &a, &why, &column, &note);
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

/* After an action: the other side's held lines run if the decision has
 * come back to him. */
static void resume_held(const struct data *d, struct state *s, struct rng *r,
			enum side side, struct order_result *res)
{
	enum side h = OTHER_SIDE(side);

	if (s->held[h][0] && !engine_game_over(s) && s->prompt.side == h)
		run_held(d, s, r, h, res);
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
		strip_comment(line);
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
		    interrupted(s) && ascii_strncasecmp(t, "never", 5) &&
		    ascii_strncasecmp(t, "ask", 3) && ascii_strncasecmp(t, "resign", 6)) {
			/* the other side must answer first: the rest waits */
			hold_rest(s, side, t, p, first ? last : 0, lineno, res);
			free(line);
			break;
		}
		if (!ascii_strncasecmp(t, "if", 2) && (t[2] == ' ' || t[2] == '\t')) {
			/* a conditional standing order: sealed, not public */
			if (cond_line(d, s, side, t, res, &why) == 0) {
				seal_line(s, side, lineno, t);
				res->applied++;
				free(line);
				continue;
			}
			column = (int)(t - line) + 1;
		} else if (first && prose_line(t)) {
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
		} else if (parse_line(d, s, side, line, &a, &why, &column, &note) == 0) {
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
				answer_standing(d, s, r, res);
				resume_held(d, s, r, side, res);
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
				    (unsupported && hand_has(s, side, a.card)) ||
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
		    (engine_game_over(s) || !(s->prompt.side == side && interrupted(s)))) {
			int n = 1;
			for (const char *q = s->held[h]; *q; q++)
				n += *q == '\n';
			char first_line[STATE_HELD_MAX];
			size_t fl = strcspn(s->held[h], "\n");
			memcpy(first_line, s->held[h], fl);
			first_line[fl] = '\0';
			drop_held(s, h, first_line, "the decision did not come back to you", n, &res->log);
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
