/*
 * cmd-send.c - `postrider send`: sends the messages waiting in a game's
 * outbox through the configured SMTP server.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "transport.h"
#include "config.h"
#include "game.h"
#include "notify.h"
#include "outbox.h"
#include "publish.h"

static int exec_send(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *config_path = NULL;
	struct mail_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT, report = STRBUF_INIT;
	struct notify n = { 0 };
	struct game g;
	int c, ret = EXIT_TEMPFAIL, r, perm = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'c')
			config_path = optarg;
		else
			return cmd_usage(&cmd_send_entry);
	}
	if (optind + 1 != argc)
		return cmd_usage(&cmd_send_entry);
	if (config_load(config_path, &cfg, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (game_open(argv[optind], &g, 0, &err) != 0) {
		error("%s", err.buf);
		game_close(&g);
		goto out;
	}
	if (!transport_can_send(&cfg)) {
		/* no mail to send, but a push to retry, if the game names a remote */
		r = publish_after_commit(g.repo, &cfg);
		if (r == 1)
			error("no mail transport is configured (transport: smtp with smtp_url, or transport: sendmail, in %s)",
			      cfg.path ? cfg.path : "~/.config/postrider/config.yaml or " CONFIG_SYSTEM_PATH);
		else if (r == 0)
			ret = 0;
		game_close(&g);
		goto out;
	}
	notify_init(&n, &g, &cfg);
	if (notify_recover(&n, &g) != 0)
		warning("some mail in '%s' could not be sorted out; see above", n.outbox);
	r = outbox_send(n.outbox, &cfg, &report, &perm);
	notify_prune(&n);
	fputs(report.buf, stdout);
	if (r == 0) {
		ret = 0;
	} else if (r > 0 && r == perm) {
		/* nothing to retry: what failed is in failed/ */
		error("%d message%s refused for good; moved to '%s/failed'", r, r == 1 ? "" : "s", n.outbox);
		ret = EXIT_REJECTED;
	} else {
		if (r > perm)
			error("%d message%s not sent; they stay in the outbox", r - perm, r - perm == 1 ? "" : "s");
		if (perm)
			error("%d message%s refused for good; moved to '%s/failed'", perm, perm == 1 ? "" : "s", n.outbox);
	}
	/* a push that failed after a turn is retried here too */
	if (publish_after_commit(g.repo, &cfg) < 0 && ret == 0)
		ret = EXIT_TEMPFAIL;
	game_close(&g);
out:
	notify_release(&n);
	config_release(&cfg);
	strbuf_release(&err);
	strbuf_release(&report);
	return ret;
}

const struct cmd_entry cmd_send_entry = {
	"send", "send DIR [--config FILE]",
	"send the mail waiting in a game's outbox; retry a failed push",
	"  --config FILE   mail configuration (default: $POSTRIDER_CONFIG, else\n"
	"                  ~/.config/postrider/config.yaml, else /etc/postrider/config.yaml)\n"
	"one sender at a time (a lock in the outbox); a message the mail system refuses\n"
	"for good (5xx) moves to OUTBOX/failed/, others stay in OUTBOX/new/\n"
	"exit status: 0 all sent, 1 only permanent failures, 75 some to retry later\n",
	exec_send,
};
