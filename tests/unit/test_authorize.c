/*
 * test_authorize.c - who may give an order by mail (authorize.h): the
 * machine-sent fixtures get no answer, strangers none either, a player's
 * mail is refused for the wrong game, a finished game or a bad token, and
 * accepted with the token valid now. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authorize.h"

#define FIXTURES "tests/fixtures/mail/"

/* A game ww-3f9a between alice@example.net (American) and
 * bob@example.org (British), in the middle of its first turn. */
static void game_fixture(struct game *g)
{
	static char id[] = "ww-3f9a", alice[] = "alice@example.net",
		bob[] = "bob@example.org";

	memset(g, 0, sizeof(*g));
	g->id = id;
	g->player[SIDE_AMERICAN].addr = alice;
	g->player[SIDE_BRITISH].addr = bob;
	for (int i = 0; i < FAIR_SEED_BYTES; i++)
		g->seed[i] = (unsigned char)(7 * i + 1);
	g->have_seed = true;
	g->state.prompt.kind = PROMPT_CC;
	g->state.prompt.side = SIDE_AMERICAN;
	g->state.orders[SIDE_AMERICAN] = 3;
	g->state.orders[SIDE_BRITISH] = 2;
}

static enum authorize_verdict decide_text(const struct game *g, const char *text,
					  enum side *side, struct strbuf *why)
{
	struct mail_message m = { 0 };
	struct strbuf err = STRBUF_INIT;
	enum authorize_verdict v;

	if (mail_parse(text, strlen(text), &m, &err) < 0)
		fail_msg("cannot parse: %s", err.buf);
	strbuf_reset(why);
	v = authorize_mail(g, &m, false, side, why);
	mail_message_release(&m);
	strbuf_release(&err);
	return v;
}

static enum authorize_verdict decide_file(const struct game *g, const char *name,
					  enum side *side, struct strbuf *why)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt(FIXTURES "%s", name);
	enum authorize_verdict v;

	if (read_file(path, &sb, 1 << 20) < 0)
		fail_msg("cannot read '%s': %s (run from the repository root)",
			 path, strerror(errno));
	v = decide_text(g, sb.buf, side, why);
	strbuf_release(&sb);
	free(path);
	return v;
}

/* An order from addr with subject's token. */
static char *order_mail(const char *from, const char *subject)
{
	return xstrfmt("From: %s\nTo: referee@example.org\nSubject: %s\n"
		       "Message-ID: <x@example.net>\n\nplay 42 ops\n", from, subject);
}

/* An order from addr carrying side's current token, for game id. */
static char *token_mail(const struct game *g, enum side side, const char *id,
			const char *from)
{
	char token[FAIR_TOKEN_SIZE], *subject, *mail;

	game_token(g, side, token);
	subject = xstrfmt("Re: [%s] turn (token %s)", id, token);
	mail = order_mail(from, subject);
	free(subject);
	return mail;
}

static void machines_get_no_answer(void **state)
{
	static const char *const files[] = { "auto-reply.eml", "bounce.eml", "list.eml" };
	struct game g;
	struct strbuf why = STRBUF_INIT;
	enum side side;
	char token[FAIR_TOKEN_SIZE];
	(void)state;

	game_fixture(&g);
	/* even with the token valid now, which a vacation reply quotes */
	game_token(&g, SIDE_AMERICAN, token);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		assert_int_equal(decide_file(&g, files[i], &side, &why), AUTHORIZE_IGNORE);
		assert_int_equal(side, SIDE_NONE);
		assert_non_null(strstr(why.buf, "automatic"));
	}
	strbuf_release(&why);
}

static void a_stranger_learns_nothing(void **state)
{
	struct game g;
	struct strbuf why = STRBUF_INIT;
	enum side side;
	char *mail;
	(void)state;

	game_fixture(&g);
	mail = token_mail(&g, SIDE_AMERICAN, "ww-3f9a", "Mallory <mallory@example.com>");
	assert_int_equal(decide_text(&g, mail, &side, &why), AUTHORIZE_STRANGER);
	assert_int_equal(side, SIDE_NONE);
	free(mail);
	strbuf_release(&why);
}

static void a_player_is_refused_with_a_reason(void **state)
{
	struct game g;
	struct strbuf why = STRBUF_INIT;
	enum side side;
	char *mail;
	(void)state;

	game_fixture(&g);
	/* plain.eml: alice, game ww-3f9a, a token that is not the valid one */
	assert_int_equal(decide_file(&g, "plain.eml", &side, &why), AUTHORIZE_REFUSE);
	assert_int_equal(side, SIDE_AMERICAN);
	assert_non_null(strstr(why.buf, "not valid for this turn"));

	/* the British token does not do for the American */
	mail = token_mail(&g, SIDE_BRITISH, "ww-3f9a", "alice@EXAMPLE.net");
	assert_int_equal(decide_text(&g, mail, &side, &why), AUTHORIZE_REFUSE);
	free(mail);

	/* another game */
	mail = token_mail(&g, SIDE_AMERICAN, "ww-77aa", "alice@example.net");
	assert_int_equal(decide_text(&g, mail, &side, &why), AUTHORIZE_REFUSE);
	assert_string_equal(why.buf, "this message is about game ww-77aa, not ww-3f9a");
	free(mail);

	/* no token at all */
	mail = order_mail("alice@example.net", "Re: [ww-3f9a] my move");
	assert_int_equal(decide_text(&g, mail, &side, &why), AUTHORIZE_REFUSE);
	assert_non_null(strstr(why.buf, "no order token"));
	free(mail);
	strbuf_release(&why);
}

static void the_valid_token_is_authorized_once(void **state)
{
	struct game g;
	struct strbuf why = STRBUF_INIT;
	enum side side;
	char *mail;
	(void)state;

	game_fixture(&g);
	mail = token_mail(&g, SIDE_AMERICAN, "ww-3f9a", "Alice <Alice@example.net>");
	assert_int_equal(decide_text(&g, mail, &side, &why), AUTHORIZE_OK);
	assert_int_equal(side, SIDE_AMERICAN);
	assert_int_equal(why.len, 0);

	/* once the order is accepted the same mail is a replay */
	g.state.orders[SIDE_AMERICAN]++;
	assert_int_equal(decide_text(&g, mail, &side, &why), AUTHORIZE_REFUSE);
	assert_non_null(strstr(why.buf, "stale, replayed"));

	/* a finished game refuses orders, but may answer questions */
	g.state.orders[SIDE_AMERICAN]--;
	g.state.prompt.kind = PROMPT_NONE;
	assert_int_equal(decide_text(&g, mail, &side, &why), AUTHORIZE_REFUSE);
	assert_string_equal(why.buf, "the game is over");
	{
		struct mail_message m = { 0 };
		struct strbuf err = STRBUF_INIT;
		assert_int_equal(mail_parse(mail, strlen(mail), &m, &err), 0);
		strbuf_reset(&why);
		assert_int_equal(authorize_mail(&g, &m, true, &side, &why), AUTHORIZE_OK);
		mail_message_release(&m);
		strbuf_release(&err);
	}
	free(mail);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(machines_get_no_answer),
		cmocka_unit_test(a_stranger_learns_nothing),
		cmocka_unit_test(a_player_is_refused_with_a_reason),
		cmocka_unit_test(the_valid_token_is_authorized_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
