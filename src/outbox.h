/*
 * outbox.h - the outbox, a Maildir-style folder of ready-to-send
 * messages, and sending them through the configured transport
 * (transport.h).
 *
 *   DIR/tmp/  being written, or staged around a git commit
 *   DIR/new/  ready to send
 *   DIR/cur/  sent (the name gains ":2,S", as a seen Maildir message),
 *             kept two weeks (outbox_prune())
 *   DIR/failed/  refused for good by the mail system (a 5xx reply, or
 *             sendmail's EX_NOUSER...): kept for the host, never retried
 *   DIR/.lock the sender's lock (flock): one sender at a time
 *
 * A message is never lost: a file moves from tmp/ to new/ to cur/ only by
 * rename(2) after its data is fsync'ed, and a failed send leaves it in new/.
 * File names are the hint given by the caller, reduced to [A-Za-z0-9._-],
 * plus "." and the smallest counter (1, 2, ...) not used in tmp/, new/ or
 * cur/, so names are deterministic in tests.
 *
 * The lead's sequence for one run: outbox_stage() every message, commit,
 * then outbox_publish() each; on start, outbox_recover() finishes or drops
 * what a crash left in tmp/.
 *
 * I/O failures are printed with error() (an unwritable outbox says which
 * folder and why) and return -1.
 */
#ifndef POSTRIDER_OUTBOX_H
#define POSTRIDER_OUTBOX_H

#include <stddef.h>
#include "config.h"
#include "util.h"

/*
 * Writes msg (len bytes) to DIR/tmp/, fsyncs it and renames it into
 * DIR/new/, creating the three folders as needed. Appends the final path
 * to path_out if path_out is not NULL. Returns 0 or -1.
 */
int outbox_add(const char *dir, const char *name_hint, const char *msg,
	       size_t len, struct strbuf *path_out);

/*
 * Like outbox_add() but stops after the fsync in DIR/tmp/: appends the
 * path of the staged file to tmp_path_out (required). Returns 0 or -1.
 */
int outbox_stage(const char *dir, const char *name_hint, const char *msg,
		 size_t len, struct strbuf *tmp_path_out);

/*
 * Moves a file staged by outbox_stage() (tmp_path, as it returned it) into
 * DIR/new/ and fsyncs the folder. Returns 0 or -1.
 */
int outbox_publish(const char *dir, const char *tmp_path);
/* The same for n staged files at once, new/ and tmp/ fsynced once after
 * all the renames. Returns 0, or -1 if any of them failed (each failure
 * reported; the others are published). */
int outbox_publish_all(const char *dir, char *const *tmp_paths, int n);

/*
 * Called by outbox_recover() for each file left in DIR/tmp/, with its path
 * and contents (borrowed for the call). Returns 1 to publish it, 0 to
 * delete it, -1 to leave it (an error to report).
 */
typedef int outbox_keep_fn(const char *path, const char *msg, size_t len,
			   void *ctx);

/*
 * Asks keep about every file in DIR/tmp/ (in name order) and publishes or
 * deletes it. Returns the number of files that could not be dealt with
 * (0 when all is well), or -1 if the folder cannot be read. A missing
 * outbox is empty.
 */
int outbox_recover(const char *dir, outbox_keep_fn *keep, void *ctx);

/*
 * Sends every message in DIR/new/ (in name order) through the transport
 * of cfg (transport.h), moving each sent one to DIR/cur/, holding
 * DIR/.lock meanwhile (a second sender waits, then finds nothing left).
 * Appends one line per message to report: "sent 'NAME' to a@b.org,
 * c@d.org" or "not sent 'NAME': REASON". A message refused for good moves
 * to DIR/failed/ (counted in *permanent, if not NULL); one that failed for
 * now stays in new/ for the next try. Returns the number of messages not
 * sent (0 = all sent), or -1 if the outbox cannot be read or locked.
 * Without a transport nothing is sent and every message counts as not
 * sent.
 */
int outbox_send(const char *dir, const struct mail_config *cfg,
		struct strbuf *report, int *permanent);

/*
 * How long sent mail is kept in DIR/cur/: every message written within
 * OUTBOX_KEEP_DAYS days, and in any case the OUTBOX_KEEP_LAST newest. A
 * sent report is a copy: what it said the game's repository keeps
 * (`postrider show DIR --at N --as SIDE`, `postrider log`); cur/ keeps
 * the recent ones for a host asked whether, when and to whom a message
 * went, byte for byte.
 */
#define OUTBOX_KEEP_DAYS 14
#define OUTBOX_KEEP_LAST 20

/*
 * Deletes from DIR/cur/ the sent messages kept long enough: those beyond
 * the OUTBOX_KEEP_LAST newest (by the time each file was written, then by
 * name) that were written more than OUTBOX_KEEP_DAYS days before now
 * (seconds since the epoch). new/, failed/ and dropped/ are never
 * touched. Holds DIR/.lock meanwhile. Returns how many were deleted, or
 * -1 if cur/ cannot be read or the outbox locked (the reason appended to
 * report, as is a warning for a file that cannot be deleted).
 */
int outbox_prune(const char *dir, long long now, struct strbuf *report);

#endif
