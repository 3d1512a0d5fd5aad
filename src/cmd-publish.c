/*
 * cmd-publish.c - `postrider publish DIR`: names the git remote a game is
 * pushed to, or pushes it now (publish.h).
 */
#include <getopt.h>
#include <stdio.h>

#include <git2.h>

#include "cmd.h"
#include "config.h"
#include "game.h"
#include "publish.h"
#include "repo.h"

static int exec_publish(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "remote", required_argument, NULL, 'r' },
		{ "no-remote", no_argument, NULL, 'n' },
		{ "config", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *config_path = NULL, *url = NULL;
	struct mail_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT, what = STRBUF_INIT, cur = STRBUF_INIT;
	struct game g;
	bool drop = false;
	int c, r, ret = EXIT_TEMPFAIL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r': url = optarg; break;
		case 'n': drop = true; break;
		case 'c': config_path = optarg; break;
		default: return cmd_usage(&cmd_publish_entry);
		}
	}
	if (optind + 1 != argc || (url && drop))
		return cmd_usage(&cmd_publish_entry);
	if (config_load(config_path, &cfg, &err) < 0) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	r = game_open(argv[optind], &g, GAME_LOCK, &err);
	if (r == GAME_BUSY) {
		error("%s is busy; try again", argv[optind]);
		goto out;
	}
	if (r != 0) {
		error("%s", err.buf);
		ret = EXIT_REJECTED;
		goto out;
	}
	if (drop) {
		struct strbuf url_got = STRBUF_INIT;
		r = publish_remote_url(g.repo, &url_got, &err);
		publish_url_shown(url_got.buf, &cur);
		strbuf_release(&url_got);
		if (r == 1 && git_remote_delete(repo_git(g.repo), PUBLISH_REMOTE) < 0) {
			error("cannot forget the remote '%s'", cur.buf);
			ret = EXIT_REJECTED;
		} else {
			printf(r == 1 ? "%s is no longer published to %s\n" :
			       "%s names no remote%s\n", g.id, cur.buf);
			ret = 0;
		}
		goto close;
	}
	if (url && publish_set_remote(g.repo, url, &err) < 0) {
		error("%s", err.buf);
		ret = EXIT_REJECTED;
		goto close;
	}
	r = publish_push(g.repo, &cfg, &what, &err);
	if (r == 1) {
		error("game %s names no remote; give one with --remote URL",
		      g.id);
		ret = EXIT_REJECTED;
	} else if (r < 0) {
		error("PUSH FAILED: %s", err.buf);
	} else {
		printf("%s\n", what.buf);
		ret = 0;
	}
close:
	game_close(&g);
out:
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&what);
	strbuf_release(&cur);
	return ret;
}

const struct cmd_entry cmd_publish_entry = {
	"publish", "publish DIR [--remote URL | --no-remote] [--config FILE]",
	"push a game to its git remote now, or name or forget that remote",
	"  --remote URL    push the game there from now on (ssh://, https://, a path);\n"
	"                  kept in the game's .git/config as remote \"publish\"\n"
	"  --no-remote     stop publishing the game\n"
	"  --config FILE   the host's configuration (its publish: settings: SSH key,\n"
	"                  known_hosts, CA file, HTTPS user name and password)\n"
	"every accepted turn is pushed by itself; this command is for a first push\n"
	"and for retrying after a failure (`postrider send` retries too)\n"
	"exit status: 0 pushed, 1 no such game or no remote, 75 the push failed\n",
	exec_publish,
};
