/*
 * authorize.h - whether a parsed mail message may be adjudicated as an
 * order (or a question) of a game, and if not, what postrider does with it.
 * The one place that decides, in this order:
 *
 *   1. a message sent by a machine (an auto-reply, a bounce, list mail;
 *      mail_message.automatic, RFC 3834) is dropped: no answer at all;
 *   2. a sender who is not a player of the game gets no answer either:
 *      he learns nothing about the game (in a peer copy only its own
 *      player is one: the opponent gives his orders to his own copy);
 *   3. a player's message is refused, with the reason mailed back to him,
 *      if it names another game, if the game is over, if it carries no
 *      token, or if its token is not the one valid now for his side;
 *   4. otherwise it is authorized for that side.
 *
 * Pure: reads the game (its players, id, state and seed) and the message;
 * no I/O.
 *
 * Ownership: nothing is allocated; why is the caller's and gains one line
 * (no newline) for every verdict but AUTHORIZE_OK.
 */
#ifndef POSTRIDER_AUTHORIZE_H
#define POSTRIDER_AUTHORIZE_H

#include "game.h"
#include "mail.h"

enum authorize_verdict {
	AUTHORIZE_OK,		/* a player's mail for this game and turn */
	AUTHORIZE_IGNORE,	/* sent by a machine: log it, answer nothing */
	AUTHORIZE_STRANGER,	/* not from a player: answer nothing */
	AUTHORIZE_REFUSE,	/* from a player (*side): answer with why */
};

/*
 * Decides for message m and game g. *side is set to the sender's side for
 * AUTHORIZE_OK and AUTHORIZE_REFUSE, else to SIDE_NONE. With
 * allow_game_over, a message for a finished game is not refused for that
 * reason (the questions of query.h are still answered then).
 */
enum authorize_verdict authorize_mail(const struct game *g,
				      const struct mail_message *m,
				      bool allow_game_over, enum side *side,
				      struct strbuf *why);

/* Which side the address addr plays in g (ASCII case ignored), or
 * SIDE_NONE; in a peer copy, only its own side (g->own). */
enum side authorize_sender_side(const struct game *g, const char *addr);

#endif
