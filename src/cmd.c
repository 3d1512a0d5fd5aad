/*
 * cmd.c - the table of subcommands and the help every command shares.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_new_entry,
	&cmd_play_entry,
	&cmd_check_entry,
	&cmd_show_entry,
	&cmd_options_entry,
	&cmd_log_entry,
	&cmd_data_entry,
	&cmd_send_entry,
	&cmd_reveal_entry,
	&cmd_audit_entry,
	&cmd_list_entry,
	&cmd_archive_entry,
	&cmd_publish_entry,
	&cmd_selfplay_entry,
	NULL
};

int cmd_usage(const struct cmd_entry *e)
{
	fprintf(stderr, "usage: postrider %s\n%s", e->usage, e->help ? e->help : "");
	return EXIT_USAGE;
}

int cmd_wants_help(const struct cmd_entry *e, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: postrider %s\n\n%s\n\n%s", e->usage, e->summary,
			       e->help ? e->help : "");
			return 1;
		}
	}
	return 0;
}
