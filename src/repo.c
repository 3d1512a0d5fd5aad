/*
 * repo.c - the game repository through libgit2 (see repo.h and
 * docs/repository.md).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "repo.h"
#include "fault.h"

struct repo {
	git_repository *git;
	char *gitdir;	/* absolute, no final '/' */
	char *workdir;	/* absolute, no final '/'; NULL when bare */
	int lock_fd;	/* -1 when the lock is not held */
	/* The last prepared commit and the paths it wrote or removed, so
	 * that publishing it updates only those in the work tree. */
	git_oid prepared;
	char **prepared_paths;
	size_t n_prepared_paths;
};

/* Forgets the paths of the last prepared commit. */
static void forget_prepared(struct repo *r)
{
	for (size_t i = 0; i < r->n_prepared_paths; i++)
		free(r->prepared_paths[i]);
	free(r->prepared_paths);
	r->prepared_paths = NULL;
	r->n_prepared_paths = 0;
}

static bool global_ready;

void repo_global_init(void)
{
	if (global_ready)
		return;
	/* what postrider creates, others may not write, whatever the
	 * host's umask (issue 39: under umask 000 .git/config, the refs and
	 * the hooks were world-writable): as core.sharedRepository = 0644 */
	umask(umask(0) | 022);
	if (git_libgit2_init() < 0)
		BUG("cannot initialise libgit2");
	global_ready = true;
	repo_set_durable(true);
}

void repo_global_shutdown(void)
{
	if (!global_ready)
		return;
	git_libgit2_shutdown();
	global_ready = false;
}

void repo_set_durable(bool on)
{
	repo_global_init();
	git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, on ? 1 : 0);
}

/* Prints "error: <fmt ...>: <libgit2's reason>" and returns -1. */
PRINTF_LIKE(1, 2)
static int gitfail(const char *fmt, ...)
{
	const git_error *e = git_error_last();
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (e && e->message && *e->message) {
		size_t len = strlen(e->message);

		/* libgit2 messages may end with a newline, a full stop or ": " */
		while (len && strchr("\n.: ", e->message[len - 1]))
			len--;
		strbuf_addstr(&sb, ": ");
		strbuf_add(&sb, e->message, len);
	}
	error("%s", strbuf_str(&sb));
	strbuf_release(&sb);
	git_error_clear();
	return -1;
}

/* Copies path without final '/' characters (keeps a lone "/"). */
static char *strip_slash(const char *path)
{
	size_t len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	return xstrndup(path, len);
}

/* Wraps an opened libgit2 repository into a struct repo. */
static int wrap(git_repository *git, const char *dir, struct repo **out)
{
	struct repo *r;
	const char *wd = git_repository_workdir(git);
	char *abs = realpath(git_repository_path(git), NULL);

	if (!abs) {
		error("cannot resolve the git dir of '%s': %s", dir,
		      strerror(errno));
		git_repository_free(git);
		return -1;
	}
	r = xcalloc(1, sizeof(*r));
	r->git = git;
	r->gitdir = strip_slash(abs);
	free(abs);
	if (wd && !git_repository_is_bare(git)) {
		abs = realpath(wd, NULL);
		r->workdir = strip_slash(abs ? abs : wd);
		free(abs);
	}
	r->lock_fd = -1;
	*out = r;
	return 0;
}

/* 1 if dir exists and is an empty folder, 0 if it does not exist, -1 otherwise. */
static int check_new_dir(const char *dir)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int empty = 1;

	if (stat(dir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return error("cannot create a game in '%s': %s", dir,
			     strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return error("cannot create a game in '%s': not a folder", dir);
	d = opendir(dir);
	if (!d)
		return error("cannot create a game in '%s': %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	}
	closedir(d);
	if (!empty)
		return error("cannot create a game in '%s': the folder is not empty",
			     dir);
	return 1;
}

/* core.sharedRepository = 0644 in git's configuration of the repository. */
static int set_shared_0644(git_repository *git)
{
	git_config *cfg = NULL;
	int e = git_repository_config(&cfg, git);

	if (e == 0)
		e = git_config_set_string(cfg, "core.sharedRepository", "0644");
	git_config_free(cfg);
	return e;
}

int repo_create(const char *dir, struct repo **out)
{
	git_repository_init_options opts;
	git_repository *git = NULL;

	*out = NULL;
	repo_global_init();
	git_repository_init_options_init(&opts, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	if (check_new_dir(dir) < 0)
		return -1;
	opts.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_NO_REINIT;
	opts.initial_head = "main";
	if (git_repository_init_ext(&git, dir, &opts) < 0)
		return gitfail("cannot create a repository in '%s'", dir);
	/* and the git commands the host runs on the game (git gc) keep to
	 * it too: files 0644, folders 0755, whatever their umask */
	if (set_shared_0644(git) < 0) {
		git_repository_free(git);
		return gitfail("cannot set core.sharedRepository in '%s'", dir);
	}
	return wrap(git, dir, out);
}

/* Is dir/.git (or dir) a folder of another user than us? */
static bool owned_by_other(const char *dir)
{
	char *git = xstrfmt("%s/.git", dir);
	struct stat st;
	bool other = (!stat(git, &st) || !stat(dir, &st)) &&
		     st.st_uid != geteuid();

	free(git);
	return other;
}

int repo_open_why(const char *dir, struct repo **out, struct strbuf *why)
{
	git_repository *git = NULL;
	const git_error *e;
	int rc;

	*out = NULL;
	repo_global_init();
	rc = git_repository_open_ext(&git, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				     NULL);
	if (rc == GIT_EOWNER || (rc < 0 && owned_by_other(dir))) {
		/* libgit2 1.5 as root fails with "config value
		 * 'safe.directory' was not found" instead of GIT_EOWNER */
		git_error_clear();
		strbuf_addf(why, "'%s' belongs to another user (run postrider as "
			    "its owner, or list it in git's safe.directory)", dir);
		return -1;
	}
	if (rc < 0) {
		e = git_error_last();
		strbuf_addf(why, "'%s' is not a game repository", dir);
		if (e && e->message && *e->message) {
			size_t len = strlen(e->message);
			while (len && strchr("\n.: ", e->message[len - 1]))
				len--;
			strbuf_addf(why, ": %.*s", (int)len, e->message);
		}
		git_error_clear();
		return -1;
	}
	return wrap(git, dir, out);
}

int repo_open(const char *dir, struct repo **out)
{
	struct strbuf why = STRBUF_INIT;
	int r = repo_open_why(dir, out, &why);

	if (r < 0)
		error("%s", why.buf);
	strbuf_release(&why);
	return r;
}

void repo_free(struct repo *r)
{
	if (!r)
		return;
	repo_unlock(r);
	forget_prepared(r);
	git_repository_free(r->git);
	free(r->gitdir);
	free(r->workdir);
	free(r);
}

const char *repo_gitdir(const struct repo *r)
{
	return r->gitdir;
}

const char *repo_workdir(const struct repo *r)
{
	return r->workdir;
}

struct git_repository *repo_git(struct repo *r)
{
	return r->git;
}

bool repo_is_bare(const struct repo *r)
{
	return r->workdir == NULL;
}

bool repo_head_on_main(struct repo *r)
{
	git_reference *head = NULL;
	bool ok;

	if (git_reference_lookup(&head, r->git, "HEAD") < 0) {
		git_error_clear();
		return false;
	}
	ok = git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	     !strcmp(git_reference_symbolic_target(head), REPO_BRANCH);
	git_reference_free(head);
	return ok;
}

/* Parses exactly 40 hex digits. */
static int parse_id(const char *hex, git_oid *id)
{
	if (!hex || strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(id, hex) < 0)
		return error("invalid commit id '%s'", hex ? hex : "(null)");
	return 0;
}

/* The oid of refs/heads/main: 0, REPO_MISSING or -1. */
static int head_id(struct repo *r, git_oid *id)
{
	int rc = git_reference_name_to_id(id, r->git, REPO_BRANCH);

	if (rc == GIT_ENOTFOUND) {
		git_error_clear();
		return REPO_MISSING;
	}
	if (rc < 0)
		return gitfail("cannot read %s in '%s'", REPO_BRANCH, r->gitdir);
	return 0;
}

int repo_head(struct repo *r, char hex[41])
{
	git_oid id;
	int rc = head_id(r, &id);

	hex[0] = '\0';
	if (rc)
		return rc;
	git_oid_tostr(hex, 41, &id);
	return 0;
}

/*
 * Looks up the commit named by rev (NULL: HEAD). Returns 0, REPO_MISSING
 * (rev NULL and no commit yet) or -1.
 */
static int lookup_commit(struct repo *r, const char *rev, git_commit **out)
{
	git_object *obj = NULL;
	int rc;

	*out = NULL;
	if (!rev) {
		git_oid id;

		rc = head_id(r, &id);
		if (rc)
			return rc;
		if (git_commit_lookup(out, r->git, &id) < 0)
			return gitfail("cannot read commit %s", git_oid_tostr_s(&id));
		return 0;
	}
	if (git_revparse_single(&obj, r->git, rev) < 0)
		return gitfail("unknown revision '%s'", rev);
	rc = git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (rc < 0)
		return gitfail("'%s' is not a commit", rev);
	return 0;
}

/* Appends path to sb with control characters and backslashes escaped. */
static void add_quoted(struct strbuf *sb, const char *path)
{
	for (; *path; path++) {
		unsigned char c = *path;

		if (c < 0x20 || c == 0x7f || c == '\\')
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, c);
	}
}

/* Prints "error: invalid path '<path>': <why>" and returns -1. */
static int bad_path(const char *path, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	add_quoted(&sb, path);
	error("invalid path '%s': %s", strbuf_str(&sb), why);
	strbuf_release(&sb);
	return -1;
}

/*
 * Whether a component is ".git" in any case, also as Windows and NTFS
 * would read it (trailing dots and spaces ignored, the short name
 * "git~1"), which libgit2's checkout refuses.
 */
static bool is_dotgit(const char *comp, size_t len)
{
	while (len && (comp[len - 1] == '.' || comp[len - 1] == ' '))
		len--;
	return (len == 4 && !ascii_strncasecmp(comp, ".git", 4)) ||
	       (len == 5 && !ascii_strncasecmp(comp, "git~1", 5));
}

int repo_check_path(const char *path)
{
	const char *p, *comp;

	if (!path || !*path)
		return error("invalid path '%s': empty", path ? path : "(null)");
	if (strlen(path) >= PATH_MAX)
		return error("invalid path '%.40s...': too long", path);
	for (p = path; *p; p++) {
		unsigned char c = *p;

		if (c < 0x20 || c == 0x7f)
			return bad_path(path, "control character");
		if (c == '\\')
			return bad_path(path, "backslash (use '/' between folders)");
	}
	if (*path == '/')
		return bad_path(path, "absolute (paths are relative to the top of the game)");
	for (comp = path; ; comp = p + 1) {
		size_t len;

		p = strchrnul(comp, '/');
		len = p - comp;
		if (!len)
			return bad_path(path, "empty component");
		if (len == 1 && comp[0] == '.')
			return bad_path(path, "'.' component");
		if (len == 2 && comp[0] == '.' && comp[1] == '.')
			return bad_path(path, "'..' component");
		if (is_dotgit(comp, len))
			return bad_path(path, "'.git' component");
		if (!*p)
			break;
	}
	return 0;
}

/* Finds the entry at path in the tree of rev; the entry is the caller's.
 * Returns 0, REPO_MISSING, or -1 after printing an error. */
static int lookup_entry(struct repo *r, const char *rev, const char *path,
			git_tree_entry **out)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	int rc;

	*out = NULL;
	if (repo_check_path(path) < 0)
		return -1;
	rc = lookup_commit(r, rev, &commit);
	if (rc)
		return rc;
	if (git_commit_tree(&tree, commit) < 0) {
		rc = gitfail("cannot read the tree of '%s'", rev ? rev : "HEAD");
	} else if ((rc = git_tree_entry_bypath(out, tree, path)) == GIT_ENOTFOUND) {
		git_error_clear();
		rc = REPO_MISSING;
	} else if (rc < 0) {
		rc = gitfail("cannot read '%s'", path);
	}
	git_tree_free(tree);
	git_commit_free(commit);
	return rc;
}

int repo_read(struct repo *r, const char *rev, const char *path,
	      struct strbuf *out)
{
	git_tree_entry *entry;
	git_blob *blob = NULL;
	int rc = lookup_entry(r, rev, path, &entry);

	if (rc)
		return rc;
	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
		rc = error("cannot read '%s' at '%s': not a file", path,
			   rev ? rev : "HEAD");
	} else if (git_blob_lookup(&blob, r->git, git_tree_entry_id(entry)) < 0) {
		rc = gitfail("cannot read '%s'", path);
	} else {
		strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
		rc = 0;
	}
	git_blob_free(blob);
	git_tree_entry_free(entry);
	return rc;
}

int repo_entry_id(struct repo *r, const char *rev, const char *path,
		  char hex[41])
{
	git_tree_entry *entry;
	int rc = lookup_entry(r, rev, path, &entry);

	if (rc)
		return rc;
	git_oid_tostr(hex, 41, git_tree_entry_id(entry));
	git_tree_entry_free(entry);
	return 0;
}

/* One change to the tree: a file to write, or a path to remove (file NULL). */
struct edit {
	const char *path;
	const struct repo_file *file;
};

/* Compares paths component by component ('/' sorts before any other byte). */
static int edit_cmp(const void *va, const void *vb)
{
	const unsigned char *a = (const unsigned char *)((const struct edit *)va)->path;
	const unsigned char *b = (const unsigned char *)((const struct edit *)vb)->path;

	for (; *a && *a == *b; a++, b++)
		;
	int ca = *a == '/' ? 1 : *a, cb = *b == '/' ? 1 : *b;
	return ca - cb;
}

/*
 * Checks edits e[0..n-1] against the tree base (NULL: empty), as
 * git_tree_create_updated() would not: a path removed (a file or a whole
 * folder) must be there, a file written must not replace a folder, and no
 * folder of its path may be a file.
 */
static int check_edits(const git_tree *base, const struct edit *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		git_tree_entry *old = NULL;
		const char *path = e[i].path;

		if (base && git_tree_entry_bypath(&old, base, path) == 0) {
			bool folder = git_tree_entry_type(old) == GIT_OBJECT_TREE;
			git_tree_entry_free(old);
			if (folder && e[i].file)	/* a folder may be removed whole */
				return error("cannot write the file '%s': it is a folder", path);
		} else if (!e[i].file) {
			return error("cannot remove '%s': no such file", path);
		}
		for (const char *slash = strchr(path, '/'); base && slash;
		     slash = strchr(slash + 1, '/')) {
			char *dir = xstrndup(path, (size_t)(slash - path));
			int found = git_tree_entry_bypath(&old, base, dir);
			bool file = !found && git_tree_entry_type(old) != GIT_OBJECT_TREE;
			if (!found)
				git_tree_entry_free(old);
			if (file) {
				error("cannot write '%s': '%s' is a file", path, dir);
				free(dir);
				return -1;
			}
			free(dir);
		}
	}
	return 0;
}

/* The new tree: base (NULL: empty) with edits e[0..n-1] applied. */
static int build_tree(struct repo *r, git_tree *base, const struct edit *e,
		      size_t n, git_oid *out)
{
	git_tree_update *ups = xcalloc(n ? n : 1, sizeof(*ups));
	git_tree *empty = NULL;
	int rc = -1;

	if (check_edits(base, e, n) < 0)
		goto done;
	if (!base) {
		/* git_tree_create_updated needs a baseline: the empty tree,
		 * which libgit2 (like git) knows without it being written, so
		 * that no dangling object is left (git fsck --strict) */
		git_oid id;
		if (git_oid_fromstr(&id, "4b825dc642cb6eb9a060e54bf8d69288fbee4904") < 0 ||
		    git_tree_lookup(&empty, r->git, &id) < 0) {
			gitfail("cannot read the empty tree");
			goto done;
		}
		base = empty;
	}
	for (size_t i = 0; i < n; i++) {
		ups[i].path = e[i].path;
		if (!e[i].file) {
			ups[i].action = GIT_TREE_UPDATE_REMOVE;
			continue;
		}
		ups[i].action = GIT_TREE_UPDATE_UPSERT;
		ups[i].filemode = GIT_FILEMODE_BLOB;
		if (git_blob_create_from_buffer(&ups[i].id, r->git, e[i].file->data,
						e[i].file->len) < 0) {
			gitfail("cannot write '%s'", e[i].path);
			goto done;
		}
	}
	if (git_tree_create_updated(out, r->git, base, n, ups) < 0) {
		gitfail("cannot write a tree");
		goto done;
	}
	rc = 0;
done:
	git_tree_free(empty);
	free(ups);
	return rc;
}

/* Makes a git signature from an identity. */
static int make_sig(git_signature **sig, const struct repo_ident *who,
		    const char *role)
{
	if (!who || !who->name || !who->email)
		return error("missing %s identity", role);
	if (git_signature_new(sig, who->name, who->email,
			      (git_time_t)who->time, who->tz_minutes) < 0)
		return gitfail("invalid %s identity '%s <%s>'", role,
			       who->name, who->email);
	return 0;
}

int repo_commit_prepare(struct repo *r, const char *parent,
			const struct repo_file *files, int n_files,
			const char *const *remove,
			const struct repo_ident *author,
			const struct repo_ident *committer,
			const char *message, char out_hex[41])
{
	struct edit *edits;
	size_t n = 0, n_remove = 0, i;
	git_commit *parent_commit = NULL;
	git_tree *base = NULL, *tree = NULL;
	git_signature *asig = NULL, *csig = NULL;
	git_buf msg = GIT_BUF_INIT;
	git_oid tree_id, commit_id, parent_id;
	int rc = -1;

	out_hex[0] = '\0';
	if (n_files < 0)
		BUG("negative file count %d", n_files);
	while (remove && remove[n_remove])
		n_remove++;
	edits = xcalloc((size_t)n_files + n_remove + 1, sizeof(*edits));
	for (i = 0; i < (size_t)n_files; i++) {
		edits[n].path = files[i].path;
		edits[n++].file = &files[i];
	}
	for (i = 0; i < n_remove; i++)
		edits[n++].path = remove[i];
	for (i = 0; i < n; i++)
		if (repo_check_path(edits[i].path) < 0)
			goto done;
	qsort(edits, n, sizeof(*edits), edit_cmp);
	for (i = 0; i + 1 < n; i++) {
		const char *a = edits[i].path, *b = edits[i + 1].path;
		size_t len = strlen(a);

		if (!strcmp(a, b)) {
			if (!edits[i].file != !edits[i + 1].file)
				error("path '%s' is both written and removed", a);
			else
				error("path '%s' given twice", a);
			goto done;
		}
		if (!strncmp(a, b, len) && b[len] == '/') {
			error("path '%s' is both a file and the folder of '%s'",
			      a, b);
			goto done;
		}
	}

	if (make_sig(&asig, author, "author") < 0 ||
	    make_sig(&csig, committer, "committer") < 0)
		goto done;
	if (!message || git_message_prettify(&msg, message, 0, '#') < 0) {
		if (message)
			gitfail("invalid commit message");
		else
			error("missing commit message");
		goto done;
	}
	if (!msg.size) {
		error("empty commit message");
		goto done;
	}

	if (parent) {
		if (parse_id(parent, &parent_id) < 0)
			goto done;
		if (git_commit_lookup(&parent_commit, r->git, &parent_id) < 0) {
			gitfail("cannot read the parent commit %s", parent);
			goto done;
		}
		if (git_commit_tree(&base, parent_commit) < 0) {
			gitfail("cannot read the tree of %s", parent);
			goto done;
		}
	}
	if (build_tree(r, base, edits, n, &tree_id) < 0)
		goto done;
	if (git_tree_lookup(&tree, r->git, &tree_id) < 0) {
		gitfail("cannot read the new tree");
		goto done;
	}
	const git_commit *parents[1] = { parent_commit };
	if (git_commit_create(&commit_id, r->git, NULL, asig, csig, NULL,
			      msg.ptr, tree, parent ? 1 : 0,
			      parents) < 0) {
		gitfail("cannot create a commit in '%s'", r->gitdir);
		goto done;
	}
	git_oid_tostr(out_hex, 41, &commit_id);
	forget_prepared(r);
	if (parent) {	/* a first commit checks out everything */
		r->prepared = commit_id;
		r->prepared_paths = xcalloc(n, sizeof(char *));
		for (i = 0; i < n; i++)
			r->prepared_paths[i] = xstrdup(edits[i].path);
		r->n_prepared_paths = n;
	}
	rc = 0;
done:
	git_buf_dispose(&msg);
	git_signature_free(asig);
	git_signature_free(csig);
	git_tree_free(tree);
	git_tree_free(base);
	git_commit_free(parent_commit);
	free(edits);
	return rc;
}

/* Updates the index and work tree to HEAD: only paths[0..n-1] when n > 0. */
static int checkout(struct repo *r, char **paths, size_t n)
{
	git_checkout_options opts;
	git_index *baseline = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	char *index_path;
	int rc;

	if (!r->workdir)
		return 0;
	rc = lookup_commit(r, NULL, &commit);
	if (rc)
		return rc == REPO_MISSING ? 0 : -1;
	rc = -1;
	if (git_commit_tree(&tree, commit) < 0) {
		gitfail("cannot read the tree of HEAD");
		goto done;
	}
	/* An index.lock left by a run killed while it checked out: stale if
	 * this run holds the game's lock (see clear_stale_ref_lock) */
	if (r->lock_fd >= 0) {
		char *lock = xstrfmt("%s/index.lock", r->gitdir);
		if (!unlink(lock))
			warning("removed '%s', left by a run that was stopped while it "
				"updated the work tree", lock);
		free(lock);
	}
	/*
	 * The baseline is what the index says is checked out now (a separate
	 * copy: the repository's own index is rewritten by the checkout), so
	 * that files tracked there but gone from the new tree are deleted.
	 */
	index_path = xstrfmt("%s/index", r->gitdir);
	if (git_index_open(&baseline, index_path) < 0) {
		gitfail("cannot read the index '%s'", index_path);
		free(index_path);
		goto done;
	}
	free(index_path);
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	opts.checkout_strategy = GIT_CHECKOUT_FORCE;
	opts.baseline_index = baseline;
	if (n) {
		opts.checkout_strategy |= GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
		opts.paths.strings = paths;
		opts.paths.count = n;
	}
	if (git_checkout_tree(r->git, (git_object *)tree, &opts) < 0) {
		gitfail("cannot update the work tree '%s'", r->workdir);
		goto done;
	}
	rc = 0;
done:
	git_index_free(baseline);
	git_tree_free(tree);
	git_commit_free(commit);
	return rc;
}

int repo_checkout(struct repo *r)
{
	return checkout(r, NULL, 0);
}

/*
 * Removes refs/heads/main.lock left by a postrider run that was killed
 * while it moved the branch. Called only while this run holds the game's
 * own lock, which the killed run held too: no other postrider can be
 * writing the ref, and a game repository is written by postrider alone
 * (docs/repository.md). Returns 0 if a stale lock was removed.
 */
static int clear_stale_ref_lock(struct repo *r)
{
	char *path = xstrfmt("%s/%s.lock", r->gitdir, REPO_BRANCH);
	int ret = unlink(path);

	if (!ret)
		warning("removed '%s', left by a run that was stopped while it "
			"committed", path);
	free(path);
	return ret;
}

int repo_commit_publish(struct repo *r, const char *expected,
			const char *commit)
{
	git_oid new_id, old_id;
	git_commit *c = NULL;
	git_reference *ref = NULL;
	const git_signature *who;
	char *logmsg;
	int rc;

	if (parse_id(commit, &new_id) < 0)
		return -1;
	if (expected) {
		if (parse_id(expected, &old_id) < 0)
			return -1;
	} else {
		memset(&old_id, 0, sizeof(old_id));	/* the zero id: "must not exist" */
	}
	if (git_commit_lookup(&c, r->git, &new_id) < 0)
		return gitfail("cannot publish %s", commit);
	if (expected ? git_commit_parentcount(c) != 1 ||
		       !git_oid_equal(git_commit_parent_id(c, 0), &old_id)
		     : git_commit_parentcount(c) != 0) {
		git_commit_free(c);
		return error("cannot publish %s: its parent is not %s", commit,
			     expected ? expected : "(none)");
	}
	/* the reflog (never committed) names the committer of the turn */
	who = git_commit_committer(c);
	if (git_repository_set_ident(r->git, who->name, who->email) < 0)
		git_error_clear();
	logmsg = xstrfmt("postrider: %s", git_commit_summary(c));
	git_commit_free(c);

	/*
	 * With current_id given, libgit2 compares the ref's value under the
	 * ref's lock file (refs/heads/main.lock) and writes it by rename: a
	 * compare-and-swap. The zero id matches only a missing ref.
	 */
	/*
	 * A marker that the work tree is being brought up to date: a run
	 * killed before that finished leaves it, and the next publish then
	 * checks out everything, not just the paths its own commit wrote.
	 * (Only a view for people: postrider reads commits, never the work
	 * tree, so the marker needs no fsync.)
	 */
	char *pending = r->workdir ? xstrfmt("%s/postrider-checkout-pending", r->gitdir) : NULL;
	bool full = !pending || !access(pending, F_OK);
	if (pending) {
		int fd = open(pending, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
		if (fd >= 0)
			close(fd);
	}
	rc = git_reference_create_matching(&ref, r->git, REPO_BRANCH, &new_id,
					   1, &old_id, logmsg);
	if (rc == GIT_ELOCKED && r->lock_fd >= 0 && clear_stale_ref_lock(r) == 0) {
		git_error_clear();
		rc = git_reference_create_matching(&ref, r->git, REPO_BRANCH,
						   &new_id, 1, &old_id, logmsg);
	}
	free(logmsg);
	git_reference_free(ref);
	if (rc < 0 && pending && !full)
		unlink(pending);	/* the branch did not move: nothing pending */
	if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS ||
	    (rc == GIT_ENOTFOUND && expected)) {
		git_error_clear();
		free(pending);
		return REPO_STALE;
	}
	if (rc == GIT_ELOCKED) {
		git_error_clear();
		free(pending);
		return error("cannot move %s: '%s/%s.lock' exists (another git "
			     "command is running; if none is, a crashed one left "
			     "it: remove it)", REPO_BRANCH, r->gitdir, REPO_BRANCH);
	}
	if (rc < 0) {
		free(pending);
		return gitfail("cannot move %s in '%s'", REPO_BRANCH, r->gitdir);
	}
	fault_point("ref-moved");

	if (pending) {	/* a work tree */
		if (!full && !(r->n_prepared_paths && git_oid_equal(&r->prepared, &new_id)))
			full = true;
		if (!repo_head_on_main(r))
			warning("HEAD of '%s' is not on %s; the work tree was not updated",
				r->workdir, REPO_BRANCH);
		else if ((full ? checkout(r, NULL, 0)
			       : checkout(r, r->prepared_paths, r->n_prepared_paths)) == 0)
			unlink(pending);
		else
			warning("commit %s is published, but the work tree '%s' "
				"is out of date (run the repair, or `git reset --hard`)",
				commit, r->workdir);
	}
	free(pending);
	return 0;
}

/* The commit as `git format-patch` writes it; every file as a binary
 * patch if binary. */
static int format_patch(struct repo *r, const char *rev, bool binary,
			struct strbuf *out)
{
	git_email_create_options opts;
	git_commit *commit = NULL;
	git_buf buf = GIT_BUF_INIT;
	int rc = lookup_commit(r, rev, &commit);

	/* GIT_EMAIL_CREATE_OPTIONS_INIT, spelled out for -Wextra */
	memset(&opts, 0, sizeof(opts));
	opts.version = GIT_EMAIL_CREATE_OPTIONS_VERSION;
	opts.flags = GIT_EMAIL_CREATE_DEFAULT;
	git_diff_options_init(&opts.diff_opts, GIT_DIFF_OPTIONS_VERSION);
	opts.diff_opts.flags = GIT_DIFF_SHOW_BINARY | (binary ? GIT_DIFF_FORCE_BINARY : 0);
	git_diff_find_options_init(&opts.diff_find_opts,
				   GIT_DIFF_FIND_OPTIONS_VERSION);

	if (rc == REPO_MISSING)
		return error("cannot format a patch: no commit yet");
	if (rc)
		return -1;
	if (git_email_create_from_commit(&buf, commit, &opts) < 0) {
		rc = gitfail("cannot format commit %s as a patch",
			     git_oid_tostr_s(git_commit_id(commit)));
	} else {
		strbuf_add(out, buf.ptr, buf.size);
		rc = 0;
	}
	git_buf_dispose(&buf);
	git_commit_free(commit);
	return rc;
}

int repo_format_patch(struct repo *r, const char *rev, struct strbuf *out)
{
	return format_patch(r, rev, false, out);
}

/* A patch cut in its parts: what comes before the diffstat (through
 * "---"), the diffstat's lines, the rest up to the first diff (its
 * summary and the "create mode" lines), each file's diff, and the
 * signature after the last. Pointers into the text. */
struct patch_parts {
	const char *head_end, *stat_end, *diffs, *tail;
	int n;
	const char *diff[256];	/* each "diff --git a/PATH b/PATH" */
};

static bool line_is(const char *p, const char *start)
{
	return !strncmp(p, start, strlen(start));
}

static int patch_cut(const char *t, struct patch_parts *pp)
{
	const char *p = strstr(t, "\n---\n");

	memset(pp, 0, sizeof(*pp));
	if (!p)
		return -1;
	pp->head_end = p + 5;
	for (p = pp->head_end; *p && line_is(p, " ") && strchr(p, '|') &&
	     strchr(p, '|') < strchr(p, '\n'); p = strchr(p, '\n') + 1)
		;
	pp->stat_end = p;
	for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (line_is(p, "diff --git ")) {
			if (pp->n == (int)ARRAY_SIZE(pp->diff))
				return -1;
			if (!pp->n)
				pp->diffs = p;
			pp->diff[pp->n++] = p;
		} else if (pp->n && line_is(p, "--\n")) {
			pp->tail = p;
			break;
		}
	}
	if (!pp->n || !pp->tail)
		return -1;
	return 0;
}

/* The path of a diff ("diff --git a/PATH b/PATH"). */
static bool diff_under(const char *diff, const char *prefix)
{
	return line_is(diff + strlen("diff --git a/"), prefix);
}

int repo_format_patch_packed(struct repo *r, const char *rev,
			     const char *prefix, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, bin = STRBUF_INIT, res = STRBUF_INIT;
	struct patch_parts t, b;
	long insertions = 0;
	int files = 0, ret = -1;

	if (format_patch(r, rev, false, &text) < 0 || format_patch(r, rev, true, &bin) < 0)
		goto out;
	if (patch_cut(text.buf, &t) < 0 || patch_cut(bin.buf, &b) < 0 || t.n != b.n) {
		error("cannot make the patch of %s lighter: unexpected format", rev);
		goto out;
	}
	strbuf_add(&res, text.buf, (size_t)(t.head_end - text.buf));
	/* the diffstat: a packed file's line as git writes a binary one
	 * ("Bin 0 -> 25236 bytes"), the others as they are */
	for (const char *p = t.head_end, *q = b.head_end; p < t.stat_end;
	     p = strchr(p, '\n') + 1, q = strchr(q, '\n') + 1) {
		const char *bar = strchr(p, '|'), *name = p + strspn(p, " ");
		bool packed = line_is(name, prefix);
		const char *line = packed ? q : p;
		strbuf_add(&res, line, (size_t)(strchr(line, '\n') + 1 - line));
		if (!packed)
			insertions += strtol(bar + 1, NULL, 10);
		files++;
	}
	strbuf_addf(&res, " %d file%s changed", files, files == 1 ? "" : "s");
	if (insertions)
		strbuf_addf(&res, ", %ld insertion%s(+)\n", insertions, insertions == 1 ? "" : "s");
	else
		strbuf_addstr(&res, ", 0 insertions(+), 0 deletions(-)\n");
	/* the summary's "create mode" lines and the blank line */
	{
		const char *p = strchr(t.stat_end, '\n') + 1;
		strbuf_add(&res, p, (size_t)(t.diffs - p));
	}
	for (int k = 0; k < t.n; k++) {
		const struct patch_parts *from = diff_under(t.diff[k], prefix) ? &b : &t;
		const char *end = k + 1 < from->n ? from->diff[k + 1] : from->tail;
		if (strncmp(t.diff[k], b.diff[k], strcspn(t.diff[k], "\n") + 1)) {
			error("cannot make the patch of %s lighter: its files differ", rev);
			goto out;
		}
		strbuf_add(&res, from->diff[k], (size_t)(end - from->diff[k]));
	}
	strbuf_addstr(&res, t.tail);
	strbuf_add(out, res.buf, res.len);
	ret = 0;
out:
	strbuf_release(&text);
	strbuf_release(&bin);
	strbuf_release(&res);
	return ret;
}

/* Milliseconds on the monotonic clock. */
static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int repo_lock(struct repo *r, int timeout_ms)
{
	char *path;
	int fd;
	long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);

	if (r->lock_fd >= 0)
		BUG("'%s' is already locked", r->gitdir);
	path = xstrfmt("%s/postrider.lock", r->gitdir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		error("cannot open the lock '%s': %s", path, strerror(errno));
		free(path);
		return -1;
	}
	for (;;) {
		struct timespec pause = { 0, 20 * 1000000 };

		if (!flock(fd, LOCK_EX | LOCK_NB))
			break;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			error("cannot lock '%s': %s", path, strerror(errno));
			goto fail;
		}
		if (now_ms() >= deadline) {
			close(fd);
			free(path);
			return REPO_BUSY;
		}
		nanosleep(&pause, NULL);
	}
	free(path);
	r->lock_fd = fd;
	return 0;
fail:
	close(fd);
	free(path);
	return -1;
}

void repo_unlock(struct repo *r)
{
	if (r->lock_fd < 0)
		return;
	flock(r->lock_fd, LOCK_UN);
	close(r->lock_fd);
	r->lock_fd = -1;
}

int repo_history(struct repo *r, char (**out)[41], size_t *n)
{
	char (*ids)[41] = NULL;
	size_t count = 0, alloc = 0, i;
	git_commit *c = NULL;
	int rc = lookup_commit(r, NULL, &c);

	*out = NULL;
	*n = 0;
	if (rc == REPO_MISSING)
		return 0;
	if (rc)
		return -1;
	for (;;) {
		git_commit *parent = NULL;

		if (count == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			ids = xrealloc(ids, alloc * sizeof(*ids));
		}
		git_oid_tostr(ids[count++], 41, git_commit_id(c));
		if (!git_commit_parentcount(c))
			break;
		if (git_commit_parent(&parent, c, 0) < 0) {
			gitfail("cannot read the parent of %s",
				git_oid_tostr_s(git_commit_id(c)));
			git_commit_free(c);
			free(ids);
			return -1;
		}
		git_commit_free(c);
		c = parent;
	}
	git_commit_free(c);
	for (i = 0; i < count / 2; i++) {	/* oldest first */
		char tmp[41];

		memcpy(tmp, ids[i], 41);
		memcpy(ids[i], ids[count - 1 - i], 41);
		memcpy(ids[count - 1 - i], tmp, 41);
	}
	*out = ids;
	*n = count;
	return 0;
}

int repo_commit_info(struct repo *r, const char *rev, struct strbuf *message,
		     struct strbuf *author_name, struct strbuf *author_email,
		     long long *time)
{
	git_commit *c = NULL;
	const git_signature *a;
	int rc = lookup_commit(r, rev, &c);

	if (rc == REPO_MISSING)
		return error("no commit yet in '%s'", r->gitdir);
	if (rc)
		return -1;
	a = git_commit_author(c);
	if (message)
		strbuf_addstr(message, git_commit_message(c));
	if (author_name)
		strbuf_addstr(author_name, a->name);
	if (author_email)
		strbuf_addstr(author_email, a->email);
	if (time)
		*time = (long long)a->when.time;
	git_commit_free(c);
	return 0;
}

/* ---- trailers ---------------------------------------------------------- */

/* The length of the line at p (without its '\n'). */
static size_t line_len(const char *p)
{
	return strcspn(p, "\n");
}

/* Is p[0..n) blank (spaces and tabs only)? */
static bool blank_line(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return false;
	return true;
}

/* If p[0..n) is a trailer line ("Key: value"), the length of its key,
 * else 0. */
static size_t trailer_key_len(const char *p, size_t n)
{
	size_t k = 0;

	while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '-'))
		k++;
	if (!k)
		return 0;
	{
		size_t c = k;
		while (c < n && (p[c] == ' ' || p[c] == '\t'))
			c++;
		return c < n && p[c] == ':' ? k : 0;
	}
}

/* The start of the line that ends at end (msg[end - 1] its '\n', or end
 * the end of the text); *content_end the end of its text. */
static size_t line_before(const char *msg, size_t end, size_t *content_end)
{
	size_t e = end, b;

	if (e && msg[e - 1] == '\n')
		e--;
	for (b = e; b && msg[b - 1] != '\n'; b--)
		;
	*content_end = e;
	return b;
}

size_t repo_trailer_block(const char *msg)
{
	size_t len = strlen(msg), end = len, start, b, e;

	/* blank lines at the end are no paragraph */
	while (end) {
		b = line_before(msg, end, &e);
		if (!blank_line(msg + b, e - b))
			break;
		end = b;
	}
	/* the last paragraph: back to the blank line before it */
	for (start = end; start; start = b) {
		b = line_before(msg, start, &e);
		if (blank_line(msg + b, e - b))
			break;
	}
	/* none, or the first paragraph (the subject): no trailers */
	if (start == 0 || start >= end)
		return len;
	for (size_t i = start; i < end; i += line_len(msg + i) + 1) {
		bool cont = msg[i] == ' ' || msg[i] == '\t';
		if (cont ? i == start : !trailer_key_len(msg + i, line_len(msg + i)))
			return len;
	}
	return start;
}

int repo_trailer_get(const char *msg, const char *key, unsigned nth,
		     struct strbuf *out)
{
	size_t kl = strlen(key), was = out->len;
	const char *p = msg + repo_trailer_block(msg);

	while (*p) {
		size_t n = line_len(p), k = trailer_key_len(p, n);
		const char *v = p + k, *next = p + n + (p[n] ? 1 : 0);

		if (!k || k != kl || ascii_strncasecmp(p, key, kl)) {
			p = next;
			continue;
		}
		if (nth--) {
			p = next;
			continue;
		}
		while (*v == ' ' || *v == '\t')
			v++;
		v++;	/* the ':' */
		while (*v == ' ' || *v == '\t')
			v++;
		strbuf_add(out, v, (size_t)(p + n - v));
		/* continuation lines join the value with one space */
		for (p = next; *p == ' ' || *p == '\t'; p = next) {
			const char *c = p;
			n = line_len(p);
			next = p + n + (p[n] ? 1 : 0);
			while (*c == ' ' || *c == '\t')
				c++;
			strbuf_addch(out, ' ');
			strbuf_add(out, c, (size_t)(p + n - c));
		}
		while (out->len > was && (out->buf[out->len - 1] == ' ' || out->buf[out->len - 1] == '\t'))
			out->buf[--out->len] = '\0';
		return 0;
	}
	return -1;
}

int repo_trailer(struct repo *r, const char *rev, const char *key,
		 struct strbuf *out)
{
	struct strbuf msg = STRBUF_INIT;
	int ret = -1;

	if (repo_commit_info(r, rev, &msg, NULL, NULL, NULL) == 0)
		ret = repo_trailer_get(msg.buf, key, 0, out);
	strbuf_release(&msg);
	return ret;
}

int repo_private_path(const struct repo *r, const char *name,
		      struct strbuf *out)
{
	char *dir;
	struct stat st;

	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return error("invalid private file name '%s'", name ? name : "(null)");
	dir = xstrfmt("%s/postrider", r->gitdir);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		error("cannot create '%s': %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		error("'%s' is not a folder", dir);
		free(dir);
		return -1;
	}
	strbuf_addf(out, "%s/%s", dir, name);
	free(dir);
	return 0;
}

static int change_line(const git_diff_delta *delta, float progress,
		       void *payload)
{
	struct strbuf *out = payload;
	char kind;

	(void)progress;
	switch (delta->status) {
	case GIT_DELTA_ADDED: kind = 'A'; break;
	case GIT_DELTA_DELETED: kind = 'D'; break;
	default: kind = 'M'; break;
	}
	strbuf_addf(out, "%c %s\n", kind,
		    delta->status == GIT_DELTA_DELETED ? delta->old_file.path
						       : delta->new_file.path);
	return 0;
}

int repo_changes(struct repo *r, const char *rev, struct strbuf *out,
		 unsigned *parents)
{
	git_commit *c = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_diff *diff = NULL;
	git_diff_options opts;
	int ret = -1;

	if (lookup_commit(r, rev, &c))
		return -1;
	*parents = git_commit_parentcount(c);
	if (git_commit_tree(&tree, c) < 0) {
		gitfail("cannot read the tree of %s", git_oid_tostr_s(git_commit_id(c)));
		goto out;
	}
	if (*parents && (git_commit_parent(&parent, c, 0) < 0 ||
			 git_commit_tree(&ptree, parent) < 0)) {
		gitfail("cannot read the parent of %s", git_oid_tostr_s(git_commit_id(c)));
		goto out;
	}
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
	if (git_diff_tree_to_tree(&diff, r->git, ptree, tree, &opts) < 0) {
		gitfail("cannot compare %s with its parent", git_oid_tostr_s(git_commit_id(c)));
		goto out;
	}
	if (git_diff_foreach(diff, change_line, NULL, NULL, NULL, out) < 0) {
		gitfail("cannot list the changes of %s", git_oid_tostr_s(git_commit_id(c)));
		goto out;
	}
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	git_commit_free(c);
	return ret;
}

int repo_resolve(struct repo *r, const char *rev, char hex[41])
{
	git_commit *c = NULL;

	if (lookup_commit(r, rev, &c))
		return -1;
	git_oid_tostr(hex, 41, git_commit_id(c));
	git_commit_free(c);
	return 0;
}

int repo_write_bundle(struct repo *r, const char *path)
{
	git_packbuilder *pb = NULL;
	git_revwalk *walk = NULL;
	git_buf pack = { 0 };
	git_oid head;
	struct strbuf out = STRBUF_INIT;
	char hex[41];
	int ret = -1;

	if (head_id(r, &head))
		return error("the game has no commit to bundle");
	git_oid_tostr(hex, sizeof(hex), &head);
	if (git_packbuilder_new(&pb, r->git) < 0 ||
	    git_revwalk_new(&walk, r->git) < 0 ||
	    git_revwalk_push(walk, &head) < 0 ||
	    git_packbuilder_insert_walk(pb, walk) < 0 ||
	    git_packbuilder_write_buf(&pack, pb) < 0) {
		gitfail("cannot pack the history");
		goto out;
	}
	strbuf_addf(&out, "# v2 git bundle\n%s refs/heads/main\n%s HEAD\n\n", hex, hex);
	strbuf_add(&out, pack.ptr, pack.size);
	ret = write_file_atomic(path, out.buf, out.len);
out:
	git_buf_dispose(&pack);
	git_revwalk_free(walk);
	git_packbuilder_free(pb);
	strbuf_release(&out);
	return ret;
}

int repo_from_bundle(const char *path, const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	git_repository *git = NULL;
	git_odb *odb = NULL;
	git_odb_writepack *wp = NULL;
	git_indexer_progress stats = { 0 };
	git_reference *ref = NULL;
	git_oid main_id;
	bool have_main = false;
	const char *p, *end;
	int ret = -1;

	repo_global_init();
	if (read_file(path, &text, (size_t)1 << 30) < 0)
		return error("cannot read '%s': %s", path, strerror(errno));
	p = text.buf;
	end = text.buf + text.len;
	if (text.len < 16 || memcmp(p, "# v2 git bundle\n", 16)) {
		error("'%s' is not a git bundle (version 2)", path);
		goto out;
	}
	p += 16;
	/* ref lines "<40 hex> <name>" up to an empty line; no prerequisites */
	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		git_oid id;
		if (!nl || *p == '-' || nl - p < 42 || p[40] != ' ' ||
		    git_oid_fromstrn(&id, p, 40) < 0) {
			error("'%s': a bundle header line this does not read", path);
			goto out;
		}
		if ((size_t)(nl - p - 41) == strlen("refs/heads/main") &&
		    !memcmp(p + 41, "refs/heads/main", 15)) {
			main_id = id;
			have_main = true;
		}
		p = nl + 1;
	}
	if (p >= end || !have_main) {
		error("'%s': the bundle has no refs/heads/main", path);
		goto out;
	}
	p++;
	if (git_repository_init(&git, dir, 1) < 0 ||
	    git_repository_odb(&odb, git) < 0 ||
	    git_odb_write_pack(&wp, odb, NULL, NULL) < 0 ||
	    wp->append(wp, p, (size_t)(end - p), &stats) < 0 ||
	    wp->commit(wp, &stats) < 0) {
		gitfail("cannot unpack the bundle '%s'", path);
		goto out;
	}
	if (git_reference_create(&ref, git, "refs/heads/main", &main_id, 1,
				 "from a bundle") < 0 ||
	    git_repository_set_head(git, "refs/heads/main") < 0) {
		gitfail("cannot set the branch of the bundle '%s'", path);
		goto out;
	}
	ret = 0;
out:
	if (wp)
		wp->free(wp);
	git_reference_free(ref);
	git_odb_free(odb);
	git_repository_free(git);
	strbuf_release(&text);
	return ret;
}

/* ---- applying a mailed patch (docs/peer.md 8.3 steps 5 and 7) ---- */

PRINTF_LIKE(3, 4)
static int why_fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* What the mbox head of a repo_format_patch() patch says. */
struct patch_head {
	char *name, *email;
	long long time;
	int tz_minutes;
	struct strbuf message;
	size_t diff_off;	/* where the first "diff --git" line starts */
};

static void patch_head_release(struct patch_head *h)
{
	free(h->name);
	free(h->email);
	strbuf_release(&h->message);
	memset(h, 0, sizeof(*h));
}

/* The line at *p (before end) without its LF; *p moves past it. */
static size_t take_line(const char **p, const char *end, const char **line)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);

	*line = *p;
	*p = nl ? nl + 1 : end;
	return n;
}

/* "Thu, 7 Apr 2005 17:13:13 -0500" (RFC 2822, as libgit2 writes it). */
static int parse_patch_date(const char *s, size_t n, long long *t, int *tz)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char buf[64], mon[4], sign;
	int day, year, hh, mm, ss, zone, used = 0;
	struct tm tm;
	const char *m;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (sscanf(buf, "%*3s, %d %3s %d %d:%d:%d %c%4d%n", &day, mon, &year,
		   &hh, &mm, &ss, &sign, &zone, &used) != 8 || (size_t)used != n ||
	    (sign != '+' && sign != '-') || strlen(mon) != 3 ||
	    !(m = strstr(months, mon)) || (m - months) % 3)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = year - 1900;
	tm.tm_mon = (int)(m - months) / 3;
	tm.tm_mday = day;
	tm.tm_hour = hh;
	tm.tm_min = mm;
	tm.tm_sec = ss;
	*tz = (sign == '-' ? -1 : 1) * (zone / 100 * 60 + zone % 100);
	*t = (long long)timegm(&tm) - (long long)*tz * 60;
	return 0;
}

/*
 * Reads the head of a patch: the mbox "From " line, From:, Date:,
 * "Subject: [PATCH] S", the blank line, the body up to the "---" line,
 * and where the diff starts. The message is what git am makes of it:
 * "S\n" and, with a body, "\n" and the body.
 */
static int patch_head_parse(const char *patch, size_t len, struct patch_head *h,
			    char *why, size_t whylen)
{
	const char *p = patch, *end = patch + len, *l, *body;
	const char *subject = NULL, *sep = NULL;
	size_t n, subject_len = 0;
	bool have_date = false;

	memset(h, 0, sizeof(*h));
	n = take_line(&p, end, &l);
	if (n < 5 + 40 || memcmp(l, "From ", 5))
		return why_fail(why, whylen, "the patch does not start with an "
				"mbox \"From \" line");
	while ((n = take_line(&p, end, &l)) > 0) {
		if (n > 6 && !memcmp(l, "From: ", 6)) {
			const char *lt = memrchr(l, '<', n);
			if (!lt || lt < l + 7 || lt[-1] != ' ' || l[n - 1] != '>')
				return why_fail(why, whylen, "the patch's From "
						"line is not \"Name <email>\"");
			free(h->name);
			free(h->email);
			h->name = xstrndup(l + 6, (size_t)(lt - 1 - (l + 6)));
			h->email = xstrndup(lt + 1, (size_t)(l + n - 1 - (lt + 1)));
		} else if (n > 6 && !memcmp(l, "Date: ", 6)) {
			if (parse_patch_date(l + 6, n - 6, &h->time, &h->tz_minutes) < 0)
				return why_fail(why, whylen, "the patch's Date "
						"line is not a date");
			have_date = true;
		} else if (n > 18 && !memcmp(l, "Subject: [PATCH] ", 17)) {
			subject = l + 17;
			subject_len = n - 17;
		} else if (l[0] == ' ' || l[0] == '\t') {
			return why_fail(why, whylen, "the patch's head has a "
					"folded line");
		}
		if (p == end)
			break;
	}
	if (!h->name || !have_date || !subject)
		return why_fail(why, whylen, "the patch's head lacks From, Date "
				"or \"Subject: [PATCH]\"");
	/*
	 * The message ends at the "---" line before the diffstat: the last
	 * one before the first diff, or before the end when the commit
	 * changes nothing (a body may have a "---" line of its own: git am
	 * would cut the message there, this reader does not).
	 */
	body = p;
	h->diff_off = len;
	while (p < end) {
		const char *start = p;
		n = take_line(&p, end, &l);
		if (n == 3 && !memcmp(l, "---", 3)) {
			sep = start;
		} else if (sep && n >= 11 && !memcmp(l, "diff --git ", 11)) {
			h->diff_off = (size_t)(start - patch);
			break;
		}
	}
	if (!sep)
		return why_fail(why, whylen, "the patch has no \"---\" line "
				"after its message");
	strbuf_add(&h->message, subject, subject_len);
	strbuf_addch(&h->message, '\n');
	if (sep > body) {
		strbuf_addch(&h->message, '\n');
		strbuf_add(&h->message, body, (size_t)(sep - body));
	}
	return 0;
}

/* 0 when every file the diff touches is a safe path to a plain file. */
static int check_deltas(git_diff *diff, char *why, size_t whylen)
{
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const git_diff_file *f[2] = { &d->old_file, &d->new_file };
		for (int k = 0; k < 2; k++) {
			if (!f[k]->path || repo_check_path(f[k]->path) < 0)
				return why_fail(why, whylen, "the patch names a "
						"path that is not allowed");
			if (f[k]->mode && f[k]->mode != GIT_FILEMODE_BLOB)
				return why_fail(why, whylen, "the patch makes "
						"'%s' other than a plain file "
						"(mode %o)", f[k]->path,
						(unsigned)f[k]->mode);
		}
	}
	return 0;
}

/* The diff of a patch; the reason in why. */
static int patch_diff(const char *patch, size_t len, const struct patch_head *h,
		      git_diff **diff, char *why, size_t whylen)
{
	*diff = NULL;
	if (h->diff_off == len)
		return 0;
	if (git_diff_from_buffer(diff, patch + h->diff_off, len - h->diff_off) < 0) {
		const git_error *e = git_error_last();
		why_fail(why, whylen, "the patch does not parse: %s",
			 e && e->message ? e->message : "(no reason)");
		git_error_clear();
		return -1;
	}
	return 0;
}

/* The tree of the new commit: tree `pre` (NULL: the empty tree) patched. */
static int patched_tree(struct repo *r, git_tree *pre, git_diff *diff,
			git_oid *out, char *why, size_t whylen)
{
	git_treebuilder *tb = NULL;
	git_tree *empty = NULL;
	git_index *idx = NULL;
	int rc = -1;

	if (!pre) {
		git_oid eid;
		if (git_treebuilder_new(&tb, r->git, NULL) < 0 ||
		    git_treebuilder_write(&eid, tb) < 0 ||
		    git_tree_lookup(&empty, r->git, &eid) < 0)
			goto fail;
		pre = empty;
	}
	if (!diff) {
		git_oid_cpy(out, git_tree_id(pre));
		rc = 0;
		goto out;
	}
	if (git_apply_to_tree(&idx, r->git, pre, diff, NULL) < 0) {
		const git_error *e = git_error_last();
		why_fail(why, whylen, "the patch does not apply: %s",
			 e && e->message ? e->message : "(no reason)");
		git_error_clear();
		goto out;
	}
	if (git_index_write_tree_to(out, idx, r->git) < 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	why_fail(why, whylen, "cannot write the patched tree: %s",
		 git_error_last() ? git_error_last()->message : "(no reason)");
	git_error_clear();
out:
	git_index_free(idx);
	git_tree_free(empty);
	git_treebuilder_free(tb);
	return rc;
}

/* Builds the commit of the patch on head (NULL: a root commit); writes it
 * only if its id is want. */
static int patch_commit(struct repo *r, git_commit *head, const git_oid *tree_id,
			const struct patch_head *h, const git_oid *want,
			char *why, size_t whylen)
{
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_buf buf = GIT_BUF_INIT;
	git_odb *odb = NULL;
	git_oid id;
	const git_commit *parents[1] = { head };
	int rc = -1;

	if (git_signature_new(&sig, h->name, h->email, (git_time_t)h->time,
			      h->tz_minutes) < 0) {
		why_fail(why, whylen, "the patch's author '%s <%s>' is not valid",
			 h->name, h->email);
		git_error_clear();
		goto out;
	}
	if (git_tree_lookup(&tree, r->git, tree_id) < 0 ||
	    git_commit_create_buffer(&buf, r->git, sig, sig, NULL,
				     h->message.buf, tree, head ? 1 : 0,
				     parents) < 0 ||
	    git_odb_hash(&id, buf.ptr, buf.size, GIT_OBJECT_COMMIT) < 0) {
		why_fail(why, whylen, "cannot build the commit: %s",
			 git_error_last() ? git_error_last()->message : "(no reason)");
		git_error_clear();
		goto out;
	}
	if (!git_oid_equal(&id, want)) {
		char a[41], b[41];
		git_oid_tostr(a, sizeof(a), &id);
		git_oid_tostr(b, sizeof(b), want);
		why_fail(why, whylen, "the patch gives commit %.12s, not %.12s", a, b);
		goto out;
	}
	if (git_repository_odb(&odb, r->git) < 0 ||
	    git_odb_write(&id, odb, buf.ptr, buf.size, GIT_OBJECT_COMMIT) < 0) {
		why_fail(why, whylen, "cannot write the commit: %s",
			 git_error_last() ? git_error_last()->message : "(no reason)");
		git_error_clear();
		goto out;
	}
	rc = 0;
out:
	git_odb_free(odb);
	git_buf_dispose(&buf);
	git_tree_free(tree);
	git_signature_free(sig);
	return rc;
}

int repo_patch_prepare(struct repo *r, const char *patch, size_t len,
		       const char *expect_oid, char head_hex[41], char *why,
		       size_t whylen)
{
	struct patch_head h;
	git_diff *diff = NULL;
	git_commit *head = NULL;
	git_tree *pre = NULL;
	git_oid want, head_oid, tree_id;
	int rc = -1, hr;

	head_hex[0] = '\0';
	if (!expect_oid || strlen(expect_oid) != GIT_OID_HEXSZ ||
	    git_oid_fromstr(&want, expect_oid) < 0)
		return why_fail(why, whylen, "invalid commit id '%s'",
				expect_oid ? expect_oid : "(null)");
	if (patch_head_parse(patch, len, &h, why, whylen) < 0)
		goto out;
	if (patch_diff(patch, len, &h, &diff, why, whylen) < 0 ||
	    (diff && check_deltas(diff, why, whylen) < 0))
		goto out;
	hr = head_id(r, &head_oid);
	if (hr < 0) {
		why_fail(why, whylen, "cannot read %s", REPO_BRANCH);
		goto out;
	}
	if (hr == 0 && (git_commit_lookup(&head, r->git, &head_oid) < 0 ||
			git_commit_tree(&pre, head) < 0)) {
		why_fail(why, whylen, "cannot read the head commit");
		git_error_clear();
		goto out;
	}
	if (patched_tree(r, pre, diff, &tree_id, why, whylen) < 0 ||
	    patch_commit(r, head, &tree_id, &h, &want, why, whylen) < 0)
		goto out;
	if (head)
		git_oid_tostr(head_hex, 41, &head_oid);
	rc = 0;
out:
	git_tree_free(pre);
	git_commit_free(head);
	git_diff_free(diff);
	patch_head_release(&h);
	return rc;
}

int repo_apply_patch(struct repo *r, const char *patch, size_t len,
		     const char *expect_oid, char *why, size_t whylen)
{
	char head_hex[41];
	int rc;

	if (repo_patch_prepare(r, patch, len, expect_oid, head_hex, why,
			       whylen) < 0)
		return -1;
	forget_prepared(r);
	rc = repo_commit_publish(r, *head_hex ? head_hex : NULL, expect_oid);
	if (rc == REPO_STALE)
		return why_fail(why, whylen, "%s moved meanwhile", REPO_BRANCH);
	if (rc < 0)
		return why_fail(why, whylen, "cannot move %s", REPO_BRANCH);
	return 0;
}

static int change_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = strcmp(x + 2, y + 2);

	return c ? c : strcmp(x, y);
}

int repo_patch_changes(const char *patch, size_t len, struct strbuf *out,
		       char *why, size_t whylen)
{
	struct patch_head h;
	git_diff *diff = NULL;
	char **lines = NULL;
	size_t n = 0;
	int rc = -1;

	repo_global_init();
	if (patch_head_parse(patch, len, &h, why, whylen) < 0 ||
	    patch_diff(patch, len, &h, &diff, why, whylen) < 0)
		goto out;
	if (diff)
		lines = xcalloc(2 * git_diff_num_deltas(diff) + 1, sizeof(*lines));
	for (size_t i = 0; diff && i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const char *o = d->old_file.path, *w = d->new_file.path;
		switch (d->status) {
		case GIT_DELTA_ADDED:
		case GIT_DELTA_COPIED:
			lines[n++] = xstrfmt("A %s", w);
			break;
		case GIT_DELTA_DELETED:
			lines[n++] = xstrfmt("D %s", o);
			break;
		case GIT_DELTA_RENAMED:
			lines[n++] = xstrfmt("D %s", o);
			lines[n++] = xstrfmt("A %s", w);
			break;
		default:
			lines[n++] = xstrfmt("M %s", w);
			break;
		}
	}
	if (n)
		qsort(lines, n, sizeof(*lines), change_cmp);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "%s\n", lines[i]);
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	git_diff_free(diff);
	patch_head_release(&h);
	return rc;
}
