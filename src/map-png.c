/*
 * map-png.c - the map as a PNG picture (most mail clients show a PNG
 * inline and an SVG not at all): the shapes of map_draw() painted with
 * cairo, then encoded by a small PNG writer on zlib.
 *
 * Why not render the SVG: a turn mails the map, and rendering the SVG
 * document (librsvg laying out every label through Pango) and libpng's
 * default encoding were more than half of a turn's time in the profiles
 * (bench/results.md). Painting the same shapes directly, and encoding
 * with the fastest deflate and no row filter (the map is flat colour:
 * the files come out smaller than libpng's), cost a fifth of that.
 */
#include <arpa/inet.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <zlib.h>

#include "map.h"

static void set_colour(cairo_t *cr, const char *hex, double alpha)
{
	unsigned long v = strtoul(hex + 1, NULL, 16);

	cairo_set_source_rgba(cr, ((v >> 16) & 0xff) / 255.0,
			      ((v >> 8) & 0xff) / 255.0, (v & 0xff) / 255.0,
			      alpha);
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

static void paint(cairo_t *cr, const struct map_item *it)
{
	double sw = it->stroke_width ? it->stroke_width : 1;

	cairo_new_path(cr);	/* a text leaves a current point behind */
	if (it->shape == MAP_TEXT) {
		const struct map_font_desc *f = &map_fonts[it->font];
		cairo_select_font_face(cr, MAP_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
				       f->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
		set_colour(cr, f->fill, 1);
		cairo_move_to(cr, it->x1, it->y1);
		cairo_show_text(cr, it->text);
		return;
	}
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
 * An RGB24 cairo surface as a PNG (RFC 2083): 8-bit RGB, no interlace,
 * each row with filter 0 (none), the rows through zlib's deflate at its
 * fastest level.
 */
static int encode_png(cairo_surface_t *surface, struct strbuf *out,
		      struct strbuf *err)
{
	static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	int w = cairo_image_surface_get_width(surface);
	int h = cairo_image_surface_get_height(surface);
	int stride = cairo_image_surface_get_stride(surface);
	const unsigned char *px = cairo_image_surface_get_data(surface);
	size_t row = 3 * (size_t)w + 1;
	unsigned char ihdr[13], *raw, *z;
	uint32_t be;
	z_stream zs;
	uLong bound;
	int ret = -1;

	raw = xmalloc(row * (size_t)h);
	for (int y = 0; y < h; y++) {
		/* cairo's RGB24: a native-endian 32-bit word 0x__RRGGBB */
		const uint32_t *src = (const uint32_t *)(px + (size_t)y * stride);
		unsigned char *o = raw + (size_t)y * row;
		*o++ = 0;
		for (int x = 0; x < w; x++) {
			*o++ = (unsigned char)(src[x] >> 16);
			*o++ = (unsigned char)(src[x] >> 8);
			*o++ = (unsigned char)src[x];
		}
	}
	memset(&zs, 0, sizeof(zs));
	if (deflateInit(&zs, Z_BEST_SPEED) != Z_OK) {
		strbuf_addstr(err, "zlib cannot start deflating");
		free(raw);
		return -1;
	}
	bound = deflateBound(&zs, row * (size_t)h);
	z = xmalloc(bound);
	zs.next_in = raw;
	zs.avail_in = (uInt)(row * (size_t)h);
	zs.next_out = z;
	zs.avail_out = (uInt)bound;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		strbuf_addstr(err, "zlib cannot deflate the map");
		goto out;
	}
	be = htonl((uint32_t)w);
	memcpy(ihdr, &be, 4);
	be = htonl((uint32_t)h);
	memcpy(ihdr + 4, &be, 4);
	ihdr[8] = 8;		/* bits per sample */
	ihdr[9] = 2;		/* colour type: RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;	/* deflate, filter set 0, no interlace */
	strbuf_add(out, signature, sizeof(signature));
	chunk(out, "IHDR", ihdr, sizeof(ihdr));
	chunk(out, "IDAT", z, zs.total_out);
	chunk(out, "IEND", NULL, 0);
	ret = 0;
out:
	deflateEnd(&zs);
	free(z);
	free(raw);
	return ret;
}

int map_png(const struct map_picture *pic, double scale, struct strbuf *out,
	    struct strbuf *err)
{
	int w = (int)(pic->w * scale), h = (int)(pic->h * scale), ret = -1;
	cairo_surface_t *surface;
	cairo_t *cr;

	if (w < 1 || h < 1) {
		strbuf_addstr(err, "the map has no size in pixels");
		return -1;
	}
	surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	cr = cairo_create(surface);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		strbuf_addf(err, "the map cannot be drawn: %s",
			    cairo_status_to_string(cairo_status(cr)));
		goto out;
	}
	cairo_scale(cr, scale, scale);
	cairo_set_font_size(cr, MAP_FONT_SIZE);
	{
		/* glyphs placed as the SVG's are, not snapped to pixels */
		cairo_font_options_t *fo = cairo_font_options_create();
		cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
		cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
		cairo_set_font_options(cr, fo);
		cairo_font_options_destroy(fo);
	}
	for (int i = 0; i < pic->n; i++)
		paint(cr, &pic->item[i]);
	cairo_surface_flush(surface);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		strbuf_addf(err, "the map cannot be drawn: %s",
			    cairo_status_to_string(cairo_status(cr)));
		goto out;
	}
	ret = encode_png(surface, out, err);
out:
	cairo_destroy(cr);
	cairo_surface_destroy(surface);
	return ret;
}
