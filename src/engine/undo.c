/*
 * undo.c - taking back the last order (engine_undo, engine.h).
 *
 * An order may be taken back only while it told nobody anything new and
 * decided nothing by chance: no die or other draw, no card from the deck,
 * no card moved into a hand or out of the opponent's. What is left is
 * what the mover himself chose (cards played, pieces moved, markers
 * placed), which he may choose again otherwise.
 */
#include "internal.h"

#include <string.h>

static bool subset(const int *a, int na, const int *b, int nb)
{
	for (int i = 0; i < na; i++) {
		bool found = false;
		for (int j = 0; j < nb && !found; j++)
			found = a[i] == b[j];
		if (!found)
			return false;
	}
	return true;
}

int engine_undo(const struct state *prev, const struct state *cur,
		enum side side, struct state *next, struct strbuf *why)
{
	enum side other = side == SIDE_AMERICAN ? SIDE_BRITISH : SIDE_AMERICAN;

	if (cur->seq != prev->seq + 1 || cur->orders[side] != prev->orders[side] + 1 ||
	    cur->orders[other] != prev->orders[other]) {
		strbuf_addstr(why, "only the side that gave the last order may take it back, and only that order");
		return -1;
	}
	if (engine_game_over(cur)) {
		strbuf_addstr(why, "the game is over");
		return -1;
	}
	if (cur->draws != prev->draws) {
		strbuf_addstr(why, "the order rolled a die or shuffled cards: chance has spoken, and it stands");
		return -1;
	}
	if (cur->n_deck != prev->n_deck ||
	    memcmp(cur->deck, prev->deck, sizeof(cur->deck[0]) * (size_t)cur->n_deck)) {
		strbuf_addstr(why, "a card was dealt from the deck after the order; it stands");
		return -1;
	}
	if (cur->n_hand[other] != prev->n_hand[other] ||
	    !subset(cur->hand[other], cur->n_hand[other], prev->hand[other], prev->n_hand[other]) ||
	    !subset(cur->hand[side], cur->n_hand[side], prev->hand[side], prev->n_hand[side])) {
		strbuf_addstr(why, "a card changed hands in the order, so somebody saw something new; it stands");
		return -1;
	}
	*next = *prev;
	/* the counters go on: the undo is an order of its own, with a fresh
	 * token, so the undone order's mail can never be played again */
	next->seq = cur->seq + 1;
	memcpy(next->orders, cur->orders, sizeof(next->orders));
	next->orders[side]++;
	next->draws = cur->draws;
	next->n_shuffles = 0;
	return 0;
}
