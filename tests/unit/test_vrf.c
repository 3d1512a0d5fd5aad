/*
 * test_vrf.c - ECVRF-P256-SHA256-TAI (src/vrf.c) and the provable dice of
 * fairness version 2 (src/rng.c, src/fair.c): RFC 9381's vectors, cases
 * computed by the independent Python verifier (tests/verify/verify_vrf.py)
 * that the C code must match, the game-level vector of docs/fairness.md
 * section 18, and every kind of bad proof or key, rejected without a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "fair.h"
#include "rng.h"
#include "util.h"
#include "vrf.h"

static void unhex(const char *h, unsigned char *out, size_t n)
{
	assert_int_equal(strlen(h), 2 * n);
	assert_int_equal(hex_decode(h, out, n), 0);
}

static void assert_hex(const unsigned char *b, size_t n, const char *want)
{
	char got[512];

	assert_true(2 * n < sizeof(got));
	hex_encode(b, n, got);
	assert_string_equal(got, want);
}

/* RFC 9381 appendix B.1: sk, pk, alpha (text), pi, beta. */
static const struct {
	const char *sk, *pk, *alpha, *pi, *beta;
} rfc[] = {
	{ "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
	  "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
	  "sample",
	  "035b5c726e8c0e2c488a107c600578ee75cb702343c153cb1eb8dec77f4b5071b4"
	  "a53f0a46f018bc2c56e58d383f2305e0975972c26feea0eb122fe7893c15af376b"
	  "33edf7de17c6ea056d4d82de6bc02f",
	  "a3ad7b0ef73d8fc6655053ea22f9bede8c743f08bbed3d38821f0e16474b505e" },
	{ "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
	  "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
	  "test",
	  "034dac60aba508ba0c01aa9be80377ebd7562c4a52d74722e0abae7dc3080ddb56"
	  "c19e067b15a8a8174905b13617804534214f935b94c2287f797e393eb0816969d8"
	  "64f37625b443f30f1a5a33f2b3c854",
	  "a284f94ceec2ff4b3794629da7cbafa49121972671b466cab4ce170aa365f26d" },
	{ "2ca1411a41b17b24cc8c3b089cfd033f1920202a6c0de8abb97df1498d50d2c8",
	  "03596375e6ce57e0f20294fc46bdfcfd19a39f8161b58695b3ec5b3d16427c274d",
	  "Example using ECDSA key from Appendix L.4.2 of ANSI.X9-62-2005",
	  "03d03398bf53aa23831d7d1b2937e005fb0062cbefa06796579f2a1fc7e7b8c667"
	  "d091c00b0f5c3619d10ecea44363b5a599cadc5b2957e223fec62e81f7b4825fc7"
	  "99a771a3d7334b9186bdbee87316b1",
	  "90871e06da5caa39a3c61578ebb844de8635e27ac0b13e829997d0d95dd98c19" },
};

static void test_rfc_vectors(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rfc); i++) {
		unsigned char sk[32], pk[33], pi[81], beta[32], beta2[32];
		const unsigned char *alpha = (const unsigned char *)rfc[i].alpha;
		size_t len = strlen(rfc[i].alpha);

		unhex(rfc[i].sk, sk, 32);
		assert_int_equal(vrf_public_key(sk, pk), 0);
		assert_hex(pk, 33, rfc[i].pk);
		assert_int_equal(vrf_prove(sk, alpha, len, pi), 0);
		assert_hex(pi, 81, rfc[i].pi);
		assert_int_equal(vrf_proof_to_hash(pi, beta), 0);
		assert_hex(beta, 32, rfc[i].beta);
		assert_int_equal(vrf_verify(pk, pi, alpha, len, beta2), 0);
		assert_memory_equal(beta, beta2, 32);
	}
}

/* Computed by tests/verify/verify_vrf.py (prove), which shares no code
 * with src/vrf.c: for i = 0..19, sk_i = (SHA-256("postrider-vrf-test" ||
 * u8(i)) mod (q-1)) + 1 (vrf_secret_key) and alpha_i = "alpha i" (ASCII);
 * pk, pi (Gamma, c, s on their own lines) and beta. */
static const struct {
	const char *pk, *pi, *beta;
} python[] = {
	{ "034a06b1407c3b0e357c1dcc1f7db13480d32e496ce226d1cd26245e668ff888b6",
	  "0362265c3e99794958c689093977528a364ec5179e5afd7f409997f2ec53fd84fe"
	  "57666af6f59b7ad526a88f13c7524e4c"
	  "1c9108296467ea2ed27fc1f8685f4f2e0fe836a43a1c0b08e5ff526b37e73be9",
	  "6d45d4fde2bf5ef65229807eff16991aee56a1bcc33ac97bb39e8fdc8047bad0" },
	{ "027c61a52ad821453fbe45a7b7a4511a7ac035cdf8f40d9ae7098109a8b25c7bf1",
	  "03137c500927199766efcf80bddbaa176d876e872eb20f0d05a2f7671c66bbaad1"
	  "d0a9f67ed8c155ab771260692d223c64"
	  "016fd969d07cfd41542879c4ecc1bb3dc494f9d7cc7800e376b788dbf095212a",
	  "d3ae9f428deff15cb952f9ca4286fb8132d2ffb38c4cae2363a04c2ad02e5456" },
	{ "0255c2ed16bdfb20c5f94e92917976c759b83f2cbba243dd10829e9d3b4648ea09",
	  "0234ce81a2e4c1bd60b99bbb4c2ddd94d59296029e8e3ac58510107d80ee9cdec2"
	  "608c2b0aff7217250100bee964962c75"
	  "e24e42f4461962a28e0a8bb1d06d05bf5eb573a2053d8b59bec7e92e5f31263e",
	  "5d481f5295938af3591b3adffdcbc698a91d1910fce1509ed377e64d25abbaef" },
	{ "028012e713759414ff775f0ed47c5f3cf9361cab1e842075e5b3811bb8b20f9447",
	  "030daa1e2c11120b192b0f1a5f0ad8a37e1ee3aa5b08b7748c4efe9b8c5e4f840a"
	  "d4b8ddbce79127d1d19463919cb9b49a"
	  "5dcd2f0305e865fb2dbf21503d9744e590784aee9d5e4edf7d8cace7fac87402",
	  "35b16d04e565e6b409b5fab37825cacc54072fb1eaca44ee0ed54c6fe20a73c2" },
	{ "02db2640cadb26df92aebed6523d3100cff85f83c22c54aa041672b01ff5269f33",
	  "020e8875fc2f7757a34232bdfda78c74dc391a386864413a500e2bc3bdea7d3765"
	  "50b89719648bcf69d4c4d0b08aa4b1be"
	  "fe6c536b06c1df475d474cf90343ad1be821cd0f6052d3dc3e28072f16e8ca2e",
	  "1224a97b28c8659ba95725e2c9f84ce5047da08d33389f6fceaba0d301fe4a46" },
	{ "03aeb69ec5a64c0aa34bacd0fb7274c79eced3ba38f96f955a75b580db5d891843",
	  "021a9ae440e8f77fc73cf2bf1c82d8dfa182ae0193ac64b03895987af7c229210f"
	  "f8bea7bd928a59566bf049ca74480e11"
	  "2896a7d8e4b149046a12ec9f1d35032e2b7ef6097ccc1269a67f373c6362058e",
	  "5264e947c4991dca802d073219e2bfb56509f5aed8319430399eadb3d2b6761b" },
	{ "02af937a38397ff5456524717bfb30eb61fe06d42f54e2f3b53297e7942fb43442",
	  "02a91550fbab81cef5956eda8142a597f262694085e8a30b283776204598715dc6"
	  "038576515bbcaf704de066f44cb1d975"
	  "f2f2e4185663aa8bdce03b371a93573c0eeb9ca660db037465aa17da2c0c3d93",
	  "489856fdd6c551986293a46a99abb23cbf0008fda65acf5766f055fc380fd993" },
	{ "03ac5f185f47a299f37dae1dd5477336c48194ccde37870147307ff9e8d2c6e90d",
	  "027653e5a2ad90b38b8a52c2e00efe8e6cc4b353bde887affe9e3891fca006c96e"
	  "e29807953c86ae4067e29ebadd809452"
	  "cf93351b2497234deb7b7780e4d8ed38529ea70872da6f7e8ef996f940c02451",
	  "1372b666bb6517f58f9c7a35a1ea1065ab5647d69f0094808243ca7111c7ad13" },
	{ "0217a9b4c05d20a793adda3ae01b062e1f2d7840cc5bab778db1c1ec0193181e2f",
	  "03e8bd05ff44bb361ea711dfc40f1698b2cb454eb68556f28b4e63568a9da22a68"
	  "a65d1e92f9d8f07da67ed64b5023272a"
	  "944209df86402b664b99a78be2263b5090f841be14b5aec7a66668408ed46b6a",
	  "15fab14758fbdd6b7dcee54ba69c4fba317de935fa23b8103226201c66eab25e" },
	{ "02489c10bb3b17723e6e22941681fb01ea901e6e6f42bcfe7ecdb53a3ce931ee78",
	  "035c61f7ab3780acd3613f422c3c08c750920a1b6da19da636d7476523784134cc"
	  "9cf10434dc31c0cd7ef4de2f0a9b3e91"
	  "e21e1dd785839979251eed4c790b11b06be6e1e3491e02996109bad5811964b5",
	  "bd6606adf82b449e2d3968972247c2df2e01fbf89c8df53dd9ac3fd130f5c76f" },
	{ "03d65a71f2c00bc14c8ec35aa7fbbb0d02f0d2ab44d71cb2636539114cfe2a79af",
	  "0251daf2dd44f874d9bb650b4fe32e392ab5d3bed8812c659a3ce09acbfa8f7aaa"
	  "6c08f47a25d4463be1f6776e6a095cfe"
	  "ff47946817cb397f931a18b1b9ca00a459d8c1ad5ce963b98bd7ff8a31defb20",
	  "02fb9c1573ebc086e44176949f34a703183ef4f17b067f316b6036d7279e2376" },
	{ "0363dd3a1e3fd336dba71381fdfb8dfdb0491d67526a66ae32ecb779067ab6990f",
	  "02a799d59d154d9aebeeaaebcebc42c04d937c51b9660d63f22de5436acde228a8"
	  "7f8704372f4f44076faa25adfd70c666"
	  "f74d9d6133042e5e833ffff0efdd99bee16367b63d1d2e95d7a62947ac07968e",
	  "3afa77e0829363ebd1744a2dcdefa15b1971693140016b502a239ee5a4a0d36c" },
	{ "0293bf97fdf55bbc48221f3964ba6eb6f2cf30deafe4470f08c0e29e5fca5ed695",
	  "0244449694b45c0eb2689eaa0297481cab1775adbfef99675d8877d6a1071b7282"
	  "ff09196cf6856433b9c22c34b688adf7"
	  "6abaa8955c86b3fe4b01aa46b6aea57923e070698b36aa119fb6f8c77dded3cf",
	  "ef7050d8921406da5b478899fb6fc6751c6211554a171a5ebd058ddd99dbae44" },
	{ "03990b000d9b83d7b81e2589f3c0b264554d9fd986c71af8b60e2730e817982b49",
	  "034d17076f5dd02e396c1047704420b9909b0bacfd92a7df07613a85059331239d"
	  "8a51e7ecc2e88a3e38bdebcbebb05080"
	  "52266c055a2a20cee8a9d5daf2493c081d585ef2019f77cf91966ce5e8fdec34",
	  "583664de79130a29d4971fa89c2568d5f38eafcbc4d6ec4be05cb596714e3920" },
	{ "02e16ecc8568af94b17c1dd603fb64ea12d7038aadd87597f5a3cef349262c166d",
	  "039e68624e9455410a1960b5a7de02b5d3397816c056d43bf8ef73dbf9c4e1644d"
	  "3a9bdf6348515d0b883c796dd5461aae"
	  "3325610118d4ecd0d72981102d72bdfd5e9190f47cb0c628a59cc4b6212e0923",
	  "52dcae778cc3d79c77ec1f35af65571e169cc60338de0397eed0bff37db421fe" },
	{ "027e515ed39a78d96043b2d4df9b7b31ec36aa3fc984e6204d06eeaf19af9d8d5c",
	  "02d7668b6bf1e2863821d2e285a93e4b7b819571b0d526ca9349364bb0808baa67"
	  "858c11049441ee90a59b40863d5e8cfa"
	  "06d22edc08e1c3b8c2b2aaba96fc2ee45e91a9927392fee0eb0f4cd93dd52df3",
	  "257e09a7d6c9ff18b170e84f14608df48d9a8b7bef582da52e4c2e90f19211ab" },
	{ "039328e4a8f5fb1888ba2d0484691cab002efdb7e594884ed1ffd8fc740bd15415",
	  "02277728a7ac791de4f7eaf48908a7de43c03d9da6c94b2560e0e0defe311add93"
	  "5e09fbfa8082f079f70f9f838766a531"
	  "3938ab9fbbfd824aae8b610fd1c4878173e9ccb70940b730282a2f2eecf9844b",
	  "78e936c60b1e772338e7dc1d4dd846e1d490843bb080ba000aa3a8358baa67f7" },
	{ "0269852beae0c6e79fc91c9544d16a171b367850f1b29461032815450e43de62e4",
	  "03ecb1f12e1bbd451ac1d528685d3e0727c784022a92c0ac98230260431f66e372"
	  "d7f22d3738ec47178d42cb2790809525"
	  "fc6b8a630ff5b8ef2dfa31dd5b20cb30979964a9a720fb384e7d03755f830bc6",
	  "a216bb57a1e689d5bef585a4d89ace0a2639bc409f41d1457d212ade166d9b7b" },
	{ "02cdb73517671b287d13d0b1cb9e3a85f9338fb07c1373ecb9e4bb6536e67ea567",
	  "028f432e652f98a80213d696925fd73a825ffbc7461e021325633f6ec8bcba1e0e"
	  "46d396abdf65a0269d25bf2a7c9fdbe4"
	  "c46cb5b421d3b156b75c601a37e8437bbcf5540a59b47548e0a41df892ca0ff5",
	  "7693e9bcfc82151f2ca9997aff5ae6ef8df09fabe46339f6cc146bca1fdffe93" },
	{ "0335b50d227132cb7a40c01a4f8c68fa404cf94168c9c9373075280050ec6fe2a0",
	  "02183403d08818f0470a6e0dde9739510650bc8888b4416ed5f32541416032b621"
	  "5d74bdd16ec2669263d864e409d1f7c1"
	  "48fc1a32b5f94b2b855b1055e9ae6b37412a5a722fdfbabf476ba9b130fafc84",
	  "97cde71a935fb9f3554fd5b8373f36c21038c3309a39a3167d85ff42584bb6da" },
};

static void test_python_cases(void **state)
{
	(void)state;
	assert_int_equal(ARRAY_SIZE(python), 20);
	for (size_t i = 0; i < ARRAY_SIZE(python); i++) {
		unsigned char raw[32], sk[32], pk[33], pi[81], beta[32], msg[19];
		char alpha[16];
		unsigned int n = 0;

		memcpy(msg, "postrider-vrf-test", 18);
		msg[18] = (unsigned char)i;
		assert_true(EVP_Digest(msg, sizeof(msg), raw, &n, EVP_sha256(), NULL));
		assert_int_equal(vrf_secret_key(raw, sk), 0);
		snprintf(alpha, sizeof(alpha), "alpha %zu", i);
		assert_int_equal(vrf_public_key(sk, pk), 0);
		assert_hex(pk, 33, python[i].pk);
		assert_int_equal(vrf_prove(sk, (unsigned char *)alpha, strlen(alpha), pi), 0);
		assert_hex(pi, 81, python[i].pi);
		assert_int_equal(vrf_verify(pk, pi, (unsigned char *)alpha, strlen(alpha), beta), 0);
		assert_hex(beta, 32, python[i].beta);
	}
}

/* Every single-bit change of the proof (Gamma, c or s), the key or alpha
 * is caught. */
static void test_tamper(void **state)
{
	unsigned char sk[32], pk[33], pi[81], beta[32], bad[81], badpk[33];
	unsigned char alpha[6], badalpha[6];
	int refused = 0, tried = 0;

	(void)state;
	memcpy(alpha, "sample", 6);
	unhex(rfc[0].sk, sk, 32);
	assert_int_equal(vrf_public_key(sk, pk), 0);
	unhex(rfc[0].pi, pi, 81);
	assert_int_equal(vrf_verify(pk, pi, alpha, 6, beta), 0);
	/* every bit of Gamma (0-32), c (33-48) and s (49-80) */
	for (int byte = 0; byte < 81; byte++) {
		for (int bit = 0; bit < 8; bit++) {
			memcpy(bad, pi, 81);
			bad[byte] ^= (unsigned char)(1 << bit);
			tried++;
			refused += vrf_verify(pk, bad, alpha, 6, beta) == -1;
		}
	}
	assert_int_equal(refused, tried);
	/* every bit of the key: the prefix 02/03 (the key -Y), or x */
	refused = tried = 0;
	for (int byte = 0; byte < 33; byte++) {
		for (int bit = 0; bit < 8; bit++) {
			memcpy(badpk, pk, 33);
			badpk[byte] ^= (unsigned char)(1 << bit);
			tried++;
			refused += vrf_verify(badpk, pi, alpha, 6, beta) == -1;
		}
	}
	assert_int_equal(refused, tried);
	/* every bit of alpha, a shorter and a longer alpha */
	refused = tried = 0;
	for (int byte = 0; byte < 6; byte++) {
		for (int bit = 0; bit < 8; bit++) {
			memcpy(badalpha, alpha, 6);
			badalpha[byte] ^= (unsigned char)(1 << bit);
			tried++;
			refused += vrf_verify(pk, pi, badalpha, 6, beta) == -1;
		}
	}
	assert_int_equal(refused, tried);
	assert_int_equal(vrf_verify(pk, pi, alpha, 5, beta), -1);
	assert_int_equal(vrf_verify(pk, pi, (const unsigned char *)"sample\0", 7, beta), -1);
	assert_int_equal(vrf_verify(pk, pi, NULL, 0, beta), -1);
	/* the proof of another input, and the right proof under another key */
	unhex(rfc[1].pi, bad, 81);
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	unhex(rfc[2].pk, badpk, 33);
	assert_int_equal(vrf_verify(badpk, pi, alpha, 6, beta), -1);
}

/* q, the order of P-256, and p, its prime, big-endian. */
#define HEX_Q "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
#define HEX_P "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
/* x = 1 is below p, but 1 - 3 + b is no square modulo p: no point (as
 * tests/verify/verify_vrf.py's decode_point finds). */
#define HEX_NO_POINT "0000000000000000000000000000000000000000000000000000000000000001"

/* Malformed inputs: no crash, always -1. */
static void test_malformed(void **state)
{
	unsigned char sk[32], pk[33], pi[81], beta[32], bad[81], nokey[33];
	const unsigned char alpha[] = "sample";

	(void)state;
	unhex(rfc[0].sk, sk, 32);
	assert_int_equal(vrf_public_key(sk, pk), 0);
	unhex(rfc[0].pi, pi, 81);

	/* an all-zero proof, an all-0xff proof */
	memset(bad, 0, sizeof(bad));
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	assert_int_equal(vrf_proof_to_hash(bad, beta), -1);
	memset(bad, 0xff, sizeof(bad));
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	assert_int_equal(vrf_proof_to_hash(bad, beta), -1);

	/* s = q and s = 2^256 - 1: not below the order */
	memcpy(bad, pi, 81);
	unhex(HEX_Q, bad + 49, 32);
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	assert_int_equal(vrf_proof_to_hash(bad, beta), -1);
	memset(bad + 49, 0xff, 32);
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	assert_int_equal(vrf_proof_to_hash(bad, beta), -1);
	/* s = q - 1 and s = 0 decode (proof_to_hash takes them) but do not
	 * verify */
	unhex(HEX_Q, bad + 49, 32);
	bad[80]--;
	assert_int_equal(vrf_proof_to_hash(bad, beta), 0);
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	memset(bad + 49, 0, 32);
	assert_int_equal(vrf_proof_to_hash(bad, beta), 0);
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);

	/* Gamma not on the curve: an x with no point, x = p, an x above p,
	 * the uncompressed and the infinity prefixes */
	memcpy(bad, pi, 81);
	for (int prefix = 2; prefix <= 3; prefix++) {
		bad[0] = (unsigned char)prefix;
		unhex(HEX_NO_POINT, bad + 1, 32);
		assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
		assert_int_equal(vrf_proof_to_hash(bad, beta), -1);
		unhex(HEX_P, bad + 1, 32);
		assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
		assert_int_equal(vrf_proof_to_hash(bad, beta), -1);
		memset(bad + 1, 0xff, 32);
		assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
		assert_int_equal(vrf_proof_to_hash(bad, beta), -1);
	}
	memcpy(bad, pi, 81);
	bad[0] = 0x04;
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	assert_int_equal(vrf_proof_to_hash(bad, beta), -1);
	bad[0] = 0x00;
	assert_int_equal(vrf_verify(pk, bad, alpha, 6, beta), -1);
	assert_int_equal(vrf_proof_to_hash(bad, beta), -1);

	/* a key not on the curve: an x with no point, x = p, all zero, the
	 * uncompressed prefix on a good x */
	for (int prefix = 2; prefix <= 3; prefix++) {
		nokey[0] = (unsigned char)prefix;
		unhex(HEX_NO_POINT, nokey + 1, 32);
		assert_int_equal(vrf_verify(nokey, pi, alpha, 6, beta), -1);
		unhex(HEX_P, nokey + 1, 32);
		assert_int_equal(vrf_verify(nokey, pi, alpha, 6, beta), -1);
	}
	memset(nokey, 0, sizeof(nokey));
	assert_int_equal(vrf_verify(nokey, pi, alpha, 6, beta), -1);
	memcpy(nokey, pk, 33);
	nokey[0] = 0x04;
	assert_int_equal(vrf_verify(nokey, pi, alpha, 6, beta), -1);

	/* secret keys out of range: 0, q and 2^256 - 1 */
	memset(sk, 0, sizeof(sk));
	assert_int_equal(vrf_public_key(sk, pk), -1);
	assert_int_equal(vrf_prove(sk, alpha, 6, bad), -1);
	unhex(HEX_Q, sk, 32);
	assert_int_equal(vrf_public_key(sk, pk), -1);
	assert_int_equal(vrf_prove(sk, alpha, 6, bad), -1);
	memset(sk, 0xff, sizeof(sk));
	assert_int_equal(vrf_public_key(sk, pk), -1);
	assert_int_equal(vrf_prove(sk, alpha, 6, bad), -1);
	/* q - 1 is the largest key */
	unhex(HEX_Q, sk, 32);
	sk[31]--;
	assert_int_equal(vrf_public_key(sk, pk), 0);
}

/* An empty alpha (NULL, 0): the RFC's first key, as the Python proves it. */
static void test_empty_alpha(void **state)
{
	unsigned char sk[32], pk[33], pi[81], beta[32];

	(void)state;
	unhex(rfc[0].sk, sk, 32);
	assert_int_equal(vrf_public_key(sk, pk), 0);
	assert_int_equal(vrf_prove(sk, NULL, 0, pi), 0);
	assert_hex(pi, 81, "02eef27940a796fa5ba8938b79c34878b4b37c537d4bbfd24fd12633c8894918f5"
		   "8c685aebc9e69fb84fbdd1a815bd5cef"
		   "8515f31bd1b47bde07c32958030163e519baaf1b7c712b5587f610f1eba441e3");
	assert_int_equal(vrf_verify(pk, pi, NULL, 0, beta), 0);
	assert_hex(beta, 32, "b901087cb9e4d9d85b67ef740e5729794bb3fb964989a057df6727c739ca8df1");
	assert_int_equal(vrf_verify(pk, pi, (const unsigned char *)"", 0, beta), 0);
	assert_int_equal(vrf_verify(pk, pi, (const unsigned char *)"\0", 1, beta), -1);
}

/* vrf_secret_key maps every 32 bytes into [1, q-1]. */
static void test_secret_key_range(void **state)
{
	unsigned char in[32], sk[32], pk[33];

	(void)state;
	memset(in, 0xff, sizeof(in));
	assert_int_equal(vrf_secret_key(in, sk), 0);
	assert_int_equal(vrf_public_key(sk, pk), 0);
	memset(in, 0, sizeof(in));
	assert_int_equal(vrf_secret_key(in, sk), 0);
	for (int i = 0; i < 31; i++)
		assert_int_equal(sk[i], 0);
	assert_int_equal(sk[31], 1);
}

/* docs/fairness.md section 18's vector: the seed 00 01 ... 1f, game
 * "ww-test", no words; the dice at indices 0-2. */
static void test_game_vector(void **state)
{
	unsigned char seed[32], sk[32], pk[33], alpha[RNG_ALPHA_MAX], pi[81], beta[32];
	unsigned char words[64] = { 0 };
	static const int dice[3] = { 2, 3, 3 };
	struct rng r;
	struct strbuf proofs = STRBUF_INIT;

	(void)state;
	for (int i = 0; i < 32; i++)
		seed[i] = (unsigned char)i;
	assert_int_equal(fair_vrf_keys(seed, sk, pk), 0);
	assert_hex(sk, 32, "728b628227fe184c616947da81fcc4d1408a07bb9114b66deb24933d3431689b");
	assert_hex(pk, 33, "035960a54d84ad773022d3eb0e2af1c67d0b8422bfb81377aa7745d94c21282c39");
	size_t len = rng_vrf_alpha("ww-test", words, 0, alpha);
	assert_int_equal(len, 18 + 1 + 7 + 64 + 8);
	/* the label, u8(7), "ww-test", 64 zero bytes of words, u64be(0) */
	assert_hex(alpha, len, "706f737472696465722d7672662d64726177" "07" "77772d74657374"
		   "0000000000000000000000000000000000000000000000000000000000000000"
		   "0000000000000000000000000000000000000000000000000000000000000000"
		   "0000000000000000");
	assert_int_equal(vrf_prove(sk, alpha, len, pi), 0);
	assert_hex(pi, 81, "0284e2a30a9133eedbc18aff4fddcf5cf7af6ced4976c9f0993f4007f77db57f15"
		   "95fb513d1d06c98b0dddd3e05995637ac067c2cf0b009b6216c40369396ae2f2"
		   "6fab0cd4528abead91cd4e0e3fc73bfd");
	assert_int_equal(vrf_verify(pk, pi, alpha, len, beta), 0);
	assert_hex(beta, 32, "f610e5b3ab9994de4b19b8e5b4daf9c1df2638ce025f3a458271060477c645d2");

	/* the stream draws the same dice and logs one proof a die */
	rng_init(&r, seed, 0);
	rng_use_vrf(&r, sk, "ww-test");
	r.proofs = &proofs;
	for (int i = 0; i < 3; i++)
		assert_int_equal(rng_die(&r, "test"), dice[i]);
	assert_true(!strncmp(proofs.buf, "0 0284e2a30a9133eedbc18aff", 26));
	assert_non_null(strstr(proofs.buf, "\n1 024c7acc6346094f489ed39f"));
	assert_non_null(strstr(proofs.buf, "\n2 02fb2c08edcfb9a90c95c1b1"));
	/* a shuffle stays on the keyed stream: no proof */
	size_t before = proofs.len;
	int items[5] = { 0, 1, 2, 3, 4 };
	rng_shuffle(&r, items, 5, "test");
	assert_int_equal(proofs.len, before);
	assert_int_equal(r.next, 3 + 4);
	strbuf_release(&proofs);
}

/* The words change every die's input, so every die. */
static void test_words_change_alpha(void **state)
{
	unsigned char seed[32] = { 0 }, sk[32], pk[33];
	unsigned char am[32];
	struct rng r1, r2;
	int same = 0;

	(void)state;
	memset(am, 0x5a, sizeof(am));
	assert_int_equal(fair_vrf_keys(seed, sk, pk), 0);
	rng_init(&r1, seed, 0);
	rng_use_vrf(&r1, sk, "ww-test");
	rng_init(&r2, seed, 0);
	rng_mix(&r2, am, NULL);
	rng_use_vrf(&r2, sk, "ww-test");
	assert_memory_equal(r2.words, am, 32);
	for (int i = 0; i < 40; i++)
		same += rng_die(&r1, NULL) == rng_die(&r2, NULL);
	assert_true(same < 20);
}

/*
 * Version 3 (docs/fairness.md section 19): the input names the order and
 * the draw's place in it; the vector of 19.5, computed by verify_vrf.py.
 * An undue shuffle before the dice moves none of them; another order, or
 * another place, gives other dice.
 */
static void test_order_bound(void **state)
{
	unsigned char seed[32], sk[32], pk[33], words[64] = { 0 };
	unsigned char alpha[RNG_ALPHA_MAX], pi[VRF_PROOF_BYTES], beta[VRF_HASH_BYTES];
	struct strbuf proofs = STRBUF_INIT;
	struct rng a, b, c;
	int items[6] = { 0, 1, 2, 3, 4, 5 }, da[3], differ = 0;
	static const int dice[3] = { 6, 4, 3 };

	(void)state;
	for (int i = 0; i < 32; i++)
		seed[i] = (unsigned char)i;
	assert_int_equal(fair_vrf_keys(seed, sk, pk), 0);
	size_t len = rng_vrf_alpha3("ww-test", words, 1, 4, 0, alpha);
	assert_int_equal(len, 21 + 1 + 7 + 64 + 1 + 8 + 8);
	assert_hex(alpha, len, "706f737472696465722d7672662d647261772d7633" "07" "77772d74657374"
		   "0000000000000000000000000000000000000000000000000000000000000000"
		   "0000000000000000000000000000000000000000000000000000000000000000"
		   "01" "0000000000000004" "0000000000000000");
	assert_int_equal(vrf_prove(sk, alpha, len, pi), 0);
	assert_hex(pi, 81, "0252cfe97ba66b79839e75d243410c49b7b11ff93ad3eff1e6ea00411c4ce62634"
		   "db1e2761499c5c7ebf5c7a232f9297e37a8bdb41009b9e07512d48a6517da9452f"
		   "e73f3ffa9fd212d5efa7e794da5e8d");
	assert_int_equal(vrf_verify(pk, pi, alpha, len, beta), 0);
	assert_hex(beta, 32, "91209bf4d1c9542c81bb1f13806311e6afff1117f1b70a8434bca6cb6f727c10");

	/* the American's order number 4 (from 0), from draw index 37 */
	rng_init(&a, seed, 37);
	rng_use_vrf(&a, sk, "ww-test");
	rng_vrf_bind_order(&a, 1, 4);
	a.proofs = &proofs;
	for (int i = 0; i < 3; i++)
		assert_int_equal(da[i] = rng_die(&a, "test"), dice[i]);
	/* the proof lines name the shared index, as in version 2 */
	assert_true(!strncmp(proofs.buf, "37 0252cfe97ba66b79839e75d243", 29));
	assert_int_equal(a.next, 40);
	/* an undue shuffle first: other indices, the same dice */
	rng_init(&b, seed, 37);
	rng_use_vrf(&b, sk, "ww-test");
	rng_vrf_bind_order(&b, 1, 4);
	rng_shuffle(&b, items, 6, "undue");
	for (int i = 0; i < 3; i++)
		assert_int_equal(rng_die(&b, "test"), da[i]);
	assert_int_equal(b.next, 37 + 5 + 3);
	/* the next order of the same side: other dice */
	for (int k = 0; k < 2; k++) {
		rng_init(&c, seed, 37);
		rng_use_vrf(&c, sk, "ww-test");
		rng_vrf_bind_order(&c, k ? 2 : 1, k ? 4 : 5);
		for (int i = 0; i < 3; i++)
			differ += rng_die(&c, "test") != da[i];
	}
	assert_true(differ >= 2);
	strbuf_release(&proofs);
}

/*
 * Fairness version 4 (docs/fairness.md 19b): a public draw's input is its
 * place among the game's public draws. The vector of 19b.5 (computed by
 * verify_vrf.py), the dice at places 4-6 and 0-2; a shuffle drawn first
 * changes none of them, and neither does an order that draws nothing
 * before them (the count it starts from is the same: issue 39).
 */
static void test_game_counted(void **state)
{
	unsigned char seed[32], sk[32], pk[33], words[64] = { 0 };
	unsigned char alpha[RNG_ALPHA_MAX], pi[VRF_PROOF_BYTES], beta[VRF_HASH_BYTES];
	struct strbuf proofs = STRBUF_INIT;
	struct rng a, b;
	int items[6] = { 0, 1, 2, 3, 4, 5 };
	static const int dice[3] = { 5, 4, 6 }, first[3] = { 1, 1, 2 };

	(void)state;
	for (int i = 0; i < 32; i++)
		seed[i] = (unsigned char)i;
	assert_int_equal(fair_vrf_keys(seed, sk, pk), 0);
	size_t len = rng_vrf_alpha4("ww-test", words, 4, alpha);
	assert_int_equal(len, 21 + 1 + 7 + 64 + 8);
	assert_hex(alpha, len, "706f737472696465722d7672662d647261772d7634" "07" "77772d74657374"
		   "0000000000000000000000000000000000000000000000000000000000000000"
		   "0000000000000000000000000000000000000000000000000000000000000000"
		   "0000000000000004");
	assert_int_equal(vrf_prove(sk, alpha, len, pi), 0);
	assert_hex(pi, 81, "02d68e8b108c588b482cb0881c84759281b5e54f4226f5a8896ea73539b30331aa"
		   "8f8724729a42fddf50d6baea91f57555576c0999a73c084065437c012a3b39546f"
		   "05434acf1b7fdde158a8a0f6f0fb25");
	assert_int_equal(vrf_verify(pk, pi, alpha, len, beta), 0);
	assert_hex(beta, 32, "b1ae6d55853815495ae1644fbc9a761e62dfa206e20ca91cae3261b442e6c986");

	/* the game's public draws 4, 5, 6, from draw index 37 */
	rng_init(&a, seed, 37);
	rng_use_vrf(&a, sk, "ww-test");
	rng_vrf_bind_count(&a, 4);
	a.proofs = &proofs;
	for (int i = 0; i < 3; i++)
		assert_int_equal(rng_die(&a, "test"), dice[i]);
	/* the proof lines name the shared index, as in versions 2 and 3 */
	assert_true(!strncmp(proofs.buf, "37 02d68e8b108c588b482cb0881c", 29));
	assert_int_equal(a.next, 40);
	/* an undue shuffle first: other indices, the same dice */
	rng_init(&b, seed, 37);
	rng_use_vrf(&b, sk, "ww-test");
	rng_vrf_bind_count(&b, 4);
	rng_shuffle(&b, items, 6, "undue");
	for (int i = 0; i < 3; i++)
		assert_int_equal(rng_die(&b, "test"), dice[i]);
	/* the first public draws of the game */
	rng_init(&b, seed, 0);
	rng_use_vrf(&b, sk, "ww-test");
	rng_vrf_bind_count(&b, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rng_die(&b, "test"), first[i]);
	strbuf_release(&proofs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc_vectors),
		cmocka_unit_test(test_python_cases),
		cmocka_unit_test(test_tamper),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_empty_alpha),
		cmocka_unit_test(test_secret_key_range),
		cmocka_unit_test(test_game_vector),
		cmocka_unit_test(test_words_change_alpha),
		cmocka_unit_test(test_order_bound),
		cmocka_unit_test(test_game_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
