/*
 * test_map.c - the map as drawn (src/map.c): where the spaces stand, the
 * path of the last order's moves; and as mailed (src/map-png.c): its
 * palette and its weight.
 *
 * `test_map --svg DIR` writes instead the pictures (SVG and PNG) of the
 * crowded positions that self-play reaches (the most pieces in New Jersey
 * and New York, and in New England), for tests/e2e/t-map.sh to measure in
 * a browser and for a person to look at.
 */
#include "engine_fixture.h"
#include "map.h"
#include "report.h"

#include <math.h>
#include <sys/stat.h>

static int new_game(void **state)
{
	(void)state;
	strbuf_reset(&LOG);
	rng_fixed(&R, 1);
	engine_new_game(D, &S, &R, &LOG);
	return 0;
}

/* The centre of space i's marker in the picture. */
static void marker_of(const struct map_picture *pic, int i, double *x, double *y)
{
	for (int k = 0; k < pic->n; k++) {
		const struct map_item *it = &pic->item[k];
		if (it->space != i + 1 || !it->cls || strcmp(it->cls, "space"))
			continue;
		*x = it->shape == MAP_CIRCLE ? it->x1 : it->x1 + it->x2 / 2;
		*y = it->shape == MAP_CIRCLE ? it->y1 : it->y1 + it->y2 / 2;
		return;
	}
	fail_msg("space %d has no marker", i);
}

/* Spaces stand apart, and off the connections they are not on. */
static void test_spread(void **state)
{
	struct map_picture pic;
	double x[DATA_MAX_SPACES], y[DATA_MAX_SPACES], least = 1e9;
	int off_road = 0;

	(void)state;
	map_draw(D, &S, NULL, &pic);
	for (int i = 0; i < D->n_spaces; i++)
		marker_of(&pic, i, &x[i], &y[i]);
	for (int i = 0; i < D->n_spaces; i++)
		for (int j = i + 1; j < D->n_spaces; j++)
			least = fmin(least, hypot(x[i] - x[j], y[i] - y[j]));
	/* New Jersey's spaces stand 19 apart in the data */
	assert_true(least > 40);
	for (int a = 0; a < D->n_spaces; a++)
		for (int k = 0; k < D->spaces[a].n_adj; k++) {
			int b = D->spaces[a].adj[k].to;
			double dx = x[b] - x[a], dy = y[b] - y[a], len2 = dx * dx + dy * dy;
			for (int i = 0; i < D->n_spaces; i++) {
				double t = ((x[i] - x[a]) * dx + (y[i] - y[a]) * dy) / len2;
				if (i == a || i == b || t <= 0 || t >= 1)
					continue;
				if (hypot(x[a] + t * dx - x[i], y[a] + t * dy - y[i]) < 12) {
					print_message("%s lies on %s - %s\n", D->spaces[i].full_name,
						      D->spaces[a].full_name, D->spaces[b].full_name);
					off_road++;
				}
			}
		}
	/* Pittsburgh lies on Bassett Town - Point Pleasant in the data */
	assert_int_equal(off_road, 0);
	map_release(&pic);
}

/* The moves drawn: "last-move" lines, from (x1, y1) to (x2, y2). */
static int moves_drawn(const struct map_picture *pic, double seg[][4], int max)
{
	int n = 0;

	for (int k = 0; k < pic->n; k++) {
		const struct map_item *it = &pic->item[k];
		if (it->shape != MAP_LINE || !it->cls || strcmp(it->cls, "last-move"))
			continue;
		if (n < max) {
			seg[n][0] = it->x1;
			seg[n][1] = it->y1;
			seg[n][2] = it->x2;
			seg[n][3] = it->y2;
		}
		n++;
	}
	return n;
}

/* A march of three steps is drawn as three lines along the connections
 * it used, the last with an arrow head; never one straight arrow from
 * where it began to where it ended. */
static void test_march_path(void **state)
{
	static struct state before;
	struct map_last last;
	struct map_picture pic;
	double seg[8][4], x[4], y[4];
	int lex = SP("Lexington and Concord MA"), wor = SP("Worcester MA"),
	    spr = SP("Springfield MA"), har = SP("Hartford CT"), g = GEN("Washington");
	const char *log =
		"-- 1775, order 4 (American) --\n"
		"American chooses: the British plays first (5.3.c).\n\n"
		"-- 1775, order 5 (American) --\n"
		"American plays #27 (2 OPS) to activate Washington (Strategy 1, 7.1.A).\n"
		"Washington moves from Lexington and Concord MA to Worcester MA with 5 CUs (1 of 5 spaces).\n"
		"Washington moves from Worcester MA to Springfield MA with 5 CUs (2 of 5 spaces).\n"
		"Washington moves from Springfield MA to Hartford CT with 5 CUs (3 of 5 spaces).\n";

	(void)state;
	before = S;
	before.general[g] = lex;
	S.general[g] = har;
	report_last_order(D, &before, &S, log, &last);
	assert_int_equal(last.n_moves, 1);
	assert_int_equal(last.moves[0].n_path, 4);
	assert_int_equal(last.moves[0].path[0], lex);
	assert_int_equal(last.moves[0].path[1], wor);
	assert_int_equal(last.moves[0].path[2], spr);
	assert_int_equal(last.moves[0].path[3], har);
	map_draw(D, &S, &last, &pic);
	marker_of(&pic, lex, &x[0], &y[0]);
	marker_of(&pic, wor, &x[1], &y[1]);
	marker_of(&pic, spr, &x[2], &y[2]);
	marker_of(&pic, har, &x[3], &y[3]);
	assert_int_equal(moves_drawn(&pic, seg, 8), 3);
	for (int k = 0; k < 3; k++) {
		/* each step starts at a space and points at the next */
		double dx = x[k + 1] - x[k], dy = y[k + 1] - y[k];
		double ex = seg[k][2] - seg[k][0], ey = seg[k][3] - seg[k][1];
		assert_true(hypot(seg[k][0] - x[k], seg[k][1] - y[k]) < 0.5);
		assert_true(fabs(dx * ey - dy * ex) < 1e-6 * hypot(dx, dy) * hypot(ex, ey) + 1e-3);
		assert_true(hypot(seg[k][2] - x[k + 1], seg[k][3] - y[k + 1]) < 9 + 4);
	}
	map_release(&pic);
}

/* The steps marked "?": text items of class "unsourced"; legend is set
 * when the panel explains the mark. */
static int unsourced_marks(const struct map_picture *pic, bool *legend)
{
	int n = 0;

	*legend = false;
	for (int k = 0; k < pic->n; k++) {
		const struct map_item *it = &pic->item[k];
		if (it->shape != MAP_TEXT || !it->text)
			continue;
		n += it->cls && !strcmp(it->cls, "unsourced");
		*legend |= strstr(it->text, "a connection no source confirms") != NULL;
	}
	return n;
}

/* Issue 32: a step of a move along a connection no source confirms is
 * marked "?" on the map, and the legend says what the mark means; with
 * every connection of the march sourced, no mark and no legend line. */
static void test_unsourced_marks(void **state)
{
	static struct state before;
	struct map_last last;
	struct map_picture pic;
	int lex = SP("Lexington and Concord MA"), wor = SP("Worcester MA"),
	    spr = SP("Springfield MA"), har = SP("Hartford CT"), g = GEN("Washington");
	int path[4] = { lex, wor, spr, har }, want = 0;
	bool legend, saved[2][3];
	const char *log =
		"-- 1775, order 5 (American) --\n"
		"American plays #27 (2 OPS) to activate Washington (Strategy 1, 7.1.A).\n"
		"Washington moves from Lexington and Concord MA to Worcester MA with 5 CUs (1 of 5 spaces).\n"
		"Washington moves from Worcester MA to Springfield MA with 5 CUs (2 of 5 spaces).\n"
		"Washington moves from Springfield MA to Hartford CT with 5 CUs (3 of 5 spaces).\n";
	struct data_adj *step[2][3];

	(void)state;
	/* the march's connections, both ways, as the data has them */
	for (int k = 0; k < 3; k++)
		for (int dir = 0; dir < 2; dir++) {
			int a = path[k + dir], b = path[k + 1 - dir];
			struct data_space *sp = &D->spaces[a];
			step[dir][k] = NULL;
			for (int j = 0; j < sp->n_adj; j++)
				if (sp->adj[j].to == b)
					step[dir][k] = &sp->adj[j];
			assert_non_null(step[dir][k]);
			saved[dir][k] = step[dir][k]->unsourced;
		}
	for (int k = 0; k < 3; k++)
		want += step[0][k]->unsourced;
	before = S;
	before.general[g] = lex;
	S.general[g] = har;
	report_last_order(D, &before, &S, log, &last);
	map_draw(D, &S, &last, &pic);
	assert_int_equal(unsourced_marks(&pic, &legend), want);
	assert_int_equal(legend, want > 0);
	map_release(&pic);

	/* the first step unsourced, the others sourced: one mark */
	for (int dir = 0; dir < 2; dir++)
		for (int k = 0; k < 3; k++)
			step[dir][k]->unsourced = k == 0;
	map_draw(D, &S, &last, &pic);
	assert_int_equal(unsourced_marks(&pic, &legend), 1);
	assert_true(legend);
	map_release(&pic);

	/* all sourced: no mark, no legend line */
	for (int dir = 0; dir < 2; dir++)
		for (int k = 0; k < 3; k++)
			step[dir][k]->unsourced = false;
	map_draw(D, &S, &last, &pic);
	assert_int_equal(unsourced_marks(&pic, &legend), 0);
	assert_false(legend);
	map_release(&pic);
	for (int dir = 0; dir < 2; dir++)
		for (int k = 0; k < 3; k++)
			step[dir][k]->unsourced = saved[dir][k];
}

/* A sailing is a step by sea, a retreat after a battle goes on from where
 * the battle was; a move the log does not tell between two spaces that
 * are not neighbours gets no straight line at all. */
static void test_sea_retreat_and_unknown(void **state)
{
	static struct state before;
	struct map_last last;
	struct map_picture pic;
	double seg[8][4];
	int bos = SP("Boston MA"), nyc = SP("New York NY"), wp = SP("White Plains NY"),
	    cha = SP("Charleston SC"), howe = GEN("Howe"), gre = GEN("Greene");
	const char *log =
		"-- 1776, order 9 (British) --\n"
		"Howe sails from Boston MA to New York NY with 5 CUs (7.5).\n"
		"Battle in New York NY.\n"
		"Howe and 3 British CUs retreat to White Plains NY (9.61).\n";

	(void)state;
	before = S;
	before.general[howe] = bos;
	S.general[howe] = wp;
	before.general[gre] = nyc;
	S.general[gre] = cha;	/* say, by an event: no step in the log */
	report_last_order(D, &before, &S, log, &last);
	assert_int_equal(last.n_moves, 2);
	for (int i = 0; i < last.n_moves; i++) {
		const struct map_move *m = &last.moves[i];
		if (m->general == howe) {
			assert_int_equal(m->n_path, 3);
			assert_int_equal(m->path[1], nyc);
			assert_true(m->sea[1]);
			assert_false(m->sea[2]);
			assert_int_equal(m->path[2], wp);
		} else {
			assert_int_equal(m->n_path, 0);
		}
	}
	assert_int_equal(last.n_battles, 1);
	assert_int_equal(last.battles[0], nyc);
	map_draw(D, &S, &last, &pic);
	/* Howe's two steps, and for Greene a short arrow into Charleston
	 * (dashed, as from a box), not a line from New York */
	assert_int_equal(moves_drawn(&pic, seg, 8), 3);
	map_release(&pic);
}

/* What the map shows of a state: a PC placed, a CU, a general in a box,
 * the track or the card of the turn change it; a token, a hand or the
 * prompt do not. */
static void test_board_same(void **state)
{
	static struct state b;

	(void)state;
	b = S;
	assert_true(map_board_same(D, &S, &b));
	b.prompt.side = OTHER_SIDE(S.prompt.side);
	b.n_hand[SIDE_BRITISH]++;
	assert_true(map_board_same(D, &S, &b));
	b = S;
	b.space[SP("Trenton NJ")].pc = SIDE_AMERICAN;
	assert_false(map_board_same(D, &S, &b));
	b = S;
	b.space[SP("Boston MA")].cu[NATION_BRITISH]++;
	assert_false(map_board_same(D, &S, &b));
	b = S;
	b.general[GEN("Greene")] = LOC_REINFORCEMENTS;
	assert_false(map_board_same(D, &S, &b));
	b = S;
	b.french_alliance++;
	assert_false(map_board_same(D, &S, &b));
	b = S;
	b.impulse++;
	assert_false(map_board_same(D, &S, &b));
}

/* The War Ends box on the map names its card's year, as the report does
 * (issue 29): "#64" alone left the player to look the year up. */
static void test_war_ends_year(void **state)
{
	struct map_picture pic;
	char want[64];
	int card = 0, found = 0;

	(void)state;
	for (int c = 1; c <= D->n_cards && !card; c++)
		if (D->cards[c].war_ends_year == 1781)
			card = c;
	assert_true(card > 0);
	S.war_ends = card;
	snprintf(want, sizeof(want), "War Ends box: #%d", card);
	map_draw(D, &S, NULL, &pic);
	for (int k = 0; k < pic.n; k++) {
		const struct map_item *it = &pic.item[k];
		if (it->shape != MAP_TEXT || !it->text)
			continue;
		if (!strcmp(it->text, want))
			found |= 1;
		if (strstr(it->text, "the war ends at the end of 1781"))
			found |= 2;
		/* each line fits the panel (250 wide: some 40 letters) */
		if (strcasestr(it->text, "war ends"))
			assert_true(strlen(it->text) <= 40);
	}
	assert_int_equal(found, 3);
	map_release(&pic);
}

/* Does the palette (PLTE's data, n bytes) hold colour "#rrggbb"? */
static bool in_palette(const unsigned char *plte, size_t n, const char *hex)
{
	unsigned long v = strtoul(hex + 1, NULL, 16);

	for (size_t k = 0; k + 2 < n; k += 3)
		if (plte[k] == (v >> 16 & 0xff) && plte[k + 1] == (v >> 8 & 0xff) &&
		    plte[k + 2] == (v & 0xff))
			return true;
	return false;
}

/* The mailed map: a palette of at most 16 colours, 4 bits a pixel, every
 * colour the picture names kept exactly (a port's few green pixels too),
 * and light: the opening's map was 148 KB as 24-bit RGB. */
static void test_png_palette(void **state)
{
	struct map_picture pic;
	struct strbuf png = STRBUF_INIT, err = STRBUF_INIT;
	const unsigned char *p;
	size_t plte_len = 0;
	const unsigned char *plte = NULL;
	static const char *const named[] = {
		MAP_BACKGROUND, "#3b6fb6", "#c0392b", "#f4f1e8", "#1d6b3a", "#222222",
		"#5f5746", "#1f4e8c", "#9c2a1f", "#f7f3e6",
	};

	(void)state;
	map_draw(D, &S, NULL, &pic);
	assert_int_equal(map_png(&pic, MAP_PNG_SCALE, &png, &err), 0);
	p = (const unsigned char *)png.buf;
	assert_memory_equal(p, "\x89PNG\r\n\x1a\n", 8);
	assert_int_equal(p[24], 4);	/* bits a pixel */
	assert_int_equal(p[25], 3);	/* colour type: a palette */
	for (size_t at = 8; at + 8 <= png.len;) {
		size_t n = (size_t)p[at] << 24 | p[at + 1] << 16 | p[at + 2] << 8 | p[at + 3];
		if (!memcmp(p + at + 4, "PLTE", 4)) {
			plte = p + at + 8;
			plte_len = n;
		}
		at += n + 12;
	}
	assert_non_null(plte);
	assert_true(plte_len <= 3 * 16);
	for (size_t k = 0; k < ARRAY_SIZE(named); k++)
		if (!in_palette(plte, plte_len, named[k]))
			fail_msg("%s is not in the palette", named[k]);
	print_message("the opening's map: %zu bytes\n", png.len);
	assert_true(png.len < 40000);
	strbuf_release(&png);
	strbuf_release(&err);
	map_release(&pic);
}

/*
 * Self-play as tests/e2e/t-map.sh needs it: random legal actions, those
 * that name a space in New Jersey, New York or New England (and marches)
 * preferred, so that armies gather where the map is most crowded. Keeps
 * the positions with the most spaces holding pieces in NJ and NY, and in
 * New England, each with the moves of the action that led to it.
 */
#define KEEP 6
struct kept {
	int score;
	char name[32];
	struct state s, before;
	char *log;
};

static bool crowded_colony(int space, const char *const *codes)
{
	const char *code = D->colonies[D->spaces[space].colony].code;

	for (; *codes; codes++)
		if (!strcmp(code, *codes))
			return true;
	return false;
}

static int pieces_in(const struct state *s, const char *const *codes)
{
	int n = 0;

	for (int i = 0; i < D->n_spaces; i++) {
		bool any = s->space[i].cu[0] || s->space[i].cu[1] || s->space[i].cu[2];
		for (int g = 0; g < D->n_generals; g++)
			any |= s->general[g] == i;
		n += any && crowded_colony(i, codes);
	}
	return n;
}

static void keep(struct kept *k, int score, const char *name,
		 const struct state *s, const struct state *before, const char *log)
{
	if (score <= k->score)
		return;
	k->score = score;
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->s = *s;
	k->before = *before;
	free(k->log);
	k->log = xstrdup(log);
}

static int write_svgs(const char *dir)
{
	static const char *const nj[] = { "NJ", "NY", NULL };
	static const char *const ne[] = { "MA", "NH", "CT", "RI", NULL };
	static struct kept kept[KEEP];
	static struct state st, before;
	struct strbuf errs = STRBUF_INIT, log = STRBUF_INIT;
	struct action acts[512];
	struct rng r, pick;
	int written = 0;

	D = data_load(GAME_DIR, &errs);
	if (!D) {
		fprintf(stderr, "%s", errs.buf);
		return 1;
	}
	mkdir(dir, 0777);
	for (int game = 0; game < 30; game++) {
		unsigned char seed[RNG_SEED_BYTES] = { (unsigned char)game, 0x6d, 0x61, 0x70 };
		rng_init(&r, seed, 0);
		seed[31] = 0xc4;
		rng_init(&pick, seed, 0);
		strbuf_reset(&log);
		engine_new_game(D, &st, &r, &log);
		for (int step = 0; step < 3000 && !engine_game_over(&st); step++) {
			int n = engine_legal(D, &st, acts, (int)ARRAY_SIZE(acts)), total = 0, k, w[512];
			size_t at = log.len;
			if (n <= 0)
				break;
			if (n > (int)ARRAY_SIZE(acts))
				n = (int)ARRAY_SIZE(acts);
			for (k = 0; k < n; k++) {
				bool there = acts[k].space >= 0 &&
					     (crowded_colony(acts[k].space, nj) || crowded_colony(acts[k].space, ne));
				w[k] = there ? 20 : 1;
				if (acts[k].kind == ACT_TO || acts[k].kind == ACT_ACTIVATE ||
				    acts[k].kind == ACT_TAKE || acts[k].kind == ACT_LAND ||
				    acts[k].kind == ACT_REINFORCE)
					w[k] *= 4;
				total += w[k];
			}
			total = (int)rng_uniform(&pick, total, NULL);
			for (k = 0; k < n - 1 && total >= w[k]; k++)
				total -= w[k];
			before = st;
			engine_begin_order(&st);
			strbuf_reset(&WHY);
			strbuf_addstr(&log, "\n-- order --\n");
			if (engine_apply(D, &st, &acts[k], &r, &log, &WHY) != ENGINE_OK) {
				fprintf(stderr, "selfplay: a legal action was refused: %s\n", WHY.buf);
				return 1;
			}
			st.draws = r.next;
			/* each game fills the slots by their own measure */
			keep(&kept[0], 100 * pieces_in(&st, nj) + pieces_in(&st, ne), "nj-ny", &st, &before, log.buf + at);
			keep(&kept[1], 100 * pieces_in(&st, ne) + pieces_in(&st, nj), "new-england", &st, &before, log.buf + at);
			keep(&kept[2 + game % (KEEP - 2)], pieces_in(&st, nj) + pieces_in(&st, ne),
			     "both", &st, &before, log.buf + at);
		}
	}
	for (int k = 0; k < KEEP; k++) {
		struct map_last last;
		struct map_picture pic;
		struct strbuf svg = STRBUF_INIT;
		char *path;
		FILE *f;
		if (!kept[k].log)
			continue;
		report_last_order(D, &kept[k].before, &kept[k].s, kept[k].log, &last);
		map_draw(D, &kept[k].s, &last, &pic);
		map_svg(&pic, &svg);
		path = xstrfmt("%s/selfplay-%d-%s.svg", dir, k, kept[k].name);
		f = fopen(path, "w");
		if (!f || fwrite(svg.buf, 1, svg.len, f) != svg.len || fclose(f)) {
			perror(path);
			return 1;
		}
		free(path);
		strbuf_reset(&svg);
		path = xstrfmt("%s/selfplay-%d-%s.png", dir, k, kept[k].name);
		if (map_png(&pic, MAP_PNG_SCALE, &svg, &errs) < 0 || !(f = fopen(path, "w")) ||
		    fwrite(svg.buf, 1, svg.len, f) != svg.len || fclose(f)) {
			fprintf(stderr, "%s: %s\n", path, errs.buf);
			return 1;
		}
		printf("%s: %d pieces in NJ and NY, %d in New England\n", path,
		       pieces_in(&kept[k].s, nj), pieces_in(&kept[k].s, ne));
		written++;
		free(path);
		free(kept[k].log);
		strbuf_release(&svg);
		map_release(&pic);
	}
	strbuf_release(&log);
	strbuf_release(&errs);
	data_free(D);
	return written ? 0 : 1;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_spread, new_game),
		cmocka_unit_test_setup(test_march_path, new_game),
		cmocka_unit_test_setup(test_unsourced_marks, new_game),
		cmocka_unit_test_setup(test_sea_retreat_and_unknown, new_game),
		cmocka_unit_test_setup(test_png_palette, new_game),
		cmocka_unit_test_setup(test_board_same, new_game),
		cmocka_unit_test_setup(test_war_ends_year, new_game),
	};

	if (argc == 3 && !strcmp(argv[1], "--svg"))
		return write_svgs(argv[2]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
