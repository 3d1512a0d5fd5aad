/*
 * fuzz_mail.c - libFuzzer harness for mail in: mail_parse, then on the
 * parsed message mail_order_text, mail_find_token and mail_find_game, and
 * mail_header_get on the raw bytes; and the peer mail reader: its two
 * attachments found (peer_mail_extract, mail_attachments) and the envelope
 * parsed, and the raw bytes parsed as an envelope. The input is a whole
 * raw message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mail.h"
#include "peer-wire.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_message m;
	struct strbuf err = STRBUF_INIT;
	const char *raw = (const char *)data;

	memset(&m, 0, sizeof(m));
	free(mail_header_get(raw, size, "From"));
	free(mail_header_get(raw, size, "Subject"));
	if (mail_parse(raw, size, &m, &err) == 0) {
		char token[MAIL_TOKEN_SIZE];
		char game[64];
		char *order;

		if (!m.from_addr || !m.subject || !m.body)
			abort();	/* promised by mail.h */
		order = mail_order_text(m.body);
		if (!order)
			abort();
		free(order);
		if (mail_find_token(&m, token) == 1 &&
		    strlen(token) != MAIL_TOKEN_SIZE - 1)
			abort();
		if (mail_find_game(&m, game, sizeof(game)) == 1 &&
		    !mail_valid_game_id(game))
			abort();
		/* The decoded subject and name must not carry CR or LF. */
		if (strpbrk(m.subject, "\r\n") ||
		    (m.from_name && strpbrk(m.from_name, "\r\n")))
			abort();
	}
	mail_message_release(&m);
	strbuf_release(&err);

	{
		struct strbuf env = STRBUF_INIT, patch = STRBUF_INIT;
		struct peer_envelope e;
		char why[200];
		int rc = peer_mail_extract(raw, size, &env, &patch, why, sizeof(why));
		if (rc != 0 && env.len + patch.len)
			abort();	/* nothing appended unless found */
		if (rc == 0 &&
		    peer_envelope_parse(env.buf, env.len, &e, why, sizeof(why)) == 0 &&
		    (memchr(env.buf, '\r', env.len) || e.n_dice > PEER_WIRE_MAX_DICE))
			abort();	/* the grammar has no CR */
		if (peer_envelope_parse(raw, size, &e, why, sizeof(why)) == 0 &&
		    (!e.seq || !e.from || !*e.commit))
			abort();
		strbuf_release(&env);
		strbuf_release(&patch);
	}
	return 0;
}
