/*
 * peer.h - a game between two players with no host (docs/peer.md): its
 * top, over the record (peer-record.h), the landing of a mailed commit
 * (peer-patch.h) and the first two commits (peer-start.h), which it
 * includes: a commit mailed (peer.c), the acceptance of a mailed commit
 * (8.3, peer.c), `play` on a peer copy (peer-play.c) and the player's
 * own reports (peer-report.c).
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

/* Whether dir holds a peer game (game.yaml at its head says mode peer). */
bool peer_dir_is_peer(const char *dir);

/*
 * `postrider play DIR --as SIDE` (or check) on a peer copy: the player's
 * order, checked against his own copy, committed by the rule of section 7
 * and mailed; with check, only said. Returns the exit status with what
 * became of it in said and the printed text in out.
 */
int peer_play_order(const char *dir, const struct mail_config *cfg,
		    enum side side, const char *text, bool check,
		    struct strbuf *said, struct strbuf *out);

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
 * shares opened. 0, or -1 (said).
 */
int peer_view_own(const char *dir, struct state *s);

/* The player's order on the open copy pc (locked), committed and mailed
 * (or only checked): the exit status, what became of it in said or out. */
int peer_order_now(struct peer_copy *pc, const struct mail_config *cfg,
		   const char *text, bool check, struct strbuf *said, struct strbuf *out);

/* --- the copy and its own player (peer-report.c, 8.4, 8.5) --- */

/* When the player's decision is due at the head: his report (what
 * happened, given in since; his hand; the legal orders; the token),
 * into the outbox. 0 (also when nothing is due) or -1. */
int peer_report(struct peer_copy *pc, const struct mail_config *cfg, const char *since);
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

/* A mail without an envelope given to a peer copy: its player's order,
 * read if it comes from his address with the token of his last report;
 * a rejection is mailed to him. Returns the exit status, what became of
 * it in said. */
int peer_mailed_order(struct peer_copy *pc, const struct mail_config *cfg,
		      const char *mail, size_t len, struct strbuf *said);

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

/*
 * `postrider play DIR` given a peer mail: opens the copy (locked), accepts
 * the mail, sends what the outbox holds. what became of it in said (one
 * line); returns the exit status: 0 accepted or already applied, 1
 * refused, 3 accepted but its answer not sent, 75 try again later, 78
 * the copy cannot be opened.
 */
int peer_play(const char *dir, const struct mail_config *cfg,
	      const char *mail, size_t len, struct strbuf *said);

#endif
