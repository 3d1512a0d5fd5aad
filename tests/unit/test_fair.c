/*
 * test_fair.c - seeds, the commitment, tokens, sealing and hand
 * commitments: the vectors of docs/fairness.md and the properties behind
 * them.
 *
 * `test_fair --vectors` prints the vector block of docs/fairness.md
 * section 11 as computed by the C code, and `test_fair --seal-vector` the
 * sealing vector; tests/e2e/t-fairness-vectors.sh compares both with the
 * document and with the independent Python verifier.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "codec.h"
#include "fair.h"
#include "rng.h"

static void vector_seed(unsigned char seed[32])
{
	for (int i = 0; i < 32; i++)
		seed[i] = (unsigned char)i;
}

static const char seal_vector_plain[] =
	"deck: [3, 1, 2]\nhands:\n  american: [12, 45]\n  british: [7, 88, 101]\n";
/* Format v4 (padded to 4096 bytes; the nonce keyed by the aad): 5600
 * bytes in 74 lines, computed independently with Python's cryptography
 * package (docs/fairness.md 11). */
static const char seal_v4_first_lines[] =
	"postrider-sealed v4 seq 12\n"
	"nV4M/rtxWMRGLi+jqhLtZ1gKnhLTkQ2ec2gVGw4s2vOwSOwiu6LVbLv63wcCCBOqwJdNqbC6nqbZ\n";
static const char seal_v4_last_line[] = "IRxsCeiQrFh7D+9cVqiN8skb4Ys=\n";
static const char seal_v4_sha256[] =
	"2d9121a271e833563861f9cdc038e518a4c86f335682f05dde867becad26db8f";
/* Format v3 (padded to 4096 bytes), as games sealed before issue 39 hold
 * it: 5600 bytes in 74 lines, computed the same way. */
static const char seal_v3_first_lines[] =
	"postrider-sealed v3 seq 12\n"
	"G5fcl2ExFRTOYI8LCFTsTpDd7OdZC0eVM4anV4geuUUUck8giEUdRfAQKBFi2GtVmjdWLIpS4jEu\n";
static const char seal_v3_last_line[] = "O1rCoXgH6rtKZWVL9BbkKvog8rY=\n";
static const char seal_v3_sha256[] =
	"45f80c9602d62ce4a09957733630431786a0cf3be647779faccd3f483f9493c7";
/* Format v2 (unpadded), as games sealed before the padding hold it. */
static const char seal_vector_text[] =
	"postrider-sealed v2 seq 12\n"
	"sX/UpnauBheN7irpoWQJtvhBinhs7p2/el8EK677Dl/u6VLtsZqz98Y4hVCSkNE4Ldd+Wqse3rH1\n"
	"9NDuQM3ujBy+5kydkRnbMvilHAiKf9dEcyGBsfFa0XlkDhUjjTsS\n";

/* SHA-256(a || b) in hex, computed here rather than by fair.c. */
static void sha256_hex(const void *a, size_t alen, const void *b, size_t blen,
		       char hex[65])
{
	unsigned char buf[256], h[32];
	unsigned int len = 0;

	assert_true(alen + blen <= sizeof(buf));
	memcpy(buf, a, alen);
	memcpy(buf + alen, b, blen);
	assert_int_equal(EVP_Digest(buf, alen + blen, h, &len, EVP_sha256(),
				    NULL), 1);
	hex_encode(h, 32, hex);
}

/* SHA-256 of any text in hex (sha256_hex takes short inputs only). */
static void sha256_text_hex(const char *t, size_t len, char hex[65])
{
	unsigned char h[32];
	unsigned int n = 0;

	assert_int_equal(EVP_Digest(t, len, h, &n, EVP_sha256(), NULL), 1);
	hex_encode(h, 32, hex);
}

static void test_seed_text(void **state)
{
	unsigned char seed[32], back[32];
	char hex[FAIR_SEED_HEX];

	(void)state;
	vector_seed(seed);
	fair_seed_format(seed, hex);
	assert_string_equal(hex, "000102030405060708090a0b0c0d0e0f"
				 "101112131415161718191a1b1c1d1e1f");
	assert_int_equal(fair_seed_parse(hex, back), 0);
	assert_memory_equal(seed, back, 32);
	assert_int_equal(fair_seed_parse("  000102030405060708090A0B0C0D0E0F"
					 "101112131415161718191A1B1C1D1E1F\n",
					 back), 0);
	assert_memory_equal(seed, back, 32);

	assert_int_equal(fair_seed_parse("", back), -1);
	assert_int_equal(fair_seed_parse(NULL, back), -1);
	assert_int_equal(fair_seed_parse("0001", back), -1);
	/* 63 and 65 digits */
	assert_int_equal(fair_seed_parse(hex + 1, back), -1);
	char longer[80];
	snprintf(longer, sizeof(longer), "%s0", hex);
	assert_int_equal(fair_seed_parse(longer, back), -1);
	snprintf(longer, sizeof(longer), "%s x", hex);
	assert_int_equal(fair_seed_parse(longer, back), -1);
	snprintf(longer, sizeof(longer), "%s", hex);
	longer[10] = 'g';
	assert_int_equal(fair_seed_parse(longer, back), -1);
	longer[10] = ' ';
	assert_int_equal(fair_seed_parse(longer, back), -1);
}

static void test_new_seed(void **state)
{
	unsigned char a[32], b[32], zero[32] = { 0 };

	(void)state;
	assert_int_equal(fair_new_seed(a), 0);
	assert_int_equal(fair_new_seed(b), 0);
	assert_memory_not_equal(a, b, 32);
	assert_memory_not_equal(a, zero, 32);
}

static void test_commitment(void **state)
{
	unsigned char seed[32];
	char hex[FAIR_COMMIT_HEX], by_hand[65];

	(void)state;
	vector_seed(seed);
	fair_commitment(seed, hex);
	assert_string_equal(hex, "3acbd4747869c0b5e48a0c0556c1f5b0"
				 "525930d9c2f057a193476beca37ecf72");
	sha256_hex("postrider-commitment", 20, seed, 32, by_hand);
	assert_string_equal(hex, by_hand);
	assert_true(fair_commitment_matches(seed, hex));
	assert_true(fair_commitment_matches(seed,
		" 3ACBD4747869C0B5E48A0C0556C1F5B0"
		"525930D9C2F057A193476BECA37ECF72\n"));
	assert_false(fair_commitment_matches(seed, "3acb"));
	assert_false(fair_commitment_matches(seed, NULL));
	seed[0] ^= 1;
	assert_false(fair_commitment_matches(seed, hex));
}

static void test_token_vector(void **state)
{
	unsigned char seed[32];
	char t[FAIR_TOKEN_SIZE];

	(void)state;
	vector_seed(seed);
	fair_token(seed, "test-game", 1, 1, t);
	assert_string_equal(t, "vs67-6bca-g65a");
	fair_token(seed, "test-game", 1, 2, t);
	assert_string_equal(t, "e3o7-ielh-edhn");
}

static void test_token_shape_and_variety(void **state)
{
	unsigned char seed[32];
	char t[FAIR_TOKEN_SIZE], u[FAIR_TOKEN_SIZE];

	(void)state;
	vector_seed(seed);
	for (uint64_t seq = 0; seq < 50; seq++) {
		fair_token(seed, "g", seq, 1, t);
		assert_int_equal(strlen(t), 14);
		for (int i = 0; i < 14; i++) {
			if (i == 4 || i == 9)
				assert_int_equal(t[i], '-');
			else
				assert_non_null(strchr(
					"abcdefghijklmnopqrstuvwxyz234567",
					t[i]));
		}
		fair_token(seed, "g", seq, 2, u);
		assert_string_not_equal(t, u);
		fair_token(seed, "g", seq + 1, 1, u);
		assert_string_not_equal(t, u);
		fair_token(seed, "h", seq, 1, u);
		assert_string_not_equal(t, u);
	}
	/* the length prefix keeps "ab" + seq apart from "a" + other bytes */
	fair_token(seed, "", 0, 1, t);
	assert_int_equal(strlen(t), 14);
}

static void test_token_equal(void **state)
{
	(void)state;
	assert_true(fair_token_equal("k3x9-2mfa-p7q1", "k3x9-2mfa-p7q1"));
	assert_true(fair_token_equal("k3x9-2mfa-p7q1", "K3X9-2MFA-P7Q1"));
	assert_true(fair_token_equal("k3x9-2mfa-p7q1", "k3x92mfap7q1"));
	assert_true(fair_token_equal("k3x9-2mfa-p7q1", " k3x9 2mfa\tp7q1 "));
	assert_true(fair_token_equal("k3x9-2mfa-p7q1", "k3x9--2mfa---p7q1-"));
	assert_true(fair_token_equal("k3x92mfap7q1", "-K3x9 2mFa P7q1"));
	assert_false(fair_token_equal("k3x9-2mfa-p7q1", "k3x9-2mfa-p7q2"));
	assert_false(fair_token_equal("k3x9-2mfa-p7q1", "k3x9-2mfa-p7q"));
	assert_false(fair_token_equal("k3x9-2mfa-p7q1", "k3x9-2mfa-p7q1a"));
	assert_false(fair_token_equal("k3x9-2mfa-p7q1", "l3x9-2mfa-p7q1"));
	assert_false(fair_token_equal("k3x9-2mfa-p7q1", ""));
	assert_false(fair_token_equal("", ""));
	assert_false(fair_token_equal("- -", "--"));
	assert_false(fair_token_equal(NULL, "k3x9"));
	assert_false(fair_token_equal("k3x9", NULL));
	char huge[200];
	memset(huge, 'a', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	assert_false(fair_token_equal(huge, huge));
}

static void test_hand_vector(void **state)
{
	unsigned char seed[32];
	char salt[FAIR_SALT_HEX], hash[FAIR_HASH_HEX], by_hand[65];
	unsigned char salt_bin[16];

	(void)state;
	vector_seed(seed);
	fair_hand_commitment(seed, 3, 2, "12\n45\n67\n", salt, hash);
	assert_string_equal(salt, "8c7fea0b15001f9652291323074c6597");
	assert_string_equal(hash, "aadc14289b7144d64c88fcc732c7a6b8"
				  "6edf200dc7209c1bc31d380529226477");
	assert_int_equal(hex_decode(salt, salt_bin, 16), 0);
	sha256_hex(salt_bin, 16, "12\n45\n67\n", 9, by_hand);
	assert_string_equal(hash, by_hand);

	assert_true(fair_hand_proof_ok(salt, "12\n45\n67\n", hash));
	assert_false(fair_hand_proof_ok(salt, "12\n45\n68\n", hash));
	assert_false(fair_hand_proof_ok(salt, "12\n45\n67", hash));
	assert_false(fair_hand_proof_ok("8c7f", "12\n45\n67\n", hash));
	assert_false(fair_hand_proof_ok(salt, "12\n45\n67\n", "aadc"));
	assert_false(fair_hand_proof_ok(salt, NULL, hash));
	salt[0] = '9';
	assert_false(fair_hand_proof_ok(salt, "12\n45\n67\n", hash));
}

static void test_hand_salts_differ(void **state)
{
	unsigned char seed[32];
	char s1[FAIR_SALT_HEX], s2[FAIR_SALT_HEX], h1[65], h2[65];

	(void)state;
	vector_seed(seed);
	fair_hand_commitment(seed, 3, 1, "", s1, h1);
	fair_hand_commitment(seed, 3, 2, "", s2, h2);
	assert_string_not_equal(s1, s2);
	assert_string_not_equal(h1, h2);
	fair_hand_commitment(seed, 4, 1, "", s2, h2);
	assert_string_not_equal(s1, s2);
	fair_hand_commitment(seed, 3, 1, "", s2, h2);
	assert_string_equal(s1, s2);
	assert_string_equal(h1, h2);
}

static void assert_open_fails(const unsigned char seed[32], uint64_t seq,
			      const char *text, size_t len,
			      const char *expect_in_message);

static void test_seal_vector(void **state)
{
	unsigned char seed[32];
	struct strbuf out = STRBUF_INIT, plain = STRBUF_INIT, err = STRBUF_INIT;
	char hex[65];

	(void)state;
	vector_seed(seed);
	/* v4, what fair_seal() writes */
	assert_int_equal(fair_seal(seed, 12, seal_vector_plain,
				   strlen(seal_vector_plain), 4096, &out), 0);
	assert_int_equal(out.len, 5600);
	assert_memory_equal(out.buf, seal_v4_first_lines, strlen(seal_v4_first_lines));
	assert_string_equal(out.buf + out.len - strlen(seal_v4_last_line), seal_v4_last_line);
	sha256_text_hex(out.buf, out.len, hex);
	assert_string_equal(hex, seal_v4_sha256);
	assert_int_equal(fair_seal_format(out.buf, out.len), FAIR_SEAL_V4);
	assert_int_equal(fair_open(seed, 12, out.buf, out.len, &plain, &err),
			 0);
	assert_string_equal(strbuf_str(&plain), seal_vector_plain);
	assert_int_equal(err.len, 0);
	/* v3, still opened and reproduced */
	strbuf_reset(&out);
	strbuf_reset(&plain);
	assert_int_equal(fair_seal_as(seed, 12, FAIR_SEAL_V3, seal_vector_plain,
				      strlen(seal_vector_plain), 4096, &out), 0);
	assert_int_equal(out.len, 5600);
	assert_memory_equal(out.buf, seal_v3_first_lines, strlen(seal_v3_first_lines));
	assert_string_equal(out.buf + out.len - strlen(seal_v3_last_line), seal_v3_last_line);
	sha256_text_hex(out.buf, out.len, hex);
	assert_string_equal(hex, seal_v3_sha256);
	assert_int_equal(fair_seal_format(out.buf, out.len), FAIR_SEAL_V3);
	assert_int_equal(fair_open(seed, 12, out.buf, out.len, &plain, &err),
			 0);
	assert_string_equal(strbuf_str(&plain), seal_vector_plain);
	assert_int_equal(err.len, 0);
	/* v2, still opened and reproduced */
	strbuf_reset(&out);
	strbuf_reset(&plain);
	assert_int_equal(fair_seal_as(seed, 12, FAIR_SEAL_V2, seal_vector_plain,
				      strlen(seal_vector_plain), 0, &out), 0);
	assert_string_equal(strbuf_str(&out), seal_vector_text);
	assert_int_equal(fair_seal_format(out.buf, out.len), FAIR_SEAL_V2);
	assert_int_equal(fair_open(seed, 12, out.buf, out.len, &plain, &err),
			 0);
	assert_string_equal(strbuf_str(&plain), seal_vector_plain);
	assert_int_equal(err.len, 0);
	strbuf_release(&out);
	strbuf_release(&plain);
	strbuf_release(&err);
}

/*
 * Issue 28.4: the size of a sealed state follows the size it is padded
 * to, never the length of its text; a size too small is refused.
 */
static void test_seal_sizes(void **state)
{
	static const size_t sizes[] = { 0, 1, 655, 669, 1500, 4091, 4092 };
	unsigned char seed[32];
	char *text = xmalloc(5000);
	size_t first = 0;

	(void)state;
	vector_seed(seed);
	memset(text, 'x', 5000);
	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct strbuf s = STRBUF_INIT, plain = STRBUF_INIT, err = STRBUF_INIT;
		assert_int_equal(fair_seal(seed, 7, text, sizes[k], 4096, &s), 0);
		if (!k)
			first = s.len;
		assert_int_equal(s.len, first);
		assert_int_equal(fair_open(seed, 7, s.buf, s.len, &plain, &err), 0);
		assert_int_equal(plain.len, sizes[k]);
		strbuf_release(&s);
		strbuf_release(&plain);
		strbuf_release(&err);
	}
	{
		struct strbuf s = STRBUF_INIT, t = STRBUF_INIT;
		/* no room for the text and its length: refused, nothing written */
		assert_int_equal(fair_seal(seed, 7, text, 4093, 4096, &s), -1);
		assert_int_equal(s.len, 0);
		/* size 0: the text and its length, no more */
		assert_int_equal(fair_seal(seed, 7, text, 10, 0, &s), 0);
		assert_int_equal(fair_seal(seed, 7, text, 10, 14, &t), 0);
		assert_string_equal(s.buf, t.buf);
		strbuf_release(&s);
		strbuf_release(&t);
	}
	free(text);
}

/* A v3 text whose padding is not what sealing writes does not open,
 * even with a valid tag (sealed here by hand with the real key). */
static void test_seal_bad_padding(void **state)
{
	unsigned char seed[32], key[32], nonce[12], knonce[32], mac[32];
	unsigned char pt[4096], msg[8 + 4096], ct[12 + 4096 + 16], aad[27];
	const char *bad[] = { "length", "nonzero" };

	(void)state;
	vector_seed(seed);
	HMAC(EVP_sha256(), seed, 32, (const unsigned char *)"postrider-key-seal", 18, key, NULL);
	HMAC(EVP_sha256(), seed, 32, (const unsigned char *)"postrider-key-seal-nonce", 24,
	     knonce, NULL);
	for (size_t b = 0; b < ARRAY_SIZE(bad); b++) {
		struct strbuf s = STRBUF_INIT;
		size_t n = 4096;
		int outl = 0;
		EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

		memset(pt, 0, sizeof(pt));
		pt[3] = 5;
		memcpy(pt + 4, "hello", 5);
		if (b == 0)
			pt[2] = 0x10;	/* a length beyond the text */
		if (b == 1)
			pt[4000] = 1;	/* a byte of padding not zero */
		memset(msg, 0, 8);
		msg[7] = 9;
		memcpy(msg + 8, pt, n);
		HMAC(EVP_sha256(), knonce, 32, msg, 8 + n, mac, NULL);
		memcpy(nonce, mac, 12);
		memcpy(aad, "postrider-sealed v3", 19);
		memset(aad + 19, 0, 8);
		aad[26] = 9;
		memcpy(ct, nonce, 12);
		assert_true(EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, nonce));
		assert_true(EVP_EncryptUpdate(ctx, NULL, &outl, aad, 27));
		assert_true(EVP_EncryptUpdate(ctx, ct + 12, &outl, pt, (int)n));
		assert_true(EVP_EncryptFinal_ex(ctx, ct + 12 + n, &outl));
		assert_true(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, ct + 12 + n));
		EVP_CIPHER_CTX_free(ctx);
		strbuf_addstr(&s, "postrider-sealed v3 seq 9\n");
		codec_base64_lines(ct, 12 + n + 16, "\n", &s);
		assert_open_fails(seed, 9, s.buf, s.len, "not padded");
		strbuf_release(&s);
	}
}

/* Decodes the base64 body of a sealed text into out; returns its length. */
static size_t sealed_bytes(const struct strbuf *s, unsigned char *out, size_t max)
{
	const char *p = strchr(s->buf, '\n') + 1;
	char *flat = xmalloc(s->len + 1);
	size_t n = 0;
	int len;

	for (; *p; p++)
		if (*p != '\n')
			flat[n++] = *p;
	flat[n] = '\0';
	assert_true(n / 4 * 3 <= max);
	len = EVP_DecodeBlock(out, (const unsigned char *)flat, (int)n);
	assert_true(len >= 0);
	while (n && flat[--n] == '=')
		len--;
	free(flat);
	return (size_t)len;
}

/*
 * Issue 12.3: a host rewinds a mailed turn and plays a different order
 * under the same seq. The two sealed texts must share no keystream: with
 * the nonce from seq alone, XOR of cipher and plain text would be the
 * same in both, and two reports would give away the deck.
 */
static void test_seal_rewind_shares_no_keystream(void **state)
{
	static unsigned char a[8192], b[8192];
	unsigned char seed[32];
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	const char *pa = "deck: [5, 9, 77, 31, 2, 64]\nhands: {american: [1], british: [8]}\n";
	const char *pb = "deck: [9, 5, 77, 31, 2, 64]\nhands: {american: [8], british: [1]}\n";
	size_t la, lb, n = strlen(pa);

	(void)state;
	vector_seed(seed);
	assert_int_equal(strlen(pb), n);
	assert_int_equal(fair_seal(seed, 40, pa, n, 4096, &sa), 0);
	assert_int_equal(fair_seal(seed, 40, pb, n, 4096, &sb), 0);
	la = sealed_bytes(&sa, a, sizeof(a));
	lb = sealed_bytes(&sb, b, sizeof(b));
	/* the nonce, the padded text (its length, the text, zero bytes to
	 * 4096) and the tag */
	assert_int_equal(la, 12 + 4096 + 16);
	assert_int_equal(lb, la);
	/* the nonces differ, and so do the keystreams (cipher XOR plain) */
	assert_memory_not_equal(a, b, 12);
	int same = 0;
	for (size_t i = 0; i < n; i++)
		same += (a[12 + 4 + i] ^ (unsigned char)pa[i]) ==
			(b[12 + 4 + i] ^ (unsigned char)pb[i]);
	/* the padding too: equal zero bytes, other keystreams */
	for (size_t i = 12 + 4 + n; i < 12 + 4096; i++)
		same += a[i] == b[i];
	/* one keystream would make all 4092 bytes equal; two give about 16 */
	assert_true(same < 4096 / 32);
	/* sealing the same text again gives the same bytes (reproducible) */
	strbuf_reset(&sb);
	assert_int_equal(fair_seal(seed, 40, pa, n, 4096, &sb), 0);
	assert_string_equal(sa.buf, sb.buf);
	strbuf_release(&sa);
	strbuf_release(&sb);
}

static void test_seal_round_trip(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 40, 41, 42, 56, 57, 58,
					114, 200, 1000, 5000 };
	unsigned char seed[32];
	char *text = xmalloc(5000);

	(void)state;
	vector_seed(seed);
	for (size_t i = 0; i < 5000; i++)
		text[i] = (char)(i * 7 + 3);
	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		struct strbuf plain = STRBUF_INIT, err = STRBUF_INIT;
		size_t n = sizes[k];

		assert_int_equal(fair_seal(seed, 1000 + k, text, n, n + 4 + k, &a), 0);
		assert_int_equal(fair_seal(seed, 1000 + k, text, n, n + 4 + k, &b), 0);
		/* deterministic: byte-identical commits */
		assert_int_equal(a.len, b.len);
		assert_memory_equal(a.buf, b.buf, a.len);
		/* lines of at most 76 characters, each ended by \n */
		assert_int_equal(a.buf[a.len - 1], '\n');
		for (char *p = strchr(a.buf, '\n') + 1; *p;) {
			char *nl = strchr(p, '\n');
			assert_non_null(nl);
			assert_true(nl - p <= 76 && nl > p);
			if (nl[1])
				assert_int_equal(nl - p, 76);
			p = nl + 1;
		}
		strbuf_addstr(&plain, "kept:");
		assert_int_equal(fair_open(seed, 1000 + k, a.buf, a.len,
					   &plain, &err), 0);
		assert_int_equal(plain.len, 5 + n);
		assert_memory_equal(plain.buf, "kept:", 5);
		if (n)
			assert_memory_equal(plain.buf + 5, text, n);
		strbuf_release(&a);
		strbuf_release(&b);
		strbuf_release(&plain);
		strbuf_release(&err);
	}
	free(text);
}

/* Asserts that opening text fails, leaving plain empty and err filled. */
static void assert_open_fails(const unsigned char seed[32], uint64_t seq,
			      const char *text, size_t len,
			      const char *expect_in_message)
{
	struct strbuf plain = STRBUF_INIT, err = STRBUF_INIT;

	assert_int_equal(fair_open(seed, seq, text, len, &plain, &err), -1);
	assert_int_equal(plain.len, 0);
	assert_true(err.len > 0);
	assert_null(strchr(err.buf, '\n'));
	if (expect_in_message && !strstr(err.buf, expect_in_message))
		fail_msg("message '%s' lacks '%s'", err.buf,
			 expect_in_message);
	strbuf_release(&plain);
	strbuf_release(&err);
}

static void test_seal_every_byte_tamper(void **state)
{
	static const unsigned char flips[] = { 0x01, 0x02, 0x20, 0x40, 0x80 };
	unsigned char seed[32];
	struct strbuf s = STRBUF_INIT;
	const char *plain = "deck: [3, 1, 2]\nhands:\n  american: [12, 45]\n"
			    "  british: [7, 88, 101]\n";
	int tried = 0;

	(void)state;
	vector_seed(seed);
	/* every byte of a v2 text; for v3 and v4 (the same code but for
	 * the padding, and 5600 bytes) every byte of their first lines and
	 * their last, and every 17th in between */
	for (int fmt = FAIR_SEAL_V2; fmt <= FAIR_SEAL_V4; fmt++) {
	strbuf_reset(&s);
	assert_int_equal(fair_seal_as(seed, 12, fmt, plain, strlen(plain), 4096, &s), 0);
	char *copy = xmalloc(s.len + 2);
	for (size_t i = 0; i < s.len; i++) {
		if (fmt >= FAIR_SEAL_V3 && i > 200 && i + 100 < s.len && i % 17)
			continue;
		/* flipped bits */
		for (size_t f = 0; f < ARRAY_SIZE(flips); f++) {
			memcpy(copy, s.buf, s.len);
			copy[i] = (char)((unsigned char)copy[i] ^ flips[f]);
			assert_open_fails(seed, 12, copy, s.len, NULL);
			tried++;
		}
		/* every other base64 character, and the padding */
		static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"abcdefghijklmnopqrstuvwxyz0123456789+/=";
		for (const char *c = b64; *c; c++) {
			if (*c == s.buf[i])
				continue;
			memcpy(copy, s.buf, s.len);
			copy[i] = *c;
			assert_open_fails(seed, 12, copy, s.len, NULL);
			tried++;
		}
		/* a byte removed, a byte inserted */
		memcpy(copy, s.buf, i);
		memcpy(copy + i, s.buf + i + 1, s.len - i - 1);
		assert_open_fails(seed, 12, copy, s.len - 1, NULL);
		memcpy(copy, s.buf, i);
		copy[i] = '\n';
		memcpy(copy + i + 1, s.buf + i, s.len - i);
		assert_open_fails(seed, 12, copy, s.len + 1, NULL);
		tried += 2;
	}
	/* appended bytes, a lost final newline, an empty text */
	memcpy(copy, s.buf, s.len);
	copy[s.len] = '\n';
	assert_open_fails(seed, 12, copy, s.len + 1, "damaged");
	assert_open_fails(seed, 12, s.buf, s.len - 1, "damaged");
	assert_open_fails(seed, 12, "", 0, "not a sealed");
	free(copy);
	}
	assert_true(tried > 1000);
	strbuf_release(&s);
}

static void test_seal_wrong_seq_and_seed(void **state)
{
	unsigned char seed[32], other[32];
	struct strbuf s = STRBUF_INIT, forged = STRBUF_INIT;
	const char *plain = "hands: secret\n";

	(void)state;
	vector_seed(seed);
	assert_int_equal(fair_seal(seed, 12, plain, strlen(plain), 0, &s), 0);
	assert_open_fails(seed, 13, s.buf, s.len,
			  "sealed text is for seq 12, expected seq 13");
	assert_open_fails(seed, 0, s.buf, s.len, "expected seq 0");

	/* the header rewritten to another seq: the AAD and nonce differ */
	strbuf_addstr(&forged, "postrider-sealed v3 seq 13\n");
	strbuf_addstr(&forged, strchr(s.buf, '\n') + 1);
	assert_open_fails(seed, 13, forged.buf, forged.len,
			  "does not authenticate");

	memcpy(other, seed, 32);
	other[0] ^= 0x80;
	assert_open_fails(other, 12, s.buf, s.len, "does not authenticate");

	/* a malformed header */
	assert_open_fails(seed, 12, "postrider-sealed v2 seq 012\nAAAA\n", 32,
			  "malformed header");
	assert_open_fails(seed, 12, "postrider-sealed v1 seq 12\nAAAA\n", 32,
			  "not a sealed");
	/* a v3 text relabelled v2 (and back): the AAD differs */
	strbuf_reset(&forged);
	strbuf_addstr(&forged, "postrider-sealed v2 seq 12\n");
	strbuf_addstr(&forged, strchr(s.buf, '\n') + 1);
	assert_open_fails(seed, 12, forged.buf, forged.len, "does not authenticate");
	/* too short for a nonce and a tag, though well-formed base64 */
	assert_open_fails(seed, 12, "postrider-sealed v2 seq 12\nAAAA\n", 32,
			  "truncated");
	strbuf_release(&s);
	strbuf_release(&forged);
}

static void test_seal_large_seq(void **state)
{
	unsigned char seed[32];
	struct strbuf s = STRBUF_INIT, plain = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	vector_seed(seed);
	assert_int_equal(fair_seal(seed, UINT64_MAX, "x", 1, 0, &s), 0);
	assert_true(strncmp(s.buf, "postrider-sealed v4 seq "
			    "18446744073709551615\n", 45) == 0);
	assert_int_equal(fair_open(seed, UINT64_MAX, s.buf, s.len, &plain,
				   &err), 0);
	assert_string_equal(strbuf_str(&plain), "x");
	strbuf_release(&s);
	strbuf_release(&plain);
	strbuf_release(&err);
}

/* Prints the vector block of docs/fairness.md section 11. */
static int print_vectors(void)
{
	unsigned char seed[32], key[32];
	char hex[65], salt[FAIR_SALT_HEX], t[FAIR_TOKEN_SIZE];
	static const char *const labels[] = { "draw", "seal", "token", "hand" };
	const uint64_t n = (UINT64_C(1) << 63) + 1;
	uint64_t index = 0;
	uint32_t attempts = 0;
	uint64_t value;
	int deck[10];
	struct rng r;

	vector_seed(seed);
	fair_seed_format(seed, hex);
	printf("seed %s\n", hex);
	fair_commitment(seed, hex);
	printf("commitment %s\n", hex);
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++) {
		char label[32];
		unsigned int len = 0;

		snprintf(label, sizeof(label), "postrider-key-%s", labels[i]);
		if (!HMAC(EVP_sha256(), seed, 32, (unsigned char *)label,
			  strlen(label), key, &len))
			return 1;
		hex_encode(key, 32, hex);
		printf("K_%s %s\n", labels[i], hex);
	}
	rng_derive_key(seed, key);
	printf("raw(0,0) %" PRIu64 "\n", rng_raw_at(key, 0, 0));
	rng_init(&r, seed, 0);
	printf("d6 0-9:");
	for (int i = 0; i < 10; i++)
		printf(" %d", rng_die(&r, NULL));
	printf("\nuniform(110)@10: %d\n", rng_uniform(&r, 110, NULL));
	for (int i = 0; i < 10; i++)
		deck[i] = i;
	rng_shuffle(&r, deck, 10, NULL);
	printf("shuffle of 0..9 from 11:");
	for (int i = 0; i < 10; i++)
		printf(" %d", deck[i]);
	for (;; index++) {
		value = rng_uniform64_at(key, index, n, &attempts);
		if (attempts > 1)
			break;
	}
	printf("\nrejection n=%" PRIu64 " index %" PRIu64 ":", n, index);
	for (uint32_t a = 0; a < attempts; a++)
		printf("%s raw %" PRIu32 " = %" PRIu64 "%s", a ? "," : "", a,
		       rng_raw_at(key, index, a),
		       a + 1 < attempts ? " (rejected)" : "");
	printf(", value %" PRIu64 "\n", value);
	for (int side = 1; side <= 2; side++) {
		fair_token(seed, "test-game", 1, side, t);
		printf("token test-game seq 1 side %d: %s\n", side, t);
	}
	fair_hand_commitment(seed, 3, 2, "12\n45\n67\n", salt, hex);
	printf("hand seq 3 side 2 salt %s\n", salt);
	printf("hand seq 3 side 2 hash %s\n", hex);
	return 0;
}

/* Prints one padded sealing vector: its first two lines, its last line
 * and its SHA-256. 0, or 1. */
static int print_padded_vector(int fmt)
{
	unsigned char seed[32];
	struct strbuf s = STRBUF_INIT;
	char hex[65];
	const char *second, *last;
	int lines = 0;

	vector_seed(seed);
	if (fair_seal_as(seed, 12, fmt, seal_vector_plain, strlen(seal_vector_plain),
			 4096, &s) < 0)
		return 1;
	for (size_t i = 0; i < s.len; i++)
		lines += s.buf[i] == '\n';
	second = strchr(s.buf, '\n') + 1;
	last = s.buf + s.len - 1;
	while (last > s.buf && last[-1] != '\n')
		last--;
	sha256_text_hex(s.buf, s.len, hex);
	printf("%.*s", (int)(strchr(second, '\n') + 1 - s.buf), s.buf);
	printf("(%d lines more)\n%s", lines - 3, last);
	printf("v%d: %zu bytes in %d lines, SHA-256 %s\n", fmt, s.len, lines, hex);
	strbuf_release(&s);
	return 0;
}

/* Prints the sealing vectors of docs/fairness.md section 11: v4 and v3
 * by their first two lines, their last line and their SHA-256; v2 whole. */
static int print_seal_vector(void)
{
	unsigned char seed[32];
	struct strbuf s = STRBUF_INIT;

	vector_seed(seed);
	if (print_padded_vector(FAIR_SEAL_V4) || print_padded_vector(FAIR_SEAL_V3))
		return 1;
	if (fair_seal_as(seed, 12, FAIR_SEAL_V2, seal_vector_plain,
			 strlen(seal_vector_plain), 0, &s) < 0)
		return 1;
	fputs(s.buf, stdout);
	strbuf_release(&s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--vectors"))
		return print_vectors();
	if (argc == 2 && !strcmp(argv[1], "--seal-vector"))
		return print_seal_vector();

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_text),
		cmocka_unit_test(test_new_seed),
		cmocka_unit_test(test_commitment),
		cmocka_unit_test(test_token_vector),
		cmocka_unit_test(test_token_shape_and_variety),
		cmocka_unit_test(test_token_equal),
		cmocka_unit_test(test_hand_vector),
		cmocka_unit_test(test_hand_salts_differ),
		cmocka_unit_test(test_seal_vector),
		cmocka_unit_test(test_seal_sizes),
		cmocka_unit_test(test_seal_bad_padding),
		cmocka_unit_test(test_seal_rewind_shares_no_keystream),
		cmocka_unit_test(test_seal_round_trip),
		cmocka_unit_test(test_seal_every_byte_tamper),
		cmocka_unit_test(test_seal_wrong_seq_and_seed),
		cmocka_unit_test(test_seal_large_seq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
