/*
 * cmd-archive.c - `postrider archive DIR [OUT]`: a finished and revealed
 * game as a record to keep and share: the whole history as a git bundle,
 * the result, a summary and a replay page that needs no server.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "archive.h"
#include "cmd.h"
#include "engine/engine.h"
#include "game.h"
#include "ytree.h"

/* Verbs whose first argument is the card played. */
static bool plays_card(const char *verb, size_t n)
{
	static const char *const verbs[] = {
		"pc", "move", "event", "discard", "battle", "queue", "reinforce",
		"exchange", NULL
	};
	for (int i = 0; verbs[i]; i++)
		if (strlen(verbs[i]) == n && !strncmp(verbs[i], verb, n))
			return true;
	return false;
}

/* The cards an order plays (its lines whose verb plays a card), counted
 * into plays[]. */
static void count_plays(const char *order, int n_cards, int plays[])
{
	for (const char *p = order; *p; ) {
		size_t len = strcspn(p, "\n");
		const char *w = p;
		while (*w == ' ' || *w == '\t')
			w++;
		size_t vl = strcspn(w, " \t\n");
		if (plays_card(w, vl)) {
			const char *a = w + vl;
			while (*a == ' ' || *a == '\t' || *a == '#')
				a++;
			int c = atoi(a);
			if (c >= 1 && c <= n_cards)
				plays[c]++;
		}
		p += len + (p[len] == '\n');
	}
}

/* The battles each side won: "...: the British win (9.2)." in each
 * battle's story of the log. */
static void count_battles(const char *log, int battles[3])
{
	for (const char *p = log; (p = strstr(p, " win (9.2)")); p++) {
		const char *l = p;
		while (l > log && l[-1] != '\n')
			l--;
		if (strstr(l, "the British win (9.2)") == p - strlen("the British"))
			battles[SIDE_BRITISH]++;
		else if (strstr(l, "the Americans win (9.2)") == p - strlen("the Americans"))
			battles[SIDE_AMERICAN]++;
	}
}

/* Walks the history once and writes summary.yaml and result.txt. */
static int summarise(struct game *g, const char *out_dir, struct strbuf *err)
{
	char (*history)[41] = NULL;
	size_t n = 0;
	int plays[DATA_MAX_CARDS + 1] = { 0 }, battles[3] = { 0 }, orders[3] = { 0 };
	int alliance_year = 0;
	long long first_t = 0, last_t = 0;
	struct strbuf sum = STRBUF_INIT, res = STRBUF_INIT, log = STRBUF_INIT;
	struct state final;
	int ret = -1;

	if (repo_history(g->repo, &history, &n) < 0 || !n) {
		strbuf_addstr(err, "cannot read the history");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct strbuf order = STRBUF_INIT, e = STRBUF_INIT;
		long long t = 0;
		repo_commit_info(g->repo, history[i], NULL, NULL, NULL, &t);
		if (!i)
			first_t = t;
		last_t = t;
		if (game_load_state(g, history[i], &e) < 0) {
			strbuf_addf(err, "commit %s: %s", history[i], e.buf);
			strbuf_release(&e);
			goto out;
		}
		strbuf_release(&e);
		if (g->state.french_allied && !alliance_year)
			alliance_year = g->state.year;
		for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
			char path[64];
			snprintf(path, sizeof(path), "orders/%04u-%s.txt", g->state.seq, side_name(side));
			strbuf_reset(&order);
			if (i && repo_read(g->repo, history[i], path, &order) == 0) {
				/* counted once: the commit that adds it */
				struct strbuf prev = STRBUF_INIT;
				bool new = repo_read(g->repo, history[i - 1], path, &prev) != 0;
				strbuf_release(&prev);
				if (!new)
					continue;
				orders[side]++;
				count_plays(order.buf, g->data->n_cards, plays);
			}
		}
		strbuf_release(&order);
	}
	final = g->state;
	if (repo_read(g->repo, history[n - 1], "log.txt", &log) == 0) {
		count_battles(log.buf, battles);
	}
	{
		char from[32], to[32];
		int best[3] = { 0, 0, 0 }, col[3] = { 0, 0, 0 };
		bool by_13_2 = final.end == END_WAR_ENDS || final.end == END_1783;

		/* the colonies as the board shows them at the end (the map's
		 * panel, the replay); at a 13.2 ending, those it counted */
		if (by_13_2)
			memcpy(col, final.colonies, sizeof(col));
		else
			(void)engine_winner_if_ended(g->data, &final, col);
		utc_format(first_t, from);
		utc_format(last_t, to);
		strbuf_addf(&sum, "# The summary of a finished game, written by postrider archive.\n");
		strbuf_addf(&sum, "game: %s\nplayers:\n  american: ", g->id);
		ytree_emit_scalar(&sum, g->player[SIDE_AMERICAN].name);
		strbuf_addstr(&sum, "\n  british: ");
		ytree_emit_scalar(&sum, g->player[SIDE_BRITISH].name);
		strbuf_addf(&sum, "\nstarted: %s\nended: %s\n", from, to);
		strbuf_addf(&sum, "orders: {american: %d, british: %d, total: %u}\n",
			    orders[SIDE_AMERICAN], orders[SIDE_BRITISH], final.seq);
		strbuf_addf(&sum, "result: {winner: %s, end: %s, year: %d}\n",
			    final.end == END_ABANDONED ? "none" : side_name(final.winner),
			    game_end_name(final.end), final.year);
		strbuf_addf(&sum, "colonies_at_end: {american: %d, british: %d}\n",
			    col[SIDE_AMERICAN], col[SIDE_BRITISH]);
		strbuf_addf(&sum, "battles_won: {american: %d, british: %d}\n",
			    battles[SIDE_AMERICAN], battles[SIDE_BRITISH]);
		if (alliance_year)
			strbuf_addf(&sum, "french_alliance: %d\n", alliance_year);
		else
			strbuf_addstr(&sum, "french_alliance: none\n");
		strbuf_addf(&sum, "war_ends_card: %s\n", final.end == END_WAR_ENDS ? "played" : "not played");
		strbuf_addstr(&sum, "cards_played_most: [");
		for (int k = 0; k < 3; k++) {
			for (int c = 1; c <= g->data->n_cards; c++) {
				bool taken = false;
				for (int j = 0; j < k; j++)
					taken |= best[j] == c;
				if (!taken && plays[c] && (!best[k] || plays[c] > plays[best[k]]))
					best[k] = c;
			}
			if (best[k])
				strbuf_addf(&sum, "%s{card: %d, times: %d}", k ? ", " : "", best[k], plays[best[k]]);
		}
		strbuf_addstr(&sum, "]\n");

		strbuf_addf(&res, "Washington's War, game %s: %s (American) v %s (British)\n",
			    g->id, g->player[SIDE_AMERICAN].name, g->player[SIDE_BRITISH].name);
		if (final.end == END_ABANDONED)
			strbuf_addf(&res, "Abandoned in %d: nobody wins.\n", final.year);
		else
			strbuf_addf(&res, "The %s win in %d (%s).\n",
				    final.winner == SIDE_AMERICAN ? "Americans" : "British",
				    final.year, game_end_name(final.end));
		strbuf_addf(&res, "Colonies controlled at the end (%sCanada counts): American %d, British %d.\n",
			    by_13_2 ? "13.2, " : "", col[SIDE_AMERICAN], col[SIDE_BRITISH]);
		strbuf_addf(&res, "%u orders from %s to %s; the whole history is game.bundle\n"
			    "(git clone game.bundle), and replay.html steps through it.\n",
			    final.seq, from, to);
	}
	{
		char *p1 = xstrfmt("%s/summary.yaml", out_dir), *p2 = xstrfmt("%s/result.txt", out_dir);
		ret = write_file_atomic(p1, sum.buf, sum.len) < 0 ||
		      write_file_atomic(p2, res.buf, res.len) < 0 ? -1 : 0;
		if (ret < 0)
			strbuf_addstr(err, "cannot write the summary");
		free(p1);
		free(p2);
	}
out:
	free(history);
	strbuf_release(&sum);
	strbuf_release(&res);
	strbuf_release(&log);
	return ret;
}

static int exec_archive(int argc, char **argv)
{
	struct game g;
	struct strbuf err = STRBUF_INIT;
	char *out_dir = NULL, *path = NULL;
	struct stat st;
	int ret = EXIT_REJECTED;

	if (argc < 2 || argc > 3 || argv[1][0] == '-')
		return cmd_usage(&cmd_archive_entry);
	if (game_open(argv[1], &g, 0, &err) != 0) {
		error("%s", err.buf);
		game_close(&g);
		strbuf_release(&err);
		return EXIT_TEMPFAIL;
	}
	if (!engine_game_over(&g.state) || !g.revealed) {
		error("only a finished game whose seed is revealed is archived (%s); run 'postrider reveal %s' once it is over",
		      !engine_game_over(&g.state) ? "this one is running" : "this one's seed is secret",
		      argv[1]);
		goto out;
	}
	out_dir = argc == 3 ? xstrdup(argv[2]) : xstrfmt("%s-archive", g.id);
	if (stat(out_dir, &st) == 0) {
		error("'%s' exists already; name another folder", out_dir);
		goto out;
	}
	if (mkdir_p(out_dir) < 0) {
		error("cannot create '%s': %s", out_dir, strerror(errno));
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	path = xstrfmt("%s/game.bundle", out_dir);
	if (repo_write_bundle(g.repo, path) < 0 ||
	    summarise(&g, out_dir, &err) < 0 ||
	    archive_replay(&g, out_dir, &err) < 0) {
		error("%s", err.buf);
		remove_tree(out_dir, false);
		ret = EXIT_TEMPFAIL;
		goto out;
	}
	printf("archived %s in %s: game.bundle, result.txt, summary.yaml, replay.html\n",
	       g.id, out_dir);
	ret = 0;
out:
	free(out_dir);
	free(path);
	strbuf_release(&err);
	game_close(&g);
	return ret;
}

const struct cmd_entry cmd_archive_entry = {
	"archive", "archive DIR [OUT]",
	"a finished, revealed game as a folder to keep: bundle, result, summary, replay",
	"  OUT   the folder to make (default: <game id>-archive); it must not exist\n"
	"The folder holds game.bundle (git clone game.bundle; postrider audit\n"
	"game.bundle), result.txt, summary.yaml and replay.html (open it in a browser).\n",
	exec_archive,
};
