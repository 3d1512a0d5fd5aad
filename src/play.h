/*
 * play.h - the way of one input to a game: a player's mail, or the text
 * the host types with `play --as`, decided into one outcome (accepted,
 * answered, rejected, ignored, failed) and then carried out (a commit,
 * mail in the outbox). `postrider play` and `postrider check` are these
 * two calls and their options; docs/architecture.md walks one mail
 * through them.
 *
 * play_decide() holds the whole policy, in this order (docs/orders.md):
 *
 *   1. a mail that cannot be read: rejected, with a reply to a player's
 *      From line (never to a machine);
 *   2. authorize_mail(): a machine's mail is ignored; a stranger's
 *      rejected without a reply; a player's refused with the reason
 *      (another game, no token, a stale token, the game over);
 *   3. a question (query.h): answered to the sender, nothing committed;
 *   4. the game over: rejected;
 *   5. "vacation 7d": answered to both players, the clock changed;
 *   6. "undo": the state before the side's last order, as a new commit,
 *      or rejected with the reason;
 *   7. the order itself, through order_run(): accepted with the new
 *      state, or rejected with the line, the reason and what is legal.
 *
 * It reads the game (and its repository's history for an undo) and
 * writes nothing: what to commit and what to mail is in the outcome,
 * which play_carry_out() then does. With request.check nothing is ever
 * carried out: the outcome's `out` says what would happen.
 *
 * Ownership: the outcome owns its buffers and strings;
 * play_outcome_release() frees them. The request points to the caller's.
 */
#ifndef POSTRIDER_PLAY_H
#define POSTRIDER_PLAY_H

#include "game.h"
#include "notify.h"

enum play_verdict {
	PLAY_ACCEPTED,		/* an order or an undo to commit */
	PLAY_ANSWERED,		/* a question or a vacation: mail only */
	PLAY_REJECTED,		/* refused: the reason to the sender, or none */
	PLAY_IGNORED,		/* a machine's mail: nothing at all */
	PLAY_FAILED,		/* nothing decided: see status (75 or 78) */
};

struct play_request {
	const char *input;	/* the whole mail, or the order text */
	size_t len;
	int as;			/* -1: input is a mail; else the side typing */
	bool check;		/* say what would happen, carry out nothing */
	bool default_order;	/* --default: the late side's default order */
	const int *dice;	/* test only: fixed dice (play --fix-dice) */
	int n_dice;
};

enum play_mail_kind { PLAY_MAIL_REJECT, PLAY_MAIL_ANSWER, PLAY_MAIL_NOTICE };

/* One message the outcome sends (notify.h). */
struct play_mail {
	enum play_mail_kind kind;
	enum side to;
	char *name;		/* answer: the question; notice: its kind */
	char *title;		/* notice: the subject after the game id */
	char *text;
	bool reply;		/* in reply to the input mail */
};

#define PLAY_MAX_MAIL 4

struct play_outcome {
	enum play_verdict verdict;
	int status;		/* the exit status (cmd.h) */
	enum side side;		/* whose input it was, or SIDE_NONE */
	struct strbuf said;	/* what became of it, one line: stderr and
				   the host's log ("rejected: ...") */
	struct strbuf out;	/* what the command prints on stdout */
	char *message_id;	/* the input mail's Message-ID, or NULL */
	char *references;	/* its References, or NULL: a reply's
				   References are these and message_id */
	char *from;		/* the input mail's sender, or NULL */
	bool unproven;		/* the mail proves no sender (no valid token,
				   or unreadable): its reply comes from the
				   budget of such mails (replies.h) */

	/* PLAY_ACCEPTED */
	bool undo;
	struct state next;	/* the state after the order */
	struct strbuf order;	/* the order file's text (sealed lines
				   replaced by markers) */
	struct strbuf log;	/* what happened */
	struct strbuf actions;	/* the commit's body */
	struct strbuf subject;	/* the commit's subject */
	struct strbuf trailers;
	struct strbuf proofs;	/* version 2: the turn's VRF proofs */
	bool fixed_dice;	/* game.yaml to be marked fixed_dice */

	/* PLAY_REJECTED: the text of a refused mailed order, kept for
	 * `options` (replies_keep_rejected()), or NULL */
	char *rejected_order;

	/* PLAY_ANSWERED: g->clock was changed (a vacation) and is saved */
	bool clock_changed;

	int n_mail;
	struct play_mail mail[PLAY_MAX_MAIL];
};

void play_outcome_init(struct play_outcome *out);
void play_outcome_release(struct play_outcome *out);

/*
 * Decides rq against the open game g (opened with its secret): fills out.
 * May change g->clock in memory (a vacation; out->clock_changed) and
 * reads g's repository; writes nothing to disk. Never fails for the
 * input's sake: a bad input is PLAY_REJECTED; PLAY_FAILED only when the
 * game itself cannot be read (status 75 or 78).
 */
void play_decide(struct game *g, const struct play_request *rq,
		 struct play_outcome *out);

/*
 * Carries out a decided outcome (never one of a check): saves the clock,
 * commits the turn through turn_commit() with its reports staged in n,
 * and writes the replies and notices to the outbox. Updates out->status,
 * out->said and out->out (the accepted turn's commit, or why it failed:
 * 75 when nothing was changed and a retry may succeed). Returns true if a
 * turn was committed.
 */
bool play_carry_out(struct game *g, struct notify *n, struct play_outcome *out);

#endif
