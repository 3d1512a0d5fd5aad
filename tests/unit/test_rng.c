/*
 * test_rng.c - the random stream: the vectors of docs/fairness.md,
 * determinism, rejection sampling, distribution, fixed dice, shuffles and
 * the log lines.
 *
 * `test_rng --log` prints instead a sample log (dice, uniform values,
 * shuffles, forced dice) drawn from the vector seed, which
 * tests/e2e/t-fairness-vectors.sh feeds to the independent verifier.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "rng.h"

/* The vector seed 00 01 ... 1f of docs/fairness.md, section 11. */
static void vector_seed(unsigned char seed[32])
{
	for (int i = 0; i < 32; i++)
		seed[i] = (unsigned char)i;
}

static const char vector_key_hex[] =
	"4b2d12e29831b14a6ec646fe283acabc9d59f7435aadabbfd2d7effa9a7f14d8";

/* Independent HMAC-SHA256 of the raw draw message, built by hand. */
static uint64_t raw_by_hand(const unsigned char key[32], uint64_t index,
			    uint32_t attempt)
{
	unsigned char msg[26], mac[32];
	unsigned int len = 0;
	uint64_t x = 0;

	memcpy(msg, "postrider-draw", 14);
	for (int i = 0; i < 8; i++)
		msg[14 + i] = (unsigned char)(index >> (56 - 8 * i));
	for (int i = 0; i < 4; i++)
		msg[22 + i] = (unsigned char)(attempt >> (24 - 8 * i));
	assert_non_null(HMAC(EVP_sha256(), key, 32, msg, sizeof(msg), mac,
			     &len));
	assert_int_equal(len, 32);
	for (int i = 0; i < 8; i++)
		x = x << 8 | mac[i];
	return x;
}

static void test_key_vector(void **state)
{
	unsigned char seed[32], key[32];
	char hex[65];
	struct rng r;

	(void)state;
	vector_seed(seed);
	rng_derive_key(seed, key);
	hex_encode(key, 32, hex);
	assert_string_equal(hex, vector_key_hex);

	rng_init(&r, seed, 7);
	assert_true(r.have_key);
	assert_memory_equal(r.key, key, 32);
	assert_int_equal(r.next, 7);
	assert_int_equal(r.n_forced, 0);
	assert_null(r.log);
	/* the key is not the seed */
	assert_memory_not_equal(r.key, seed, 32);
}

static void test_raw_vector(void **state)
{
	unsigned char seed[32], key[32];

	(void)state;
	vector_seed(seed);
	rng_derive_key(seed, key);
	assert_true(rng_raw_at(key, 0, 0) == UINT64_C(2892120465344192147));
	for (uint64_t i = 0; i < 50; i++)
		for (uint32_t a = 0; a < 3; a++)
			assert_true(rng_raw_at(key, i, a) ==
				    raw_by_hand(key, i, a));
	assert_true(rng_raw_at(key, UINT64_MAX - 1, UINT32_MAX) ==
		    raw_by_hand(key, UINT64_MAX - 1, UINT32_MAX));
}

static void test_dice_vector(void **state)
{
	static const int want[10] = { 6, 2, 5, 2, 5, 4, 5, 4, 1, 1 };
	unsigned char seed[32];
	struct strbuf log = STRBUF_INIT;
	struct rng r;

	(void)state;
	vector_seed(seed);
	rng_init(&r, seed, 0);
	r.log = &log;
	for (int i = 0; i < 10; i++)
		assert_int_equal(rng_die(&r, i == 3 ? "battle" : NULL),
				 want[i]);
	assert_int_equal(r.next, 10);
	assert_string_equal(strbuf_str(&log),
		"draw 0: d6 -> 6\n"
		"draw 1: d6 -> 2\n"
		"draw 2: d6 -> 5\n"
		"draw 3: d6 -> 2 (battle)\n"
		"draw 4: d6 -> 5\n"
		"draw 5: d6 -> 4\n"
		"draw 6: d6 -> 5\n"
		"draw 7: d6 -> 4\n"
		"draw 8: d6 -> 1\n"
		"draw 9: d6 -> 1\n");
	for (int i = 0; i < 10; i++)
		assert_int_equal(rng_value_at(r.key, (uint64_t)i, 6) + 1,
				 want[i]);
	strbuf_release(&log);
}

/*
 * Section 6.8: the players' words mixed into the key. The values were
 * computed independently with Python's hmac and hashlib: SHA-256("tea
 * party") for the American, nothing for the British.
 */
static void test_mix_vector(void **state)
{
	static const int want[10] = { 5, 2, 4, 2, 4, 3, 2, 6, 4, 1 };
	static const char am_hex[] =
		"59300b274442b2f3b75dc6c8dff58b77c67af82b658a707eea33c0a3987012a0";
	static const char key_hex[] =
		"9100d9f439949e9f65cd16daae483866c31baeacf572acf9be3f5b886d01199c";
	unsigned char seed[32], am[32], key[32];
	struct rng r;

	(void)state;
	vector_seed(seed);
	assert_int_equal(hex_decode(am_hex, am, 32), 0);
	assert_int_equal(hex_decode(key_hex, key, 32), 0);
	rng_init(&r, seed, 0);
	rng_mix(&r, am, NULL);
	assert_memory_equal(r.key, key, 32);
	for (int i = 0; i < 10; i++)
		assert_int_equal(rng_die(&r, NULL), want[i]);
	/* no words: the stream of K_draw, as before */
	rng_mix(&r, NULL, NULL);
	assert_int_equal(rng_value_at(r.key, 0, 6) + 1, 6);
}

static void test_uniform_vector(void **state)
{
	unsigned char seed[32];
	struct strbuf log = STRBUF_INIT;
	struct rng r;

	(void)state;
	vector_seed(seed);
	rng_init(&r, seed, 10);
	r.log = &log;
	assert_int_equal(rng_uniform(&r, 110, "random card (x)"), 2);
	assert_int_equal(r.next, 11);
	assert_string_equal(strbuf_str(&log),
			    "draw 10: uniform(110) -> 2 (random card (x))\n");
	/* n = 1 still uses a draw */
	assert_int_equal(rng_uniform(&r, 1, ""), 0);
	assert_int_equal(r.next, 12);
	assert_string_equal(strbuf_str(&log) + strlen("draw 10: uniform(110)"
				" -> 2 (random card (x))\n"),
			    "draw 11: uniform(1) -> 0\n");
	strbuf_release(&log);
}

static void test_shuffle_vector(void **state)
{
	static const int want[10] = { 7, 9, 3, 5, 8, 2, 0, 1, 6, 4 };
	int items[10];
	unsigned char seed[32];
	struct strbuf log = STRBUF_INIT;
	struct rng r;

	(void)state;
	vector_seed(seed);
	for (int i = 0; i < 10; i++)
		items[i] = i;
	rng_init(&r, seed, 11);
	r.log = &log;
	rng_shuffle(&r, items, 10, "test deck");
	assert_memory_equal(items, want, sizeof(want));
	assert_int_equal(r.next, 20);
	assert_string_equal(strbuf_str(&log),
			    "draws 11-19: shuffle of 10 (test deck)\n");

	/* the same shuffle by hand from rng_value_at */
	for (int i = 0; i < 10; i++)
		items[i] = i;
	for (int i = 9, d = 11; i >= 1; i--, d++) {
		int j = rng_value_at(r.key, (uint64_t)d, i + 1), t = items[i];
		items[i] = items[j];
		items[j] = t;
	}
	assert_memory_equal(items, want, sizeof(want));
	strbuf_release(&log);
}

static void test_rejection_vector(void **state)
{
	const uint64_t n = (UINT64_C(1) << 63) + 1;
	unsigned char seed[32], key[32];
	uint32_t attempts = 0;

	(void)state;
	vector_seed(seed);
	rng_derive_key(seed, key);
	/* limit = 2^64 - (2^64 mod n) = 2^63 + 1 */
	assert_true(rng_uniform64_at(key, 0, n, &attempts) ==
		    rng_raw_at(key, 0, 0));
	assert_int_equal(attempts, 1);
	assert_true(rng_raw_at(key, 1, 0) == UINT64_C(12094017086071258321));
	assert_true(rng_raw_at(key, 1, 0) >= n);
	assert_true(rng_raw_at(key, 1, 1) == UINT64_C(5488205953236907443));
	assert_true(rng_uniform64_at(key, 1, n, &attempts) ==
		    UINT64_C(5488205953236907443));
	assert_int_equal(attempts, 2);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/*
 * Checks rng_uniform64_at against the definition, computed with 128-bit
 * arithmetic: every rejected attempt is >= limit, the accepted one is below
 * it and the value is its remainder.
 */
static void check_definition(const unsigned char key[32], uint64_t index,
			     uint64_t n)
{
	u128 two64 = (u128)1 << 64;
	u128 limit = two64 - two64 % n;
	uint32_t attempts = 0, a;
	uint64_t v = rng_uniform64_at(key, index, n, &attempts);

	for (a = 0; a + 1 < attempts; a++)
		assert_true((u128)rng_raw_at(key, index, a) >= limit);
	assert_true((u128)rng_raw_at(key, index, a) < limit);
	assert_true(v == rng_raw_at(key, index, a) % n);
	assert_true(v < n);
}

static void test_rejection_definition(void **state)
{
	static const uint64_t bounds[] = {
		1, 2, 3, 6, 7, 110, 1u << 20, 1000003,
		(UINT64_C(1) << 63) + 1, (UINT64_C(1) << 63) + 12345,
		UINT64_C(3) << 62, UINT64_MAX, UINT64_MAX - 1,
		UINT64_C(1) << 63,
	};
	unsigned char seed[32], key[32];
	int rejected = 0;

	(void)state;
	vector_seed(seed);
	rng_derive_key(seed, key);
	for (size_t b = 0; b < ARRAY_SIZE(bounds); b++)
		for (uint64_t i = 0; i < 200; i++) {
			uint32_t attempts;

			check_definition(key, i, bounds[b]);
			rng_uniform64_at(key, i, bounds[b], &attempts);
			if (attempts > 1)
				rejected++;
			if ((bounds[b] & (bounds[b] - 1)) == 0)
				assert_int_equal(attempts, 1);
		}
	/* the large bounds reject often: the loop was exercised */
	assert_true(rejected > 100);
}
#endif

static void test_value_at_matches_int(void **state)
{
	unsigned char seed[32], key[32];

	(void)state;
	vector_seed(seed);
	rng_derive_key(seed, key);
	for (uint64_t i = 0; i < 100; i++) {
		int n = (int)(i % 17) + 1;

		assert_true((uint64_t)rng_value_at(key, i, n) ==
			    rng_uniform64_at(key, i, (uint64_t)n, NULL));
	}
	assert_in_range(rng_value_at(key, 5, 2147483647), 0, 2147483646);
}

static void test_determinism(void **state)
{
	unsigned char seed[32], other[32];
	struct rng a, b, c;
	int items_a[40], items_b[40];

	(void)state;
	vector_seed(seed);
	memcpy(other, seed, 32);
	other[31] ^= 1;
	rng_init(&a, seed, 1000);
	rng_init(&b, seed, 1000);
	rng_init(&c, other, 1000);
	int differ = 0;
	for (int i = 0; i < 200; i++) {
		int va = rng_uniform(&a, 1000, NULL);
		assert_int_equal(va, rng_uniform(&b, 1000, NULL));
		differ += va != rng_uniform(&c, 1000, NULL);
		assert_int_equal(va, rng_value_at(a.key, 1000 + (uint64_t)i,
						  1000));
	}
	assert_true(differ > 150);
	for (int i = 0; i < 40; i++)
		items_a[i] = items_b[i] = i;
	rng_shuffle(&a, items_a, 40, NULL);
	rng_shuffle(&b, items_b, 40, NULL);
	assert_memory_equal(items_a, items_b, sizeof(items_a));
	assert_int_equal(a.next, 1200 + 39);

	/* resuming from a saved index gives the same continuation */
	struct rng d;
	rng_init(&d, seed, a.next);
	assert_int_equal(rng_die(&a, NULL), rng_die(&d, NULL));
}

static void test_chi_square(void **state)
{
	unsigned char seed[32];
	long count[7] = { 0 };
	double chi2 = 0;
	struct rng r;

	(void)state;
	vector_seed(seed);
	rng_init(&r, seed, 0);
	for (int i = 0; i < 60000; i++) {
		int v = rng_die(&r, NULL);
		assert_in_range(v, 1, 6);
		count[v]++;
	}
	for (int v = 1; v <= 6; v++) {
		double d = (double)count[v] - 10000.0;
		chi2 += d * d / 10000.0;
	}
	/* 5 degrees of freedom: P(chi2 > 30) is about 1.5e-5 */
	assert_true(chi2 < 30.0);

	/* and a bound that is not a divisor of anything nice */
	long c7[7] = { 0 };
	chi2 = 0;
	for (int i = 0; i < 70000; i++)
		c7[rng_uniform(&r, 7, NULL)]++;
	for (int v = 0; v < 7; v++) {
		double d = (double)c7[v] - 10000.0;
		chi2 += d * d / 10000.0;
	}
	assert_true(chi2 < 32.0);	/* 6 degrees of freedom */
}

static void test_forced_dice(void **state)
{
	unsigned char seed[32];
	struct strbuf log = STRBUF_INIT;
	struct rng r;

	(void)state;
	vector_seed(seed);
	rng_init(&r, seed, 0);
	r.log = &log;
	r.forced[0] = 1;
	r.forced[1] = 6;
	r.n_forced = 2;
	assert_int_equal(rng_die(&r, "first"), 1);
	assert_int_equal(rng_die(&r, NULL), 6);
	assert_int_equal(r.forced_pos, 2);
	assert_int_equal(r.next, 2);
	/* then the stream again, at the index it would have had */
	assert_int_equal(rng_die(&r, NULL), 5);
	/* uniform values are never forced */
	r.forced[2] = 3;
	r.n_forced = 3;
	assert_int_equal(rng_uniform(&r, 110, NULL),
			 rng_value_at(r.key, 3, 110));
	assert_int_equal(r.forced_pos, 2);
	assert_string_equal(strbuf_str(&log),
		"draw 0: d6 -> 1 forced, stream 6 (first)\n"
		"draw 1: d6 -> 6 forced, stream 2\n"
		"draw 2: d6 -> 5\n"
		"draw 3: uniform(110) -> 105\n");
	strbuf_release(&log);
}

static void test_shuffle_permutation(void **state)
{
	unsigned char seed[32];
	struct strbuf log = STRBUF_INIT;
	struct rng r;
	int items[120], seen[120];
	int moved = 0;

	(void)state;
	vector_seed(seed);
	rng_init(&r, seed, 500);
	r.log = &log;
	for (int n = 0; n <= 120; n++) {
		uint64_t before = r.next;

		for (int i = 0; i < n; i++)
			items[i] = 1000 + i;
		rng_shuffle(&r, items, n, NULL);
		assert_int_equal(r.next - before, n < 2 ? 0 : n - 1);
		memset(seen, 0, sizeof(seen));
		for (int i = 0; i < n; i++) {
			assert_in_range(items[i], 1000, 1000 + n - 1);
			assert_int_equal(seen[items[i] - 1000]++, 0);
			moved += items[i] != 1000 + i;
		}
	}
	assert_true(moved > 5000);
	/* n < 2 logs nothing: the log starts with the shuffle of 2 */
	assert_true(strncmp(strbuf_str(&log),
			    "draws 500-500: shuffle of 2\n"
			    "draws 501-502: shuffle of 3\n", 56) == 0);
	rng_shuffle(&r, NULL, 0, NULL);
	strbuf_release(&log);
}

static void test_purpose_sanitised(void **state)
{
	unsigned char seed[32];
	struct strbuf log = STRBUF_INIT;
	struct rng r;

	(void)state;
	vector_seed(seed);
	rng_init(&r, seed, 0);
	r.log = &log;
	rng_die(&r, "a\nb\tc\x7f");
	assert_string_equal(strbuf_str(&log), "draw 0: d6 -> 6 (a b c )\n");
	strbuf_release(&log);
}

static void test_keyless(void **state)
{
	struct rng r;

	(void)state;
	rng_init_keyless(&r, 42);
	assert_false(r.have_key);
	assert_int_equal(r.next, 42);
	/* a shuffle of fewer than two items draws nothing, so is allowed */
	int one = 7;
	rng_shuffle(&r, &one, 1, NULL);
	assert_int_equal(one, 7);
	assert_int_equal(r.next, 42);
}

/* The sample log for tests/e2e/t-fairness-vectors.sh. */
static int print_sample_log(void)
{
	unsigned char seed[32];
	struct strbuf log = STRBUF_INIT;
	int deck[110];
	struct rng r;

	vector_seed(seed);
	rng_init(&r, seed, 0);
	r.log = &log;
	for (int i = 0; i < 110; i++)
		deck[i] = i + 1;
	rng_shuffle(&r, deck, 110, "strategy deck");
	for (int i = 0; i < 30; i++)
		rng_die(&r, i % 3 ? "battle (American)" : NULL);
	rng_uniform(&r, 7, "random card from the British hand");
	rng_shuffle(&r, deck, 2, "two");
	rng_uniform(&r, 1000000, NULL);
	r.forced[0] = 3;
	r.n_forced = 1;
	rng_die(&r, "fixed");
	rng_die(&r, "after the fixed die");
	fputs(strbuf_str(&log), stdout);
	strbuf_release(&log);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--log"))
		return print_sample_log();

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_vector),
		cmocka_unit_test(test_raw_vector),
		cmocka_unit_test(test_dice_vector),
		cmocka_unit_test(test_mix_vector),
		cmocka_unit_test(test_uniform_vector),
		cmocka_unit_test(test_shuffle_vector),
		cmocka_unit_test(test_rejection_vector),
#ifdef __SIZEOF_INT128__
		cmocka_unit_test(test_rejection_definition),
#endif
		cmocka_unit_test(test_value_at_matches_int),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_chi_square),
		cmocka_unit_test(test_forced_dice),
		cmocka_unit_test(test_shuffle_permutation),
		cmocka_unit_test(test_purpose_sanitised),
		cmocka_unit_test(test_keyless),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
