/*
 * state.c - what goes with the types of state.h: the names of sides,
 * prompts, reactions and game ends, and the few pure look-ups over a
 * state. The engine stands on these alone; the YAML form of a state is
 * state-yaml.c, above the engine (the engine links without libyaml: the
 * engine-only link check, Makefile).
 */
#include "state.h"
#include "rng.h"

#include <string.h>

static const char *const side_names[] = { "none", "american", "british" };
static const char *const side_titles[] = { "Nobody", "American", "British" };
static const char *const prompt_names[PROMPT__COUNT] = {
	[PROMPT_NONE] = "none", [PROMPT_CC] = "cc", [PROMPT_FTK] = "ftk",
	[PROMPT_FIRST] = "first", [PROMPT_PLAY] = "play", [PROMPT_PC] = "pc",
	[PROMPT_DISCARD] = "discard", [PROMPT_EXCHANGE] = "exchange",
	[PROMPT_DOI] = "doi", [PROMPT_CONGRESS] = "congress",
	[PROMPT_EVENT] = "event",
	[PROMPT_MOVE] = "move", [PROMPT_LAND] = "land",
	[PROMPT_CAPTURE] = "capture",
	[PROMPT_NAVY] = "navy", [PROMPT_FRENCH] = "french",
	[PROMPT_WAR] = "european-war", [PROMPT_WINTER] = "winter",
	[PROMPT_INTERCEPT] = "intercept", [PROMPT_RETREAT_BEFORE] = "retreat-before-battle",
	[PROMPT_BATTLE_CARD] = "battle-card", [PROMPT_RETREAT] = "retreat",
	[PROMPT_CAMPAIGN] = "campaign", [PROMPT_GENERALS] = "generals",
	[PROMPT_EXTRA] = "extra-action", [PROMPT_LOSSES] = "battle-losses",
};
static const char *const end_names[] = {
	"none", "british automatic victory", "american automatic victory",
	"war ends card", "end of 1783", "abandoned", "resignation", "forfeit",
};
static const char *const reaction_names[REACT__COUNT] = {
	"exchange", "intercept", "retreat", "battle", "declare",
};

const char *reaction_name(enum reaction r)
{
	return (unsigned)r < REACT__COUNT ? reaction_names[r] : "?";
}

int reaction_parse(const char *s)
{
	for (int i = 0; i < REACT__COUNT; i++)
		if (!ascii_strcasecmp(s, reaction_names[i]))
			return i;
	return -1;
}

const char *side_name(enum side s)
{
	return (unsigned)s < 3 ? side_names[s] : "?";
}

const char *side_title(enum side s)
{
	return (unsigned)s < 3 ? side_titles[s] : "?";
}

int side_parse(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (!ascii_strcasecmp(s, side_names[i]))
			return i;
	return -1;
}

const char *prompt_kind_name(enum prompt_kind k)
{
	return (unsigned)k < PROMPT__COUNT ? prompt_names[k] : "?";
}

const char *game_end_name(enum game_end e)
{
	return (unsigned)e < ARRAY_SIZE(end_names) ? end_names[e] : "?";
}

int state_cus_on_map(const struct state *s, const struct data *d,
		     enum nation n)
{
	int total = 0;

	for (int i = 0; i < d->n_spaces; i++)
		total += s->space[i].cu[n];
	return total;
}


void state_mix_words(const struct state *s, struct rng *r)
{
	rng_mix(r, s->has_words[SIDE_AMERICAN] ? s->words[SIDE_AMERICAN] : NULL,
		s->has_words[SIDE_BRITISH] ? s->words[SIDE_BRITISH] : NULL);
}
