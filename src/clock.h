/*
 * clock.h - the time of a game played by mail: the reply deadline, how
 * long each side has taken, vacations, and which reminders went out.
 *
 * Time is the host's service, not a rule of the game, so it lives with
 * the host (<gitdir>/postrider/clock.yaml, never committed, beside the
 * seed) and not in the history the audit replays. The reports show it to
 * both players.
 *
 *   deadline: 259200          # seconds a side has for a decision (0: none)
 *   vacation_limit: 1209600   # seconds of vacation per side and game
 *   since: 1700000000         # when the side to move was last asked
 *   warned: 12                # the order a reminder went out after (+1)
 *   late: 12                  # the order a late notice went out after (+1)
 *   american: {taken: 3600, vacation_used: 0, away_from: 0, away_until: 0}
 *   british: {...}
 *
 * The functions on struct game_clock are pure (now is always given, so
 * tests fix it); clock_load() and clock_save() read and write the file.
 *
 * Ownership: struct game_clock is a plain value.
 */
#ifndef POSTRIDER_CLOCK_H
#define POSTRIDER_CLOCK_H

#include <stdbool.h>
#include "repo.h"
#include "state.h"
#include "util.h"

#define CLOCK_DEFAULT_VACATION (14LL * 86400)

struct game_clock {
	long long deadline;		/* seconds per decision; 0: none */
	long long vacation_limit;	/* seconds of vacation per side */
	long long since;		/* when the side to move was asked */
	unsigned warned, late;		/* seq + 1 of the reminder / notice sent */
	struct clock_side {
		long long taken;	/* seconds of decisions, vacations not counted */
		long long vacation_used;
		long long away_from, away_until;	/* the vacation; 0: none */
	} side[3];			/* [SIDE_AMERICAN], [SIDE_BRITISH] */
};

/* A clock without a file: no deadline, the default vacation limit, asked
 * at since. */
void clock_init(struct game_clock *c, long long since);

/*
 * Reads clock.yaml from the game's private folder into c; a missing file
 * gives clock_init(c, head_time). Returns 0, or -1 with a message naming
 * the file, line and column in err.
 */
int clock_load(struct repo *r, long long head_time, struct game_clock *c,
	       struct strbuf *err);
/* Parses the text of clock.yaml (what clock_load() reads). */
int clock_parse_yaml(const char *text, size_t len, long long head_time,
		     struct game_clock *c, struct strbuf *err);
/* Writes c to clock.yaml (atomically). Returns 0 or -1 (error printed). */
int clock_save(struct repo *r, const struct game_clock *c);
/* The text of clock.yaml for c. */
void clock_write_yaml(const struct game_clock *c, struct strbuf *out);

/* Seconds of side's vacation within [from, to). */
long long clock_paused(const struct game_clock *c, enum side side,
		       long long from, long long to);

/* When to_move's decision is due (its vacation added), or 0 without a
 * deadline. */
long long clock_due(const struct game_clock *c, enum side to_move);

/*
 * An order of sender was accepted at now, while waited_for was to move:
 * waited_for is charged the time since it was asked (less its vacation),
 * the clock restarts, and a vacation of the sender ends (its unused days
 * are given back).
 */
void clock_order(struct game_clock *c, enum side waited_for, enum side sender,
		 long long now);

/*
 * An order accepted that decided nothing (a standing reaction or order,
 * by either side): the decision asked at c->since goes on, so nothing is
 * charged and the deadline does not move; a reminder or notice already
 * sent for it (after order old_seq) stays sent now that the game is at
 * new_seq (issue 28: a late side cannot push his deadline back).
 */
void clock_same_decision(struct game_clock *c, unsigned old_seq, unsigned new_seq);

enum clock_alarm {
	CLOCK_QUIET,	/* nothing to say, or said already */
	CLOCK_WARN,	/* the side to move is reminded: the deadline nears */
	CLOCK_LATE,	/* both sides are told: the deadline has passed */
};
/*
 * What `postrider remind` says now about the decision after order seq of
 * to_move: a reminder from warn_before seconds before the deadline, a
 * late notice once it has passed; each once per decision, never twice
 * (clock_alarm_sent() records it).
 */
enum clock_alarm clock_alarm(const struct game_clock *c, unsigned seq,
			     enum side to_move, long long now,
			     long long warn_before);
/* The same from the clock's due time and marks (what the index of a
 * folder of games keeps, catalog.h). */
enum clock_alarm clock_alarm_at(long long due, unsigned warned, unsigned late,
				unsigned seq, long long now, long long warn_before);
void clock_alarm_sent(struct game_clock *c, unsigned seq, enum clock_alarm a);

/*
 * side asks for length seconds of vacation from now: its deadlines stop
 * until now + length. A vacation already running is extended. Refused
 * (-1, the reason in why) when it would pass the game's vacation limit.
 */
int clock_vacation(struct game_clock *c, enum side side, long long now,
		   long long length, struct strbuf *why);

/*
 * The clock's lines in a report (nothing for a game without a deadline
 * and without time taken): the deadline of to_move's decision and how
 * long each side has taken so far.
 */
void clock_describe(const struct game_clock *c, enum side to_move,
		    long long now, struct strbuf *out);

#endif
