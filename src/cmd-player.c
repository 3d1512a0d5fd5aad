/*
 * cmd-player.c - `postrider player DIR SIDE "Name <addr>"`: the host
 * replaces a player's (or his own) name and address, for a player who
 * moved to another mailbox. A commit of its own that changes only the
 * players in game.yaml and appends a line to the log, which the audit
 * accepts as an address change (docs/fairness.md, section 14); both
 * players are mailed the report, the changed one at the new address, and
 * the old address is told (a typo would cut the player off silently).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authorize.h"
#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "notify.h"
#include "publish.h"
#include "turn.h"

/*
 * The old address hears of the change too: a mistyped new address would
 * otherwise cut the player off without a word. The notice goes to the
 * address the game had (old), while the game itself already has the new.
 */
static void tell_old_address(struct notify *n, struct game *g, enum side side,
			     const struct game_player *old)
{
	struct game_player now = g->player[side];
	struct strbuf text = STRBUF_INIT;

	strbuf_addf(&text, "The host has given the %s of game %s a new address: %s <%s>.\n"
		    "From now on orders are taken from that address only, and this\n"
		    "address (%s) gets no more mail of this game.\n"
		    "If this is a mistake, tell the host at once.\n",
		    side_title(side), g->id, now.name, now.addr, old->addr);
	g->player[side] = (struct game_player){ old->name, old->addr, now.mail };
	if (notify_notice_plain(n, g, side, "address", "your address in this game has changed",
				text.buf) < 0)
		warning("the notice to the old address %s could not be written", old->addr);
	g->player[side] = now;
	strbuf_release(&text);
}

static int exec_player(int argc, char **argv)
{
	struct game g;
	struct game_player now = { 0 }, old = { 0 };
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT, yaml = STRBUF_INIT, happened = STRBUF_INIT;
	struct strbuf subject = STRBUF_INIT;
	const char *who_name;
	char commit[41];
	int who, r, ret = EXIT_REJECTED;

	memset(&g, 0, sizeof(g));
	if (argc != 4 || argv[1][0] == '-')
		return cmd_usage(&cmd_player_entry);
	who = !strcmp(argv[2], "host") ? 0 : side_parse(argv[2]);
	if (who < 0) {
		error("the side is american, british or host, not '%s'", argv[2]);
		return EXIT_USAGE;
	}
	if (game_player_parse(argv[3], &now) < 0) {
		error("'%s' is not a mail address (\"Name <addr@example.org>\")", argv[3]);
		return EXIT_USAGE;
	}
	if (config_load(NULL, &cfg, &err) < 0) {
		error("the configuration is wrong; fix it:\n%s", err.buf);
		ret = EXIT_CONFIG;
		goto out;
	}
	r = game_open(argv[1], &g, GAME_NEED_SECRET | GAME_LOCK, &err);
	if (r != 0) {
		error("%s", err.buf);
		ret = r == GAME_BUSY ? EXIT_TEMPFAIL : EXIT_CONFIG;
		goto out;
	}
	who_name = who ? side_title((enum side)who) : "host";
	if (g.revealed) {
		error("the seed of %s is public: the game is closed", g.id);
		goto out;
	}
	if (who && authorize_sender_side(&g, now.addr) == (who == SIDE_AMERICAN ? SIDE_BRITISH : SIDE_AMERICAN)) {
		error("%s is the other player's address; a player is known by his address",
		      now.addr);
		goto out;
	}
	if (!strcmp(g.player[who].addr, now.addr) && !strcmp(g.player[who].name, now.name)) {
		error("the %s is already %s <%s>; nothing to change",
		      who_name, now.name, now.addr);
		goto out;
	}
	game_address_change_line(&g, who, now.name, now.addr, &happened);
	strbuf_addf(&subject, "New address of the %s in game %s", who_name, g.id);
	old = g.player[who];
	g.player[who] = (struct game_player){ now.name, now.addr, old.mail };
	now.name = now.addr = NULL;
	game_write_yaml(&g, &yaml);
	notify_init(&n, &g, &cfg);
	r = turn_commit_host(&g, &yaml, happened.buf, subject.buf, &n, commit, &err);
	if (r != 0) {
		error("%s (nothing was changed)", err.buf);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	printf("the %s of %s is now %s <%s> (commit %.12s)\n", who_name, g.id,
	       g.player[who].name, g.player[who].addr, commit);
	if (who)
		tell_old_address(&n, &g, (enum side)who, &old);
	ret = notify_send(&n, &cfg) > 0 ? EXIT_UNSENT : 0;
	publish_after_commit(g.repo, &cfg);
out:
	free(now.name);
	free(now.addr);
	free(old.name);
	free(old.addr);
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	strbuf_release(&err);
	strbuf_release(&yaml);
	strbuf_release(&happened);
	strbuf_release(&subject);
	return ret;
}

const struct cmd_entry cmd_player_entry = {
	"player", "player DIR american|british|host \"Name <addr>\"",
	"give a player (or the host) a new name and address",
	"A commit that changes only the players in game.yaml (the audit knows\n"
	"it); both players get a report, the changed one at the new address,\n"
	"and the old address a notice of the change.\n"
	"Orders are taken from the new address only.\n",
	exec_player,
};
