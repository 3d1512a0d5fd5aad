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
 * Both modes take this way (style.md 21). Where a game without a host
 * (g->peer, a player's own copy: docs/peer.md 8.4) differs by design, it
 * is a row of the policy table (struct play_policy: no undo, no
 * vacation) or a hook of the request (struct play_hooks: step 7 builds
 * the peer commit by the rule of docs/peer.md 7, and carrying it out
 * mails it to the other postrider); the sender is his own player only
 * (authorize.h), his token keyed by his own postrider (game.h).
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

#include "dkim-intake.h"
#include "game.h"
#include "notify.h"

enum play_verdict {
	PLAY_ACCEPTED,		/* an order or an undo to commit */
	PLAY_ANSWERED,		/* a question or a vacation: mail only */
	PLAY_REJECTED,		/* refused: the reason to the sender, or none */
	PLAY_IGNORED,		/* a machine's mail: nothing at all */
	PLAY_FAILED,		/* nothing decided: see status (75 or 78);
				   said is the reason alone */
};

struct play_outcome;
struct play_request;

/* What the modes do differently, by design: one row each (play.c). */
struct play_policy {
	const char *mode;		/* "host", "peer" */
	const char *no_undo;		/* NULL: step 6 takes an order back;
					   else why it cannot */
	const char *no_vacation;	/* NULL: step 5 grants a vacation;
					   else why it cannot */
	bool keep_rejected;		/* a refused mailed order is kept for
					   `options` (replies.h) */
};
/* The row of g's mode. */
const struct play_policy *play_policy_of(const struct game *g);

/*
 * A mode's own step 7 and its carrying out (NULL: the host's,
 * order_run() and turn_commit()). order decides as run_order() does: the
 * verdict (play_refuse() for a refused order), out->next, and for a check
 * out->out. commit carries out an accepted outcome in place of
 * turn_commit(): sets out->status, said and out; returns 0, or -1 when
 * nothing was committed.
 */
struct play_hooks {
	void *ctx;
	void (*order)(void *ctx, struct game *g, const struct play_request *rq,
		      enum side side, const char *text, struct play_outcome *out);
	int (*commit)(void *ctx, struct game *g, struct notify *n,
		      struct play_outcome *out);
};

struct play_request {
	const char *input;	/* the whole mail, or the order text */
	size_t len;
	int as;			/* -1: input is a mail; else the side typing */
	bool check;		/* say what would happen, carry out nothing */
	bool default_order;	/* --default: the late side's default order */
	const int *dice;	/* test only: fixed dice (play --fix-dice) */
	int n_dice;
	const struct play_hooks *hooks;	/* NULL: the host's */
	const struct dkim_config *dkim;	/* NULL: mail kept with no proof
					   of its sender (dkim-intake.h) */
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

	const struct play_hooks *hooks;	/* the request's, for carrying out */
	struct dkim_intake *intake;	/* a mailed order's mail and its
					   signatures' verdict, or NULL */
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
 * The verdict of an order refused (step 7, a hook's too): rejected with
 * the reason, said "rejected: REASON", and for a mail the reply to side.
 */
void play_refuse(struct play_outcome *out, const struct play_request *rq,
		 enum side side, const char *reason);

/*
 * The verdict of an input that could not be decided or carried out:
 * PLAY_FAILED with status (EXIT_TEMPFAIL or EXIT_CONFIG) and said, the
 * reason alone (no "error: "; cmd-play.c says it as an error).
 */
void play_fail(struct play_outcome *out, int status, const char *fmt, ...) PRINTF_LIKE(3, 4);

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
