/*
 * rng.c - the random stream of a game, as specified in docs/fairness.md.
 *
 * Pure computation: HMAC-SHA256 from libcrypto, no I/O, no clock, no
 * environment. A failure of libcrypto itself is a BUG (it cannot fail for
 * these inputs).
 */
#include "rng.h"
#include "codec.h"
#include "vrf.h"

#include <inttypes.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

static const char key_label[] = "postrider-key-draw";
static const char draw_label[] = "postrider-draw";


/* Reads a big-endian u64 from p[0..7]. */
static uint64_t get_u64be(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

void rng_derive_key(const unsigned char seed[RNG_SEED_BYTES],
		    unsigned char key[32])
{
	codec_hmac_sha256(seed, RNG_SEED_BYTES, (const unsigned char *)key_label,
		    sizeof(key_label) - 1, key);
}

uint64_t rng_raw_at(const unsigned char key[32], uint64_t index,
		    uint32_t attempt)
{
	unsigned char msg[sizeof(draw_label) - 1 + 8 + 4], mac[32];
	uint64_t x;

	memcpy(msg, draw_label, sizeof(draw_label) - 1);
	put_be64(msg + sizeof(draw_label) - 1, index);
	put_be32(msg + sizeof(draw_label) - 1 + 8, attempt);
	codec_hmac_sha256(key, 32, msg, sizeof(msg), mac);
	x = get_u64be(mac);
	OPENSSL_cleanse(mac, sizeof(mac));
	return x;
}

uint64_t rng_uniform64_at(const unsigned char key[32], uint64_t index,
			  uint64_t n, uint32_t *attempts)
{
	uint64_t rem, limit;

	if (!n)
		BUG("uniform draw with bound 0");
	/* rem = 2^64 mod n; limit = 2^64 - rem (0 standing for 2^64) */
	rem = (UINT64_MAX % n + 1) % n;
	limit = (uint64_t)0 - rem;
	for (uint32_t attempt = 0;; attempt++) {
		uint64_t x = rng_raw_at(key, index, attempt);

		if (!rem || x < limit) {
			if (attempts)
				*attempts = attempt + 1;
			return x % n;
		}
		if (attempt == UINT32_MAX)
			BUG("draw %" PRIu64 ": 2^32 rejections in a row", index);
	}
}

int rng_value_at(const unsigned char key[32], uint64_t index, int n)
{
	if (n < 1)
		BUG("uniform draw with bound %d", n);
	return (int)rng_uniform64_at(key, index, (uint64_t)n, NULL);
}

void rng_init(struct rng *r, const unsigned char seed[RNG_SEED_BYTES],
	      uint64_t next_index)
{
	memset(r, 0, sizeof(*r));
	rng_derive_key(seed, r->base);
	memcpy(r->key, r->base, sizeof(r->key));
	r->have_key = true;
	r->next = next_index;
}

void rng_mix(struct rng *r, const unsigned char am[32],
	     const unsigned char br[32])
{
	static const char label[] = "postrider-mix";
	unsigned char msg[sizeof(label) - 1 + 64];

	if (!r->have_key)
		return;
	memset(r->words, 0, sizeof(r->words));
	if (am)
		memcpy(r->words, am, 32);
	if (br)
		memcpy(r->words + 32, br, 32);
	if (!am && !br) {
		memcpy(r->key, r->base, sizeof(r->key));
		return;
	}
	memcpy(msg, label, sizeof(label) - 1);
	memset(msg + sizeof(label) - 1, 0, 64);
	if (am)
		memcpy(msg + sizeof(label) - 1, am, 32);
	if (br)
		memcpy(msg + sizeof(label) - 1 + 32, br, 32);
	codec_hmac_sha256(r->base, 32, msg, sizeof(msg), r->key);
}

void rng_use_vrf(struct rng *r, const unsigned char sk[32], const char *game_id)
{
	size_t n = strlen(game_id);

	if (n > RNG_MAX_GAME_ID)
		BUG("game id of %zu bytes in the VRF input", n);
	r->vrf = true;
	memcpy(r->vrf_sk, sk, 32);
	memcpy(r->vrf_game, game_id, n + 1);
}

/* The input's head, common to versions 2, 3 and 4: the label, the game id
 * with its length, both sides' words. Its length. */
static size_t alpha_head(const char *label, const char *game_id,
			 const unsigned char words[64],
			 unsigned char out[RNG_ALPHA_MAX])
{
	size_t n = strlen(game_id), l = strlen(label), len = 0;

	if (n > RNG_MAX_GAME_ID)
		BUG("game id of %zu bytes in the VRF input", n);
	memcpy(out, label, l);
	len += l;
	out[len++] = (unsigned char)n;
	memcpy(out + len, game_id, n);
	len += n;
	memcpy(out + len, words, 64);
	return len + 64;
}

size_t rng_vrf_alpha(const char *game_id, const unsigned char words[64],
		     uint64_t index, unsigned char out[RNG_ALPHA_MAX])
{
	size_t len = alpha_head("postrider-vrf-draw", game_id, words, out);

	put_be64(out + len, index);
	return len + 8;
}

void rng_vrf_bind_order(struct rng *r, int side, uint64_t n)
{
	if (!r->vrf)
		BUG("an order bound to a stream without the VRF");
	if (side < 0 || side > 2)
		BUG("the order of side %d", side);
	r->bound = true;
	r->counted = false;
	r->order_side = side;
	r->order_n = n;
	r->place = 0;
}

void rng_vrf_bind_count(struct rng *r, uint64_t n)
{
	if (!r->vrf)
		BUG("public draws counted on a stream without the VRF");
	r->bound = false;
	r->counted = true;
	r->place = n;
}

size_t rng_vrf_alpha4(const char *game_id, const unsigned char words[64],
		      uint64_t n, unsigned char out[RNG_ALPHA_MAX])
{
	size_t len = alpha_head("postrider-vrf-draw-v4", game_id, words, out);

	put_be64(out + len, n);
	return len + 8;
}

size_t rng_vrf_alpha3(const char *game_id, const unsigned char words[64],
		      int side, uint64_t n, uint64_t place,
		      unsigned char out[RNG_ALPHA_MAX])
{
	size_t len = alpha_head("postrider-vrf-draw-v3", game_id, words, out);

	out[len++] = (unsigned char)side;
	put_be64(out + len, n);
	len += 8;
	put_be64(out + len, place);
	return len + 8;
}

uint64_t rng_vrf_value(const unsigned char beta[32], uint64_t index, uint64_t n)
{
	return rng_uniform64_at(beta, index, n, NULL);
}

/* A public draw of fairness version 2, 3 or 4: the proof logged, the
 * value. */
static int vrf_draw(struct rng *r, uint64_t index, int n)
{
	unsigned char alpha[RNG_ALPHA_MAX], pi[VRF_PROOF_BYTES], beta[VRF_HASH_BYTES];
	/* version 3: the order and the place, not the shared index, in the
	 * input and in the sampling (docs/fairness.md 19.2, 19.3); version
	 * 4: the place among the game's public draws (19b) */
	uint64_t at = r->bound || r->counted ? r->place++ : index;
	size_t len = r->counted ? rng_vrf_alpha4(r->vrf_game, r->words, at, alpha) :
		     r->bound ?
		rng_vrf_alpha3(r->vrf_game, r->words, r->order_side, r->order_n, at, alpha) :
		rng_vrf_alpha(r->vrf_game, r->words, index, alpha);

	if (vrf_prove(r->vrf_sk, alpha, len, pi) < 0 || vrf_proof_to_hash(pi, beta) < 0)
		BUG("the VRF failed for draw %" PRIu64, index);
	if (r->proofs) {
		strbuf_addf(r->proofs, "%" PRIu64 " ", index);
		for (size_t i = 0; i < sizeof(pi); i++)
			strbuf_addf(r->proofs, "%02x", pi[i]);
		strbuf_addch(r->proofs, '\n');
	}
	return (int)rng_vrf_value(beta, at, (uint64_t)n);
}

/*
 * The value of a public draw: in a peer game from the request's key
 * (docs/peer.md 5.2), or -1 with peer->missing set when this copy does
 * not have it yet; else from the VRF (versions 2, 3) or the stream.
 */
static int public_value(struct rng *r, uint64_t index, int n)
{
	if (r->peer) {
		if (!r->peer->have_key) {
			r->peer->missing = true;
			return -1;
		}
		return rng_value_at(r->peer->key, index, n);
	}
	return r->vrf ? vrf_draw(r, index, n) : rng_value_at(r->key, index, n);
}

void rng_init_keyless(struct rng *r, uint64_t next_index)
{
	memset(r, 0, sizeof(*r));
	r->have_key = false;
	r->next = next_index;
}

/* Takes the index of the next draw; a keyless stream is a BUG (a peer
 * stream never is: without its key the draw is missing). */
static uint64_t take_index(struct rng *r, const char *purpose)
{
	if (!r->have_key && !r->peer)
		BUG("random draw without the game secret (%s)",
		    purpose ? purpose : "no purpose");
	if (r->next == UINT64_MAX)
		BUG("random draw index overflow");
	return r->next++;
}

/* Ends a log line: " (purpose)\n", control characters made spaces. */
static void log_purpose(struct strbuf *log, const char *purpose)
{
	if (purpose && *purpose) {
		strbuf_addstr(log, " (");
		for (const char *p = purpose; *p; p++) {
			unsigned char c = (unsigned char)*p;
			strbuf_addch(log, c < 0x20 || c == 0x7f ? ' ' : c);
		}
		strbuf_addch(log, ')');
	}
	strbuf_addch(log, '\n');
}

int rng_uniform(struct rng *r, int n, const char *purpose)
{
	uint64_t index;
	int v;

	if (n < 1)
		BUG("uniform draw with bound %d (%s)", n,
		    purpose ? purpose : "no purpose");
	index = take_index(r, purpose);
	v = public_value(r, index, n);
	if (v < 0) {
		/* a peer game's draw without its key: the caller's action
		 * cannot stand (docs/peer.md 12); 0 keeps the engine going */
		if (r->log) {
			strbuf_addf(r->log, "draw %" PRIu64 ": uniform(%d) -> missing",
				    index, n);
			log_purpose(r->log, purpose);
		}
		return 0;
	}
	if (r->log) {
		strbuf_addf(r->log, "draw %" PRIu64 ": uniform(%d) -> %d",
			    index, n, v);
		log_purpose(r->log, purpose);
	}
	return v;
}

int rng_die(struct rng *r, const char *purpose)
{
	uint64_t index = take_index(r, purpose);
	int v = public_value(r, index, 6) + 1;

	if (v < 1) {
		/* a peer game's die without its key (see rng_uniform) */
		if (r->log) {
			strbuf_addf(r->log, "draw %" PRIu64 ": d6 -> missing", index);
			log_purpose(r->log, purpose);
		}
		return 1;
	}
	if (r->forced_pos < r->n_forced) {
		int f = r->forced[r->forced_pos++];

		if (f < 1 || f > 6)
			BUG("forced die value %d is not 1-6", f);
		if (r->log) {
			strbuf_addf(r->log,
				    "draw %" PRIu64 ": d6 -> %d forced, stream %d",
				    index, f, v);
			log_purpose(r->log, purpose);
		}
		return f;
	}
	if (r->log) {
		strbuf_addf(r->log, "draw %" PRIu64 ": d6 -> %d", index, v);
		log_purpose(r->log, purpose);
	}
	return v;
}

void rng_shuffle(struct rng *r, int *items, int n, const char *purpose)
{
	uint64_t first;

	if (n < 0)
		BUG("shuffle of %d items", n);
	if (n < 2)
		return;
	if (r->peer)
		BUG("a shuffle drawn from a peer game's stream (%s)",
		    purpose ? purpose : "no purpose");
	first = r->next;
	for (int i = n - 1; i >= 1; i--) {
		uint64_t index = take_index(r, purpose);
		int j = rng_value_at(r->key, index, i + 1);
		int t = items[i];

		items[i] = items[j];
		items[j] = t;
	}
	if (r->log) {
		strbuf_addf(r->log, "draws %" PRIu64 "-%" PRIu64
			    ": shuffle of %d", first, r->next - 1, n);
		log_purpose(r->log, purpose);
	}
}
