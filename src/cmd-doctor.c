/*
 * cmd-doctor.c - `postrider doctor [ROOT|DIR...]`: checks a host's set-up
 * before a mail system is pointed at it, and says what to fix: the
 * configuration, the mail transport (the SMTP server reached and logged
 * into, or the sendmail program), the outbox and the log, the templates
 * and the component data, the permissions of every secret, and each
 * game named (it opens, its secret and clock, mail waiting or refused).
 * A player's copy of a game without a host (docs/peer.md) is checked for
 * what it needs: its secret's permissions, the mail filter that hands
 * the other postrider's mails to it, the crontab line that runs `remind`
 * on it, and its outbox. Changes nothing and sends no mail.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "perms.h"
#include "publish.h"
#include "transport.h"
#include "config.h"
#include "data.h"
#include "game.h"
#include "outbox.h"
#include "peer.h"
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

/* A game's outbox: writable (if its own, not cfg's), mail waiting in
 * new/ or refused for good in failed/. */
static void check_outbox(struct doctor *dr, const char *id, const char *dir,
			 const char *outbox, bool own)
{
	char *sub;
	int n;

	if (own)
		writable_dir(dr, "its outbox", outbox);
	sub = xstrfmt("%s/new", outbox);
	if ((n = count_files(sub)))
		say(dr, 'w', "game %s: %d message%s wait in '%s': postrider send '%s'", id, n,
		    n == 1 ? "" : "s", sub, dir);
	free(sub);
	sub = xstrfmt("%s/failed", outbox);
	if ((n = count_files(sub)))
		say(dr, 'w', "game %s: %d message%s refused for good in '%s': read them, mend the addresses",
		    id, n, n == 1 ? "" : "s", sub);
	free(sub);
}

/* The text of the file NAME in the home folder (empty if none); 0, or -1
 * when it cannot be read. */
static int read_home_file(const char *name, struct strbuf *out)
{
	const char *home = getenv("HOME");
	char *path;
	int r;

	if (!home)
		return -1;
	path = xstrfmt("%s/%s", home, name);
	r = read_file(path, out, 1 << 20);
	free(path);
	return r;
}

/* word with "$HOME", "${HOME}", "~" and the procmailrc's own VAR=value
 * assignments (text) put in, as procmail would; malloc'd. */
static char *expand_word(const char *word, const char *text)
{
	struct strbuf out = STRBUF_INIT;
	const char *home = getenv("HOME"), *p = word;

	if (*p == '~' && (p[1] == '/' || !p[1])) {
		strbuf_addstr(&out, home ? home : "~");
		p++;
	}
	while (*p) {
		if (*p != '$') {
			strbuf_addch(&out, *p++);
			continue;
		}
		bool brace = p[1] == '{';
		const char *v = p + 1 + brace;
		size_t l = strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		char *name = xstrfmt("%.*s", (int)l, v), *val = NULL;
		if (!strcmp(name, "HOME")) {
			val = xstrdup(home ? home : "");
		} else {
			/* the last "NAME=value" line of the file before use */
			char *key = xstrfmt("\n%s=", name);
			const char *a = NULL, *f = text;
			while ((f = strstr(f, key)))
				a = f++;
			if (a) {
				a += strlen(key);
				char *raw = xstrfmt("%.*s", (int)strcspn(a, " \t\n"), a);
				val = strchr(raw, '$') ? expand_word(raw, "") : xstrdup(raw);
				free(raw);
			}
			free(key);
		}
		strbuf_addstr(&out, val ? val : "");
		free(val);
		free(name);
		p = v + l + (brace && v[l] == '}');
	}
	return strbuf_detach(&out, NULL);
}

/* The real path of path (or a copy of it when it cannot be resolved). */
static char *real(const char *path)
{
	char *r = realpath(path, NULL);
	return r ? r : xstrdup(path);
}

/*
 * The mail filter of a peer copy (contrib/procmailrc-peer): ~/.forward
 * hands mail to procmail, and a recipe of ~/.procmailrc pipes it to
 * postrider-deliver for this copy: `--games ROOT` with the copy in ROOT,
 * or `--game DIR` the copy itself; and host_mail takes a mail for a game
 * the player holds no copy of.
 */
static void check_peer_filter(struct doctor *dr, const char *dir,
			      const struct mail_config *cfg)
{
	struct strbuf fwd = STRBUF_INIT, rc = STRBUF_INIT;
	char *me = real(dir), *parent = xstrdup(me), *slash = strrchr(parent, '/');
	bool routed = false, recipe = false;
	int missing = 0;
	const char *p;

	if (slash)
		*slash = '\0';
	if (read_home_file(".forward", &fwd) < 0 || !strstr(fwd.buf, "procmail"))
		say(dr, 'w', "~/.forward does not hand your mail to procmail: if no other filter gives "
		    "the other postrider's mails to postrider-deliver, they never reach '%s' "
		    "(contrib/README.md, \"A player without a host\")", dir);
	strbuf_addch(&rc, '\n');
	if (read_home_file(".procmailrc", &rc) < 0)
		strbuf_addstr(&rc, "");
	for (p = rc.buf; (p = strstr(p, "postrider-deliver")); p++) {
		const char *line = p, *end = p + strcspn(p, "\n");
		char *prog, *args, *arg = NULL, *target = NULL;
		bool one = false;

		while (line > rc.buf && line[-1] != '\n')
			line--;
		if (*line == '#')
			continue;
		recipe = true;
		/* "| PROGRAM [--games] ROOT" or "| PROGRAM --game DIR" */
		const char *q = line + strspn(line, "| \t");
		prog = xstrfmt("%.*s", (int)strcspn(q, " \t\n"), q);
		args = xstrfmt("%.*s", (int)(end - (p + 17)), p + 17);
		char *w = strtok(args, " \t");
		if (w && !strcmp(w, "--game")) {
			one = true;
			w = strtok(NULL, " \t");
		} else if (w && !strcmp(w, "--games")) {
			w = strtok(NULL, " \t");
		}
		arg = expand_word(w ? w : "$HOME/games", rc.buf);
		char *exp_prog = expand_word(prog, rc.buf);
		if (access(exp_prog, X_OK) < 0 && !missing++)
			say(dr, 'f', "~/.procmailrc runs '%s', which is not there: %s (install it, "
			    "contrib/README.md)", exp_prog, strerror(errno));
		target = real(arg);
		if (!strcmp(target, one ? me : parent) && !routed) {
			routed = true;
			say(dr, 'o', "~/.procmailrc hands the mails of this game to %s %s '%s'",
			    exp_prog, one ? "--game" : "--games", arg);
		}
		free(exp_prog);
		free(target);
		free(arg);
		free(args);
		free(prog);
	}
	if (!recipe)
		say(dr, 'w', "~/.procmailrc has no recipe that runs postrider-deliver: the mails of "
		    "the other postrider must reach `postrider play` on '%s' by another filter "
		    "(contrib/procmailrc-peer)", dir);
	else if (!routed)
		say(dr, 'f', "no recipe of ~/.procmailrc hands the mails of this game to its copy: "
		    "run postrider-deliver --games '%s' (contrib/procmailrc-peer)", parent);
	if (!cfg->host_mail)
		say(dr, 'w', "no host_mail in the configuration: a mail for a game you hold no copy "
		    "of waits in the mail system instead of your mailbox (contrib/README.md)");
	free(me);
	free(parent);
	strbuf_release(&fwd);
	strbuf_release(&rc);
}

/* The crontab line that runs `postrider remind` on the copy (docs/peer.md
 * 11: the resend of a mail an hour late, the notices, the claim). */
static void check_peer_cron(struct doctor *dr, const char *dir)
{
	char *me = real(dir), buf[1024];
	bool found = false;
	FILE *f = popen("crontab -l 2>/dev/null", "r");
	int st;

	while (f && fgets(buf, sizeof(buf), f)) {
		if (buf[0] == '#' || !strstr(buf, "postrider") || !strstr(buf, "remind"))
			continue;
		for (char *w = strtok(buf, " \t\n"); w && !found; w = strtok(NULL, " \t\n")) {
			char *e = expand_word(w, ""), *r = real(e);
			found = !strcmp(r, me);
			free(e);
			free(r);
		}
	}
	st = f ? pclose(f) : -1;
	if (found)
		say(dr, 'o', "the crontab runs postrider remind on '%s'", dir);
	else if (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 127))
		say(dr, 'w', "no crontab command here: run `postrider remind --quiet '%s'` every half "
		    "hour by other means (docs/peer.md 11)", dir);
	else
		say(dr, 'w', "no crontab line runs postrider remind on '%s': add "
		    "\"*/30 * * * * /usr/local/bin/postrider remind --quiet %s\" (crontab -e; "
		    "docs/peer.md 11)", dir, me);
	free(me);
}

/* A player's copy of a game without a host. */
static void check_peer_copy(struct doctor *dr, const char *dir,
			    const struct mail_config *cfg)
{
	struct peer_copy pc;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	char *outbox;

	if (peer_copy_open(dir, &pc, 0, &err) != 0) {
		while (err.len && err.buf[err.len - 1] == '\n')
			err.buf[--err.len] = '\0';
		say(dr, 'f', "the copy '%s' of a game without a host does not open: %s", dir, err.buf);
		goto out;
	}
	say(dr, 'o', "copy of game %s without a host in '%s' opens: the %s's, with its secret (commit %.12s)",
	    pc.g.id, dir, side_name(pc.me), pc.g.head);
	if (!pc.rec.have_joint)
		say(dr, 'w', "game %s: the %s has not joined yet", pc.g.id, side_name(OTHER_SIDE(pc.me)));
	repo_private_path(pc.g.repo, PEER_SECRET_NAME, &path);
	private_mode(dr, "its secret", path.buf, false);
	strbuf_reset(&path);
	strbuf_addstr(&path, repo_gitdir(pc.g.repo));
	while (path.len > 1 && path.buf[path.len - 1] == '/')
		path.buf[--path.len] = '\0';
	strbuf_addstr(&path, "/postrider");
	private_mode(dr, "its private folder", path.buf, true);
	check_peer_filter(dr, dir, cfg);
	check_peer_cron(dr, dir);
	outbox = peer_outbox_dir(&pc, cfg);
	check_outbox(dr, pc.g.id, dir, outbox, !cfg->outbox);
	free(outbox);
out:
	peer_copy_close(&pc);
	strbuf_release(&err);
	strbuf_release(&path);
}

static void check_game(struct doctor *dr, const char *dir, const struct mail_config *cfg)
{
	struct game g;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	char *outbox;
	int r;

	if (game_dir_is_peer(dir)) {
		check_peer_copy(dr, dir, cfg);
		return;
	}
	r = game_open(dir, &g, GAME_NEED_SECRET, &err);
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
	check_outbox(dr, g.id, dir, outbox, !cfg->outbox);
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
	"check a host's or a player's set-up and say what to fix",
	"  ROOT|DIR       games to look at too (a game, or a folder of games)\n"
	"  --config FILE  the configuration to check (default: as for play)\n"
	"Checks the configuration, the mail transport (the SMTP server is reached\n"
	"and logged into; no mail is sent), the outbox and the log, the templates\n"
	"and the component data, the permissions of every secret, and each game\n"
	"(and that others can write none of its files); a player's copy of a game\n"
	"without a host: its secret, the mail filter that hands it the other\n"
	"postrider's mails (~/.procmailrc), the crontab line that runs remind on it,\n"
	"and its outbox.\n"
	"exit status: 0 ready (warnings aside), 1 something to fix\n",
	exec_doctor,
};
