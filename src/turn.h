/*
 * turn.h - committing one turn: the new state, the order verbatim and the
 * log as exactly one commit, with the mail staged before the commit is
 * published and released after it (architecture, 1).
 *
 * Ownership: struct turn only points to the caller's data.
 */
#ifndef POSTRIDER_TURN_H
#define POSTRIDER_TURN_H

#include "game.h"
#include "notify.h"

#define TURN_STALE 2	/* the game moved on meanwhile: nothing changed */

struct turn {
	const struct state *next;	/* the state after the turn */
	enum side side;			/* who gave the order (SIDE_NONE: the host) */
	const char *order_text;		/* verbatim, or NULL (new game) */
	const char *happened;		/* the log of this turn */
	const char *subject;		/* the commit subject line */
	const char *body;		/* the commit body (the actions), or NULL */
	const struct repo_file *extra;	/* more files (a new game's game.yaml, data) */
	int n_extra;
	const char *trailers;		/* extra trailer lines, or NULL */
	const char *proofs;		/* version 2: the turn's VRF proofs,
					   appended to proofs.txt (or NULL) */
};

/* The log of one accepted order as it goes into log.txt and the mail:
 * a header line, then what the engine logged. */
void turn_happened(struct strbuf *out, const struct state *before,
		   uint32_t seq, enum side side, const char *engine_log);

/*
 * The line that marks an order the host typed (`play --as SIDE`, with
 * late for `--default`), appended to out: it goes first in the order's
 * log, right under its heading, so that both players' reports, the log
 * and `audit --turn` show it (docs/fairness.md 16). An order that came by
 * mail has none; the commit's trailer Postrider-Via says the same.
 */
void turn_mark_host(struct strbuf *out, enum side side, bool late);

/*
 * Commits t on top of g->head (or as the first commit when g->head is
 * empty), stages and then publishes the mail through n. Returns 0 with the
 * new commit id in commit, TURN_STALE if the branch moved (nothing
 * changed, the staged mail deleted), or -1 with the reason in err.
 */
int turn_commit(struct game *g, const struct turn *t, struct notify *n,
		char commit[41], struct strbuf *err);

/*
 * The crash-safe end of every commit that mails, in both modes (a turn
 * here, a peer copy's commit in peer.c): `commit` is prepared on parent
 * (NULL: the root) and not yet on the branch, and its mail is staged in
 * n (the outbox's tmp/). Moves the branch from parent to commit, then
 * releases the staged mail to new/. A crash between the two leaves the
 * mail in tmp/, released by notify_recover() on the next run. Returns 0,
 * TURN_STALE if the branch moved (the staged mail deleted, nothing
 * changed), or -1 with the reason in err (likewise).
 */
int turn_publish(struct repo *r, const char *parent, const char *commit,
		 struct notify *n, struct strbuf *err);

/*
 * A commit of the host that plays no order (an address change, the
 * reveal): game.yaml rewritten (yaml), g->state committed as it is, and
 * the log line happened; mailed through n like a turn. As turn_commit().
 */
int turn_commit_host(struct game *g, const struct strbuf *yaml,
		     const char *happened, const char *subject,
		     struct notify *n, char commit[41], struct strbuf *err);
/* The same with n_more files more (the reveal's kept mails). */
int turn_commit_host_files(struct game *g, const struct strbuf *yaml,
			   const struct repo_file *more, int n_more, const char *happened,
			   const char *subject, struct notify *n, char commit[41],
			   struct strbuf *err);

#endif
