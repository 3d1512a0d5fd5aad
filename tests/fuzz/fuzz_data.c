/*
 * fuzz_data.c - libFuzzer harness for the component data loader.
 *
 * Input: the first byte chooses which of the data files is replaced by
 * the rest of the input; the other files are the real ones. The files are
 * written to a private temporary folder and data_load() reads it (and, on
 * success, data_check() must agree: data_load promises a checked result).
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "fuzz_common.h"

static const char *files[] = {
	"cards.yaml", "colonies.yaml", "connections.yaml", "counters.yaml",
	"generals.yaml", "setup.yaml", "spaces.yaml", "turns.yaml",
	"zones.yaml",
};
#define N_FILES (sizeof(files) / sizeof(files[0]))

static char tmpdir[64];

/* Writes a file plainly (no fsync: this folder is throwaway). */
static void put(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || (len && fwrite(buf, 1, len, f) != len) || fclose(f) != 0)
		abort();
}
static struct strbuf orig[N_FILES];

static void setup(void)
{
	const char *dir = getenv("POSTRIDER_FUZZ_DATA");
	if (!dir)
		dir = FUZZ_DATADIR;
	strcpy(tmpdir, "/tmp/fuzz_data.XXXXXX");
	if (!mkdtemp(tmpdir))
		abort();
	for (size_t i = 0; i < N_FILES; i++) {
		char *p = xstrfmt("%s/%s", dir, files[i]);
		strbuf_init(&orig[i]);
		if (read_file(p, &orig[i], 1 << 22) < 0)
			abort();
		free(p);
		p = xstrfmt("%s/%s", tmpdir, files[i]);
		put(p, orig[i].buf, orig[i].len);
		free(p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready) {
		setup();
		ready = 1;
	}
	if (size < 1)
		return 0;
	size_t which = data[0] % N_FILES;
	char *p = xstrfmt("%s/%s", tmpdir, files[which]);
	put(p, data + 1, size - 1);

	struct strbuf errs = STRBUF_INIT;
	struct data *d = data_load(tmpdir, &errs);
	if (d) {
		strbuf_reset(&errs);
		if (data_check(d, &errs) != 0) {
			fprintf(stderr, "fuzz_data: data_load accepted data that data_check refuses:\n%s", strbuf_str(&errs));
			abort();
		}
		data_free(d);
	}
	strbuf_release(&errs);
	/* Put the real file back for the next input. */
	put(p, orig[which].buf, orig[which].len);
	free(p);
	return 0;
}
