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
#include "state-yaml.h"
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

/* Look-ups that fail the test, naming its line; and cards moved into
 * a hand from wherever they are, so that the 110 stay accounted for. */
static __attribute__((unused)) int sp_at(const char *name, int line)
{
	int i = data_space_index(D, name);

	if (i < 0)
		fail_msg("line %d: no space '%s'", line, name);
	return i;
}
#define SP(name) sp_at(name, __LINE__)

static __attribute__((unused)) int gen_at(const char *name, int line)
{
	int g = data_general_index(D, name);

	if (g < 0)
		fail_msg("line %d: no general '%s'", line, name);
	return g;
}
#define GEN(name) gen_at(name, __LINE__)

/* Empties the map: no PC, no CU, every general in his box off the map.
 * The Congress stays where it is (Philadelphia PA after set-up). */
static __attribute__((unused)) void fixture_clear_board(void)
{
	for (int i = 0; i < D->n_spaces; i++) {
		S.space[i].pc = SIDE_NONE;
		for (int k = 0; k < 3; k++)
			S.space[i].cu[k] = 0;
	}
	for (int g = 0; g < D->n_generals; g++)
		if (S.general[g] >= 0)
			S.general[g] = LOC_REINFORCEMENTS;
}

static __attribute__((unused)) bool pull(int *arr, int *n, int c)
{
	for (int i = 0; i < *n; i++) {
		if (arr[i] != c)
			continue;
		memmove(arr + i, arr + i + 1, sizeof(int) * (size_t)(*n - i - 1));
		(*n)--;
		return true;
	}
	return false;
}

/* Takes card c from wherever it is (deck, piles, hands, War Ends box). */
static __attribute__((unused)) void take_card(int c)
{
	if (pull(S.deck, &S.n_deck, c) || pull(S.discard, &S.n_discard, c) ||
	    pull(S.removed, &S.n_removed, c) ||
	    pull(S.set_aside, &S.n_set_aside, c))
		return;
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		if (pull(S.hand[side], &S.n_hand[side], c))
			return;
	if (S.war_ends == c) {
		S.war_ends = 0;
		return;
	}
	fail_msg("card #%d is nowhere", c);
}

static __attribute__((unused)) void set_hand(enum side side, int n, ...)
{
	va_list ap;

	while (S.n_hand[side] > 0) {
		int c = S.hand[side][--S.n_hand[side]];
		S.deck[S.n_deck++] = c;
	}
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		int c = va_arg(ap, int);
		take_card(c);
		S.hand[side][S.n_hand[side]++] = c;
	}
	va_end(ap);
}

#endif
