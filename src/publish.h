/*
 * publish.h - pushing a game to the git remote it names, so that players
 * clone, pull and audit it for themselves and the host has a copy off the
 * machine (docs/repository.md, "Publishing").
 *
 * A game names its remote in its repository's own configuration
 * (.git/config, the host's side, never in the history):
 *
 *	[remote "publish"]
 *		url = ssh://git@example.org/club/ww-1a2b3c4d.git
 *
 * set by `postrider new --publish URL` or `postrider publish DIR --remote
 * URL`. After every commit of a turn, postrider pushes refs/heads/main
 * there (a fast-forward; never a forced push). A push that fails loses
 * nothing: the turn is committed and mailed, the failure is said on
 * stderr, and the next push (the next turn, `postrider send` or
 * `postrider publish DIR`) carries every commit still missing.
 *
 * How the remote is reached comes from the host's configuration
 * (config.h, `publish:`): over SSH with a key file, the server's key
 * checked against a known_hosts file (an unknown or changed host key
 * refuses the push); over HTTPS with the system's CA certificates or a
 * given ca_file, and basic authentication if given. file:// and local
 * paths work too (tests, a copy on another disk).
 *
 * Ownership: nothing is kept between calls; results are appended to the
 * caller's strbufs.
 */
#ifndef POSTRIDER_PUBLISH_H
#define POSTRIDER_PUBLISH_H

#include "util.h"

struct repo;
struct mail_config;

#define PUBLISH_REMOTE "publish"

/*
 * The URL of the game's remote into url (appended): 1 if the game names
 * one, 0 if not, -1 on error (err).
 */
int publish_remote_url(struct repo *r, struct strbuf *url, struct strbuf *err);

/*
 * Is url one postrider may push to? A password in it (scheme://user:
 * PASSWORD@host) would be stored in the world-readable .git/config and
 * printed in every message naming the remote, and plain http:// sends
 * the game and any password in clear: both are refused (credentials go
 * under `publish:` in the configuration). 0, or -1 with why in err (the
 * URL shown without its password).
 */
int publish_check_url(const char *url, struct strbuf *err);

/*
 * The origin of url, to which its credentials belong: "scheme://host:port"
 * in lower case, the port the scheme's default when none is given ("ssh"
 * for ssh://, git+ssh://, ssh+git:// and scp-like "user@host:path");
 * "(no host)" when url names none. A push gives its credentials only when
 * libgit2 asks for them on the origin of the game's remote (a redirect
 * to another host, or port, gets none).
 */
void publish_url_origin(const char *url, struct strbuf *out);

/* url as it may be shown: any password replaced by "***". */
void publish_url_shown(const char *url, struct strbuf *out);

/* Names url as the game's remote (replacing any), after
 * publish_check_url(): 0, or -1 (err). */
int publish_set_remote(struct repo *r, const char *url, struct strbuf *err);

/*
 * Pushes refs/heads/main to the game's remote with the settings of cfg
 * (which may be NULL: defaults). Returns 0 when pushed (or already there;
 * *what says which, may be NULL), 1 when the game names no remote, -1
 * when the push failed: err says why in one line.
 */
int publish_push(struct repo *r, const struct mail_config *cfg,
		 struct strbuf *what, struct strbuf *err);

/*
 * What a command calls after committing (or in `send`): pushes if the
 * game names a remote, prints "published to URL" on stdout or a loud
 * "PUSH FAILED" warning on stderr. Returns publish_push()'s result.
 */
int publish_after_commit(struct repo *r, const struct mail_config *cfg);

#endif
