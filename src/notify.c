/*
 * notify.c - composing the mail of a turn and moving it through the
 * outbox around the commit (stage, publish the commit, publish the mail).
 */
#include "notify.h"
#include "dkim-audit.h"
#include "transport.h"
#include "mail.h"
#include "outbox.h"
#include "map.h"
#include "report.h"
#include "trace.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/sha.h>

void notify_init(struct notify *n, const struct game *g,
		 const struct mail_config *cfg)
{
	struct strbuf p = STRBUF_INIT;

	memset(n, 0, sizeof(*n));
	if (cfg && cfg->outbox) {
		n->outbox = xstrdup(cfg->outbox);
		return;
	}
	if (repo_private_path(g->repo, "outbox", &p) < 0)
		BUG("no private path for the outbox");
	n->outbox = strbuf_detach(&p, NULL);
}

void notify_release(struct notify *n)
{
	if (!n)
		return;
	if (n->map_started) {
		map_png_release(&n->png);	/* waits for the painter first */
		map_release(&n->map);
	}
	free(n->outbox);
	for (int i = 0; i < n->n_staged; i++)
		free(n->staged[i]);
	memset(n, 0, sizeof(*n));
}

/* Who writes the players' mail: the host, or in a peer copy its own
 * player's postrider, writing as him (docs/peer.md 8.4). */
static const struct game_player *host_of(const struct game *g)
{
	return g->peer ? &g->player[g->own] : &g->player[0];
}

static const char *host_domain(const struct game *g)
{
	const char *addr = host_of(g)->addr, *at = addr ? strrchr(addr, '@') : NULL;
	return at ? at + 1 : "localhost";
}

/* "Name" <addr>: the name quoted, so any name (even an address) parses. */
static char *mailbox(const char *name, const char *addr_fmt, ...)
	PRINTF_LIKE(2, 3);
static char *mailbox(const char *name, const char *addr_fmt, ...)
{
	struct strbuf out = STRBUF_INIT;
	va_list ap;

	strbuf_addch(&out, '"');
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(&out, '\\');
		strbuf_addch(&out, *p);
	}
	strbuf_addstr(&out, "\" <");
	va_start(ap, addr_fmt);
	strbuf_vaddf(&out, addr_fmt, ap);
	va_end(ap);
	strbuf_addch(&out, '>');
	return strbuf_detach(&out, NULL);
}

static char *address(const struct game_player *p)
{
	return mailbox(p->name, "%s", p->addr);
}

static char *message_id(const struct game *g, uint32_t seq, enum side side)
{
	return xstrfmt("<postrider.%s.%u.%s@%s>", g->id, seq, side_name(side),
		       host_domain(g));
}

/* The Reply-To address carrying the token: host+TOKEN@domain; none in
 * a peer copy, whose player replies to himself (the token is in the
 * subject). */
static char *reply_address(const struct game *g, const char *token)
{
	const char *at;

	if (g->peer)
		return NULL;
	at = strrchr(g->player[0].addr, '@');
	return mailbox(g->player[0].name, "%.*s+%s@%s",
		       (int)(at - g->player[0].addr), g->player[0].addr, token,
		       at + 1);
}

/*
 * Where the story of a report to `side` begins in the whole log: after the
 * block of that side's last order before `seq` (its header is
 * "-- YEAR, order N (Side) --"), so the report tells everything since the
 * player last decided, both sides' orders; the whole log if he has not.
 */
static const char *since_last_order(const char *log, uint32_t seq, enum side side)
{
	const char *start = log, *p = log;

	while ((p = strstr(p, "\n-- "))) {
		int year;
		unsigned n;
		char who[16];
		p++;
		if (sscanf(p, "-- %d, order %u (%15[^)]) --", &year, &n, who) == 3 &&
		    n < seq && !strcmp(who, side_title(side))) {
			const char *next = strstr(p, "\n-- ");
			start = next ? next + 1 : p + strlen(p);
		}
	}
	return start;
}

/* The story for people, and the draw lines (for the audit) apart. */
static void split_story(const char *story, struct strbuf *text, struct strbuf *draws)
{
	while (*story == '\n')	/* no blank line to open the story with */
		story++;
	for (const char *p = story; *p; ) {
		size_t n = strcspn(p, "\n");
		const char *b = p;
		while (*b == ' ' || *b == '\t')
			b++;
		bool bookkeeping = !strncmp(b, "draw ", 5) || !strncmp(b, "draws ", 6) ||
				   !strncmp(b, "words mixed: ", 13);
		strbuf_add(bookkeeping ? draws : text, p, n);
		strbuf_addch(bookkeeping ? draws : text, '\n');
		p += n + (p[n] == '\n');
	}
}

static int compose_report(const struct game *g, const struct state *before,
			  const struct state *s, enum side side, const char *commit,
			  const char *patch, const char *log,
			  const struct strbuf *png, bool map_unchanged,
			  struct strbuf *msg, struct strbuf *err)
{
	struct strbuf story = STRBUF_INIT, draws = STRBUF_INIT;
	const struct data *d = g->data;
	struct strbuf board = STRBUF_INIT, hand = STRBUF_INIT, prompt = STRBUF_INIT;
	struct strbuf options = STRBUF_INIT, body = STRBUF_INIT, subject = STRBUF_INIT;
	struct strbuf numbers = STRBUF_INIT, clock = STRBUF_INIT, held = STRBUF_INIT;
	struct strbuf standing = STRBUF_INIT, data_line = STRBUF_INIT, named = STRBUF_INIT;
	struct strbuf provenance = STRBUF_INIT;
	char token[FAIR_TOKEN_SIZE] = "", salt[FAIR_SALT_HEX], hash[FAIR_HASH_HEX];
	char date[40], patch_name[64];
	bool mine = !engine_game_over(s) && s->prompt.side == side;
	bool over = engine_game_over(s);
	char *from = address(host_of(g)), *to = address(&g->player[side]);
	char *mid = message_id(g, s->seq, side);
	char *irt = s->seq ? message_id(g, s->seq - 1, side) : NULL;
	char *first = message_id(g, 0, side), *refs = NULL, *reply_to = NULL;
	int ret;

	/* the data set the game is played with (issue 32) */
	strbuf_addf(&data_line, "%s (hash %.12s)", g->data_name ? g->data_name : g->module,
		    g->data_hash);
	report_board(d, s, &board);
	/* new cards are marked against the state before this turn (the
	 * state of the last report; none before the first commit) */
	report_hand_since(d, s, before, side, &hand);
	engine_describe_prompt(d, s, &prompt);
	report_numbers(d, s, side, &numbers);
	if (!over && !g->peer)	/* a peer game has no clock of its own (peer.md 11) */
		clock_describe(&g->clock, s->prompt.side, game_now(), &clock);
	/* Both players get their token: the one not to move may still send
	 * standing reactions, and after the end questions need it too. */
	game_token_for(g, s, side, token);
	reply_to = reply_address(g, token);
	if (mine)
		report_options_grouped(d, s, &options);
	if (g->peer)	/* the hand is committed to by its slots (peer.md 6.2) */
		salt[0] = '\0';
	else
		game_hand_salt(g, s, side, salt, hash);
	split_story(since_last_order(log ? log : "", s->seq, side), &story, &draws);
	if (!g->peer)	/* the opponent's orders no signature proves */
		dkim_story(g->repo, commit, side, &provenance);
	report_cards_named(d, s, side, story.buf, &named);
	for (const char *p = s->held[side]; *p;) {
		/* this side's held-over lines: his alone */
		size_t n = strcspn(p, "\n");
		strbuf_addf(&held, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	for (const char *p = s->standing[side]; *p;) {
		/* and his standing orders */
		size_t n = strcspn(p, "\n");
		strbuf_addf(&standing, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	{
		const char *vars[] = {
			"game", g->id, "american", g->player[SIDE_AMERICAN].name,
			"british", g->player[SIDE_BRITISH].name,
			"happened", story.buf ? story.buf : "",
			"provenance", provenance.buf,
			"named", named.buf ? named.buf : "",
			"draws", draws.buf ? draws.buf : "",
			"prompt", prompt.buf ? prompt.buf : "",
			"numbers", numbers.buf ? numbers.buf : "",
			"clock", clock.buf ? clock.buf : "",
			"your_move", mine ? "yes" : "",
			"their_move", !mine && !engine_game_over(s) ? "yes" : "",
			"over", over ? "yes" : "",
			"token", token, "options", options.buf ? options.buf : "",
			"hand", s->n_hand[side] ? hand.buf : "", "salt", salt,
			"words", !g->peer && !over && s->draws == 0 && !s->has_words[side] ? "yes" : "",
			"host", g->peer ? "" : "yes", "peer", g->peer ? "yes" : "",
			"board", g->player[side].mail == MAIL_DIGEST ? "" : board.buf,
			"digest", g->player[side].mail == MAIL_DIGEST ? "yes" : "",
			"commit", commit ? commit : "",
			"held", held.buf ? held.buf : "",
			"standing", standing.buf ? standing.buf : "",
			"held_note", s->held_note[side],
			"provable", game_proves(g) && draws.buf && strstr(draws.buf, "draw ") ? "yes" : "",
			"data", data_line.buf,
			"data_note", s->seq == 0 && !data_deck_printed(d) ? "yes" : "",
			"marks", strstr(hand.buf, DATA_UNSOURCED_MARK) ||
				 strstr(board.buf, DATA_UNSOURCED_MARK) ? DATA_UNSOURCED_NOTE : "",
			"map_unchanged", map_unchanged ? "yes" : "",
			"version", POSTRIDER_VERSION, NULL
		};
		ret = report_render("turn.txt", vars, &body, err);
	}
	if (ret < 0)
		goto out;
	if (engine_game_over(s) && s->winner == SIDE_NONE)
		strbuf_addf(&subject, "[%s] %d: game over, nobody wins (token %s)", g->id,
			    s->year, token);
	else if (engine_game_over(s))
		strbuf_addf(&subject, "[%s] %d: game over, the %s wins (token %s)", g->id,
			    s->year, side_title(s->winner), token);
	else if (mine)
		strbuf_addf(&subject, "[%s] %d: your move, %s (token %s)", g->id,
			    s->year, side_title(side), token);
	else
		strbuf_addf(&subject, "[%s] %d: %s to move (token %s)", g->id,
			    s->year, side_title(s->prompt.side), token);
	/* the thread's root, then the parent (the same message at order 1) */
	if (irt)
		refs = strcmp(first, irt) ? xstrfmt("%s %s", first, irt) : xstrdup(irt);
	mail_format_date(game_now(), 0, date);
	snprintf(patch_name, sizeof(patch_name), "%04u-%s.patch", s->seq,
		 side_name(side));
	{
		struct mail_out m = {
			.from = from, .to = to, .subject = subject.buf,
			.message_id = mid, .in_reply_to = irt,
			.references = irt ? refs : NULL, .date = date,
			.game_id = g->id, .commit = commit, .reply_to = reply_to,
			.text = body.buf,
			.patch = patch, .patch_name = patch ? patch_name : NULL,
			.png = png && png->len ? png->buf : NULL,
			.png_len = png ? png->len : 0,
		};
		ret = mail_compose(&m, msg, err);
	}
out:
	strbuf_release(&story);
	strbuf_release(&draws);
	free(from);
	free(to);
	free(mid);
	free(irt);
	free(first);
	free(refs);
	free(reply_to);
	strbuf_release(&board);
	strbuf_release(&data_line);
	strbuf_release(&hand);
	strbuf_release(&prompt);
	strbuf_release(&options);
	strbuf_release(&numbers);
	strbuf_release(&clock);
	strbuf_release(&held);
	strbuf_release(&standing);
	strbuf_release(&named);
	strbuf_release(&provenance);
	strbuf_release(&body);
	strbuf_release(&subject);
	return ret;
}

void notify_map_start(struct notify *n, const struct game *g,
		      const struct state *s, const char *log)
{
	notify_map_from(n, g, g->head[0] ? &g->state : NULL, s, log);
}

void notify_map_from(struct notify *n, const struct game *g,
		     const struct state *before, const struct state *s,
		     const char *log)
{
	/* the last order drawn: the state before it is the game's */
	struct map_last last;

	if (n->map_started)
		BUG("the turn's map is drawn twice");
	report_last_order(g->data, before, s, log, &last);
	map_draw(g->data, s, &last, &n->map);
	map_png_start(&n->png, &n->map, MAP_PNG_SCALE);
	n->map_started = true;
}

/* The PNG of the map started, waited for: NULL when it could not be
 * painted (the text and the SVG carry the game: mail goes out without). */
static const struct strbuf *turn_png(struct notify *n)
{
	trace_perf("waiting for the PNG");
	if (map_png_wait(&n->png) < 0) {
		warning("no PNG of the map: %s", n->png.err.buf);
		return NULL;
	}
	return &n->png.png;
}

/* Composes the report of side and stages it in the outbox's tmp/. */
static int stage_report(struct notify *n, const struct game *g, const struct state *before,
			const struct state *hand_before, const struct state *s, enum side side, const char *commit,
			const char *patch, const char *log, const struct strbuf *png,
			struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	char hint[128];
	bool asked = !engine_game_over(s) && s->prompt.side == side;
	/* the map when he must decide, at the start and at the end, or
	 * when the turn changed the board his last report showed (in
	 * my-move and digest modes every report asks or ends) */
	bool map = asked || !before || engine_game_over(s) || !map_board_same(g->data, before, s);
	int ret = -1;

	if (compose_report(g, hand_before, s, side, commit, patch, log, map ? png : NULL,
			   !map, &msg, err) < 0)
		goto out;
	/* a peer copy's report is named apart from the mails of its commits */
	snprintf(hint, sizeof(hint), "%s-%s%04u-%s", commit ? commit : "new",
		 g->peer ? "report-" : "", s->seq, side_name(side));
	ret = notify_stage(n, hint, msg.buf, msg.len, err);
out:
	strbuf_release(&msg);
	return ret;
}

int notify_report(struct notify *n, const struct game *g, const struct state *before,
		  const struct state *hand_before, const struct state *s, enum side side,
		  const char *commit, const char *patch, const char *log, struct strbuf *err)
{
	if (!n->map_started)
		notify_map_from(n, g, before, s, log);
	if (stage_report(n, g, before, hand_before, s, side, commit, patch, log, turn_png(n), err) < 0) {
		notify_discard(n);
		return -1;
	}
	return 0;
}

int notify_turn(struct notify *n, const struct game *g, const struct state *s,
		const char *commit, const char *patch, const char *log,
		struct strbuf *err)
{
	const struct state *before = g->head[0] ? &g->state : NULL;
	const struct strbuf *png;

	if (!n->map_started)
		notify_map_start(n, g, s, log);
	png = turn_png(n);
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		bool asked = !engine_game_over(s) && s->prompt.side == side;

		/* my-move and digest: only when he must decide, or at the end
		 * (and the new game's greeting); his story then covers all
		 * since his last decision */
		if (g->player[side].mail != MAIL_EVERY && g->head[0] &&
		    !engine_game_over(s) && !asked)
			continue;
		/* ... and once for one decision: an order of the opponent that
		 * decided nothing (a standing reaction, table talk) while he
		 * decides leaves his last report and its token good; his next
		 * report tells it (issue 29) */
		if (g->player[side].mail != MAIL_EVERY && g->head[0] && asked &&
		    !engine_game_over(&g->state) && g->state.prompt.side == side &&
		    engine_decided_nothing(&g->state, s, OTHER_SIDE(side)))
			continue;
		/* new cards are marked against the state before this turn
		 * (the state of the last report; none before the first
		 * commit) */
		if (stage_report(n, g, before, g->have_private ? before : NULL, s, side, commit,
				 patch, log, png, err) < 0) {
			notify_discard(n);
			return -1;
		}
	}
	return 0;
}

int notify_stage(struct notify *n, const char *hint, const char *msg, size_t len,
		 struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;

	if (n->n_staged >= (int)ARRAY_SIZE(n->staged))
		BUG("more than %d mails staged for one commit", (int)ARRAY_SIZE(n->staged));
	if (outbox_stage(n->outbox, hint, msg, len, &path) < 0) {
		strbuf_addf(err, "cannot write to the outbox '%s'", n->outbox);
		strbuf_release(&path);
		return -1;
	}
	n->staged[n->n_staged++] = strbuf_detach(&path, NULL);
	return 0;
}

int notify_publish(struct notify *n)
{
	int ret = n->n_staged ? outbox_publish_all(n->outbox, n->staged, n->n_staged) : 0;

	for (int i = 0; i < n->n_staged; i++)
		free(n->staged[i]);
	n->n_staged = 0;
	return ret;
}

void notify_discard(struct notify *n)
{
	for (int i = 0; i < n->n_staged; i++) {
		unlink(n->staged[i]);
		free(n->staged[i]);
	}
	n->n_staged = 0;
}

/*
 * The References of a reply to in_reply_to whose own References were
 * thread (may be NULL): thread's ids, then in_reply_to; past 800
 * characters the first id (the thread's root) and the last ones.
 */
static void thread_references(const char *thread, const char *in_reply_to,
			      struct strbuf *out)
{
	size_t room = 800, first;

	while (thread && (*thread == ' ' || *thread == '\t'))
		thread++;
	if (!thread || !*thread || strchr(thread, '\n')) {
		strbuf_addstr(out, in_reply_to);
		return;
	}
	first = strcspn(thread, " \t");
	if (strlen(thread) <= room) {
		strbuf_addf(out, "%s %s", thread, in_reply_to);
		return;
	}
	/* the root, then the ids of the tail that fit */
	strbuf_add(out, thread, first);
	{
		const char *tail = thread + strlen(thread) - (room - first);
		tail += strcspn(tail, " \t");
		while (*tail == ' ' || *tail == '\t')
			tail++;
		if (*tail)
			strbuf_addf(out, " %s", tail);
	}
	strbuf_addf(out, " %s", in_reply_to);
}

/*
 * Writes a private mail to the player of side, answering in_reply_to
 * (may be NULL): subject and the text of template `tmpl` with vars. kind
 * names it in its Message-ID and outbox file ("rejected", "answer").
 */
static int private_reply(struct notify *n, const struct game *g, enum side side,
			 const char *kind, const char *subject, const char *tmpl,
			 const char *const *vars, const char *in_reply_to)
{
	struct strbuf body = STRBUF_INIT, msg = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf refs = STRBUF_INIT;
	char date[40], hint[96];
	char *from = address(host_of(g)), *to = address(&g->player[side]);
	/* Unique per message answered, yet reproducible: the time, and a hash
	 * of the message answered and of the text. */
	unsigned char digest[32];
	char hex[65];
	struct strbuf seed = STRBUF_INIT;
	int ret = report_render(tmpl, vars, &body, &err);

	strbuf_addf(&seed, "%s\n%s", in_reply_to ? in_reply_to : "", body.buf ? body.buf : "");
	SHA256((const unsigned char *)seed.buf, seed.len, digest);
	hex_encode(digest, 6, hex);
	strbuf_release(&seed);
	char *mid = xstrfmt("<postrider.%s.%u.%s.%s.%lld.%s@%s>", g->id,
			    g->state.seq, side_name(side), kind, game_now(), hex,
			    host_domain(g));
	if (in_reply_to)
		thread_references(n->thread, in_reply_to, &refs);
	if (!ret) {
		mail_format_date(game_now(), 0, date);
		struct mail_out m = {
			.from = from, .to = to, .subject = subject,
			.message_id = mid, .in_reply_to = in_reply_to,
			.references = in_reply_to ? refs.buf : NULL, .date = date,
			.game_id = g->id, .text = body.buf,
		};
		ret = mail_compose(&m, &msg, &err);
	}
	if (!ret) {
		/* a peer copy's outbox holds the mails of its commits too */
		if (g->peer)
			snprintf(hint, sizeof(hint), "%s-%s-%04u-%s", g->id, kind, g->state.seq,
				 side_name(side));
		else
			snprintf(hint, sizeof(hint), "%s-%04u-%s", kind, g->state.seq,
				 side_name(side));
		ret = outbox_add(n->outbox, hint, msg.buf, msg.len, NULL);
	} else {
		error("cannot compose the %s mail: %s", kind, err.buf);
	}
	free(from);
	free(to);
	free(mid);
	strbuf_release(&refs);
	strbuf_release(&body);
	strbuf_release(&msg);
	strbuf_release(&err);
	return ret;
}

static int notice(struct notify *n, const struct game *g, enum side side,
		  const char *kind, const char *title, const char *text_subject,
		  const char *text, const char *in_reply_to, bool for_player)
{
	struct strbuf subject = STRBUF_INIT, clock = STRBUF_INIT;
	char token[FAIR_TOKEN_SIZE] = "";
	bool over = engine_game_over(&g->state);
	int ret;

	if (for_player)
		game_token(g, side, token);
	if (!over && for_player && !g->peer)
		clock_describe(&g->clock, g->state.prompt.side, game_now(), &clock);
	if (!title)	/* a whole subject, written by the caller */
		strbuf_addf(&subject, "%s%s%s%s", text_subject, *token ? " (token " : "", token,
			    *token ? ")" : "");
	else if (*token)
		strbuf_addf(&subject, "[%s] %s (token %s)", g->id, title, token);
	else
		strbuf_addf(&subject, "[%s] %s", g->id, title);
	{
		const char *vars[] = {
			"game", g->id, "american", g->player[SIDE_AMERICAN].name,
			"british", g->player[SIDE_BRITISH].name, "text", text,
			"clock", clock.buf ? clock.buf : "", "token", token,
			"version", POSTRIDER_VERSION, NULL
		};
		ret = private_reply(n, g, side, kind, subject.buf, "notice.txt",
				    vars, in_reply_to);
	}
	strbuf_release(&subject);
	strbuf_release(&clock);
	return ret;
}

int notify_notice(struct notify *n, const struct game *g, enum side side,
		  const char *kind, const char *title, const char *text,
		  const char *in_reply_to)
{
	return notice(n, g, side, kind, title, NULL, text, in_reply_to, true);
}

int notify_notice_plain(struct notify *n, const struct game *g, enum side side,
			const char *kind, const char *title, const char *text)
{
	return notice(n, g, side, kind, title, NULL, text, NULL, false);
}

int notify_notice_subject(struct notify *n, const struct game *g, enum side side,
			  const char *kind, const char *subject, const char *text)
{
	return notice(n, g, side, kind, NULL, subject, text, NULL, true);
}

int notify_reject(struct notify *n, const struct game *g, enum side side,
		  const char *reason, const char *in_reply_to)
{
	struct strbuf subject = STRBUF_INIT;
	char token[FAIR_TOKEN_SIZE] = "";
	int ret;

	/* a refused order's reason lists what was legal where it failed
	 * (order.h); other refusals need no list */
	if (!engine_game_over(&g->state))
		game_token(g, side, token);
	/* the token stays valid: the corrected order may answer this */
	if (*token)
		strbuf_addf(&subject, "[%s] order not accepted (token %s)", g->id, token);
	else
		strbuf_addf(&subject, "[%s] order not accepted", g->id);
	{
		const char *vars[] = {
			"game", g->id, "reason", reason,
			"version", POSTRIDER_VERSION, NULL
		};
		ret = private_reply(n, g, side, "rejected", subject.buf,
				    "rejected.txt", vars, in_reply_to);
	}
	strbuf_release(&subject);
	return ret;
}

int notify_answer(struct notify *n, const struct game *g, enum side side,
		  const char *question, const char *answer,
		  const char *in_reply_to)
{
	struct strbuf subject = STRBUF_INIT;
	char token[FAIR_TOKEN_SIZE] = "";
	int ret;

	game_token(g, side, token);
	/* the token is not spent: the order may still answer the report */
	if (*token)
		strbuf_addf(&subject, "[%s] %s (token %s)", g->id, question, token);
	else
		strbuf_addf(&subject, "[%s] %s", g->id, question);
	{
		const char *vars[] = {
			"game", g->id, "question", question, "answer", answer,
			"version", POSTRIDER_VERSION, NULL
		};
		ret = private_reply(n, g, side, "answer", subject.buf,
				    "answer.txt", vars, in_reply_to);
	}
	strbuf_release(&subject);
	return ret;
}

struct recover_ctx {
	char (*history)[41];
	size_t n;
};

static int keep_if_committed(const char *path, const char *msg, size_t len,
			     void *vctx)
{
	struct recover_ctx *ctx = vctx;
	const char *base = strrchr(path, '/');
	(void)msg;
	(void)len;

	base = base ? base + 1 : path;
	for (size_t i = 0; i < ctx->n; i++)
		if (!strncmp(base, ctx->history[i], 40))
			return 1;
	return 0;
}

/*
 * Unsent reports of commits that are no longer in the history (a host who
 * undid a turn by hand) must never go out: they would show a turn that
 * did not happen. They move to DIR/dropped/, kept for the host to read.
 */
static int drop_undone(const char *outbox, struct recover_ctx *ctx)
{
	char *dir = xstrfmt("%s/new", outbox), *dropped = xstrfmt("%s/dropped", outbox);
	DIR *d = opendir(dir);
	struct dirent *de;
	int bad = 0;

	while (d && (de = readdir(d))) {
		const char *name = de->d_name;
		if (strlen(name) < 41 || name[40] != '-' ||
		    strspn(name, "0123456789abcdef") != 40 ||
		    keep_if_committed(name, NULL, 0, ctx))
			continue;
		char *from = xstrfmt("%s/%s", dir, name), *to = xstrfmt("%s/%s", dropped, name);
		if (mkdir_p(dropped) < 0 || rename(from, to) < 0) {
			error("cannot set aside '%s': %s", from, strerror(errno));
			bad++;
		} else {
			warning("not sending '%s': its commit %.12s is no longer in the game's history (a turn undone by hand); kept in '%s'",
				name, name, dropped);
		}
		free(from);
		free(to);
	}
	if (d)
		closedir(d);
	free(dir);
	free(dropped);
	return bad;
}

int notify_recover(struct notify *n, struct game *g)
{
	struct recover_ctx ctx = { NULL, 0 };
	int ret;

	if (repo_history(g->repo, &ctx.history, &ctx.n) < 0)
		return -1;
	ret = outbox_recover(n->outbox, keep_if_committed, &ctx);
	if (ret >= 0 && !g->peer)
		ret += drop_undone(n->outbox, &ctx);
	free(ctx.history);
	return ret;
}

void notify_prune(struct notify *n)
{
	struct strbuf report = STRBUF_INIT;

	if (outbox_prune(n->outbox, game_now(), &report) < 0 || report.len) {
		const char *p = report.buf;
		while (*p) {
			size_t l = strcspn(p, "\n");
			warning("%.*s", (int)l, p);
			p += l + (p[l] == '\n');
		}
	}
	strbuf_release(&report);
}

int notify_send(struct notify *n, const struct mail_config *cfg)
{
	const struct transport *t = transport_of(cfg);
	struct strbuf report = STRBUF_INIT;
	int r, perm = 0;

	/* mail kept in the outbox by choice: nothing to say */
	if (t && !t->send)
		return 0;
	r = outbox_send(n->outbox, cfg, &report, &perm);
	notify_prune(n);
	if (r != 0) {
		const char *p = report.buf;
		/* the lines of what was not sent, not of what was */
		while (p && *p) {
			size_t l = strcspn(p, "\n");
			if (strncmp(p, "sent ", 5))
				error("%.*s", (int)l, p);
			p += l;
			if (*p)
				p++;
		}
		if (!transport_can_send(cfg))
			error("MAIL NOT SENT: no mail "
			      "transport is configured (no configuration "
			      "file was found: --config, $POSTRIDER_CONFIG, "
			      "~/.config/postrider/config.yaml, "
			      CONFIG_SYSTEM_PATH "); the mail waits in "
			      "'%s/new' for `postrider send`\n", n->outbox);
		else if (r > perm)
			error("MAIL NOT SENT: %d "
			      "message(s) wait in '%s/new'; `postrider send` "
			      "tries again", r - perm, n->outbox);
		if (perm)
			error("MAIL REFUSED: %d message(s) "
			      "refused for good, kept in '%s/failed'",
			      perm, n->outbox);
		if (r < 0)
			r = 1;
	}
	strbuf_release(&report);
	return r;
}
