/*
 * catalog.c - the index of a folder of games (catalog.h): validated per
 * game against the repository, read again where stale, rebuilt when it
 * cannot be trusted.
 */
#include "catalog.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "engine/engine.h"

#define MAGIC "postrider-index 1 "
#define MAX_FILE (512u << 20)
#define N_FIELDS 16

void catalog_summary_release(struct catalog_summary *s)
{
	free(s->id);
	free(s->american);
	free(s->british);
	free(s->prompt);
	free(s->result);
	memset(s, 0, sizeof(*s));
}

void catalog_summarize(const struct game *g, struct catalog_summary *s)
{
	const struct state *st = &g->state;
	struct strbuf b = STRBUF_INIT;
	bool over = engine_game_over(st);

	memset(s, 0, sizeof(*s));
	s->id = xstrdup(g->id);
	s->american = xstrdup(g->player[SIDE_AMERICAN].name);
	s->british = xstrdup(g->player[SIDE_BRITISH].name);
	s->year = st->year;
	s->seq = st->seq;
	s->side = over ? SIDE_NONE : st->prompt.side;
	repo_commit_info(g->repo, g->head, NULL, NULL, NULL, &s->since);
	if (over)
		strbuf_addstr(&b, "game over");
	else
		engine_describe_prompt(g->data, st, &b);
	s->prompt = strbuf_detach(&b, NULL);
	if (over)
		strbuf_addf(&b, "%s (%s)", st->end == END_ABANDONED ? "abandoned" :
			    side_name(st->winner), game_end_name(st->end));
	s->result = strbuf_detach(&b, NULL);
	s->secret = g->have_seed;
	s->deadline = g->clock.deadline;
	s->due = over ? 0 : clock_due(&g->clock, st->prompt.side);
	s->warned = g->clock.warned;
	s->late = g->clock.late;
}

/* --- the key ------------------------------------------------------------- */

/* The first line of a small file, without its newline; -1 if none. */
static int first_line(const char *path, char *out, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, out, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

static bool is_oid(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == 40 && !s[40];
}

/* The commit refs/heads/main of gitdir names, as libgit2 reads it: the
 * loose ref first, else packed-refs. */
static int main_commit(const char *gitdir, char oid[41])
{
	char buf[256], *path;
	int r;

	path = xstrfmt("%s/HEAD", gitdir);
	r = first_line(path, buf, sizeof(buf));
	free(path);
	if (r < 0 || strcmp(buf, "ref: refs/heads/main"))
		return -1;
	path = xstrfmt("%s/refs/heads/main", gitdir);
	r = first_line(path, buf, sizeof(buf));
	free(path);
	if (r == 0) {
		if (!is_oid(buf))
			return -1;
		memcpy(oid, buf, 41);
		return 0;
	}
	if (errno != ENOENT)
		return -1;
	{
		struct strbuf packed = STRBUF_INIT;
		const char *p;
		int ret = -1;
		path = xstrfmt("%s/packed-refs", gitdir);
		if (read_file(path, &packed, 64u << 20) == 0 &&
		    (p = strstr(packed.buf, " refs/heads/main\n")) &&
		    p - packed.buf >= 40 && (p - 40 == packed.buf || p[-41] == '\n')) {
			memcpy(oid, p - 40, 40);
			oid[40] = '\0';
			ret = is_oid(oid) ? 0 : -1;
		}
		free(path);
		strbuf_release(&packed);
		return ret;
	}
}

static void add_identity(struct strbuf *k, const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		strbuf_addstr(k, "+-");
	else
		strbuf_addf(k, "+%llu.%llu.%lld.%ld", (unsigned long long)st.st_ino,
			    (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
			    st.st_mtim.tv_nsec);
}

/* The key with the head given (or read), the files' identities now. */
static int make_key(const char *dir, const char *head, char key[CATALOG_KEY_SIZE])
{
	char *gitdir = xstrfmt("%s/.git", dir), oid[41], *p;
	struct strbuf k = STRBUF_INIT;
	struct stat st;
	int ret = -1;

	*key = '\0';
	if (lstat(gitdir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(gitdir);
		gitdir = xstrdup(dir);	/* a bare repository */
	}
	if (!head) {
		if (main_commit(gitdir, oid) < 0)
			goto out;
		head = oid;
	}
	strbuf_addstr(&k, head);
	p = xstrfmt("%s/postrider/clock.yaml", gitdir);
	add_identity(&k, p);
	free(p);
	p = xstrfmt("%s/postrider/secret", gitdir);
	add_identity(&k, p);
	free(p);
	if (k.len < CATALOG_KEY_SIZE) {
		memcpy(key, k.buf, k.len + 1);
		ret = 0;
	}
out:
	strbuf_release(&k);
	free(gitdir);
	return ret;
}

int catalog_key(const char *dir, char key[CATALOG_KEY_SIZE])
{
	return make_key(dir, NULL, key);
}

/* --- the file ------------------------------------------------------------ */

/* What tells one build of postrider from another: its program file. */
static void build_identity(struct strbuf *out)
{
	struct stat st;

	strbuf_addstr(out, POSTRIDER_VERSION);
	if (stat("/proc/self/exe", &st) == 0)
		strbuf_addf(out, "+%llu.%llu.%lld.%ld", (unsigned long long)st.st_ino,
			    (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
			    st.st_mtim.tv_nsec);
}

static void sha256_hex(const char *data, size_t len, char out[65])
{
	unsigned char md[32];
	unsigned int n = 0;

	if (!EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) || n != 32)
		BUG("SHA-256 failed");
	hex_encode(md, 32, out);
	out[64] = '\0';
}

static void put_escaped(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			strbuf_addstr(out, "\\\\");
		else if (*s == '\t')
			strbuf_addstr(out, "\\t");
		else if (*s == '\n')
			strbuf_addstr(out, "\\n");
		else
			strbuf_addch(out, *s);
	}
}

static void put_field(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\t');
	put_escaped(out, s);
}

static void put_entry(struct strbuf *out, const struct catalog_entry *e)
{
	const struct catalog_summary *s = &e->sum;
	char num[200];

	put_escaped(out, e->name);	/* a folder's name may hold a tab */
	put_field(out, e->key);
	put_field(out, s->id);
	put_field(out, s->american);
	put_field(out, s->british);
	snprintf(num, sizeof(num), "%d\t%u\t%d\t%lld", s->year, s->seq, (int)s->side, s->since);
	strbuf_addch(out, '\t');
	strbuf_addstr(out, num);
	put_field(out, s->prompt);
	put_field(out, s->result);
	snprintf(num, sizeof(num), "%d\t%lld\t%lld\t%u\t%u", s->secret, s->deadline,
		 s->due, s->warned, s->late);
	strbuf_addch(out, '\t');
	strbuf_addstr(out, num);
	strbuf_addch(out, '\n');
}

/* Splits line (modified in place) into n fields, unescaping; false if the
 * count or an escape is wrong. */
static bool split(char *line, char **f, int n)
{
	int i = 0;
	char *w = line;

	f[i++] = w;
	for (char *p = line; *p; p++) {
		if (*p == '\t') {
			*w++ = '\0';
			if (i == n)
				return false;
			f[i++] = w;
		} else if (*p == '\\') {
			p++;
			if (*p == '\\')
				*w++ = '\\';
			else if (*p == 't')
				*w++ = '\t';
			else if (*p == 'n')
				*w++ = '\n';
			else
				return false;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return i == n;
}

static bool number(const char *s, long long lo, long long hi, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return *s && !*end && !errno && *v >= lo && *v <= hi;
}

static bool parse_entry(char *line, struct catalog_entry *e)
{
	char *f[N_FIELDS];
	long long v[9];
	static const long long lo[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const long long hi[9] = {
		9999, 4294967295LL, 2, 1LL << 62, 1, 1LL << 62, 1LL << 62,
		4294967295LL, 4294967295LL
	};
	const int at[9] = { 5, 6, 7, 8, 11, 12, 13, 14, 15 };

	if (!split(line, f, N_FIELDS) || !*f[0] || strlen(f[1]) >= CATALOG_KEY_SIZE)
		return false;
	for (int i = 0; i < 9; i++)
		if (!number(f[at[i]], lo[i], hi[i], &v[i]))
			return false;
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(f[0]);
	strcpy(e->key, f[1]);
	e->sound = true;
	e->sum.id = xstrdup(f[2]);
	e->sum.american = xstrdup(f[3]);
	e->sum.british = xstrdup(f[4]);
	e->sum.year = (int)v[0];
	e->sum.seq = (unsigned)v[1];
	e->sum.side = (enum side)v[2];
	e->sum.since = v[3];
	e->sum.prompt = xstrdup(f[9]);
	e->sum.result = xstrdup(f[10]);
	e->sum.secret = v[4];
	e->sum.deadline = v[5];
	e->sum.due = v[6];
	e->sum.warned = (unsigned)v[7];
	e->sum.late = (unsigned)v[8];
	return true;
}

static void entry_release(struct catalog_entry *e)
{
	free(e->name);
	free(e->dir);
	free(e->err);
	catalog_summary_release(&e->sum);
	memset(e, 0, sizeof(*e));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct catalog_entry *)a)->name,
		      ((const struct catalog_entry *)b)->name);
}

/* The entries of the file, sorted by name; none if it is not to be
 * trusted whole (then it is rewritten). */
static void load_file(struct catalog *c, struct catalog_entry **out, size_t *n)
{
	struct strbuf text = STRBUF_INIT, build = STRBUF_INIT;
	char hex[65], *p, *end, *sum;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (read_file(c->path, &text, MAX_FILE) < 0 || !text.len ||
	    text.buf[text.len - 1] != '\n')
		goto out;
	text.buf[--text.len] = '\0';
	sum = strrchr(text.buf, '\n');
	if (!sum || strncmp(sum + 1, "sha256 ", 7))
		goto out;
	sha256_hex(text.buf, (size_t)(sum + 1 - text.buf), hex);
	if (strcmp(sum + 8, hex))
		goto out;
	*sum = '\0';
	build_identity(&build);
	end = strchr(text.buf, '\n');
	if (!end || strncmp(text.buf, MAGIC, strlen(MAGIC)) ||
	    (size_t)(end - text.buf) != strlen(MAGIC) + build.len ||
	    strncmp(text.buf + strlen(MAGIC), build.buf, build.len))
		goto out;
	for (p = end + 1; p && *p; p = end) {
		end = strchr(p, '\n');
		if (end)
			*end++ = '\0';
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		if (!parse_entry(p, &(*out)[*n]))
			goto bad;
		(*n)++;
	}
	if (*n)	/* *out is NULL in an empty index */
		qsort(*out, *n, sizeof(**out), by_name);
	for (size_t i = 1; i < *n; i++)
		if (!strcmp((*out)[i - 1].name, (*out)[i].name))
			goto bad;
	c->file_ok = true;
	goto out;
bad:
	for (size_t i = 0; i < *n; i++)
		entry_release(&(*out)[i]);
	free(*out);
	*out = NULL;
	*n = 0;
out:
	strbuf_release(&text);
	strbuf_release(&build);
}

static void save_file(struct catalog *c)
{
	struct strbuf text = STRBUF_INIT;
	char hex[65], *tmp;
	int fd;

	strbuf_addstr(&text, MAGIC);
	build_identity(&text);
	strbuf_addch(&text, '\n');
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].sound && *c->e[i].key)
			put_entry(&text, &c->e[i]);
	sha256_hex(text.buf, text.len, hex);
	strbuf_addf(&text, "sha256 %s\n", hex);
	tmp = xstrfmt("%s.tmp.%ld", c->path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		bool ok = write(fd, text.buf, text.len) == (ssize_t)text.len;
		if (close(fd) == 0 && ok && rename(tmp, c->path) == 0)
			c->saved = true;
		else
			unlink(tmp);
	}
	free(tmp);
	strbuf_release(&text);
}

/* --- validation ---------------------------------------------------------- */

/* Reads the game in e->dir as the commands always did. */
static void reread(struct catalog_entry *e)
{
	struct strbuf err = STRBUF_INIT;
	struct game g;
	char before[CATALOG_KEY_SIZE];
	int r;

	/* the files' identities before the game is read: if they change
	 * while it is, the key stored no longer matches, and the next run
	 * reads it again; the head is the very commit read */
	r = make_key(e->dir, NULL, before);
	catalog_summary_release(&e->sum);
	free(e->err);
	e->err = NULL;
	e->fresh = true;
	e->sound = game_open(e->dir, &g, 0, &err) == 0;
	if (e->sound) {
		catalog_summarize(&g, &e->sum);
		if (r < 0 || make_key(e->dir, g.head, e->key) < 0 ||
		    strcmp(strchr(e->key, '+'), strchr(before, '+')))
			*e->key = '\0';	/* not kept: read again next time */
	} else {
		e->err = strbuf_detach(&err, NULL);
		*e->key = '\0';
	}
	game_close(&g);
	strbuf_release(&err);
}

static bool is_repository(const char *path)
{
	struct stat st;
	char *p = xstrfmt("%s/.git", path);
	bool repo = !stat(p, &st);

	free(p);
	if (!repo) {
		p = xstrfmt("%s/HEAD", path);
		repo = !stat(p, &st);
		free(p);
	}
	return repo;
}

/* The folders under root that are repositories, as entries, by name. */
static int scan(struct catalog *c, struct strbuf *err)
{
	DIR *d = opendir(c->root);
	struct dirent *de;
	size_t cap = 0;

	if (!d) {
		strbuf_addf(err, "cannot read '%s': %s", c->root, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *dir;
		if (de->d_name[0] == '.')
			continue;
		dir = xstrfmt("%s/%s", c->root, de->d_name);
		if (!is_repository(dir)) {
			free(dir);
			continue;
		}
		if (c->n == cap) {
			cap = cap ? 2 * cap : 64;
			c->e = xrealloc(c->e, cap * sizeof(*c->e));
		}
		memset(&c->e[c->n], 0, sizeof(*c->e));
		c->e[c->n].name = xstrdup(de->d_name);
		c->e[c->n++].dir = dir;
	}
	closedir(d);
	if (c->n)	/* c->e is NULL in an empty folder */
		qsort(c->e, c->n, sizeof(*c->e), by_name);
	return 0;
}

int catalog_open(const char *root, unsigned flags, struct catalog *c,
		 struct strbuf *err)
{
	struct catalog_entry *old = NULL;
	size_t n_old = 0, j = 0, kept = 0;
	bool changed;

	memset(c, 0, sizeof(*c));
	c->root = xstrdup(root);
	c->path = xstrfmt("%s/%s", root, CATALOG_FILE);
	if (is_repository(root)) {
		/* one game, not a folder of games: no file */
		c->e = xcalloc(1, sizeof(*c->e));
		c->e[0].name = xstrdup(root);
		c->e[0].dir = xstrdup(root);
		c->n = 1;
		reread(&c->e[0]);
		c->reread = 1;
		return 0;
	}
	if (scan(c, err) < 0)
		return -1;
	if (!(flags & (CATALOG_REBUILD | CATALOG_NO_FILE)))
		load_file(c, &old, &n_old);
	changed = !c->file_ok;
	for (size_t i = 0; i < c->n; i++) {
		struct catalog_entry *e = &c->e[i];
		char now[CATALOG_KEY_SIZE];
		while (j < n_old && strcmp(old[j].name, e->name) < 0)
			j++;
		if (j < n_old && !strcmp(old[j].name, e->name) &&
		    catalog_key(e->dir, now) == 0 && !strcmp(now, old[j].key)) {
			memcpy(e->key, old[j].key, sizeof(e->key));
			e->sum = old[j].sum;
			memset(&old[j].sum, 0, sizeof(old[j].sum));
			e->sound = true;
			kept++;
			continue;
		}
		reread(e);
		c->reread++;
		/* a game that does not open is read again each time anyway */
		changed = changed || *e->key;
	}
	changed = changed || kept != n_old;	/* entries stale, or games gone */
	for (size_t i = 0; i < n_old; i++)
		entry_release(&old[i]);
	free(old);
	if (changed && !(flags & CATALOG_NO_FILE))
		save_file(c);
	return 0;
}

void catalog_release(struct catalog *c)
{
	for (size_t i = 0; i < c->n; i++)
		entry_release(&c->e[i]);
	free(c->e);
	free(c->root);
	free(c->path);
	memset(c, 0, sizeof(*c));
}
