/*
 * map.h - the map as a picture: one list of shapes drawn from the data
 * and a state (src/map.c), written out as SVG (map_svg) or painted into a
 * PNG (map_png, src/map-png.c). What the map shows is decided once, in
 * map_draw(); the two writers only say how a shape looks in their format.
 *
 * Ownership: a struct map_picture owns its shapes and their texts;
 * map_release() frees them. Writers append to the caller's strbuf.
 */
#ifndef POSTRIDER_MAP_H
#define POSTRIDER_MAP_H

#include <pthread.h>
#include <stdbool.h>

#include "report.h"

enum map_shape { MAP_RECT, MAP_CIRCLE, MAP_LINE, MAP_TEXT };

/* How a text looks: its class in the SVG, its colour and weight. */
enum map_font { MAP_NAME, MAP_PIECES_A, MAP_PIECES_B,
		MAP_PANEL, MAP_PANEL_H, MAP_FONT__COUNT };

struct map_font_desc {
	const char *cls;	/* the SVG class */
	const char *fill;	/* "#rrggbb" */
	bool bold;
	bool halo;		/* a rim of the background's colour around the
				   letters, so a line under them hides none */
};
#define MAP_BACKGROUND "#e8e2cf"
#define MAP_HALO_WIDTH 3
extern const struct map_font_desc map_fonts[MAP_FONT__COUNT];

#define MAP_FONT_FAMILY "DejaVu Sans"
#define MAP_FONT_SIZE 10

struct map_item {
	enum map_shape shape;
	/* rect: corner (x1, y1), size (x2, y2); circle: centre (x1, y1),
	 * radius r; line: from (x1, y1) to (x2, y2); text: the baseline's
	 * start (x1, y1) */
	double x1, y1, x2, y2, r;
	const char *fill;	/* "#rrggbb", or NULL for none */
	const char *stroke;	/* "#rrggbb", or NULL for none */
	double stroke_width;	/* 1 if 0 */
	double stroke_opacity;	/* 1 if 0 */
	double dash_on, dash_off;	/* a dashed stroke if dash_on > 0 */
	bool arrow;		/* line: an arrow head at (x2, y2) */
	const char *cls;	/* the SVG class of a shape, or NULL */
	int space;		/* a space's marker or label: the space's index
				   + 1 (the SVG's data-space); 0 for others */
	enum map_font font;	/* text */
	char *text;		/* text, owned */
};

struct map_picture {
	double w, h;		/* in the SVG's units (pixels at scale 1) */
	int year;
	int n, alloc;
	struct map_item *item;
};

/* Draws the map of s into pic (which it initialises), with the last order
 * (each move as the path it took, a ring for each battle) when last is
 * not NULL. Where the spaces and the labels stand: src/map.c. */
void map_draw(const struct data *d, const struct state *s,
	      const struct map_last *last, struct map_picture *pic);
void map_release(struct map_picture *pic);

/* Would map_draw() draw the same board for a and b (the spaces, the
 * pieces, the generals, the panel's tracks and boxes; not the last
 * order's moves)? */
bool map_board_same(const struct data *d, const struct state *a,
		    const struct state *b);

/* The picture as an SVG document. */
void map_svg(const struct map_picture *pic, struct strbuf *out);

/* The picture painted at scale (0.75 as mailed) and encoded as PNG with a
 * palette of at most MAP_PNG_PALETTE colours. Returns 0, or -1 with the
 * reason in err. */
int map_png(const struct map_picture *pic, double scale, struct strbuf *out,
	    struct strbuf *err);
#define MAP_PNG_SCALE 0.75
/* The most colours of its palette (4 bits a pixel; src/map-png.c) */
#define MAP_PNG_PALETTE 16

/* How map_png_as() paints and writes the PNG, for measuring the choices
 * (bench) and for comparing with the map as painted before (tests): a
 * palette of at most colours (1 to 256), or 0 for 8-bit RGB; zlib's
 * deflate level (0-9), and the longest chain of matches its search
 * follows (0: the level's own; src/map-png.c says why 64); the
 * fonts found by name through fontconfig (as before issue 41) rather
 * than opened from their files; the labels' halos as their outlines
 * stroked (as before issue 41) rather than the text painted around. */
struct map_png_how {
	int colours;
	int level;
	int chain;
	bool fontconfig;
	bool halo_stroked;
};
/* The map as mailed (map_png()), and as mailed before issue 41 (the
 * tests compare the two). */
extern const struct map_png_how map_png_mailed, map_png_before_41;
int map_png_as(const struct map_picture *pic, double scale,
	       const struct map_png_how *how, struct strbuf *out,
	       struct strbuf *err);

/*
 * The same, painted in a thread of its own while the caller goes on (a
 * turn writes and syncs its commit meanwhile, which is mostly waiting for
 * the disk): map_png_start() begins (or, if no thread can be made, does
 * the work at once), map_png_wait() joins and returns what map_png()
 * would have, the PNG in job->png and a reason in job->err. pic must not
 * change or go away until map_png_wait() has returned; map_png_release()
 * waits if need be and frees the job's buffers.
 */
struct map_png_job {
	const struct map_picture *pic;
	double scale;
	struct strbuf png, err;
	int ret;
	bool running;
	pthread_t thread;
};
void map_png_start(struct map_png_job *job, const struct map_picture *pic,
		   double scale);
int map_png_wait(struct map_png_job *job);
void map_png_release(struct map_png_job *job);

#endif
