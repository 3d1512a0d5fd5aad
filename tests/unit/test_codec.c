/*
 * test_codec.c - base64 (RFC 4648 section 10 vectors), MIME decoding,
 * strict UTF-8, HMAC-SHA256 (RFC 4231 test case 2), and the edges of the
 * util.h helpers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "codec.h"
#include "util.h"

#include <stdlib.h>

static void test_base64_rfc4648(void **state)
{
	static const char *const v[][2] = {
		{ "", "" }, { "f", "Zg==\n" }, { "fo", "Zm8=\n" },
		{ "foo", "Zm9v\n" }, { "foob", "Zm9vYg==\n" },
		{ "fooba", "Zm9vYmE=\n" }, { "foobar", "Zm9vYmFy\n" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct strbuf enc = STRBUF_INIT, dec = STRBUF_INIT;
		codec_base64_lines(v[i][0], strlen(v[i][0]), "\n", &enc);
		assert_string_equal(strbuf_str(&enc), v[i][1]);
		codec_base64_decode(enc.buf, enc.len, &dec);
		assert_int_equal(dec.len, strlen(v[i][0]));
		assert_memory_equal(strbuf_str(&dec), v[i][0], dec.len);
		strbuf_release(&enc);
		strbuf_release(&dec);
	}
}

static void test_base64_lines_and_mime(void **state)
{
	unsigned char data[200];
	struct strbuf enc = STRBUF_INIT, dec = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + 3);
	codec_base64_lines(data, sizeof(data), "\r\n", &enc);
	/* 57 bytes a line: 76 characters and CRLF; 200 = 3 * 57 + 29 */
	assert_int_equal(enc.len, 3 * 78 + 40 + 2);
	assert_memory_equal(enc.buf + 76, "\r\n", 2);
	codec_base64_decode(enc.buf, enc.len, &dec);
	assert_int_equal(dec.len, sizeof(data));
	assert_memory_equal(dec.buf, data, sizeof(data));
	/* MIME: spaces and breaks skipped, '=' ends, a short group kept */
	strbuf_reset(&dec);
	codec_base64_decode(" Zm9v\r\n YmE =ignored", 21, &dec);
	assert_string_equal(strbuf_str(&dec), "fooba");
	strbuf_reset(&dec);
	codec_base64_decode("Zm9vY", 5, &dec);	/* a lone char: no byte */
	assert_string_equal(strbuf_str(&dec), "foo");
	strbuf_release(&enc);
	strbuf_release(&dec);
}

static void test_utf8(void **state)
{
	(void)state;
	assert_int_equal(codec_utf8_invalid_at("plain", 5), 5);
	assert_int_equal(codec_utf8_invalid_at("caf\xc3\xa9", 5), 5);
	assert_int_equal(codec_utf8_invalid_at("\xf0\x9f\x8e\xb2", 4), 4);
	assert_int_equal(codec_utf8_invalid_at("a\xc0\x80", 3), 1);	/* overlong */
	assert_int_equal(codec_utf8_invalid_at("ab\xed\xa0\x80", 5), 2);	/* surrogate */
	assert_int_equal(codec_utf8_invalid_at("\xf4\x90\x80\x80", 4), 0);	/* > U+10FFFF */
	assert_int_equal(codec_utf8_invalid_at("x\xc3", 2), 1);	/* cut short */
	assert_int_equal(codec_utf8_invalid_at("\x80", 1), 0);
}

/* The helpers' edges that scan-build found: an empty path is no folder
 * (mkdir_p read past its one byte), and nothing copied from NULL. */
static void test_util_edges(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	(void)state;
	assert_int_equal(mkdir_p(""), -1);
	strbuf_add(&sb, NULL, 0);
	assert_int_equal(sb.len, 0);
	assert_string_equal(strbuf_str(&sb), "");
	s = xstrndup(NULL, 0);
	assert_string_equal(s, "");
	free(s);
	strbuf_release(&sb);
}

static void test_hmac_rfc4231(void **state)
{
	static const char *msg = "what do ya want for nothing?";
	static const unsigned char want[32] = {
		0x5b, 0xdc, 0xc1, 0x46, 0xbf, 0x60, 0x75, 0x4e, 0x6a, 0x04, 0x24,
		0x26, 0x08, 0x95, 0x75, 0xc7, 0x5a, 0x00, 0x3f, 0x08, 0x9d, 0x27,
		0x39, 0x83, 0x9d, 0xec, 0x58, 0xb9, 0x64, 0xec, 0x38, 0x43,
	};
	unsigned char mac[32];

	(void)state;
	codec_hmac_sha256((const unsigned char *)"Jefe", 4, msg, strlen(msg), mac);
	assert_memory_equal(mac, want, 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base64_rfc4648),
		cmocka_unit_test(test_base64_lines_and_mime),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_hmac_rfc4231),
		cmocka_unit_test(test_util_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
