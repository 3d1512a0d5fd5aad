/*
 * data-sheet.c - the component data as plain sheets a person fills in
 * from the printed game (`postrider data sheet`, `postrider data import`;
 * docs/data.md, "Sheets").
 *
 * A sheet is a tab-separated text file with a header row: one row a
 * record, one column a key. Importing turns every row into one line of
 * YAML in the schema of docs/data.md (a flow mapping, the keys in the
 * order of the sheet's columns) and loads the result with
 * data_load_texts(), so that every check of the loader and of
 * data_check() applies; each message of the loader, which names a line
 * and column of the YAML, is taken back to the sheet's file, row and
 * column through a map kept while writing.
 */
#include "data.h"
#include "data-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum ctype {
	T_TEXT,		/* any text, written as a quoted YAML string */
	T_WORD,		/* a word of the schema (side, shape...): quoted too */
	T_INT,		/* a whole number */
	T_BOOL,		/* yes/no (also true/false); empty is no */
	T_LIST,		/* items separated by ';' */
	T_FLOW,		/* effects: YAML flow mappings, as in cards.yaml */
};

struct column {
	const char *name;	/* header; also the YAML key */
	enum ctype type;
};

struct sheet {
	const char *file;
	enum data_file yaml;	/* the file its rows go to */
	const char *list;	/* the YAML list of the rows */
	const struct column *cols;
};

static const struct column colony_cols[] = {
	{ "name", T_TEXT }, { "code", T_TEXT }, { "canada", T_BOOL },
	{ "south_of_winter_line", T_BOOL }, { "source", T_TEXT }, { NULL, 0 }
};
static const struct column space_cols[] = {
	{ "name", T_TEXT }, { "colony", T_TEXT }, { "shape", T_WORD },
	{ "port", T_BOOL }, { "x", T_INT }, { "y", T_INT },
	{ "aliases", T_LIST }, { "source", T_TEXT }, { NULL, 0 }
};
static const struct column general_cols[] = {
	{ "name", T_TEXT }, { "side", T_WORD }, { "nation", T_WORD },
	{ "strategy", T_INT }, { "battle", T_INT }, { "agility", T_INT },
	{ "retreat_bonus", T_INT }, { "never_to_reinforcements", T_BOOL },
	{ "source", T_TEXT }, { NULL, 0 }
};
static const struct column zone_cols[] = {
	{ "name", T_TEXT }, { "ports", T_LIST }, { "source", T_TEXT },
	{ NULL, 0 }
};
static const struct column connection_cols[] = {
	{ "from", T_TEXT }, { "to", T_TEXT }, { "wilderness", T_BOOL },
	{ "only", T_TEXT }, { "source", T_TEXT }, { NULL, 0 }
};
static const struct column setup_cols[] = {
	{ "nation", T_WORD }, { "space", T_TEXT }, { "box", T_WORD },
	{ "general", T_TEXT }, { "cus", T_INT }, { "pc", T_BOOL },
	{ "congress", T_BOOL }, { "french_navy", T_BOOL },
	{ "source", T_TEXT }, { NULL, 0 }
};
static const struct column turn_cols[] = {
	{ "year", T_INT }, { "british_reinforcements", T_INT },
	{ "source", T_TEXT }, { NULL, 0 }
};
/* numbers.tsv: counters.yaml and the two counts that end setup.yaml */
static const struct column number_cols[] = {
	{ "what", T_WORD }, { "nation", T_WORD }, { "count", T_INT },
	{ "source", T_TEXT }, { NULL, 0 }
};
static const struct column card_cols[] = {
	{ "number", T_INT }, { "title", T_TEXT }, { "ops", T_INT },
	{ "side", T_WORD }, { "battle_card", T_BOOL }, { "special", T_BOOL },
	{ "removed_after_play", T_BOOL }, { "reshuffle", T_WORD },
	{ "war_ends_year", T_INT }, { "campaign", T_INT },
	{ "set_aside_until_1776", T_BOOL }, { "by_player", T_BOOL },
	{ "text", T_TEXT }, { "handler", T_WORD }, { "effects", T_FLOW },
	{ "source", T_TEXT }, { NULL, 0 }
};

enum { S_COLONIES, S_SPACES, S_GENERALS, S_ZONES, S_CONNECTIONS, S_SETUP,
       S_TURNS, S_NUMBERS, S_CARDS };

static const struct sheet sheets[DATA_N_SHEETS] = {
	[S_COLONIES] = { "colonies.tsv", F_COLONIES, "colonies", colony_cols },
	[S_SPACES] = { "spaces.tsv", F_SPACES, "spaces", space_cols },
	[S_GENERALS] = { "generals.tsv", F_GENERALS, "generals", general_cols },
	[S_ZONES] = { "zones.tsv", F_ZONES, "zones", zone_cols },
	[S_CONNECTIONS] = { "connections.tsv", F_CONNECTIONS, "connections",
			    connection_cols },
	[S_SETUP] = { "setup.tsv", F_SETUP, "pieces", setup_cols },
	[S_TURNS] = { "turns.tsv", F_TURNS, "years", turn_cols },
	[S_NUMBERS] = { "numbers.tsv", F_COUNTERS, "cus", number_cols },
	[S_CARDS] = { "cards.tsv", F_CARDS, "cards", card_cols },
};

const char *data_sheet_name(int i)
{
	return i >= 0 && i < DATA_N_SHEETS ? sheets[i].file : NULL;
}

static int n_cols(const struct sheet *sh)
{
	int n = 0;

	while (sh->cols[n].name)
		n++;
	return n;
}

/* ---- Writing sheets ------------------------------------------------------ */

/* One row being written: its cells in column order. */
struct out_row {
	const char *cell[20];
	char *owned[20];
};

static void cell(struct out_row *r, const struct sheet *sh, const char *col,
		 const char *value)
{
	for (int i = 0; sh->cols[i].name; i++)
		if (!strcmp(sh->cols[i].name, col)) {
			r->cell[i] = value;
			return;
		}
	BUG("sheet %s has no column %s", sh->file, col);
}

static void cellf(struct out_row *r, const struct sheet *sh, const char *col,
		  char *owned)
{
	for (int i = 0; sh->cols[i].name; i++)
		if (!strcmp(sh->cols[i].name, col)) {
			r->owned[i] = owned;
			r->cell[i] = owned;
			return;
		}
	BUG("sheet %s has no column %s", sh->file, col);
}

static void cell_int(struct out_row *r, const struct sheet *sh,
		     const char *col, int v, bool zero)
{
	if (v || zero)
		cellf(r, sh, col, xstrfmt("%d", v));
}

static void cell_bool(struct out_row *r, const struct sheet *sh,
		      const char *col, bool v)
{
	cell(r, sh, col, v ? "yes" : "");
}

/* Appends the row; a cell that starts with '"' is quoted as a
 * spreadsheet does. Returns -1 if a value holds a tab or a line break. */
static int emit_row(struct strbuf *out, const struct sheet *sh,
		    struct out_row *r, struct strbuf *err)
{
	int ret = 0;

	for (int i = 0; sh->cols[i].name; i++) {
		const char *v = r->cell[i] ? r->cell[i] : "";

		if (i)
			strbuf_addch(out, '\t');
		if (strpbrk(v, "\t\r\n")) {
			strbuf_addf(err, "%s: the value '%s' of column '%s' holds a "
				    "tab or a line break: a sheet cannot hold it\n",
				    sh->file, v, sh->cols[i].name);
			ret = -1;
		}
		if (*v == '"') {
			strbuf_addch(out, '"');
			for (const char *p = v; *p; p++) {
				if (*p == '"')
					strbuf_addch(out, '"');
				strbuf_addch(out, *p);
			}
			strbuf_addch(out, '"');
		} else {
			strbuf_addstr(out, v);
		}
		free(r->owned[i]);
	}
	strbuf_addch(out, '\n');
	memset(r, 0, sizeof(*r));
	return ret;
}

static void emit_header(struct strbuf *out, const struct sheet *sh)
{
	for (int i = 0; sh->cols[i].name; i++)
		strbuf_addf(out, "%s%s", i ? "\t" : "", sh->cols[i].name);
	strbuf_addch(out, '\n');
}

static const char *const side_words[] = { "none", "american", "british" };
static const char *const nation_words[] = { "american", "british", "french" };
static const char *const shape_words[] = { "circle", "square", "star" };
static const char *const resh_words[] = { "", "when_played", "when_discarded" };

/* The short name of a full name in a colony ("Basset Town PA" -> "Basset
 * Town"), as spaces.yaml spells aliases. */
static char *short_name(const struct data *d, int colony, const char *full)
{
	const struct data_colony *c = &d->colonies[colony];
	size_t n = strlen(full), k = strlen(c->code);

	if (!c->canada && n > k + 1 && full[n - k - 1] == ' ' &&
	    !strcmp(full + n - k, c->code))
		return xstrndup(full, n - k - 1);
	return xstrdup(full);
}

/* A card's effects in the flow form of cards.yaml. */
static char *effects_text(const struct data *d, const struct data_card *c)
{
	struct strbuf b = STRBUF_INIT;

	for (int i = 0; i < c->n_effects; i++) {
		const struct data_effect *e = &c->effects[i];

		strbuf_addf(&b, "%s{verb: %s", i ? ", " : "",
			    effect_verbs[e->verb].name);
		if (e->count)
			strbuf_addf(&b, ", count: %d", e->count);
		if (e->colonies_mask) {
			int k = 0;
			strbuf_addstr(&b, ", colonies: [");
			for (int j = 0; j < d->n_colonies; j++)
				if (e->colonies_mask & (1 << j))
					strbuf_addf(&b, "%s%s", k++ ? ", " : "",
						    d->colonies[j].code);
			strbuf_addch(&b, ']');
		}
		if (e->where) {
			strbuf_addstr(&b, ", where: \"");
			for (const char *p = e->where; *p; p++) {
				if (*p == '"' || *p == '\\')
					strbuf_addch(&b, '\\');
				strbuf_addch(&b, *p);
			}
			strbuf_addch(&b, '"');
		}
		if (e->amount)
			strbuf_addf(&b, ", amount: %d", e->amount);
		strbuf_addch(&b, '}');
	}
	return strbuf_detach(&b, NULL);
}

/* A row of the numbers sheet that is no nation's count of CUs. */
static int number_row(struct out_row *r, const char *what, int count,
		      const char *source, struct strbuf *out, struct strbuf *err)
{
	const struct sheet *sh = &sheets[S_NUMBERS];

	cell(r, sh, "what", what);
	cell_int(r, sh, "count", count, true);
	cell(r, sh, "source", source);
	return emit_row(out, sh, r, err);
}

/* The colonies, the spaces, the zones and the connections. */
static int sheet_map(const struct data *d, struct out_row *r,
		     struct strbuf out[DATA_N_SHEETS], struct strbuf *err)
{
	const struct sheet *sh;
	int ret = 0;

	sh = &sheets[S_COLONIES];
	for (int i = 0; i < d->n_colonies; i++) {
		const struct data_colony *c = &d->colonies[i];
		cell(r, sh, "name", c->name);
		cell(r, sh, "code", c->code);
		cell_bool(r, sh, "canada", c->canada);
		cell_bool(r, sh, "south_of_winter_line", c->south_of_winter_line);
		cell(r, sh, "source", c->src.source);
		ret |= emit_row(&out[S_COLONIES], sh, r, err);
	}
	sh = &sheets[S_SPACES];
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *s = &d->spaces[i];
		struct strbuf al = STRBUF_INIT;

		for (int j = 0; j < s->n_aliases; j++) {
			char *a = short_name(d, s->colony, s->aliases[j]);
			strbuf_addf(&al, "%s%s", j ? "; " : "", a);
			free(a);
		}
		cell(r, sh, "name", s->name);
		cell(r, sh, "colony", d->colonies[s->colony].code);
		cell(r, sh, "shape", shape_words[s->shape]);
		cell_bool(r, sh, "port", s->port);
		cell_int(r, sh, "x", s->x, true);
		cell_int(r, sh, "y", s->y, true);
		cellf(r, sh, "aliases", strbuf_detach(&al, NULL));
		cell(r, sh, "source", s->src.source);
		ret |= emit_row(&out[S_SPACES], sh, r, err);
	}
	sh = &sheets[S_ZONES];
	for (int i = 0; i < d->n_zones; i++) {
		struct strbuf ports = STRBUF_INIT;

		for (int s = 0; s < d->n_spaces; s++)
			if (d->spaces[s].zone == i)
				strbuf_addf(&ports, "%s%s", ports.len ? "; " : "",
					    d->spaces[s].full_name);
		cell(r, sh, "name", d->zones[i].name);
		cellf(r, sh, "ports", strbuf_detach(&ports, NULL));
		cell(r, sh, "source", d->zones[i].src.source);
		ret |= emit_row(&out[S_ZONES], sh, r, err);
	}
	sh = &sheets[S_CONNECTIONS];
	for (int i = 0; i < d->n_connections; i++) {
		const struct data_connection *c = &d->connections[i];
		cell(r, sh, "from", d->spaces[c->a].full_name);
		cell(r, sh, "to", d->spaces[c->b].full_name);
		cell_bool(r, sh, "wilderness", c->wilderness);
		if (c->only_general >= 0)
			cell(r, sh, "only", d->generals[c->only_general].name);
		cell(r, sh, "source", c->src.source);
		ret |= emit_row(&out[S_CONNECTIONS], sh, r, err);
	}
	return ret;
}

/* The generals, the set-up, the turn track and the counter mix. */
static int sheet_pieces(const struct data *d, struct out_row *r,
			struct strbuf out[DATA_N_SHEETS], struct strbuf *err)
{
	const struct sheet *sh;
	int ret = 0;

	sh = &sheets[S_GENERALS];
	for (int i = 0; i < d->n_generals; i++) {
		const struct data_general *g = &d->generals[i];
		cell(r, sh, "name", g->name);
		cell(r, sh, "side", side_words[g->side]);
		cell(r, sh, "nation", nation_words[g->nation]);
		cell_int(r, sh, "strategy", g->strategy, true);
		cell_int(r, sh, "battle", g->battle, true);
		cell_int(r, sh, "agility", g->agility, true);
		cell_int(r, sh, "retreat_bonus", g->retreat_bonus, false);
		cell_bool(r, sh, "never_to_reinforcements", g->never_to_reinforcements);
		cell(r, sh, "source", g->src.source);
		ret |= emit_row(&out[S_GENERALS], sh, r, err);
	}
	sh = &sheets[S_SETUP];
	for (int i = 0; i < d->n_setup; i++) {
		const struct data_setup *p = &d->setup[i];
		cell(r, sh, "nation", nation_words[p->nation]);
		if (p->where == SETUP_SPACE && p->space >= 0)
			cell(r, sh, "space", d->spaces[p->space].full_name);
		else
			cell(r, sh, "box", p->where == SETUP_FRENCH_BOX
				  ? "french" : "reinforcements");
		if (p->general >= 0)
			cell(r, sh, "general", d->generals[p->general].name);
		cell_int(r, sh, "cus", p->cus, false);
		cell_bool(r, sh, "pc", p->pc);
		cell_bool(r, sh, "congress", p->congress);
		cell_bool(r, sh, "french_navy", p->french_navy);
		cell(r, sh, "source", p->src.source);
		ret |= emit_row(&out[S_SETUP], sh, r, err);
	}
	sh = &sheets[S_TURNS];
	for (int i = 0; i < d->n_years; i++) {
		cell_int(r, sh, "year", d->years[i].year, true);
		cell_int(r, sh, "british_reinforcements",
			 d->years[i].british_reinforcements, true);
		cell(r, sh, "source", d->years[i].src.source);
		ret |= emit_row(&out[S_TURNS], sh, r, err);
	}
	sh = &sheets[S_NUMBERS];
	for (int i = 0; i < 3; i++) {
		cell(r, sh, "what", "cus");
		cell(r, sh, "nation", nation_words[i]);
		cell_int(r, sh, "count", d->cu_pool[i], true);
		cell(r, sh, "source", d->cu_src[i].source);
		ret |= emit_row(&out[S_NUMBERS], sh, r, err);
	}
	ret |= number_row(r, "pc_markers", d->pc_markers,
			  d->pc_markers_src.source, &out[S_NUMBERS], err);
	ret |= number_row(r, "committees_of_correspondence",
			  d->committees_pcs_per_colony, d->committees_src.source,
			  &out[S_NUMBERS], err);
	ret |= number_row(r, "for_the_king", d->for_the_king_pcs,
			  d->for_the_king_src.source, &out[S_NUMBERS], err);
	return ret;
}

/* The cards. */
static int sheet_cards(const struct data *d, struct out_row *r,
		       struct strbuf out[DATA_N_SHEETS], struct strbuf *err)
{
	const struct sheet *sh;
	int ret = 0;

	sh = &sheets[S_CARDS];
	for (int n = 1; n <= d->n_cards; n++) {
		const struct data_card *c = &d->cards[n];
		char *ops_title = xstrfmt("%d OPS", c->ops);

		cell_int(r, sh, "number", n, true);
		if (!c->ops || strcmp(c->title, ops_title))
			cell(r, sh, "title", c->title);
		free(ops_title);
		cell_int(r, sh, "ops", c->ops, false);
		if (!c->ops) {
			cell(r, sh, "side", side_words[c->side]);
			cell_bool(r, sh, "battle_card", c->battle_card);
			cell_bool(r, sh, "special", c->special);
			cell_bool(r, sh, "removed_after_play", c->removed_after_play);
			cell(r, sh, "reshuffle", resh_words[c->reshuffle]);
			cell_int(r, sh, "war_ends_year", c->war_ends_year, false);
			cell_int(r, sh, "campaign", c->campaign, false);
			cell_bool(r, sh, "set_aside_until_1776", c->set_aside_until_1776);
			cell_bool(r, sh, "by_player", c->by_player);
			cell(r, sh, "text", c->text);
			if (c->handler != HANDLER_NONE)
				cell(r, sh, "handler", card_handlers[c->handler]);
			if (c->n_effects)
				cellf(r, sh, "effects", effects_text(d, c));
		}
		cell(r, sh, "source", c->src.source);
		ret |= emit_row(&out[S_CARDS], sh, r, err);
	}
	return ret;
}

int data_sheet_texts(const struct data *d, struct strbuf out[DATA_N_SHEETS],
		     struct strbuf *err)
{
	struct out_row r;
	int ret = 0;

	memset(&r, 0, sizeof(r));
	for (int i = 0; i < DATA_N_SHEETS; i++)
		emit_header(&out[i], &sheets[i]);
	ret |= sheet_map(d, &r, out, err);
	ret |= sheet_pieces(d, &r, out, err);
	ret |= sheet_cards(d, &r, out, err);
	return ret;
}

/* ---- Reading sheets ------------------------------------------------------ */

/* Where a YAML line's keys came from. */
struct key_at {
	int ycol;		/* 1-based column of the key in the YAML line */
	int col;		/* 1-based column of the sheet */
	const char *name;	/* the sheet's column name */
};

struct line_at {
	int sheet, row;
	int n;
	struct key_at keys[24];
};

/* One YAML file being written, with the origin of each of its lines. */
struct yout {
	struct strbuf *text;
	struct line_at *lines;
	int n, alloc;
};

/* The import: the YAML being written and the problems found. */
struct importer {
	const char *dir;
	struct yout y[F_COUNT];
	struct strbuf *errs;
	int nerr;
	/* rows with a problem of the sheet: the loader's messages on
	 * them would only repeat it */
	unsigned char *bad[DATA_N_SHEETS];
	int bad_len[DATA_N_SHEETS];
	int where[DATA_N_SHEETS][24];	/* struct parsed's, kept */
};

static void PRINTF_LIKE(5, 6) sheet_err(struct importer *im, int sheet,
					int row, int col, const char *fmt, ...)
{
	va_list ap;

	strbuf_addf(im->errs, "%s/%s:%d:%d: ", im->dir, sheets[sheet].file,
		    row, col);
	va_start(ap, fmt);
	strbuf_vaddf(im->errs, fmt, ap);
	va_end(ap);
	strbuf_addch(im->errs, '\n');
	im->nerr++;
	if (row >= 0 && row < im->bad_len[sheet])
		im->bad[sheet][row] = 1;
}

/* Starts a YAML line that comes from a sheet's row (row 1: the header,
 * for the lines no row makes). */
static struct line_at *yline(struct yout *y, int sheet, int row)
{
	struct line_at *l;

	if (y->n == y->alloc) {
		y->alloc = y->alloc ? 2 * y->alloc : 64;
		y->lines = xrealloc(y->lines, (size_t)y->alloc * sizeof(*y->lines));
	}
	l = &y->lines[y->n++];
	memset(l, 0, sizeof(*l));
	l->sheet = sheet;
	l->row = row;
	return l;
}

static void ytext(struct yout *y, int sheet, const char *text)
{
	yline(y, sheet, 1);
	strbuf_addf(y->text, "%s\n", text);
}

/* The column of the current (last) line where the next byte goes. */
static int ycol(const struct yout *y)
{
	const char *nl = y->text->len ? memrchr(y->text->buf, '\n', y->text->len) : NULL;

	return (int)(y->text->len - (nl ? (size_t)(nl - y->text->buf) + 1 : 0)) + 1;
}

static void yquote(struct strbuf *out, const char *s, size_t n)
{
	strbuf_addch(out, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, s[i]);
	}
	strbuf_addch(out, '"');
}

/* A cell of a row, as read (unquoted, spaces trimmed). */
struct in_cell {
	char *text;
};

/* Splits a line into cells: tab-separated; a cell wrapped in double
 * quotes (as spreadsheets write one) is unwrapped, "" giving ". Returns
 * the number of cells, or -1 with *bad the column of an unclosed quote. */
static int split_cells(const char *line, size_t len, char ***cells, int *bad)
{
	int n = 0, alloc = 8;
	size_t i = 0;

	*cells = xcalloc((size_t)alloc, sizeof(**cells));
	for (;;) {
		struct strbuf c = STRBUF_INIT;
		size_t start = i, end;

		if (i < len && line[i] == '"') {
			i++;
			for (;;) {
				if (i >= len) {
					*bad = n + 1;
					strbuf_release(&c);
					for (int k = 0; k < n; k++)
						free((*cells)[k]);
					free(*cells);
					*cells = NULL;
					return -1;
				}
				if (line[i] == '"' && i + 1 < len && line[i + 1] == '"') {
					strbuf_addch(&c, '"');
					i += 2;
				} else if (line[i] == '"') {
					i++;
					break;
				} else {
					strbuf_addch(&c, line[i++]);
				}
			}
			while (i < len && line[i] != '\t')
				strbuf_addch(&c, line[i++]);
		} else {
			while (i < len && line[i] != '\t')
				i++;
			end = i;
			while (start < end && line[start] == ' ')
				start++;
			while (end > start && line[end - 1] == ' ')
				end--;
			strbuf_add(&c, line + start, end - start);
		}
		if (n == alloc) {
			alloc *= 2;
			*cells = xrealloc(*cells, (size_t)alloc * sizeof(**cells));
		}
		(*cells)[n++] = strbuf_detach(&c, NULL);
		if (i >= len)
			break;
		i++;	/* the tab */
	}
	return n;
}

static void free_cells(char **cells, int n)
{
	for (int i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

/* The parsed sheet: for each spec column, the file's column (0: absent). */
struct parsed {
	int where[24];		/* spec column -> 1-based file column */
	int nrows;
	int *rowno;		/* file line of each data row */
	char ***cells;		/* [row][spec column], NULL if empty */
};

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* Reads one sheet's text into p; problems of its shape go to im. */
static void parse_sheet(struct importer *im, int si, const char *text,
			size_t len, struct parsed *p)
{
	const struct sheet *sh = &sheets[si];
	int nc = n_cols(sh), lineno = 0, filecols = 0;
	const char *q = text, *end = text + len;
	int *colmap = NULL;	/* file column -> spec column, -1 unknown */

	memset(p, 0, sizeof(*p));
	if (len >= 3 && !memcmp(q, "\xef\xbb\xbf", 3))
		q += 3;		/* a byte-order mark */
	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		size_t n = nl ? (size_t)(nl - q) : (size_t)(end - q);
		char **cells;
		int k, bad = 0;
		bool empty = true;

		lineno++;
		if (n && q[n - 1] == '\r')
			n--;
		if (memchr(q, '\0', n)) {
			sheet_err(im, si, lineno, 1, "a NUL byte in the row");
			q += n + 1;
			continue;
		}
		k = split_cells(q, n, &cells, &bad);
		q = nl ? nl + 1 : end;
		if (k < 0) {
			sheet_err(im, si, lineno, bad, "a cell opens a double quote "
				  "it never closes");
			continue;
		}
		if (lineno == 1) {
			filecols = k;
			colmap = xcalloc((size_t)k, sizeof(*colmap));
			for (int c = 0; c < k; c++) {
				colmap[c] = -1;
				for (int s = 0; s < nc; s++)
					if (!ascii_strcasecmp(cells[c], sh->cols[s].name))
						colmap[c] = s;
				if (colmap[c] < 0) {
					sheet_err(im, si, 1, c + 1, "unknown column '%s' "
						  "(the columns of %s are in docs/data.md)",
						  cells[c], sh->file);
				} else if (p->where[colmap[c]]) {
					sheet_err(im, si, 1, c + 1, "column '%s' "
						  "twice (first in column %d)", cells[c],
						  p->where[colmap[c]]);
					colmap[c] = -1;
				} else {
					p->where[colmap[c]] = c + 1;
				}
			}
			for (int s = 0; s < nc; s++)
				if (!p->where[s])
					sheet_err(im, si, 1, 1, "missing column '%s'",
						  sh->cols[s].name);
			free_cells(cells, k);
			continue;
		}
		for (int c = 0; c < k; c++)
			if (*cells[c])
				empty = false;
		if (empty) {
			free_cells(cells, k);
			continue;	/* a blank row */
		}
		p->rowno = xrealloc(p->rowno, (size_t)(p->nrows + 1) * sizeof(*p->rowno));
		p->cells = xrealloc(p->cells, (size_t)(p->nrows + 1) * sizeof(*p->cells));
		p->rowno[p->nrows] = lineno;
		p->cells[p->nrows] = xcalloc((size_t)nc, sizeof(char *));
		for (int c = 0; c < k; c++) {
			if (c >= filecols || colmap[c] < 0) {
				if (*cells[c])
					sheet_err(im, si, lineno, c + 1, "a value "
						  "in a column without a known "
						  "header ('%s')", cells[c]);
				continue;
			}
			if (has_control(cells[c])) {
				sheet_err(im, si, lineno, c + 1, "%s: a control "
					  "character in the cell",
					  sh->cols[colmap[c]].name);
				continue;
			}
			if (*cells[c]) {
				p->cells[p->nrows][colmap[c]] = cells[c];
				cells[c] = NULL;
			}
		}
		p->nrows++;
		free_cells(cells, k);
	}
	if (!lineno)
		sheet_err(im, si, 1, 1, "the sheet is empty: it needs its header "
			  "row");
	free(colmap);
}

static void free_parsed(struct parsed *p, int nc)
{
	for (int r = 0; r < p->nrows; r++) {
		for (int c = 0; c < nc; c++)
			free(p->cells[r][c]);
		free(p->cells[r]);
	}
	free(p->cells);
	free(p->rowno);
}

/* Checks a cell of a typed column; false after reporting it. */
static bool cell_ok(struct importer *im, int si, int row, int col,
		    const struct column *c, const char *v)
{
	switch (c->type) {
	case T_INT: {
		const char *s = v + (*v == '-');
		size_t n = strlen(s);
		if (!n || n > 6 || strspn(s, "0123456789") != n) {
			sheet_err(im, si, row, col, "%s: '%s' is not a whole number",
				  c->name, v);
			return false;
		}
		return true;
	}
	case T_BOOL:
		if (!ascii_strcasecmp(v, "yes") || !ascii_strcasecmp(v, "no") ||
		    !ascii_strcasecmp(v, "true") || !ascii_strcasecmp(v, "false"))
			return true;
		sheet_err(im, si, row, col, "%s: '%s' is neither yes nor no",
			  c->name, v);
		return false;
	case T_FLOW: {
		int depth = 0;
		char quote = 0;
		for (const char *p = v; *p; p++) {
			if (quote) {
				if (*p == '\\' && quote == '"' && p[1])
					p++;
				else if (*p == quote)
					quote = 0;
			} else if (*p == '"' || *p == '\'') {
				quote = *p;
			} else if (*p == '[' || *p == '{') {
				depth++;
			} else if (*p == ']' || *p == '}') {
				if (--depth < 0)
					break;
			} else if (*p == '#' || *p == '&' || *p == '*' || *p == '!' ||
				   *p == '|' || *p == '>' || *p == '%' || *p == '@' ||
				   *p == '`') {
				if (!depth || p == v || p[-1] == ' ') {
					sheet_err(im, si, row, col, "%s: '%c' has no "
						  "place in an effect", c->name, *p);
					return false;
				}
			}
		}
		if (quote || depth) {
			sheet_err(im, si, row, col, "%s: unbalanced %s in '%s'",
				  c->name, quote ? "quotes" : "brackets", v);
			return false;
		}
		if (*v != '{') {
			sheet_err(im, si, row, col, "%s: an effect is written "
				  "{verb: ..., ...}, not '%s'", c->name, v);
			return false;
		}
		return true;
	}
	case T_LIST: {
		const char *p = v;
		while (*p) {
			size_t n = strcspn(p, ";");
			const char *a = p, *b = p + n;
			while (a < b && *a == ' ')
				a++;
			if (a == b) {
				sheet_err(im, si, row, col, "%s: an empty item in "
					  "'%s' (items are separated by ';')",
					  c->name, v);
				return false;
			}
			p += n + (p[n] == ';');
		}
		return true;
	}
	case T_TEXT:
	case T_WORD:
		return true;
	}
	return true;
}

/* Appends "key: value" for a cell to the current YAML line. */
static void put_key(struct yout *y, struct line_at *l, const char *key,
		    const struct column *c, int col, const char *v)
{
	if (l->n)
		strbuf_addstr(y->text, ", ");
	if (l->n < (int)ARRAY_SIZE(l->keys)) {
		l->keys[l->n].ycol = ycol(y);
		l->keys[l->n].col = col;
		l->keys[l->n].name = c->name;
		l->n++;
	}
	strbuf_addf(y->text, "%s: ", key);
	switch (c->type) {
	case T_INT:
		strbuf_addstr(y->text, v);
		break;
	case T_BOOL:
		strbuf_addstr(y->text, (!ascii_strcasecmp(v, "yes") ||
					!ascii_strcasecmp(v, "true")) ? "true" : "false");
		break;
	case T_FLOW:
		strbuf_addf(y->text, "[%s]", v);
		break;
	case T_LIST: {
		const char *p = v;
		int k = 0;
		strbuf_addch(y->text, '[');
		while (*p) {
			size_t n = strcspn(p, ";");
			const char *a = p, *b = p + n;
			while (a < b && *a == ' ')
				a++;
			while (b > a && b[-1] == ' ')
				b--;
			strbuf_addstr(y->text, k++ ? ", " : "");
			yquote(y->text, a, (size_t)(b - a));
			p += n + (p[n] == ';');
		}
		strbuf_addch(y->text, ']');
		break;
	}
	case T_TEXT:
	case T_WORD:
		yquote(y->text, v, strlen(v));
		break;
	}
}

/* Writes one row as a flow mapping on a line of its own; skip: a
 * NULL-ended list of columns left out; rename: the key for column
 * "count" (numbers.tsv), or NULL. */
static void put_row(struct importer *im, struct yout *y, int si,
		    const struct parsed *p, int r, const char *prefix,
		    const char *const *skip, const char *rename)
{
	const struct sheet *sh = &sheets[si];
	struct line_at *l = yline(y, si, p->rowno[r]);

	strbuf_addf(y->text, "%s{", prefix);
	for (int c = 0; sh->cols[c].name; c++) {
		const char *v = p->cells[r][c];
		bool skipped = false;

		for (int k = 0; skip && skip[k]; k++)
			if (!strcmp(skip[k], sh->cols[c].name))
				skipped = true;
		if (!v || skipped)
			continue;
		if (!cell_ok(im, si, p->rowno[r], p->where[c], &sh->cols[c], v))
			continue;
		if (sh->cols[c].type == T_BOOL && (!ascii_strcasecmp(v, "no") ||
						   !ascii_strcasecmp(v, "false")))
			continue;	/* absent is false */
		put_key(y, l, rename && !strcmp(sh->cols[c].name, "count") ? rename
			: sh->cols[c].name, &sh->cols[c], p->where[c], v);
	}
	strbuf_addstr(y->text, "}\n");
}

/* numbers.tsv: the counter mix and the set-up's final PC placements. */
static void put_numbers(struct importer *im, const struct parsed *p)
{
	static const char *const skip_what[] = { "what", NULL };
	static const char *const skip_map[] = { "what", "nation", NULL };
	struct yout *cy = &im->y[F_COUNTERS], *sy = &im->y[F_SETUP];
	int wc = 0;		/* the "what" column */

	ytext(cy, S_NUMBERS, "# Imported from the sheets (postrider data import): edit them, not this file.");
	ytext(cy, S_NUMBERS, "cus:");
	for (int r = 0; r < p->nrows; r++) {
		const char *w = p->cells[r][wc];
		if (w && !strcmp(w, "cus"))
			put_row(im, cy, S_NUMBERS, p, r, "  - ", skip_what, NULL);
	}
	for (int r = 0; r < p->nrows; r++) {
		const char *w = p->cells[r][wc];
		struct yout *y = NULL;
		const char *key = NULL, *rename = NULL;

		if (!w) {
			sheet_err(im, S_NUMBERS, p->rowno[r], p->where[wc],
				  "what: empty (cus, pc_markers, "
				  "committees_of_correspondence or for_the_king)");
			continue;
		}
		if (!strcmp(w, "cus"))
			continue;
		if (!strcmp(w, "pc_markers")) {
			y = cy, key = "pc_markers", rename = "count";
		} else if (!strcmp(w, "committees_of_correspondence")) {
			y = sy, key = w, rename = "pcs_per_colony";
		} else if (!strcmp(w, "for_the_king")) {
			y = sy, key = w, rename = "pcs";
		} else {
			sheet_err(im, S_NUMBERS, p->rowno[r], p->where[wc],
				  "what: unknown '%s' (cus, pc_markers, "
				  "committees_of_correspondence or for_the_king)", w);
			continue;
		}
		if (p->cells[r][1]) {
			sheet_err(im, S_NUMBERS, p->rowno[r], p->where[1],
				  "nation: '%s' has no nation", w);
			continue;
		}
		{
			char *prefix = xstrfmt("%s: ", key);
			put_row(im, y, S_NUMBERS, p, r, prefix, skip_map, rename);
			free(prefix);
		}
	}
}

/* Appends msg with each "line N" of the YAML y turned into the row of
 * the sheet it came from ("duplicate card #5 (first at row 6)"). */
static void add_rows(struct strbuf *out, const struct yout *y, const char *msg)
{
	const char *p = msg, *hit;

	while ((hit = strstr(p, "line ")) && hit[5] >= '0' && hit[5] <= '9') {
		int n = atoi(hit + 5);
		strbuf_add(out, p, (size_t)(hit - p));
		if (n >= 1 && n <= y->n)
			strbuf_addf(out, "row %d", y->lines[n - 1].row);
		else
			strbuf_addf(out, "line %d", n);
		p = hit + 5 + strspn(hit + 5, "0123456789");
	}
	strbuf_addstr(out, p);
}

int data_sheet_import(const char *dir, struct strbuf sheet_texts[DATA_N_SHEETS],
		      struct strbuf yaml[DATA_N_FILES], struct strbuf *errs)
{
	struct importer im;
	struct parsed p[DATA_N_SHEETS];
	struct strbuf lerrs = STRBUF_INIT;
	struct data *d;
	char *pseudo = NULL;

	memset(&im, 0, sizeof(im));
	im.dir = dir;
	im.errs = errs;
	for (int f = 0; f < F_COUNT; f++)
		im.y[f].text = &yaml[f];
	for (int s = 0; s < DATA_N_SHEETS; s++) {
		int lines = 2;
		for (size_t i = 0; i < sheet_texts[s].len; i++)
			lines += sheet_texts[s].buf[i] == '\n';
		im.bad_len[s] = lines + 1;
		im.bad[s] = xcalloc((size_t)im.bad_len[s], 1);
		parse_sheet(&im, s, strbuf_str(&sheet_texts[s]), sheet_texts[s].len,
			    &p[s]);
	}
	/* The rows, sheet by sheet, into the files of the schema; setup.yaml
	 * gets its pieces first and the two counts of numbers.tsv after. */
	for (int s = 0; s < DATA_N_SHEETS; s++) {
		struct yout *y = &im.y[sheets[s].yaml];
		char *head;

		if (s == S_NUMBERS)
			continue;
		ytext(y, s, "# Imported from the sheets (postrider data import): edit them, not this file.");
		head = xstrfmt("%s:%s", sheets[s].list, p[s].nrows ? "" : " []");
		ytext(y, s, head);
		free(head);
		for (int r = 0; r < p[s].nrows; r++)
			put_row(&im, y, s, &p[s], r, "  - ", NULL, NULL);
	}
	put_numbers(&im, &p[S_NUMBERS]);
	for (int s = 0; s < DATA_N_SHEETS; s++) {
		memcpy(im.where[s], p[s].where, sizeof(im.where[s]));
		free_parsed(&p[s], n_cols(&sheets[s]));
	}

	/* Load what was written and take each message back to its sheet. */
	{
		struct strbuf texts[F_COUNT];
		for (int f = 0; f < F_COUNT; f++) {
			strbuf_init(&texts[f]);
			strbuf_add(&texts[f], yaml[f].buf, yaml[f].len);
		}
		pseudo = xstrfmt("%s/.import", dir);
		d = data_load_texts(pseudo, "import", texts, &lerrs);
		data_free(d);
	}
	for (const char *q = strbuf_str(&lerrs); *q;) {
		size_t n = strcspn(q, "\n");
		char *line = xstrndup(q, n);
		int f, yl = 0, yc = 0, used = 0;

		q += n + (q[n] == '\n');
		for (f = 0; f < F_COUNT; f++) {
			char *pre = xstrfmt("%s/%s:", pseudo, data_file_names[f]);
			size_t pl = strlen(pre);
			bool match = !strncmp(line, pre, pl) &&
				     sscanf(line + pl, "%d:%d: %n", &yl, &yc, &used) == 2;
			if (match)
				used += (int)pl;
			free(pre);
			if (match)
				break;
		}
		if (f == F_COUNT || yl < 1) {
			strbuf_addf(errs, "%s\n", line);	/* not expected */
			im.nerr++;
		} else {
			struct yout *y = &im.y[f];
			const struct line_at *l = yl <= y->n ? &y->lines[yl - 1] : NULL;
			int si = l ? l->sheet : 0, row = l ? l->row : 1, col = 1;
			const char *msg = line + used, *name = NULL;

			if (!l)		/* past the end: the file's sheet */
				for (int s = 0; s < DATA_N_SHEETS; s++)
					if (sheets[s].yaml == (enum data_file)f) {
						si = s;
						break;
					}
			for (int k = 0; l && k < l->n; k++)
				if (l->keys[k].ycol <= yc) {
					col = l->keys[k].col;
					name = l->keys[k].name;
				}
			/* a message on the whole record that names a column */
			if (l && l->n && yc < l->keys[0].ycol + 1)
				for (int c = 0; sheets[si].cols[c].name; c++) {
					char *quoted = xstrfmt("'%s'", sheets[si].cols[c].name);
					if (strstr(msg, quoted) && im.where[si][c]) {
						name = sheets[si].cols[c].name;
						col = im.where[si][c];
					}
					free(quoted);
				}
			if (row < im.bad_len[si] && im.bad[si][row] && row > 1) {
				free(line);
				continue;	/* already reported on this row */
			}
			strbuf_addf(errs, "%s/%s:%d:%d: %s%s", dir, sheets[si].file,
				    row, col, name ? name : "", name ? ": " : "");
			add_rows(errs, y, msg);
			strbuf_addch(errs, '\n');
			im.nerr++;
		}
		free(line);
	}
	strbuf_release(&lerrs);
	free(pseudo);
	for (int f = 0; f < F_COUNT; f++)
		free(im.y[f].lines);
	for (int s = 0; s < DATA_N_SHEETS; s++)
		free(im.bad[s]);
	return im.nerr;
}
