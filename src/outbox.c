#include "outbox.h"
#include "mail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_MAX_LEN 100

/* Creates DIR and its tmp/, new/ and cur/ folders. */
static int ensure_dirs(const char *dir)
{
	static const char *const sub[] = { "tmp", "new", "cur" };

	for (size_t i = 0; i < ARRAY_SIZE(sub); i++) {
		char *p = xstrfmt("%s/%s", dir, sub[i]);
		if (mkdir_p(p) < 0) {
			int e = errno;
			error("cannot create outbox folder '%s': %s", p,
			      strerror(e));
			free(p);
			return -1;
		}
		free(p);
	}
	return 0;
}

/* The hint reduced to a safe file name. */
static char *clean_hint(const char *hint)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = hint ? hint : ""; *p && sb.len < NAME_MAX_LEN;
	     p++) {
		char c = *p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			c = '_';
		if (!sb.len && c == '.')
			c = '_';
		strbuf_addch(&sb, c);
	}
	if (!sb.len)
		strbuf_addstr(&sb, "message");
	return strbuf_detach(&sb, NULL);
}

static bool exists(const char *dir, const char *sub, const char *name,
		   const char *suffix)
{
	char *p = xstrfmt("%s/%s/%s%s", dir, sub, name, suffix);
	struct stat st;
	bool r = lstat(p, &st) == 0;

	free(p);
	return r;
}

/* Is name free in new/ and cur/? */
static bool name_free(const char *dir, const char *name)
{
	return !exists(dir, "new", name, "") && !exists(dir, "cur", name, "") &&
	       !exists(dir, "cur", name, ":2,S");
}

/* fsyncs a folder so that a rename in it is durable. */
static int sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return error("cannot open outbox folder '%s': %s", path,
			     strerror(errno));
	if (fsync(fd) < 0 && errno != EINVAL) {
		int e = errno;
		close(fd);
		return error("cannot sync outbox folder '%s': %s", path,
			     strerror(e));
	}
	close(fd);
	return 0;
}

/* Writes all of data to fd. */
static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int outbox_stage(const char *dir, const char *name_hint, const char *msg,
		 size_t len, struct strbuf *tmp_path_out)
{
	char *hint, *path = NULL;
	int fd = -1;

	if (ensure_dirs(dir) < 0)
		return -1;
	hint = clean_hint(name_hint);
	for (unsigned n = 1; n < 100000; n++) {
		char *name = xstrfmt("%s.%u", hint, n);
		if (name_free(dir, name)) {
			path = xstrfmt("%s/tmp/%s", dir, name);
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				  0600);
			if (fd >= 0 || errno != EEXIST) {
				free(name);
				break;
			}
			free(path);
			path = NULL;
		}
		free(name);
	}
	free(hint);
	if (fd < 0) {
		int e = errno;
		if (path)
			error("cannot create '%s' in the outbox: %s", path,
			      strerror(e));
		else
			error("no free message name in outbox '%s'", dir);
		free(path);
		return -1;
	}
	if (write_all(fd, msg, len) < 0 || fsync(fd) < 0) {
		int e = errno;
		error("cannot write '%s' in the outbox: %s", path,
		      strerror(e));
		close(fd);
		unlink(path);
		free(path);
		return -1;
	}
	if (close(fd) < 0) {
		int e = errno;
		error("cannot write '%s' in the outbox: %s", path,
		      strerror(e));
		unlink(path);
		free(path);
		return -1;
	}
	strbuf_addstr(tmp_path_out, path);
	free(path);
	return 0;
}

/* Renames one staged file into new/ (under a free name). */
static int move_to_new(const char *dir, const char *newdir, const char *tmp_path)
{
	const char *base = strrchr(tmp_path, '/');
	char *target = NULL;
	int ret = -1;

	base = base ? base + 1 : tmp_path;
	if (!*base || *base == '.') {
		error("'%s' is not a staged outbox message", tmp_path);
		return -1;
	}
	/* staged names are unique in new/ and cur/; keep that if a stray
	 * file appeared since */
	for (unsigned n = 1; n < 100000 && !target; n++) {
		char *name = n == 1 ? xstrdup(base) : xstrfmt("%s.%u", base, n);
		if (name_free(dir, name))
			target = xstrfmt("%s/%s", newdir, name);
		free(name);
	}
	if (!target) {
		error("no free message name in outbox '%s'", dir);
		return -1;
	}
	if (rename(tmp_path, target) < 0)
		error("cannot move '%s' to '%s': %s", tmp_path, target,
		      strerror(errno));
	else
		ret = 0;
	free(target);
	return ret;
}

int outbox_publish_all(const char *dir, char *const *tmp_paths, int n)
{
	char *tmpdir = xstrfmt("%s/tmp", dir), *newdir = xstrfmt("%s/new", dir);
	int ret = 0;
	bool moved = false;

	/* new/ may have gone since the messages were staged (recovery) */
	if (ensure_dirs(dir) < 0) {
		ret = -1;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		if (move_to_new(dir, newdir, tmp_paths[i]) < 0)
			ret = -1;
		else
			moved = true;
	}
	/* the renames made durable together: each folder synced once */
	if (moved && (sync_dir(newdir) < 0 || sync_dir(tmpdir) < 0))
		ret = -1;
out:
	free(tmpdir);
	free(newdir);
	return ret;
}

int outbox_publish(const char *dir, const char *tmp_path)
{
	char *one = xstrdup(tmp_path);
	int ret = outbox_publish_all(dir, &one, 1);

	free(one);
	return ret;
}

int outbox_add(const char *dir, const char *name_hint, const char *msg,
	       size_t len, struct strbuf *path_out)
{
	struct strbuf tmp = STRBUF_INIT;
	int ret;

	if (outbox_stage(dir, name_hint, msg, len, &tmp) < 0)
		return -1;
	ret = outbox_publish(dir, tmp.buf);
	if (ret < 0) {
		unlink(tmp.buf);
	} else if (path_out) {
		const char *base = strrchr(tmp.buf, '/') + 1;
		strbuf_addf(path_out, "%s/new/%s", dir, base);
	}
	strbuf_release(&tmp);
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The regular files of DIR/SUB, sorted; *n gets their count. Returns
 * NULL with *n 0 for a missing folder, and (char **)-1 on error.
 */
static char **list_dir(const char *dir, const char *sub, size_t *n, int *err)
{
	char *path = xstrfmt("%s/%s", dir, sub);
	DIR *d = opendir(path);
	char **names = NULL;
	struct dirent *e;

	*n = 0;
	*err = 0;
	if (!d) {
		if (errno != ENOENT) {
			error("cannot read outbox folder '%s': %s", path,
			      strerror(errno));
			*err = -1;
		}
		free(path);
		return NULL;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	free(path);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_names);
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int outbox_recover(const char *dir, outbox_keep_fn *keep, void *ctx)
{
	size_t n;
	int err, failed = 0;
	char **names = list_dir(dir, "tmp", &n, &err);

	if (err)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *path = xstrfmt("%s/tmp/%s", dir, names[i]);
		struct strbuf msg = STRBUF_INIT;
		int r;

		if (read_file(path, &msg, 16 * MAIL_MAX_SIZE) < 0) {
			error("cannot read '%s': %s", path, strerror(errno));
			failed++;
		} else {
			r = keep(path, strbuf_str(&msg), msg.len, ctx);
			if (r > 0) {
				if (outbox_publish(dir, path) < 0)
					failed++;
			} else if (r == 0) {
				if (unlink(path) < 0) {
					error("cannot remove '%s': %s", path,
					      strerror(errno));
					failed++;
				}
			} else {
				failed++;
			}
		}
		strbuf_release(&msg);
		free(path);
	}
	free_names(names, n);
	return failed;
}

/* "a@b, c@d": the recipients of msg, for the report. */
static void add_recipients(struct strbuf *report, const char *msg, size_t len)
{
	static const char *const fields[] = { "To", "Cc" };
	int count = 0;

	for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
		char *v = mail_header_get(msg, len, fields[f]);
		char **addrs = NULL;
		size_t n = 0;
		mail_split_addresses(v, &addrs, &n);
		for (size_t i = 0; i < n; i++) {
			strbuf_addf(report, "%s%s", count++ ? ", " : "",
				    addrs[i]);
			free(addrs[i]);
		}
		free(addrs);
		free(v);
	}
}

/*
 * Takes DIR/.lock (flock, waiting for a sender already at work), so that
 * two senders never send the same message. Returns the descriptor, or -1.
 */
static int lock_outbox(const char *dir, struct strbuf *report)
{
	char *path = xstrfmt("%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0) {
		strbuf_addf(report, "cannot open the outbox lock '%s': %s\n",
			    path, strerror(errno));
		free(path);
		return -1;
	}
	while (flock(fd, LOCK_EX) < 0) {
		if (errno == EINTR)
			continue;
		strbuf_addf(report, "cannot lock the outbox '%s': %s\n",
			    path, strerror(errno));
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

/* Moves DIR/new/NAME to DIR/failed/NAME (a permanent failure). */
static int set_aside(const char *dir, const char *name, struct strbuf *report)
{
	char *faildir = xstrfmt("%s/failed", dir);
	char *from = xstrfmt("%s/new/%s", dir, name);
	char *to = xstrfmt("%s/%s", faildir, name);
	int ret = 0;

	if (mkdir_p(faildir) < 0 || rename(from, to) < 0) {
		strbuf_addf(report, "warning: cannot move '%s' to '%s': %s "
			    "(it stays in new/)\n", name, faildir,
			    strerror(errno));
		ret = -1;
	} else {
		sync_dir(faildir);
	}
	free(faildir);
	free(from);
	free(to);
	return ret;
}

int outbox_send(const char *dir, const struct mail_config *cfg,
		struct strbuf *report, int *permanent)
{
	size_t n;
	int err, failed = 0, perm = 0, lock = -1;
	char **names = NULL;

	if (permanent)
		*permanent = 0;
	if (!config_can_send(cfg)) {
		names = list_dir(dir, "new", &n, &err);
		if (err) {
			strbuf_addf(report, "cannot read outbox '%s/new'\n", dir);
			return -1;
		}
		if (n)
			strbuf_addf(report, "%s: %zu message(s) left in "
				    "'%s/new'\n", config_describe(cfg), n, dir);
		free_names(names, n);
		return (int)n;
	}
	if (ensure_dirs(dir) < 0) {
		strbuf_addf(report, "cannot create outbox '%s'\n", dir);
		return -1;
	}
	if ((lock = lock_outbox(dir, report)) < 0)
		return -1;
	/* listed under the lock: what an earlier sender sent is in cur/ */
	names = list_dir(dir, "new", &n, &err);
	if (err) {
		strbuf_addf(report, "cannot read outbox '%s/new'\n", dir);
		close(lock);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char *path = xstrfmt("%s/new/%s", dir, names[i]);
		struct strbuf msg = STRBUF_INIT, why = STRBUF_INIT;
		int r;

		if (read_file(path, &msg, 16 * MAIL_MAX_SIZE) < 0) {
			strbuf_addf(report, "not sent '%s': cannot read it: "
				    "%s\n", names[i], strerror(errno));
			failed++;
		} else if ((r = transport_send(cfg, strbuf_str(&msg), msg.len,
					       &why)) == -2) {
			strbuf_addf(report, "not sent '%s': %s; refused for "
				    "good, ", names[i], strbuf_str(&why));
			if (set_aside(dir, names[i], report) == 0)
				strbuf_addf(report, "moved to '%s/failed'\n",
					    dir);
			else
				strbuf_addstr(report, "left in new/\n");
			failed++;
			perm++;
		} else if (r < 0) {
			strbuf_addf(report, "not sent '%s': %s\n", names[i],
				    strbuf_str(&why));
			failed++;
		} else {
			char *target = xstrfmt("%s/cur/%s:2,S", dir, names[i]);
			char *curdir = xstrfmt("%s/cur", dir);
			/* sent: a failed move would send it twice, which
			 * is better than never */
			if (mkdir_p(curdir) < 0 || rename(path, target) < 0)
				strbuf_addf(report, "warning: sent '%s' but "
					    "cannot move it to '%s': %s\n",
					    names[i], curdir, strerror(errno));
			else
				sync_dir(curdir);
			strbuf_addf(report, "sent '%s' to ", names[i]);
			add_recipients(report, strbuf_str(&msg), msg.len);
			strbuf_addch(report, '\n');
			free(target);
			free(curdir);
		}
		strbuf_release(&why);
		strbuf_release(&msg);
		free(path);
	}
	free_names(names, n);
	close(lock);
	if (permanent)
		*permanent = perm;
	return failed;
}

/* A sent message and when it was written. */
struct sent {
	char *name;
	long long when;
};

/* Newest first; of the same second, by name, the last first. */
static int newest_first(const void *a, const void *b)
{
	const struct sent *x = a, *y = b;

	if (x->when != y->when)
		return x->when < y->when ? 1 : -1;
	return -strverscmp(x->name, y->name);
}

int outbox_prune(const char *dir, long long now, struct strbuf *report)
{
	size_t n;
	int err, lock, deleted = 0;
	char **names;
	struct sent *sent;

	if (!exists(dir, "cur", "", ""))
		return 0;
	if ((lock = lock_outbox(dir, report)) < 0)
		return -1;
	names = list_dir(dir, "cur", &n, &err);
	if (err) {
		strbuf_addf(report, "cannot read outbox '%s/cur'\n", dir);
		close(lock);
		return -1;
	}
	sent = xcalloc(n ? n : 1, sizeof(*sent));
	for (size_t i = 0; i < n; i++) {
		char *path = xstrfmt("%s/cur/%s", dir, names[i]);
		struct stat st;
		sent[i].name = names[i];
		/* unreadable: as if just written, kept */
		sent[i].when = lstat(path, &st) == 0 ? (long long)st.st_mtime : now;
		free(path);
	}
	qsort(sent, n, sizeof(*sent), newest_first);
	for (size_t i = OUTBOX_KEEP_LAST; i < n; i++) {
		char *path;
		if (sent[i].when > now - OUTBOX_KEEP_DAYS * 86400LL)
			continue;
		path = xstrfmt("%s/cur/%s", dir, sent[i].name);
		if (unlink(path) == 0)
			deleted++;
		else if (errno != ENOENT)
			strbuf_addf(report, "cannot delete the sent message '%s': %s\n",
				    path, strerror(errno));
		free(path);
	}
	free(sent);
	free_names(names, n);
	close(lock);
	return deleted;
}
