/*
 * bench/vrf.c - the cost of one provable die (issue 20): the mean time of
 * vrf_prove() and vrf_verify() over N draws' inputs, in microseconds,
 * printed as "prove_us verify_us". Used by `make bench` (tests/bench.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fair.h"
#include "rng.h"
#include "vrf.h"

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 500;
	unsigned char seed[32] = { 1 }, sk[32], pk[33], words[64] = { 0 };
	unsigned char alpha[RNG_ALPHA_MAX], beta[32];
	unsigned char (*pi)[VRF_PROOF_BYTES];
	double t0, t1, t2;

	if (n < 1 || !(pi = malloc((size_t)n * sizeof(*pi))) ||
	    fair_vrf_keys(seed, sk, pk) < 0)
		return 1;
	t0 = now_us();
	for (int i = 0; i < n; i++) {
		size_t len = rng_vrf_alpha("ww-bench", words, (uint64_t)i, alpha);
		if (vrf_prove(sk, alpha, len, pi[i]) < 0)
			return 1;
	}
	t1 = now_us();
	for (int i = 0; i < n; i++) {
		size_t len = rng_vrf_alpha("ww-bench", words, (uint64_t)i, alpha);
		if (vrf_verify(pk, pi[i], alpha, len, beta) < 0)
			return 1;
	}
	t2 = now_us();
	printf("%.0f %.0f\n", (t1 - t0) / n, (t2 - t1) / n);
	free(pi);
	return 0;
}
