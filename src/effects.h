/*
 * effects.h - the words of an event's machine form (docs/data.md, "The
 * machine form of an event"): its verbs, the qualifiers of `where`, and
 * the code handlers. One table each, read by the loader (which compiles
 * every effect when the data loads, so that a typo is an error of `data
 * --check` with its file, line and column), by the engine (which works on
 * the compiled form and never reads a string of the data) and by the test
 * that holds docs/data.md to the same lists.
 *
 * Ownership: the tables are static and read-only.
 */
#ifndef POSTRIDER_EFFECTS_H
#define POSTRIDER_EFFECTS_H

enum effect_verb {
	EFFECT_NONE = 0,		/* never in loaded data */
	EFFECT_PLACE_PC,
	EFFECT_REMOVE_PC,
	EFFECT_FLIP_PC,
	EFFECT_PLACE_CU,
	EFFECT_REMOVE_CU,
	EFFECT_REQUIRE,
	EFFECT_FRENCH_ALLIANCE,
	EFFECT_RESHUFFLE,
	EFFECT_OPPONENT_DISCARDS_RANDOM,
	EFFECT_DRAW,
	EFFECT_ACTIVATE_GENERALS,
	EFFECT_ACTIVATE_GENERAL,
	EFFECT_BATTLE_DRM,
	EFFECT_WAR_ENDS,
	EFFECT_LOSE_REGULARS,
	EFFECT_REMOVE_GENERAL,
	EFFECT_REMOVE_FRENCH_NAVY,
	EFFECT_MOVE_FRENCH_NAVY,
	EFFECT_NO_AMERICAN_PC_PLACEMENT,
	EFFECT__COUNT
};

/* What a verb's `where:` holds. */
enum effect_where {
	WHERE_QUALIFIERS,	/* qualifiers (below) and at most one space */
	WHERE_GENERAL,		/* one general's name (remove_general) */
};

struct effect_verb_info {
	const char *name;	/* as written in cards.yaml */
	enum effect_where where;
	int max_count;		/* the largest `count:` (a campaign activates
				   at most 3 generals, 7.2); 0: 20 */
};

/* Indexed by enum effect_verb; [EFFECT_NONE] has no name. */
extern const struct effect_verb_info effect_verbs[EFFECT__COUNT];

/* The qualifiers of `where`, as bits of struct data_effect's quals. */
enum effect_qual {
	QUAL_MAY = 1u << 0,			/* optional ("may", "up to") */
	QUAL_PORT = 1u << 1,
	QUAL_NON_PORT = 1u << 2,
	QUAL_ADJ_BRITISH_ARMY = 1u << 3,	/* adjacent to a British Army */
	QUAL_NO_AMERICAN_UNIT = 1u << 4,
	QUAL_NO_BRITISH_CU = 1u << 5,
	QUAL_AMERICAN_PC = 1u << 6,
	QUAL_AMERICAN_GENERAL = 1u << 7,
	QUAL_NO_GENERAL = 1u << 8,		/* no general of the CUs' side */
	QUAL_ONE_SPACE = 1u << 9,		/* all of them in one space */
	QUAL_ONE_PER_SPACE = 1u << 10,
	QUAL_ONE_COLONY = 1u << 11,
	QUAL_ONE_PER_COLONY = 1u << 12,
	QUAL_EACH_COLONY = 1u << 13,		/* Declaration of Independence */
	QUAL_BRITISH_REINFORCEMENTS = 1u << 14,
	QUAL_EUROPEAN_WAR = 1u << 15,		/* conditions */
	QUAL_BEFORE_ALLIANCE = 1u << 16,
	QUAL_AFTER_ALLIANCE = 1u << 17,
	QUAL_THIS_TURN = 1u << 18,
};

struct effect_qual_info {
	const char *name;
	unsigned bit;
};

/* Every qualifier, in the order of docs/data.md; ends with { NULL, 0 }. */
extern const struct effect_qual_info effect_quals[];

/* Events no machine form expresses, named by `handler:`. */
enum card_handler {
	HANDLER_NONE = 0,
	HANDLER_KOSCIUSZKO,	/* #79: the American names the space */
	HANDLER__COUNT
};

/* Indexed by enum card_handler; [HANDLER_NONE] is NULL. */
extern const char *const card_handlers[HANDLER__COUNT];

/* The verb called name, or EFFECT_NONE. */
enum effect_verb effect_verb_lookup(const char *name);
/* The bit of the qualifier called name, or 0. */
unsigned effect_qual_lookup(const char *name);
/* The handler called name, or HANDLER_NONE. */
enum card_handler card_handler_lookup(const char *name);

#endif
