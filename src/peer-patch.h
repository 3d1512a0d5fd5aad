/*
 * peer-patch.h - what a mailed peer commit carries and how it lands
 * (docs/peer.md 8.3 steps 4 to 7): its date, the facts its patch adds,
 * the rebuilt commit against the mailed one, the head moved to it.
 * peer-patch.c; below accepting a mail (peer.c) and a claim
 * (peer-silence.c).
 *
 * Ownership: every argument is the caller's.
 */
#ifndef POSTRIDER_PEER_PATCH_H
#define POSTRIDER_PEER_PATCH_H

#include "peer-record.h"

/* The outcome of a mail offered to a copy. */
enum peer_accept {
	PEER_ACCEPTED = 0,	/* the head moved to the mail's commit */
	PEER_COPY = 1,		/* already in the history: nothing changed */
	PEER_REFUSED = 2,	/* refused with the reason: nothing changed */
	PEER_LATER = 3,		/* an unknown parent: try again (EXIT_TEMPFAIL) */
	PEER_FAILED = 4,	/* the copy could not be read or written */
};

struct peer_files;
struct peer_envelope;

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

/* The facts a patch adds (verify): the lines it adds to shares.txt,
 * dice.txt and keys.txt, its new shuffle files into given; the lines it
 * adds to an order file into order. PEER_ACCEPTED, or PEER_REFUSED with
 * the reason in said. */
int peer_given_from_patch(const char *patch, struct peer_files *given,
			  struct strbuf *order, struct strbuf *said);

/*
 * The end of accepting a mail (8.3 steps 6 and 7): the commit built from
 * the facts, `commit`, must be the envelope's, and the mail's patch its
 * patch byte for byte. 0, or -1 with the reason in said.
 */
int peer_built_is_mailed(struct peer_copy *pc, const struct peer_envelope *e,
			 const char *commit, const char *patch, struct strbuf *said);
/* Publishes the built commit on the head and moves pc's head to it: 0, or
 * -1 with the reason in said (nothing changed). */
int peer_publish_head(struct peer_copy *pc, const char *commit, struct strbuf *said);

#endif
