/*
 * sendmail.h - the sendmail transport (sendmail.c), one row of the table
 * of transport.h.
 *
 * Ownership: every argument is the caller's; nothing is kept.
 */
#ifndef POSTRIDER_SENDMAIL_H
#define POSTRIDER_SENDMAIL_H

#include <stddef.h>
#include "config.h"
#include "mail.h"
#include "util.h"

/* Hands one message to cfg->sendmail: 0, -1 or -2 as transport.h says of
 * every send function. */
int sendmail_send(const struct mail_config *cfg, const struct mail_envelope *env,
		  const char *msg, size_t len, struct strbuf *err);

#endif
