/*
 * test_dkim.c - DKIM: the canonicalisation examples of RFC 6376 3.4.5,
 * the signed message of RFC 8463 appendix A (an ed25519-sha256 and an
 * rsa-sha256 signature, relaxed/relaxed, over-signed headers), and what
 * each kind of change to it does to the verdict.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dkim-intake.h"
#include "dkim.h"

/* RFC 6376 3.4.5: the header and body of the example, and their forms. */
static const char example[] =
	"A: X\r\n"
	"B : Y\t\r\n"
	"\tZ  \r\n"
	"\r\n"
	" C \r\n"
	"D \t E\r\n"
	"\r\n"
	"\r\n";

static void canon_all(enum dkim_canon c, const char *msg, struct strbuf *head,
		      struct strbuf *body)
{
	struct dkim_field f[8];
	size_t n;
	const char *b;

	assert_int_equal(dkim_split(msg, strlen(msg), f, 8, &n, &b), 0);
	for (size_t i = 0; i < n; i++)
		dkim_canon_header(c, &f[i], head);
	dkim_canon_body(c, b, strlen(b), body);
}

static void test_rfc6376_examples(void **state)
{
	struct strbuf h = STRBUF_INIT, b = STRBUF_INIT;

	(void)state;
	canon_all(DKIM_RELAXED, example, &h, &b);
	assert_string_equal(h.buf, "a:X\r\nb:Y Z\r\n");
	assert_string_equal(b.buf, " C\r\nD E\r\n");
	strbuf_reset(&h);
	strbuf_reset(&b);
	canon_all(DKIM_SIMPLE, example, &h, &b);
	assert_string_equal(h.buf, "A: X\r\nB : Y\t\r\n\tZ  \r\n");
	assert_string_equal(b.buf, " C \r\nD \t E\r\n");
	strbuf_release(&h);
	strbuf_release(&b);
}

static void test_empty_bodies(void **state)
{
	struct strbuf b = STRBUF_INIT;

	(void)state;
	/* RFC 6376 3.4.3: simple makes an empty body one CRLF; 3.4.4:
	 * relaxed leaves it empty; trailing empty lines go in both */
	dkim_canon_body(DKIM_SIMPLE, "", 0, &b);
	assert_string_equal(b.buf, "\r\n");
	strbuf_reset(&b);
	dkim_canon_body(DKIM_RELAXED, "", 0, &b);
	assert_string_equal(b.buf, "");
	strbuf_reset(&b);
	dkim_canon_body(DKIM_RELAXED, "\r\n\r\n", 4, &b);
	assert_string_equal(b.buf, "");
	strbuf_reset(&b);
	dkim_canon_body(DKIM_SIMPLE, "\r\n\r\n", 4, &b);
	assert_string_equal(b.buf, "\r\n");
	strbuf_reset(&b);
	/* a last line without CRLF gets one */
	dkim_canon_body(DKIM_SIMPLE, "a\r\nb", 4, &b);
	assert_string_equal(b.buf, "a\r\nb\r\n");
	strbuf_reset(&b);
	dkim_canon_body(DKIM_RELAXED, "a  \r\nb \t", 8, &b);
	assert_string_equal(b.buf, "a\r\nb\r\n");
	strbuf_release(&b);
}

static void test_crlf(void **state)
{
	struct strbuf o = STRBUF_INIT;

	(void)state;
	dkim_crlf("a\nb\r\nc\n", 7, &o);
	assert_string_equal(o.buf, "a\r\nb\r\nc\r\n");
	strbuf_reset(&o);
	/* procmail's mbox envelope line is no part of the message */
	dkim_crlf("From x@y Mon Jan  1 00:00:00 2024\nA: b\n", 39, &o);
	assert_string_equal(o.buf, "A: b\r\n");
	strbuf_release(&o);
}

/* RFC 8463 appendix A.3, and the keys of A.2. */
static const char rfc8463[] =
	"DKIM-Signature: v=1; a=ed25519-sha256; c=relaxed/relaxed;\r\n"
	" d=football.example.com; i=@football.example.com;\r\n"
	" q=dns/txt; s=brisbane; t=1528637909; h=from : to :\r\n"
	" subject : date : message-id : from : subject : date;\r\n"
	" bh=2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=;\r\n"
	" b=/gCrinpcQOoIfuHNQIbq4pgh9kyIK3AQUdt9OdqQehSwhEIug4D11Bus\r\n"
	" Fa3bT3FY5OsU7ZbnKELq+eXdp1Q1Dw==\r\n"
	"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;\r\n"
	" d=football.example.com; i=@football.example.com;\r\n"
	" q=dns/txt; s=test; t=1528637909; h=from : to : subject :\r\n"
	" date : message-id : from : subject : date;\r\n"
	" bh=2jUSOH9NhtVGCQWNr9BrIAPreKQjO6Sn7XIkfJVOzv8=;\r\n"
	" b=F45dVWDfMbQDGHJFlXUNB2HKfbCeLRyhDXgFpEL8GwpsRe0IeIixNTe3\r\n"
	" DhCVlUrSjV4BwcVcOF6+FF3Zo9Rpo1tFOeS9mPYQTnGdaSGsgeefOsk2Jz\r\n"
	" dA+L10TeYt9BgDfQNZtKdN1WO//KgIqXP7OdEFE4LjFYNcUxZQ4FADY+8=\r\n"
	"From: Joe SixPack <joe@football.example.com>\r\n"
	"To: Suzie Q <suzie@shopping.example.net>\r\n"
	"Subject: Is dinner ready?\r\n"
	"Date: Fri, 11 Jul 2003 21:00:37 -0700 (PDT)\r\n"
	"Message-ID: <20030712040037.46341.5F8J@football.example.com>\r\n"
	"\r\n"
	"Hi.\r\n"
	"\r\n"
	"We lost the game.  Are you hungry yet?\r\n"
	"\r\n"
	"Joe.\r\n";

static const char key_brisbane[] =
	"v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=";
static const char key_test[] =
	"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQoBTzWR"
	"iGs5V6NpP3idY6Wk08a5qhdR6wy5bdOKb2jLQiY/J16JYi0Qvx/byYzCNb3W91y3FutAC"
	"DfzwQ/BC/e/8uBsCR+yz1Lxj+PL6lHvqMKrM3rG4hstT5QjvHO9PzoxZyVYLzBfO2EeC3"
	"Ip3G+2kryOTIKT+l/K4w3QIDAQAB";

/* The keys of the vector; "down" stands for DNS that does not answer. */
static int keys(void *ctx, const char *name, char **txt)
{
	const char *mode = ctx;

	if (mode && !strcmp(mode, "down"))
		return -1;
	if (!strcmp(name, "brisbane._domainkey.football.example.com")) {
		*txt = xstrdup(mode && !strcmp(mode, "revoked") ? "v=DKIM1; k=ed25519; p=" :
			       key_brisbane);
		return 1;
	}
	if (!strcmp(name, "test._domainkey.football.example.com")) {
		/* two records at one name: the one that parses counts */
		*txt = xstrfmt("not a key record\n%s", key_test);
		return 1;
	}
	return 0;
}

/* Checks msg; the verdicts of its two signatures into v[]. */
static void check2(const char *msg, const void *ctx, enum dkim_verdict v[2], char *why0, size_t wn)
{
	struct dkim_sig *s;
	size_t n;

	assert_int_equal(dkim_check(msg, strlen(msg), keys, (void *)(uintptr_t)ctx, 1528637909, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].d, "football.example.com");
	assert_string_equal(s[1].a, "rsa-sha256");
	assert_string_equal(s[1].key_name, "test._domainkey.football.example.com");
	assert_string_equal(s[1].c, "relaxed/relaxed");
	v[0] = s[0].verdict;
	v[1] = s[1].verdict;
	snprintf(why0, wn, "%s", s[0].why ? s[0].why : "");
	dkim_sigs_free(s, n);
}

/* msg with the first `from` replaced by `to`, malloc'd. */
static char *replaced(const char *msg, const char *from, const char *to)
{
	const char *p = strstr(msg, from);
	assert_non_null(p);
	return xstrfmt("%.*s%s%s", (int)(p - msg), msg, to, p + strlen(from));
}

static void test_rfc8463_vector(void **state)
{
	enum dkim_verdict v[2];
	char why[200];
	char *m;
	struct strbuf lf = STRBUF_INIT;

	(void)state;
	check2(rfc8463, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_PASS);
	assert_int_equal(v[1], DKIM_PASS);

	/* the same mail with LF line ends, as a local mail system hands it */
	for (const char *p = rfc8463; *p; p++)
		if (*p != '\r')
			strbuf_addch(&lf, *p);
	check2(lf.buf, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_PASS);
	assert_int_equal(v[1], DKIM_PASS);
	strbuf_release(&lf);

	/* relaxed: blanks within the body's lines and at their ends count
	 * for nothing; trailing empty lines neither */
	m = replaced(rfc8463, "We lost the game.  Are", "We lost  the game.\t Are");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_PASS);
	free(m);
	m = xstrfmt("%s\r\n\r\n", rfc8463);
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_PASS);
	free(m);

	/* the body changed */
	m = replaced(rfc8463, "We lost the game", "We won the game");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_int_equal(v[1], DKIM_FAIL);
	assert_non_null(strstr(why, "body hash"));
	free(m);

	/* a signed header changed: From, Subject */
	m = replaced(rfc8463, "From: Joe SixPack", "From: Joe SixPacks");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_int_equal(v[1], DKIM_FAIL);
	assert_non_null(strstr(why, "does not verify"));
	free(m);
	m = replaced(rfc8463, "Subject: Is dinner ready?", "Subject: Is lunch ready?");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	free(m);

	/* over-signing: a second From or Subject added above breaks it
	 * (h= names each twice, the second for none) */
	m = replaced(rfc8463, "From: Joe", "Subject: Free beer\r\nFrom: Joe");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_int_equal(v[1], DKIM_FAIL);
	free(m);

	/* a header field no signature names may be added */
	m = replaced(rfc8463, "From: Joe", "Received: from somewhere\r\nFrom: Joe");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_PASS);
	assert_int_equal(v[1], DKIM_PASS);
	free(m);

	/* the b= of one signature changed */
	m = replaced(rfc8463, "Fa3bT3FY5OsU7", "Fa3bT3FY5OsU8");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_int_equal(v[1], DKIM_PASS);
	free(m);

	/* relaxed header canonicalisation: case and folding of a name
	 * and blanks in a value do not matter */
	m = replaced(rfc8463, "Subject: Is dinner ready?", "SUBJECT:   Is dinner\r\n  ready?  ");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_PASS);
	assert_int_equal(v[1], DKIM_PASS);
	free(m);
}

static void test_keys(void **state)
{
	enum dkim_verdict v[2];
	char why[200];
	char *m;

	(void)state;
	check2(rfc8463, "down", v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_TEMPERROR);
	assert_int_equal(v[1], DKIM_TEMPERROR);
	check2(rfc8463, "revoked", v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_non_null(strstr(why, "revoked"));
	assert_int_equal(v[1], DKIM_PASS);
	/* a selector with no key record */
	m = replaced(rfc8463, "s=brisbane", "s=sydney");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_non_null(strstr(why, "no key record"));
	free(m);
	/* rsa-sha1 is refused (RFC 8301) */
	m = replaced(rfc8463, "a=ed25519-sha256", "a=rsa-sha1");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_non_null(strstr(why, "rsa-sha1"));
	free(m);
	/* an expired signature */
	m = replaced(rfc8463, "t=1528637909;", "t=1528637909; x=1528637900;");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	free(m);
	/* i= outside d= */
	m = replaced(rfc8463, "i=@football.example.com", "i=@basketball.example.com");
	check2(m, NULL, v, why, sizeof(why));
	assert_int_equal(v[0], DKIM_FAIL);
	assert_non_null(strstr(why, "i="));
	free(m);
}

static void test_aligned(void **state)
{
	(void)state;
	assert_true(dkim_aligned("example.org", "example.org"));
	assert_true(dkim_aligned("example.org", "mail.example.org"));
	assert_true(dkim_aligned("mail.example.org", "example.org"));
	assert_false(dkim_aligned("org", "example.org"));
	assert_false(dkim_aligned("ample.org", "example.org"));
	assert_false(dkim_aligned("example.net", "example.org"));
}

static void test_signed_names(void **state)
{
	struct strbuf o = STRBUF_INIT;

	(void)state;
	dkim_signed_names(rfc8463, strlen(rfc8463), &o);
	assert_string_equal(o.buf, "from:to:subject:date:message-id");
	strbuf_release(&o);
}

/* docs/fairness.md 22.2: the commitment's vector, computed with Python's
 * hmac and hashlib (tests/verify/verify_dkim.py kept_hash). */
static void test_kept_hash_vector(void **state)
{
	static const char mail[] = "From: abigail@a.example\r\n\r\nplace Boston MA\r\n";
	unsigned char seed[32];
	char hex[65];

	(void)state;
	for (int i = 0; i < 32; i++)
		seed[i] = (unsigned char)i;
	dkim_kept_hash(seed, 12, SIDE_AMERICAN, mail, strlen(mail), hex);
	assert_string_equal(hex, "efe9b920a9da4ddecc158184f3b13a783d1f422a4bbb40bb582682e84d284e17");
	dkim_kept_hash(seed, 12, SIDE_BRITISH, mail, strlen(mail), hex);
	assert_string_not_equal(hex, "efe9b920a9da4ddecc158184f3b13a783d1f422a4bbb40bb582682e84d284e17");
}

/* What a record says, from signatures: the verdicts of 22.2. */
static void test_describe(void **state)
{
	static char d1[] = "lists.example", s1[] = "k", a1[] = "rsa-sha256", c1[] = "relaxed/simple";
	static char d2[] = "a.example", s2[] = "s", a2[] = "rsa-sha256", c2[] = "simple/simple";
	static char w2[] = "the key record s._domainkey.a.example could not be fetched";
	struct dkim_sig s[2] = {
		{ .d = d1, .s = s1, .a = a1, .c = c1, .verdict = DKIM_PASS },
		{ .d = d2, .s = s2, .a = a2, .c = c2, .verdict = DKIM_TEMPERROR, .why = w2 },
	};
	struct strbuf r = STRBUF_INIT, l = STRBUF_INIT;

	(void)state;
	dkim_describe(s, 1, "x@a.example", NULL, &r, &l);
	assert_string_equal(r.buf, "other lists.example");
	assert_string_equal(l.buf, "signature 1 pass d=lists.example s=k a=rsa-sha256 c=relaxed/simple\n");
	strbuf_reset(&r);
	strbuf_reset(&l);
	dkim_describe(s, 2, "x@a.example", NULL, &r, &l);
	assert_string_equal(r.buf, "temperror");
	strbuf_reset(&r);
	dkim_describe(s, 2, "x@a.example", "mx.host; dkim=pass header.d=a.example", &r, &l);
	assert_string_equal(r.buf, "pass-mta a.example");
	strbuf_reset(&r);
	/* the MTA's pass for another domain does not count */
	dkim_describe(s, 2, "x@a.example", "mx.host; dkim=pass header.d=b.example", &r, &l);
	assert_string_equal(r.buf, "temperror");
	strbuf_reset(&r);
	dkim_describe(s, 0, "x@a.example", NULL, &r, &l);
	assert_string_equal(r.buf, "none");
	strbuf_release(&r);
	strbuf_release(&l);
}

/* Only the topmost Authentication-Results of the trusted id counts. */
static void test_trusted_ar(void **state)
{
	static const char m[] =
		"Authentication-Results: other.example; dkim=pass header.d=a.example\n"
		"Authentication-Results: MX.host.example;\n dkim=fail header.d=a.example\n"
		"Authentication-Results: mx.host.example; dkim=pass header.d=a.example\n"
		"From: x@a.example\n\nbody\n";
	char *v;

	(void)state;
	v = dkim_trusted_ar(m, strlen(m), "mx.host.example");
	assert_non_null(v);
	assert_string_equal(v, "MX.host.example; dkim=fail header.d=a.example");
	free(v);
	assert_null(dkim_trusted_ar(m, strlen(m), "mx.other.example"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc6376_examples),
		cmocka_unit_test(test_empty_bodies),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_rfc8463_vector),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_aligned),
		cmocka_unit_test(test_signed_names),
		cmocka_unit_test(test_kept_hash_vector),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_trusted_ar),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
