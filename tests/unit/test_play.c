/*
 * test_play.c - the policy of one input (play.h) as a table: for each kind
 * of input (a machine's mail, a stranger's, a player's without or with a
 * stale token, a question, a vacation, an undo, an illegal and a legal
 * order, the host's text, check), what play_decide() makes of it: the
 * verdict, the exit status, the messages it would send and to whom, and
 * the line it says. The game is a real one, made by `postrider new` in a
 * temporary folder. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "peer.h"
#include "play.h"
#include "replies.h"
#include "game_fixture.h"

#define AMERICAN FIXTURE_AMERICAN
#define BRITISH FIXTURE_BRITISH

/* A new game in a fresh folder, its mail kept in the outbox. */
static int setup(void **state)
{
	(void)state;
	fixture_begin("test_play");
	assert_int_equal(fixture_new_game(NULL), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fixture_end();
	return 0;
}

static void open_game(struct game *g)
{
	struct strbuf err = STRBUF_INIT;

	memset(g, 0, sizeof(*g));
	if (game_open(fixture_dir, g, GAME_NEED_SECRET, &err) < 0)
		fail_msg("cannot open the game: %s", err.buf);
	strbuf_release(&err);
}

/* The mail of a player: From, a subject with the token (or none), body. */
static char *mail(const char *from, const char *token, const char *extra_headers,
		  const char *body)
{
	struct game g;
	open_game(&g);
	char *subject = token ? xstrfmt("Re: [%s] your move (token %s)", g.id, token)
			      : xstrfmt("Re: [%s] your move", g.id);
	char *m = xstrfmt("From: %s\nTo: ref@example.org\nSubject: %s\n"
			  "Message-ID: <m1@example.org>\n%s\n%s\n",
			  from, subject, extra_headers ? extra_headers : "", body);
	free(subject);
	game_close(&g);
	return m;
}

static char *token_of(enum side side)
{
	struct game g;
	char t[FAIR_TOKEN_SIZE];

	open_game(&g);
	game_token(&g, side, t);
	game_close(&g);
	return xstrdup(t);
}

/* Decides input (a mail, or with as > 0 the host's text) on the game as
 * it is now. */
static void decide(const char *input, int as, bool check, struct play_outcome *out)
{
	struct game g;
	struct play_request rq = { .input = input, .len = strlen(input), .as = as,
				   .check = check };

	open_game(&g);
	play_outcome_init(out);
	play_decide(&g, &rq, out);
	game_close(&g);
}

/* Decides and carries out the host's text for side; returns the status. */
static int play_as(enum side side, const char *text)
{
	struct game g;
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct play_outcome out;
	struct play_request rq = { .input = text, .len = strlen(text), .as = side };

	memset(&g, 0, sizeof(g));
	assert_int_equal(game_open(fixture_dir, &g, GAME_NEED_SECRET | GAME_LOCK, &err), 0);
	assert_int_equal(config_load(NULL, &cfg, &err), 0);
	notify_init(&n, &g, &cfg);
	play_outcome_init(&out);
	play_decide(&g, &rq, &out);
	if (out.verdict == PLAY_ACCEPTED || out.verdict == PLAY_ANSWERED)
		play_carry_out(&g, &n, &out);
	int status = out.status;
	play_outcome_release(&out);
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	strbuf_release(&err);
	return status;
}

/* Decides and carries out a mail; the outcome stays for the caller to
 * look at (and release). */
static void play_mail(const char *input, struct play_outcome *out)
{
	struct game g;
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct play_request rq = { .input = input, .len = strlen(input), .as = -1 };

	memset(&g, 0, sizeof(g));
	assert_int_equal(game_open(fixture_dir, &g, GAME_NEED_SECRET | GAME_LOCK, &err), 0);
	assert_int_equal(config_load(NULL, &cfg, &err), 0);
	notify_init(&n, &g, &cfg);
	play_outcome_init(out);
	play_decide(&g, &rq, out);
	play_carry_out(&g, &n, out);
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	strbuf_release(&err);
}

/* The Committees of Correspondence, as the engine lists them first. */
static void play_setup_side(void)
{
	struct game g;
	struct strbuf text = STRBUF_INIT;

	open_game(&g);
	enum side side = g.state.prompt.side;
	struct state s = g.state;
	struct rng r;
	game_rng(&g, &r);
	while (!engine_game_over(&s) && s.prompt.side == side && s.draws == g.state.draws) {
		struct action a[1];
		struct strbuf log = STRBUF_INIT, why = STRBUF_INIT;
		if (engine_legal(g.data, &s, a, 1) < 1)
			break;
		action_format(g.data, &a[0], &text);
		strbuf_addch(&text, '\n');
		assert_int_equal(engine_apply(g.data, &s, &a[0], &r, &log, &why), ENGINE_OK);
		strbuf_release(&log);
		strbuf_release(&why);
	}
	game_close(&g);
	assert_int_equal(play_as(side, text.buf), 0);
	strbuf_release(&text);
}

/* One row of the table. */
struct row {
	const char *what;
	enum play_verdict verdict;
	int status;
	int n_mail;
	enum play_mail_kind kind;	/* of the first mail */
	enum side to;			/* of the first mail */
	const char *said;		/* the said line starts so */
};

static void expect(const struct row *r, struct play_outcome *out)
{
	if (out->verdict != r->verdict || out->status != r->status ||
	    out->n_mail != r->n_mail ||
	    (r->n_mail && (out->mail[0].kind != r->kind || out->mail[0].to != r->to)) ||
	    strncmp(out->said.buf, r->said, strlen(r->said)))
		fail_msg("%s: verdict %d status %d mails %d (%d to %d) said '%s'", r->what,
			 out->verdict, out->status, out->n_mail,
			 out->n_mail ? (int)out->mail[0].kind : -1,
			 out->n_mail ? (int)out->mail[0].to : -1, out->said.buf);
	play_outcome_release(out);
}

static void mail_policy(void **state)
{
	struct play_outcome out;
	char *am = token_of(SIDE_AMERICAN), *m;
	(void)state;

	m = mail(AMERICAN, am, "Auto-Submitted: auto-replied\n", "place Boston\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "an auto-reply", PLAY_IGNORED, 0, 0, 0, 0, "ignored: " }, &out);
	free(m);

	m = mail("Mallory <mallory@example.com>", am, NULL, "place Boston\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "a stranger", PLAY_REJECTED, 1, 0, 0, 0, "rejected: " }, &out);
	free(m);

	m = mail(AMERICAN, NULL, NULL, "place Boston\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "no token", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
			      SIDE_AMERICAN, "rejected: " }, &out);
	free(m);

	m = mail(AMERICAN, "aaaa-bbbb-cccc", NULL, "place Boston\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "a stale token", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
			      SIDE_AMERICAN, "rejected: " }, &out);
	free(m);

	m = mail(AMERICAN, am, NULL, "hand\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "a question", PLAY_ANSWERED, 0, 1, PLAY_MAIL_ANSWER,
			      SIDE_AMERICAN, "answered 'hand'" }, &out);
	free(m);

	m = mail(AMERICAN, am, NULL, "vacation 3d\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "a vacation", PLAY_ANSWERED, 0, 2, PLAY_MAIL_NOTICE,
			      SIDE_AMERICAN, "answered 'vacation'" }, &out);
	free(m);

	m = mail(AMERICAN, am, NULL, "vacation soon\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "a vacation without a length", PLAY_REJECTED, 1, 1,
			      PLAY_MAIL_REJECT, SIDE_AMERICAN, "rejected: a vacation" }, &out);
	free(m);

	m = mail(AMERICAN, am, NULL, "undo\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "an undo with nothing to undo", PLAY_REJECTED, 1, 1,
			      PLAY_MAIL_REJECT, SIDE_AMERICAN,
			      "rejected: the last order cannot be taken back" }, &out);
	free(m);

	m = mail(AMERICAN, am, NULL, "place Boston\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "an illegal order", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
			      SIDE_AMERICAN, "rejected: line 1" }, &out);
	free(m);

	m = mail(AMERICAN, am, NULL, "place Boston\n");
	decide(m, -1, true, &out);
	assert_int_equal(out.n_mail, 1);	/* decided, but check sends nothing */
	expect(&(struct row){ "an illegal order, checked", PLAY_REJECTED, 1, 1,
			      PLAY_MAIL_REJECT, SIDE_AMERICAN, "rejected: line 1" }, &out);
	free(m);

	m = xstrdup("From: " AMERICAN "\nSubject: x\nContent-Type: multipart/mixed\n\nno boundary\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "an unreadable mail of a player", PLAY_REJECTED, 1, 1,
			      PLAY_MAIL_REJECT, SIDE_AMERICAN, "rejected: the message cannot be read" },
	       &out);
	free(m);
	free(am);
}

static void host_policy(void **state)
{
	struct play_outcome out;
	(void)state;

	decide("place Boston\n", SIDE_BRITISH, false, &out);
	expect(&(struct row){ "the host types for the side not deciding", PLAY_REJECTED, 1, 0,
			      0, 0, "rejected: line 1" }, &out);

	play_setup_side();	/* the American's set-up: the British decides */
	decide("done\n", SIDE_BRITISH, true, &out);
	assert_non_null(strstr(out.out.buf, "the order is valid"));
	expect(&(struct row){ "a legal order, checked", PLAY_ACCEPTED, 0, 0, 0, 0, "" }, &out);

	decide("done\n", SIDE_BRITISH, false, &out);
	assert_non_null(strstr(out.trailers.buf, "Postrider-Via: host (play --as british)"));
	assert_string_equal(out.order.buf, "done\n");
	expect(&(struct row){ "a legal order", PLAY_ACCEPTED, 0, 0, 0, 0, "" }, &out);

	assert_int_equal(play_as(SIDE_BRITISH, "resign confirm\n"), 0);
	decide("done\n", SIDE_AMERICAN, false, &out);
	expect(&(struct row){ "an order after the end", PLAY_REJECTED, 1, 0, 0, 0,
			      "rejected: the game is over" }, &out);
}

/* Issue 28, item 9: replies to one player are bounded; a question is
 * answered once per message; the token is needed after the end too; a
 * 'say' is bounded. */
static void reflection(void **state)
{
	struct play_outcome out;
	char *am = token_of(SIDE_AMERICAN), *m;
	(void)state;

	m = mail(AMERICAN, am, NULL, "place Boston\n");
	for (int i = 0; i < REPLIES_SHORT_MAX; i++) {
		play_mail(m, &out);
		expect(&(struct row){ "a bad order", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
				      SIDE_AMERICAN, "rejected: line 1" }, &out);
	}
	play_mail(m, &out);
	assert_non_null(strstr(out.said.buf, "no reply sent: 8 replies to the American in the last 10 minutes"));
	expect(&(struct row){ "the ninth bad order in ten minutes", PLAY_REJECTED, 1, 0, 0, 0,
			      "rejected: line 1" }, &out);
	free(m);
	/* the British's replies are counted apart */
	char *br = token_of(SIDE_BRITISH);
	m = mail(BRITISH, br, NULL, "board\n");
	play_mail(m, &out);
	expect(&(struct row){ "a question of the other side", PLAY_ANSWERED, 0, 1, PLAY_MAIL_ANSWER,
			      SIDE_BRITISH, "answered 'board'" }, &out);
	/* the same message again: answered once */
	play_mail(m, &out);
	expect(&(struct row){ "the same question again", PLAY_IGNORED, 0, 0, 0, 0,
			      "ignored: this message was answered already" }, &out);
	free(m);
	free(br);
	free(am);
}

/* Issue 39, item 3: mail that proves no sender (no token) cannot spend a
 * player's replies: one reply a day to the address from a budget of its
 * own, and his own refused orders are still answered. */
static void forged_mail(void **state)
{
	struct play_outcome out;
	char *am = token_of(SIDE_AMERICAN), *forged, *m;
	(void)state;

	forged = mail(AMERICAN, NULL, NULL, "place Boston\n");
	play_mail(forged, &out);
	expect(&(struct row){ "a forgery", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
			      SIDE_AMERICAN, "rejected: the message carries no order token" }, &out);
	for (int i = 0; i < 2 * REPLIES_SHORT_MAX; i++) {
		play_mail(forged, &out);
		assert_non_null(strstr(out.said.buf, "no reply sent: a mail that proves no sender"));
		expect(&(struct row){ "more forgeries", PLAY_REJECTED, 1, 0, 0, 0,
				      "rejected: the message carries no order token" }, &out);
	}
	m = mail(AMERICAN, am, NULL, "place Boston\n");
	for (int i = 0; i < REPLIES_SHORT_MAX; i++) {
		play_mail(m, &out);
		expect(&(struct row){ "his own bad orders, answered", PLAY_REJECTED, 1, 1,
				      PLAY_MAIL_REJECT, SIDE_AMERICAN, "rejected: line 1" }, &out);
	}
	free(m);
	free(forged);
	free(am);
}

static void say_and_the_end(void **state)
{
	struct play_outcome out;
	char *am = token_of(SIDE_AMERICAN), *m, *longsay = xcalloc(1, 2000);
	(void)state;

	memset(longsay, 'x', 1990);
	char *body = xstrfmt("say %s\n", longsay);
	m = mail(AMERICAN, am, NULL, body);
	decide(m, -1, false, &out);
	assert_non_null(strstr(out.said.buf, "a 'say' line holds at most"));
	expect(&(struct row){ "a say too long", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
			      SIDE_AMERICAN, "rejected: line 1" }, &out);
	free(m);
	free(body);
	free(longsay);

	assert_int_equal(play_as(SIDE_BRITISH, "resign confirm\n"), 0);
	m = mail(AMERICAN, NULL, NULL, "log\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "a question after the end without the token", PLAY_REJECTED, 1, 1,
			      PLAY_MAIL_REJECT, SIDE_AMERICAN, "rejected: the message carries no" },
	       &out);
	free(m);
	m = mail(AMERICAN, am, NULL, "log\n");
	decide(m, -1, false, &out);
	expect(&(struct row){ "a question after the end with it", PLAY_ANSWERED, 0, 1,
			      PLAY_MAIL_ANSWER, SIDE_AMERICAN, "answered 'log'" }, &out);
	free(m);
	free(am);
}

/* The answer to a question mailed by side (with its token). */
static void ask(enum side side, const char *question, struct play_outcome *out)
{
	static int n;
	struct game g;
	char *t = token_of(side), *m;

	open_game(&g);
	m = xstrfmt("From: %s\nTo: ref@example.org\nSubject: Re: [%s] your move (token %s)\n"
		    "Message-ID: <ask.%d@example.org>\n\n%s\n",
		    side == SIDE_AMERICAN ? AMERICAN : BRITISH, g.id, t, ++n, question);
	game_close(&g);

	play_mail(m, out);
	assert_int_equal(out->verdict, PLAY_ANSWERED);
	assert_int_equal(out->n_mail, 1);
	free(m);
	free(t);
}

/*
 * `options` by mail after a refused order answers for the point where it
 * failed, the lines before it played on a copy (issue 29); once an order
 * is played, for the game as it stands again.
 */
static void options_where_refused(void **state)
{
	struct play_outcome out;
	char *am = token_of(SIDE_AMERICAN), *m;
	(void)state;

	ask(SIDE_AMERICAN, "options\n", &out);
	assert_non_null(strstr(out.mail[0].text, "(13 to go)"));
	assert_non_null(strstr(out.mail[0].text, "place Savannah GA"));
	play_outcome_release(&out);

	/* Savannah twice: refused at line 2, after one decision */
	m = mail(AMERICAN, am, NULL, "place Savannah\nplace Savannah\n");
	play_mail(m, &out);
	assert_int_equal(out.verdict, PLAY_REJECTED);
	play_outcome_release(&out);
	free(m);

	ask(SIDE_AMERICAN, "options\n", &out);
	assert_non_null(strstr(out.mail[0].text, "Where your last order was refused (line 2)"));
	assert_non_null(strstr(out.mail[0].text, "(12 to go)"));
	assert_null(strstr(out.mail[0].text, "place Savannah GA"));
	assert_null(strstr(out.mail[0].text, "place Augusta GA"));	/* GA has one */
	assert_non_null(strstr(out.mail[0].text, "place Camden SC"));
	play_outcome_release(&out);

	/* the British, who did not send it, is told who decides */
	ask(SIDE_BRITISH, "options\n", &out);
	assert_null(strstr(out.mail[0].text, "refused"));
	play_outcome_release(&out);

	/* an order played since: the game as it stands */
	assert_int_equal(play_as(SIDE_AMERICAN, "place Augusta\n"), 0);
	ask(SIDE_AMERICAN, "options\n", &out);
	assert_null(strstr(out.mail[0].text, "refused"));
	assert_non_null(strstr(out.mail[0].text, "(12 to go)"));
	assert_non_null(strstr(out.mail[0].text, "place Camden SC"));
	play_outcome_release(&out);
	free(am);
}

/* --- the same policy in a game without a host (docs/peer.md 8.4) ---------- */

#define PEER_SA "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define PEER_SB "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"

static char *peer_a, *peer_b;

/* Runs the command entry e with argv, its output to /dev/null. */
static int quiet(const struct cmd_entry *e, int argc, char **argv)
{
	int saved1 = dup(1), saved2 = dup(2), ret;

	fflush(stdout);
	fflush(stderr);
	if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
		BUG("cannot silence the command");
	ret = e->exec(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved1, 1);
	dup2(saved2, 2);
	close(saved1);
	close(saved2);
	return ret;
}

/* The one mail between the postriders in dir's outbox. */
static char *peer_mail_of(const char *dir)
{
	char *pattern = xstrfmt("%s/.git/postrider/outbox/new/*-peer-*", dir), *path;
	glob_t gl;

	if (glob(pattern, 0, NULL, &gl) != 0 || gl.gl_pathc < 1)
		fail_msg("no mail of a commit in %s", pattern);
	path = xstrdup(gl.gl_pathv[gl.gl_pathc - 1]);
	globfree(&gl);
	free(pattern);
	return path;
}

/* Two copies: the American's (peer_a) has accepted the British's join,
 * and its player decides (the Committees of Correspondence). */
static int peer_setup(void **state)
{
	(void)state;
	fixture_begin("test_play_peer");
	peer_a = xstrfmt("%s/alice", fixture_root);
	peer_b = xstrfmt("%s/bob", fixture_root);
	char *new_argv[] = {
		(char[]){ "peer" }, (char[]){ "new" }, peer_a, (char[]){ "--me" },
		(char[]){ "american" }, (char[]){ "--american" }, (char[]){ AMERICAN },
		(char[]){ "--british" }, (char[]){ BRITISH }, (char[]){ "--secret" },
		(char[]){ PEER_SA }, NULL
	};
	assert_int_equal(quiet(&cmd_peer_entry, 11, new_argv), 0);
	char *invite = peer_mail_of(peer_a);
	char *join_argv[] = {
		(char[]){ "peer" }, (char[]){ "join" }, peer_b, (char[]){ "--secret" },
		(char[]){ PEER_SB }, (char[]){ "--address" }, (char[]){ BRITISH }, invite, NULL
	};
	assert_int_equal(quiet(&cmd_peer_entry, 8, join_argv), 0);
	char *join = peer_mail_of(peer_b);
	char *play_argv[] = { (char[]){ "play" }, peer_a, join, NULL };
	assert_int_equal(quiet(&cmd_play_entry, 3, play_argv), 0);
	free(invite);
	free(join);
	return 0;
}

static int peer_teardown(void **state)
{
	free(peer_a);
	free(peer_b);
	return teardown(state);
}

/* The American copy's game id and its player's token now. */
static void peer_token(char **id, char **token)
{
	struct peer_copy pc;
	struct strbuf err = STRBUF_INIT;
	char t[FAIR_TOKEN_SIZE];

	if (peer_copy_open(peer_a, &pc, 0, &err) != 0)
		fail_msg("cannot open the peer copy: %s", err.buf);
	game_token(&pc.g, SIDE_AMERICAN, t);
	*id = xstrdup(pc.g.id);
	*token = xstrdup(t);
	peer_copy_close(&pc);
	strbuf_release(&err);
}

static char *peer_input(const char *from, bool with_token, const char *headers,
			const char *body)
{
	static int n;
	char *id, *token, *m;

	peer_token(&id, &token);
	m = xstrfmt("From: %s\nTo: %s\nSubject: Re: [%s] 1775: your move, American%s%s%s\n"
		    "Message-ID: <peer.%d@example.org>\n%s\n%s\n", from, AMERICAN, id,
		    with_token ? " (token " : "", with_token ? token : "", with_token ? ")" : "",
		    ++n, headers ? headers : "", body);
	free(id);
	free(token);
	return m;
}

/* Decides (and unless check carries out) input on the American's copy, as
 * `postrider play` (or check) does. */
static void peer_decide(const char *input, int as, bool check, struct play_outcome *out)
{
	struct game g;
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct play_request rq = { .input = input, .len = strlen(input), .as = as,
				   .check = check };

	assert_int_equal(game_open(peer_a, &g, GAME_NEED_SECRET | (check ? 0 : GAME_LOCK), &err), 0);
	assert_true(g.peer);
	assert_int_equal(config_load(NULL, &cfg, &err), 0);
	play_outcome_init(out);
	peer_play_game(&g, &cfg, &n, &rq, out);
	notify_release(&n);
	config_release(&cfg);
	game_close(&g);
	strbuf_release(&err);
}

static void peer_policy(void **state)
{
	struct play_outcome out;
	struct game host = { 0 }, peer = { .peer = true };
	char *m;
	(void)state;

	/* the rows of the table: what a game without a host does not do */
	assert_null(play_policy_of(&host)->no_undo);
	assert_null(play_policy_of(&host)->no_vacation);
	assert_non_null(play_policy_of(&peer)->no_undo);
	assert_non_null(play_policy_of(&peer)->no_vacation);

	m = peer_input(AMERICAN, true, "Auto-Submitted: auto-replied\n", "place Falmouth\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: an auto-reply", PLAY_IGNORED, 0, 0, 0, 0, "ignored: " }, &out);
	free(m);

	m = peer_input(BRITISH, true, NULL, "place Falmouth\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: the opponent, to the other's copy", PLAY_REJECTED, 1, 0, 0, 0,
			      "rejected: 'banastre@example.org' is not this copy's player" }, &out);
	free(m);

	m = peer_input("Mallory <mallory@example.com>", true, NULL, "hand\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: a stranger", PLAY_REJECTED, 1, 0, 0, 0, "rejected: " }, &out);
	free(m);

	m = peer_input(AMERICAN, false, NULL, "place Falmouth\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: no token", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
			      SIDE_AMERICAN, "rejected: the message carries no order token" }, &out);
	free(m);

	m = peer_input(AMERICAN, true, NULL, "hand\n");
	peer_decide(m, -1, false, &out);
	assert_non_null(strstr(out.mail[0].text, "The American hand:"));
	expect(&(struct row){ "peer: a question", PLAY_ANSWERED, 0, 1, PLAY_MAIL_ANSWER,
			      SIDE_AMERICAN, "answered 'hand'" }, &out);
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: the same question again", PLAY_IGNORED, 0, 0, 0, 0,
			      "ignored: this message was answered already" }, &out);
	free(m);

	m = peer_input(AMERICAN, true, NULL, "neighbours Boston\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: neighbours", PLAY_ANSWERED, 0, 1, PLAY_MAIL_ANSWER,
			      SIDE_AMERICAN, "answered 'neighbours'" }, &out);
	free(m);

	m = peer_input(AMERICAN, true, NULL, "vacation 3d\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: a vacation", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT,
			      SIDE_AMERICAN, "rejected: a game without a host has no deadline" }, &out);
	free(m);

	m = peer_input(AMERICAN, true, NULL, "undo\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: an undo", PLAY_REJECTED, 1, 1, PLAY_MAIL_REJECT, SIDE_AMERICAN,
			      "rejected: the last order cannot be taken back: a game without a host has no undo" },
	       &out);
	free(m);

	m = peer_input(AMERICAN, true, NULL, "place Boston\n");
	peer_decide(m, -1, true, &out);
	expect(&(struct row){ "peer: an illegal order, checked", PLAY_REJECTED, 1, 1,
			      PLAY_MAIL_REJECT, SIDE_AMERICAN, "rejected: " }, &out);
	free(m);

	m = peer_input(AMERICAN, true, NULL, "# only a comment\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: an order with no decision", PLAY_REJECTED, 1, 1,
			      PLAY_MAIL_REJECT, SIDE_AMERICAN,
			      "rejected: the order holds no decision" }, &out);
	free(m);

	peer_decide("place Falmouth\n", SIDE_BRITISH, true, &out);
	expect(&(struct row){ "peer: typed for the other side", PLAY_REJECTED, 1, 0, 0, 0,
			      "rejected: this copy is the american's" }, &out);

	peer_decide("place Falmouth\n", SIDE_AMERICAN, true, &out);
	assert_non_null(strstr(out.out.buf, "the order is valid"));
	expect(&(struct row){ "peer: a legal order, checked", PLAY_ACCEPTED, 0, 0, 0, 0, "" }, &out);

	m = peer_input(AMERICAN, true, NULL, "place Falmouth\n");
	peer_decide(m, -1, false, &out);
	assert_non_null(strstr(out.out.buf, "accepted: order 1 of the american, mailed to the british"));
	expect(&(struct row){ "peer: a legal order by mail", PLAY_ACCEPTED, 0, 0, 0, 0,
			      "accepted: order 1 of the american" }, &out);
	peer_decide(m, -1, false, &out);
	/* a stale token proves no sender: the one reply a day to this
	 * address went to the mail with no token above (issue 39) */
	assert_non_null(strstr(out.said.buf, "no reply sent"));
	expect(&(struct row){ "peer: the same order again", PLAY_REJECTED, 1, 0, 0, 0,
			      "rejected: the token in this message is not valid" }, &out);
	free(m);
}

/* A peer commit takes the host's crash-safe path (turn_publish()): its
 * mail is named by its commit, so that a run that died after moving the
 * branch and before releasing the mail is finished by the next run. */
static void peer_crash_safe(void **state)
{
	struct play_outcome out;
	struct game g;
	struct strbuf err = STRBUF_INIT;
	char head[41], *m, *mail, *staged, *stray, *released;
	(void)state;

	m = peer_input(AMERICAN, true, NULL, "place Falmouth\n");
	peer_decide(m, -1, false, &out);
	assert_int_equal(out.verdict, PLAY_ACCEPTED);
	play_outcome_release(&out);
	free(m);
	assert_int_equal(game_open(peer_a, &g, 0, &err), 0);
	memcpy(head, g.head, sizeof(head));
	game_close(&g);
	{
		/* the order's mail, named by its commit */
		char *pattern = xstrfmt("%s/.git/postrider/outbox/new/%s-peer-3-american.*",
					peer_a, head);
		glob_t gl;
		assert_int_equal(glob(pattern, 0, NULL, &gl), 0);
		assert_int_equal(gl.gl_pathc, 1);
		mail = xstrdup(gl.gl_pathv[0]);
		globfree(&gl);
		free(pattern);
	}

	/* the crash: the branch moved, the mail still in tmp/; and a mail
	 * of a commit that never was */
	staged = xstrfmt("%s/.git/postrider/outbox/tmp/%s-peer-3-american.1", peer_a, head);
	stray = xstrfmt("%s/.git/postrider/outbox/tmp/%040d-peer-9-american.1", peer_a, 7);
	released = xstrfmt("%s/.git/postrider/outbox/new/%s-peer-3-american.1", peer_a, head);
	assert_int_equal(rename(mail, staged), 0);
	assert_int_equal(write_file_atomic(stray, "x\n", 2), 0);
	m = peer_input(AMERICAN, true, NULL, "board\n");
	peer_decide(m, -1, false, &out);
	expect(&(struct row){ "peer: a question after a crash", PLAY_ANSWERED, 0, 1,
			      PLAY_MAIL_ANSWER, SIDE_AMERICAN, "answered 'board'" }, &out);
	assert_int_equal(access(released, F_OK), 0);	/* released */
	assert_int_not_equal(access(staged, F_OK), 0);
	assert_int_not_equal(access(stray, F_OK), 0);	/* deleted */
	free(m);
	free(mail);
	free(staged);
	free(stray);
	free(released);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(mail_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(host_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(reflection, setup, teardown),
		cmocka_unit_test_setup_teardown(forged_mail, setup, teardown),
		cmocka_unit_test_setup_teardown(say_and_the_end, setup, teardown),
		cmocka_unit_test_setup_teardown(options_where_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(peer_policy, peer_setup, peer_teardown),
		cmocka_unit_test_setup_teardown(peer_crash_safe, peer_setup, peer_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
