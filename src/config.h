/*
 * config.h - the user's mail settings, read from
 * $XDG_CONFIG_HOME/postrider/config.yaml (default
 * ~/.config/postrider/config.yaml). They hold credentials, so they live
 * outside every game repository. Example:
 *
 *   smtp_url: smtp://mail.example.org:587
 *   username: referee
 *   password_file: ~/.config/postrider/smtp-password
 *   starttls: true
 *   from: Postrider Referee <referee@example.org>
 *   outbox: ~/.local/share/postrider/outbox
 *   timeout: 60
 *
 * Ownership: struct mail_config owns its strings; config_release() frees
 * them and zeroes the struct (config_release(NULL) is safe).
 */
#ifndef POSTRIDER_CONFIG_H
#define POSTRIDER_CONFIG_H

#include <stdbool.h>
#include "util.h"

struct mail_config {
	char *smtp_url;		/* smtp://host:port or smtps://...; NULL
				   means "outbox only" */
	char *username;		/* NULL: no authentication */
	char *password;		/* from password or password_file; NULL */
	bool starttls;		/* require STARTTLS on smtp:// (default
				   true) */
	char *from;		/* "Name <addr>" of the host, or NULL */
	char *outbox;		/* outbox folder ("~/" expanded), or NULL:
				   the caller chooses */
	long timeout;		/* seconds for a whole SMTP session (60) */
	char *path;		/* the file read, or NULL if none */
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
 * The default configuration file path (malloc'd): $XDG_CONFIG_HOME or
 * $HOME/.config, then /postrider/config.yaml. NULL if neither variable is
 * set.
 */
char *config_default_path(void);

#endif
