/*
 * map.c - the map as a picture: spaces, connections, who holds each
 * space (the PC) apart from whose pieces stand there, the last order's
 * moves and battles, and a panel with the tracks, the boxes, the
 * colonies, the victory count and a legend. Drawn once as a list of
 * shapes (map.h), written here as SVG; map-png.c paints the same list
 * into a PNG.
 *
 * Where the spaces stand: the data's positions, spread apart where they
 * crowd (New Jersey, the ring around Boston) until no two centres are
 * nearer than MAP_SPREAD and no space lies on a connection it is not an
 * end of, by rounds of pushing them apart (spread()). The spread depends
 * on the data alone, so a space stands in the same place in every
 * picture of a game. The panel stands in the empty sea south-east of
 * New England when no space is near, else beside the map.
 *
 * Where the labels stand: each label (a space's name; the block of its
 * pieces, a line for the CUs and one per general, or all on one line)
 * touches its own space, nearer to it than to any other space by
 * MAP_NEAREST, and crosses as little of the connections and the last
 * order's moves as it can; each label's possible places are listed with
 * their cost (candidates()), and the places are chosen together so that
 * no two labels overlap (solve()). A label that finds no place by its
 * space stands farther off with a dotted leader in its own colour, which
 * no connection has. Names are drawn with a rim of the background's
 * colour, so a connection passing under one does not blur it. Text widths
 * come from the advance widths of the font (DejaVu Sans), so the layout
 * needs no font at run time and is the same on every machine;
 * tests/e2e/t-map.sh measures the result in a browser from the SVG alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "map.h"

#include <ctype.h>
#include <math.h>

#define MAP_ASCENT 9.3		/* a line of text above its baseline */
#define MAP_DESCENT 2.4		/* and below it */
#define MAP_LINE_H 12.0		/* lines of a block of pieces */
#define MAP_NODE_R 9
#define MAP_PANEL_W 250
#define MAP_SPREAD 64		/* least distance between two spaces' centres */
#define MAP_OFF_ROAD 16	/* least distance from a space to a connection
				   it is not an end of */
#define MAP_MARGIN 24		/* around the spaces, besides room for labels */
#define MAP_NAME_GAP 2		/* between a space and its name */
#define MAP_PIECES_GAP 1.5	/* between a space and its pieces */
#define MAP_NEAREST 3		/* a label is this much nearer its own space
				   than any other */
#define MAP_PIECE_LINES 6	/* lines of a label of pieces, at most */
#define MAP_ROAD "#5f5746"	/* connections */
#define STR_(x) #x
#define STR(x) STR_(x)

/* Advance widths of DejaVu Sans, regular and bold, in thousandths of the
 * font size, for the characters ' ' to '~'. */
static const unsigned short advance[2][95] = {
	{ 318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	  636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	  1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	  603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	  500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	  635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838 },
	{ 348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
	  696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
	  1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
	  733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
	  500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
	  716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838 },
};

/* The width of a text at MAP_FONT_SIZE (another character than ASCII
 * counts as a wide one). */
static double text_width(const char *s, bool bold)
{
	double w = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= ' ' && *p <= '~')
			w += advance[bold][*p - ' '];
		else if ((*p & 0xc0) != 0x80)
			w += 1000;
	}
	return w * MAP_FONT_SIZE / 1000.0;
}

/* fmin() and fmax() without their care for NaNs, which costs a call */
static inline double dmin(double a, double b)
{
	return a < b ? a : b;
}

static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

struct box {
	double x0, y0, x1, y1;
};

/* The distance between two boxes (0 when they touch or overlap). */
static double box_gap(const struct box *a, const struct box *b)
{
	double dx = dmax(dmax(a->x0 - b->x1, b->x0 - a->x1), 0);
	double dy = dmax(dmax(a->y0 - b->y1, b->y0 - a->y1), 0);
	return sqrt(dx * dx + dy * dy);
}

/* The distance from a box to a point (0 inside). */
static double box_point(const struct box *a, double x, double y)
{
	double dx = dmax(dmax(a->x0 - x, x - a->x1), 0);
	double dy = dmax(dmax(a->y0 - y, y - a->y1), 0);
	return sqrt(dx * dx + dy * dy);
}

/* How much of the segment (x1, y1)-(x2, y2) lies inside the box. */
static double box_segment(const struct box *b, double x1, double y1,
			  double x2, double y2)
{
	double t0 = 0, t1 = 1, dx = x2 - x1, dy = y2 - y1;
	double p[4] = { -dx, dx, -dy, dy };
	double q[4] = { x1 - b->x0, b->x1 - x1, y1 - b->y0, b->y1 - y1 };

	for (int k = 0; k < 4; k++) {
		if (p[k] == 0) {
			if (q[k] < 0)
				return 0;
			continue;
		}
		double t = q[k] / p[k];
		if (p[k] < 0)
			t0 = dmax(t0, t);
		else
			t1 = dmin(t1, t);
	}
	return t1 > t0 ? (t1 - t0) * sqrt(dx * dx + dy * dy) : 0;
}

/* Where each space is drawn, and the size of the map's area. */
struct layout {
	double x[DATA_MAX_SPACES], y[DATA_MAX_SPACES];
	double w, h;
};

/*
 * The data's positions pushed apart where two spaces stand nearer than
 * MAP_SPREAD: in each round every such pair moves apart along the line
 * between them by part of what it lacks, and a space nearer than
 * MAP_OFF_ROAD to a connection it is not an end of moves off it, until
 * nothing moves (about a hundred rounds). Spaces that stand apart keep
 * their place, so the map keeps its shape. The result is shifted so that
 * the spaces start MAP_MARGIN from the top and a label's width from the
 * left, and the map's size leaves a label's width to the east.
 */
static void spread(const struct data *d, struct layout *L)
{
	double minx = 1e9, miny = 1e9, maxx = -1e9, maxy = -1e9;
	int n = d->n_spaces;

	for (int i = 0; i < n; i++) {
		L->x[i] = d->spaces[i].x;
		L->y[i] = d->spaces[i].y;
	}
	for (int round = 0; round < 200; round++) {
		bool moved = false;
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				double dx = L->x[j] - L->x[i], dy = L->y[j] - L->y[i];
				double dist, push;
				if (dx >= MAP_SPREAD || dx <= -MAP_SPREAD ||
				    dy >= MAP_SPREAD || dy <= -MAP_SPREAD)
					continue;
				dist = sqrt(dx * dx + dy * dy);
				if (dist >= MAP_SPREAD - 0.05)
					continue;
				if (dist < 1e-6) {	/* one on the other: apart east-west */
					dx = 1;
					dy = 0;
					dist = 1;
				}
				push = (MAP_SPREAD - dist) * 0.3;
				L->x[i] -= dx / dist * push;
				L->y[i] -= dy / dist * push;
				L->x[j] += dx / dist * push;
				L->y[j] += dy / dist * push;
				moved = true;
			}
		/* a space on a connection it is not an end of would seem to
		 * lie on it: it moves off, square to the line */
		for (int a = 0; a < n; a++)
			for (int k = 0; k < d->spaces[a].n_adj; k++) {
				int b = d->spaces[a].adj[k].to;
				double dx = L->x[b] - L->x[a], dy = L->y[b] - L->y[a];
				double len2 = dx * dx + dy * dy;
				if (b < a || len2 < 1)
					continue;
				double x0 = dmin(L->x[a], L->x[b]) - MAP_OFF_ROAD, x1 = dmax(L->x[a], L->x[b]) + MAP_OFF_ROAD;
				double y0 = dmin(L->y[a], L->y[b]) - MAP_OFF_ROAD, y1 = dmax(L->y[a], L->y[b]) + MAP_OFF_ROAD;
				for (int i = 0; i < n; i++) {
					double t, px, py, off;
					if (L->x[i] < x0 || L->x[i] > x1 || L->y[i] < y0 || L->y[i] > y1)
						continue;
					t = ((L->x[i] - L->x[a]) * dx + (L->y[i] - L->y[a]) * dy) / len2;
					if (i == a || i == b || t <= 0 || t >= 1)
						continue;
					px = L->x[i] - (L->x[a] + t * dx);
					py = L->y[i] - (L->y[a] + t * dy);
					off = sqrt(px * px + py * py);
					if (off >= MAP_OFF_ROAD - 0.05)
						continue;
					if (off < 1e-6) {	/* on the line: to its left */
						px = -dy;
						py = dx;
						off = sqrt(len2);
						L->x[i] += px / off * 0.5 * MAP_OFF_ROAD;
						L->y[i] += py / off * 0.5 * MAP_OFF_ROAD;
					} else {
						L->x[i] += px / off * 0.5 * (MAP_OFF_ROAD - off);
						L->y[i] += py / off * 0.5 * (MAP_OFF_ROAD - off);
					}
					moved = true;
				}
			}
		if (!moved)
			break;
	}
	for (int i = 0; i < n; i++) {
		/* whole tenths: the SVG writes them so, and the PNG agrees */
		L->x[i] = round(L->x[i] * 10) / 10;
		L->y[i] = round(L->y[i] * 10) / 10;
		minx = dmin(minx, L->x[i]);
		miny = dmin(miny, L->y[i]);
		maxx = dmax(maxx, L->x[i]);
		maxy = dmax(maxy, L->y[i]);
	}
	minx = floor(minx) - MAP_MARGIN - 100;	/* room for a label to the west */
	miny = floor(miny) - MAP_MARGIN;
	for (int i = 0; i < n; i++) {
		L->x[i] -= minx;
		L->y[i] -= miny;
	}
	L->w = ceil(maxx - minx) + MAP_MARGIN + 150;	/* and to the east */
	L->h = ceil(maxy - miny) + MAP_MARGIN + 36;
}

/* What a label must keep clear of, and what it had better not cross. */
struct placer {
	const struct data *d;
	const struct layout *L;
	struct { double x1, y1, x2, y2, weight; } seg[2 * DATA_MAX_CONNECTIONS + 4 * MAP_PATH_MAX];
	int n_seg;
	struct box port[DATA_MAX_SPACES];	/* the port's dot, if any */
	bool has_port[DATA_MAX_SPACES];
	struct box keep_out;	/* the panel, when it stands on the map */
};

/* The distance from a box to space i's marker (a circle or a square;
 * not its port's dot). */
static double to_space(const struct placer *pl, const struct box *b, int i)
{
	double x = pl->L->x[i], y = pl->L->y[i];
	double g;

	if (pl->d->spaces[i].shape == SHAPE_CIRCLE) {
		g = box_point(b, x, y) - MAP_NODE_R;
	} else {
		struct box m = { x - MAP_NODE_R, y - MAP_NODE_R, x + MAP_NODE_R, y + MAP_NODE_R };
		g = box_gap(b, &m);
	}
	return g;
}

static void add_segment(struct placer *pl, double x1, double y1, double x2,
			double y2, double weight)
{
	if (pl->n_seg == (int)ARRAY_SIZE(pl->seg))
		return;
	pl->seg[pl->n_seg].x1 = x1;
	pl->seg[pl->n_seg].y1 = y1;
	pl->seg[pl->n_seg].x2 = x2;
	pl->seg[pl->n_seg].y2 = y2;
	pl->seg[pl->n_seg].weight = weight;
	pl->n_seg++;
}

/*
 * Where a label of size w x h may stand by space i: the ray from the
 * space's centre (ux, uy) and the point of the label's box on it (ax, ay,
 * fractions of its width and height), the box moved out along the ray
 * until it stands gap away from the space. Nearest and plainest first.
 */
static const struct { double ux, uy, ax, ay; } spot[] = {
	{ 1, 0, 0, 0.5 }, { -1, 0, 1, 0.5 }, { 0, 1, 0.5, 0 }, { 0, -1, 0.5, 1 },
	{ 0.7, -0.7, 0, 1 }, { 0.7, 0.7, 0, 0 }, { -0.7, -0.7, 1, 1 }, { -0.7, 0.7, 1, 0 },
	{ 1, 0, 0, 0.85 }, { 1, 0, 0, 0.15 }, { -1, 0, 1, 0.85 }, { -1, 0, 1, 0.15 },
	{ 0, -1, 0.1, 1 }, { 0, -1, 0.9, 1 }, { 0, 1, 0.1, 0 }, { 0, 1, 0.9, 0 },
	{ 1, 0, 0, 1 }, { 1, 0, 0, 0 }, { -1, 0, 1, 1 }, { -1, 0, 1, 0 },
	{ 0, -1, 0, 1 }, { 0, -1, 1, 1 }, { 0, 1, 0, 0 }, { 0, 1, 1, 0 },
};

/* The box at spot k, gap from space i (moved out from its centre). */
static struct box spot_box(const struct placer *pl, int i, int k, double w,
			   double h, double gap)
{
	struct box b;
	double t = 0, step = 2;

	/* out in steps of 2, then back in steps of 0.25 */
	for (;;) {
		double px = pl->L->x[i] + spot[k].ux * t, py = pl->L->y[i] + spot[k].uy * t;
		bool clear;
		b.x0 = px - spot[k].ax * w;
		b.y0 = py - spot[k].ay * h;
		b.x1 = b.x0 + w;
		b.y1 = b.y0 + h;
		clear = to_space(pl, &b, i) >= gap;
		if (clear && step == 0.25)
			return b;
		if (clear) {
			t -= step;
			step = 0.25;
		}
		t += step;
		if (t > 400)
			return b;
	}
}

/*
 * How bad box b is for a label of space i: -1 if it may not stand there
 * (outside the map, on a space, or, when own_nearest, not nearer its own
 * space than any other by MAP_NEAREST), else the length of the
 * connections and moves it covers, each by its weight.
 */
/* What lies within reach of a label by one space: the other spaces and
 * the segments near enough to matter. */
struct reach {
	int n_sp, sp[DATA_MAX_SPACES];
	int n_seg, seg[2 * DATA_MAX_CONNECTIONS + 4 * MAP_PATH_MAX];
};

static void within_reach(const struct placer *pl, int i, double r,
			 struct reach *near)
{
	struct box around = { pl->L->x[i] - r, pl->L->y[i] - r, pl->L->x[i] + r, pl->L->y[i] + r };

	near->n_sp = near->n_seg = 0;
	for (int j = 0; j < pl->d->n_spaces; j++)
		if (j != i && box_point(&around, pl->L->x[j], pl->L->y[j]) < MAP_NODE_R + 20)
			near->sp[near->n_sp++] = j;
	for (int k = 0; k < pl->n_seg; k++)
		if (box_segment(&around, pl->seg[k].x1, pl->seg[k].y1, pl->seg[k].x2,
				pl->seg[k].y2) > 0)
			near->seg[near->n_seg++] = k;
}

static double badness(const struct placer *pl, const struct reach *near,
		      const struct box *b, int i, bool own_nearest)
{
	double own = to_space(pl, b, i), cost = 0;

	if (b->x0 < 2 || b->y0 < 2 || b->x1 > pl->L->w - 2 || b->y1 > pl->L->h - 2 ||
	    box_gap(b, &pl->keep_out) < 2)
		return -1;
	for (int q = 0; q < near->n_sp; q++) {
		int j = near->sp[q];
		double g = to_space(pl, b, j);
		if (g < 1.5 || (own_nearest && g < own + MAP_NEAREST))
			return -1;
	}
	for (int q = -1; q < near->n_sp; q++) {	/* the ports' dots too */
		int j = q < 0 ? i : near->sp[q];
		if (pl->has_port[j] && box_gap(b, &pl->port[j]) < 1)
			return -1;
	}
	for (int q = 0; q < near->n_seg; q++) {
		int k = near->seg[q];
		cost += pl->seg[k].weight * box_segment(b, pl->seg[k].x1, pl->seg[k].y1,
							 pl->seg[k].x2, pl->seg[k].y2);
	}
	return cost;
}

/* A label to place: a space's name, or the lines of its pieces. */
#define MAP_CANDIDATES 96
struct label {
	int space;
	int n;
	char line[MAP_PIECE_LINES][48];
	enum map_font font[MAP_PIECE_LINES];
	int british_at;		/* the first line's British part, if not 0 */
	double w, h, gap;
	/* another shape of the label: a long name on two lines (split at
	 * split_at), the pieces on one */
	bool has_alt;
	int split_at;
	double alt_w, alt_h;
	int n_cand;
	struct { struct box b; double cost; bool far, split; } cand[MAP_CANDIDATES];
	int pick;
	struct box all;		/* around all its places */
	int n_near, near[4 * DATA_MAX_SPACES];	/* labels it may collide with */
};

/*
 * Where label l may stand, each place with its cost: touching its space
 * (or a little off), nearer it than any other space, the plainer spots
 * and those that cover less of the connections first; only if there is
 * none, farther off (with a leader), at a high cost; and if not even
 * that, east of the space, at a higher one.
 */
static void candidates(const struct placer *pl, struct label *l)
{
	bool name = l->font[0] == MAP_NAME;
	struct reach *near = xmalloc(sizeof(*near));

	/* the farthest a label's box reaches: its size, and 80 off */
	within_reach(pl, l->space, dmax(l->w, l->has_alt ? l->alt_w : 0) + l->h + 100, near);
	l->n_cand = 0;
	for (int split = 0; split < 1 + l->has_alt; split++)
		for (int ring = 0; ring < (name ? 3 : 1); ring++)
			for (int k = 0; k < (int)ARRAY_SIZE(spot); k++) {
				double w = split ? l->alt_w : l->w, h = split ? l->alt_h : l->h;
				struct box b = spot_box(pl, l->space, k, w, h, l->gap + ring * 4);
				double c = badness(pl, near, &b, l->space, true);
				if (c < 0 || l->n_cand == MAP_CANDIDATES)
					continue;
				l->cand[l->n_cand].b = b;
				l->cand[l->n_cand].cost = c + 1.5 * k + 6 * ring + 10 * split;
				l->cand[l->n_cand].far = false;
				l->cand[l->n_cand].split = split;
				l->n_cand++;
			}
	if (l->n_cand)
		goto out;
	for (int ring = 1; ring < 8; ring++)
		for (int k = 0; k < (int)ARRAY_SIZE(spot); k++) {
			struct box b = spot_box(pl, l->space, k, l->w, l->h, l->gap + ring * 10);
			double c = badness(pl, near, &b, l->space, false);
			if (c < 0 || l->n_cand == MAP_CANDIDATES)
				continue;
			l->cand[l->n_cand].b = b;
			l->cand[l->n_cand].cost = 500 + c + 1.5 * k + 20 * ring;
			l->cand[l->n_cand].far = true;
			l->cand[l->n_cand].split = false;
			l->n_cand++;
		}
	if (l->n_cand)
		goto out;
	l->cand[0].b = spot_box(pl, l->space, 0, l->w, l->h, l->gap);
	l->cand[0].cost = 5000;
	l->cand[0].far = false;
	l->cand[0].split = false;
	l->n_cand = 1;
out:
	free(near);
}

#define MAP_COLLISION 1000	/* the cost of two labels closer than 1 */

/* The cost of label k standing at its candidate c, the others where they
 * stand now. */
static double cost_at(const struct label *lab, int k, int c)
{
	const struct label *l = &lab[k];
	double cost = l->cand[c].cost;

	for (int m = 0; m < l->n_near; m++) {
		const struct label *o = &lab[l->near[m]];
		if (box_gap(&l->cand[c].b, &o->cand[o->pick].b) < 1)
			cost += MAP_COLLISION;
	}
	return cost;
}

/* Each label in turn moves to its cheapest place given where the others
 * stand, round after round, until none moves. */
static void settle(struct label *lab, int n)
{
	for (int round = 0; round < 50; round++) {
		bool moved = false;
		for (int k = 0; k < n; k++) {
			int best = lab[k].pick;
			double best_cost = cost_at(lab, k, best);
			for (int c = 0; c < lab[k].n_cand; c++) {
				double cost = cost_at(lab, k, c);
				if (cost < best_cost - 1e-9) {
					best = c;
					best_cost = cost;
				}
			}
			if (best != lab[k].pick) {
				lab[k].pick = best;
				moved = true;
			}
		}
		if (!moved)
			break;
	}
}

/* Two labels that still collide, where neither can move alone: every
 * pair of their places is tried, and they take the cheapest. Returns
 * whether a pair moved. */
static bool unstick(struct label *lab, int n)
{
	bool moved = false;

	for (int k = 0; k < n; k++)
		for (int q = 0; q < lab[k].n_near; q++) {
			int m = lab[k].near[q], bk = lab[k].pick, bm = lab[m].pick;
			double best;
			if (m < k || box_gap(&lab[k].cand[bk].b, &lab[m].cand[bm].b) >= 1)
				continue;
			best = cost_at(lab, k, bk) + cost_at(lab, m, bm);
			for (int ck = 0; ck < lab[k].n_cand; ck++) {
				lab[k].pick = ck;
				for (int cm = 0; cm < lab[m].n_cand; cm++) {
					double c;
					lab[m].pick = cm;
					c = cost_at(lab, k, ck) + cost_at(lab, m, cm);
					if (c < best - 1e-9) {
						best = c;
						bk = ck;
						bm = cm;
						moved = true;
					}
				}
			}
			lab[k].pick = bk;
			lab[m].pick = bm;
		}
	return moved;
}

/* How many pairs of labels collide. */
static int collisions(const struct label *lab, int n)
{
	int c = 0;

	for (int k = 0; k < n; k++)
		for (int q = 0; q < lab[k].n_near; q++) {
			const struct label *o = &lab[lab[k].near[q]];
			c += lab[k].near[q] > k &&
			     box_gap(&lab[k].cand[lab[k].pick].b, &o->cand[o->pick].b) < 1;
		}
	return c;
}

/*
 * Simulated annealing, for labels that still collide: a label picked at
 * random tries a place picked at random, taken if it costs less, or more
 * with a chance that falls as the "temperature" cools; the best layout
 * seen is kept. The random numbers are a fixed sequence (xorshift), so
 * the result is the same on every run.
 */
static void anneal(struct label *lab, int n)
{
	uint32_t x = 2463534242u;
	int *best = xcalloc((size_t)n, sizeof(*best));
	double total = 0, best_total;
	const int steps = 40000;

	/* the whole cost: each label's place, each collision once */
	for (int k = 0; k < n; k++) {
		total += lab[k].cand[lab[k].pick].cost;
		best[k] = lab[k].pick;
	}
	total += MAP_COLLISION * collisions(lab, n);
	best_total = total;
	for (int step = 0; step < steps; step++) {
		double t = 300.0 * pow(0.002, (double)step / steps), delta;
		int k, c;
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		k = (int)(x % (uint32_t)n);
		c = (int)((x >> 8) % (uint32_t)lab[k].n_cand);
		if (c == lab[k].pick)
			continue;
		/* what the whole cost would gain or lose */
		delta = cost_at(lab, k, c) - cost_at(lab, k, lab[k].pick);
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		if (delta > 0 && exp(-delta / t) * 4294967296.0 <= (double)x)
			continue;
		lab[k].pick = c;
		total += delta;
		if (total < best_total - 1e-9) {
			best_total = total;
			for (int m = 0; m < n; m++)
				best[m] = lab[m].pick;
		}
	}
	for (int k = 0; k < n; k++)
		lab[k].pick = best[k];
	free(best);
}

/*
 * Chooses a place for every label: each starts at its cheapest place,
 * then each moves to its cheapest place given where the others stand (two
 * labels that collide pay MAP_COLLISION) until none moves, and pairs that
 * still collide move together. Deterministic: the same labels give the
 * same places.
 */
static void solve(struct label *lab, int n)
{
	for (int k = 0; k < n; k++) {
		lab[k].pick = 0;
		for (int c = 1; c < lab[k].n_cand; c++)
			if (lab[k].cand[c].cost < lab[k].cand[lab[k].pick].cost)
				lab[k].pick = c;
		lab[k].n_near = 0;
	}
	/* who may collide with whom: the boxes around all their places meet */
	for (int k = 0; k < n; k++) {
		struct box *a = &lab[k].all;
		*a = lab[k].cand[0].b;
		for (int c = 1; c < lab[k].n_cand; c++) {
			a->x0 = dmin(a->x0, lab[k].cand[c].b.x0);
			a->y0 = dmin(a->y0, lab[k].cand[c].b.y0);
			a->x1 = dmax(a->x1, lab[k].cand[c].b.x1);
			a->y1 = dmax(a->y1, lab[k].cand[c].b.y1);
		}
	}
	for (int k = 0; k < n; k++)
		for (int m = 0; m < n; m++)
			if (m != k && box_gap(&lab[k].all, &lab[m].all) < 1 &&
			    lab[k].n_near < (int)ARRAY_SIZE(lab[k].near))
				lab[k].near[lab[k].n_near++] = m;
	for (int tries = 0; tries < 8; tries++) {
		settle(lab, n);
		if (!unstick(lab, n))
			break;
	}
	if (collisions(lab, n)) {
		anneal(lab, n);
		settle(lab, n);
	}
}

const struct map_font_desc map_fonts[MAP_FONT__COUNT] = {
	[MAP_NAME] = { "name", "#222222", false, true },
	[MAP_PIECES_A] = { "pieces-a", "#1f4e8c", true, true },
	[MAP_PIECES_B] = { "pieces-b", "#9c2a1f", true, true },
	[MAP_PANEL] = { "panel", "#222222", false, false },
	[MAP_PANEL_H] = { "panel-h", "#222222", true, false },
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

static struct map_item *text_at(struct map_picture *pic, double x, double y,
				enum map_font font, const char *text)
{
	return put(pic, (struct map_item){ .shape = MAP_TEXT, .x1 = x, .y1 = y,
		   .font = font, .text = xstrdup(text) });
}

static const char *pc_fill(enum side pc)
{
	return pc == SIDE_AMERICAN ? "#3b6fb6" : pc == SIDE_BRITISH ? "#c0392b" : "#f4f1e8";
}

/* The pieces in a space as lines of a label: the CUs ("A5 F2 B3"; when
 * both sides have some, *british_at is where the British part starts, in
 * the British colour), then each general with his ratings ("Washington
 * 1-4-2") in his side's colour, then the Congress; each line's font in
 * lines_font. Returns the number of lines. */
static int pieces_lines(const struct data *d, const struct state *s, int i,
			char lines[MAP_PIECE_LINES][48],
			enum map_font lines_font[MAP_PIECE_LINES], int *british_at)
{
	const struct space_state *sp = &s->space[i];
	struct strbuf cus = STRBUF_INIT;
	int n = 0;

	*british_at = 0;

	if (sp->cu[NATION_AMERICAN])
		strbuf_addf(&cus, "A%d", sp->cu[NATION_AMERICAN]);
	if (sp->cu[NATION_FRENCH])
		strbuf_addf(&cus, "%sF%d", cus.len ? " " : "", sp->cu[NATION_FRENCH]);
	if (sp->cu[NATION_BRITISH])
		strbuf_addf(&cus, "%sB%d", cus.len ? " " : "", sp->cu[NATION_BRITISH]);
	if (cus.len) {
		bool am = sp->cu[NATION_AMERICAN] || sp->cu[NATION_FRENCH];
		snprintf(lines[n], sizeof(lines[n]), "%s", cus.buf);
		/* both sides: the British part in its own colour */
		*british_at = am && sp->cu[NATION_BRITISH] ? (int)(strrchr(cus.buf, 'B') - cus.buf) : 0;
		lines_font[n++] = am ? MAP_PIECES_A : MAP_PIECES_B;
	}
	strbuf_release(&cus);
	for (int g = 0; g < d->n_generals && n < MAP_PIECE_LINES - 1; g++)
		if (s->general[g] == i) {
			snprintf(lines[n], sizeof(lines[n]), "%s %d-%d-%d", d->generals[g].name,
				 d->generals[g].strategy, d->generals[g].battle,
				 d->generals[g].agility);
			lines_font[n++] = d->generals[g].side == SIDE_AMERICAN ?
					  MAP_PIECES_A : MAP_PIECES_B;
		}
	if (s->congress == i) {
		snprintf(lines[n], sizeof(lines[n]), "Congress");
		lines_font[n++] = MAP_PIECES_A;
	}
	return n;
}
/*
 * The side panel, drawn into pic (empty) from (0, 0): the year and the
 * card, the tracks and boxes, the colonies, the count of 13.2 and the
 * legend. Its background's size is set to what it holds.
 */
static void panel(const struct data *d, const struct state *s,
		  bool marks, struct map_picture *pic)
{
	double y = 24, x0 = 0;
	int col[3];
	enum side w = engine_winner_if_ended(d, s, col);
	struct strbuf buf = STRBUF_INIT;
	int captured = 0, reinf[3] = { 0, 0, 0 };

	rect(pic, x0, 0, MAP_PANEL_W, 0, "#f7f3e6", "#999999", 0);
#define LINE(font, ...) do { strbuf_reset(&buf); strbuf_addf(&buf, __VA_ARGS__); \
		text_at(pic, x0 + 10, y, font, buf.buf); y += 15; } while (0)
	if (engine_game_over(s))
		LINE(MAP_PANEL_H, "%d: game over", s->year);
	else
		LINE(MAP_PANEL_H, "%d, card %d of the turn", s->year, s->impulse + 1);
	LINE(MAP_PANEL, "French Alliance: %d of 9%s", s->french_alliance,
	     s->french_allied ? " (allied)" : "");
	LINE(MAP_PANEL, "Regulars' Advantage: %s", s->regulars ? "in effect" : "over");
	if (s->war_ends) {
		LINE(MAP_PANEL, "War Ends box: #%d", s->war_ends);
		if (d->cards[s->war_ends].war_ends_year)
			LINE(MAP_PANEL, "  (the war ends at the end of %d)",
			     d->cards[s->war_ends].war_ends_year);
		else
			LINE(MAP_PANEL, "  (the game may end)");
	} else
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
	line(pic, x0 + 6, y - 4, x0 + 22, y - 4, MAP_ROAD, 1.2);
	text_at(pic, x0 + 26, y, MAP_PANEL, "connection");
	y += 15;
	dashed(line(pic, x0 + 6, y - 4, x0 + 22, y - 4, MAP_ROAD, 1.2), 5, 3);
	text_at(pic, x0 + 26, y, MAP_PANEL, "wilderness connection (counts 3)");
	y += 15;
	line(pic, x0 + 6, y - 4, x0 + 22, y - 4, "#9c2a1f", 3);
	text_at(pic, x0 + 26, y, MAP_PANEL, "the last order's moves, step by step");
	y += 15;
	dashed(line(pic, x0 + 6, y - 4, x0 + 22, y - 4, "#9c2a1f", 3), 5, 3);
	text_at(pic, x0 + 26, y, MAP_PANEL, "by sea, or from a box");
	y += 15;
	if (marks) {	/* only when a step is marked (data.h) */
		text_at(pic, x0 + 11, y, MAP_PIECES_B, "?");
		text_at(pic, x0 + 26, y, MAP_PANEL, "a connection no source confirms");
		y += 15;
	}
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
	pic->item[0].y2 = y + 10;
	pic->h = y + 10;
	pic->w = MAP_PANEL_W;
	strbuf_release(&buf);
}

/* Appends the shapes of the panel to pic, moved by (dx, dy); their texts
 * change owner. */
static void put_panel(struct map_picture *pic, struct map_picture *panel,
		      double dx, double dy)
{
	for (int i = 0; i < panel->n; i++) {
		struct map_item it = panel->item[i];
		it.x1 += dx;
		it.y1 += dy;
		if (it.shape == MAP_LINE) {
			it.x2 += dx;
			it.y2 += dy;
		}
		put(pic, it);
		panel->item[i].text = NULL;
	}
}


/* The space whose full name p starts with (the longest, so that "New
 * York NY" is not "New York"), its length in *len; -1 if none. */
static int space_at(const struct data *d, const char *p, size_t *len)
{
	int best = -1;

	*len = 0;
	for (int i = 0; i < d->n_spaces; i++) {
		size_t n = strlen(d->spaces[i].full_name);
		if (n > *len && !strncmp(p, d->spaces[i].full_name, n)) {
			best = i;
			*len = n;
		}
	}
	return best;
}

/*
 * One step of a general in a line of the log: "G moves from A to B
 * with", "G sails from A to B", "G retreats before battle from A to B",
 * "G intercepts from A into B", "G and 3 British CUs retreat [by sea]
 * to B (", "G, with no CU left, retreats [by sea] to B (". The general,
 * where from (-1 when the line does not say) and to, and whether by sea;
 * false if the line is no step.
 */
static bool log_step(const struct data *d, const char *ln, int *general,
		     int *from, int *to, bool *sea)
{
	static const struct { const char *verb, *into; bool sea; } with_from[] = {
		{ " moves from ", " to ", false },
		{ " sails from ", " to ", true },
		{ " retreats before battle from ", " to ", false },
		{ " intercepts from ", " into ", false },
	};
	size_t n;

	for (int g = 0; g < d->n_generals; g++) {
		const char *name = d->generals[g].name, *p;
		size_t gl = strlen(name);
		if (strncmp(ln, name, gl))
			continue;
		p = ln + gl;
		for (size_t k = 0; k < ARRAY_SIZE(with_from); k++) {
			size_t vl = strlen(with_from[k].verb), il = strlen(with_from[k].into);
			if (strncmp(p, with_from[k].verb, vl))
				continue;
			*from = space_at(d, p + vl, &n);
			if (*from < 0 || strncmp(p + vl + n, with_from[k].into, il))
				return false;
			*to = space_at(d, p + vl + n + il, &n);
			*general = g;
			*sea = with_from[k].sea;
			return *to >= 0;
		}
		/* a retreat after the battle, from where he is */
		if (!strncmp(p, " and ", 5) || !strncmp(p, ", with no CU left, ", 19)) {
			const char *r = strstr(p, " retreat");
			if (!r || strstr(p, " retreat") != r)
				return false;
			r += strlen(" retreat");
			if (*r == 's')
				r++;
			*sea = !strncmp(r, " by sea", 7);
			if (*sea)
				r += 7;
			if (strncmp(r, " to ", 4))
				return false;
			*to = space_at(d, r + 4, &n);
			*from = -1;
			*general = g;
			return *to >= 0;
		}
		return false;
	}
	return false;
}

/* The connection between spaces a and b, or NULL. */
static const struct data_adj *connection(const struct data *d, int a, int b)
{
	for (int k = 0; a >= 0 && k < d->spaces[a].n_adj; k++)
		if (d->spaces[a].adj[k].to == b)
			return &d->spaces[a].adj[k];
	return NULL;
}

/* Is there a connection between spaces a and b? */
static bool adjacent(const struct data *d, int a, int b)
{
	return connection(d, a, b) != NULL;
}

/* Whether a step of the last order's moves went by land along a
 * connection no source confirms (data.h): the map marks it. */
static bool step_unsourced(const struct data *d, const struct map_move *m, int k)
{
	const struct data_adj *c = m->sea[k] ? NULL : connection(d, m->path[k - 1], m->path[k]);

	return c && c->unsourced;
}

static bool moves_unsourced(const struct data *d, const struct map_last *last)
{
	for (int i = 0; last && i < last->n_moves; i++)
		for (int k = 1; k < last->moves[i].n_path; k++)
			if (step_unsourced(d, &last->moves[i], k))
				return true;
	return false;
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
	/* each mover's steps, in the order the log tells them */
	for (const char *p = block; *p; ) {
		size_t n = strcspn(p, "\n");
		char *ln = xstrndup(p, n);
		const char *t = ln;
		int g, from, to;
		bool sea;
		while (*t == ' ')
			t++;
		if (log_step(d, t, &g, &from, &to, &sea))
			for (int i = 0; i < last->n_moves; i++) {
				struct map_move *m = &last->moves[i];
				if (m->general != g || m->n_path >= MAP_PATH_MAX - 1)
					continue;
				if (!m->n_path)
					m->path[m->n_path++] = from >= 0 ? from : m->from;
				else if (from >= 0 && from != m->path[m->n_path - 1])
					m->n_path = -MAP_PATH_MAX;	/* not one path: unknown */
				if (m->n_path > 0) {
					m->sea[m->n_path] = sea;
					m->path[m->n_path++] = to;
				}
			}
		free(ln);
		p += n + (p[n] == '\n');
	}
	for (int i = 0; i < last->n_moves; i++) {
		struct map_move *m = &last->moves[i];
		bool ok = m->n_path >= 2 && m->path[0] == m->from &&
			  m->path[m->n_path - 1] == m->to;
		for (int k = 1; ok && k < m->n_path; k++)
			ok = m->sea[k] || adjacent(d, m->path[k - 1], m->path[k]);
		if (!ok && adjacent(d, m->from, m->to)) {
			/* one step the log does not tell: still along a road */
			m->path[0] = m->from;
			m->path[1] = m->to;
			m->sea[1] = false;
			m->n_path = 2;
		} else if (!ok) {
			m->n_path = 0;
		}
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

/*
 * The last order's moves: each general's path step by step along the
 * connections he used (by sea dashed), an arrow head at his last space;
 * a general who came from a box, or whose way the log does not tell, a
 * short dashed arrow from the north-west into his space. Drawn under
 * the spaces, so a path runs through the spaces it passed. Each step is
 * also a segment labels keep off.
 */
static void draw_moves(const struct data *d, const struct map_last *last,
		       const struct layout *L, struct placer *pl,
		       struct map_picture *pic)
{
	for (int i = 0; i < last->n_moves; i++) {
		const struct map_move *m = &last->moves[i];
		const char *colour = d->generals[m->general].side == SIDE_AMERICAN ?
				     "#1f4e8c" : "#9c2a1f";
		double x2 = L->x[m->to], y2 = L->y[m->to];
		struct map_item *it;

		for (int k = 1; k < m->n_path; k++) {
			double xa = L->x[m->path[k - 1]], ya = L->y[m->path[k - 1]];
			double xb = L->x[m->path[k]], yb = L->y[m->path[k]];
			double dx = xb - xa, dy = yb - ya, len = sqrt(dx * dx + dy * dy);
			bool final = k == m->n_path - 1;
			if (len < 1)
				continue;
			if (final) {	/* the head stops short of the space */
				xb -= dx / len * (MAP_NODE_R + 3);
				yb -= dy / len * (MAP_NODE_R + 3);
			}
			it = line(pic, xa, ya, xb, yb, colour, 3);
			it->cls = "last-move";
			it->stroke_opacity = 0.8;
			it->arrow = final;
			if (m->sea[k])
				dashed(it, 6, 4);
			add_segment(pl, xa, ya, xb, yb, 3);
			if (step_unsourced(d, m, k)) {
				/* "?" beside the step's middle, as the text's (?) */
				double mx = (xa + L->x[m->path[k]]) / 2 + dy / len * 10;
				double my = (ya + L->y[m->path[k]]) / 2 - dx / len * 10;
				it = text_at(pic, mx - 3, my + 4,
					     d->generals[m->general].side == SIDE_AMERICAN ?
					     MAP_PIECES_A : MAP_PIECES_B, "?");
				it->cls = "unsourced";
			}
		}
		if (m->n_path >= 2)
			continue;
		it = line(pic, x2 - 24, y2 - 24, x2 - 8, y2 - 8, colour, 3);
		it->cls = "last-move";
		it->stroke_opacity = 0.8;
		it->arrow = true;
		dashed(it, 5, 3);
		add_segment(pl, x2 - 24, y2 - 24, x2 - 8, y2 - 8, 3);
	}
}

static void draw_battles(const struct map_last *last, const struct layout *L,
			 struct map_picture *pic)
{
	for (int i = 0; i < last->n_battles; i++) {
		int b = last->battles[i];
		struct map_item *it = circle(pic, L->x[b], L->y[b], MAP_NODE_R + 5, NULL, "#e07b00", 3);
		it->cls = "last-battle";
		it->space = b + 1;
		dashed(it, 3, 2);
	}
}

/* Draws label l where it was placed: its lines left-aligned one under
 * the other, and a dotted leader in its colour if it stands off. */
static void draw_label(struct map_picture *pic, const struct placer *pl,
		       const struct label *l)
{
	const struct box *b = &l->cand[l->pick].b;
	int i = l->space;

	if (l->cand[l->pick].far) {
		/* from the space's edge to the label's nearest point */
		double cx = dmin(dmax(pl->L->x[i], b->x0), b->x1), cy = dmin(dmax(pl->L->y[i], b->y0), b->y1);
		double dx = cx - pl->L->x[i], dy = cy - pl->L->y[i], len = sqrt(dx * dx + dy * dy);
		if (len > MAP_NODE_R + 2) {
			struct map_item *it = line(pic, pl->L->x[i] + dx / len * (MAP_NODE_R + 1),
						   pl->L->y[i] + dy / len * (MAP_NODE_R + 1), cx, cy,
						   map_fonts[l->font[0]].fill, 1);
			it->cls = "leader";
			it->space = i + 1;
			dashed(it, 1, 2);
		}
	}
	if (l->cand[l->pick].split && l->font[0] != MAP_NAME) {
		/* the pieces on one line */
		double x = b->x0, y = b->y0 + MAP_ASCENT;
		for (int k = 0; k < l->n; k++) {
			const char *t = l->line[k];
			if (!k && l->british_at) {
				char am[48];
				snprintf(am, sizeof(am), "%.*s", l->british_at, t);
				text_at(pic, x, y, MAP_PIECES_A, am)->space = i + 1;
				x += text_width(am, true);
				t += l->british_at;
			}
			text_at(pic, x, y, k || !l->british_at ? l->font[k] : MAP_PIECES_B, t)->space = i + 1;
			x += text_width(t, true) + text_width(" ", true);
		}
		return;
	}
	if (l->cand[l->pick].split) {
		char first[48];
		snprintf(first, sizeof(first), "%.*s", l->split_at, l->line[0]);
		text_at(pic, b->x0, b->y0 + MAP_ASCENT, l->font[0], first)->space = i + 1;
		text_at(pic, b->x0, b->y0 + MAP_ASCENT + MAP_LINE_H, l->font[0],
			l->line[0] + l->split_at + 1)->space = i + 1;
		return;
	}
	for (int k = 0; k < l->n; k++) {
		double y = b->y0 + MAP_ASCENT + k * MAP_LINE_H;
		if (!k && l->british_at) {
			char am[48];
			snprintf(am, sizeof(am), "%.*s", l->british_at, l->line[0]);
			text_at(pic, b->x0, y, MAP_PIECES_A, am)->space = i + 1;
			text_at(pic, b->x0 + text_width(am, true), y, MAP_PIECES_B,
				l->line[0] + l->british_at)->space = i + 1;
			continue;
		}
		text_at(pic, b->x0, y, l->font[k], l->line[k])->space = i + 1;
	}
}

/* A long name on two lines: split at the blank nearest its middle, the
 * width of the longer line; no split (0) for a name of one word or short
 * enough. */
static void split_name(struct label *l)
{
	const char *t = l->line[0];
	int best = 0, len = (int)strlen(t);

	l->has_alt = false;
	if (l->w < 90)
		return;
	for (int k = 1; k < len - 1; k++)
		if (t[k] == ' ' && (!best || abs(2 * k - len) < abs(2 * best - len)))
			best = k;
	if (!best)
		return;
	{
		char first[48];
		snprintf(first, sizeof(first), "%.*s", best, t);
		l->has_alt = true;
		l->split_at = best;
		l->alt_w = ceil(dmax(text_width(first, false), text_width(t + best + 1, false)));
		l->alt_h = MAP_LINE_H + MAP_ASCENT + MAP_DESCENT;
	}
}

/* How crowded the space is: the others within 3 spreads. */
static int crowd(const struct layout *L, int n, int i)
{
	int c = 0;

	for (int j = 0; j < n; j++) {
		double dx = L->x[j] - L->x[i], dy = L->y[j] - L->y[i];
		c += j != i && dx * dx + dy * dy < 9.0 * MAP_SPREAD * MAP_SPREAD;
	}
	return c;
}

void map_draw(const struct data *d, const struct state *s,
	      const struct map_last *last, struct map_picture *pic)
{
	struct layout *L = xcalloc(1, sizeof(*L));
	struct placer *pl = xcalloc(1, sizeof(*pl));
	int order[DATA_MAX_SPACES], n = d->n_spaces, n_lab = 0;
	int rank[DATA_MAX_SPACES];
	struct label *lab = xcalloc(2 * DATA_MAX_SPACES, sizeof(*lab));
	struct map_picture side = { 0 };

	memset(pic, 0, sizeof(*pic));
	spread(d, L);
	pl->d = d;
	pl->L = L;
	/* the panel in the map's empty south-east corner (the sea) when no
	 * space stands near it, else beside the map */
	panel(d, s, moves_unsourced(d, last), &side);
	L->h = dmax(L->h, side.h + 16);
	pl->keep_out = (struct box){ L->w - side.w - 16, L->h - side.h - 16, L->w, L->h };
	for (int i = 0; i < n; i++)
		if (box_point(&pl->keep_out, L->x[i], L->y[i]) < MAP_NODE_R + 40) {
			pl->keep_out = (struct box){ 0, 0, 0, 0 };
			side.item[0].y2 = L->h;
			break;
		}
	pic->w = L->w + (pl->keep_out.x1 > 0 ? 0 : side.w);
	pic->h = L->h;
	pic->year = s->year;
	rect(pic, 0, 0, pic->w, pic->h, MAP_BACKGROUND, NULL, 0);
	/* connections: roads solid, wilderness dashed, one colour */
	for (int i = 0; i < n; i++) {
		const struct data_space *a = &d->spaces[i];
		for (int k = 0; k < a->n_adj; k++) {
			int j = a->adj[k].to;
			struct map_item *it;
			if (j < i)
				continue;
			it = line(pic, L->x[i], L->y[i], L->x[j], L->y[j], MAP_ROAD, 1.2);
			it->cls = a->adj[k].wilderness ? "wilderness" : "road";
			if (a->adj[k].wilderness)
				dashed(it, 5, 3);
			add_segment(pl, L->x[i], L->y[i], L->x[j], L->y[j], 2);
		}
	}
	if (last)
		draw_moves(d, last, L, pl, pic);
	/* the spaces, which labels must not cover */
	for (int i = 0; i < n; i++) {
		const struct data_space *a = &d->spaces[i];
		const char *fill = pc_fill(s->space[i].pc);
		struct map_item *it;
		double x = L->x[i], y = L->y[i];
		if (a->shape == SHAPE_CIRCLE)
			it = circle(pic, x, y, MAP_NODE_R, fill, "#222222", 0);
		else
			it = rect(pic, x - 9, y - 9, 18, 18, fill, "#222222",
				  a->shape == SHAPE_STAR ? 3 : 0);
		it->cls = "space";
		it->space = i + 1;
		if (a->port) {
			circle(pic, x + 7, y - 7, 3, "#1d6b3a", NULL, 0);
			pl->port[i] = (struct box){ x + 4, y - 10, x + 10, y - 4 };
			pl->has_port[i] = true;
		}
	}
	if (last)
		draw_battles(last, L, pic);
	/* the labels: the pieces (they must touch their space), then the
	 * names, the crowded spaces first */
	for (int i = 0; i < n; i++) {
		order[i] = i;
		rank[i] = crowd(L, n, i);
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && rank[order[j]] > rank[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int pass = 0; pass < 2; pass++)
		for (int o = 0; o < n; o++) {
			int i = order[o];
			struct label *l = &lab[n_lab];
			l->space = i;
			if (pass == 0) {
				l->n = pieces_lines(d, s, i, l->line, l->font, &l->british_at);
				l->gap = MAP_PIECES_GAP;
				if (!l->n)
					continue;
			} else {
				snprintf(l->line[0], sizeof(l->line[0]), "%s", d->spaces[i].full_name);
				l->font[0] = MAP_NAME;
				l->n = 1;
				l->gap = MAP_NAME_GAP;
			}
			l->w = 0;
			for (int k = 0; k < l->n; k++)
				l->w = dmax(l->w, ceil(text_width(l->line[k], map_fonts[l->font[k]].bold)));
			l->h = (l->n - 1) * MAP_LINE_H + MAP_ASCENT + MAP_DESCENT;
			if (pass == 1) {
				split_name(l);
			} else if (l->n > 1) {	/* or on one line */
				l->has_alt = true;
				l->alt_h = MAP_ASCENT + MAP_DESCENT;
				l->alt_w = -text_width(" ", true);
				for (int k = 0; k < l->n; k++)
					l->alt_w += text_width(l->line[k], true) + text_width(" ", true);
				l->alt_w = ceil(l->alt_w);
			}
			candidates(pl, l);
			n_lab++;
		}
	solve(lab, n_lab);
	for (int k = 0; k < n_lab; k++)
		draw_label(pic, pl, &lab[k]);
	free(lab);
	if (pl->keep_out.x1 > 0)
		put_panel(pic, &side, pl->keep_out.x0 + 8, pl->keep_out.y0 + 8);
	else
		put_panel(pic, &side, L->w, 0);
	map_release(&side);
	free(pl);
	free(L);
}

bool map_board_same(const struct data *d, const struct state *a,
		    const struct state *b)
{
	/* the spaces and what stands there, the generals wherever they are
	 * (the panel counts the boxes), and the panel's lines */
	for (int i = 0; i < d->n_spaces; i++)
		if (a->space[i].pc != b->space[i].pc ||
		    memcmp(a->space[i].cu, b->space[i].cu, sizeof(a->space[i].cu)))
			return false;
	for (int g = 0; g < d->n_generals; g++)
		if (a->general[g] != b->general[g])
			return false;
	return a->congress == b->congress && a->year == b->year &&
	       a->impulse == b->impulse && engine_game_over(a) == engine_game_over(b) &&
	       a->french_alliance == b->french_alliance &&
	       a->french_allied == b->french_allied && a->regulars == b->regulars &&
	       a->war_ends == b->war_ends &&
	       a->box_cu[NATION_BRITISH] == b->box_cu[NATION_BRITISH] &&
	       a->box_cu[NATION_FRENCH] == b->box_cu[NATION_FRENCH] &&
	       a->n_queue[SIDE_AMERICAN] == b->n_queue[SIDE_AMERICAN] &&
	       a->n_queue[SIDE_BRITISH] == b->n_queue[SIDE_BRITISH];
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
	if (it->space)
		strbuf_addf(out, " data-space=\"%d\"", it->space - 1);
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
		strbuf_addf(out, ".%s{fill:%s%s%s}", map_fonts[f].cls, map_fonts[f].fill,
			    map_fonts[f].bold ? ";font-weight:bold" : "",
			    map_fonts[f].halo ? ";stroke:" MAP_BACKGROUND ";stroke-width:"
			    STR(MAP_HALO_WIDTH) ";stroke-linejoin:round;paint-order:stroke" : "");
	strbuf_addstr(out, "</style>\n");
	svg_markers(pic, out);
	for (int i = 0; i < pic->n; i++) {
		const struct map_item *it = &pic->item[i];
		switch (it->shape) {
		case MAP_TEXT:
			strbuf_addf(out, "<text class=\"%s\"", map_fonts[it->font].cls);
			if (it->space)
				strbuf_addf(out, " data-space=\"%d\"", it->space - 1);
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
