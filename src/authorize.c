/*
 * authorize.c - who may give an order by mail (authorize.h).
 */
#include <string.h>

#include "authorize.h"
#include "engine/engine.h"

enum side authorize_sender_side(const struct game *g, const char *addr)
{
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		if (addr && g->player[side].addr && (!g->peer || side == g->own) &&
		    !ascii_strcasecmp(addr, g->player[side].addr))
			return side;
	return SIDE_NONE;
}

enum authorize_verdict authorize_mail(const struct game *g,
				      const struct mail_message *m,
				      bool allow_game_over, enum side *side,
				      struct strbuf *why)
{
	char token[MAIL_TOKEN_SIZE], want[FAIR_TOKEN_SIZE], game_id[64];

	*side = SIDE_NONE;
	if (m->automatic) {
		/* RFC 3834: never answer a machine, or two of them answer
		 * each other for ever */
		strbuf_addf(why, "an automatic message (%s)", m->automatic);
		return AUTHORIZE_IGNORE;
	}
	*side = authorize_sender_side(g, m->from_addr);
	if (*side == SIDE_NONE && g->peer) {
		/* the opponent too: he writes to his own postrider */
		strbuf_addf(why, "'%s' is not this copy's player (%s): only his own orders are read here",
			    m->from_addr ? m->from_addr : "(no sender)",
			    g->player[g->own].addr ? g->player[g->own].addr : "none");
		return AUTHORIZE_STRANGER;
	}
	if (*side == SIDE_NONE) {
		strbuf_addf(why, "'%s' is not a player of game %s",
			    m->from_addr ? m->from_addr : "(no sender)", g->id);
		return AUTHORIZE_STRANGER;
	}
	if (mail_find_game(m, game_id, sizeof(game_id)) && strcmp(game_id, g->id)) {
		strbuf_addf(why, "this message is about game %s, not %s", game_id, g->id);
		return AUTHORIZE_REFUSE;
	}
	if (!allow_game_over && engine_game_over(&g->state)) {
		strbuf_addstr(why, "the game is over");
		return AUTHORIZE_REFUSE;
	}
	if (!mail_find_token(m, token)) {
		strbuf_addstr(why, "the message carries no order token: reply to the last report and keep its subject line");
		return AUTHORIZE_REFUSE;
	}
	game_token(g, *side, want);
	if (!fair_token_equal(token, want)) {
		strbuf_addstr(why, "the token in this message is not valid for this turn: the order is stale, replayed or mistyped (the last report carries the valid one)");
		return AUTHORIZE_REFUSE;
	}
	return AUTHORIZE_OK;
}
