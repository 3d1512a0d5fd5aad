/*
 * smtp.c - sending one message through libcurl's SMTP client, or through
 * the sendmail(8) program of the host's mail system.
 */
#include "outbox.h"
#include "mail.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>

/*
 * libcurl is loaded when a message goes by SMTP (or doctor probes the
 * server), not at every start: linked, it was with the libraries only it
 * needs (TLS, Kerberos, LDAP, IDN) 18 of the program's 57 shared
 * libraries and 3.2 MiB of the resident memory of every run, a turn
 * mailed through sendmail or the outbox included (issue 33).
 */
static struct {
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	void (*easy_cleanup)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} cu;

static int load_curl(struct strbuf *err)
{
	static const char *const names[] = {
		"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so",
	};
	static void *lib;
	void *h = NULL;

	if (lib)
		return 0;
	for (size_t i = 0; !h && i < sizeof(names) / sizeof(names[0]); i++)
		h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		strbuf_addf(err, "cannot load libcurl, which sends mail by SMTP (install libcurl4): %s",
			    dlerror());
		return -1;
	}
#define SYM(f) \
	do { \
		if (!(*(void **)&cu.f = dlsym(h, "curl_" #f))) { \
			strbuf_addstr(err, "the libcurl found lacks curl_" #f); \
			dlclose(h); \
			return -1; \
		} \
	} while (0)
	SYM(easy_init);
	SYM(easy_setopt);
	SYM(easy_perform);
	SYM(easy_cleanup);
	SYM(easy_getinfo);
	SYM(easy_strerror);
	SYM(slist_append);
	SYM(slist_free_all);
#undef SYM
	lib = h;
	return 0;
}

struct upload {
	const char *p;
	size_t left;
};

/* Feeds the message to libcurl. */
static size_t read_cb(char *buf, size_t size, size_t nitems, void *ud)
{
	struct upload *u = ud;
	size_t n = size * nitems;

	if (n > u->left)
		n = u->left;
	memcpy(buf, u->p, n);
	u->p += n;
	u->left -= n;
	return n;
}

/* The message with every line ending made CRLF, as SMTP wants. */
static void to_crlf(const char *msg, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		if (msg[i] == '\n' && (i == 0 || msg[i - 1] != '\r'))
			strbuf_addch(out, '\r');
		strbuf_addch(out, msg[i]);
	}
	if (len && msg[len - 1] != '\n')
		strbuf_addstr(out, "\r\n");
}

/* Adds "<addr>" for every address of header field to list. */
static int add_rcpts(const char *msg, size_t len, const char *field,
		     struct curl_slist **list, int *count, struct strbuf *err)
{
	char *v = mail_header_get(msg, len, field);
	char **addrs = NULL;
	size_t n = 0;
	int ret = 0;

	if (v && mail_split_addresses(v, &addrs, &n) < 0) {
		strbuf_addf(err, "cannot read the %s addresses '%s'", field, v);
		ret = -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!ret) {
			char *a = xstrfmt("<%s>", addrs[i]);
			struct curl_slist *l = cu.slist_append(*list, a);
			free(a);
			if (!l)
				BUG("curl_slist_append failed");
			*list = l;
			(*count)++;
		}
		free(addrs[i]);
	}
	free(addrs);
	free(v);
	return ret;
}

/* The envelope sender: cfg->from, else the message's From. */
static char *envelope_from(const struct mail_config *cfg, const char *msg,
			   size_t len)
{
	char *name = NULL, *addr = NULL, *v;
	char **addrs = NULL;
	size_t n = 0;

	if (cfg->from && !mail_parse_address(cfg->from, &name, &addr)) {
		free(name);
		return addr;
	}
	v = mail_header_get(msg, len, "From");
	if (v && !mail_split_addresses(v, &addrs, &n) && n)
		addr = xstrdup(addrs[0]);
	for (size_t i = 0; i < n; i++)
		free(addrs[i]);
	free(addrs);
	free(v);
	return addr;
}

/*
 * What every session needs: the server, its protocols, TLS as configured,
 * the login, timeouts. Returns 0, or -1 with the reason in err.
 */
static int setup_session(CURL *c, const struct mail_config *cfg,
			 char errbuf[CURL_ERROR_SIZE], struct strbuf *err)
{
	long timeout = cfg->timeout > 0 ? cfg->timeout : 60;
	CURLcode rc;

#define SETOPT(opt, val) \
	do { \
		if ((rc = cu.easy_setopt(c, opt, val)) != CURLE_OK) { \
			strbuf_addf(err, "cannot set libcurl's %s: %s", #opt, \
				    cu.easy_strerror(rc)); \
			return -1; \
		} \
	} while (0)
	SETOPT(CURLOPT_URL, cfg->smtp_url);
#if LIBCURL_VERSION_NUM >= 0x075500
	SETOPT(CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#else
	SETOPT(CURLOPT_PROTOCOLS, (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS));
#endif
	SETOPT(CURLOPT_ERRORBUFFER, errbuf);
	SETOPT(CURLOPT_NOSIGNAL, 1L);
	SETOPT(CURLOPT_CONNECTTIMEOUT, timeout < 30 ? timeout : 30L);
	SETOPT(CURLOPT_TIMEOUT, timeout);
	if (cfg->starttls && !strncmp(cfg->smtp_url, "smtp://", 7))
		SETOPT(CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (cfg->username)
		SETOPT(CURLOPT_USERNAME, cfg->username);
	if (cfg->password)
		SETOPT(CURLOPT_PASSWORD, cfg->password);
#undef SETOPT
	return 0;
}

int smtp_probe(const struct mail_config *cfg, struct strbuf *err)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	CURL *c;
	CURLcode rc;
	int ret = -1;

	if (!cfg->smtp_url) {
		strbuf_addstr(err, "no smtp_url configured");
		return -1;
	}
	if (load_curl(err) < 0)
		return -1;
	if (!(c = cu.easy_init())) {
		strbuf_addstr(err, "cannot initialise libcurl");
		return -1;
	}
	if (setup_session(c, cfg, errbuf, err) < 0)
		goto out;
	/* the greeting, EHLO, STARTTLS and the login; no mail */
	if ((rc = cu.easy_setopt(c, CURLOPT_CONNECT_ONLY, 1L)) != CURLE_OK) {
		strbuf_addf(err, "cannot set libcurl's CURLOPT_CONNECT_ONLY: %s",
			    cu.easy_strerror(rc));
		goto out;
	}
	rc = cu.easy_perform(c);
	if (rc != CURLE_OK)
		strbuf_addf(err, "%s", *errbuf ? errbuf : cu.easy_strerror(rc));
	else
		ret = 0;
out:
	cu.easy_cleanup(c);
	return ret;
}

int smtp_send(const struct mail_config *cfg, const char *msg, size_t len,
	      struct strbuf *err)
{
	struct curl_slist *rcpts = NULL;
	struct strbuf data = STRBUF_INIT;
	struct upload up;
	char errbuf[CURL_ERROR_SIZE] = "";
	char *from = NULL, *mail_from = NULL;
	int count = 0, ret = -1;
	CURL *c = NULL;
	CURLcode rc;

	if (!cfg->smtp_url) {
		strbuf_addstr(err, "no smtp_url configured");
		return -1;
	}
	if (load_curl(err) < 0)
		return -1;
	if (add_rcpts(msg, len, "To", &rcpts, &count, err) < 0 ||
	    add_rcpts(msg, len, "Cc", &rcpts, &count, err) < 0) {
		ret = -2;
		goto out;
	}
	if (!count) {
		strbuf_addstr(err, "the message has no To or Cc recipient");
		ret = -2;
		goto out;
	}
	from = envelope_from(cfg, msg, len);
	if (!from) {
		strbuf_addstr(err, "no sender address: set 'from' in the "
			      "configuration");
		goto out;
	}
	mail_from = xstrfmt("<%s>", from);
	to_crlf(msg, len, &data);
	up.p = strbuf_str(&data);
	up.left = data.len;

	c = cu.easy_init();
	if (!c) {
		strbuf_addstr(err, "cannot initialise libcurl");
		goto out;
	}
#define SETOPT(opt, val) \
	do { \
		if ((rc = cu.easy_setopt(c, opt, val)) != CURLE_OK) { \
			strbuf_addf(err, "cannot set libcurl's %s: %s", #opt, \
				    cu.easy_strerror(rc)); \
			goto out; \
		} \
	} while (0)
	if (setup_session(c, cfg, errbuf, err) < 0)
		goto out;
	SETOPT(CURLOPT_MAIL_FROM, mail_from);
	SETOPT(CURLOPT_MAIL_RCPT, rcpts);
	SETOPT(CURLOPT_UPLOAD, 1L);
	SETOPT(CURLOPT_READFUNCTION, read_cb);
	SETOPT(CURLOPT_READDATA, &up);
	SETOPT(CURLOPT_INFILESIZE_LARGE, (curl_off_t)data.len);
#undef SETOPT

	rc = cu.easy_perform(c);
	if (rc != CURLE_OK) {
		size_t start = err->len;
		long code = 0;
		if (cu.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK)
			code = 0;
		/* 5xx refuses this message for good (an unknown recipient,
		 * a refused sender); 4xx, a failed connection or a refused
		 * login (a setting of the host) may pass later */
		if (code >= 500 && code <= 599 && rc != CURLE_LOGIN_DENIED)
			ret = -2;
		strbuf_addf(err, "smtp to '%s' failed: %s", cfg->smtp_url,
			    *errbuf ? errbuf : cu.easy_strerror(rc));
		if (code)
			strbuf_addf(err, " (reply %ld)", code);
		/* one line */
		for (size_t k = start; k < err->len; k++)
			if (err->buf[k] == '\n' || err->buf[k] == '\r')
				err->buf[k] = ' ';
		goto out;
	}
	ret = 0;
out:
	if (c)
		cu.easy_cleanup(c);
	cu.slist_free_all(rcpts);
	strbuf_release(&data);
	free(from);
	free(mail_from);
	return ret;
}

/* Appends the addresses of header field to *list (malloc'd strings). */
static int collect(const char *msg, size_t len, const char *field,
		   char ***list, size_t *n, struct strbuf *err)
{
	char *v = mail_header_get(msg, len, field);
	char **addrs = NULL;
	size_t k = 0;
	int ret = 0;

	if (v && mail_split_addresses(v, &addrs, &k) < 0) {
		strbuf_addf(err, "cannot read the %s addresses '%s'", field, v);
		ret = -1;
	}
	for (size_t i = 0; i < k; i++) {
		/* an address sendmail would take for an option: refuse it */
		if (!ret && addrs[i][0] != '-') {
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			(*list)[(*n)++] = addrs[i];
		} else {
			free(addrs[i]);
		}
	}
	free(addrs);
	free(v);
	return ret;
}

int sendmail_send(const struct mail_config *cfg, const char *msg, size_t len,
		  struct strbuf *err)
{
	const char *prog = cfg->sendmail ? cfg->sendmail : "/usr/sbin/sendmail";
	static char opt_i[] = "-oi", opt_f[] = "-f", opt_end[] = "--";
	char **rcpts = NULL, *from = NULL, *prog_arg = NULL, **argv = NULL;
	size_t n = 0, argc = 0;
	int ret = -2, fds[2] = { -1, -1 }, status;
	pid_t pid;

	if (collect(msg, len, "To", &rcpts, &n, err) < 0 ||
	    collect(msg, len, "Cc", &rcpts, &n, err) < 0)
		goto out;
	if (!n) {
		strbuf_addstr(err, "the message has no To or Cc recipient");
		goto out;
	}
	ret = -1;
	from = envelope_from(cfg, msg, len);
	if (!from || from[0] == '-') {
		strbuf_addstr(err, "no sender address: set 'from' in the "
			      "configuration");
		goto out;
	}
	argv = xcalloc(n + 7, sizeof(*argv));
	argv[argc++] = prog_arg = xstrdup(prog);
	argv[argc++] = opt_i;
	argv[argc++] = opt_f;
	argv[argc++] = from;
	argv[argc++] = opt_end;
	for (size_t i = 0; i < n; i++)
		argv[argc++] = rcpts[i];
	argv[argc] = NULL;
	if (pipe(fds) < 0) {
		strbuf_addf(err, "cannot run %s: %s", prog, strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot run %s: %s", prog, strerror(errno));
		goto out;
	}
	if (pid == 0) {
		if (dup2(fds[0], 0) < 0)
			_exit(EX_OSERR);
		close(fds[0]);
		close(fds[1]);
		execv(prog, argv);
		_exit(EX_TEMPFAIL);	/* missing: the host may install it */
	}
	close(fds[0]);
	fds[0] = -1;
	{
		/* a sendmail that dies early must not kill us */
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);
		const char *p = msg;
		size_t left = len;
		while (left) {
			ssize_t w = write(fds[1], p, left);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			p += w;
			left -= (size_t)w;
		}
		close(fds[1]);
		fds[1] = -1;
		signal(SIGPIPE, old);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			strbuf_addf(err, "cannot wait for %s: %s", prog,
				    strerror(errno));
			goto out;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = 0;
	} else if (WIFEXITED(status)) {
		int code = WEXITSTATUS(status);
		/* sysexits: these refuse the message itself */
		if (code == EX_USAGE || code == EX_DATAERR ||
		    code == EX_NOUSER || code == EX_NOHOST)
			ret = -2;
		strbuf_addf(err, "%s exited with status %d", prog, code);
	} else {
		strbuf_addf(err, "%s was killed by signal %d", prog,
			    WTERMSIG(status));
	}
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	for (size_t i = 0; i < n; i++)
		free(rcpts[i]);
	free(rcpts);
	free(argv);
	free(prog_arg);
	free(from);
	return ret;
}

int transport_send(const struct mail_config *cfg, const char *msg, size_t len,
		   struct strbuf *err)
{
	if (cfg && cfg->transport == TRANSPORT_SENDMAIL)
		return sendmail_send(cfg, msg, len, err);
	if (config_can_send(cfg))
		return smtp_send(cfg, msg, len, err);
	strbuf_addstr(err, config_describe(cfg));
	return -1;
}
