/*
 * peer-crypto.h - the cryptography of a game between two players without
 * a host (docs/peer.md, sections 3 to 6): each player's keys, the
 * two-party masking of the cards (ElGamal on P-256 under the sum of both
 * players' keys, in the style of Barnett and Smart), a shuffle with its
 * proof of correctness (the permutation-commitment proof of Terelius and
 * Wikstrom), the unmasking share with its proof (Chaum-Pedersen), a
 * Schnorr proof of a key and signature, and the dice drawn from both
 * players' VRF outputs. Only OpenSSL's EC_POINT/BN arithmetic and hashes
 * are used.
 *
 * Everything secret a function needs (permutations, masking values, the
 * nonces of proofs) is derived from the player's secret and the statement
 * by HMAC (docs/peer.md 3.4), so the same inputs give the same bytes: a
 * postrider that runs again after a crash mails the same proof, and the
 * vectors of docs/peer.md are reproduced by tests/verify/verify_peer.py.
 *
 * Encodings (docs/peer.md 3.1): a point is 33 bytes, SEC 1 compressed,
 * never the point at infinity; a scalar is 32 bytes big-endian, below
 * the group order q; a masked card is pt(C1) || pt(C2), 66 bytes.
 *
 * Pure computation: no I/O, no global state. Functions return 0, or -1
 * for input that does not decode or verify or for a failure of
 * libcrypto's EC or BN code (an allocation); none aborts on any bytes
 * given to it. HMAC-SHA256 failing is a BUG, as everywhere (codec.h).
 *
 * Ownership: the caller owns every buffer; nothing is kept.
 */
#ifndef POSTRIDER_PEER_CRYPTO_H
#define POSTRIDER_PEER_CRYPTO_H

#include <stddef.h>

#define PCRYPTO_PT 33		/* a point */
#define PCRYPTO_SC 32		/* a scalar */
#define PCRYPTO_CT 66		/* a masked card: pt(C1) || pt(C2) */
#define PCRYPTO_PROOF 64	/* a key proof or a signature: c || s */
#define PCRYPTO_SHARE 97	/* an unmasking share: pt(D) || c || s */
#define PCRYPTO_MAX_DECK 255	/* the most cards one shuffle takes */
#define PCRYPTO_MAX_CTX 255	/* the longest context string */
#define PCRYPTO_MAX_CARD 65535	/* the highest card number */

/* The length of a shuffle proof of n cards: 130n + 160 bytes. */
#define PCRYPTO_SHUFFLE_PROOF(n) (130 * (size_t)(n) + 160)

/* A player's secret keys (docs/peer.md 3.3), derived from one secret. */
struct pcrypto_secret {
	unsigned char vrf[32];	/* the VRF key of his dice (scalar) */
	unsigned char mask[32];	/* his share of the masking key (scalar) */
	unsigned char sign[32];	/* the key of his signatures (scalar) */
	unsigned char rand[32];	/* the HMAC key of everything he draws */
};

/* The public keys that go into game.yaml. */
struct pcrypto_public {
	unsigned char vrf[PCRYPTO_PT];
	unsigned char mask[PCRYPTO_PT];
	unsigned char sign[PCRYPTO_PT];
};

/*
 * The keys of a player whose secret is the 32 bytes `secret` (his own,
 * drawn once from the system's random source and never committed).
 * Fills sk and pk (pk may be NULL). 0 or -1.
 */
int pcrypto_keys(const unsigned char secret[32], struct pcrypto_secret *sk,
		 struct pcrypto_public *pk);

/*
 * A proof that the player knows the secret of his masking key, bound to
 * ctx (docs/peer.md 3.5: the game and the side): without it a player
 * could publish a key made from his opponent's and unmask every card
 * alone. Writes PCRYPTO_PROOF bytes. 0 or -1 (ctx longer than
 * PCRYPTO_MAX_CTX).
 */
int pcrypto_key_prove(const struct pcrypto_secret *sk, const unsigned char *ctx,
		      size_t ctx_len, unsigned char proof[PCRYPTO_PROOF]);
/* 0 when proof is the key proof of pk for ctx, else -1. */
int pcrypto_key_verify(const unsigned char pk[PCRYPTO_PT],
		       const unsigned char *ctx, size_t ctx_len,
		       const unsigned char proof[PCRYPTO_PROOF]);

/*
 * The joint masking key Y = Y_american + Y_british. -1 when a key does
 * not decode, the two are equal, or their sum is the point at infinity.
 */
int pcrypto_joint_key(const unsigned char american[PCRYPTO_PT],
		      const unsigned char british[PCRYPTO_PT],
		      unsigned char y[PCRYPTO_PT]);

/* The point of card c (1 to PCRYPTO_MAX_CARD): TAI("postrider-peer-card"
 * || u16be(c)). 0 or -1. The points of cards 1 to PCRYPTO_TABLE_CARDS
 * are compiled in (src/peer-cards.c: each was 40% of a peer `options`);
 * pcrypto_card_point_derived() computes one by TAI, as the table was
 * made and as test_peer_crypto checks it. */
int pcrypto_card_point(int card, unsigned char pt[PCRYPTO_PT]);
int pcrypto_card_point_derived(int card, unsigned char pt[PCRYPTO_PT]);
#define PCRYPTO_TABLE_CARDS 128
/* x || y of the point of card c + 1, of the shuffle's generator H_i
 * (4.4) and of the chain's base (src/peer-cards.c) */
extern const unsigned char pcrypto_card_table[PCRYPTO_TABLE_CARDS][64];
extern const unsigned char pcrypto_generator_table[PCRYPTO_MAX_DECK][64];
extern const unsigned char pcrypto_chain_base[64];
/* H_i (i from 0) or, for i = -1, the chain's base, by TAI. 0 or -1. */
int pcrypto_generator_derived(int i, unsigned char pt[PCRYPTO_PT]);
/* pt() of a compiled-in point: table 0 the cards (1 to
 * PCRYPTO_TABLE_CARDS), 1 the generators (0 to PCRYPTO_MAX_DECK - 1, -1
 * the chain's base). 0 or -1. */
int pcrypto_table_point(int table, int i, unsigned char pt[PCRYPTO_PT]);

/* The card of point pt among cards 1 to n_cards, or -1 if none (those
 * past the table are computed: about 20 microseconds a card). */
int pcrypto_card_find(const unsigned char pt[PCRYPTO_PT], int n_cards);

/* How many scalar multiplications this process did: the terms of every
 * multiplication (a double one counts 2, a multi-scalar one of n terms
 * counts n), and of those, how many were in multi-scalar ones. For the
 * bench (POSTRIDER_TRACE_PERF prints them as a command ends). */
void pcrypto_scalar_mults(unsigned long *all, unsigned long *in_multi);

/* A card face up as a masked card: (B, M_c + Y). 0 or -1. */
int pcrypto_open(const unsigned char y[PCRYPTO_PT], int card,
		 unsigned char ct[PCRYPTO_CT]);

/*
 * The secrets of a shuffle (docs/peer.md 4.3): the permutation (output i
 * takes input perm[i]) and the n masking scalars rho (32 bytes each),
 * derived from sk->rand and the statement (ctx, y and the n input cards).
 * 0 or -1.
 */
int pcrypto_shuffle_secrets(const struct pcrypto_secret *sk,
			    const unsigned char *ctx, size_t ctx_len,
			    const unsigned char y[PCRYPTO_PT],
			    const unsigned char *in, int n, int *perm,
			    unsigned char *rho);

/*
 * Shuffles and remasks the n cards `in` (n * PCRYPTO_CT bytes, 2 <= n <=
 * PCRYPTO_MAX_DECK) under the joint key y with the permutation perm and
 * the scalars rho: out[i] = in[perm[i]] + (rho_i * B, rho_i * Y); writes
 * out (n * PCRYPTO_CT bytes) and the proof (PCRYPTO_SHUFFLE_PROOF(n)
 * bytes) of docs/peer.md 4.4, whose nonces come from sk->rand and the
 * statement. perm should be a permutation of 0..n-1: a map that is not
 * (two outputs from one input) gives a proof that does not verify, which
 * is how the tests show that such a shuffle is refused. 0 or -1 (a perm
 * entry out of range, a scalar not below q, a card that does not decode).
 */
int pcrypto_shuffle_prove(const struct pcrypto_secret *sk,
			  const unsigned char *ctx, size_t ctx_len,
			  const unsigned char y[PCRYPTO_PT],
			  const unsigned char *in, int n, const int *perm,
			  const unsigned char *rho, unsigned char *out,
			  unsigned char *proof);

/* pcrypto_shuffle_secrets() then pcrypto_shuffle_prove(): what a player
 * does when it is his turn to shuffle. 0 or -1. */
int pcrypto_shuffle(const struct pcrypto_secret *sk, const unsigned char *ctx,
		    size_t ctx_len, const unsigned char y[PCRYPTO_PT],
		    const unsigned char *in, int n, unsigned char *out,
		    unsigned char *proof);

/*
 * 0 when proof shows that out is a permutation of in, each card remasked
 * under y, for ctx; -1 otherwise (a card or a point that does not decode,
 * a scalar not below q, a proof that does not hold).
 */
int pcrypto_shuffle_verify(const unsigned char *ctx, size_t ctx_len,
			   const unsigned char y[PCRYPTO_PT],
			   const unsigned char *in, int n,
			   const unsigned char *out, const unsigned char *proof);

/*
 * The player's unmasking share of the masked card ct, D = x_mask * C1,
 * with its proof (docs/peer.md 4.5), for ctx. Writes PCRYPTO_SHARE
 * bytes. 0 or -1.
 */
int pcrypto_share(const struct pcrypto_secret *sk, const unsigned char *ctx,
		  size_t ctx_len, const unsigned char ct[PCRYPTO_CT],
		  unsigned char share[PCRYPTO_SHARE]);
/* 0 when share is the unmasking share of ct under the masking key pk for
 * ctx, else -1. */
int pcrypto_share_verify(const unsigned char pk[PCRYPTO_PT],
			 const unsigned char *ctx, size_t ctx_len,
			 const unsigned char ct[PCRYPTO_CT],
			 const unsigned char share[PCRYPTO_SHARE]);

/*
 * The card under ct once both shares are known: C2 - D_a - D_b, looked up
 * among cards 1 to n_cards. The shares must have been verified. Returns
 * the card, or -1 (a share or ct that does not decode, or a point that is
 * no card: one share alone never gives one).
 */
int pcrypto_unmask(const unsigned char ct[PCRYPTO_CT],
		   const unsigned char share_a[PCRYPTO_SHARE],
		   const unsigned char share_b[PCRYPTO_SHARE], int n_cards);

/*
 * The card under ct for its owner, who needs no share of his own:
 * C2 - x_mask * C1 - D_other (docs/peer.md 4.6). The card or -1.
 */
int pcrypto_unmask_own(const struct pcrypto_secret *sk,
		       const unsigned char ct[PCRYPTO_CT],
		       const unsigned char other[PCRYPTO_SHARE], int n_cards);

/* A Schnorr signature of msg under the player's signing key (docs/peer.md
 * 3.6). Writes PCRYPTO_PROOF bytes. 0 or -1. */
int pcrypto_sign(const struct pcrypto_secret *sk, const void *msg, size_t len,
		 unsigned char sig[PCRYPTO_PROOF]);
/* 0 when sig is pk's signature of msg, else -1. */
int pcrypto_sign_verify(const unsigned char pk[PCRYPTO_PT], const void *msg,
			size_t len, const unsigned char sig[PCRYPTO_PROOF]);

/* The longest VRF input of a die request (docs/peer.md 5.1). */
#define PCRYPTO_ALPHA_MAX (19 + 1 + 255 + 1 + 1 + 64)

/*
 * The VRF input of side's share of the dice that commit `oid` (its raw
 * object id, 1 to 64 bytes) asks for, in game `game` (1 to 255 bytes):
 * "postrider-peer-dice" || u8(len(game)) || game || u8(side) ||
 * u8(len(oid)) || oid. Returns its length, or 0 for a bad argument.
 */
size_t pcrypto_dice_alpha(const char *game, int side, const unsigned char *oid,
			  size_t oid_len, unsigned char out[PCRYPTO_ALPHA_MAX]);

/*
 * The key of a die request from both sides' VRF outputs (verified):
 * SHA256("postrider-peer-dice-key" || beta_american || beta_british).
 * Draw N with bound n is then rng_vrf_value(key, N, n) (docs/peer.md
 * 5.2). 0 or -1.
 */
int pcrypto_dice_key(const unsigned char beta_american[32],
		     const unsigned char beta_british[32],
		     unsigned char key[32]);

#endif
