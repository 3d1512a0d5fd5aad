/*
 * fuzz_dkim.c - libFuzzer harness for the DKIM verifier (dkim.h,
 * dkim-intake.h): a whole raw message checked with the keys of RFC 8463's
 * example (and none for any other name), its signed field names, the
 * trusted Authentication-Results, and the record's lines derived.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dkim-intake.h"
#include "dkim.h"
#include "util.h"

static int keys(void *ctx, const char *name, char **txt)
{
	(void)ctx;
	if (!strcmp(name, "brisbane._domainkey.football.example.com")) {
		*txt = xstrdup("v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=");
		return 1;
	}
	if (!strcmp(name, "test._domainkey.football.example.com")) {
		*txt = xstrdup("v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDkHlOQoBTzWR"
			       "iGs5V6NpP3idY6Wk08a5qhdR6wy5bdOKb2jLQiY/J16JYi0Qvx/byYzCNb3W91y3FutAC"
			       "DfzwQ/BC/e/8uBsCR+yz1Lxj+PL6lHvqMKrM3rG4hstT5QjvHO9PzoxZyVYLzBfO2EeC3"
			       "Ip3G+2kryOTIKT+l/K4w3QIDAQAB");
		return 1;
	}
	return name[0] == 't' ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *raw = (const char *)data;
	struct dkim_sig *sigs = NULL;
	struct strbuf names = STRBUF_INIT, result = STRBUF_INIT, lines = STRBUF_INIT;
	size_t n = 0;
	char *ar;

	if (dkim_check(raw, size, keys, NULL, 0, &sigs, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			if (sigs[i].verdict != DKIM_PASS && !sigs[i].why)
				abort();	/* every other verdict says why */
	}
	dkim_signed_names(raw, size, &names);
	ar = dkim_trusted_ar(raw, size, "mx.host.example");
	dkim_describe(sigs, n, "joe@football.example.com", ar, &result, &lines);
	if (!result.len)
		abort();
	free(ar);
	dkim_sigs_free(sigs, n);
	strbuf_release(&names);
	strbuf_release(&result);
	strbuf_release(&lines);
	return 0;
}
