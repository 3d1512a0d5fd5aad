/*
 * hostmail.h - mail for the host: a message to the host address that
 * is not for a game (a question in prose, cron's or root's mail, a
 * bounce) is handed to the host's own mailbox, as a mail system would,
 * instead of being dropped. `host_mail:` in the configuration says where:
 *
 *   host_mail: ~/Maildir/          a Maildir (created if missing)
 *   host_mail: /var/mail/referee   an mbox file (appended, flock'ed)
 *   host_mail: me@example.net      an address, through the transport
 *
 * The copy gains one header, X-Postrider-Host-Mail, so that a copy that
 * comes back to postrider (an address that routes to it again) is never
 * handed on twice.
 *
 * Ownership: nothing is kept.
 */
#ifndef POSTRIDER_HOSTMAIL_H
#define POSTRIDER_HOSTMAIL_H

#include <stddef.h>
#include "config.h"
#include "util.h"

#define HOSTMAIL_HEADER "X-Postrider-Host-Mail"

/*
 * Hands the message (raw, len bytes) to cfg->host_mail, why being the
 * reason given in the added header. Returns 1 and where it went in done,
 * 0 when no host_mail is configured or the message was handed on
 * already (nothing done), -1 with the reason in err.
 */
int hostmail_deliver(const struct mail_config *cfg, const char *raw,
		     size_t len, const char *why, struct strbuf *done,
		     struct strbuf *err);

#endif
