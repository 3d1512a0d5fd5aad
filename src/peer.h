/*
 * peer.h - a game between two players with no host (docs/peer.md): its
 * top, over the record (peer-record.h), the landing of a mailed commit
 * (peer-patch.h) and the first two commits (peer-start.h), which it
 * includes: a commit mailed (peer.c), the acceptance of a mailed commit
 * (8.3, peer.c), `play` on a peer copy (peer-play.c, through the host's
 * play_decide()) and the notices to the copy's own player
 * (peer-report.c).
 *
 * Ownership: as peer-record.h; every argument is the caller's.
 */
#ifndef POSTRIDER_PEER_H
#define POSTRIDER_PEER_H

#include <stdbool.h>

#include "peer-record.h"
#include "peer-patch.h"
#include "peer-start.h"

/*
 * Publishes the prepared commit `commit` on `parent` and writes its mail
 * (8.1) to the outbox of cfg (or <gitdir>/postrider/outbox), to the
 * opponent. The mail is staged before and released after the commit is
 * published. 0 or -1 (said); on -1 the commit is not published.
 */
struct mail_config;
int peer_commit_mail(struct peer_copy *pc, const struct mail_config *cfg,
		     const char *parent, const char *commit, unsigned seq,
		     enum peer_kind kind, struct strbuf *outbox_path);
/* The same for a request (5.1): the committer's own die proof for it
 * goes in the envelope. */
int peer_commit_mail_dice(struct peer_copy *pc, const struct mail_config *cfg,
			  const char *parent, const char *commit, unsigned seq,
			  enum peer_kind kind, const unsigned char *proof);
/* The requester's die proof of request oid, kept by the answerer from
 * its envelope: 0, or -1 when none. */
int peer_request_proof(struct peer_copy *pc, const char *oid,
		       unsigned char proof[81]);

/* The outbox of the copy: cfg's, else <gitdir>/postrider/outbox. */
char *peer_outbox_dir(struct peer_copy *pc, const struct mail_config *cfg);

/*
 * `postrider play` and `check` on the open peer game g (game_open(),
 * locked unless rq->check), which pc takes over and closes: a mail of the
 * other postrider accepted (8.3, peer_accept_mail()) and what this side
 * owes answered; any other input, the player's mail or `play --as`,
 * decided by play_decide() with this mode's policy and step 7 and
 * carried out (8.4). The verdict in out, as in host mode; the mail of the
 * run is in n's outbox (notify_init() here; not for a check), for the
 * caller to send. Returns true when this run mailed a commit of its own.
 */
struct play_request;
struct play_outcome;
struct notify;
bool peer_play_game(struct game *g, const struct mail_config *cfg, struct notify *n,
		    const struct play_request *rq, struct play_outcome *out);

/*
 * The automatic answers (section 7): while this copy's side owes
 * something at the head, the commit that gives it, made and mailed.
 * Returns how many were made, or -1 (said in why).
 */
int peer_answer_owed(struct peer_copy *pc, const struct mail_config *cfg,
		     struct strbuf *why);

/*
 * The view of this copy's player (docs/peer.md 12): in s (the public
 * state at the head of dir), each slot of his own hand replaced by its
 * card, as far as the record lets him open it, and every card both
 * shares opened. 0, or -1 (said). peer_view_of() does it on the open
 * copy pc.
 */
int peer_view_own(const char *dir, struct state *s);
int peer_view_of(struct peer_copy *pc, struct state *s);

/* --- the notices to the copy's own player (peer-report.c, 8.5) --- */

/* When the player's decision is due at the head, or the game is over and
 * nothing is owed (once, after the last commit): his report, the host's
 * (notify_report(): the story since his last order, the board, the map,
 * his hand, the numbers, the grouped orders, the patch of the head), from
 * his view, into n's outbox at once; the map against the state before
 * (NULL: always), his new cards against the view hand_before (NULL: no
 * marks). 0 (also when nothing is due) or -1 (said). (peer-play.c) */
int peer_report(struct peer_copy *pc, struct notify *n, const struct state *before,
		const struct state *hand_before);
/* The warning of 8.5 to the copy's player: a mail of the other
 * postrider was refused (why). 0 or -1. */
int peer_notice_refused(struct peer_copy *pc, const struct mail_config *cfg,
			const char *why);
/* Any notice of the postrider to its own player (kind names the file
 * and the Message-ID), into the outbox. 0 or -1. */
int peer_notice(struct peer_copy *pc, const struct mail_config *cfg,
		const char *kind, const char *subject, const char *text);
/* The notice to the copy's player that the other side joined, with the
 * joiner's fingerprint to compare (9.1), into the outbox. 0 or -1. */
int peer_join_notice(struct peer_copy *pc, const struct mail_config *cfg);

/* --- accepting a mail (peer.c) --- */

/* Whether the mail text carries a peer envelope (8.1). */
bool peer_mail_is_peer(const char *mail, size_t len);

/*
 * Takes a mail by the steps of 8.3 into the open copy pc (locked), then
 * answers at once if its side owes something (section 7). said gets one
 * line. Returns one of enum peer_accept.
 */
int peer_accept_mail(struct peer_copy *pc, const struct mail_config *cfg,
		     const char *mail, size_t len, struct strbuf *said);

#endif
