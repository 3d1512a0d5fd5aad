/*
 * smtp.h - the SMTP transport (smtp.c), one row of the table of
 * transport.h: its send function and what `postrider doctor` asks of it.
 *
 * Ownership: every argument is the caller's; nothing is kept.
 */
#ifndef POSTRIDER_SMTP_H
#define POSTRIDER_SMTP_H

#include <stddef.h>
#include "config.h"
#include "mail.h"
#include "util.h"

/* Sends one message through cfg->smtp_url: 0, -1 or -2 as transport.h
 * says of every send function. */
int smtp_send(const struct mail_config *cfg, const struct mail_envelope *env,
	      const char *msg, size_t len, struct strbuf *err);

/*
 * Connects to cfg->smtp_url as smtp_send() would (TLS, STARTTLS and the
 * login as configured) and sends no mail: what `postrider doctor` asks.
 * Returns 0, or -1 with a one-line reason appended to err.
 */
int smtp_probe(const struct mail_config *cfg, struct strbuf *err);

#endif
