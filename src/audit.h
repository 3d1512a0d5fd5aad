/*
 * audit.h - the auditor as a library, beside its command (as git keeps
 * fsck.c apart from builtin/fsck.c): it walks a game's whole history and
 * checks every commit. Without any secret: what each kind of commit may
 * change (a new game, an order, an address change, a reveal), that the
 * log and the proofs only grow, every draw line's grammar and index, and
 * (fairness version 2) every public die's proof. With the seed: every
 * order replayed through the engine, every committed byte compared
 * (docs/fairness.md, "What a player checks").
 *
 * Nothing here prints: the results are data, and src/cmd-audit.c says
 * them.
 *
 * Ownership: the caller owns struct audit_report (audit_report_init,
 * audit_report_release) and the game, which stays open while the report
 * is used; the report owns its history and its strings; an audit_turn and
 * an audit_mail likewise (their _release functions).
 */
#ifndef POSTRIDER_AUDIT_H
#define POSTRIDER_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "util.h"

struct audit_report {
	char (*history)[41];	/* the commits, oldest first */
	size_t n;
	/* what was found: the index of the first commit that does not
	 * match, and what differs */
	size_t at;
	struct strbuf why;
	bool public_passed;	/* every check without a secret passed */
	bool replayed;		/* the seed is known: every order was replayed */
	bool fixed;		/* a commit used fixed dice (test mode) */
	unsigned long dice;	/* version 2: public draws whose proofs verified */
	unsigned long shuffles;	/* shuffles, checked only with the seed */
};

void audit_report_init(struct audit_report *r);
void audit_report_release(struct audit_report *r);

/* Reads the history of g into r. 0, or -1 if the repository fails. */
int audit_history(struct game *g, struct audit_report *r);

/*
 * Audits the whole history of g (read first if r has none): the checks
 * without a secret, then, with the seed, the replay. 0 if every commit
 * verifies; 1 if one does not (r->at, r->why; the replay names an earlier
 * commit if it differs there first); -1 if the history cannot be read.
 */
int audit_game(struct game *g, struct audit_report *r);

/* audit --turn N: one draw of the order explained. */
struct audit_turn_draw {
	size_t line;		/* its line, counted from 0 in audit_turn.log */
	bool shuffle;		/* draws first-last: a shuffle, sealed */
	unsigned long long first, last;
	unsigned long long value;	/* what the die or draw gives */
	char *rule;		/* the rule that used it ("rule 9.5", ...) */
};

/* audit --turn N: one order, for a dispute. */
struct audit_turn {
	size_t at;		/* the index of its commit in the history */
	char *side;		/* "american", "british" or "none" */
	char order_path[64];	/* orders/NNNN-SIDE.txt */
	bool has_order;		/* false: a commit of the host */
	char *via;		/* how it came, its trailer Postrider-Via
				   ("mail", "host (play --as ...)"), or NULL */
	char *message_id;	/* by mail: its Postrider-Message-Id, or NULL */
	struct strbuf order;	/* the order as given */
	struct strbuf log;	/* the lines it added to log.txt */
	struct audit_turn_draw *draws;
	size_t n_draws;
	bool proof_fails;	/* the last draw's proof fails (r->why) */
	bool order_unnamed;	/* version 3: the commit does not name the
				   order its draws belong to (r->why) */
};

void audit_turn_init(struct audit_turn *t);
void audit_turn_release(struct audit_turn *t);

/*
 * Explains order seq of an audited history: the order as given, what it
 * added to the log, and each draw with its proof checked (version 2) and
 * the rule its purpose names. 0, 1 if there is no order seq, -1 if a
 * commit does not match (r->at, r->why; t->proof_fails if it is a proof,
 * t->order_unnamed if its draws name no order).
 */
int audit_turn(struct game *g, struct audit_report *r, unsigned long seq,
	       struct audit_turn *t);

/* audit --mail: the reports a player received. */
enum audit_mail_result {
	AUDIT_MAIL_OK,		/* every report names a commit of the history */
	AUDIT_MAIL_UNREADABLE,	/* the folder cannot be read (why) */
	AUDIT_MAIL_DIFFERS,	/* a report does not (why) */
	AUDIT_MAIL_NONE,	/* the folder holds no report of this game */
};

struct audit_mail {
	size_t reports;		/* reports of this game found */
	struct strbuf why;
};

void audit_mail_init(struct audit_mail *m);
void audit_mail_release(struct audit_mail *m);

/*
 * Every report in folder (a Maildir, a folder of messages, or an mbox
 * file) that names a commit of this game must find it in r's history
 * (read first if r has none).
 */
enum audit_mail_result audit_mail(struct game *g, struct audit_report *r,
				  const char *folder, struct audit_mail *m);

#endif
