/*
 * test_events.c - the events of the Strategy Cards (6.31, 6.32.A, 6.33,
 * 6.34.B) as src/engine/events.c carries them out from the machine form
 * in games/washingtons-war/cards.yaml. Every implemented card is played at
 * least once and its result checked; every card with a condition is also
 * refused where the condition fails (it must then be discarded, 6.32.A).
 * docs/cards.md names the test of each card.
 *
 * Runs from the repository root. Positions are built as in test_engine.c:
 * a new game's state, the board cleared, hands taken from the deck so
 * that the 110 cards stay accounted for, and the prompt set to a card play.
 */
#include "engine_fixture.h"

enum {
	OPS1_A = 1, OPS1_B = 2, OPS2_A = 17, OPS3_A = 39,
	MAJOR_CAMPAIGN = 57, MINOR_CAMPAIGN = 59,
	FRANKLIN = 67, STEUBEN = 68, KNOX = 69, JOHN_PAUL_JONES = 70,
	BRANT = 71, TARLETON = 72, ARNOLD = 73, MORGAN = 74, GLOVER = 75,
	MUTINIES = 76, DESTAING = 77, PAINE = 78, KOSCIUSZKO = 79,
	REVERE = 80, HESSIANS = 81, ETHAN_ALLEN = 82, DUNMORE = 83,
	CLARK = 84, LOYALISTS = 85, HALE = 86, PATRICK_HENRY = 88,
	RODNEY = 91, HOWE = 93, PITT = 95, HORTELEZ = 96, CONWAY = 97,
	DOI = 99, VALLEY_FORGE = 100, OVERMOUNTAIN = 101, SMALLPOX = 102,
	SPAIN = 103, MILITIA = 104, DE_GRASSE = 105, FORAGING = 106,
	MORRIS = 107, GERMAIN = 108, LAFAYETTE = 109, TORY_RAIDS = 110,
};

/* ---- Fixtures ---------------------------------------------------------- */

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
	int g = data_general_index(D, general);

	assert_true(g >= 0);
	S.general[g] = space ? SP(space) : LOC_REINFORCEMENTS;
}

static enum side pc(const char *name)
{
	return S.space[SP(name)].pc;
}

static int cu(const char *name, enum nation n)
{
	return S.space[SP(name)].cu[n];
}

static bool in_pile(const int *pile, int n, int c)
{
	for (int i = 0; i < n; i++)
		if (pile[i] == c)
			return true;
	return false;
}

static bool in_hand(enum side side, int c)
{
	return in_pile(S.hand[side], S.n_hand[side], c);
}

static bool log_has(const char *needle)
{
	return strstr(strbuf_str(&LOG), needle) != NULL;
}

/*
 * A new game, the board cleared but for one American CU in Hartford CT
 * and one British CU in Savannah GA (no automatic victory, 13.1); the
 * Congress in Philadelphia; `side` to play `c`, both sides holding an
 * extra OPS card so that the Strategy Phase goes on after the event.
 */
static void position(enum side side, int c)
{
	strbuf_reset(&LOG);
	strbuf_reset(&WHY);
	rng_fixed(&R, 3);
	engine_new_game(D, &S, &R, &LOG);
	fixture_clear_board();
	put_cu("Hartford CT", NATION_AMERICAN, 1);
	put_cu("Savannah GA", NATION_BRITISH, 1);
	S.year = 1776;
	if (side == SIDE_AMERICAN) {
		set_hand(SIDE_AMERICAN, 2, c, OPS1_A);
		set_hand(SIDE_BRITISH, 1, OPS1_B);
	} else {
		set_hand(SIDE_BRITISH, 2, c, OPS1_B);
		set_hand(SIDE_AMERICAN, 1, OPS1_A);
	}
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_PLAY;
	S.prompt.side = side;
	S.first = side;
	S.active = side;
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
/* an event's CU removal naming n French CUs among them (6.31) */
static struct action remove_french(int space, int n)
{
	struct action a = act(ACT_REMOVE, 0, space);

	a.french = n;
	return a;
}
#define REMOVE_FRENCH(name, n) remove_french(SP(name), (n))
#define EVENT(c) act(ACT_EVENT, (c), -1)
#define DISCARD(c) act(ACT_DISCARD, (c), -1)
#define PC_CARD(c) act(ACT_PC_CARD, (c), -1)
#define DONE act(ACT_DONE, 0, -1)

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
	struct strbuf txt = STRBUF_INIT;

	strbuf_reset(&WHY);
	if (engine_apply(D, &S, &a, &R, &LOG, &WHY) != ENGINE_OK) {
		action_format(D, &a, &txt);
		fail_msg("line %d: '%s' refused: %s", line, strbuf_str(&txt),
			 strbuf_str(&WHY));
	}
	strbuf_release(&txt);
	check_invariants_at(line);
}
#define APPLY(a) apply_at((a), __LINE__)

/* Refused with a reason containing needle; the state stays as it was. */
static void refused_at(struct action a, const char *needle, int line)
{
	static struct state before;
	size_t log_len = LOG.len;

	memcpy(&before, &S, sizeof(S));
	strbuf_reset(&WHY);
	if (engine_apply(D, &S, &a, &R, &LOG, &WHY) != ENGINE_ILLEGAL)
		fail_msg("line %d: action %s was allowed", line, action_verb(a.kind));
	if (needle && !strstr(strbuf_str(&WHY), needle))
		fail_msg("line %d: refused with \"%s\", which lacks \"%s\"", line,
			 strbuf_str(&WHY), needle);
	if (memcmp(&before, &S, sizeof(S)) || LOG.len != log_len)
		fail_msg("line %d: a refused action changed the state or the log", line);
}
#define REFUSED(a, needle) refused_at((a), (needle), __LINE__)

/* The event must be refused at the play, and then be discardable. */
#define MUST_DISCARD(c, needle) do { \
	REFUSED(EVENT(c), (needle)); \
	strbuf_reset(&WHY); \
	assert_int_equal(engine_check(D, &S, &(struct action)DISCARD_INIT(c), &WHY), ENGINE_OK); \
} while (0)
#define DISCARD_INIT(c) { ACT_DISCARD, (c), -1, -1, SIDE_NONE, 0, 0, 0 }
#define EVENT_INIT(c) { ACT_EVENT, (c), -1, -1, SIDE_NONE, 0, 0, 0 }

static void assert_prompt_at(enum prompt_kind kind, enum side side, int line)
{
	if (S.prompt.kind != kind || S.prompt.side != side)
		fail_msg("line %d: prompt is %s/%s, expected %s/%s", line,
			 prompt_kind_name(S.prompt.kind), side_name(S.prompt.side),
			 prompt_kind_name(kind), side_name(side));
}
#define ASSERT_PROMPT(kind, side) assert_prompt_at((kind), (side), __LINE__)

/* The event is over: the other side plays next. */
#define ASSERT_OVER(side) ASSERT_PROMPT(PROMPT_PLAY, OTHER_SIDE(side))

/* Every legal action at the prompt passes engine_check, and there is one. */
static void legal_ok_at(int line)
{
	static struct action a[1024];
	int n = engine_legal(D, &S, a, 1024);

	if (n <= 0)
		fail_msg("line %d: no legal action", line);
	for (int i = 0; i < n && i < 1024; i++)
		if (engine_check(D, &S, &a[i], NULL) != ENGINE_OK)
			fail_msg("line %d: a listed action fails", line);
}
#define LEGAL_OK() legal_ok_at(__LINE__)

/* A space adjacent to `space` (for everyone), other than `not`. */
static int neighbour(int space, int not)
{
	const struct data_space *sp = &D->spaces[space];

	for (int i = 0; i < sp->n_adj; i++)
		if (sp->adj[i].only_general < 0 && sp->adj[i].to != not)
			return sp->adj[i].to;
	fail_msg("no neighbour of %s", D->spaces[space].full_name);
	return -1;
}

/* ---- The machine form --------------------------------------------------- */

/* Every card's qualifiers are known to the interpreter, and every event
 * card is either playable somewhere or refused with a reason. */
static void test_every_machine_form_parses(void **state)
{
	(void)state;
	for (int c = 57; c <= D->n_cards; c++) {
		enum side side = D->cards[c].side == CARD_SIDE_BRITISH
			? SIDE_BRITISH : SIDE_AMERICAN;
		position(side, c);
		strbuf_reset(&WHY);
		if (engine_check(D, &S, &(struct action)EVENT_INIT(c), &WHY) != ENGINE_OK) {
			assert_true(WHY.len > 0);
			if (strstr(strbuf_str(&WHY), "unknown qualifier"))
				fail_msg("#%d: %s", c, strbuf_str(&WHY));
		}
	}
}

/* ---- Cards that need rules of later versions ---------------------------- */

static void test_movement_and_battle_events_refused(void **state)
{
	(void)state;
	/* Campaigns and Glover need a general on the map (6.32.A, 7.2). */
	position(SIDE_AMERICAN, MAJOR_CAMPAIGN);
	MUST_DISCARD(MAJOR_CAMPAIGN, "no American general is on the map");
	position(SIDE_AMERICAN, GLOVER);
	MUST_DISCARD(GLOVER, "no American general is on the map");
	/* every battle card but Tarleton's (the exception of 6.33.A) */
	for (int c = 57; c <= D->n_cards; c++) {
		if (!D->cards[c].battle_card || c == TARLETON)
			continue;
		position(D->cards[c].side == CARD_SIDE_BRITISH ? SIDE_BRITISH : SIDE_AMERICAN, c);
		MUST_DISCARD(c, "is a battle card: its event is played in a battle (6.33.A)");
	}
	assert_true(D->cards[KNOX].battle_card && D->cards[MORGAN].battle_card &&
		    D->cards[ARNOLD].battle_card);
}

/* #79 Kosciuszko (R63): the American names one space; the works last
 * the turn and are gone at the next. */
static void test_kosciuszko_works(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, KOSCIUSZKO);
	APPLY(EVENT(KOSCIUSZKO));
	ASSERT_PROMPT(PROMPT_EVENT, SIDE_AMERICAN);
	REFUSED(act(ACT_DONE, 0, -1), "'place SPACE'");
	REFUSED(FLIP("Hartford CT"), "'place SPACE'");
	APPLY(PLACE("Hartford CT"));
	assert_int_equal(S.kosciuszko, SP("Hartford CT") + 1);
	assert_non_null(strstr(strbuf_str(&LOG), "Kosciuszko's engineering works in Hartford CT"));
	assert_true(in_pile(S.discard, S.n_discard, KOSCIUSZKO) ||
		    in_pile(S.removed, S.n_removed, KOSCIUSZKO));
	assert_int_not_equal(S.prompt.kind, PROMPT_EVENT);
}

/* ---- French Alliance track, Regulars, reshuffles ------------------------ */

static void test_steuben_regulars_lost(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, STEUBEN);
	S.french_alliance = 3;
	APPLY(EVENT(STEUBEN));
	assert_false(S.regulars);
	assert_int_equal(S.french_alliance, 5);	/* 12.1: +2 */
	assert_true(in_pile(S.removed, S.n_removed, STEUBEN));
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_steuben_refused_when_already_lost(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, STEUBEN);
	S.regulars = false;
	MUST_DISCARD(STEUBEN, "already lost the Regulars' Advantage (9.41)");
}

static void test_hortelez_and_lafayette_move_the_track(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, HORTELEZ);
	APPLY(EVENT(HORTELEZ));
	assert_int_equal(S.french_alliance, 2);	/* 12.1 */
	assert_false(S.reshuffle);		/* only when discarded (6.1.B) */
	position(SIDE_AMERICAN, LAFAYETTE);
	APPLY(EVENT(LAFAYETTE));
	assert_int_equal(S.french_alliance, 1);
}

static void test_track_events_refused_after_alliance(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, HORTELEZ);
	S.french_allied = true;
	MUST_DISCARD(HORTELEZ, "the French alliance has already happened (12.2.A)");
}

static void test_pitt_reshuffles(void **state)
{
	(void)state;
	position(SIDE_BRITISH, PITT);
	APPLY(EVENT(PITT));
	assert_true(S.reshuffle);	/* 6.1.B: when played */
	assert_true(in_pile(S.discard, S.n_discard, PITT));
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_pitt_after_alliance_must_be_discarded(void **state)
{
	(void)state;
	position(SIDE_BRITISH, PITT);
	S.french_allied = true;		/* the example of 6.32.A */
	MUST_DISCARD(PITT, "the French alliance has happened");
}

static void test_mutinies(void **state)
{
	(void)state;
	position(SIDE_BRITISH, MUTINIES);
	APPLY(EVENT(MUTINIES));
	assert_true(S.mutinies);
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_AMERICAN);
	APPLY(PC_CARD(OPS1_A));
	REFUSED(PLACE("Trenton NJ"), "Line Mutinies");	/* 10.11.A.iv */
}

/* ---- Random draws (6.31, 6.1.D, 6.34.B) --------------------------------- */

static void test_john_paul_jones_discards_at_random(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, JOHN_PAUL_JONES);
	set_hand(SIDE_BRITISH, 3, OPS1_B, OPS2_A, OPS3_A);
	uint64_t before = R.next;
	APPLY(EVENT(JOHN_PAUL_JONES));
	assert_int_equal(S.n_hand[SIDE_BRITISH], 2);
	assert_true(R.next == before + 1);	/* one draw */
	assert_true(in_pile(S.discard, S.n_discard, OPS1_B) ||
		    in_pile(S.discard, S.n_discard, OPS2_A) ||
		    in_pile(S.discard, S.n_discard, OPS3_A));
	assert_true(log_has("at random from the British hand"));
	/* the loser still plays next (6.31) */
	ASSERT_PROMPT(PROMPT_PLAY, SIDE_BRITISH);
}

static void test_john_paul_jones_refused_on_empty_hand(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, JOHN_PAUL_JONES);
	set_hand(SIDE_BRITISH, 0);
	MUST_DISCARD(JOHN_PAUL_JONES, "the British hand is empty");
}

static void test_random_draw_of_franklin_takes_effect(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, JOHN_PAUL_JONES);
	set_hand(SIDE_BRITISH, 1, FRANKLIN);
	APPLY(EVENT(JOHN_PAUL_JONES));
	assert_int_equal(S.french_alliance, 4);	/* 6.34.B, 6.34.C.ii */
	assert_false(in_hand(SIDE_BRITISH, FRANKLIN));
	assert_true(log_has("takes effect at once (6.34.B)"));
}

static void test_random_draw_of_doi_asks_for_placements(void **state)
{
	(void)state;
	position(SIDE_BRITISH, CONWAY);
	set_hand(SIDE_AMERICAN, 1, DOI);
	APPLY(EVENT(CONWAY));
	ASSERT_PROMPT(PROMPT_DOI, SIDE_AMERICAN);
	assert_true(S.reshuffle);	/* played, not discarded (6.1.B) */
	assert_true(in_pile(S.removed, S.n_removed, DOI));
	LEGAL_OK();
	APPLY(PLACE("Boston MA"));
	assert_int_equal(pc("Boston MA"), SIDE_AMERICAN);
}

static void test_conway_cabal(void **state)
{
	(void)state;
	position(SIDE_BRITISH, CONWAY);
	set_hand(SIDE_AMERICAN, 2, OPS1_A, OPS2_A);
	APPLY(EVENT(CONWAY));
	assert_int_equal(S.n_hand[SIDE_AMERICAN], 1);
	assert_true(in_pile(S.discard, S.n_discard, OPS1_A) !=
		    in_pile(S.discard, S.n_discard, OPS2_A));
}

/* ---- PC placement --------------------------------------------------------- */

static void test_paine_one_per_colony(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, PAINE);
	S.congress = -1;	/* events place even so (10.11.A.iv) */
	APPLY(EVENT(PAINE));
	ASSERT_PROMPT(PROMPT_EVENT, SIDE_AMERICAN);
	LEGAL_OK();
	REFUSED(DONE, "not optional");
	APPLY(PLACE("Albany NY"));
	REFUSED(PLACE("Kingston NY"), "once per colony");
	REFUSED(PLACE("Savannah GA"), "British CUs");
	APPLY(PLACE("Trenton NJ"));
	APPLY(PLACE("Richmond VA"));
	assert_int_equal(pc("Richmond VA"), SIDE_AMERICAN);
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_ethan_allen_may_stop(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, ETHAN_ALLEN);
	APPLY(EVENT(ETHAN_ALLEN));
	REFUSED(PLACE("Trenton NJ"), "is not in NH, NY");
	APPLY(PLACE("Concord NH"));
	APPLY(DONE);
	assert_int_equal(pc("Concord NH"), SIDE_AMERICAN);
	ASSERT_OVER(SIDE_AMERICAN);
}

/* Issue 32: an event carried out by the player from its list of primitive
 * actions (by_player): any action of the list in order, a later one
 * passing the ones before; each bounded by its count and qualifiers;
 * every one logged for the opponent. Card #80 is rewritten in memory. */
static void test_by_player_primitives(void **state)
{
	struct data_card saved = D->cards[REVERE];
	struct data_card *c = &D->cards[REVERE];

	(void)state;
	c->by_player = true;
	c->n_effects = 2;
	memset(c->effects, 0, sizeof(c->effects));
	c->effects[0] = (struct data_effect){ .verb = EFFECT_REMOVE_PC, .count = 1,
					      .space = -1, .general = -1 };
	c->effects[1] = (struct data_effect){ .verb = EFFECT_PLACE_PC, .count = 2,
					      .colonies_mask = 1 << D->spaces[SP("Trenton NJ")].colony,
					      .space = -1, .general = -1 };
	position(SIDE_AMERICAN, REVERE);
	put_pc("Boston MA", SIDE_BRITISH);
	APPLY(EVENT(REVERE));
	ASSERT_PROMPT(PROMPT_EVENT, SIDE_AMERICAN);
	{
		struct strbuf p = STRBUF_INIT;
		engine_describe_prompt(D, &S, &p);
		assert_non_null(strstr(p.buf, "remove British PC markers (1 to go), or 'done'; "
					      "then up to 2: 'place SPACE' (place_pc)."));
		strbuf_release(&p);
	}
	REFUSED(PLACE("Albany NY"), "none of the actions left");	/* not NJ */
	APPLY(PLACE("Trenton NJ"));	/* passes the removal */
	REFUSED(REMOVE("Boston MA"), "none of the actions left");	/* passed */
	APPLY(PLACE("Morristown NJ"));
	assert_int_equal(pc("Trenton NJ"), SIDE_AMERICAN);
	assert_int_equal(pc("Morristown NJ"), SIDE_AMERICAN);
	assert_int_equal(pc("Boston MA"), SIDE_BRITISH);
	assert_true(log_has("Morristown NJ"));
	ASSERT_OVER(SIDE_AMERICAN);
	/* and 'done' ends an action early */
	position(SIDE_AMERICAN, REVERE);
	put_pc("Boston MA", SIDE_BRITISH);
	APPLY(EVENT(REVERE));
	APPLY(REMOVE("Boston MA"));
	APPLY(DONE);
	assert_int_equal(pc("Boston MA"), SIDE_NONE);
	ASSERT_OVER(SIDE_AMERICAN);
	*c = saved;
}

static void test_ethan_allen_refused_when_full(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, ETHAN_ALLEN);
	for (int i = 0; i < D->n_spaces; i++) {
		const char *code = D->colonies[D->spaces[i].colony].code;
		if (!strcmp(code, "NY") || !strcmp(code, "NH"))
			S.space[i].pc = SIDE_BRITISH;
	}
	MUST_DISCARD(ETHAN_ALLEN, "no space where it may place an American PC");
}

static void test_dunmore_not_with_american_units(void **state)
{
	(void)state;
	position(SIDE_BRITISH, DUNMORE);
	put_general("Washington", "Richmond VA");
	APPLY(EVENT(DUNMORE));
	REFUSED(PLACE("Richmond VA"), "American unit");
	APPLY(PLACE("Norfolk VA"));	/* no adjacency needed (6.31) */
	APPLY(PLACE("Staunton VA"));
	assert_int_equal(pc("Staunton VA"), SIDE_BRITISH);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_loyalists_carolinas(void **state)
{
	(void)state;
	position(SIDE_BRITISH, LOYALISTS);
	APPLY(EVENT(LOYALISTS));
	REFUSED(PLACE("Savannah GA"), "is not in NC, SC");
	APPLY(PLACE("Camden SC"));
	APPLY(PLACE("Cross Creek NC"));
	APPLY(DONE);
	assert_int_equal(pc("Camden SC"), SIDE_BRITISH);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_hale_one_colony(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, HALE);
	APPLY(EVENT(HALE));
	APPLY(PLACE("Lancaster PA"));
	REFUSED(PLACE("Trenton NJ"), "acts in one colony");
	APPLY(PLACE("York PA"));
	assert_int_equal(pc("York PA"), SIDE_AMERICAN);
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_patrick_henry_virginia(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, PATRICK_HENRY);
	put_cu("Norfolk VA", NATION_BRITISH, 2);
	APPLY(EVENT(PATRICK_HENRY));
	REFUSED(PLACE("Norfolk VA"), "British CUs");
	APPLY(PLACE("Richmond VA"));
	APPLY(PLACE("Staunton VA"));
	APPLY(PLACE("Winchester VA"));
	assert_int_equal(pc("Winchester VA"), SIDE_AMERICAN);
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_clark_fort_detroit(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, CLARK);
	put_pc("Fort Detroit", SIDE_BRITISH);
	APPLY(EVENT(CLARK));	/* no choice: nothing asked */
	assert_int_equal(pc("Fort Detroit"), SIDE_AMERICAN);
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_clark_refused_with_british_cu(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, CLARK);
	put_pc("Fort Detroit", SIDE_BRITISH);
	put_cu("Fort Detroit", NATION_BRITISH, 1);
	MUST_DISCARD(CLARK, "must be discarded (6.32.A)");
}

/* ---- PC removal ----------------------------------------------------------- */

static void test_brant_non_port_three_colonies(void **state)
{
	(void)state;
	position(SIDE_BRITISH, BRANT);
	put_pc("Albany NY", SIDE_AMERICAN);
	put_pc("New York NY", SIDE_AMERICAN);
	put_pc("Trenton NJ", SIDE_AMERICAN);
	put_pc("Lancaster PA", SIDE_AMERICAN);
	put_pc("Staunton VA", SIDE_AMERICAN);
	APPLY(EVENT(BRANT));
	LEGAL_OK();
	REFUSED(REMOVE("New York NY"), "is a port");
	REFUSED(REMOVE("Trenton NJ"), "is not in NY, PA, VA");
	REFUSED(DONE, "not optional");
	APPLY(REMOVE("Albany NY"));
	APPLY(REMOVE("Staunton VA"));
	assert_int_equal(pc("Albany NY"), SIDE_NONE);
	assert_int_equal(pc("Staunton VA"), SIDE_NONE);
	assert_int_equal(pc("Lancaster PA"), SIDE_AMERICAN);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_brant_one_target_ends_by_itself(void **state)
{
	(void)state;
	position(SIDE_BRITISH, BRANT);
	put_pc("Albany NY", SIDE_AMERICAN);
	APPLY(EVENT(BRANT));
	APPLY(REMOVE("Albany NY"));	/* nothing more: the event ends */
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_brant_refused_without_target(void **state)
{
	(void)state;
	position(SIDE_BRITISH, BRANT);
	put_pc("New York NY", SIDE_AMERICAN);	/* a port */
	MUST_DISCARD(BRANT, "no American PC it may remove");
}

static void test_tarleton_strategy_phase_event(void **state)
{
	(void)state;
	position(SIDE_BRITISH, TARLETON);
	int army = SP("Trenton NJ"), next = neighbour(army, -1);
	put_general("Cornwallis", "Trenton NJ");
	put_cu("Trenton NJ", NATION_BRITISH, 3);
	S.space[next].pc = SIDE_AMERICAN;
	put_pc("Boston MA", SIDE_AMERICAN);
	APPLY(EVENT(TARLETON));	/* the exception of 6.33.A */
	REFUSED(REMOVE("Boston MA"), "not adjacent to a British Army");
	APPLY(act(ACT_REMOVE, 0, next));
	assert_int_equal(S.space[next].pc, SIDE_NONE);
	ASSERT_OVER(SIDE_BRITISH);
	assert_true(in_pile(S.discard, S.n_discard, TARLETON));
}

static void test_tarleton_refused_without_army(void **state)
{
	(void)state;
	position(SIDE_BRITISH, TARLETON);
	put_pc("Boston MA", SIDE_AMERICAN);
	MUST_DISCARD(TARLETON, "no American PC it may remove");
}

static void test_foraging_may_stop(void **state)
{
	(void)state;
	position(SIDE_BRITISH, FORAGING);
	int next = neighbour(SP("Trenton NJ"), -1);
	put_general("Howe", "Trenton NJ");
	put_cu("Trenton NJ", NATION_BRITISH, 2);
	S.space[next].pc = SIDE_AMERICAN;
	S.space[neighbour(SP("Trenton NJ"), next)].pc = SIDE_AMERICAN;
	APPLY(EVENT(FORAGING));
	APPLY(act(ACT_REMOVE, 0, next));
	APPLY(DONE);
	assert_int_equal(S.space[next].pc, SIDE_NONE);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_howe_ports_without_american_units(void **state)
{
	(void)state;
	position(SIDE_BRITISH, HOWE);
	put_pc("Boston MA", SIDE_AMERICAN);
	put_pc("Baltimore MD", SIDE_AMERICAN);
	put_pc("Newport RI", SIDE_AMERICAN);
	put_cu("Newport RI", NATION_AMERICAN, 1);
	put_pc("Albany NY", SIDE_AMERICAN);
	APPLY(EVENT(HOWE));
	REFUSED(REMOVE("Newport RI"), "holds an American unit");
	REFUSED(REMOVE("Albany NY"), "is not a port");
	APPLY(REMOVE("Boston MA"));
	APPLY(REMOVE("Baltimore MD"));
	assert_int_equal(pc("Baltimore MD"), SIDE_NONE);
	assert_int_equal(pc("Newport RI"), SIDE_AMERICAN);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_overmountain_men(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, OVERMOUNTAIN);
	put_pc("Camden SC", SIDE_BRITISH);
	put_pc("Cross Creek NC", SIDE_BRITISH);
	put_cu("Cross Creek NC", NATION_BRITISH, 1);
	put_pc("Charleston SC", SIDE_BRITISH);
	APPLY(EVENT(OVERMOUNTAIN));
	REFUSED(REMOVE("Cross Creek NC"), "British CUs");
	REFUSED(REMOVE("Charleston SC"), "is a port");
	APPLY(REMOVE("Camden SC"));	/* the only one: the event ends */
	assert_int_equal(pc("Camden SC"), SIDE_NONE);
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_tory_raids(void **state)
{
	(void)state;
	position(SIDE_BRITISH, TORY_RAIDS);
	put_pc("Lancaster PA", SIDE_AMERICAN);
	put_pc("Philadelphia PA", SIDE_AMERICAN);
	APPLY(EVENT(TORY_RAIDS));
	REFUSED(REMOVE("Philadelphia PA"), "is a port");
	APPLY(REMOVE("Lancaster PA"));
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_tory_raids_refused(void **state)
{
	(void)state;
	position(SIDE_BRITISH, TORY_RAIDS);
	put_pc("Trenton NJ", SIDE_AMERICAN);
	MUST_DISCARD(TORY_RAIDS, "no American PC it may remove");
}

/* ---- CUs -------------------------------------------------------------------- */

static void test_revere_two_cus_with_american_pc(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, REVERE);
	put_pc("Worcester MA", SIDE_AMERICAN);
	APPLY(EVENT(REVERE));
	REFUSED(PLACE("Springfield MA"), "no American PC");
	APPLY(PLACE("Worcester MA"));	/* both CUs in one answer */
	assert_int_equal(cu("Worcester MA", NATION_AMERICAN), 2);
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_revere_refused_without_pc(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, REVERE);
	MUST_DISCARD(REVERE, "no space where it may place American CUs");
}

static void test_morris_with_general(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, MORRIS);
	put_general("Greene", "Trenton NJ");
	APPLY(EVENT(MORRIS));
	REFUSED(PLACE("Hartford CT"), "no American general");
	APPLY(PLACE("Trenton NJ"));
	assert_int_equal(cu("Trenton NJ", NATION_AMERICAN), 3);
	ASSERT_OVER(SIDE_AMERICAN);
}

static void test_morris_refused_without_general(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, MORRIS);
	MUST_DISCARD(MORRIS, "no space where it may place American CUs");
}

static void test_hessians_and_germain_to_the_box(void **state)
{
	(void)state;
	position(SIDE_BRITISH, HESSIANS);
	int box = S.box_cu[NATION_BRITISH];
	APPLY(EVENT(HESSIANS));
	assert_int_equal(S.box_cu[NATION_BRITISH], box + 3);
	position(SIDE_BRITISH, GERMAIN);
	box = S.box_cu[NATION_BRITISH];
	APPLY(EVENT(GERMAIN));
	assert_int_equal(S.box_cu[NATION_BRITISH], box + 2);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_hessians_refused_when_the_mix_is_empty(void **state)
{
	(void)state;
	position(SIDE_BRITISH, HESSIANS);
	if (!D->cu_pool[NATION_BRITISH])
		skip();
	S.box_cu[NATION_BRITISH] = D->cu_pool[NATION_BRITISH] - 1;	/* +1 in Savannah */
	MUST_DISCARD(HESSIANS, "no British CU is left in the counter mix");
}

static void test_valley_forge_two_spaces(void **state)
{
	(void)state;
	position(SIDE_BRITISH, VALLEY_FORGE);
	put_cu("Trenton NJ", NATION_AMERICAN, 3);
	APPLY(EVENT(VALLEY_FORGE));
	ASSERT_PROMPT(PROMPT_EVENT, SIDE_BRITISH);	/* the player of the card chooses (6.31) */
	APPLY(REMOVE("Trenton NJ"));
	REFUSED(REMOVE("Trenton NJ"), "once per space");
	APPLY(REMOVE("Hartford CT"));
	assert_int_equal(cu("Trenton NJ", NATION_AMERICAN), 2);
	assert_int_equal(cu("Hartford CT", NATION_AMERICAN), 0);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_smallpox_one_space(void **state)
{
	(void)state;
	position(SIDE_BRITISH, SMALLPOX);
	put_cu("Trenton NJ", NATION_AMERICAN, 3);
	APPLY(EVENT(SMALLPOX));
	APPLY(REMOVE("Trenton NJ"));
	assert_int_equal(cu("Trenton NJ", NATION_AMERICAN), 1);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_smallpox_last_cu_is_automatic_victory(void **state)
{
	(void)state;
	position(SIDE_BRITISH, SMALLPOX);
	APPLY(EVENT(SMALLPOX));
	APPLY(REMOVE("Hartford CT"));
	assert_true(engine_game_over(&S));	/* 13.1 */
	assert_int_equal(S.winner, SIDE_BRITISH);
}

/* 6.31: "Which specific units ... are removed is entirely up to whomever
 * plays the card": in a stack of American and French CUs the British
 * names the French ones among the losses; no "American CUs first". */
static void test_cu_removal_6_31_card_player_chooses_french(void **state)
{
	(void)state;
	position(SIDE_BRITISH, SMALLPOX);
	S.box_cu[NATION_FRENCH] = 0;		/* the French are on the map */
	put_cu("Trenton NJ", NATION_AMERICAN, 2);
	put_cu("Trenton NJ", NATION_FRENCH, 2);
	APPLY(EVENT(SMALLPOX));
	LEGAL_OK();
	REFUSED(REMOVE_FRENCH("Trenton NJ", 3), "0 to 2");
	APPLY(REMOVE_FRENCH("Trenton NJ", 2));
	assert_int_equal(cu("Trenton NJ", NATION_AMERICAN), 2);
	assert_int_equal(cu("Trenton NJ", NATION_FRENCH), 0);
	assert_true(log_has("2 of them French"));
	ASSERT_OVER(SIDE_BRITISH);
	/* One American CU with two French: two go, at least one French;
	 * 'remove' alone (no French) cannot be. */
	position(SIDE_BRITISH, SMALLPOX);
	S.box_cu[NATION_FRENCH] = 0;
	put_cu("Trenton NJ", NATION_AMERICAN, 1);
	put_cu("Trenton NJ", NATION_FRENCH, 2);
	APPLY(EVENT(SMALLPOX));
	REFUSED(REMOVE("Trenton NJ"), "name the French ones among them, 1 to 2");
	APPLY(REMOVE_FRENCH("Trenton NJ", 1));
	assert_int_equal(cu("Trenton NJ", NATION_AMERICAN), 0);
	assert_int_equal(cu("Trenton NJ", NATION_FRENCH), 1);
	/* A number names French CUs only. */
	position(SIDE_BRITISH, SMALLPOX);
	put_cu("Trenton NJ", NATION_AMERICAN, 3);
	APPLY(EVENT(SMALLPOX));
	REFUSED(REMOVE_FRENCH("Trenton NJ", 1), "0 of them French");
	APPLY(REMOVE("Trenton NJ"));
	assert_int_equal(cu("Trenton NJ", NATION_AMERICAN), 1);
}

static void test_militia_not_with_general(void **state)
{
	(void)state;
	position(SIDE_BRITISH, MILITIA);
	put_cu("Trenton NJ", NATION_AMERICAN, 2);
	put_general("Washington", "Trenton NJ");
	APPLY(EVENT(MILITIA));
	REFUSED(REMOVE("Trenton NJ"), "American general");
	APPLY(REMOVE("Hartford CT"));
	assert_int_equal(cu("Hartford CT", NATION_AMERICAN), 0);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_militia_refused(void **state)
{
	(void)state;
	position(SIDE_BRITISH, MILITIA);
	put_general("Washington", "Hartford CT");
	MUST_DISCARD(MILITIA, "no American CU it may remove");
}

static void test_spain_needs_the_european_war(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, SPAIN);
	MUST_DISCARD(SPAIN, "the European War is not in effect (12.2.B.iii)");
	S.french_allied = true;
	S.alliance_this_turn = true;	/* not before the End Phase */
	MUST_DISCARD(SPAIN, "the European War is not in effect");
}

static void test_spain_during_the_european_war(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, SPAIN);
	S.french_allied = true;
	put_cu("New York NY", NATION_BRITISH, 3);
	APPLY(EVENT(SPAIN));
	ASSERT_PROMPT(PROMPT_EVENT, SIDE_AMERICAN);
	APPLY(REMOVE("New York NY"));
	APPLY(REMOVE("New York NY"));
	assert_int_equal(cu("New York NY", NATION_BRITISH), 1);
	ASSERT_OVER(SIDE_AMERICAN);
}

/* ---- The French Navy ------------------------------------------------------ */

static void test_destaing_needs_the_navy(void **state)
{
	(void)state;
	position(SIDE_BRITISH, DESTAING);
	MUST_DISCARD(DESTAING, "the French Navy is not in a Blockade Zone (12.3)");
}

static void test_destaing_sends_the_navy_away(void **state)
{
	(void)state;
	position(SIDE_BRITISH, DESTAING);
	S.french_allied = true;
	S.french_navy = 0;
	APPLY(EVENT(DESTAING));
	assert_int_equal(S.french_navy, NAVY_TURN_TRACK);
	ASSERT_OVER(SIDE_BRITISH);
}

static void test_rodney(void **state)
{
	(void)state;
	position(SIDE_BRITISH, RODNEY);
	S.french_allied = true;
	S.alliance_this_turn = true;
	S.french_navy = 0;
	MUST_DISCARD(RODNEY, "the European War is not in effect");
	S.alliance_this_turn = false;
	APPLY(EVENT(RODNEY));
	assert_int_equal(S.french_navy, NAVY_TURN_TRACK);
}

static void test_de_grasse(void **state)
{
	(void)state;
	position(SIDE_AMERICAN, DE_GRASSE);
	MUST_DISCARD(DE_GRASSE, "the French alliance has not happened");
	S.french_allied = true;
	S.french_navy = NAVY_TURN_TRACK;
	APPLY(EVENT(DE_GRASSE));
	ASSERT_PROMPT(PROMPT_NAVY, SIDE_AMERICAN);
	assert_int_equal(S.prompt.step, 2);
	APPLY(act(ACT_NAVY, 0, data_zone_index(D, "Chesapeake")));
	assert_int_equal(S.french_navy, data_zone_index(D, "Chesapeake"));
	assert_true(S.prompt.kind == PROMPT_PLAY);
}

/* ---- The prompt in the state file ----------------------------------------- */

static void test_event_prompt_round_trip(void **state)
{
	struct strbuf pub = STRBUF_INIT, priv = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;

	(void)state;
	position(SIDE_BRITISH, VALLEY_FORGE);
	put_cu("Trenton NJ", NATION_AMERICAN, 3);
	APPLY(EVENT(VALLEY_FORGE));
	APPLY(REMOVE("Trenton NJ"));
	state_write_public(&S, D, NULL, &pub);
	state_write_private(&S, D, &priv);
	assert_true(strstr(strbuf_str(&pub), "kind: event") != NULL);
	assert_true(strstr(strbuf_str(&pub), "spaces_done: [Trenton NJ]") != NULL);
	if (state_read(&back, D, pub.buf, pub.len, priv.buf, priv.len, &err))
		fail_msg("%s", strbuf_str(&err));
	assert_int_equal(back.prompt.kind, PROMPT_EVENT);
	assert_int_equal(back.prompt.step, S.prompt.step);
	assert_true(back.prompt.spaces_done[0] == S.prompt.spaces_done[0] &&
		    back.prompt.spaces_done[1] == S.prompt.spaces_done[1]);
	strbuf_release(&pub);
	strbuf_release(&priv);
	strbuf_release(&err);
}

static void test_describe_event_prompt(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	position(SIDE_AMERICAN, ETHAN_ALLEN);
	APPLY(EVENT(ETHAN_ALLEN));
	engine_describe_prompt(D, &S, &out);
	assert_string_equal(strbuf_str(&out),
		"American: event #82 Ethan Allen and the Green Mountain Boys: "
		"place American PC markers (2 to go), or 'done'.");
	strbuf_release(&out);
}

int main(void)
{
#define T(f) cmocka_unit_test(f)
	const struct CMUnitTest tests[] = {
		T(test_every_machine_form_parses),
		T(test_movement_and_battle_events_refused),
		T(test_kosciuszko_works),
		T(test_steuben_regulars_lost),
		T(test_steuben_refused_when_already_lost),
		T(test_hortelez_and_lafayette_move_the_track),
		T(test_track_events_refused_after_alliance),
		T(test_pitt_reshuffles),
		T(test_pitt_after_alliance_must_be_discarded),
		T(test_mutinies),
		T(test_john_paul_jones_discards_at_random),
		T(test_john_paul_jones_refused_on_empty_hand),
		T(test_random_draw_of_franklin_takes_effect),
		T(test_random_draw_of_doi_asks_for_placements),
		T(test_conway_cabal),
		T(test_paine_one_per_colony),
		T(test_ethan_allen_may_stop),
		T(test_by_player_primitives),
		T(test_ethan_allen_refused_when_full),
		T(test_dunmore_not_with_american_units),
		T(test_loyalists_carolinas),
		T(test_hale_one_colony),
		T(test_patrick_henry_virginia),
		T(test_clark_fort_detroit),
		T(test_clark_refused_with_british_cu),
		T(test_brant_non_port_three_colonies),
		T(test_brant_one_target_ends_by_itself),
		T(test_brant_refused_without_target),
		T(test_tarleton_strategy_phase_event),
		T(test_tarleton_refused_without_army),
		T(test_foraging_may_stop),
		T(test_howe_ports_without_american_units),
		T(test_overmountain_men),
		T(test_tory_raids),
		T(test_tory_raids_refused),
		T(test_revere_two_cus_with_american_pc),
		T(test_revere_refused_without_pc),
		T(test_morris_with_general),
		T(test_morris_refused_without_general),
		T(test_hessians_and_germain_to_the_box),
		T(test_hessians_refused_when_the_mix_is_empty),
		T(test_valley_forge_two_spaces),
		T(test_smallpox_one_space),
		T(test_cu_removal_6_31_card_player_chooses_french),
		T(test_smallpox_last_cu_is_automatic_victory),
		T(test_militia_not_with_general),
		T(test_militia_refused),
		T(test_spain_needs_the_european_war),
		T(test_spain_during_the_european_war),
		T(test_destaing_needs_the_navy),
		T(test_destaing_sends_the_navy_away),
		T(test_rodney),
		T(test_de_grasse),
		T(test_event_prompt_round_trip),
		T(test_describe_event_prompt),
	};
#undef T
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
