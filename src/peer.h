/*
 * peer.h - a game between two players with no host (docs/peer.md): the
 * record of section 6 (the player's secret, the keys in game.yaml, the
 * commits and their trailers) and the acceptance of a mailed commit
 * (section 8.3).
 *
 * A peer copy is a game repository whose game.yaml says `mode: peer`;
 * its player's 32-byte secret is <gitdir>/postrider/peer-secret (64 hex
 * digits and a newline, mode 0600, never committed). Which side the copy
 * belongs to is the side whose public keys the secret gives.
 *
 * Ownership: struct peer_copy owns its game (game_close() through
 * peer_copy_close()) and wipes the secret when closed. Every other
 * argument is the caller's.
 */
#ifndef POSTRIDER_PEER_H
#define POSTRIDER_PEER_H

#include <stdbool.h>

#include "game.h"
#include "peer-crypto.h"

#define PEER_VERSION 1
#define PEER_SECRET_NAME "peer-secret"

/* One side's public keys and key proof, as game.yaml holds them (6.1). */
struct peer_keys {
	bool have;
	unsigned char vrf[PCRYPTO_PT];
	unsigned char mask[PCRYPTO_PT];
	unsigned char proof[PCRYPTO_PROOF];
	unsigned char sign[PCRYPTO_PT];
};

/* game.yaml's peer section. */
struct peer_record {
	struct peer_keys keys[3];	/* [SIDE_AMERICAN], [SIDE_BRITISH] */
	bool have_joint;
	unsigned char joint[PCRYPTO_PT];
};

/* A player's copy, open. */
struct peer_copy {
	struct game g;			/* g.peer is true */
	struct peer_record rec;
	enum side me;			/* the side whose secret this copy holds */
	unsigned char secret[32];
	struct pcrypto_secret sk;
	bool answered;			/* this run mailed a commit of its own */
};

/* The kinds of commit (6.5). */
enum peer_kind {
	PEER_INVITE, PEER_JOIN, PEER_ORDER, PEER_ANSWER, PEER_CLAIM, PEER_END,
	PEER_KIND__COUNT
};
const char *peer_kind_name(enum peer_kind k);
int peer_kind_parse(const char *s);	/* -1 if unknown */

/* --- the record (peer-record.c) --- */

/*
 * Draws a new secret from the system's random source and writes it to
 * <gitdir>/postrider/peer-secret (0600). Returns 0 or -1 (said).
 */
int peer_secret_new(struct repo *r, unsigned char secret[32]);
/* Reads it back: 0, 1 if absent, -1 with the reason in err. */
int peer_secret_read(struct repo *r, unsigned char secret[32],
		     struct strbuf *err);

/* The public keys and key proof of side, from secret, for game id. */
int peer_keys_make(const unsigned char secret[32], const char *id,
		   enum side side, struct peer_keys *k);
/* 0 when k's key proof verifies for game id and side, else -1. */
int peer_keys_check(const char *id, enum side side, const struct peer_keys *k);
/* The fingerprint of 9.1: 16 hex digits and a NUL. */
void peer_fingerprint(const struct peer_keys *k, char out[17]);

/*
 * Reads game.yaml's peer section (text, len) into rec, checking each key
 * proof and the joint key. 0, or -1 with the reasons in err.
 */
int peer_record_read(const char *id, const char *text, size_t len,
		     struct peer_record *rec, struct strbuf *err);
/* Writes game.yaml of a peer game: g's identity, players and options,
 * then mode and the peer section of rec. */
void peer_game_yaml(const struct game *g, const struct peer_record *rec,
		    struct strbuf *out);

/*
 * Opens the peer copy in dir (game_open(), with the lock if flags say):
 * game.yaml must say mode peer; the secret must give one side's keys.
 * Returns 0, GAME_BUSY, or -1 with the reason in err.
 */
int peer_copy_open(const char *dir, struct peer_copy *pc, unsigned flags,
		   struct strbuf *err);
void peer_copy_close(struct peer_copy *pc);

/* What one commit of a peer game holds (6.5). */
struct peer_commit {
	enum peer_kind kind;
	enum side side;			/* the committer */
	unsigned seq;
	const char *subject;
	const char *waits;		/* the waits lines ("british join\n"), or "" */
	const struct repo_file *files;
	int n_files;
	long long time;			/* author and committer date */
};

/*
 * Prepares the commit pc on parent (NULL: the root) in g's repository,
 * with the trailers of 6.5: writes its id. Publishes nothing. 0 or -1.
 */
int peer_commit_prepare(struct game *g, const char *parent,
			const struct peer_commit *pc, char commit[41]);

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

/* The date of a commit made now after parent: this machine's clock, or
 * the parent's date when the clock is behind it (an honest commit is
 * never dated before its parent, 8.3). */
long long peer_commit_time(struct repo *r, const char *parent);

/* How far after the receiver's clock a commit may be dated (8.3). */
#define PEER_CLOCK_SLACK 3600

/*
 * The date t of a commit against its parent's (never before it) and the
 * clock now (at most PEER_CLOCK_SLACK after it): 0, or PEER_REFUSED with
 * the reason appended to said. Used by the accepting postrider and by
 * peer audit.
 */
int peer_check_time(struct repo *r, const char *parent, long long t,
		    long long now, struct strbuf *said);

/* The date of a patch (its Date: line): 0, or -1 when it has none. */
int peer_patch_time(const char *patch, long long *t);

/* The lines a patch adds to the file path (its '+' lines without the
 * '+'), appended to out: the facts of a commit. 0, or -1 when the patch
 * has no diff of path. */
int peer_patch_added(const char *patch, const char *path, struct strbuf *out);

/* The log line of a join (6.5), the same in both copies. */
void peer_join_line(const struct game *g, enum side joiner, struct strbuf *out);

/* --- the first two commits (peer-start.c, 9.1) --- */

/* The state of the set-up (4.0) up to its first prompt, and its log. */
void peer_setup_state(const struct game *g, struct state *s, struct strbuf *log);
/*
 * Prepares the invitation (kind invite, the root commit) of g (id,
 * players, options and data set; g->head empty for the inviter, the
 * invitation itself when a joiner replays it) with rec (the inviter's
 * keys) at time. 0 or -1 (said).
 */
int peer_invite_commit(struct game *g, const struct peer_record *rec,
		       enum side inviter, long long time, char commit[41]);
/* Prepares the join on g->head (the invitation) with rec (both sides'
 * keys and the joint key). 0 or -1 (said). */
int peer_join_commit(struct game *g, const struct peer_record *rec,
		     enum side joiner, long long time, char commit[41]);

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

/* The outcome of a mail offered to a copy. */
enum peer_accept {
	PEER_ACCEPTED = 0,	/* the head moved to the mail's commit */
	PEER_COPY = 1,		/* already in the history: nothing changed */
	PEER_REFUSED = 2,	/* refused with the reason: nothing changed */
	PEER_LATER = 3,		/* an unknown parent: try again (exit 75) */
	PEER_FAILED = 4,	/* the copy could not be read or written */
};

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

/*
 * The end of accepting a mail (8.3 steps 6 and 7): the commit built from
 * the facts, `commit`, must be the envelope's, and the mail's patch its
 * patch byte for byte. 0, or -1 with the reason in said.
 */
struct peer_envelope;
int peer_built_is_mailed(struct peer_copy *pc, const struct peer_envelope *e,
			 const char *commit, const char *patch, struct strbuf *said);
/* Publishes the built commit on the head and moves pc's head to it: 0, or
 * -1 with the reason in said (nothing changed). */
int peer_publish_head(struct peer_copy *pc, const char *commit, struct strbuf *said);

#endif
