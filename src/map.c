/*
 * map.c - the map as a picture: spaces, connections, who holds each
 * space (the PC) apart from whose pieces stand there, and a side panel
 * with the tracks, the boxes and the victory count, with a legend. Drawn
 * once as a list of shapes (map.h), written here as SVG; map-png.c paints
 * the same list into a PNG.
 *
 * Labels are placed so that none overlaps another label, a space or a
 * piece marker: each label tries a ring of positions around its space,
 * nearest first, and takes the first free one (a farther ring gets a
 * leader line). Text widths are estimated (MAP_CHAR_W per character);
 * tests/e2e/t-map.sh checks the result from the SVG alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "map.h"

#include <ctype.h>
#include <math.h>

#define MAP_CHAR_W 6.3	/* average width of a character at font-size 10 */
#define MAP_LINE_H 12.0	/* a line of text: 8.5 above the baseline, 2.5 below */
#define MAP_NODE_R 9
#define MAP_PANEL_W 250
#define MAP_MAX_LABELS (2 * DATA_MAX_SPACES)

struct box {
	double x0, y0, x1, y1;
};

static double overlap(const struct box *a, const struct box *b)
{
	double w = (a->x1 < b->x1 ? a->x1 : b->x1) - (a->x0 > b->x0 ? a->x0 : b->x0);
	double h = (a->y1 < b->y1 ? a->y1 : b->y1) - (a->y0 > b->y0 ? a->y0 : b->y0);
	return w > 0 && h > 0 ? w * h : 0;
}

struct placer {
	struct box taken[4 * DATA_MAX_SPACES];
	int n;
	double w, h;		/* the drawing area (without the panel) */
};

/*
 * Finds a place for a text of len characters by the space at (x, y): the
 * baseline's start into *tx, *ty; true if it stands away from the space
 * (a leader line is drawn).
 */
static bool place(struct placer *pl, int x, int y, size_t len, double *tx,
		  double *ty)
{
	double w = (double)len * MAP_CHAR_W, h = MAP_LINE_H, best = -1;
	struct box pick = { 0, 0, 0, 0 };
	bool far = false;

	for (int ring = 0; ring < 6; ring++) {
		double g = 2 + ring * 12;	/* gap between the space and the text */
		double r = MAP_NODE_R + g;
		/* right, left, below, above, the four corners, then between */
		static const double ux[16] = { 1, -1, 0, 0, 0.7, -0.7, 0.7, -0.7,
						0.9, -0.9, 0.9, -0.9, 0.4, -0.4, 0.4, -0.4 };
		static const double uy[16] = { 0, 0, 1, -1, 0.7, 0.7, -0.7, -0.7,
						0.4, 0.4, -0.4, -0.4, 0.9, 0.9, -0.9, -0.9 };
		for (int k = 0; k < 16; k++) {
			/* the text's box touches the circle of radius r at the
			 * point in direction (ux, uy) */
			double px = x + ux[k] * r, py = y + uy[k] * r;
			double bx = ux[k] > 0.1 ? px : ux[k] < -0.1 ? px - w : px - w / 2;
			double by = uy[k] > 0.1 ? py : uy[k] < -0.1 ? py - h : py - h / 2;
			struct box b = { bx, by, bx + w, by + h };
			double o = 0;
			if (b.x0 < 2 || b.y0 < 2 || b.x1 > pl->w - 2 || b.y1 > pl->h - 2)
				continue;
			for (int i = 0; i < pl->n; i++)
				o += overlap(&b, &pl->taken[i]);
			if (best < 0 || o < best) {
				best = o;
				pick = b;
				far = ring >= 2;
			}
			if (o == 0)
				goto found;
		}
	}
found:
	if (best < 0) {		/* nowhere inside: to the right, as it comes */
		pick = (struct box){ x + MAP_NODE_R + 2, y - h / 2, x + MAP_NODE_R + 2 + w, y + h / 2 };
		far = false;
	}
	if (pl->n < (int)(sizeof(pl->taken) / sizeof(pl->taken[0])))
		pl->taken[pl->n++] = pick;
	*tx = pick.x0;
	*ty = pick.y0 + 9.5;
	return far;
}

const struct map_font_desc map_fonts[MAP_FONT__COUNT] = {
	[MAP_NAME] = { "name", "#222222", false },
	[MAP_PIECES_A] = { "pieces-a", "#1f4e8c", true },
	[MAP_PIECES_B] = { "pieces-b", "#9c2a1f", true },
	[MAP_PIECES_M] = { "pieces-m", "#5b3c88", true },
	[MAP_PANEL] = { "panel", "#222222", false },
	[MAP_PANEL_H] = { "panel-h", "#222222", true },
};

/* Appends a shape to the picture; returns it for further touches. */
static struct map_item *put(struct map_picture *pic, struct map_item it)
{
	if (pic->n == pic->alloc) {
		pic->alloc = pic->alloc ? 2 * pic->alloc : 512;
		pic->item = xrealloc(pic->item, (size_t)pic->alloc * sizeof(*pic->item));
	}
	pic->item[pic->n] = it;
	return &pic->item[pic->n++];
}

static struct map_item *rect(struct map_picture *pic, double x, double y,
			     double w, double h, const char *fill,
			     const char *stroke, double stroke_width)
{
	return put(pic, (struct map_item){ .shape = MAP_RECT, .x1 = x, .y1 = y,
		   .x2 = w, .y2 = h, .fill = fill, .stroke = stroke,
		   .stroke_width = stroke_width });
}

static struct map_item *circle(struct map_picture *pic, double x, double y,
			       double r, const char *fill, const char *stroke,
			       double stroke_width)
{
	return put(pic, (struct map_item){ .shape = MAP_CIRCLE, .x1 = x, .y1 = y,
		   .r = r, .fill = fill, .stroke = stroke,
		   .stroke_width = stroke_width });
}

static struct map_item *line(struct map_picture *pic, double x1, double y1,
			     double x2, double y2, const char *stroke,
			     double stroke_width)
{
	return put(pic, (struct map_item){ .shape = MAP_LINE, .x1 = x1, .y1 = y1,
		   .x2 = x2, .y2 = y2, .stroke = stroke,
		   .stroke_width = stroke_width });
}

static void dashed(struct map_item *it, double on, double off)
{
	it->dash_on = on;
	it->dash_off = off;
}

static void text_at(struct map_picture *pic, double x, double y,
		    enum map_font font, const char *text)
{
	put(pic, (struct map_item){ .shape = MAP_TEXT, .x1 = x, .y1 = y,
	    .font = font, .text = xstrdup(text) });
}

static const char *pc_fill(enum side pc)
{
	return pc == SIDE_AMERICAN ? "#3b6fb6" : pc == SIDE_BRITISH ? "#c0392b" : "#f4f1e8";
}

/* The pieces in a space as one text: "A5 F2 B3 Washington Howe". */
static void pieces_text(const struct data *d, const struct state *s, int i,
			struct strbuf *out)
{
	const struct space_state *sp = &s->space[i];
	const char *sep = "";

	if (sp->cu[NATION_AMERICAN]) {
		strbuf_addf(out, "A%d", sp->cu[NATION_AMERICAN]);
		sep = " ";
	}
	if (sp->cu[NATION_FRENCH]) {
		strbuf_addf(out, "%sF%d", sep, sp->cu[NATION_FRENCH]);
		sep = " ";
	}
	if (sp->cu[NATION_BRITISH]) {
		strbuf_addf(out, "%sB%d", sep, sp->cu[NATION_BRITISH]);
		sep = " ";
	}
	for (int g = 0; g < d->n_generals; g++)
		if (s->general[g] == i) {
			strbuf_addf(out, "%s%s %d-%d-%d", sep, d->generals[g].name,
				    d->generals[g].strategy, d->generals[g].battle,
				    d->generals[g].agility);
			sep = " ";
		}
	if (s->congress == i)
		strbuf_addf(out, "%sCongress", sep);
}

static void panel(const struct data *d, const struct state *s, double x0,
		  struct map_picture *pic)
{
	double y = 24;
	int col[3];
	enum side w = engine_winner_if_ended(d, s, col);
	struct strbuf buf = STRBUF_INIT;
	int captured = 0, reinf[3] = { 0, 0, 0 };

	rect(pic, x0, 0, MAP_PANEL_W, pic->h, "#f7f3e6", "#999999", 0);
#define LINE(font, ...) do { strbuf_reset(&buf); strbuf_addf(&buf, __VA_ARGS__); \
		text_at(pic, x0 + 10, y, font, buf.buf); y += 15; } while (0)
	if (engine_game_over(s))
		LINE(MAP_PANEL_H, "%d: game over", s->year);
	else
		LINE(MAP_PANEL_H, "%d, card %d of the turn", s->year, s->impulse + 1);
	LINE(MAP_PANEL, "French Alliance: %d of 9%s", s->french_alliance,
	     s->french_allied ? " (allied)" : "");
	LINE(MAP_PANEL, "Regulars' Advantage: %s", s->regulars ? "in effect" : "over");
	if (s->war_ends)
		LINE(MAP_PANEL, "War Ends box: #%d (game may end)", s->war_ends);
	else
		LINE(MAP_PANEL, "War Ends box: empty");
	LINE(MAP_PANEL, "Congress: %s", s->congress >= 0 ? d->spaces[s->congress].full_name : "dispersed");
	for (int g = 0; g < d->n_generals; g++) {
		if (s->general[g] == LOC_CAPTURED)
			captured++;
		else if (s->general[g] == LOC_REINFORCEMENTS)
			reinf[d->generals[g].side]++;
	}
	LINE(MAP_PANEL, "British reinforcements: %d CUs", s->box_cu[NATION_BRITISH]);
	LINE(MAP_PANEL, "French waiting: %d CUs", s->box_cu[NATION_FRENCH]);
	LINE(MAP_PANEL, "Generals in reserve: American %d, British %d", reinf[SIDE_AMERICAN], reinf[SIDE_BRITISH]);
	if (captured)
		LINE(MAP_PANEL, "Captured generals: %d", captured);
	LINE(MAP_PANEL, "Queues: American %d, British %d cards", s->n_queue[SIDE_AMERICAN], s->n_queue[SIDE_BRITISH]);
	y += 6;
	LINE(MAP_PANEL_H, "If the war ended now (13.2)");
	LINE(MAP_PANEL, "American colonies: %d (needs 7)", col[SIDE_AMERICAN]);
	LINE(MAP_PANEL, "British colonies: %d (needs 6)", col[SIDE_BRITISH]);
	LINE(MAP_PANEL, "winner: %s", w == SIDE_AMERICAN ? "the Americans" : "the British");
	y += 6;
	LINE(MAP_PANEL_H, "Colonies");
	for (int k = 0; k < d->n_colonies; k++) {
		enum side c = engine_colony_control(d, s, k);
		rect(pic, x0 + 10, y - 9, 10, 10, pc_fill(c), "#222222", 0);
		strbuf_reset(&buf);
		strbuf_addf(&buf, "%s %s", d->colonies[k].code,
			    c == SIDE_NONE ? "uncontrolled" : side_title(c));
		text_at(pic, x0 + 26, y, MAP_PANEL, buf.buf);
		y += 14;
	}
	y += 6;
	LINE(MAP_PANEL_H, "Legend");
	circle(pic, x0 + 15, y - 4, 6, pc_fill(SIDE_AMERICAN), "#222222", 0);
	text_at(pic, x0 + 26, y, MAP_PANEL, "American PC (red: British)");
	y += 15;
	rect(pic, x0 + 9, y - 10, 12, 12, pc_fill(SIDE_NONE), "#222222", 0);
	text_at(pic, x0 + 26, y, MAP_PANEL, "square: Winter Quarters");
	y += 15;
	rect(pic, x0 + 9, y - 10, 12, 12, pc_fill(SIDE_NONE), "#222222", 3);
	text_at(pic, x0 + 26, y, MAP_PANEL, "thick square: fortified port");
	y += 15;
	dashed(line(pic, x0 + 8, y - 4, x0 + 22, y - 4, "#777777", 0), 4, 3);
	text_at(pic, x0 + 26, y, MAP_PANEL, "wilderness connection");
	y += 15;
	line(pic, x0 + 6, y - 4, x0 + 22, y - 4, "#9c2a1f", 3);
	text_at(pic, x0 + 26, y, MAP_PANEL, "the last order's moves");
	y += 15;
	dashed(circle(pic, x0 + 15, y - 4, 7, NULL, "#e07b00", 3), 3, 2);
	text_at(pic, x0 + 26, y, MAP_PANEL, "a battle of the last order");
	y += 15;
	text_at(pic, x0 + 10, y, MAP_PIECES_A, "A5");
	text_at(pic, x0 + 30, y, MAP_PANEL, "American CUs, F French, B British;");
	y += 14;
	text_at(pic, x0 + 30, y, MAP_PANEL, "generals strategy-battle-agility");
	y += 15;
	circle(pic, x0 + 15, y - 4, 3, "#1d6b3a", NULL, 0);
	text_at(pic, x0 + 26, y, MAP_PANEL, "a port");
#undef LINE
	strbuf_release(&buf);
}

void report_last_order(const struct data *d, const struct state *before,
		       const struct state *s, const char *log,
		       struct map_last *last)
{
	const char *block = log ? log : "";

	memset(last, 0, sizeof(*last));
	/* the last order's block of the log: after its header line */
	for (const char *p = block; (p = strstr(p, "\n-- ")); p++)
		block = p + 1;
	for (int g = 0; before && g < d->n_generals; g++) {
		int from = before->general[g], to = s->general[g];
		if (from == to || to < 0 || last->n_moves >= MAP_LAST_MAX)
			continue;
		last->moves[last->n_moves].general = g;
		last->moves[last->n_moves].from = from;	/* < 0: from a box */
		last->moves[last->n_moves].to = to;
		last->n_moves++;
	}
	for (int i = 0; i < d->n_spaces && last->n_battles < MAP_LAST_MAX; i++) {
		char *pat = xstrfmt("attle in %s", d->spaces[i].full_name);
		const char *hit = strstr(block, pat);
		/* "Battle in Boston MA" must not match "... in Boston MAX" */
		bool is = hit && !isalnum((unsigned char)hit[strlen(pat)]);
		free(pat);
		if (is || (s->battle.active && s->battle.space == i))
			last->battles[last->n_battles++] = i;
	}
}

/* An arrow per general moved by the last order (from his old space, or
 * from the side of the map for one who came from a box), a ring around
 * each battle. */
static void draw_last(const struct data *d, const struct map_last *last,
		      struct map_picture *pic)
{
	for (int i = 0; i < last->n_moves; i++) {
		const struct data_space *b = &d->spaces[last->moves[i].to];
		bool am = d->generals[last->moves[i].general].side == SIDE_AMERICAN;
		double x1, y1, x2 = b->x, y2 = b->y, dx, dy, len;
		struct map_item *it;
		if (last->moves[i].from >= 0) {
			x1 = d->spaces[last->moves[i].from].x;
			y1 = d->spaces[last->moves[i].from].y;
		} else {	/* from a box: a short arrow from above */
			x1 = x2 - 30;
			y1 = y2 - 30;
		}
		/* stop short of the space's edge */
		dx = x2 - x1;
		dy = y2 - y1;
		len = sqrt(dx * dx + dy * dy);
		if (len < 1)
			continue;
		x2 -= dx / len * (MAP_NODE_R + 3);
		y2 -= dy / len * (MAP_NODE_R + 3);
		if (len < 40) {	/* neighbours close together: a visible arrow */
			x1 = x2 - dx / len * 30;
			y1 = y2 - dy / len * 30;
		}
		it = line(pic, x1, y1, x2, y2, am ? "#1f4e8c" : "#9c2a1f", 3);
		it->cls = "last-move";
		it->stroke_opacity = 0.8;
		it->arrow = true;
		if (last->moves[i].from < 0)
			dashed(it, 5, 3);
	}
	for (int i = 0; i < last->n_battles; i++) {
		const struct data_space *a = &d->spaces[last->battles[i]];
		struct map_item *it = circle(pic, a->x, a->y, MAP_NODE_R + 5, NULL, "#e07b00", 3);
		it->cls = "last-battle";
		dashed(it, 3, 2);
	}
}

void map_draw(const struct data *d, const struct state *s,
	      const struct map_last *last, struct map_picture *pic)
{
	struct placer *plp = xcalloc(1, sizeof(*plp));
	int maxx = 0, maxy = 0;
	struct strbuf t = STRBUF_INIT;
	double map_w, h;

	memset(pic, 0, sizeof(*pic));
	for (int i = 0; i < d->n_spaces; i++) {
		if (d->spaces[i].x > maxx)
			maxx = d->spaces[i].x;
		if (d->spaces[i].y > maxy)
			maxy = d->spaces[i].y;
	}
	map_w = maxx + 190;	/* room for labels east of the coast */
	h = maxy + 60;
	if (h < 640)
		h = 640;
	plp->w = map_w;
	plp->h = h;
	pic->w = map_w + MAP_PANEL_W;
	pic->h = h;
	pic->year = s->year;
	rect(pic, 0, 0, pic->w, pic->h, "#e8e2cf", NULL, 0);
	/* connections */
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *a = &d->spaces[i];
		for (int k = 0; k < a->n_adj; k++) {
			const struct data_space *b = &d->spaces[a->adj[k].to];
			struct map_item *it;
			if (a->adj[k].to < i)
				continue;
			it = line(pic, a->x, a->y, b->x, b->y, "#8a8270", 0);
			if (a->adj[k].wilderness)
				dashed(it, 4, 3);
		}
	}
	/* the spaces, which labels must not cover */
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *a = &d->spaces[i];
		const char *fill = pc_fill(s->space[i].pc);
		if (a->shape == SHAPE_CIRCLE)
			circle(pic, a->x, a->y, MAP_NODE_R, fill, "#222222", 0);
		else
			rect(pic, a->x - 9, a->y - 9, 18, 18, fill, "#222222",
			     a->shape == SHAPE_STAR ? 3 : 0);
		if (a->port)
			circle(pic, a->x + 7, a->y - 7, 3, "#1d6b3a", NULL, 0);
		plp->taken[plp->n++] = (struct box){ a->x - MAP_NODE_R - 1, a->y - MAP_NODE_R - 1,
						 a->x + MAP_NODE_R + 1, a->y + MAP_NODE_R + 1 };
	}
	if (last)
		draw_last(d, last, pic);
	/* the pieces first (they matter most), then the names */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < d->n_spaces; i++) {
			const struct data_space *a = &d->spaces[i];
			double tx, ty;
			bool far;
			enum map_font font = MAP_NAME;
			strbuf_reset(&t);
			if (pass == 0) {
				const struct space_state *sp = &s->space[i];
				int am = sp->cu[NATION_AMERICAN] + sp->cu[NATION_FRENCH];
				pieces_text(d, s, i, &t);
				if (!t.len)
					continue;
				font = am && sp->cu[NATION_BRITISH] ? MAP_PIECES_M : am ? MAP_PIECES_A :
				       sp->cu[NATION_BRITISH] ? MAP_PIECES_B : MAP_PIECES_M;
			} else {
				strbuf_addstr(&t, a->full_name);
			}
			far = place(plp, a->x, a->y, strlen(t.buf), &tx, &ty);
			if (far)
				line(pic, a->x, a->y, tx + (tx < a->x ? strlen(t.buf) * MAP_CHAR_W : 0),
				     ty - 4, "#444444", 0.8);
			text_at(pic, tx, ty, font, t.buf);
		}
	}
	panel(d, s, map_w, pic);
	strbuf_release(&t);
	free(plp);
}

void map_release(struct map_picture *pic)
{
	for (int i = 0; i < pic->n; i++)
		free(pic->item[i].text);
	free(pic->item);
	memset(pic, 0, sizeof(*pic));
}

/* A length as the SVG writes it: whole numbers bare, others to a tenth. */
static void svg_num(struct strbuf *out, const char *name, double v)
{
	if (v == (double)(long)v)
		strbuf_addf(out, " %s=\"%ld\"", name, (long)v);
	else
		strbuf_addf(out, " %s=\"%.1f\"", name, v);
}

static void svg_escaped(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			strbuf_addstr(out, "&amp;");
		else if (*s == '<')
			strbuf_addstr(out, "&lt;");
		else if (*s == '>')
			strbuf_addstr(out, "&gt;");
		else
			strbuf_addch(out, *s);
	}
}

static void svg_class(struct strbuf *out, const struct map_item *it)
{
	if (it->cls)
		strbuf_addf(out, " class=\"%s\"", it->cls);
}

/* An arrow head's marker per colour, named after it. */
static void svg_markers(const struct map_picture *pic, struct strbuf *out)
{
	const char *done[8];
	int n = 0;

	for (int i = 0; i < pic->n; i++) {
		const struct map_item *it = &pic->item[i];
		bool seen = false;
		if (!it->arrow)
			continue;
		for (int k = 0; k < n; k++)
			seen |= !strcmp(done[k], it->stroke);
		if (seen || n == 8)
			continue;
		if (!n)
			strbuf_addstr(out, "<defs>");
		done[n++] = it->stroke;
		/* markerWidth in stroke widths; the tip 1/10 past the end */
		strbuf_addf(out, "<marker id=\"head-%s\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
			    "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
			    "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>",
			    it->stroke + 1, it->stroke);
	}
	if (n)
		strbuf_addstr(out, "</defs>\n");
}

void map_svg(const struct map_picture *pic, struct strbuf *out)
{
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" font-family=\"%s, sans-serif\" font-size=\"%d\">\n",
		    pic->w, pic->h, pic->w, pic->h, MAP_FONT_FAMILY, MAP_FONT_SIZE);
	strbuf_addf(out, "<title>Washington's War, %d</title>\n", pic->year);
	strbuf_addstr(out, "<style>");
	for (int f = 0; f < MAP_FONT__COUNT; f++)
		strbuf_addf(out, ".%s{fill:%s%s}", map_fonts[f].cls, map_fonts[f].fill,
			    map_fonts[f].bold ? ";font-weight:bold" : "");
	strbuf_addstr(out, "</style>\n");
	svg_markers(pic, out);
	for (int i = 0; i < pic->n; i++) {
		const struct map_item *it = &pic->item[i];
		switch (it->shape) {
		case MAP_TEXT:
			strbuf_addf(out, "<text class=\"%s\"", map_fonts[it->font].cls);
			svg_num(out, "x", it->x1);
			svg_num(out, "y", it->y1);
			strbuf_addch(out, '>');
			svg_escaped(out, it->text);
			strbuf_addstr(out, "</text>\n");
			continue;
		default: {
			/* a shape's element and the names of its lengths */
			static const struct { const char *tag, *len[4]; } el[] = {
				[MAP_RECT] = { "rect", { "x", "y", "width", "height" } },
				[MAP_CIRCLE] = { "circle", { "cx", "cy", "r", NULL } },
				[MAP_LINE] = { "line", { "x1", "y1", "x2", "y2" } },
			};
			double v[4] = { it->x1, it->y1, it->shape == MAP_CIRCLE ? it->r : it->x2, it->y2 };
			strbuf_addf(out, "<%s", el[it->shape].tag);
			svg_class(out, it);
			for (int k = 0; k < 4 && el[it->shape].len[k]; k++)
				svg_num(out, el[it->shape].len[k], v[k]);
		}
		}
		if (it->shape != MAP_LINE)
			strbuf_addf(out, " fill=\"%s\"", it->fill ? it->fill : "none");
		if (it->stroke)
			strbuf_addf(out, " stroke=\"%s\"", it->stroke);
		if (it->stroke_width)
			svg_num(out, "stroke-width", it->stroke_width);
		if (it->stroke_opacity)
			svg_num(out, "stroke-opacity", it->stroke_opacity);
		if (it->dash_on > 0)
			strbuf_addf(out, " stroke-dasharray=\"%g %g\"", it->dash_on, it->dash_off);
		if (it->arrow)
			strbuf_addf(out, " marker-end=\"url(#head-%s)\"", it->stroke + 1);
		strbuf_addstr(out, "/>\n");
	}
	strbuf_addstr(out, "</svg>\n");
}

void report_svg(const struct data *d, const struct state *s, struct strbuf *out)
{
	struct map_picture pic;

	map_draw(d, s, NULL, &pic);
	map_svg(&pic, out);
	map_release(&pic);
}
