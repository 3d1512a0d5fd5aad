/*
 * cmd-data.c - `postrider data`: the component data as loaded, or checked;
 * `data sheet OUTDIR` writes it as sheets, `data import SHEETDIR DATADIR`
 * reads sheets back into a data set (docs/data.md, "Sheets").
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "data.h"
#include "game.h"

/* `data sheet OUTDIR`: the data of dir as sheets. */
static int data_sheet(const char *dir, const char *outdir)
{
	struct strbuf errs = STRBUF_INIT, texts[DATA_N_SHEETS];
	struct data *d = data_load(dir, &errs);
	int ret = 0;

	if (!d) {
		fputs(errs.buf, stderr);
		error("the data in '%s' fails its check", dir);
		strbuf_release(&errs);
		return EXIT_REJECTED;
	}
	for (int i = 0; i < DATA_N_SHEETS; i++)
		strbuf_init(&texts[i]);
	if (data_sheet_texts(d, texts, &errs)) {
		fputs(errs.buf, stderr);
		error("the data in '%s' cannot be written as sheets", dir);
		ret = EXIT_REJECTED;
	} else if (mkdir_p(outdir) < 0) {
		error("cannot create '%s': %s", outdir, strerror(errno));
		ret = EXIT_REJECTED;
	}
	for (int i = 0; !ret && i < DATA_N_SHEETS; i++) {
		char *path = xstrfmt("%s/%s", outdir, data_sheet_name(i));
		if (write_file_atomic(path, texts[i].buf, texts[i].len) < 0) {
			error("cannot write '%s': %s", path, strerror(errno));
			ret = EXIT_REJECTED;
		}
		free(path);
	}
	if (!ret)
		printf("%s: %d sheets of the data in %s (hash %s)\n", outdir,
		       DATA_N_SHEETS, dir, d->hash);
	for (int i = 0; i < DATA_N_SHEETS; i++)
		strbuf_release(&texts[i]);
	strbuf_release(&errs);
	data_free(d);
	return ret;
}

/* `data import SHEETDIR DATADIR`: sheets into a data set, all or nothing. */
static int data_import(const char *sheetdir, const char *datadir)
{
	struct strbuf errs = STRBUF_INIT, sheets[DATA_N_SHEETS], yaml[DATA_N_FILES];
	struct strbuf out = STRBUF_INIT;
	struct data *d = NULL;
	struct stat st;
	int ret = 0, n;

	for (int i = 0; i < DATA_N_SHEETS; i++) {
		char *path = xstrfmt("%s/%s", sheetdir, data_sheet_name(i));
		strbuf_init(&sheets[i]);
		if (read_file(path, &sheets[i], 4 << 20) < 0) {
			strbuf_addf(&errs, "%s:1:1: cannot read the sheet: %s\n", path,
				    strerror(errno));
			ret = EXIT_REJECTED;
		}
		free(path);
	}
	for (int i = 0; i < DATA_N_FILES; i++)
		strbuf_init(&yaml[i]);
	if (!ret && (n = data_sheet_import(sheetdir, sheets, yaml, &errs)) > 0) {
		strbuf_addf(&errs, "error: %d problem%s in the sheets of '%s': nothing "
			    "was written\n", n, n == 1 ? "" : "s", sheetdir);
		ret = EXIT_REJECTED;
	}
	if (!ret && !stat(datadir, &st) && !S_ISDIR(st.st_mode)) {
		strbuf_addf(&errs, "error: '%s' is not a folder\n", datadir);
		ret = EXIT_REJECTED;
	}
	if (!ret && mkdir_p(datadir) < 0) {
		strbuf_addf(&errs, "error: cannot create '%s': %s\n", datadir, strerror(errno));
		ret = EXIT_REJECTED;
	}
	for (int i = 0; !ret && i < DATA_N_FILES; i++) {
		char *path = xstrfmt("%s/%s", datadir, data_file_name(i));
		if (write_file_atomic(path, yaml[i].buf, yaml[i].len) < 0) {
			strbuf_addf(&errs, "error: cannot write '%s': %s\n", path,
				    strerror(errno));
			ret = EXIT_REJECTED;
		}
		free(path);
	}
	if (!ret && !(d = data_load(datadir, &errs)))
		ret = EXIT_REJECTED;	/* BUG-like: the import checked it */
	if (!ret) {
		data_provenance(d, &out);
		printf("%s: %d spaces, %d connections, %d generals, %d cards: ok (hash %s)\n\n%s",
		       datadir, d->n_spaces, d->n_connections, d->n_generals,
		       d->n_cards, d->hash, out.buf);
	}
	fputs(errs.buf, stderr);
	data_free(d);
	for (int i = 0; i < DATA_N_SHEETS; i++)
		strbuf_release(&sheets[i]);
	for (int i = 0; i < DATA_N_FILES; i++)
		strbuf_release(&yaml[i]);
	strbuf_release(&errs);
	strbuf_release(&out);
	return ret;
}

static int exec_data(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "game", required_argument, NULL, 'g' },
		{ "data", required_argument, NULL, 'd' },
		{ "check", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *module = "washingtons-war", *dir_opt = NULL;
	bool check = false;
	struct strbuf errs = STRBUF_INIT, out = STRBUF_INIT;
	struct data *d;
	char *dir;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'g': module = optarg; break;
		case 'd': dir_opt = optarg; break;
		case 'c': check = true; break;
		default: return cmd_usage(&cmd_data_entry);
		}
	}
	if (optind + 2 == argc && !strcmp(argv[optind], "sheet") && !check) {
		int ret;
		dir = game_data_dir(dir_opt, module);
		ret = data_sheet(dir, argv[optind + 1]);
		free(dir);
		return ret;
	}
	if (optind + 3 == argc && !strcmp(argv[optind], "import") && !check &&
	    !dir_opt)
		return data_import(argv[optind + 1], argv[optind + 2]);
	if (optind != argc)
		return cmd_usage(&cmd_data_entry);
	dir = game_data_dir(dir_opt, module);
	d = data_load(dir, &errs);
	if (!d) {
		fprintf(stderr, "%s", errs.buf);
		error("the data in '%s' fails its check", dir);
		free(dir);
		strbuf_release(&errs);
		return EXIT_REJECTED;
	}
	if (check) {
		printf("%s: %d spaces, %d connections, %d generals, %d cards: ok (hash %s)\n",
		       dir, d->n_spaces, d->n_connections, d->n_generals, d->n_cards, d->hash);
		data_provenance(d, &out);
		printf("\n%s", out.buf);
	} else {
		data_dump(d, &out);
		fputs(out.buf, stdout);
	}
	data_free(d);
	free(dir);
	strbuf_release(&errs);
	strbuf_release(&out);
	return 0;
}

const struct cmd_entry cmd_data_entry = {
	"data", "data [--game NAME] [--data DIR] [--check | sheet OUTDIR | import SHEETDIR DATADIR]",
	"print, check, write as sheets or import the component data (docs/data.md)",
	"  --game NAME   the game module (default washingtons-war)\n"
	"  --data DIR    a data folder instead of games/NAME\n"
	"  --check       validate only; each problem as file:line:column, then\n"
	"                the counts of sourced facts\n"
	"  sheet OUTDIR  write the data as sheets (tab-separated, one row a\n"
	"                record) into OUTDIR, for an owner to fill in\n"
	"  import SHEETDIR DATADIR\n"
	"                read the sheets back into the data set DATADIR (what\n"
	"                'new --data' takes), checked; each problem as\n"
	"                sheet:row:column; nothing is written on a problem\n",
	exec_data,
};
