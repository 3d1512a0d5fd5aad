/*
 * dkim-intake.h - a player's mail kept with his order, with the proof
 * that it came from his mail provider (docs/fairness.md, section 22).
 *
 * At intake (play_decide(), host mode) the mail's DKIM signatures are
 * checked (dkim.h) with key records fetched once (dkim-dns.h); with the
 * host's `dkim: dmarc: enforce` a mail whose From domain publishes a
 * strict DMARC policy and that carries no valid signature of that domain
 * is refused. When the order is committed, the commit adds the public
 * record mail/NNNN-SIDE.txt: the verdict, each signature's result and
 * the key records as fetched, and a salted commitment to the mail as
 * kept; the mail itself waits, sealed, in <gitdir>/postrider/mail/ (it
 * quotes the player's report and so his hand) until `postrider reveal`
 * commits it as mail/NNNN-SIDE.eml. The audit re-checks every kept
 * signature against the key record kept with it (dkim-audit.h).
 *
 * The record (one line each, LF ends; docs/fairness.md 22.2):
 *
 *   postrider-mail 1
 *   order SEQ SIDE
 *   from ADDR
 *   result RESULT          pass D | pass-mta D | temperror | other D.. |
 *                          fail | none
 *   signature N VERDICT d=D s=S a=A c=C[: WHY]     (for each, top first)
 *   key NAME TEXT          (each key record, as fetched; TEXT "(none)"
 *                          or "(temporary failure)" when there was none)
 *   dmarc NAME TEXT        (dmarc: enforce only: the policy as fetched)
 *   authentication-results VALUE   (the trusted one, when configured)
 *   kept HEX               (SHA-256 of salt || the kept mail)
 *
 * Ownership: struct dkim_intake is the caller's (dkim_intake_free());
 * out strbufs gain text.
 */
#ifndef POSTRIDER_DKIM_INTAKE_H
#define POSTRIDER_DKIM_INTAKE_H

#include "config.h"
#include "dkim.h"
#include "game.h"

struct dkim_intake {
	char *from;		/* the mail's From addr-spec */
	struct strbuf lines;	/* the record's result .. authentication-
				   results lines */
	struct strbuf kept;	/* the mail as kept (CRLF; the header
				   fields no signature covers and postrider
				   does not read left out) */
	bool proven;		/* result pass or pass-mta */
};

enum dkim_intake_result {
	DKIM_INTAKE_OK,		/* checked (whatever the signatures say) */
	DKIM_INTAKE_REFUSE,	/* dmarc: enforce: not the player's mail */
	DKIM_INTAKE_RETRY,	/* dmarc: enforce and DNS down: try later */
};

/*
 * Checks mail raw (len bytes) whose From is from_addr, at time now, as
 * cfg says; *out (malloc'd) gets what to keep. REFUSE and RETRY set why
 * (one line) and leave *out NULL.
 */
enum dkim_intake_result dkim_intake(const struct dkim_config *cfg, const char *raw, size_t len,
				    const char *from_addr, long long now,
				    struct dkim_intake **out, struct strbuf *why);
void dkim_intake_free(struct dkim_intake *in);

/*
 * For order seq of side: writes the kept mail to
 * <gitdir>/postrider/mail/NNNN-SIDE.eml and sets path ("mail/NNNN-
 * SIDE.txt") and record (its text) for the commit. 0, or -1 after an
 * error (nothing to commit then: the order waits).
 */
int dkim_intake_keep(const struct game *g, const struct dkim_intake *in, uint32_t seq,
		     enum side side, struct strbuf *path, struct strbuf *record);

/* The commitment to a kept mail: SHA-256(salt || mail) in hex, salt the
 * first 16 bytes of HMAC(HMAC(seed, "postrider-key-mail"),
 * "postrider-mail-salt" || u64be(seq) || u8(side)). */
void dkim_kept_hash(const unsigned char seed[32], uint32_t seq, enum side side,
		    const char *mail, size_t len, char hex[65]);

/* The private folder of kept mails, <gitdir>/postrider/mail, into out.
 * 0 or -1. */
int dkim_kept_dir(const struct repo *r, struct strbuf *out);

/*
 * The result line (without "result ") and the signature lines of a
 * check: sigs of the mail from from_addr, and the trusted
 * Authentication-Results value ar (or NULL). Used at intake and by the
 * audit, which must derive the same lines again.
 */
void dkim_describe(const struct dkim_sig *sigs, size_t n, const char *from_addr,
		   const char *ar, struct strbuf *result, struct strbuf *sig_lines);

/*
 * The topmost Authentication-Results field of msg whose authserv-id is
 * id (ASCII case ignored), unfolded, control characters as spaces, at
 * most 500 bytes: malloc'd, or NULL.
 */
char *dkim_trusted_ar(const char *msg, size_t len, const char *id);

#endif
