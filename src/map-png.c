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
 * the files come out smaller than libpng's), cost a fifth of that. The
 * picture is painted a band of rows at a time, each band deflated before
 * the next is painted, to keep the memory of a turn small.
 */
#include <arpa/inet.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>
#include <zlib.h>

#include "map.h"
#include "trace.h"

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

static void paint(cairo_t *cr, const struct map_item *it,
		  cairo_font_face_t *const faces[2])
{
	double sw = stroke_width(it);

	cairo_new_path(cr);	/* a text leaves a current point behind */
	if (it->shape == MAP_TEXT) {
		const struct map_font_desc *f = &map_fonts[it->font];
		cairo_set_font_face(cr, faces[f->bold]);
		cairo_set_font_size(cr, MAP_FONT_SIZE);
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
 * The PNG (RFC 2083) written as the picture is painted, a band of rows at
 * a time: 8-bit RGB, no interlace, each row with filter 0 (none), the rows
 * through zlib's deflate at its fastest level. Only the compressed stream
 * is kept whole.
 */
struct png_writer {
	z_stream zs;
	int w;
	unsigned char *row;	/* one row: its filter byte, then RGB */
	struct strbuf idat;	/* the compressed rows so far */
};

static int png_begin(struct png_writer *pw, int w, struct strbuf *err)
{
	memset(pw, 0, sizeof(*pw));
	strbuf_init(&pw->idat);
	if (deflateInit(&pw->zs, Z_BEST_SPEED) != Z_OK) {
		strbuf_addstr(err, "zlib cannot start deflating");
		return -1;
	}
	pw->w = w;
	pw->row = xmalloc(3 * (size_t)w + 1);
	return 0;
}

static int png_deflate(struct png_writer *pw, const unsigned char *in,
		       size_t len, int flush)
{
	unsigned char buf[16384];
	int r;

	pw->zs.next_in = (Bytef *)in;
	pw->zs.avail_in = (uInt)len;
	do {
		pw->zs.next_out = buf;
		pw->zs.avail_out = sizeof(buf);
		r = deflate(&pw->zs, flush);
		if (r == Z_STREAM_ERROR)
			return -1;
		strbuf_add(&pw->idat, buf, sizeof(buf) - pw->zs.avail_out);
	} while (pw->zs.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
	return 0;
}

/* The first n rows of an RGB24 surface, whose pixels are native-endian
 * 32-bit words 0x__RRGGBB. */
static int png_rows(struct png_writer *pw, cairo_surface_t *surface, int n)
{
	int stride = cairo_image_surface_get_stride(surface);
	const unsigned char *px = cairo_image_surface_get_data(surface);

	for (int y = 0; y < n; y++) {
		const uint32_t *src = (const uint32_t *)(px + (size_t)y * stride);
		unsigned char *o = pw->row;
		*o++ = 0;
		for (int x = 0; x < pw->w; x++) {
			*o++ = (unsigned char)(src[x] >> 16);
			*o++ = (unsigned char)(src[x] >> 8);
			*o++ = (unsigned char)src[x];
		}
		if (png_deflate(pw, pw->row, 3 * (size_t)pw->w + 1, Z_NO_FLUSH) < 0)
			return -1;
	}
	return 0;
}

static int png_end(struct png_writer *pw, int h, struct strbuf *out,
		   struct strbuf *err)
{
	static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char ihdr[13];
	uint32_t be;

	if (png_deflate(pw, NULL, 0, Z_FINISH) < 0) {
		strbuf_addstr(err, "zlib cannot deflate the map");
		return -1;
	}
	be = htonl((uint32_t)pw->w);
	memcpy(ihdr, &be, 4);
	be = htonl((uint32_t)h);
	memcpy(ihdr + 4, &be, 4);
	ihdr[8] = 8;		/* bits per sample */
	ihdr[9] = 2;		/* colour type: RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;	/* deflate, filter set 0, no interlace */
	strbuf_add(out, signature, sizeof(signature));
	chunk(out, "IHDR", ihdr, sizeof(ihdr));
	chunk(out, "IDAT", pw->idat.buf, pw->idat.len);
	chunk(out, "IEND", NULL, 0);
	return 0;
}

static void png_release(struct png_writer *pw)
{
	deflateEnd(&pw->zs);
	free(pw->row);
	strbuf_release(&pw->idat);
}

/* Rows painted at a time: the whole picture would hold 4.5 MB of pixels
 * at once, a band a tenth of that (and costs ~10% more painting). */
#define MAP_PNG_BAND 128

int map_png(const struct map_picture *pic, double scale, struct strbuf *out,
	    struct strbuf *err)
{
	int w = (int)(pic->w * scale), h = (int)(pic->h * scale), ret = -1;
	cairo_surface_t *surface;
	cairo_font_options_t *fo;
	cairo_font_face_t *faces[2];
	struct png_writer pw;

	if (w < 1 || h < 1) {
		strbuf_addstr(err, "the map has no size in pixels");
		return -1;
	}
	if (png_begin(&pw, w, err) < 0)
		return -1;
	surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, MAP_PNG_BAND);
	/* glyphs placed as the SVG's are, not snapped to pixels */
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	faces[0] = cairo_toy_font_face_create(MAP_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
					      CAIRO_FONT_WEIGHT_NORMAL);
	faces[1] = cairo_toy_font_face_create(MAP_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
					      CAIRO_FONT_WEIGHT_BOLD);
	for (int y0 = 0; y0 < h; y0 += MAP_PNG_BAND) {
		cairo_t *cr = cairo_create(surface);
		cairo_status_t st;
		/* the band's rows in the picture's units */
		double band_top = y0 / scale, band_bottom = (y0 + MAP_PNG_BAND) / scale;
		cairo_translate(cr, 0, -y0);
		cairo_scale(cr, scale, scale);
		cairo_set_font_options(cr, fo);
		for (int i = 0; i < pic->n; i++) {
			double top, bottom;
			extent(&pic->item[i], &top, &bottom);
			if (bottom >= band_top - 1 && top <= band_bottom + 1)
				paint(cr, &pic->item[i], faces);
		}
		cairo_surface_flush(surface);
		st = cairo_status(cr);
		cairo_destroy(cr);
		if (st != CAIRO_STATUS_SUCCESS) {
			strbuf_addf(err, "the map cannot be drawn: %s",
				    cairo_status_to_string(st));
			goto out;
		}
		if (png_rows(&pw, surface, h - y0 < MAP_PNG_BAND ? h - y0 : MAP_PNG_BAND) < 0) {
			strbuf_addstr(err, "zlib cannot deflate the map");
			goto out;
		}
	}
	ret = png_end(&pw, h, out, err);
out:
	cairo_font_face_destroy(faces[0]);
	cairo_font_face_destroy(faces[1]);
	cairo_font_options_destroy(fo);
	cairo_surface_destroy(surface);
	png_release(&pw);
	return ret;
}

static void *png_job(void *arg)
{
	struct map_png_job *job = arg;

	job->ret = map_png(job->pic, job->scale, &job->png, &job->err);
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
