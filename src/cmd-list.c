/*
 * cmd-list.c - `postrider list ROOT`: one line per game under a folder of
 * games, the host's view of a club.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game.h"


/* Appends the value of one %-key of --format, or returns false. */
static bool field(const struct game *g, const char *dir, long long since,
		  char key, struct strbuf *out)
{
	const struct state *s = &g->state;
	bool over = engine_game_over(s);
	char when[UTC_TIME_SIZE];

	switch (key) {
	case 'i': strbuf_addstr(out, g->id); return true;
	case 'a': strbuf_addstr(out, g->player[SIDE_AMERICAN].name); return true;
	case 'b': strbuf_addstr(out, g->player[SIDE_BRITISH].name); return true;
	case 'y': strbuf_addf(out, "%d", s->year); return true;
	case 'n': strbuf_addf(out, "%u", s->seq); return true;
	case 'd': strbuf_addstr(out, dir); return true;
	case 's': strbuf_addstr(out, over ? "none" : side_name(s->prompt.side)); return true;
	case 'p':
		if (over)
			strbuf_addstr(out, "game over");
		else
			engine_describe_prompt(g->data, s, out);
		return true;
	case 't':
		utc_format(since, when);
		strbuf_addstr(out, when);
		return true;
	case 'r':
		if (over)
			strbuf_addf(out, "%s (%s)", s->end == END_ABANDONED ? "abandoned" :
				    side_name(s->winner), game_end_name(s->end));
		return true;
	case '%': strbuf_addch(out, '%'); return true;
	default: return false;
	}
}

static int exec_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	const char *format = NULL;
	char **names = NULL;
	size_t n = 0;
	int c, bad = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'f')
			return cmd_usage(&cmd_list_entry);
		format = optarg;
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_list_entry);
	if (cmd_game_dirs(argv[optind], &names, &n) < 0)
		return EXIT_TEMPFAIL;
	for (size_t i = 0; i < n; i++) {
		char *dir = names[i];
		struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
		struct game g = { 0 };
		long long since = 0;

		/* a repository that is no sound game is the host's business */
		if (game_open(dir, &g, 0, &err) != 0) {
			fprintf(stderr, "%s: not a sound game: %s", dir, err.buf);
			bad++;
			game_close(&g);
			strbuf_release(&err);
			free(dir);
			continue;
		}
		repo_commit_info(g.repo, g.head, NULL, NULL, NULL, &since);
		if (format) {
			for (const char *p = format; *p; p++) {
				if (*p == '%' && p[1] && field(&g, dir, since, p[1], &line)) {
					p++;
				} else if (*p == '\\' && p[1] == 't') {
					strbuf_addch(&line, '\t');
					p++;
				} else if (*p == '\\' && p[1] == 'n') {
					strbuf_addch(&line, '\n');
					p++;
				} else {
					strbuf_addch(&line, *p);
				}
			}
			strbuf_addch(&line, '\n');
		} else {
			strbuf_addf(&line, "%-12s %s v %s, %d, order %u: ", g.id,
				    g.player[SIDE_AMERICAN].name, g.player[SIDE_BRITISH].name,
				    g.state.year, g.state.seq);
			if (engine_game_over(&g.state)) {
				strbuf_addstr(&line, "over: ");
				field(&g, dir, since, 'r', &line);
			} else {
				strbuf_addf(&line, "%s to move since ", side_title(g.state.prompt.side));
				field(&g, dir, since, 't', &line);
			}
			strbuf_addf(&line, "  [%s]\n", dir);
		}
		fputs(line.buf, stdout);
		game_close(&g);
		strbuf_release(&err);
		strbuf_release(&line);
		free(dir);
	}
	free(names);
	return bad ? EXIT_REJECTED : 0;
}

const struct cmd_entry cmd_list_entry = {
	"list", "list ROOT [--format FORMAT]",
	"one line per game under a folder of games",
	"  --format FORMAT  a line per game with %i id, %a and %b the American\n"
	"                   and British players, %y year, %n order number,\n"
	"                   %s side to move (none when over), %p the decision,\n"
	"                   %t since when (UTC, ISO 8601), %r result (empty\n"
	"                   while running), %d folder, %% a percent, \\t a tab\n"
	"exit status: 0, or 1 if a repository under ROOT is not a sound game\n",
	exec_list,
};
