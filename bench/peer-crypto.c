/*
 * bench/peer-crypto.c - the cost of the cryptography of a game without a
 * host (docs/peer.md section 15): a shuffle of N cards (default 110)
 * proved and verified, an unmasking share proved and verified, and the
 * bytes that travel; the mean of R runs (default 5), in milliseconds of
 * CPU time. And what `make bench` weighs the peer commands against
 * (issue 41): OpenSSL's own cost of one scalar multiplication
 * (EC_POINT_mul of a point that is not the generator by a random scalar,
 * the mean of 2,000), and the scalar multiplications each step counts
 * (pcrypto_scalar_mults()). Prints lines of NAME VALUE:
 *
 *     mul_us 190.2
 *     shuffle_prove_ms 107.0 mults 1212
 *     ...
 *
 *     build/bench-peer-crypto [N] [R]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#include "peer-crypto.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static unsigned long mults_now(void)
{
	unsigned long all, multi;

	pcrypto_scalar_mults(&all, &multi);
	return all;
}

/* OpenSSL's cost of k * P, microseconds of CPU: P a random point (the
 * generator times a random scalar, not the generator itself: OpenSSL has
 * tables for the generator), k random, the mean of count. */
static double one_mul_us(int count)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	BN_CTX *bn = BN_CTX_new();
	EC_POINT *p = g ? EC_POINT_new(g) : NULL, *r = g ? EC_POINT_new(g) : NULL;
	BIGNUM *k = BN_new();
	double t, us = -1;

	if (g && bn && p && r && k && BN_rand_range(k, EC_GROUP_get0_order(g)) &&
	    EC_POINT_mul(g, p, k, NULL, NULL, bn)) {
		t = now_ms();
		for (int i = 0; i < count; i++)
			if (!BN_rand_range(k, EC_GROUP_get0_order(g)) ||
			    !EC_POINT_mul(g, r, NULL, p, k, bn))
				break;
		us = (now_ms() - t) * 1e3 / count;
	}
	BN_free(k);
	EC_POINT_free(p);
	EC_POINT_free(r);
	BN_CTX_free(bn);
	EC_GROUP_free(g);
	return us;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 110, runs = argc > 2 ? atoi(argv[2]) : 5;
	unsigned char sa[32], sb[32], y[PCRYPTO_PT], share[PCRYPTO_SHARE];
	struct pcrypto_secret a, b;
	struct pcrypto_public pa, pb;
	static const unsigned char ctx[] = "ww-bench shuffle 1 1 american";
	double prove = 0, verify = 0, sprove = 0, sverify = 0, t;

	if (n < 2 || n > PCRYPTO_MAX_DECK || runs < 1)
		return 2;
	for (int i = 0; i < 32; i++) {
		sa[i] = (unsigned char)i;
		sb[i] = (unsigned char)(i + 32);
	}
	unsigned char *in = malloc((size_t)n * PCRYPTO_CT), *out = malloc((size_t)n * PCRYPTO_CT),
		      *proof = malloc(PCRYPTO_SHUFFLE_PROOF(n));
	if (!in || !out || !proof || pcrypto_keys(sa, &a, &pa) < 0 ||
	    pcrypto_keys(sb, &b, &pb) < 0 || pcrypto_joint_key(pa.mask, pb.mask, y) < 0)
		return 1;
	for (int i = 0; i < n; i++)
		if (pcrypto_open(y, i + 1, in + (size_t)i * PCRYPTO_CT) < 0)
			return 1;
	printf("mul_us %.1f\n", one_mul_us(2000));
	{
		unsigned long m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0;
		for (int r = 0; r < runs; r++) {
			m0 = mults_now();
			t = now_ms();
			if (pcrypto_shuffle(&a, ctx, sizeof(ctx) - 1, y, in, n, out, proof) < 0)
				return 1;
			prove += now_ms() - t;
			m1 = mults_now();
			t = now_ms();
			if (pcrypto_shuffle_verify(ctx, sizeof(ctx) - 1, y, in, n, out, proof) < 0)
				return 1;
			verify += now_ms() - t;
			m2 = mults_now();
			t = now_ms();
			if (pcrypto_share(&b, ctx, sizeof(ctx) - 1, out, share) < 0)
				return 1;
			sprove += now_ms() - t;
			m3 = mults_now();
			t = now_ms();
			if (pcrypto_share_verify(pb.mask, ctx, sizeof(ctx) - 1, out, share) < 0)
				return 1;
			sverify += now_ms() - t;
			m4 = mults_now();
		}
		printf("shuffle_prove_ms %.1f mults %lu\n", prove / runs, m1 - m0);
		printf("shuffle_verify_ms %.1f mults %lu\n", verify / runs, m2 - m1);
		printf("share_prove_ms %.2f mults %lu\n", sprove / runs, m3 - m2);
		printf("share_verify_ms %.2f mults %lu\n", sverify / runs, m4 - m3);
	}
	printf("shuffle_cards %d bytes %zu outputs %zu proof %zu\n", n,
	       (size_t)n * PCRYPTO_CT + PCRYPTO_SHUFFLE_PROOF(n),
	       (size_t)n * PCRYPTO_CT, PCRYPTO_SHUFFLE_PROOF(n));
	printf("share_bytes %d\n", PCRYPTO_SHARE);
	free(in);
	free(out);
	free(proof);
	return 0;
}
