/*
 * test_peer_crypto.c - the cryptography of a game without a host
 * (src/peer-crypto.c, docs/peer.md sections 2 to 5): the vectors of
 * docs/peer.md section 16, which tests/verify/verify_peer.py computed
 * from the document alone and the C must give byte for byte; honest
 * shuffles and openings; and every kind of cheating at this level, each
 * refused: a rogue or borrowed key, a forged or reused die share, a wrong
 * unmasking share, a shuffle that is not a permutation or not remasked
 * under the joint key, a tampered proof (every byte of one), a peek with
 * one share.
 *
 * `test_peer_crypto --vectors` prints the vector block and
 * `--shuffle-files DIR` writes a shuffle of the whole deck;
 * tests/e2e/t-peer-vectors.sh compares the block with the Python's and
 * with the document, and has the Python check the shuffle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#include "peer-crypto.h"
#include "rng.h"
#include "util.h"
#include "vrf.h"

#define CT PCRYPTO_CT
#define CTX(s) (const unsigned char *)(s), strlen(s)

static const char game[] = "ww-test";

/* The players of the vectors: secrets 00..1f and 20..3f. */
struct player {
	struct pcrypto_secret sk;
	struct pcrypto_public pk;
};

static void players(struct player *am, struct player *br)
{
	unsigned char s[32];

	for (int i = 0; i < 32; i++)
		s[i] = (unsigned char)i;
	assert_int_equal(pcrypto_keys(s, &am->sk, &am->pk), 0);
	for (int i = 0; i < 32; i++)
		s[i] = (unsigned char)(32 + i);
	assert_int_equal(pcrypto_keys(s, &br->sk, &br->pk), 0);
}

static void joint(const struct player *am, const struct player *br,
		  unsigned char y[PCRYPTO_PT])
{
	assert_int_equal(pcrypto_joint_key(am->pk.mask, br->pk.mask, y), 0);
}

/* A deck of the open cards first .. first+n-1. */
static unsigned char *open_deck(const unsigned char y[PCRYPTO_PT], int first, int n)
{
	unsigned char *d = xmalloc((size_t)n * CT);

	for (int i = 0; i < n; i++)
		assert_int_equal(pcrypto_open(y, first + i, d + (size_t)i * CT), 0);
	return d;
}

static void addhex(struct strbuf *out, const unsigned char *b, size_t n)
{
	char *h = xmalloc(2 * n + 1);

	hex_encode(b, n, h);
	strbuf_addstr(out, h);
	free(h);
}

static void sha256(const unsigned char *b, size_t n, unsigned char out[32])
{
	unsigned int len = 0;

	if (!EVP_Digest(b, n, out, &len, EVP_sha256(), NULL) || len != 32)
		abort();
}

static void addsha(struct strbuf *out, const unsigned char *b, size_t n)
{
	unsigned char h[32];

	sha256(b, n, h);
	addhex(out, h, 32);
}

static unsigned char *copy(const unsigned char *b, size_t n)
{
	unsigned char *c = xmalloc(n);

	memcpy(c, b, n);
	return c;
}

static unsigned char *flipped(const unsigned char *b, size_t n, size_t at)
{
	unsigned char *c = copy(b, n);

	c[at] ^= 1;
	return c;
}

/*
 * The vector block of docs/peer.md section 16, as verify_peer.py
 * --vectors prints it. 0, or -1 if a computation failed.
 */
static int vectors(struct strbuf *out)
{
	struct player p[2];
	const char *side[2] = { "american", "british" };
	unsigned char y[PCRYPTO_PT], proof[PCRYPTO_PROOF], pt[PCRYPTO_PT];
	unsigned char *deck, *out1, *out2, *pr1, *pr2, *big, *out3, *pr3;
	unsigned char rho[5 * 32], shares[2][PCRYPTO_SHARE], sig[PCRYPTO_PROOF];
	int perm1[5], perm2[5];
	char ctx[64];

	players(&p[0], &p[1]);
	for (int s = 0; s < 2; s++) {
		const unsigned char *keys[3] = { p[s].pk.vrf, p[s].pk.mask, p[s].pk.sign };
		const char *names[3] = { "vrf", "mask", "sign" };
		for (int k = 0; k < 3; k++) {
			strbuf_addf(out, "%s %s_key ", side[s], names[k]);
			addhex(out, keys[k], PCRYPTO_PT);
			strbuf_addch(out, '\n');
		}
	}
	for (int s = 0; s < 2; s++) {
		snprintf(ctx, sizeof(ctx), "%s key %s", game, side[s]);
		if (pcrypto_key_prove(&p[s].sk, CTX(ctx), proof) < 0)
			return -1;
		strbuf_addf(out, "%s key_proof ", side[s]);
		addhex(out, proof, sizeof(proof));
		strbuf_addch(out, '\n');
	}
	joint(&p[0], &p[1], y);
	strbuf_addstr(out, "joint_key ");
	addhex(out, y, sizeof(y));
	strbuf_addch(out, '\n');
	for (int c = 1; c <= 110; c += c == 2 ? 108 : 1) {
		if (pcrypto_card_point(c, pt) < 0)
			return -1;
		strbuf_addf(out, "card %d ", c);
		addhex(out, pt, sizeof(pt));
		strbuf_addch(out, '\n');
	}
	{
		unsigned char ct[CT];
		if (pcrypto_open(y, 7, ct) < 0)
			return -1;
		strbuf_addstr(out, "open 7 ");
		addhex(out, ct, CT);
		strbuf_addch(out, '\n');
	}

	deck = open_deck(y, 1, 5);
	out1 = xmalloc(5 * CT);
	out2 = xmalloc(5 * CT);
	pr1 = xmalloc(PCRYPTO_SHUFFLE_PROOF(5));
	pr2 = xmalloc(PCRYPTO_SHUFFLE_PROOF(5));
	snprintf(ctx, sizeof(ctx), "%s shuffle 1 1 american", game);
	if (pcrypto_shuffle_secrets(&p[0].sk, CTX(ctx), y, deck, 5, perm1, rho) < 0 ||
	    pcrypto_shuffle_prove(&p[0].sk, CTX(ctx), y, deck, 5, perm1, rho, out1, pr1) < 0)
		return -1;
	strbuf_addstr(out, "shuffle 1 1 perm");
	for (int i = 0; i < 5; i++)
		strbuf_addf(out, " %d", perm1[i]);
	strbuf_addstr(out, "\nshuffle 1 1 rho_0 ");
	addhex(out, rho, 32);
	strbuf_addch(out, '\n');
	for (int i = 0; i < 5; i++) {
		strbuf_addf(out, "shuffle 1 1 out %d ", i);
		addhex(out, out1 + (size_t)i * CT, CT);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "shuffle 1 1 proof sha256 ");
	addsha(out, pr1, PCRYPTO_SHUFFLE_PROOF(5));
	strbuf_addch(out, '\n');
	snprintf(ctx, sizeof(ctx), "%s shuffle 1 2 british", game);
	if (pcrypto_shuffle_secrets(&p[1].sk, CTX(ctx), y, out1, 5, perm2, rho) < 0 ||
	    pcrypto_shuffle(&p[1].sk, CTX(ctx), y, out1, 5, out2, pr2) < 0)
		return -1;
	strbuf_addstr(out, "shuffle 1 2 perm");
	for (int i = 0; i < 5; i++)
		strbuf_addf(out, " %d", perm2[i]);
	strbuf_addstr(out, "\nshuffle 1 2 out sha256 ");
	addsha(out, out2, 5 * CT);
	strbuf_addstr(out, "\nshuffle 1 2 proof sha256 ");
	addsha(out, pr2, PCRYPTO_SHUFFLE_PROOF(5));
	strbuf_addch(out, '\n');
	for (int s = 0; s < 2; s++) {
		snprintf(ctx, sizeof(ctx), "%s share s1.0 %s", game, side[s]);
		if (pcrypto_share(&p[s].sk, CTX(ctx), out2, shares[s]) < 0)
			return -1;
		strbuf_addf(out, "share s1.0 %s ", side[s]);
		addhex(out, shares[s], PCRYPTO_SHARE);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "s1.0 is card %d\n", pcrypto_unmask(out2, shares[0], shares[1], 110));

	big = open_deck(y, 1, 110);
	out3 = xmalloc(110 * CT);
	pr3 = xmalloc(PCRYPTO_SHUFFLE_PROOF(110));
	snprintf(ctx, sizeof(ctx), "%s shuffle 2 1 american", game);
	if (pcrypto_shuffle(&p[0].sk, CTX(ctx), y, big, 110, out3, pr3) < 0)
		return -1;
	strbuf_addstr(out, "shuffle 2 1 of 110: out sha256 ");
	addsha(out, out3, 110 * CT);
	strbuf_addf(out, "\nshuffle 2 1 of 110: proof %zu bytes, sha256 ",
		    PCRYPTO_SHUFFLE_PROOF(110));
	addsha(out, pr3, PCRYPTO_SHUFFLE_PROOF(110));
	strbuf_addch(out, '\n');

	{
		unsigned char oid[20], alpha[2][PCRYPTO_ALPHA_MAX], pi[2][VRF_PROOF_BYTES];
		unsigned char beta[2][32], key[32];
		size_t len[2];
		for (int i = 0; i < 20; i++)
			oid[i] = (unsigned char)i;
		for (int s = 0; s < 2; s++) {
			len[s] = pcrypto_dice_alpha(game, s + 1, oid, 20, alpha[s]);
			if (!len[s] || vrf_prove(p[s].sk.vrf, alpha[s], len[s], pi[s]) < 0 ||
			    vrf_verify(p[s].pk.vrf, pi[s], alpha[s], len[s], beta[s]) < 0)
				return -1;
		}
		strbuf_addstr(out, "dice alpha american ");
		addhex(out, alpha[0], len[0]);
		for (int s = 0; s < 2; s++) {
			strbuf_addf(out, "\ndice pi %s ", side[s]);
			addhex(out, pi[s], VRF_PROOF_BYTES);
		}
		if (pcrypto_dice_key(beta[0], beta[1], key) < 0)
			return -1;
		strbuf_addstr(out, "\ndice key ");
		addhex(out, key, 32);
		strbuf_addstr(out, "\ndice d6 0-9:");
		for (int i = 0; i < 10; i++)
			strbuf_addf(out, " %d", (int)rng_vrf_value(key, (uint64_t)i, 6) + 1);
		strbuf_addf(out, "\ndice uniform(110)@10: %d\n",
			    (int)rng_vrf_value(key, 10, 110));
	}
	{
		static const char msg[] = "postrider-peer 1\ngame ww-test\n";
		if (pcrypto_sign(&p[0].sk, msg, strlen(msg), sig) < 0)
			return -1;
		strbuf_addstr(out, "sign american ");
		addhex(out, sig, sizeof(sig));
		strbuf_addch(out, '\n');
	}
	free(deck);
	free(out1);
	free(out2);
	free(pr1);
	free(pr2);
	free(big);
	free(out3);
	free(pr3);
	return 0;
}

/* Printed by tests/verify/verify_peer.py --vectors (written from
 * docs/peer.md, sharing no code with src/peer-crypto.c). */
static const char python_vectors[] =
	"american vrf_key 03b72055f2c6cc80eb735d7c2c9a4d0a9f2913ad23980a9"
	"d1a212d6c8ba03daec3\n"
	"american mask_key 03b5375ba79c713ee7575385f72e503d583bb0e23da952"
	"fd23ded5ad640801b724\n"
	"american sign_key 0225696cef9b617facadf4f882de1fda8b7559b8ad7a72"
	"10711be967e9906c752d\n"
	"british vrf_key 03be5ea9b03820e1ef7eb1b46d2dc2b15ad211f245779bf1"
	"df640b4ecf8b5370d8\n"
	"british mask_key 036a75a7e0b3f3c5c6a3cd95e732345e7611123b64e57fa"
	"32286208e8aa9ef67b3\n"
	"british sign_key 025ad6da995d390c4200a14eb5b89935734e61df894ea08"
	"0f6c999758b68fe23c6\n"
	"american key_proof ac90ab18b31570e800ea9c4c0ba1ae145859222f716fd"
	"3a437527cd680b11d615e99ce0036b4c78be2505e341d39878a63fa41061b318"
	"e86f74e7905070c2c2e\n"
	"british key_proof 0ff60c102186b7ada3a2db116e38b87c7dfa66a3d597f9"
	"46e0c98f1edb43a6b3936ee53474530a1be27e26881bc6a48f65a96e71c749ca"
	"e5390986dee7a51f78\n"
	"joint_key 03a53fa9fded775002e1408538aa6eb77c13375c147a40f5a30c45"
	"5e7ad19b583c\n"
	"card 1 02f0d834b4604648576074b535fc0dc19d1c0310fc593e14f59e52b6c"
	"240a77a22\n"
	"card 2 027ffc0e3f829756d4821409e769a30d0b2e62cd7eeef0c3196af6ac0"
	"0c6c6948b\n"
	"card 110 02122402ad80e4f8aecf59aa81839b961a5a9d1460c08d76a3ad97f"
	"f5b021ad5b8\n"
	"open 7 036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a1394"
	"5d898c29603c46c45f3f35ad933fb8aa1b43af99c224961901976008f0947de3"
	"64e94f11ee2\n"
	"shuffle 1 1 perm 4 0 1 3 2\n"
	"shuffle 1 1 rho_0 f7ec3f42e4d87ef20881b50bc0dabd9ca7d3f2f3753b7d"
	"946b2b61480bc9624f\n"
	"shuffle 1 1 out 0 02e1da5938d82e89d5c3f9ad5ef53aad8494944d4c2c0a"
	"67b47e5e22c8d10af19f02d6453a6d3465e062e1dd60441d21332b436c6815b5"
	"993c78847745e19c6c9148\n"
	"shuffle 1 1 out 1 02359ff3a642cbd92c2a221b6b09e8db4216358feeea72"
	"da767465b987bf55b7fc030d574e0216b8aec6dd16d95807ab5e80a0ca8960bd"
	"7e2bf5eef0d87d852ba251\n"
	"shuffle 1 1 out 2 03be9a720854029e384db4a45ab9b68207030c184a45a5"
	"ebe292699daa92f31e050362cb54dfd6dbf097b5c18475c929ac95685abeaa19"
	"396f0f9e965307474ac9ee\n"
	"shuffle 1 1 out 3 02f1edf81d7d4a086ebc20e5dfef2bc65da2b7b01f8318"
	"d37e82ba6f3c212ecc12028aa4fcf4f54a6bd0d963d1b515ce5848cb5fc81554"
	"da2e91bf01d7611c129430\n"
	"shuffle 1 1 out 4 03c59ff2ececa1ad7dcdc8ad63229d9223d4a9657b112e"
	"7a2ce316628fd23a440602b9d5b165115d768f2b71021d61961c963a7baf78a6"
	"e896a729cb03cedd3812c6\n"
	"shuffle 1 1 proof sha256 b1ba3b2d5741e74406bedaf2274f9e567e32307"
	"3c28073ec03f16e6e10374336\n"
	"shuffle 1 2 perm 4 0 3 2 1\n"
	"shuffle 1 2 out sha256 d220f2adc04130abd9d43ac24c0c563b6ff2ee976"
	"bf385ea284507c4af65c7e7\n"
	"shuffle 1 2 proof sha256 c82e42bfda8af3d5910c952296c581aa20ac2bf"
	"f4feabaeca5fde1883d8551a9\n"
	"share s1.0 american 036cc4207971309a3ab847f0855c6c7d6b7455b19069"
	"20b7d7a4fd6f4bbb1d7681313db4b4b887ab99cb79b5a6eddcdd0df889a8d58f"
	"bba55375196e8f931f922e63f7363acd84afe0df448b5d332979f165d22f79af"
	"97382704c338847dd1a8c1\n"
	"share s1.0 british 029aa85c60f5dcca0b5088044d823f008c55902ea1aae"
	"1e65dbde2a4ac1f719908858131d4cd5627d4fdb5dc68088c67c6fdb1429444b"
	"c42745d675bc632af85fd238197fb38dbb92400cb675342c8a4666179847a3b9"
	"a2690725e386ed7e6b905\n"
	"s1.0 is card 3\n"
	"shuffle 2 1 of 110: out sha256 85ae9792b6fd120c7b0cc04f6a07d2e98"
	"3c1017df21c912ab0c0806f51148d0b\n"
	"shuffle 2 1 of 110: proof 14460 bytes, sha256 777d5ab3093950c3ba"
	"109a3902b8856bc440eea46b746cf2b84e7a3ca5a531a0\n"
	"dice alpha american 706f737472696465722d706565722d64696365077777"
	"2d746573740114000102030405060708090a0b0c0d0e0f10111213\n"
	"dice pi american 03b8b73ee1b889eb1ea63f36fc364ec26470d1a723ab17b"
	"f79481e53ffd92c45e23459d49e2fb2afd1f3ea4b9ac419a1fc8ba91bf1a2a8f"
	"6c4331c7033eb3db4b32db140db3da341cfdac973084a1972f2\n"
	"dice pi british 038fedf23e9ea2f88cad5d685c02dbe478868b13b8f9746b"
	"69e1f4c65c63c96392bc897950165c7672956af993d2bb29460a5b4c074514c7"
	"5cbd8a1bf433c6d9fd9cad9685cb670eb5dc5600a5014a8bf7\n"
	"dice key 2a4f1dff60e44e2ac9a82ba82891596d1c60bdf3627e8bc4fe58981"
	"136e9a0f0\n"
	"dice d6 0-9: 2 6 5 1 6 5 3 6 4 4\n"
	"dice uniform(110)@10: 102\n"
	"sign american e70a11225c59c579fdc062692ce97ec833ebf9bbff36f76eea"
	"47947a9594436b0f93e96003b1f0d1e6891163d76eb734fcda0e1f3a0f5f1d5b"
	"542e8307022eae\n";

static void test_vectors(void **state)
{
	struct strbuf got = STRBUF_INIT;

	(void)state;
	assert_int_equal(vectors(&got), 0);
	assert_string_equal(got.buf, python_vectors);
	strbuf_release(&got);
}

static void test_keys(void **state)
{
	struct player am, br, again;
	unsigned char y[PCRYPTO_PT], y2[PCRYPTO_PT], proof[PCRYPTO_PROOF];

	(void)state;
	players(&am, &br);
	players(&again, &again);
	/* the same secret gives the same keys, and each key differs */
	assert_memory_equal(again.pk.mask, br.pk.mask, PCRYPTO_PT);
	assert_memory_not_equal(am.pk.vrf, am.pk.mask, PCRYPTO_PT);
	assert_memory_not_equal(am.pk.mask, am.pk.sign, PCRYPTO_PT);
	assert_memory_not_equal(am.pk.mask, br.pk.mask, PCRYPTO_PT);
	/* the joint key is the sum, in either order of reading */
	joint(&am, &br, y);
	assert_int_equal(pcrypto_joint_key(br.pk.mask, am.pk.mask, y2), 0);
	assert_memory_equal(y, y2, PCRYPTO_PT);
	/* the same key twice is refused (3.2) */
	assert_int_equal(pcrypto_joint_key(am.pk.mask, am.pk.mask, y2), -1);
	/* a key proof binds its side */
	assert_int_equal(pcrypto_key_prove(&am.sk, CTX("ww-test key american"), proof), 0);
	assert_int_equal(pcrypto_key_verify(am.pk.mask, CTX("ww-test key american"), proof), 0);
	assert_int_equal(pcrypto_key_verify(am.pk.mask, CTX("ww-test key british"), proof), -1);
	assert_int_equal(pcrypto_key_verify(am.pk.mask, CTX("ww-other key american"), proof), -1);
	assert_int_equal(pcrypto_key_verify(br.pk.mask, CTX("ww-test key american"), proof), -1);
	for (size_t at = 0; at < sizeof(proof); at++) {
		unsigned char *bad = flipped(proof, sizeof(proof), at);
		assert_int_equal(pcrypto_key_verify(am.pk.mask, CTX("ww-test key american"), bad), -1);
		free(bad);
	}
}

/* -P as 33 bytes: the other parity */
static void negate(const unsigned char in[PCRYPTO_PT], unsigned char out[PCRYPTO_PT])
{
	memcpy(out, in, PCRYPTO_PT);
	out[0] ^= 1;
}

/*
 * The rogue key of docs/peer.md 3.2: the British publishes Y' = z*B -
 * Y_american, which he computes without the American's secret, so that
 * the joint key would be z*B, which he knows. He cannot prove that he
 * knows the logarithm of Y': his proof for z*B (he knows z) is no proof
 * for Y'. The key -Y_american alone would make the joint key infinity.
 */
static void test_rogue_key_refused(void **state)
{
	struct player am, br, z;
	unsigned char neg_am[PCRYPTO_PT], rogue[PCRYPTO_PT], y[PCRYPTO_PT];
	unsigned char proof[PCRYPTO_PROOF], zero[32] = { 0 };

	(void)state;
	players(&am, &br);
	/* z: another player's keys; Y' = Y_z + (-Y_american) */
	zero[31] = 9;
	assert_int_equal(pcrypto_keys(zero, &z.sk, &z.pk), 0);
	negate(am.pk.mask, neg_am);
	assert_int_equal(pcrypto_joint_key(z.pk.mask, neg_am, rogue), 0);
	/* the joint key with the rogue key is z's own key */
	assert_int_equal(pcrypto_joint_key(am.pk.mask, rogue, y), 0);
	assert_memory_equal(y, z.pk.mask, PCRYPTO_PT);
	/* but the British has no proof for it */
	assert_int_equal(pcrypto_key_prove(&z.sk, CTX("ww-test key british"), proof), 0);
	assert_int_equal(pcrypto_key_verify(z.pk.mask, CTX("ww-test key british"), proof), 0);
	assert_int_equal(pcrypto_key_verify(rogue, CTX("ww-test key british"), proof), -1);
	/* nor can he borrow the American's proof for the American's key */
	assert_int_equal(pcrypto_key_prove(&am.sk, CTX("ww-test key american"), proof), 0);
	assert_int_equal(pcrypto_key_verify(am.pk.mask, CTX("ww-test key british"), proof), -1);
	/* -Y_american: the sum is the point at infinity */
	assert_int_equal(pcrypto_joint_key(am.pk.mask, neg_am, y), -1);
}

/* Two shuffles, by each side; every card is then where the two
 * permutations put it, and its owner opens it with the other share. */
static void test_shuffle_and_open(void **state)
{
	struct player am, br;
	unsigned char y[PCRYPTO_PT], rho[8 * 32], again[8 * CT];
	unsigned char *deck, *o1 = xmalloc(8 * CT), *o2 = xmalloc(8 * CT);
	unsigned char *p1 = xmalloc(PCRYPTO_SHUFFLE_PROOF(8)),
		      *p2 = xmalloc(PCRYPTO_SHUFFLE_PROOF(8));
	int perm1[8], perm2[8], seen[9] = { 0 };

	(void)state;
	players(&am, &br);
	joint(&am, &br, y);
	deck = open_deck(y, 1, 8);
	assert_int_equal(pcrypto_shuffle_secrets(&am.sk, CTX("g shuffle 1 1 american"), y, deck, 8, perm1, rho), 0);
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX("g shuffle 1 1 american"), y, deck, 8, o1, p1), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX("g shuffle 1 1 american"), y, deck, 8, o1, p1), 0);
	/* the same statement, the same bytes (docs/peer.md 3.1) */
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX("g shuffle 1 1 american"), y, deck, 8, again, p2), 0);
	assert_memory_equal(again, o1, 8 * CT);
	assert_int_equal(pcrypto_shuffle_secrets(&br.sk, CTX("g shuffle 1 2 british"), y, o1, 8, perm2, rho), 0);
	assert_int_equal(pcrypto_shuffle(&br.sk, CTX("g shuffle 1 2 british"), y, o1, 8, o2, p2), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX("g shuffle 1 2 british"), y, o1, 8, o2, p2), 0);
	for (int i = 0; i < 8; i++) {
		unsigned char sa[PCRYPTO_SHARE], sb[PCRYPTO_SHARE];
		const unsigned char *ct = o2 + (size_t)i * CT;
		char ctx_a[32], ctx_b[32];
		int card;
		snprintf(ctx_a, sizeof(ctx_a), "g share s1.%d american", i);
		snprintf(ctx_b, sizeof(ctx_b), "g share s1.%d british", i);
		assert_int_equal(pcrypto_share(&am.sk, CTX(ctx_a), ct, sa), 0);
		assert_int_equal(pcrypto_share(&br.sk, CTX(ctx_b), ct, sb), 0);
		assert_int_equal(pcrypto_share_verify(am.pk.mask, CTX(ctx_a), ct, sa), 0);
		assert_int_equal(pcrypto_share_verify(br.pk.mask, CTX(ctx_b), ct, sb), 0);
		card = pcrypto_unmask(ct, sa, sb, 110);
		assert_int_equal(card, perm1[perm2[i]] + 1);
		assert_int_equal(pcrypto_unmask_own(&am.sk, ct, sb, 110), card);
		assert_int_equal(pcrypto_unmask_own(&br.sk, ct, sa, 110), card);
		/* a peek: one share, twice, or none, opens nothing */
		assert_int_equal(pcrypto_unmask(ct, sa, sa, 110), -1);
		assert_int_equal(pcrypto_unmask(ct, sb, sb, 110), -1);
		assert_int_equal(pcrypto_unmask_own(&am.sk, ct, sa, 110), -1);
		seen[card]++;
	}
	for (int c = 1; c <= 8; c++)
		assert_int_equal(seen[c], 1);
	free(deck);
	free(o1);
	free(o2);
	free(p1);
	free(p2);
}

/* A proof made by the honest algorithm for a map that is not a
 * permutation (card 1 twice, card 2 gone) does not verify. */
static void test_shuffle_not_a_permutation(void **state)
{
	struct player am, br;
	unsigned char y[PCRYPTO_PT], rho[5 * 32];
	unsigned char *deck, *out = xmalloc(5 * CT), *proof = xmalloc(PCRYPTO_SHUFFLE_PROOF(5));
	int perm[5], dup[5] = { 0, 0, 2, 3, 4 }, drop[5] = { 1, 1, 1, 1, 1 };
	const char *ctx = "g shuffle 1 1 american";

	(void)state;
	players(&am, &br);
	joint(&am, &br, y);
	deck = open_deck(y, 1, 5);
	assert_int_equal(pcrypto_shuffle_secrets(&am.sk, CTX(ctx), y, deck, 5, perm, rho), 0);
	assert_int_equal(pcrypto_shuffle_prove(&am.sk, CTX(ctx), y, deck, 5, dup, rho, out, proof), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 5, out, proof), -1);
	assert_int_equal(pcrypto_shuffle_prove(&am.sk, CTX(ctx), y, deck, 5, drop, rho, out, proof), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 5, out, proof), -1);
	/* an entry out of range is refused before anything */
	dup[4] = 5;
	assert_int_equal(pcrypto_shuffle_prove(&am.sk, CTX(ctx), y, deck, 5, dup, rho, out, proof), -1);
	free(deck);
	free(out);
	free(proof);
}

/* An honest shuffle whose outputs are then changed: two swapped, one
 * replaced by another card, one duplicated (remasked): each is refused,
 * as is a shuffle remasked under the shuffler's own key instead of the
 * joint key, and the proof under another context, key or input. */
static void test_shuffle_outputs_changed(void **state)
{
	struct player am, br;
	unsigned char y[PCRYPTO_PT], tmp[CT], rho[5 * 32], out[5 * CT], bad[5 * CT];
	unsigned char *deck, *proof = xmalloc(PCRYPTO_SHUFFLE_PROOF(5));
	int perm[5];
	const char *ctx = "g shuffle 1 1 american";

	(void)state;
	players(&am, &br);
	joint(&am, &br, y);
	deck = open_deck(y, 1, 5);
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX(ctx), y, deck, 5, out, proof), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 5, out, proof), 0);
	/* swapped */
	memcpy(bad, out, 5 * CT);
	memcpy(tmp, bad, CT);
	memcpy(bad, bad + CT, CT);
	memcpy(bad + CT, tmp, CT);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 5, bad, proof), -1);
	/* replaced by a card that was not in the deck */
	memcpy(bad, out, 5 * CT);
	assert_int_equal(pcrypto_open(y, 99, bad + 2 * CT), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 5, bad, proof), -1);
	/* duplicated: output 3 becomes output 0 remasked (a shuffle of its
	 * own over 2 cards gives the remasked pair) */
	memcpy(bad, out, 5 * CT);
	{
		unsigned char two[2 * CT], two_out[2 * CT], *p2 = xmalloc(PCRYPTO_SHUFFLE_PROOF(2));
		memcpy(two, out, CT);
		memcpy(two + CT, out, CT);
		assert_int_equal(pcrypto_shuffle(&am.sk, CTX("x"), y, two, 2, two_out, p2), 0);
		memcpy(bad + 3 * CT, two_out, CT);
		free(p2);
	}
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 5, bad, proof), -1);
	/* the proof for another context, key, or deck */
	assert_int_equal(pcrypto_shuffle_verify(CTX("g shuffle 1 1 british"), y, deck, 5, out, proof), -1);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), am.pk.mask, deck, 5, out, proof), -1);
	memcpy(bad, deck, 5 * CT);
	assert_int_equal(pcrypto_open(y, 6, bad + 4 * CT), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, bad, 5, out, proof), -1);
	/* remasked under the American's key only: he could unmask alone */
	assert_int_equal(pcrypto_shuffle_secrets(&am.sk, CTX(ctx), am.pk.mask, deck, 5, perm, rho), 0);
	assert_int_equal(pcrypto_shuffle_prove(&am.sk, CTX(ctx), am.pk.mask, deck, 5, perm, rho, bad, proof), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), am.pk.mask, deck, 5, bad, proof), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 5, bad, proof), -1);
	free(deck);
	free(proof);
}

/* Every byte of a proof of two cards, flipped: refused each time; so are
 * scalars at q and points off the curve. */
static void test_shuffle_proof_tampered(void **state)
{
	static const unsigned char q[32] = {
		0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84,
		0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
	};
	struct player am, br;
	const size_t len = PCRYPTO_SHUFFLE_PROOF(2);
	unsigned char y[PCRYPTO_PT], *deck, out[2 * CT], *proof = xmalloc(len), *bad;
	const char *ctx = "g shuffle 1 1 american";

	(void)state;
	players(&am, &br);
	joint(&am, &br, y);
	deck = open_deck(y, 1, 2);
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX(ctx), y, deck, 2, out, proof), 0);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 2, out, proof), 0);
	for (size_t at = 0; at < len; at++) {
		bad = flipped(proof, len, at);
		if (pcrypto_shuffle_verify(CTX(ctx), y, deck, 2, out, bad) != -1)
			fail_msg("a proof with byte %zu changed verifies", at);
		free(bad);
	}
	for (size_t at = 0; at < sizeof(out); at++) {
		bad = flipped(out, sizeof(out), at);
		if (pcrypto_shuffle_verify(CTX(ctx), y, deck, 2, bad, proof) != -1)
			fail_msg("outputs with byte %zu changed verify", at);
		free(bad);
	}
	/* each scalar set to q: no scalar */
	for (size_t k = 0; k < 9; k++) {
		bad = copy(proof, len);
		memcpy(bad + 4 * 33 + 32 * k, q, 32);
		assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 2, out, bad), -1);
		free(bad);
	}
	/* a point whose x is p + 1: no point */
	bad = copy(proof, len);
	memset(bad + 1, 0xff, 32);
	assert_int_equal(pcrypto_shuffle_verify(CTX(ctx), y, deck, 2, out, bad), -1);
	free(bad);
	free(deck);
	free(proof);
}

/* A wrong unmasking share, in every way: another key, another card,
 * another context, D changed, every byte flipped, s = q. */
static void test_share_cheats(void **state)
{
	struct player am, br;
	unsigned char y[PCRYPTO_PT], *deck, sa[PCRYPTO_SHARE], sb[PCRYPTO_SHARE];
	unsigned char *bad;
	const char *ca = "g share s1.0 american", *cb = "g share s1.0 british";

	(void)state;
	players(&am, &br);
	joint(&am, &br, y);
	deck = open_deck(y, 1, 2);
	/* a masked card: open(1) remasked by a shuffle of two */
	{
		unsigned char out[2 * CT], *p = xmalloc(PCRYPTO_SHUFFLE_PROOF(2));
		assert_int_equal(pcrypto_shuffle(&am.sk, CTX("s"), y, deck, 2, out, p), 0);
		memcpy(deck, out, 2 * CT);
		free(p);
	}
	assert_int_equal(pcrypto_share(&am.sk, CTX(ca), deck, sa), 0);
	assert_int_equal(pcrypto_share(&br.sk, CTX(cb), deck, sb), 0);
	assert_int_equal(pcrypto_share_verify(am.pk.mask, CTX(ca), deck, sa), 0);
	/* under the other player's key: a share of the wrong secret */
	assert_int_equal(pcrypto_share_verify(br.pk.mask, CTX(ca), deck, sa), -1);
	assert_int_equal(pcrypto_share_verify(am.pk.mask, CTX(ca), deck, sb), -1);
	/* reused for the other card, or another place */
	assert_int_equal(pcrypto_share_verify(am.pk.mask, CTX(ca), deck + CT, sa), -1);
	assert_int_equal(pcrypto_share_verify(am.pk.mask, CTX("g share s1.1 american"), deck, sa), -1);
	/* D replaced by the other player's D (a share that would open a
	 * different card) */
	bad = copy(sa, sizeof(sa));
	memcpy(bad, sb, PCRYPTO_PT);
	assert_int_equal(pcrypto_share_verify(am.pk.mask, CTX(ca), deck, bad), -1);
	free(bad);
	for (size_t at = 0; at < sizeof(sa); at++) {
		bad = flipped(sa, sizeof(sa), at);
		if (pcrypto_share_verify(am.pk.mask, CTX(ca), deck, bad) != -1)
			fail_msg("a share with byte %zu changed verifies", at);
		free(bad);
	}
	free(deck);
}

/* A forged or reused die share (docs/peer.md 5): each is refused by the
 * VRF's verification; the key of a request changes with either share. */
static void test_dice_cheats(void **state)
{
	struct player am, br;
	unsigned char oid[20] = { 1, 2, 3 }, oid2[20] = { 1, 2, 4 };
	unsigned char a_am[PCRYPTO_ALPHA_MAX], a_br[PCRYPTO_ALPHA_MAX], a_old[PCRYPTO_ALPHA_MAX];
	unsigned char pi_am[VRF_PROOF_BYTES], pi_br[VRF_PROOF_BYTES], pi_old[VRF_PROOF_BYTES];
	unsigned char beta_am[32], beta_br[32], beta_old[32], key[32], key2[32];
	size_t l_am, l_br, l_old;

	(void)state;
	players(&am, &br);
	l_am = pcrypto_dice_alpha(game, 1, oid, 20, a_am);
	l_br = pcrypto_dice_alpha(game, 2, oid, 20, a_br);
	l_old = pcrypto_dice_alpha(game, 1, oid2, 20, a_old);
	assert_true(l_am && l_br && l_old);
	assert_int_equal(vrf_prove(am.sk.vrf, a_am, l_am, pi_am), 0);
	assert_int_equal(vrf_prove(br.sk.vrf, a_br, l_br, pi_br), 0);
	assert_int_equal(vrf_prove(am.sk.vrf, a_old, l_old, pi_old), 0);
	assert_int_equal(vrf_verify(am.pk.vrf, pi_am, a_am, l_am, beta_am), 0);
	assert_int_equal(vrf_verify(br.pk.vrf, pi_br, a_br, l_br, beta_br), 0);
	assert_int_equal(vrf_verify(am.pk.vrf, pi_old, a_old, l_old, beta_old), 0);
	/* reused: the American's share of an older request, for this one */
	assert_int_equal(vrf_verify(am.pk.vrf, pi_old, a_am, l_am, beta_old), -1);
	/* borrowed: the British share presented as the American's, or the
	 * American's under the British input */
	assert_int_equal(vrf_verify(am.pk.vrf, pi_br, a_am, l_am, beta_old), -1);
	assert_int_equal(vrf_verify(br.pk.vrf, pi_am, a_br, l_br, beta_old), -1);
	/* forged: every byte changed */
	for (size_t at = 0; at < VRF_PROOF_BYTES; at++) {
		unsigned char *bad = flipped(pi_am, sizeof(pi_am), at);
		if (vrf_verify(am.pk.vrf, bad, a_am, l_am, beta_old) != -1)
			fail_msg("a die share with byte %zu changed verifies", at);
		free(bad);
	}
	/* the key depends on both shares, in their order */
	assert_int_equal(pcrypto_dice_key(beta_am, beta_br, key), 0);
	assert_int_equal(pcrypto_dice_key(beta_old, beta_br, key2), 0);
	assert_memory_not_equal(key, key2, 32);
	assert_int_equal(pcrypto_dice_key(beta_br, beta_am, key2), 0);
	assert_memory_not_equal(key, key2, 32);
	/* bad arguments */
	assert_int_equal(pcrypto_dice_alpha(game, 3, oid, 20, a_am), 0);
	assert_int_equal(pcrypto_dice_alpha("", 1, oid, 20, a_am), 0);
	assert_int_equal(pcrypto_dice_alpha(game, 1, oid, 0, a_am), 0);
	assert_int_equal(pcrypto_dice_alpha(game, 1, oid, 65, a_am), 0);
}

static void test_signatures(void **state)
{
	struct player am, br;
	unsigned char sig[PCRYPTO_PROOF];
	static const char msg[] = "postrider-peer 1\ngame g\n";

	(void)state;
	players(&am, &br);
	assert_int_equal(pcrypto_sign(&am.sk, msg, strlen(msg), sig), 0);
	assert_int_equal(pcrypto_sign_verify(am.pk.sign, msg, strlen(msg), sig), 0);
	assert_int_equal(pcrypto_sign_verify(am.pk.sign, msg, strlen(msg) - 1, sig), -1);
	assert_int_equal(pcrypto_sign_verify(br.pk.sign, msg, strlen(msg), sig), -1);
	assert_int_equal(pcrypto_sign_verify(am.pk.mask, msg, strlen(msg), sig), -1);
	for (size_t at = 0; at < sizeof(sig); at++) {
		unsigned char *bad = flipped(sig, sizeof(sig), at);
		assert_int_equal(pcrypto_sign_verify(am.pk.sign, msg, strlen(msg), bad), -1);
		free(bad);
	}
}

/* Arguments out of range and bytes that are not points: -1, no crash. */
static void test_bad_input(void **state)
{
	struct player am, br;
	unsigned char y[PCRYPTO_PT], junk[300 * CT], out[300 * CT], pt[PCRYPTO_PT];
	unsigned char share[PCRYPTO_SHARE], proof[PCRYPTO_PROOF];
	unsigned char *big = xmalloc(PCRYPTO_SHUFFLE_PROOF(300));
	char ctx[300];
	int perm[300];

	(void)state;
	players(&am, &br);
	joint(&am, &br, y);
	memset(junk, 0, sizeof(junk));	/* a first byte 00: no point */
	memset(big, 0, PCRYPTO_SHUFFLE_PROOF(300));
	memset(ctx, 'x', sizeof(ctx) - 1);
	ctx[sizeof(ctx) - 1] = '\0';
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX("c"), y, junk, 1, out, big), -1);
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX("c"), y, junk, 256, out, big), -1);
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX(ctx), y, junk, 2, out, big), -1);
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX("c"), y, junk, 2, out, big), -1);
	assert_int_equal(pcrypto_shuffle_verify(CTX("c"), y, junk, 2, junk, big), -1);
	assert_int_equal(pcrypto_shuffle_verify(CTX("c"), y, junk, 300, junk, big), -1);
	assert_int_equal(pcrypto_shuffle_secrets(&am.sk, CTX("c"), y, junk, 0, perm, out), -1);
	assert_int_equal(pcrypto_share(&am.sk, CTX("c"), junk, share), -1);
	assert_int_equal(pcrypto_share(&am.sk, CTX(ctx), junk, share), -1);
	assert_int_equal(pcrypto_share_verify(am.pk.mask, CTX("c"), junk, share), -1);
	assert_int_equal(pcrypto_key_prove(&am.sk, CTX(ctx), proof), -1);
	assert_int_equal(pcrypto_key_verify(junk, CTX("c"), proof), -1);
	assert_int_equal(pcrypto_card_point(0, pt), -1);
	assert_int_equal(pcrypto_card_point(PCRYPTO_MAX_CARD + 1, pt), -1);
	assert_int_equal(pcrypto_open(junk, 1, out), -1);
	assert_int_equal(pcrypto_card_find(junk, 110), -1);
	assert_int_equal(pcrypto_unmask(junk, junk, junk, 110), -1);
	assert_int_equal(pcrypto_joint_key(junk, am.pk.mask, pt), -1);
	/* a point that is no card */
	assert_int_equal(pcrypto_card_find(y, 110), -1);
	free(big);
}

/*
 * The cost of one shuffle of the whole deck (docs/peer.md 15): 110 cards,
 * proved and verified, the bytes that travel (outputs and proof). The
 * times are printed, not asserted (the machine is shared).
 */
static void test_cost_of_a_deck(void **state)
{
	struct player am, br;
	unsigned char y[PCRYPTO_PT], *deck, *out = xmalloc(110 * CT),
		      *proof = xmalloc(PCRYPTO_SHUFFLE_PROOF(110));
	struct timespec t0, t1, t2;

	(void)state;
	players(&am, &br);
	joint(&am, &br, y);
	deck = open_deck(y, 1, 110);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pcrypto_shuffle(&am.sk, CTX("g shuffle 1 1 american"), y, deck, 110, out, proof), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(pcrypto_shuffle_verify(CTX("g shuffle 1 1 american"), y, deck, 110, out, proof), 0);
	clock_gettime(CLOCK_MONOTONIC, &t2);
	assert_int_equal(PCRYPTO_SHUFFLE_PROOF(110), 14460);
	print_message("110 cards: prove %.0f ms, verify %.0f ms, %zu bytes (outputs %d, proof %zu)\n",
		      (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
		      (double)(t2.tv_sec - t1.tv_sec) * 1e3 + (double)(t2.tv_nsec - t1.tv_nsec) / 1e6,
		      110 * CT + PCRYPTO_SHUFFLE_PROOF(110), 110 * CT, PCRYPTO_SHUFFLE_PROOF(110));
	free(deck);
	free(out);
	free(proof);
}

/* Writes the lines of hex of n items of size bytes each to dir/name. */
static int write_hex(const char *dir, const char *name, const unsigned char *b,
		     size_t n, size_t size)
{
	char *path = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	struct strbuf line = STRBUF_INIT;

	free(path);
	if (!f)
		return -1;
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&line);
		addhex(&line, b + i * size, size);
		fprintf(f, "%s\n", line.buf);
	}
	strbuf_release(&line);
	return fclose(f) ? -1 : 0;
}

/*
 * --shuffle-files DIR: the American of the vectors shuffles the 110 open
 * cards for the context "ww-test shuffle 2 1 american" and writes DIR/y
 * (the joint key), DIR/in and DIR/out (a masked card a line) and
 * DIR/proof (64 bytes a line), all in hex, for verify_peer.py shuffle.
 */
static int shuffle_files(const char *dir)
{
	struct player am, br;
	unsigned char y[PCRYPTO_PT], *deck, *out = xmalloc(110 * CT),
		      *proof = xmalloc(PCRYPTO_SHUFFLE_PROOF(110));
	int ret;

	players(&am, &br);
	joint(&am, &br, y);
	deck = open_deck(y, 1, 110);
	ret = pcrypto_shuffle(&am.sk, CTX("ww-test shuffle 2 1 american"), y, deck, 110, out, proof) < 0 ||
	      write_hex(dir, "y", y, 1, sizeof(y)) < 0 ||
	      write_hex(dir, "in", deck, 110, CT) < 0 ||
	      write_hex(dir, "out", out, 110, CT) < 0 ||
	      write_hex(dir, "proof", proof, PCRYPTO_SHUFFLE_PROOF(110) / 60, 60) < 0;
	free(deck);
	free(out);
	free(proof);
	return ret;
}

/* x || y of pt, a compressed point */
static void xy_of(const unsigned char pt[PCRYPTO_PT], unsigned char xy[64])
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *p = EC_POINT_new(g);
	unsigned char full[65];

	assert_true(g && p && EC_POINT_oct2point(g, p, pt, PCRYPTO_PT, NULL));
	assert_int_equal(EC_POINT_point2oct(g, p, POINT_CONVERSION_UNCOMPRESSED, full,
					    sizeof(full), NULL), sizeof(full));
	memcpy(xy, full + 1, 64);
	EC_POINT_free(p);
	EC_GROUP_free(g);
}

static void table_row(const unsigned char pt[PCRYPTO_PT], const char *what, int i)
{
	unsigned char xy[64];

	xy_of(pt, xy);
	printf("\t/* %s %d */\n\t{", what, i);
	for (int k = 0; k < 64; k++)
		printf("%s0x%02x%s", k % 8 ? " " : k ? "\n\t " : " ", xy[k], k < 63 ? "," : " },\n");
}

/* `test_peer_crypto --tables`: src/peer-cards.c, each point by TAI */
static int print_tables(void)
{
	unsigned char pt[PCRYPTO_PT], xy[64];

	printf("/*\n * peer-cards.c - the points of docs/peer.md made by TAI (3.2) that never\n"
	       " * change, compiled in (issue 41: computing them was 41%% of a peer\n"
	       " * `options` and 23%% of a `peer audit`): the cards' points M_c (3.4) of\n"
	       " * cards 1 to PCRYPTO_TABLE_CARDS, the shuffle's generators H_i and the\n"
	       " * chain's base (4.4), each as x || y (big-endian, 32 bytes each).\n"
	       " *\n * Written by `build/tests/test_peer_crypto --tables >src/peer-cards.c`;\n"
	       " * test_peer_crypto's test_tables computes every point again by TAI\n"
	       " * and compares.\n */\n#include \"peer-crypto.h\"\n\n");
	printf("const unsigned char pcrypto_card_table[PCRYPTO_TABLE_CARDS][64] = {\n");
	for (int c = 1; c <= PCRYPTO_TABLE_CARDS; c++) {
		if (pcrypto_card_point_derived(c, pt) < 0)
			return 1;
		table_row(pt, "card", c);
	}
	printf("};\n\nconst unsigned char pcrypto_generator_table[PCRYPTO_MAX_DECK][64] = {\n");
	for (int i = 0; i < PCRYPTO_MAX_DECK; i++) {
		if (pcrypto_generator_derived(i, pt) < 0)
			return 1;
		table_row(pt, "H", i);
	}
	printf("};\n\n/* the chain's base */\nconst unsigned char pcrypto_chain_base[64] = {");
	if (pcrypto_generator_derived(-1, pt) < 0)
		return 1;
	xy_of(pt, xy);
	for (int k = 0; k < 64; k++)
		printf("%s0x%02x%s", k % 8 ? " " : "\n\t", xy[k], k < 63 ? "," : "\n};\n");
	return 0;
}

/* The compiled-in points are those TAI makes (and the table is used:
 * pcrypto_card_point() gives its entries). */
static void test_tables(void **state)
{
	unsigned char want[PCRYPTO_PT], got[PCRYPTO_PT];

	(void)state;
	for (int c = 1; c <= PCRYPTO_TABLE_CARDS; c++) {
		assert_int_equal(pcrypto_card_point_derived(c, want), 0);
		assert_int_equal(pcrypto_table_point(0, c, got), 0);
		assert_memory_equal(want, got, PCRYPTO_PT);
		assert_int_equal(pcrypto_card_point(c, got), 0);
		assert_memory_equal(want, got, PCRYPTO_PT);
	}
	for (int i = -1; i < PCRYPTO_MAX_DECK; i++) {
		assert_int_equal(pcrypto_generator_derived(i, want), 0);
		assert_int_equal(pcrypto_table_point(1, i, got), 0);
		assert_memory_equal(want, got, PCRYPTO_PT);
	}
	/* past the table, computed as before */
	assert_int_equal(pcrypto_card_point_derived(PCRYPTO_TABLE_CARDS + 1, want), 0);
	assert_int_equal(pcrypto_card_point(PCRYPTO_TABLE_CARDS + 1, got), 0);
	assert_memory_equal(want, got, PCRYPTO_PT);
	assert_int_equal(pcrypto_card_find(want, PCRYPTO_TABLE_CARDS + 1), PCRYPTO_TABLE_CARDS + 1);
	assert_int_equal(pcrypto_card_find(want, PCRYPTO_TABLE_CARDS), -1);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--tables"))
		return print_tables();
	if (argc == 3 && !strcmp(argv[1], "--shuffle-files"))
		return shuffle_files(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--vectors")) {
		struct strbuf out = STRBUF_INIT;
		int ret = vectors(&out);
		fputs(out.buf, stdout);
		strbuf_release(&out);
		return ret ? 1 : 0;
	}

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_rogue_key_refused),
		cmocka_unit_test(test_shuffle_and_open),
		cmocka_unit_test(test_shuffle_not_a_permutation),
		cmocka_unit_test(test_shuffle_outputs_changed),
		cmocka_unit_test(test_shuffle_proof_tampered),
		cmocka_unit_test(test_share_cheats),
		cmocka_unit_test(test_dice_cheats),
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_cost_of_a_deck),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
