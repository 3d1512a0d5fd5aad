/*
 * fuzz_common.h - shared helpers of the libFuzzer harnesses (tests/fuzz/).
 *
 * The component data is loaded once per process from FUZZ_DATADIR (set by
 * the Makefile to games/washingtons-war) or from $POSTRIDER_FUZZ_DATA.
 */
#ifndef POSTRIDER_FUZZ_COMMON_H
#define POSTRIDER_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include "data.h"
#include "engine/engine.h"
#include "rng.h"
#include "state.h"
#include "state-yaml.h"
#include "util.h"

#ifndef FUZZ_DATADIR
#define FUZZ_DATADIR "games/washingtons-war"
#endif

/* The data, loaded on first use; aborts if it cannot be loaded. */
static inline const struct data *fuzz_data(void)
{
	static struct data *d;
	if (!d) {
		struct strbuf errs = STRBUF_INIT;
		const char *dir = getenv("POSTRIDER_FUZZ_DATA");
		d = data_load(dir ? dir : FUZZ_DATADIR, &errs);
		if (!d) {
			fprintf(stderr, "fuzz: cannot load the data from %s:\n%s",
				dir ? dir : FUZZ_DATADIR, errs.buf);
			abort();
		}
		strbuf_release(&errs);
	}
	return d;
}

/*
 * The states fuzz_order works on: FUZZ_STATES states of one game with a
 * fixed seed (the stream's seed is written to seed), the new game of
 * engine_new_game and the states reached after fuzz_walk_len[i] random
 * legal actions chosen by a second fixed stream. mkcorpus.c writes the
 * seed corpora from the same states.
 */
#define FUZZ_STATES 16
static const int fuzz_walk_len[FUZZ_STATES] = {
	0, 5, 13, 14, 16, 18, 20, 25, 30, 40, 60, 90, 130, 200, 300, 450
};

static inline void fuzz_order_states(const struct data *d,
				     struct state states[FUZZ_STATES],
				     unsigned char seed[RNG_SEED_BYTES])
{
	struct rng r, pick;
	struct state st;
	struct strbuf log = STRBUF_INIT, why = STRBUF_INIT;
	static struct action acts[512];
	unsigned char pick_seed[RNG_SEED_BYTES];
	int steps = 0;

	for (int k = 0; k < RNG_SEED_BYTES; k++) {
		seed[k] = (unsigned char)k;
		pick_seed[k] = (unsigned char)(0xa0 + k);
	}
	rng_init(&r, seed, 0);
	rng_init(&pick, pick_seed, 0);
	engine_new_game(d, &st, &r, &log);
	for (int i = 0; i < FUZZ_STATES; i++) {
		while (steps < fuzz_walk_len[i] && !engine_game_over(&st)) {
			int n = engine_legal(d, &st, acts, 512);
			if (n > 512)
				n = 512;
			if (n <= 0)
				break;
			struct action a = acts[rng_uniform(&pick, n, NULL)];
			strbuf_reset(&why);
			engine_begin_order(&st);
			if (engine_apply(d, &st, &a, &r, &log, &why) != ENGINE_OK)
				abort();
			st.draws = r.next;
			strbuf_reset(&log);
			steps++;
		}
		states[i] = st;
	}
	strbuf_release(&log);
	strbuf_release(&why);
}

#endif
