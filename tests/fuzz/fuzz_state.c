/*
 * fuzz_state.c - libFuzzer harness for the state loader: state_read on
 * arbitrary public and private YAML.
 *
 * Input: the public YAML (state.yaml), then optionally a NUL byte and the
 * private YAML (the plain text of private/state.sealed); without a NUL
 * byte the private part is absent (NULL). A state that loads is written
 * back and read again: the canonical form must load too.
 */
#include <stdint.h>
#include <string.h>
#include "fuzz_common.h"
#include "state.h"
#include "state-yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct data *d = fuzz_data();
	const char *pub = (const char *)data, *priv = NULL;
	size_t pub_len = size, priv_len = 0;
	const uint8_t *nul = memchr(data, 0, size);
	struct state *s = xmalloc(sizeof(*s));
	struct strbuf err = STRBUF_INIT;

	if (nul) {
		pub_len = (size_t)(nul - data);
		priv = (const char *)nul + 1;
		priv_len = size - pub_len - 1;
	}
	if (state_read(s, d, pub, pub_len, priv, priv_len, &err) == 0) {
		struct strbuf p1 = STRBUF_INIT, q1 = STRBUF_INIT;
		struct state *t = xmalloc(sizeof(*t));

		state_write_public(s, d, NULL, &p1);
		state_write_private(s, d, &q1);
		strbuf_reset(&err);
		if (state_read(t, d, p1.buf, p1.len, priv ? q1.buf : NULL,
			       priv ? q1.len : 0, &err) != 0) {
			fprintf(stderr, "fuzz_state: the written state does not load:\n%s\n%s",
				strbuf_str(&err), strbuf_str(&p1));
			abort();
		}
		free(t);
		strbuf_release(&p1);
		strbuf_release(&q1);
	}
	strbuf_release(&err);
	free(s);
	return 0;
}
