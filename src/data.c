/*
 * data.c - what goes with the types of data.h: the names of the data
 * files, the look-ups by name, and data_free(). Loading is data-load.c,
 * the checks data-check.c, the dump data-dump.c; all of them stand on
 * this file.
 */
#include "data.h"
#include "data-internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const data_file_names[F_COUNT] = {
	"colonies.yaml", "spaces.yaml", "generals.yaml", "zones.yaml",
	"connections.yaml", "setup.yaml", "turns.yaml", "counters.yaml",
	"cards.yaml",
};

_Static_assert(F_COUNT == DATA_N_FILES, "DATA_N_FILES in data.h");

/* Appends a message positioned at a record's source (data-internal.h). */
void data_src_err(struct strbuf *errs, int *count, const struct data_source *src,
		  const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(errs, "%s:%d:%d: ", src->file ? src->file : "(data)",
		    src->line, src->column);
	va_start(ap, fmt);
	strbuf_vaddf(errs, fmt, ap);
	va_end(ap);
	strbuf_addch(errs, '\n');
	(*count)++;
}

/* Index of a space by full name or alias (case-insensitive), or -1. */
int data_space_index(const struct data *d, const char *full_name)
{
	if (!d || !full_name)
		return -1;
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *s = &d->spaces[i];

		if (!ascii_strcasecmp(s->full_name, full_name))
			return i;
		for (int j = 0; j < s->n_aliases; j++)
			if (!ascii_strcasecmp(s->aliases[j], full_name))
				return i;
	}
	return -1;
}

int data_general_index(const struct data *d, const char *name)
{
	if (!d || !name)
		return -1;
	for (int i = 0; i < d->n_generals; i++)
		if (!ascii_strcasecmp(d->generals[i].name, name))
			return i;
	return -1;
}

int data_colony_index(const struct data *d, const char *name_or_code)
{
	if (!d || !name_or_code)
		return -1;
	for (int i = 0; i < d->n_colonies; i++)
		if (!ascii_strcasecmp(d->colonies[i].name, name_or_code) ||
		    !ascii_strcasecmp(d->colonies[i].code, name_or_code))
			return i;
	return -1;
}

int data_zone_index(const struct data *d, const char *name)
{
	if (!d || !name)
		return -1;
	for (int i = 0; i < d->n_zones; i++)
		if (!ascii_strcasecmp(d->zones[i].name, name))
			return i;
	return -1;
}

bool data_adjacent(const struct data *d, int a, int b)
{
	if (!d || a < 0 || a >= d->n_spaces || b < 0 || b >= d->n_spaces)
		return false;
	for (int i = 0; i < d->spaces[a].n_adj; i++)
		if (d->spaces[a].adj[i].to == b &&
		    d->spaces[a].adj[i].only_general < 0)
			return true;
	return false;
}

const char *data_file_name(int i)
{
	return i >= 0 && i < F_COUNT ? data_file_names[i] : NULL;
}

/*
 * Calls visit on every string the data owns (the address of the field), in
 * one fixed order. data_free() walks the data with it,
 * so a new string field is added here once.
 */
static void walk_strings(struct data *d, void (*visit)(char **field, void *ctx),
			 void *ctx)
{
	visit(&d->game, ctx);
	visit(&d->dir, ctx);
	for (int i = 0; i < d->n_files; i++)
		visit(&d->files[i], ctx);
	for (int i = 0; i < d->n_colonies; i++) {
		visit(&d->colonies[i].name, ctx);
		visit(&d->colonies[i].code, ctx);
		visit(&d->colonies[i].src.source, ctx);
	}
	for (int i = 0; i < d->n_zones; i++) {
		visit(&d->zones[i].name, ctx);
		visit(&d->zones[i].src.source, ctx);
	}
	for (int i = 0; i < d->n_spaces; i++) {
		struct data_space *s = &d->spaces[i];

		visit(&s->name, ctx);
		visit(&s->full_name, ctx);
		for (int j = 0; j < s->n_aliases; j++)
			visit(&s->aliases[j], ctx);
		visit(&s->src.source, ctx);
	}
	for (int i = 0; i < d->n_connections; i++)
		visit(&d->connections[i].src.source, ctx);
	for (int i = 0; i < d->n_generals; i++) {
		visit(&d->generals[i].name, ctx);
		visit(&d->generals[i].src.source, ctx);
	}
	for (int n = 1; n <= DATA_MAX_CARDS; n++) {
		struct data_card *c = &d->cards[n];

		if (!c->number)
			continue;
		visit(&c->title, ctx);
		visit(&c->label, ctx);
		visit(&c->text, ctx);
		for (int j = 0; j < c->n_effects; j++)
			visit(&c->effects[j].where, ctx);
		visit(&c->src.source, ctx);
	}
	for (int i = 0; i < d->n_setup; i++)
		visit(&d->setup[i].src.source, ctx);
	for (int i = 0; i < d->n_years; i++)
		visit(&d->years[i].src.source, ctx);
	for (int i = 0; i < 3; i++)
		visit(&d->cu_src[i].source, ctx);
	visit(&d->pc_markers_src.source, ctx);
	visit(&d->committees_src.source, ctx);
	visit(&d->for_the_king_src.source, ctx);
}

static void free_field(char **field, void *ctx)
{
	(void)ctx;
	free(*field);
	*field = NULL;
}

void data_free(struct data *d)
{
	if (!d)
		return;
	walk_strings(d, free_field, NULL);
	free(d);
}
