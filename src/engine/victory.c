/*
 * victory.c - Victory (13.0): automatic victory and the count at the end.
 */
#include "internal.h"

#include <string.h>

enum side engine_colony_control(const struct data *d, const struct state *s,
				int colony)
{
	int n[3] = { 0, 0, 0 };

	for (int i = 0; i < d->n_spaces; i++) {
		if (d->spaces[i].colony != colony)
			continue;
		if (d->colonies[colony].canada) {
			/* 10.0.B: Canada needs both Montreal and Quebec. */
			if (!d->spaces[i].fortified)
				continue;
		}
		n[s->space[i].pc]++;
	}
	if (d->colonies[colony].canada) {
		int forts = 0;
		for (int i = 0; i < d->n_spaces; i++)
			if (d->spaces[i].colony == colony && d->spaces[i].fortified)
				forts++;
		if (n[SIDE_AMERICAN] == forts)
			return SIDE_AMERICAN;
		if (n[SIDE_BRITISH] == forts)
			return SIDE_BRITISH;
		return SIDE_NONE;
	}
	if (n[SIDE_AMERICAN] > n[SIDE_BRITISH])
		return SIDE_AMERICAN;
	if (n[SIDE_BRITISH] > n[SIDE_AMERICAN])
		return SIDE_BRITISH;
	return SIDE_NONE;
}

static void game_over(struct state *s, enum side winner, enum game_end how)
{
	s->winner = winner;
	s->end = how;
	s->prompt.kind = PROMPT_NONE;
	s->prompt.side = SIDE_NONE;
	s->prompt.card = 0;
	s->prompt.left = 0;
}

/* The instant of 13.1, a resignation or an abandon may fall in the middle
 * of a card: what is in progress stops there (docs/rulings.md). */
static void stop_in_progress(const struct data *d, struct state *s,
			     struct strbuf *log)
{
	battle_abandon(d, s, log);
	memset(&s->move, 0, sizeof(s->move));
	memset(&s->campaign, 0, sizeof(s->campaign));
}

void victory_resign(const struct data *d, struct state *s, enum side side,
		    struct strbuf *log)
{
	if (s->end != END_NONE)
		BUG("resigning a game that is over");
	stop_in_progress(d, s, log);
	game_over(s, OTHER_SIDE(side), END_RESIGNED);
}

void engine_forfeit(const struct data *d, struct state *s, enum side silent,
		    struct strbuf *log)
{
	if (s->end != END_NONE)
		BUG("a forfeit of a game that is over");
	stop_in_progress(d, s, log);
	game_over(s, OTHER_SIDE(silent), END_FORFEIT);
}

void engine_abandon(const struct data *d, struct state *s, struct strbuf *log)
{
	if (s->end != END_NONE)
		BUG("abandoning a game that is over");
	stop_in_progress(d, s, log);
	game_over(s, SIDE_NONE, END_ABANDONED);
}

bool victory_automatic(const struct data *d, struct state *s,
		       struct strbuf *log)
{
	int american = 0, british = 0;

	for (int i = 0; i < d->n_spaces; i++) {
		american += side_cus(s, i, SIDE_AMERICAN);
		if (!d->colonies[d->spaces[i].colony].canada)
			british += s->space[i].cu[NATION_BRITISH];
	}
	if (american == 0) {
		elog(log, "No American or French CU remains on the map: British automatic victory (13.1).");
		stop_in_progress(d, s, log);
		game_over(s, SIDE_BRITISH, END_AUTO_BRITISH);
		return true;
	}
	if (british == 0) {
		elog(log, "No British CU remains in the thirteen colonies: American automatic victory (13.1).");
		stop_in_progress(d, s, log);
		game_over(s, SIDE_AMERICAN, END_AUTO_AMERICAN);
		return true;
	}
	return false;
}

enum side engine_winner_if_ended(const struct data *d, const struct state *s,
				 int colonies[3])
{
	colonies[SIDE_AMERICAN] = colonies[SIDE_BRITISH] = colonies[SIDE_NONE] = 0;
	for (int k = 0; k < d->n_colonies; k++)
		colonies[engine_colony_control(d, s, k)]++;
	if (colonies[SIDE_AMERICAN] >= VICTORY_AMERICAN_COLONIES &&
	    colonies[SIDE_BRITISH] < VICTORY_BRITISH_COLONIES)
		return SIDE_AMERICAN;
	return SIDE_BRITISH;	/* 6+, both, or neither: British (13.2) */
}

void victory_final(const struct data *d, struct state *s, enum game_end how,
		   struct strbuf *log)
{
	enum side winner;

	winner = engine_winner_if_ended(d, s, s->colonies);
	elog(log, "The war ends (%s): the Americans control %d colonies, the British %d (Canada counts, 13.2).",
	     how == END_WAR_ENDS ? "War Ends card" : "end of the last turn",
	     s->colonies[SIDE_AMERICAN], s->colonies[SIDE_BRITISH]);
	elog(log, "The %s win.", side_title(winner));
	game_over(s, winner, how);
}
