/*
 * notify.h - the mail a turn sends: a report to each player (with that
 * player's hand, token and the commit as a patch), staged in the outbox
 * before the commit is published and released after it; and the reply to
 * a rejected order. The same for both modes: the mail of a peer copy
 * (g->peer) goes to its own player only, from his own postrider.
 *
 * Ownership: struct notify owns its strings; notify_release() frees them.
 */
#ifndef POSTRIDER_NOTIFY_H
#define POSTRIDER_NOTIFY_H

#include "config.h"
#include "game.h"
#include "map.h"

struct notify {
	char *outbox;		/* the outbox folder */
	int n_staged;
	char *staged[4];	/* files staged in outbox/tmp/ */
	/* the References of the message a reply answers (borrowed, or
	 * NULL): a rejection, an answer or a notice that answers a message
	 * names them before it in its own References */
	const char *thread;
	/* the turn's map, public, drawn once for both reports */
	bool map_started;
	struct map_picture map;
	struct map_png_job png;
};

/* Chooses the outbox: cfg->outbox, else <gitdir>/postrider/outbox. */
void notify_init(struct notify *n, const struct game *g,
		 const struct mail_config *cfg);
void notify_release(struct notify *n);

/*
 * Draws the map of state s after the turn (log: the whole log after it,
 * whose last order the map marks) and starts painting its PNG in a thread,
 * so that the commit can be written meanwhile. notify_turn() waits for it
 * (and draws it itself if this was not called).
 */
void notify_map_start(struct notify *n, const struct game *g,
		      const struct state *s, const char *log);

/*
 * Stages one report per player for state s (committed as `commit`, whose
 * patch text is given) into the outbox's tmp/. log is the whole log after
 * the turn: each player's report tells what happened since his own last
 * order, with the draw lines in a footer. The map (PNG, inline) goes with
 * a report that asks its player for a decision, the first and the last
 * report, and any report after a turn that changed the board (the
 * game's state before this turn is g->state); the others say the board
 * is as the last map showed it. Returns 0, or -1 with the reason in err
 * (nothing staged remains).
 */
int notify_turn(struct notify *n, const struct game *g, const struct state *s,
		const char *commit, const char *patch, const char *log,
		struct strbuf *err);
/*
 * The map of s drawn as after the state before (NULL: a new game), as
 * notify_map_start() does with the game's state.
 */
void notify_map_from(struct notify *n, const struct game *g,
		     const struct state *before, const struct state *s,
		     const char *log);
/*
 * One report, the same as notify_turn() writes: to the player of side,
 * for state s (his view: a peer copy's own hand opened) at commit (its
 * patch given), with the story since his last order in log; the map
 * attached when he decides, at the end, or when the board changed since
 * before (NULL: always); his new cards marked against hand_before (NULL:
 * none marked). Staged in tmp/ as notify_turn() stages; 0, or -1 with
 * err (nothing staged).
 */
int notify_report(struct notify *n, const struct game *g, const struct state *before,
		  const struct state *hand_before, const struct state *s, enum side side, const char *commit,
		  const char *patch, const char *log, struct strbuf *err);
/*
 * Stages one message (len bytes) in the outbox's tmp/ under name hint,
 * to go out with notify_publish() or be deleted by notify_discard()
 * (at most four staged at once). A hint that starts with the commit's
 * id lets notify_recover() finish after a crash. 0, or -1 with err.
 */
int notify_stage(struct notify *n, const char *hint, const char *msg, size_t len,
		 struct strbuf *err);
/* Moves the staged messages into new/ (after the commit is published). */
int notify_publish(struct notify *n);
/* Deletes the staged messages (the commit was not published). */
void notify_discard(struct notify *n);

/*
 * Writes the answer to a question mailed instead of an order (query.h)
 * to the outbox: to the player of side only. Returns 0 or -1.
 */
int notify_answer(struct notify *n, const struct game *g, enum side side,
		  const char *question, const char *answer,
		  const char *in_reply_to);

/*
 * Writes a notice from the host to the player of side: a reminder, a
 * deadline passed, a vacation, an undo, a new deadline. title is the
 * subject after "[game id]" (the side's current token is added while the
 * game runs), text the paragraph(s) of news; the report's clock lines
 * follow. kind names it in its Message-ID and outbox file ("remind").
 * in_reply_to may be NULL. Returns 0 or -1.
 */
int notify_notice(struct notify *n, const struct game *g, enum side side,
		  const char *kind, const char *title, const char *text,
		  const char *in_reply_to);

/* The same with the whole subject given, the side's token added to it
 * (a peer copy's notices to its player: the join, a refused mail, who is
 * late; a reply to one is an order, as to a report). */
int notify_notice_subject(struct notify *n, const struct game *g, enum side side,
			  const char *kind, const char *subject, const char *text);

/*
 * The same without the side's token or clock: for an address that is no
 * longer the player's (`postrider player`), which may give no order.
 */
int notify_notice_plain(struct notify *n, const struct game *g, enum side side,
			const char *kind, const char *title, const char *text);

/*
 * Writes the reply to a rejected order to the outbox: to the player of
 * side, with reason. in_reply_to may be NULL. Returns 0 or -1.
 */
int notify_reject(struct notify *n, const struct game *g, enum side side,
		  const char *reason, const char *in_reply_to);

/*
 * Recovers from a run that died between staging and publishing: messages
 * of a commit that is in the history are published, others deleted. Then
 * (host mode: a peer history is never rewritten) sets aside
 * (DIR/dropped/) every unsent report whose commit has left the history,
 * so that a turn undone by hand is never mailed.
 */
int notify_recover(struct notify *n, struct game *g);

/*
 * Deletes from the outbox's cur/ the sent mail kept long enough
 * (outbox_prune(): two weeks, and at least the last 20 messages, by the
 * clock of game_now()); what cannot be deleted is a warning, never an
 * error. notify_send() and `postrider send` call it after sending.
 */
void notify_prune(struct notify *n);

/*
 * Hands every message waiting in the outbox to the transport of cfg
 * (outbox_send()), and says on stderr what could not go: a line per
 * message not sent, and where it waits. With transport: outbox nothing is
 * sent and nothing said (the host sends). Returns the number of messages
 * that should have gone and did not (0 with transport: outbox).
 */
int notify_send(struct notify *n, const struct mail_config *cfg);

#endif
