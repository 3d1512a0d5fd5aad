/*
 * config-load.c - reading the host's configuration file into struct
 * mail_config (config.h): the file found, its keys checked, the
 * transport named checked against the table of transports (transport.h),
 * which itself stands on config.h's types alone.
 */
#include "config.h"
#include "mail.h"
#include "transport.h"
#include "ytree.h"

#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CONFIG_MAX_SIZE (64 * 1024)

/* $HOME, else the user's home in the password database, or NULL. */
static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (home && *home)
		return home;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

char *config_default_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = home_dir();

	if (xdg && *xdg)
		return xstrfmt("%s/postrider/config.yaml", xdg);
	if (home)
		return xstrfmt("%s/.config/postrider/config.yaml", home);
	return NULL;
}

void config_release(struct mail_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->smtp_url);
	free(cfg->username);
	if (cfg->password) {
		/* do not leave the secret lying in freed memory */
		volatile char *p = cfg->password;
		while (*p)
			*p++ = '\0';
		free(cfg->password);
	}
	free(cfg->from);
	free(cfg->outbox);
	free(cfg->log);
	free(cfg->host_mail);
	free(cfg->password_file);
	free(cfg->publish.password_file);
	free(cfg->sendmail);
	free(cfg->path);
	free(cfg->publish.ssh_key);
	free(cfg->dkim.keys);
	free(cfg->dkim.authserv_id);
	free(cfg->publish.known_hosts);
	free(cfg->publish.ca_file);
	free(cfg->publish.username);
	if (cfg->publish.password) {
		memset(cfg->publish.password, 0, strlen(cfg->publish.password));
		free(cfg->publish.password);
	}
	memset(cfg, 0, sizeof(*cfg));
	cfg->starttls = true;
	cfg->dkim.timeout = 5;
	cfg->timeout = 60;
}

/* "~/x" becomes "$HOME/x". */
static char *expand_home(const char *s)
{
	const char *home = home_dir();

	if (s[0] == '~' && s[1] == '/' && home)
		return xstrfmt("%s%s", home, s + 1);
	return xstrdup(s);
}

/* A non-empty scalar without control characters, copied into *out. */
static int read_string(struct ytree *t, yaml_node_t *n, const char *key,
		       char **out, struct strbuf *err)
{
	const char *s = ytree_scalar(n);

	if (!s || !*s) {
		ytree_error(t, n, err, "'%s' must be a non-empty string", key);
		return -1;
	}
	for (const char *p = s; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			ytree_error(t, n, err, "control character in '%s'",
				    key);
			return -1;
		}
	}
	free(*out);
	*out = xstrdup(s);
	return 0;
}

/* Reads the first line of a password file. */
static int read_password_file(struct ytree *t, yaml_node_t *n,
			      const char *file, char **out, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = expand_home(file);
	struct stat st;

	if (read_file(path, &sb, 4096) < 0) {
		ytree_error(t, n, err, "cannot read password_file '%s': %s",
			    path, strerror(errno));
		free(path);
		strbuf_release(&sb);
		return -1;
	}
	if (!stat(path, &st) && (st.st_mode & 077))
		warning("password file '%s' can be read by other users; "
			"chmod 600 it", path);
	free(path);
	size_t l = strcspn(strbuf_str(&sb), "\r\n");
	*out = xstrndup(strbuf_str(&sb), l);
	memset(sb.buf, 0, sb.len);
	strbuf_release(&sb);
	return 0;
}

/*
 * The `password` or `password_file` key of map, if either, into *out; a
 * password written in a file others can read is warned about.
 */
static int read_secret(struct ytree *t, yaml_node_t *map, const char *path,
		       char **out, char **file_out, struct strbuf *err)
{
	yaml_node_t *n;
	int bad = 0;

	if ((n = ytree_get(t, map, "password"))) {
		struct stat st;
		if (read_string(t, n, "password", out, err) < 0)
			bad = -1;
		else if (path && !stat(path, &st) && (st.st_mode & 077))
			warning("'%s' holds a password and can be read by other users; "
				"chmod 600 it (or use password_file)", path);
	}
	if ((n = ytree_get(t, map, "password_file"))) {
		char *file = NULL;
		if (*out) {
			ytree_error(t, n, err, "give password or "
				    "password_file, not both");
			bad = -1;
		} else if (read_string(t, n, "password_file", &file, err) < 0 ||
			   read_password_file(t, n, file, out, err) < 0) {
			bad = -1;
		}
		if (file && !bad) {
			free(*file_out);
			*file_out = expand_home(file);
		}
		free(file);
	}
	return bad;
}

/*
 * The `username` of map and its password (read_secret()): both or
 * neither, for SMTP and for publishing alike.
 */
static int read_credentials(struct ytree *t, yaml_node_t *map,
			    const char *path, char **user, char **pass,
			    char **pass_file, struct strbuf *err)
{
	yaml_node_t *n = ytree_get(t, map, "username");
	int bad = 0;

	if (n && read_string(t, n, "username", user, err) < 0)
		bad = -1;
	if (read_secret(t, map, path, pass, pass_file, err) < 0)
		bad = -1;
	if (*user && !*pass && !bad) {
		ytree_error(t, n, err, "username given without password or "
			    "password_file");
		bad = -1;
	}
	return bad;
}

/* A file setting: a non-empty string, "~/" expanded. */
static int read_path(struct ytree *t, yaml_node_t *n, const char *key,
		     char **out, struct strbuf *err)
{
	char *s = NULL;

	if (read_string(t, n, key, &s, err) < 0)
		return -1;
	free(*out);
	*out = expand_home(s);
	free(s);
	return 0;
}

/*
 * host_mail: a Maildir (a path ending in '/'), an mbox file (another
 * path) or an address, which must not be the host address itself (the
 * mail would come back to postrider).
 */
static int read_host_mail(struct ytree *t, yaml_node_t *n,
			  struct mail_config *cfg, struct strbuf *err)
{
	char *s = NULL, *name = NULL, *addr = NULL, *own = NULL;
	int ret = 0;

	if (read_string(t, n, "host_mail", &s, err) < 0)
		return -1;
	if (s[0] == '/' || s[0] == '~') {
		cfg->host_mail = expand_home(s);
		free(s);
		return 0;
	}
	if (mail_parse_address(s, &name, &addr) < 0) {
		ytree_error(t, n, err, "host_mail '%s' must be a folder ending "
			    "in '/' (a Maildir), a file (an mbox) or an address", s);
		ret = -1;
	} else if (free(name), name = NULL,
		   cfg->from && !mail_parse_address(cfg->from, &name, &own) &&
		   !ascii_strcasecmp(own, addr)) {
		ytree_error(t, n, err, "host_mail '%s' is the host address of "
			    "'from': the mail would come back to postrider; give "
			    "another address or a mailbox", s);
		ret = -1;
	} else {
		cfg->host_mail = xstrdup(addr);
	}
	free(s);
	free(name);
	free(addr);
	free(own);
	return ret;
}

/* The `publish:` mapping: how to reach the games' remotes (publish.h). */
static int parse_publish(struct ytree *t, yaml_node_t *map,
			 struct mail_config *cfg, struct strbuf *err)
{
	static const char *const keys[] = {
		"ssh_key", "known_hosts", "ca_file", "username", "password",
		"password_file", NULL
	};
	struct publish_config *p = &cfg->publish;
	yaml_node_t *n;
	int bad = 0;

	if (map->type != YAML_MAPPING_NODE) {
		ytree_error(t, map, err, "'publish' must be a mapping "
			    "(ssh_key: ..., ca_file: ...)");
		return -1;
	}
	if (ytree_check_keys(t, map, keys, err))
		bad = -1;
	if ((n = ytree_get(t, map, "ssh_key")) &&
	    read_path(t, n, "ssh_key", &p->ssh_key, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, map, "known_hosts")) &&
	    read_path(t, n, "known_hosts", &p->known_hosts, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, map, "ca_file")) &&
	    read_path(t, n, "ca_file", &p->ca_file, err) < 0)
		bad = -1;
	if (read_credentials(t, map, cfg->path, &p->username, &p->password,
			     &p->password_file, err) < 0)
		bad = -1;
	return bad;
}

/* The `dkim:` mapping (dkim-intake.h). */
static int parse_dkim(struct ytree *t, yaml_node_t *map, struct mail_config *cfg,
		      struct strbuf *err)
{
	static const char *const keys[] = {
		"check", "keys", "timeout", "dmarc", "trust_authserv_id", NULL
	};
	struct dkim_config *d = &cfg->dkim;
	yaml_node_t *n;
	bool check = true;
	char *s = NULL;
	int bad = 0;

	if (map->type != YAML_MAPPING_NODE) {
		ytree_error(t, map, err, "'dkim' must be a mapping (check: true, keys: FILE, ...)");
		return -1;
	}
	if (ytree_check_keys(t, map, keys, err))
		bad = -1;
	if ((n = ytree_get(t, map, "check")) && ytree_bool(t, n, &check, err) < 0)
		bad = -1;
	d->off = !check;
	if ((n = ytree_get(t, map, "keys")) && read_path(t, n, "keys", &d->keys, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, map, "timeout")) && ytree_int(t, n, 1, 60, &d->timeout, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, map, "dmarc"))) {
		if (read_string(t, n, "dmarc", &s, err) < 0) {
			bad = -1;
		} else if (strcmp(s, "enforce") && strcmp(s, "record")) {
			ytree_error(t, n, err, "dkim: dmarc '%s' must be enforce or record", s);
			bad = -1;
		} else {
			d->dmarc_enforce = !strcmp(s, "enforce");
		}
		free(s);
	}
	if ((n = ytree_get(t, map, "trust_authserv_id")) &&
	    read_string(t, n, "trust_authserv_id", &d->authserv_id, err) < 0)
		bad = -1;
	return bad;
}

static int parse_config(struct ytree *t, struct mail_config *cfg,
			struct strbuf *err)
{
	static const char *const keys[] = {
		"smtp_url", "username", "password", "password_file",
		"starttls", "from", "outbox", "timeout", "transport",
		"sendmail", "publish", "log", "host_mail", "dkim", NULL
	};
	yaml_node_t *root = ytree_root(t), *n;
	char *transport = NULL;
	const struct transport *tr;
	int bad = 0;

	cfg->transport = TRANSPORT_OUTBOX;	/* a file, even empty */
	if (!root)
		return 0;
	if (root->type == YAML_SCALAR_NODE && !*ytree_scalar(root))
		return 0;
	if (root->type != YAML_MAPPING_NODE) {
		ytree_error(t, root, err, "expected a mapping of settings "
			    "(smtp_url: ..., from: ...)");
		return -1;
	}
	if (ytree_check_keys(t, root, keys, err))
		bad = -1;
	if ((n = ytree_get(t, root, "smtp_url"))) {
		if (read_string(t, n, "smtp_url", &cfg->smtp_url, err) < 0) {
			bad = -1;
		} else if (strncmp(cfg->smtp_url, "smtp://", 7) &&
			   strncmp(cfg->smtp_url, "smtps://", 8)) {
			ytree_error(t, n, err, "smtp_url '%s' must start with "
				    "smtp:// or smtps://", cfg->smtp_url);
			bad = -1;
		}
	}
	if (read_credentials(t, root, cfg->path, &cfg->username,
			     &cfg->password, &cfg->password_file, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, root, "starttls")) &&
	    ytree_bool(t, n, &cfg->starttls, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, root, "from"))) {
		char *name, *addr;
		if (read_string(t, n, "from", &cfg->from, err) < 0) {
			bad = -1;
		} else if (mail_parse_address(cfg->from, &name, &addr) < 0) {
			ytree_error(t, n, err, "invalid address '%s' in 'from'",
				    cfg->from);
			bad = -1;
		} else {
			free(name);
			free(addr);
		}
	}
	if ((n = ytree_get(t, root, "outbox")) &&
	    read_path(t, n, "outbox", &cfg->outbox, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, root, "log")) &&
	    read_path(t, n, "log", &cfg->log, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, root, "timeout")) &&
	    ytree_int(t, n, 1, 3600, &cfg->timeout, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, root, "host_mail")) &&
	    read_host_mail(t, n, cfg, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, root, "sendmail"))) {
		if (read_string(t, n, "sendmail", &cfg->sendmail, err) < 0) {
			bad = -1;
		} else if (cfg->sendmail[0] != '/') {
			ytree_error(t, n, err, "'sendmail' must be an absolute "
				    "path (/usr/sbin/sendmail)");
			bad = -1;
		}
	}
	if ((n = ytree_get(t, root, "transport"))) {
		if (read_string(t, n, "transport", &transport, err) < 0) {
			bad = -1;
		} else if (!(tr = transport_named(transport))) {
			ytree_error(t, n, err, "transport '%s' must be %s",
				    transport, transport_names());
			bad = -1;
		} else {
			const char *why = tr->missing ? tr->missing(cfg) : NULL;
			cfg->transport = tr->kind;
			if (why && !bad) {
				ytree_error(t, n, err, "%s", why);
				bad = -1;
			}
		}
		free(transport);
	} else {
		cfg->transport = cfg->smtp_url ? TRANSPORT_SMTP :
			TRANSPORT_OUTBOX;
	}
	if ((n = ytree_get(t, root, "publish")) &&
	    parse_publish(t, n, cfg, err) < 0)
		bad = -1;
	if ((n = ytree_get(t, root, "dkim")) && parse_dkim(t, n, cfg, err) < 0)
		bad = -1;
	if (!cfg->sendmail)
		cfg->sendmail = xstrdup("/usr/sbin/sendmail");
	return bad;
}

/* Reads file into text: 0, 1 if it does not exist, -1 (errno) on error. */
static int read_config(const char *file, struct strbuf *text)
{
	strbuf_reset(text);
	if (read_file(file, text, CONFIG_MAX_SIZE) < 0)
		return errno == ENOENT ? 1 : -1;
	return 0;
}

int config_load(const char *path, struct mail_config *cfg, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct ytree t;
	const char *env = getenv("POSTRIDER_CONFIG");
	char *file;
	int ret, r;

	memset(cfg, 0, sizeof(*cfg));
	config_release(cfg);	/* the defaults */
	if (!path && env && *env)
		path = env;
	file = path ? xstrdup(path) : config_default_path();
	r = file ? read_config(file, &text) : 1;
	if (r == 1 && !path) {
		/* no user file: the system-wide one, if any */
		free(file);
		file = xstrdup(CONFIG_SYSTEM_PATH);
		r = read_config(file, &text);
		if (r == 1) {
			free(file);
			strbuf_release(&text);
			return 0;	/* TRANSPORT_NONE */
		}
	}
	if (r != 0) {
		strbuf_addf(err, "cannot read '%s': %s", file,
			    r == 1 ? strerror(ENOENT) :
			    errno == EFBIG ? "file too large" : strerror(errno));
		free(file);
		strbuf_release(&text);
		return -1;
	}
	cfg->path = file;
	if (ytree_parse(&t, file, strbuf_str(&text), text.len, err) < 0) {
		strbuf_release(&text);
		config_release(cfg);
		return -1;
	}
	ret = parse_config(&t, cfg, err);
	ytree_free(&t);
	strbuf_release(&text);
	if (ret < 0)
		config_release(cfg);
	return ret;
}
