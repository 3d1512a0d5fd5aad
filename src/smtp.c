/*
 * smtp.c - the SMTP transport: one message through libcurl's SMTP
 * client (smtp.h, transport.h).
 *
 * libcurl is loaded when a message is sent or the server probed, not
 * when postrider starts: with the libraries it needs (TLS, HTTP/2, IDN,
 * LDAP, SASL, ...: 18 of them) it was 60% of every run's start-up and
 * 3.5 MiB of its memory, though only this transport uses it (issue 41;
 * git keeps curl out of git itself the same way, in its remote helpers).
 * Its header still gives the types and the options' numbers; the few
 * functions used here are looked up once, in struct curl_fns.
 */
#include "smtp.h"
#include "mail.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* libcurl's name for the loader: ABI 4, the same since 2006 */
#define SMTP_LIBCURL "libcurl.so.4"

static struct curl_fns {
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} cu;
static char curl_why[256];	/* why it could not be loaded, or "" */
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_load(void)
{
	void *h = dlopen(SMTP_LIBCURL, RTLD_NOW | RTLD_LOCAL);
	const char *what = NULL;

	if (!h) {
		snprintf(curl_why, sizeof(curl_why), "%s", dlerror());
		return;
	}
#define FN(field, name) \
	do { \
		if (!what && !(*(void **)&cu.field = dlsym(h, name))) \
			what = name; \
	} while (0)
	FN(easy_init, "curl_easy_init");
	FN(easy_setopt, "curl_easy_setopt");
	FN(easy_perform, "curl_easy_perform");
	FN(easy_getinfo, "curl_easy_getinfo");
	FN(easy_cleanup, "curl_easy_cleanup");
	FN(easy_strerror, "curl_easy_strerror");
	FN(slist_append, "curl_slist_append");
	FN(slist_free_all, "curl_slist_free_all");
#undef FN
	if (what) {
		snprintf(curl_why, sizeof(curl_why), "%s has no %s", SMTP_LIBCURL, what);
		memset(&cu, 0, sizeof(cu));
		dlclose(h);
	}
	/* else kept loaded until the process ends */
}

/* libcurl's functions in cu: 0, or -1 with the reason in err. */
static int curl_ready(struct strbuf *err)
{
	pthread_once(&curl_once, curl_load);
	if (cu.easy_init)
		return 0;
	strbuf_addf(err, "cannot load libcurl for the smtp transport (%s): install "
		    "libcurl (Debian: libcurl4) or use the sendmail transport", curl_why);
	return -1;
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
	if (curl_ready(err) < 0)
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

/* The server's last reply of 4xx or 5xx, kept from libcurl's trace: its
 * error message names the code, not the reason the server gave. */
static int trace_cb(CURL *c, curl_infotype type, char *data, size_t size,
		    void *ud)
{
	struct strbuf *last = ud;

	(void)c;
	if (type != CURLINFO_HEADER_IN || size < 4 ||
	    (data[0] != '4' && data[0] != '5'))
		return 0;
	strbuf_reset(last);
	for (size_t i = 0; i < size && last->len < 200; i++)
		if (data[i] != '\r' && data[i] != '\n')
			strbuf_addch(last, (unsigned char)data[i] < ' ' ? ' ' : data[i]);
	return 0;
}

int smtp_send(const struct mail_config *cfg, const struct mail_envelope *env,
	      const char *msg, size_t len, struct strbuf *err)
{
	struct curl_slist *rcpts = NULL;
	struct strbuf data = STRBUF_INIT, said = STRBUF_INIT;
	struct upload up;
	char errbuf[CURL_ERROR_SIZE] = "";
	char *from = NULL, *mail_from = NULL, **list = NULL;
	size_t count = 0;
	int ret = -1;
	CURL *c = NULL;
	CURLcode rc;

	if (!cfg->smtp_url) {
		strbuf_addstr(err, "no smtp_url configured");
		return -1;
	}
	if (curl_ready(err) < 0)
		return -1;
	if (mail_envelope_recipients(env, msg, len, &list, &count, err) < 0) {
		ret = -2;
		goto out;
	}
	if (!count) {
		strbuf_addstr(err, "the message has no To or Cc recipient");
		ret = -2;
		goto out;
	}
	for (size_t i = 0; i < count; i++) {
		char *a = xstrfmt("<%s>", list[i]);
		struct curl_slist *l = cu.slist_append(rcpts, a);
		free(a);
		if (!l)
			BUG("curl_slist_append failed");
		rcpts = l;
	}
	from = mail_envelope_sender(env, cfg->from, msg, len);
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
	SETOPT(CURLOPT_DEBUGFUNCTION, trace_cb);
	SETOPT(CURLOPT_DEBUGDATA, &said);
	SETOPT(CURLOPT_VERBOSE, 1L);
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
		if (said.len)
			strbuf_addf(err, ": the server said \"%s\"", said.buf);
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
	for (size_t i = 0; i < count; i++)
		free(list[i]);
	free(list);
	strbuf_release(&data);
	strbuf_release(&said);
	free(from);
	free(mail_from);
	return ret;
}

