/*
 * bench/map.c - the weight of the mailed map (issue 29): for each commit
 * given, the map of the game at that moment painted and written each way
 * the issue names (24-bit RGB as it was mailed before, palettes of 64, 32
 * and 16 colours, zlib's levels, smaller scales), one line each:
 *
 *     NAME BYTES MS
 *
 * (MS the CPU time of painting and writing, the least of 3). Used by
 * `make bench` (tests/bench.sh). Usage: bench-map GAME COMMIT...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include "game.h"
#include "map.h"

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		double scale;
		struct map_png_how how;
	} ways[] = {
		{ "rgb-fastest", MAP_PNG_SCALE, { 0, Z_BEST_SPEED, 0, false, false } },
		{ "rgb-best", MAP_PNG_SCALE, { 0, Z_BEST_COMPRESSION, 0, false, false } },
		{ "palette-64", MAP_PNG_SCALE, { 64, Z_BEST_COMPRESSION, 64, false, false } },
		{ "palette-32", MAP_PNG_SCALE, { 32, Z_BEST_COMPRESSION, 64, false, false } },
		{ "palette-16-default-level", MAP_PNG_SCALE, { 16, Z_DEFAULT_COMPRESSION, 0, false, false } },
		{ "palette-16-best-level", MAP_PNG_SCALE, { 16, Z_BEST_COMPRESSION, 0, false, false } },
		{ "palette-16-chains-512", MAP_PNG_SCALE, { 16, Z_BEST_COMPRESSION, 512, false, false } },
		{ "palette-16-chains-128", MAP_PNG_SCALE, { 16, Z_BEST_COMPRESSION, 128, false, false } },
		{ "palette-16-chains-64-as-mailed", MAP_PNG_SCALE, { 16, Z_BEST_COMPRESSION, 64, false, false } },
		{ "palette-16-scale-0.7", 0.7, { 16, Z_BEST_COMPRESSION, 64, false, false } },
		{ "palette-16-scale-0.65", 0.65, { 16, Z_BEST_COMPRESSION, 64, false, false } },
		{ "as-mailed-before-issue-41", MAP_PNG_SCALE, { 16, Z_BEST_COMPRESSION, 512, true, true } },
	};
	struct game g;
	struct strbuf err = STRBUF_INIT;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-map GAME COMMIT...\n");
		return 2;
	}
	if (game_open(argv[1], &g, 0, &err) != 0) {
		fprintf(stderr, "bench-map: %s", err.buf);
		return 1;
	}
	for (int a = 2; a < argc; a++) {
		struct map_picture pic;
		if (game_load_state(&g, argv[a], &err) < 0) {
			fprintf(stderr, "bench-map: %s", err.buf);
			return 1;
		}
		map_draw(g.data, &g.state, NULL, &pic);
		for (size_t k = 0; k < sizeof(ways) / sizeof(ways[0]); k++) {
			struct strbuf png = STRBUF_INIT;
			double best = -1;
			for (int run = 0; run < 3; run++) {
				double t0 = cpu_ms();
				strbuf_reset(&png);
				if (map_png_as(&pic, ways[k].scale, &ways[k].how, &png, &err) < 0) {
					fprintf(stderr, "bench-map: %s\n", err.buf);
					return 1;
				}
				if (best < 0 || cpu_ms() - t0 < best)
					best = cpu_ms() - t0;
			}
			printf("%s %zu %.1f\n", ways[k].name, png.len, best);
			strbuf_release(&png);
		}
		map_release(&pic);
	}
	strbuf_release(&err);
	game_close(&g);
	return 0;
}
