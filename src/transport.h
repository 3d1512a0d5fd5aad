/*
 * transport.h - the mail transports, in one table (transport.c, the one
 * place that names them): each row names the value of `transport:` in
 * the configuration, the function that hands one message to it (NULL:
 * the mail waits in the outbox for `postrider send`), what it needs from
 * the configuration, and what `postrider doctor` asks of it. A new
 * transport is one kind in config.h, one row in transport.c, and one
 * file with its send function and its header (smtp.c, sendmail.c).
 *
 * Every send function returns 0 (sent), -1 with a one-line reason
 * appended to err (may pass later: no connection, a 4xx reply, a refused
 * login, sendmail's EX_TEMPFAIL), or -2 (refused for good: a 5xx reply,
 * with the server's own words; sendmail's EX_NOUSER, EX_NOHOST,
 * EX_DATAERR, EX_USAGE; no recipient). The message may have CRLF or LF
 * line endings.
 *
 * Ownership: the table and the strings it returns are static; an
 * envelope only borrows its strings.
 */
#ifndef POSTRIDER_TRANSPORT_H
#define POSTRIDER_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "config.h"
#include "mail.h"
#include "util.h"

typedef int transport_send_fn(const struct mail_config *cfg,
			      const struct mail_envelope *env,
			      const char *msg, size_t len, struct strbuf *err);

struct transport {
	const char *name;		/* transport: NAME */
	enum mail_transport kind;
	transport_send_fn *send;	/* NULL: mail stays in the outbox */
	const char *needs;		/* the keys it reads, for messages */
	/* NULL if cfg has what it needs, else why not (for config_load) */
	const char *(*missing)(const struct mail_config *cfg);
	/* doctor: 0 and what is well in ok, or -1 and what to fix in err */
	int (*probe)(const struct mail_config *cfg, struct strbuf *ok,
		     struct strbuf *err);
};

/* The row of kind (every kind but TRANSPORT_NONE has one, with a name,
 * what it needs and a probe; a unit test holds each row complete), or
 * NULL for TRANSPORT_NONE and past the last. */
const struct transport *transport_row(enum mail_transport kind);

/* The row of `transport: name`, or NULL. */
const struct transport *transport_named(const char *name);

/* The row cfg uses, or NULL when no transport is configured. */
const struct transport *transport_of(const struct mail_config *cfg);

/* "smtp, sendmail or outbox": every name, for messages. */
const char *transport_names(void);

/* Can mail be handed to a mail system (a row with a send function)? */
bool transport_can_send(const struct mail_config *cfg);

/* "transport: smtp" etc., or a sentence when none is configured. */
const char *transport_describe(const struct mail_config *cfg);

/*
 * Sends one message (len bytes) through the transport cfg names; env
 * may be NULL (the envelope comes from the configuration and the
 * message's headers). 0, -1 or -2 as above; -1 with the reason when cfg
 * names no transport that sends.
 */
int transport_send(const struct mail_config *cfg,
		   const struct mail_envelope *env, const char *msg,
		   size_t len, struct strbuf *err);

#endif
