/*
 * codec.h - the byte codings and the MAC that several modules share, each
 * written once: base64 (RFC 4648 section 4, through libcrypto's
 * EVP_EncodeBlock and EVP_DecodeBlock), strict UTF-8 validation, and
 * HMAC-SHA256.
 *
 * Ownership: results are appended to the caller's strbuf or written to
 * the caller's buffer; nothing is kept.
 */
#ifndef POSTRIDER_CODEC_H
#define POSTRIDER_CODEC_H

#include <stddef.h>
#include "util.h"

/*
 * Appends data as base64 in lines of 76 characters (57 bytes each, the
 * last one shorter or padded), each followed by eol ("\n", "\r\n").
 * Nothing for no data.
 */
void codec_base64_lines(const void *data, size_t n, const char *eol,
			struct strbuf *out);

/*
 * Decodes base64 as MIME reads it (RFC 2045 6.8): characters outside the
 * alphabet (line breaks, spaces) are skipped and decoding stops at the
 * first '='. Appends the bytes to out.
 */
void codec_base64_decode(const char *s, size_t n, struct strbuf *out);

/*
 * Length of the valid UTF-8 sequence at s (n bytes left, n >= 1), or 0
 * if the bytes there are not valid UTF-8 (overlong forms, surrogates and
 * code points past U+10FFFF included).
 */
size_t codec_utf8_seq(const unsigned char *s, size_t n);
/* Offset of the first invalid UTF-8 byte in s, or n if all is valid. */
size_t codec_utf8_invalid_at(const char *s, size_t n);

/* HMAC-SHA256(key, msg) into out[32]; a libcrypto failure is a BUG. */
void codec_hmac_sha256(const unsigned char *key, size_t keylen,
		       const void *msg, size_t msglen, unsigned char out[32]);

#endif
