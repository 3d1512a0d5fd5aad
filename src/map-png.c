/*
 * map-png.c - the map as a PNG picture (most mail clients show a PNG
 * inline and an SVG not at all): the shapes of map_draw() painted with
 * cairo, then encoded by a small PNG writer on zlib.
 *
 * Why not render the SVG: a turn mails the map, and rendering the SVG
 * document (librsvg laying out every label through Pango) and libpng's
 * default encoding were more than half of a turn's time in the profiles
 * (bench/results.md). Painting the same shapes directly costs a fifth of
 * that.
 *
 * Why a palette: every report that asks for a decision carries the map,
 * and the map is flat colour with antialiased edges. Painted as 24-bit
 * RGB it weighed 148 KB; as 16 colours, 4 bits a pixel, about 30 KB
 * (bench/results.md has the figures of each choice). The colours the
 * picture names (the spaces' fills, the texts', the connections') keep
 * their entries exactly; the rest of the palette comes from a median cut
 * of the blends of the edges. Text is hinted slightly, and thin lines are
 * drawn without antialiasing: crisper at 7.5 pixels a letter, and fewer
 * colours. The picture is painted a band of rows at a time, and what is
 * kept of it is the number of each pixel's colour, a row as runs of one
 * colour, to keep the memory of a turn small.
 */
#include <arpa/inet.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#define ZLIB_CONST
#include <zlib.h>
#include <pthread.h>

#include "map.h"
#include "trace.h"

/*
 * The map's two fonts (MAP_FONT_FAMILY, regular and bold), opened from
 * their files through FreeType. Asking cairo for the family by name
 * makes fontconfig read its configuration and its cache of every font
 * on the system in every run: a tenth of a turn (bench/results.md,
 * issue 41), for the same two files and the same pixels. The files are
 * where Debian's fonts-dejavu-core puts them (contrib/install-deps) or
 * where other systems do; if none opens, the family is asked by name as
 * before.
 */
static const char *const font_files[][2] = {
	{ "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
	  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf" },
	{ "/usr/share/fonts/TTF/DejaVuSans.ttf",
	  "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf" },
	{ "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
	  "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf" },
	{ "/usr/local/share/fonts/dejavu/DejaVuSans.ttf",
	  "/usr/local/share/fonts/dejavu/DejaVuSans-Bold.ttf" },
};

/* One FreeType library for the process, made once (the painter may run
 * in a thread of its own; one map is painted at a time) and kept: cairo
 * frees a face when it drops it, which may be after a map is done. */
static FT_Library ft_library;
static bool ft_ready;
static pthread_once_t ft_once = PTHREAD_ONCE_INIT;

static void ft_start(void)
{
	ft_ready = FT_Init_FreeType(&ft_library) == 0;
}

static const cairo_user_data_key_t ft_face_key;

static void ft_face_done(void *face)
{
	FT_Done_Face(face);
}

/* A cairo face of the font file at path, or NULL. */
static cairo_font_face_t *face_of_file(const char *path)
{
	cairo_font_face_t *cf;
	FT_Face face;

	pthread_once(&ft_once, ft_start);
	if (!ft_ready || FT_New_Face(ft_library, path, 0, &face) != 0)
		return NULL;
	cf = cairo_ft_font_face_create_for_ft_face(face, 0);
	if (cairo_font_face_status(cf) != CAIRO_STATUS_SUCCESS ||
	    cairo_font_face_set_user_data(cf, &ft_face_key, face, ft_face_done) !=
	    CAIRO_STATUS_SUCCESS) {
		cairo_font_face_destroy(cf);
		FT_Done_Face(face);
		return NULL;
	}
	return cf;
}

/* faces[0] regular, faces[1] bold: from the files, or by name. */
static void open_faces(cairo_font_face_t *faces[2], bool by_name)
{
	for (size_t k = 0; !by_name && k < ARRAY_SIZE(font_files); k++) {
		faces[0] = face_of_file(font_files[k][0]);
		faces[1] = faces[0] ? face_of_file(font_files[k][1]) : NULL;
		if (faces[1])
			return;
		if (faces[0])
			cairo_font_face_destroy(faces[0]);
	}
	faces[0] = cairo_toy_font_face_create(MAP_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
					      CAIRO_FONT_WEIGHT_NORMAL);
	faces[1] = cairo_toy_font_face_create(MAP_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
					      CAIRO_FONT_WEIGHT_BOLD);
}

static void set_colour(cairo_t *cr, const char *hex, double alpha)
{
	unsigned long v = strtoul(hex + 1, NULL, 16);

	cairo_set_source_rgba(cr, ((v >> 16) & 0xff) / 255.0,
			      ((v >> 8) & 0xff) / 255.0, (v & 0xff) / 255.0,
			      alpha);
}

/* A stroke's width: 1 unless the shape says otherwise (as in SVG). */
static double stroke_width(const struct map_item *it)
{
	return it->stroke_width ? it->stroke_width : 1;
}

/* The SVG's arrow head: a triangle 7 stroke widths long and wide (its
 * marker's viewBox of 10), the tip a tenth of it past the line's end. */
static void arrow_head(cairo_t *cr, const struct map_item *it, double sw)
{
	double dx = it->x2 - it->x1, dy = it->y2 - it->y1;
	double len = sqrt(dx * dx + dy * dy), k = 0.7 * sw;

	if (len <= 0)
		return;
	dx /= len;
	dy /= len;
	cairo_move_to(cr, it->x2 + dx * k, it->y2 + dy * k);
	cairo_line_to(cr, it->x2 - dx * 9 * k - dy * 5 * k, it->y2 - dy * 9 * k + dx * 5 * k);
	cairo_line_to(cr, it->x2 - dx * 9 * k + dy * 5 * k, it->y2 - dy * 9 * k - dx * 5 * k);
	cairo_close_path(cr);
	set_colour(cr, it->stroke, 1);
	cairo_fill(cr);
}

/* The rows of the picture (in its own units) that a shape may touch: its
 * outline widened by its stroke, the arrow head's 7 stroke widths, and a
 * text's ascent and descent at MAP_FONT_SIZE. */
static void extent(const struct map_item *it, double *top, double *bottom)
{
	double sw = stroke_width(it);
	double m = sw + (it->arrow ? 8 * sw : 0);

	switch (it->shape) {
	case MAP_RECT:
		*top = it->y1 - m;
		*bottom = it->y1 + it->y2 + m;
		return;
	case MAP_CIRCLE:
		*top = it->y1 - it->r - m;
		*bottom = it->y1 + it->r + m;
		return;
	case MAP_LINE:
		*top = (it->y1 < it->y2 ? it->y1 : it->y2) - m;
		*bottom = (it->y1 < it->y2 ? it->y2 : it->y1) + m;
		return;
	case MAP_TEXT:
		*top = it->y1 - 1.5 * MAP_FONT_SIZE;
		*bottom = it->y1 + 0.5 * MAP_FONT_SIZE;
		return;
	}
	*top = -1e9;
	*bottom = 1e9;
}

/*
 * A label's halo: the background's colour around its letters, so that a
 * line under them does not cut them. The SVG's halo is the letters'
 * outlines stroked MAP_HALO_WIDTH wide, 1.1 pixels out at the mailed
 * scale; stroking them here was a fifth of a turn (bench/results.md,
 * issue 41), so that is kept only to compare with (how->halo_stroked).
 * Instead the letters are drawn once, as cairo draws them (each glyph on
 * whole pixels), into a mask of their own; the mask is widened by the
 * halo's reach, 1.1 pixels: each pixel takes the most of its own and its
 * eight neighbours' coverage, a diagonal one's by 0.7 (it lies 1.4
 * pixels off, partly within the reach), made HALO_GAIN times stronger,
 * to at most opaque (a stem of a letter covers its pixels only in part
 * at this size, the stroked band wholly); and painted in the
 * background's colour. Measured against the stroked halo on a label
 * over six lines (tests/unit/test_map_png.c) it hides as many of their
 * pixels; on the maps of a game 0.05% of the pixels come out otherwise.
 */
#define HALO_GAIN 4
#define HALO_DIAGONAL 0.7

static int max5(int a, int b, int c, int d, int e)
{
	a = a > b ? a : b;
	c = c > d ? c : d;
	a = a > c ? a : c;
	return a > e ? a : e;
}

static void halo(cairo_t *cr, const struct map_item *it, bool stroked)
{
	cairo_text_extents_t ext;
	cairo_font_options_t *fo;
	cairo_surface_t *mask, *wide;
	cairo_t *m;
	cairo_matrix_t fm, ctm;
	double x = it->x1, y = it->y1, x0, y0, x1, y1;
	int ox, oy, w, h, stride;
	unsigned char *src, *dst;

	set_colour(cr, MAP_BACKGROUND, 1);
	/* and the shapes painted after it in its band are stroked with
	 * round joins, as the stroked halo always left them (the same
	 * pixels as before) */
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	if (stroked) {
		cairo_move_to(cr, it->x1, it->y1);
		cairo_text_path(cr, it->text);
		cairo_set_line_width(cr, MAP_HALO_WIDTH);
		cairo_stroke(cr);
		return;
	}
	/* the letters' box in the band's pixels, and a pixel around */
	cairo_text_extents(cr, it->text, &ext);
	x0 = it->x1 + ext.x_bearing;
	y0 = it->y1 + ext.y_bearing;
	x1 = x0 + ext.width;
	y1 = y0 + ext.height;
	cairo_user_to_device(cr, &x0, &y0);
	cairo_user_to_device(cr, &x1, &y1);
	cairo_user_to_device(cr, &x, &y);
	ox = (int)floor(x0) - 2;
	oy = (int)floor(y0) - 2;
	w = (int)ceil(x1) + 3 - ox;
	h = (int)ceil(y1) + 3 - oy;
	if (w <= 0 || h <= 0)
		return;
	/* the letters as cairo places them on the band: the same glyphs
	 * (the font's size in pixels, its options), moved by whole pixels */
	mask = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
	m = cairo_create(mask);
	fo = cairo_font_options_create();
	cairo_get_font_options(cr, fo);
	cairo_set_font_options(m, fo);
	cairo_font_options_destroy(fo);
	cairo_set_font_face(m, cairo_get_font_face(cr));
	cairo_get_font_matrix(cr, &fm);
	cairo_get_matrix(cr, &ctm);
	cairo_matrix_multiply(&fm, &fm, &ctm);
	fm.x0 = fm.y0 = 0;
	cairo_set_font_matrix(m, &fm);
	cairo_move_to(m, x - ox, y - oy);
	cairo_show_text(m, it->text);
	cairo_destroy(m);
	cairo_surface_flush(mask);
	/* widened by a pixel, stronger */
	wide = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
	src = cairo_image_surface_get_data(mask);
	dst = cairo_image_surface_get_data(wide);
	stride = cairo_image_surface_get_stride(mask);
	/* (a surface that could not be made has no data: masking with it
	 * puts the band's painting in error, which map_png_as() reports) */
	for (int py = 1; src && dst && py < h - 1; py++)
		for (int px = 1; px < w - 1; px++) {
			const unsigned char *c = src + py * stride + px;
			int near = max5(c[0], c[-1], c[1], c[-stride], c[stride]);
			int diag = max5(0, c[-stride - 1], c[-stride + 1], c[stride - 1], c[stride + 1]);
			double most = near > HALO_DIAGONAL * diag ? near : HALO_DIAGONAL * diag;
			most *= HALO_GAIN;
			dst[py * stride + px] = (unsigned char)(most > 255 ? 255 : most);
		}
	cairo_surface_mark_dirty(wide);
	cairo_save(cr);
	cairo_identity_matrix(cr);
	cairo_mask_surface(cr, wide, ox, oy);
	cairo_restore(cr);
	cairo_surface_destroy(wide);
	cairo_surface_destroy(mask);
}

static void paint(cairo_t *cr, const struct map_item *it,
		  cairo_font_face_t *const faces[2], const struct map_png_how *how)
{
	double sw = stroke_width(it);

	cairo_new_path(cr);	/* a text leaves a current point behind */
	if (it->shape == MAP_TEXT) {
		const struct map_font_desc *f = &map_fonts[it->font];
		cairo_set_font_face(cr, faces[f->bold]);
		cairo_set_font_size(cr, MAP_FONT_SIZE);
		if (f->halo)
			halo(cr, it, how->halo_stroked);
		cairo_move_to(cr, it->x1, it->y1);
		set_colour(cr, f->fill, 1);
		cairo_show_text(cr, it->text);
		return;
	}
	/* a thin line (a connection) crisp, one pixel wide: no grey fringe
	 * to blur it and to cost colours */
	cairo_set_antialias(cr, it->shape == MAP_LINE && sw < 2 ? CAIRO_ANTIALIAS_NONE :
			    CAIRO_ANTIALIAS_DEFAULT);
	if (it->shape == MAP_RECT)
		cairo_rectangle(cr, it->x1, it->y1, it->x2, it->y2);
	else if (it->shape == MAP_CIRCLE)
		cairo_arc(cr, it->x1, it->y1, it->r, 0, 2 * M_PI);
	else {
		cairo_move_to(cr, it->x1, it->y1);
		cairo_line_to(cr, it->x2, it->y2);
	}
	if (it->fill && it->shape != MAP_LINE) {
		set_colour(cr, it->fill, 1);
		if (it->stroke)
			cairo_fill_preserve(cr);
		else
			cairo_fill(cr);
	}
	if (it->stroke) {
		double dash[2] = { it->dash_on, it->dash_off };
		cairo_set_line_width(cr, sw);
		cairo_set_dash(cr, dash, it->dash_on > 0 ? 2 : 0, 0);
		set_colour(cr, it->stroke, it->stroke_opacity ? it->stroke_opacity : 1);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	if (it->arrow && it->stroke)
		arrow_head(cr, it, sw);
}

static void chunk(struct strbuf *out, const char *type, const void *data,
		  size_t len)
{
	uint32_t be = htonl((uint32_t)len);
	uLong crc = crc32(0, (const Bytef *)type, 4);

	strbuf_add(out, &be, 4);
	strbuf_add(out, type, 4);
	/* not for an empty chunk: crc32() of a NULL buffer starts over */
	if (len) {
		strbuf_add(out, data, len);
		crc = crc32(crc, data, (uInt)len);
	}
	be = htonl((uint32_t)crc);
	strbuf_add(out, &be, 4);
}

/*
 * The colours of the picture as painted: each distinct colour once, with
 * how many pixels have it, found by an open-addressed hash of its RGB
 * value. The map is flat colour with antialiased edges: some 3,000
 * colours; the table starts for 1,024 and doubles as it fills, up to
 * MAP_PNG_MAX_COLOURS (a table made for that many at once was 670 KB of
 * a turn's memory).
 */
#define MAP_PNG_MAX_COLOURS 32768
struct colours {
	int bits;		/* 2^bits slots, twice the colours' room */
	uint32_t *slot_rgb;	/* rgb + 1, 0 for an empty slot */
	uint16_t *slot_id;
	int n, room;
	uint32_t *rgb;
	uint32_t *count;
	uint8_t *pal;		/* its palette entry, once chosen */
};

static void colours_init(struct colours *c, int bits)
{
	c->bits = bits;
	c->room = 1 << (bits - 1);
	c->slot_rgb = xcalloc((size_t)1 << bits, sizeof(*c->slot_rgb));
	c->slot_id = xcalloc((size_t)1 << bits, sizeof(*c->slot_id));
	c->rgb = xrealloc(c->rgb, (size_t)c->room * sizeof(*c->rgb));
	c->count = xrealloc(c->count, (size_t)c->room * sizeof(*c->count));
	c->pal = xrealloc(c->pal, (size_t)c->room * sizeof(*c->pal));
}

static void colours_release(struct colours *c)
{
	free(c->slot_rgb);
	free(c->slot_id);
	free(c->rgb);
	free(c->count);
	free(c->pal);
}

static uint32_t colour_slot(const struct colours *c, uint32_t rgb)
{
	uint32_t mask = ((uint32_t)1 << c->bits) - 1;

	for (uint32_t h = (rgb * 2654435761u) >> (32 - c->bits);; h = (h + 1) & mask)
		if (c->slot_rgb[h] == rgb + 1 || !c->slot_rgb[h])
			return h;
}

/* The number of colour rgb, added if new; -1 if there are too many. */
static int colour_id(struct colours *c, uint32_t rgb)
{
	uint32_t h = colour_slot(c, rgb);

	if (c->slot_rgb[h])
		return c->slot_id[h];
	if (c->n == c->room) {
		uint32_t *old_rgb = c->slot_rgb;
		uint16_t *old_id = c->slot_id;
		size_t old_slots = (size_t)1 << c->bits;
		if (c->n == MAP_PNG_MAX_COLOURS)
			return -1;
		colours_init(c, c->bits + 1);
		for (size_t k = 0; k < old_slots; k++)
			if (old_rgb[k]) {
				uint32_t at = colour_slot(c, old_rgb[k] - 1);
				c->slot_rgb[at] = old_rgb[k];
				c->slot_id[at] = old_id[k];
			}
		free(old_rgb);
		free(old_id);
		h = colour_slot(c, rgb);
	}
	c->slot_rgb[h] = rgb + 1;
	c->slot_id[h] = (uint16_t)c->n;
	c->rgb[c->n] = rgb;
	c->count[c->n] = 0;
	return c->n++;
}

/* Was a pixel painted in colour rgb? */
static bool colour_painted(const struct colours *c, uint32_t rgb)
{
	return c->slot_rgb[colour_slot(c, rgb)] != 0;
}

/*
 * The picture as the numbers of its pixels' colours, each row as runs of
 * one colour (the map is flat colour: a row of 880 pixels has some 60
 * runs, a tenth of the memory of a number per pixel; issue 41 brought a
 * turn's peak RSS under 16 MiB).
 */
struct run {
	uint16_t id, len;
};
struct runs {
	struct run *run;
	size_t n, alloc;
	size_t *row;		/* h + 1: the first run of each row, and the end */
};

static void runs_add(struct runs *r, int id, int len)
{
	if (r->n == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 4096;
		r->run = xrealloc(r->run, r->alloc * sizeof(*r->run));
	}
	r->run[r->n].id = (uint16_t)id;
	r->run[r->n].len = (uint16_t)len;
	r->n++;
}

/* Row y's colour numbers into ids (the picture's width of them). */
static void runs_row(const struct runs *r, int y, uint16_t *ids)
{
	for (size_t k = r->row[y]; k < r->row[y + 1]; k++)
		for (int i = 0; i < r->run[k].len; i++)
			*ids++ = r->run[k].id;
}

static int channel(uint32_t rgb, int axis)
{
	return (int)(rgb >> (16 - 8 * axis)) & 0xff;
}

/* A colour and its pixels, as median_cut() sorts them. */
struct shade {
	uint32_t rgb, count;
};

static int by_red(const void *a, const void *b)
{
	return channel(((const struct shade *)a)->rgb, 0) - channel(((const struct shade *)b)->rgb, 0);
}

static int by_green(const void *a, const void *b)
{
	return channel(((const struct shade *)a)->rgb, 1) - channel(((const struct shade *)b)->rgb, 1);
}

static int by_blue(const void *a, const void *b)
{
	return channel(((const struct shade *)a)->rgb, 2) - channel(((const struct shade *)b)->rgb, 2);
}

/*
 * The palette: first the colours the picture names (its shapes' fills
 * and strokes and its texts' colours: a port's small dot keeps its
 * green), n_named of them in named; then, for the rest (the edges' blends
 * and what a translucent stroke makes), a median cut: all those colours
 * in one box; the box whose widest channel spread weighs most (spread
 * times the square root of its pixels) is cut at the pixel-weighted
 * median of that channel, until the palette has max entries or no box
 * can be cut. A box's colour is the one most of its pixels have when
 * that is more than half of them, else their mean. Writes c->pal for
 * every colour: the nearest entry. Returns the number of entries.
 */
static int median_cut(struct colours *c, const uint32_t *named, int n_named,
		      uint8_t pal[][3], int max)
{
	static int (*const by[3])(const void *, const void *) = { by_red, by_green, by_blue };
	struct shade *e = xmalloc((size_t)c->n * sizeof(*e));
	int lo[256], hi[256], n = 0, boxes = 1, m = 0;

	for (int k = 0; k < n_named && n < max; k++) {
		for (int a = 0; a < 3; a++)
			pal[n][a] = (uint8_t)channel(named[k], a);
		n++;
	}
	for (int i = 0; i < c->n; i++) {
		bool is_named = false;
		for (int k = 0; k < n; k++)
			is_named |= c->rgb[i] == named[k];
		if (is_named)
			continue;
		e[m].rgb = c->rgb[i];
		e[m].count = c->count[i];
		m++;
	}
	lo[0] = 0;
	hi[0] = m;
	if (!m || n >= max)
		boxes = 0;
	while (boxes && n + boxes < max && boxes < 256) {
		double best = 0;
		int pick = -1, axis = 0;
		for (int b = 0; b < boxes; b++) {
			int mn[3] = { 255, 255, 255 }, mx[3] = { 0, 0, 0 }, wide = 0;
			double pixels = 0;
			for (int k = lo[b]; k < hi[b]; k++) {
				for (int a = 0; a < 3; a++) {
					int v = channel(e[k].rgb, a);
					mn[a] = v < mn[a] ? v : mn[a];
					mx[a] = v > mx[a] ? v : mx[a];
				}
				pixels += e[k].count;
			}
			for (int a = 1; a < 3; a++)
				if (mx[a] - mn[a] > mx[wide] - mn[wide])
					wide = a;
			if (hi[b] - lo[b] > 1 && (mx[wide] - mn[wide]) * sqrt(pixels) > best) {
				best = (mx[wide] - mn[wide]) * sqrt(pixels);
				pick = b;
				axis = wide;
			}
		}
		if (pick < 0)
			break;
		qsort(e + lo[pick], (size_t)(hi[pick] - lo[pick]), sizeof(*e), by[axis]);
		{
			double total = 0, run = 0;
			int cut;
			for (int k = lo[pick]; k < hi[pick]; k++)
				total += e[k].count;
			/* the first of the second box: past half the pixels,
			 * and neither box empty */
			for (cut = lo[pick]; cut < hi[pick] - 1; cut++) {
				run += e[cut].count;
				if (run >= total / 2)
					break;
			}
			cut++;
			if (cut >= hi[pick])
				cut = hi[pick] - 1;
			lo[boxes] = cut;
			hi[boxes] = hi[pick];
			hi[pick] = cut;
			boxes++;
		}
	}
	for (int b = 0; b < boxes; b++, n++) {
		double sum[3] = { 0, 0, 0 }, total = 0;
		int top = lo[b];
		for (int k = lo[b]; k < hi[b]; k++) {
			for (int a = 0; a < 3; a++)
				sum[a] += (double)channel(e[k].rgb, a) * e[k].count;
			total += e[k].count;
			if (e[k].count > e[top].count)
				top = k;
		}
		for (int a = 0; a < 3; a++)
			pal[n][a] = e[top].count * 2 > total ? (uint8_t)channel(e[top].rgb, a) :
				    (uint8_t)lround(sum[a] / total);
	}
	for (int i = 0; i < c->n; i++) {
		long best = -1;
		for (int b = 0; b < n; b++) {
			long dr = channel(c->rgb[i], 0) - pal[b][0], dg = channel(c->rgb[i], 1) - pal[b][1];
			long db = channel(c->rgb[i], 2) - pal[b][2], d = dr * dr + dg * dg + db * db;
			if (best < 0 || d < best) {
				best = d;
				c->pal[i] = (uint8_t)b;
			}
		}
	}
	free(e);
	return n;
}

/* Deflates len bytes of in into idat, flush as deflate() takes it. */
static int deflate_into(z_stream *zs, struct strbuf *idat,
			const unsigned char *in, size_t len, int flush)
{
	unsigned char buf[16384];
	int r;

	zs->next_in = in;
	zs->avail_in = (uInt)len;
	do {
		zs->next_out = buf;
		zs->avail_out = sizeof(buf);
		r = deflate(zs, flush);
		if (r == Z_STREAM_ERROR)
			return -1;
		strbuf_add(idat, buf, sizeof(buf) - zs->avail_out);
	} while (zs->avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
	return 0;
}

/*
 * The PNG (RFC 2083) of a picture w x h whose pixels are the colour
 * numbers px (of c): colour type 3 (a palette) of at most how->colours
 * entries, 4 bits a pixel when 16 entries do, else 8 (or, with no
 * colours, 8-bit RGB); no interlace; each row with filter 0 (none: a
 * palette's numbers are no quantities to predict; the other filters make
 * it a fifth larger), through zlib's deflate at how->level, its search
 * for matches tuned if how->chain: as mailed, the best level's longest
 * matches looked for along chains of 64 instead of 4096. Measured on a
 * map (bench/results.md, issues 29 and 41): the best level as zlib tunes
 * it 26.8 KB; chains of 512 (as mailed before issue 41) 27.7 KB for a
 * seventh of its time; chains of 64 29.3 KB for half of that again
 * (deflate was a quarter of a turn); the default level 29.7 KB, slower
 * than chains of 64.
 */
static int png_write(const struct map_picture *pic, struct colours *c,
		     const struct runs *px, int w, int h,
		     const struct map_png_how *how, struct strbuf *out,
		     struct strbuf *err)
{
	static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	uint8_t pal[256][3];
	uint32_t named[64];
	int n_named = 0, n = 0, depth = 8;
	size_t row_len;
	unsigned char *row, ihdr[13];
	uint16_t *src;
	struct strbuf idat = STRBUF_INIT;
	z_stream zs;
	uint32_t be;
	int ret = -1;

	/* the colours the picture names, as they were painted */
	for (int i = 0; how->colours && i < pic->n; i++) {
		const struct map_item *it = &pic->item[i];
		const char *hex[3] = { it->fill,
				       it->stroke_opacity && it->stroke_opacity < 1 ? NULL : it->stroke,
				       it->shape == MAP_TEXT ? map_fonts[it->font].fill : NULL };
		for (int k = 0; k < 3; k++) {
			uint32_t rgb;
			bool seen = false;
			if (!hex[k])
				continue;
			rgb = (uint32_t)strtoul(hex[k] + 1, NULL, 16);
			for (int j = 0; j < n_named; j++)
				seen |= named[j] == rgb;
			if (!seen && colour_painted(c, rgb) && n_named < (int)ARRAY_SIZE(named))
				named[n_named++] = rgb;
		}
	}
	if (how->colours) {
		n = median_cut(c, named, n_named, pal, how->colours);
		depth = n <= 16 ? 4 : 8;
	}
	row_len = !how->colours ? 3 * (size_t)w : depth == 8 ? (size_t)w : ((size_t)w + 1) / 2;
	row = xmalloc(row_len + 1);
	src = xmalloc((size_t)w * sizeof(*src));
	memset(&zs, 0, sizeof(zs));
	/* memory level 8, zlib's default: 9 took 128 KB more of a turn and
	 * made this PNG 1% larger */
	if (deflateInit2(&zs, how->level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		strbuf_addstr(err, "zlib cannot start deflating");
		free(row);
		return -1;
	}
	if (how->chain)
		deflateTune(&zs, 32, 258, 258, how->chain);
	for (int y = 0; y < h; y++) {
		row[0] = 0;
		if (!how->colours) {
			runs_row(px, y, src);
			for (int x = 0; x < w; x++) {
				row[1 + 3 * x] = (unsigned char)channel(c->rgb[src[x]], 0);
				row[2 + 3 * x] = (unsigned char)channel(c->rgb[src[x]], 1);
				row[3 + 3 * x] = (unsigned char)channel(c->rgb[src[x]], 2);
			}
		} else if (depth == 8) {
			unsigned char *o = row + 1;
			for (size_t k = px->row[y]; k < px->row[y + 1]; k++) {
				memset(o, c->pal[px->run[k].id], px->run[k].len);
				o += px->run[k].len;
			}
		} else {
			/* two pixels a byte, the first in the high half: a run
			 * fills whole bytes between its ends */
			memset(row + 1, 0, row_len);
			for (size_t k = px->row[y], x = 0; k < px->row[y + 1]; k++) {
				unsigned v = c->pal[px->run[k].id];
				size_t end = x + px->run[k].len;
				if (x % 2 && x < end)
					row[1 + x / 2] |= (unsigned char)v, x++;
				if (end - x >= 2) {
					memset(row + 1 + x / 2, (int)(v << 4 | v), (end - x) / 2);
					x += (end - x) / 2 * 2;
				}
				if (x < end)
					row[1 + x / 2] = (unsigned char)(v << 4), x++;
			}
		}
		if (deflate_into(&zs, &idat, row, row_len + 1, Z_NO_FLUSH) < 0)
			goto fail;
	}
	if (deflate_into(&zs, &idat, NULL, 0, Z_FINISH) < 0)
		goto fail;
	be = htonl((uint32_t)w);
	memcpy(ihdr, &be, 4);
	be = htonl((uint32_t)h);
	memcpy(ihdr + 4, &be, 4);
	ihdr[8] = (unsigned char)depth;		/* bits a sample */
	ihdr[9] = how->colours ? 3 : 2;		/* colour type: a palette, or RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;	/* deflate, filter set 0, no interlace */
	strbuf_add(out, signature, sizeof(signature));
	chunk(out, "IHDR", ihdr, sizeof(ihdr));
	if (how->colours)
		chunk(out, "PLTE", pal, 3 * (size_t)n);
	chunk(out, "IDAT", idat.buf, idat.len);
	chunk(out, "IEND", NULL, 0);
	ret = 0;
fail:
	if (ret < 0)
		strbuf_addstr(err, "zlib cannot deflate the map");
	deflateEnd(&zs);
	strbuf_release(&idat);
	free(row);
	free(src);
	return ret;
}

/* Rows painted at a time: the whole picture would hold 3.7 MB of pixels
 * at once, a band a tenth of that (and costs ~10% more painting); what is
 * kept of it is its runs of colour numbers (struct runs). */
#define MAP_PNG_BAND 128

const struct map_png_how map_png_mailed = {
	.colours = MAP_PNG_PALETTE, .level = Z_BEST_COMPRESSION, .chain = 64,
};

const struct map_png_how map_png_before_41 = {
	.colours = MAP_PNG_PALETTE, .level = Z_BEST_COMPRESSION, .chain = 512,
	.fontconfig = true, .halo_stroked = true,
};

int map_png(const struct map_picture *pic, double scale, struct strbuf *out,
	    struct strbuf *err)
{
	return map_png_as(pic, scale, &map_png_mailed, out, err);
}

int map_png_as(const struct map_picture *pic, double scale,
	       const struct map_png_how *how, struct strbuf *out,
	       struct strbuf *err)
{
	int w = (int)(pic->w * scale), h = (int)(pic->h * scale), ret = -1;
	cairo_surface_t *surface;
	cairo_font_options_t *fo;
	cairo_font_face_t *faces[2];
	struct colours *c;
	struct runs px = { 0 };

	if (w < 1 || h < 1) {
		strbuf_addstr(err, "the map has no size in pixels");
		return -1;
	}
	if (w > UINT16_MAX) {	/* a run's length is 16 bits */
		strbuf_addstr(err, "the map is too wide to paint: draw it smaller");
		return -1;
	}
	c = xcalloc(1, sizeof(*c));
	colours_init(c, 11);
	px.row = xcalloc((size_t)h + 1, sizeof(*px.row));
	surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, MAP_PNG_BAND);
	/* glyphs placed as the SVG's are, not snapped to pixels; their
	 * outlines hinted a little, crisper at this size */
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_SLIGHT);
	open_faces(faces, how->fontconfig);
	for (int y0 = 0; y0 < h; y0 += MAP_PNG_BAND) {
		cairo_t *cr = cairo_create(surface);
		cairo_status_t st;
		int rows = h - y0 < MAP_PNG_BAND ? h - y0 : MAP_PNG_BAND;
		int stride = cairo_image_surface_get_stride(surface);
		const unsigned char *data;
		/* the band's rows in the picture's units */
		double band_top = y0 / scale, band_bottom = (y0 + MAP_PNG_BAND) / scale;
		cairo_translate(cr, 0, -y0);
		cairo_scale(cr, scale, scale);
		cairo_set_font_options(cr, fo);
		for (int i = 0; i < pic->n; i++) {
			double top, bottom;
			extent(&pic->item[i], &top, &bottom);
			if (bottom >= band_top - 1 && top <= band_bottom + 1)
				paint(cr, &pic->item[i], faces, how);
		}
		cairo_surface_flush(surface);
		st = cairo_status(cr);
		cairo_destroy(cr);
		if (st != CAIRO_STATUS_SUCCESS) {
			strbuf_addf(err, "the map cannot be drawn: %s",
				    cairo_status_to_string(st));
			goto out;
		}
		/* each pixel, a native-endian 32-bit word 0x__RRGGBB, as the
		 * number of its colour */
		data = cairo_image_surface_get_data(surface);
		for (int y = 0; y < rows; y++) {
			const uint32_t *src = (const uint32_t *)(data + (size_t)y * stride);
			/* flat colour: a row is often the one above it, and a
			 * pixel mostly has its left neighbour's */
			px.row[y0 + y] = px.n;
			if (y && !memcmp(src, data + (size_t)(y - 1) * stride, (size_t)w * 4)) {
				for (size_t k = px.row[y0 + y - 1], e = px.n; k < e; k++) {
					c->count[px.run[k].id] += px.run[k].len;
					runs_add(&px, px.run[k].id, px.run[k].len);
				}
				px.row[y0 + y + 1] = px.n;
				continue;
			}
			for (int x = 0, len; x < w; x += len) {
				uint32_t rgb = src[x] & 0xffffff;
				int id = colour_id(c, rgb);
				if (id < 0) {
					strbuf_addstr(err, "the map has too many colours");
					goto out;
				}
				for (len = 1; x + len < w && (src[x + len] & 0xffffff) == rgb; len++)
					;
				c->count[id] += (uint32_t)len;
				runs_add(&px, id, len);
			}
			px.row[y0 + y + 1] = px.n;
		}
	}
	ret = png_write(pic, c, &px, w, h, how, out, err);
out:
	cairo_font_face_destroy(faces[0]);
	cairo_font_face_destroy(faces[1]);
	cairo_font_options_destroy(fo);
	cairo_surface_destroy(surface);
	free(px.run);
	free(px.row);
	colours_release(c);
	free(c);
	return ret;
}

static void *png_job(void *arg)
{
	struct map_png_job *job = arg;

	job->ret = map_png(job->pic, job->scale, &job->png, &job->err);
	/* with the painter's own CPU time: the bench takes it from a
	 * turn's to tell a turn without its map (issue 41) */
	trace_perf("PNG painted (its own thread)");
	return NULL;
}

void map_png_start(struct map_png_job *job, const struct map_picture *pic,
		   double scale)
{
	memset(job, 0, sizeof(*job));
	strbuf_init(&job->png);
	strbuf_init(&job->err);
	job->pic = pic;
	job->scale = scale;
	if (pthread_create(&job->thread, NULL, png_job, job) == 0)
		job->running = true;
	else
		png_job(job);	/* no thread: the same work, now */
}

int map_png_wait(struct map_png_job *job)
{
	if (job->running) {
		if (pthread_join(job->thread, NULL) != 0)
			BUG("cannot join the map's painter");
		job->running = false;
	}
	return job->ret;
}

void map_png_release(struct map_png_job *job)
{
	map_png_wait(job);
	strbuf_release(&job->png);
	strbuf_release(&job->err);
}
