/*
 * engine_fixture.h - what the engine's test programs share: the loaded
 * component data, one state, one random stream and its buffers, the
 * group set-up and tear-down for cmocka, and a fixed seed. Each test file
 * includes it once and builds its own positions on top.
 */
#ifndef POSTRIDER_ENGINE_FIXTURE_H
#define POSTRIDER_ENGINE_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "data.h"
#include "engine/engine.h"
#include "engine/internal.h"
#include "rng.h"
#include "state.h"

#define GAME_DIR "games/washingtons-war"

static struct data *D;
static struct state S;
static struct rng R;
static struct strbuf LOG = STRBUF_INIT;
static struct strbuf WHY = STRBUF_INIT;
/* an action as text, for messages (not every file needs it) */
static struct strbuf TXT __attribute__((unused)) = STRBUF_INIT;

/* Loads the data once for the whole group of tests. */
static int group_setup(void **state)
{
	struct strbuf errs = STRBUF_INIT;

	(void)state;
	D = data_load(GAME_DIR, &errs);
	if (!D)
		print_error("%s", strbuf_str(&errs));
	strbuf_release(&errs);
	return D ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	data_free(D);
	strbuf_release(&LOG);
	strbuf_release(&WHY);
	strbuf_release(&TXT);
	return 0;
}

/* A fixed seed for the stream (shuffles); dice are forced where it matters. */
static void rng_fixed(struct rng *r, unsigned char salt)
{
	unsigned char seed[RNG_SEED_BYTES];

	for (int i = 0; i < RNG_SEED_BYTES; i++)
		seed[i] = (unsigned char)(i * 7 + salt);
	rng_init(r, seed, 0);
}

#endif
