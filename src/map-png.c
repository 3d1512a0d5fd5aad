/*
 * map-png.c - the map as a PNG picture, rendered from its SVG by librsvg
 * (most mail clients show a PNG inline and an SVG not at all).
 */
#include <cairo.h>
#include <librsvg/rsvg.h>

#include "report.h"

#define MAP_PNG_SCALE 0.75

static cairo_status_t append_png(void *closure, const unsigned char *data,
				 unsigned int length)
{
	strbuf_add(closure, data, length);
	return CAIRO_STATUS_SUCCESS;
}

int report_png(const char *svg, size_t len, struct strbuf *out,
	       struct strbuf *err)
{
	GError *gerr = NULL;
	RsvgHandle *h = rsvg_handle_new_from_data((const guint8 *)svg, len, &gerr);
	cairo_surface_t *surface = NULL;
	cairo_t *cr = NULL;
	gdouble w = 0, hh = 0;
	int ret = -1;

	if (!h) {
		strbuf_addf(err, "the map does not parse as SVG: %s",
			    gerr ? gerr->message : "unknown error");
		goto out;
	}
	if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hh) || w < 1 || hh < 1) {
		strbuf_addstr(err, "the map has no size in pixels");
		goto out;
	}
	/* small enough for a mail, large enough to read every label */
	w *= MAP_PNG_SCALE;
	hh *= MAP_PNG_SCALE;
	surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)hh);
	cr = cairo_create(surface);
	{
		RsvgRectangle viewport = { 0, 0, w, hh };
		if (!rsvg_handle_render_document(h, cr, &viewport, &gerr)) {
			strbuf_addf(err, "the map cannot be drawn: %s",
				    gerr ? gerr->message : "unknown error");
			goto out;
		}
	}
	if (cairo_surface_write_to_png_stream(surface, append_png, out) != CAIRO_STATUS_SUCCESS) {
		strbuf_addstr(err, "the map cannot be written as PNG");
		goto out;
	}
	ret = 0;
out:
	if (gerr)
		g_error_free(gerr);
	if (cr)
		cairo_destroy(cr);
	if (surface)
		cairo_surface_destroy(surface);
	if (h)
		g_object_unref(h);
	return ret;
}
