/*
 * peer-crypto.c - the cryptography of a game without a host: keys and
 * their proofs, masked cards, the shuffle and its proof, unmasking shares,
 * signatures and the two-sided dice. docs/peer.md sections 3 to 5 say
 * every step in prose; the comments name the section each part follows.
 */
#include "peer-crypto.h"
#include "codec.h"
#include "rng.h"
#include "util.h"
#include "vrf.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#define PT PCRYPTO_PT
#define SC PCRYPTO_SC
#define CT PCRYPTO_CT

/* ---- The group and the encodings (3.1) ---------------------------------- */

struct ec {
	EC_GROUP *g;
	BN_CTX *bn;
	const BIGNUM *q;
};

static int ec_open(struct ec *e)
{
	e->g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	e->bn = BN_CTX_new();
	if (!e->g || !e->bn) {
		EC_GROUP_free(e->g);
		BN_CTX_free(e->bn);
		e->g = NULL;
		e->bn = NULL;
		return -1;
	}
	e->q = EC_GROUP_get0_order(e->g);
	return 0;
}

static void ec_close(struct ec *e)
{
	EC_GROUP_free(e->g);
	BN_CTX_free(e->bn);
}

/* n points, all NULL on failure (the array itself then NULL). */
static EC_POINT **pts_new(const struct ec *e, size_t n)
{
	EC_POINT **p = xcalloc(n ? n : 1, sizeof(*p));

	for (size_t i = 0; i < n; i++)
		if (!(p[i] = EC_POINT_new(e->g))) {
			for (size_t k = 0; k < i; k++)
				EC_POINT_free(p[k]);
			free(p);
			return NULL;
		}
	return p;
}

static void pts_free(EC_POINT **p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		EC_POINT_free(p[i]);
	free(p);
}

/* n numbers, cleared when freed (some hold secrets). */
static BIGNUM **bns_new(size_t n)
{
	BIGNUM **b = xcalloc(n ? n : 1, sizeof(*b));

	for (size_t i = 0; i < n; i++)
		if (!(b[i] = BN_secure_new())) {
			for (size_t k = 0; k < i; k++)
				BN_clear_free(b[k]);
			free(b);
			return NULL;
		}
	return b;
}

static void bns_free(BIGNUM **b, size_t n)
{
	for (size_t i = 0; b && i < n; i++)
		BN_clear_free(b[i]);
	free(b);
}

/* pt(P): 33 bytes, compressed; the point at infinity has none (-1). */
static int enc(const struct ec *e, const EC_POINT *p, unsigned char out[PT])
{
	if (EC_POINT_is_at_infinity(e->g, p))
		return -1;
	return EC_POINT_point2oct(e->g, p, POINT_CONVERSION_COMPRESSED, out, PT,
				  e->bn) == PT ? 0 : -1;
}

/* unpt(s): a point of the curve, never infinity, or -1 (libcrypto's
 * error queue left as it was). */
static int dec(const struct ec *e, const unsigned char in[PT], EC_POINT *p)
{
	int ok;

	if (in[0] != 0x02 && in[0] != 0x03)
		return -1;
	ERR_set_mark();
	ok = EC_POINT_oct2point(e->g, p, in, PT, e->bn);
	ERR_pop_to_mark();
	return ok && !EC_POINT_is_at_infinity(e->g, p) ? 0 : -1;
}

/* A scalar's 32 bytes: below q, or -1. */
static int sc_dec(const struct ec *e, const unsigned char in[SC], BIGNUM *x)
{
	if (!BN_bin2bn(in, SC, x))
		return -1;
	return BN_cmp(x, e->q) < 0 ? 0 : -1;
}

static int sc_enc(const BIGNUM *x, unsigned char out[SC])
{
	return BN_bn2binpad(x, out, SC) == SC ? 0 : -1;
}

/* The scalar multiplications of this process (pcrypto_scalar_mults()). */
static unsigned long mults, mults_multi;

void pcrypto_scalar_mults(unsigned long *all, unsigned long *in_multi)
{
	*all = mults;
	*in_multi = mults_multi;
}

/* r = k * B */
static int mulg(const struct ec *e, EC_POINT *r, const BIGNUM *k)
{
	mults++;
	return EC_POINT_mul(e->g, r, k, NULL, NULL, e->bn) ? 0 : -1;
}

/* r = k * P (one term: OpenSSL's ladder for a secret k) */
static int mul(const struct ec *e, EC_POINT *r, const EC_POINT *p, const BIGNUM *k)
{
	mults++;
	return EC_POINT_mul(e->g, r, NULL, p, k, e->bn) ? 0 : -1;
}

/* acc += k * P, tmp a scratch point */
static int muladd(const struct ec *e, EC_POINT *acc, const EC_POINT *p,
		  const BIGNUM *k, EC_POINT *tmp)
{
	return mul(e, tmp, p, k) == 0 && EC_POINT_add(e->g, acc, acc, tmp, e->bn)
		? 0 : -1;
}

/* r = a*B + b*P for public scalars (one interleaved multiplication) */
static int mul2(const struct ec *e, EC_POINT *r, const BIGNUM *a,
		const EC_POINT *p, const BIGNUM *b)
{
	mults += 2;
	return EC_POINT_mul(e->g, r, a, p, b, e->bn) ? 0 : -1;
}

/*
 * r = g*B + sum k_i P_i over n terms, for public scalars only (g may be
 * NULL): one multi-scalar multiplication where OpenSSL has one
 * (EC_POINTs_mul: deprecated by OpenSSL 3.0 but kept, and for the
 * verifier of a shuffle 2.6 times faster than the terms one by one;
 * issue 41), else the terms one by one, tmp a scratch point.
 */
static int msm(const struct ec *e, EC_POINT *r, const BIGNUM *g, size_t n,
	       const EC_POINT **p, const BIGNUM **k, EC_POINT *tmp)
{
#if !defined(OPENSSL_NO_DEPRECATED_3_0)
	int ok;

	(void)tmp;
	mults += n + (g != NULL);
	mults_multi += n + (g != NULL);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	ok = EC_POINTs_mul(e->g, r, g, n, p, k, e->bn);
#pragma GCC diagnostic pop
	return ok ? 0 : -1;
#else
	if (g ? mulg(e, r, g) < 0 : !EC_POINT_set_to_infinity(e->g, r))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (mul(e, tmp, p[i], k[i]) < 0 || !EC_POINT_add(e->g, r, r, tmp, e->bn))
			return -1;
	return 0;
#endif
}

/* r = -r */
static int neg(const struct ec *e, EC_POINT *r)
{
	return EC_POINT_invert(e->g, r, e->bn) ? 0 : -1;
}

/* ---- Bytes, hashes and scalars from hashes (3.2) -------------------------- */

static void add_u8(struct strbuf *m, unsigned v)
{
	strbuf_addch(m, (int)(v & 0xff));
}

static void add_u16(struct strbuf *m, unsigned v)
{
	add_u8(m, v >> 8);
	add_u8(m, v);
}

static void add_str(struct strbuf *m, const char *s)
{
	strbuf_addstr(m, s);
}

/* u16be(len) || bytes: a context string (at most PCRYPTO_MAX_CTX) */
static void add_ctx(struct strbuf *m, const unsigned char *ctx, size_t n)
{
	add_u16(m, (unsigned)n);
	strbuf_add(m, ctx, n);
}

static int add_pt(const struct ec *e, struct strbuf *m, const EC_POINT *p)
{
	unsigned char b[PT];

	if (enc(e, p, b) < 0)
		return -1;
	strbuf_add(m, b, PT);
	return 0;
}

static int sha256(const void *a, size_t an, const void *b, size_t bn,
		  unsigned char out[32])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int len = 0;
	int ok = md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
		 EVP_DigestUpdate(md, a, an) && (!bn || EVP_DigestUpdate(md, b, bn)) &&
		 EVP_DigestFinal_ex(md, out, &len) && len == 32;

	EVP_MD_CTX_free(md);
	return ok ? 0 : -1;
}

/* H2S(m) = int(SHA256(m || 00) || SHA256(m || 01)) mod q */
static int h2s(const struct ec *e, const struct strbuf *m, BIGNUM *out)
{
	unsigned char wide[64];
	static const unsigned char zero = 0, one = 1;

	if (sha256(m->buf, m->len, &zero, 1, wide) < 0 ||
	    sha256(m->buf, m->len, &one, 1, wide + 32) < 0 ||
	    !BN_bin2bn(wide, 64, out) || !BN_nnmod(out, out, e->q, e->bn))
		return -1;
	return 0;
}

/* W(k, m) = int(HMAC(k, m || 00) || HMAC(k, m || 01)) mod q, never 0
 * (a secret: 0 is an internal failure, of probability 2^-256) */
static int wide(const struct ec *e, const unsigned char key[32],
		struct strbuf *m, BIGNUM *out)
{
	unsigned char w[64];
	int ret = -1;

	add_u8(m, 0);
	codec_hmac_sha256(key, 32, m->buf, m->len, w);
	m->buf[m->len - 1] = 1;
	codec_hmac_sha256(key, 32, m->buf, m->len, w + 32);
	m->len--;
	m->buf[m->len] = '\0';
	if (BN_bin2bn(w, 64, out) && BN_nnmod(out, out, e->q, e->bn) &&
	    !BN_is_zero(out))
		ret = 0;
	OPENSSL_cleanse(w, sizeof(w));
	return ret;
}

/* W(k, label || u16be(i)) */
static int wide_at(const struct ec *e, const unsigned char key[32],
		   const char *label, unsigned i, BIGNUM *out)
{
	struct strbuf m = STRBUF_INIT;
	int ret;

	add_str(&m, label);
	add_u16(&m, i);
	ret = wide(e, key, &m, out);
	strbuf_release(&m);
	return ret;
}

/* TAI(label): the first of SHA256(label || u8(ctr)), ctr = 0..255, that
 * is the x of a point with an even y */
static int tai(const struct ec *e, const struct strbuf *label, EC_POINT *p)
{
	unsigned char cand[PT];

	for (unsigned ctr = 0; ctr < 256; ctr++) {
		unsigned char c = (unsigned char)ctr;
		cand[0] = 0x02;
		if (sha256(label->buf, label->len, &c, 1, cand + 1) < 0)
			return -1;
		if (dec(e, cand, p) == 0)
			return 0;
	}
	return -1;
}

static int tai_indexed(const struct ec *e, const char *label, unsigned i,
		       EC_POINT *p)
{
	struct strbuf m = STRBUF_INIT;
	int ret;

	add_str(&m, label);
	add_u16(&m, i);
	ret = tai(e, &m, p);
	strbuf_release(&m);
	return ret;
}

/* A point of a table: x || y, as an uncompressed point (no square root
 * to take: each compressed point decoded costs one). */
static int from_table(const struct ec *e, const unsigned char xy[64], EC_POINT *p)
{
	unsigned char full[1 + 64];

	full[0] = 0x04;
	memcpy(full + 1, xy, 64);
	return EC_POINT_oct2point(e->g, p, full, sizeof(full), e->bn) ? 0 : -1;
}

/* pt(P) of a table's point, without making the point */
static void table_enc(const unsigned char xy[64], unsigned char out[PT])
{
	out[0] = (unsigned char)(0x02 | (xy[63] & 1));
	memcpy(out + 1, xy, 32);
}

static int card_point(const struct ec *e, int card, EC_POINT *p)
{
	if (card < 1 || card > PCRYPTO_MAX_CARD)
		return -1;
	if (card <= PCRYPTO_TABLE_CARDS)
		return from_table(e, pcrypto_card_table[card - 1], p);
	return tai_indexed(e, "postrider-peer-card", (unsigned)card, p);
}

/* H_i = TAI("postrider-peer-generator" || u16be(i)), compiled in too */
static int generator(const struct ec *e, int i, EC_POINT *p)
{
	if (i < 0 || i >= PCRYPTO_MAX_DECK)
		return -1;
	return from_table(e, pcrypto_generator_table[i], p);
}

int pcrypto_card_point_derived(int card, unsigned char pt[PCRYPTO_PT])
{
	struct ec e;
	EC_POINT *p = NULL;
	int ret = -1;

	if (card < 1 || card > PCRYPTO_MAX_CARD || ec_open(&e) < 0)
		return -1;
	if ((p = EC_POINT_new(e.g)) &&
	    tai_indexed(&e, "postrider-peer-card", (unsigned)card, p) == 0 &&
	    enc(&e, p, pt) == 0)
		ret = 0;
	EC_POINT_free(p);
	ec_close(&e);
	return ret;
}

int pcrypto_generator_derived(int i, unsigned char pt[PCRYPTO_PT])
{
	struct ec e;
	EC_POINT *p = NULL;
	struct strbuf m = STRBUF_INIT;
	int ret = -1;

	if (i < -1 || i >= PCRYPTO_MAX_DECK || ec_open(&e) < 0)
		return -1;
	add_str(&m, "postrider-peer-chain");
	if ((p = EC_POINT_new(e.g)) &&
	    (i < 0 ? tai(&e, &m, p) :
	     tai_indexed(&e, "postrider-peer-generator", (unsigned)i, p)) == 0 &&
	    enc(&e, p, pt) == 0)
		ret = 0;
	strbuf_release(&m);
	EC_POINT_free(p);
	ec_close(&e);
	return ret;
}

int pcrypto_table_point(int table, int i, unsigned char pt[PCRYPTO_PT])
{
	if (table == 0 && i >= 1 && i <= PCRYPTO_TABLE_CARDS)
		table_enc(pcrypto_card_table[i - 1], pt);
	else if (table == 1 && i >= 0 && i < PCRYPTO_MAX_DECK)
		table_enc(pcrypto_generator_table[i], pt);
	else if (table == 1 && i == -1)
		table_enc(pcrypto_chain_base, pt);
	else
		return -1;
	return 0;
}

/* ---- Keys (3.3, 3.5) -------------------------------------------------------- */

static int derive_scalar(const unsigned char secret[32], const char *label,
			 unsigned char out[32])
{
	unsigned char k[32];
	int ret;

	codec_hmac_sha256(secret, 32, label, strlen(label), k);
	ret = vrf_secret_key(k, out);
	OPENSSL_cleanse(k, sizeof(k));
	return ret;
}

int pcrypto_keys(const unsigned char secret[32], struct pcrypto_secret *sk,
		 struct pcrypto_public *pk)
{
	static const char rand_label[] = "postrider-peer-key-random";

	if (derive_scalar(secret, "postrider-peer-key-vrf", sk->vrf) < 0 ||
	    derive_scalar(secret, "postrider-peer-key-mask", sk->mask) < 0 ||
	    derive_scalar(secret, "postrider-peer-key-sign", sk->sign) < 0)
		return -1;
	codec_hmac_sha256(secret, 32, rand_label, sizeof(rand_label) - 1, sk->rand);
	if (!pk)
		return 0;
	if (vrf_public_key(sk->vrf, pk->vrf) < 0 ||
	    vrf_public_key(sk->mask, pk->mask) < 0 ||
	    vrf_public_key(sk->sign, pk->sign) < 0)
		return -1;
	return 0;
}

/*
 * The Schnorr proof of 3.5 and 3.6: with x the secret of pk,
 *   k = W(rand, nonce_msg); T = k*B; c = H2S(front || pt(T) || back);
 *   s = k + c*x; proof = sc(c) || sc(s).
 */
static int schnorr_prove(const struct ec *e, const unsigned char x_bytes[32],
			 const unsigned char rand[32], struct strbuf *nonce_msg,
			 const struct strbuf *front, const struct strbuf *back,
			 unsigned char proof[PCRYPTO_PROOF])
{
	BIGNUM **b = bns_new(3);	/* x, k, c (then s) */
	EC_POINT *t = EC_POINT_new(e->g);
	struct strbuf m = STRBUF_INIT;
	int ret = -1;

	if (!b || !t || !BN_bin2bn(x_bytes, 32, b[0]) ||
	    wide(e, rand, nonce_msg, b[1]) < 0 || mulg(e, t, b[1]) < 0)
		goto out;
	strbuf_add(&m, front->buf, front->len);
	if (add_pt(e, &m, t) < 0)
		goto out;
	strbuf_add(&m, back->buf, back->len);
	if (h2s(e, &m, b[2]) < 0 || sc_enc(b[2], proof) < 0 ||
	    !BN_mod_mul(b[2], b[2], b[0], e->q, e->bn) ||
	    !BN_mod_add(b[2], b[2], b[1], e->q, e->bn) ||
	    sc_enc(b[2], proof + SC) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&m);
	EC_POINT_free(t);
	bns_free(b, 3);
	return ret;
}

/* T = s*B - c*Y; valid when c = H2S(front || pt(T) || back) */
static int schnorr_verify(const struct ec *e, const unsigned char pk[PT],
			  const struct strbuf *front, const struct strbuf *back,
			  const unsigned char proof[PCRYPTO_PROOF])
{
	BIGNUM **b = bns_new(3);	/* c, s, c' */
	EC_POINT **p = pts_new(e, 2);	/* Y, T */
	struct strbuf m = STRBUF_INIT;
	int ret = -1;

	if (!b || !p || dec(e, pk, p[0]) < 0 || sc_dec(e, proof, b[0]) < 0 ||
	    sc_dec(e, proof + SC, b[1]) < 0 ||
	    !BN_mod_sub(b[2], e->q, b[0], e->q, e->bn) ||
	    mul2(e, p[1], b[1], p[0], b[2]) < 0)
		goto out;
	strbuf_add(&m, front->buf, front->len);
	if (add_pt(e, &m, p[1]) < 0)
		goto out;
	strbuf_add(&m, back->buf, back->len);
	if (h2s(e, &m, b[2]) < 0 || BN_cmp(b[2], b[0]))
		goto out;
	ret = 0;
out:
	strbuf_release(&m);
	pts_free(p, 2);
	bns_free(b, 3);
	return ret;
}

/* front = "postrider-peer-key" || u16be(len ctx) || ctx || pt(Y) */
static int key_front(const unsigned char pk[PT], const unsigned char *ctx,
		     size_t ctx_len, struct strbuf *front)
{
	if (ctx_len > PCRYPTO_MAX_CTX)
		return -1;
	add_str(front, "postrider-peer-key");
	add_ctx(front, ctx, ctx_len);
	strbuf_add(front, pk, PT);
	return 0;
}

int pcrypto_key_prove(const struct pcrypto_secret *sk, const unsigned char *ctx,
		      size_t ctx_len, unsigned char proof[PCRYPTO_PROOF])
{
	struct strbuf front = STRBUF_INIT, back = STRBUF_INIT, nm = STRBUF_INIT;
	unsigned char pk[PT];
	struct ec e;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if (vrf_public_key(sk->mask, pk) < 0 || key_front(pk, ctx, ctx_len, &front) < 0)
		goto out;
	add_str(&nm, "postrider-peer-key-nonce");
	strbuf_add(&nm, front.buf, front.len);
	ret = schnorr_prove(&e, sk->mask, sk->rand, &nm, &front, &back, proof);
out:
	strbuf_release(&front);
	strbuf_release(&back);
	strbuf_release(&nm);
	ec_close(&e);
	return ret;
}

int pcrypto_key_verify(const unsigned char pk[PCRYPTO_PT],
		       const unsigned char *ctx, size_t ctx_len,
		       const unsigned char proof[PCRYPTO_PROOF])
{
	struct strbuf front = STRBUF_INIT, back = STRBUF_INIT;
	struct ec e;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if (key_front(pk, ctx, ctx_len, &front) == 0)
		ret = schnorr_verify(&e, pk, &front, &back, proof);
	strbuf_release(&front);
	strbuf_release(&back);
	ec_close(&e);
	return ret;
}

int pcrypto_joint_key(const unsigned char american[PCRYPTO_PT],
		      const unsigned char british[PCRYPTO_PT],
		      unsigned char y[PCRYPTO_PT])
{
	struct ec e;
	EC_POINT **p;
	int ret = -1;

	if (!memcmp(american, british, PT) || ec_open(&e) < 0)
		return -1;
	if ((p = pts_new(&e, 2)) && dec(&e, american, p[0]) == 0 &&
	    dec(&e, british, p[1]) == 0 &&
	    EC_POINT_add(e.g, p[0], p[0], p[1], e.bn) && enc(&e, p[0], y) == 0)
		ret = 0;
	pts_free(p, 2);
	ec_close(&e);
	return ret;
}

/* ---- Cards (4.1, 4.2) ---------------------------------------------------- */

int pcrypto_card_point(int card, unsigned char pt[PCRYPTO_PT])
{
	struct ec e;
	EC_POINT *p = NULL;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if ((p = EC_POINT_new(e.g)) && card_point(&e, card, p) == 0 &&
	    enc(&e, p, pt) == 0)
		ret = 0;
	EC_POINT_free(p);
	ec_close(&e);
	return ret;
}

static int card_find(const struct ec *e, const EC_POINT *m, int n_cards)
{
	unsigned char want[PT], got[PT];
	EC_POINT *p = EC_POINT_new(e->g);
	int found = -1;

	if (!p || enc(e, m, want) < 0) {
		EC_POINT_free(p);
		return -1;
	}
	for (int c = 1; c <= n_cards && c <= PCRYPTO_TABLE_CARDS && found < 0; c++) {
		table_enc(pcrypto_card_table[c - 1], got);
		if (!memcmp(want, got, PT))
			found = c;
	}
	for (int c = PCRYPTO_TABLE_CARDS + 1; c <= n_cards && c <= PCRYPTO_MAX_CARD && found < 0; c++)
		if (card_point(e, c, p) == 0 && enc(e, p, got) == 0 &&
		    !memcmp(want, got, PT))
			found = c;
	EC_POINT_free(p);
	return found;
}

int pcrypto_card_find(const unsigned char pt[PCRYPTO_PT], int n_cards)
{
	struct ec e;
	EC_POINT *m = NULL;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if ((m = EC_POINT_new(e.g)) && dec(&e, pt, m) == 0)
		ret = card_find(&e, m, n_cards);
	EC_POINT_free(m);
	ec_close(&e);
	return ret;
}

int pcrypto_open(const unsigned char y[PCRYPTO_PT], int card,
		 unsigned char ct[PCRYPTO_CT])
{
	struct ec e;
	EC_POINT **p;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	/* (B, M + Y) */
	if ((p = pts_new(&e, 2)) && dec(&e, y, p[0]) == 0 &&
	    card_point(&e, card, p[1]) == 0 &&
	    EC_POINT_add(e.g, p[1], p[1], p[0], e.bn) &&
	    enc(&e, EC_GROUP_get0_generator(e.g), ct) == 0 &&
	    enc(&e, p[1], ct + PT) == 0)
		ret = 0;
	pts_free(p, 2);
	ec_close(&e);
	return ret;
}

/* ---- The shuffle (4.3, 4.4) --------------------------------------------------- */

/* D0 = SHA256("postrider-peer-shuffle" || u16be(len ctx) || ctx || pt(Y)
 *             || u16be(n) || in) */
static int shuffle_d0(const unsigned char *ctx, size_t ctx_len,
		      const unsigned char y[PT], const unsigned char *in, int n,
		      unsigned char d0[32])
{
	struct strbuf m = STRBUF_INIT;
	int ret;

	add_str(&m, "postrider-peer-shuffle");
	add_ctx(&m, ctx, ctx_len);
	strbuf_add(&m, y, PT);
	add_u16(&m, (unsigned)n);
	strbuf_add(&m, in, (size_t)n * CT);
	ret = sha256(m.buf, m.len, NULL, 0, d0);
	strbuf_release(&m);
	return ret;
}

static bool shuffle_args_ok(size_t ctx_len, int n)
{
	return ctx_len <= PCRYPTO_MAX_CTX && n >= 2 && n <= PCRYPTO_MAX_DECK;
}

int pcrypto_shuffle_secrets(const struct pcrypto_secret *sk,
			    const unsigned char *ctx, size_t ctx_len,
			    const unsigned char y[PCRYPTO_PT],
			    const unsigned char *in, int n, int *perm,
			    unsigned char *rho)
{
	static const char label[] = "postrider-peer-shuffle-secret";
	unsigned char msg[sizeof(label) - 1 + 32], ks[32], kp[32];
	struct ec e;
	BIGNUM *r = NULL;
	int ret = -1;

	if (!shuffle_args_ok(ctx_len, n) ||
	    shuffle_d0(ctx, ctx_len, y, in, n, msg + sizeof(label) - 1) < 0)
		return -1;
	if (ec_open(&e) < 0)
		return -1;
	memcpy(msg, label, sizeof(label) - 1);
	/* K_s = HMAC(rand, label || D0); K_perm = HMAC(K_s, "perm") */
	codec_hmac_sha256(sk->rand, 32, msg, sizeof(msg), ks);
	codec_hmac_sha256(ks, 32, "perm", 4, kp);
	/* Fisher-Yates from the top, fairness 6.5, draws 0, 1, ... */
	for (int i = 0; i < n; i++)
		perm[i] = i;
	for (int i = n - 1, d = 0; i >= 1; i--, d++) {
		int j = (int)rng_uniform64_at(kp, (uint64_t)d, (uint64_t)i + 1, NULL);
		int t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	if (!(r = BN_secure_new()))
		goto out;
	for (int i = 0; i < n; i++)
		if (wide_at(&e, ks, "rho", (unsigned)i, r) < 0 ||
		    sc_enc(r, rho + (size_t)i * SC) < 0)
			goto out;
	ret = 0;
out:
	OPENSSL_cleanse(ks, sizeof(ks));
	OPENSSL_cleanse(kp, sizeof(kp));
	BN_clear_free(r);
	ec_close(&e);
	return ret;
}

/* The points and numbers of one shuffle proof, prover's or verifier's. */
struct shuf {
	struct ec e;
	int n;
	EC_POINT *y, *hc, *tmp, *acc;
	EC_POINT **a, **b, **a2, **b2;	/* inputs, outputs: (C1, C2) */
	EC_POINT **h;			/* the generators of 4.4 */
	EC_POINT **c, **ch;		/* commitments, the chain */
	EC_POINT *t[5], **th;		/* t1 t2 t3 t41 t42, t-hat */
	BIGNUM **u, *chal, *s[4], **sh, **sp;	/* challenges, responses */
	BIGNUM *x, *z;			/* scratch */
	unsigned char d2[32];
};

static void shuf_close(struct shuf *w)
{
	size_t n = (size_t)w->n;

	EC_POINT_free(w->y);
	EC_POINT_free(w->hc);
	EC_POINT_free(w->tmp);
	EC_POINT_free(w->acc);
	pts_free(w->a, n);
	pts_free(w->b, n);
	pts_free(w->a2, n);
	pts_free(w->b2, n);
	pts_free(w->h, n);
	pts_free(w->c, n);
	pts_free(w->ch, n);
	pts_free(w->th, n);
	for (int i = 0; i < 5; i++)
		EC_POINT_free(w->t[i]);
	bns_free(w->u, n);
	bns_free(w->sh, n);
	bns_free(w->sp, n);
	for (int i = 0; i < 4; i++)
		BN_clear_free(w->s[i]);
	BN_clear_free(w->chal);
	BN_clear_free(w->x);
	BN_clear_free(w->z);
	if (w->e.g)
		ec_close(&w->e);
}

/* Allocates everything and decodes y and the n inputs; computes the
 * generators. 0 or -1. */
static int shuf_open(struct shuf *w, const unsigned char y[PT],
		     const unsigned char *in, int n)
{
	size_t k = (size_t)n;
	struct strbuf m = STRBUF_INIT;
	int ret = -1;

	memset(w, 0, sizeof(*w));
	w->n = n;
	if (ec_open(&w->e) < 0)
		return -1;
	const struct ec *e = &w->e;
	if (!(w->y = EC_POINT_new(e->g)) || !(w->hc = EC_POINT_new(e->g)) ||
	    !(w->tmp = EC_POINT_new(e->g)) || !(w->acc = EC_POINT_new(e->g)) ||
	    !(w->a = pts_new(e, k)) || !(w->b = pts_new(e, k)) ||
	    !(w->a2 = pts_new(e, k)) || !(w->b2 = pts_new(e, k)) ||
	    !(w->h = pts_new(e, k)) || !(w->c = pts_new(e, k)) ||
	    !(w->ch = pts_new(e, k)) || !(w->th = pts_new(e, k)) ||
	    !(w->u = bns_new(k)) || !(w->sh = bns_new(k)) || !(w->sp = bns_new(k)) ||
	    !(w->chal = BN_secure_new()) || !(w->x = BN_secure_new()) ||
	    !(w->z = BN_secure_new()))
		return -1;
	for (int i = 0; i < 5; i++)
		if (!(w->t[i] = EC_POINT_new(e->g)))
			return -1;
	for (int i = 0; i < 4; i++)
		if (!(w->s[i] = BN_secure_new()))
			return -1;
	if (dec(e, y, w->y) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (dec(e, in + (size_t)i * CT, w->a[i]) < 0 ||
		    dec(e, in + (size_t)i * CT + PT, w->b[i]) < 0)
			return -1;
	/* H_i = TAI("postrider-peer-generator" || u16be(i)), the chain's
	 * base TAI("postrider-peer-chain"): compiled in (src/peer-cards.c) */
	for (int i = 0; i < n; i++)
		if (generator(e, i, w->h[i]) < 0)
			goto out;
	if (from_table(e, pcrypto_chain_base, w->hc) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&m);
	return ret;
}

/* D1 = SHA256(D0 || out), D2 = SHA256(D1 || pt(c_0) .. pt(c_{n-1})); then
 * u_j = H2S("postrider-peer-shuffle-u" || D2 || u16be(j)). */
static int shuf_challenges(struct shuf *w, const unsigned char d0[32],
			   const unsigned char *out)
{
	const struct ec *e = &w->e;
	unsigned char d1[32];
	struct strbuf m = STRBUF_INIT;
	int ret = -1;

	if (sha256(d0, 32, out, (size_t)w->n * CT, d1) < 0)
		goto out;
	strbuf_add(&m, d1, 32);
	for (int j = 0; j < w->n; j++)
		if (add_pt(e, &m, w->c[j]) < 0)
			goto out;
	if (sha256(m.buf, m.len, NULL, 0, w->d2) < 0)
		goto out;
	for (int j = 0; j < w->n; j++) {
		strbuf_reset(&m);
		add_str(&m, "postrider-peer-shuffle-u");
		strbuf_add(&m, w->d2, 32);
		add_u16(&m, (unsigned)j);
		if (h2s(e, &m, w->u[j]) < 0)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&m);
	return ret;
}

/* chal = H2S("postrider-peer-shuffle-c" || D2 || pt(c-hat_0..) ||
 *            pt(t1) pt(t2) pt(t3) pt(t41) pt(t42) || pt(t-hat_0..)) */
static int shuf_final_challenge(struct shuf *w, BIGNUM *out)
{
	const struct ec *e = &w->e;
	struct strbuf m = STRBUF_INIT;
	int ret = -1;

	add_str(&m, "postrider-peer-shuffle-c");
	strbuf_add(&m, w->d2, 32);
	for (int i = 0; i < w->n; i++)
		if (add_pt(e, &m, w->ch[i]) < 0)
			goto out;
	for (int i = 0; i < 5; i++)
		if (add_pt(e, &m, w->t[i]) < 0)
			goto out;
	for (int i = 0; i < w->n; i++)
		if (add_pt(e, &m, w->th[i]) < 0)
			goto out;
	ret = h2s(e, &m, out);
out:
	strbuf_release(&m);
	return ret;
}

/* out = sum_i a_i * b_i mod q (b NULL: sum_i a_i), over the n of w */
static int dot(struct shuf *w, BIGNUM **a, BIGNUM **b, BIGNUM *out)
{
	const struct ec *e = &w->e;

	BN_zero(out);
	for (int i = 0; i < w->n; i++) {
		if (b && !BN_mod_mul(w->z, a[i], b[i], e->q, e->bn))
			return -1;
		if (!BN_mod_add(out, out, b ? w->z : a[i], e->q, e->bn))
			return -1;
	}
	return 0;
}

/* s = nonce + chal * secret mod q */
static int respond(struct shuf *w, BIGNUM *s, const BIGNUM *nonce,
		   const BIGNUM *secret)
{
	const struct ec *e = &w->e;

	return BN_mod_mul(s, w->chal, secret, e->q, e->bn) &&
	       BN_mod_add(s, s, nonce, e->q, e->bn) ? 0 : -1;
}

/* proof = pt(c_j)* || pt(c-hat_i)* || sc(chal) sc(s1..s4) ||
 *         sc(s-hat_i)* || sc(s'_i)* */
static int shuf_write(struct shuf *w, unsigned char *proof)
{
	const struct ec *e = &w->e;
	unsigned char *p = proof;
	int n = w->n;

	for (int j = 0; j < n; j++, p += PT)
		if (enc(e, w->c[j], p) < 0)
			return -1;
	for (int i = 0; i < n; i++, p += PT)
		if (enc(e, w->ch[i], p) < 0)
			return -1;
	if (sc_enc(w->chal, p) < 0)
		return -1;
	p += SC;
	for (int i = 0; i < 4; i++, p += SC)
		if (sc_enc(w->s[i], p) < 0)
			return -1;
	for (int i = 0; i < n; i++, p += SC)
		if (sc_enc(w->sh[i], p) < 0)
			return -1;
	for (int i = 0; i < n; i++, p += SC)
		if (sc_enc(w->sp[i], p) < 0)
			return -1;
	return 0;
}

static int shuf_prove(struct shuf *w, const struct pcrypto_secret *sk,
		      const unsigned char d0[32], const int *perm,
		      const unsigned char *rho, unsigned char *out,
		      unsigned char *proof)
{
	const struct ec *e = &w->e;
	const BIGNUM *q = e->q;
	int n = w->n;
	size_t k = (size_t)n;
	BIGNUM **r = bns_new(k), **rh = bns_new(k), **wh = bns_new(k),
	       **wp = bns_new(k), **rp = bns_new(k), *om[4] = { 0 }, **up = bns_new(k);
	static const char label[] = "postrider-peer-shuffle-proof";
	unsigned char kp[32], msg[sizeof(label) - 1 + 32];
	int ret = -1;

	if (!r || !rh || !wh || !wp || !rp || !up)
		goto out;
	for (int i = 0; i < 4; i++)
		if (!(om[i] = BN_secure_new()))
			goto out;
	/* the outputs: out_i = in_perm(i) + (rho_i B, rho_i Y) */
	for (int i = 0; i < n; i++) {
		if (perm[i] < 0 || perm[i] >= n ||
		    sc_dec(e, rho + (size_t)i * SC, rp[i]) < 0 ||
		    mulg(e, w->a2[i], rp[i]) < 0 ||
		    !EC_POINT_add(e->g, w->a2[i], w->a2[i], w->a[perm[i]], e->bn) ||
		    mul(e, w->b2[i], w->y, rp[i]) < 0 ||
		    !EC_POINT_add(e->g, w->b2[i], w->b2[i], w->b[perm[i]], e->bn) ||
		    enc(e, w->a2[i], out + (size_t)i * CT) < 0 ||
		    enc(e, w->b2[i], out + (size_t)i * CT + PT) < 0)
			goto out;
	}
	/* K_p = HMAC(rand, "postrider-peer-shuffle-proof" || D1) */
	memcpy(msg, label, sizeof(label) - 1);
	if (sha256(d0, 32, out, k * CT, msg + sizeof(label) - 1) < 0)
		goto out;
	codec_hmac_sha256(sk->rand, 32, msg, sizeof(msg), kp);
	/* c_j = r_j B + sum of H_i over the outputs i taken from input j */
	for (int j = 0; j < n; j++)
		if (wide_at(e, kp, "r", (unsigned)j, r[j]) < 0 || mulg(e, w->c[j], r[j]) < 0)
			goto out;
	for (int i = 0; i < n; i++)
		if (!EC_POINT_add(e->g, w->c[perm[i]], w->c[perm[i]], w->h[i], e->bn))
			goto out;
	if (shuf_challenges(w, d0, out) < 0)
		goto out;
	/* the chain: c-hat_i = rh_i B + u'_i c-hat_{i-1}, u'_i = u_perm(i) */
	for (int i = 0; i < n; i++) {
		const EC_POINT *prev = i ? w->ch[i - 1] : w->hc;
		if (!BN_copy(up[i], w->u[perm[i]]) ||
		    wide_at(e, kp, "rhat", (unsigned)i, rh[i]) < 0 ||
		    mulg(e, w->ch[i], rh[i]) < 0 ||
		    muladd(e, w->ch[i], prev, up[i], w->tmp) < 0)
			goto out;
	}
	/* the commitments of the sigma protocol */
	for (int i = 0; i < 4; i++)
		if (wide_at(e, kp, "omega", (unsigned)i + 1, om[i]) < 0)
			goto out;
	if (mulg(e, w->t[0], om[0]) < 0 || mulg(e, w->t[1], om[1]) < 0 ||
	    mulg(e, w->t[2], om[2]) < 0 || mulg(e, w->t[3], om[3]) < 0 ||
	    neg(e, w->t[3]) < 0 || mul(e, w->t[4], w->y, om[3]) < 0 || neg(e, w->t[4]) < 0)
		goto out;
	for (int i = 0; i < n; i++) {
		const EC_POINT *prev = i ? w->ch[i - 1] : w->hc;
		if (wide_at(e, kp, "what", (unsigned)i, wh[i]) < 0 ||
		    wide_at(e, kp, "wprime", (unsigned)i, wp[i]) < 0 ||
		    muladd(e, w->t[2], w->h[i], wp[i], w->tmp) < 0 ||
		    muladd(e, w->t[3], w->a2[i], wp[i], w->tmp) < 0 ||
		    muladd(e, w->t[4], w->b2[i], wp[i], w->tmp) < 0 ||
		    mulg(e, w->th[i], wh[i]) < 0 ||
		    muladd(e, w->th[i], prev, wp[i], w->tmp) < 0)
			goto out;
	}
	if (shuf_final_challenge(w, w->chal) < 0)
		goto out;
	/* the responses: s1 = w1 + c*sum r_j; s2 = w2 + c*sum rh_i v_i with
	 * v_i = u'_{i+1} ... u'_{n-1}; s3 = w3 + c*sum r_j u_j; s4 = w4 +
	 * c*sum rho_i u'_i; s-hat_i = w-hat_i + c*rh_i; s'_i = w'_i + c*u'_i */
	BIGNUM *sum = w->x, *v = w->z;
	BN_zero(sum);
	if (!BN_one(v))
		goto out;
	for (int i = n - 1; i >= 0; i--) {
		if (!BN_mod_mul(w->s[1], rh[i], v, q, e->bn) ||
		    !BN_mod_add(sum, sum, w->s[1], q, e->bn) ||
		    !BN_mod_mul(v, v, up[i], q, e->bn))
			goto out;
	}
	if (respond(w, w->s[1], om[1], sum) < 0 ||
	    dot(w, r, NULL, sum) < 0 || respond(w, w->s[0], om[0], sum) < 0 ||
	    dot(w, r, w->u, sum) < 0 || respond(w, w->s[2], om[2], sum) < 0 ||
	    dot(w, rp, up, sum) < 0 || respond(w, w->s[3], om[3], sum) < 0)
		goto out;
	for (int i = 0; i < n; i++)
		if (respond(w, w->sh[i], wh[i], rh[i]) < 0 ||
		    respond(w, w->sp[i], wp[i], up[i]) < 0)
			goto out;
	if (shuf_write(w, proof) < 0)
		goto out;
	ret = 0;
out:
	OPENSSL_cleanse(kp, sizeof(kp));
	bns_free(r, k);
	bns_free(rh, k);
	bns_free(wh, k);
	bns_free(wp, k);
	bns_free(rp, k);
	bns_free(up, k);
	for (int i = 0; i < 4; i++)
		BN_clear_free(om[i]);
	return ret;
}

int pcrypto_shuffle_prove(const struct pcrypto_secret *sk,
			  const unsigned char *ctx, size_t ctx_len,
			  const unsigned char y[PCRYPTO_PT],
			  const unsigned char *in, int n, const int *perm,
			  const unsigned char *rho, unsigned char *out,
			  unsigned char *proof)
{
	struct shuf w;
	unsigned char d0[32];
	int ret = -1;

	if (!shuffle_args_ok(ctx_len, n) || shuffle_d0(ctx, ctx_len, y, in, n, d0) < 0)
		return -1;
	if (shuf_open(&w, y, in, n) == 0)
		ret = shuf_prove(&w, sk, d0, perm, rho, out, proof);
	shuf_close(&w);
	return ret;
}

int pcrypto_shuffle(const struct pcrypto_secret *sk, const unsigned char *ctx,
		    size_t ctx_len, const unsigned char y[PCRYPTO_PT],
		    const unsigned char *in, int n, unsigned char *out,
		    unsigned char *proof)
{
	int *perm;
	unsigned char *rho;
	int ret = -1;

	if (!shuffle_args_ok(ctx_len, n))
		return -1;
	perm = xcalloc((size_t)n, sizeof(*perm));
	rho = xcalloc((size_t)n, SC);
	if (pcrypto_shuffle_secrets(sk, ctx, ctx_len, y, in, n, perm, rho) == 0)
		ret = pcrypto_shuffle_prove(sk, ctx, ctx_len, y, in, n, perm, rho,
					    out, proof);
	OPENSSL_cleanse(rho, (size_t)n * SC);
	OPENSSL_cleanse(perm, (size_t)n * sizeof(*perm));
	free(perm);
	free(rho);
	return ret;
}

/* Decodes the outputs and the proof into w; -1 if anything does not. */
static int shuf_read(struct shuf *w, const unsigned char *out,
		     const unsigned char *proof)
{
	const struct ec *e = &w->e;
	const unsigned char *p = proof;
	int n = w->n;

	for (int i = 0; i < n; i++)
		if (dec(e, out + (size_t)i * CT, w->a2[i]) < 0 ||
		    dec(e, out + (size_t)i * CT + PT, w->b2[i]) < 0)
			return -1;
	for (int j = 0; j < n; j++, p += PT)
		if (dec(e, p, w->c[j]) < 0)
			return -1;
	for (int i = 0; i < n; i++, p += PT)
		if (dec(e, p, w->ch[i]) < 0)
			return -1;
	if (sc_dec(e, p, w->chal) < 0)
		return -1;
	p += SC;
	for (int i = 0; i < 4; i++, p += SC)
		if (sc_dec(e, p, w->s[i]) < 0)
			return -1;
	for (int i = 0; i < n; i++, p += SC)
		if (sc_dec(e, p, w->sh[i]) < 0)
			return -1;
	for (int i = 0; i < n; i++, p += SC)
		if (sc_dec(e, p, w->sp[i]) < 0)
			return -1;
	return 0;
}

/*
 * The verifier's points (4.4), each one multi-scalar multiplication of
 * public scalars (msm()): with c the challenge and -c its negation,
 *   t1  = s1 B - c (sum c_j - sum H_i)
 *   t2  = s2 B - c (c-hat_{n-1} - (prod u_j) Hc)
 *   t3  = s3 B + sum s'_i H_i - c sum u_j c_j
 *   t41 = sum s'_i a'_i - s4 B - c sum u_j a_j
 *   t42 = sum s'_i b'_i - s4 Y - c sum u_j b_j
 *   t-hat_i = s-hat_i B + s'_i c-hat_{i-1} - c c-hat_i
 */
static int shuf_verify_points(struct shuf *w)
{
	const struct ec *e = &w->e;
	const BIGNUM *q = e->q;
	int n = w->n;
	size_t k = (size_t)n;
	BIGNUM *negc = w->x, *prod = w->z, **cu = bns_new(k), *negs4 = BN_new();
	EC_POINT *acc = w->acc, *tmp = w->tmp;
	const EC_POINT **p = xcalloc(2 * k + 1, sizeof(*p));
	const BIGNUM **m = xcalloc(2 * k + 1, sizeof(*m));
	int ret = -1;

	if (!cu || !negs4 || !BN_mod_sub(negc, q, w->chal, q, e->bn) ||
	    !BN_mod_sub(negs4, q, w->s[3], q, e->bn))
		goto out;
	/* -c u_j */
	for (int j = 0; j < n; j++)
		if (!BN_mod_mul(cu[j], negc, w->u[j], q, e->bn))
			goto out;
	/* t1 = s1 B - c (sum c_j - sum H_i) */
	if (!EC_POINT_set_to_infinity(e->g, acc))
		goto out;
	for (int i = 0; i < n; i++) {
		if (!EC_POINT_add(e->g, acc, acc, w->c[i], e->bn) ||
		    !EC_POINT_copy(tmp, w->h[i]) || neg(e, tmp) < 0 ||
		    !EC_POINT_add(e->g, acc, acc, tmp, e->bn))
			goto out;
	}
	if (mul2(e, w->t[0], w->s[0], acc, negc) < 0)
		goto out;
	/* t2 = s2 B - c (c-hat_{n-1} - (prod u_j) Hc) */
	if (!BN_one(prod))
		goto out;
	for (int j = 0; j < n; j++)
		if (!BN_mod_mul(prod, prod, w->u[j], q, e->bn))
			goto out;
	if (mul(e, acc, w->hc, prod) < 0 || neg(e, acc) < 0 ||
	    !EC_POINT_add(e->g, acc, acc, w->ch[n - 1], e->bn) ||
	    mul2(e, w->t[1], w->s[1], acc, negc) < 0)
		goto out;
	/* t3 = s3 B + sum s'_i H_i + sum (-c u_j) c_j */
	for (int i = 0; i < n; i++) {
		p[i] = w->h[i];
		m[i] = w->sp[i];
		p[k + i] = w->c[i];
		m[k + i] = cu[i];
	}
	if (msm(e, w->t[2], w->s[2], 2 * k, p, m, tmp) < 0)
		goto out;
	/* t41 = sum s'_i a'_i + (-s4) B + sum (-c u_j) a_j */
	for (int i = 0; i < n; i++) {
		p[i] = w->a2[i];
		p[k + i] = w->a[i];
	}
	if (msm(e, w->t[3], negs4, 2 * k, p, m, tmp) < 0)
		goto out;
	/* t42 = sum s'_i b'_i + sum (-c u_j) b_j + (-s4) Y */
	for (int i = 0; i < n; i++) {
		p[i] = w->b2[i];
		p[k + i] = w->b[i];
	}
	p[2 * k] = w->y;
	m[2 * k] = negs4;
	if (msm(e, w->t[4], NULL, 2 * k + 1, p, m, tmp) < 0)
		goto out;
	/* t-hat_i = s-hat_i B + s'_i c-hat_{i-1} + (-c) c-hat_i */
	for (int i = 0; i < n; i++) {
		p[0] = i ? w->ch[i - 1] : w->hc;
		m[0] = w->sp[i];
		p[1] = w->ch[i];
		m[1] = negc;
		if (msm(e, w->th[i], w->sh[i], 2, p, m, tmp) < 0)
			goto out;
	}
	ret = 0;
out:
	bns_free(cu, k);
	BN_free(negs4);
	free(p);
	free(m);
	return ret;
}

int pcrypto_shuffle_verify(const unsigned char *ctx, size_t ctx_len,
			   const unsigned char y[PCRYPTO_PT],
			   const unsigned char *in, int n,
			   const unsigned char *out, const unsigned char *proof)
{
	struct shuf w;
	unsigned char d0[32];
	BIGNUM *want = NULL;
	int ret = -1;

	if (!shuffle_args_ok(ctx_len, n) || shuffle_d0(ctx, ctx_len, y, in, n, d0) < 0)
		return -1;
	if (shuf_open(&w, y, in, n) == 0 && shuf_read(&w, out, proof) == 0 &&
	    shuf_challenges(&w, d0, out) == 0 && shuf_verify_points(&w) == 0 &&
	    (want = BN_new()) && shuf_final_challenge(&w, want) == 0 &&
	    !BN_cmp(want, w.chal))
		ret = 0;
	BN_free(want);
	shuf_close(&w);
	return ret;
}

/* ---- Unmasking shares (4.5, 4.6) ----------------------------------------- */

/* "postrider-peer-share" || u16be(len ctx) || ctx || pt(Y_i) || ct || pt(D) */
static int share_front(const unsigned char *ctx, size_t ctx_len,
		       const unsigned char pk[PT], const unsigned char ct[CT],
		       const unsigned char d[PT], struct strbuf *m)
{
	if (ctx_len > PCRYPTO_MAX_CTX)
		return -1;
	add_str(m, "postrider-peer-share");
	add_ctx(m, ctx, ctx_len);
	strbuf_add(m, pk, PT);
	strbuf_add(m, ct, CT);
	strbuf_add(m, d, PT);
	return 0;
}

int pcrypto_share(const struct pcrypto_secret *sk, const unsigned char *ctx,
		  size_t ctx_len, const unsigned char ct[PCRYPTO_CT],
		  unsigned char share[PCRYPTO_SHARE])
{
	struct ec e;
	EC_POINT **p = NULL;		/* C1, D, A1, A2 */
	BIGNUM **b = NULL;		/* x, k, c */
	struct strbuf m = STRBUF_INIT, nm = STRBUF_INIT;
	unsigned char pk[PT];
	int ret = -1;

	if (ctx_len > PCRYPTO_MAX_CTX || ec_open(&e) < 0)
		return -1;
	if (!(p = pts_new(&e, 4)) || !(b = bns_new(3)) ||
	    vrf_public_key(sk->mask, pk) < 0 || dec(&e, ct, p[0]) < 0 ||
	    dec(&e, ct + PT, p[1]) < 0 || !BN_bin2bn(sk->mask, 32, b[0]) ||
	    mul(&e, p[1], p[0], b[0]) < 0 || enc(&e, p[1], share) < 0)
		goto out;
	/* k = W(rand, "postrider-peer-share-nonce" || u16be(len ctx) || ctx || ct) */
	add_str(&nm, "postrider-peer-share-nonce");
	add_ctx(&nm, ctx, ctx_len);
	strbuf_add(&nm, ct, CT);
	if (wide(&e, sk->rand, &nm, b[1]) < 0 || mulg(&e, p[2], b[1]) < 0 ||
	    mul(&e, p[3], p[0], b[1]) < 0)
		goto out;
	/* c = H2S(front || pt(A1) || pt(A2)); s = k + c x */
	if (share_front(ctx, ctx_len, pk, ct, share, &m) < 0 ||
	    add_pt(&e, &m, p[2]) < 0 || add_pt(&e, &m, p[3]) < 0 ||
	    h2s(&e, &m, b[2]) < 0 || sc_enc(b[2], share + PT) < 0 ||
	    !BN_mod_mul(b[2], b[2], b[0], e.q, e.bn) ||
	    !BN_mod_add(b[2], b[2], b[1], e.q, e.bn) ||
	    sc_enc(b[2], share + PT + SC) < 0)
		goto out;
	ret = 0;
out:
	strbuf_release(&m);
	strbuf_release(&nm);
	pts_free(p, 4);
	bns_free(b, 3);
	ec_close(&e);
	return ret;
}

int pcrypto_share_verify(const unsigned char pk[PCRYPTO_PT],
			 const unsigned char *ctx, size_t ctx_len,
			 const unsigned char ct[PCRYPTO_CT],
			 const unsigned char share[PCRYPTO_SHARE])
{
	struct ec e;
	EC_POINT **p = NULL;		/* Y, C1, D, A1, A2 */
	BIGNUM **b = NULL;		/* c, s, -c */
	struct strbuf m = STRBUF_INIT;
	int ret = -1;

	if (ctx_len > PCRYPTO_MAX_CTX || ec_open(&e) < 0)
		return -1;
	if (!(p = pts_new(&e, 5)) || !(b = bns_new(3)) || dec(&e, pk, p[0]) < 0 ||
	    dec(&e, ct, p[1]) < 0 || dec(&e, ct + PT, p[3]) < 0 ||
	    dec(&e, share, p[2]) < 0 || sc_dec(&e, share + PT, b[0]) < 0 ||
	    sc_dec(&e, share + PT + SC, b[1]) < 0 ||
	    !BN_mod_sub(b[2], e.q, b[0], e.q, e.bn))
		goto out;
	/* A1 = s B - c Y; A2 = s C1 - c D */
	if (mul2(&e, p[3], b[1], p[0], b[2]) < 0 || mul(&e, p[4], p[1], b[1]) < 0 ||
	    mul(&e, p[0], p[2], b[2]) < 0 || !EC_POINT_add(e.g, p[4], p[4], p[0], e.bn))
		goto out;
	if (share_front(ctx, ctx_len, pk, ct, share, &m) < 0 ||
	    add_pt(&e, &m, p[3]) < 0 || add_pt(&e, &m, p[4]) < 0 ||
	    h2s(&e, &m, b[2]) < 0 || BN_cmp(b[2], b[0]))
		goto out;
	ret = 0;
out:
	strbuf_release(&m);
	pts_free(p, 5);
	bns_free(b, 3);
	ec_close(&e);
	return ret;
}

/* M = C2 - D_a - D_b, then the card of M */
static int unmask_points(const struct ec *e, const unsigned char ct[CT],
			 EC_POINT *da, EC_POINT *db, int n_cards)
{
	EC_POINT *m = EC_POINT_new(e->g);
	int ret = -1;

	if (m && dec(e, ct + PT, m) == 0 && neg(e, da) == 0 && neg(e, db) == 0 &&
	    EC_POINT_add(e->g, m, m, da, e->bn) && EC_POINT_add(e->g, m, m, db, e->bn) &&
	    !EC_POINT_is_at_infinity(e->g, m))
		ret = card_find(e, m, n_cards);
	EC_POINT_free(m);
	return ret;
}

int pcrypto_unmask(const unsigned char ct[PCRYPTO_CT],
		   const unsigned char share_a[PCRYPTO_SHARE],
		   const unsigned char share_b[PCRYPTO_SHARE], int n_cards)
{
	struct ec e;
	EC_POINT **p = NULL;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if ((p = pts_new(&e, 2)) && dec(&e, share_a, p[0]) == 0 &&
	    dec(&e, share_b, p[1]) == 0)
		ret = unmask_points(&e, ct, p[0], p[1], n_cards);
	pts_free(p, 2);
	ec_close(&e);
	return ret;
}

int pcrypto_unmask_own(const struct pcrypto_secret *sk,
		       const unsigned char ct[PCRYPTO_CT],
		       const unsigned char other[PCRYPTO_SHARE], int n_cards)
{
	struct ec e;
	EC_POINT **p = NULL;		/* C1 then D_own, D_other */
	BIGNUM *x = NULL;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if ((p = pts_new(&e, 2)) && (x = BN_secure_new()) &&
	    BN_bin2bn(sk->mask, 32, x) && dec(&e, ct, p[0]) == 0 &&
	    mul(&e, p[0], p[0], x) == 0 && dec(&e, other, p[1]) == 0)
		ret = unmask_points(&e, ct, p[0], p[1], n_cards);
	BN_clear_free(x);
	pts_free(p, 2);
	ec_close(&e);
	return ret;
}

/* ---- Signatures (3.6) ------------------------------------------------------- */

/* front = "postrider-peer-sign" || pt(Y); back = SHA256(msg) */
static int sign_parts(const unsigned char pk[PT], const void *msg, size_t len,
		      struct strbuf *front, struct strbuf *back)
{
	unsigned char h[32];

	if (sha256(msg, len, NULL, 0, h) < 0)
		return -1;
	add_str(front, "postrider-peer-sign");
	strbuf_add(front, pk, PT);
	strbuf_add(back, h, 32);
	return 0;
}

int pcrypto_sign(const struct pcrypto_secret *sk, const void *msg, size_t len,
		 unsigned char sig[PCRYPTO_PROOF])
{
	struct strbuf front = STRBUF_INIT, back = STRBUF_INIT, nm = STRBUF_INIT;
	unsigned char pk[PT];
	struct ec e;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if (vrf_public_key(sk->sign, pk) == 0 &&
	    sign_parts(pk, msg, len, &front, &back) == 0) {
		add_str(&nm, "postrider-peer-sign-nonce");
		strbuf_add(&nm, front.buf, front.len);
		strbuf_add(&nm, back.buf, back.len);
		ret = schnorr_prove(&e, sk->sign, sk->rand, &nm, &front, &back, sig);
	}
	strbuf_release(&front);
	strbuf_release(&back);
	strbuf_release(&nm);
	ec_close(&e);
	return ret;
}

int pcrypto_sign_verify(const unsigned char pk[PCRYPTO_PT], const void *msg,
			size_t len, const unsigned char sig[PCRYPTO_PROOF])
{
	struct strbuf front = STRBUF_INIT, back = STRBUF_INIT;
	struct ec e;
	int ret = -1;

	if (ec_open(&e) < 0)
		return -1;
	if (sign_parts(pk, msg, len, &front, &back) == 0)
		ret = schnorr_verify(&e, pk, &front, &back, sig);
	strbuf_release(&front);
	strbuf_release(&back);
	ec_close(&e);
	return ret;
}

/* ---- Dice (5.1, 5.2) ------------------------------------------------------- */

size_t pcrypto_dice_alpha(const char *game, int side, const unsigned char *oid,
			  size_t oid_len, unsigned char out[PCRYPTO_ALPHA_MAX])
{
	static const char label[] = "postrider-peer-dice";
	size_t glen = game ? strlen(game) : 0, n = sizeof(label) - 1;

	if (glen < 1 || glen > 255 || oid_len < 1 || oid_len > 64 ||
	    (side != 1 && side != 2))
		return 0;
	memcpy(out, label, n);
	out[n++] = (unsigned char)glen;
	memcpy(out + n, game, glen);
	n += glen;
	out[n++] = (unsigned char)side;
	out[n++] = (unsigned char)oid_len;
	memcpy(out + n, oid, oid_len);
	return n + oid_len;
}

int pcrypto_dice_key(const unsigned char beta_american[32],
		     const unsigned char beta_british[32],
		     unsigned char key[32])
{
	static const char label[] = "postrider-peer-dice-key";
	unsigned char m[sizeof(label) - 1 + 64];

	memcpy(m, label, sizeof(label) - 1);
	memcpy(m + sizeof(label) - 1, beta_american, 32);
	memcpy(m + sizeof(label) - 1 + 32, beta_british, 32);
	return sha256(m, sizeof(m), NULL, 0, key);
}
