/*
 * test_peer_wire.c - the mails between two postriders (src/peer-wire.c):
 * the envelope written, parsed and verified, and every kind of tampering
 * refused with its reason; a commit's patch applied in another copy by
 * repo_apply_patch() giving the same commit id, and a bad patch or id
 * changing nothing; the mail composed and its attachments found again,
 * also as a mail client re-encodes them; the place of a received commit.
 */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/sha.h>

#include "codec.h"
#include "game_fixture.h"
#include "mail.h"
#include "peer-wire.h"
#include "repo.h"

static char *tmp_root;

PRINTF_LIKE(1, 2)
static int run(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	int st;

	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	st = system(strbuf_str(&cmd));
	strbuf_release(&cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int group_setup(void **state)
{
	(void)state;
	setenv("HOME", "/nonexistent-postrider-home", 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("TZ", "UTC", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	repo_global_init();
	repo_set_durable(false);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	repo_global_shutdown();
	return 0;
}

static int setup(void **state)
{
	char tmpl[] = "/tmp/postrider-test-wire-XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	tmp_root = xstrdup(tmpl);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (!getenv("KEEP_TMP")) run("rm -rf '%s'", tmp_root);
	free(tmp_root);
	tmp_root = NULL;
	return 0;
}

static char *tpath(const char *name)
{
	return xstrfmt("%s/%s", tmp_root, name);
}

/* The keys of side 1 or 2 from a fixed secret. */
static void keys(int side, struct pcrypto_secret *sk, struct pcrypto_public *pk)
{
	unsigned char secret[32];

	memset(secret, side == 1 ? 0x11 : 0x22, sizeof(secret));
	assert_int_equal(pcrypto_keys(secret, sk, pk), 0);
}

static const char OID_A[] = "0123456789abcdef0123456789abcdef01234567";
static const char OID_B[] = "89abcdef0123456789abcdef0123456789abcdef";
static const char OID_C[] = "fedcba9876543210fedcba9876543210fedcba98";

static void sample(struct peer_envelope *e, int n_dice)
{
	memset(e, 0, sizeof(*e));
	strcpy(e->game, "ww-t3st");
	e->from = 2;
	e->seq = 17;
	strcpy(e->parent, OID_A);
	strcpy(e->commit, OID_B);
	strcpy(e->kind, "answer");
	for (int i = 0; i < 32; i++)
		e->patch[i] = (unsigned char)(i * 7 + 1);
	e->n_dice = n_dice;
	for (int d = 0; d < n_dice; d++) {
		strcpy(e->dice[d].oid, d ? OID_A : OID_C);
		for (int i = 0; i < PEER_WIRE_VRF_PROOF; i++)
			e->dice[d].proof[i] = (unsigned char)(i + d * 3);
	}
}

/* ---- the envelope ---- */

static void test_envelope_round_trip(void **state)
{
	struct pcrypto_secret sk;
	struct pcrypto_public pk, other;
	struct peer_envelope e, back;
	struct strbuf t = STRBUF_INIT;
	char why[200];

	(void)state;
	keys(2, &sk, &pk);
	{
		struct pcrypto_secret osk;
		keys(1, &osk, &other);
	}
	for (int nd = 0; nd <= 2; nd++) {
		sample(&e, nd);
		strbuf_reset(&t);
		assert_int_equal(peer_envelope_write(&e, &sk, &t), 0);
		assert_true(!strncmp(t.buf, "postrider-peer 1\ngame ww-t3st\n"
				     "from british\nseq 17\nparent ", 51));
		assert_int_equal(peer_envelope_parse(t.buf, t.len, &back, why,
						     sizeof(why)), 0);
		assert_string_equal(back.game, e.game);
		assert_int_equal(back.from, 2);
		assert_int_equal(back.seq, 17);
		assert_string_equal(back.parent, OID_A);
		assert_string_equal(back.commit, OID_B);
		assert_string_equal(back.kind, "answer");
		assert_memory_equal(back.patch, e.patch, 32);
		assert_int_equal(back.n_dice, nd);
		for (int d = 0; d < nd; d++) {
			assert_string_equal(back.dice[d].oid, e.dice[d].oid);
			assert_memory_equal(back.dice[d].proof, e.dice[d].proof,
					    PEER_WIRE_VRF_PROOF);
		}
		assert_int_equal(peer_envelope_verify(&back, pk.sign, t.buf, t.len), 0);
		/* a wrong key: the other side's */
		assert_int_equal(peer_envelope_verify(&back, other.sign, t.buf, t.len), -1);
	}
	/* the first commit: parent none */
	sample(&e, 0);
	e.parent[0] = '\0';
	e.seq = 1;
	strcpy(e.kind, "invite");
	strbuf_reset(&t);
	assert_int_equal(peer_envelope_write(&e, &sk, &t), 0);
	assert_non_null(strstr(t.buf, "\nparent none\n"));
	assert_int_equal(peer_envelope_parse(t.buf, t.len, &back, why, sizeof(why)), 0);
	assert_string_equal(back.parent, "");
	assert_int_equal(peer_envelope_verify(&back, pk.sign, t.buf, t.len), 0);
	/* a field that is not valid is not written */
	strcpy(e.kind, "move");
	strbuf_reset(&t);
	assert_int_equal(peer_envelope_write(&e, &sk, &t), -1);
	assert_int_equal(t.len, 0);
	strbuf_release(&t);
}

/* parse then verify; 0 only when both accept. why gets parse's reason. */
static int check(const char *text, size_t len, const unsigned char *key,
		 char *why, size_t whylen)
{
	struct peer_envelope e;

	why[0] = '\0';
	if (peer_envelope_parse(text, len, &e, why, whylen) < 0)
		return -1;
	if (peer_envelope_verify(&e, key, text, len) < 0) {
		snprintf(why, whylen, "bad signature");
		return -1;
	}
	return 0;
}

/* text with the line starting with `prefix` replaced by repl (may be ""). */
static char *replace_line(const char *text, const char *prefix,
			  const char *repl)
{
	const char *p = strstr(text, prefix), *nl;
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(p);
	nl = strchr(p, '\n');
	strbuf_add(&sb, text, (size_t)(p - text));
	strbuf_addstr(&sb, repl);
	strbuf_addstr(&sb, nl + 1);
	return strbuf_detach(&sb, NULL);
}

static void expect_refused(const char *text, const unsigned char *key,
			   const char *reason)
{
	char why[200];

	assert_int_equal(check(text, strlen(text), key, why, sizeof(why)), -1);
	if (!strstr(why, reason))
		fail_msg("reason \"%s\" does not say \"%s\"", why, reason);
}

static void test_envelope_tampering(void **state)
{
	struct pcrypto_secret sk;
	struct pcrypto_public pk, other;
	struct pcrypto_secret osk;
	struct peer_envelope e;
	struct strbuf t = STRBUF_INIT;
	char why[200], *s, *line;

	(void)state;
	keys(2, &sk, &pk);
	keys(1, &osk, &other);
	sample(&e, 2);
	assert_int_equal(peer_envelope_write(&e, &sk, &t), 0);
	assert_int_equal(check(t.buf, t.len, pk.sign, why, sizeof(why)), 0);

	/* a changed byte anywhere: every byte, two ways */
	for (size_t i = 0; i < t.len; i++) {
		for (int k = 0; k < 2; k++) {
			char *c = xstrndup(t.buf, t.len);
			c[i] = k ? (char)(c[i] ^ 1) : (c[i] == '0' ? '1' : '0');
			if (c[i] == t.buf[i])
				c[i] = 'x';
			if (!check(c, t.len, pk.sign, why, sizeof(why)))
				fail_msg("byte %zu changed to '%c' is accepted", i, c[i]);
			free(c);
		}
	}
	/* a byte cut or added at the end */
	assert_int_equal(check(t.buf, t.len - 1, pk.sign, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no line feed"));
	s = xstrfmt("%sx\n", t.buf);
	expect_refused(s, pk.sign, "a line after the \"sig\" line");
	free(s);

	/* a missing line */
	s = replace_line(t.buf, "kind ", "");
	expect_refused(s, pk.sign, "\"kind\" expected");
	free(s);
	s = replace_line(t.buf, "sig ", "");
	expect_refused(s, pk.sign, "ends before its \"sig\" line");
	free(s);
	/* an extra line, in the middle or before the signature */
	s = replace_line(t.buf, "commit ", "note hello\ncommit 89abcdef0123456789"
			 "abcdef0123456789abcdef\n");
	expect_refused(s, pk.sign, "\"commit\" expected");
	free(s);
	line = strstr(t.buf, "sig ");
	s = xstrfmt("%.*sextra 1\n%s", (int)(line - t.buf), t.buf, line);
	expect_refused(s, pk.sign, "\"sig\" expected");
	free(s);
	s = xstrfmt("\n%s", t.buf);
	expect_refused(s, pk.sign, "line 1");
	free(s);
	/* uppercase hex, in each hex field */
	s = replace_line(t.buf, "commit ", "commit 89ABCDEF0123456789abcdef0123456789abcdef\n");
	expect_refused(s, pk.sign, "not lowercase hex");
	free(s);
	line = strstr(t.buf, "sig ");
	{
		char *u = xstrdup(t.buf);
		u[line - t.buf + 4] = (char)toupper((unsigned char)u[line - t.buf + 4]);
		if (u[line - t.buf + 4] != line[4])
			expect_refused(u, pk.sign, "not lowercase hex");
		free(u);
	}
	s = replace_line(t.buf, "patch ", "patch 0108 0f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3dae1e8efu\n");
	expect_refused(s, pk.sign, "patch");
	free(s);
	/* CRLF */
	{
		struct strbuf c = STRBUF_INIT;
		for (size_t i = 0; i < t.len; i++) {
			if (t.buf[i] == '\n')
				strbuf_addch(&c, '\r');
			strbuf_addch(&c, t.buf[i]);
		}
		expect_refused(c.buf, pk.sign, "carriage return");
		/* also a CR on one line only */
		strbuf_reset(&c);
		s = replace_line(t.buf, "seq ", "seq 17\r\n");
		expect_refused(s, pk.sign, "line 4: a carriage return");
		free(s);
		strbuf_release(&c);
	}
	/* seq: a leading zero, zero, not a number */
	s = replace_line(t.buf, "seq ", "seq 017\n");
	expect_refused(s, pk.sign, "leading zero");
	free(s);
	s = replace_line(t.buf, "seq ", "seq 0\n");
	expect_refused(s, pk.sign, "leading zero");
	free(s);
	s = replace_line(t.buf, "seq ", "seq +17\n");
	expect_refused(s, pk.sign, "not a number");
	free(s);
	s = replace_line(t.buf, "from ", "from French\n");
	expect_refused(s, pk.sign, "neither american nor british");
	free(s);
	s = replace_line(t.buf, "kind ", "kind move\n");
	expect_refused(s, pk.sign, "unknown kind");
	free(s);
	s = replace_line(t.buf, "game ", "game WW-T3ST\n");
	expect_refused(s, pk.sign, "not a game id");
	free(s);
	s = replace_line(t.buf, "postrider-peer", "postrider-peer 2\n");
	expect_refused(s, pk.sign, "another version");
	free(s);
	s = replace_line(t.buf, "dice ", "dice 0123\n");
	expect_refused(s, pk.sign, "dice OID HEX162");
	free(s);
	/* a double space, a trailing space */
	s = replace_line(t.buf, "kind ", "kind  answer\n");
	expect_refused(s, pk.sign, "unknown kind");
	free(s);
	s = replace_line(t.buf, "seq ", "seq 17 \n");
	expect_refused(s, pk.sign, "not a number");
	free(s);

	/* a wrong key: signed by the other side, checked under ours */
	{
		struct strbuf o = STRBUF_INIT;
		assert_int_equal(peer_envelope_write(&e, &osk, &o), 0);
		expect_refused(o.buf, pk.sign, "bad signature");
		assert_int_equal(check(o.buf, o.len, other.sign, why, sizeof(why)), 0);
		strbuf_release(&o);
	}
	/* a valid line moved: the dice lines swapped */
	{
		char *d1 = strstr(t.buf, "\ndice ") + 1, *d2 = strchr(d1, '\n') + 1;
		char *d3 = strchr(d2, '\n') + 1;
		struct strbuf sw = STRBUF_INIT;
		strbuf_add(&sw, t.buf, (size_t)(d1 - t.buf));
		strbuf_add(&sw, d2, (size_t)(d3 - d2));
		strbuf_add(&sw, d1, (size_t)(d2 - d1));
		strbuf_addstr(&sw, d3);
		expect_refused(sw.buf, pk.sign, "bad signature");
		strbuf_release(&sw);
	}
	strbuf_release(&t);
}

/* ---- the patch, applied in another copy ---- */

static const struct repo_ident american = {
	"George Washington", "gw@example.org", 1800000000, -300
};
static const struct repo_ident british = {
	"Sir William Howe, 5th Viscount (\xc3\x9c)", "howe@example.co.uk",
	1800003600, 60
};

#define F(p, s) { (p), (s), sizeof(s) - 1 }

/* A game of four commits in dir: root (with a binary data/ file), a
 * change, a deletion and an addition, a message without a body. */
static struct repo *make_game(const char *dir, char ids[4][41])
{
	static const char bin[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe";
	struct repo *r = NULL;
	const struct repo_file root[] = {
		F("game.yaml", "mode: peer\nid: ww-t3st\n"),
		F("log.txt", "1775: the game begins\n"),
		{ "data/map.png", bin, sizeof(bin) - 1 },
		F("data/cards.yaml", "- 1: Common Sense\n- 2: Minute Men\n"),
	};
	const struct repo_file two[] = {
		F("log.txt", "1775: the game begins\nAmerican: OC to Boston\n"),
		F("orders/0002-american.txt", "move 3 Boston\n"),
	};
	const struct repo_file three[] = {
		F("state.yaml", "turn: 1775\n"),
	};
	const char *rm3[] = { "data/cards.yaml", NULL };
	const struct repo_file four[] = {
		F("log.txt", "1775: the game begins\nAmerican: OC to Boston\n"
			     "British: \xc3\xa9t\xc3\xa9 caf\xc3\xa9\n"),
	};

	assert_int_equal(repo_create(dir, &r), 0);
	assert_int_equal(repo_commit_prepare(r, NULL, root, 4, NULL, &american,
		&american, "Invitation\n\nPostrider-Game: ww-t3st\n"
		"Postrider-Seq: 1\nPostrider-Side: american\n", ids[0]), 0);
	assert_int_equal(repo_commit_publish(r, NULL, ids[0]), 0);
	assert_int_equal(repo_commit_prepare(r, ids[0], two, 2, NULL, &american,
		&american, "1775 American: OC to Boston\n\nA line of body.\n\n"
		"Postrider-Seq: 2\nPostrider-Side: american\n", ids[1]), 0);
	assert_int_equal(repo_commit_publish(r, ids[0], ids[1]), 0);
	assert_int_equal(repo_commit_prepare(r, ids[1], three, 1, rm3, &british,
		&british, "Cards gone: a summary line much longer than a mail "
		"header line should be, seventy-eight characters and more, so "
		"that a folding writer would fold it\n\nA body with a line\n---\n"
		"of three dashes.\n\nPostrider-Seq: 3\n", ids[2]), 0);
	assert_int_equal(repo_commit_publish(r, ids[1], ids[2]), 0);
	assert_int_equal(repo_commit_prepare(r, ids[2], four, 1, NULL, &british,
		&british, "No body", ids[3]), 0);
	assert_int_equal(repo_commit_publish(r, ids[2], ids[3]), 0);
	return r;
}

static char *patch_of(struct repo *r, const char *id, bool packed, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	if (packed)
		assert_int_equal(repo_format_patch_packed(r, id, "data/", &sb), 0);
	else
		assert_int_equal(repo_format_patch(r, id, &sb), 0);
	return strbuf_detach(&sb, len);
}

static void test_apply_patch(void **state)
{
	char *a = tpath("a"), *b = tpath("b"), *c = tpath("c");
	char ids[4][41], head[41], why[200];
	struct repo *ra = NULL, *rb = NULL, *rc = NULL;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	ra = make_game(a, ids);
	assert_int_equal(repo_create(b, &rb), 0);
	assert_int_equal(repo_create(c, &rc), 0);
	for (int i = 0; i < 4; i++) {
		size_t len;
		char *p = patch_of(ra, ids[i], i == 0, &len);
		if (i == 0)
			assert_non_null(strstr(p, "GIT binary patch"));
		assert_int_equal(repo_apply_patch(rb, p, len, ids[i], why,
						  sizeof(why)), 0);
		assert_int_equal(repo_head(rb, head), 0);
		assert_string_equal(head, ids[i]);
		free(p);
		/* the unpacked patch of the root gives the same commit too */
		p = patch_of(ra, ids[i], false, &len);
		assert_int_equal(repo_apply_patch(rc, p, len, ids[i], why,
						  sizeof(why)), 0);
		free(p);
	}
	assert_int_equal(repo_head(rc, head), 0);
	assert_string_equal(head, ids[3]);
	/* the work tree follows, and git sees a clean, sound repository */
	assert_int_equal(run("cmp -s '%s/data/map.png' '%s/data/map.png'", a, b), 0);
	assert_int_equal(run("test ! -e '%s/data/cards.yaml'", b), 0);
	assert_int_equal(run("cmp -s '%s/log.txt' '%s/log.txt'", a, b), 0);
	assert_int_equal(run("git -C '%s' fsck --strict --no-dangling >/dev/null 2>&1 && "
			     "test -z \"$(git -C '%s' status --porcelain)\"", b, b), 0);
	/* the changes each patch makes */
	{
		static const char *const want[4] = {
			"A data/cards.yaml\nA data/map.png\nA game.yaml\nA log.txt\n",
			"M log.txt\nA orders/0002-american.txt\n",
			"D data/cards.yaml\nA state.yaml\n",
			"M log.txt\n",
		};
		for (int i = 0; i < 4; i++) {
			size_t len;
			unsigned parents;
			char *p = patch_of(ra, ids[i], i == 0, &len);
			strbuf_reset(&sb);
			assert_int_equal(repo_patch_changes(p, len, &sb, why,
							    sizeof(why)), 0);
			assert_string_equal(sb.buf, want[i]);
			/* the same as what the commit itself changes */
			strbuf_reset(&sb);
			assert_int_equal(repo_changes(ra, ids[i], &sb, &parents), 0);
			assert_int_equal(parents, i ? 1 : 0);
			assert_string_equal(sb.buf, want[i]);
			free(p);
		}
	}
	repo_free(ra);
	repo_free(rb);
	repo_free(rc);
	strbuf_release(&sb);
	free(a);
	free(b);
	free(c);
}

/* The head and the work tree of dir, as one string, to see nothing moved. */
static char *snapshot(const char *dir)
{
	struct strbuf cmd = STRBUF_INIT, out = STRBUF_INIT;
	char buf[4096];
	size_t n;
	FILE *f;

	strbuf_addf(&cmd, "cd '%s' && git rev-parse -q --verify refs/heads/main; "
		    "find . -path ./.git -prune -o -type f -print | sort | "
		    "xargs -r sha256sum", dir);
	f = popen(cmd.buf, "r");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&out, buf, n);
	pclose(f);
	strbuf_release(&cmd);
	return strbuf_detach(&out, NULL);
}

/* A patch whose line `from` (a whole line, first occurrence after the
 * diff starts) is replaced by `to`. */
static char *edit_patch(const char *p, const char *from, const char *to)
{
	const char *d = strstr(p, "\ndiff --git "), *at;
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(d);
	at = strstr(d, from);
	assert_non_null(at);
	strbuf_add(&sb, p, (size_t)(at - p));
	strbuf_addstr(&sb, to);
	strbuf_addstr(&sb, at + strlen(from));
	return strbuf_detach(&sb, NULL);
}

static void test_apply_patch_refused(void **state)
{
	char *a = tpath("a"), *b = tpath("b");
	char ids[4][41], why[200], *before, *after, *p, *bad;
	struct repo *ra = NULL, *rb = NULL;
	size_t len;

	(void)state;
	ra = make_game(a, ids);
	assert_int_equal(repo_create(b, &rb), 0);

	/* a root patch with the wrong id: nothing at all */
	p = patch_of(ra, ids[0], true, &len);
	before = snapshot(b);
	assert_int_equal(repo_apply_patch(rb, p, len, ids[1], why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not"));
	after = snapshot(b);
	assert_string_equal(before, after);
	free(before);
	free(after);
	assert_int_equal(repo_apply_patch(rb, p, len, ids[0], why, sizeof(why)), 0);
	free(p);

	p = patch_of(ra, ids[1], false, &len);
	before = snapshot(b);
	/* a modified patch: an added line changed */
	bad = edit_patch(p, "+American: OC to Boston\n", "+American: OC to Quebec\n");
	assert_int_equal(repo_apply_patch(rb, bad, strlen(bad), ids[1], why,
					  sizeof(why)), -1);
	assert_non_null(strstr(why, "gives commit"));
	after = snapshot(b);
	assert_string_equal(before, after);
	free(after);
	free(bad);
	/* a context line that is not in the file: does not apply */
	bad = edit_patch(p, " 1775: the game begins\n", " 1776: the game begins\n");
	assert_int_equal(repo_apply_patch(rb, bad, strlen(bad), ids[1], why,
					  sizeof(why)), -1);
	assert_non_null(strstr(why, "does not apply"));
	after = snapshot(b);
	assert_string_equal(before, after);
	free(after);
	free(bad);
	/* a changed message or author or date: another commit id */
	{
		static const char *const edits[][2] = {
			{ "A line of body.", "A line of bodY." },
			{ "From: George Washington", "From: George Washingtom" },
			{ "Date: ", "Date: Mon, 1 Jan 2001 00:00:00 +0000\nX-Date: " },
		};
		for (size_t i = 0; i < ARRAY_SIZE(edits); i++) {
			char *at = strstr(p, edits[i][0]);
			struct strbuf sb = STRBUF_INIT;
			assert_non_null(at);
			strbuf_add(&sb, p, (size_t)(at - p));
			strbuf_addstr(&sb, edits[i][1]);
			strbuf_addstr(&sb, at + strlen(edits[i][0]));
			assert_int_equal(repo_apply_patch(rb, sb.buf, sb.len, ids[1],
							  why, sizeof(why)), -1);
			after = snapshot(b);
			assert_string_equal(before, after);
			free(after);
			strbuf_release(&sb);
		}
	}
	/* a patch to a path git must never write */
	bad = xstrdup(p);
	for (int k = 0; k < 3; k++) {
		char *next = edit_patch(bad, "orders/0002-american.txt",
					".git/hooks/post-commit");
		free(bad);
		bad = next;
	}
	assert_int_equal(repo_apply_patch(rb, bad, strlen(bad), ids[1], why,
					  sizeof(why)), -1);
	after = snapshot(b);
	assert_string_equal(before, after);
	free(after);
	free(bad);
	/* not a patch; the patch of a commit whose parent is not the head */
	assert_int_equal(repo_apply_patch(rb, "hello\n", 6, ids[1], why,
					  sizeof(why)), -1);
	assert_non_null(strstr(why, "From "));
	free(p);
	p = patch_of(ra, ids[2], false, &len);
	assert_int_equal(repo_apply_patch(rb, p, len, ids[2], why, sizeof(why)), -1);
	after = snapshot(b);
	assert_string_equal(before, after);
	free(after);
	free(p);
	/* and the right one still applies */
	p = patch_of(ra, ids[1], false, &len);
	assert_int_equal(repo_apply_patch(rb, p, len, ids[1], why, sizeof(why)), 0);
	free(p);
	free(before);

	/* prepared only: readable by its id, nothing moves until published */
	{
		char h[41], head[41];
		struct strbuf sb = STRBUF_INIT;
		p = patch_of(ra, ids[2], false, &len);
		before = snapshot(b);
		assert_int_equal(repo_patch_prepare(rb, p, len, ids[2], h, why,
						    sizeof(why)), 0);
		assert_string_equal(h, ids[1]);
		after = snapshot(b);
		assert_string_equal(before, after);
		free(after);
		assert_int_equal(repo_read(rb, ids[2], "state.yaml", &sb), 0);
		assert_string_equal(sb.buf, "turn: 1775\n");
		assert_int_equal(repo_commit_publish(rb, h, ids[2]), 0);
		assert_int_equal(repo_head(rb, head), 0);
		assert_string_equal(head, ids[2]);
		assert_int_equal(run("test -e '%s/state.yaml' && test ! -e "
				     "'%s/data/cards.yaml'", b, b), 0);
		free(before);
		free(p);
		strbuf_release(&sb);
	}
	repo_free(ra);
	repo_free(rb);
	free(a);
	free(b);
}

/* ---- the mail ---- */

/* A signed envelope and a patch of game a's commit i, in e, env, patch. */
static void mail_parts(struct repo *ra, const char ids[4][41], int i,
		       const struct pcrypto_secret *sk, struct peer_envelope *e,
		       struct strbuf *env, struct strbuf *patch)
{
	size_t len;
	char *p = patch_of(ra, ids[i], i == 0, &len);

	memset(e, 0, sizeof(*e));
	strcpy(e->game, "ww-t3st");
	e->from = 1;
	e->seq = (unsigned long)i + 1;
	if (i)
		strcpy(e->parent, ids[i - 1]);
	strcpy(e->commit, ids[i]);
	strcpy(e->kind, i ? "order" : "invite");
	SHA256((const unsigned char *)p, len, e->patch);
	strbuf_add(patch, p, len);
	free(p);
	assert_int_equal(peer_envelope_write(e, sk, env), 0);
}

/* The mail m with its two attachments re-encoded: the envelope in base64
 * (with CRLF, as text in a canonical form), the patch in quoted-printable,
 * and the whole nested in a multipart/alternative, as a client may
 * forward it. */
static char *reencode(const struct strbuf *env, const struct strbuf *patch,
		      const char *ename, const char *pname)
{
	struct strbuf m = STRBUF_INIT, crlf = STRBUF_INIT;

	strbuf_addstr(&m, "From someone Sat Jan  1 00:00:00 2027\n"
		      "From: gw@example.org\nTo: howe@example.co.uk\n"
		      "Subject: Fwd\nMIME-Version: 1.0\n"
		      "Content-Type: multipart/mixed; boundary=\"outer\"\n\n"
		      "--outer\nContent-Type: multipart/alternative; boundary=inner\n\n"
		      "--inner\nContent-Type: text/plain\n\nhello\n"
		      "--inner\nContent-Type: text/html\n\n<p>hello</p>\n--inner--\n");
	for (size_t i = 0; i < env->len; i++) {
		if (env->buf[i] == '\n')
			strbuf_addch(&crlf, '\r');
		strbuf_addch(&crlf, env->buf[i]);
	}
	strbuf_addf(&m, "--outer\nContent-Type: text/plain;\n name=\"%s\"\n"
		    "Content-Transfer-Encoding: BASE64\n"
		    "Content-Disposition: attachment;\n filename*=utf-8''%s\n\n",
		    ename, ename);
	codec_base64_lines(crlf.buf, crlf.len, "\n", &m);
	strbuf_addf(&m, "--outer\nContent-Type: text/x-patch\n"
		    "Content-Disposition: attachment; filename=\"%s\"\n"
		    "Content-Transfer-Encoding: quoted-printable\n\n", pname);
	{
		/* quoted-printable, lines of at most 76 */
		static const char hex[] = "0123456789ABCDEF";
		size_t col = 0;
		for (size_t i = 0; i < patch->len; i++) {
			unsigned char c = (unsigned char)patch->buf[i];
			char tok[4];
			size_t tl;
			if (c == '\n') {
				strbuf_addch(&m, '\n');
				col = 0;
				continue;
			}
			if (c >= 33 && c <= 126 && c != '=' &&
			    !(c == '.' && col == 0)) {
				tok[0] = (char)c;
				tl = 1;
			} else if (c == ' ' && i + 1 < patch->len &&
				   patch->buf[i + 1] != '\n') {
				tok[0] = ' ';
				tl = 1;
			} else {
				tok[0] = '=';
				tok[1] = hex[c >> 4];
				tok[2] = hex[c & 15];
				tl = 3;
			}
			if (col + tl > 75) {
				strbuf_addstr(&m, "=\n");
				col = 0;
			}
			strbuf_add(&m, tok, tl);
			col += tl;
		}
	}
	strbuf_addstr(&m, "\n--outer--\n");
	strbuf_release(&crlf);
	return strbuf_detach(&m, NULL);
}

static void test_mail_round_trip(void **state)
{
	char *a = tpath("a");
	char ids[4][41], why[200], mid[128];
	struct repo *ra;
	struct pcrypto_secret sk;
	struct pcrypto_public pk;

	(void)state;
	keys(1, &sk, &pk);
	ra = make_game(a, ids);
	for (int i = 0; i < 4; i++) {
		struct peer_envelope e, back;
		struct strbuf env = STRBUF_INIT, patch = STRBUF_INIT;
		struct strbuf mail = STRBUF_INIT, e2 = STRBUF_INIT, p2 = STRBUF_INIT;
		char ename[96], pname[32], subject[64], *fwd;
		struct peer_mail m = {
			"George Washington <gw@example.org>",
			"William Howe <howe@example.co.uk>",
			"Sat, 16 Jan 2027 08:00:00 +0000", NULL, NULL, &e,
			NULL, 0, NULL, 0,
		};

		mail_parts(ra, ids, i, &sk, &e, &env, &patch);
		m.envelope = env.buf;
		m.envelope_len = env.len;
		m.patch = patch.buf;
		m.patch_len = patch.len;
		if (i) {
			assert_int_equal(peer_mail_message_id("ww-t3st", (unsigned long)i,
				1, "howe@example.co.uk", mid, sizeof(mid)), 0);
			m.in_reply_to = mid;
			m.references = mid;
		}
		assert_int_equal(peer_mail_compose(&m, &mail, why, sizeof(why)), 0);
		snprintf(subject, sizeof(subject), "Subject: [ww-t3st] peer %d "
			 "american %s\r\n", i + 1, e.kind);
		assert_non_null(strstr(mail.buf, subject));
		assert_non_null(strstr(mail.buf, "Auto-Submitted: auto-generated\r\n"));
		snprintf(ename, sizeof(ename), "<postrider.ww-t3st.%d.american."
			 "peer@example.org>", i + 1);
		assert_non_null(strstr(mail.buf, ename));
		if (i)
			assert_non_null(strstr(mail.buf, "In-Reply-To: <postrider."
					       "ww-t3st."));
		snprintf(ename, sizeof(ename), "peer-%d.txt", i + 1);
		snprintf(pname, sizeof(pname), "%d-american.patch", i + 1);
		assert_non_null(strstr(mail.buf, ename));
		assert_non_null(strstr(mail.buf, pname));
		assert_non_null(strstr(mail.buf, "text/x-diff"));

		/* as sent */
		assert_int_equal(peer_mail_extract(mail.buf, mail.len, &e2, &p2,
						   why, sizeof(why)), 0);
		assert_int_equal(e2.len, env.len);
		assert_memory_equal(e2.buf, env.buf, env.len);
		assert_int_equal(p2.len, patch.len);
		assert_memory_equal(p2.buf, patch.buf, patch.len);
		assert_int_equal(peer_envelope_parse(e2.buf, e2.len, &back, why,
						     sizeof(why)), 0);
		assert_int_equal(peer_envelope_verify(&back, pk.sign, e2.buf, e2.len), 0);
		assert_int_equal(peer_patch_check(&back, p2.buf, p2.len, why,
						  sizeof(why)), 0);

		/* as a mail client re-encodes it */
		fwd = reencode(&env, &patch, ename, pname);
		strbuf_reset(&e2);
		strbuf_reset(&p2);
		assert_int_equal(peer_mail_extract(fwd, strlen(fwd), &e2, &p2,
						   why, sizeof(why)), 0);
		assert_int_equal(e2.len, env.len);
		assert_memory_equal(e2.buf, env.buf, env.len);
		assert_int_equal(p2.len, patch.len);
		assert_memory_equal(p2.buf, patch.buf, patch.len);
		free(fwd);

		/* a patch changed on the way is refused by its hash */
		p2.buf[p2.len / 2] ^= 1;
		assert_int_equal(peer_patch_check(&back, p2.buf, p2.len, why,
						  sizeof(why)), -1);
		assert_non_null(strstr(why, "SHA-256"));

		strbuf_release(&env);
		strbuf_release(&patch);
		strbuf_release(&mail);
		strbuf_release(&e2);
		strbuf_release(&p2);
	}
	repo_free(ra);
	free(a);
}

static void test_mail_extract_refused(void **state)
{
	struct strbuf e = STRBUF_INIT, p = STRBUF_INIT;
	char why[200];
	static const char plain[] = "From: a@example.org\nSubject: hi\n\nmove 3\n";
	static const char no_patch[] =
		"From: a@example.org\nMIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Type: text/plain\n\nhi\n"
		"--b\nContent-Type: text/plain; name=peer-3.txt\n\nx\n"
		"--b\nContent-Type: text/x-diff; name=2-british.patch\n\ny\n--b--\n";
	static const char two[] =
		"From: a@example.org\nMIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Disposition: attachment; filename=peer-3.txt\n\nx\n"
		"--b\nContent-Disposition: attachment; filename=peer-4.txt\n\nx\n"
		"--b\nContent-Type: text/x-diff; name=3-british.patch\n\ny\n--b--\n";
	static const char unknown[] =
		"From: a@example.org\nMIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Disposition: attachment; filename=peer-3.txt\n"
		"Content-Transfer-Encoding: x-uuencode\n\nx\n"
		"--b\nContent-Type: text/x-diff; name=3-british.patch\n\ny\n--b--\n";
	static const char broken[] =
		"From: a@example.org\nMIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=b\n\n"
		"--b\nContent-Disposition: attachment; filename=peer-3.txt\n\nx\n";

	(void)state;
	/* not a peer mail */
	assert_int_equal(peer_mail_extract(plain, strlen(plain), &e, &p, why,
					   sizeof(why)), 1);
	assert_int_equal(e.len + p.len, 0);
	/* an envelope without its patch (the patch of another seq) */
	assert_int_equal(peer_mail_extract(no_patch, strlen(no_patch), &e, &p,
					   why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no patch"));
	assert_int_equal(peer_mail_extract(two, strlen(two), &e, &p, why,
					   sizeof(why)), -1);
	assert_non_null(strstr(why, "two envelopes"));
	assert_int_equal(peer_mail_extract(unknown, strlen(unknown), &e, &p, why,
					   sizeof(why)), -1);
	assert_non_null(strstr(why, "x-uuencode"));
	assert_int_equal(peer_mail_extract(broken, strlen(broken), &e, &p, why,
					   sizeof(why)), -1);
	assert_non_null(strstr(why, "never closed"));
	assert_int_equal(e.len + p.len, 0);
	strbuf_release(&e);
	strbuf_release(&p);
}

/* Two fixture mails, the envelope 7bit and quoted-printable: the same
 * envelope, which parses (its signature is not a real one). */
static void test_mail_fixtures(void **state)
{
	struct strbuf raw = STRBUF_INIT, e1 = STRBUF_INIT, p1 = STRBUF_INIT;
	struct strbuf e2 = STRBUF_INIT, p2 = STRBUF_INIT;
	struct peer_envelope e;
	char why[200];

	(void)state;
	assert_int_equal(read_file("tests/fixtures/mail/peer-7bit.eml", &raw, 1 << 20), 0);
	assert_int_equal(peer_mail_extract(raw.buf, raw.len, &e1, &p1, why,
					   sizeof(why)), 0);
	strbuf_reset(&raw);
	assert_int_equal(read_file("tests/fixtures/mail/peer-qp.eml", &raw, 1 << 20), 0);
	assert_int_equal(peer_mail_extract(raw.buf, raw.len, &e2, &p2, why,
					   sizeof(why)), 0);
	assert_int_equal(e1.len, e2.len);
	assert_memory_equal(e1.buf, e2.buf, e1.len);
	assert_int_equal(p1.len, p2.len);
	assert_memory_equal(p1.buf, p2.buf, p1.len);
	assert_int_equal(peer_envelope_parse(e1.buf, e1.len, &e, why, sizeof(why)), 0);
	assert_int_equal(e.seq, 17);
	assert_int_equal(e.n_dice, 1);
	assert_non_null(strstr(p1.buf, "Subject: [PATCH] x\n"));
	strbuf_release(&raw);
	strbuf_release(&e1);
	strbuf_release(&p1);
	strbuf_release(&e2);
	strbuf_release(&p2);
}

/* ---- the place of a commit ---- */

static void test_place(void **state)
{
	char *a = tpath("a"), *b = tpath("b");
	char ids[4][41], why[200];
	struct repo *ra, *rb;
	struct peer_envelope e;
	struct strbuf path = STRBUF_INIT, kept = STRBUF_INIT;

	(void)state;
	ra = make_game(a, ids);
	assert_int_equal(repo_create(b, &rb), 0);
	memset(&e, 0, sizeof(e));
	strcpy(e.game, "ww-t3st");
	e.from = 2;
	/* an empty copy: the invitation is next, anything else unknown */
	e.seq = 1;
	strcpy(e.commit, ids[0]);
	assert_int_equal(peer_place(rb, &e, why, sizeof(why)), PEER_PLACE_NEXT);
	e.seq = 2;
	strcpy(e.parent, ids[0]);
	strcpy(e.commit, ids[1]);
	assert_int_equal(peer_place(rb, &e, why, sizeof(why)), PEER_PLACE_UNKNOWN);

	/* the copy at commit 3 (seq 3) */
	assert_int_equal(run("git -C '%s' update-ref refs/heads/main %s", a,
			     ids[2]), 0);
	assert_int_equal(peer_place(ra, &e, why, sizeof(why)), PEER_PLACE_COPY);
	assert_non_null(strstr(why, "already applied"));
	e.seq = 4;
	strcpy(e.parent, ids[2]);
	strcpy(e.commit, OID_C);
	assert_int_equal(peer_place(ra, &e, why, sizeof(why)), PEER_PLACE_NEXT);
	e.seq = 5;
	assert_int_equal(peer_place(ra, &e, why, sizeof(why)), PEER_PLACE_BAD);
	assert_non_null(strstr(why, "seq is 3"));
	e.seq = 3;
	strcpy(e.parent, ids[1]);
	assert_int_equal(peer_place(ra, &e, why, sizeof(why)), PEER_PLACE_FORK);
	assert_non_null(strstr(why, "forks the history after 2"));
	strcpy(e.parent, OID_A);
	assert_int_equal(peer_place(ra, &e, why, sizeof(why)), PEER_PLACE_UNKNOWN);
	e.parent[0] = '\0';
	e.seq = 1;
	assert_int_equal(peer_place(ra, &e, why, sizeof(why)), PEER_PLACE_FORK);
	/* commit 4 is not in the history of main */
	e.seq = 4;
	strcpy(e.parent, ids[2]);
	strcpy(e.commit, ids[3]);
	assert_int_equal(peer_place(ra, &e, why, sizeof(why)), PEER_PLACE_NEXT);

	/* the evidence of a fork, kept */
	strcpy(e.commit, OID_C);
	assert_int_equal(peer_keep_fork(ra, &e, "a mail\n", 7, &path, why,
					sizeof(why)), 0);
	assert_non_null(strstr(path.buf, "/postrider/peer/forks/4-british-"
			       "fedcba9876543210fedcba9876543210fedcba98.eml"));
	assert_int_equal(read_file(path.buf, &kept, 1000), 0);
	assert_string_equal(kept.buf, "a mail\n");
	strbuf_release(&path);
	strbuf_release(&kept);
	repo_free(ra);
	repo_free(rb);
	free(a);
	free(b);
}

/* A real game's first commit (all of data/) through the mail, applied in
 * an empty copy: the same commit. */
static void test_real_first_commit(void **state)
{
	struct repo *g = NULL, *copy = NULL;
	struct pcrypto_secret sk;
	struct pcrypto_public pk;
	struct peer_envelope e, back;
	struct strbuf patch = STRBUF_INIT, env = STRBUF_INIT, mail = STRBUF_INIT;
	struct strbuf e2 = STRBUF_INIT, p2 = STRBUF_INIT, changes = STRBUF_INIT;
	char head[41], why[200], *dir;

	(void)state;
	fixture_begin("postrider-test-wire");
	assert_int_equal(fixture_new_game(NULL), 0);
	assert_int_equal(repo_open(fixture_dir, &g), 0);
	assert_int_equal(repo_head(g, head), 0);
	assert_int_equal(repo_format_patch_packed(g, head, "data/", &patch), 0);
	assert_non_null(strstr(patch.buf, "GIT binary patch"));

	keys(1, &sk, &pk);
	memset(&e, 0, sizeof(e));
	strcpy(e.game, "ww-t3st");
	e.from = 1;
	e.seq = 1;
	strcpy(e.commit, head);
	strcpy(e.kind, "invite");
	SHA256((const unsigned char *)patch.buf, patch.len, e.patch);
	assert_int_equal(peer_envelope_write(&e, &sk, &env), 0);
	{
		struct peer_mail m = {
			FIXTURE_AMERICAN, FIXTURE_BRITISH,
			"Sat, 16 Jan 2027 08:00:00 +0000", NULL, NULL, &e,
			env.buf, env.len, patch.buf, patch.len,
		};
		assert_int_equal(peer_mail_compose(&m, &mail, why, sizeof(why)), 0);
	}
	assert_true(mail.len < MAIL_MAX_SIZE);
	print_message("the invitation's mail: %zu bytes (patch %zu)\n", mail.len,
		      patch.len);
	assert_int_equal(peer_mail_extract(mail.buf, mail.len, &e2, &p2, why,
					   sizeof(why)), 0);
	assert_int_equal(peer_envelope_parse(e2.buf, e2.len, &back, why,
					     sizeof(why)), 0);
	assert_int_equal(peer_envelope_verify(&back, pk.sign, e2.buf, e2.len), 0);
	assert_int_equal(peer_patch_check(&back, p2.buf, p2.len, why, sizeof(why)), 0);
	assert_int_equal(repo_patch_changes(p2.buf, p2.len, &changes, why,
					    sizeof(why)), 0);
	assert_non_null(strstr(changes.buf, "A game.yaml\n"));
	assert_non_null(strstr(changes.buf, "A data/"));
	assert_null(strstr(changes.buf, "M "));

	dir = xstrfmt("%s/copy", fixture_root);
	assert_int_equal(repo_create(dir, &copy), 0);
	assert_int_equal(peer_place(copy, &back, why, sizeof(why)), PEER_PLACE_NEXT);
	assert_int_equal(repo_apply_patch(copy, p2.buf, p2.len, back.commit, why,
					  sizeof(why)), 0);
	assert_int_equal(repo_head(copy, head), 0);
	assert_string_equal(head, e.commit);
	assert_int_equal(peer_place(copy, &back, why, sizeof(why)), PEER_PLACE_COPY);
	assert_int_equal(run("git -C '%s' fsck --strict --no-dangling >/dev/null "
			     "2>&1 && test -z \"$(git -C '%s' status --porcelain)\"",
			     dir, dir), 0);
	repo_free(copy);
	repo_free(g);
	free(dir);
	strbuf_release(&patch);
	strbuf_release(&env);
	strbuf_release(&mail);
	strbuf_release(&e2);
	strbuf_release(&p2);
	strbuf_release(&changes);
	fixture_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_envelope_round_trip),
		cmocka_unit_test(test_envelope_tampering),
		cmocka_unit_test_setup_teardown(test_apply_patch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_patch_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mail_round_trip, setup, teardown),
		cmocka_unit_test(test_mail_extract_refused),
		cmocka_unit_test(test_mail_fixtures),
		cmocka_unit_test_setup_teardown(test_place, setup, teardown),
		cmocka_unit_test(test_real_first_commit),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
