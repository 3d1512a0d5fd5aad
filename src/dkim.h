/*
 * dkim.h - DKIM signatures (RFC 6376, with the ed25519-sha256 method of
 * RFC 8463 and the rules of RFC 8301): canonicalisation, the signature's
 * and the key record's tag lists, the hashes and the signature check,
 * written from the RFCs on libcrypto. Nothing here does I/O: the key
 * records come from the caller (dkim-dns.h fetches them).
 *
 * A message is bytes as received, with LF or CRLF line ends; every
 * function that reads one makes its line ends CRLF first (RFC 6376 5.3:
 * a verifier works on the message as it went over SMTP), so LF-only mail
 * handed over by a local mail system verifies as it was signed.
 *
 * Ownership: the caller owns every buffer; struct dkim_sig's strings are
 * the struct's (dkim_sigs_free()); the out strbufs gain text.
 */
#ifndef POSTRIDER_DKIM_H
#define POSTRIDER_DKIM_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

enum dkim_canon { DKIM_SIMPLE, DKIM_RELAXED };

/* At most this many signatures of one message are checked (each may
 * need a DNS query at intake): the others are named "not checked". */
#define DKIM_MAX_SIGS 4

/* ---- canonicalisation (dkim-canon.c) ---- */

/* msg (len bytes) with every line end CRLF: a lone LF becomes CRLF, a
 * CRLF stays; a first line "From ..." (an mbox envelope, as procmail
 * hands a message over) is left out. Appended to out. */
void dkim_crlf(const char *msg, size_t len, struct strbuf *out);

/* One header field of a CRLF message: where it starts, its name's length
 * (without blanks before the colon) and its whole length up to, not
 * including, the CRLF that ends its last line. */
struct dkim_field {
	const char *start;
	size_t name_len;
	size_t len;
};

/*
 * Splits a CRLF message into its header fields (at most max; *n set, a
 * message with more is cut there) and finds its body: *body the first
 * byte after the empty line (msg + len when there is none). Returns 0, or
 * -1 for a header that is no header (a line with no colon before the
 * empty line, a continuation line first).
 */
int dkim_split(const char *msg, size_t len, struct dkim_field *fields, size_t max,
	       size_t *n, const char **body);

/* The field f canonicalised (RFC 6376 3.4.1, 3.4.2) and its CRLF,
 * appended to out. */
void dkim_canon_header(enum dkim_canon c, const struct dkim_field *f, struct strbuf *out);
/* The body (len bytes, CRLF) canonicalised (RFC 6376 3.4.3, 3.4.4),
 * appended to out: simple, trailing empty lines dropped and one CRLF at
 * the end (a CRLF alone for an empty body); relaxed, blanks at line ends
 * dropped, runs of blanks one space, trailing empty lines dropped (empty
 * for an empty body). */
void dkim_canon_body(enum dkim_canon c, const char *body, size_t len, struct strbuf *out);

/* ---- signatures and keys (dkim.c) ---- */

enum dkim_verdict {
	DKIM_PASS,		/* the signature verifies */
	DKIM_FAIL,		/* it does not, or is malformed, or its key is
				   none, revoked or unusable (why) */
	DKIM_TEMPERROR,		/* the key record could not be fetched */
	DKIM_UNCHECKED,		/* beyond DKIM_MAX_SIGS */
};

/* One DKIM-Signature field of a message and what became of it. */
struct dkim_sig {
	char *d, *s, *a, *c;	/* its tags (c as "header/body"), or NULL
				   for a field too broken to name them */
	char *key_name;		/* s._domainkey.d, or NULL */
	enum dkim_verdict verdict;
	char *why;		/* for FAIL and TEMPERROR: one line */
};

/*
 * The key records a check needs, asked for by name ("s._domainkey.d"):
 * sets *txt (malloc'd, the record's text; several records at one name
 * joined by "\n") and returns 1; 0 when there is none; -1 for a
 * temporary failure (DNS down). ctx is the caller's.
 */
typedef int (*dkim_key_fn)(void *ctx, const char *name, char **txt);

/*
 * Checks every DKIM-Signature of msg (len bytes, as received) with the
 * keys key() gives, at the time now (seconds since the epoch: a
 * signature that expired, x=, before it fails). *sigs receives a
 * malloc'd array of *n results, in the order of the fields, top first.
 * Returns 0, or -1 when the message's header cannot be split (no
 * signature checked).
 */
int dkim_check(const char *msg, size_t len, dkim_key_fn key, void *ctx, long long now,
	       struct dkim_sig **sigs, size_t *n);
void dkim_sigs_free(struct dkim_sig *sigs, size_t n);

/*
 * Whether a signing domain d speaks for the mail domain dom (both lower
 * case): the same domain, or one a subdomain of the other where the
 * shorter has at least two labels (RFC 7489 3.1.1's relaxed alignment,
 * with the organisational domain taken as any common parent of two
 * labels or more: no public suffix list is consulted).
 */
bool dkim_aligned(const char *d, const char *dom);

/*
 * The names of the header fields the signatures of msg cover (their h=
 * lists, lower case, each once) joined by ':', appended to out. Fields
 * that cannot be split add nothing.
 */
void dkim_signed_names(const char *msg, size_t len, struct strbuf *out);

#endif
