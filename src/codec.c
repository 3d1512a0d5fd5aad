/*
 * codec.c - base64, UTF-8 and HMAC-SHA256, once (codec.h).
 */
#include "codec.h"

#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#define LINE_BYTES 57	/* 76 base64 characters */

void codec_base64_lines(const void *data, size_t n, const char *eol,
			struct strbuf *out)
{
	const unsigned char *u = data;
	unsigned char line[LINE_BYTES / 3 * 4 + 1];

	for (size_t at = 0; at < n; at += LINE_BYTES) {
		size_t k = n - at < LINE_BYTES ? n - at : LINE_BYTES;
		int len = EVP_EncodeBlock(line, u + at, (int)k);

		strbuf_add(out, line, (size_t)len);
		strbuf_addstr(out, eol);
	}
}

static bool in_alphabet(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '+' || c == '/';
}

void codec_base64_decode(const char *s, size_t n, struct strbuf *out)
{
	unsigned char quad[4], bytes[3];
	size_t k = 0;

	for (size_t i = 0; i < n && s[i] != '='; i++) {
		if (!in_alphabet((unsigned char)s[i]))
			continue;
		quad[k++] = (unsigned char)s[i];
		if (k == 4) {
			EVP_DecodeBlock(bytes, quad, 4);
			strbuf_add(out, bytes, 3);
			k = 0;
		}
	}
	/* a last group of 2 or 3 characters holds 1 or 2 bytes */
	if (k >= 2) {
		memset(quad + k, '=', 4 - k);
		EVP_DecodeBlock(bytes, quad, 4);
		strbuf_add(out, bytes, k - 1);
	}
}

size_t codec_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t need;
	unsigned cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		need = 1; cp = c & 0x1F; min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		need = 2; cp = c & 0x0F; min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		need = 3; cp = c & 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (n < need + 1)
		return 0;
	for (size_t i = 1; i <= need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return need + 1;
}

size_t codec_utf8_invalid_at(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t k = codec_utf8_seq(u + i, n - i);
		if (!k)
			return i;
		i += k;
	}
	return n;
}

void codec_hmac_sha256(const unsigned char *key, size_t keylen,
		       const void *msg, size_t msglen, unsigned char out[32])
{
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int maclen = 0;

	if (!HMAC(EVP_sha256(), key, (int)keylen, msg, msglen, mac, &maclen) ||
	    maclen != 32)
		BUG("HMAC-SHA256 failed");
	memcpy(out, mac, 32);
	OPENSSL_cleanse(mac, sizeof(mac));
}
