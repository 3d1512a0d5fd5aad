/*
 * cmd.c - the table of subcommands and the help every command shares.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

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
	&cmd_index_entry,
	&cmd_archive_entry,
	&cmd_publish_entry,
	&cmd_remind_entry,
	&cmd_deadline_entry,
	&cmd_player_entry,
	&cmd_doctor_entry,
	&cmd_selfplay_entry,
	&cmd_peer_entry,
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

bool cmd_is_repository(const char *path)
{
	struct stat st;
	char *git = xstrfmt("%s/.git", path), *head = xstrfmt("%s/HEAD", path);
	bool repo = !stat(git, &st) || !stat(head, &st);

	free(git);
	free(head);
	return repo;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_game_dirs(const char *arg, char ***dirs, size_t *n)
{
	DIR *d;
	struct dirent *de;
	size_t first = *n;

	if (cmd_is_repository(arg)) {
		*dirs = xrealloc(*dirs, (*n + 1) * sizeof(**dirs));
		(*dirs)[(*n)++] = xstrdup(arg);
		return 0;
	}
	if (!(d = opendir(arg))) {
		error("cannot read '%s': %s", arg, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *path;
		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", arg, de->d_name);
		if (!cmd_is_repository(path)) {
			free(path);
			continue;
		}
		*dirs = xrealloc(*dirs, (*n + 1) * sizeof(**dirs));
		(*dirs)[(*n)++] = path;
	}
	closedir(d);
	if (*n > first)	/* *dirs may still be NULL */
		qsort(*dirs + first, *n - first, sizeof(**dirs), by_name);
	return 0;
}
