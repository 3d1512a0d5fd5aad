/*
 * map.c - the map as an SVG picture: spaces, connections, who holds each
 * space (the PC) apart from whose pieces stand there, and a side panel
 * with the tracks, the boxes and the victory count, with a legend.
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
#include "report.h"

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

static void add_escaped(struct strbuf *out, const char *s)
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

static void text_at(struct strbuf *out, double x, double y, const char *cls,
		    const char *text)
{
	strbuf_addf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">", cls, x, y);
	add_escaped(out, text);
	strbuf_addstr(out, "</text>\n");
}

static void panel(const struct data *d, const struct state *s, double x0,
		  struct strbuf *out)
{
	double y = 24;
	int col[3];
	enum side w = engine_winner_if_ended(d, s, col);
	struct strbuf line = STRBUF_INIT;
	int captured = 0, reinf[3] = { 0, 0, 0 };

	strbuf_addf(out, "<rect x=\"%.0f\" y=\"0\" width=\"%d\" height=\"100%%\" fill=\"#f7f3e6\" stroke=\"#999\"/>\n",
		    x0, MAP_PANEL_W);
#define LINE(cls, ...) do { strbuf_reset(&line); strbuf_addf(&line, __VA_ARGS__); \
		text_at(out, x0 + 10, y, cls, line.buf); y += 15; } while (0)
	if (engine_game_over(s))
		LINE("panel-h", "%d: game over", s->year);
	else
		LINE("panel-h", "%d, card %d of the turn", s->year, s->impulse + 1);
	LINE("panel", "French Alliance: %d of 9%s", s->french_alliance,
	     s->french_allied ? " (allied)" : "");
	LINE("panel", "Regulars' Advantage: %s", s->regulars ? "in effect" : "over");
	if (s->war_ends)
		LINE("panel", "War Ends box: #%d (game may end)", s->war_ends);
	else
		LINE("panel", "War Ends box: empty");
	LINE("panel", "Congress: %s", s->congress >= 0 ? d->spaces[s->congress].full_name : "dispersed");
	for (int g = 0; g < d->n_generals; g++) {
		if (s->general[g] == LOC_CAPTURED)
			captured++;
		else if (s->general[g] == LOC_REINFORCEMENTS)
			reinf[d->generals[g].side]++;
	}
	LINE("panel", "British reinforcements: %d CUs", s->box_cu[NATION_BRITISH]);
	LINE("panel", "French waiting: %d CUs", s->box_cu[NATION_FRENCH]);
	LINE("panel", "Generals in reserve: American %d, British %d", reinf[SIDE_AMERICAN], reinf[SIDE_BRITISH]);
	if (captured)
		LINE("panel", "Captured generals: %d", captured);
	LINE("panel", "Queues: American %d, British %d cards", s->n_queue[SIDE_AMERICAN], s->n_queue[SIDE_BRITISH]);
	y += 6;
	LINE("panel-h", "If the war ended now (13.2)");
	LINE("panel", "American colonies: %d (needs 7)", col[SIDE_AMERICAN]);
	LINE("panel", "British colonies: %d (needs 6)", col[SIDE_BRITISH]);
	LINE("panel", "winner: %s", w == SIDE_AMERICAN ? "the Americans" : "the British");
	y += 6;
	LINE("panel-h", "Colonies");
	for (int k = 0; k < d->n_colonies; k++) {
		enum side c = engine_colony_control(d, s, k);
		strbuf_addf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"10\" fill=\"%s\" stroke=\"#222\"/>\n",
			    x0 + 10, y - 9, pc_fill(c));
		strbuf_reset(&line);
		strbuf_addf(&line, "%s %s", d->colonies[k].code,
			    c == SIDE_NONE ? "uncontrolled" : side_title(c));
		text_at(out, x0 + 26, y, "panel", line.buf);
		y += 14;
	}
	y += 6;
	LINE("panel-h", "Legend");
	strbuf_addf(out, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"6\" fill=\"%s\" stroke=\"#222\"/>\n", x0 + 15, y - 4, pc_fill(SIDE_AMERICAN));
	text_at(out, x0 + 26, y, "panel", "American PC (red: British)");
	y += 15;
	strbuf_addf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#222\"/>\n", x0 + 9, y - 10, pc_fill(SIDE_NONE));
	text_at(out, x0 + 26, y, "panel", "square: Winter Quarters");
	y += 15;
	strbuf_addf(out, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#222\" stroke-width=\"3\"/>\n", x0 + 9, y - 10, pc_fill(SIDE_NONE));
	text_at(out, x0 + 26, y, "panel", "thick square: fortified port");
	y += 15;
	strbuf_addf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#777\" stroke-dasharray=\"4 3\"/>\n", x0 + 8, y - 4, x0 + 22, y - 4);
	text_at(out, x0 + 26, y, "panel", "wilderness connection");
	y += 15;
	strbuf_addf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#9c2a1f\" stroke-width=\"3\"/>\n", x0 + 6, y - 4, x0 + 22, y - 4);
	text_at(out, x0 + 26, y, "panel", "the last order's moves");
	y += 15;
	strbuf_addf(out, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"7\" fill=\"none\" stroke=\"#e07b00\" stroke-width=\"3\" stroke-dasharray=\"3 2\"/>\n", x0 + 15, y - 4);
	text_at(out, x0 + 26, y, "panel", "a battle of the last order");
	y += 15;
	text_at(out, x0 + 10, y, "pieces-a", "A5");
	text_at(out, x0 + 30, y, "panel", "American CUs, F French, B British;");
	y += 14;
	text_at(out, x0 + 30, y, "panel", "generals strategy-battle-agility");
	y += 15;
	strbuf_addf(out, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"3\" fill=\"#1d6b3a\"/>\n", x0 + 15, y - 4);
	text_at(out, x0 + 26, y, "panel", "a port");
#undef LINE
	strbuf_release(&line);
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
		      struct strbuf *out)
{
	strbuf_addstr(out, "<defs><marker id=\"head-a\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
		      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1f4e8c\"/></marker>"
		      "<marker id=\"head-b\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
		      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#9c2a1f\"/></marker></defs>\n");
	for (int i = 0; i < last->n_moves; i++) {
		const struct data_space *b = &d->spaces[last->moves[i].to];
		bool am = d->generals[last->moves[i].general].side == SIDE_AMERICAN;
		double x1, y1, x2 = b->x, y2 = b->y, dx, dy, len;
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
		strbuf_addf(out, "<line class=\"last-move\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "stroke=\"%s\" stroke-width=\"3\" stroke-opacity=\"0.8\"%s marker-end=\"url(#head-%c)\"/>\n",
			    x1, y1, x2, y2, am ? "#1f4e8c" : "#9c2a1f",
			    last->moves[i].from < 0 ? " stroke-dasharray=\"5 3\"" : "", am ? 'a' : 'b');
	}
	for (int i = 0; i < last->n_battles; i++) {
		const struct data_space *a = &d->spaces[last->battles[i]];
		strbuf_addf(out, "<circle class=\"last-battle\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" "
			    "stroke=\"#e07b00\" stroke-width=\"3\" stroke-dasharray=\"3 2\"/>\n",
			    a->x, a->y, MAP_NODE_R + 5);
	}
}

void report_svg(const struct data *d, const struct state *s, struct strbuf *out)
{
	report_svg_last(d, s, NULL, out);
}

void report_svg_last(const struct data *d, const struct state *s,
		     const struct map_last *last, struct strbuf *out)
{
	struct placer *plp = xcalloc(1, sizeof(*plp));
	int maxx = 0, maxy = 0;
	struct strbuf t = STRBUF_INIT;
	double map_w, h;

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
	strbuf_addf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"10\">\n",
		    map_w + MAP_PANEL_W, h, map_w + MAP_PANEL_W, h);
	strbuf_addf(out, "<title>Washington's War, %d</title>\n", s->year);
	strbuf_addstr(out, "<style>.name{fill:#222}.pieces-a{fill:#1f4e8c;font-weight:bold}"
		      ".pieces-b{fill:#9c2a1f;font-weight:bold}.pieces-m{fill:#5b3c88;font-weight:bold}"
		      ".panel{fill:#222}.panel-h{fill:#222;font-weight:bold}</style>\n");
	strbuf_addstr(out, "<rect width=\"100%\" height=\"100%\" fill=\"#e8e2cf\"/>\n");
	/* connections */
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *a = &d->spaces[i];
		for (int k = 0; k < a->n_adj; k++) {
			const struct data_space *b = &d->spaces[a->adj[k].to];
			if (a->adj[k].to < i)
				continue;
			strbuf_addf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#8a8270\"%s/>\n",
				    a->x, a->y, b->x, b->y,
				    a->adj[k].wilderness ? " stroke-dasharray=\"4 3\"" : "");
		}
	}
	/* the spaces, which labels must not cover */
	for (int i = 0; i < d->n_spaces; i++) {
		const struct data_space *a = &d->spaces[i];
		const char *fill = pc_fill(s->space[i].pc);
		if (a->shape == SHAPE_CIRCLE)
			strbuf_addf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"#222\"/>\n",
				    a->x, a->y, MAP_NODE_R, fill);
		else
			strbuf_addf(out, "<rect x=\"%d\" y=\"%d\" width=\"18\" height=\"18\" fill=\"%s\" stroke=\"#222\"%s/>\n",
				    a->x - 9, a->y - 9, fill,
				    a->shape == SHAPE_STAR ? " stroke-width=\"3\"" : "");
		if (a->port)
			strbuf_addf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"#1d6b3a\"/>\n",
				    a->x + 7, a->y - 7);
		plp->taken[plp->n++] = (struct box){ a->x - MAP_NODE_R - 1, a->y - MAP_NODE_R - 1,
						 a->x + MAP_NODE_R + 1, a->y + MAP_NODE_R + 1 };
	}
	if (last)
		draw_last(d, last, out);
	/* the pieces first (they matter most), then the names */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < d->n_spaces; i++) {
			const struct data_space *a = &d->spaces[i];
			double tx, ty;
			bool far;
			const char *cls = "name";
			strbuf_reset(&t);
			if (pass == 0) {
				const struct space_state *sp = &s->space[i];
				int am = sp->cu[NATION_AMERICAN] + sp->cu[NATION_FRENCH];
				pieces_text(d, s, i, &t);
				if (!t.len)
					continue;
				cls = am && sp->cu[NATION_BRITISH] ? "pieces-m" : am ? "pieces-a" :
				      sp->cu[NATION_BRITISH] ? "pieces-b" : "pieces-m";
			} else {
				strbuf_addstr(&t, a->full_name);
			}
			far = place(plp, a->x, a->y, strlen(t.buf), &tx, &ty);
			if (far)
				strbuf_addf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" stroke-width=\"0.8\"/>\n",
					    a->x, a->y, tx + (tx < a->x ? strlen(t.buf) * MAP_CHAR_W : 0), ty - 4);
			text_at(out, tx, ty, cls, t.buf);
		}
	}
	panel(d, s, map_w, out);
	strbuf_addstr(out, "</svg>\n");
	strbuf_release(&t);
	free(plp);
}
