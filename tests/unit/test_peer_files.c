/*
 * test_peer_files.c - the files of the cryptography in a peer game's
 * record (src/peer-files.c, docs/peer.md 6.3): a shuffle file written and
 * read back the same, the lines of shares.txt, dice.txt and keys.txt, and
 * every malformed line or file refused with nothing added.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "peer-files.h"
#include "util.h"

/* A shuffle of n cards with recognisable bytes. */
static void fill(struct peer_shuffle *sh, int gen, int turn, int n)
{
	size_t plen = PCRYPTO_SHUFFLE_PROOF(n);

	memset(sh, 0, sizeof(*sh));
	sh->have = true;
	sh->gen = gen;
	sh->turn = turn;
	sh->side = turn == 1 ? SIDE_AMERICAN : SIDE_BRITISH;
	sh->n = n;
	sh->out = xmalloc((size_t)n * PCRYPTO_CT);
	sh->proof = xmalloc(plen);
	for (size_t i = 0; i < (size_t)n * PCRYPTO_CT; i++)
		sh->out[i] = (unsigned char)(i * 7 + 1);
	for (size_t i = 0; i < plen; i++)
		sh->proof[i] = (unsigned char)(i * 13 + 5);
	if (turn == 1) {
		sh->refs = xcalloc((size_t)n, PEER_REF_MAX);
		for (int i = 0; i < n; i++)
			snprintf(sh->refs[i], PEER_REF_MAX, i % 2 ? "#%d" : "s%d.%d",
				 i % 2 ? 100 + i : gen - 1 > 0 ? gen - 1 : 1, i);
	}
}

static void test_shuffle_round_trip(void **state)
{
	struct peer_shuffle sh, back;
	struct strbuf text = STRBUF_INIT, again = STRBUF_INIT;
	char why[160];
	(void)state;

	for (int turn = 1; turn <= 2; turn++) {
		fill(&sh, 2, turn, 5);
		peer_shuffle_write(&sh, &text);
		assert_int_equal(peer_shuffle_parse(text.buf, &back, why, sizeof(why)), 0);
		assert_int_equal(back.gen, 2);
		assert_int_equal(back.turn, turn);
		assert_int_equal(back.side, sh.side);
		assert_int_equal(back.n, 5);
		assert_memory_equal(back.out, sh.out, 5 * PCRYPTO_CT);
		assert_memory_equal(back.proof, sh.proof, PCRYPTO_SHUFFLE_PROOF(5));
		peer_shuffle_write(&back, &again);
		assert_string_equal(again.buf, text.buf);
		peer_shuffle_release(&sh);
		peer_shuffle_release(&back);
		strbuf_reset(&text);
		strbuf_reset(&again);
	}
	strbuf_release(&text);
	strbuf_release(&again);
}

/* Each change of one line of a good file makes it unreadable. */
static void test_shuffle_refusals(void **state)
{
	static const char *const swaps[][2] = {
		{ "postrider-peer shuffle\n", "postrider-peer shuffle \n" },
		{ "generation 2\n", "generation 02\n" },
		{ "generation 2\n", "generation 0\n" },
		{ "turn 1\n", "turn 3\n" },
		{ "side american\n", "side host\n" },
		{ "cards 5\n", "cards 1\n" },
		{ "cards 5\n", "cards 6\n" },
		{ "in s1.0\n", "in s1.00\n" },
		{ "in #101\n", "in #0101\n" },
		{ "in #101\n", "in 101\n" },
		{ "out 01", "out 0G" },
		{ "out 01", "out 1" },
		{ "proof 05", "proof 5" },
	};
	struct peer_shuffle sh, back;
	struct strbuf text = STRBUF_INIT;
	char why[160];
	(void)state;

	fill(&sh, 2, 1, 5);
	peer_shuffle_write(&sh, &text);
	for (size_t i = 0; i < ARRAY_SIZE(swaps); i++) {
		const char *at = strstr(text.buf, swaps[i][0]);
		struct strbuf bad = STRBUF_INIT;
		assert_non_null(at);
		strbuf_add(&bad, text.buf, (size_t)(at - text.buf));
		strbuf_addstr(&bad, swaps[i][1]);
		strbuf_addstr(&bad, at + strlen(swaps[i][0]));
		if (peer_shuffle_parse(bad.buf, &back, why, sizeof(why)) == 0)
			fail_msg("swap %zu (%s) was read", i, swaps[i][1]);
		assert_false(back.have);
		strbuf_release(&bad);
	}
	/* a line more, a line less */
	strbuf_addstr(&text, "proof 00\n");
	assert_int_equal(peer_shuffle_parse(text.buf, &back, why, sizeof(why)), -1);
	text.len -= strlen("proof 00\n") + 10;
	text.buf[text.len] = '\0';
	assert_int_equal(peer_shuffle_parse(text.buf, &back, why, sizeof(why)), -1);
	peer_shuffle_release(&sh);
	strbuf_release(&text);
}

static void test_lines(void **state)
{
	struct peer_files f;
	struct peer_share s = { .slot = CARD_SLOT(3, 14), .side = SIDE_BRITISH };
	struct peer_dice d;
	unsigned char key[32];
	struct strbuf t = STRBUF_INIT;
	char why[160];
	(void)state;

	peer_files_init(&f);
	memset(s.share, 0xab, sizeof(s.share));
	peer_share_line(&s, &t);
	assert_true(!strncmp(t.buf, "s3.14 british abab", 18));
	assert_int_equal(peer_share_parse(t.buf, t.len - 1, &f, why, sizeof(why)), 0);
	assert_int_equal(f.n_shares, 1);
	assert_non_null(peer_files_share(&f, CARD_SLOT(3, 14), SIDE_BRITISH));
	assert_null(peer_files_share(&f, CARD_SLOT(3, 14), SIDE_AMERICAN));
	/* no masked card for a generation not shuffled, nor an open card */
	assert_null(peer_files_ct(&f, CARD_SLOT(3, 14)));
	assert_int_equal(peer_files_open(&f, CARD_SLOT(3, 14), 110), 0);
	t.buf[t.len - 2] = 'g';
	assert_int_equal(peer_share_parse(t.buf, t.len - 1, &f, why, sizeof(why)), -1);
	assert_int_equal(peer_share_parse("s0.1 british ab", 15, &f, why, sizeof(why)), -1);
	assert_int_equal(f.n_shares, 1);

	memset(&d, 0, sizeof(d));
	memset(d.oid, 'a', 40);
	memset(d.proof[SIDE_AMERICAN], 1, sizeof(d.proof[1]));
	memset(d.proof[SIDE_BRITISH], 2, sizeof(d.proof[2]));
	strbuf_reset(&t);
	peer_dice_line(&d, &t);
	assert_int_equal(peer_dice_parse(t.buf, t.len - 1, &f, why, sizeof(why)), 0);
	assert_int_equal(f.n_dice, 1);
	assert_memory_equal(f.dice[0].proof[SIDE_BRITISH], d.proof[SIDE_BRITISH], VRF_PROOF_BYTES);
	assert_int_equal(peer_dice_parse(t.buf, t.len - 2, &f, why, sizeof(why)), -1);
	assert_int_equal(f.n_dice, 1);

	memset(key, 7, sizeof(key));
	strbuf_reset(&t);
	peer_key_line(SIDE_AMERICAN, key, &t);
	assert_int_equal(peer_key_parse(t.buf, t.len - 1, &f, why, sizeof(why)), 0);
	assert_true(f.have_key[SIDE_AMERICAN]);
	/* a side's key once only */
	assert_int_equal(peer_key_parse(t.buf, t.len - 1, &f, why, sizeof(why)), -1);
	peer_files_release(&f);
	strbuf_release(&t);
}

static void test_slot_names(void **state)
{
	char name[PEER_REF_MAX];
	(void)state;

	peer_slot_name(CARD_SLOT(12, 0), name);
	assert_string_equal(name, "s12.0");
	assert_int_equal(peer_slot_parse("s12.0", 5), CARD_SLOT(12, 0));
	assert_int_equal(peer_slot_parse("s1.255", 6), CARD_SLOT(1, 255));
	assert_int_equal(peer_slot_parse("s1.256", 6), 0);
	assert_int_equal(peer_slot_parse("s01.2", 5), 0);
	assert_int_equal(peer_slot_parse("s1.02", 5), 0);
	assert_int_equal(peer_slot_parse("s1", 2), 0);
	assert_int_equal(peer_slot_parse("s1.2x", 5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shuffle_round_trip),
		cmocka_unit_test(test_shuffle_refusals),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_slot_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
