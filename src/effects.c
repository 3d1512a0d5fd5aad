/*
 * effects.c - the tables of effects.h.
 */
#include "effects.h"

#include <stddef.h>
#include <string.h>

const struct effect_verb_info effect_verbs[EFFECT__COUNT] = {
	[EFFECT_PLACE_PC] = { "place_pc", WHERE_QUALIFIERS },
	[EFFECT_REMOVE_PC] = { "remove_pc", WHERE_QUALIFIERS },
	[EFFECT_FLIP_PC] = { "flip_pc", WHERE_QUALIFIERS },
	[EFFECT_PLACE_CU] = { "place_cu", WHERE_QUALIFIERS },
	[EFFECT_REMOVE_CU] = { "remove_cu", WHERE_QUALIFIERS },
	[EFFECT_REQUIRE] = { "require", WHERE_QUALIFIERS },
	[EFFECT_FRENCH_ALLIANCE] = { "french_alliance", WHERE_QUALIFIERS },
	[EFFECT_RESHUFFLE] = { "reshuffle", WHERE_QUALIFIERS },
	[EFFECT_OPPONENT_DISCARDS_RANDOM] = { "opponent_discards_random", WHERE_QUALIFIERS },
	[EFFECT_DRAW] = { "draw", WHERE_QUALIFIERS },
	[EFFECT_ACTIVATE_GENERALS] = { "activate_generals", WHERE_QUALIFIERS, 3 },
	[EFFECT_ACTIVATE_GENERAL] = { "activate_general", WHERE_QUALIFIERS, 1 },
	[EFFECT_BATTLE_DRM] = { "battle_drm", WHERE_QUALIFIERS },
	[EFFECT_WAR_ENDS] = { "war_ends", WHERE_QUALIFIERS },
	[EFFECT_LOSE_REGULARS] = { "lose_regulars", WHERE_QUALIFIERS },
	[EFFECT_REMOVE_GENERAL] = { "remove_general", WHERE_GENERAL },
	[EFFECT_REMOVE_FRENCH_NAVY] = { "remove_french_navy", WHERE_QUALIFIERS },
	[EFFECT_MOVE_FRENCH_NAVY] = { "move_french_navy", WHERE_QUALIFIERS },
	[EFFECT_NO_AMERICAN_PC_PLACEMENT] = { "no_american_pc_placement", WHERE_QUALIFIERS },
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
