/*
 * route.h - which game of a folder of games (`play --games ROOT`) one
 * incoming message is for, and what becomes of a message that is for
 * none: it goes to the host's own mailbox (hostmail.h).
 *
 * The game is named by the message (X-Postrider-Game, "[ww-...]" in the
 * subject, or one of our Message-IDs it replies to), and is the folder
 * ROOT/ID, else the one folder of ROOT whose game.yaml has that id (a
 * player's copies of games without a host, named as he likes: a mail
 * between two postriders, automatic as it is, goes to its copy); a new message that
 * names none is found by its reply token (the `token:` line or the
 * host+TOKEN address), checked against each game's current tokens for
 * its sender; else, if it carries a token and its sender plays exactly
 * one game there, that game (which answers that the token is stale). A
 * message with no token that names no game (a question in prose) is the
 * host's.
 * Ids are "ww-" and letters and digits, so a message cannot name a path
 * outside ROOT.
 *
 * Ownership: route_message() returns a malloc'd path the caller frees.
 */
#ifndef POSTRIDER_ROUTE_H
#define POSTRIDER_ROUTE_H

#include <stddef.h>
#include "config.h"
#include "util.h"

/*
 * Finds the game of the message in root. Returns 0 with *dir set; 1 when
 * the message is for no game and was dealt with (ignored, or handed to
 * the host's mailbox: what in why, exit 0); -1 when it is for no game and
 * could not be handed on (rejected: no game; why says so); -2 when the
 * host's mailbox could not take it, or when it is a mail between two
 * postriders for no copy and there is no host_mail to take it (try again
 * later: why says why).
 */
int route_message(const char *root, const struct mail_config *cfg,
		  const char *raw, size_t len, char **dir, struct strbuf *why);

#endif
