/*
 * test_map_png.c - the map as mailed (src/map-png.c) is the map as it was
 * painted before issue 41 made it cheaper (fonts opened from their files,
 * not found through fontconfig; labels' halos painted as the text around
 * them, not as its outlines stroked; zlib's default level): for several
 * positions (the opening, positions of a seeded random game with the last
 * order drawn, its end), both ways painted, decoded here and compared
 * pixel by pixel: at most 1% of the pixels differ, and only around the
 * labels that have a halo (no space, piece, line or letter moved).
 */
#include "engine_fixture.h"
#include "map.h"
#include "report.h"

#include <zlib.h>

/* A decoded PNG of postrider's writer: 8-bit RGB or a palette of 4 or
 * 8 bits, every row filter 0 (src/map-png.c). rgb is w * h * 3 bytes. */
struct pixels {
	int w, h;
	unsigned char *rgb;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void decode(const struct strbuf *png, struct pixels *px)
{
	const unsigned char *p = (const unsigned char *)png->buf, *plte = NULL;
	struct strbuf idat = STRBUF_INIT;
	int depth = 0, type = 0;
	size_t row, plte_len = 0;
	uLongf raw_len;
	unsigned char *raw;

	assert_true(png->len > 8);
	assert_memory_equal(p, "\x89PNG\r\n\x1a\n", 8);
	for (size_t at = 8; at + 12 <= png->len;) {
		size_t n = be32(p + at);
		assert_true(at + 12 + n <= png->len);
		if (!memcmp(p + at + 4, "IHDR", 4)) {
			px->w = (int)be32(p + at + 8);
			px->h = (int)be32(p + at + 12);
			depth = p[at + 16];
			type = p[at + 17];
		} else if (!memcmp(p + at + 4, "PLTE", 4)) {
			plte = p + at + 8;
			plte_len = n;
		} else if (!memcmp(p + at + 4, "IDAT", 4)) {
			strbuf_add(&idat, p + at + 8, n);
		}
		at += n + 12;
	}
	assert_true(px->w > 0 && px->h > 0);
	assert_true((type == 2 && depth == 8) || (type == 3 && (depth == 4 || depth == 8)));
	row = type == 2 ? 3 * (size_t)px->w : depth == 8 ? (size_t)px->w : ((size_t)px->w + 1) / 2;
	raw_len = (uLongf)((row + 1) * px->h);
	raw = xmalloc(raw_len);
	assert_int_equal(uncompress(raw, &raw_len, (const Bytef *)idat.buf, (uLong)idat.len), Z_OK);
	assert_int_equal(raw_len, (row + 1) * px->h);
	px->rgb = xmalloc((size_t)px->w * px->h * 3);
	for (int y = 0; y < px->h; y++) {
		const unsigned char *r = raw + (size_t)y * (row + 1);
		assert_int_equal(r[0], 0);	/* filter none */
		for (int x = 0; x < px->w; x++) {
			unsigned char *o = px->rgb + 3 * ((size_t)y * px->w + x);
			unsigned idx;
			if (type == 2) {
				memcpy(o, r + 1 + 3 * x, 3);
				continue;
			}
			idx = depth == 8 ? r[1 + x] : (r[1 + x / 2] >> (x % 2 ? 0 : 4)) & 0xf;
			assert_true(3 * (size_t)idx + 2 < plte_len);
			memcpy(o, plte + 3 * idx, 3);
		}
	}
	free(raw);
	strbuf_release(&idat);
}

static void paint(const struct map_picture *pic, const struct map_png_how *how,
		  struct pixels *px)
{
	struct strbuf png = STRBUF_INIT, err = STRBUF_INIT;

	if (map_png_as(pic, MAP_PNG_SCALE, how, &png, &err) < 0)
		fail_msg("the map cannot be painted: %s", err.buf);
	decode(&png, px);
	strbuf_release(&png);
	strbuf_release(&err);
}

/* Is pixel (x, y) near a label with a halo: within its line of text, the
 * halo's width around it? A label's width is not known here: its text's
 * length at most a font size wide a letter. */
static bool near_halo_label(const struct map_picture *pic, int x, int y)
{
	double ux = x / MAP_PNG_SCALE, uy = y / MAP_PNG_SCALE, m = MAP_HALO_WIDTH + 2;

	for (int i = 0; i < pic->n; i++) {
		const struct map_item *it = &pic->item[i];
		if (it->shape != MAP_TEXT || !map_fonts[it->font].halo)
			continue;
		if (uy >= it->y1 - 1.2 * MAP_FONT_SIZE - m && uy <= it->y1 + 0.4 * MAP_FONT_SIZE + m &&
		    ux >= it->x1 - m && ux <= it->x1 + MAP_FONT_SIZE * strlen(it->text) + m)
			return true;
	}
	return false;
}

/*
 * The two ways of painting pic compared. As painted (RGB): at most 1% of
 * the pixels differ, and none far from a label with a halo. As mailed
 * (the palette of 16 colours): every pixel that the PNG before showed in
 * its painted colour exactly (the background, the spaces' fills, the
 * lines, the letters, and every blend that has an entry) it shows the
 * same, away from the labels. The others, blends of the edges that the
 * palette approximates, may be approximated otherwise: the median cut
 * counts their pixels and chooses the palette anew for every picture (a
 * moved piece changes it as well); they are counted and printed.
 */
static void compare(const char *name, const struct map_picture *pic)
{
	static const struct map_png_how rgb_before = {
		.colours = 0, .level = 1, .fontconfig = true, .halo_stroked = true,
	};
	static const struct map_png_how rgb_now = { .colours = 0, .level = 1 };
	struct pixels a, b, c, d;
	long painted = 0, mailed = 0, exact = 0, far = 0, n;

	paint(pic, &rgb_before, &a);
	paint(pic, &rgb_now, &b);
	paint(pic, &map_png_before_41, &c);
	paint(pic, &map_png_mailed, &d);
	assert_int_equal(a.w, b.w);
	assert_int_equal(a.h, b.h);
	assert_int_equal(c.w, d.w);
	assert_int_equal(c.h, d.h);
	n = (long)a.w * a.h;
	for (int y = 0; y < a.h; y++)
		for (int x = 0; x < a.w; x++) {
			size_t k = 3 * ((size_t)y * a.w + x);
			if (memcmp(a.rgb + k, b.rgb + k, 3)) {
				painted++;
				if (!near_halo_label(pic, x, y))
					for (int ch = 0; ch < 3; ch++)
						if (abs(a.rgb[k + ch] - b.rgb[k + ch]) > far)
							far = abs(a.rgb[k + ch] - b.rgb[k + ch]);
			}
			if (memcmp(c.rgb + k, d.rgb + k, 3)) {
				mailed++;
				/* shown exactly before: shown the same */
				if (!memcmp(a.rgb + k, c.rgb + k, 3) && !near_halo_label(pic, x, y))
					exact++;
			}
		}
	print_message("%s: %ld of %ld pixels painted otherwise (%.2f%%), far from a "
		      "label by %ld at most; as mailed %ld otherwise (%.2f%%), of those "
		      "shown exactly before %ld\n", name, painted, n, 100.0 * painted / n,
		      far, mailed, 100.0 * mailed / n, exact);
	assert_true(painted * 100 <= n);
	assert_int_equal(far, 0);
	assert_int_equal(exact, 0);
	free(a.rgb);
	free(b.rgb);
	free(c.rgb);
	free(d.rgb);
}

static void test_opening(void **state)
{
	struct map_picture pic;

	(void)state;
	strbuf_reset(&LOG);
	rng_fixed(&R, 1);
	engine_new_game(D, &S, &R, &LOG);
	map_draw(D, &S, NULL, &pic);
	compare("the opening", &pic);
	map_release(&pic);
}

/* A game of random legal actions (seeded): the positions after `at`
 * actions for each at, with the last order drawn, and its end. */
static void test_positions(void **state)
{
	static const int at[] = { 40, 150, 400, 1200 };
	static struct state before;
	struct action acts[512];
	struct rng pick;
	size_t k = 0;

	(void)state;
	strbuf_reset(&LOG);
	rng_fixed(&R, 2);
	rng_fixed(&pick, 3);
	engine_new_game(D, &S, &R, &LOG);
	for (int step = 1; k < ARRAY_SIZE(at) && !engine_game_over(&S); step++) {
		int n = engine_legal(D, &S, acts, (int)ARRAY_SIZE(acts));
		size_t from = LOG.len;
		assert_true(n > 0);
		if (n > (int)ARRAY_SIZE(acts))
			n = (int)ARRAY_SIZE(acts);
		before = S;
		engine_begin_order(&S);
		strbuf_addstr(&LOG, "\n-- order --\n");
		assert_int_equal(engine_apply(D, &S, &acts[rng_uniform(&pick, (uint32_t)n, NULL)],
					      &R, &LOG, &WHY), ENGINE_OK);
		S.draws = R.next;
		if (step == at[k] || engine_game_over(&S)) {
			struct map_last last;
			struct map_picture pic;
			char name[48];
			snprintf(name, sizeof(name), "%s %d actions",
				 engine_game_over(&S) ? "the end after" : "after", step);
			report_last_order(D, &before, &S, LOG.buf + from, &last);
			map_draw(D, &S, &last, &pic);
			compare(name, &pic);
			map_release(&pic);
			k++;
		}
	}
	assert_true(k >= 3);
}

/* The pixels of pic's label box (units 18-160 across, 18-36 down) that
 * differ between two paintings. */
static long box_differ(const struct pixels *a, const struct pixels *b, long *box)
{
	long n = 0;

	*box = 0;
	for (int y = (int)(18 * MAP_PNG_SCALE); y < (int)(36 * MAP_PNG_SCALE); y++)
		for (int x = (int)(18 * MAP_PNG_SCALE); x < (int)(160 * MAP_PNG_SCALE); x++) {
			size_t k = 3 * ((size_t)y * a->w + x);
			(*box)++;
			n += memcmp(a->rgb + k, b->rgb + k, 3) != 0;
		}
	return n;
}

/*
 * A label over lines, alone: its halo must hide the lines near its
 * letters as the stroked halo did. The label is painted over six lines
 * and over none; where the two differ in the label's box, a line shows.
 * It may show in as many pixels as with the stroked halo and a fifth
 * more, no further (with no halo at all, more than twice as many: the
 * check can fail).
 */
static void test_halo_hides_lines(void **state)
{
	static const struct map_png_how rgb_before = {
		.colours = 0, .level = 1, .fontconfig = true, .halo_stroked = true,
	};
	static const struct map_png_how rgb_now = { .colours = 0, .level = 1 };
	struct map_picture pic = { .w = 240, .h = 60 }, bare;
	struct pixels before, now, clean;
	long box, shown_before, shown_now;

	(void)state;
	pic.alloc = pic.n = 8;
	pic.item = xcalloc((size_t)pic.alloc, sizeof(*pic.item));
	pic.item[0] = (struct map_item){ .shape = MAP_RECT, .x2 = 240, .y2 = 60,
					 .fill = MAP_BACKGROUND };
	pic.item[1] = (struct map_item){ .shape = MAP_TEXT, .x1 = 20, .y1 = 32,
					 .font = MAP_NAME, .text = xstrdup("Lexington and Concord MA") };
	for (int k = 0; k < 6; k++)	/* lines 2 units apart across the text */
		pic.item[2 + k] = (struct map_item){ .shape = MAP_LINE, .x1 = 0, .x2 = 240,
						     .y1 = 23 + 2 * k, .y2 = 23 + 2 * k,
						     .stroke = "#5f5746" };
	bare = pic;
	bare.n = 2;
	paint(&bare, &rgb_now, &clean);
	/* the lines first, the label over them */
	pic.item[7] = pic.item[1];
	pic.item[1] = (struct map_item){ .shape = MAP_LINE, .x1 = 0, .x2 = 240, .y1 = 33,
					 .y2 = 33, .stroke = "#5f5746" };
	paint(&pic, &rgb_before, &before);
	paint(&pic, &rgb_now, &now);
	shown_before = box_differ(&before, &clean, &box);
	shown_now = box_differ(&now, &clean, &box);
	print_message("lines show in %ld of the label's %ld pixels (stroked halo: %ld)\n",
		      shown_now, box, shown_before);
	assert_true(shown_now * 5 <= shown_before * 6);
	free(before.rgb);
	free(now.rgb);
	free(clean.rgb);
	map_release(&pic);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opening),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_halo_hides_lines),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
