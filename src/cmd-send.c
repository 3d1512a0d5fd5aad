/*
 * cmd-send.c - `postrider send`: sends the messages waiting in a game's
 * outbox through the configured SMTP server.
 */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "config.h"
#include "game.h"
#include "notify.h"
#include "outbox.h"

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
	int c, ret = EXIT_TEMPFAIL, r;

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
		fprintf(stderr, "error: %s\n", err.buf);
		goto out;
	}
	if (!cfg.smtp_url) {
		fprintf(stderr, "error: no SMTP server is configured (smtp_url in %s)\n",
			cfg.path ? cfg.path : "the configuration file");
		goto out;
	}
	if (game_open(argv[optind], &g, 0, &err) != 0) {
		fprintf(stderr, "error: %s", err.buf);
		game_close(&g);
		goto out;
	}
	notify_init(&n, &g, &cfg);
	if (notify_recover(&n, &g) != 0)
		warning("some mail in '%s' could not be sorted out; see above", n.outbox);
	r = outbox_send(n.outbox, &cfg, &report);
	fputs(report.buf, stdout);
	if (r == 0)
		ret = 0;
	else
		fprintf(stderr, "%d message%s not sent; they stay in the outbox\n", r, r == 1 ? "" : "s");
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
	"send the mail waiting in a game's outbox by SMTP",
	"  --config FILE   mail configuration (default: $XDG_CONFIG_HOME/postrider/config.yaml)\n",
	exec_send,
};
