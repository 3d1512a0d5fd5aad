/*
 * oracle.h - the differential test of "no reply depends on a draw before
 * it counts" (docs/fairness.md, "No oracle"): it does not need to know
 * where a leak could be. In random games it takes positions, and for each
 * a random order of the side to decide (a legal prefix, then an illegal
 * line, or none), and decides it (play_decide(), as `play --as` and as
 * `check`) against two worlds that agree on everything that side may
 * know and differ in everything it may not: the random stream, the
 * other side's hand and the deck, the other side's sealed standing orders
 * and held-over lines. Every reply must be the same bytes in both: the
 * verdict, the rejection, what `check` prints, the answer to every
 * question.
 *
 * Ownership: nothing is kept; the report is the caller's.
 */
#ifndef POSTRIDER_ORACLE_H
#define POSTRIDER_ORACLE_H

#include "data.h"
#include "util.h"

struct oracle_stats {
	long games;		/* random games played */
	long positions;		/* positions probed */
	long orders;		/* orders decided in both worlds */
	long rejected;		/* of them rejected in both */
	long checked;		/* `check` outputs compared */
	long questions;		/* answers to questions compared */
	long bound;		/* orders that reached a draw or the other side */
	long differ;		/* replies that differed: leaks */
};

/*
 * Plays games random games from seed (game i of a run as selfplay's),
 * probing every position with probability 1/every. Appends a description
 * of each difference found (at most a few) to report. Returns the number
 * of differences (stats->differ).
 */
long oracle_run(const struct data *d, unsigned long long seed, long first,
		long games, int every, struct oracle_stats *stats,
		struct strbuf *report);

#endif
