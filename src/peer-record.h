/*
 * peer-record.h - the record of a peer game (docs/peer.md section 6): the
 * player's secret, the keys in game.yaml, an open copy (struct
 * peer_copy), the kinds of commit and their trailers (peer-record.c).
 * The types every part of the peer mode stands on; it calls none of them.
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
#ifndef POSTRIDER_PEER_RECORD_H
#define POSTRIDER_PEER_RECORD_H

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
/* The same for a game g already open (game_open(), locked if need be):
 * pc takes it over (g is left zeroed) and reads the record and the
 * secret; sets pc->g.own and pc->g.token_key. 0, or -1 with the reason
 * in err (pc is to be closed all the same). */
int peer_copy_adopt(struct game *g, struct peer_copy *pc, struct strbuf *err);
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

#endif
