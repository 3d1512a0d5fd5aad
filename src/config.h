/*
 * config.h - the host's mail settings: their types, and the functions
 * that read them (config-load.c). They hold credentials, so they live
 * outside every game repository. The file read is the first of:
 * --config FILE; $POSTRIDER_CONFIG; $XDG_CONFIG_HOME/postrider/config.yaml
 * or ~/.config/postrider/config.yaml (~ is $HOME, else the home folder of
 * the user in the password database, so that a mail system's pipe, which
 * sets no HOME, still finds it); /etc/postrider/config.yaml. An explicit
 * file (option or variable) must exist. Example:
 *
 *   transport: smtp          # smtp, sendmail or outbox (default: smtp
 *                            # if smtp_url is given, else none)
 *   smtp_url: smtp://mail.example.org:587
 *   username: referee
 *   password_file: ~/.config/postrider/smtp-password
 *   starttls: true
 *   from: Postrider Referee <referee@example.org>
 *   outbox: ~/.local/share/postrider/outbox
 *   timeout: 60
 *   sendmail: /usr/sbin/sendmail   # for transport: sendmail
 *   log: ~/.local/state/postrider/mail.log   # a line for every message
 *                            # a mail system hands to `play` (hostlog.h)
 *   host_mail: ~/Maildir/    # mail to the host address that is no order
 *                            # (hostmail.h): a Maildir, an mbox or an address
 *   publish:                 # pushing games to their remotes (publish.h)
 *     ssh_key: ~/.ssh/id_ecdsa           # private key; the public one
 *                                        # is the same path with .pub
 *     known_hosts: ~/.ssh/known_hosts    # the SSH servers' keys
 *     ca_file: /etc/ssl/certs/ca-certificates.crt   # for HTTPS
 *     username: referee                  # HTTPS basic authentication
 *     password_file: ~/.config/postrider/push-password
 *   dkim:                    # the senders' DKIM signatures (dkim-intake.h)
 *     check: true            # verify them at intake (default true)
 *     keys: ~/dkim-keys.txt  # key records from this file, never DNS
 *     timeout: 5             # seconds for one DNS query
 *     dmarc: enforce         # refuse a player's mail whose domain says
 *                            # p=reject or quarantine and that carries no
 *                            # valid signature of it (default: record)
 *     trust_authserv_id: mx.example.org   # the host MTA's own
 *                            # Authentication-Results (its DKIM milter)
 *
 * transport: outbox keeps every message in the outbox for `postrider
 * send` or the host; with no transport at all (no file found), a run that
 * leaves mail unsent says so and exits 3 (see cmd.h).
 *
 * Ownership: struct mail_config owns its strings; config_release() frees
 * them and zeroes the struct (config_release(NULL) is safe).
 */
#ifndef POSTRIDER_CONFIG_H
#define POSTRIDER_CONFIG_H

#include <stdbool.h>
#include "util.h"

/* The kinds of transport, in the order of the table of transport.c,
 * which names them and says what each does and needs. */
enum mail_transport {
	TRANSPORT_NONE,		/* nothing configured: mail waits, loudly */
	TRANSPORT_SMTP,		/* smtp_url */
	TRANSPORT_SENDMAIL,	/* sendmail -oi -f FROM -- TO... */
	TRANSPORT_OUTBOX,	/* mail waits in the outbox, by choice */
	TRANSPORT__COUNT
};

struct mail_config {
	enum mail_transport transport;
	char *smtp_url;		/* smtp://host:port or smtps://...; NULL
				   means "outbox only" */
	char *username;		/* NULL: no authentication */
	char *password;		/* from password or password_file; NULL */
	char *password_file;	/* the file it came from, or NULL */
	bool starttls;		/* require STARTTLS on smtp:// (default
				   true) */
	char *from;		/* "Name <addr>" of the host, or NULL */
	char *outbox;		/* outbox folder ("~/" expanded), or NULL:
				   the caller chooses */
	long timeout;		/* seconds for a whole SMTP session (60) */
	char *sendmail;		/* the sendmail program
				   (/usr/sbin/sendmail) */
	char *log;		/* the host's log of messages, or NULL */
	char *host_mail;	/* where mail for the host goes (hostmail.h):
				   a Maildir ("/"-ended), an mbox or an
				   address; NULL */
	char *path;		/* the file read, or NULL if none */
	struct publish_config {	/* the `publish:` mapping; all optional */
		char *ssh_key;		/* private key file ("~/" expanded) */
		char *known_hosts;	/* NULL: ~/.ssh/known_hosts */
		char *ca_file;		/* NULL: the system's CA certificates */
		char *username;		/* HTTPS basic authentication */
		char *password;
		char *password_file;
	} publish;
	struct dkim_config {	/* the `dkim:` mapping (dkim-intake.h) */
		bool off;		/* check: false */
		char *keys;		/* key records from a file, not DNS */
		long timeout;		/* seconds per DNS query (5) */
		bool dmarc_enforce;	/* dmarc: enforce */
		char *authserv_id;	/* trust_authserv_id, or NULL */
	} dkim;
};

/*
 * Reads the configuration from path, or from the default place when path
 * is NULL. A missing default file is not an error: cfg then says "outbox
 * only" (smtp_url NULL); a missing explicit path is. Unknown keys, values
 * of the wrong type and bad YAML give -1 with "file:line:column: message"
 * lines appended to err; cfg is then released. cfg need not be initialised.
 */
int config_load(const char *path, struct mail_config *cfg, struct strbuf *err);
void config_release(struct mail_config *cfg);

/*
 * The user's configuration file path (malloc'd): $XDG_CONFIG_HOME or
 * ~/.config, then /postrider/config.yaml. NULL if no home is known.
 */
char *config_default_path(void);

/* The system-wide file, read when the user has none. */
#define CONFIG_SYSTEM_PATH "/etc/postrider/config.yaml"

#endif
