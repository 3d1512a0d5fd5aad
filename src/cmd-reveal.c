/*
 * cmd-reveal.c - `postrider reveal` publishes the seed in a commit once the
 * game is over (--abandon: ends a running game so first); anyone holding
 * the history can then run `postrider audit`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dkim-audit.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "notify.h"
#include "publish.h"
#include "turn.h"

static int exec_reveal(int argc, char **argv)
{
	struct game g;
	struct mail_config cfg = { 0 };
	struct notify n = { 0 };
	struct strbuf err = STRBUF_INIT, yaml = STRBUF_INIT, happened = STRBUF_INIT;
	struct strbuf subject = STRBUF_INIT;
	char hex[FAIR_SEED_HEX], commit[41];
	char **kept_paths = NULL;
	struct strbuf *kept = NULL;
	struct repo_file *more = NULL;
	int ret = EXIT_TEMPFAIL, r, n_kept = 0;

	bool abandon = false;

	if (argc == 3 && !strcmp(argv[1], "--abandon")) {
		abandon = true;
		argv++;
		argc--;
	}
	if (argc != 2 || argv[1][0] == '-')
		return cmd_usage(&cmd_reveal_entry);
	if (config_load(NULL, &cfg, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	r = game_open(argv[1], &g, GAME_NEED_SECRET | GAME_LOCK, &err);
	if (r != 0) {
		error("%s", err.buf);
		goto close;
	}
	if (g.revealed) {
		error("the seed of %s is already public", g.id);
		ret = EXIT_REJECTED;
		goto close;
	}
	/* After a reveal every hand and every future die is known: the game
	 * must be over, or end now (issue 12.2, docs/fairness.md). */
	if (!engine_game_over(&g.state) && !abandon) {
		error("%s is still running; revealing the seed would show both hands and every future die",
		      g.id);
		hint("to end the game as abandoned and reveal, run 'postrider reveal --abandon %s';",
		     argv[1]);
		hint("a disputed turn is checked without a reveal: 'postrider audit %s'", argv[1]);
		ret = EXIT_REJECTED;
		goto close;
	}
	g.revealed = true;
	fair_seed_format(g.seed, hex);
	game_write_yaml(&g, &yaml);
	if (!engine_game_over(&g.state)) {
		strbuf_addf(&happened, "\n-- The host abandons the game in %d and reveals the seed: %s --\n",
			    g.state.year, hex);
		engine_abandon(g.data, &g.state, &happened);
		strbuf_addstr(&happened, "The game is over: nobody wins.\n");
		strbuf_addf(&subject, "Abandon game %s and reveal the seed", g.id);
	} else {
		strbuf_addf(&happened, "\n-- The host reveals the seed: %s --\n", hex);
		strbuf_addf(&subject, "Reveal the seed of game %s", g.id);
	}
	notify_init(&n, &g, &cfg);
	/* the players' kept mails, sealed until now (docs/fairness.md 22) */
	if (dkim_reveal_files(&g, &kept_paths, &kept, &n_kept) < 0) {
		error("the kept mails cannot be read (nothing was changed)");
		goto close;
	}
	more = xcalloc((size_t)n_kept + 1, sizeof(*more));
	for (int i = 0; i < n_kept; i++)
		more[i] = (struct repo_file){ kept_paths[i], kept[i].buf, kept[i].len };
	r = turn_commit_host_files(&g, &yaml, more, n_kept, happened.buf, subject.buf, &n,
				   commit, &err);
	if (r != 0) {
		error("%s (nothing was changed)", err.buf);
		goto close;
	}
	printf("revealed the seed of %s in commit %.12s: anyone holding the history can now run 'postrider audit'\n",
	       g.id, commit);
	ret = 0;
	if (notify_send(&n, &cfg) > 0) {
		error("the seed is revealed but its mail was not sent");
		ret = EXIT_UNSENT;
	}
	publish_after_commit(g.repo, &cfg);
close:
	dkim_reveal_free(kept_paths, kept, n_kept);
	free(more);
	game_close(&g);
out:
	notify_release(&n);
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&yaml);
	strbuf_release(&happened);
	strbuf_release(&subject);
	return ret;
}

const struct cmd_entry cmd_reveal_entry = {
	"reveal", "reveal [--abandon] DIR",
	"publish the secret seed in a commit when the game is over (--abandon: end a running game so)",
	NULL, exec_reveal,
};
