/*
 * test_report.c - what the reports say before a choice (src/report.c):
 * the numbers of a battle as they stand, the warnings, and that a side's
 * own cards are named only in its own report.
 */
#include "engine_fixture.h"
#include "report.h"

enum {
	OPS1_D = 4, OPS2_A = 17,
	JOSEPH_BRANT = 71,		/* British event */
	MORGANS_RIFLEMEN = 74,		/* American battle card */
};

static struct strbuf OUT = STRBUF_INIT;

static int new_game(void **state)
{
	(void)state;
	strbuf_reset(&LOG);
	strbuf_reset(&WHY);
	strbuf_reset(&OUT);
	rng_fixed(&R, 1);
	engine_new_game(D, &S, &R, &LOG);
	return 0;
}

static void clear_board(void)
{
	fixture_clear_board();
	/* one CU each far away, so that no automatic victory ends it (13.1) */
	S.space[SP("Hillsborough NC")].cu[NATION_BRITISH] = 1;
	S.space[SP("Concord NH")].cu[NATION_AMERICAN] = 1;
}

/* The British plays the first card of the turn. */
static void british_to_play(void)
{
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_PLAY;
	S.prompt.side = SIDE_BRITISH;
	S.first = S.active = SIDE_BRITISH;
}

static void apply_at(struct action a, int line)
{
	strbuf_reset(&WHY);
	if (engine_apply(D, &S, &a, &R, &LOG, &WHY) != ENGINE_OK)
		fail_msg("line %d: refused: %s", line, strbuf_str(&WHY));
}
#define APPLY(a) apply_at((a), __LINE__)

static struct action act(enum action_kind kind, int card, int space, int general)
{
	struct action a = ACTION_INIT;

	a.kind = kind;
	a.card = card;
	a.space = space;
	a.general = general;
	return a;
}

static void has_at(const char *needle, int line)
{
	if (!strstr(strbuf_str(&OUT), needle))
		fail_msg("line %d: the report lacks \"%s\":\n%s", line, needle, strbuf_str(&OUT));
}
#define HAS(needle) has_at((needle), __LINE__)

static void lacks_at(const char *needle, int line)
{
	if (strstr(strbuf_str(&OUT), needle))
		fail_msg("line %d: the report has \"%s\":\n%s", line, needle, strbuf_str(&OUT));
}
#define LACKS(needle) lacks_at((needle), __LINE__)

/* The numbers for side now, unwrapped (one line, single spaces). */
static void numbers(enum side side)
{
	struct strbuf raw = STRBUF_INIT;

	report_numbers(D, &S, side, &raw);
	strbuf_reset(&OUT);
	for (const char *p = strbuf_str(&raw); *p; p++) {
		if (*p == '\n' || *p == ' ') {
			while (p[1] == ' ' || p[1] == '\n')
				p++;
			strbuf_addch(&OUT, ' ');
		} else {
			strbuf_addch(&OUT, *p);
		}
	}
	strbuf_release(&raw);
}

/*
 * The 9.63 example (Burgoyne from Ticonderoga, an American PC, into
 * Saratoga against Gates): before step 1 each side's DRM so far, the
 * attacker's surrender if he loses, and each side's own cards only in
 * its own report.
 */
static void test_battle_numbers_9_63(void **state)
{
	(void)state;
	clear_board();
	set_hand(SIDE_BRITISH, 2, OPS2_A, JOSEPH_BRANT);
	set_hand(SIDE_AMERICAN, 2, MORGANS_RIFLEMEN, OPS1_D);
	british_to_play();
	S.space[SP("Ticonderoga NY")].cu[NATION_BRITISH] = 5;
	S.space[SP("Ticonderoga NY")].pc = SIDE_AMERICAN;
	S.general[GEN("Burgoyne")] = SP("Ticonderoga NY");
	S.space[SP("Saratoga NY")].cu[NATION_AMERICAN] = 5;
	S.general[GEN("Gates")] = SP("Saratoga NY");
	S.space[SP("Albany NY")].pc = SIDE_AMERICAN;
	S.regulars = true;

	APPLY(act(ACT_ACTIVATE, OPS2_A, -1, GEN("Burgoyne")));
	assert_int_equal(S.prompt.kind, PROMPT_MOVE);
	/* Ticonderoga is Winter Quarters: no warning for the British */
	numbers(SIDE_BRITISH);
	LACKS("Winter:");
	APPLY(act(ACT_TO, 0, SP("Saratoga NY"), -1));
	assert_int_equal(S.prompt.kind, PROMPT_RETREAT_BEFORE);
	APPLY(act(ACT_STAND, 0, -1, -1));
	assert_int_equal(S.prompt.kind, PROMPT_BATTLE_CARD);
	assert_int_equal(S.prompt.side, SIDE_BRITISH);

	numbers(SIDE_BRITISH);
	HAS("British (attacking): 5 CUs +5, Burgoyne's Actual Battle Rating +2 on a die of 4-6 or +1 on 1-3 (Battle Rating 2, 9.3), +1 Regulars (9.41): +8 or +7 in all.");
	HAS("Americans (defending): 5 CUs +5, Gates's Actual Battle Rating +2 on a die of 4-6 or +1 on 1-3 (Battle Rating 2, 9.3), +1 militia (9.43): +8 or +7 in all.");
	HAS("Warning: if the British lose, they surrender: the attacker must retreat to Ticonderoga NY, where it cannot go (9.63.A).");
	HAS("Your choice in step 1: 'discard CARD' +1 with 71; 'none' +0.");
	/* what the card would cost as an event, not only its number */
	HAS("Mohawk and Loyalist raiders burn the frontier");
	/* the American's report at the same moment: public numbers only */
	numbers(SIDE_AMERICAN);
	HAS("+8 or +7 in all.");
	HAS("(9.63.A)");
	LACKS("Your choice");
	LACKS("71");
	LACKS("74");

	APPLY(act(ACT_DISCARD, JOSEPH_BRANT, -1, -1));
	assert_int_equal(S.prompt.kind, PROMPT_BATTLE_CARD);
	assert_int_equal(S.prompt.side, SIDE_AMERICAN);
	numbers(SIDE_AMERICAN);
	/* the British discard is public now and counted */
	HAS("+1 Regulars (9.41), +1 discard (9.45): +9 or +8 in all.");
	HAS("Your choice in step 1: 'battle 74' +2 (Morgan's Riflemen); 'discard CARD' +1 with 74; 'none' +0.");
	HAS("Battle card: Morgan's marksmen give the Americans +2 in this battle");
	numbers(SIDE_BRITISH);
	LACKS("Your choice");
	LACKS("74");
	LACKS("Morgan");
}

enum { PAUL_REVERE = 80 };

/* The exchange (6.32.C) names the discarded event with what it does, in
 * both reports: the card lies face up on the discard pile. */
static void test_exchange_card_text(void **state)
{
	(void)state;
	clear_board();
	set_hand(SIDE_BRITISH, 2, OPS2_A, JOSEPH_BRANT);
	set_hand(SIDE_AMERICAN, 1, OPS1_D);
	take_card(PAUL_REVERE);
	S.discard[S.n_discard++] = PAUL_REVERE;
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_EXCHANGE;
	S.prompt.side = SIDE_BRITISH;
	S.prompt.card = PAUL_REVERE;
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
		numbers(sd);
		HAS("#80 Paul Revere's Ride");
		HAS("The alarm spreads: place two American CUs in one space");
		LACKS("Mohawk");	/* never a card of the British hand */
	}
}

/* A British army about to end its move north of the Winter Attrition
 * Line outside Winter Quarters is told what the winter would take; the
 * status says it for every space. */
static void test_winter_warning(void **state)
{
	(void)state;
	clear_board();
	set_hand(SIDE_BRITISH, 1, OPS2_A);
	set_hand(SIDE_AMERICAN, 1, OPS1_D);
	british_to_play();
	S.space[SP("Ticonderoga NY")].cu[NATION_BRITISH] = 5;
	S.general[GEN("Burgoyne")] = SP("Ticonderoga NY");
	S.space[SP("Saratoga NY")].pc = SIDE_BRITISH;
	assert_false(D->spaces[SP("Saratoga NY")].winter_quarters);
	assert_false(D->spaces[SP("Saratoga NY")].south_of_winter_line);

	APPLY(act(ACT_ACTIVATE, OPS2_A, -1, GEN("Burgoyne")));
	APPLY(act(ACT_TO, 0, SP("Saratoga NY"), -1));
	assert_int_equal(S.prompt.kind, PROMPT_MOVE);
	numbers(SIDE_BRITISH);
	HAS("Winter: if the army stays in Saratoga NY (not Winter Quarters, north of the Winter Attrition Line), the Winter Attrition at the end of the turn takes 2 of its 5 CUs (11.1).");
	numbers(SIDE_AMERICAN);
	LACKS("Winter:");

	strbuf_reset(&OUT);
	report_board(D, &S, &OUT);
	HAS("If winter came now (11.0, generals stay): Concord NH loses its one\nAmerican CU on a die of 1-3; Saratoga NY loses 2 of 5 British CUs.");
}

/* The status lists the open piles (6.1.C, 7.1.B, 8.0), face up for both. */
static void test_status_cards(void **state)
{
	(void)state;
	clear_board();
	take_card(OPS1_D);
	S.queue[SIDE_BRITISH][S.n_queue[SIDE_BRITISH]++] = OPS1_D;
	take_card(OPS2_A);
	S.discard[S.n_discard++] = OPS2_A;
	take_card(JOSEPH_BRANT);
	S.discard[S.n_discard++] = JOSEPH_BRANT;
	take_card(MORGANS_RIFLEMEN);
	S.reinf_cards[SIDE_AMERICAN][S.n_reinf_cards[SIDE_AMERICAN]++] = MORGANS_RIFLEMEN;
	S.space[SP("Fort Detroit")].cu[NATION_BRITISH] = 1;
	S.space[SP("Charleston SC")].pc = SIDE_AMERICAN;
	strbuf_reset(&OUT);
	report_board(D, &S, &OUT);
	/* the terrain of every space listed, the neighbours of one with units
	 * (a Wilderness Connection marked; one no source confirms marked
	 * "(?)", issue 32) */
	HAS("  Fort Detroit [Winter Quarters]: no PC; 1 British CU.\n"
	    "      next to: Fort Niagara NY (?), ~Bassett Town PA\n");
	HAS("  Charleston SC [fortified port, Winter Quarters, Carolinas blockade\n"
	    "    zone, south of the Winter Attrition Line]: American PC.\n");
	HAS("Discard pile (6.1.C; oldest first): #17 (2 OPS), #71 Joseph Brant");
	/* #71's count has no source: marked; Morgan's Riflemen's title and
	 * effect have one (9.63): not marked */
	HAS("an Iroquois Raid (?).\n");
	HAS("(#74\nMorgan's Riflemen); British");
	HAS("Removed from the game: none.");
	HAS("Operations Queues (face up, 7.1.B): American none; British\n#4 (1 OPS) = 1 OPS.\n");
	HAS("American 1 of 2 used (#74\nMorgan's Riflemen); British 0 of 1 used.\n");
}

/* Issue 17's wording slips: a general whose last CU is lost retreats
 * alone ("Burgoyne, with no CU left, retreats", never "Burgoyne and 0
 * CUs retreat"). */
static void test_retreat_wording(void **state)
{
	(void)state;
	clear_board();
	set_hand(SIDE_BRITISH, 1, OPS2_A);
	set_hand(SIDE_AMERICAN, 1, OPS1_D);
	british_to_play();
	S.space[SP("Ticonderoga NY")].cu[NATION_BRITISH] = 1;
	S.space[SP("Ticonderoga NY")].pc = SIDE_BRITISH;
	S.general[GEN("Burgoyne")] = SP("Ticonderoga NY");
	S.space[SP("Saratoga NY")].cu[NATION_AMERICAN] = 5;
	S.general[GEN("Gates")] = SP("Saratoga NY");
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
		S.react[sd][REACT_BATTLE] = REACT_NEVER;
		S.react[sd][REACT_RETREAT] = REACT_NEVER;
	}
	/* ratings 1 and 6, combat 1 and 6, the loser's losses 1, the winner's 6 */
	R.forced[0] = 1, R.forced[1] = 6, R.forced[2] = 1, R.forced[3] = 6;
	R.forced[4] = 1, R.forced[5] = 6;
	R.n_forced = 6;
	R.forced_pos = 0;
	APPLY(act(ACT_ACTIVATE, OPS2_A, -1, GEN("Burgoyne")));
	APPLY(act(ACT_TO, 0, SP("Saratoga NY"), -1));
	if (S.prompt.kind == PROMPT_RETREAT)
		APPLY(act(ACT_RETREAT, 0, SP("Ticonderoga NY"), -1));
	strbuf_reset(&OUT);
	strbuf_addstr(&OUT, strbuf_str(&LOG));
	HAS("Burgoyne, with no CU left, retreats to Ticonderoga NY (9.61).");
	LACKS("0 CUs retreat");
}

/* The grouped orders: an activation's OPS with the queue's added, said as
 * such; the Committees of Correspondence by colony. */
static void test_grouped_orders(void **state)
{
	(void)state;
	strbuf_reset(&OUT);
	report_options_grouped(D, &S, &OUT);	/* the set-up: 13 colonies */
	HAS("  place SPACE               place a PC\n        SPACE: one of these, by colony:\n"
	    "          NH: Portsmouth NH, Concord NH, Norwich NH\n");
	HAS("          GA: Augusta GA, Savannah GA, St. Mary's GA\n");

	clear_board();
	set_hand(SIDE_BRITISH, 1, OPS2_A);
	set_hand(SIDE_AMERICAN, 1, MORGANS_RIFLEMEN);
	take_card(OPS1_D);
	S.queue[SIDE_BRITISH][S.n_queue[SIDE_BRITISH]++] = OPS1_D;
	british_to_play();
	S.general[GEN("Carleton")] = SP("Quebec");	/* strategy 3 */
	S.space[SP("Quebec")].cu[NATION_BRITISH] = 2;
	strbuf_reset(&OUT);
	report_options_grouped(D, &S, &OUT);
	HAS("  move 17 Carleton\n        activate a general with an OPS card (7.1):\n"
	    "        #17 (2 OPS + 1 in the queue = 3)\n");
	LACKS("74");	/* never the other side's card */
}

/* The prompt now, in words, into OUT. */
static void describe(void)
{
	strbuf_reset(&OUT);
	engine_describe_prompt(D, &S, &OUT);
}

/*
 * A prompt says what a choice causes when the rules make it certain, and
 * offers no answer that cannot be taken (issue 29): no 'sail PORT' away
 * from a port; the battle an interception leads to; a retreat onto a
 * general of one's own side sends one to the box.
 */
static void test_prompt_consequences(void **state)
{
	(void)state;
	clear_board();
	set_hand(SIDE_BRITISH, 2, OPS2_A, JOSEPH_BRANT);
	set_hand(SIDE_AMERICAN, 1, OPS1_D);
	british_to_play();
	S.space[SP("Ticonderoga NY")].cu[NATION_BRITISH] = 5;
	S.general[GEN("Burgoyne")] = SP("Ticonderoga NY");
	S.space[SP("Albany NY")].cu[NATION_AMERICAN] = 3;
	S.general[GEN("Gates")] = SP("Albany NY");
	S.space[SP("Saratoga NY")].pc = SIDE_AMERICAN;	/* 7.8.B */

	APPLY(act(ACT_ACTIVATE, OPS2_A, -1, GEN("Burgoyne")));
	assert_int_equal(S.prompt.kind, PROMPT_MOVE);
	describe();
	HAS("'to SPACE'");
	LACKS("sail");		/* Ticonderoga is no port */

	APPLY(act(ACT_TO, 0, SP("Saratoga NY"), -1));
	assert_int_equal(S.prompt.kind, PROMPT_INTERCEPT);
	describe();
	HAS("If one succeeds, the British movement ends and a battle follows in Saratoga NY: "
	    "the British attack (Burgoyne, 5 CUs) the intercepting Army (up to 5 CUs), "
	    "the Americans +1 for the interception (7.8.C, 9.46).");

	/* Gates attacked in Albany, Arnold in Pittsfield, Washington in
	 * Kingston: where a retreat before battle would bring two together */
	new_game(NULL);
	clear_board();
	set_hand(SIDE_BRITISH, 2, OPS2_A, JOSEPH_BRANT);
	set_hand(SIDE_AMERICAN, 1, OPS1_D);
	british_to_play();
	S.space[SP("Saratoga NY")].cu[NATION_BRITISH] = 5;
	S.general[GEN("Burgoyne")] = SP("Saratoga NY");
	S.space[SP("Albany NY")].cu[NATION_AMERICAN] = 3;
	S.general[GEN("Gates")] = SP("Albany NY");
	S.space[SP("Albany NY")].pc = SIDE_AMERICAN;
	S.general[GEN("Arnold")] = SP("Pittsfield MA");
	S.space[SP("Pittsfield MA")].pc = SIDE_AMERICAN;
	S.general[GEN("Washington")] = SP("Kingston NY");
	S.space[SP("Kingston NY")].cu[NATION_AMERICAN] = 1;
	APPLY(act(ACT_ACTIVATE, OPS2_A, -1, GEN("Burgoyne")));
	APPLY(act(ACT_TO, 0, SP("Albany NY"), -1));
	if (S.prompt.kind == PROMPT_INTERCEPT)
		APPLY(act(ACT_PASS, 0, -1, -1));
	assert_int_equal(S.prompt.kind, PROMPT_RETREAT_BEFORE);
	describe();
	HAS("To Pittsfield MA, where Arnold stands, two generals would meet: you would send one of them to the Reinforcements box (7.4.C).");
	HAS("To Kingston NY, where Washington stands, two generals would meet: Gates would go to the Reinforcements box (Washington never does, 7.4.C).");
}

/* PC actions name only what can be done: the Congress dispersed, the
 * American may flip but not place (10.11.A.iv). */
static void test_pc_only_flip(void **state)
{
	(void)state;
	clear_board();
	set_hand(SIDE_AMERICAN, 1, OPS2_A);
	memset(&S.prompt, 0, sizeof(S.prompt));
	S.prompt.kind = PROMPT_PC;
	S.prompt.side = SIDE_AMERICAN;
	S.prompt.card = OPS2_A;
	S.prompt.left = 2;
	S.congress = -1;
	S.space[SP("Trenton NJ")].pc = SIDE_BRITISH;
	S.general[GEN("Washington")] = SP("Trenton NJ");
	S.space[SP("Trenton NJ")].cu[NATION_AMERICAN] = 2;
	describe();
	HAS("American: flip PC markers with #17 (2 actions left), or 'done'.");
	LACKS("place");
	S.general[GEN("Washington")] = SP("Concord NH");
	describe();
	HAS("no PC marker can be placed or flipped now");
}

/* The events a report's story names, with their text, except those of
 * the reader's own hand (the hand shows them) and the OPS cards. */
static void test_cards_named(void **state)
{
	(void)state;
	set_hand(SIDE_AMERICAN, 1, MORGANS_RIFLEMEN);
	strbuf_reset(&OUT);
	report_cards_named(D, &S, SIDE_AMERICAN,
			   "British plays the event #71 Joseph Brant Leads an Iroquois Raid.\n"
			   "The British discard #80 Paul Revere's Ride in the battle.\n"
			   "American plays #74 Morgan's Riflemen; #4 (1 OPS); #71 again.\n", &OUT);
	HAS("  #71 Joseph Brant Leads an Iroquois Raid");
	HAS("Mohawk and Loyalist raiders");
	HAS("  #80 Paul Revere's Ride");
	HAS("The alarm spreads");
	LACKS("Morgan's marksmen");
	LACKS("#4 ");
	/* each once */
	assert_null(strstr(strstr(strbuf_str(&OUT), "#71") + 1, "#71"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_battle_numbers_9_63, new_game),
		cmocka_unit_test_setup(test_winter_warning, new_game),
		cmocka_unit_test_setup(test_status_cards, new_game),
		cmocka_unit_test_setup(test_retreat_wording, new_game),
		cmocka_unit_test_setup(test_grouped_orders, new_game),
		cmocka_unit_test_setup(test_exchange_card_text, new_game),
		cmocka_unit_test_setup(test_cards_named, new_game),
		cmocka_unit_test_setup(test_prompt_consequences, new_game),
		cmocka_unit_test_setup(test_pc_only_flip, new_game),
	};
	int r = cmocka_run_group_tests(tests, group_setup, group_teardown);

	strbuf_release(&OUT);
	return r;
}
