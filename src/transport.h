/*
 * transport.h - the mail transports, in one table: each names the value
 * of `transport:` in the configuration, the function that hands one
 * message to it, what it needs from the configuration, and what
 * `postrider doctor` asks of it. A new transport is one row here and one
 * file with its send function (smtp.c, sendmail.c).
 *
 *   name      send            needs (configuration keys)
 *   smtp      smtp_send()     smtp_url; username, password(_file),
 *                             starttls, timeout, from
 *   sendmail  sendmail_send() sendmail (default /usr/sbin/sendmail), from
 *   outbox    (none)          nothing: mail waits for `postrider send`
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
#include "util.h"

/* Who a message goes to and from, when not its own headers: the sender
 * ("" for the null sender <>) and the recipients' addresses. */
struct mail_envelope {
	const char *from;		/* NULL: from the configuration */
	const char *const *rcpts;	/* NULL: the To and Cc addresses */
	size_t n_rcpts;
};

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

/* For the send functions. The envelope sender (malloc'd): env->from,
 * else cfg->from's address, else the message's From; NULL if none. */
char *transport_sender(const struct mail_config *cfg,
		       const struct mail_envelope *env, const char *msg,
		       size_t len);

/*
 * The recipients (malloc'd strings appended to *list): env's, else the
 * addresses of To and Cc. An address that starts with '-' is left out
 * (a program would take it for an option). Returns 0, or -1 with the
 * reason in err (an unreadable header).
 */
int transport_recipients(const struct mail_envelope *env, const char *msg,
			 size_t len, char ***list, size_t *n,
			 struct strbuf *err);

/* smtp.c and sendmail.c */
transport_send_fn smtp_send, sendmail_send;

/*
 * Connects to cfg->smtp_url as smtp_send() would (TLS, STARTTLS and the
 * login as configured) and sends no mail: what `postrider doctor` asks.
 * Returns 0, or -1 with a one-line reason appended to err.
 */
int smtp_probe(const struct mail_config *cfg, struct strbuf *err);

#endif
