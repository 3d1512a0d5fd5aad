/*
 * main.c - the command line: finds the subcommand in the table and runs it.
 */
#include <stdio.h>
#include <string.h>


#include "cmd.h"
#include "peer-crypto.h"
#include "repo.h"
#include "trace.h"

#ifdef POSTRIDER_SANITIZE
/*
 * A sanitized build (make sanitize) knows LeakSanitizer's suppressions
 * itself (the libraries' own leaks, tests/lsan.supp): a run started by the
 * mail system's pipe has no LSAN_OPTIONS.
 */
#include "lsan-supp.h"

const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);

const char *__lsan_default_suppressions(void)
{
	return lsan_suppressions;
}

const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif

/* For the bench (issue 41): the scalar multiplications of a game without
 * a host, with POSTRIDER_TRACE_PERF. */
static void trace_mults(void)
{
	unsigned long all, multi;
	char line[128];

	pcrypto_scalar_mults(&all, &multi);
	if (!all)
		return;
	snprintf(line, sizeof(line), "%lu scalar multiplications, %lu of them in "
		 "multi-scalar ones", all, multi);
	trace_perf(line);
}

static void usage(FILE *f)
{
	fputs("usage: postrider <command> [<args>]\n\n"
	      "postrider adjudicates a game of Washington's War played by e-mail:\n"
	      "each run reads a game (a git repository) and one order, applies it\n"
	      "by the rules, commits the turn and mails the result.\n\ncommands:\n", f);
	for (const struct cmd_entry *const *e = cmd_table; *e; e++)
		fprintf(f, "  %-9s %s\n", (*e)->name, (*e)->summary);
	fputs("\n'postrider <command> --help' describes a command; see also README.md.\n", f);
}

int main(int argc, char **argv)
{
	int ret;

	trace_perf("main");
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("postrider %s\n", POSTRIDER_VERSION);
		return 0;
	}
	for (const struct cmd_entry *const *e = cmd_table; *e; e++) {
		if (strcmp((*e)->name, argv[1]))
			continue;
		if (cmd_wants_help(*e, argc - 1, argv + 1))
			return 0;
		error_context((*e)->name);
		ret = (*e)->exec(argc - 1, argv + 1);
		trace_mults();
		trace_perf("command done");
		repo_global_shutdown();
		return ret;
	}
	fprintf(stderr, "postrider: '%s' is not a command; see 'postrider --help'\n", argv[1]);
	return EXIT_USAGE;
}
