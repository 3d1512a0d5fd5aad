/*
 * vrf.c - ECVRF-P256-SHA256-TAI (RFC 9381, suite 0x01): prove, verify,
 * proof to hash. The steps follow the RFC's sections, named where they
 * are taken; docs/fairness.md section 17 says the same in prose.
 */
#include "vrf.h"
#include "codec.h"

#include <stdbool.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#define SUITE 0x01
#define C_LEN 16
#define Q_LEN 32
#define PT_LEN 33

/* What one computation needs: the group, a BN context, the order q. */
struct vrf_ctx {
	EC_GROUP *group;
	BN_CTX *bn;
	const BIGNUM *q;
};

static int ctx_open(struct vrf_ctx *c)
{
	c->group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	c->bn = BN_CTX_new();
	if (!c->group || !c->bn) {
		EC_GROUP_free(c->group);
		BN_CTX_free(c->bn);
		c->group = NULL;
		c->bn = NULL;
		return -1;
	}
	c->q = EC_GROUP_get0_order(c->group);
	return 0;
}

static void ctx_close(struct vrf_ctx *c)
{
	EC_GROUP_free(c->group);
	BN_CTX_free(c->bn);
}

/* The scratch of one proof or verification: the context, six points and
 * four numbers (cleared when freed: some hold secrets). */
struct scratch {
	struct vrf_ctx c;
	EC_POINT *p[6];
	BIGNUM *n[4];
};

static int scratch_open(struct scratch *w)
{
	memset(w, 0, sizeof(*w));
	if (ctx_open(&w->c) < 0)
		return -1;
	for (int i = 0; i < 6; i++)
		if (!(w->p[i] = EC_POINT_new(w->c.group)))
			return -1;
	for (int i = 0; i < 4; i++)
		if (!(w->n[i] = BN_secure_new()))
			return -1;
	return 0;
}

static void scratch_close(struct scratch *w)
{
	for (int i = 0; i < 6; i++)
		EC_POINT_free(w->p[i]);
	for (int i = 0; i < 4; i++)
		BN_clear_free(w->n[i]);
	if (w->c.group)
		ctx_close(&w->c);
}

/* SHA-256 of the concatenation of n parts. 0 or -1. */
struct part {
	const void *p;
	size_t n;
};

static int sha256_parts(const struct part *parts, int n, unsigned char out[32])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int len = 0;
	int ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL);

	for (int i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(md, parts[i].p, parts[i].n);
	ok = ok && EVP_DigestFinal_ex(md, out, &len) && len == 32;
	EVP_MD_CTX_free(md);
	return ok ? 0 : -1;
}

/* point_to_string (section 5.5): the compressed form, 33 bytes; the
 * point at infinity has none (-1). */
static int point_to_string(const struct vrf_ctx *c, const EC_POINT *p,
			   unsigned char out[PT_LEN])
{
	if (EC_POINT_is_at_infinity(c->group, p))
		return -1;
	return EC_POINT_point2oct(c->group, p, POINT_CONVERSION_COMPRESSED, out,
				  PT_LEN, c->bn) == PT_LEN ? 0 : -1;
}

/* string_to_point: a point of the curve (never infinity) or -1, leaving
 * libcrypto's error queue as it was. */
static int string_to_point(const struct vrf_ctx *c, const unsigned char in[PT_LEN],
			   EC_POINT *p)
{
	int ok;

	if (in[0] != 0x02 && in[0] != 0x03)
		return -1;
	ERR_set_mark();
	ok = EC_POINT_oct2point(c->group, p, in, PT_LEN, c->bn);
	ERR_pop_to_mark();
	return ok && !EC_POINT_is_at_infinity(c->group, p) ? 0 : -1;
}

/* encode_to_curve by try and increment (section 5.4.1.1), the salt being
 * the public key. */
static int encode_to_curve(const struct vrf_ctx *c, const unsigned char pk[PT_LEN],
			   const unsigned char *alpha, size_t alpha_len, EC_POINT *h)
{
	static const unsigned char front[2] = { SUITE, 0x01 }, back = 0x00;

	for (unsigned ctr = 0; ctr < 256; ctr++) {
		unsigned char octet = (unsigned char)ctr, cand[PT_LEN];
		struct part parts[] = {
			{ front, 2 }, { pk, PT_LEN }, { alpha, alpha_len },
			{ &octet, 1 }, { &back, 1 },
		};
		cand[0] = 0x02;
		if (sha256_parts(parts, 5, cand + 1) < 0)
			return -1;
		if (string_to_point(c, cand, h) == 0)
			return 0;
	}
	return -1;
}

/* ECVRF_challenge_generation (section 5.4.3): the first 16 bytes of
 * SHA-256 over the five points. */
static int challenge(const unsigned char pts[5][PT_LEN], unsigned char out[C_LEN])
{
	static const unsigned char front[2] = { SUITE, 0x02 }, back = 0x00;
	unsigned char full[32];
	struct part parts[] = {
		{ front, 2 }, { pts[0], PT_LEN }, { pts[1], PT_LEN }, { pts[2], PT_LEN },
		{ pts[3], PT_LEN }, { pts[4], PT_LEN }, { &back, 1 },
	};

	if (sha256_parts(parts, 7, full) < 0)
		return -1;
	memcpy(out, full, C_LEN);
	return 0;
}

/* The nonce of RFC 6979 section 3.2 with SHA-256 over m = h_string
 * (RFC 9381 section 5.4.2.1); qlen = hlen = 256 bits. */
static int nonce(const struct vrf_ctx *c, const unsigned char sk[Q_LEN],
		 const unsigned char h_string[PT_LEN], BIGNUM *k)
{
	unsigned char h1[32], V[32], K[32], msg[32 + 1 + 32 + 32];
	BIGNUM *z = BN_new();
	int ret = -1;
	struct part part = { h_string, PT_LEN };

	if (!z || sha256_parts(&part, 1, h1) < 0)
		goto out;
	/* bits2octets(h1): h1 as an integer, reduced once modulo q */
	if (!BN_bin2bn(h1, 32, z))
		goto out;
	if (BN_cmp(z, c->q) >= 0 && !BN_sub(z, z, c->q))
		goto out;
	if (BN_bn2binpad(z, h1, 32) != 32)
		goto out;
	memset(V, 0x01, 32);
	memset(K, 0x00, 32);
	for (unsigned char round = 0; round < 2; round++) {
		memcpy(msg, V, 32);
		msg[32] = round;
		memcpy(msg + 33, sk, 32);
		memcpy(msg + 65, h1, 32);
		codec_hmac_sha256(K, 32, msg, sizeof(msg), K);
		codec_hmac_sha256(K, 32, V, 32, V);
	}
	for (;;) {
		codec_hmac_sha256(K, 32, V, 32, V);
		if (!BN_bin2bn(V, 32, k))
			goto out;
		if (!BN_is_zero(k) && BN_cmp(k, c->q) < 0)
			break;
		memcpy(msg, V, 32);
		msg[32] = 0x00;
		codec_hmac_sha256(K, 32, msg, 33, K);
		codec_hmac_sha256(K, 32, V, 32, V);
	}
	ret = 0;
out:
	OPENSSL_cleanse(K, sizeof(K));
	OPENSSL_cleanse(V, sizeof(V));
	OPENSSL_cleanse(msg, sizeof(msg));
	BN_clear_free(z);
	return ret;
}

/* x from sk, in [1, q-1]; -1 otherwise. */
static int secret_scalar(const struct vrf_ctx *c, const unsigned char sk[Q_LEN],
			 BIGNUM *x)
{
	if (!BN_bin2bn(sk, Q_LEN, x))
		return -1;
	return !BN_is_zero(x) && BN_cmp(x, c->q) < 0 ? 0 : -1;
}

int vrf_secret_key(const unsigned char in[32], unsigned char sk[VRF_SK_BYTES])
{
	struct vrf_ctx c;
	BIGNUM *x, *qm1;
	int ret = -1;

	if (ctx_open(&c) < 0)
		return -1;
	x = BN_secure_new();
	qm1 = BN_new();
	if (x && qm1 && BN_bin2bn(in, 32, x) && BN_sub(qm1, c.q, BN_value_one()) &&
	    BN_mod(x, x, qm1, c.bn) && BN_add(x, x, BN_value_one()) &&
	    BN_bn2binpad(x, sk, VRF_SK_BYTES) == VRF_SK_BYTES)
		ret = 0;
	BN_clear_free(x);
	BN_free(qm1);
	ctx_close(&c);
	return ret;
}

int vrf_public_key(const unsigned char sk[VRF_SK_BYTES],
		   unsigned char pk[VRF_PK_BYTES])
{
	struct vrf_ctx c;
	BIGNUM *x;
	EC_POINT *y = NULL;
	int ret = -1;

	if (ctx_open(&c) < 0)
		return -1;
	x = BN_secure_new();
	if (!x || secret_scalar(&c, sk, x) < 0 || !(y = EC_POINT_new(c.group)) ||
	    !EC_POINT_mul(c.group, y, x, NULL, NULL, c.bn) ||
	    point_to_string(&c, y, pk) < 0)
		goto out;
	ret = 0;
out:
	EC_POINT_free(y);
	BN_clear_free(x);
	ctx_close(&c);
	return ret;
}

int vrf_prove(const unsigned char sk[VRF_SK_BYTES], const unsigned char *alpha,
	      size_t alpha_len, unsigned char pi[VRF_PROOF_BYTES])
{
	struct scratch w;
	unsigned char pts[5][PT_LEN], cbytes[C_LEN];
	int ret = -1;

	if (scratch_open(&w) < 0)
		goto out;
	const struct vrf_ctx *c = &w.c;
	EC_POINT *Y = w.p[0], *H = w.p[1], *G = w.p[2], *U = w.p[3], *V = w.p[4];
	BIGNUM *x = w.n[0], *k = w.n[1], *cn = w.n[2], *s = w.n[3];

	/* 1-2: Y = x*B, H = encode_to_curve(PK_string, alpha) */
	if (secret_scalar(c, sk, x) < 0 ||
	    !EC_POINT_mul(c->group, Y, x, NULL, NULL, c->bn) ||
	    point_to_string(c, Y, pts[0]) < 0 ||
	    encode_to_curve(c, pts[0], alpha, alpha_len, H) < 0 ||
	    point_to_string(c, H, pts[1]) < 0)
		goto out;
	/* 4-5: Gamma = x*H, k = nonce(SK, h_string) */
	if (!EC_POINT_mul(c->group, G, NULL, H, x, c->bn) ||
	    point_to_string(c, G, pts[2]) < 0 ||
	    nonce(c, sk, pts[1], k) < 0)
		goto out;
	/* 6: c = challenge(Y, H, Gamma, k*B, k*H) */
	if (!EC_POINT_mul(c->group, U, k, NULL, NULL, c->bn) ||
	    !EC_POINT_mul(c->group, V, NULL, H, k, c->bn) ||
	    point_to_string(c, U, pts[3]) < 0 ||
	    point_to_string(c, V, pts[4]) < 0 ||
	    challenge(pts, cbytes) < 0)
		goto out;
	/* 7: s = (k + c*x) mod q */
	if (!BN_bin2bn(cbytes, C_LEN, cn) ||
	    !BN_mod_mul(s, cn, x, c->q, c->bn) ||
	    !BN_mod_add(s, s, k, c->q, c->bn))
		goto out;
	/* 8: pi = point_to_string(Gamma) || c || s */
	memcpy(pi, pts[2], PT_LEN);
	memcpy(pi + PT_LEN, cbytes, C_LEN);
	if (BN_bn2binpad(s, pi + PT_LEN + C_LEN, Q_LEN) != Q_LEN)
		goto out;
	ret = 0;
out:
	scratch_close(&w);
	return ret;
}

/* proof_to_hash over a decoded Gamma string (cofactor 1). */
static int gamma_to_hash(const unsigned char gamma[PT_LEN],
			 unsigned char beta[VRF_HASH_BYTES])
{
	static const unsigned char front[2] = { SUITE, 0x03 }, back = 0x00;
	struct part parts[] = { { front, 2 }, { gamma, PT_LEN }, { &back, 1 } };

	return sha256_parts(parts, 3, beta);
}

/* ECVRF_decode_proof (section 5.4.4): Gamma, c and s; -1 if Gamma is not
 * a point or s >= q. */
static int decode_proof(const struct vrf_ctx *c, const unsigned char pi[VRF_PROOF_BYTES],
			EC_POINT *gamma, BIGNUM *cn, BIGNUM *s)
{
	if (string_to_point(c, pi, gamma) < 0 ||
	    !BN_bin2bn(pi + PT_LEN, C_LEN, cn) ||
	    !BN_bin2bn(pi + PT_LEN + C_LEN, Q_LEN, s))
		return -1;
	return BN_cmp(s, c->q) < 0 ? 0 : -1;
}

int vrf_proof_to_hash(const unsigned char pi[VRF_PROOF_BYTES],
		      unsigned char beta[VRF_HASH_BYTES])
{
	struct vrf_ctx c;
	EC_POINT *gamma = NULL;
	BIGNUM *cn = BN_new(), *s = BN_new();
	int ret = -1;

	if (ctx_open(&c) < 0) {
		BN_free(cn);
		BN_free(s);
		return -1;
	}
	if (cn && s && (gamma = EC_POINT_new(c.group)) &&
	    decode_proof(&c, pi, gamma, cn, s) == 0)
		ret = gamma_to_hash(pi, beta);
	EC_POINT_free(gamma);
	BN_free(cn);
	BN_free(s);
	ctx_close(&c);
	return ret;
}

int vrf_verify(const unsigned char pk[VRF_PK_BYTES],
	       const unsigned char pi[VRF_PROOF_BYTES],
	       const unsigned char *alpha, size_t alpha_len,
	       unsigned char beta[VRF_HASH_BYTES])
{
	struct scratch w;
	unsigned char pts[5][PT_LEN], want[C_LEN];
	int ret = -1;

	if (scratch_open(&w) < 0)
		goto out;
	const struct vrf_ctx *c = &w.c;
	EC_POINT *Y = w.p[0], *H = w.p[1], *G = w.p[2], *U = w.p[3], *V = w.p[4], *T = w.p[5];
	BIGNUM *cn = w.n[0], *s = w.n[1], *negc = w.n[2];

	/* 1-3: the key decodes and is valid (with cofactor 1: on the curve,
	 * not the point at infinity); the proof decodes */
	memcpy(pts[0], pk, PT_LEN);
	if (string_to_point(c, pk, Y) < 0 || decode_proof(c, pi, G, cn, s) < 0)
		goto out;
	memcpy(pts[2], pi, PT_LEN);
	/* 4: H = encode_to_curve(PK_string, alpha) */
	if (encode_to_curve(c, pk, alpha, alpha_len, H) < 0 ||
	    point_to_string(c, H, pts[1]) < 0)
		goto out;
	/* 5-6: U = s*B - c*Y, V = s*H - c*Gamma */
	if (!BN_mod_sub(negc, c->q, cn, c->q, c->bn) ||
	    !EC_POINT_mul(c->group, U, s, Y, negc, c->bn) ||
	    !EC_POINT_mul(c->group, V, NULL, H, s, c->bn) ||
	    !EC_POINT_mul(c->group, T, NULL, G, negc, c->bn) ||
	    !EC_POINT_add(c->group, V, V, T, c->bn))
		goto out;
	if (point_to_string(c, U, pts[3]) < 0 || point_to_string(c, V, pts[4]) < 0)
		goto out;
	/* 7-8: c' = challenge(Y, H, Gamma, U, V); valid when c' = c */
	if (challenge(pts, want) < 0 || CRYPTO_memcmp(want, pi + PT_LEN, C_LEN))
		goto out;
	ret = gamma_to_hash(pi, beta);
out:
	scratch_close(&w);
	return ret;
}
