/*
 * publish.c - pushing a game to its remote (publish.h).
 */
#include "publish.h"
#include "codec.h"
#include "config.h"
#include "repo.h"

#include <errno.h>
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <git2.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* What the callbacks of one push share. */
struct push_ctx {
	const struct publish_config *cfg;
	const char *url;
	char host[256];		/* from the URL, for known_hosts */
	int port;		/* 0: the scheme's default */
	int ssh_tries, pass_tries;
	struct strbuf why;	/* the first reason a callback refused */
	struct strbuf rejected;	/* the server's reason for refusing main */
};

/* "~/.ssh/known_hosts" of the user, or NULL. */
static char *default_known_hosts(void)
{
	const char *home = getenv("HOME");
	return home && *home ? xstrfmt("%s/.ssh/known_hosts", home) : NULL;
}

/*
 * Host and port of an ssh:// URL or an scp-like "user@host:path" into
 * ctx; 0, or -1 if the URL names no host this way.
 */
static int url_host(const char *url, struct push_ctx *ctx)
{
	const char *p, *end;
	size_t len;

	ctx->port = 0;
	if (!strncmp(url, "ssh://", 6) || !strncmp(url, "https://", 8) ||
	    !strncmp(url, "http://", 7) || !strncmp(url, "git+ssh://", 10) ||
	    !strncmp(url, "ssh+git://", 10)) {
		p = strstr(url, "://") + 3;
		end = p + strcspn(p, "/");
		const char *at = memchr(p, '@', (size_t)(end - p));
		if (at)
			p = at + 1;
	} else {
		/* scp-like: [user@]host:path (a path may hold no '/') */
		const char *colon = strchr(url, ':'), *slash = strchr(url, '/');
		if (!colon || (slash && slash < colon))
			return -1;
		end = colon;
		const char *at = memchr(url, '@', (size_t)(colon - url));
		p = at ? at + 1 : url;
		len = (size_t)(end - p);
		if (!len || len >= sizeof(ctx->host))
			return -1;
		memcpy(ctx->host, p, len);
		ctx->host[len] = '\0';
		return 0;
	}
	if (*p == '[') {	/* [::1]:2222 */
		const char *close = memchr(p, ']', (size_t)(end - p));
		if (!close)
			return -1;
		len = (size_t)(close - p - 1);
		if (!len || len >= sizeof(ctx->host))
			return -1;
		memcpy(ctx->host, p + 1, len);
		ctx->host[len] = '\0';
		if (close[1] == ':')
			ctx->port = atoi(close + 2);
		return 0;
	}
	const char *colon = memchr(p, ':', (size_t)(end - p));
	len = (size_t)((colon ? colon : end) - p);
	if (!len || len >= sizeof(ctx->host))
		return -1;
	memcpy(ctx->host, p, len);
	ctx->host[len] = '\0';
	if (colon)
		ctx->port = atoi(colon + 1);
	return 0;
}

/* Whether a hashed known_hosts name "|1|salt|hash" is name. */
static bool hashed_match(const char *field, size_t flen, const char *name)
{
	struct strbuf salt = STRBUF_INIT, hash = STRBUF_INIT;
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;
	const char *bar;
	bool ok = false;

	if (flen < 4 || memcmp(field, "|1|", 3))
		return false;
	bar = memchr(field + 3, '|', flen - 3);
	if (!bar)
		return false;
	codec_base64_decode(field + 3, (size_t)(bar - field - 3), &salt);
	codec_base64_decode(bar + 1, flen - (size_t)(bar + 1 - field), &hash);
	ok = salt.len && HMAC(EVP_sha1(), salt.buf, (int)salt.len,
				  (const unsigned char *)name, strlen(name), mac, &maclen) &&
	     maclen == hash.len && !memcmp(mac, hash.buf, maclen);
	strbuf_release(&salt);
	strbuf_release(&hash);
	return ok;
}

/* OpenSSH's wildcards: '*' any run of characters, '?' one; no classes. */
static bool wild_match(const char *pat, size_t plen, const char *s)
{
	if (!plen)
		return !*s;
	if (*pat == '*') {
		for (;; s++) {
			if (wild_match(pat + 1, plen - 1, s))
				return true;
			if (!*s)
				return false;
		}
	}
	if (!*s || (*pat != '?' && tolower((unsigned char)*pat) !=
		    tolower((unsigned char)*s)))
		return false;
	return wild_match(pat + 1, plen - 1, s + 1);
}

/*
 * Whether the host patterns of a known_hosts line (comma-separated, with
 * wildcards and negations, or one hashed name) name `name`.
 */
static bool hosts_match(const char *field, size_t flen, const char *name)
{
	bool hit = false;
	const char *p = field, *end = field + flen;

	if (field[0] == '|')
		return hashed_match(field, flen, name);
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *q = comma ? comma : end;
		bool neg = *p == '!';

		if (wild_match(p + neg, (size_t)(q - p) - neg, name)) {
			if (neg)
				return false;
			hit = true;
		}
		p = q + 1;
	}
	return hit;
}

/*
 * Checks an SSH server's key against the known_hosts file: 0 if a line for
 * the host holds this very key, -1 (ctx->why) if none does or one says
 * @revoked.
 */
static int check_known_host(struct push_ctx *ctx, const git_cert_hostkey *k)
{
	char *file = ctx->cfg && ctx->cfg->known_hosts ?
		xstrdup(ctx->cfg->known_hosts) : default_known_hosts();
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	char name[300];
	int found = 0, listed = 0;

	if (!(k->type & GIT_CERT_SSH_RAW)) {
		strbuf_addf(&ctx->why, "the SSH library gave no host key to check");
		free(file);
		return -1;
	}
	if (ctx->port && ctx->port != 22)
		snprintf(name, sizeof(name), "[%s]:%d", ctx->host, ctx->port);
	else
		snprintf(name, sizeof(name), "%s", ctx->host);
	if (!file || read_file(file, &text, 4 << 20) < 0) {
		strbuf_addf(&ctx->why, "cannot read the known hosts file '%s'%s%s "
			    "(set publish: known_hosts: in the configuration)",
			    file ? file : "~/.ssh/known_hosts",
			    file ? ": " : "", file ? strerror(errno) : "");
		free(file);
		return -1;
	}
	for (char *line = text.buf; line && *line && found >= 0;) {
		char *nl = strchr(line, '\n');
		char *f[4] = { 0 };
		size_t fl[4] = { 0 };
		int nf = 0;
		bool revoked = false;
		char *p = line;

		if (nl)
			*nl = '\0';
		while (*p && nf < 4) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p || *p == '#')
				break;
			f[nf] = p;
			p += strcspn(p, " \t\r");
			fl[nf] = (size_t)(p - f[nf]);
			nf++;
		}
		if (nf >= 1 && f[0][0] == '@') {
			revoked = fl[0] == 8 && !memcmp(f[0], "@revoked", 8);
			bool ca = !revoked;
			memmove(f, f + 1, 3 * sizeof(*f));
			memmove(fl, fl + 1, 3 * sizeof(*fl));
			nf--;
			if (ca)	/* @cert-authority: certificates are not used */
				nf = 0;
		}
		if (nf >= 3 && hosts_match(f[0], fl[0], name)) {
			strbuf_reset(&key);
			codec_base64_decode(f[2], fl[2], &key);
			if (key.len) {
				bool same = key.len == k->hostkey_len &&
					!memcmp(key.buf, k->hostkey, key.len);
				if (revoked && same)
					found = -1;
				else if (!revoked) {
					listed = 1;
					if (same)
						found = 1;
				}
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (found < 0)
		strbuf_addf(&ctx->why, "the host key of %s is marked @revoked in '%s'",
			    name, file);
	else if (!found && listed)
		strbuf_addf(&ctx->why, "the host key of %s is not the one in '%s': "
			    "it has changed, or someone is in the middle; the push is refused",
			    name, file);
	else if (!found)
		strbuf_addf(&ctx->why, "%s is not in the known hosts file '%s': add its key "
			    "(ssh-keyscan -p PORT HOST, checked by hand) to push there",
			    name, file);
	free(file);
	strbuf_release(&text);
	strbuf_release(&key);
	return found > 0 ? 0 : -1;
}

static int on_certificate(git_cert *cert, int valid, const char *host,
			  void *payload)
{
	struct push_ctx *ctx = payload;

	(void)host;
	if (cert->cert_type == GIT_CERT_HOSTKEY_LIBSSH2)
		return check_known_host(ctx, (const git_cert_hostkey *)cert) ?
			GIT_ECERTIFICATE : 0;
	if (valid)
		return 0;
	if (!ctx->why.len)
		strbuf_addf(&ctx->why, "the server's TLS certificate is not trusted "
			    "(not signed by %s, or not for %s)",
			    ctx->cfg && ctx->cfg->ca_file ? ctx->cfg->ca_file :
			    "the system's CA certificates", ctx->host);
	return GIT_ECERTIFICATE;
}

/* The default port of a URL's scheme ("https://" 443, ssh 22), 0 if none. */
static int default_port(const char *url)
{
	if (!ascii_strncasecmp(url, "https://", 8))
		return 443;
	if (!ascii_strncasecmp(url, "http://", 7))
		return 80;
	return 22;	/* ssh://, git+ssh://, ssh+git://, scp-like */
}

void publish_url_origin(const char *url, struct strbuf *out)
{
	struct push_ctx c = { 0 };
	const char *colon = strstr(url, "://");
	size_t scheme = colon ? (size_t)(colon - url) : 0;

	if (url_host(url, &c) < 0) {
		strbuf_addstr(out, "(no host)");
		return;
	}
	if (scheme && ascii_strncasecmp(url, "git+ssh", scheme) && ascii_strncasecmp(url, "ssh+git", scheme))
		for (size_t i = 0; i < scheme; i++)
			strbuf_addch(out, (char)(url[i] >= 'A' && url[i] <= 'Z' ? url[i] - 'A' + 'a' : url[i]));
	else
		strbuf_addstr(out, "ssh");
	strbuf_addstr(out, "://");
	for (const char *h = c.host; *h; h++)
		strbuf_addch(out, (char)(*h >= 'A' && *h <= 'Z' ? *h - 'A' + 'a' : *h));
	strbuf_addf(out, ":%d", c.port ? c.port : default_port(url));
}

static int on_credentials(git_credential **out, const char *url,
			  const char *user_from_url, unsigned int allowed,
			  void *payload)
{
	struct push_ctx *ctx = payload;
	const struct publish_config *cfg = ctx->cfg;
	const char *user = user_from_url && *user_from_url ? user_from_url : "git";
	struct strbuf asked = STRBUF_INIT, own = STRBUF_INIT;
	bool same;

	/* Credentials go to the configured remote's own host alone (its
	 * scheme, name and port): a server that redirects the push
	 * elsewhere would collect the password (issue 39). */
	publish_url_origin(url ? url : "", &asked);
	publish_url_origin(ctx->url, &own);
	same = !strcmp(asked.buf, own.buf);
	if (!same)
		strbuf_addf(&ctx->why, "the server sent the push to %s, not the remote's (%s): "
			    "no password is given to it; set the remote to the server's real "
			    "address if you trust it (postrider publish DIR --remote URL)",
			    asked.buf, own.buf);
	strbuf_release(&asked);
	strbuf_release(&own);
	if (!same)
		return GIT_EUSER;
	if (allowed & GIT_CREDENTIAL_SSH_KEY) {
		if (ctx->ssh_tries++) {
			strbuf_addf(&ctx->why, "the SSH server refused the key%s%s",
				    cfg && cfg->ssh_key ? " " : " of the SSH agent",
				    cfg && cfg->ssh_key ? cfg->ssh_key : "");
			return GIT_EUSER;
		}
		if (cfg && cfg->ssh_key) {
			char *pub = xstrfmt("%s.pub", cfg->ssh_key);
			struct stat st;
			int r = git_credential_ssh_key_new(out, user,
				stat(pub, &st) == 0 ? pub : NULL,
				cfg->ssh_key, NULL);
			free(pub);
			return r;
		}
		return git_credential_ssh_key_from_agent(out, user);
	}
	if (allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT) {
		if (!cfg || !cfg->username) {
			strbuf_addf(&ctx->why, "the server asks for a user name and password "
				    "(publish: username and password_file in the configuration)");
			return GIT_EUSER;
		}
		if (ctx->pass_tries++) {
			strbuf_addf(&ctx->why, "the server refused the user name and password of '%s'",
				    cfg->username);
			return GIT_EUSER;
		}
		return git_credential_userpass_plaintext_new(out, cfg->username,
							      cfg->password);
	}
	if (allowed & GIT_CREDENTIAL_USERNAME)
		return git_credential_username_new(out, user);
	strbuf_addf(&ctx->why, "the server asks for a kind of credentials postrider has not");
	return GIT_EUSER;
}

static int on_ref(const char *refname, const char *status, void *payload)
{
	struct push_ctx *ctx = payload;

	if (status && !ctx->rejected.len)
		strbuf_addf(&ctx->rejected, "the remote refused %s: %s", refname, status);
	return 0;
}

int publish_remote_url(struct repo *r, struct strbuf *url, struct strbuf *err)
{
	git_remote *remote = NULL;
	int e = git_remote_lookup(&remote, repo_git(r), PUBLISH_REMOTE);

	if (e == GIT_ENOTFOUND)
		return 0;
	if (e < 0) {
		const git_error *ge = git_error_last();
		strbuf_addf(err, "cannot read the remote '%s': %s", PUBLISH_REMOTE,
			    ge && ge->message ? ge->message : "unknown error");
		return -1;
	}
	if (!git_remote_url(remote) || !*git_remote_url(remote)) {
		git_remote_free(remote);
		return 0;
	}
	strbuf_addstr(url, git_remote_url(remote));
	git_remote_free(remote);
	return 1;
}

/* The user:password part of scheme://user:password@host/..., or NULL;
 * *len its length. */
static const char *userinfo(const char *url, size_t *len)
{
	const char *p = strstr(url, "://"), *end, *at;

	if (!p)
		return NULL;
	p += 3;
	end = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(end - p));
	if (!at)
		return NULL;
	/* the last '@' before the path ends the userinfo */
	for (const char *q = at; q && q < end; q = memchr(q + 1, '@', (size_t)(end - q - 1)))
		at = q;
	*len = (size_t)(at - p);
	return p;
}

void publish_url_shown(const char *url, struct strbuf *out)
{
	size_t len;
	const char *u = userinfo(url, &len);
	const char *colon = u ? memchr(u, ':', len) : NULL;

	if (!colon) {
		strbuf_addstr(out, url);
		return;
	}
	strbuf_add(out, url, (size_t)(colon + 1 - url));
	strbuf_addstr(out, "***");
	strbuf_addstr(out, u + len);
}

int publish_check_url(const char *url, struct strbuf *err)
{
	size_t len;
	const char *u = userinfo(url, &len);
	struct strbuf shown = STRBUF_INIT;
	int ret = -1;

	publish_url_shown(url, &shown);
	if (!*url || strchr(url, '\n'))
		strbuf_addf(err, "'%s' is not a remote's URL", shown.buf);
	else if (u && memchr(u, ':', len))
		strbuf_addf(err, "the remote's URL '%s' holds a password: it would be kept "
			    "in the game's .git/config, readable by all, and shown in every "
			    "message; give the URL without it, and the password under "
			    "publish: (username, password_file) in the configuration file",
			    shown.buf);
	else if (!ascii_strncasecmp(url, "http://", 7))
		strbuf_addf(err, "the remote's URL '%s' is plain http://, which sends the "
			    "game and any password unencrypted: use https:// or ssh://",
			    shown.buf);
	else
		ret = 0;
	strbuf_release(&shown);
	return ret;
}

int publish_set_remote(struct repo *r, const char *url, struct strbuf *err)
{
	git_repository *git = repo_git(r);
	git_remote *remote = NULL;
	int e;

	if (publish_check_url(url, err) < 0)
		return -1;
	e = git_remote_lookup(&remote, git, PUBLISH_REMOTE);
	if (e == 0) {
		git_remote_free(remote);
		e = git_remote_set_url(git, PUBLISH_REMOTE, url);
		/* no push URL of its own: none to forget */
		if (e == 0 && (e = git_remote_set_pushurl(git, PUBLISH_REMOTE, NULL)) == GIT_ENOTFOUND)
			e = 0;
	} else if (e == GIT_ENOTFOUND) {
		/* a remote only pushed to: no fetch refspec */
		e = git_remote_create_with_fetchspec(&remote, git, PUBLISH_REMOTE,
						      url, NULL);
		git_remote_free(remote);
	}
	if (e < 0) {
		const git_error *ge = git_error_last();
		strbuf_addf(err, "cannot set the remote '%s' to '%s': %s",
			    PUBLISH_REMOTE, url,
			    ge && ge->message ? ge->message : "unknown error");
		return -1;
	}
	return 0;
}

#define LATE_LOGIN_FIX \
	"make the server ask for them at the first request too (git http-backend: " \
	"protect .../info/refs, whose query asks for git-receive-pack, as well as " \
	".../git-receive-pack), or publish over ssh://"

/* publish_push() without its care for SIGPIPE. */
static int push(struct repo *r, const struct mail_config *cfg,
		struct strbuf *what, struct strbuf *err)
{
	struct strbuf url = STRBUF_INIT, shown = STRBUF_INIT;
	struct push_ctx ctx = { .why = STRBUF_INIT, .rejected = STRBUF_INIT };
	git_push_options opts;
	char spec[] = REPO_BRANCH ":" REPO_BRANCH;
	char *specs[] = { spec };
	git_strarray refs = { specs, 1 };
	git_remote *remote = NULL;
	char head[41];
	int ret = -1, e;

	e = publish_remote_url(r, &url, err);
	if (e <= 0) {
		strbuf_release(&url);
		return e < 0 ? -1 : 1;
	}
	publish_url_shown(url.buf, &shown);
	if (publish_check_url(url.buf, err) < 0) {
		strbuf_addstr(err, " (then: postrider publish DIR --remote URL)");
		goto out;
	}
	if (repo_head(r, head) != 0) {
		strbuf_addf(err, "the game has no commit to push");
		goto out;
	}
	ctx.cfg = cfg ? &cfg->publish : NULL;
	ctx.url = url.buf;
	(void)url_host(url.buf, &ctx);
	if (ctx.cfg && ctx.cfg->ca_file &&
	    git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, ctx.cfg->ca_file, NULL) < 0) {
		const git_error *ge = git_error_last();
		strbuf_addf(err, "cannot use the CA certificates in '%s': %s",
			    ctx.cfg->ca_file, ge && ge->message ? ge->message : "unknown error");
		goto out;
	}
	if (git_push_options_init(&opts, GIT_PUSH_OPTIONS_VERSION) < 0 ||
	    git_remote_lookup(&remote, repo_git(r), PUBLISH_REMOTE) < 0)
		goto fail;
	opts.callbacks.certificate_check = on_certificate;
	opts.callbacks.credentials = on_credentials;
	opts.callbacks.push_update_reference = on_ref;
	opts.callbacks.payload = &ctx;
	if (git_remote_push(remote, &refs, &opts) < 0)
		goto fail;
	if (ctx.rejected.len) {
		strbuf_addf(err, "push to %s: %s", shown.buf, ctx.rejected.buf);
		goto out;
	}
	if (what)
		strbuf_addf(what, "published %.12s to %s", head, shown.buf);
	ret = 0;
	goto out;
fail:
	{
		const git_error *ge = git_error_last();
		const char *m = ge && ge->message ? ge->message : "unknown error";
		if (!ctx.why.len && strstr(m, "authentication"))
			/* a 401 to the push itself, after the server let
			 * the first request through without a login */
			strbuf_addf(&ctx.why, "the server asked for a user name and password only "
				    "once the push itself was sent, which postrider (libgit2) cannot "
				    "answer (\"%s\"); %s", m, LATE_LOGIN_FIX);
		else if (!ctx.why.len && strstr(m, "SSL error"))
			/* the same 401, when the server closed the connection
			 * before the pack was written whole: libgit2 sees the
			 * broken connection, not the answer */
			strbuf_addf(&ctx.why, "the connection broke while the push was sent (\"%s\"): "
				    "if the server asked for a user name and password only once the "
				    "push itself was sent, postrider (libgit2) cannot answer that; %s",
				    m, LATE_LOGIN_FIX);
		strbuf_addf(err, "push to %s: %s", shown.buf, ctx.why.len ? ctx.why.buf : m);
	}
out:
	git_remote_free(remote);
	strbuf_release(&url);
	strbuf_release(&shown);
	strbuf_release(&ctx.why);
	strbuf_release(&ctx.rejected);
	return ret;
}

int publish_push(struct repo *r, const struct mail_config *cfg,
		 struct strbuf *what, struct strbuf *err)
{
	/* a server that closes the connection while the pack is being
	 * written (a 401 to the push itself), or before the TLS goodbye,
	 * must give an error to say, not a SIGPIPE that kills the run
	 * after its commit: libgit2 writes to the socket until it is freed */
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
	int ret = push(r, cfg, what, err);

	signal(SIGPIPE, old_pipe);
	return ret;
}

int publish_after_commit(struct repo *r, const struct mail_config *cfg)
{
	struct strbuf what = STRBUF_INIT, err = STRBUF_INIT;
	int ret = publish_push(r, cfg, &what, &err);

	if (ret == 0)
		printf("%s\n", what.buf);
	else if (ret < 0) {
		error("PUSH FAILED: %s", err.buf);
		hint("the turn is committed; `postrider send` or `postrider publish` pushes it later");
	}
	fflush(stdout);
	strbuf_release(&what);
	strbuf_release(&err);
	return ret;
}
