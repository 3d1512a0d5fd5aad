/*
 * effects.c - the tables of effects.h.
 */
#include "effects.h"

#include <stddef.h>
#include <string.h>

const struct effect_verb_info effect_verbs[EFFECT__COUNT] = {
	[EFFECT_PLACE_PC] = { .name = "place_pc", .where = WHERE_QUALIFIERS },
	[EFFECT_REMOVE_PC] = { .name = "remove_pc", .where = WHERE_QUALIFIERS },
	[EFFECT_FLIP_PC] = { .name = "flip_pc", .where = WHERE_QUALIFIERS },
	[EFFECT_PLACE_CU] = { .name = "place_cu", .where = WHERE_QUALIFIERS },
	[EFFECT_REMOVE_CU] = { .name = "remove_cu", .where = WHERE_QUALIFIERS },
	[EFFECT_REQUIRE] = { .name = "require", .where = WHERE_QUALIFIERS },
	[EFFECT_FRENCH_ALLIANCE] = { .name = "french_alliance", .where = WHERE_QUALIFIERS },
	[EFFECT_RESHUFFLE] = { .name = "reshuffle", .where = WHERE_QUALIFIERS },
	[EFFECT_OPPONENT_DISCARDS_RANDOM] = { .name = "opponent_discards_random", .where = WHERE_QUALIFIERS },
	[EFFECT_DRAW] = { .name = "draw", .where = WHERE_QUALIFIERS },
	[EFFECT_ACTIVATE_GENERALS] = { .name = "activate_generals", .where = WHERE_QUALIFIERS, .max_count = 3 },
	[EFFECT_ACTIVATE_GENERAL] = { .name = "activate_general", .where = WHERE_QUALIFIERS, .max_count = 1 },
	[EFFECT_BATTLE_DRM] = { .name = "battle_drm", .where = WHERE_QUALIFIERS },
	[EFFECT_WAR_ENDS] = { .name = "war_ends", .where = WHERE_QUALIFIERS },
	[EFFECT_LOSE_REGULARS] = { .name = "lose_regulars", .where = WHERE_QUALIFIERS },
	[EFFECT_REMOVE_GENERAL] = { .name = "remove_general", .where = WHERE_GENERAL },
	[EFFECT_REMOVE_FRENCH_NAVY] = { .name = "remove_french_navy", .where = WHERE_QUALIFIERS },
	[EFFECT_MOVE_FRENCH_NAVY] = { .name = "move_french_navy", .where = WHERE_QUALIFIERS },
	[EFFECT_NO_AMERICAN_PC_PLACEMENT] = { .name = "no_american_pc_placement", .where = WHERE_QUALIFIERS },
};

const struct effect_qual_info effect_quals[] = {
	{ "may", QUAL_MAY },
	{ "port", QUAL_PORT },
	{ "non_port", QUAL_NON_PORT },
	{ "adjacent_british_army", QUAL_ADJ_BRITISH_ARMY },
	{ "no_american_unit", QUAL_NO_AMERICAN_UNIT },
	{ "no_british_cu", QUAL_NO_BRITISH_CU },
	{ "american_pc", QUAL_AMERICAN_PC },
	{ "american_general", QUAL_AMERICAN_GENERAL },
	{ "no_general", QUAL_NO_GENERAL },
	{ "one_colony", QUAL_ONE_COLONY },
	{ "one_per_colony", QUAL_ONE_PER_COLONY },
	{ "one_space", QUAL_ONE_SPACE },
	{ "one_per_space", QUAL_ONE_PER_SPACE },
	{ "each_colony", QUAL_EACH_COLONY },
	{ "british_reinforcements", QUAL_BRITISH_REINFORCEMENTS },
	{ "european_war", QUAL_EUROPEAN_WAR },
	{ "before_french_alliance", QUAL_BEFORE_ALLIANCE },
	{ "after_french_alliance", QUAL_AFTER_ALLIANCE },
	{ "this_turn", QUAL_THIS_TURN },
	{ NULL, 0 },
};

const char *const card_handlers[HANDLER__COUNT] = {
	[HANDLER_KOSCIUSZKO] = "kosciuszko",
};

enum effect_verb effect_verb_lookup(const char *name)
{
	for (int v = 1; v < EFFECT__COUNT; v++)
		if (name && !strcmp(name, effect_verbs[v].name))
			return (enum effect_verb)v;
	return EFFECT_NONE;
}

unsigned effect_qual_lookup(const char *name)
{
	for (size_t i = 0; name && effect_quals[i].name; i++)
		if (!strcmp(name, effect_quals[i].name))
			return effect_quals[i].bit;
	return 0;
}

enum card_handler card_handler_lookup(const char *name)
{
	for (int h = 1; h < HANDLER__COUNT; h++)
		if (name && !strcmp(name, card_handlers[h]))
			return (enum card_handler)h;
	return HANDLER_NONE;
}
