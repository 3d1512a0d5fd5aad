/*
 * repo.h - the game repository: a git repository read and written through
 * libgit2 (docs/repository.md).
 *
 * The game lives on one branch, refs/heads/main (REPO_BRANCH). Every
 * function below reads or moves that branch, never whatever HEAD happens
 * to point to; "HEAD" in this file means "the commit refs/heads/main points
 * to". A repository whose branch main is missing behaves like a repository
 * without commits.
 *
 * One run that changes the game follows this protocol:
 *
 *	repo_open()            (or repo_create() for a new game)
 *	repo_lock()            one run at a time per game
 *	repo_head()            the commit the run starts from: `base`
 *	repo_read(base, ...)   the state
 *	... adjudicate ...
 *	repo_commit_prepare(base, files, ...)   objects only, nothing visible
 *	repo_commit_publish(base, commit)       the one atomic step
 *	repo_unlock(), repo_free()
 *
 * A rejected order stops before repo_commit_prepare() (or after it: a
 * prepared but unpublished commit is unreferenced garbage that changes
 * neither a ref nor the work tree; `git gc` prunes it).
 *
 * Ids are passed as 40-character lowercase hex strings (char[41] buffers
 * for results). Where a parameter is called `rev`, any git revision
 * expression is accepted ("HEAD~2", "main", a full or abbreviated id) and
 * NULL means HEAD (refs/heads/main).
 *
 * Return values: 0 on success, -1 on error after printing "error: ..." on
 * stderr (with libgit2's reason), and the positive REPO_* codes below where
 * a function documents them. Results given in a struct strbuf are
 * appended to it.
 *
 * Ownership: struct repo is owned by the caller of repo_create() or
 * repo_open() and freed with repo_free(), which also releases the lock.
 * Strings returned by repo_gitdir() and repo_workdir() belong to the repo.
 */
#ifndef POSTRIDER_REPO_H
#define POSTRIDER_REPO_H

#include <stdbool.h>
#include <stddef.h>
#include "util.h"

#define REPO_BRANCH "refs/heads/main"

/* Positive results (never errors). */
#define REPO_MISSING 1	/* repo_head: no commit yet; repo_read: no such file */
#define REPO_STALE 2	/* repo_commit_publish: the branch moved meanwhile */
#define REPO_BUSY 3	/* repo_lock: another run holds the game */

struct repo;

/*
 * Initialises libgit2 and sets the options postrider relies on (fsync of
 * objects and refs, see repo_set_durable()), and the process's umask to
 * at least 022: nothing postrider creates is writable by others, whatever
 * the host's umask (as git's core.sharedRepository = 0644 would; a new
 * repository says so in its configuration, for the git commands the host
 * runs on it). Called lazily by repo_create() and repo_open(); calling it
 * again does nothing.
 */
void repo_global_init(void);
/* Releases libgit2's global state; call once at exit, after repo_free(). */
void repo_global_shutdown(void);
/*
 * Durable writes (the default): object, ref and index files are fsync'd
 * (with their folders) before they are renamed into place, so a power
 * failure cannot leave a ref pointing to an object that was lost. Turning
 * it off is only for tests and benchmarks on throwaway repositories.
 */
void repo_set_durable(bool on);

/*
 * Creates a new non-bare repository in dir (created with its parents if it
 * does not exist; if it exists it must be an empty folder), with HEAD
 * pointing to refs/heads/main and no commits. On success *out is a new
 * repo; on error *out is NULL (a partly created dir may remain).
 */
int repo_create(const char *dir, struct repo **out);
/*
 * Opens the repository at dir: a work tree (dir/.git) or a bare repository
 * (or a .git folder itself). dir itself must be the repository: parent
 * folders are not searched. Any repository opens, also one that is not a
 * game; the caller checks the contents. On error *out is NULL.
 */
int repo_open(const char *dir, struct repo **out);
/* The same, printing nothing: why it failed is appended to why. */
int repo_open_why(const char *dir, struct repo **out, struct strbuf *why);
/* Frees r, releasing its lock if held. NULL is a no-op. */
void repo_free(struct repo *r);

/* The absolute path of the git dir (".../.git" or the bare repository), without a final '/'. */
const char *repo_gitdir(const struct repo *r);
/* The absolute path of the work tree without a final '/', NULL if bare. */
const char *repo_workdir(const struct repo *r);
bool repo_is_bare(const struct repo *r);
/* The libgit2 repository behind r, for modules that talk to remotes
 * (publish.c); it belongs to r. */
struct git_repository *repo_git(struct repo *r);
/*
 * Whether HEAD is a symbolic ref to refs/heads/main (always true for a
 * repository made by repo_create()). When it is not, repo_commit_publish()
 * still moves refs/heads/main but leaves the work tree alone.
 */
bool repo_head_on_main(struct repo *r);

/*
 * Writes the id of HEAD (refs/heads/main) into hex. Returns 0, REPO_MISSING
 * if the branch has no commit yet (hex is then ""), or -1.
 */
int repo_head(struct repo *r, char hex[41]);

/*
 * Appends the contents of the file `path` in the tree of commit `rev` (NULL:
 * HEAD) to out. Returns 0, REPO_MISSING if there is no such file (or no
 * commit at all when rev is NULL), -1 on error (bad rev, invalid path,
 * path names a folder).
 */
int repo_read(struct repo *r, const char *rev, const char *path,
	      struct strbuf *out);

/*
 * The object id of the file or folder at path in the tree of rev (NULL for
 * HEAD): it changes whenever anything under path changes. Returns 0,
 * REPO_MISSING, or -1 after printing an error.
 */
int repo_entry_id(struct repo *r, const char *rev, const char *path,
		  char hex[41]);

/* An identity for a commit: time in seconds since the epoch, tz_minutes east of UTC (e.g. -300 for EST). */
struct repo_ident {
	const char *name, *email;
	long long time;
	int tz_minutes;
};

/*
 * A file to add or replace. path is relative to the top of the tree, with
 * '/' between folders ("orders/0001-american.txt"); see repo_check_path().
 * data need not be NUL-terminated; len bytes are stored (mode 100644).
 */
struct repo_file {
	const char *path;
	const char *data;
	size_t len;
};

/*
 * Checks that path is a safe relative path inside the tree: not empty, not
 * absolute, no empty, "." or ".." component, no component named ".git" (in
 * any case, also with trailing dots or spaces, or as "git~1"), no
 * backslash and no control character. Returns 0, or -1 after printing an
 * error that quotes the path.
 */
int repo_check_path(const char *path);

/*
 * Creates (but does not publish) a commit. Its tree is the tree of `parent`
 * (40-hex id, or NULL for a root commit with an empty starting tree) with
 * the n_files `files` added or replaced, and the paths in `remove` (a
 * NULL-terminated list, may be NULL) deleted; removing a folder deletes
 * everything under it, and folders left empty disappear. Entries not
 * mentioned keep their contents and modes.
 *
 * It is an error (-1, nothing referenced written) if a path is invalid
 * (repo_check_path()), appears twice, is both a file and the folder of
 * another path, replaces a folder by a file or the other way round, or is
 * removed but does not exist.
 *
 * The message is cleaned up like `git commit` does (trailing whitespace
 * and surrounding blank lines removed, one final newline); it must not be
 * empty. author and committer give explicit names, emails, times and time
 * zones, so the same inputs give the same commit id on every machine.
 *
 * Only objects (blobs, trees, the commit) are written: no ref, index or
 * work tree file changes. On success the new commit's id is in out_hex.
 */
int repo_commit_prepare(struct repo *r, const char *parent,
			const struct repo_file *files, int n_files,
			const char *const *remove,
			const struct repo_ident *author,
			const struct repo_ident *committer,
			const char *message, char out_hex[41]);

/*
 * Publishes a prepared commit: moves refs/heads/main from `expected` (40-hex
 * id, or NULL when the branch must not exist yet) to `commit`, as one
 * atomic compare-and-swap under git's ref lock. The commit's parent must
 * be `expected` (no parent when expected is NULL).
 *
 * Returns 0; REPO_STALE if the branch is no longer at `expected` (nothing
 * changed); -1 on error (nothing changed either, except that the ref may
 * be locked by another git process, which the message names).
 *
 * After the ref moved, for a non-bare repository whose HEAD is on main,
 * the index and work tree are updated to the new commit (repo_checkout()).
 * A failure there only prints a warning and still returns 0: the commit
 * stands.
 */
int repo_commit_publish(struct repo *r, const char *expected,
			const char *commit);

/*
 * Forces the index and the work tree of a non-bare repository to match
 * HEAD (refs/heads/main), as `git reset --hard` would for tracked files:
 * changed files are overwritten, files no longer in the tree are deleted,
 * untracked files are left alone. Used by repo_commit_publish(); call it
 * to repair a work tree after a crash. Does nothing for a bare repository
 * or one without commits. Returns 0 or -1.
 */
int repo_checkout(struct repo *r);

/*
 * Appends one commit `rev` as a `git format-patch` mbox message ("From
 * <id> Mon Sep 17 00:00:00 2001", From:, Date:, "Subject: [PATCH] ...",
 * the diff against its first parent, or against the empty tree for a root
 * commit, with binary files as git binary patches) to out. `git am`
 * applies it. Merge commits are an error.
 */
int repo_format_patch(struct repo *r, const char *rev, struct strbuf *out);

/*
 * The same, lighter: the files whose path starts with prefix ("data/")
 * written as git binary patches (deflated, then base 85, checked by their
 * full blob id when applied) instead of their lines, and their diffstat
 * lines as git writes a binary file's. Meant for a commit that only adds
 * files (the first: its component data is most of it, and every copy of
 * postrider carries the same). `git am` applies it to the same tree and
 * commit as repo_format_patch()'s. Returns 0, or -1 after a message
 * (nothing appended).
 */
int repo_format_patch_packed(struct repo *r, const char *rev,
			     const char *prefix, struct strbuf *out);

/*
 * Takes the exclusive lock of this game for one run: flock(2) on
 * <gitdir>/postrider.lock (created if needed, never deleted), so the
 * kernel releases it when the process dies, however it dies. Waits up to
 * timeout_ms milliseconds (0: do not wait). Returns 0, REPO_BUSY if another
 * holder kept it for the whole wait, -1 on error. The lock is not
 * inherited across exec. Locking a repo that is already locked is a BUG.
 */
int repo_lock(struct repo *r, int timeout_ms);
/* Releases the lock if held (also done by repo_free()). */
void repo_unlock(struct repo *r);

/*
 * The first-parent history from the root commit to HEAD, oldest first:
 * *out is a malloc'd array of *n ids that the caller frees with free()
 * (NULL and 0 when there are no commits). Returns 0 or -1.
 */
int repo_history(struct repo *r, char (**out)[41], size_t *n);

/*
 * Writes the whole history of main as a git bundle (version 2: a header
 * naming refs/heads/main and HEAD, then one packfile) to path, so that
 * `git clone path` gives the game. Returns 0 or -1.
 */
int repo_write_bundle(struct repo *r, const char *path);
/*
 * Makes a new bare repository in dir (absent or empty) from the bundle at
 * path, with refs/heads/main as the bundle says and HEAD pointing to it.
 * Returns 0, or -1 (not a bundle this reads, a broken pack).
 */
int repo_from_bundle(const char *path, const char *dir);

/* The full id of commit `rev` into hex. Returns 0 or -1 (unknown). */
int repo_resolve(struct repo *r, const char *rev, char hex[41]);

/*
 * What commit `rev` changes against its first parent (against nothing for
 * a root commit): one line per path, "A path", "M path" or "D path" (added,
 * modified, deleted; a type change is "M"), sorted by path, appended to
 * out. *parents is set to the commit's number of parents. Returns 0 or -1.
 */
int repo_changes(struct repo *r, const char *rev, struct strbuf *out,
		 unsigned *parents);

/*
 * The full message, the author's name and email, and the author time
 * (seconds since the epoch) of commit `rev`. Any output may be NULL.
 * Returns 0 or -1.
 */
int repo_commit_info(struct repo *r, const char *rev, struct strbuf *message,
		     struct strbuf *author_name, struct strbuf *author_email,
		     long long *time);

/*
 * Trailers: the one reader of the "Key: value" lines that end a commit
 * message (docs/repository.md), with the meaning git gives them
 * (git-interpret-trailers(1)): the trailers are the last paragraph of the
 * message, after its last blank line, when that paragraph is not the
 * first (the subject) and each of its lines is a trailer ("Key:" with a
 * key of letters, digits and '-', then the value) or continues the one
 * above (a line that starts with a blank). Blank lines at the end are
 * skipped. A key matches in any case. Anything else in the message,
 * however it looks, is no trailer.
 */
/* The offset in msg where its trailers begin: strlen(msg) when it has none. */
size_t repo_trailer_block(const char *msg);
/* Appends the value of the nth (0 the first) trailer `key` of msg to out,
 * without the blanks around it, continuation lines joined by one space.
 * 0, or -1 when msg has fewer such trailers (out unchanged). */
int repo_trailer_get(const char *msg, const char *key, unsigned nth,
		     struct strbuf *out);
/* The same for the first trailer `key` of commit rev: 0, or -1 when it
 * has none or the commit cannot be read. */
int repo_trailer(struct repo *r, const char *rev, const char *key,
		 struct strbuf *out);

/*
 * Appends "<gitdir>/postrider/<name>" to out: a place for files that are
 * never committed (caches, outgoing mail not yet sent). Creates the
 * folder <gitdir>/postrider with mode 0700 if needed. name is one path
 * component (no '/', not "." or ".."). Returns 0 or -1.
 */
int repo_private_path(const struct repo *r, const char *name,
		      struct strbuf *out);

/*
 * Applies a patch made by repo_format_patch() or repo_format_patch_packed()
 * (len bytes; one commit, mbox form) to the tree of HEAD with libgit2 (no
 * `git` process), or to the empty tree when there is no commit yet (the
 * patch of a root commit), and makes the commit git am would: the
 * patch's author, date and message ("Subject: [PATCH] S" and the body:
 * "S\n\nBODY"), committer = author (docs/peer.md 6.5). Only when its id
 * is expect_oid (40 hex digits) is main moved to it (from HEAD, a
 * compare-and-swap as repo_commit_publish()) and the work tree updated.
 * The patch must apply exactly (no fuzz; binary patches are checked by
 * their blob ids); it may only touch plain files (mode 100644) at paths
 * repo_check_path() accepts. Returns 0; -1 with a one-line reason in why,
 * main and the work tree unchanged: a patch that does not parse or
 * apply, a path refused (repo_check_path() also names it on stderr), a
 * commit whose id is not expect_oid, main moved meanwhile. Objects
 * written before a refusal (blobs, trees) are unreferenced garbage, as
 * after repo_commit_prepare(); the commit itself is written only once
 * its id is known to be expect_oid.
 */
int repo_apply_patch(struct repo *r, const char *patch, size_t len,
		     const char *expect_oid, char *why, size_t whylen);

/*
 * The first half of repo_apply_patch(): the commit built and, only when
 * its id is expect_oid, written, but not published: main, the index and
 * the work tree do not move. The caller can then read the new commit
 * (repo_read(r, expect_oid, ...): docs/peer.md 8.3 step 6, the replay)
 * and publish it with repo_commit_publish(r, head_hex or NULL,
 * expect_oid), which fails with REPO_STALE if main moved meanwhile.
 * head_hex receives the head the patch was applied to ("" when there
 * was no commit). 0, or -1 with the reason in why, as repo_apply_patch().
 */
int repo_patch_prepare(struct repo *r, const char *patch, size_t len,
		       const char *expect_oid, char head_hex[41], char *why,
		       size_t whylen);

/*
 * What a patch (as repo_apply_patch() takes) changes, without applying
 * it: one line per file, "A path", "M path" or "D path" (added, modified
 * or deleted; a mode change is "M", a rename is "D old" and "A new"),
 * sorted by path, appended to out as repo_changes() does. 0, or -1 with
 * the reason in why (out unchanged).
 */
int repo_patch_changes(const char *patch, size_t len, struct strbuf *out,
		       char *why, size_t whylen);

#endif
