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
#include "engine_fixture.h"
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

/* ---- Fixtures ---------------------------------------------------------- */

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
	fixture_clear_board();
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

/* Sets a side's hand to exactly the n cards given (the old hand goes back
 * to the bottom of the deck). */

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
	/* connections.yaml: Ticonderoga touches Montreal, Fort Niagara
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

/* 5.3.a: the British is asked whether he declares himself first with a
 * campaign card every year, whatever he holds; he passes here. */
static void british_declines(void)
{
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 1);
	APPLY(PASS);
}

static void test_ftk_done_deals_the_first_turn(void **state)
{
	(void)state;
	finish_committees();
	ALLOWED(DONE);
	APPLY(DONE);
	assert_true(log_has("British places no more For The King PCs."));
	british_declines();	/* 5.3.a is asked every year (R62) */
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
	british_declines();	/* 5.3.a is asked every year (R62) */
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
	set_hand(SIDE_AMERICAN, 1, HENRY_KNOX);
	REFUSED(act(ACT_QUEUE, HENRY_KNOX, -1), "an event, not an OPS card");
	REFUSED(act(ACT_REINFORCE, HENRY_KNOX, -1), "an event, not an OPS card");
	REFUSED(act(ACT_ACTIVATE, HENRY_KNOX, -1), "an event, not an OPS card");
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
	british_declines();	/* 5.3.a is asked every year (R62) */
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
	winter_attrition(D, &S, &R, &LOG, 0);
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
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Reading PA", NATION_BRITISH), 0);

	winter_board();
	put_cu("Reading PA", NATION_BRITISH, 1);
	force_dice(1, 4);
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Reading PA", NATION_BRITISH), 1);
}

static void test_winter_british_army_of_one_safe(void **state)
{
	(void)state;
	winter_board();
	put_cu("Reading PA", NATION_BRITISH, 1);
	put_general("Clinton", "Reading PA");
	winter_attrition(D, &S, &R, &LOG, 0);
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
	winter_attrition(D, &S, &R, &LOG, 0);
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
	winter_attrition(D, &S, &R, &LOG, 0);
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
	winter_attrition(D, &S, &R, &LOG, 0);
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
	winter_attrition(D, &S, &R, &LOG, 0);
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
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 5);

	winter_board();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 6);
	force_dice(1, 5);
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(R.forced_pos, 1);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 6);
}

static void test_winter_washington_limits(void **state)
{
	(void)state;
	winter_board();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 5);
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 5);
	assert_int_equal(R.next, 0);

	/* Seven: the excess two are a stack of two, losing one. */
	winter_board();
	put_general("Washington", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 7);
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 6);
	assert_int_equal(R.next, 0);

	/* Not in quarters, north of the line: no exemption. */
	winter_board();
	put_general("Washington", "Reading PA");
	put_cu("Reading PA", NATION_AMERICAN, 6);
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(cus("Reading PA", NATION_AMERICAN), 3);

	/* South of the line: exempt like in quarters. */
	winter_board();
	put_general("Washington", "Camden SC");
	put_cu("Camden SC", NATION_AMERICAN, 5);
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(cus("Camden SC", NATION_AMERICAN), 5);
}

static void test_winter_french(void **state)
{
	(void)state;
	/* 11.3: French alone as if British, with Americans as Americans. */
	winter_board();
	put_cu("Philadelphia PA", NATION_FRENCH, 4);	/* alone, quarters */
	put_cu("Reading PA", NATION_FRENCH, 3);		/* alone, north */
	/* Mixed stacks, where the American chooses: tests/unit/test_alliance.c */
	winter_attrition(D, &S, &R, &LOG, 0);
	assert_int_equal(cus("Philadelphia PA", NATION_FRENCH), 4);
	assert_int_equal(cus("Reading PA", NATION_FRENCH), 2);
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
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_BRITISH);
	APPLY(PASS);	/* asked whatever the hand holds (R100) */
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

/* 6.32.B.iii and 10.12.B: "not occupied by an enemy CU, an American
 * General or the Continental Congress" names the American General for
 * either side (R8): the American cannot remove a British PC where his own
 * general stands; he may flip it instead (10.11.A.iii). */
static void test_discard_remove_american_general_protects_6_32_B_iii(void **state)
{
	(void)state;
	put_pc("Worcester MA", SIDE_BRITISH);	/* next to Lexington and Concord */
	put_general("Greene", "Worcester MA");
	american_discards(HENRY_KNOX);
	REFUSED(REMOVE("Worcester MA"), "an American general (6.32.B.iii)");
	ALLOWED(FLIP("Worcester MA"));
	APPLY(FLIP("Worcester MA"));
	assert_int_equal(pc("Worcester MA"), SIDE_AMERICAN);
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
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_BRITISH);
	APPLY(PASS);	/* asked whatever the hand holds (R100) */
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
	REFUSED(EVENT(JOSEPH_BRANT), "it must be discarded (6.32.A)");
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

/* 6.32.C and R100: the exchange is offered whenever the opponent's hand is
 * not empty, whatever it holds; with no card that fits, pass is the only
 * legal answer. Whether the prompt comes tells the discarder nothing. */
static void test_exchange_6_32_C_asked_whatever_the_hand_holds(void **state)
{
	struct action legal[8];

	(void)state;
	/* The American holds only a 1 OPS card and an event. */
	set_hand(SIDE_BRITISH, 2, JOSEPH_BRANT, OPS1_B);
	set_hand(SIDE_AMERICAN, 2, OPS1_A, HENRY_KNOX);
	at_play(SIDE_BRITISH);
	APPLY(DISCARD(JOSEPH_BRANT));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_AMERICAN);
	assert_int_equal(engine_legal(D, &S, legal, 8), 1);
	assert_int_equal(legal[0].kind, ACT_PASS);
	REFUSED(EXCHANGE(OPS1_A), "2 or 3 OPS card in exchange (6.32.C)");
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);

	/* The British holds no OPS card at all. */
	set_hand(SIDE_AMERICAN, 2, HENRY_KNOX, OPS1_A);
	set_hand(SIDE_BRITISH, 1, JOSEPH_BRANT);
	at_play(SIDE_AMERICAN);
	APPLY(DISCARD(HENRY_KNOX));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_BRITISH);
	assert_int_equal(engine_legal(D, &S, legal, 8), 1);
	REFUSED(EXCHANGE(JOSEPH_BRANT), "not an OPS card");
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);

	/* An empty hand is public: no prompt. */
	set_hand(SIDE_AMERICAN, 1, HENRY_KNOX);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(DISCARD(HENRY_KNOX));
	APPLY(PASS);
	assert_true(S.prompt.kind != PROMPT_EXCHANGE);
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

/* Gives `side` one PC in the first space of each of colonies [from, to). */
static void control_colonies(enum side side, int from, int to)
{
	for (int k = from; k < to; k++)
		for (int i = 0; i < D->n_spaces; i++)
			if (D->spaces[i].colony == k && !D->colonies[k].canada) {
				S.space[i].pc = side;
				break;
			}
}

/* 13.2 at its edges, as every report shows it: 7 American against 5
 * British is an American win; 7 against 6 (both reach), or 6 against 5
 * (neither), goes to the British. */
static void test_winner_if_ended_13_2(void **state)
{
	int col[3];

	(void)state;
	clear_board();
	control_colonies(SIDE_AMERICAN, 1, 8);
	control_colonies(SIDE_BRITISH, 8, 13);
	assert_int_equal(engine_winner_if_ended(D, &S, col), SIDE_AMERICAN);
	assert_int_equal(col[SIDE_AMERICAN], 7);
	assert_int_equal(col[SIDE_BRITISH], 5);
	control_colonies(SIDE_BRITISH, 13, 14);
	assert_int_equal(engine_winner_if_ended(D, &S, col), SIDE_BRITISH);
	assert_int_equal(col[SIDE_BRITISH], 6);
	clear_board();
	control_colonies(SIDE_AMERICAN, 1, 7);
	assert_int_equal(engine_winner_if_ended(D, &S, col), SIDE_BRITISH);
	assert_int_equal(col[SIDE_AMERICAN], 6);
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
	/* The instant it holds: checked after every action, here the play
	 * of a card for PC actions, before any of them. */
	for (int i = 0; i < D->n_spaces; i++)
		S.space[i].cu[NATION_AMERICAN] = 0;
	set_hand(SIDE_AMERICAN, 2, OPS1_A, OPS1_B);
	set_hand(SIDE_BRITISH, 1, OPS1_C);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
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
	british_declines();	/* 5.3.a is asked every year (R62) */
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

/* 5.3.b: the British who chooses the first player is told why. */
static void test_first_player_why_british_choose_5_3_b(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	S.congress = -1;
	S.dispersed_this_turn = true;
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	APPLY(CONGRESS("Lexington and Concord MA"));
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_BRITISH);
	assert_true(log_has("The Continental Congress was dispersed in 1775 (7.7): the British choose who plays first in 1776 (5.3.b)."));
	engine_describe_prompt(D, &S, &out);
	assert_non_null(strstr(strbuf_str(&out), "the Continental Congress was dispersed in 1775 (7.7), so the British choose (5.3.b)"));
	APPLY(first(SIDE_AMERICAN));
	assert_true(log_has("British chooses: the American plays first (5.3.b)."));
	strbuf_release(&out);
}

static void test_american_chooses_normally(void **state)
{
	(void)state;
	S.year = 1776;
	flow_start_turn(D, &S, &R, &LOG);
	if (S.prompt.side == SIDE_BRITISH) {	/* a campaign card was dealt (5.3.a) */
		assert_int_equal(S.prompt.left, 1);
		APPLY(PASS);
	}
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
		/* The many-argument kinds in full only where they answer. */
		if ((k == ACT_LAND || k == ACT_ACTIVATE) && !engine_kind_fits(&S, k)) {
			ADD(act(k, 1, 0));
		} else if (k == ACT_LAND) {		/* space, CUs (0-41), general or none */
			for (int i = 0; i < D->n_spaces; i++)
				for (int v = 0; v <= 41; v++)
					for (int g = -1; g < D->n_generals; g++) {
						struct action a = act(k, 0, i);
						a.value = v;
						a.general = g;
						ADD(a);
					}
		} else if (k == ACT_TAKE) {	/* and French among them, 12.2.C */
			for (int v = -1; v <= 7; v++)
				for (int f = 0; f <= 6; f++) {
					struct action a = act(k, 0, -1);
					a.value = v;
					a.french = f;
					ADD(a);
				}
		} else if (k == ACT_STOP || k == ACT_INTERCEPT || k == ACT_SEND) {
			for (int g = -1; g < D->n_generals; g++)
				for (int f = 0; f <= (k == ACT_INTERCEPT ? 6 : 0); f++) {
					struct action a = act(k, 0, -1);
					a.general = g;
					a.french = f;
					ADD(a);
				}
		} else if (k == ACT_ACTIVATE) {
			for (int c = 1; c <= D->n_cards; c++)
				for (int g = -1; g < D->n_generals; g++) {
					struct action a = act(k, c, -1);
					a.general = g;
					ADD(a);
				}
		} else if (action_takes_zone(k)) {	/* navy: every zone and one past */
			for (int z = -1; z <= D->n_zones; z++)
				ADD(act(k, 0, z));
		} else if (k == ACT_LOSE) {		/* French CUs lost: -1 to 7 */
			for (int v = -1; v <= 7; v++) {
				struct action a = act(k, 0, -1);
				a.value = v;
				ADD(a);
			}
		} else if (k == ACT_REMOVE || k == ACT_RETREAT) {	/* and French CUs among them */
			for (int v = 0; v <= 5; v++)
				for (int i = 0; i < D->n_spaces; i++) {
					struct action a = act(k, 0, i);
					a.french = v;
					ADD(a);
				}
		} else if (action_takes_space(k)) {
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
	static struct action legal[8192], cand[80000];
	int n = engine_legal(D, &S, legal, 8192), m, ok = 0, listed_reactions = 0;

	if (n > 8192)
		fail_msg("line %d: %d legal actions", line, n);
	for (int i = 0; i < n; i++) {
		strbuf_reset(&WHY);
		if (engine_check(D, &S, &legal[i], &WHY) != ENGINE_OK)
			fail_msg("line %d: listed '%s' fails: %s", line,
				 fmt_action(&legal[i], &TXT), strbuf_str(&WHY));
		if (!answers_prompts(legal[i].kind))
			listed_reactions++;
	}
	m = candidate_actions(cand, 80000);
	assert_true(m <= 80000);
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
	static struct action a[8192];
	int steps = 0;

	while (!engine_game_over(&S) && S.year < until_year && steps < max_steps) {
		int n = engine_legal(D, &S, a, 8192), k = 0;
		assert_true(n > 0 && n <= 8192);
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
		engine_begin_order(&S);
		APPLY(a[pick]);
		steps++;
	}
	return steps;
}

/* Issue 15: every prompt kind is known in one place, its descriptor,
 * which must give all four jobs and the verbs that answer it; a kind
 * added without them fails here, not in a game. */
static void test_prompt_descriptors_complete(void **state)
{
	(void)state;
	for (int k = PROMPT_NONE + 1; k < PROMPT__COUNT; k++) {
		const struct prompt_desc *p = prompt_desc((enum prompt_kind)k);
		if (!p->check || !p->apply || !p->legal || !p->describe)
			fail_msg("prompt kind %d lacks a check, apply, legal or describe", k);
		if (p->answers[0] == ACT_NONE)
			fail_msg("prompt kind %d is answered by no kind of action", k);
		for (int i = 0; i < 7 && p->answers[i] != ACT_NONE; i++)
			if (p->answers[i] <= ACT_NONE || p->answers[i] >= ACT__COUNT)
				fail_msg("prompt kind %d: answer %d is no action kind", k, i);
	}
	/* the game's first prompt, read through the table */
	ASSERT_PROMPT(PROMPT_CC, SIDE_AMERICAN);
	assert_true(engine_kind_fits(&S, ACT_PLACE));
	assert_false(engine_kind_fits(&S, ACT_DONE));
	assert_false(engine_prompt_interrupts(&S));
	assert_int_equal(prompt_desc(PROMPT_CC)->pcx, PCX_CC);
	assert_true(prompt_desc(PROMPT_INTERCEPT)->interrupts);
	/* 13.1 holds in the Strategy Phase and winter, not at the set-up or
	 * the European War */
	assert_true(prompt_desc(PROMPT_CC)->no_auto_victory);
	assert_true(prompt_desc(PROMPT_WAR)->no_auto_victory);
	assert_false(prompt_desc(PROMPT_PLAY)->no_auto_victory);
	assert_false(prompt_desc(PROMPT_WINTER)->no_auto_victory);
	/* only an event refuses other verbs in its own words and counts
	 * French CUs after 'remove' (6.31) */
	for (int k = PROMPT_NONE + 1; k < PROMPT__COUNT; k++) {
		const struct prompt_desc *p = prompt_desc((enum prompt_kind)k);
		assert_int_equal(p->own_refusals, k == PROMPT_EVENT);
		assert_int_equal(p->french_removed, k == PROMPT_EVENT);
	}
}

/* A card that needs code is one row of card_handler_descs with all its
 * functions, named in effects.c, and used by a card of the data. */
static void test_card_handlers_complete(void **state)
{
	(void)state;
	assert_null(card_handlers[HANDLER_NONE]);
	for (int h = HANDLER_NONE + 1; h < HANDLER__COUNT; h++) {
		const struct card_handler_desc *r = &card_handler_descs[h];
		bool used = false;
		if (!r->play || !r->check || !r->apply || !r->legal || !r->describe)
			fail_msg("handler %d lacks a play, check, apply, legal or describe", h);
		assert_non_null(card_handlers[h]);
		assert_int_equal(card_handler_lookup(card_handlers[h]), h);
		for (int n = 1; n <= D->n_cards; n++)
			used |= D->cards[n].handler == (enum card_handler)h;
		if (!used)
			fail_msg("handler %s: no card of the data names it", card_handlers[h]);
	}
	assert_int_equal(card_handler_lookup("no-such-handler"), HANDLER_NONE);
}

static void test_first_turn_card_accounting_and_1776(void **state)
{
	(void)state;
	walk(7, 1776, false, 5000);
	assert_int_equal(S.year, 1776);
	british_declines();	/* 5.3.a is asked every year (R62) */
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
	/* 6.3.D: a reshuffle waits for the next deal; the discards return.
	 * In 1776 it follows the 6.1.E shuffle of the set-aside cards (R5):
	 * every card but the dealt ones ends in the deck. */
	assert_int_equal(S.n_set_aside, 2);
	for (int i = 0; i < 20; i++)
		S.discard[S.n_discard++] = S.deck[--S.n_deck];
	S.reshuffle = true;
	S.year = 1776;
	flow_start_turn(D, &S, &R, &LOG);
	assert_int_equal(S.n_discard, 0);
	assert_int_equal(S.n_set_aside, 0);
	assert_false(S.reshuffle);
	assert_int_equal(S.n_deck, 110 - 14);
	assert_true(log_has("shuffled into the deck (6.1.E)"));
	assert_true(log_has("6.3.D"));
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

/* ---- 7.0 Movement, 8.0 Reinforcements ---------------------------------- */

static struct action act_g(enum action_kind kind, int card, int space,
			   int general, int value)
{
	struct action a = act(kind, card, space);

	a.general = general;
	a.value = value;
	return a;
}

#define MOVE(c, g) act_g(ACT_ACTIVATE, (c), -1, GEN(g), 0)
#define QUEUE(c) act(ACT_QUEUE, (c), -1)
#define REINFORCE(c) act(ACT_REINFORCE, (c), -1)
#define TAKE(n) act_g(ACT_TAKE, 0, -1, -1, (n))
static struct action take_french(int n, int french)
{
	struct action a = act_g(ACT_TAKE, 0, -1, -1, n);

	a.french = french;
	return a;
}
#define TAKE_FRENCH(n, f) take_french((n), (f))
#define TO(name) act(ACT_TO, 0, SP(name))
#define SAIL(name) act(ACT_SAIL, 0, SP(name))
#define STOP act(ACT_STOP, 0, -1)
#define STOP_SENDING(g) act_g(ACT_STOP, 0, -1, GEN(g), 0)
#define SEND(g) act_g(ACT_SEND, 0, -1, GEN(g), 0)
#define LAND(name, n) act_g(ACT_LAND, 0, SP(name), -1, (n))
#define LAND_WITH(name, n, g) act_g(ACT_LAND, 0, SP(name), GEN(g), (n))

static int where(const char *general)
{
	return S.general[GEN(general)];
}

/* An empty map but for one CU of each side far away, so that no
 * automatic victory (13.1) ends the game. */
static void clear_board_but_two(void)
{
	clear_board();
	put_cu("Hillsborough NC", NATION_BRITISH, 1);
	put_cu("Concord NH", NATION_AMERICAN, 1);
}

/* An empty map, both hands set, side to play; the other side has a card
 * so that play passes to him after the move. */
/* A side that answers step 1 of every battle by its standing order "never
 * battle": with a hand that is not empty it is asked otherwise (R100). */
static void quiet_cards(enum side side)
{
	S.react[side][REACT_BATTLE] = REACT_NEVER;
}

static void move_position(enum side side, int card)
{
	clear_board_but_two();
	set_hand(side, 1, card);
	set_hand(OTHER_SIDE(side), 1, OPS1_D);
	at_play(side);
}

/* 7.3.C example: Gates from Ninety-Six, dropping two CUs at Eutaw Springs,
 * picking up three in Charleston, on to Savannah, and a fifth space. */
static void test_move_7_3_c_gates_march(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS2_A);
	put_general("Gates", "Ninety Six SC");
	put_cu("Ninety Six SC", NATION_AMERICAN, 4);
	put_cu("Charleston SC", NATION_AMERICAN, 3);
	put_pc("Camden SC", SIDE_BRITISH);
	APPLY(MOVE(OPS2_A, "Gates"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_AMERICAN);
	assert_int_equal(S.move.carried[NATION_AMERICAN], 4);
	CHECK_LEGAL();
	APPLY(TO("Camden SC"));
	assert_int_equal(cus("Camden SC", NATION_AMERICAN), 4);
	APPLY(TO("Eutaw Springs SC"));
	APPLY(TAKE(2));				/* drops off two */
	REFUSED(TAKE(2), "already answered in Eutaw Springs SC");
	APPLY(TO("Charleston SC"));
	assert_int_equal(cus("Eutaw Springs SC", NATION_AMERICAN), 2);
	REFUSED(TAKE(6), "0 to 5 CUs");
	APPLY(TAKE(5));				/* picks up three: his maximum */
	APPLY(TO("Savannah GA"));
	assert_int_equal(S.move.used, 4);
	/* An American may go on to a fifth space (7.3.C). */
	ALLOWED(TO("Augusta GA"));
	ALLOWED(TO("St. Mary's GA"));
	CHECK_LEGAL();
	APPLY(TO("St. Mary's GA"));
	/* five spaces used: nothing else can happen, the move ends itself */
	assert_true(log_has("Gates can move no further (7.3.A): the move ends by itself."));
	assert_int_equal(where("Gates"), SP("St. Mary's GA"));
	assert_int_equal(cus("St. Mary's GA", NATION_AMERICAN), 5);
	assert_int_equal(cus("Eutaw Springs SC", NATION_AMERICAN), 2);
	assert_int_equal(cus("Ninety Six SC", NATION_AMERICAN) +
			 cus("Camden SC", NATION_AMERICAN) +
			 cus("Charleston SC", NATION_AMERICAN) +
			 cus("Savannah GA", NATION_AMERICAN), 0);
	assert_false(S.move.active);
	assert_true(in_pile(S.discard, S.n_discard, OPS2_A));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

/* 7.3.A: the British stop at four spaces. */
static void test_move_british_four_spaces(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Cornwallis", "Ninety Six SC");
	put_cu("Ninety Six SC", NATION_BRITISH, 2);
	APPLY(MOVE(OPS2_A, "Cornwallis"));
	APPLY(TO("Camden SC"));
	APPLY(TO("Eutaw Springs SC"));
	APPLY(TO("Charleston SC"));
	APPLY(TO("Savannah GA"));
	/* four spaces: the move ends by itself, no fifth (7.3.A) */
	assert_true(log_has("Cornwallis can move no further (7.3.A)"));
	assert_false(S.move.active);
	assert_int_equal(cus("Savannah GA", NATION_BRITISH), 2);
}

/* 7.3.D example: Fort Detroit to Basset Town counts three; Point
 * Pleasant would be three more. */
static void test_move_7_3_d_wilderness(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Fort Detroit");
	put_cu("Fort Detroit", NATION_BRITISH, 1);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Bassett Town PA"));
	assert_int_equal(S.move.used, 3);
	REFUSED(TO("Point Pleasant VA"), "a Wilderness Connection counts 3, 7.3.D");
	ALLOWED(TO("Pittsburgh PA"));
	CHECK_LEGAL();
	APPLY(STOP);
	/* The American with five spaces cannot cross two either. */
	move_position(SIDE_AMERICAN, OPS2_A);
	put_general("Gates", "Fort Detroit");
	put_cu("Fort Detroit", NATION_AMERICAN, 1);
	APPLY(MOVE(OPS2_A, "Gates"));
	APPLY(TO("Bassett Town PA"));
	REFUSED(TO("Point Pleasant VA"), "has 2 of his 5 spaces");
}

/* 7.4.D: Falmouth-Quebec is Arnold's alone, and counts three. */
static void test_move_falmouth_quebec_arnold_only(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS1_A);
	put_general("Greene", "Falmouth MA");
	put_cu("Falmouth MA", NATION_AMERICAN, 2);
	APPLY(MOVE(OPS1_A, "Greene"));
	REFUSED(TO("Quebec"), "only Arnold may use the connection");
	CHECK_LEGAL();
	APPLY(STOP);
	move_position(SIDE_AMERICAN, OPS1_B);
	put_general("Arnold", "Falmouth MA");
	put_cu("Falmouth MA", NATION_AMERICAN, 2);
	APPLY(MOVE(OPS1_B, "Arnold"));
	APPLY(TO("Quebec"));
	assert_int_equal(S.move.used, 3);
	assert_int_equal(cus("Quebec", NATION_AMERICAN), 2);
	APPLY(STOP);
}

/* 7.1.A: Strategy against the card; the general must be on the map. */
static void test_activate_refusals(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Carleton", "Quebec");
	put_general("Howe", "Boston MA");
	REFUSED(MOVE(OPS2_A, "Carleton"), "Carleton has Strategy 3");
	REFUSED(MOVE(OPS2_A, "Clinton"), "in the Reinforcements box");
	REFUSED(MOVE(OPS2_A, "Washington"), "is an American general");
	REFUSED(act(ACT_ACTIVATE, OPS2_A, -1), "name the general to activate");
	set_hand(SIDE_BRITISH, 1, JOSEPH_BRANT);
	REFUSED(act_g(ACT_ACTIVATE, JOSEPH_BRANT, -1, GEN("Howe"), 0), "not an OPS card");
	set_hand(SIDE_BRITISH, 1, OPS3_A);
	CHECK_LEGAL();
	APPLY(MOVE(OPS3_A, "Carleton"));
	/* A general who does not move still ends an activation. */
	APPLY(STOP);
	assert_int_equal(where("Carleton"), SP("Quebec"));
}

/* 7.4.A, 7.4.B: a general alone. */
static void test_move_general_alone(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_pc("Providence RI", SIDE_AMERICAN);
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 1);
	APPLY(MOVE(OPS2_A, "Howe"));
	assert_int_equal(S.move.carried[NATION_BRITISH], 0);
	REFUSED(TO("Providence RI"), "cannot enter Providence RI, which holds an American PC (7.4.B)");
	REFUSED(TO("Lexington and Concord MA"), "moves without CUs and cannot enter");
	REFUSED(TAKE(1), "0 to 0 CUs");
	CHECK_LEGAL();
	APPLY(TO("Barnstable MA"));
	APPLY(STOP);
}

/* 7.4.A: alone through an enemy general alone, but not stopping there. */
static void test_move_alone_through_enemy_general(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Worcester MA");
	put_general("Greene", "Lexington and Concord MA");
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Lexington and Concord MA"));
	REFUSED(STOP, "may not stop in Lexington and Concord MA");
	CHECK_LEGAL();
	INVARIANTS();
	APPLY(TO("Boston MA"));
	assert_int_equal(where("Greene"), SP("Lexington and Concord MA"));
	APPLY(STOP);
	/* Not into it with his last space: he could not go on. */
	move_position(SIDE_BRITISH, OPS2_B);
	put_general("Howe", "Providence RI");
	put_general("Greene", "Lexington and Concord MA");
	APPLY(MOVE(OPS2_B, "Howe"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	APPLY(TO("Worcester MA"));
	REFUSED(TO("Lexington and Concord MA"), "could not move on");
	CHECK_LEGAL();
}

/* ---- 7.8, 7.9, 9.0: interception, retreat before battle, battles -------- */

#define INTERCEPT(g) act_g(ACT_INTERCEPT, 0, -1, GEN(g), 0)
static struct action with_french(struct action a, int french)
{
	a.french = french;
	return a;
}
#define RETREAT(name) act(ACT_RETREAT, 0, SP(name))
#define STAND act(ACT_STAND, 0, -1)
#define BATTLE(c) act(ACT_BATTLE, (c), -1)
#define NOCARD act(ACT_NOCARD, 0, -1)

static int cus_of(const char *name, enum side side)
{
	return side_cus(&S, SP(name), side);
}

/* 7.3.C: the American fifth space may not lead to an overrun or a battle;
 * 9.7: an Army of 4-5 CUs overruns a lone CU, and the British losing one
 * counts as a battle lost (12.1); the move goes on. */
static void test_overrun_and_fifth_space(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS1_A);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 5);
	put_cu("Boston MA", NATION_BRITISH, 1);
	APPLY(MOVE(OPS1_A, "Washington"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	REFUSED(TO("Boston MA"), "(7.3.C)");
	CHECK_LEGAL();
	APPLY(STOP);
	/* the same from the start: an overrun, and he moves on */
	move_position(SIDE_AMERICAN, OPS1_B);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 4);
	put_cu("Boston MA", NATION_BRITISH, 1);
	put_cu("Hillsborough NC", NATION_BRITISH, 1);
	S.french_alliance = 0;
	APPLY(MOVE(OPS1_B, "Washington"));
	APPLY(TO("Boston MA"));
	assert_true(log_has("Overrun in Boston MA"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_AMERICAN);
	assert_int_equal(cus_of("Boston MA", SIDE_BRITISH), 0);
	assert_int_equal(cus_of("Boston MA", SIDE_AMERICAN), 4);
	assert_int_equal(S.french_alliance, 1);
	APPLY(TO("Lexington and Concord MA"));
	APPLY(STOP);
	/* 3 CUs are no overrun: a battle */
	move_position(SIDE_AMERICAN, OPS1_C);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 3);
	put_cu("Boston MA", NATION_BRITISH, 1);
	force_dice(5, 6, 6, 6, 1, 1);
	APPLY(MOVE(OPS1_C, "Washington"));
	APPLY(TO("Boston MA"));
	assert_true(log_has("Battle in Boston MA"));
	assert_false(S.move.active);
}

/* 7.3.C: the five spaces are "provided that they do not execute an
 * Overrun": a move with an overrun has four spaces, whether the overrun
 * comes first or at the fourth space. */
static void test_overrun_no_fifth_space_7_3_C(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;

	(void)state;
	/* the overrun first, then three spaces more: no fifth */
	move_position(SIDE_AMERICAN, OPS1_A);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 4);
	put_cu("Boston MA", NATION_BRITISH, 1);
	APPLY(MOVE(OPS1_A, "Washington"));
	APPLY(TO("Boston MA"));
	assert_true(log_has("Overrun in Boston MA"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_AMERICAN);
	/* the overrun is part of the saved move */
	state_write_public(&S, D, NULL, &out);
	assert_non_null(strstr(strbuf_str(&out), "  overran: true\n"));
	if (state_read(&back, D, out.buf, out.len, NULL, 0, &err))
		fail_msg("%s", strbuf_str(&err));
	assert_true(back.move.overran);
	APPLY(TO("Providence RI"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	/* four spaces and an overrun: no fifth, so the move ends itself */
	assert_true(log_has("Washington can move no further (7.3.A)"));
	assert_false(S.move.active);
	assert_int_equal(where("Washington"), SP("Providence RI"));
	/* three spaces, the overrun at the fourth: the move is over */
	move_position(SIDE_AMERICAN, OPS1_B);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 5);
	put_cu("Boston MA", NATION_BRITISH, 1);
	APPLY(MOVE(OPS1_B, "Washington"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	REFUSED(TO("Boston MA"), "(7.3.C)");	/* the fifth: no overrun */
	APPLY(STOP);
	move_position(SIDE_AMERICAN, OPS1_C);
	put_general("Washington", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 5);
	put_cu("Boston MA", NATION_BRITISH, 1);
	APPLY(MOVE(OPS1_C, "Washington"));
	APPLY(TO("Providence RI"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	APPLY(TO("Boston MA"));
	assert_true(log_has("Overrun in Boston MA"));
	/* no fifth space after an overrun: the move ends by itself */
	assert_true(log_has("Washington can move no further (7.3.A)"));
	assert_false(S.move.active);
	assert_int_equal(where("Washington"), SP("Boston MA"));
	strbuf_release(&out);
	strbuf_release(&err);
}

/* 13.1: an American automatic victory "occurs the instant" no British CU
 * remains in the colonies: an overrun of the last one in the middle of a
 * move ends the game there, with the move still open (R14). */
static void test_auto_victory_mid_move_13_1(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;

	(void)state;
	move_position(SIDE_AMERICAN, OPS1_A);
	put_cu("Hillsborough NC", NATION_BRITISH, 0);
	put_cu("Quebec", NATION_BRITISH, 2);		/* Canada does not count */
	put_cu("Boston MA", NATION_BRITISH, 1);		/* the last in the colonies */
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 4);
	APPLY(MOVE(OPS1_A, "Washington"));
	assert_false(engine_game_over(&S));
	APPLY(TO("Boston MA"));
	assert_true(log_has("Overrun in Boston MA"));
	assert_true(engine_game_over(&S));
	assert_int_equal(S.end, END_AUTO_AMERICAN);
	assert_int_equal(S.winner, SIDE_AMERICAN);
	assert_false(S.move.active);
	assert_int_equal(where("Washington"), SP("Boston MA"));
	/* the ended game saves and loads */
	state_write_public(&S, D, NULL, &out);
	if (state_read(&back, D, out.buf, out.len, NULL, 0, &err))
		fail_msg("%s", strbuf_str(&err));
	assert_int_equal(back.end, END_AUTO_AMERICAN);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* 13.1 in a battle: the last American CU is lost, and the game ends
 * before the beaten general is asked where to retreat; the card held for
 * step 1 goes to the discard pile as at the end of a battle (R14). */
static void test_auto_victory_mid_battle_13_1(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;

	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	set_hand(SIDE_BRITISH, 2, OPS2_A, JOSEPH_BRANT);
	put_cu("Concord NH", NATION_AMERICAN, 0);
	put_general("Howe", "Providence RI");
	put_cu("Providence RI", NATION_BRITISH, 5);
	put_general("Greene", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 1);	/* the last on the map */
	S.react[SIDE_AMERICAN][REACT_RETREAT] = REACT_NEVER;
	quiet_cards(SIDE_AMERICAN);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Worcester MA"));
	ASSERT_PROMPT(PROMPT_BATTLE_CARD, SIDE_BRITISH);
	/* ratings 6 and 6, combat 6 against 1, losses 1 and 6 */
	force_dice(6, 6, 6, 6, 1, 1, 6);
	APPLY(act(ACT_DISCARD, JOSEPH_BRANT, -1));
	assert_int_equal(cus_of("Worcester MA", SIDE_AMERICAN), 0);
	assert_true(engine_game_over(&S));
	assert_int_equal(S.end, END_AUTO_BRITISH);
	assert_false(S.battle.active);
	assert_false(S.move.active);
	assert_true(in_pile(S.discard, S.n_discard, JOSEPH_BRANT));
	assert_int_equal(where("Greene"), SP("Worcester MA"));
	/* the game stopped with both sides in Worcester: it saves and loads */
	state_write_public(&S, D, NULL, &out);
	if (state_read(&back, D, out.buf, out.len, NULL, 0, &err))
		fail_msg("%s", strbuf_str(&err));
	assert_int_equal(back.end, END_AUTO_BRITISH);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* 9.3: the Actual Battle Rating "can never be greater than the number of
 * friendly CUs stacked with him": the log names the cap and its reason. */
static void test_battle_rating_cap_logged_9_3(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS1_A);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 3);
	put_cu("Boston MA", NATION_BRITISH, 2);
	put_general("Howe", "Boston MA");
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	/* Washington full (6), Howe half (1); combat; losses */
	force_dice(7, 6, 1, 6, 1, 1, 6, 6);
	APPLY(MOVE(OPS1_A, "Washington"));
	APPLY(TO("Boston MA"));
	assert_true(log_has("Washington rolls 6: Actual Battle Rating 3 (his Battle Rating 4, limited to 3 by the 3 CUs with him, 9.3)."));
	assert_true(log_has("Howe rolls 1: Actual Battle Rating 1 (half his Battle Rating 3, rounded down, 9.3)."));
}

/*
 * 9.63 example, die for die: Burgoyne and 5 CUs march into Saratoga from
 * Ticonderoga (an American PC); Gates stands with 5 CUs. The British
 * discard an event (+1), the Americans play Morgan's Riflemen (+2, a
 * battle card in our data, #74). Burgoyne rolls 4 (rating 2), Gates 1
 * (rating 1); British 3 + 9 = 12, Americans 4 + 9 = 13. The British lose 2
 * (die 5), the Americans 1 (die 2, Burgoyne's Agility 1). Burgoyne must
 * retreat to Ticonderoga, an American PC: he surrenders his 3 CUs and is
 * captured; the Regulars' Advantage is lost; the French Alliance +1 +2.
 */
static void test_battle_9_63_saratoga(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	set_hand(SIDE_BRITISH, 2, OPS2_A, JOSEPH_BRANT);
	set_hand(SIDE_AMERICAN, 1, MORGANS_RIFLEMEN);
	put_general("Burgoyne", "Ticonderoga NY");
	put_cu("Ticonderoga NY", NATION_BRITISH, 5);
	put_pc("Ticonderoga NY", SIDE_AMERICAN);
	put_general("Gates", "Saratoga NY");
	put_cu("Saratoga NY", NATION_AMERICAN, 5);
	put_pc("Albany NY", SIDE_AMERICAN);		/* New York militia */
	S.french_alliance = 0;
	S.regulars = true;
	APPLY(MOVE(OPS2_A, "Burgoyne"));
	APPLY(TO("Saratoga NY"));
	ASSERT_PROMPT(PROMPT_RETREAT_BEFORE, SIDE_AMERICAN);
	CHECK_LEGAL();
	APPLY(STAND);
	ASSERT_PROMPT(PROMPT_BATTLE_CARD, SIDE_BRITISH);
	CHECK_LEGAL();
	REFUSED(BATTLE(JOSEPH_BRANT), "not a battle card");
	APPLY(DISCARD(JOSEPH_BRANT));
	ASSERT_PROMPT(PROMPT_BATTLE_CARD, SIDE_AMERICAN);
	CHECK_LEGAL();
	force_dice(6, 4, 1, 3, 4, 5, 2);
	APPLY(BATTLE(MORGANS_RIFLEMEN));
	assert_true(log_has("Burgoyne rolls 4: Actual Battle Rating 2"));
	assert_true(log_has("Gates rolls 1: Actual Battle Rating 1"));
	assert_true(log_has("British DRM +9: 5 CUs, 2 battle rating, +1 Regulars (9.41), +1 discard (9.45)."));
	assert_true(log_has("American DRM +9: 5 CUs, 1 battle rating, +1 militia (9.43), +2 battle card (9.45)."));
	assert_true(log_has("The attacking British roll 3 + 9 = 12, the defending Americans 4 + 9 = 13: the Americans win (9.2)."));
	assert_true(log_has("The British roll 5 for losses and lose 2 CUs (9.5)."));
	assert_true(log_has("The Americans roll 2 for losses (1 CU on 2 or less) and lose 1 CU (9.5)."));
	assert_true(log_has("3 British CUs are eliminated (9.63)."));
	assert_true(log_has("surrenders (9.63.A)"));
	assert_int_equal(where("Burgoyne"), LOC_CAPTURED);
	assert_int_equal(cus_of("Saratoga NY", SIDE_BRITISH), 0);
	assert_int_equal(cus_of("Ticonderoga NY", SIDE_BRITISH), 0);
	assert_int_equal(cus_of("Saratoga NY", SIDE_AMERICAN), 4);
	assert_int_equal(where("Gates"), SP("Saratoga NY"));
	assert_false(S.regulars);
	assert_int_equal(S.french_alliance, 3);
	assert_true(in_pile(S.discard, S.n_discard, JOSEPH_BRANT));
	assert_true(in_pile(S.discard, S.n_discard, MORGANS_RIFLEMEN));
	/* Morgan's replacement card comes after the impulse (6.33.B) */
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 1);
	assert_int_equal(S.replacement_draws[SIDE_AMERICAN], 0);
	assert_false(S.battle.active);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/* 7.8: a successful interception (die <= Agility): the interceptor is the
 * defender with +1 (9.46); the British attacker must go back (7.8.F). */
static void test_battle_interception_success(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Greene", "Newport RI");
	put_cu("Newport RI", NATION_AMERICAN, 2);
	S.french_alliance = 0;
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	CHECK_LEGAL();
	REFUSED(INTERCEPT("Washington"), "leads no Army");
	/* intercept 2 (Agility 2); Howe 1 -> 1, Greene 6 -> 2 (2 CUs);
	 * British 1, Americans 6; British loss 1, American loss 4 (no). */
	force_dice(7, 2, 1, 6, 1, 6, 1, 4);
	APPLY(INTERCEPT("Greene"));
	assert_true(log_has("Greene intercepts from Newport RI into Providence RI with 2 CUs"));
	assert_true(log_has("+1 interception (9.46)"));
	assert_true(log_has("the Americans win"));
	assert_int_equal(where("Howe"), SP("Boston MA"));
	assert_int_equal(cus_of("Boston MA", SIDE_BRITISH), 4);
	assert_int_equal(where("Greene"), SP("Providence RI"));
	assert_int_equal(cus_of("Providence RI", SIDE_AMERICAN), 2);
	assert_int_equal(S.french_alliance, 1);
	assert_true(S.regulars);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/*
 * The example of 7.8: a British Army enters a space with an American PC
 * next to Arnold's Army; Arnold's Agility is 2, so the attempt succeeds
 * on 1 or 2 and fails on 3 to 6. On success Arnold and up to five CUs
 * (the rest stay behind) are placed in the space and a battle follows;
 * on failure the British move on, and Arnold may not retreat before
 * battle for the rest of the card.
 */
static void arnold_example_position(int cus)
{
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Arnold", "Newport RI");
	put_cu("Newport RI", NATION_AMERICAN, cus);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
}

static void test_interception_7_8_arnold_succeeds_on_2(void **state)
{
	(void)state;
	arnold_example_position(7);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	/* intercept 2 (<= Agility 2); then the battle's own dice */
	force_dice(7, 2, 1, 6, 1, 6, 1, 4);
	APPLY(INTERCEPT("Arnold"));
	assert_true(log_has("Arnold intercepts from Newport RI into Providence RI with 5 CUs"));
	assert_int_equal(cus_of("Newport RI", SIDE_AMERICAN), 2);	/* the excess stays */
	assert_true(log_has("+1 interception (9.46)"));
}

static void test_interception_7_8_arnold_fails_on_3(void **state)
{
	(void)state;
	arnold_example_position(3);
	force_dice(1, 3);
	APPLY(INTERCEPT("Arnold"));
	assert_int_equal(where("Arnold"), SP("Newport RI"));
	assert_int_equal(cus_of("Newport RI", SIDE_AMERICAN), 3);
	/* the British move on */
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
}

static void round_trip_at(struct strbuf *out, int line);
#define ROUND_TRIP(out) round_trip_at((out), __LINE__)

/* 7.8.D: Greene intercepts into Providence where Lee stands with CUs;
 * the American chooses the "excess General of his choice" before the
 * battle, and may keep Lee (postrider used to send Greene away). */
static void test_interception_7_8_D_owner_chooses_the_general(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Lee", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 1);
	put_general("Greene", "Newport RI");
	put_cu("Newport RI", NATION_AMERICAN, 2);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	force_dice(1, 1);
	APPLY(INTERCEPT("Greene"));
	ASSERT_PROMPT(PROMPT_GENERALS, SIDE_AMERICAN);
	INVARIANTS();
	CHECK_LEGAL();
	ROUND_TRIP(&TXT);
	/* then the battle's dice: ratings, combat, losses */
	force_dice(6, 6, 6, 1, 6, 1, 6);
	APPLY(SEND("Greene"));
	assert_int_equal(where("Greene"), LOC_REINFORCEMENTS);
	assert_true(log_has("American sends Greene to the Reinforcements box"));
	assert_true(log_has("Battle in Providence RI"));
	assert_false(log_has("Lee goes to the Reinforcements box"));
}

/* 7.4.C after a retreat before battle: Gates retreats into Newport where
 * Lee is; the American chooses who stays, then the British stop. */
static void test_retreat_before_7_4_C_owner_chooses_the_general(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_general("Gates", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 2);
	put_general("Lee", "Newport RI");
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_RETREAT_BEFORE, SIDE_AMERICAN);
	force_dice(1, 1);
	APPLY(RETREAT("Newport RI"));
	ASSERT_PROMPT(PROMPT_GENERALS, SIDE_AMERICAN);
	INVARIANTS();
	REFUSED(SEND("Howe"), "not one of the two American generals");
	APPLY(SEND("Lee"));
	assert_int_equal(where("Lee"), LOC_REINFORCEMENTS);
	assert_int_equal(where("Gates"), SP("Newport RI"));
	assert_int_equal(cus_of("Newport RI", SIDE_AMERICAN), 2);
	assert_int_equal(where("Howe"), SP("Providence RI"));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/* 7.8.C and 7.9.B with 12.2.C: of an Army of more than five CUs, five go
 * when it intercepts or retreats before battle; which five, French or
 * American, is the player's ('intercept GENERAL F', 'retreat SPACE F'),
 * not "American first". */
static void test_interception_7_8_C_player_chooses_french_or_american(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	S.box_cu[NATION_FRENCH] = 2;		/* three French on the map */
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Greene", "Newport RI");
	put_cu("Newport RI", NATION_AMERICAN, 4);
	put_cu("Newport RI", NATION_FRENCH, 3);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	CHECK_LEGAL();
	REFUSED(INTERCEPT("Greene"), "1 to 3 French");
	REFUSED(with_french(INTERCEPT("Greene"), 4), "1 to 3 French");
	force_dice(7, 1, 6, 6, 1, 6, 1, 6);
	APPLY(with_french(INTERCEPT("Greene"), 3));
	assert_int_equal(cus("Newport RI", NATION_AMERICAN), 2);
	assert_int_equal(cus("Newport RI", NATION_FRENCH), 0);
}

static void test_retreat_before_7_9_B_player_chooses_french_or_american(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	S.box_cu[NATION_FRENCH] = 2;
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_general("Gates", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 3);
	put_cu("Providence RI", NATION_FRENCH, 3);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_RETREAT_BEFORE, SIDE_AMERICAN);
	CHECK_LEGAL();
	REFUSED(RETREAT("Newport RI"), "2 to 3 French");
	force_dice(1, 1);
	APPLY(with_french(RETREAT("Newport RI"), 2));
	assert_int_equal(cus("Newport RI", NATION_AMERICAN), 3);
	assert_int_equal(cus("Newport RI", NATION_FRENCH), 2);
	assert_int_equal(where("Gates"), SP("Newport RI"));
}

/* 9.5 with 12.2.C: a battle's losses from a stack of American and French
 * CUs are the American's to name ('lose N', N French), not "American
 * first" (R45). */
static void test_battle_losses_9_5_american_names_the_french(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	S.box_cu[NATION_FRENCH] = 3;
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_general("Gates", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 2);
	put_cu("Providence RI", NATION_FRENCH, 2);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	S.react[SIDE_AMERICAN][REACT_RETREAT] = REACT_NEVER;
	APPLY(MOVE(OPS2_A, "Howe"));
	/* ratings 6, 6; combat British 6, Americans 1; the loser's losses 4
	 * (two CUs) */
	force_dice(5, 6, 6, 6, 1, 4);
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_LOSSES, SIDE_AMERICAN);
	INVARIANTS();
	CHECK_LEGAL();
	ROUND_TRIP(&TXT);
	REFUSED(act_g(ACT_LOSE, 0, -1, -1, 3), "0 to 2 may be French");
	force_dice(1, 6);			/* the winner's losses: none */
	APPLY(act_g(ACT_LOSE, 0, -1, -1, 2));
	assert_true(log_has("loses 2 French and 0 American CUs"));
	assert_int_equal(state_cus_on_map(&S, D, NATION_FRENCH), 0);
	assert_int_equal(state_cus_on_map(&S, D, NATION_AMERICAN), 3);	/* 2 + Concord NH */
}

/* A standing reaction of side (architecture 3; docs/orders.md). */
static struct action react(enum side side, enum reaction r, int value,
			   const char *general)
{
	struct action a = ACTION_INIT;

	a.kind = ACT_REACT;
	a.side = side;
	a.reaction = r;
	a.value = value;
	a.general = general ? GEN(general) : -1;
	return a;
}

/* A standing reaction set while being asked: Arnold may no longer be
 * named, and 'pass' remains (7.8). */
static void test_reaction_intercept_while_asked(void **state)
{
	(void)state;
	arnold_example_position(3);
	APPLY(react(SIDE_AMERICAN, REACT_INTERCEPT, REACT_NEVER, "Arnold"));
	REFUSED(INTERCEPT("Arnold"), "standing reaction is never to intercept with Arnold");
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
}

/* The position of 7.8's example with Arnold, before the British move. */
static void arnold_before_the_move(void)
{
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Arnold", "Newport RI");
	put_cu("Newport RI", NATION_AMERICAN, 3);
}

/* "never intercept": the engine does not ask, and the move goes on. */
static void test_reaction_never_intercept(void **state)
{
	(void)state;
	arnold_before_the_move();
	APPLY(react(SIDE_AMERICAN, REACT_INTERCEPT, REACT_NEVER, NULL));
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
}

/* A general's own "ask" overrides his side's "never". */
static void test_reaction_general_overrides_side(void **state)
{
	(void)state;
	arnold_before_the_move();
	APPLY(react(SIDE_AMERICAN, REACT_INTERCEPT, REACT_NEVER, NULL));
	APPLY(react(SIDE_AMERICAN, REACT_INTERCEPT, REACT_ASK, "Arnold"));
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
}

/* "never retreat": Washington stands without being asked (7.9); "never
 * battle": no card is asked for in step 1 (9.2). */
static void test_reaction_retreat_and_battle(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_general("Washington", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 3);
	/* each side holds an event it could discard in the battle (9.45) */
	set_hand(SIDE_BRITISH, 2, OPS2_A, 80);
	set_hand(SIDE_AMERICAN, 2, OPS1_D, 107);
	APPLY(react(SIDE_AMERICAN, REACT_RETREAT, REACT_NEVER, "Washington"));
	APPLY(react(SIDE_BRITISH, REACT_BATTLE, REACT_NEVER, NULL));
	APPLY(react(SIDE_AMERICAN, REACT_BATTLE, REACT_NEVER, NULL));
	force_dice(8, 4, 4, 1, 6, 1, 1, 1, 1);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Lexington and Concord MA"));
	assert_true(log_has("Washington stands (standing reaction: never retreat before battle)"));
	assert_true(log_has("The British play no card in this battle (standing reaction: never battle)"));
	assert_true(log_has("The Americans play no card in this battle (standing reaction: never battle)"));
	assert_true(log_has("(9.2)"));	/* the battle was fought without asking */
	assert_true(S.prompt.kind != PROMPT_RETREAT_BEFORE && S.prompt.kind != PROMPT_BATTLE_CARD);
}

/* What a standing reaction may not say. */
static void test_reaction_refusals(void **state)
{
	(void)state;
	REFUSED(react(SIDE_BRITISH, REACT_INTERCEPT, REACT_NEVER, NULL), "only American Armies intercept");
	REFUSED(react(SIDE_BRITISH, REACT_RETREAT, REACT_NEVER, NULL), "only American Armies retreat");
	REFUSED(react(SIDE_AMERICAN, REACT_INTERCEPT, REACT_NEVER, "Howe"), "not one of your generals");
	REFUSED(react(SIDE_AMERICAN, REACT_EXCHANGE, REACT_NEVER, "Arnold"), "the exchange is the player's");
	APPLY(react(SIDE_BRITISH, REACT_BATTLE, REACT_NEVER, "Howe"));
	assert_int_equal(S.react_general[GEN("Howe")][REACT_BATTLE], 1 + REACT_NEVER);
}

/* 7.8: a failed interception; the British move on, and the Army that tried
 * may not retreat before battle with this card (7.8.E, 7.9.A). Greene then
 * loses in Newport, whose only neighbour is where the British came from:
 * he surrenders (9.63.B). */
static void test_battle_interception_fails_surrender_b(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Greene", "Newport RI");
	put_cu("Newport RI", NATION_AMERICAN, 2);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	force_dice(1, 3);
	APPLY(INTERCEPT("Greene"));
	assert_true(log_has("rolls 3 against Agility 2 and fails"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	assert_int_equal(where("Greene"), SP("Newport RI"));
	/* Howe 4 -> 3, Greene 1 -> 1; British 6, Americans 1; loss 1; winner 6 */
	force_dice(6, 4, 1, 6, 1, 1, 6);
	APPLY(TO("Newport RI"));
	assert_true(log_has("surrenders (9.63.B)"));
	assert_int_equal(where("Greene"), LOC_CAPTURED);
	assert_int_equal(cus_of("Newport RI", SIDE_AMERICAN), 0);
	assert_int_equal(cus_of("Newport RI", SIDE_BRITISH), 5);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/* 7.9: retreat before battle, Washington's +2 (die 4 <= 2 + 2). */
static void test_battle_retreat_before_battle(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_general("Washington", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 3);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Lexington and Concord MA"));
	ASSERT_PROMPT(PROMPT_RETREAT_BEFORE, SIDE_AMERICAN);
	CHECK_LEGAL();
	REFUSED(RETREAT("Boston MA"), "7.9.B");
	force_dice(1, 4);
	APPLY(RETREAT("Worcester MA"));
	assert_true(log_has("rolls 4 against 4"));
	assert_int_equal(where("Washington"), SP("Worcester MA"));
	assert_int_equal(cus_of("Worcester MA", SIDE_AMERICAN), 3);
	assert_int_equal(where("Howe"), SP("Lexington and Concord MA"));
	assert_false(S.move.active);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/* 7.9.B: only 5 CUs retreat; the one left behind is overrun and the
 * British stop anyway. A failed attempt leads to the battle. */
static void test_battle_retreat_before_battle_overrun_and_failure(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_general("Washington", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 6);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Lexington and Concord MA"));
	force_dice(1, 1);
	APPLY(RETREAT("Worcester MA"));
	assert_int_equal(cus_of("Worcester MA", SIDE_AMERICAN), 5);
	assert_true(log_has("Overrun in Lexington and Concord MA"));
	assert_int_equal(cus_of("Lexington and Concord MA", SIDE_AMERICAN), 0);
	assert_false(S.move.active);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	/* failure: battle */
	move_position(SIDE_BRITISH, OPS2_B);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_general("Washington", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 3);
	APPLY(MOVE(OPS2_B, "Howe"));
	APPLY(TO("Lexington and Concord MA"));
	/* RBB 5 fails; Howe 4 -> 3, Washington 4 -> 3; British 1, Americans 6;
	 * British loss 1; American loss 6 */
	force_dice(7, 5, 4, 4, 1, 6, 1, 6);
	APPLY(RETREAT("Worcester MA"));
	assert_true(log_has("rolls 5 against 4 and fails"));
	assert_true(log_has("Battle in Lexington and Concord MA"));
	assert_int_equal(where("Howe"), SP("Boston MA"));
	assert_int_equal(cus_of("Boston MA", SIDE_BRITISH), 4);
}

/* 9.62: a defending British force in a port may retreat by sea; the loser
 * chooses; 9.42: Royal Navy support in a port. */
static void test_battle_retreat_by_sea(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS1_A);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	put_general("Washington", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 5);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_pc("New York NY", SIDE_BRITISH);
	APPLY(MOVE(OPS1_A, "Washington"));
	/* Washington 6 -> 4, Howe 1 -> 1; Americans 6, British 1; loss 1; 6 */
	force_dice(6, 6, 1, 6, 1, 1, 6);
	APPLY(TO("Boston MA"));
	assert_true(log_has("+1 Royal Navy (9.42)"));
	ASSERT_PROMPT(PROMPT_RETREAT, SIDE_BRITISH);
	CHECK_LEGAL();
	REFUSED(RETREAT("Lexington and Concord MA"), "9.61");
	REFUSED(SAIL("Boston MA"), "9.62");
	{	/* no French count after a battle, unlike 7.9.B */
		struct action a = RETREAT("New York NY");
		a.french = 1;
		REFUSED(a, "the whole force retreats: 'retreat SPACE' takes no number (9.61)");
	}
	APPLY(SAIL("New York NY"));
	assert_int_equal(where("Howe"), SP("New York NY"));
	assert_int_equal(cus_of("New York NY", SIDE_BRITISH), 2);
	assert_int_equal(where("Washington"), SP("Boston MA"));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

/* 9.62 against 2.1.C: a fortified port restricts a retreat by sea only
 * from it ("the battle space ... is not a fortified port without a
 * British PC marker"); the destination needs only 9.62's own conditions
 * (not blockaded, no American CU or PC), as naval movement (7.5) and
 * reinforcements (8.1.C) into an uncontrolled fortified port are allowed.
 * And a retreat ending with another British general there asks the
 * British which of the two goes to the box (7.4.C). */
static void sea_retreat_from_boston(int card)
{
	move_position(SIDE_AMERICAN, card);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	put_general("Washington", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 5);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	put_pc("Charleston SC", SIDE_AMERICAN);
	put_general("Clinton", "New York NY");
	put_pc("New York NY", SIDE_BRITISH);
	APPLY(MOVE(card, "Washington"));
	force_dice(6, 6, 1, 6, 1, 1, 6);
	APPLY(TO("Boston MA"));
	ASSERT_PROMPT(PROMPT_RETREAT, SIDE_BRITISH);
}

static void test_retreat_by_sea_9_62_into_uncontrolled_fortified_port(void **state)
{
	(void)state;
	sea_retreat_from_boston(OPS1_A);
	REFUSED(SAIL("Charleston SC"), "9.62");		/* an American PC */
	APPLY(SAIL("Philadelphia PA"));			/* fortified, no PC */
	assert_int_equal(where("Howe"), SP("Philadelphia PA"));
	assert_int_equal(cus_of("Philadelphia PA", SIDE_BRITISH), 2);
	/* into Clinton's port: the British chooses who stays (7.4.C) */
	sea_retreat_from_boston(OPS1_B);
	APPLY(SAIL("New York NY"));
	ASSERT_PROMPT(PROMPT_GENERALS, SIDE_BRITISH);
	INVARIANTS();
	CHECK_LEGAL();
	APPLY(SEND("Howe"));
	assert_int_equal(where("Howe"), LOC_REINFORCEMENTS);
	assert_int_equal(where("Clinton"), SP("New York NY"));
	assert_int_equal(cus_of("New York NY", SIDE_BRITISH), 2);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

/* 9.5 Special: a winner left without CUs on an enemy PC is captured. */
static void test_battle_winner_without_cus_captured(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS2_A);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	put_general("Gates", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 1);
	put_cu("Boston MA", NATION_BRITISH, 1);
	put_pc("Boston MA", SIDE_BRITISH);
	APPLY(MOVE(OPS2_A, "Gates"));
	APPLY(TO("Providence RI"));
	/* Gates 6 -> 1; no British general; Americans 6, British 1;
	 * British loss 1; the winner loses 1 on a 1 (no losing general) */
	force_dice(5, 6, 6, 1, 1, 1);
	APPLY(TO("Boston MA"));
	assert_true(log_has("left without CUs"));
	assert_int_equal(where("Gates"), LOC_CAPTURED);
	assert_int_equal(cus_of("Boston MA", SIDE_BRITISH), 0);
}

/* Howe with 5 CUs in Trenton NJ about to move on Greene's 2 in
 * Philadelphia PA (a fortified port), no battle cards in the hands. */
static void howe_before_philadelphia(void)
{
	move_position(SIDE_BRITISH, OPS2_A);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	put_general("Howe", "Trenton NJ");
	put_cu("Trenton NJ", NATION_BRITISH, 5);
	put_general("Greene", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 2);
}

/* Finds the modifier of rule in m[0..n), or NULL. */
static const struct modifier *mod_of(const struct modifier *m, int n, const char *rule)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].rule, rule))
			return &m[i];
	return NULL;
}

/* 9.41 to 9.46 as numbers: the modifiers are values with their rules, and
 * the step 3 narration is made from them. */
static void test_battle_modifiers_as_values(void **state)
{
	struct modifier m[ENGINE_MAX_MODIFIERS];
	int n;

	(void)state;
	howe_before_philadelphia();
	S.regulars = true;
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Philadelphia PA"));
	ASSERT_PROMPT(PROMPT_RETREAT_BEFORE, SIDE_AMERICAN);
	/* the British: Regulars (9.41), and no Royal Navy in a fortified port
	 * without a British PC (9.42) */
	n = engine_battle_modifiers(D, &S, SIDE_BRITISH, m);
	assert_non_null(mod_of(m, n, "9.41"));
	assert_int_equal(mod_of(m, n, "9.41")->value, 1);
	assert_string_equal(mod_of(m, n, "9.41")->label, "Regulars");
	assert_null(mod_of(m, n, "9.42"));
	assert_null(mod_of(m, n, "9.46"));	/* interception is American */
	/* without the Regulars' Advantage the +1 goes */
	S.regulars = false;
	n = engine_battle_modifiers(D, &S, SIDE_BRITISH, m);
	assert_null(mod_of(m, n, "9.41"));
	/* a successful interception is worth +1 to the Americans (9.46), a
	 * played card of step 1 its value, a discard +1 (9.45) */
	S.battle.intercepted = true;
	n = engine_battle_modifiers(D, &S, SIDE_AMERICAN, m);
	assert_int_equal(mod_of(m, n, "9.46")->value, 1);
	int before = engine_modifiers_total(m, n);
	S.battle.card[SIDE_AMERICAN] = 107;
	S.battle.played[SIDE_AMERICAN] = false;
	n = engine_battle_modifiers(D, &S, SIDE_AMERICAN, m);
	assert_int_equal(mod_of(m, n, "9.45")->value, 1);
	assert_string_equal(mod_of(m, n, "9.45")->label, "discard");
	assert_int_equal(engine_modifiers_total(m, n), before + 1);
	struct strbuf out = STRBUF_INIT;
	engine_modifiers_describe(m, n, &out);
	assert_non_null(strstr(strbuf_str(&out), ", +1 discard (9.45)"));
	assert_non_null(strstr(strbuf_str(&out), ", +1 interception (9.46)"));
	strbuf_release(&out);
}

/* 7.7: the Americans losing a battle in the Congress's space disperse it;
 * 9.42: no Royal Navy in a fortified port without a British PC. */
static void test_battle_disperses_congress(void **state)
{
	(void)state;
	howe_before_philadelphia();
	S.congress = SP("Philadelphia PA");
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Philadelphia PA"));
	/* Howe 4 -> 3, Greene 1 -> 1; British 6, Americans 1; loss 1; 6 */
	force_dice(6, 4, 1, 6, 1, 1, 6);
	APPLY(STAND);
	ASSERT_PROMPT(PROMPT_RETREAT, SIDE_AMERICAN);
	assert_false(log_has("Royal Navy"));
	APPLY(RETREAT("Reading PA"));
	assert_int_equal(S.congress, -1);
	assert_true(S.dispersed_this_turn);
	assert_int_equal(where("Greene"), SP("Reading PA"));
}

/* 9.44: Washington attacking with the last card of the Strategy Phase. */
static void test_battle_winter_offensive(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	put_general("Washington", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 2);
	put_cu("Boston MA", NATION_BRITISH, 2);
	APPLY(MOVE(OPS1_A, "Washington"));
	force_dice(5, 6, 6, 1, 1, 1);
	APPLY(TO("Boston MA"));
	assert_true(log_has("+2 Winter Offensive (9.44)"));
	ASSERT_PROMPT(PROMPT_RETREAT, SIDE_BRITISH);
	CHECK_LEGAL();
}

/* 9.2 step 1 and 9.7 clarification: Benedict Arnold Treason! removes
 * Arnold; with one American CU left against 5, an overrun is conducted
 * instead of the battle. The card leaves the game. The British move is
 * over (R43): it ended on the entry (7.3.B, a general was there), and
 * the overrun is conducted inside the Combat Resolution Procedure, not
 * declared by a moving Army (9.7), so Howe does not go on. */
static void test_battle_arnold_treason_overrun_9_7_ends_the_move(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	set_hand(SIDE_BRITISH, 2, OPS2_A, 73);
	quiet_cards(SIDE_AMERICAN);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_general("Arnold", "Lexington and Concord MA");
	put_cu("Lexington and Concord MA", NATION_AMERICAN, 1);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Lexington and Concord MA"));
	APPLY(STAND);
	ASSERT_PROMPT(PROMPT_BATTLE_CARD, SIDE_BRITISH);
	CHECK_LEGAL();
	APPLY(BATTLE(73));
	assert_int_equal(where("Arnold"), LOC_REMOVED);
	assert_true(log_has("Overrun in Lexington and Concord MA"));
	assert_int_equal(cus_of("Lexington and Concord MA", SIDE_AMERICAN), 0);
	assert_true(in_pile(S.removed, S.n_removed, 73));
	assert_false(S.battle.active);
	assert_false(S.move.active);
	assert_int_equal(where("Howe"), SP("Lexington and Concord MA"));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);	/* 1 of 2 spaces used */
}

/* Writes the public state, reads it back and writes it again: the same
 * text; returns it in out. */
static void round_trip_at(struct strbuf *out, int line)
{
	struct strbuf again = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;

	strbuf_reset(out);
	state_write_public(&S, D, NULL, out);
	if (state_read(&back, D, out->buf, out->len, NULL, 0, &err))
		fail_msg("line %d: %s", line, strbuf_str(&err));
	state_write_public(&back, D, NULL, &again);
	if (strcmp(strbuf_str(out), strbuf_str(&again)))
		fail_msg("line %d: the state read back differs", line);
	strbuf_release(&again);
	strbuf_release(&err);
}
#define ROUND_TRIP(out) round_trip_at((out), __LINE__)

/* The interruptions and step 1 survive a write and a read of the state:
 * a failed interception with another Army left to try (7.8.E), and a
 * battle card held with its replacement draw due (6.33.B). */
static void test_battle_state_round_trip(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	set_hand(SIDE_BRITISH, 2, OPS2_A, 87);
	set_hand(SIDE_AMERICAN, 1, MORGANS_RIFLEMEN);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Greene", "Newport RI");
	put_cu("Newport RI", NATION_AMERICAN, 2);
	put_general("Gates", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 2);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	force_dice(1, 6);
	APPLY(INTERCEPT("Greene"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	REFUSED(INTERCEPT("Greene"), "7.8.E");
	CHECK_LEGAL();
	ROUND_TRIP(&out);
	assert_non_null(strstr(strbuf_str(&out), "battle:\n  space: Providence RI\n"));
	assert_non_null(strstr(strbuf_str(&out), "intercepted: [Greene]"));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	/* Howe goes on to attack Gates: no interception tried by him, so he
	 * may retreat before battle; he stands */
	APPLY(TO("Worcester MA"));
	ASSERT_PROMPT(PROMPT_RETREAT_BEFORE, SIDE_AMERICAN);
	ROUND_TRIP(&out);
	APPLY(STAND);
	APPLY(BATTLE(87));
	ASSERT_PROMPT(PROMPT_BATTLE_CARD, SIDE_AMERICAN);
	assert_int_equal(S.replacement_draws[SIDE_BRITISH], 1);
	assert_int_equal(S.battle.card[SIDE_BRITISH], 87);
	CHECK_LEGAL();
	ROUND_TRIP(&out);
	assert_non_null(strstr(strbuf_str(&out), "battle:\n  space: Worcester MA\n"));
	assert_non_null(strstr(strbuf_str(&out), "replacement_draws: {american: 0, british: 1}"));
	strbuf_release(&out);
}

/* ---- 7.2: campaigns, the Landing Party; 7.3.C: John Glover ------------- */

enum { MINOR_CAMPAIGN = 59 };

/* Answers with the first legal action until the prompt is `kind` (a
 * battle's steps whose outcome the test does not care about). */
static void settle_at(enum prompt_kind kind, int line)
{
	struct action a[512];

	for (int i = 0; i < 40 && S.prompt.kind != kind; i++) {
		if (engine_legal(D, &S, a, 512) < 1)
			fail_msg("line %d: no legal action at prompt %d", line, S.prompt.kind);
		apply_at(a[0], line);
	}
	if (S.prompt.kind != kind)
		fail_msg("line %d: prompt %d, not %d", line, S.prompt.kind, kind);
}
#define SETTLE(kind) settle_at((kind), __LINE__)

/* A campaign with no general left to activate ends by itself (7.2.A,
 * R101): the board alone says so, so no mail asks for a 'done'. */
static void test_campaign_no_general_left_ends_by_itself(void **state)
{
	struct strbuf first = STRBUF_INIT;
	struct prompt p0 = { 0 };

	/* twice, the hands apart (what the opponent may not know): the
	 * same prompts and the same log (R100) */
	for (int world = 0; world < 2; world++) {
		new_game(state);
		move_position(SIDE_AMERICAN, MINOR_CAMPAIGN);
		if (world) {
			set_hand(SIDE_AMERICAN, 2, MINOR_CAMPAIGN, FRANKLIN);
			set_hand(SIDE_BRITISH, 2, OPS2_A, OPS2_B);
		}
		put_general("Washington", "Trenton NJ");
		put_cu("Trenton NJ", NATION_AMERICAN, 2);
		strbuf_reset(&LOG);
		APPLY(EVENT(MINOR_CAMPAIGN));
		ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_AMERICAN);
		assert_int_equal(S.prompt.left, 2);
		APPLY(MOVE(MINOR_CAMPAIGN, "Washington"));
		APPLY(STOP);
		assert_true(S.prompt.kind != PROMPT_CAMPAIGN);
		assert_true(log_has("The American has no general left to activate: #59 Minor Campaign ends by itself (7.2.A)."));
		assert_true(log_has("#59 Minor Campaign is over."));
		if (!world) {
			strbuf_addbuf(&first, &LOG);
			p0 = S.prompt;
		} else {
			assert_string_equal(strbuf_str(&first), strbuf_str(&LOG));
			assert_int_equal(p0.kind, S.prompt.kind);
			assert_int_equal(p0.side, S.prompt.side);
		}
	}
	strbuf_release(&first);
}

/* 7.2.A, 7.4.E: three British generals one after another, each once; the
 * CUs Howe moved may not move again with Cornwallis; the card ends after
 * the third. The campaign survives a write and a read of the state. */
static void test_campaign_major_three_activations(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	move_position(SIDE_BRITISH, MAJOR_CAMPAIGN);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 4);
	put_general("Cornwallis", "Worcester MA");
	put_general("Clinton", "Newport RI");
	put_cu("Newport RI", NATION_BRITISH, 1);
	APPLY(EVENT(MAJOR_CAMPAIGN));
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 3);
	CHECK_LEGAL();
	REFUSED(MOVE(OPS1_D, "Howe"), "'move 57 GENERAL'");
	REFUSED(MOVE(MAJOR_CAMPAIGN, "Washington"), "is an American general");
	APPLY(MOVE(MAJOR_CAMPAIGN, "Howe"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	APPLY(TAKE(3));
	APPLY(TO("Lexington and Concord MA"));
	APPLY(STOP);
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 2);
	assert_int_equal(S.campaign.done[SP("Lexington and Concord MA")], 3);
	ROUND_TRIP(&out);
	assert_non_null(strstr(strbuf_str(&out), "generals: [Howe]"));
	REFUSED(MOVE(MAJOR_CAMPAIGN, "Howe"), "a general only once per campaign (7.2.A, 7.4.E)");
	CHECK_LEGAL();
	/* Cornwallis may not take the three CUs Howe moved (7.4.E) */
	APPLY(MOVE(MAJOR_CAMPAIGN, "Cornwallis"));
	APPLY(TO("Lexington and Concord MA"));
	REFUSED(TAKE(1), "7.4.E");
	CHECK_LEGAL();
	APPLY(TAKE(0));
	APPLY(TO("Boston MA"));
	APPLY(TAKE(1));				/* the one Howe left */
	APPLY(TO("Lexington and Concord MA"));
	APPLY(STOP_SENDING("Cornwallis"));
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 1);
	assert_int_equal(S.campaign.done[SP("Lexington and Concord MA")], 4);
	APPLY(MOVE(MAJOR_CAMPAIGN, "Clinton"));
	APPLY(TO("Providence RI"));
	APPLY(STOP);
	assert_true(log_has("#57 Major Campaign is over."));
	assert_int_equal(S.campaign.card, 0);
	assert_true(in_pile(S.discard, S.n_discard, MAJOR_CAMPAIGN));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	strbuf_release(&out);
}

/* 7.2.A: a Minor Campaign's two activations; 9.44: the campaign is the
 * last card of the phase, so Washington's attack gets the Winter
 * Offensive though he is the second general; `done` is never needed. */
static void test_campaign_minor_winter_offensive(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, MINOR_CAMPAIGN);
	set_hand(SIDE_BRITISH, 0);
	put_general("Greene", "Newport RI");
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 3);
	put_cu("Boston MA", NATION_BRITISH, 1);
	APPLY(EVENT(MINOR_CAMPAIGN));
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 2);
	assert_true(S.campaign.last);
	APPLY(MOVE(MINOR_CAMPAIGN, "Greene"));
	APPLY(STOP);
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_AMERICAN);
	REFUSED(PLACE("Barnstable MA"), "only a British campaign card allows a Landing Party (7.2.B)");
	APPLY(MOVE(MINOR_CAMPAIGN, "Washington"));
	APPLY(TO("Boston MA"));
	/* no card in either hand: the battle is fought at once */
	assert_true(log_has("Battle in Boston MA"));
	assert_true(log_has("+2 Winter Offensive (9.44)"));
}

/* 7.8.E: an American Army tries one interception for the whole card, not
 * one per activation. */
static void test_campaign_interception_once_per_card(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, MAJOR_CAMPAIGN);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_general("Clinton", "Newport RI");
	put_cu("Newport RI", NATION_BRITISH, 5);
	put_pc("Lexington and Concord MA", SIDE_AMERICAN);
	put_pc("Providence RI", SIDE_AMERICAN);
	put_general("Greene", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 2);
	APPLY(EVENT(MAJOR_CAMPAIGN));
	APPLY(MOVE(MAJOR_CAMPAIGN, "Howe"));
	APPLY(TO("Lexington and Concord MA"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	force_dice(1, 6);
	APPLY(INTERCEPT("Greene"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	APPLY(STOP);
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_BRITISH);
	/* Providence is next to Greene too, but he has tried with this card */
	APPLY(MOVE(MAJOR_CAMPAIGN, "Clinton"));
	APPLY(TO("Providence RI"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	assert_false(log_has("Worcester MA into Providence RI"));
	APPLY(STOP);
	APPLY(DONE);
	assert_true(log_has("ends #57 Major Campaign with 1 activation unused"));
	assert_int_equal(S.intercepted, 1u << GEN("Greene"));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/* 9.45, 6.33.B: a battle card's replacement is drawn after the whole
 * campaign, not after the battle. */
static void test_campaign_replacement_draws_after(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, MINOR_CAMPAIGN);
	set_hand(SIDE_AMERICAN, 2, MINOR_CAMPAIGN, MORGANS_RIFLEMEN);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 3);
	put_cu("Boston MA", NATION_BRITISH, 1);
	put_general("Greene", "Newport RI");
	APPLY(EVENT(MINOR_CAMPAIGN));
	assert_false(S.campaign.last);
	APPLY(MOVE(MINOR_CAMPAIGN, "Washington"));
	APPLY(TO("Boston MA"));
	assert_false(S.battle.winter);
	SETTLE(PROMPT_BATTLE_CARD);
	force_dice(6, 6, 1, 6, 6, 6, 6);
	APPLY(BATTLE(MORGANS_RIFLEMEN));
	SETTLE(PROMPT_CAMPAIGN);
	assert_int_equal(S.replacement_draws[SIDE_AMERICAN], 1);
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 0);
	APPLY(MOVE(MINOR_CAMPAIGN, "Greene"));
	APPLY(STOP);
	assert_int_equal(S.replacement_draws[SIDE_AMERICAN], 0);
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 1);
	assert_true(log_has("replacement card"));
}

/* 7.2.B: the Landing Party, once per card, in lieu of an activation:
 * place in an empty port or flip an American PC; not in a fortified or
 * blockaded port, nor where an American CU is. */
static void test_campaign_landing_party(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, MINOR_CAMPAIGN);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 1);
	put_pc("Newport RI", SIDE_AMERICAN);
	put_pc("Charleston SC", SIDE_AMERICAN);
	APPLY(EVENT(MINOR_CAMPAIGN));
	REFUSED(PLACE("Worcester MA"), "not a port");
	REFUSED(FLIP("Charleston SC"), "fortified port");
	REFUSED(PLACE("Boston MA"), "not empty");
	REFUSED(FLIP("Barnstable MA"), "no American PC");
	APPLY(PLACE("Barnstable MA"));
	assert_int_equal(pc("Barnstable MA"), SIDE_BRITISH);
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 1);
	REFUSED(FLIP("Newport RI"), "one per campaign card");
	CHECK_LEGAL();
	APPLY(DONE);
	/* the flip, and the refusals of a blockade and an American CU */
	move_position(SIDE_BRITISH, MINOR_CAMPAIGN);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 1);
	put_pc("Newport RI", SIDE_AMERICAN);
	put_pc("Barnstable MA", SIDE_AMERICAN);
	put_cu("Barnstable MA", NATION_AMERICAN, 1);
	S.french_navy = D->spaces[SP("Newport RI")].zone;
	APPLY(EVENT(MINOR_CAMPAIGN));
	REFUSED(FLIP("Newport RI"), "Blockaded Zone");
	S.french_navy = NAVY_FRENCH_BOX;
	REFUSED(FLIP("Barnstable MA"), "American general, CU or the Congress");
	APPLY(FLIP("Newport RI"));
	assert_int_equal(pc("Newport RI"), SIDE_BRITISH);
	assert_true(log_has("(Landing Party, 7.2.B)"));
	APPLY(MOVE(MINOR_CAMPAIGN, "Howe"));
	APPLY(STOP);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/* 5.3.a: the British declares himself first with a campaign card, before
 * the American chooses (5.3.c); or passes and the American chooses; when
 * the British chooses (5.3.b) he may also play one. */
static void test_first_british_campaign(void **state)
{
	(void)state;
	S.year = 1776;
	flow_start_turn(D, &S, &R, &LOG);
	set_hand(SIDE_BRITISH, 2, MAJOR_CAMPAIGN, OPS1_A);
	set_hand(SIDE_AMERICAN, 2, OPS1_B, OPS1_C);
	S.british_choose_first = false;
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_FIRST;
	S.prompt.side = SIDE_BRITISH;
	S.prompt.left = 1;
	CHECK_LEGAL();
	REFUSED(first(SIDE_BRITISH), "the American chooses who plays first (5.3.c)");
	REFUSED(EVENT(OPS1_A), "5.3.a");
	APPLY(EVENT(MAJOR_CAMPAIGN));
	assert_true(log_has("British declares himself first with #57 Major Campaign (5.3.a)."));
	assert_int_equal(S.first, SIDE_BRITISH);
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_BRITISH);
	APPLY(DONE);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	/* the other way: he passes, the American chooses */
	set_hand(SIDE_BRITISH, 2, MAJOR_CAMPAIGN, OPS1_A);
	S.first = S.active = SIDE_NONE;
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_FIRST;
	S.prompt.side = SIDE_BRITISH;
	S.prompt.left = 1;
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
	CHECK_LEGAL();
	REFUSED(EVENT(OPS1_B), "only the British may declare himself first");
	REFUSED(PASS, "choose who plays first");
	APPLY(first(SIDE_AMERICAN));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	/* 5.3.b: the British chooser may play the campaign card too */
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_FIRST;
	S.prompt.side = SIDE_BRITISH;
	CHECK_LEGAL();
	ALLOWED(EVENT(MAJOR_CAMPAIGN));
	ALLOWED(first(SIDE_AMERICAN));
}

/* #79 Kosciuszko (R63): +1 for the Americans defending the space of the
 * works this turn. */
static void test_kosciuszko_defence_bonus(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 5);
	put_cu("Providence RI", NATION_AMERICAN, 2);
	S.kosciuszko = SP("Providence RI") + 1;
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Providence RI"));
	SETTLE(PROMPT_PLAY);
	assert_true(log_has("+1 Kosciuszko's works (#79)"));
}

/* 7.3.C: John Glover: one American general, six spaces, and the sixth
 * may enter a battle. */
static void test_glover_six_spaces_and_battle(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, JOHN_GLOVER);
	put_general("Washington", "Providence RI");
	put_cu("Providence RI", NATION_AMERICAN, 3);
	put_cu("Lexington and Concord MA", NATION_BRITISH, 2);
	APPLY(EVENT(JOHN_GLOVER));
	ASSERT_PROMPT(PROMPT_CAMPAIGN, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 1);
	REFUSED(PLACE("Barnstable MA"), "Landing Party");
	CHECK_LEGAL();
	APPLY(MOVE(JOHN_GLOVER, "Washington"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	APPLY(TO("Worcester MA"));
	APPLY(TO("Providence RI"));
	APPLY(TO("Worcester MA"));
	assert_int_equal(S.move.used, 5);
	CHECK_LEGAL();
	APPLY(TO("Lexington and Concord MA"));
	assert_true(log_has("(6 of 6 spaces)"));
	assert_true(log_has("Battle in Lexington and Concord MA"));
	assert_true(log_has("the Americans attack (9.2)"));
	assert_true(log_has("John Glover"));
}

/* 9.42: Royal Navy support in a fortified port only with a British PC, and
 * never in a Blockaded Zone; 9.43: the Canadian militia needs both Quebec
 * and Montreal. */
static void test_battle_drm_navy_and_canada(void **state)
{
	(void)state;
	for (int blockade = 0; blockade < 2; blockade++) {
		move_position(SIDE_AMERICAN, blockade ? OPS1_B : OPS1_A);
		quiet_cards(SIDE_AMERICAN);
		quiet_cards(SIDE_BRITISH);
		put_general("Washington", "Montreal");
		put_cu("Montreal", NATION_AMERICAN, 5);
		put_pc("Montreal", SIDE_BRITISH);
		put_cu("Quebec", NATION_BRITISH, 2);
		put_pc("Quebec", SIDE_BRITISH);
		S.french_navy = blockade ? D->spaces[SP("Quebec")].zone : NAVY_FRENCH_BOX;
		strbuf_reset(&LOG);
		/* Washington 6 -> 4; Americans 6, British 1; loss 1, winner 6 */
		force_dice(5, 6, 6, 1, 1, 6);
		APPLY(MOVE(blockade ? OPS1_B : OPS1_A, "Washington"));
		APPLY(TO("Quebec"));
		if (blockade) {
			assert_true(log_has("British DRM +4: 2 CUs, 0 battle rating, +1 Regulars (9.41), +1 militia (9.43)."));
		} else {
			assert_true(log_has("British DRM +5: 2 CUs, 0 battle rating, +1 Regulars (9.41), +1 Royal Navy (9.42), +1 militia (9.43)."));
		}
		if (blockade) {		/* no retreat by sea from a blockaded port */
			assert_true(log_has("surrenders (9.63.B)"));
		} else {
			ASSERT_PROMPT(PROMPT_RETREAT, SIDE_BRITISH);
			REFUSED(RETREAT("Falmouth MA"), "9.61");	/* Arnold's link */
			APPLY(SAIL("New York NY"));
			assert_int_equal(cus_of("New York NY", SIDE_BRITISH), 1);
		}
	}
}

/* 7.4.C: a general may pass friendly generals; ending with one sends one
 * of them (never Washington) to the Reinforcements box. */
static void test_move_friendly_generals(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS2_A);
	put_general("Gates", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 2);
	put_general("Greene", "Providence RI");
	put_general("Washington", "Boston MA");
	APPLY(MOVE(OPS2_A, "Gates"));
	APPLY(TO("Providence RI"));		/* passing through */
	INVARIANTS();
	REFUSED(STOP_SENDING("Washington"), "Washington is not in Providence RI");
	REFUSED(STOP_SENDING("Lee"), "not in Providence RI");
	ALLOWED(STOP_SENDING("Greene"));
	ALLOWED(STOP_SENDING("Gates"));
	CHECK_LEGAL();
	APPLY(TO("Boston MA"));
	REFUSED(STOP_SENDING("Washington"), "may never be sent to the Reinforcements box");
	CHECK_LEGAL();
	APPLY(STOP);				/* Gates goes, Washington stays */
	assert_int_equal(where("Gates"), LOC_REINFORCEMENTS);
	assert_int_equal(where("Washington"), SP("Boston MA"));
	assert_int_equal(cus("Boston MA", NATION_AMERICAN), 2);
	/* The owner's choice: here the moving general goes. */
	move_position(SIDE_AMERICAN, OPS2_B);
	put_general("Gates", "Worcester MA");
	put_general("Greene", "Providence RI");
	APPLY(MOVE(OPS2_B, "Gates"));
	APPLY(TO("Providence RI"));
	APPLY(STOP_SENDING("Gates"));
	assert_int_equal(where("Gates"), LOC_REINFORCEMENTS);
	assert_int_equal(where("Greene"), SP("Providence RI"));
}

/* 12.2.C: "American Generals, when activated may move French CUs as if
 * they were American": which CUs go is the player's choice, not
 * "American first". 'take N F' names F French among N; with a choice
 * left where the activation begins, the move waits for it. */
static void test_move_12_2_C_player_chooses_french_or_american(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS2_A);
	S.box_cu[NATION_FRENCH] = 0;		/* the French are on the map */
	put_general("Gates", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 3);
	put_cu("Worcester MA", NATION_FRENCH, 3);
	APPLY(MOVE(OPS2_A, "Gates"));
	CHECK_LEGAL();
	REFUSED(TO("Providence RI"), "say which move first");
	REFUSED(TAKE_FRENCH(5, 1), "2 to 3 French");
	REFUSED(TAKE_FRENCH(5, 4), "2 to 3 French");
	APPLY(TAKE_FRENCH(5, 3));
	APPLY(TO("Providence RI"));
	assert_int_equal(cus("Providence RI", NATION_FRENCH), 3);
	assert_int_equal(cus("Providence RI", NATION_AMERICAN), 2);
	assert_int_equal(cus("Worcester MA", NATION_AMERICAN), 1);
	/* dropping some off: the player says which too */
	APPLY(TAKE_FRENCH(2, 0));
	APPLY(TO("Boston MA"));
	assert_int_equal(cus("Boston MA", NATION_AMERICAN), 2);
	assert_int_equal(cus("Providence RI", NATION_FRENCH), 3);
	/* no choice: five of two American and three French all go */
	move_position(SIDE_AMERICAN, OPS2_B);
	S.box_cu[NATION_FRENCH] = 0;
	put_general("Gates", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 2);
	put_cu("Worcester MA", NATION_FRENCH, 3);
	APPLY(MOVE(OPS2_B, "Gates"));
	APPLY(TO("Providence RI"));
	assert_int_equal(cus("Providence RI", NATION_FRENCH), 3);
}

/* 7.4.C: "one of the Generals - owner's choice": a plain 'stop' with a
 * real choice asks the owner which one goes; postrider never picks. */
static void test_move_7_4_C_plain_stop_asks_the_owner(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS2_C);
	put_general("Gates", "Worcester MA");
	put_general("Greene", "Providence RI");
	APPLY(MOVE(OPS2_C, "Gates"));
	APPLY(TO("Providence RI"));
	APPLY(STOP);
	ASSERT_PROMPT(PROMPT_GENERALS, SIDE_AMERICAN);
	assert_int_equal(where("Gates"), SP("Providence RI"));
	assert_int_equal(where("Greene"), SP("Providence RI"));
	INVARIANTS();
	ROUND_TRIP(&TXT);
	CHECK_LEGAL();
	REFUSED(SEND("Washington"), "not one of the two American generals");
	REFUSED(TO("Boston MA"), "send");
	APPLY(SEND("Gates"));
	assert_int_equal(where("Gates"), LOC_REINFORCEMENTS);
	assert_int_equal(where("Greene"), SP("Providence RI"));
	assert_true(log_has("American sends Gates to the Reinforcements box"));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	/* Cornwallis ends with Clinton: the British chooses too. */
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Cornwallis", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 2);
	put_general("Clinton", "Barnstable MA");
	APPLY(MOVE(OPS2_A, "Cornwallis"));
	APPLY(TO("Barnstable MA"));
	APPLY(STOP);
	ASSERT_PROMPT(PROMPT_GENERALS, SIDE_BRITISH);
	APPLY(SEND("Clinton"));
	assert_int_equal(where("Cornwallis"), SP("Barnstable MA"));
	assert_int_equal(where("Clinton"), LOC_REINFORCEMENTS);
	assert_int_equal(cus("Barnstable MA", NATION_BRITISH), 2);
}

/* 7.6.A: an Army captures an enemy general alone and moves on. */
static void test_move_capture_general(void **state)
{
	(void)state;
	move_position(SIDE_AMERICAN, OPS2_A);
	put_general("Gates", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 3);
	put_general("Clinton", "Providence RI");
	APPLY(MOVE(OPS2_A, "Gates"));
	APPLY(TO("Providence RI"));
	assert_int_equal(where("Clinton"), LOC_CAPTURED);
	assert_true(log_has("Clinton is captured in Providence RI (7.6.A)"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_AMERICAN);
	APPLY(TO("Newport RI"));
	APPLY(STOP);
}

/* 7.6.B: Washington captured: removed, five PCs, one per colony, not
 * where American units are; the French Alliance three back. */
static void test_move_washington_captured(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	S.french_alliance = 5;
	S.congress = SP("Philadelphia PA");
	put_pc("Philadelphia PA", SIDE_AMERICAN);
	put_general("Howe", "Monmouth NJ");
	put_cu("Monmouth NJ", NATION_BRITISH, 3);
	put_general("Washington", "Trenton NJ");
	put_pc("Worcester MA", SIDE_AMERICAN);
	put_pc("Springfield MA", SIDE_AMERICAN);
	put_pc("Dover DE", SIDE_AMERICAN);
	put_cu("Dover DE", NATION_AMERICAN, 1);
	put_pc("Hartford CT", SIDE_AMERICAN);
	put_pc("Albany NY", SIDE_AMERICAN);
	put_pc("Quebec", SIDE_AMERICAN);
	put_pc("Richmond VA", SIDE_AMERICAN);
	put_pc("Camden SC", SIDE_AMERICAN);
	put_general("Greene", "Camden SC");
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Trenton NJ"));
	assert_int_equal(where("Washington"), LOC_REMOVED);
	assert_int_equal(S.french_alliance, 2);
	ASSERT_PROMPT(PROMPT_CAPTURE, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 5);
	CHECK_LEGAL();
	REFUSED(REMOVE("Philadelphia PA"), "the Congress (7.6.B)");
	REFUSED(REMOVE("Dover DE"), "an American CU");
	REFUSED(REMOVE("Camden SC"), "general");
	REFUSED(REMOVE("Trenton NJ"), "no American PC");
	REFUSED(TO("Philadelphia PA"), "does not answer this prompt");
	APPLY(REMOVE("Worcester MA"));
	REFUSED(REMOVE("Springfield MA"), "one per colony");
	APPLY(REMOVE("Quebec"));		/* Canada counts */
	APPLY(REMOVE("Hartford CT"));
	APPLY(REMOVE("Albany NY"));
	APPLY(REMOVE("Richmond VA"));
	assert_int_equal(pc("Richmond VA"), SIDE_NONE);
	assert_int_equal(pc("Springfield MA"), SIDE_AMERICAN);
	/* Back to the move: Howe goes on. */
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	APPLY(STOP);
	/* Fewer than five possible: the removals end early. */
	move_position(SIDE_BRITISH, OPS2_B);
	put_general("Howe", "Monmouth NJ");
	put_cu("Monmouth NJ", NATION_BRITISH, 3);
	put_general("Washington", "Trenton NJ");
	put_pc("Worcester MA", SIDE_AMERICAN);
	APPLY(MOVE(OPS2_B, "Howe"));
	APPLY(TO("Trenton NJ"));
	ASSERT_PROMPT(PROMPT_CAPTURE, SIDE_BRITISH);
	APPLY(REMOVE("Worcester MA"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	assert_true(log_has("No other American PC can be removed (7.6.B)"));
}

/* 7.8.F against 7.6.A: a successful interception puts the intercepting
 * force in the space "before the arrival of the moving British Army", so
 * Washington alone there is not captured: the interception is asked
 * first, and the capture (or the Congress's dispersal) happens only when
 * no interception succeeded. */
static void washington_alone_next_to_greene(int card)
{
	move_position(SIDE_BRITISH, card);
	put_general("Howe", "Monmouth NJ");
	put_cu("Monmouth NJ", NATION_BRITISH, 3);
	put_general("Washington", "Trenton NJ");
	put_pc("Trenton NJ", SIDE_AMERICAN);
	put_general("Greene", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 2);
	put_pc("Worcester MA", SIDE_AMERICAN);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	APPLY(MOVE(card, "Howe"));
	APPLY(TO("Trenton NJ"));
}

static void test_interception_7_8_F_before_capturing_a_lone_general(void **state)
{
	(void)state;
	washington_alone_next_to_greene(OPS2_A);
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	assert_int_equal(where("Washington"), SP("Trenton NJ"));
	assert_false(log_has("captured"));
	INVARIANTS();
	CHECK_LEGAL();
	ROUND_TRIP(&TXT);
	/* Greene gets there first: Washington is no longer alone; Greene,
	 * not Washington, goes to the box (7.4.C), and the battle follows. */
	force_dice(7, 1, 6, 6, 1, 6, 1, 6);
	APPLY(INTERCEPT("Greene"));
	assert_int_equal(where("Washington"), SP("Trenton NJ"));
	assert_int_equal(where("Greene"), LOC_REINFORCEMENTS);
	assert_true(log_has("Battle in Trenton NJ"));
	assert_false(log_has("captured"));
	/* Without a successful interception the capture follows. */
	washington_alone_next_to_greene(OPS2_B);
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	APPLY(PASS);
	assert_int_equal(where("Washington"), LOC_REMOVED);
	ASSERT_PROMPT(PROMPT_CAPTURE, SIDE_BRITISH);
	INVARIANTS();
	APPLY(REMOVE("Worcester MA"));
	APPLY(REMOVE("Trenton NJ"));
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
	INVARIANTS();
}

/* The same for the Congress (7.7, 7.8.F): it is dispersed by the entry
 * only when no interception brings American CUs into its space first. */
static void test_interception_7_8_F_before_dispersing_the_congress(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	S.congress = SP("Trenton NJ");
	put_pc("Trenton NJ", SIDE_AMERICAN);
	put_general("Howe", "Monmouth NJ");
	put_cu("Monmouth NJ", NATION_BRITISH, 3);
	put_general("Greene", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 2);
	quiet_cards(SIDE_AMERICAN);
	quiet_cards(SIDE_BRITISH);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Trenton NJ"));
	ASSERT_PROMPT(PROMPT_INTERCEPT, SIDE_AMERICAN);
	assert_int_equal(S.congress, SP("Trenton NJ"));
	APPLY(PASS);
	assert_int_equal(S.congress, -1);
	ASSERT_PROMPT(PROMPT_MOVE, SIDE_BRITISH);
}

/* 7.7: a British Army entering the Congress's space disperses it. */
static void test_move_disperses_congress(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	S.congress = SP("Philadelphia PA");
	put_pc("Philadelphia PA", SIDE_AMERICAN);
	put_general("Howe", "Trenton NJ");
	put_cu("Trenton NJ", NATION_BRITISH, 2);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Philadelphia PA"));
	assert_int_equal(S.congress, -1);
	assert_true(S.dispersed_this_turn);
	APPLY(TO("Lancaster PA"));		/* the Army may continue */
	APPLY(STOP);
	/* A general alone does not (and no PC stops him here). */
	move_position(SIDE_BRITISH, OPS2_B);
	S.congress = SP("Philadelphia PA");
	S.dispersed_this_turn = false;
	put_general("Howe", "Trenton NJ");
	APPLY(MOVE(OPS2_B, "Howe"));
	APPLY(TO("Philadelphia PA"));
	assert_int_equal(S.congress, SP("Philadelphia PA"));
	assert_false(S.dispersed_this_turn);
}

/* 7.5: British naval movement, the whole move, between eligible ports. */
static void test_move_naval(void **state)
{
	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 7);
	put_pc("Newport RI", SIDE_AMERICAN);
	put_cu("Norfolk VA", NATION_AMERICAN, 1);
	APPLY(MOVE(OPS2_A, "Howe"));
	assert_int_equal(S.move.carried[NATION_BRITISH], 5);
	REFUSED(SAIL("Trenton NJ"), "not a port");
	REFUSED(SAIL("Newport RI"), "American CU or PC");
	REFUSED(SAIL("Norfolk VA"), "American CU or PC");
	REFUSED(SAIL("Boston MA"), "sail to another port");
	S.french_navy = data_zone_index(D, "Long Island Sound");
	REFUSED(SAIL("New York NY"), "Blockaded Zone");
	CHECK_LEGAL();
	S.french_navy = data_zone_index(D, "New England");
	REFUSED(SAIL("New York NY"), "'Boston MA' is in a Blockaded Zone");
	S.french_navy = NAVY_FRENCH_BOX;
	APPLY(TAKE(4));
	APPLY(SAIL("New York NY"));
	assert_int_equal(cus("New York NY", NATION_BRITISH), 4);
	assert_int_equal(cus("Boston MA", NATION_BRITISH), 3);
	/* the naval movement is the whole move (7.5): it ends by itself */
	assert_true(log_has("can move no further (7.3.A): the move ends by itself."));
	assert_false(S.move.active);
	/* Not after a step, and never for the American. */
	move_position(SIDE_BRITISH, OPS2_B);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 2);
	APPLY(MOVE(OPS2_B, "Howe"));
	APPLY(TO("Barnstable MA"));
	REFUSED(SAIL("New York NY"), "must be the whole move");
	move_position(SIDE_AMERICAN, OPS1_A);
	put_general("Greene", "Newport RI");
	APPLY(MOVE(OPS1_A, "Greene"));
	REFUSED(SAIL("New York NY"), "only the British");
}

/* 7.1.B, first example: queue a 1, then a second 1 activates Burgoyne;
 * both cards go to the discard pile after the move. */
static void test_queue_example_1(void **state)
{
	(void)state;
	clear_board_but_two();
	put_general("Burgoyne", "Quebec");
	put_cu("Quebec", NATION_BRITISH, 2);
	set_hand(SIDE_BRITISH, 7, OPS1_A, OPS1_B, OPS1_C, OPS3_A,
		 JOSEPH_BRANT, LINE_MUTINIES, HORTELEZ);
	set_hand(SIDE_AMERICAN, 3, OPS1_D, OPS2_A, OPS2_B);
	at_play(SIDE_BRITISH);
	REFUSED(QUEUE(OPS3_A), "starts with a 1 or 2 OPS card, not #39 (3 OPS) (7.1.B.i)");
	CHECK_LEGAL();
	APPLY(QUEUE(OPS1_A));
	assert_int_equal(S.n_queue[SIDE_BRITISH], 1);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_D));
	APPLY(DONE);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	CHECK_LEGAL();
	REFUSED(MOVE(OPS1_B, "Carleton"), "Carleton");
	APPLY(MOVE(OPS1_B, "Burgoyne"));
	assert_true(log_has("(2 OPS) and activates Burgoyne"));
	APPLY(TO("Montreal"));
	APPLY(STOP);
	assert_int_equal(S.n_queue[SIDE_BRITISH], 0);
	assert_true(in_pile(S.discard, S.n_discard, OPS1_A));
	assert_true(in_pile(S.discard, S.n_discard, OPS1_B));
}

/* Second example: another play abandons the queue (the example plays an
 * event; a discard is "any Strategy Card to perform a different activity"
 * as well, 7.1.B.iii); a new queue may start with the next play. */
static void test_queue_example_2_abandoned(void **state)
{
	(void)state;
	clear_board_but_two();
	set_hand(SIDE_BRITISH, 7, OPS1_A, OPS1_B, OPS1_C, OPS3_A,
		 JOSEPH_BRANT, LINE_MUTINIES, HORTELEZ);
	set_hand(SIDE_AMERICAN, 3, OPS1_D, OPS1_A + 4, OPS1_A + 5);
	at_play(SIDE_BRITISH);
	APPLY(QUEUE(OPS1_A));
	APPLY(PC_CARD(OPS1_D));
	APPLY(DONE);
	APPLY(DISCARD(HORTELEZ));
	assert_int_equal(S.n_queue[SIDE_BRITISH], 0);
	assert_true(in_pile(S.discard, S.n_discard, OPS1_A));
	assert_true(log_has("abandoned British Operations Queue"));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_AMERICAN);
	APPLY(PASS);	/* asked whatever the hand holds (R100) */
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A + 4));
	APPLY(DONE);
	APPLY(QUEUE(OPS1_B));			/* a new queue */
	assert_int_equal(S.n_queue[SIDE_BRITISH], 1);
}

/* Third example: two 1s in the queue; to activate he must still play a
 * card into it, and three OPS activate any general. */
static void test_queue_example_3(void **state)
{
	(void)state;
	clear_board_but_two();
	put_general("Carleton", "Quebec");
	put_general("Cornwallis", "New York NY");
	set_hand(SIDE_BRITISH, 7, OPS1_A, OPS1_B, OPS1_C, OPS3_A,
		 JOSEPH_BRANT, LINE_MUTINIES, HORTELEZ);
	set_hand(SIDE_AMERICAN, 3, OPS1_D, OPS1_A + 4, OPS1_A + 5);
	at_play(SIDE_BRITISH);
	APPLY(QUEUE(OPS1_A));
	APPLY(PC_CARD(OPS1_D));
	APPLY(DONE);
	APPLY(QUEUE(OPS1_B));			/* the queue goes on: 2 OPS */
	assert_int_equal(S.n_queue[SIDE_BRITISH], 2);
	APPLY(PC_CARD(OPS1_A + 4));
	APPLY(DONE);
	REFUSED(act_g(ACT_ACTIVATE, JOSEPH_BRANT, -1, GEN("Cornwallis"), 0), "not an OPS card");
	ALLOWED(MOVE(OPS1_C, "Cornwallis"));
	APPLY(MOVE(OPS1_C, "Carleton"));	/* three OPS: any general */
	assert_true(log_has("(3 OPS) and activates Carleton"));
	APPLY(STOP);
	assert_int_equal(S.n_queue[SIDE_BRITISH], 0);
	assert_true(in_pile(S.discard, S.n_discard, OPS1_A));
	assert_true(in_pile(S.discard, S.n_discard, OPS1_B));
	assert_true(in_pile(S.discard, S.n_discard, OPS1_C));
}

/* 7.1.B.iii: giving an OPS card for a discarded event keeps the queue. */
static void test_queue_kept_by_exchange(void **state)
{
	(void)state;
	clear_board_but_two();
	set_hand(SIDE_BRITISH, 3, OPS1_A, OPS1_B, OPS1_C);
	set_hand(SIDE_AMERICAN, 2, HENRY_KNOX, OPS1_D);
	at_play(SIDE_BRITISH);
	APPLY(QUEUE(OPS1_A));
	APPLY(DISCARD(HENRY_KNOX));
	APPLY(PASS);
	ASSERT_PROMPT(PROMPT_EXCHANGE, SIDE_BRITISH);
	APPLY(EXCHANGE(OPS1_B));
	assert_int_equal(S.n_queue[SIDE_BRITISH], 1);
	assert_int_equal(S.queue[SIDE_BRITISH][0], OPS1_A);
}

/* 8.1.B, 8.1.C: British reinforcements. */
static void test_reinforce_british(void **state)
{
	(void)state;
	clear_board_but_two();
	S.box_cu[NATION_BRITISH] = 5;
	set_hand(SIDE_BRITISH, 2, OPS1_A, OPS1_B);
	set_hand(SIDE_AMERICAN, 2, OPS1_C, OPS1_D);
	at_play(SIDE_BRITISH);
	put_general("Howe", "Boston MA");
	put_pc("Newport RI", SIDE_AMERICAN);
	put_cu("Charleston SC", NATION_AMERICAN, 2);
	APPLY(REINFORCE(OPS1_A));
	ASSERT_PROMPT(PROMPT_LAND, SIDE_BRITISH);
	assert_true(in_pile(S.reinf_cards[SIDE_BRITISH], S.n_reinf_cards[SIDE_BRITISH], OPS1_A));
	REFUSED(LAND("Trenton NJ", 2), "not a port");
	REFUSED(LAND("Newport RI", 2), "American PC (8.1.C)");
	REFUSED(LAND("Charleston SC", 2), "American CUs (8.1.C)");
	REFUSED(LAND("Boston MA", 6), "land 0 to 5");
	REFUSED(LAND("Boston MA", 0), "nothing would arrive");
	REFUSED(LAND_WITH("Boston MA", 2, "Gates"), "is an American general");
	REFUSED(LAND_WITH("Boston MA", 2, "Howe"), "not in the Reinforcements box");
	S.french_navy = data_zone_index(D, "Long Island Sound");
	REFUSED(LAND("New York NY", 2), "Blockaded Zone");
	CHECK_LEGAL();
	S.french_navy = NAVY_FRENCH_BOX;
	/* More than five may come, and a new general replaces the old. */
	APPLY(LAND_WITH("Boston MA", 5, "Clinton"));
	assert_int_equal(S.box_cu[NATION_BRITISH], 0);
	assert_int_equal(cus("Boston MA", NATION_BRITISH), 5);
	assert_int_equal(where("Clinton"), SP("Boston MA"));
	assert_int_equal(where("Howe"), LOC_REINFORCEMENTS);
	APPLY(PC_CARD(OPS1_C));
	APPLY(DONE);
	S.box_cu[NATION_BRITISH] = 2;
	REFUSED(REINFORCE(OPS1_B), "once per turn");
}

/* 8.2.C clarification: reinforcements capture a lone enemy general. */
static void test_reinforce_captures(void **state)
{
	(void)state;
	clear_board_but_two();
	S.box_cu[NATION_BRITISH] = 3;
	set_hand(SIDE_BRITISH, 1, OPS1_A);
	set_hand(SIDE_AMERICAN, 1, OPS1_D);
	at_play(SIDE_BRITISH);
	put_general("Greene", "Norfolk VA");
	APPLY(REINFORCE(OPS1_A));
	REFUSED(LAND_WITH("Norfolk VA", 0, "Clinton"), "a general alone cannot arrive");
	CHECK_LEGAL();
	APPLY(LAND("Norfolk VA", 1));
	assert_int_equal(where("Greene"), LOC_CAPTURED);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

/* 8.2.B, 8.2.C: American reinforcements. */
static void test_reinforce_american(void **state)
{
	(void)state;
	clear_board_but_two();
	set_hand(SIDE_AMERICAN, 4, OPS3_A, OPS2_A, OPS3_B, OPS1_B);
	set_hand(SIDE_BRITISH, 3, OPS1_C, OPS1_D, OPS2_B);
	at_play(SIDE_AMERICAN);
	put_general("Washington", "Monmouth NJ");
	put_pc("Trenton NJ", SIDE_BRITISH);
	put_cu("New Brunswick NJ", NATION_BRITISH, 1);
	APPLY(REINFORCE(OPS3_A));
	ASSERT_PROMPT(PROMPT_LAND, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 3);
	REFUSED(LAND("Trenton NJ", 3), "British PC (8.2.C)");
	REFUSED(LAND("New Brunswick NJ", 3), "British CUs (8.2.C)");
	REFUSED(LAND("Philadelphia PA", 2), "brings exactly 3 American CUs");
	REFUSED(LAND_WITH("Monmouth NJ", 3, "Gates"), "no general may come");
	S.general[GEN("Rochambeau")] = LOC_REINFORCEMENTS;
	REFUSED(LAND_WITH("Philadelphia PA", 3, "Rochambeau"), "French alliance");
	CHECK_LEGAL();
	S.general[GEN("Rochambeau")] = LOC_FRENCH_BOX;
	APPLY(LAND_WITH("Philadelphia PA", 3, "Gates"));
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 3);
	assert_int_equal(where("Gates"), SP("Philadelphia PA"));
	APPLY(PC_CARD(OPS1_C));
	APPLY(DONE);
	APPLY(REINFORCE(OPS2_A));		/* the second time this turn */
	APPLY(LAND_WITH("Philadelphia PA", 2, "Lee"));
	assert_int_equal(where("Gates"), LOC_REINFORCEMENTS);	/* replaced */
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 5);
	APPLY(PC_CARD(OPS1_D));
	APPLY(DONE);
	REFUSED(REINFORCE(OPS3_B), "twice per turn");
	/* From stock only: 30 counters in all (counters.yaml). */
	put_cu("Philadelphia PA", NATION_AMERICAN, 28);	/* and 1 in Concord NH */
	S.n_reinf_cards[SIDE_AMERICAN] = 1;
	discard_push(&S, S.reinf_cards[SIDE_AMERICAN][1]);
	APPLY(REINFORCE(OPS3_B));
	assert_int_equal(S.prompt.left, 1);
	APPLY(LAND("Monmouth NJ", 1));
	assert_int_equal(cus("Monmouth NJ", NATION_AMERICAN), 1);
}

/* The moving general and his CUs survive a write and a read of the state. */
static void test_move_state_round_trip(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;

	(void)state;
	move_position(SIDE_AMERICAN, OPS2_A);
	put_general("Gates", "Ninety Six SC");
	put_cu("Ninety Six SC", NATION_AMERICAN, 4);
	APPLY(MOVE(OPS2_A, "Gates"));
	APPLY(TO("Camden SC"));
	APPLY(TAKE(3));
	state_write_public(&S, D, NULL, &out);
	assert_non_null(strstr(strbuf_str(&out), "move:\n  general: Gates\n"));
	if (state_read(&back, D, out.buf, out.len, NULL, 0, &err))
		fail_msg("%s", strbuf_str(&err));
	assert_true(back.move.active);
	assert_int_equal(back.move.general, S.move.general);
	assert_int_equal(back.move.card, S.move.card);
	assert_int_equal(back.move.from, S.move.from);
	assert_int_equal(back.move.used, 1);
	assert_int_equal(back.move.carried[NATION_AMERICAN], 3);
	assert_int_equal(back.move.carried[NATION_BRITISH], 0);
	assert_true(back.move.took);
	assert_false(back.move.sailed);
	/* A move prompt without its block is refused. */
	strbuf_reset(&err);
	char *cut = strstr(out.buf, "move:\n");
	char *end = strstr(cut, "turn:\n");
	memmove(cut, end, strlen(end) + 1);
	out.len = strlen(out.buf);
	assert_int_equal(state_read(&back, D, out.buf, out.len, NULL, 0, &err), -1);
	assert_non_null(strstr(strbuf_str(&err), "needs the 'move' block"));
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_describe_move_prompts(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	move_position(SIDE_BRITISH, OPS2_A);
	put_general("Howe", "Boston MA");
	put_cu("Boston MA", NATION_BRITISH, 3);
	APPLY(MOVE(OPS2_A, "Howe"));
	engine_describe_prompt(D, &S, &out);
	assert_string_equal(strbuf_str(&out), "British: move Howe, in Boston MA with 3 CUs (0 of 4 spaces used): 'take N', 'to SPACE', 'sail PORT' or 'stop'.");
	strbuf_release(&out);
}

/* 7.3.A: eight CUs in the space, five move: the prompt and the log say
 * both numbers. */
static void test_describe_move_five_of_eight_7_3_A(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	move_position(SIDE_AMERICAN, OPS2_A);
	put_general("Greene", "Worcester MA");
	put_cu("Worcester MA", NATION_AMERICAN, 8);
	APPLY(MOVE(OPS2_A, "Greene"));
	assert_true(log_has("Greene is in Worcester MA: 8 CUs there, up to 5 may move (7.3.A)."));
	engine_describe_prompt(D, &S, &out);
	assert_string_equal(strbuf_str(&out), "American: move Greene, in Worcester MA with 5 CUs moving (8 CUs here, up to 5 may move, 7.3.A; 0 of 5 spaces used): 'take N', 'to SPACE', or 'stop'.");
	APPLY(TAKE(2));
	strbuf_reset(&out);
	engine_describe_prompt(D, &S, &out);
	assert_string_equal(strbuf_str(&out), "American: move Greene, in Worcester MA with 2 CUs moving (8 CUs here, up to 5 may move, 7.3.A; 0 of 5 spaces used): 'take N', 'to SPACE', or 'stop'.");
	strbuf_release(&out);
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

/* ---- Hidden hands (R62, R100): what the opponent can see -------------- */

/*
 * The opponent's view of a run: every prompt (its kind, side and step)
 * and the public log. Two runs whose states differ only in the hidden
 * contents of one hand (same size) and that answer with the same actions
 * must give the same view: whether a prompt comes may not depend on what
 * a hand holds.
 */
static void view_add(struct strbuf *v)
{
	strbuf_addf(v, "[%s %s %d]\n", prompt_kind_name(S.prompt.kind),
		    side_name(S.prompt.side), S.prompt.left);
	strbuf_add(v, LOG.buf, LOG.len);
	strbuf_reset(&LOG);
}

typedef void (*hidden_run)(int variant, struct strbuf *view);

static void assert_same_view(hidden_run run)
{
	struct strbuf v[2] = { STRBUF_INIT, STRBUF_INIT };

	for (int k = 0; k < 2; k++) {
		new_game(NULL);
		run(k, &v[k]);
	}
	if (strcmp(strbuf_str(&v[0]), strbuf_str(&v[1])))
		fail_msg("the opponent can tell the hands apart:\n--- one hand\n%s--- the other\n%s",
			 strbuf_str(&v[0]), strbuf_str(&v[1]));
	strbuf_release(&v[0]);
	strbuf_release(&v[1]);
}

/* 6.32.C: the British discards an event; the American may or may not
 * hold a 2 or 3 OPS card to exchange; he passes either way. */
static void run_exchange(int variant, struct strbuf *v)
{
	set_hand(SIDE_BRITISH, 2, JOSEPH_BRANT, OPS1_B);
	if (variant)
		set_hand(SIDE_AMERICAN, 2, OPS1_A, HENRY_KNOX);
	else
		set_hand(SIDE_AMERICAN, 2, OPS2_A, OPS3_A);
	at_play(SIDE_BRITISH);
	strbuf_reset(&LOG);
	APPLY(DISCARD(JOSEPH_BRANT));
	view_add(v);
	APPLY(PASS);
	view_add(v);
	APPLY(PASS);
	view_add(v);
}

/* 9.2 step 1: the American defender holds an OPS card only, or a card he
 * could play in the battle; he plays none either way. */
static void run_battle_card(int variant, struct strbuf *v)
{
	move_position(SIDE_BRITISH, OPS2_A);
	set_hand(SIDE_AMERICAN, 1, variant ? HENRY_KNOX : OPS1_D);
	put_general("Howe", "Trenton NJ");
	put_cu("Trenton NJ", NATION_BRITISH, 5);
	put_general("Greene", "Philadelphia PA");
	put_cu("Philadelphia PA", NATION_AMERICAN, 2);
	strbuf_reset(&LOG);
	APPLY(MOVE(OPS2_A, "Howe"));
	APPLY(TO("Philadelphia PA"));
	view_add(v);
	force_dice(6, 4, 1, 6, 1, 1, 6);
	APPLY(STAND);
	view_add(v);
	APPLY(NOCARD);
	view_add(v);
}

/* 5.3.a: the British holds a campaign card, or none; he declines. */
static void run_declare_first(int variant, struct strbuf *v)
{
	int c = variant ? MAJOR_CAMPAIGN : OPS1_B;

	/* The deal alternates from the top of the deck, the American first:
	 * the second card is the British's. */
	set_hand(SIDE_AMERICAN, 0);
	set_hand(SIDE_BRITISH, 0);
	take_card(c);
	memmove(S.deck + 2, S.deck + 1, sizeof(int) * (size_t)(S.n_deck - 1));
	S.deck[1] = c;
	S.n_deck++;
	strbuf_reset(&LOG);
	flow_start_turn(D, &S, &R, &LOG);
	assert_true(in_hand(SIDE_BRITISH, c));
	view_add(v);
	APPLY(PASS);
	view_add(v);
}

static void test_hidden_hand_exchange_6_32_C(void **state)
{
	(void)state;
	assert_same_view(run_exchange);
}

static void test_hidden_hand_battle_card_9_2(void **state)
{
	(void)state;
	assert_same_view(run_battle_card);
}

static void test_hidden_hand_declare_first_5_3_a(void **state)
{
	(void)state;
	assert_same_view(run_declare_first);
}

/* 5.3.a by standing order: "never declare" answers for the British every
 * year, logged the same way whatever he holds; the American may not. */
static void test_declare_first_standing_order_5_3_a(void **state)
{
	struct action a = ACTION_INIT;

	(void)state;
	a.kind = ACT_REACT;
	a.side = SIDE_AMERICAN;
	a.reaction = REACT_DECLARE;
	a.value = REACT_NEVER;
	REFUSED(a, "only the British declares himself first");
	a.side = SIDE_BRITISH;
	APPLY(a);
	set_hand(SIDE_AMERICAN, 0);
	set_hand(SIDE_BRITISH, 0);
	strbuf_reset(&LOG);
	flow_start_turn(D, &S, &R, &LOG);
	ASSERT_PROMPT(PROMPT_FIRST, SIDE_AMERICAN);
	assert_true(log_has("standing reaction: never declare"));
}


/* Undo (engine_undo, README.md "Undo"): only the mover's last order, and
 * only while chance and hidden cards had no part in it. */
static void test_undo_rules(void **state)
{
	struct state prev, cur, next;
	(void)state;

	set_hand(SIDE_AMERICAN, 2, 12, 20);
	set_hand(SIDE_BRITISH, 1, 30);
	prev = S;
	cur = prev;
	cur.seq = prev.seq + 1;
	cur.orders[SIDE_AMERICAN]++;
	cur.space[SP("Boston MA")].pc = SIDE_AMERICAN;	/* a PC placed */

	strbuf_reset(&WHY);
	assert_int_equal(engine_undo(&prev, &cur, &cur, SIDE_AMERICAN, &next, &WHY), 0);
	assert_int_equal(next.space[SP("Boston MA")].pc, prev.space[SP("Boston MA")].pc);
	assert_int_equal(next.seq, cur.seq + 1);
	assert_int_equal(next.orders[SIDE_AMERICAN], cur.orders[SIDE_AMERICAN] + 1);
	assert_int_equal(next.orders[SIDE_BRITISH], cur.orders[SIDE_BRITISH]);
	assert_int_equal(next.draws, cur.draws);

	/* not the British's order to take back */
	assert_int_equal(engine_undo(&prev, &cur, &cur, SIDE_BRITISH, &next, &WHY), -1);
	assert_non_null(strstr(WHY.buf, "only the side that gave the last order"));

	/* the British's standing reaction since decides nothing: the undo
	 * goes through and keeps it (issue 28, item 3) */
	struct state later = cur;
	later.seq++;
	later.orders[SIDE_BRITISH]++;
	later.react[SIDE_BRITISH][REACT_BATTLE] = REACT_NEVER;
	snprintf(later.standing[SIDE_BRITISH], STATE_NOTE_MAX, "if battle: none");
	assert_true(engine_decided_nothing(&cur, &later, SIDE_BRITISH));
	strbuf_reset(&WHY);
	assert_int_equal(engine_undo(&prev, &cur, &later, SIDE_AMERICAN, &next, &WHY), 0);
	assert_int_equal(next.react[SIDE_BRITISH][REACT_BATTLE], REACT_NEVER);
	assert_string_equal(next.standing[SIDE_BRITISH], "if battle: none");
	assert_int_equal(next.seq, later.seq + 1);
	assert_int_equal(next.orders[SIDE_BRITISH], later.orders[SIDE_BRITISH]);
	/* a British decision since: refused */
	later.space[SP("New York NY")].pc = SIDE_BRITISH;
	assert_false(engine_decided_nothing(&cur, &later, SIDE_BRITISH));
	strbuf_reset(&WHY);
	assert_int_equal(engine_undo(&prev, &cur, &later, SIDE_AMERICAN, &next, &WHY), -1);
	assert_non_null(strstr(WHY.buf, "before the opponent answers"));

#define UNDO_REFUSED(change, text) do {					\
		struct state c = cur;					\
		change;							\
		strbuf_reset(&WHY);					\
		assert_int_equal(engine_undo(&prev, &c, &c, SIDE_AMERICAN, &next, &WHY), -1); \
		if (!strstr(WHY.buf, text))				\
			fail_msg("expected '%s', got '%s'", text, WHY.buf); \
	} while (0)
	UNDO_REFUSED(c.draws++, "rolled a die");
	UNDO_REFUSED(c.n_deck--, "dealt");
	UNDO_REFUSED(c.deck[0] = c.deck[1], "dealt");
	UNDO_REFUSED((c.hand[SIDE_AMERICAN][1] = 77, c.n_hand[SIDE_AMERICAN] = 2), "left or entered a hand");
	/* a card played: named to the opponent (issue 28, item 3) */
	UNDO_REFUSED(c.n_hand[SIDE_AMERICAN] = 1, "left or entered a hand");
	UNDO_REFUSED(c.n_hand[SIDE_BRITISH] = 0, "left or entered a hand");
	UNDO_REFUSED((c.discard[c.n_discard] = 55, c.n_discard++), "played or named");
	UNDO_REFUSED((c.queue[SIDE_AMERICAN][0] = 55, c.n_queue[SIDE_AMERICAN] = 1), "played or named");
	UNDO_REFUSED(c.prompt.kind = PROMPT_NONE, "the game is over");
	UNDO_REFUSED(c.orders[SIDE_BRITISH]++, "only the side");
	UNDO_REFUSED(c.seq += 1, "only the side");
#undef UNDO_REFUSED
}

/*
 * Issue 28.4: the size a private state is padded to before it is sealed
 * depends only on what is public: the hand, deck and shuffle counts,
 * never the card numbers (their digits) nor the length of a side's
 * sealed texts below its room; and it always holds the text. In both
 * rules: one room for both sides (format v3), a room for each (v4).
 */
static void test_private_padded_size(void **state)
{
	static struct state a, b;
	struct strbuf ta = STRBUF_INIT, tb = STRBUF_INIT;
	size_t sa, sb;

	(void)state;
	for (int each = 0; each <= 1; each++) {
		a = S;
		a.n_hand[SIDE_AMERICAN] = 2;
		a.hand[SIDE_AMERICAN][0] = 5;
		a.hand[SIDE_AMERICAN][1] = 7;
		a.n_hand[SIDE_BRITISH] = 1;
		a.hand[SIDE_BRITISH][0] = 9;
		snprintf(a.standing[SIDE_AMERICAN], STATE_NOTE_MAX, "if battle: none");
		b = a;
		b.hand[SIDE_AMERICAN][0] = 105;
		b.hand[SIDE_AMERICAN][1] = 107;
		b.hand[SIDE_BRITISH][0] = 99;
		snprintf(b.standing[SIDE_AMERICAN], STATE_NOTE_MAX,
			 "if battle: discard 107\nif attacked at Boston MA: retreat Lexington and Concord MA");
		snprintf(b.sealed_lines[SIDE_AMERICAN], STATE_HELD_MAX, "1\tif battle: discard 107\n");
		strbuf_reset(&ta);
		strbuf_reset(&tb);
		state_write_private(&a, D, &ta);
		state_write_private(&b, D, &tb);
		assert_true(tb.len > ta.len + 100);
		sa = state_private_padded_size(&a, D, each);
		sb = state_private_padded_size(&b, D, each);
		assert_int_equal(sa, sb);
		assert_true(sb >= tb.len + 4);
		/* a count is public: one card more in a hand is another size */
		b.hand[SIDE_BRITISH][b.n_hand[SIDE_BRITISH]++] = 1;
		assert_int_not_equal(state_private_padded_size(&b, D, each), sa);
		/* sealed texts beyond the room (1,000 bytes and more here)
		 * take the next power of two: 2048 for both, or the British
		 * room from 512 to 2048 */
		b = a;
		memset(b.held[SIDE_BRITISH], 'x', 500);
		b.held[SIDE_BRITISH][500] = '\0';
		memset(b.sealed_lines[SIDE_BRITISH], 'y', 500);
		b.sealed_lines[SIDE_BRITISH][500] = '\0';
		strbuf_reset(&tb);
		state_write_private(&b, D, &tb);
		assert_int_equal(state_private_padded_size(&b, D, each),
				 sa + (each ? 3 * STATE_SEALED_ROOM_SIDE : STATE_SEALED_ROOM));
		assert_true(state_private_padded_size(&b, D, each) >= tb.len + 4);
	}
	strbuf_release(&ta);
	strbuf_release(&tb);
}

/*
 * Issue 39, item 1: with a room for each side (format v4), what one side
 * writes never moves the other's class. The American's sealed lines grow
 * a byte at a time, from nothing to past two classes, against two
 * British standing orders of different lengths: at every length both
 * states pad to the same size (with one room for both, v3, they did not:
 * the American found the British length by where his own class jumped).
 */
static void test_padded_size_each_side(void **state)
{
	static struct state a, b;
	struct strbuf t = STRBUF_INIT;
	bool v3_differed = false, moved = false;
	size_t first = 0;

	(void)state;
	a = S;
	snprintf(a.standing[SIDE_BRITISH], STATE_NOTE_MAX, "if battle: none");
	snprintf(a.sealed_lines[SIDE_BRITISH], STATE_HELD_MAX, "1\tif battle: none\n");
	b = S;
	snprintf(b.standing[SIDE_BRITISH], STATE_NOTE_MAX, "if battle: discard 80");
	snprintf(b.sealed_lines[SIDE_BRITISH], STATE_HELD_MAX, "1\tif battle: discard 80\n");
	for (int pad = 0; pad < 1000; pad++) {
		char line[STATE_HELD_MAX];
		snprintf(line, sizeof(line), "1\tif attacked at lexington:%*sstand\n", pad, "");
		memcpy(a.sealed_lines[SIDE_AMERICAN], line, sizeof(line));
		memcpy(b.sealed_lines[SIDE_AMERICAN], line, sizeof(line));
		size_t sa = state_private_padded_size(&a, D, true);
		assert_int_equal(sa, state_private_padded_size(&b, D, true));
		v3_differed = v3_differed || state_private_padded_size(&a, D, false) !=
					     state_private_padded_size(&b, D, false);
		if (!pad)
			first = sa;
		moved = moved || sa != first;
		strbuf_reset(&t);
		state_write_private(&b, D, &t);
		assert_true(state_private_padded_size(&b, D, true) >= t.len + 4);
	}
	assert_true(moved);		/* his own pads did move his class */
	assert_true(v3_differed);	/* the probe that v3 answered */
	strbuf_release(&t);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, new_game)
	const struct CMUnitTest tests[] = {
		T(test_undo_rules),
		T(test_private_padded_size),
		T(test_padded_size_each_side),
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
		/* 7.0, 8.0 */
		T(test_move_7_3_c_gates_march),
		T(test_move_british_four_spaces),
		T(test_move_7_3_d_wilderness),
		T(test_move_falmouth_quebec_arnold_only),
		T(test_activate_refusals),
		T(test_move_general_alone),
		T(test_move_alone_through_enemy_general),
		T(test_overrun_and_fifth_space),
		T(test_overrun_no_fifth_space_7_3_C),
		T(test_auto_victory_mid_move_13_1),
		T(test_auto_victory_mid_battle_13_1),
		T(test_battle_rating_cap_logged_9_3),
		T(test_battle_9_63_saratoga),
		T(test_battle_interception_success),
		T(test_interception_7_8_arnold_succeeds_on_2),
		T(test_interception_7_8_arnold_fails_on_3),
		T(test_reaction_intercept_while_asked),
		T(test_reaction_never_intercept),
		T(test_reaction_general_overrides_side),
		T(test_reaction_retreat_and_battle),
		T(test_reaction_refusals),
		T(test_battle_interception_fails_surrender_b),
		T(test_battle_retreat_before_battle),
		T(test_battle_retreat_before_battle_overrun_and_failure),
		T(test_battle_retreat_by_sea),
		T(test_retreat_by_sea_9_62_into_uncontrolled_fortified_port),
		T(test_battle_winner_without_cus_captured),
		T(test_battle_modifiers_as_values),
		T(test_battle_disperses_congress),
		T(test_battle_winter_offensive),
		T(test_battle_arnold_treason_overrun_9_7_ends_the_move),
		T(test_battle_state_round_trip),
		T(test_campaign_major_three_activations),
		T(test_campaign_no_general_left_ends_by_itself),
		T(test_campaign_minor_winter_offensive),
		T(test_campaign_interception_once_per_card),
		T(test_campaign_replacement_draws_after),
		T(test_campaign_landing_party),
		T(test_glover_six_spaces_and_battle),
		T(test_kosciuszko_defence_bonus),
		T(test_battle_drm_navy_and_canada),
		T(test_move_friendly_generals),
		T(test_move_7_4_C_plain_stop_asks_the_owner),
		T(test_move_12_2_C_player_chooses_french_or_american),
		T(test_interception_7_8_D_owner_chooses_the_general),
		T(test_retreat_before_7_4_C_owner_chooses_the_general),
		T(test_interception_7_8_C_player_chooses_french_or_american),
		T(test_retreat_before_7_9_B_player_chooses_french_or_american),
		T(test_battle_losses_9_5_american_names_the_french),
		T(test_interception_7_8_F_before_capturing_a_lone_general),
		T(test_interception_7_8_F_before_dispersing_the_congress),
		T(test_move_capture_general),
		T(test_move_washington_captured),
		T(test_move_disperses_congress),
		T(test_move_naval),
		T(test_queue_example_1),
		T(test_queue_example_2_abandoned),
		T(test_queue_example_3),
		T(test_queue_kept_by_exchange),
		T(test_reinforce_british),
		T(test_reinforce_captures),
		T(test_reinforce_american),
		T(test_move_state_round_trip),
		T(test_describe_move_prompts),
		T(test_describe_move_five_of_eight_7_3_A),
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
		T(test_discard_remove_american_general_protects_6_32_B_iii),
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
		T(test_exchange_6_32_C_asked_whatever_the_hand_holds),
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
		T(test_winner_if_ended_13_2),
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
		T(test_first_player_why_british_choose_5_3_b),
		T(test_american_chooses_normally),
		T(test_first_british_campaign),
		T(test_congress_nowhere_to_return),
		T(test_alternation_when_a_hand_runs_out),
		T(test_british_first_alternation),
		T(test_prompt_descriptors_complete),
		T(test_card_handlers_complete),
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
		/* hidden hands */
		T(test_hidden_hand_exchange_6_32_C),
		T(test_hidden_hand_battle_card_9_2),
		T(test_hidden_hand_declare_first_5_3_a),
		T(test_declare_first_standing_order_5_3_a),
	};
#undef T
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
