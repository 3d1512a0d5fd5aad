/*
 * peer-files.h - the files of the cryptography in a peer game's record
 * (docs/peer.md 6.3): peer/shuffles/G-K.txt, peer/shares.txt,
 * peer/dice.txt, read from a commit, and their lines written.
 *
 * Ownership: struct peer_files owns its arrays; peer_files_release()
 * frees them.
 */
#ifndef POSTRIDER_PEER_FILES_H
#define POSTRIDER_PEER_FILES_H

#include <stdbool.h>

#include "peer-crypto.h"
#include "repo.h"
#include "state.h"
#include "vrf.h"

#define PEER_MAX_GEN 48		/* generations a game may have */
#define PEER_REF_MAX 16		/* "s48.255" or "#110", with its NUL */

/* One shuffle of the cryptography: generation gen, turn 1 or 2. */
struct peer_shuffle {
	bool have;
	int gen, turn;
	enum side side;
	int n;
	char (*refs)[PEER_REF_MAX];	/* turn 1: its n inputs */
	unsigned char *out;		/* n * PCRYPTO_CT */
	unsigned char *proof;		/* PCRYPTO_SHUFFLE_PROOF(n) */
};

struct peer_share {
	int slot;			/* CARD_SLOT(g, i) */
	enum side side;
	unsigned char share[PCRYPTO_SHARE];
};

struct peer_dice {
	char oid[41];
	unsigned char proof[3][VRF_PROOF_BYTES];	/* [american], [british] */
};

struct peer_files {
	struct peer_shuffle sh[PEER_MAX_GEN + 1][3];	/* [gen][turn] */
	int n_shares, cap_shares;
	struct peer_share *shares;
	int n_dice, cap_dice;
	struct peer_dice *dice;
	/* peer/keys.txt: each side's x_mask, published at the end (9.12) */
	bool have_key[3];
	unsigned char key[3][32];
};

void peer_files_init(struct peer_files *f);
void peer_files_release(struct peer_files *f);

/* The files at commit rev. 0, or -1 with the reason in err. */
int peer_files_load(struct repo *r, const char *rev, struct peer_files *f,
		    struct strbuf *err);

/* The path of a shuffle file: "peer/shuffles/G-K.txt". */
void peer_shuffle_path(int gen, int turn, char out[48]);
/* A shuffle file's text, and its reading (into sh, which it owns). */
void peer_shuffle_write(const struct peer_shuffle *sh, struct strbuf *out);
int peer_shuffle_parse(const char *text, struct peer_shuffle *sh, char *why,
		       size_t whylen);
/* Copies src into f (the shuffle's arrays are duplicated). */
void peer_files_add_shuffle(struct peer_files *f, const struct peer_shuffle *src);
void peer_shuffle_release(struct peer_shuffle *sh);

/* "sG.i" of a slot value. */
void peer_slot_name(int slot, char out[PEER_REF_MAX]);
/* The slot of "sG.i", or 0. */
int peer_slot_parse(const char *s, size_t len);

/* The lines of shares.txt and dice.txt, and their reading. A parse adds
 * the line to f; 0 or -1 with the reason. */
void peer_share_line(const struct peer_share *s, struct strbuf *out);
int peer_share_parse(const char *line, size_t len, struct peer_files *f,
		     char *why, size_t whylen);
void peer_dice_line(const struct peer_dice *d, struct strbuf *out);
int peer_dice_parse(const char *line, size_t len, struct peer_files *f,
		    char *why, size_t whylen);
/* A line of keys.txt, "SIDE HEX", and its reading into f. */
void peer_key_line(enum side side, const unsigned char key[32], struct strbuf *out);
int peer_key_parse(const char *line, size_t len, struct peer_files *f,
		   char *why, size_t whylen);
void peer_files_add_share(struct peer_files *f, const struct peer_share *s);
void peer_files_add_dice(struct peer_files *f, const struct peer_dice *d);

/* The share of side for slot, or NULL. */
const struct peer_share *peer_files_share(const struct peer_files *f, int slot,
					  enum side side);
/* The masked card of slot (its generation's turn-2 output), or NULL. */
const unsigned char *peer_files_ct(const struct peer_files *f, int slot);
/* The card of slot when both shares are in f, else 0. */
int peer_files_open(const struct peer_files *f, int slot, int n_cards);

/* The contexts of 8.2; their length, 0 when too long. */
size_t peer_ctx_share(const char *id, int slot, enum side side, char out[256]);
size_t peer_ctx_shuffle(const char *id, int gen, int turn, enum side side,
			char out[256]);

#endif
