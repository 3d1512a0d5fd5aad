/*
 * smtp.c - sending one message through libcurl's SMTP client.
 */
#include "outbox.h"
#include "mail.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/*
 * libcurl is loaded when mail is sent, not linked: linking it makes every
 * run of postrider pay for relocating its large dependency tree (about 14
 * million instructions at start-up, more than the whole adjudication;
 * docs/robustness.md, "Speed"), while most runs send nothing.
 */
static struct {
	bool loaded;
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} lib;

/* Loads libcurl once; returns 0, or -1 with the reason in err. */
static int load_curl(struct strbuf *err)
{
	static const char *const names[] = { "libcurl.so.4", "libcurl.so", NULL };
	void *h = NULL;

	if (lib.loaded)
		return 0;
	for (const char *const *n = names; *n && !h; n++)
		h = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		strbuf_addf(err, "cannot load libcurl to send mail: %s (install libcurl4)", dlerror());
		return -1;
	}
#define SYM(field, name) \
	if (!(*(void **)&lib.field = dlsym(h, name))) { \
		strbuf_addf(err, "libcurl lacks '%s'", name); \
		return -1; \
	}
	SYM(easy_init, "curl_easy_init");
	SYM(easy_setopt, "curl_easy_setopt");
	SYM(easy_perform, "curl_easy_perform");
	SYM(easy_cleanup, "curl_easy_cleanup");
	SYM(easy_strerror, "curl_easy_strerror");
	SYM(slist_append, "curl_slist_append");
	SYM(slist_free_all, "curl_slist_free_all");
#undef SYM
	lib.loaded = true;
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
			struct curl_slist *l = lib.slist_append(*list, a);
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
	long timeout = cfg->timeout > 0 ? cfg->timeout : 60;

	if (!cfg->smtp_url) {
		strbuf_addstr(err, "no smtp_url configured");
		return -1;
	}
	if (load_curl(err) < 0)
		return -1;
	if (add_rcpts(msg, len, "To", &rcpts, &count, err) < 0 ||
	    add_rcpts(msg, len, "Cc", &rcpts, &count, err) < 0)
		goto out;
	if (!count) {
		strbuf_addstr(err, "the message has no To or Cc recipient");
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

	c = lib.easy_init();
	if (!c) {
		strbuf_addstr(err, "cannot initialise libcurl");
		goto out;
	}
	lib.easy_setopt(c, CURLOPT_URL, cfg->smtp_url);
#if LIBCURL_VERSION_NUM >= 0x075500
	lib.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#else
	lib.easy_setopt(c, CURLOPT_PROTOCOLS,
			 (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS));
#endif
	lib.easy_setopt(c, CURLOPT_MAIL_FROM, mail_from);
	lib.easy_setopt(c, CURLOPT_MAIL_RCPT, rcpts);
	lib.easy_setopt(c, CURLOPT_UPLOAD, 1L);
	lib.easy_setopt(c, CURLOPT_READFUNCTION, read_cb);
	lib.easy_setopt(c, CURLOPT_READDATA, &up);
	lib.easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)data.len);
	lib.easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	lib.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	lib.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, timeout < 30 ? timeout
							     : 30L);
	lib.easy_setopt(c, CURLOPT_TIMEOUT, timeout);
	if (cfg->starttls && !strncmp(cfg->smtp_url, "smtp://", 7))
		lib.easy_setopt(c, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (cfg->username)
		lib.easy_setopt(c, CURLOPT_USERNAME, cfg->username);
	if (cfg->password)
		lib.easy_setopt(c, CURLOPT_PASSWORD, cfg->password);

	rc = lib.easy_perform(c);
	if (rc != CURLE_OK) {
		size_t start = err->len;
		strbuf_addf(err, "smtp to '%s' failed: %s", cfg->smtp_url,
			    *errbuf ? errbuf : lib.easy_strerror(rc));
		/* one line */
		for (size_t k = start; k < err->len; k++)
			if (err->buf[k] == '\n' || err->buf[k] == '\r')
				err->buf[k] = ' ';
		goto out;
	}
	ret = 0;
out:
	if (c)
		lib.easy_cleanup(c);
	lib.slist_free_all(rcpts);
	strbuf_release(&data);
	free(from);
	free(mail_from);
	return ret;
}
