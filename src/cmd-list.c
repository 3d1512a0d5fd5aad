/*
 * cmd-list.c - `postrider list ROOT`: one line per game under a folder of
 * games, the host's view of a club. The games' summaries come from the
 * index of ROOT (catalog.h), checked game by game against the
 * repositories and read again where stale.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cmd.h"


/* Appends the value of one %-key of --format, or returns false. */
static bool field(const struct catalog_summary *s, const char *dir, char key,
		  struct strbuf *out)
{
	char when[UTC_TIME_SIZE];

	switch (key) {
	case 'i': strbuf_addstr(out, s->id); return true;
	case 'a': strbuf_addstr(out, s->american); return true;
	case 'b': strbuf_addstr(out, s->british); return true;
	case 'y': strbuf_addf(out, "%d", s->year); return true;
	case 'n': strbuf_addf(out, "%u", s->seq); return true;
	case 'd': strbuf_addstr(out, dir); return true;
	case 's': strbuf_addstr(out, side_name(s->side)); return true;
	case 'p': strbuf_addstr(out, s->prompt); return true;
	case 't':
		utc_format(s->since, when);
		strbuf_addstr(out, when);
		return true;
	case 'r': strbuf_addstr(out, s->result); return true;
	case '%': strbuf_addch(out, '%'); return true;
	default: return false;
	}
}

static void format_line(const struct catalog_summary *s, const char *dir,
			const char *format, struct strbuf *line)
{
	if (format) {
		for (const char *p = format; *p; p++) {
			if (*p == '%' && p[1] && field(s, dir, p[1], line)) {
				p++;
			} else if (*p == '\\' && p[1] == 't') {
				strbuf_addch(line, '\t');
				p++;
			} else if (*p == '\\' && p[1] == 'n') {
				strbuf_addch(line, '\n');
				p++;
			} else {
				strbuf_addch(line, *p);
			}
		}
		strbuf_addch(line, '\n');
		return;
	}
	strbuf_addf(line, "%-12s %s v %s, %d, order %u: ", s->id, s->american,
		    s->british, s->year, s->seq);
	if (*s->result) {	/* over */
		strbuf_addstr(line, "over: ");
		field(s, dir, 'r', line);
	} else {
		strbuf_addf(line, "%s to move since ", side_title(s->side));
		field(s, dir, 't', line);
	}
	strbuf_addf(line, "  [%s]\n", dir);
}

static int exec_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "no-index", no_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 }
	};
	const char *format = NULL;
	struct catalog cat;
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	unsigned flags = 0;
	int c, bad = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'f')
			format = optarg;
		else if (c == 'N')
			flags = CATALOG_NO_FILE;
		else
			return cmd_usage(&cmd_list_entry);
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_list_entry);
	if (catalog_open(argv[optind], flags, &cat, &err) < 0) {
		error("%s", err.buf);
		strbuf_release(&err);
		catalog_release(&cat);
		return EXIT_TEMPFAIL;
	}
	for (size_t i = 0; i < cat.n; i++) {
		const struct catalog_entry *e = &cat.e[i];
		/* a repository that is no sound game is the host's business */
		if (!e->sound) {
			error("%s: not a sound game: %s", e->dir, e->err);
			bad++;
			continue;
		}
		strbuf_reset(&line);
		format_line(&e->sum, e->dir, format, &line);
		fputs(line.buf, stdout);
	}
	catalog_release(&cat);
	strbuf_release(&line);
	return bad ? EXIT_REJECTED : 0;
}

const struct cmd_entry cmd_list_entry = {
	"list", "list ROOT [--format FORMAT] [--no-index]",
	"one line per game under a folder of games",
	"  --format FORMAT  a line per game with %i id, %a and %b the American\n"
	"                   and British players, %y year, %n order number,\n"
	"                   %s side to move (none when over), %p the decision,\n"
	"                   %t since when (UTC, ISO 8601), %r result (empty\n"
	"                   while running), %d folder, %% a percent, \\t a tab\n"
	"  --no-index       read every game, neither reading nor writing the\n"
	"                   index ROOT/.postrider-index (postrider index --help)\n"
	"exit status: 0, or 1 if a repository under ROOT is not a sound game\n",
	exec_list,
};
