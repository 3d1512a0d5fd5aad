/*
 * peer-start.h - the first two commits of a peer game (docs/peer.md 9.1):
 * the invitation and the join, built by one function each, which the
 * committer runs to make the commit and the receiver to replay it (8.3
 * step 6). peer-start.c.
 *
 * Ownership: every argument is the caller's.
 */
#ifndef POSTRIDER_PEER_START_H
#define POSTRIDER_PEER_START_H

#include "peer-record.h"

/* The log line of a join (6.5), the same in both copies. */
void peer_join_line(const struct game *g, enum side joiner, struct strbuf *out);

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

#endif
