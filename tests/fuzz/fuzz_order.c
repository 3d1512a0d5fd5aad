/*
 * fuzz_order.c - libFuzzer harness for the order language: order_parse_line
 * and order_run on fixed states of a created game.
 *
 * Input: the first byte chooses one of FUZZ_STATES states (the new game of
 * engine_new_game, then the states reached by a fixed random walk of legal
 * actions) and, in its top bit, whether the order is given as the side to
 * move or as the other side; the rest is the order text. Each line of it
 * is also given to order_parse_line alone.
 */
#include <stdint.h>
#include <string.h>
#include "fuzz_common.h"
#include "order.h"

static struct state states[FUZZ_STATES];
static unsigned char seed[RNG_SEED_BYTES];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	const struct data *d = fuzz_data();

	if (!ready) {
		fuzz_order_states(d, states, seed);
		ready = 1;
	}
	if (size < 1 || size > 4096)
		return 0;

	unsigned sel = data[0];
	struct state s = states[(sel & 0x7f) % FUZZ_STATES];
	enum side side = s.prompt.side;
	if (sel & 0x80)
		side = side == SIDE_AMERICAN ? SIDE_BRITISH : SIDE_AMERICAN;
	char *text = xstrndup((const char *)data + 1, size - 1);

	/* Each line alone through the parser. */
	const struct state *s0 = &states[(sel & 0x7f) % FUZZ_STATES];
	char *p = text;
	for (;;) {
		char *nl = strchr(p, '\n');
		char *line = nl ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		struct action a = ACTION_INIT;
		struct strbuf err = STRBUF_INIT;
		int column = 0;
		if (order_parse_line(d, s0, side, line, &a, &err, &column) < 0) {
			if (column < 0)
				abort();	/* a column must be 1-based or unset */
		}
		strbuf_release(&err);
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}

	/* The whole order. */
	struct rng r;
	struct order_result res;
	rng_init(&r, seed, s.draws);
	order_result_init(&res);
	order_run(d, &s, &r, side, text, &res);
	if (!res.rejected) {
		struct strbuf why = STRBUF_INIT;
		s.draws = r.next;
		if (engine_invariants(d, &s, &why)) {
			fprintf(stderr, "fuzz_order: invariant broken:\n%s", strbuf_str(&why));
			abort();
		}
		strbuf_release(&why);
	}
	order_result_release(&res);
	free(text);
	return 0;
}
