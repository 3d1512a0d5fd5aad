/*
 * bench/peer-crypto.c - the cost of the cryptography of a game without a
 * host (docs/peer.md section 15): a shuffle of N cards (default 110)
 * proved and verified, an unmasking share proved and verified, and the
 * bytes that travel; the mean of R runs (default 5), in milliseconds.
 *
 *     cc -O2 -std=c11 -D_GNU_SOURCE -Isrc -Ibuild -o build/bench-peer-crypto \
 *        bench/peer-crypto.c build/libpostrider.a \
 *        $(pkg-config --libs libgit2 yaml-0.1 libcurl libcrypto cairo zlib) -lm -pthread
 *     build/bench-peer-crypto [N] [R]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer-crypto.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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
	for (int r = 0; r < runs; r++) {
		t = now_ms();
		if (pcrypto_shuffle(&a, ctx, sizeof(ctx) - 1, y, in, n, out, proof) < 0)
			return 1;
		prove += now_ms() - t;
		t = now_ms();
		if (pcrypto_shuffle_verify(ctx, sizeof(ctx) - 1, y, in, n, out, proof) < 0)
			return 1;
		verify += now_ms() - t;
		t = now_ms();
		if (pcrypto_share(&b, ctx, sizeof(ctx) - 1, out, share) < 0)
			return 1;
		sprove += now_ms() - t;
		t = now_ms();
		if (pcrypto_share_verify(pb.mask, ctx, sizeof(ctx) - 1, out, share) < 0)
			return 1;
		sverify += now_ms() - t;
	}
	printf("shuffle of %d: prove %.1f ms, verify %.1f ms; %zu bytes (outputs %zu, proof %zu)\n",
	       n, prove / runs, verify / runs,
	       (size_t)n * PCRYPTO_CT + PCRYPTO_SHUFFLE_PROOF(n),
	       (size_t)n * PCRYPTO_CT, PCRYPTO_SHUFFLE_PROOF(n));
	printf("unmasking share: prove %.2f ms, verify %.2f ms; %d bytes\n",
	       sprove / runs, sverify / runs, PCRYPTO_SHARE);
	free(in);
	free(out);
	free(proof);
	return 0;
}
