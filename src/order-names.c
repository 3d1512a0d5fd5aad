/*
 * order-names.c - names in orders: spaces, cards, generals and blockade
 * zones by the words of their names, each a prefix; typos told with the
 * nearest spellings (docs/orders.md, "Names of spaces", "Cards").
 */
#include "order-internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lowercases and keeps letters, digits and single spaces: "St. Mary's GA"
 * becomes "st marys ga". */
void order_normalize(const char *in, char *out, size_t n)
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

/* The edit distance of a and b where a swap of two neighbouring letters
 * is one edit, as an insertion, a deletion or a change is ("aFlmouth"
 * for Falmouth: the commonest typo of all). Three rows suffice. */
int order_levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *row = xcalloc(3 * (lb + 1), sizeof(int)), res;
	int *two = row, *one = row + lb + 1, *cur = row + 2 * (lb + 1);

	for (size_t j = 0; j <= lb; j++)
		one[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int best = one[j - 1] + (a[i - 1] != b[j - 1]);
			if (one[j] + 1 < best)
				best = one[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    two[j - 2] + 1 < best)
				best = two[j - 2] + 1;
			cur[j] = best;
		}
		int *t = two;
		two = one;
		one = cur;
		cur = t;
	}
	res = one[lb];
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
	if (order_levenshtein(rw, nw) <= 1)
		return true;
	nw[cut] = '\0';
	if (order_levenshtein(rw, nw) <= 1)
		return true;
	nw[cut > 0 ? cut - 1 : 0] = '\0';
	return cut > rl && order_levenshtein(rw, nw) <= 1;
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
void order_suggest(const char *ref, const char *const *names, int n,
		    struct strbuf *err)
{
	int best[3] = { -1, -1, -1 }, dist[3] = { 1 << 30, 1 << 30, 1 << 30 };
	int pick[3], n_pick = 0;
	char a[128], b[128];

	order_normalize(ref, a, sizeof(a));
	for (int i = 0; i < n; i++) {
		order_normalize(names[i], b, sizeof(b));
		int dd = order_levenshtein(a, b);
		char *sp = strrchr(b, ' ');
		if (sp) {
			*sp = '\0';
			int d2 = order_levenshtein(a, b);
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
		order_normalize(names[i], b, sizeof(b));
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
	order_normalize(ref, r, sizeof(r));
	for (int i = 0; i < d->n_spaces; i++) {
		bool ex, hit;
		names[i] = d->spaces[i].full_name;
		order_normalize(d->spaces[i].full_name, nm, sizeof(nm));
		hit = words_match(r, nm, &ex);
		if (hit && ex)
			exact = i;
		order_normalize(d->spaces[i].name, nm, sizeof(nm));
		bool bex = false;
		if (words_match(r, nm, &bex) && bex)
			hit = true;
		for (int k = 0; k < d->spaces[i].n_aliases; k++) {
			bool aex = false;
			order_normalize(d->spaces[i].aliases[k], nm, sizeof(nm));
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
		order_suggest(ref, names, d->n_spaces, err);
		return -1;
	}
	strbuf_addf(err, "'%s' is ambiguous: ", ref);
	for (int k = 0; k < n && k < 6; k++)
		strbuf_addf(err, "%s'%s'", k ? (k + 1 == n ? " or " : ", ") : "",
			    d->spaces[found[k]].full_name);
	if (n > 6)
		strbuf_addf(err, " and %d more", n - 6);
	return ORDER_AMBIGUOUS;
}

/* Is r (two to five letters, no blank) the initials of the first words
 * of the normalized name? */
static bool initials_of(const char *r, const char *name)
{
	size_t n = strlen(r);
	const char *w = name;

	if (n < 2 || n > 5 || strchr(r, ' '))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!*w || *w != r[i] || !isalpha((unsigned char)r[i]))
			return false;
		w += strcspn(w, " ");
		while (*w == ' ')
			w++;
	}
	return true;
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
	order_normalize(p, r, sizeof(r));
	for (int c = 1; c <= d->n_cards; c++) {
		bool ex;
		names[c - 1] = d->cards[c].title;
		order_normalize(d->cards[c].title, nm, sizeof(nm));
		if (words_match(r, nm, &ex)) {
			found[n++] = c;
			if (ex)
				exact[n_exact++] = c;
		}
	}
	/* Then any distinctive word or words of the title, in any place:
	 * "franklin", "de grasse", "kings mountain". */
	for (int c = 1; !n && *r && c <= d->n_cards; c++) {
		order_normalize(d->cards[c].title, nm, sizeof(nm));
		if (words_in(r, nm, false))
			found[n++] = c;
	}
	/* Then the initials of its first words: "jpj", "bf". */
	for (int c = 1; !n && *r && c <= d->n_cards; c++) {
		order_normalize(d->cards[c].title, nm, sizeof(nm));
		if (initials_of(r, nm))
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
				if (!CARD_IS_SLOT(s->hand[side][h]) &&	/* docs/peer.md 12 */
				    !d->cards[s->hand[side][h]].ops)
					mine[n_mine++] = d->cards[s->hand[side][h]].title;
			order_suggest(ref, mine, n_mine, err);
		} else {
			order_suggest(ref, names, d->n_cards, err);
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
	return ORDER_AMBIGUOUS;
}

/* A blockade zone by name, its words as prefixes: "chesapeake",
 * "long island", "st law". -1 with a message if none or several. */
int order_find_zone(const struct data *d, const char *ref, struct strbuf *err)
{
	char want[128], name[128];
	int found = -1, n = 0;
	bool exact;

	order_normalize(ref, want, sizeof(want));
	for (int z = 0; *want && z < d->n_zones; z++) {
		order_normalize(d->zones[z].name, name, sizeof(name));
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

/* A general by name or by a unique beginning of it ("wash", "corn"), or
 * -1 with a message (unknown, with suggestions, or ambiguous). */
int order_find_general(const struct data *d, const char *ref,
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
		order_suggest(ref, names, d->n_generals, err);
	}
	return g;
}

int order_general_word(const struct data *d, const char *word)
{
	int g = data_general_index(d, word), hit = -1, n = 0;
	size_t len = strlen(word);

	if (g >= 0 || len < 3)
		return g;
	for (int i = 0; i < d->n_generals; i++)
		if (!ascii_strncasecmp(d->generals[i].name, word, len)) {
			hit = i;
			n++;
		}
	return n == 1 ? hit : -1;
}

/* Does the normalized reference r name space i: each word a beginning of
 * a word of its full name, bare name or another spelling (nearly: the
 * whole of one of them within one edit, for four letters or more)? */
bool order_space_fits(const struct data *d, int i, const char *r, bool nearly)
{
	const struct data_space *sp = &d->spaces[i];
	char nm[128];
	bool ex;

	for (int k = -2; k < sp->n_aliases; k++) {
		order_normalize(k == -2 ? sp->full_name : k == -1 ? sp->name : sp->aliases[k],
			  nm, sizeof(nm));
		if (!nearly ? words_match(r, nm, &ex) :
		    strlen(r) >= 4 && order_levenshtein(r, nm) <= 1)
			return true;
	}
	return false;
}
