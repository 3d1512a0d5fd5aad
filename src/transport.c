/*
 * transport.c - the table of mail transports and what they share
 * (transport.h).
 */
#include "transport.h"
#include "mail.h"
#include "sendmail.h"
#include "smtp.h"

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

/* The one list of the transports and their names, by kind. */
static const struct transport transports[TRANSPORT__COUNT] = {
	[TRANSPORT_SMTP] = {
		.name = "smtp", .kind = TRANSPORT_SMTP, .send = smtp_send,
		.needs = "smtp_url; username, password or password_file, starttls, timeout, from",
		.missing = smtp_missing, .probe = smtp_doctor,
	},
	[TRANSPORT_SENDMAIL] = {
		.name = "sendmail", .kind = TRANSPORT_SENDMAIL, .send = sendmail_send,
		.needs = "sendmail (default /usr/sbin/sendmail), from",
		.probe = sendmail_doctor,
	},
	[TRANSPORT_OUTBOX] = {
		.name = "outbox", .kind = TRANSPORT_OUTBOX,
		.needs = "nothing: mail waits in the outbox for 'postrider send'",
		.probe = outbox_doctor,
	},
};

const struct transport *transport_row(enum mail_transport kind)
{
	if (kind <= TRANSPORT_NONE || kind >= TRANSPORT__COUNT)
		return NULL;
	return &transports[kind];
}

const struct transport *transport_named(const char *name)
{
	for (int k = TRANSPORT_NONE + 1; name && k < TRANSPORT__COUNT; k++)
		if (!strcmp(name, transports[k].name))
			return &transports[k];
	return NULL;
}

const struct transport *transport_of(const struct mail_config *cfg)
{
	if (!cfg)
		return NULL;
	/* a struct filled by hand with only smtp_url sends by SMTP */
	if (cfg->transport == TRANSPORT_NONE)
		return cfg->smtp_url ? transport_row(TRANSPORT_SMTP) : NULL;
	return transport_row(cfg->transport);
}

const char *transport_names(void)
{
	static char names[128];

	if (!*names) {
		struct strbuf b = STRBUF_INIT;
		for (int k = TRANSPORT_NONE + 1; k < TRANSPORT__COUNT; k++) {
			if (k > TRANSPORT_NONE + 1)
				strbuf_addstr(&b, k + 1 < TRANSPORT__COUNT ? ", " : " or ");
			strbuf_addstr(&b, transports[k].name);
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
