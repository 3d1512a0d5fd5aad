/*
 * archive.c - the replay page of an archived game.
 */
#include "archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "report.h"

void archive_json_string(struct strbuf *out, const char *s, size_t len)
{
	strbuf_addch(out, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': strbuf_addstr(out, "\\\""); break;
		case '\\': strbuf_addstr(out, "\\\\"); break;
		case '\n': strbuf_addstr(out, "\\n"); break;
		case '\r': strbuf_addstr(out, "\\r"); break;
		case '\t': strbuf_addstr(out, "\\t"); break;
		case '<':
			/* never "</script>" or "<!--" inside the page's script */
			strbuf_addstr(out, "\\u003c");
			break;
		default:
			if (c < 0x20)
				strbuf_addf(out, "\\u%04x", c);
			else
				strbuf_addch(out, (char)c);
		}
	}
	strbuf_addch(out, '"');
}

static void json_field(struct strbuf *out, const char *name, const char *value)
{
	strbuf_addf(out, "\"%s\":", name);
	archive_json_string(out, value ? value : "", value ? strlen(value) : 0);
}

int archive_replay(struct game *g, const char *out_dir, struct strbuf *err)
{
	char (*history)[41] = NULL;
	size_t n = 0;
	struct strbuf steps = STRBUF_INIT, page = STRBUF_INIT, title = STRBUF_INIT;
	struct strbuf prev_log = STRBUF_INIT;
	int ret = -1;

	if (repo_history(g->repo, &history, &n) < 0 || !n) {
		strbuf_addstr(err, "cannot read the history");
		goto out;
	}
	strbuf_addch(&steps, '[');
	for (size_t i = 0; i < n; i++) {
		struct strbuf log = STRBUF_INIT, msg = STRBUF_INIT, svg = STRBUF_INIT;
		struct strbuf story = STRBUF_INIT, dice = STRBUF_INIT, hands = STRBUF_INIT;
		struct strbuf board = STRBUF_INIT, prompt = STRBUF_INIT, e = STRBUF_INIT;
		const struct state *s = &g->state;

		if (game_load_state(g, history[i], &e) < 0 ||
		    repo_read(g->repo, history[i], "log.txt", &log) != 0 ||
		    repo_commit_info(g->repo, history[i], &msg, NULL, NULL, NULL) < 0) {
			strbuf_addf(err, "commit %s cannot be read: %s", history[i], e.buf);
			goto step_out;
		}
		/* what this commit added to the log; draw lines apart */
		for (const char *p = log.buf + (prev_log.len <= log.len ? prev_log.len : 0); *p; ) {
			size_t len = strcspn(p, "\n");
			bool draw = !strncmp(p, "draw ", 5) || !strncmp(p, "draws ", 6) ||
				    !strncmp(p, "words mixed: ", 13);
			strbuf_add(draw ? &dice : &story, p, len);
			strbuf_addch(draw ? &dice : &story, '\n');
			p += len + (p[len] == '\n');
		}
		report_svg(g->data, s, &svg);
		report_board(g->data, s, &board);
		if (engine_game_over(s))
			strbuf_addstr(&prompt, "The game is over.");
		else
			engine_describe_prompt(g->data, s, &prompt);
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			strbuf_addf(&hands, "The %s hand:\n", side_title(side));
			if (g->have_private)
				report_hand(g->data, s, side, &hands);
			else
				strbuf_addstr(&hands, "  (sealed)\n");
		}
		if (i)
			strbuf_addch(&steps, ',');
		strbuf_addf(&steps, "\n{\"step\":%zu,\"seq\":%u,\"year\":%d,", i, s->seq, s->year);
		json_field(&steps, "commit", history[i]);
		strbuf_addch(&steps, ',');
		json_field(&steps, "title", strtok(msg.buf, "\n"));
		strbuf_addch(&steps, ',');
		json_field(&steps, "story", story.buf);
		strbuf_addch(&steps, ',');
		json_field(&steps, "dice", dice.buf);
		strbuf_addch(&steps, ',');
		json_field(&steps, "now", prompt.buf);
		strbuf_addch(&steps, ',');
		json_field(&steps, "hands", hands.buf);
		strbuf_addch(&steps, ',');
		json_field(&steps, "board", board.buf);
		strbuf_addch(&steps, ',');
		json_field(&steps, "svg", svg.buf);
		strbuf_addch(&steps, '}');
		strbuf_reset(&prev_log);
		strbuf_add(&prev_log, log.buf, log.len);
		ret = 0;
step_out:
		strbuf_release(&log);
		strbuf_release(&msg);
		strbuf_release(&svg);
		strbuf_release(&story);
		strbuf_release(&dice);
		strbuf_release(&hands);
		strbuf_release(&board);
		strbuf_release(&prompt);
		strbuf_release(&e);
		if (ret < 0)
			goto out;
		ret = -1;
	}
	strbuf_addstr(&steps, "\n]");
	strbuf_addf(&title, "Washington's War, game %s: %s (American) v %s (British)",
		    g->id, g->player[SIDE_AMERICAN].name, g->player[SIDE_BRITISH].name);
	{
		struct strbuf html = STRBUF_INIT;
		/* the players' names are anyone's text: escaped for HTML */
		for (const char *p = title.buf; *p; p++) {
			switch (*p) {
			case '<': strbuf_addstr(&html, "&lt;"); break;
			case '>': strbuf_addstr(&html, "&gt;"); break;
			case '&': strbuf_addstr(&html, "&amp;"); break;
			case '"': strbuf_addstr(&html, "&quot;"); break;
			default: strbuf_addch(&html, *p);
			}
		}
		const char *vars[] = {
			"title", html.buf, "steps", steps.buf,
			"version", POSTRIDER_VERSION, NULL
		};
		ret = report_render("replay.html", vars, &page, err);
		strbuf_release(&html);
	}
	if (!ret) {
		char *path = xstrfmt("%s/replay.html", out_dir);
		ret = write_file_atomic(path, page.buf, page.len);
		if (ret < 0)
			strbuf_addf(err, "cannot write '%s'", path);
		free(path);
	}
out:
	free(history);
	strbuf_release(&steps);
	strbuf_release(&page);
	strbuf_release(&title);
	strbuf_release(&prev_log);
	return ret;
}
