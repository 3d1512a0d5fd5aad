/*
 * route.c - the game of an incoming message (route.h).
 */
#include "route.h"
#include "authorize.h"
#include "fair.h"
#include "game.h"
#include "hostmail.h"
#include "mail.h"
#include "peer.h"
#include "repo.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A message that names no game but carries a token: the game of root
 * whose current token for the sender is the message's, else the only
 * game the sender plays (which tells him the token is stale). Writes the
 * id to out; returns 1 found, 0 not. A message without a token (a
 * question in prose) is for the host, not for a game.
 */
static int game_by_sender(const char *root, const struct mail_message *m,
			  char *out, size_t n)
{
	char token[MAIL_TOKEN_SIZE], want[FAIR_TOKEN_SIZE];
	bool have_token = mail_find_token(m, token);
	int by_token = 0, plays = 0;
	char played[64] = "";
	struct dirent *e;
	DIR *d;

	if (!have_token || !m->from_addr || !(d = opendir(root)))
		return 0;
	while ((e = readdir(d)) && !by_token) {
		struct strbuf err = STRBUF_INIT;
		struct game g;
		char *dir;
		enum side side;

		if (!mail_valid_game_id(e->d_name) || strlen(e->d_name) >= sizeof(played))
			continue;
		dir = xstrfmt("%s/%s", root, e->d_name);
		memset(&g, 0, sizeof(g));
		if (game_open(dir, &g, GAME_NEED_SECRET, &err) == 0 &&
		    (side = authorize_sender_side(&g, m->from_addr)) != SIDE_NONE) {
			plays++;
			memcpy(played, e->d_name, strlen(e->d_name) + 1);	/* fits: above */
			game_token(&g, side, want);
			if (fair_token_equal(token, want))
				by_token = 1;
		}
		game_close(&g);
		strbuf_release(&err);
		free(dir);
	}
	closedir(d);
	if (!by_token && plays != 1)
		return 0;
	snprintf(out, n, "%s", played);
	return 1;
}

/* The id in the game.yaml of the repository dir (at its head), malloc'd,
 * or NULL when dir is no game. */
static char *folder_game_id(const char *dir)
{
	struct strbuf why = STRBUF_INIT, text = STRBUF_INIT;
	struct repo *r = NULL;
	struct game g;
	char *id = NULL;

	memset(&g, 0, sizeof(g));
	if (repo_open_why(dir, &r, &why) == 0 &&
	    repo_read(r, NULL, "game.yaml", &text) == 0 &&
	    game_parse_yaml(&g, text.buf, text.len, &why) == 0 && g.id)
		id = xstrdup(g.id);
	game_close(&g);
	repo_free(r);
	strbuf_release(&why);
	strbuf_release(&text);
	return id;
}

/*
 * The folder of root that holds game id: root/ID (a host's games, as
 * `new --games` names them), else the one folder whose game.yaml has that
 * id (a player's copies of games without a host, named as he likes).
 * Returns 0 with *dir set (malloc'd); -1 when there is none or more than
 * one (why says so).
 */
static int game_folder(const char *root, const char *id, char **dir,
		       struct strbuf *why)
{
	struct dirent *e;
	char *found = NULL;
	int n = 0;
	DIR *d;

	*dir = xstrfmt("%s/%s", root, id);
	if (access(*dir, F_OK) == 0)
		return 0;
	free(*dir);
	*dir = NULL;
	if ((d = opendir(root))) {
		while ((e = readdir(d))) {
			char *sub, *gid;
			if (e->d_name[0] == '.')
				continue;
			sub = xstrfmt("%s/%s", root, e->d_name);
			gid = folder_game_id(sub);
			if (gid && !strcmp(gid, id) && n++ == 0) {
				found = sub;
				sub = NULL;
			}
			free(gid);
			free(sub);
		}
		closedir(d);
	}
	if (n == 1) {
		*dir = found;
		return 0;
	}
	if (n > 1)
		strbuf_addf(why, "rejected: %d folders of '%s' hold game %s (one is '%s'): keep one; no reply sent",
			    n, root, id, found);
	else
		strbuf_addf(why, "rejected: there is no game %s in '%s' (no folder of that name, none whose game.yaml has that id); no reply sent",
			    id, root);
	free(found);
	return -1;
}

/* No game: the host's mailbox, if there is one. */
static int for_the_host(const struct mail_config *cfg, const char *raw,
			size_t len, struct strbuf *why, int none)
{
	struct strbuf done = STRBUF_INIT, err = STRBUF_INIT;
	const char *reason = strchr(why->buf, ':') ? strchr(why->buf, ':') + 2 : why->buf;
	int r = hostmail_deliver(cfg, raw, len, reason, &done, &err);

	if (r > 0) {
		/* delivered: to the host, not to a game */
		if (!strncmp(why->buf, "rejected: ", 10)) {
			char *rest = xstrdup(why->buf + 10);
			strbuf_reset(why);
			strbuf_addf(why, "ignored: %s", rest);
			free(rest);
		}
		strbuf_addf(why, "; %s", done.buf);
	} else if (r < 0) {
		strbuf_addf(why, "; it could not be handed to the host (%s): try again later",
			    err.buf);
	}
	strbuf_release(&done);
	strbuf_release(&err);
	return r > 0 ? 1 : r < 0 ? -2 : none;
}

int route_message(const char *root, const struct mail_config *cfg,
		  const char *raw, size_t len, char **dir, struct strbuf *why)
{
	struct mail_message m = { 0 };
	struct strbuf err = STRBUF_INIT;
	char id[64];
	int ret = -1;

	*dir = NULL;
	if (mail_parse(raw, len, &m, &err) < 0) {
		strbuf_addf(why, "rejected: the message cannot be read: %s", err.buf);
		ret = for_the_host(cfg, raw, len, why, -1);
	} else if (m.automatic && !peer_mail_is_peer(raw, len)) {
		/* (a mail between two postriders of a game without a host is
		 * automatic too, and is for the game) */
		strbuf_addf(why, "ignored: an automatic message (%s); no reply sent, nothing changed",
			    m.automatic);
		ret = for_the_host(cfg, raw, len, why, 1);
	} else if ((!mail_find_game(&m, id, sizeof(id)) || !mail_valid_game_id(id)) &&
		   !game_by_sender(root, &m, id, sizeof(id))) {
		strbuf_addstr(why, "rejected: the message names no game (no [ww-...] in the subject); no reply sent");
		ret = for_the_host(cfg, raw, len, why, -1);
	} else if (game_folder(root, id, dir, why) < 0) {
		/* a mail between postriders is never dropped: without a
		 * mailbox to take it, the mail system keeps it (75) until the
		 * player mends his set-up */
		bool peer = peer_mail_is_peer(raw, len);
		ret = for_the_host(cfg, raw, len, why, peer ? -2 : -1);
		if (ret == -2 && peer && !cfg->host_mail) {
			char *said = xstrdup(why->buf + (strncmp(why->buf, "rejected: ", 10) ? 0 : 10));
			char *cut = strstr(said, "; no reply sent");
			if (cut)
				*cut = '\0';
			strbuf_reset(why);
			strbuf_addf(why, "error: %s, and no host_mail is set to take the mail (your mailbox): set it, or put the game's copy there; the mail system keeps it until then",
				    said);
			free(said);
		}
	} else {
		ret = 0;
	}
	mail_message_release(&m);
	strbuf_release(&err);
	return ret;
}
