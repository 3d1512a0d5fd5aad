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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(mail_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(host_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(reflection, setup, teardown),
		cmocka_unit_test_setup_teardown(forged_mail, setup, teardown),
		cmocka_unit_test_setup_teardown(say_and_the_end, setup, teardown),
		cmocka_unit_test_setup_teardown(options_where_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
