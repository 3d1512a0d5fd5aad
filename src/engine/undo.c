/*
 * undo.c - taking back the last order (engine_undo, engine.h).
 *
 * An order may be taken back only while it told nobody anything new and
 * decided nothing by chance: no die or other draw, no card from the deck,
 * no card moved into or out of any hand (a card played or discarded has
 * been named to the opponent, and an exchange offered shows it too), and
 * the opponent has answered nothing since. What is left is what the mover
 * himself chose (pieces moved, markers placed, set-up, who plays first),
 * which he may choose again otherwise. The opponent's orders that decide
 * nothing (standing reactions and orders, table talk) do not stand in the
 * way: they are kept.
 */
#include "internal.h"

#include <string.h>

/* Do the n cards of a and of b hold the same cards, in any order? */
static bool same_cards(const int *a, int na, const int *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		int in_a = 0, in_b = 0;
		for (int j = 0; j < na; j++) {
			in_a += a[j] == a[i];
			in_b += b[j] == a[i];
		}
		if (in_a != in_b)
			return false;
	}
	return true;
}

/* Copies into t what an order of side `by` may change without deciding
 * anything, from `from`. */
static void copy_undecided(struct state *t, const struct state *from, enum side by)
{
	t->seq = from->seq;
	memcpy(t->orders, from->orders, sizeof(t->orders));
	memcpy(t->react, from->react, sizeof(t->react));
	memcpy(t->react_general, from->react_general, sizeof(t->react_general));
	memcpy(t->standing[by], from->standing[by], sizeof(t->standing[by]));
	memcpy(t->sealed_lines[by], from->sealed_lines[by], sizeof(t->sealed_lines[by]));
	memcpy(t->held_note[by], from->held_note[by], sizeof(t->held_note[by]));
	t->n_shuffles = from->n_shuffles;
	memcpy(t->shuffles, from->shuffles, sizeof(t->shuffles));
}

bool engine_decided_nothing(const struct state *before, const struct state *after,
			    enum side by)
{
	struct state t = *after;

	if (after->draws != before->draws)
		return false;
	copy_undecided(&t, before, by);
	return !memcmp(&t, before, sizeof(t));
}

/* Why the order from prev to mine cannot be taken back, or NULL. */
static const char *shown(const struct state *prev, const struct state *mine)
{
	if (mine->draws != prev->draws)
		return "the order rolled a die or shuffled cards: chance has spoken, and it stands";
	if (mine->n_deck != prev->n_deck ||
	    memcmp(mine->deck, prev->deck, sizeof(mine->deck[0]) * (size_t)mine->n_deck))
		return "a card was dealt from the deck after the order; it stands";
	for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++)
		if (!same_cards(mine->hand[k], mine->n_hand[k], prev->hand[k], prev->n_hand[k]))
			return "a card left or entered a hand in the order, so your opponent has "
			       "seen it named or counted; it stands";
	if (!same_cards(mine->discard, mine->n_discard, prev->discard, prev->n_discard) ||
	    !same_cards(mine->removed, mine->n_removed, prev->removed, prev->n_removed) ||
	    memcmp(mine->n_queue, prev->n_queue, sizeof(mine->n_queue)) ||
	    memcmp(mine->queue, prev->queue, sizeof(mine->queue)) ||
	    mine->war_ends != prev->war_ends)
		return "a card was played or named in the order; it stands";
	return NULL;
}

int engine_undo(const struct state *prev, const struct state *mine,
		const struct state *cur, enum side side, struct state *next,
		struct strbuf *why)
{
	enum side other = OTHER_SIDE(side);
	const char *no;

	if (mine->seq != prev->seq + 1 || mine->orders[side] != prev->orders[side] + 1 ||
	    mine->orders[other] != prev->orders[other] ||
	    !engine_decided_nothing(mine, cur, other)) {
		strbuf_addstr(why, "only the side that gave the last order may take it back, "
			      "and only that order, before the opponent answers");
		return -1;
	}
	if (prev->peer.on) {
		/* docs/peer.md 12: the order was mailed, it is the other's too */
		strbuf_addstr(why, "a peer game has no undo: an order once mailed is your opponent's too");
		return -1;
	}
	if (engine_game_over(cur)) {
		strbuf_addstr(why, "the game is over");
		return -1;
	}
	if ((no = shown(prev, mine))) {
		strbuf_addstr(why, no);
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
	/* what the opponent said since, deciding nothing, stands */
	memcpy(next->react[other], cur->react[other], sizeof(next->react[other]));
	for (int g = 0; g < DATA_MAX_GENERALS; g++)
		if (memcmp(mine->react_general[g], cur->react_general[g], sizeof(cur->react_general[g])))
			memcpy(next->react_general[g], cur->react_general[g],
			       sizeof(next->react_general[g]));
	memcpy(next->standing[other], cur->standing[other], sizeof(next->standing[other]));
	memcpy(next->sealed_lines[other], cur->sealed_lines[other], sizeof(next->sealed_lines[other]));
	memcpy(next->held_note[other], cur->held_note[other], sizeof(next->held_note[other]));
	return 0;
}
