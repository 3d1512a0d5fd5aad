/*
 * peer-invite.h - `peer new` and `peer join` as a library (docs/peer.md
 * 9.1): the inviter's copy made from the options and the invitation
 * mailed; the joiner's copy built from the invitation mail, checked (its
 * signature, its commit replayed, its rules data, the joiner's own
 * address), and the join mailed. Refusals and failures are said as they
 * happen (error()); what was made is in pc, for the command to say.
 *
 * Ownership: pc is the caller's, open on success (peer_copy_close());
 * the options only borrow their strings.
 */
#ifndef POSTRIDER_PEER_INVITE_H
#define POSTRIDER_PEER_INVITE_H

#include <stdbool.h>
#include "peer.h"

struct peer_invite_opts {
	const char *american, *british;	/* "Name <addr>" of each side */
	const char *me;			/* the inviter's side */
	const char *data;		/* the data folder, NULL: the installed one */
	const char *secret_hex;		/* tests only: the secret, else drawn */
	bool tournament;
};

/*
 * Starts a peer game in dir (a new folder, or an empty one): the copy,
 * its secret (0600), the invitation committed and its mail staged in the
 * outbox of cfg. 0 with pc open; 1 the options make no game (said); -1 a
 * failure (said). Nothing is left in dir unless 0.
 */
int peer_invite(const char *dir, const struct peer_invite_opts *o,
		const struct mail_config *cfg, struct peer_copy *pc);

struct peer_join_opts {
	const char *address;	/* the joiner's own address (required) */
	const char *data;	/* the data he accepts, NULL: the installed */
	const char *secret_hex;	/* tests only */
};

/*
 * Joins the game of the invitation mail (len bytes) in dir: the copy
 * from the invitation's patch, checked, then the join committed and its
 * mail staged. 0 with pc open; -1 refused or failed (said; nothing is
 * left in dir).
 */
int peer_join(const char *dir, const struct peer_join_opts *o,
	      const struct mail_config *cfg, const char *mail, size_t len,
	      struct peer_copy *pc);

#endif
