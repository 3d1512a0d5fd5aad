/*
 * peer-wire.h - the mails between two postriders (docs/peer.md 8.1, 8.3
 * steps 1 to 5 and 7): the signed envelope of a commit, the mail that
 * carries it with the commit's patch, finding both again in a mail as a
 * mail client delivers it, and where a received commit falls in the
 * history.
 *
 * What a commit means (its proofs, the replay of 8.3 step 6) is not here:
 * this module moves bytes and checks that they are the bytes signed.
 * Applying the patch is repo_apply_patch() (repo.h).
 *
 * Errors: functions return 0 or -1 unless they say otherwise; where a
 * `why` buffer is given, a one-line reason (no newline, no final period)
 * is written to it on failure (truncated to whylen) and nothing is printed.
 *
 * Ownership: the caller owns every struct and buffer; results in a struct
 * strbuf are appended to it; nothing is kept between calls. struct
 * peer_envelope holds no pointers (it can be copied and needs no release).
 */
#ifndef POSTRIDER_PEER_WIRE_H
#define POSTRIDER_PEER_WIRE_H

#include <stddef.h>
#include "peer-crypto.h"
#include "util.h"

struct repo;

#define PEER_WIRE_MAX_DICE 32	/* "dice" lines one envelope may carry */
#define PEER_WIRE_VRF_PROOF 81	/* an ECVRF proof (HEX162 of 8.1) */
#define PEER_WIRE_MAX_GAME 24	/* a game id and its NUL */
#define PEER_WIRE_MAX_KIND 8	/* the longest kind ("invite") and NUL */

/* One "dice OID HEX162" line: the sender's VRF proof for request OID. */
struct peer_dice_line {
	char oid[41];		/* 40 lowercase hex digits */
	unsigned char proof[PEER_WIRE_VRF_PROOF];
};

/* The envelope of docs/peer.md 8.1, decoded. */
struct peer_envelope {
	char game[PEER_WIRE_MAX_GAME];	/* as mail_valid_game_id() */
	int from;			/* the committer: 1 american, 2 british */
	unsigned long seq;		/* decimal, no leading zero */
	char parent[41];		/* 40 lowercase hex digits; "" for none */
	char commit[41];		/* 40 lowercase hex digits */
	char kind[PEER_WIRE_MAX_KIND];	/* invite join order answer claim end */
	unsigned char patch[32];	/* SHA-256 of the patch attachment */
	int n_dice;			/* 0 to PEER_WIRE_MAX_DICE */
	struct peer_dice_line dice[PEER_WIRE_MAX_DICE];
	unsigned char sig[PCRYPTO_PROOF];	/* set by write and parse */
};

/* True when kind is one of the kinds of docs/peer.md 6.5. */
int peer_kind_valid(const char *kind);

/*
 * Writes the envelope e (every field but sig) as the text of 8.1, signs
 * every byte before "sig " with sk (3.3) and appends the whole text, "sig"
 * line included, to out. e->sig is not read (e is const: the signature is
 * only in the text). -1 (out unchanged) when a field is not valid for the
 * grammar (a bad game id, side, oid, kind, n_dice), with a message on
 * stderr (a BUG of the caller, not input).
 */
int peer_envelope_write(const struct peer_envelope *e,
			const struct pcrypto_secret *sk, struct strbuf *out);

/*
 * Parses text (len bytes, need not be NUL-terminated) with the strict
 * grammar of 8.1: exactly these lines in this order, LF ends (a CR
 * anywhere is refused), lowercase hex, no leading zero in seq, nothing
 * before the first or after the "sig" line, no empty line. Fills *e
 * (e->sig too); does not check the signature. 0, or -1 with the reason
 * in why ("line 4: seq has a leading zero", ...) and *e zeroed.
 */
int peer_envelope_parse(const char *text, size_t len, struct peer_envelope *e,
			char *why, size_t whylen);

/*
 * 0 when the "sig" line of text (the envelope e was parsed from) is the
 * signature, under sign_key (the opponent's, game.yaml), of every byte of
 * text before the "sig " line; -1 otherwise (also for a text whose last
 * line is not the sig line).
 */
int peer_envelope_verify(const struct peer_envelope *e,
			 const unsigned char sign_key[PCRYPTO_PT],
			 const char *text, size_t len);

/*
 * The Message-ID of the mail that carries commit `seq` of game `game`
 * made by `side` (1 or 2), sent from the address addr ("a@b" or "Name
 * <a@b>": its domain is the id's right side):
 * "<postrider.GAME.SEQ.SIDE.peer@DOMAIN>" (SIDE american or british; the
 * game id where mail_find_game() looks for it). Written to out (NUL
 * terminated). 0, or -1 (no domain in addr, out too small).
 */
int peer_mail_message_id(const char *game, unsigned long seq, int side,
			 const char *addr, char *out, size_t outlen);

/* What peer_mail_compose() needs. Nothing is owned by the struct. */
struct peer_mail {
	const char *from;	/* the committer: "Name <addr>" or "addr" */
	const char *to;		/* the opponent */
	const char *date;	/* RFC 5322 date (mail_format_date()) */
	const char *in_reply_to;	/* the parent's Message-ID, or NULL */
	const char *references;	/* the thread's ids, space-separated, or NULL */
	const struct peer_envelope *env;	/* its game, seq, from, kind */
	const char *envelope;	/* the signed envelope text (write's) */
	size_t envelope_len;
	const char *patch;	/* the patch, repo_format_patch()'s */
	size_t patch_len;
};

/*
 * Appends to out the mail of 8.1 (CRLF line ends): From, To, Subject
 * "[ID] peer SEQ SIDE KIND", Date, Message-ID (peer_mail_message_id() of
 * env's game, seq and side at from's domain), In-Reply-To, References,
 * X-Postrider-Game, X-Postrider-Commit, Auto-Submitted: auto-generated;
 * a multipart/mixed of a short text for a human, the envelope
 * "peer-SEQ.txt" (text/plain, 7bit) and the patch "SEQ-SIDE.patch"
 * (text/x-diff, base64: its bytes arrive as hashed). The output depends
 * only on m. 0, or -1 with the reason in why (out unchanged).
 */
int peer_mail_compose(const struct peer_mail *m, struct strbuf *out,
		      char *why, size_t whylen);

/*
 * Finds the two attachments of a peer mail in the raw mail (len bytes, LF
 * or CRLF, an mbox "From " line allowed) as a mail client may deliver it:
 * any nesting of multipart parts; each part found by its file name
 * (Content-Disposition filename, else Content-Type name): the envelope
 * "peer-N.txt", the patch "N-SIDE.patch"; transfer encodings 7bit, 8bit,
 * binary, base64 and quoted-printable. The envelope's CRLF line ends are
 * made LF (its grammar has no CR: a CRLF can only be the mail's); the
 * patch is given byte for byte as decoded (base64), or with the mail's
 * CRLF made LF (the other encodings, whose line ends are the mail's).
 * Appends them to envelope and patch.
 * Returns 0; 1 when the mail has no envelope attachment (not a peer
 * mail: nothing appended); -1 with the reason in why (two envelopes, an
 * envelope without a patch, a bad encoding, a mail over MAIL_MAX_SIZE).
 */
int peer_mail_extract(const char *mail, size_t len, struct strbuf *envelope,
		      struct strbuf *patch, char *why, size_t whylen);

/*
 * 8.3 step 3: 0 when SHA-256(patch) is e->patch, else -1 with the reason.
 */
int peer_patch_check(const struct peer_envelope *e, const char *patch,
		     size_t len, char *why, size_t whylen);

/* Where a received commit falls in this copy's history (8.3 step 4). */
enum peer_place {
	PEER_PLACE_NEXT,	/* parent is the head (or none and no commit
				   yet) and seq one more: go on */
	PEER_PLACE_COPY,	/* commit already in the history: nothing to
				   do, exit 0 ("already applied") */
	PEER_PLACE_FORK,	/* parent in the history but not the head (or
				   none while the copy has commits): refuse,
				   keep the mail (peer_keep_fork()) */
	PEER_PLACE_UNKNOWN,	/* parent unknown: temporary failure, exit 75 */
	PEER_PLACE_BAD,		/* parent is the head but seq is not one
				   more than the head's Postrider-Seq:
				   refuse */
};
#define PEER_EXIT_TEMPFAIL 75	/* EX_TEMPFAIL: the mail system retries */

/*
 * Says where e falls in r's first-parent history of main. For FORK and
 * BAD a reason is written to why ("forks the history after SEQ: ...");
 * for the others why gets a short note. Returns the place, or -1 (the
 * repository cannot be read; reason in why).
 */
int peer_place(struct repo *r, const struct peer_envelope *e, char *why,
	       size_t whylen);

/*
 * Keeps the mail (len bytes, as received) as evidence of a fork in
 * <gitdir>/postrider/peer/forks/SEQ-SIDE-COMMIT.eml (under the copy's
 * private folder, mode 0700; written whole or not at all). Appends its
 * path to path_out if not NULL. 0, or -1 with the reason in why.
 */
int peer_keep_fork(struct repo *r, const struct peer_envelope *e,
		   const char *mail, size_t len, struct strbuf *path_out,
		   char *why, size_t whylen);

#endif
