/*
 * fair.h - the game secret and what is derived from it, apart from the
 * random stream (rng.h): the seed and its commitment, reply tokens, the
 * sealing of the host's private state, and hand commitments. Every
 * construction is specified byte by byte in docs/fairness.md.
 *
 * All functions are pure computation except fair_new_seed(), which asks
 * the operating system for randomness.
 *
 * Ownership: the caller owns every buffer; functions that produce text
 * either fill a fixed-size array given by the caller (always
 * NUL-terminated) or append to a struct strbuf the caller releases.
 * Sides are 1 = American, 2 = British; any other side is a BUG.
 */
#ifndef POSTRIDER_FAIR_H
#define POSTRIDER_FAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util.h"

#define FAIR_SEED_BYTES 32
#define FAIR_SEED_HEX 65	/* 64 lowercase hex digits and a NUL */
#define FAIR_COMMIT_HEX 65	/* SHA-256, lowercase hex and a NUL */
#define FAIR_TOKEN_SIZE 15	/* "xxxx-xxxx-xxxx" and a NUL */
#define FAIR_SALT_HEX 33	/* 16-byte salt, lowercase hex and a NUL */
#define FAIR_HASH_HEX 65

/*
 * Fills seed with 32 bytes from getrandom(2) (blocking until the kernel's
 * pool is initialised). Returns 0, or -1 after printing an error.
 */
int fair_new_seed(unsigned char seed[FAIR_SEED_BYTES]);

/*
 * Parses the text form of a seed: exactly 64 hex digits (either case),
 * optionally surrounded by white space (a trailing newline). Returns 0, or
 * -1 without printing anything (seed is then unspecified); the caller says
 * where the bad seed came from.
 */
int fair_seed_parse(const char *text, unsigned char seed[FAIR_SEED_BYTES]);
/* The text form of a seed: 64 lowercase hex digits. */
void fair_seed_format(const unsigned char seed[FAIR_SEED_BYTES],
		      char hex[FAIR_SEED_HEX]);

/*
 * The public commitment to the seed put in game.yaml at creation:
 * lowercase hex of SHA-256("postrider-commitment" || seed).
 */
void fair_commitment(const unsigned char seed[FAIR_SEED_BYTES],
		     char hex[FAIR_COMMIT_HEX]);
/*
 * Whether a revealed seed matches a commitment (hex in either case,
 * surrounding white space ignored); false for malformed hex.
 */
bool fair_commitment_matches(const unsigned char seed[FAIR_SEED_BYTES],
			     const char *hex);

/*
 * The one-time reply token of side for the order with sequence number seq
 * of game game_id (a NUL-terminated string, compared byte for byte):
 * twelve characters of the lowercase RFC 4648 base32 alphabet in three
 * groups of four joined by '-', e.g. "k3x9-2mfa-p7q1", written to out.
 */
void fair_token(const unsigned char seed[FAIR_SEED_BYTES], const char *game_id,
		uint64_t seq, int side, char out[FAIR_TOKEN_SIZE]);
/*
 * Whether two tokens are the same, ignoring ASCII case, '-', spaces and
 * tabs. Constant time in the contents (not in the lengths). NULL, an empty
 * token or one of more than 64 significant characters never matches.
 */
bool fair_token_equal(const char *a, const char *b);

/*
 * The sealed formats (docs/fairness.md section 9). v4 and v3 pad the
 * private state before sealing it, so that the size of the sealed file
 * says nothing about a sealed choice: the plain text is u32be(len) ||
 * text || zero bytes, size bytes in all (the caller chooses size from
 * public facts: game_state_files(), state_private_padded_size()). They
 * differ only in their label and in the size their caller chooses: v4
 * gives each side's sealed texts a room of their own, v3 (games sealed
 * before issue 39) one room for both. v2, unpadded, is what games sealed
 * before the padding hold. v3 and v2 are still opened, and reproduced by
 * the audit of such a commit.
 */
enum { FAIR_SEAL_V2 = 2, FAIR_SEAL_V3 = 3, FAIR_SEAL_V4 = 4 };
/* The format a sealed text's header names (FAIR_SEAL_V2 to _V4), or 0. */
int fair_seal_format(const char *sealed, size_t len);

/*
 * Seals the host's private state (plain, len bytes) for sequence number
 * seq: padded to size bytes (format v4; size >= len + 4, or 0 for no
 * padding beyond the length), then AES-256-GCM under a key derived from
 * the seed, with a nonce derived from seq and the padded text (a keyed
 * hash); appends the ASCII text (a header line "postrider-sealed v4 seq
 * <seq>" and base64 lines of the nonce, the cipher text and the tag) to
 * out. The output's length depends on size, never on len. It is a
 * function of (seed, seq, plain, size) only, so commits are
 * reproducible; two different plain texts never share a nonce, even under
 * one seq after a host rewinds a turn and plays another order
 * (docs/fairness.md, "Sealing").
 *
 * Returns 0, or -1 after printing an error (a libcrypto failure, a size
 * too small for the text, or more than 1 GiB).
 */
int fair_seal(const unsigned char seed[FAIR_SEED_BYTES], uint64_t seq,
	      const char *plain, size_t len, size_t size, struct strbuf *out);
/* The same in format fmt (FAIR_SEAL_V3, or FAIR_SEAL_V2, which ignores
 * size, for the audit of an older commit). */
int fair_seal_as(const unsigned char seed[FAIR_SEED_BYTES], uint64_t seq,
		 int fmt, const char *plain, size_t len, size_t size,
		 struct strbuf *out);
/*
 * Opens what fair_seal_as() produced (either format) for the same seed and
 * seq, appending the private state (without v3's padding) to plain (which
 * gains a NUL after its len, as always).
 * Returns 0, or -1 with a one-line message (lowercase, no final stop)
 * appended to err and plain unchanged: the text is not byte for byte what
 * fair_seal_as() writes, was sealed for another seq, or does not
 * authenticate (tampered with, or sealed under another seed).
 */
int fair_open(const unsigned char seed[FAIR_SEED_BYTES], uint64_t seq,
	      const char *sealed, size_t len, struct strbuf *plain,
	      struct strbuf *err);

/*
 * The VRF key pair of a game (docs/fairness.md section 18): the secret
 * key from K_vrf = HMAC(seed, "postrider-key-vrf") (vrf_secret_key()),
 * and its public key, published in game.yaml. sk may be NULL. 0, or -1
 * for a libcrypto failure.
 */
int fair_vrf_keys(const unsigned char seed[FAIR_SEED_BYTES],
		  unsigned char sk[32], unsigned char pk[33]);

/*
 * The commitment to side's hand after the order with sequence number seq:
 * salt = the first 16 bytes of an HMAC keyed from the seed, hash =
 * SHA-256(salt || hand_text), both as lowercase hex. hand_text is the exact
 * NUL-terminated text mailed to the player (state_write_hand()). The hash
 * goes into the public state; the salt is mailed privately with the hand,
 * so that the player can later prove what they held.
 */
void fair_hand_commitment(const unsigned char seed[FAIR_SEED_BYTES],
			  uint64_t seq, int side, const char *hand_text,
			  char salt_hex[FAIR_SALT_HEX],
			  char hash_hex[FAIR_HASH_HEX]);
/*
 * The player's side of a hand commitment, needing no seed: whether
 * SHA-256(salt || hand_text) equals hash_hex. Hex in either case; false for
 * malformed hex.
 */
bool fair_hand_proof_ok(const char *salt_hex, const char *hand_text,
			const char *hash_hex);

#endif
