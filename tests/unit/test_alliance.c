/*
 * test_alliance.c - the French alliance (12.2), the French Navy and the
 * French Naval Phase (5.5, 12.3), the European War (12.2.B.iii, 5.7) and
 * the winter losses of mixed French stacks (11.3).
 */
#include "engine_fixture.h"

enum {
	OPS1_A = 1, OPS1_B = 2, OPS1_C = 3,
	OPS3_A = 39,
	FRANKLIN = 67,
	STEUBEN = 68,
	DOI = 99,
};

/* Every test starts from a new game, with an empty board, in 1776. */
static int new_game(void **state)
{
	(void)state;
	strbuf_reset(&LOG);
	strbuf_reset(&WHY);
	rng_fixed(&R, 1);
	engine_new_game(D, &S, &R, &LOG);
	rng_shuffle(&R, S.deck, S.n_deck, "test deck");
	S.year = 1776;
	fixture_clear_board();
	S.box_cu[NATION_BRITISH] = 0;
	/* No automatic victory (13.1) */
	S.space[data_space_index(D, "Hartford CT")].cu[NATION_AMERICAN] = 2;
	S.space[data_space_index(D, "Albany NY")].cu[NATION_BRITISH] = 2;
	return 0;
}

static int zone_at(const char *name, int line)
{
	int z = data_zone_index(D, name);

	if (z < 0)
		fail_msg("line %d: no zone '%s'", line, name);
	return z;
}
#define ZONE(name) zone_at(name, __LINE__)

static void put_cu(const char *name, enum nation n, int cus)
{
	S.space[SP(name)].cu[n] = cus;
}

static int cus(const char *name, enum nation n)
{
	return S.space[SP(name)].cu[n];
}

static void at_play(enum side side)
{
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_PLAY;
	S.prompt.side = side;
	S.first = side;
	S.active = side;
	S.impulse = 0;
}

static struct action act(enum action_kind kind, int card, int space)
{
	struct action a = ACTION_INIT;

	a.kind = kind;
	a.card = card;
	a.space = space;
	return a;
}

static struct action count_act(enum action_kind kind, int value)
{
	struct action a = act(kind, 0, -1);

	a.value = value;
	return a;
}

static struct action land_act(const char *space, int n, const char *general)
{
	struct action a = act(ACT_LAND, 0, SP(space));

	a.value = n;
	a.general = general ? GEN(general) : -1;
	return a;
}

#define NAVY(zone) act(ACT_NAVY, 0, ZONE(zone))
#define FRENCH(name) act(ACT_FRENCH, 0, SP(name))
#define REMOVE(name) act(ACT_REMOVE, 0, SP(name))
#define LOSE(n) count_act(ACT_LOSE, (n))
#define EVENT(c) act(ACT_EVENT, (c), -1)
#define PC_CARD(c) act(ACT_PC_CARD, (c), -1)
#define REINFORCE(c) act(ACT_REINFORCE, (c), -1)
#define DONE act(ACT_DONE, 0, -1)
#define DRAW act(ACT_DRAW, 0, -1)
#define PASS act(ACT_PASS, 0, -1)

static const char *fmt_action(const struct action *a)
{
	strbuf_reset(&TXT);
	if ((action_takes_space(a->kind) && (a->space < 0 || a->space >= D->n_spaces)) ||
	    (action_takes_zone(a->kind) && (a->space < 0 || a->space >= D->n_zones)))
		strbuf_addf(&TXT, "%s <%d>", action_verb(a->kind), a->space);
	else
		action_format(D, a, &TXT);
	return strbuf_str(&TXT);
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

static void apply_at(struct action a, int line)
{
	strbuf_reset(&WHY);
	if (engine_apply(D, &S, &a, &R, &LOG, &WHY) != ENGINE_OK)
		fail_msg("line %d: '%s' refused: %s", line, fmt_action(&a),
			 strbuf_str(&WHY));
	check_invariants_at(line);
}
#define APPLY(a) apply_at((a), __LINE__)

static void refused_at(struct action a, const char *needle, int line)
{
	static struct state before;
	size_t log_len = LOG.len;

	memcpy(&before, &S, sizeof(S));
	strbuf_reset(&WHY);
	if (engine_apply(D, &S, &a, &R, &LOG, &WHY) != ENGINE_ILLEGAL)
		fail_msg("line %d: '%s' was allowed", line, fmt_action(&a));
	if (needle && !strstr(strbuf_str(&WHY), needle))
		fail_msg("line %d: '%s' refused with \"%s\", which lacks \"%s\"",
			 line, fmt_action(&a), strbuf_str(&WHY), needle);
	if (memcmp(&before, &S, sizeof(S)) || LOG.len != log_len)
		fail_msg("line %d: a refused '%s' changed the state or the log",
			 line, fmt_action(&a));
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

/* engine_legal and engine_check agree on the answers of this file's
 * prompts: every zone, space and count that could be written. */
static void check_legal_at(int line)
{
	static struct action legal[4096];
	int n = engine_legal(D, &S, legal, 4096), ok = 0;
	enum action_kind kind;

	for (int i = 0; i < n; i++) {
		strbuf_reset(&WHY);
		if (engine_check(D, &S, &legal[i], &WHY) != ENGINE_OK)
			fail_msg("line %d: listed '%s' fails: %s", line,
				 fmt_action(&legal[i]), strbuf_str(&WHY));
	}
	switch (S.prompt.kind) {
	case PROMPT_NAVY: kind = ACT_NAVY; break;
	case PROMPT_FRENCH: kind = ACT_FRENCH; break;
	case PROMPT_WAR: kind = ACT_REMOVE; break;
	case PROMPT_WINTER: kind = ACT_LOSE; break;
	default: fail_msg("line %d: not an alliance prompt", line); return;
	}
	for (int v = -1; v <= D->n_spaces; v++) {
		struct action a = kind == ACT_LOSE ? count_act(kind, v) : act(kind, 0, v);
		strbuf_reset(&WHY);
		if (engine_check(D, &S, &a, &WHY) == ENGINE_OK)
			ok++;
		else if (!WHY.len)
			fail_msg("line %d: '%s' refused without a reason", line, fmt_action(&a));
	}
	if (ok != n || n == 0)
		fail_msg("line %d: %d pass engine_check, engine_legal lists %d", line, ok, n);
	strbuf_reset(&TXT);
	engine_describe_prompt(D, &S, &TXT);
	assert_true(TXT.len > 0);
}
#define CHECK_LEGAL() check_legal_at(__LINE__)

static bool log_has(const char *needle)
{
	return strstr(strbuf_str(&LOG), needle) != NULL;
}

/* Reads the state back from its YAML and compares. */
static void round_trip(void)
{
	struct strbuf pub = STRBUF_INIT, priv = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;

	state_write_public(&S, D, NULL, &pub);
	state_write_private(&S, D, &priv);
	if (state_read(&back, D, pub.buf, pub.len, priv.buf, priv.len, &err))
		fail_msg("state_read: %s", strbuf_str(&err));
	assert_int_equal(back.prompt.kind, S.prompt.kind);
	assert_int_equal(back.prompt.step, S.prompt.step);
	assert_int_equal(back.prompt.left, S.prompt.left);
	assert_int_equal(back.prompt.card, S.prompt.card);
	assert_memory_equal(back.prompt.spaces_done, S.prompt.spaces_done,
			    sizeof(S.prompt.spaces_done));
	assert_int_equal(back.french_navy, S.french_navy);
	assert_int_equal(back.french_allied, S.french_allied);
	assert_int_equal(back.alliance_this_turn, S.alliance_this_turn);
	assert_int_equal(back.tournament, S.tournament);
	assert_int_equal(back.extra_action, S.extra_action);
	strbuf_release(&pub);
	strbuf_release(&priv);
	strbuf_release(&err);
}

/* ---- 12.1, 12.2.B: the alliance after the card ------------------------- */

static void test_franklin_reaches_nine(void **state)
{
	(void)state;
	S.french_alliance = 5;
	put_cu("New York NY", NATION_BRITISH, 4);
	S.space[SP("Newport RI")].pc = SIDE_BRITISH;
	set_hand(SIDE_AMERICAN, 2, FRANKLIN, OPS1_A);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(FRANKLIN));
	assert_int_equal(S.french_alliance, 9);
	assert_true(S.french_allied);
	assert_true(S.alliance_this_turn);
	assert_true(log_has("France signs an alliance"));
	/* (i) the navy, in any zone */
	ASSERT_PROMPT(PROMPT_NAVY, SIDE_AMERICAN);
	assert_int_equal(S.prompt.step, 0);
	CHECK_LEGAL();
	round_trip();
	REFUSED(act(ACT_NAVY, 0, -1), "no such blockade zone (12.3)");
	REFUSED(act(ACT_NAVY, 0, D->n_zones), "no such blockade zone");
	REFUSED(FRENCH("Boston MA"), "'french' does not answer this prompt; expected 'navy'");
	APPLY(NAVY("Chesapeake"));
	assert_int_equal(S.french_navy, ZONE("Chesapeake"));
	/* (ii) the French forces, in a port without British CU or PC */
	ASSERT_PROMPT(PROMPT_FRENCH, SIDE_AMERICAN);
	CHECK_LEGAL();
	REFUSED(FRENCH("New York NY"), "holds British CUs (12.2.B.ii)");
	REFUSED(FRENCH("Newport RI"), "holds a British PC (12.2.B.ii)");
	REFUSED(FRENCH("Reading PA"), "is not a port");
	S.general[GEN("Washington")] = SP("Philadelphia PA");
	REFUSED(FRENCH("Philadelphia PA"), "Washington");
	S.general[GEN("Greene")] = SP("Boston MA");
	APPLY(FRENCH("Boston MA"));
	assert_int_equal(cus("Boston MA", NATION_FRENCH), 5);
	assert_int_equal(S.box_cu[NATION_FRENCH], 0);
	assert_int_equal(S.general[GEN("Rochambeau")], SP("Boston MA"));
	assert_int_equal(S.general[GEN("Greene")], LOC_REINFORCEMENTS);
	/* then the game goes on: the British plays */
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	/* the track is no longer used (12.2.A) */
	french_alliance_move(&S, -3, &LOG, "test");
	assert_int_equal(S.french_alliance, 9);
}

static void test_steuben_event_reaches_nine(void **state)
{
	(void)state;
	S.french_alliance = 7;
	set_hand(SIDE_AMERICAN, 1, STEUBEN);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(STEUBEN));
	assert_true(S.french_allied);
	ASSERT_PROMPT(PROMPT_NAVY, SIDE_AMERICAN);
}

static void test_alliance_after_the_card(void **state)
{
	(void)state;
	/* The card is fully resolved first (12.2.B): the PC actions of an
	 * OPS card come before the alliance. */
	S.french_alliance = 9;	/* as if a battle of this card had just moved it */
	set_hand(SIDE_AMERICAN, 1, OPS3_A);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS3_A));
	ASSERT_PROMPT(PROMPT_PC, SIDE_AMERICAN);
	assert_false(S.french_allied);
	APPLY(act(ACT_PLACE, 0, SP("Reading PA")));
	APPLY(DONE);
	assert_true(S.french_allied);
	ASSERT_PROMPT(PROMPT_NAVY, SIDE_AMERICAN);
}

static void test_no_port_french_to_the_box(void **state)
{
	(void)state;
	for (int i = 0; i < D->n_spaces; i++)
		if (D->spaces[i].port)
			S.space[i].pc = SIDE_BRITISH;
	S.french_alliance = 5;
	set_hand(SIDE_AMERICAN, 2, FRANKLIN, OPS3_A);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(FRANKLIN));
	APPLY(NAVY("New England"));
	/* no choice and no delay: to the American Reinforcements box */
	assert_int_equal(S.general[GEN("Rochambeau")], LOC_REINFORCEMENTS);
	assert_int_equal(S.box_cu[NATION_FRENCH], 5);
	assert_true(log_has("American Reinforcements box (12.2.B.ii)"));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	APPLY(PC_CARD(OPS1_B));
	APPLY(DONE);
	/* 12.2.B.ii: all or none, in one port without British CU or PC */
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	S.space[SP("Boston MA")].pc = SIDE_NONE;
	APPLY(REINFORCE(OPS3_A));
	ASSERT_PROMPT(PROMPT_LAND, SIDE_AMERICAN);
	REFUSED(land_act("Boston MA", 3, "Rochambeau"), "all the French forces arrive together");
	REFUSED(land_act("Reading PA", 5, "Rochambeau"), "not a port");
	REFUSED(land_act("New York NY", 5, "Rochambeau"), "British PC (12.2.B.ii)");
	APPLY(land_act("Boston MA", 5, "Rochambeau"));
	assert_int_equal(cus("Boston MA", NATION_FRENCH), 5);
	assert_int_equal(S.box_cu[NATION_FRENCH], 0);
	assert_int_equal(S.general[GEN("Rochambeau")], SP("Boston MA"));
}

static void test_french_refused_before_the_alliance(void **state)
{
	(void)state;
	set_hand(SIDE_AMERICAN, 1, OPS3_A);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(REINFORCE(OPS3_A));
	REFUSED(land_act("Boston MA", 5, "Rochambeau"), "only with the French alliance (12.2.B.ii)");
}

/* ---- 5.5, 5.7: the naval phase, the European War, the reshuffle ------- */

/* The alliance came this turn; the last card of the turn is played. */
static void allied_last_card(void)
{
	S.french_alliance = 9;
	S.french_allied = true;
	S.alliance_this_turn = true;
	S.french_navy = NAVY_TURN_TRACK;	/* d'Estaing (12.3) */
	S.box_cu[NATION_FRENCH] = 0;
	S.general[GEN("Rochambeau")] = SP("Boston MA");
	put_cu("Boston MA", NATION_FRENCH, 5);
	put_cu("New York NY", NATION_BRITISH, 1);
	put_cu("Charleston SC", NATION_BRITISH, 4);
	S.general[GEN("Clinton")] = SP("New York NY");
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
}

static void test_naval_phase_and_european_war(void **state)
{
	(void)state;
	allied_last_card();
	/* 5.5 after winter: from the turn track to any zone */
	ASSERT_PROMPT(PROMPT_NAVY, SIDE_AMERICAN);
	assert_int_equal(S.prompt.step, 1);
	CHECK_LEGAL();
	round_trip();
	APPLY(NAVY("Carolinas"));
	assert_int_equal(S.french_navy, ZONE("Carolinas"));
	assert_true(log_has("The French Navy moves to the Carolinas zone"));
	/* 5.7: the British removes 2 CUs from the map */
	ASSERT_PROMPT(PROMPT_WAR, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 2);
	CHECK_LEGAL();
	round_trip();
	REFUSED(REMOVE("Boston MA"), "holds no British CU");
	REFUSED(NAVY("Delaware"), "expected 'remove'");
	int n_discard = S.n_discard;
	assert_true(n_discard > 0);
	APPLY(REMOVE("New York NY"));
	ASSERT_PROMPT(PROMPT_WAR, SIDE_BRITISH);
	assert_true(S.alliance_this_turn);
	APPLY(REMOVE("Charleston SC"));
	assert_int_equal(cus("New York NY", NATION_BRITISH), 0);
	assert_int_equal(cus("Charleston SC", NATION_BRITISH), 3);
	assert_int_equal(S.general[GEN("Clinton")], SP("New York NY"));
	assert_true(log_has("The European War is in effect"));
	/* 12.2.B.iv: reshuffled at the end of the turn */
	assert_true(log_has("reshuffled (the French alliance, 12.2.B.iv)"));
	assert_false(S.alliance_this_turn);
	assert_int_equal(S.year, 1777);
	assert_int_equal(S.prompt.kind, PROMPT_FIRST);	/* 5.3.a or 5.3.c */
}

static void test_naval_phase_keeps_the_navy(void **state)
{
	(void)state;
	allied_last_card();
	S.alliance_this_turn = false;	/* an earlier alliance */
	S.french_navy = ZONE("Delaware");
	APPLY(NAVY("Delaware"));
	assert_true(log_has("The French Navy stays in the Delaware zone (5.5)"));
	assert_int_equal(S.prompt.kind, PROMPT_FIRST);	/* no European War again */
	assert_int_equal(S.year, 1777);
}

static void test_european_war_one_british_cu(void **state)
{
	(void)state;
	allied_last_card();
	put_cu("Charleston SC", NATION_BRITISH, 0);
	put_cu("Albany NY", NATION_BRITISH, 0);
	APPLY(NAVY("Carolinas"));
	ASSERT_PROMPT(PROMPT_WAR, SIDE_BRITISH);
	assert_int_equal(S.prompt.left, 1);
	APPLY(REMOVE("New York NY"));
	/* it was the last British CU in the colonies: 13.1 at the start of
	 * the next Strategy Phase (R14) */
	assert_true(engine_game_over(&S));
	assert_int_equal(S.end, END_AUTO_AMERICAN);
}

/* 13.1, docs/rulings.md R14: the European War takes the last British CU
 * of the thirteen colonies. 13.1 does not name the End Phase, but the
 * condition holds the instant the next Strategy Phase begins: the
 * American wins then, before anyone is asked who plays first (an
 * independent referee found it declared one decision late). */
static void test_european_war_last_british_cu_wins_at_the_strategy_phase(void **state)
{
	(void)state;
	allied_last_card();
	for (int i = 0; i < D->n_spaces; i++)
		if (!D->colonies[D->spaces[i].colony].canada)
			S.space[i].cu[NATION_BRITISH] = 0;
	put_cu("New York NY", NATION_BRITISH, 1);
	put_cu("Quebec", NATION_BRITISH, 2);	/* Canada does not count */
	APPLY(NAVY("Carolinas"));
	ASSERT_PROMPT(PROMPT_WAR, SIDE_BRITISH);
	APPLY(REMOVE("New York NY"));
	ASSERT_PROMPT(PROMPT_WAR, SIDE_BRITISH);	/* the second CU: Canada's */
	assert_false(engine_game_over(&S));	/* not in the End Phase (13.1) */
	APPLY(REMOVE("Quebec"));
	assert_true(engine_game_over(&S));
	assert_int_equal(S.end, END_AUTO_AMERICAN);
	assert_int_equal(S.winner, SIDE_AMERICAN);
	assert_int_equal(S.year, 1777);
	assert_true(log_has("== 1777 =="));
}

/* ---- 12.3: blockades ----------------------------------------------------- */

static void test_blockade_reinforcements(void **state)
{
	(void)state;
	S.french_allied = true;
	S.french_navy = ZONE("Long Island Sound");
	assert_true(port_blockaded(D, &S, SP("New York NY")));
	assert_false(port_blockaded(D, &S, SP("Boston MA")));
	assert_false(port_blockaded(D, &S, SP("Reading PA")));
	S.box_cu[NATION_BRITISH] = 3;
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	at_play(SIDE_BRITISH);
	APPLY(REINFORCE(OPS1_B));
	REFUSED(land_act("New York NY", 3, NULL), "Blockaded Zone (8.1.C, 12.3)");
	APPLY(land_act("Boston MA", 3, NULL));
}

/* ---- 11.3: French winter attrition ---------------------------------------- */

static void test_winter_mixed_stack_choice(void **state)
{
	(void)state;
	rng_fixed(&R, 2);
	S.box_cu[NATION_FRENCH] = 0;	/* the French are on the map */
	put_cu("Easton PA", NATION_FRENCH, 2);
	put_cu("Easton PA", NATION_AMERICAN, 3);	/* 5 CUs: 2 lost */
	put_cu("Reading PA", NATION_FRENCH, 3);		/* alone: as British */
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	set_hand(SIDE_BRITISH, 0);
	at_play(SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	APPLY(DONE);
	ASSERT_PROMPT(PROMPT_WINTER, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 2);
	CHECK_LEGAL();
	round_trip();
	REFUSED(LOSE(3), "'lose N' names the French ones, 0 to 2 (11.3)");
	REFUSED(LOSE(-1), "0 to 2");
	REFUSED(NAVY("Delaware"), "expected 'lose'");
	APPLY(LOSE(1));
	assert_int_equal(cus("Easton PA", NATION_FRENCH), 1);
	assert_int_equal(cus("Easton PA", NATION_AMERICAN), 2);
	assert_int_equal(cus("Reading PA", NATION_FRENCH), 2);
	assert_true(log_has("American chooses: 1 French CU among the losses in Easton PA (11.3)"));
	assert_int_equal(S.prompt.kind, PROMPT_FIRST);	/* the year went on */
}

static void test_winter_mixed_with_washington(void **state)
{
	(void)state;
	rng_fixed(&R, 2);
	S.box_cu[NATION_FRENCH] = 0;	/* the French are on the map */
	/* Washington outside winter quarters: the stack halves (R17), the
	 * American chooses */
	assert_false(D->spaces[SP("Easton PA")].winter_quarters);
	put_cu("Easton PA", NATION_FRENCH, 2);
	put_cu("Easton PA", NATION_AMERICAN, 2);
	S.general[GEN("Washington")] = SP("Easton PA");
	assert_true(winter_attrition(D, &S, &R, &LOG, 0) == false);
	ASSERT_PROMPT(PROMPT_WINTER, SIDE_AMERICAN);
	assert_int_equal(S.prompt.left, 2);
	/* in winter quarters Washington protects up to five: no prompt */
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_PLAY;
	S.prompt.side = SIDE_AMERICAN;
	S.general[GEN("Washington")] = SP("Philadelphia PA");
	put_cu("Easton PA", NATION_FRENCH, 0);
	put_cu("Easton PA", NATION_AMERICAN, 0);
	put_cu("Philadelphia PA", NATION_FRENCH, 2);
	put_cu("Philadelphia PA", NATION_AMERICAN, 3);
	assert_true(winter_attrition(D, &S, &R, &LOG, 0));
	assert_int_equal(cus("Philadelphia PA", NATION_FRENCH), 2);
	assert_int_equal(cus("Philadelphia PA", NATION_AMERICAN), 3);
}

static void test_winter_french_alone_as_british(void **state)
{
	(void)state;
	rng_fixed(&R, 2);
	S.box_cu[NATION_FRENCH] = 0;	/* the French are on the map */
	put_cu("Reading PA", NATION_FRENCH, 1);	/* with Rochambeau: an Army */
	S.general[GEN("Rochambeau")] = SP("Reading PA");
	put_cu("Easton PA", NATION_FRENCH, 4);	/* alone, north: half */
	put_cu("Philadelphia PA", NATION_FRENCH, 4);	/* winter quarters */
	put_cu("Charleston SC", NATION_FRENCH, 4);	/* south of the line */
	assert_true(winter_attrition(D, &S, &R, &LOG, 0));
	assert_int_equal(cus("Reading PA", NATION_FRENCH), 1);
	assert_int_equal(cus("Easton PA", NATION_FRENCH), 2);
	assert_int_equal(cus("Philadelphia PA", NATION_FRENCH), 4);
	assert_int_equal(cus("Charleston SC", NATION_FRENCH), 4);
	assert_int_equal(R.next, 0);	/* no die */
}

/* ---- 6.34.C.i: the Optional Tournament Rule ------------------------------ */

static void test_tournament_franklin(void **state)
{
	(void)state;
	S.tournament = true;
	set_hand(SIDE_BRITISH, 2, FRANKLIN, OPS1_B);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	at_play(SIDE_BRITISH);
	APPLY(EVENT(FRANKLIN));
	assert_int_equal(S.french_alliance, 4);	/* the event first */
	assert_false(S.extra_action);
	ASSERT_PROMPT(PROMPT_EXTRA, SIDE_BRITISH);	/* "may" */
	assert_int_equal(S.n_hand[SIDE_BRITISH], 1);
	assert_int_equal(engine_legal(D, &S, NULL, 0), 2);	/* draw, pass */
	round_trip();
	APPLY(DRAW);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);	/* another action */
	assert_int_equal(S.n_hand[SIDE_BRITISH], 2);	/* the replacement card */
	assert_true(log_has("Optional Tournament Rule"));
	round_trip();
	APPLY(PC_CARD(OPS1_B));
	APPLY(DONE);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

static void test_tournament_franklin_alliance_first(void **state)
{
	(void)state;
	S.tournament = true;
	S.french_alliance = 5;
	set_hand(SIDE_BRITISH, 1, FRANKLIN);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	at_play(SIDE_BRITISH);
	APPLY(EVENT(FRANKLIN));
	ASSERT_PROMPT(PROMPT_NAVY, SIDE_AMERICAN);
	assert_true(S.extra_action);
	round_trip();
	APPLY(NAVY("Delaware"));
	APPLY(FRENCH("Boston MA"));
	ASSERT_PROMPT(PROMPT_EXTRA, SIDE_BRITISH);
	APPLY(DRAW);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	assert_int_equal(S.n_hand[SIDE_BRITISH], 1);
}

/* 6.34.C.i: the British "may then draw a replacement card and
 * immediately take another action": he may decline, and then draws
 * nothing and the American plays next. */
static void test_tournament_6_34_C_i_british_may_decline(void **state)
{
	(void)state;
	S.tournament = true;
	set_hand(SIDE_BRITISH, 2, FRANKLIN, OPS1_B);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	at_play(SIDE_BRITISH);
	APPLY(EVENT(FRANKLIN));
	ASSERT_PROMPT(PROMPT_EXTRA, SIDE_BRITISH);
	REFUSED(PC_CARD(OPS1_B), "'pc' does not answer this prompt");
	int deck = S.n_deck;
	APPLY(PASS);
	assert_int_equal(S.n_deck, deck);		/* no replacement card */
	assert_int_equal(S.n_hand[SIDE_BRITISH], 1);
	assert_true(log_has("declines"));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
}

static void test_tournament_doi_and_without_the_rule(void **state)
{
	(void)state;
	S.tournament = true;
	set_hand(SIDE_BRITISH, 1, DOI);
	set_hand(SIDE_AMERICAN, 1, OPS1_A);
	at_play(SIDE_BRITISH);
	APPLY(EVENT(DOI));
	while (S.prompt.kind == PROMPT_DOI) {	/* the American's placements */
		struct action a;
		assert_true(engine_legal(D, &S, &a, 1) > 0);
		APPLY(a);
	}
	ASSERT_PROMPT(PROMPT_EXTRA, SIDE_BRITISH);
	APPLY(DRAW);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	assert_int_equal(S.n_hand[SIDE_BRITISH], 1);
	/* without the rule the American plays next */
	S.tournament = false;
	set_hand(SIDE_BRITISH, 1, FRANKLIN);
	at_play(SIDE_BRITISH);
	APPLY(EVENT(FRANKLIN));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	/* nor for the American's Franklin */
	S.tournament = true;
	set_hand(SIDE_AMERICAN, 1, FRANKLIN);
	set_hand(SIDE_BRITISH, 1, OPS1_B);
	at_play(SIDE_AMERICAN);
	APPLY(EVENT(FRANKLIN));
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 0);
}

/* Random legal games with the Tournament Rule, from the set-up to the end:
 * every prompt has an answer and the invariants hold. */
static void test_tournament_random_games(void **state)
{
	static struct action acts[8192];
	uint32_t x = 12345;

	(void)state;
	for (unsigned char g = 0; g < 4; g++) {
		int steps = 0;
		rng_fixed(&R, (unsigned char)(40 + g));
		engine_new_game(D, &S, &R, &LOG);
		S.tournament = true;
		while (!engine_game_over(&S) && steps++ < 20000) {
			int n = engine_legal(D, &S, acts, 8192);
			assert_true(n > 0 && n <= 8192);
			x = x * 1103515245u + 12345u;
			strbuf_reset(&LOG);
			APPLY(acts[(x >> 16) % (uint32_t)n]);
		}
		assert_true(engine_game_over(&S));
		assert_true(steps > 100);
	}
}

#define T(f) cmocka_unit_test_setup(f, new_game)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_franklin_reaches_nine),
		T(test_steuben_event_reaches_nine),
		T(test_alliance_after_the_card),
		T(test_no_port_french_to_the_box),
		T(test_french_refused_before_the_alliance),
		T(test_naval_phase_and_european_war),
		T(test_naval_phase_keeps_the_navy),
		T(test_european_war_one_british_cu),
		T(test_european_war_last_british_cu_wins_at_the_strategy_phase),
		T(test_blockade_reinforcements),
		T(test_winter_mixed_stack_choice),
		T(test_winter_mixed_with_washington),
		T(test_winter_french_alone_as_british),
		T(test_tournament_franklin),
		T(test_tournament_franklin_alliance_first),
		T(test_tournament_6_34_C_i_british_may_decline),
		T(test_tournament_doi_and_without_the_rule),
		T(test_tournament_random_games),
	};
#undef T
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
