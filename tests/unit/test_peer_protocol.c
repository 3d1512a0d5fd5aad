/*
 * test_peer_protocol.c - the peer protocol held as data, as test_play.c
 * holds the host's policy: each row calls the protocol's own function and
 * names what it must answer, a refusal by its reason.
 *
 * Table 1, docs/peer.md section 7 (who commits what, from `waits`): a
 * parent state (its prompt, its end, its waits lines), a committer and a
 * kind of commit: what the committer owes by the waits (peer_owes()) and
 * whether the rule lets him make that commit (peer_step_owed()).
 *
 * Table 2, docs/peer.md 8.3 (accepting a mail): a real game of two copies
 * (the American invites, the British joins, each through peer-invite.h);
 * the British join, as mailed or changed as a row says (its envelope, its
 * patch, its signature made again with the British secret where the
 * change must pass the steps before it), is offered to the American copy
 * by peer_accept_mail(): the outcome, the reason, and a refused mail
 * changes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "game_fixture.h"
#include "config.h"
#include "engine/engine.h"
#include "peer-invite.h"
#include "peer-step.h"
#include "peer-wire.h"

/* ---- table 1: section 7 ------------------------------------------------- */

#define A SIDE_AMERICAN
#define B SIDE_BRITISH

static const struct owed_row {
	const char *name;
	enum side prompt;	/* whose decision the parent's prompt is */
	bool over;		/* the game is over at the parent */
	const char *waits[3];	/* the parent's waits lines */
	enum side c;		/* the committer */
	const char *owes;	/* peer_owes(parent, c), NULL: nothing */
	enum peer_kind kind;	/* the commit he makes */
	const char *refused;	/* NULL: the rule lets him; else the reason */
} owed_rows[] = {
	{ "his decision: his order", A, false, { "american decision" }, A,
	  NULL, PEER_ORDER, NULL },
	{ "his decision, no waits line (the join's state): his order", A, false, { NULL }, A,
	  NULL, PEER_ORDER, NULL },
	{ "the other's decision: no order of his", A, false, { "american decision" }, B,
	  NULL, PEER_ORDER, "this decision is the American's, not yours (7)" },
	{ "a decision owes no answer", A, false, { "american decision" }, A,
	  NULL, PEER_ANSWER, "the american owes nothing after commit 4 (waits: american decision; 7)" },
	{ "a request: the other answers with his dice", A, false, { "british dice" }, B,
	  "british dice", PEER_ANSWER, NULL },
	{ "a request: its maker owes nothing", A, false, { "british dice" }, A,
	  NULL, PEER_ANSWER, "the american owes nothing after commit 4 (waits: british dice; 7)" },
	{ "a request pending: no order before the dice", A, false, { "british dice" }, A,
	  NULL, PEER_ORDER, "whose decision is not due (waits: british dice; 7)" },
	{ "turn 2 of a shuffle", B, false, { "american shuffle 2" }, A,
	  "american shuffle 2", PEER_ANSWER, NULL },
	{ "shares owed", B, false, { "american dice", "british shares" }, B,
	  "british shares", PEER_ANSWER, NULL },
	{ "the first line owed of several", B, false, { "american dice", "british shares" }, A,
	  "american dice", PEER_ANSWER, NULL },
	{ "an order's sealed lines run on", A, false, { "american lines 3" }, A,
	  "american lines 3", PEER_ANSWER, NULL },
	{ "not an end before the game is over", B, false, { "british shares" }, B,
	  "british shares", PEER_END, "a commit of kind end before the game is over (7, 9.12)" },
	{ "the key at the end: an end", SIDE_NONE, true, { "american key", "british key" }, A,
	  "american key", PEER_END, NULL },
	{ "the key at the end: not an answer", SIDE_NONE, true, { "american key" }, A,
	  "american key", PEER_ANSWER, "a commit of kind answer after the game is over (it is end) (7, 9.12)" },
	{ "no order after the end", SIDE_NONE, true, { "british key" }, A,
	  NULL, PEER_ORDER, "whose decision is not due (waits: british key; 7)" },
	{ "an end owed by nobody", SIDE_NONE, true, { NULL }, B,
	  NULL, PEER_END, "the british owes nothing after commit 4 (waits: nothing; 7)" },
	{ "an invitation is no step", A, false, { "american decision" }, A,
	  NULL, PEER_INVITE, "no commit of this kind is made by the rule of section 7" },
	{ "a claim is no step (peer-silence.c rules it)", A, false, { "american decision" }, B,
	  NULL, PEER_CLAIM, "no commit of this kind is made by the rule of section 7" },
};

static void test_who_commits_what(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(owed_rows); i++) {
		const struct owed_row *r = &owed_rows[i];
		struct state s;
		struct strbuf why = STRBUF_INIT;
		const char *owes;
		int got;

		print_message("section 7: %s\n", r->name);
		memset(&s, 0, sizeof(s));
		s.peer.on = true;
		s.prompt.side = r->prompt;
		s.prompt.kind = r->over ? PROMPT_NONE : PROMPT_PLAY;
		if (r->over) {
			s.end = END_FORFEIT;
			s.winner = A;
		}
		for (int k = 0; k < 3 && r->waits[k]; k++)
			snprintf(s.peer.waits[s.peer.n_waits++], STATE_PEER_WAIT_MAX, "%s", r->waits[k]);
		assert_int_equal(engine_game_over(&s), r->over);
		owes = peer_owes(&s, r->c);
		if (r->owes)
			assert_string_equal(owes ? owes : "(nothing)", r->owes);
		else
			assert_null(owes);
		got = peer_step_owed(&s, r->c, r->kind, 5, &why);
		if (!r->refused) {
			assert_int_equal(got, 0);
			assert_int_equal(why.len, 0);
		} else {
			assert_int_equal(got, 1);
			if (!strstr(why.buf, r->refused))
				fail_msg("'%s' refused with '%s', not '%s'", r->name, why.buf, r->refused);
		}
		strbuf_release(&why);
	}
}

/* ---- table 2: 8.3 -------------------------------------------------------- */

#define SECRET_A "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
#define SECRET_B "b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"

static char *dir_a, *dir_b;
static struct strbuf invitation, join;	/* the two mails as mailed */
static struct mail_config cfg;

/* The one mail whose text holds marker in the outbox of the copy in dir. */
static void mail_in_outbox(const char *dir, const char *marker, struct strbuf *out)
{
	char *box = xstrfmt("%s/.git/postrider/outbox/new", dir);
	DIR *d = opendir(box);
	struct dirent *de;
	int found = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		struct strbuf text = STRBUF_INIT;
		char *path = xstrfmt("%s/%s", box, de->d_name);
		if (de->d_name[0] != '.' && read_file(path, &text, 8 << 20) == 0 &&
		    strstr(text.buf, marker)) {
			strbuf_reset(out);
			strbuf_addbuf(out, &text);
			found++;
		}
		strbuf_release(&text);
		free(path);
	}
	closedir(d);
	free(box);
	assert_int_equal(found, 1);
}

static int group_setup(void **state)
{
	struct peer_copy pc;
	struct peer_invite_opts inv = {
		.american = FIXTURE_AMERICAN, .british = FIXTURE_BRITISH,
		.me = "american", .secret_hex = SECRET_A,
	};
	struct peer_join_opts jo = { .address = FIXTURE_BRITISH, .secret_hex = SECRET_B };

	(void)state;
	fixture_begin("peer-protocol");
	dir_a = xstrfmt("%s/american", fixture_root);
	dir_b = xstrfmt("%s/british", fixture_root);
	memset(&cfg, 0, sizeof(cfg));
	cfg.transport = TRANSPORT_OUTBOX;
	if (peer_invite(dir_a, &inv, &cfg, &pc) != 0)
		return -1;
	peer_copy_close(&pc);
	mail_in_outbox(dir_a, "peer-1.txt", &invitation);
	if (peer_join(dir_b, &jo, &cfg, invitation.buf, invitation.len, &pc) != 0)
		return -1;
	peer_copy_close(&pc);
	mail_in_outbox(dir_b, "peer-2.txt", &join);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	strbuf_release(&invitation);
	strbuf_release(&join);
	free(dir_a);
	free(dir_b);
	fixture_end();
	return 0;
}

/* The join taken apart, to be changed by a row and mailed again. */
struct forge {
	struct strbuf env_text, patch;
	struct peer_envelope e;
	bool resign;		/* sign the envelope again (the British key) */
	bool rehash;		/* the envelope's patch hash made the patch's */
	const char *raw;	/* a whole mail instead */
};

/* Replaces the first `from` of sb by `to`; it must be there. */
static void swap(struct strbuf *sb, const char *from, const char *to)
{
	const char *p = strstr(sb->buf, from);
	struct strbuf out = STRBUF_INIT;

	if (!p)
		fail_msg("'%s' is not in the text to change", from);
	strbuf_add(&out, sb->buf, (size_t)(p - sb->buf));
	strbuf_addstr(&out, to);
	strbuf_addstr(&out, p + strlen(from));
	strbuf_release(sb);
	*sb = out;
}

/* The mail of f, as the British postrider would compose it. */
static void forge_mail(struct forge *f, struct strbuf *out)
{
	struct peer_mail m = {
		.from = FIXTURE_BRITISH, .to = FIXTURE_AMERICAN,
		.date = "Tue, 14 Nov 2023 22:13:20 +0000",
		.env = &f->e,
	};
	char why[200];

	if (f->raw) {
		strbuf_addstr(out, f->raw);
		return;
	}
	if (f->rehash)
		SHA256((const unsigned char *)f->patch.buf, f->patch.len, f->e.patch);
	if (f->resign) {
		unsigned char secret[32];
		struct pcrypto_secret sk;
		assert_int_equal(hex_decode(SECRET_B, secret, 32), 0);
		assert_int_equal(pcrypto_keys(secret, &sk, NULL), 0);
		strbuf_reset(&f->env_text);
		assert_int_equal(peer_envelope_write(&f->e, &sk, &f->env_text), 0);
	}
	m.envelope = f->env_text.buf;
	m.envelope_len = f->env_text.len;
	m.patch = f->patch.buf;
	m.patch_len = f->patch.len;
	assert_int_equal(peer_mail_compose(&m, out, why, sizeof(why)), 0);
}

/* The changes of the rows. */
static void no_envelope(struct forge *f)
{
	f->raw = "From: " FIXTURE_BRITISH "\nTo: " FIXTURE_AMERICAN "\nSubject: hello\n\nplace Boston\n";
}
static void bad_grammar(struct forge *f) { swap(&f->env_text, "\nseq 2\n", "\nseq 02\n"); }
static void other_game(struct forge *f) { swap(&f->env_text, "\ngame ww-", "\ngame ww-0"); }
static void from_self(struct forge *f) { swap(&f->env_text, "\nfrom british\n", "\nfrom american\n"); }
static void patch_changed(struct forge *f) { swap(&f->patch, "joins the game", "joins the gamE"); }
static void unknown_parent(struct forge *f)
{
	snprintf(f->e.parent, sizeof(f->e.parent), "%s", "0123456789abcdef0123456789abcdef01234567");
	f->resign = true;
}
static void seq_skips(struct forge *f) { f->e.seq = 3; f->resign = true; }
static void more_files(struct forge *f)
{
	swap(&f->patch, "\n--\n",
	     "\ndiff --git a/extra.txt b/extra.txt\nnew file mode 100644\n"
	     "index 0000000000000000000000000000000000000000..587be6b4c3f93f93c489c0111bba5596147a26cb\n"
	     "--- /dev/null\n+++ b/extra.txt\n@@ -0,0 +1 @@\n+x\n--\n");
	f->rehash = f->resign = true;
}
/* a signature that is not the British key's (its last digit changed) */
static void signed_by_another(struct forge *f)
{
	char *c = &f->env_text.buf[f->env_text.len - 2];

	*c = *c == '0' ? '1' : '0';
}
static void dated_before(struct forge *f)
{
	swap(&f->patch, "Date: Tue, 14 Nov 2023 22:13:20 +0000", "Date: Mon, 13 Nov 2023 22:13:20 +0000");
	f->rehash = f->resign = true;
}
static void dated_after(struct forge *f)
{
	swap(&f->patch, "Date: Tue, 14 Nov 2023 22:13:20 +0000", "Date: Wed, 15 Nov 2023 00:13:20 +0000");
	f->rehash = f->resign = true;
}
static void other_commit(struct forge *f)
{
	snprintf(f->e.commit, sizeof(f->e.commit), "%s", "89abcdef0123456789abcdef0123456789abcdef");
	f->resign = true;
}
static void log_changed(struct forge *f)
{
	swap(&f->patch, "joins the game", "joins the gamE");
	f->rehash = f->resign = true;
}
static void as_mailed(struct forge *f) { (void)f; }

static const struct accept_row {
	const char *name;
	void (*change)(struct forge *f);
	enum peer_accept outcome;
	const char *said;	/* what the reason must hold */
} accept_rows[] = {
	{ "step 1: a mail with no envelope", no_envelope, PEER_REFUSED,
	  "not a mail between postriders: " },
	{ "step 1: the envelope's grammar", bad_grammar, PEER_REFUSED,
	  "the envelope does not follow the grammar of 8.1: line 4" },
	{ "step 1: another game", other_game, PEER_REFUSED, "the mail is for game ww-0" },
	{ "step 1: from this copy's own side", from_self, PEER_REFUSED,
	  "the mail says it comes from the american, who is this copy's own side" },
	{ "step 3: the patch is not the one the envelope hashes", patch_changed, PEER_REFUSED,
	  "the patch's SHA-256 is " },
	{ "step 4: an unknown parent waits (75)", unknown_parent, PEER_LATER, "not yet: " },
	{ "step 4: a seq that is not one more", seq_skips, PEER_REFUSED,
	  "commit 3 follows the head, whose seq is 1" },
	{ "step 5: a join changes game.yaml and log.txt alone", more_files, PEER_REFUSED,
	  "a join may change only game.yaml and log.txt (6.5)" },
	{ "step 2: the signature under the joiner's key", signed_by_another, PEER_REFUSED,
	  "the signature of the envelope does not verify under the british's sign_key" },
	{ "step 6: dated before its parent", dated_before, PEER_REFUSED,
	  "the commit is dated Mon, 13 Nov 2023 22:13:20 +0000, before its parent" },
	{ "step 6: dated an hour after the clock", dated_after, PEER_REFUSED,
	  "more than an hour after this machine's clock" },
	{ "step 6: the facts give another commit", other_commit, PEER_REFUSED,
	  "does not replay: the same facts give " },
	{ "step 7: a patch changed where no fact reads it", log_changed, PEER_REFUSED,
	  "it was changed (8.3 step 7)" },
	{ "the join as mailed: accepted", as_mailed, PEER_ACCEPTED, "accepted: the british joined" },
	{ "step 4: the same mail again is a copy", as_mailed, PEER_COPY, "already applied: commit " },
	{ "step 4: another commit on the same parent is a fork", other_commit, PEER_REFUSED,
	  "forks the history after 1: the opponent " },
};

static void test_accepting_a_mail(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(accept_rows); i++) {
		const struct accept_row *r = &accept_rows[i];
		struct forge f;
		struct strbuf mail = STRBUF_INIT, said = STRBUF_INIT, err = STRBUF_INIT;
		struct peer_copy pc;
		char why[200], before[41];
		int got;

		print_message("8.3: %s\n", r->name);
		memset(&f, 0, sizeof(f));
		strbuf_init(&f.env_text);
		strbuf_init(&f.patch);
		assert_int_equal(peer_mail_extract(join.buf, join.len, &f.env_text, &f.patch,
						   why, sizeof(why)), 0);
		assert_int_equal(peer_envelope_parse(f.env_text.buf, f.env_text.len, &f.e,
						     why, sizeof(why)), 0);
		r->change(&f);
		forge_mail(&f, &mail);
		assert_int_equal(peer_copy_open(dir_a, &pc, GAME_LOCK, &err), 0);
		snprintf(before, sizeof(before), "%s", pc.g.head);
		got = peer_accept_mail(&pc, &cfg, mail.buf, mail.len, &said);
		if (got != (int)r->outcome || !strstr(said.buf, r->said))
			fail_msg("'%s': outcome %d '%s', not %d '%s'", r->name, got, said.buf,
				 r->outcome, r->said);
		if (r->outcome != PEER_ACCEPTED)
			assert_string_equal(pc.g.head, before);	/* nothing changed */
		else
			assert_string_not_equal(pc.g.head, before);
		peer_copy_close(&pc);
		strbuf_release(&f.env_text);
		strbuf_release(&f.patch);
		strbuf_release(&mail);
		strbuf_release(&said);
		strbuf_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_who_commits_what),
		cmocka_unit_test(test_accepting_a_mail),
	};

	return cmocka_run_group_tests_name("peer protocol", tests, group_setup,
					   group_teardown);
}
