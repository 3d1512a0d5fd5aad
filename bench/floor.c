/*
 * floor.c - the floor of a turn for `make bench`: what committing the
 * files of a turn costs with libgit2 alone, as durably as postrider does
 * it (objects, refs and their folders fsync'd: GIT_OPT_ENABLE_FSYNC_GITDIR),
 * with no adjudication, sealing or mail.
 *
 *	floor REPO N [MAILBYTES]
 *
 * On the branch main of REPO (a postrider game), N times: appends a line
 * to state.yaml, log.txt and private/state.sealed and writes a new order
 * file, as blobs; builds the new tree from the old one with
 * git_tree_create_updated(); commits on top of main and moves main.
 * With MAILBYTES, each time also delivers two mails of that size into a
 * Maildir-like folder in the git directory as postrider's outbox does
 * (written in tmp/, fsync'd, renamed into new/, then both folders
 * fsync'd once), so that the floor writes as much as a turn as durably.
 * Prints the microseconds per commit (make bench runs it with N = 1, once
 * per turn, and times the whole process, as it times `postrider play`).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <git2.h>

static void die(const char *what)
{
	const git_error *e = git_error_last();
	fprintf(stderr, "floor: %s: %s\n", what, e && e->message ? e->message : "?");
	exit(1);
}

/* A blob of the file at path in tree, with line appended. */
static void appended(git_repository *r, git_tree *tree, const char *path,
		     const char *line, git_oid *out)
{
	git_tree_entry *e = NULL;
	git_blob *b = NULL;
	const char *old = "";
	size_t n = 0;

	if (git_tree_entry_bypath(&e, tree, path) == 0 &&
	    git_blob_lookup(&b, r, git_tree_entry_id(e)) == 0) {
		old = git_blob_rawcontent(b);
		n = (size_t)git_blob_rawsize(b);
	}
	char *buf = malloc(n + strlen(line) + 1);
	if (!buf)
		die("malloc");
	memcpy(buf, old, n);
	memcpy(buf + n, line, strlen(line));
	if (git_blob_create_from_buffer(out, r, buf, n + strlen(line)) < 0)
		die("blob");
	free(buf);
	git_blob_free(b);
	git_tree_entry_free(e);
}

static void fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, size, f, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		die("path too long");
}

static void sync_path(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fsync(fd) < 0)
		die(path);
	close(fd);
}

/* Two mails of size bytes, delivered as durably as postrider's outbox. */
static void deliver(const char *gitdir, int turn, size_t size)
{
	char dir[4096], tmp[4096], new[4096], path[4096], dest[4096];
	char *body = malloc(size);

	if (!body)
		die("malloc");
	memset(body, 'm', size);
	fmt(dir, sizeof(dir), "%s/floor-outbox", gitdir);
	fmt(tmp, sizeof(tmp), "%s/tmp", dir);
	fmt(new, sizeof(new), "%s/new", dir);
	mkdir(dir, 0700);
	mkdir(tmp, 0700);
	mkdir(new, 0700);
	for (int side = 0; side < 2; side++) {
		int fd;
		fmt(path, sizeof(path), "%s/%d-%d", tmp, turn, side);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, body, size) != (ssize_t)size || fsync(fd) < 0)
			die("mail");
		close(fd);
	}
	for (int side = 0; side < 2; side++) {
		fmt(path, sizeof(path), "%s/%d-%d", tmp, turn, side);
		fmt(dest, sizeof(dest), "%s/%d-%d", new, turn, side);
		if (rename(path, dest) < 0)
			die("rename");
	}
	sync_path(new);
	sync_path(tmp);
	free(body);
}

int main(int argc, char **argv)
{
	git_repository *r;
	git_signature *sig;
	struct timespec t0, t1;
	int n;
	size_t mail = 0;

	if ((argc != 3 && argc != 4) || (n = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: floor REPO N [MAILBYTES]\n");
		return 2;
	}
	if (argc == 4)
		mail = (size_t)atol(argv[3]);
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
	if (git_repository_open(&r, argv[1]) < 0)
		die("open");
	if (git_signature_new(&sig, "bench", "bench@example.org", 1700000000, 0) < 0)
		die("signature");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		git_oid head, tree_id, commit, blobs[4];
		git_commit *parent;
		git_tree *tree, *next;
		char line[64], order[64];

		if (git_reference_name_to_id(&head, r, "refs/heads/main") < 0 ||
		    git_commit_lookup(&parent, r, &head) < 0 ||
		    git_commit_tree(&tree, parent) < 0)
			die("head");
		snprintf(line, sizeof(line), "bench %d\n", i);
		appended(r, tree, "state.yaml", line, &blobs[0]);
		appended(r, tree, "log.txt", line, &blobs[1]);
		appended(r, tree, "private/state.sealed", line, &blobs[2]);
		if (git_blob_create_from_buffer(&blobs[3], r, line, strlen(line)) < 0)
			die("blob");
		snprintf(order, sizeof(order), "orders/bench-%04d.txt", i);
		git_tree_update u[4] = {
			{ GIT_TREE_UPDATE_UPSERT, blobs[0], GIT_FILEMODE_BLOB, "state.yaml" },
			{ GIT_TREE_UPDATE_UPSERT, blobs[1], GIT_FILEMODE_BLOB, "log.txt" },
			{ GIT_TREE_UPDATE_UPSERT, blobs[2], GIT_FILEMODE_BLOB, "private/state.sealed" },
			{ GIT_TREE_UPDATE_UPSERT, blobs[3], GIT_FILEMODE_BLOB, order },
		};
		if (git_tree_create_updated(&tree_id, r, tree, 4, u) < 0 ||
		    git_tree_lookup(&next, r, &tree_id) < 0)
			die("tree");
		const git_commit *parents[1] = { parent };
		if (git_commit_create(&commit, r, "refs/heads/main", sig, sig, NULL,
				      line, next, 1, parents) < 0)
			die("commit");
		git_tree_free(next);
		git_tree_free(tree);
		git_commit_free(parent);
		if (mail)
			deliver(git_repository_path(r), i, mail);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%ld\n", ((t1.tv_sec - t0.tv_sec) * 1000000L +
			 (t1.tv_nsec - t0.tv_nsec) / 1000) / n);
	git_signature_free(sig);
	git_repository_free(r);
	git_libgit2_shutdown();
	return 0;
}
