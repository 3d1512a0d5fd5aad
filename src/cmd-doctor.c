/*
 * cmd-doctor.c - `postrider doctor [ROOT|DIR...]`: checks a host's set-up
 * before a mail system is pointed at it, and says what to fix: the
 * configuration, the mail transport (the SMTP server reached and logged
 * into, or the sendmail program), the outbox and the log, the templates
 * and the component data, the permissions of every secret, and each
 * game named (it opens, its secret and clock, mail waiting or refused).
 * Changes nothing and sends no mail.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "perms.h"
#include "publish.h"
#include "transport.h"
#include "config.h"
#include "data.h"
#include "game.h"
#include "outbox.h"
#include "report.h"

struct doctor {
	int failed, warned;
};

static void say(struct doctor *dr, char level, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void say(struct doctor *dr, char level, const char *fmt, ...)
{
	va_list ap;

	fputs(level == 'o' ? "ok    " : level == 'w' ? "warn  " : "FAIL  ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (level == 'f')
		dr->failed++;
	else if (level == 'w')
		dr->warned++;
}

/* A secret file or folder must be the user's alone. */
static void private_mode(struct doctor *dr, const char *what, const char *path,
			 bool dir)
{
	struct stat st;

	if (!path)
		return;
	if (stat(path, &st) < 0) {
		say(dr, 'f', "%s '%s': %s", what, path, strerror(errno));
		return;
	}
	if (st.st_mode & 077)
		say(dr, 'f', "%s '%s' can be %s by other users (mode %03o): chmod %s '%s'",
		    what, path, !(st.st_mode & 055) ? "written" :
		    st.st_mode & 022 ? "read and written" : "read",
		    (unsigned)(st.st_mode & 0777), dir ? "700" : "600", path);
	else
		say(dr, 'o', "%s '%s' is private (mode %03o)", what, path,
		    (unsigned)(st.st_mode & 0777));
}

/* A folder postrider must write to: it exists (or can be made) and takes
 * a new file. */
static void writable_dir(struct doctor *dr, const char *what, const char *dir)
{
	char *probe = xstrfmt("%s/.postrider-doctor.%ld", dir, (long)getpid());
	int fd;

	if (mkdir_p(dir) < 0) {
		say(dr, 'f', "%s '%s' cannot be made: %s", what, dir, strerror(errno));
	} else if ((fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0) {
		say(dr, 'f', "%s '%s' is not writable: %s", what, dir, strerror(errno));
	} else {
		close(fd);
		unlink(probe);
		say(dr, 'o', "%s '%s' is writable", what, dir);
	}
	free(probe);
}

static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void check_config(struct doctor *dr, const char *path, struct mail_config *cfg)
{
	struct strbuf err = STRBUF_INIT;

	if (config_load(path, cfg, &err) < 0) {
		say(dr, 'f', "the configuration does not load; fix it:\n%s", err.buf);
		strbuf_release(&err);
		return;
	}
	if (cfg->path)
		say(dr, 'o', "configuration '%s' loads", cfg->path);
	else
		say(dr, 'w', "no configuration file: mail waits in each game's outbox (README.md, Mail)");
	if (cfg->password && cfg->path && !cfg->password_file)
		private_mode(dr, "the configuration, which holds a password,", cfg->path, false);
	private_mode(dr, "the SMTP password file", cfg->password_file, false);
	private_mode(dr, "the push password file", cfg->publish.password_file, false);
	private_mode(dr, "the SSH key", cfg->publish.ssh_key, false);
	strbuf_release(&err);
}

static void check_transport(struct doctor *dr, const struct mail_config *cfg)
{
	struct strbuf err = STRBUF_INIT;

	const struct transport *t = transport_of(cfg);
	struct strbuf ok = STRBUF_INIT;

	if (!t)
		say(dr, 'w', "no mail transport: every turn's mail waits in the outbox, and play exits 3");
	else if (t->probe(cfg, &ok, &err) == 0)
		say(dr, 'o', "%s", ok.buf);
	else
		say(dr, 'f', "%s", err.buf);
	strbuf_release(&ok);
	if (cfg->outbox)
		writable_dir(dr, "the outbox", cfg->outbox);
	if (cfg->host_mail && cfg->host_mail[0] == '/' &&
	    cfg->host_mail[strlen(cfg->host_mail) - 1] == '/') {
		writable_dir(dr, "the host's Maildir (host_mail)", cfg->host_mail);
	} else if (cfg->host_mail && cfg->host_mail[0] == '/') {
		int fd = open(cfg->host_mail, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0) {
			say(dr, 'f', "the host's mbox '%s' (host_mail) cannot be written: %s",
			    cfg->host_mail, strerror(errno));
		} else {
			close(fd);
			say(dr, 'o', "the host's mbox '%s' (host_mail) is writable", cfg->host_mail);
		}
	} else if (cfg->host_mail) {
		say(dr, 'o', "mail for no game is forwarded to %s (host_mail)", cfg->host_mail);
	}
	if (cfg->log) {
		int fd = open(cfg->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0) {
			say(dr, 'f', "the host's log '%s' cannot be written: %s", cfg->log, strerror(errno));
		} else {
			close(fd);
			say(dr, 'o', "the host's log '%s' is writable", cfg->log);
		}
	}
	strbuf_release(&err);
}

static void check_files(struct doctor *dr)
{
	char *tdir = report_templates_dir(), *gdir = game_data_dir(NULL, "washingtons-war");
	struct strbuf err = STRBUF_INIT;
	struct data *d;
	static const char *const templates[] = {
		"turn.txt", "rejected.txt", "answer.txt", "notice.txt",
	};

	for (size_t i = 0; i < sizeof(templates) / sizeof(templates[0]); i++) {
		char *p = xstrfmt("%s/%s", tdir, templates[i]);
		if (access(p, R_OK) < 0) {
			say(dr, 'f', "template '%s': %s (make install, or set POSTRIDER_TEMPLATES)",
			    p, strerror(errno));
			free(p);
			goto data;
		}
		free(p);
	}
	say(dr, 'o', "templates in '%s'", tdir);
data:
	if (!gdir || !(d = data_load(gdir, &err))) {
		say(dr, 'f', "the component data in '%s' does not load (make install, or set POSTRIDER_GAMES):\n%s",
		    gdir ? gdir : "(nowhere)", err.buf);
	} else {
		say(dr, 'o', "component data in '%s' loads and checks", gdir);
		data_free(d);
	}
	free(tdir);
	free(gdir);
	strbuf_release(&err);
}

static void check_game(struct doctor *dr, const char *dir, const struct mail_config *cfg)
{
	struct game g;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	char *outbox, *sub;
	int r = game_open(dir, &g, GAME_NEED_SECRET, &err), n;

	if (r != 0) {
		say(dr, 'f', "game '%s' does not open: %s", dir, err.buf);
		goto out;
	}
	say(dr, 'o', "game %s in '%s' opens, with its secret (order %u)", g.id, dir, g.state.seq);
	repo_private_path(g.repo, "secret", &path);
	private_mode(dr, "its secret", path.buf, false);
	strbuf_reset(&path);
	strbuf_addstr(&path, repo_gitdir(g.repo));
	while (path.len > 1 && path.buf[path.len - 1] == '/')
		path.buf[--path.len] = '\0';
	strbuf_addstr(&path, "/postrider");
	private_mode(dr, "its private folder", path.buf, true);
	{
		/* its config, refs and hooks are its owner's to write alone */
		struct strbuf list = STRBUF_INIT;
		int k = perms_writable_by_others(dir, 5, &list);
		if (k < 0)
			say(dr, 'f', "game %s: '%s' cannot be walked: %s", g.id, dir, strerror(errno));
		else if (k)
			say(dr, 'f', "%d files or folders of game %s can be written by other users, "
			    "who could steer it (its refs, config, hooks): chmod -R go-w '%s'; "
			    "the first:\n%.*s", k, g.id, dir, (int)list.len - 1, list.buf);
		else
			say(dr, 'o', "game %s: no file of the game can be written by other users", g.id);
		strbuf_release(&list);
	}
	if (repo_lock(g.repo, 0) == REPO_BUSY)
		say(dr, 'w', "game %s is locked by a run now (if this lasts, a run hangs)", g.id);
	else
		repo_unlock(g.repo);
	outbox = cfg->outbox ? xstrdup(cfg->outbox) : xstrfmt("%s/outbox", path.buf);
	if (!cfg->outbox)
		writable_dir(dr, "its outbox", outbox);
	sub = xstrfmt("%s/new", outbox);
	if ((n = count_files(sub)))
		say(dr, 'w', "game %s: %d message%s wait in '%s': postrider send '%s'", g.id, n,
		    n == 1 ? "" : "s", sub, dir);
	free(sub);
	sub = xstrfmt("%s/failed", outbox);
	if ((n = count_files(sub)))
		say(dr, 'w', "game %s: %d message%s refused for good in '%s': read them, mend the addresses",
		    g.id, n, n == 1 ? "" : "s", sub);
	free(sub);
	free(outbox);
	{
		/* a remote's URL from before postrider refused passwords in it */
		struct strbuf url = STRBUF_INIT, why = STRBUF_INIT;
		if (publish_remote_url(g.repo, &url, &why) == 1 &&
		    publish_check_url(url.buf, &why) < 0)
			say(dr, 'f', "game %s: %s (postrider publish '%s' --remote URL; then "
			    "change that password, which .git/config has shown)", g.id, why.buf, dir);
		strbuf_release(&url);
		strbuf_release(&why);
	}
out:
	game_close(&g);
	strbuf_release(&err);
	strbuf_release(&path);
}

static int exec_doctor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *config_path = NULL;
	struct mail_config cfg = { 0 };
	struct doctor dr = { 0 };
	char **dirs = NULL;
	size_t n = 0;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'c')
			return cmd_usage(&cmd_doctor_entry);
		config_path = optarg;
	}
	check_config(&dr, config_path, &cfg);
	if (!dr.failed)
		check_transport(&dr, &cfg);
	check_files(&dr);
	for (int i = optind; i < argc; i++)
		if (cmd_game_dirs(argv[i], &dirs, &n) < 0)
			say(&dr, 'f', "'%s' cannot be read", argv[i]);
	for (size_t i = 0; i < n; i++) {
		check_game(&dr, dirs[i], &cfg);
		free(dirs[i]);
	}
	free(dirs);
	config_release(&cfg);
	printf("%s: %d problem%s, %d warning%s\n", dr.failed ? "not ready" : "ready",
	       dr.failed, dr.failed == 1 ? "" : "s", dr.warned, dr.warned == 1 ? "" : "s");
	return dr.failed ? EXIT_REJECTED : 0;
}

const struct cmd_entry cmd_doctor_entry = {
	"doctor", "doctor [ROOT|DIR...] [--config FILE]",
	"check a host's set-up and say what to fix",
	"  ROOT|DIR       games to look at too (a game, or a folder of games)\n"
	"  --config FILE  the configuration to check (default: as for play)\n"
	"Checks the configuration, the mail transport (the SMTP server is reached\n"
	"and logged into; no mail is sent), the outbox and the log, the templates\n"
	"and the component data, the permissions of every secret, and each game\n"
	"(and that others can write none of its files).\n"
	"exit status: 0 ready (warnings aside), 1 something to fix\n",
	exec_doctor,
};
