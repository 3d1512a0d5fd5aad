/*
 * data-prov.c - provenance: which facts of the component data a source
 * confirms (docs/data.md, "Provenance"), the counts per kind of fact that
 * `postrider data --check` prints, and whether a card is marked in what
 * players see.
 *
 * A record's `source:` is read as clauses separated by ';'. The clause
 * "unverified" leaves every fact of the record unsourced; a clause
 * "A, B and C unverified" leaves the facts A, B and C unsourced (a fact is
 * named by an item's last word: "rest of title" names the title, "exact
 * effect" the effect); every other fact of a record with a source is
 * sourced.
 */
#include "data.h"
#include "data-internal.h"

#include <ctype.h>
#include <string.h>

/* True if the phrase item (n bytes) ends with the word word. */
static bool ends_with_word(const char *item, size_t n, const char *word)
{
	size_t w = strlen(word);

	if (n < w || ascii_strncasecmp(item + n - w, word, w))
		return false;
	return n == w || item[n - w - 1] == ' ';
}

/* True if the item (a phrase of an "... unverified" clause) names word:
 * it ends with the word, a plural 's' allowed ("other effects"). */
static bool item_names(const char *item, size_t n, const char *word)
{
	return ends_with_word(item, n, word) ||
	       (n > 1 && item[n - 1] == 's' && ends_with_word(item, n - 1, word));
}

/* True if the list "A, B and C" names one of facts (NULL: any). */
static bool list_names(const char *p, size_t len, const char *const *facts)
{
	if (!facts)
		return true;
	while (len) {
		size_t n = 0, skip;

		while (n < len && p[n] != ',' &&
		       !(n + 5 <= len && !strncmp(p + n, " and ", 5)))
			n++;
		skip = n < len ? (p[n] == ',' ? 1 : 5) : 0;
		{
			const char *item = p;
			size_t m = n;
			while (m && *item == ' ')
				item++, m--;
			while (m && item[m - 1] == ' ')
				m--;
			for (int i = 0; facts[i]; i++)
				if (m && item_names(item, m, facts[i]))
					return true;
		}
		p += n + skip;
		len -= n + skip;
	}
	return false;
}

bool data_source_covers(const char *source, const char *const *facts)
{
	const char *p = source;
	static const char tail[] = " unverified";

	if (!p)
		return false;
	while (*p == ' ')
		p++;
	if (!*p)
		return false;
	while (*p) {
		size_t n = strcspn(p, ";"), m = n;
		const char *c = p;

		while (m && *c == ' ')
			c++, m--;
		while (m && c[m - 1] == ' ')
			m--;
		if (m == strlen("unverified") &&
		    !ascii_strncasecmp(c, "unverified", m))
			return false;
		if (m > strlen(tail) &&
		    !ascii_strncasecmp(c + m - strlen(tail), tail, strlen(tail)) &&
		    list_names(c, m - strlen(tail), facts))
			return false;
		p += n + (p[n] == ';');
	}
	return true;
}

static const char *const title_facts[] = { "title", NULL };
static const char *const effect_facts[] = {
	"effect", "count", "colonies", "side", NULL
};
static const char *const number_facts[] = { "number", NULL };
static const char *const value_facts[] = { "value", NULL };

bool data_card_title_sourced(const struct data_card *c)
{
	return c->ops > 0 || data_source_covers(c->src.source, title_facts);
}

bool data_card_effect_sourced(const struct data_card *c)
{
	if (c->ops > 0)
		return true;	/* an OPS card does what rule 6.2 says */
	return data_source_covers(c->src.source, effect_facts);
}

bool data_card_marked(const struct data_card *c)
{
	return !data_card_title_sourced(c) || !data_card_effect_sourced(c);
}

bool data_deck_printed(const struct data *d)
{
	for (int n = 1; n <= d->n_cards; n++) {
		const struct data_card *c = &d->cards[n];

		if (data_card_marked(c) ||
		    !data_source_covers(c->src.source, number_facts) ||
		    (c->ops && !data_source_covers(c->src.source, value_facts)))
			return false;
	}
	return true;
}

int data_cards_marked(const struct data *d)
{
	int k = 0;

	for (int n = 1; n <= d->n_cards; n++)
		k += data_card_marked(&d->cards[n]);
	return k;
}

/* ---- The counts of `data --check` ---------------------------------------- */

struct tally {
	int yes, all;
};

static void count(struct tally *t, const struct data_source *src,
		  const char *const *facts)
{
	t->all++;
	t->yes += data_source_covers(src->source, facts);
}

static void row(struct strbuf *out, const char *kind, struct tally t)
{
	strbuf_addf(out, "| %s | %d | %d | %d |\n", kind, t.yes, t.all - t.yes,
		    t.all);
}

void data_provenance(const struct data *d, struct strbuf *out)
{
	static const char *const name[] = { "name", NULL };
	static const char *const colony[] = { "colony", "name", NULL };
	static const char *const shape[] = { "shape", NULL };
	static const char *const position[] = { "position", NULL };
	static const char *const port[] = { "port", NULL };
	static const char *const side[] = { "side", "start", NULL };
	static const char *const ratings[] = {
		"rating", "strategy", "battle", "agility", "value", NULL
	};
	static const char *const reinf[] = { "reinforcements", NULL };
	static const char *const removal[] = { "removal", NULL };
	static const char *const form[] = { "machine form", NULL };
	struct tally t[20];
	int k = 0;

	memset(t, 0, sizeof(t));
	for (int i = 0; i < d->n_colonies; i++)
		count(&t[0], &d->colonies[i].src, NULL);
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *s = &d->spaces[i];

		count(&t[1], &s->src, name);
		count(&t[2], &s->src, colony);
		count(&t[3], &s->src, shape);
		count(&t[4], &s->src, position);
		if (s->port)
			count(&t[5], &s->src, port);
		if (s->fortified)
			count(&t[6], &s->src, shape);
	}
	for (int i = 0; i < d->n_zones; i++)
		count(&t[7], &d->zones[i].src, NULL);
	for (int i = 0; i < d->n_connections; i++)
		count(&t[8], &d->connections[i].src, NULL);
	for (int i = 0; i < d->n_generals; i++) {
		count(&t[9], &d->generals[i].src, side);
		count(&t[10], &d->generals[i].src, ratings);
	}
	for (int i = 0; i < d->n_setup; i++)
		count(&t[11], &d->setup[i].src, NULL);
	for (int i = 0; i < d->n_years; i++)
		count(&t[12], &d->years[i].src, reinf);
	for (int n = 1; n <= d->n_cards; n++) {
		const struct data_card *c = &d->cards[n];

		count(&t[13], &c->src, number_facts);
		if (c->ops) {
			count(&t[14], &c->src, value_facts);
			continue;
		}
		t[15].all++;
		t[15].yes += data_card_title_sourced(c);
		t[16].all++;
		t[16].yes += data_card_effect_sourced(c);
		count(&t[17], &c->src, removal);
		count(&t[18], &c->src, form);
	}
	strbuf_addstr(out, "| kind of fact | sourced | unsourced | in all |\n"
		      "|--------------|---------|-----------|--------|\n");
	row(out, "colonies", t[k++]);
	row(out, "space names", t[k++]);
	row(out, "space colonies", t[k++]);
	row(out, "space shapes", t[k++]);
	row(out, "space positions (x, y)", t[k++]);
	row(out, "ports", t[k++]);
	row(out, "fortified ports", t[k++]);
	row(out, "blockade zones", t[k++]);
	row(out, "connections", t[k++]);
	row(out, "generals' side and start", t[k++]);
	row(out, "generals' ratings", t[k++]);
	row(out, "set-up lines", t[k++]);
	row(out, "British reinforcements by year", t[k++]);
	row(out, "card numbers", t[k++]);
	row(out, "OPS values (the OPS split)", t[k++]);
	row(out, "event titles", t[k++]);
	row(out, "event effects", t[k++]);
	row(out, "event removal after play", t[k++]);
	row(out, "events' machine form checked against the card", t[k++]);
	(void)k;
}
