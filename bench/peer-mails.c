/*
 * bench/peer-mails.c - how many automatic mails a game between two peers
 * would need (docs/peer.md section 12), estimated from random self-play:
 * the games of `postrider selfplay`, each action classified by what its
 * log shows (public draws, shuffles, deals, single draws, cards taken at
 * random), then counted by the rules of section 12.
 *
 *     cc -O2 -std=c11 -D_GNU_SOURCE -Isrc -Ibuild -o build/bench-peer-mails \
 *        bench/peer-mails.c build/libpostrider.a \
 *        $(pkg-config --libs libgit2 yaml-0.1 libcurl libcrypto cairo zlib) -lm -pthread
 *     build/bench-peer-mails [GAMES] [SEED]
 *
 * prints one line per category (the mean a game, the range) and the total.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "game.h"
#include "rng.h"

struct count {
	long actions;		/* decisions: a human's mail each, at most */
	long dice;		/* actions that drew a public die or card */
	long continued;		/* of those, the mover decides next */
	long deals;		/* deals of seven cards each */
	long shuffles;		/* shuffles of the deck (each needs both sides) */
	long singles;		/* single draws (6.33.B, 6.34.C.i) the drawer applied */
	long randoms;		/* cards taken at random from a hand */
	long ends;		/* the keys exchanged at the end */
};

static int lines_with(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Public draws: log lines that begin "draw N:". */
static int public_draws(const char *text)
{
	int n = 0;

	for (const char *p = text; *p; ) {
		if (!strncmp(p, "draw ", 5))
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

static void play(const struct data *d, unsigned long long s, long g,
		 struct count *c)
{
	unsigned char seed[32] = { 0 }, pick_seed[32];
	struct rng r, pick;
	static struct state st;
	struct strbuf log = STRBUF_INIT, why = STRBUF_INIT;
	struct action acts[512];

	for (int k = 0; k < 8; k++) {
		seed[k] = (unsigned char)(s >> (8 * k));
		seed[8 + k] = (unsigned char)((unsigned long long)g >> (8 * k));
	}
	seed[31] = 0x5e;
	memcpy(pick_seed, seed, 32);
	pick_seed[31] = 0xc4;
	rng_init(&r, seed, 0);
	rng_init(&pick, pick_seed, 0);
	r.log = &log;
	engine_new_game(d, &st, &r, &log);
	while (!engine_game_over(&st)) {
		int n = engine_legal(d, &st, acts, (int)ARRAY_SIZE(acts));
		if (n <= 0)
			break;
		if (n > (int)ARRAY_SIZE(acts))
			n = (int)ARRAY_SIZE(acts);
		struct action a = acts[rng_uniform(&pick, n, NULL)];
		enum side mover = st.prompt.side;
		size_t from = log.len;
		engine_begin_order(&st);
		if (engine_apply(d, &st, &a, &r, &log, &why) != ENGINE_OK)
			break;
		st.draws = r.next;
		const char *text = log.buf + from;
		bool dice = public_draws(text) > 0;
		/* who applies the action: the mover, or the other side once
		 * the mover's share asked for its share (docs/peer.md 7) */
		enum side applier = dice ? OTHER_SIDE(mover) : mover;
		c->actions++;
		c->dice += dice;
		c->continued += dice && !engine_game_over(&st) &&
				st.prompt.side == mover;
		c->deals += lines_with(text, "Seven cards are dealt");
		c->shuffles += lines_with(text, ": shuffle of ");
		c->randoms += lines_with(text, " at random from the ");
		int am = lines_with(text, "The Americans draw ");
		int br = lines_with(text, "The British draw ") +
			 lines_with(text, "the British draws a replacement card");
		c->singles += (applier == SIDE_AMERICAN ? am : 0) +
			      (applier == SIDE_BRITISH ? br : 0);
	}
	c->ends++;
	strbuf_release(&log);
	strbuf_release(&why);
}

int main(int argc, char **argv)
{
	long games = argc > 1 ? atol(argv[1]) : 200;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	struct strbuf errs = STRBUF_INIT;
	char *dir = game_data_dir(NULL, "washingtons-war");
	struct data *d = data_load(dir, &errs);
	struct count sum = { 0 }, lo, hi;
	long totals_lo = -1, totals_hi = 0, total = 0;

	free(dir);
	if (!d || games < 1) {
		fprintf(stderr, "%s", errs.buf);
		return 1;
	}
	memset(&lo, 0x7f, sizeof(lo));
	memset(&hi, 0, sizeof(hi));
	for (long g = 0; g < games; g++) {
		struct count c = { 0 };
		play(d, seed, g, &c);
		long *cv = (long *)&c, *sv = (long *)&sum, *lv = (long *)&lo,
		     *hv = (long *)&hi;
		for (size_t k = 0; k < sizeof(c) / sizeof(long); k++) {
			sv[k] += cv[k];
			if (cv[k] < lv[k])
				lv[k] = cv[k];
			if (cv[k] > hv[k])
				hv[k] = cv[k];
		}
		long autos = c.dice + c.deals + c.shuffles + c.singles + c.ends;
		total += autos;
		if (totals_lo < 0 || autos < totals_lo)
			totals_lo = autos;
		if (autos > totals_hi)
			totals_hi = autos;
	}
	static const char *const names[] = {
		"decisions (human mails at most)", "die-bearing decisions",
		"  of which the mover decides next", "deals",
		"shuffles", "single draws by the applier", "cards taken at random",
		"keys at the end",
	};
	long *sv = (long *)&sum, *lv = (long *)&lo, *hv = (long *)&hi;
	printf("%ld games (selfplay seed %llu)\n", games, seed);
	for (size_t k = 0; k < sizeof(sum) / sizeof(long); k++)
		printf("%-36s %7.1f  (%ld-%ld)\n", names[k], (double)sv[k] / games,
		       lv[k], hv[k]);
	printf("%-36s %7.1f  (%ld-%ld)\n", "automatic mails a game",
	       (double)total / games, totals_lo, totals_hi);
	printf("%-36s %7.1f\n", "  with every continuation",
	       (double)(total + sum.continued) / games);
	data_free(d);
	strbuf_release(&errs);
	return 0;
}
