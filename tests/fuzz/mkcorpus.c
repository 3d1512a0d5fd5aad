/*
 * mkcorpus.c - writes seed inputs for fuzz_order and fuzz_state from the
 * states of fuzz_common.h (tests/fuzz/mkcorpus.sh builds and runs it).
 *
 *   mkcorpus DATADIR OUTDIR
 *
 * OUTDIR/order/s<i>-<k>: selector byte i, then 1 to 3 legal orders of
 * state i, the legal actions listed one per line ("legal" files hold all
 * of them); OUTDIR/state/s<i>: state i as public YAML, NUL, private YAML;
 * OUTDIR/state/p<i>: the public YAML alone.
 */
#include <stdio.h>
#include <string.h>
#include "fuzz_common.h"

static void put(const char *dir, const char *name, const char *a, size_t alen,
		const char *b, size_t blen, int nul)
{
	char *p = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	if (!f) {
		perror(p);
		exit(1);
	}
	fwrite(a, 1, alen, f);
	if (nul)
		fputc(0, f);
	if (b)
		fwrite(b, 1, blen, f);
	fclose(f);
	free(p);
}

int main(int argc, char **argv)
{
	static struct state states[FUZZ_STATES];
	unsigned char seed[RNG_SEED_BYTES];
	static struct action acts[512];

	if (argc != 3) {
		fprintf(stderr, "usage: mkcorpus DATADIR OUTDIR\n");
		return 2;
	}
	setenv("POSTRIDER_FUZZ_DATA", argv[1], 1);
	const struct data *d = fuzz_data();
	char *od = xstrfmt("%s/order", argv[2]), *sd = xstrfmt("%s/state", argv[2]);
	fuzz_order_states(d, states, seed);
	for (int i = 0; i < FUZZ_STATES; i++) {
		const struct state *s = &states[i];
		struct strbuf pub = STRBUF_INIT, priv = STRBUF_INIT, all = STRBUF_INIT;
		char name[32];
		unsigned char sel = (unsigned char)i;
		int n = engine_legal(d, s, acts, 512);
		if (n > 512)
			n = 512;
		for (int k = 0; k < n; k++) {
			action_format(d, &acts[k], &all);
			strbuf_addch(&all, '\n');
		}
		/* a few single legal lines, and all of them as one order */
		for (int k = 0; k < n && k < 3; k++) {
			struct strbuf one = STRBUF_INIT;
			action_format(d, &acts[(k * 7) % n], &one);
			strbuf_addstr(&one, "\n");
			snprintf(name, sizeof(name), "s%02d-%d", i, k);
			put(od, name, (const char *)&sel, 1, one.buf, one.len, 0);
			strbuf_release(&one);
		}
		snprintf(name, sizeof(name), "s%02d-legal", i);
		if (n)
			put(od, name, (const char *)&sel, 1, all.buf, all.len, 0);
		state_write_public(s, d, NULL, &pub);
		state_write_private(s, d, &priv);
		snprintf(name, sizeof(name), "s%02d", i);
		put(sd, name, pub.buf, pub.len, priv.buf, priv.len, 1);
		snprintf(name, sizeof(name), "p%02d", i);
		put(sd, name, pub.buf, pub.len, NULL, 0, 0);
		strbuf_release(&pub);
		strbuf_release(&priv);
		strbuf_release(&all);
	}
	return 0;
}
