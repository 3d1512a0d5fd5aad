/*
 * rng.h - the one random stream of a game (docs/fairness.md).
 *
 * Every die, shuffle and random draw from a hand comes from a stream
 * derived from the game's secret seed: draw number i is computed from
 * HMAC-SHA256(key, "postrider-draw" || u64be(i) || u32be(attempt)) with
 * rejection sampling, so the draws can be re-derived one by one by an
 * independent verifier. The stream is pure computation (no I/O), so the
 * engine may use it.
 *
 * A draw is identified by its index; the index of the next draw is kept in
 * the public state so each commit names the range of draws it used.
 *
 * Ownership: struct rng is a plain value owned by the caller; it points to
 * (does not own) an optional log buffer.
 */
#ifndef POSTRIDER_RNG_H
#define POSTRIDER_RNG_H

#include <stdbool.h>
#include <stdint.h>
#include "data.h"	/* enum side */
#include "util.h"

#define RNG_SEED_BYTES 32
#define RNG_MAX_FORCED 64
#define RNG_MAX_GAME_ID 64	/* a game id's length in the VRF input */
#define RNG_ALPHA_MAX (21 + 1 + RNG_MAX_GAME_ID + 64 + 1 + 8 + 8)

/*
 * Where a peer game's draws and hidden cards come from (docs/peer.md 5.2,
 * 12). Owned by the caller (the protocol layer), which points struct
 * rng's peer at it for the engine's run; the engine only reads it, sets
 * missing and calls reveal.
 */
struct rng_peer {
	bool have_key;		/* the request's K (docs/peer.md 5.2) is known */
	unsigned char key[32];
	int generation;		/* the next generation of the deck */
	/*
	 * The card under slot (a value CARD_SLOT(g, i)) of side's hand that
	 * the rules reveal, or 0 when this copy cannot know it yet. May be
	 * NULL: then every slot is unknown.
	 */
	int (*reveal)(void *ctx, enum side side, int slot);
	void *ctx;
	bool missing;		/* set when a draw or a card was not known */
};

struct rng {
	unsigned char key[32];	/* the stream key: K_draw, or K_draw mixed
				   with the players' words (rng_mix) */
	unsigned char base[32];	/* K_draw, derived from the seed, never the seed */
	uint64_t next;		/* index of the next draw */
	bool have_key;		/* false: no secret available; any draw is a BUG */
	/*
	 * Test-only fixed dice (docs/fairness.md, "fixed dice"): while
	 * forced_pos < n_forced, rng_die() returns forced[forced_pos++]
	 * instead of the stream's value (the index still advances). A game
	 * that uses them is marked in game.yaml and never audits as fair.
	 */
	int forced[RNG_MAX_FORCED];
	int n_forced, forced_pos;
	/*
	 * If set, each draw appends one line to log:
	 *   "draw 214: d6 -> 2 (interception, Arnold, agility 2)\n"
	 *   "draw 215: d6 -> 6 forced, stream 3 (battle, American roll)\n"
	 *   "draw 216: uniform(7) -> 4 (random card from the British hand)\n"
	 *   "draws 10-117: shuffle of 109 (strategy deck)\n"
	 * (a shuffle of n uses n-1 draws; one of n < 2 logs nothing).
	 * The exact format is specified in docs/fairness.md.
	 */
	struct strbuf *log;
	/*
	 * Fairness version 2 (docs/fairness.md section 18): with vrf set,
	 * every die and uniform draw comes from the VRF output for
	 * rng_vrf_alpha(), and its proof is appended to proofs (if set) as
	 * the line "N HEX\n"; shuffles stay on the keyed stream above.
	 */
	bool vrf;
	unsigned char vrf_sk[32];
	char vrf_game[RNG_MAX_GAME_ID + 1];
	unsigned char words[64];	/* the mixed words, zeros for none */
	struct strbuf *proofs;
	/*
	 * Fairness version 3 (docs/fairness.md section 19): with bound set,
	 * a public draw's VRF input names the order that calls for it (the
	 * side and that side's count of accepted orders before it, side 0
	 * for the new game) and its place among the order's public draws
	 * (0, 1, ...: its own counter, which shuffles never advance),
	 * instead of the shared draw index.
	 */
	bool bound;
	int order_side;
	uint64_t order_n, place;
	/*
	 * Fairness version 4 (docs/fairness.md section 19b): with counted
	 * set, a public draw's VRF input is its place among the game's
	 * public draws (place: the count of public draws before it, in
	 * every commit so far; shuffles never advance it), so that an order
	 * that draws nothing moves no die.
	 */
	bool counted;
	/*
	 * A peer game (docs/peer.md 12): with peer set, every public draw
	 * comes from peer->key (5.2) at the draw index, or, without the key,
	 * sets peer->missing and returns 1 (a die) or 0; shuffles draw
	 * nothing (the engine gives the deck slots). NULL in host mode.
	 */
	struct rng_peer *peer;
};

/* Initialises r from a 32-byte seed, the next draw being next_index. */
void rng_init(struct rng *r, const unsigned char seed[RNG_SEED_BYTES],
	      uint64_t next_index);
/*
 * Mixes the players' words into the stream (docs/fairness.md 6.8): the key
 * becomes HMAC(K_draw, "postrider-mix" || am || br), a missing side's hash
 * counting as 32 zero bytes; with neither it stays K_draw. am and br are
 * SHA-256 hashes of each side's words, or NULL. Keyless streams ignore it.
 */
void rng_mix(struct rng *r, const unsigned char am[32],
	     const unsigned char br[32]);
/*
 * Switches r to fairness version 2: public draws from the VRF under sk for
 * game game_id (at most RNG_MAX_GAME_ID bytes, or a BUG).
 */
void rng_use_vrf(struct rng *r, const unsigned char sk[32], const char *game_id);
/*
 * Switches a version 2 stream to fairness version 3: from now on the
 * public draws are those of the order of side (1 American, 2 British, 0
 * for the new game's commit) that is the side's n-th (n counted from 0),
 * their places numbered from 0.
 */
void rng_vrf_bind_order(struct rng *r, int side, uint64_t n);
/*
 * Switches a version 2 stream to fairness version 4: from now on the
 * public draws are numbered from n, the game's count of public draws so
 * far (the lines of proofs.txt).
 */
void rng_vrf_bind_count(struct rng *r, uint64_t n);
/*
 * The VRF input of a public draw of version 4 (docs/fairness.md 19b.2):
 * "postrider-vrf-draw-v4" || u8(len(id)) || id || words || u64be(n), n
 * the draw's place among the game's public draws. Returns its length.
 */
size_t rng_vrf_alpha4(const char *game_id, const unsigned char words[64],
		      uint64_t n, unsigned char out[RNG_ALPHA_MAX]);
/*
 * The VRF input of a public draw of version 3 (docs/fairness.md 19.2):
 * "postrider-vrf-draw-v3" || u8(len(id)) || id || words || u8(side) ||
 * u64be(n) || u64be(place). Returns its length (at most RNG_ALPHA_MAX).
 */
size_t rng_vrf_alpha3(const char *game_id, const unsigned char words[64],
		      int side, uint64_t n, uint64_t place,
		      unsigned char out[RNG_ALPHA_MAX]);
/*
 * The VRF input of draw index (docs/fairness.md 18.2):
 * "postrider-vrf-draw" || u8(len(id)) || id || words || u64be(index).
 * Returns its length (at most RNG_ALPHA_MAX).
 */
size_t rng_vrf_alpha(const char *game_id, const unsigned char words[64],
		     uint64_t index, unsigned char out[RNG_ALPHA_MAX]);
/*
 * The value in [0, n) that a VRF output beta gives draw index: the
 * rejection sampling of 6.3 with beta as the key.
 */
uint64_t rng_vrf_value(const unsigned char beta[32], uint64_t index, uint64_t n);
/* An rng without a secret (for read-only commands): every draw is a BUG. */
void rng_init_keyless(struct rng *r, uint64_t next_index);

/* Uniform integer in [0, n), n >= 1; one draw. */
int rng_uniform(struct rng *r, int n, const char *purpose);
/* A six-sided die, 1-6; one draw (or a forced value). */
int rng_die(struct rng *r, const char *purpose);
/* Fisher-Yates shuffle of items[0..n-1]; n-1 draws (none for n < 2). */
void rng_shuffle(struct rng *r, int *items, int n, const char *purpose);

/*
 * The raw construction, for verifiers and tests: the value of draw index
 * for bound n (what rng_uniform would return at that index).
 */
int rng_value_at(const unsigned char key[32], uint64_t index, int n);
/* Derives the stream key from the seed. */
void rng_derive_key(const unsigned char seed[RNG_SEED_BYTES],
		    unsigned char key[32]);
/*
 * Lower layers of rng_value_at, for tests and audit: the raw 64-bit value
 * of one attempt of a draw, and a uniform value in [0, n) for any n >= 1
 * (n = 0 is a BUG), storing in *attempts (may be NULL) how many attempts
 * rejection sampling took.
 */
uint64_t rng_raw_at(const unsigned char key[32], uint64_t index,
		    uint32_t attempt);
uint64_t rng_uniform64_at(const unsigned char key[32], uint64_t index,
			  uint64_t n, uint32_t *attempts);

#endif
