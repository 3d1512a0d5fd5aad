/*
 * test_engine.c - the rules engine (src/engine/) on the real component
 * data: the set-up placements (4.0), PC actions with OPS cards (10.11) and
 * event discards (6.32.B, 10.12.B), the exchange (6.32.C), the special
 * events (6.34), isolation (10.3), Winter Attrition (11.0), victory (13.0),
 * the turn sequence (5.0, 6.1) and the enumeration of legal actions. Each
 * example of the rulebook is a test of its own.
 *
 * Runs from the repository root (it loads games/washingtons-war). The
 * tests build their positions by editing a new game's state: pieces on
 * spaces, hands taken from the deck (so that the 110 cards stay accounted
 * for), and the prompt set to the decision under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "data.h"
#include "engine/engine.h"
#include "engine/internal.h"
#include "rng.h"
#include "state.h"

#define GAME_DIR "games/washingtons-war"
/* Random legal games played to the end (-DSOAK_GAMES=500 for a long run). */
#ifndef SOAK_GAMES
#define SOAK_GAMES 6
#endif

/* Cards by number (games/washingtons-war/cards.yaml). */
enum {
	OPS1_A = 1, OPS1_B = 2, OPS1_C = 3, OPS1_D = 4,
	OPS2_A = 17, OPS2_B = 18, OPS2_C = 19,
	OPS3_A = 39, OPS3_B = 40,
	MAJOR_CAMPAIGN = 57,
	WAR_ENDS_1779 = 62, WAR_ENDS_1780 = 63,
	FRANKLIN = 67,
	STEUBEN = 68,
	HENRY_KNOX = 69,		/* American event, code handler */
	JOSEPH_BRANT = 71,		/* British event */
	MORGANS_RIFLEMEN = 74,		/* American battle card */
	JOHN_GLOVER = 75,		/* American event */
	LINE_MUTINIES = 76,		/* British event */
	HORTELEZ = 96,			/* reshuffle when discarded (6.1.B) */
	DOI = 99,
};

static struct data *D;
static struct state S;
static struct rng R;
static struct strbuf LOG = STRBUF_INIT;
static struct strbuf WHY = STRBUF_INIT;
static struct strbuf TXT = STRBUF_INIT;	/* an action as text, for messages */

/* ---- Fixtures ---------------------------------------------------------- */

static int group_setup(void **state)
{
	struct strbuf errs = STRBUF_INIT;

	(void)state;
	D = data_load(GAME_DIR, &errs);
	if (!D)
		print_error("%s", strbuf_str(&errs));
	strbuf_release(&errs);
	return D ? 0 : -1;
}

static int group_teardown(void **state)
{
	(void)state;
	data_free(D);
	strbuf_release(&LOG);
	strbuf_release(&WHY);
	strbuf_release(&TXT);
	return 0;
}

/* A fixed seed for the stream (shuffles); dice are forced where it matters. */
static void rng_fixed(struct rng *r, unsigned char salt)
{
	unsigned char seed[RNG_SEED_BYTES];

	for (int i = 0; i < RNG_SEED_BYTES; i++)
		seed[i] = (unsigned char)(i * 7 + salt);
	rng_init(r, seed, 0);
}

/* Every test starts from a new game at the Committees of Correspondence. */
static int new_game(void **state)
{
	(void)state;
	strbuf_reset(&LOG);
	strbuf_reset(&WHY);
	rng_fixed(&R, 1);
	engine_new_game(D, &S, &R, &LOG);
	return 0;
}

/* ---- Look-ups ---------------------------------------------------------- */

static int sp_at(const char *name, int line)
{
	int i = data_space_index(D, name);

	if (i < 0)
		fail_msg("line %d: no space '%s'", line, name);
	return i;
}
#define SP(name) sp_at(name, __LINE__)

static int gen_at(const char *name, int line)
{
	int g = data_general_index(D, name);

	if (g < 0)
		fail_msg("line %d: no general '%s'", line, name);
	return g;
}
#define GEN(name) gen_at(name, __LINE__)

static int colony_at(const char *code, int line)
{
	int k = data_colony_index(D, code);

	if (k < 0)
		fail_msg("line %d: no colony '%s'", line, code);
	return k;
}
#define COLONY(code) colony_at(code, __LINE__)

/* The PC in a named space. */
static enum side pc(const char *name)
{
	return S.space[SP(name)].pc;
}

/* ---- Building positions ------------------------------------------------ */

/* Empties the map: no PC, no CU, every general in his box off the map.
 * The Congress stays where it is (Philadelphia PA after set-up). */
static void clear_board(void)
{
	for (int i = 0; i < D->n_spaces; i++) {
		S.space[i].pc = SIDE_NONE;
		for (int k = 0; k < 3; k++)
			S.space[i].cu[k] = 0;
	}
	for (int g = 0; g < D->n_generals; g++)
		if (S.general[g] >= 0)
			S.general[g] = LOC_REINFORCEMENTS;
}

static void put_pc(const char *name, enum side side)
{
	S.space[SP(name)].pc = side;
}

static void put_cu(const char *name, enum nation n, int cus)
{
	S.space[SP(name)].cu[n] = cus;
}

static void put_general(const char *general, const char *space)
{
	S.general[GEN(general)] = space ? SP(space) : LOC_REINFORCEMENTS;
}

static bool pull(int *arr, int *n, int c)
{
	for (int i = 0; i < *n; i++) {
		if (arr[i] != c)
			continue;
		memmove(arr + i, arr + i + 1, sizeof(int) * (size_t)(*n - i - 1));
		(*n)--;
		return true;
	}
	return false;
}

/* Takes card c from wherever it is (deck, piles, hands, War Ends box). */
static void take_card(int c)
{
	if (pull(S.deck, &S.n_deck, c) || pull(S.discard, &S.n_discard, c) ||
	    pull(S.removed, &S.n_removed, c) ||
	    pull(S.set_aside, &S.n_set_aside, c))
		return;
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		if (pull(S.hand[side], &S.n_hand[side], c))
			return;
	if (S.war_ends == c) {
		S.war_ends = 0;
		return;
	}
	fail_msg("card #%d is nowhere", c);
}

/* Sets a side's hand to exactly the n cards given (the old hand goes back
 * to the bottom of the deck). */
static void set_hand(enum side side, int n, ...)
{
	va_list ap;

	while (S.n_hand[side] > 0) {
		int c = S.hand[side][--S.n_hand[side]];
		S.deck[S.n_deck++] = c;
	}
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		int c = va_arg(ap, int);
		take_card(c);
		S.hand[side][S.n_hand[side]++] = c;
	}
	va_end(ap);
}

/* Puts the engine at a card play of `side` in the Strategy Phase. */
static void at_play(enum side side)
{
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_PLAY;
	S.prompt.side = side;
	S.first = side;
	S.active = side;
	S.impulse = 0;
}

static void force_dice(int n, ...)
{
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		R.forced[i] = va_arg(ap, int);
	va_end(ap);
	R.n_forced = n;
	R.forced_pos = 0;
}

/* ---- Actions ----------------------------------------------------------- */

static struct action act(enum action_kind kind, int card, int space)
{
	struct action a = ACTION_INIT;

	a.kind = kind;
	a.card = card;
	a.space = space;
	return a;
}

#define PLACE(name) act(ACT_PLACE, 0, SP(name))
#define FLIP(name) act(ACT_FLIP, 0, SP(name))
#define REMOVE(name) act(ACT_REMOVE, 0, SP(name))
#define CONGRESS(name) act(ACT_CONGRESS, 0, SP(name))
#define PC_CARD(c) act(ACT_PC_CARD, (c), -1)
#define DISCARD(c) act(ACT_DISCARD, (c), -1)
#define EVENT(c) act(ACT_EVENT, (c), -1)
#define EXCHANGE(c) act(ACT_EXCHANGE, (c), -1)
#define DONE act(ACT_DONE, 0, -1)
#define PASS act(ACT_PASS, 0, -1)

static struct action first(enum side side)
{
	struct action a = ACTION_INIT;

	a.kind = ACT_FIRST;
	a.side = side;
	return a;
}

static void check_invariants_at(int line)
{
	struct strbuf why = STRBUF_INIT;
	int n = engine_invariants(D, &S, &why);

	if (n)
		fail_msg("line %d: %d broken invariant(s):\n%s", line, n,
			 strbuf_str(&why));
	strbuf_release(&why);
}
#define INVARIANTS() check_invariants_at(__LINE__)

static const char *fmt_action(const struct action *a, struct strbuf *out)
{
	strbuf_reset(out);
	if (a->space >= D->n_spaces || (a->space < 0 && action_takes_space(a->kind)))
		strbuf_addf(out, "%s <space %d>", action_verb(a->kind), a->space);
	else
		action_format(D, a, out);
	return strbuf_str(out);
}

/* Applies an action that must be legal, then checks the invariants. */
static void apply_at(struct action a, int line)
{
	strbuf_reset(&WHY);
	if (engine_apply(D, &S, &a, &R, &LOG, &WHY) != ENGINE_OK)
		fail_msg("line %d: '%s' refused: %s", line, fmt_action(&a, &TXT),
			 strbuf_str(&WHY));
	check_invariants_at(line);
}
#define APPLY(a) apply_at((a), __LINE__)

/* An action that must pass engine_check (nothing applied). */
static void allowed_at(struct action a, int line)
{
	strbuf_reset(&WHY);
	if (engine_check(D, &S, &a, &WHY) != ENGINE_OK)
		fail_msg("line %d: '%s' refused: %s", line, fmt_action(&a, &TXT),
			 strbuf_str(&WHY));
}
#define ALLOWED(a) allowed_at((a), __LINE__)

/*
 * An action that must be refused with a reason containing `needle`; the
 * refusal by engine_apply must leave the state and the log untouched.
 */
static void refused_at(struct action a, const char *needle, int line)
{
	static struct state before;
	size_t log_len = LOG.len;

	memcpy(&before, &S, sizeof(S));
	strbuf_reset(&WHY);
	if (engine_check(D, &S, &a, &WHY) != ENGINE_ILLEGAL)
		fail_msg("line %d: '%s' was allowed", line, fmt_action(&a, &TXT));
	if (!WHY.len)
		fail_msg("line %d: '%s' refused without a reason", line,
			 fmt_action(&a, &TXT));
	if (needle && !strstr(strbuf_str(&WHY), needle))
		fail_msg("line %d: '%s' refused with \"%s\", which lacks \"%s\"",
			 line, fmt_action(&a, &TXT), strbuf_str(&WHY), needle);
	strbuf_reset(&WHY);
	if (engine_apply(D, &S, &a, &R, &LOG, &WHY) != ENGINE_ILLEGAL)
		fail_msg("line %d: engine_apply took '%s'", line,
			 fmt_action(&a, &TXT));
	if (memcmp(&before, &S, sizeof(S)))
		fail_msg("line %d: a refused '%s' changed the state", line,
			 fmt_action(&a, &TXT));
	if (LOG.len != log_len)
		fail_msg("line %d: a refused '%s' wrote to the log", line,
			 fmt_action(&a, &TXT));
}
#define REFUSED(a, needle) refused_at((a), (needle), __LINE__)

static void assert_prompt_at(enum prompt_kind kind, enum side side, int line)
{
	if (S.prompt.kind != kind || S.prompt.side != side)
		fail_msg("line %d: prompt is %s/%s, expected %s/%s", line,
			 prompt_kind_name(S.prompt.kind), side_name(S.prompt.side),
			 prompt_kind_name(kind), side_name(side));
}
#define ASSERT_PROMPT(kind, side) assert_prompt_at((kind), (side), __LINE__)

static bool in_hand(enum side side, int c)
{
	for (int i = 0; i < S.n_hand[side]; i++)
		if (S.hand[side][i] == c)
			return true;
	return false;
}

static bool in_pile(const int *pile, int n, int c)
{
	for (int i = 0; i < n; i++)
		if (pile[i] == c)
			return true;
	return false;
}

static int count_pcs(enum side side)
{
	int n = 0;

	for (int i = 0; i < D->n_spaces; i++)
		n += S.space[i].pc == side;
	return n;
}

static bool log_has(const char *needle)
{
	return strstr(strbuf_str(&LOG), needle) != NULL;
}

/* ---- 4.0 Committees of Correspondence and For The King ---------------- */

static void test_setup_starts_with_committees(void **state)
{
	(void)state;
	ASSERT_PROMPT(PROMPT_CC, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 13);
	assert_true(S.prompt.colonies_done & (1u << COLONY("CA")));
	assert_int_equal(S.year, 1775);
	assert_int_equal(S.n_deck, 108);
	assert_int_equal(S.n_set_aside, 2);
	assert_true(in_pile(S.set_aside, S.n_set_aside, DOI));
	assert_true(in_pile(S.set_aside, S.n_set_aside, STEUBEN));
	assert_int_equal(S.congress, SP("Philadelphia PA"));
	assert_int_equal(pc("Montreal"), SIDE_BRITISH);
	assert_int_equal(S.space[SP("Boston MA")].cu[NATION_BRITISH], 5);
	assert_int_equal(S.general[GEN("Washington")], SP("Lexington and Concord MA"));
	INVARIANTS();
}

static void test_cc_one_per_colony(void **state)
{
	(void)state;
	APPLY(PLACE("Worcester MA"));
	assert_int_equal(pc("Worcester MA"), SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 12);
	ASSERT_PROMPT(PROMPT_CC, SIDE_AMERICAN);
	REFUSED(PLACE("Springfield MA"), "already been placed in Massachusetts");
	ALLOWED(PLACE("Hartford CT"));
}

static void test_cc_not_with_british_piece(void **state)
{
	(void)state;
	/* A British general alone is a British playing piece (4.0). */
	put_general("Clinton", "Worcester MA");
	REFUSED(PLACE("Worcester MA"), "British piece (4.0)");
	put_cu("Springfield MA", NATION_BRITISH, 1);
	REFUSED(PLACE("Springfield MA"), "British piece");
	REFUSED(PLACE("Boston MA"), "British PC");
	ALLOWED(PLACE("Pittsfield MA"));
}

static void test_cc_not_in_canada(void **state)
{
	(void)state;
	S.space[SP("Montreal")].pc = SIDE_NONE;
	REFUSED(PLACE("Montreal"), "Canada");
	REFUSED(PLACE("Quebec"), "Canada");
}

static void test_cc_only_places(void **state)
{
	(void)state;
	REFUSED(FLIP("Norfolk VA"), "does not answer this prompt");
	REFUSED(DONE, "expected 'place'");
	REFUSED(act(ACT_PLACE, 0, -1), "no such space");
	REFUSED(act(ACT_PLACE, 0, D->n_spaces), "no such space");
}

/* Places a Committees PC in every colony (the last legal space each time:
 * Ticonderoga, Fort Niagara, Oswego, Saratoga and Yorktown stay free). */
static void finish_committees(void)
{
	struct action a[256];

	while (S.prompt.kind == PROMPT_CC) {
		int n = engine_legal(D, &S, a, 256);
		assert_true(n > 0 && n <= 256);
		APPLY(a[n - 1]);	/* the last space, away from the north */
	}
}

static void test_cc_complete_leads_to_for_the_king(void **state)
{
	int before = count_pcs(SIDE_AMERICAN);

	(void)state;
	finish_committees();
	assert_int_equal(count_pcs(SIDE_AMERICAN), before + 13);
	for (int k = 0; k < D->n_colonies; k++) {
		int n = 0;
		for (int i = 0; i < D->n_spaces; i++)
			if (D->spaces[i].colony == k && S.space[i].pc == SIDE_AMERICAN &&
			    i != SP("Lexington and Concord MA") &&
			    i != SP("Charleston SC") && i != SP("Philadelphia PA"))
				n++;
		assert_int_equal(n, D->colonies[k].canada ? 0 : 1);
	}
	ASSERT_PROMPT(PROMPT_FTK, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 3);
}

static void test_ftk_adjacent_to_setup_pcs(void **state)
{
	(void)state;
	finish_committees();
	/* other-sources.md: Ticonderoga touches Montreal, Fort Niagara
	 * touches Fort Detroit (set-up British PCs). */
	if (pc("Ticonderoga NY") == SIDE_AMERICAN || pc("Fort Niagara NY") == SIDE_AMERICAN)
		fail_msg("the Committees took Ticonderoga or Fort Niagara");
	APPLY(PLACE("Ticonderoga NY"));
	assert_int_equal(pc("Ticonderoga NY"), SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 2);
	/* Saratoga touches only the new Ticonderoga PC: no daisy-chaining
	 * (10.11.B.ii, which For The King follows by 4.0). */
	assert_int_equal(pc("Saratoga NY"), SIDE_NONE);
	REFUSED(PLACE("Saratoga NY"), "daisy-chaining");
	REFUSED(PLACE("Pittsburgh PA"), "not adjacent to a British PC");
	put_cu("Oswego NY", NATION_AMERICAN, 1);	/* next to Montreal */
	REFUSED(PLACE("Oswego NY"), "American unit (10.11.B.ii)");
	REFUSED(FLIP("Philadelphia PA"), "does not answer");
	APPLY(PLACE("Fort Niagara NY"));
	assert_int_equal(S.prompt.left, 1);
	/* A port: all ports are adjacent for the British (10.11.B). */
	assert_int_equal(pc("Yorktown VA"), SIDE_NONE);
	ALLOWED(PLACE("Yorktown VA"));
}

static void test_ftk_done_deals_the_first_turn(void **state)
{
	(void)state;
	finish_committees();
	ALLOWED(DONE);
	APPLY(DONE);
	assert_true(log_has("British places no more For The King PCs."));
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 7);
	assert_int_equal(S.n_hand[SIDE_BRITISH], 7);
	assert_int_equal(S.n_deck, 108 - 14);
	assert_int_equal(S.n_set_aside, 2);
	assert_false(in_hand(SIDE_AMERICAN, DOI) || in_hand(SIDE_BRITISH, DOI));
	assert_false(in_hand(SIDE_AMERICAN, STEUBEN) || in_hand(SIDE_BRITISH, STEUBEN));
	assert_true(R.next > 0);	/* the deck was shuffled */
}

static void test_ftk_three_placements_then_turn(void **state)
{
	(void)state;
	finish_committees();
	APPLY(PLACE("Ticonderoga NY"));
	APPLY(PLACE("Fort Niagara NY"));
	ASSERT_PROMPT(PROMPT_FTK, SIDE_BRITISH);
	APPLY(PLACE("Oswego NY"));	/* adjacent to Montreal */
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 7);
}

/* ---- 10.11 PC actions with OPS cards ---------------------------------- */

/* The British about to play cards, the American holding one card. */
static void british_to_play(int c)
{
	set_hand(SIDE_BRITISH, 1, c);
	set_hand(SIDE_AMERICAN, 1, OPS1_D);
	at_play(SIDE_BRITISH);
}

static void american_to_play(int c)
{
	set_hand(SIDE_AMERICAN, 1, c);
	set_hand(SIDE_BRITISH, 1, OPS1_D);
	at_play(SIDE_AMERICAN);
}

/* 10.11.B.ii example: Montreal, Oswego, then not Fort Stanwix. */
static void test_pc_example_no_daisy_chaining(void **state)
{
	(void)state;
	british_to_play(OPS2_A);
	APPLY(PC_CARD(OPS2_A));
	ASSERT_PROMPT(PROMPT_PC, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 2);
	assert_int_equal(S.prompt.card, OPS2_A);
	assert_int_equal(S.discard[S.n_discard - 1], OPS2_A);
	APPLY(PLACE("Oswego NY"));
	assert_int_equal(pc("Oswego NY"), SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 1);
	assert_true(data_adjacent(D, SP("Oswego NY"), SP("Fort Stanwix NY")));
	REFUSED(PLACE("Fort Stanwix NY"), "10.11.B");
	REFUSED(PLACE("Fort Stanwix NY"), "daisy-chaining");
	/* "The second PC marker will have to be placed elsewhere." */
	APPLY(PLACE("Ticonderoga NY"));
	assert_int_equal(pc("Fort Stanwix NY"), SIDE_NONE);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

static void test_pc_british_ports_adjacent(void **state)
{
	(void)state;
	british_to_play(OPS1_A);
	APPLY(PC_CARD(OPS1_A));
	/* Yorktown touches only Williamsburg (empty); Norfolk, a port, held
	 * a British PC before the card. */
	assert_int_equal(pc("Williamsburg VA"), SIDE_NONE);
	APPLY(PLACE("Yorktown VA"));
	assert_int_equal(pc("Yorktown VA"), SIDE_BRITISH);
}

static void test_pc_british_port_needs_port_pc_before_card(void **state)
{
	(void)state;
	/* Only non-port British PCs, and Howe's Army in Boston with no PC. */
	for (int i = 0; i < D->n_spaces; i++)
		if (D->spaces[i].port && S.space[i].pc == SIDE_BRITISH)
			S.space[i].pc = SIDE_NONE;
	assert_int_equal(pc("Boston MA"), SIDE_NONE);
	british_to_play(OPS2_A);
	APPLY(PC_CARD(OPS2_A));
	REFUSED(PLACE("Yorktown VA"), "not adjacent to a British PC (10.11.B.ii)");
	APPLY(PLACE("Boston MA"));	/* a British Army is there (10.11.B.iii) */
	REFUSED(PLACE("Yorktown VA"), "daisy-chaining");
	REFUSED(PLACE("Barnstable MA"), "daisy-chaining");
}

static void test_pc_british_army_places_anywhere(void **state)
{
	(void)state;
	put_general("Howe", "Reading PA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_cu("Reading PA", NATION_BRITISH, 2);
	british_to_play(OPS3_A);
	APPLY(PC_CARD(OPS3_A));
	REFUSED(PLACE("Carlisle PA"), "not adjacent to a British PC");
	APPLY(PLACE("Reading PA"));
	/* The new PC does not carry placement further this card. */
	REFUSED(PLACE("Carlisle PA"), "daisy-chaining");
}

static void test_pc_british_general_alone_is_no_army(void **state)
{
	(void)state;
	put_general("Carleton", "Reading PA");
	british_to_play(OPS1_A);
	APPLY(PC_CARD(OPS1_A));
	REFUSED(PLACE("Reading PA"), "not adjacent to a British PC");
	put_cu("Lancaster PA", NATION_BRITISH, 2);	/* CUs without a general */
	REFUSED(PLACE("Lancaster PA"), "not adjacent to a British PC");
}

static void test_pc_british_flip_needs_army(void **state)
{
	(void)state;
	put_pc("Reading PA", SIDE_AMERICAN);
	put_pc("Easton PA", SIDE_AMERICAN);
	put_pc("Carlisle PA", SIDE_AMERICAN);
	put_general("Howe", "Reading PA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_cu("Reading PA", NATION_BRITISH, 2);
	put_general("Carleton", "Easton PA");		/* alone */
	put_cu("Carlisle PA", NATION_BRITISH, 2);	/* no general */
	british_to_play(OPS3_A);
	APPLY(PC_CARD(OPS3_A));
	REFUSED(FLIP("Easton PA"), "needs a British Army there (10.11.B.iii)");
	REFUSED(FLIP("Carlisle PA"), "needs a British Army");
	REFUSED(FLIP("Lancaster PA"), "holds no American PC");
	APPLY(FLIP("Reading PA"));
	assert_int_equal(pc("Reading PA"), SIDE_BRITISH);
}

static void test_pc_british_not_with_american_unit(void **state)
{
	(void)state;
	put_pc("Providence RI", SIDE_BRITISH);
	british_to_play(OPS2_A);
	APPLY(PC_CARD(OPS2_A));
	/* Newport: Greene and 2 CUs, adjacent to Providence. */
	REFUSED(PLACE("Newport RI"), "American unit (10.11.B.ii)");
	/* The Congress is an American Unit (3.0). */
	S.space[SP("Philadelphia PA")].pc = SIDE_NONE;
	put_pc("Trenton NJ", SIDE_BRITISH);
	REFUSED(PLACE("Philadelphia PA"), "American unit");
	REFUSED(PLACE("Boston MA"), "already holds a British PC");
}

static void test_pc_american_places_anywhere(void **state)
{
	(void)state;
	american_to_play(OPS3_A);
	APPLY(PC_CARD(OPS3_A));
	ASSERT_PROMPT(PROMPT_PC, SIDE_AMERICAN);
	APPLY(PLACE("Pittsburgh PA"));	/* no American PC near it */
	APPLY(PLACE("Genesee NY"));
	APPLY(PLACE("Saratoga NY"));
	assert_int_equal(pc("Saratoga NY"), SIDE_AMERICAN);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

static void test_pc_american_flip_needs_general(void **state)
{
	(void)state;
	put_pc("Worcester MA", SIDE_BRITISH);
	put_pc("Springfield MA", SIDE_BRITISH);
	put_general("Greene", "Worcester MA");	/* no CUs needed */
	put_cu("Newport RI", NATION_AMERICAN, 2);
	american_to_play(OPS2_A);
	APPLY(PC_CARD(OPS2_A));
	REFUSED(FLIP("Springfield MA"), "needs an American general there (10.11.A.iii)");
	REFUSED(FLIP("Providence RI"), "holds no British PC");
	APPLY(FLIP("Worcester MA"));
	assert_int_equal(pc("Worcester MA"), SIDE_AMERICAN);
}

static void test_pc_american_not_with_british_cus(void **state)
{
	(void)state;
	put_cu("Worcester MA", NATION_BRITISH, 1);
	put_general("Clinton", "Springfield MA");	/* a general, no CU */
	american_to_play(OPS2_A);
	APPLY(PC_CARD(OPS2_A));
	REFUSED(PLACE("Worcester MA"), "British CUs (10.11.A.ii)");
	REFUSED(PLACE("Norfolk VA"), "already holds a British PC");
	REFUSED(PLACE("Philadelphia PA"), "already holds an American PC");
	/* 10.11.A.ii bars only British CUs. */
	APPLY(PLACE("Springfield MA"));
}

static void test_pc_american_congress_dispersed(void **state)
{
	(void)state;
	S.congress = -1;
	put_pc("Worcester MA", SIDE_BRITISH);
	put_general("Greene", "Worcester MA");
	put_cu("Newport RI", NATION_AMERICAN, 2);
	american_to_play(OPS2_A);
	APPLY(PC_CARD(OPS2_A));
	REFUSED(PLACE("Pittsburgh PA"), "10.11.A.iv");
	REFUSED(PLACE("Pittsburgh PA"), "dispersed");
	APPLY(FLIP("Worcester MA"));
	assert_int_equal(pc("Worcester MA"), SIDE_AMERICAN);
}

static void test_pc_american_line_mutinies(void **state)
{
	(void)state;
	S.mutinies = true;
	american_to_play(OPS1_A);
	APPLY(PC_CARD(OPS1_A));
	REFUSED(PLACE("Pittsburgh PA"), "Line Mutinies");
}

static void test_pc_card_counts_actions_and_done(void **state)
{
	(void)state;
	set_hand(SIDE_AMERICAN, 2, OPS3_A, OPS1_A);
	set_hand(SIDE_BRITISH, 1, OPS1_D);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS3_A));
	assert_int_equal(S.prompt.left, 3);
	APPLY(PLACE("Pittsburgh PA"));
	assert_int_equal(S.prompt.left, 2);
	ASSERT_PROMPT(PROMPT_PC, SIDE_AMERICAN);
	APPLY(DONE);	/* the rest is forfeited */
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	assert_int_equal(S.impulse, 1);
	REFUSED(PC_CARD(OPS1_A), "not in your hand");
}

static void test_pc_event_card_is_not_ops(void **state)
{
	(void)state;
	american_to_play(HENRY_KNOX);
	REFUSED(PC_CARD(HENRY_KNOX), "not an OPS card");
	REFUSED(EVENT(OPS1_D), "not in your hand");
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	REFUSED(EVENT(OPS1_A), "has no event");
	REFUSED(act(ACT_QUEUE, OPS1_A, -1), "not supported yet");
	REFUSED(act(ACT_REINFORCE, OPS1_A, -1), "not supported yet");
	REFUSED(act(ACT_ACTIVATE, OPS1_A, -1), "not supported yet");
}

/* ---- 10.2.2 Army PC placement ------------------------------------------ */

static void test_political_phase_armies_place(void **state)
{
	(void)state;
	clear_board();
	put_general("Howe", "Reading PA");
	put_cu("Reading PA", NATION_BRITISH, 2);
	put_pc("Trenton NJ", SIDE_AMERICAN);
	put_general("Cornwallis", "Trenton NJ");
	put_cu("Trenton NJ", NATION_BRITISH, 1);
	put_general("Clinton", "Easton PA");		/* general alone */
	put_cu("Lancaster PA", NATION_BRITISH, 3);	/* CUs alone */
	put_general("Washington", "Albany NY");
	put_cu("Albany NY", NATION_AMERICAN, 1);
	political_phase_place(D, &S, &LOG);
	assert_int_equal(pc("Reading PA"), SIDE_BRITISH);
	assert_int_equal(pc("Trenton NJ"), SIDE_BRITISH);	/* flipped */
	assert_int_equal(pc("Easton PA"), SIDE_NONE);
	assert_int_equal(pc("Lancaster PA"), SIDE_NONE);
	assert_int_equal(pc("Albany NY"), SIDE_AMERICAN);
}

/* ---- 10.3 Isolation ----------------------------------------------------- */

/*
 * The examples use spaces "A", "B", "C", "D" around Newport RI and
 * Hartford CT. On our map (connections.yaml):
 *   Newport RI - Providence RI
 *   Providence RI - New London CT, Boston MA, Worcester MA
 *   New London CT - New Haven CT, Hartford CT
 *   Hartford CT - New Haven CT, Springfield MA, New London CT
 * The board is cleared first, so every other space is an uncontrolled,
 * empty anchor; the Congress stays in Philadelphia PA, far away.
 */

/* 10.31 examples 1-2: C = Newport RI, B = Providence RI, A = New London
 * CT; the other neighbours of A and B hold British PCs. */
static void iso_newport_chain(void)
{
	clear_board();
	put_pc("New London CT", SIDE_AMERICAN);		/* A */
	put_pc("Providence RI", SIDE_AMERICAN);		/* B */
	put_pc("New Haven CT", SIDE_BRITISH);
	put_pc("Hartford CT", SIDE_BRITISH);
	put_pc("Boston MA", SIDE_BRITISH);
	put_pc("Worcester MA", SIDE_BRITISH);
}

static void test_iso_10_31_ex1_uncontrolled_newport(void **state)
{
	(void)state;
	iso_newport_chain();
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New London CT"), SIDE_AMERICAN);
	assert_int_equal(pc("Providence RI"), SIDE_AMERICAN);
	assert_true(log_has("No American PC is isolated."));
}

static void test_iso_10_31_ex1_british_cu_in_newport(void **state)
{
	(void)state;
	iso_newport_chain();
	put_cu("Newport RI", NATION_BRITISH, 1);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New London CT"), SIDE_NONE);
	assert_int_equal(pc("Providence RI"), SIDE_NONE);
}

static void test_iso_10_31_ex2_congress_in_newport(void **state)
{
	(void)state;
	iso_newport_chain();
	put_pc("Newport RI", SIDE_AMERICAN);
	S.congress = SP("Newport RI");
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Newport RI"), SIDE_AMERICAN);
	assert_int_equal(pc("Providence RI"), SIDE_AMERICAN);
	assert_int_equal(pc("New London CT"), SIDE_AMERICAN);
}

static void test_iso_10_31_ex2_without_congress(void **state)
{
	(void)state;
	iso_newport_chain();
	put_pc("Newport RI", SIDE_AMERICAN);	/* Congress stays in Philadelphia */
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Newport RI"), SIDE_NONE);
	assert_int_equal(pc("Providence RI"), SIDE_NONE);
	assert_int_equal(pc("New London CT"), SIDE_NONE);
}

/*
 * 10.31 example 3: "B" traces through "C" to "A". Our spaces: A = New
 * London CT (the unit), C = Providence RI, B = Newport RI; every other
 * neighbour of A and C holds a British PC.
 */
static void iso_example3(void)
{
	iso_newport_chain();
	put_pc("Newport RI", SIDE_AMERICAN);	/* B */
	/* Providence RI is C, New London CT is A. */
}

static void test_iso_10_31_ex3_american_cu_anchors(void **state)
{
	(void)state;
	iso_example3();
	put_cu("New London CT", NATION_AMERICAN, 1);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New London CT"), SIDE_AMERICAN);
	assert_int_equal(pc("Providence RI"), SIDE_AMERICAN);
	assert_int_equal(pc("Newport RI"), SIDE_AMERICAN);
}

static void test_iso_10_31_ex3_french_cu_anchors(void **state)
{
	(void)state;
	iso_example3();
	put_cu("New London CT", NATION_FRENCH, 1);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Newport RI"), SIDE_AMERICAN);
}

static void test_iso_10_31_ex3_general_alone_anchors(void **state)
{
	(void)state;
	iso_example3();
	put_general("Lafayette", "New London CT");
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Newport RI"), SIDE_AMERICAN);
	assert_int_equal(pc("New London CT"), SIDE_AMERICAN);

	iso_example3();
	put_general("Rochambeau", "New London CT");	/* a French general */
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Newport RI"), SIDE_AMERICAN);
}

static void test_iso_10_31_ex3_no_unit_all_removed(void **state)
{
	(void)state;
	iso_example3();
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New London CT"), SIDE_NONE);
	assert_int_equal(pc("Providence RI"), SIDE_NONE);
	assert_int_equal(pc("Newport RI"), SIDE_NONE);
	/* Removed at once (10.31.B): no marker survives because its
	 * neighbour became uncontrolled during the removal. */
}

static void test_iso_10_31_ex3_trace_through_british_cu(void **state)
{
	(void)state;
	iso_example3();
	put_cu("New London CT", NATION_AMERICAN, 1);
	put_cu("Providence RI", NATION_BRITISH, 2);	/* C, still American PC */
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Newport RI"), SIDE_AMERICAN);
	assert_int_equal(pc("Providence RI"), SIDE_AMERICAN);
}

/* 10.32 example 1: B = Hartford CT; A = New Haven CT (a port) or New
 * London CT (not a port). */
static void test_iso_10_32_ex1_uncontrolled_hartford(void **state)
{
	(void)state;
	clear_board();
	put_pc("New London CT", SIDE_BRITISH);		/* A, not a port */
	put_pc("New Haven CT", SIDE_AMERICAN);
	put_pc("Providence RI", SIDE_AMERICAN);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New London CT"), SIDE_BRITISH);
	assert_true(log_has("No British PC is isolated."));
}

static void test_iso_10_32_ex1_port_never_isolated(void **state)
{
	(void)state;
	clear_board();
	put_pc("New Haven CT", SIDE_BRITISH);		/* A, a port */
	put_pc("Hartford CT", SIDE_AMERICAN);		/* B */
	put_pc("White Plains NY", SIDE_AMERICAN);
	put_pc("New London CT", SIDE_AMERICAN);
	put_cu("Hartford CT", NATION_AMERICAN, 2);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New Haven CT"), SIDE_BRITISH);
}

static void test_iso_10_32_ex1_american_unit_in_hartford(void **state)
{
	(void)state;
	clear_board();
	put_pc("New London CT", SIDE_BRITISH);		/* A, not a port */
	put_pc("New Haven CT", SIDE_AMERICAN);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_cu("Hartford CT", NATION_FRENCH, 1);	/* B, uncontrolled */
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New London CT"), SIDE_NONE);

	clear_board();
	put_pc("New London CT", SIDE_BRITISH);
	put_pc("New Haven CT", SIDE_AMERICAN);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Gates", "Hartford CT");		/* a general alone */
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New London CT"), SIDE_NONE);
}

/* 10.32 example 2: A = Hartford CT, surrounded by B = New Haven CT,
 * C = Springfield MA, D = New London CT. */
static void iso_hartford_surrounded(void)
{
	clear_board();
	put_pc("Hartford CT", SIDE_BRITISH);
	put_pc("New Haven CT", SIDE_AMERICAN);
	put_pc("Springfield MA", SIDE_AMERICAN);
	put_pc("New London CT", SIDE_AMERICAN);
}

static void test_iso_10_32_ex2_british_cu_anchors(void **state)
{
	(void)state;
	iso_hartford_surrounded();
	put_cu("Hartford CT", NATION_BRITISH, 1);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Hartford CT"), SIDE_BRITISH);
	assert_int_equal(pc("New Haven CT"), SIDE_AMERICAN);
}

static void test_iso_10_32_ex2_without_cu_removed(void **state)
{
	(void)state;
	iso_hartford_surrounded();
	put_general("Howe", "Hartford CT");	/* a general is no anchor */
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Hartford CT"), SIDE_NONE);
}

static void test_iso_10_32_trace_through_american_units(void **state)
{
	(void)state;
	/* A British PC space holding American CUs still passes the trace
	 * (10.32.A note): Springfield traces through Hartford to a port. */
	clear_board();
	put_pc("Springfield MA", SIDE_BRITISH);
	put_pc("Hartford CT", SIDE_BRITISH);
	put_pc("New Haven CT", SIDE_BRITISH);		/* a port */
	put_pc("Worcester MA", SIDE_AMERICAN);
	put_pc("Pittsfield MA", SIDE_AMERICAN);
	put_pc("New London CT", SIDE_AMERICAN);
	put_cu("Hartford CT", NATION_AMERICAN, 3);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("Springfield MA"), SIDE_BRITISH);
	assert_int_equal(pc("Hartford CT"), SIDE_BRITISH);
}

/*
 * 10.32 example 3, mutual isolation: A = Hartford CT and B = Springfield
 * MA (British) are surrounded by American PCs in New Haven CT, New London
 * CT, Worcester MA and Pittsfield MA; C = New Haven CT and D = New London
 * CT (American) are surrounded by British PCs in Hartford CT, White Plains
 * NY and Providence RI. Worcester and Pittsfield touch empty spaces.
 */
static void iso_mutual(void)
{
	clear_board();
	put_pc("Hartford CT", SIDE_BRITISH);		/* A */
	put_pc("Springfield MA", SIDE_BRITISH);		/* B */
	put_pc("New Haven CT", SIDE_AMERICAN);		/* C */
	put_pc("New London CT", SIDE_AMERICAN);		/* D */
	put_pc("Worcester MA", SIDE_AMERICAN);
	put_pc("Pittsfield MA", SIDE_AMERICAN);
	put_pc("White Plains NY", SIDE_BRITISH);
	put_pc("Providence RI", SIDE_BRITISH);
}

static void test_iso_10_32_ex3_mutual_isolation(void **state)
{
	(void)state;
	iso_mutual();
	political_phase_isolation(D, &S, &LOG);
	/* C and D go (together), then A and B trace to them. */
	assert_int_equal(pc("New Haven CT"), SIDE_NONE);
	assert_int_equal(pc("New London CT"), SIDE_NONE);
	assert_int_equal(pc("Hartford CT"), SIDE_BRITISH);
	assert_int_equal(pc("Springfield MA"), SIDE_BRITISH);
	assert_int_equal(pc("Worcester MA"), SIDE_AMERICAN);
	assert_int_equal(pc("Pittsfield MA"), SIDE_AMERICAN);
	assert_int_equal(pc("White Plains NY"), SIDE_BRITISH);
	assert_int_equal(pc("Providence RI"), SIDE_BRITISH);
	assert_true(log_has("No British PC is isolated."));
}

static void test_iso_10_32_simultaneous_british_removal(void **state)
{
	(void)state;
	/* The same, but C holds an American CU: C and D stay, so A and B
	 * really were isolated, and both go at once (10.32.B). */
	iso_mutual();
	put_cu("New Haven CT", NATION_AMERICAN, 1);
	political_phase_isolation(D, &S, &LOG);
	assert_int_equal(pc("New Haven CT"), SIDE_AMERICAN);
	assert_int_equal(pc("New London CT"), SIDE_AMERICAN);
	assert_int_equal(pc("Hartford CT"), SIDE_NONE);
	assert_int_equal(pc("Springfield MA"), SIDE_NONE);
}

static void test_iso_through_political_control_phase(void **state)
{
	(void)state;
	/* The last card of the turn runs Winter Attrition and the Political
	 * Control Phase: the mutual isolation resolves the same way. */
	iso_mutual();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 3);
	put_pc("Philadelphia PA", SIDE_AMERICAN);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 4);
	put_pc("Boston MA", SIDE_BRITISH);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	assert_int_equal(S.year, 1776);
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
	assert_int_equal(pc("New Haven CT"), SIDE_NONE);
	assert_int_equal(pc("New London CT"), SIDE_NONE);
	assert_int_equal(pc("Hartford CT"), SIDE_BRITISH);
	assert_int_equal(pc("Springfield MA"), SIDE_BRITISH);
	/* Washington and 3 CUs in a winter quarters space lose nothing. */
	assert_int_equal(S.space[SP("Philadelphia PA")].cu[NATION_AMERICAN], 3);
}

/* ---- 11.0 Winter Attrition --------------------------------------------- */

static int cus(const char *name, enum nation n)
{
	return S.space[SP(name)].cu[n];
}

static void winter_board(void)
{
	clear_board();
	rng_fixed(&R, 2);
	R.n_forced = R.forced_pos = 0;
}

static void test_winter_british_halves_north(void **state)
{
	(void)state;
	winter_board();
	assert_false(D->spaces[SP("Reading PA")].winter_quarters);
	assert_false(D->spaces[SP("Reading PA")].south_of_winter_line);
	put_cu("Reading PA", NATION_BRITISH, 5);	/* the 11.1 example */
	put_cu("Easton PA", NATION_BRITISH, 3);
	put_general("Howe", "Easton PA");
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Reading PA", NATION_BRITISH), 3);
	assert_int_equal(cus("Easton PA", NATION_BRITISH), 2);
	assert_int_equal(R.next, 0);	/* no die */
}

static void test_winter_british_lone_cu_rolls(void **state)
{
	(void)state;
	winter_board();
	put_cu("Reading PA", NATION_BRITISH, 1);
	force_dice(1, 3);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Reading PA", NATION_BRITISH), 0);

	winter_board();
	put_cu("Reading PA", NATION_BRITISH, 1);
	force_dice(1, 4);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Reading PA", NATION_BRITISH), 1);
}

static void test_winter_british_army_of_one_safe(void **state)
{
	(void)state;
	winter_board();
	put_cu("Reading PA", NATION_BRITISH, 1);
	put_general("Clinton", "Reading PA");
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Reading PA", NATION_BRITISH), 1);
	assert_int_equal(R.next, 0);
}

static void test_winter_british_quarters_and_south_safe(void **state)
{
	(void)state;
	winter_board();
	assert_true(D->spaces[SP("Philadelphia PA")].winter_quarters);
	assert_true(D->spaces[SP("Camden SC")].south_of_winter_line);
	assert_false(D->spaces[SP("Camden SC")].winter_quarters);
	put_cu("Philadelphia PA", NATION_BRITISH, 5);
	put_cu("Boston MA", NATION_BRITISH, 1);
	put_cu("Camden SC", NATION_BRITISH, 7);
	put_cu("Cheraw SC", NATION_BRITISH, 1);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Philadelphia PA", NATION_BRITISH), 5);
	assert_int_equal(cus("Boston MA", NATION_BRITISH), 1);
	assert_int_equal(cus("Camden SC", NATION_BRITISH), 7);
	assert_int_equal(cus("Cheraw SC", NATION_BRITISH), 1);
	assert_int_equal(R.next, 0);
	assert_true(log_has("No losses."));
}

static void test_winter_american_halves_everywhere(void **state)
{
	(void)state;
	winter_board();
	put_cu("Reading PA", NATION_AMERICAN, 5);
	put_cu("Philadelphia PA", NATION_AMERICAN, 4);	/* winter quarters */
	put_cu("Camden SC", NATION_AMERICAN, 3);	/* south */
	put_general("Greene", "Camden SC");
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Reading PA", NATION_AMERICAN), 3);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 2);
	assert_int_equal(cus("Camden SC", NATION_AMERICAN), 2);
	assert_int_equal(R.next, 0);
}

static void test_winter_american_single_with_general_safe(void **state)
{
	(void)state;
	winter_board();
	put_cu("Reading PA", NATION_AMERICAN, 1);
	put_general("Greene", "Reading PA");
	put_cu("Easton PA", NATION_AMERICAN, 1);
	put_general("Rochambeau", "Easton PA");		/* a French general */
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Reading PA", NATION_AMERICAN), 1);
	assert_int_equal(cus("Easton PA", NATION_AMERICAN), 1);
	assert_int_equal(R.next, 0);
}

static void test_winter_american_single_rolls(void **state)
{
	(void)state;
	winter_board();
	put_cu("Philadelphia PA", NATION_AMERICAN, 1);	/* even in quarters */
	put_cu("Camden SC", NATION_AMERICAN, 1);	/* and in the south */
	force_dice(2, 1, 6);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(R.forced_pos, 2);
	/* Spaces in map order: Philadelphia before Camden. */
	assert_true(SP("Philadelphia PA") < SP("Camden SC"));
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 0);
	assert_int_equal(cus("Camden SC", NATION_AMERICAN), 1);
}

static void test_winter_washington_example(void **state)
{
	(void)state;
	/* 11.2: Washington and 6 CUs in Philadelphia PA: five are exempt,
	 * the sixth rolls. */
	winter_board();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 6);
	force_dice(1, 2);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 5);

	winter_board();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 6);
	force_dice(1, 5);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 6);
}

static void test_winter_washington_limits(void **state)
{
	(void)state;
	winter_board();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 5);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 5);
	assert_int_equal(R.next, 0);

	/* Seven: the excess two are a stack of two, losing one. */
	winter_board();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 7);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 6);
	assert_int_equal(R.next, 0);

	/* Not in quarters, north of the line: no exemption. */
	winter_board();
	put_general("Washington", "Reading PA");
	put_cu("Reading PA", NATION_AMERICAN, 6);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Reading PA", NATION_AMERICAN), 3);

	/* South of the line: exempt like in quarters. */
	winter_board();
	put_general("Washington", "Camden SC");
	put_cu("Camden SC", NATION_AMERICAN, 5);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Camden SC", NATION_AMERICAN), 5);
}

static void test_winter_french(void **state)
{
	(void)state;
	/* 11.3: French alone as if British, with Americans as Americans. */
	winter_board();
	put_cu("Philadelphia PA", NATION_FRENCH, 4);	/* alone, quarters */
	put_cu("Reading PA", NATION_FRENCH, 3);		/* alone, north */
	put_cu("Easton PA", NATION_FRENCH, 2);		/* with Americans */
	put_cu("Easton PA", NATION_AMERICAN, 2);
	winter_attrition(D, &S, &R, &LOG);
	assert_int_equal(cus("Philadelphia PA", NATION_FRENCH), 4);
	assert_int_equal(cus("Reading PA", NATION_FRENCH), 2);
	assert_int_equal(cus("Easton PA", NATION_FRENCH) +
			 cus("Easton PA", NATION_AMERICAN), 2);
}

/* ---- 6.32.B Event discards --------------------------------------------- */

static void american_discards(int c)
{
	set_hand(SIDE_AMERICAN, 2, c, OPS1_A);
	set_hand(SIDE_BRITISH, 1, LINE_MUTINIES);	/* no OPS: no exchange */
	at_play(SIDE_AMERICAN);
	APPLY(DISCARD(c));
	ASSERT_PROMPT(PROMPT_DISCARD, SIDE_AMERICAN);
	assert_int_equal(S.prompt.card, c);
	assert_int_equal(S.discard[S.n_discard - 1], c);
}

static void british_discards(int c)
{
	set_hand(SIDE_BRITISH, 2, c, OPS1_A);
	set_hand(SIDE_AMERICAN, 1, JOHN_GLOVER);	/* no OPS: no exchange */
	at_play(SIDE_BRITISH);
	APPLY(DISCARD(c));
	ASSERT_PROMPT(PROMPT_DISCARD, SIDE_BRITISH);
}

static void test_discard_american_removes_adjacent(void **state)
{
	(void)state;
	put_pc("Worcester MA", SIDE_BRITISH);	/* next to Lexington and Concord */
	american_discards(HENRY_KNOX);
	REFUSED(REMOVE("Boston MA"), "British CUs (6.32.B.iii)");
	REFUSED(REMOVE("Ninety Six SC"), "not adjacent to an American PC");
	REFUSED(REMOVE("Pittsburgh PA"), "holds no British PC");
	APPLY(REMOVE("Worcester MA"));
	assert_int_equal(pc("Worcester MA"), SIDE_NONE);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	assert_true(log_has("(event discard, 6.32.B)"));
}

static void test_discard_american_remove_despite_british_general(void **state)
{
	(void)state;
	/* 6.32.B.iii bars enemy CUs, American generals and the Congress: a
	 * British general alone does not protect a British PC. */
	put_pc("Worcester MA", SIDE_BRITISH);
	put_general("Clinton", "Worcester MA");
	american_discards(HENRY_KNOX);
	APPLY(REMOVE("Worcester MA"));
	assert_int_equal(pc("Worcester MA"), SIDE_NONE);
}

static void test_discard_british_remove_refusals(void **state)
{
	(void)state;
	put_pc("Providence RI", SIDE_AMERICAN);		/* next to Boston */
	put_pc("Worcester MA", SIDE_AMERICAN);
	put_general("Greene", "Worcester MA");		/* Newport keeps 2 CUs */
	put_pc("Springfield MA", SIDE_BRITISH);		/* next to Worcester */
	put_pc("Trenton NJ", SIDE_BRITISH);		/* next to Philadelphia */
	british_discards(JOSEPH_BRANT);
	REFUSED(REMOVE("Worcester MA"), "an American general (6.32.B.iii)");
	REFUSED(REMOVE("Philadelphia PA"), "the Continental Congress (6.32.B.iii)");
	REFUSED(REMOVE("Lexington and Concord MA"), "American CUs");
	/* Charleston is a port: adjacent to British ports, but 2 CUs. */
	REFUSED(REMOVE("Charleston SC"), "American CUs");
	REFUSED(REMOVE("Pittsburgh PA"), "holds no American PC");
	APPLY(REMOVE("Providence RI"));
	assert_int_equal(pc("Providence RI"), SIDE_NONE);
}

static void test_discard_british_remove_via_port(void **state)
{
	(void)state;
	put_pc("Yorktown VA", SIDE_AMERICAN);	/* only Williamsburg next to it */
	put_pc("Pittsburgh PA", SIDE_AMERICAN);
	british_discards(JOSEPH_BRANT);
	REFUSED(REMOVE("Pittsburgh PA"), "not adjacent to a British PC");
	APPLY(REMOVE("Yorktown VA"));
	assert_int_equal(pc("Yorktown VA"), SIDE_NONE);
}

static void test_discard_american_place_needs_adjacency(void **state)
{
	(void)state;
	american_discards(JOSEPH_BRANT);	/* a British event, discarded */
	REFUSED(PLACE("Pittsburgh PA"), "not adjacent to an American PC (6.32.B)");
	REFUSED(PLACE("Boston MA"), "already holds");
	APPLY(PLACE("Worcester MA"));	/* next to Lexington and Concord */
	assert_int_equal(pc("Worcester MA"), SIDE_AMERICAN);
}

static void test_discard_british_place_needs_adjacency(void **state)
{
	(void)state;
	put_general("Howe", "Reading PA");
	put_cu("Reading PA", NATION_BRITISH, 2);
	put_cu("Boston MA", NATION_BRITISH, 3);
	british_discards(JOSEPH_BRANT);
	/* The Army exception of 10.11.B.iii does not lift the adjacency of
	 * a discard (10.12.B). */
	REFUSED(PLACE("Reading PA"), "not adjacent to a British PC (6.32.B)");
	REFUSED(PLACE("Newport RI"), "American unit");
	ALLOWED(PLACE("Oswego NY"));		/* next to Montreal */
	ALLOWED(PLACE("Yorktown VA"));		/* a port */
	APPLY(PLACE("Oswego NY"));
	assert_int_equal(pc("Oswego NY"), SIDE_BRITISH);
}

static void test_discard_flips(void **state)
{
	(void)state;
	/* British flip: an Army and a British PC next door. */
	put_pc("Providence RI", SIDE_AMERICAN);
	put_pc("Reading PA", SIDE_AMERICAN);
	put_general("Howe", "Providence RI");
	put_cu("Providence RI", NATION_BRITISH, 2);
	put_general("Clinton", "Reading PA");
	put_cu("Reading PA", NATION_BRITISH, 1);
	put_cu("Boston MA", NATION_BRITISH, 2);
	british_discards(JOSEPH_BRANT);
	REFUSED(FLIP("Reading PA"), "10.12.B");
	APPLY(FLIP("Providence RI"));
	assert_int_equal(pc("Providence RI"), SIDE_BRITISH);
}

static void test_discard_congress_dispersed_flip_not_place(void **state)
{
	(void)state;
	S.congress = -1;
	put_pc("Worcester MA", SIDE_BRITISH);
	put_pc("Springfield MA", SIDE_BRITISH);
	put_general("Greene", "Springfield MA");	/* not next to an American PC */
	put_cu("Newport RI", NATION_AMERICAN, 2);
	put_general("Lee", "Worcester MA");
	american_discards(HENRY_KNOX);
	REFUSED(PLACE("Portsmouth NH"), "10.11.A.iv");
	REFUSED(FLIP("Springfield MA"), "not adjacent to an American PC (10.12.B)");
	APPLY(FLIP("Worcester MA"));	/* Lee, next to Lexington and Concord */
	assert_int_equal(pc("Worcester MA"), SIDE_AMERICAN);
}

static void test_discard_pass(void **state)
{
	int pcs = count_pcs(SIDE_AMERICAN);

	(void)state;

	american_discards(HENRY_KNOX);
	REFUSED(DONE, "expected 'place', 'flip', 'remove', 'pass'");
	APPLY(PASS);
	assert_int_equal(count_pcs(SIDE_AMERICAN), pcs);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

static void test_discard_special_and_ops_refused(void **state)
{
	(void)state;
	set_hand(SIDE_AMERICAN, 5, FRANKLIN, WAR_ENDS_1779, DOI, OPS2_A, MAJOR_CAMPAIGN);
	set_hand(SIDE_BRITISH, 1, OPS1_A);
	at_play(SIDE_AMERICAN);
	REFUSED(DISCARD(FRANKLIN), "must be played as the event (6.34.A)");
	REFUSED(DISCARD(WAR_ENDS_1779), "6.34.A");
	REFUSED(DISCARD(DOI), "6.34.A");
	REFUSED(DISCARD(OPS2_A), "an OPS card is played, not discarded (6.32)");
	ALLOWED(DISCARD(MAJOR_CAMPAIGN));
}

static void test_discard_hortelez_sets_reshuffle(void **state)
{
	(void)state;
	american_discards(HORTELEZ);
	assert_true(S.reshuffle);	/* 6.1.B: reshuffle when discarded */
	assert_int_equal(S.french_alliance, 0);
}

static void test_event_side_and_battle_cards(void **state)
{
	(void)state;
	set_hand(SIDE_BRITISH, 2, HENRY_KNOX, JOSEPH_BRANT);
	set_hand(SIDE_AMERICAN, 2, OPS1_A, MORGANS_RIFLEMEN);
	at_play(SIDE_BRITISH);
	REFUSED(EVENT(HENRY_KNOX), "can only discard it (6.32.A)");
	REFUSED(EVENT(JOSEPH_BRANT), "not supported yet");
	ALLOWED(DISCARD(HENRY_KNOX));
	at_play(SIDE_AMERICAN);
	REFUSED(EVENT(MORGANS_RIFLEMEN), "battle card: its event is played in a battle (6.33.A)");
	ALLOWED(DISCARD(MORGANS_RIFLEMEN));
}

/* ---- 6.32.C The exchange ------------------------------------------------ */

static void test_exchange_british_any_ops(void **state)
{
	(void)state;
	set_hand(SIDE_AMERICAN, 2, HENRY_KNOX, OPS2_B);
	set_hand(SIDE_BRITISH, 2, OPS1_A, JOSEPH_BRANT);
	at_play(SIDE_AMERICAN);
	APPLY(DISCARD(HENRY_KNOX));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_BRITISH);
	assert_int_equal(S.prompt.card, HENRY_KNOX);
	REFUSED(EXCHANGE(JOSEPH_BRANT), "not an OPS card (6.32.C)");
	REFUSED(EXCHANGE(OPS2_B), "not in your hand");
	REFUSED(PC_CARD(OPS1_A), "does not answer");
	APPLY(EXCHANGE(OPS1_A));
	assert_true(in_hand(SIDE_BRITISH, HENRY_KNOX));
	assert_false(in_hand(SIDE_BRITISH, OPS1_A));
	assert_int_equal(S.n_hand[SIDE_BRITISH], 2);
	assert_int_equal(S.discard[S.n_discard - 1], OPS1_A);
	assert_false(in_pile(S.discard, S.n_discard, HENRY_KNOX));
	/* The exchange is not the British turn: he plays now. */
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

static void test_exchange_american_needs_2_or_3(void **state)
{
	(void)state;
	set_hand(SIDE_BRITISH, 2, JOSEPH_BRANT, OPS1_B);
	set_hand(SIDE_AMERICAN, 3, OPS1_A, OPS2_A, OPS3_A);
	at_play(SIDE_BRITISH);
	APPLY(DISCARD(JOSEPH_BRANT));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_AMERICAN);
	REFUSED(EXCHANGE(OPS1_A), "2 or 3 OPS card in exchange (6.32.C)");
	ALLOWED(EXCHANGE(OPS3_A));
	APPLY(EXCHANGE(OPS2_A));
	assert_true(in_hand(SIDE_AMERICAN, JOSEPH_BRANT));
	assert_int_equal(S.discard[S.n_discard - 1], OPS2_A);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

static void test_exchange_pass(void **state)
{
	(void)state;
	set_hand(SIDE_BRITISH, 2, JOSEPH_BRANT, OPS1_B);
	set_hand(SIDE_AMERICAN, 1, OPS2_A);
	at_play(SIDE_BRITISH);
	APPLY(DISCARD(JOSEPH_BRANT));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_AMERICAN);
	APPLY(PASS);
	assert_true(log_has("American does not take"));
	assert_int_equal(S.discard[S.n_discard - 1], JOSEPH_BRANT);
	assert_true(in_hand(SIDE_AMERICAN, OPS2_A));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

static void test_exchange_not_offered_without_eligible_card(void **state)
{
	(void)state;
	/* The American holds only a 1 OPS card and an event. */
	set_hand(SIDE_BRITISH, 2, JOSEPH_BRANT, OPS1_B);
	set_hand(SIDE_AMERICAN, 2, OPS1_A, HENRY_KNOX);
	at_play(SIDE_BRITISH);
	APPLY(DISCARD(JOSEPH_BRANT));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);

	/* The British holds no OPS card at all. */
	set_hand(SIDE_AMERICAN, 2, HENRY_KNOX, OPS1_A);
	set_hand(SIDE_BRITISH, 1, JOSEPH_BRANT);
	at_play(SIDE_AMERICAN);
	APPLY(DISCARD(HENRY_KNOX));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

static void test_exchange_not_after_pc_card(void **state)
{
	(void)state;
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

/* ---- 6.34 Special events ---------------------------------------------- */

/* Plays out the DOI placements (first legal each time); returns how many. */
static int finish_doi(void)
{
	struct action a[256];
	int n = 0;

	while (S.prompt.kind == PROMPT_DOI) {
		assert_int_equal(S.prompt.side, SIDE_AMERICAN);
		int k = engine_legal(D, &S, a, 256);
		assert_true(k > 0);
		for (int i = 0; i < k && i < 256; i++)
			assert_int_equal(a[i].kind, ACT_PLACE);
		APPLY(a[0]);
		n++;
	}
	return n;
}

static void test_doi_places_one_per_colony(void **state)
{
	int british_before, placed[DATA_MAX_COLONIES] = { 0 };
	enum side before[DATA_MAX_SPACES];

	(void)state;
	/* Rhode Island has no legal space: Providence is British, Newport
	 * holds a British CU. */
	put_pc("Providence RI", SIDE_BRITISH);
	put_general("Greene", NULL);
	put_cu("Newport RI", NATION_AMERICAN, 0);
	put_cu("Newport RI", NATION_BRITISH, 1);
	set_hand(SIDE_AMERICAN, 2, DOI, OPS1_A);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	british_before = count_pcs(SIDE_BRITISH);
	for (int i = 0; i < D->n_spaces; i++)
		before[i] = S.space[i].pc;
	APPLY(EVENT(DOI));
	ASSERT_PROMPT(PROMPT_DOI, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 12);
	assert_true(S.prompt.colonies_done & (1u << COLONY("RI")));
	assert_true(S.reshuffle);
	assert_true(in_pile(S.removed, S.n_removed, DOI));
	REFUSED(FLIP("Norfolk VA"), "does not answer");
	REFUSED(PLACE("Newport RI"), "Rhode Island");
	REFUSED(PLACE("Boston MA"), "already holds a British PC");
	APPLY(PLACE("Richmond VA"));
	REFUSED(PLACE("Petersburg VA"), "Virginia is done for this event");
	assert_int_equal(finish_doi(), 11);
	assert_int_equal(count_pcs(SIDE_BRITISH), british_before);
	for (int i = 0; i < D->n_spaces; i++) {
		if (before[i] == SIDE_BRITISH)
			assert_int_equal(S.space[i].pc, SIDE_BRITISH);
		if (S.space[i].pc != before[i]) {
			assert_int_equal(before[i], SIDE_NONE);
			assert_int_equal(S.space[i].pc, SIDE_AMERICAN);
			placed[D->spaces[i].colony]++;
		}
	}
	for (int k = 0; k < D->n_colonies; k++) {
		bool none = D->colonies[k].canada || k == COLONY("RI");
		assert_int_equal(placed[k], none ? 0 : 1);
	}
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

static void test_doi_ignores_dispersed_congress(void **state)
{
	(void)state;
	S.congress = -1;
	set_hand(SIDE_BRITISH, 1, DOI);		/* the British may play it too */
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	at_play(SIDE_BRITISH);
	APPLY(EVENT(DOI));
	ASSERT_PROMPT(PROMPT_DOI, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 13);
	/* 10.11.A.ii still holds: no British CUs. */
	REFUSED(PLACE("Boston MA"), "already holds");
	put_cu("Worcester MA", NATION_BRITISH, 1);
	REFUSED(PLACE("Worcester MA"), "British CUs");
	assert_int_equal(finish_doi(), 13);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

static void test_doi_colony_filled_during_event(void **state)
{
	(void)state;
	/* Delaware has two spaces; with one British, the other is its only
	 * choice. All colonies still count as possible. */
	put_pc("Dover DE", SIDE_BRITISH);
	set_hand(SIDE_AMERICAN, 1, DOI);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(DOI));
	assert_int_equal(S.prompt.left, 13);
	REFUSED(PLACE("Dover DE"), "already holds a British PC");
	APPLY(PLACE("Wilmington DE"));
	assert_int_equal(S.prompt.left, 12);
}

static void test_franklin_advances_alliance(void **state)
{
	(void)state;
	set_hand(SIDE_BRITISH, 1, FRANKLIN);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	at_play(SIDE_BRITISH);
	APPLY(EVENT(FRANKLIN));
	assert_int_equal(S.french_alliance, 4);
	assert_false(S.french_allied);
	assert_true(in_pile(S.removed, S.n_removed, FRANKLIN));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

static void test_war_ends_box(void **state)
{
	(void)state;
	set_hand(SIDE_AMERICAN, 2, WAR_ENDS_1779, WAR_ENDS_1780);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(WAR_ENDS_1780));
	assert_int_equal(S.war_ends, WAR_ENDS_1780);
	assert_false(in_pile(S.discard, S.n_discard, WAR_ENDS_1780));
	APPLY(PC_CARD(OPS1_B));
	APPLY(DONE);
	APPLY(EVENT(WAR_ENDS_1779));
	assert_int_equal(S.war_ends, WAR_ENDS_1779);
	assert_int_equal(S.discard[S.n_discard - 1], WAR_ENDS_1780);
	/* End of 1775: the war goes on to 1776. */
	assert_int_equal(S.year, 1776);
	assert_false(engine_game_over(&S));
	assert_int_equal(S.war_ends, WAR_ENDS_1779);
}

/* A board whose count is known: 7 American colonies (NH, MA, RI, CT, NY,
 * NJ, PA), 6 British (Canada, MD, VA, NC, SC, GA), Delaware uncontrolled.
 * Nothing on it changes in Winter Attrition or the Political Control
 * Phase. */
static void count_board(void)
{
	clear_board();
	put_pc("Concord NH", SIDE_AMERICAN);
	put_pc("Worcester MA", SIDE_AMERICAN);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_pc("Hartford CT", SIDE_AMERICAN);
	put_pc("Albany NY", SIDE_AMERICAN);
	put_pc("Trenton NJ", SIDE_AMERICAN);
	put_pc("Philadelphia PA", SIDE_AMERICAN);	/* with the Congress */
	put_pc("Quebec", SIDE_BRITISH);
	put_pc("Montreal", SIDE_BRITISH);
	put_pc("Baltimore MD", SIDE_BRITISH);
	put_pc("Norfolk VA", SIDE_BRITISH);
	put_pc("Wilmington NC", SIDE_BRITISH);
	put_pc("Charleston SC", SIDE_BRITISH);
	put_pc("Savannah GA", SIDE_BRITISH);
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 2);
	put_cu("Boston MA", NATION_BRITISH, 2);		/* quarters, no general */
}

static void test_war_ends_in_its_year_british_win_7_6(void **state)
{
	(void)state;
	count_board();
	S.year = 1779;
	set_hand(SIDE_AMERICAN, 1, WAR_ENDS_1779);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(WAR_ENDS_1779));
	assert_true(engine_game_over(&S));
	assert_int_equal(S.end, END_WAR_ENDS);
	assert_int_equal(S.colonies[SIDE_AMERICAN], 7);
	assert_int_equal(S.colonies[SIDE_BRITISH], 6);
	assert_int_equal(S.winner, SIDE_BRITISH);
	assert_int_equal(S.year, 1779);
	assert_int_equal(engine_legal(D, &S, NULL, 0), 0);
	REFUSED(PASS, "the game is over");
}

static void test_war_ends_american_win_7_5(void **state)
{
	(void)state;
	count_board();
	put_pc("Charleston SC", SIDE_NONE);
	S.year = 1780;
	S.war_ends = 0;
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	take_card(WAR_ENDS_1779);
	S.war_ends = WAR_ENDS_1779;	/* an earlier year ends it too */
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	assert_true(engine_game_over(&S));
	assert_int_equal(S.colonies[SIDE_AMERICAN], 7);
	assert_int_equal(S.colonies[SIDE_BRITISH], 5);
	assert_int_equal(S.winner, SIDE_AMERICAN);
}

static void test_game_ends_after_1783(void **state)
{
	(void)state;
	count_board();
	S.year = 1783;
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	assert_true(engine_game_over(&S));
	assert_int_equal(S.end, END_1783);
	assert_int_equal(S.winner, SIDE_BRITISH);
}

static void test_count_neither_wins_is_british(void **state)
{
	(void)state;
	clear_board();
	victory_final(D, &S, END_WAR_ENDS, &LOG);
	assert_int_equal(S.colonies[SIDE_AMERICAN], 0);
	assert_int_equal(S.colonies[SIDE_BRITISH], 0);
	assert_int_equal(S.winner, SIDE_BRITISH);
	assert_true(engine_game_over(&S));
}

static void test_canada_needs_montreal_and_quebec(void **state)
{
	int ca;

	(void)state;
	ca = COLONY("CA");
	clear_board();
	put_pc("Quebec", SIDE_AMERICAN);
	put_pc("Fort Detroit", SIDE_AMERICAN);
	assert_int_equal(engine_colony_control(D, &S, ca), SIDE_NONE);
	put_pc("Montreal", SIDE_AMERICAN);
	assert_int_equal(engine_colony_control(D, &S, ca), SIDE_AMERICAN);
	put_pc("Fort Detroit", SIDE_BRITISH);	/* irrelevant (10.0.B) */
	assert_int_equal(engine_colony_control(D, &S, ca), SIDE_AMERICAN);
	put_pc("Quebec", SIDE_BRITISH);
	put_pc("Montreal", SIDE_BRITISH);
	put_pc("Fort Detroit", SIDE_AMERICAN);
	assert_int_equal(engine_colony_control(D, &S, ca), SIDE_BRITISH);
}

static void test_colony_majority_and_tie(void **state)
{
	int pa;

	(void)state;
	pa = COLONY("PA");
	clear_board();
	assert_int_equal(engine_colony_control(D, &S, pa), SIDE_NONE);
	put_pc("Reading PA", SIDE_BRITISH);
	assert_int_equal(engine_colony_control(D, &S, pa), SIDE_BRITISH);
	put_pc("Easton PA", SIDE_AMERICAN);
	assert_int_equal(engine_colony_control(D, &S, pa), SIDE_NONE);
	put_pc("York PA", SIDE_AMERICAN);
	assert_int_equal(engine_colony_control(D, &S, pa), SIDE_AMERICAN);
}

/* ---- 13.1 Automatic victory -------------------------------------------- */

static void test_auto_victory_british(void **state)
{
	(void)state;
	for (int i = 0; i < D->n_spaces; i++) {
		S.space[i].cu[NATION_AMERICAN] = 0;
		S.space[i].cu[NATION_FRENCH] = 0;
	}
	assert_true(victory_automatic(D, &S, &LOG));
	assert_int_equal(S.winner, SIDE_BRITISH);
	assert_int_equal(S.end, END_AUTO_BRITISH);
	assert_true(engine_game_over(&S));
}

static void test_auto_victory_american_cu_in_canada_counts(void **state)
{
	(void)state;
	for (int i = 0; i < D->n_spaces; i++)
		S.space[i].cu[NATION_AMERICAN] = 0;
	put_cu("Fort Detroit", NATION_BRITISH, 0);
	put_cu("Fort Detroit", NATION_AMERICAN, 1);
	assert_false(victory_automatic(D, &S, &LOG));
	put_cu("Fort Detroit", NATION_AMERICAN, 0);
	put_cu("Pittsburgh PA", NATION_FRENCH, 1);	/* French count too */
	assert_false(victory_automatic(D, &S, &LOG));
	assert_false(engine_game_over(&S));
}

static void test_auto_victory_american(void **state)
{
	(void)state;
	/* British CUs only in Canada (Quebec, Fort Detroit). */
	put_cu("Boston MA", NATION_BRITISH, 0);
	put_general("Howe", NULL);
	assert_true(victory_automatic(D, &S, &LOG));
	assert_int_equal(S.winner, SIDE_AMERICAN);
	assert_int_equal(S.end, END_AUTO_AMERICAN);
}

static void test_auto_victory_after_a_card(void **state)
{
	(void)state;
	/* The instant it holds: checked after the card play. */
	for (int i = 0; i < D->n_spaces; i++)
		S.space[i].cu[NATION_AMERICAN] = 0;
	set_hand(SIDE_AMERICAN, 2, OPS1_A, OPS1_B);
	set_hand(SIDE_BRITISH, 1, OPS1_C);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	assert_true(engine_game_over(&S));
	assert_int_equal(S.winner, SIDE_BRITISH);
}

static void test_auto_victory_in_winter(void **state)
{
	(void)state;
	/* The last British CU in the colonies dies of Winter Attrition. */
	put_cu("Boston MA", NATION_BRITISH, 0);
	put_general("Howe", NULL);
	put_cu("Reading PA", NATION_BRITISH, 1);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	/* Reading holds the only lone CU of the set-up board that rolls. */
	force_dice(1, 1);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	assert_int_equal(R.forced_pos, 1);
	assert_true(engine_game_over(&S));
	assert_int_equal(S.end, END_AUTO_AMERICAN);
	assert_int_equal(S.year, 1775);
}

/* ---- 5.0 Turn flow, 6.1 dealing ---------------------------------------- */

/* Skips the set-up placements: no Committees, no For The King. */
static void skip_setup(void)
{
	finish_committees();
	APPLY(DONE);
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
}

static void test_first_player_choice(void **state)
{
	(void)state;
	skip_setup();
	REFUSED(first(SIDE_NONE), "say 'first american' or 'first british'");
	ALLOWED(first(SIDE_AMERICAN));
	APPLY(first(SIDE_BRITISH));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	assert_int_equal(S.first, SIDE_BRITISH);
}

static void test_british_choose_after_dispersal(void **state)
{
	(void)state;
	/* 5.3.b: the Congress was dispersed this turn; it comes back in the
	 * Political Control Phase (10.2.1) and the British chooses next. */
	S.congress = -1;
	S.dispersed_this_turn = true;
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	ASSERT_PROMPT(PROMPT_CONGRESS, SIDE_AMERICAN);
	REFUSED(CONGRESS("Quebec"), "not 'Quebec' (10.2.1)");
	REFUSED(CONGRESS("Pittsburgh PA"), "holds no American PC (10.2.1)");
	put_pc("Providence RI", SIDE_AMERICAN);
	put_cu("Providence RI", NATION_BRITISH, 1);
	REFUSED(CONGRESS("Providence RI"), "British pieces (10.2.1)");
	REFUSED(PASS, "expected 'congress'");
	APPLY(CONGRESS("Lexington and Concord MA"));
	assert_int_equal(S.congress, SP("Lexington and Concord MA"));
	assert_int_equal(S.year, 1776);
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_BRITISH);
	assert_true(S.british_choose_first);
	assert_false(S.dispersed_this_turn);
}

static void test_american_chooses_normally(void **state)
{
	(void)state;
	S.year = 1776;
	flow_start_turn(D, &S, &R, &LOG);
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
	assert_false(S.british_choose_first);
	INVARIANTS();
}

static void test_congress_nowhere_to_return(void **state)
{
	(void)state;
	/* No American PC without British pieces: it stays out (10.2.1). */
	for (int i = 0; i < D->n_spaces; i++)
		if (S.space[i].pc == SIDE_AMERICAN)
			S.space[i].pc = SIDE_NONE;
	S.congress = -1;
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	assert_true(log_has("stays out of play (10.2.1)"));
	assert_int_equal(S.year, 1776);
	/* Lexington and Concord got its PC back from Washington's Army. */
	assert_int_equal(pc("Lexington and Concord MA"), SIDE_AMERICAN);
	assert_int_equal(S.congress, -1);
}

static void test_alternation_when_a_hand_runs_out(void **state)
{
	enum side seen[8];
	int n = 0;

	(void)state;
	set_hand(SIDE_AMERICAN, 3, OPS1_A, OPS1_B, OPS1_C);
	set_hand(SIDE_BRITISH, 1, OPS1_D);
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_FIRST;
	S.prompt.side = SIDE_AMERICAN;
	APPLY(first(SIDE_AMERICAN));
	while (S.year == 1775 && S.prompt.kind == PROMPT_PLAY && n < 8) {
		enum side side = S.prompt.side;
		seen[n++] = side;
		APPLY(PC_CARD(S.hand[side][0]));
		APPLY(DONE);
	}
	assert_int_equal(n, 4);
	assert_int_equal(seen[0], SIDE_AMERICAN);
	assert_int_equal(seen[1], SIDE_BRITISH);
	assert_int_equal(seen[2], SIDE_AMERICAN);
	assert_int_equal(seen[3], SIDE_AMERICAN);
	assert_int_equal(S.year, 1776);
}

static void test_british_first_alternation(void **state)
{
	enum side seen[8];
	int n = 0;

	(void)state;
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 3, OPS1_B, OPS1_C, OPS1_D);
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_FIRST;
	S.prompt.side = SIDE_AMERICAN;
	APPLY(first(SIDE_BRITISH));
	while (S.year == 1775 && S.prompt.kind == PROMPT_PLAY && n < 8) {
		enum side side = S.prompt.side;
		seen[n++] = side;
		APPLY(PC_CARD(S.hand[side][0]));
		APPLY(DONE);
	}
	assert_int_equal(n, 4);
	assert_int_equal(seen[0], SIDE_BRITISH);
	assert_int_equal(seen[1], SIDE_AMERICAN);
	assert_int_equal(seen[2], SIDE_BRITISH);
	assert_int_equal(seen[3], SIDE_BRITISH);
}

/* A tiny deterministic chooser for the legal-action walks. */
static uint32_t lcg(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return (*x >> 16) & 0x7fff;
}

/* Standing reactions ("react") answer no prompt and are not listed by
 * engine_legal; every other kind is a candidate answer. */
static bool answers_prompts(int kind)
{
	return strcmp(action_verb(kind), "react") != 0;
}

/* Every action of a kind that answers prompts, over all spaces, cards and
 * sides (what a player could possibly write). */
static int candidate_actions(struct action *out, int max)
{
	int n = 0;

#define ADD(a) do { if (n < max) out[n] = (a); n++; } while (0)
	for (int k = ACT_PLACE; k < ACT__COUNT; k++) {
		if (!answers_prompts(k))
			continue;
		if (action_takes_space(k)) {
			for (int i = 0; i < D->n_spaces; i++)
				ADD(act(k, 0, i));
		} else if (action_takes_card(k)) {
			for (int c = 1; c <= D->n_cards; c++) {
				struct action a = act(k, c, -1);
				if (action_takes_general(k))
					a.general = 0;
				ADD(a);
			}
		} else if (action_takes_side(k)) {
			ADD(first(SIDE_AMERICAN));
			ADD(first(SIDE_BRITISH));
		} else {
			ADD(act(k, 0, -1));
		}
	}
#undef ADD
	return n;
}

/*
 * Checks engine_legal against engine_check: every listed action passes,
 * and every candidate action that passes is listed (same count).
 */
static void check_legal_at(int line)
{
	static struct action legal[1024], cand[2048];
	int n = engine_legal(D, &S, legal, 1024), m, ok = 0, listed_reactions = 0;

	if (n > 1024)
		fail_msg("line %d: %d legal actions", line, n);
	for (int i = 0; i < n; i++) {
		strbuf_reset(&WHY);
		if (engine_check(D, &S, &legal[i], &WHY) != ENGINE_OK)
			fail_msg("line %d: listed '%s' fails: %s", line,
				 fmt_action(&legal[i], &TXT), strbuf_str(&WHY));
		if (!answers_prompts(legal[i].kind))
			listed_reactions++;
	}
	m = candidate_actions(cand, 2048);
	assert_true(m <= 2048);
	for (int i = 0; i < m; i++) {
		strbuf_reset(&WHY);
		if (engine_check(D, &S, &cand[i], &WHY) == ENGINE_OK)
			ok++;
		else if (!WHY.len)
			fail_msg("line %d: '%s' refused without a reason", line,
				 fmt_action(&cand[i], &TXT));
	}
	if (ok != n - listed_reactions)
		fail_msg("line %d: %d actions pass engine_check at prompt %s, engine_legal lists %d",
			 line, ok, prompt_kind_name(S.prompt.kind), n);
}
#define CHECK_LEGAL() check_legal_at(__LINE__)

/* Plays random legal actions until the game ends or `until_year` starts;
 * checks the invariants (and, if asked, the enumeration) at every step.
 * Returns the number of actions taken. */
static int walk(uint32_t seed, int until_year, bool check_legal, int max_steps)
{
	static struct action a[1024];
	int steps = 0;

	while (!engine_game_over(&S) && S.year < until_year && steps < max_steps) {
		int n = engine_legal(D, &S, a, 1024), k = 0;
		assert_true(n > 0 && n <= 1024);
		if (check_legal)
			CHECK_LEGAL();
		for (int i = 0; i < n; i++)	/* answers to the prompt only */
			if (answers_prompts(a[i].kind))
				a[k++] = a[i];
		n = k;
		assert_true(n > 0);
		/* Prefer PC actions to 'done', so the map fills up. */
		int pick = (int)(lcg(&seed) % (uint32_t)n);
		if ((a[pick].kind == ACT_DONE || a[pick].kind == ACT_PASS) && n > 1 &&
		    lcg(&seed) % 4)
			pick = (int)(lcg(&seed) % (uint32_t)(n - 1));
		APPLY(a[pick]);
		steps++;
	}
	return steps;
}

static void test_first_turn_card_accounting_and_1776(void **state)
{
	(void)state;
	walk(7, 1776, false, 5000);
	assert_int_equal(S.year, 1776);
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
	/* 6.1.E: the two set-aside cards are now in the deck or a hand. */
	assert_int_equal(S.n_set_aside, 0);
	assert_true(in_pile(S.deck, S.n_deck, DOI) || in_hand(SIDE_AMERICAN, DOI) ||
		    in_hand(SIDE_BRITISH, DOI));
	assert_true(in_pile(S.deck, S.n_deck, STEUBEN) ||
		    in_hand(SIDE_AMERICAN, STEUBEN) || in_hand(SIDE_BRITISH, STEUBEN));
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 7);
	assert_int_equal(S.n_hand[SIDE_BRITISH], 7);
	assert_true(log_has("shuffled into the deck (6.1.E)"));
}

static void test_deal_reshuffles_when_asked(void **state)
{
	(void)state;
	/* 6.3.D: a reshuffle waits for the next deal; the discards return. */
	for (int i = 0; i < 20; i++)
		S.discard[S.n_discard++] = S.deck[--S.n_deck];
	S.reshuffle = true;
	S.year = 1776;
	flow_start_turn(D, &S, &R, &LOG);
	assert_int_equal(S.n_discard, 0);
	assert_false(S.reshuffle);
	assert_int_equal(S.n_deck, 110 - 14);
	INVARIANTS();
}

static void test_deal_reshuffles_when_deck_runs_out(void **state)
{
	(void)state;
	/* 6.1.A: only 5 cards left in the deck, the rest discarded. */
	while (S.n_deck > 5)
		S.discard[S.n_discard++] = S.deck[--S.n_deck];
	flow_start_turn(D, &S, &R, &LOG);
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 7);
	assert_int_equal(S.n_hand[SIDE_BRITISH], 7);
	assert_int_equal(S.n_discard, 0);
	assert_int_equal(S.n_deck + 14, 108);
	assert_true(log_has("the deck is empty, 6.1.A"));
	INVARIANTS();
}

static void test_deal_american_first(void **state)
{
	(void)state;
	/* 5.2: the American is dealt the first card. The new game's deck is
	 * not shuffled yet: 1, 2, 3, ... from the top. */
	assert_int_equal(S.deck[0], 1);
	flow_start_turn(D, &S, &R, &LOG);
	for (int i = 0; i < 7; i++) {
		assert_int_equal(S.hand[SIDE_AMERICAN][i], 2 * i + 1);
		assert_int_equal(S.hand[SIDE_BRITISH][i], 2 * i + 2);
	}
	assert_int_equal(S.n_set_aside, 2);	/* still 1775 */
	INVARIANTS();
}

static void test_mutinies_last_one_turn_and_spare_events(void **state)
{
	(void)state;
	/* 10.11.A.iv: the Americans can still play events to place PCs. */
	S.mutinies = true;
	set_hand(SIDE_AMERICAN, 1, DOI);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(DOI));
	ASSERT_PROMPT(PROMPT_DOI, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 13);
	assert_int_equal(finish_doi(), 13);
	/* The DOI was the last card: the turn ended and the next began. */
	assert_int_equal(S.year, 1776);
	assert_false(S.mutinies);
	assert_true(log_has("an event asked for it, 6.3.D"));
	assert_false(S.reshuffle);
}

static void test_draws_recorded_in_state(void **state)
{
	(void)state;
	finish_committees();
	assert_int_equal(S.draws, 0);
	APPLY(DONE);
	assert_true(R.next > 0);
	assert_int_equal(S.draws, R.next);
}

/* ---- Legal-move enumeration -------------------------------------------- */

static void test_legal_at_every_prompt_kind(void **state)
{
	(void)state;
	CHECK_LEGAL();				/* CC */
	finish_committees();
	CHECK_LEGAL();				/* FTK */
	APPLY(DONE);
	CHECK_LEGAL();				/* FIRST */
	set_hand(SIDE_AMERICAN, 4, HENRY_KNOX, OPS2_A, DOI, FRANKLIN);
	set_hand(SIDE_BRITISH, 3, JOSEPH_BRANT, OPS1_A, OPS3_A);
	at_play(SIDE_AMERICAN);
	CHECK_LEGAL();				/* PLAY */
	APPLY(DISCARD(HENRY_KNOX));
	CHECK_LEGAL();				/* DISCARD */
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_BRITISH);
	CHECK_LEGAL();				/* EXCHANGE */
	APPLY(PASS);
	APPLY(PC_CARD(OPS3_A));
	CHECK_LEGAL();				/* PC, British */
	APPLY(DONE);
	APPLY(EVENT(DOI));
	CHECK_LEGAL();				/* DOI */
	S.congress = -1;
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_CONGRESS;
	S.prompt.side = SIDE_AMERICAN;
	S.prompt.left = 1;
	CHECK_LEGAL();				/* CONGRESS */
}

static void test_legal_random_games(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 3; seed++) {
		new_game(NULL);
		rng_fixed(&R, (unsigned char)(10 + seed));
		walk(seed, 9999, true, 120);
	}
}

static void test_random_games_to_the_end(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= SOAK_GAMES; seed++) {
		new_game(NULL);
		rng_fixed(&R, (unsigned char)(20 + seed));
		walk(seed * 31, 9999, false, 20000);
		assert_true(engine_game_over(&S));
		assert_true(S.winner == SIDE_AMERICAN || S.winner == SIDE_BRITISH);
		assert_true(S.end != END_NONE);
		INVARIANTS();
	}
}

static void test_illegal_reasons(void **state)
{
	(void)state;
	REFUSED(PC_CARD(OPS1_A), "does not answer this prompt");
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	REFUSED(PC_CARD(0), "no card #0");
	REFUSED(PC_CARD(111), "no card #111");
	REFUSED(PC_CARD(OPS1_B), "is not in your hand");
	REFUSED(DISCARD(OPS1_B), "not in your hand");
	REFUSED(PLACE("Boston MA"), "expected 'pc', 'discard', 'event'");
	REFUSED(first(SIDE_AMERICAN), "does not answer");
	REFUSED(EXCHANGE(OPS1_A), "does not answer");
	REFUSED(CONGRESS("Philadelphia PA"), "does not answer");
	APPLY(PC_CARD(OPS1_A));
	REFUSED(REMOVE("Norfolk VA"), "does not answer");
	REFUSED(PASS, "expected 'place', 'flip', 'done'");
	REFUSED(act(ACT_FLIP, 0, -5), "no such space");
}

static void test_describe_every_prompt(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	engine_describe_prompt(D, &S, &out);
	assert_non_null(strstr(strbuf_str(&out), "Committees of Correspondence PC in each colony (13 to go)"));
	strbuf_reset(&out);
	set_hand(SIDE_BRITISH, 1, OPS1_A);
	set_hand(SIDE_AMERICAN, 0);
	at_play(SIDE_BRITISH);
	engine_describe_prompt(D, &S, &out);
	assert_non_null(strstr(strbuf_str(&out), "British: play a card (1775, card 1 of the turn; 1 in hand)"));
	strbuf_release(&out);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, new_game)
	const struct CMUnitTest tests[] = {
		/* 4.0 */
		T(test_setup_starts_with_committees),
		T(test_cc_one_per_colony),
		T(test_cc_not_with_british_piece),
		T(test_cc_not_in_canada),
		T(test_cc_only_places),
		T(test_cc_complete_leads_to_for_the_king),
		T(test_ftk_adjacent_to_setup_pcs),
		T(test_ftk_done_deals_the_first_turn),
		T(test_ftk_three_placements_then_turn),
		/* 10.11 */
		T(test_pc_example_no_daisy_chaining),
		T(test_pc_british_ports_adjacent),
		T(test_pc_british_port_needs_port_pc_before_card),
		T(test_pc_british_army_places_anywhere),
		T(test_pc_british_general_alone_is_no_army),
		T(test_pc_british_flip_needs_army),
		T(test_pc_british_not_with_american_unit),
		T(test_pc_american_places_anywhere),
		T(test_pc_american_flip_needs_general),
		T(test_pc_american_not_with_british_cus),
		T(test_pc_american_congress_dispersed),
		T(test_pc_american_line_mutinies),
		T(test_pc_card_counts_actions_and_done),
		T(test_pc_event_card_is_not_ops),
		/* 10.2, 10.3 */
		T(test_political_phase_armies_place),
		T(test_iso_10_31_ex1_uncontrolled_newport),
		T(test_iso_10_31_ex1_british_cu_in_newport),
		T(test_iso_10_31_ex2_congress_in_newport),
		T(test_iso_10_31_ex2_without_congress),
		T(test_iso_10_31_ex3_american_cu_anchors),
		T(test_iso_10_31_ex3_french_cu_anchors),
		T(test_iso_10_31_ex3_general_alone_anchors),
		T(test_iso_10_31_ex3_no_unit_all_removed),
		T(test_iso_10_31_ex3_trace_through_british_cu),
		T(test_iso_10_32_ex1_uncontrolled_hartford),
		T(test_iso_10_32_ex1_port_never_isolated),
		T(test_iso_10_32_ex1_american_unit_in_hartford),
		T(test_iso_10_32_ex2_british_cu_anchors),
		T(test_iso_10_32_ex2_without_cu_removed),
		T(test_iso_10_32_trace_through_american_units),
		T(test_iso_10_32_ex3_mutual_isolation),
		T(test_iso_10_32_simultaneous_british_removal),
		T(test_iso_through_political_control_phase),
		/* 11.0 */
		T(test_winter_british_halves_north),
		T(test_winter_british_lone_cu_rolls),
		T(test_winter_british_army_of_one_safe),
		T(test_winter_british_quarters_and_south_safe),
		T(test_winter_american_halves_everywhere),
		T(test_winter_american_single_with_general_safe),
		T(test_winter_american_single_rolls),
		T(test_winter_washington_example),
		T(test_winter_washington_limits),
		T(test_winter_french),
		/* 6.32 */
		T(test_discard_american_removes_adjacent),
		T(test_discard_american_remove_despite_british_general),
		T(test_discard_british_remove_refusals),
		T(test_discard_british_remove_via_port),
		T(test_discard_american_place_needs_adjacency),
		T(test_discard_british_place_needs_adjacency),
		T(test_discard_flips),
		T(test_discard_congress_dispersed_flip_not_place),
		T(test_discard_pass),
		T(test_discard_special_and_ops_refused),
		T(test_discard_hortelez_sets_reshuffle),
		T(test_event_side_and_battle_cards),
		T(test_exchange_british_any_ops),
		T(test_exchange_american_needs_2_or_3),
		T(test_exchange_pass),
		T(test_exchange_not_offered_without_eligible_card),
		T(test_exchange_not_after_pc_card),
		/* 6.34, 13.2 */
		T(test_doi_places_one_per_colony),
		T(test_doi_ignores_dispersed_congress),
		T(test_doi_colony_filled_during_event),
		T(test_franklin_advances_alliance),
		T(test_war_ends_box),
		T(test_war_ends_in_its_year_british_win_7_6),
		T(test_war_ends_american_win_7_5),
		T(test_game_ends_after_1783),
		T(test_count_neither_wins_is_british),
		T(test_canada_needs_montreal_and_quebec),
		T(test_colony_majority_and_tie),
		/* 13.1 */
		T(test_auto_victory_british),
		T(test_auto_victory_american_cu_in_canada_counts),
		T(test_auto_victory_american),
		T(test_auto_victory_after_a_card),
		T(test_auto_victory_in_winter),
		/* 5.0, 6.1 */
		T(test_first_player_choice),
		T(test_british_choose_after_dispersal),
		T(test_american_chooses_normally),
		T(test_congress_nowhere_to_return),
		T(test_alternation_when_a_hand_runs_out),
		T(test_british_first_alternation),
		T(test_first_turn_card_accounting_and_1776),
		T(test_deal_reshuffles_when_asked),
		T(test_deal_reshuffles_when_deck_runs_out),
		T(test_deal_american_first),
		T(test_mutinies_last_one_turn_and_spare_events),
		T(test_draws_recorded_in_state),
		/* enumeration */
		T(test_legal_at_every_prompt_kind),
		T(test_legal_random_games),
		T(test_random_games_to_the_end),
		T(test_illegal_reasons),
		T(test_describe_every_prompt),
	};
#undef T
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
