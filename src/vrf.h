/*
 * vrf.h - the verifiable random function ECVRF-P256-SHA256-TAI of RFC 9381
 * (suite 0x01), on OpenSSL's elliptic-curve primitives.
 *
 * A VRF gives, for a secret key and an input alpha, a proof pi and an
 * output beta = proof_to_hash(pi). Anyone holding the public key checks
 * with vrf_verify() that beta is the one output for alpha, without the
 * secret and without learning the output for any other input. postrider
 * draws the public dice of a game from it (docs/fairness.md sections 17
 * and 18).
 *
 * Pure computation: no I/O, no global state. Every function returns -1
 * for bad input or a failure of libcrypto's EC or BN code (an
 * allocation); none aborts on any bytes given to it. HMAC-SHA256 itself
 * failing is a BUG, as everywhere (codec.h: one HMAC for the project).
 *
 * Ownership: the caller owns every buffer; nothing is kept.
 */
#ifndef POSTRIDER_VRF_H
#define POSTRIDER_VRF_H

#include <stddef.h>

#define VRF_SK_BYTES 32		/* the secret scalar x, big-endian */
#define VRF_PK_BYTES 33		/* Y = x*B, compressed SEC1 point */
#define VRF_PROOF_BYTES 81	/* Gamma (33) || c (16) || s (32) */
#define VRF_HASH_BYTES 32	/* beta */

/*
 * A secret key from 32 uniform bytes: x = (OS2IP(in) mod (q - 1)) + 1,
 * always in [1, q-1]. 0 or -1 (libcrypto failure).
 */
int vrf_secret_key(const unsigned char in[32], unsigned char sk[VRF_SK_BYTES]);

/* The public key of sk (which must be in [1, q-1]). 0 or -1. */
int vrf_public_key(const unsigned char sk[VRF_SK_BYTES],
		   unsigned char pk[VRF_PK_BYTES]);

/* ECVRF_prove (RFC 9381 section 5.1): the proof for alpha. 0 or -1. */
int vrf_prove(const unsigned char sk[VRF_SK_BYTES], const unsigned char *alpha,
	      size_t alpha_len, unsigned char pi[VRF_PROOF_BYTES]);

/*
 * ECVRF_proof_to_hash (section 5.2) without verification: beta of a proof
 * that decodes. 0, or -1 for a malformed proof.
 */
int vrf_proof_to_hash(const unsigned char pi[VRF_PROOF_BYTES],
		      unsigned char beta[VRF_HASH_BYTES]);

/*
 * ECVRF_verify (section 5.3) with validate_key: 0 and beta when pi is the
 * proof of alpha under pk; -1 when pk is not a valid key, pi does not
 * decode, or the proof is wrong.
 */
int vrf_verify(const unsigned char pk[VRF_PK_BYTES],
	       const unsigned char pi[VRF_PROOF_BYTES],
	       const unsigned char *alpha, size_t alpha_len,
	       unsigned char beta[VRF_HASH_BYTES]);

#endif
