/*
 * hostlog.h - the host's log of the messages a mail system hands to
 * postrider: one line for each, whatever became of it (accepted, answered,
 * rejected, ignored, or failed and to be retried), so that the host can
 * see every message that could not be processed without reading mail.
 *
 *   2026-11-24T19:35:54Z ww-1a2b3c4d <id@example.org> alice@example.org: exit 75: the game is busy
 *
 * The file is named by `log:` in the configuration; without it the lines
 * go nowhere (stderr, which the mail system logs, says the same). Each
 * line is one write(2) with O_APPEND, so concurrent runs never mix lines.
 * Control characters in any field become spaces.
 *
 * Ownership: nothing is kept.
 */
#ifndef POSTRIDER_HOSTLOG_H
#define POSTRIDER_HOSTLOG_H

/*
 * Appends a line for one message to path (no-op when path is NULL). game,
 * message_id and from may be NULL ("-"); what says what became of it.
 * Returns 0, or -1 after a warning on stderr (the run goes on: a log that
 * cannot be written must not lose a turn).
 */
int hostlog_write(const char *path, long long now, const char *game,
		  const char *message_id, const char *from, int status,
		  const char *what);

#endif
