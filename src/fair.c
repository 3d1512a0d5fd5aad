/*
 * fair.c - the seed, its commitment, tokens, sealing and hand commitments
 * (docs/fairness.md). Only fair_new_seed() touches the operating system.
 */
#include "fair.h"
#include "codec.h"
#include "vrf.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#define SEAL_MAX_PLAIN ((size_t)1 << 30)
#define SEAL_TAG_BYTES 16
#define SEAL_NONCE_BYTES 12
#define SEAL_LINE_BYTES 57	/* 76 base64 characters a line */

static const char commit_label[] = "postrider-commitment";
static const char token_key_label[] = "postrider-key-token";
static const char seal_key_label[] = "postrider-key-seal";
static const char hand_key_label[] = "postrider-key-hand";
static const char vrf_key_label[] = "postrider-key-vrf";
static const char token_label[] = "postrider-token";
static const char hand_label[] = "postrider-hand-salt";
static const char seal_nonce_label[] = "postrider-key-seal-nonce";
/* The sealed formats (docs/fairness.md section 9): v4, padded to a size
 * class for each side's sealed texts, is written; v3 (padded, one class
 * for both sides) and v2 (unpadded) are still opened and, for the audit
 * of an older game, reproduced. The labels differ only in the digit. */
static const char seal_header_fmt[] = "postrider-sealed v%d seq ";
static const char seal_aad_fmt[] = "postrider-sealed v%d";
#define SEAL_LABEL_BYTES 19	/* "postrider-sealed vN" */
#define SEAL_HEADER_BYTES 24	/* "postrider-sealed vN seq " */
static const char base32_alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";


/* SHA-256(a || b) into out[32]; a libcrypto failure is a BUG. */
static void sha256_2(const void *a, size_t alen, const void *b, size_t blen,
		     unsigned char out[32])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int outlen = 0;

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(ctx, a, alen) ||
	    !EVP_DigestUpdate(ctx, b, blen) ||
	    !EVP_DigestFinal_ex(ctx, out, &outlen) || outlen != 32)
		BUG("SHA-256 failed");
	EVP_MD_CTX_free(ctx);
}

/* K = HMAC-SHA256(seed, label): the key of one purpose. */
static void derive_key(const unsigned char seed[FAIR_SEED_BYTES],
		       const char *label, unsigned char key[32])
{
	codec_hmac_sha256(seed, FAIR_SEED_BYTES, label, strlen(label), key);
}

static void check_side(int side)
{
	if (side != 1 && side != 2)
		BUG("side %d is neither 1 (American) nor 2 (British)", side);
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\v' || c == '\f';
}

/*
 * Decodes exactly 2*len hex digits surrounded by optional white space.
 * Returns 0 or -1.
 */
static int parse_hex_trimmed(const char *text, unsigned char *out, size_t len)
{
	size_t n = 0;

	if (!text)
		return -1;
	while (is_space((unsigned char)*text))
		text++;
	while (text[n] && !is_space((unsigned char)text[n]))
		n++;
	if (n != 2 * len || hex_decode(text, out, len) < 0)
		return -1;
	for (text += n; *text; text++)
		if (!is_space((unsigned char)*text))
			return -1;
	return 0;
}

int fair_new_seed(unsigned char seed[FAIR_SEED_BYTES])
{
	size_t got = 0;

	while (got < FAIR_SEED_BYTES) {
		ssize_t n = getrandom(seed + got, FAIR_SEED_BYTES - got, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error("cannot draw a random seed: getrandom: %s",
				     strerror(errno));
		}
		got += (size_t)n;
	}
	return 0;
}

int fair_seed_parse(const char *text, unsigned char seed[FAIR_SEED_BYTES])
{
	return parse_hex_trimmed(text, seed, FAIR_SEED_BYTES);
}

void fair_seed_format(const unsigned char seed[FAIR_SEED_BYTES],
		      char hex[FAIR_SEED_HEX])
{
	hex_encode(seed, FAIR_SEED_BYTES, hex);
}

void fair_commitment(const unsigned char seed[FAIR_SEED_BYTES],
		     char hex[FAIR_COMMIT_HEX])
{
	unsigned char h[32];

	sha256_2(commit_label, sizeof(commit_label) - 1, seed,
		 FAIR_SEED_BYTES, h);
	hex_encode(h, sizeof(h), hex);
}

bool fair_commitment_matches(const unsigned char seed[FAIR_SEED_BYTES],
			     const char *hex)
{
	unsigned char want[32], h[32];

	if (parse_hex_trimmed(hex, want, sizeof(want)) < 0)
		return false;
	sha256_2(commit_label, sizeof(commit_label) - 1, seed,
		 FAIR_SEED_BYTES, h);
	return CRYPTO_memcmp(want, h, sizeof(h)) == 0;
}

void fair_token(const unsigned char seed[FAIR_SEED_BYTES], const char *game_id,
		uint64_t seq, int side, char out[FAIR_TOKEN_SIZE])
{
	size_t idlen = strlen(game_id);
	size_t lablen = sizeof(token_label) - 1;
	size_t msglen = lablen + 4 + idlen + 8 + 1;
	unsigned char key[32], mac[32], *msg;
	uint64_t x = 0;
	char *o = out;

	check_side(side);
	if (idlen > UINT32_MAX)
		BUG("game id of %zu bytes", idlen);
	msg = xmalloc(msglen);
	memcpy(msg, token_label, lablen);
	put_be32(msg + lablen, (uint32_t)idlen);
	memcpy(msg + lablen + 4, game_id, idlen);
	put_be64(msg + lablen + 4 + idlen, seq);
	msg[msglen - 1] = (unsigned char)side;

	derive_key(seed, token_key_label, key);
	codec_hmac_sha256(key, sizeof(key), msg, msglen, mac);
	OPENSSL_cleanse(key, sizeof(key));
	free(msg);
	for (int i = 0; i < 8; i++)
		x = x << 8 | mac[i];
	for (int k = 0; k < 12; k++) {
		if (k == 4 || k == 8)
			*o++ = '-';
		*o++ = base32_alphabet[(x >> (59 - 5 * k)) & 31];
	}
	*o = '\0';
}

/*
 * Copies the significant characters of a token (no '-', space or tab),
 * lowercased, into buf[64] zero-padded. Returns their number, or -1 for
 * more than 64.
 */
static int token_normalise(const char *s, unsigned char buf[64])
{
	int n = 0;

	memset(buf, 0, 64);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '-' || c == ' ' || c == '\t')
			continue;
		if (n == 64)
			return -1;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		buf[n++] = c;
	}
	return n;
}

bool fair_token_equal(const char *a, const char *b)
{
	unsigned char na[64], nb[64];
	int la, lb;

	if (!a || !b)
		return false;
	la = token_normalise(a, na);
	lb = token_normalise(b, nb);
	if (la <= 0 || lb <= 0 || la != lb)
		return false;
	return CRYPTO_memcmp(na, nb, sizeof(na)) == 0;
}

/* Appends the canonical sealed text of seq in format fmt and the bytes
 * data[0..len-1]. */
static void seal_render(int fmt, uint64_t seq, const unsigned char *data,
			size_t len, struct strbuf *out)
{
	strbuf_addf(out, seal_header_fmt, fmt);
	strbuf_addf(out, "%" PRIu64 "\n", seq);
	codec_base64_lines(data, len, "\n", out);
}

/* The AAD of seq in format fmt (docs/fairness.md, "Sealing"). */
static void seal_aad(int fmt, uint64_t seq,
		     unsigned char aad[SEAL_LABEL_BYTES + 8])
{
	char label[SEAL_LABEL_BYTES + 12];	/* room for any int */

	snprintf(label, sizeof(label), seal_aad_fmt, fmt);
	memcpy(aad, label, SEAL_LABEL_BYTES);
	put_be64(aad + SEAL_LABEL_BYTES, seq);
}

/* Format v3's plain text: u32be(len) || plain || zero bytes, size bytes
 * in all (allocated). */
static unsigned char *seal_pad(const char *plain, size_t len, size_t size)
{
	unsigned char *p = xcalloc(1, size);

	put_be32(p, (uint32_t)len);
	if (len)
		memcpy(p + 4, plain, len);
	return p;
}

/* The inverse: the text inside a v3 plain text, if the padding is what
 * seal_pad() writes (a length that fits, zero bytes after the text). */
static bool seal_unpad(const unsigned char *p, size_t size,
		       const unsigned char **text, size_t *len)
{
	size_t n;

	if (size < 4)
		return false;
	n = ((size_t)p[0] << 24) | ((size_t)p[1] << 16) | ((size_t)p[2] << 8) | p[3];
	if (n > size - 4)
		return false;
	for (size_t i = 4 + n; i < size; i++)
		if (p[i])
			return false;
	*text = p + 4;
	*len = n;
	return true;
}

int fair_seal_format(const char *sealed, size_t len)
{
	char head[SEAL_HEADER_BYTES + 16];	/* room for any int */

	for (int fmt = FAIR_SEAL_V2; fmt <= FAIR_SEAL_V4; fmt++) {
		snprintf(head, sizeof(head), seal_header_fmt, fmt);
		if (len >= SEAL_HEADER_BYTES && !memcmp(sealed, head, SEAL_HEADER_BYTES))
			return fmt;
	}
	return 0;
}

/*
 * The nonce of a sealing: the first 12 bytes of HMAC-SHA256(K_nonce,
 * u64be(seq) || plain) in formats v2 and v3, and of HMAC-SHA256(K_nonce,
 * aad || plain) in v4, whose aad names the format as well as seq. Two
 * different plain texts never share a nonce (short of a collision of 96
 * bits), even under one seq after a rewind, so no key and nonce ever seal
 * two texts (docs/fairness.md, "Sealing"); from v4 on, neither do two
 * formats seal one text under one nonce (a v3 parent and the v4 commit of
 * the host after it, which keeps its seq and its text), which would give
 * away GCM's authentication key.
 */
static void seal_nonce(const unsigned char seed[FAIR_SEED_BYTES], int fmt,
		       uint64_t seq, const void *plain, size_t len,
		       unsigned char nonce[SEAL_NONCE_BYTES])
{
	unsigned char key[32], mac[32];
	size_t head = fmt >= FAIR_SEAL_V4 ? SEAL_LABEL_BYTES + 8 : 8;
	unsigned char *msg = xmalloc(len + head);

	derive_key(seed, seal_nonce_label, key);
	if (fmt >= FAIR_SEAL_V4)
		seal_aad(fmt, seq, msg);
	else
		put_be64(msg, seq);
	if (len)
		memcpy(msg + head, plain, len);
	codec_hmac_sha256(key, sizeof(key), msg, len + head, mac);
	memcpy(nonce, mac, SEAL_NONCE_BYTES);
	OPENSSL_cleanse(msg, len + head);
	OPENSSL_cleanse(key, sizeof(key));
	free(msg);
}

int fair_seal(const unsigned char seed[FAIR_SEED_BYTES], uint64_t seq,
	      const char *plain, size_t len, size_t size, struct strbuf *out)
{
	return fair_seal_as(seed, seq, FAIR_SEAL_V4, plain, len, size, out);
}

int fair_seal_as(const unsigned char seed[FAIR_SEED_BYTES], uint64_t seq,
		 int fmt, const char *plain, size_t len, size_t size,
		 struct strbuf *out)
{
	unsigned char key[32], aad[SEAL_LABEL_BYTES + 8], nonce[12];
	unsigned char *ct, *padded = NULL;
	EVP_CIPHER_CTX *ctx;
	int outl = 0, ok;

	if (fmt != FAIR_SEAL_V2 && fmt != FAIR_SEAL_V3 && fmt != FAIR_SEAL_V4)
		BUG("no sealed format v%d", fmt);
	if (len > SEAL_MAX_PLAIN)
		return error("private state of %zu bytes is too large to seal",
			     len);
	if (fmt >= FAIR_SEAL_V3) {
		/* v3 and v4 differ only in their label: in the size their
		 * caller chooses (state_private_padded_size()) */
		if (!size)
			size = len + 4;
		if (size < len + 4 || size > SEAL_MAX_PLAIN)
			return error("cannot pad a private state of %zu bytes "
				     "to %zu", len, size);
		padded = seal_pad(plain, len, size);
		plain = (const char *)padded;
		len = size;
	}
	ct = xmalloc(SEAL_NONCE_BYTES + len + SEAL_TAG_BYTES);
	derive_key(seed, seal_key_label, key);
	seal_aad(fmt, seq, aad);
	seal_nonce(seed, fmt, seq, plain, len, nonce);
	memcpy(ct, nonce, SEAL_NONCE_BYTES);
	ct += SEAL_NONCE_BYTES;
	ctx = EVP_CIPHER_CTX_new();
	ok = ctx &&
	     EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) &&
	     EVP_EncryptInit_ex(ctx, NULL, NULL, key, nonce) &&
	     EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int)sizeof(aad));
	if (ok && len) {
		ok = EVP_EncryptUpdate(ctx, ct, &outl,
				       (const unsigned char *)plain, (int)len) &&
		     (size_t)outl == len;
	}
	if (ok)
		ok = EVP_EncryptFinal_ex(ctx, ct + len, &outl) && outl == 0 &&
		     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG,
					 SEAL_TAG_BYTES, ct + len);
	EVP_CIPHER_CTX_free(ctx);
	OPENSSL_cleanse(key, sizeof(key));
	if (padded) {
		OPENSSL_cleanse(padded, len);
		free(padded);
	}
	ct -= SEAL_NONCE_BYTES;
	if (!ok) {
		free(ct);
		return error("cannot seal the private state: AES-256-GCM failed");
	}
	seal_render(fmt, seq, ct, SEAL_NONCE_BYTES + len + SEAL_TAG_BYTES, out);
	free(ct);
	return 0;
}

/*
 * Decodes the body of a sealed text (base64 in lines, '=' padding) into
 * *out (allocated, *outlen bytes). Loose: the caller checks the canonical
 * form by rendering it again. Returns 0, or -1 with a message in err.
 */
static int seal_decode(const char *body, size_t len, unsigned char **out,
		       size_t *outlen, struct strbuf *err)
{
	struct strbuf bytes = STRBUF_INIT;
	size_t line = 2;
	bool padding = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)body[i];

		if (c == '\n') {
			line++;
		} else if (c == '=') {
			padding = true;
		} else if (padding || !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
					(c >= '0' && c <= '9') || c == '+' || c == '/')) {
			strbuf_addf(err, "sealed text: invalid base64 on "
				    "line %zu", line);
			return -1;
		}
	}
	codec_base64_decode(body, len, &bytes);
	*outlen = bytes.len;
	*out = xmalloc(bytes.len + 1);
	memcpy(*out, bytes.buf ? bytes.buf : "", bytes.len);
	strbuf_release(&bytes);
	return 0;
}

/* Parses a canonical decimal u64 from s[0..len-1]; 0 or -1. */
static int parse_u64(const char *s, size_t len, uint64_t *v)
{
	*v = 0;
	if (!len || len > 20 || (len > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned)(s[i] - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return -1;
		*v = *v * 10 + d;
	}
	return 0;
}

int fair_open(const unsigned char seed[FAIR_SEED_BYTES], uint64_t seq,
	      const char *sealed, size_t len, struct strbuf *plain,
	      struct strbuf *err)
{
	size_t hlen = SEAL_HEADER_BYTES, ctlen, datalen = 0, textlen = 0;
	unsigned char key[32], aad[SEAL_LABEL_BYTES + 8], nonce[12];
	unsigned char *data = NULL, *pt;
	const unsigned char *text = NULL;
	struct strbuf canon = STRBUF_INIT;
	const char *nl;
	EVP_CIPHER_CTX *ctx;
	uint64_t hseq;
	int outl = 0, ok, fmt = fair_seal_format(sealed, len);

	if (!fmt) {
		strbuf_addf(err, "not a sealed private state (expected a "
			    "'postrider-sealed v4', 'v3' or 'v2' header)");
		return -1;
	}
	nl = memchr(sealed + hlen, '\n', len - hlen);
	if (!nl || parse_u64(sealed + hlen, (size_t)(nl - sealed) - hlen,
			     &hseq) < 0) {
		strbuf_addf(err, "sealed text: malformed header line");
		return -1;
	}
	if (hseq != seq) {
		strbuf_addf(err, "sealed text is for seq %" PRIu64
			    ", expected seq %" PRIu64, hseq, seq);
		return -1;
	}
	if (len > (size_t)INT_MAX) {
		strbuf_addf(err, "sealed text of %zu bytes is too large", len);
		return -1;
	}
	nl++;
	if (seal_decode(nl, len - (size_t)(nl - sealed), &data, &datalen,
			err) < 0)
		return -1;
	seal_render(fmt, seq, data, datalen, &canon);
	if (canon.len != len || memcmp(canon.buf, sealed, len)) {
		strbuf_release(&canon);
		free(data);
		strbuf_addf(err, "sealed text for seq %" PRIu64 " is damaged "
			    "(not exactly as sealed)", seq);
		return -1;
	}
	strbuf_release(&canon);
	if (datalen < SEAL_NONCE_BYTES + SEAL_TAG_BYTES) {
		free(data);
		strbuf_addf(err, "sealed text for seq %" PRIu64 " is truncated",
			    seq);
		return -1;
	}

	ctlen = datalen - SEAL_NONCE_BYTES - SEAL_TAG_BYTES;
	pt = xmalloc(ctlen + 1);
	derive_key(seed, seal_key_label, key);
	seal_aad(fmt, seq, aad);
	memcpy(nonce, data, SEAL_NONCE_BYTES);
	ctx = EVP_CIPHER_CTX_new();
	ok = ctx &&
	     EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) &&
	     EVP_DecryptInit_ex(ctx, NULL, NULL, key, nonce) &&
	     EVP_DecryptUpdate(ctx, NULL, &outl, aad, (int)sizeof(aad));
	if (ok && ctlen)
		ok = EVP_DecryptUpdate(ctx, pt, &outl, data + SEAL_NONCE_BYTES,
				       (int)ctlen) &&
		     (size_t)outl == ctlen;
	if (ok)
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, SEAL_TAG_BYTES,
					 data + SEAL_NONCE_BYTES + ctlen) &&
		     EVP_DecryptFinal_ex(ctx, pt + ctlen, &outl) > 0;
	EVP_CIPHER_CTX_free(ctx);
	if (ok) {
		/* the nonce must be the one sealing derives from the text */
		unsigned char want[SEAL_NONCE_BYTES];
		seal_nonce(seed, fmt, seq, pt, ctlen, want);
		ok = CRYPTO_memcmp(want, nonce, SEAL_NONCE_BYTES) == 0;
	}
	OPENSSL_cleanse(key, sizeof(key));
	free(data);
	if (!ok) {
		OPENSSL_cleanse(pt, ctlen + 1);
		free(pt);
		strbuf_addf(err, "sealed private state for seq %" PRIu64
			    " does not authenticate: tampered with, or sealed "
			    "under another seed", seq);
		return -1;
	}
	text = pt;
	textlen = ctlen;
	if (fmt >= FAIR_SEAL_V3 && !seal_unpad(pt, ctlen, &text, &textlen)) {
		OPENSSL_cleanse(pt, ctlen + 1);
		free(pt);
		strbuf_addf(err, "sealed private state for seq %" PRIu64
			    " is not padded as sealing pads it", seq);
		return -1;
	}
	strbuf_add(plain, text, textlen);
	OPENSSL_cleanse(pt, ctlen + 1);
	free(pt);
	return 0;
}

/* The 16-byte salt of side's hand at seq. */
static void hand_salt(const unsigned char seed[FAIR_SEED_BYTES], uint64_t seq,
		      int side, unsigned char salt[16])
{
	unsigned char key[32], mac[32];
	unsigned char msg[sizeof(hand_label) - 1 + 8 + 1];

	memcpy(msg, hand_label, sizeof(hand_label) - 1);
	put_be64(msg + sizeof(hand_label) - 1, seq);
	msg[sizeof(msg) - 1] = (unsigned char)side;
	derive_key(seed, hand_key_label, key);
	codec_hmac_sha256(key, sizeof(key), msg, sizeof(msg), mac);
	memcpy(salt, mac, 16);
	OPENSSL_cleanse(key, sizeof(key));
	OPENSSL_cleanse(mac, sizeof(mac));
}

void fair_hand_commitment(const unsigned char seed[FAIR_SEED_BYTES],
			  uint64_t seq, int side, const char *hand_text,
			  char salt_hex[FAIR_SALT_HEX],
			  char hash_hex[FAIR_HASH_HEX])
{
	unsigned char salt[16], h[32];

	check_side(side);
	hand_salt(seed, seq, side, salt);
	sha256_2(salt, sizeof(salt), hand_text, strlen(hand_text), h);
	hex_encode(salt, sizeof(salt), salt_hex);
	hex_encode(h, sizeof(h), hash_hex);
}

bool fair_hand_proof_ok(const char *salt_hex, const char *hand_text,
			const char *hash_hex)
{
	unsigned char salt[16], want[32], h[32];

	if (!hand_text || parse_hex_trimmed(salt_hex, salt, sizeof(salt)) < 0 ||
	    parse_hex_trimmed(hash_hex, want, sizeof(want)) < 0)
		return false;
	sha256_2(salt, sizeof(salt), hand_text, strlen(hand_text), h);
	return CRYPTO_memcmp(want, h, sizeof(h)) == 0;
}

int fair_vrf_keys(const unsigned char seed[FAIR_SEED_BYTES],
		  unsigned char sk[32], unsigned char pk[33])
{
	unsigned char k[32], x[VRF_SK_BYTES];
	int ret;

	derive_key(seed, vrf_key_label, k);
	ret = vrf_secret_key(k, x) < 0 || vrf_public_key(x, pk) < 0 ? -1 : 0;
	if (!ret && sk)
		memcpy(sk, x, VRF_SK_BYTES);
	OPENSSL_cleanse(k, sizeof(k));
	OPENSSL_cleanse(x, sizeof(x));
	return ret;
}
