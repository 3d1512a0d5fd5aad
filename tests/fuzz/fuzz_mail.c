/*
 * fuzz_mail.c - libFuzzer harness for mail in: mail_parse, then on the
 * parsed message mail_order_text, mail_find_token and mail_find_game, and
 * mail_header_get on the raw bytes. The input is a whole raw message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mail.h"
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
	return 0;
}
