/*
 * transport.c - the table of mail transports and what they share
 * (transport.h).
 */
#include "transport.h"
#include "mail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

static const char *smtp_missing(const struct mail_config *cfg)
{
	return cfg->smtp_url ? NULL : "transport: smtp needs smtp_url";
}

static int smtp_doctor(const struct mail_config *cfg, struct strbuf *ok,
		       struct strbuf *err)
{
	if (smtp_probe(cfg, err) < 0) {
		char *why = strbuf_detach(err, NULL);
		strbuf_addf(err, "SMTP server %s: %s", cfg->smtp_url, why);
		free(why);
		return -1;
	}
	strbuf_addf(ok, "SMTP server %s answers%s", cfg->smtp_url,
		    cfg->username ? " and takes the login" : "");
	return 0;
}

static int sendmail_doctor(const struct mail_config *cfg, struct strbuf *ok,
			   struct strbuf *err)
{
	const char *prog = cfg->sendmail ? cfg->sendmail : "/usr/sbin/sendmail";

	if (access(prog, X_OK) < 0) {
		strbuf_addf(err, "sendmail program '%s': %s (install an MTA, or set sendmail:)",
			    prog, strerror(errno));
		return -1;
	}
	strbuf_addf(ok, "sendmail program '%s' is there", prog);
	return 0;
}

static int outbox_doctor(const struct mail_config *cfg, struct strbuf *ok,
			 struct strbuf *err)
{
	(void)cfg;
	(void)err;
	strbuf_addstr(ok, "transport: outbox (mail waits for 'postrider send' or the host)");
	return 0;
}

static const struct transport transports[] = {
	{ "smtp", TRANSPORT_SMTP, smtp_send,
	  "smtp_url; username, password or password_file, starttls, timeout, from",
	  smtp_missing, smtp_doctor },
	{ "sendmail", TRANSPORT_SENDMAIL, sendmail_send,
	  "sendmail (default /usr/sbin/sendmail), from",
	  NULL, sendmail_doctor },
	{ "outbox", TRANSPORT_OUTBOX, NULL,
	  "nothing: mail waits in the outbox for 'postrider send'",
	  NULL, outbox_doctor },
};
#define N_TRANSPORTS (sizeof(transports) / sizeof(transports[0]))

const struct transport *transport_named(const char *name)
{
	for (size_t i = 0; i < N_TRANSPORTS; i++)
		if (name && !strcmp(name, transports[i].name))
			return &transports[i];
	return NULL;
}

const struct transport *transport_of(const struct mail_config *cfg)
{
	if (!cfg)
		return NULL;
	/* a struct filled by hand with only smtp_url sends by SMTP */
	if (cfg->transport == TRANSPORT_NONE)
		return cfg->smtp_url ? transport_named("smtp") : NULL;
	for (size_t i = 0; i < N_TRANSPORTS; i++)
		if (transports[i].kind == cfg->transport)
			return &transports[i];
	return NULL;
}

const char *transport_names(void)
{
	static char names[128];

	if (!*names) {
		struct strbuf b = STRBUF_INIT;
		for (size_t i = 0; i < N_TRANSPORTS; i++) {
			if (i)
				strbuf_addstr(&b, i + 1 < N_TRANSPORTS ? ", " : " or ");
			strbuf_addstr(&b, transports[i].name);
		}
		snprintf(names, sizeof(names), "%s", b.buf);
		strbuf_release(&b);
	}
	return names;
}

bool transport_can_send(const struct mail_config *cfg)
{
	const struct transport *t = transport_of(cfg);

	return t && t->send;
}

const char *transport_describe(const struct mail_config *cfg)
{
	static char buf[64];
	const struct transport *t = transport_of(cfg);

	if (!cfg)
		return "no mail transport";
	if (!t)
		return "no mail transport is configured";
	snprintf(buf, sizeof(buf), "transport: %s", t->name);
	return buf;
}

int transport_send(const struct mail_config *cfg,
		   const struct mail_envelope *env, const char *msg,
		   size_t len, struct strbuf *err)
{
	const struct transport *t = transport_of(cfg);

	if (!t || !t->send) {
		strbuf_addstr(err, transport_describe(cfg));
		return -1;
	}
	return t->send(cfg, env, msg, len, err);
}

char *transport_sender(const struct mail_config *cfg,
		       const struct mail_envelope *env, const char *msg,
		       size_t len)
{
	char *name = NULL, *addr = NULL, *v;
	char **addrs = NULL;
	size_t n = 0;

	if (env && env->from)
		return xstrdup(env->from);
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

/* Appends the addresses of header field to *list. */
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
		/* an address a program would take for an option: left out */
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

int transport_recipients(const struct mail_envelope *env, const char *msg,
			 size_t len, char ***list, size_t *n,
			 struct strbuf *err)
{
	if (env && env->rcpts) {
		for (size_t i = 0; i < env->n_rcpts; i++) {
			if (env->rcpts[i][0] == '-')
				continue;
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			(*list)[(*n)++] = xstrdup(env->rcpts[i]);
		}
		return 0;
	}
	if (collect(msg, len, "To", list, n, err) < 0 ||
	    collect(msg, len, "Cc", list, n, err) < 0)
		return -1;
	return 0;
}
