/*
 * perms.h - who may write a game's files (issue 39, item 6): a game folder
 * whose .git/config, refs or hooks others can write is another user's to
 * steer (point the branch elsewhere, add a hook that runs as the host).
 * postrider creates nothing so (repo_global_init()); `doctor` uses this to
 * name what an older run, or a hand, left writable.
 *
 * Ownership: the caller's strbuf gains lines; nothing else is kept.
 */
#ifndef POSTRIDER_PERMS_H
#define POSTRIDER_PERMS_H

#include "util.h"

/*
 * Walks root, not following symbolic links (a link's own mode means
 * nothing), and counts the files and folders the group or others may
 * write (mode & 022). The first `named` of them are appended to out, one
 * a line, as "      'PATH' (mode NNN)". Returns the count, or -1 if root cannot
 * be walked (errno set).
 */
int perms_writable_by_others(const char *root, int named, struct strbuf *out);

#endif
