/*
 * cmd-peer.c - `postrider peer`: a game between two players with no host
 * (docs/peer.md). One table of subcommands (peer_cmds); each entry parses
 * its options, calls its library (peer-invite.h, peer-remind.h,
 * peer-audit.h) and says what came of it. The mails between the two
 * postriders are then taken by `postrider play`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "notify.h"
#include "peer-audit.h"
#include "peer-invite.h"
#include "peer-remind.h"
#include "transport.h"

#define MAX_MAIL (8 << 20)

/* Every subcommand's options: the one getopt table. */
struct peer_opts {
	struct peer_invite_opts inv;	/* new */
	struct peer_join_opts join;	/* join */
	const char *config_path;
	const char *dir, *input;	/* DIR, join's MAIL */
};

/* Parses the options of a subcommand: those it allows (letters of
 * allowed), DIR, and for join an optional MAIL. 0, or EXIT_USAGE. */
static int parse_opts(int argc, char **argv, const char *allowed, bool mail,
		      struct peer_opts *o)
{
	static const struct option opts[] = {
		{ "american", required_argument, NULL, 'a' },
		{ "british", required_argument, NULL, 'b' },
		{ "me", required_argument, NULL, 'm' },
		{ "data", required_argument, NULL, 'd' },
		{ "secret", required_argument, NULL, 's' },
		{ "tournament", no_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'c' },
		{ "address", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == '?' || !strchr(allowed, c))
			return EXIT_USAGE;
		switch (c) {
		case 'a': o->inv.american = optarg; break;
		case 'b': o->inv.british = optarg; break;
		case 'm': o->inv.me = optarg; break;
		case 'd': o->inv.data = o->join.data = optarg; break;
		case 's': o->inv.secret_hex = o->join.secret_hex = optarg; break;
		case 't': o->inv.tournament = true; break;
		case 'c': o->config_path = optarg; break;
		case 'A': o->join.address = optarg; break;
		}
	}
	if (optind != argc - 1 && !(mail && optind == argc - 2))
		return EXIT_USAGE;
	o->dir = argv[optind];
	o->input = optind == argc - 2 ? argv[optind + 1] : NULL;
	return 0;
}

/* The configuration of --config: 0, or EXIT_CONFIG (said). */
static int load_config(const struct peer_opts *o, struct mail_config *cfg)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (config_load(o->config_path, cfg, &err) < 0) {
		error("the configuration is wrong; fix it:\n%s", err.buf);
		ret = EXIT_CONFIG;
	}
	strbuf_release(&err);
	return ret;
}

/* Where mail left in an outbox waits; 0, or EXIT_UNSENT. */
static int say_outbox(const char *outbox, bool unsent, bool can_send, bool quiet)
{
	if (unsent || (!quiet && !can_send))
		printf("outbox: %s/new\n", outbox);
	return unsent ? EXIT_UNSENT : 0;
}

/* Mails what the copy's outbox holds, as `new` and `play` do. */
static int send_now(struct peer_copy *pc, const struct mail_config *cfg)
{
	struct notify n = { 0 };
	int ret;

	n.outbox = peer_outbox_dir(pc, cfg);
	fflush(stdout);
	ret = say_outbox(n.outbox, notify_send(&n, cfg) > 0, transport_can_send(cfg), false);
	notify_release(&n);
	return ret;
}

/* The rules the game is played with: the joiner compares them as he does
 * the fingerprint (9.1). */
static void say_data(const struct game *g)
{
	printf("data: %s, hash %s, options: %s\n", g->data_name ? g->data_name : "?",
	       g->data_hash ? g->data_hash : "?", g->tournament ? "tournament" : "none");
}

static void say_fingerprint(const struct peer_copy *pc, enum side inviter)
{
	char fp[17];

	peer_fingerprint(&pc->rec.keys[inviter], fp);
	printf("fingerprint: %s (the %s's keys; compare it with your opponent by telephone or in person)\n",
	       fp, side_title(inviter));
}

static int exec_new(int argc, char **argv)
{
	struct peer_opts o;
	struct peer_copy pc;
	struct mail_config cfg = { 0 };
	int ret;

	if (parse_opts(argc, argv, "abmdstc", false, &o))
		return cmd_usage(&cmd_peer_entry);
	if ((ret = load_config(&o, &cfg)) != 0)
		return ret;
	ret = peer_invite(o.dir, &o.inv, &cfg, &pc);
	if (ret) {
		ret = ret < 0 ? 1 : EXIT_USAGE;	/* 1: the options make no game */
	} else {
		printf("created peer game %s in %s (commit %.12s): the %s; the invitation to %s is mailed\n",
		       pc.g.id, o.dir, pc.g.head, side_name(pc.me),
		       pc.g.player[OTHER_SIDE(pc.me)].addr);
		say_fingerprint(&pc, pc.me);
		say_data(&pc.g);
		ret = send_now(&pc, &cfg);
		peer_copy_close(&pc);
	}
	config_release(&cfg);
	return ret;
}

static int exec_join(int argc, char **argv)
{
	struct peer_opts o;
	struct peer_copy pc;
	struct mail_config cfg = { 0 };
	struct strbuf mail = STRBUF_INIT;
	int ret;

	if (parse_opts(argc, argv, "dscA", true, &o))
		return cmd_usage(&cmd_peer_entry);
	if ((ret = load_config(&o, &cfg)) != 0)
		return ret;
	ret = 1;
	if (!o.input || !strcmp(o.input, "-")) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0 && mail.len < MAX_MAIL)
			strbuf_add(&mail, buf, n);
	} else if (read_file(o.input, &mail, MAX_MAIL) < 0) {
		error("cannot read '%s': %s", o.input, strerror(errno));
		goto out;
	}
	if (peer_join(o.dir, &o.join, &cfg, mail.buf, mail.len, &pc) < 0)
		goto out;
	printf("joined peer game %s in %s as the %s (commit %.12s); the join is mailed to %s\n",
	       pc.g.id, o.dir, side_name(pc.me), pc.g.head, pc.g.player[OTHER_SIDE(pc.me)].addr);
	say_fingerprint(&pc, OTHER_SIDE(pc.me));
	say_data(&pc.g);
	printf("your address: %s <%s> (your postrider mails your reports, with your hand, there and takes your orders from it: if it is not yours, do not play)\n",
	       pc.g.player[pc.me].name, pc.g.player[pc.me].addr);
	ret = send_now(&pc, &cfg);
	peer_copy_close(&pc);
out:
	config_release(&cfg);
	strbuf_release(&mail);
	return ret;
}

static int exec_status(int argc, char **argv)
{
	struct peer_copy pc;
	struct peer_waits w;
	struct strbuf err = STRBUF_INIT, seq = STRBUF_INIT, p = STRBUF_INIT;

	if (argc != 2)
		return cmd_usage(&cmd_peer_entry);
	if (peer_copy_open(argv[1], &pc, 0, &err) != 0) {
		error("%s", err.buf);
		peer_copy_close(&pc);
		strbuf_release(&err);
		return 1;
	}
	repo_trailer(pc.g.repo, pc.g.head, "Postrider-Seq", &seq);
	printf("game %s: this copy is the %s's; commit %s (seq %s)\n", pc.g.id,
	       side_name(pc.me), pc.g.head, seq.buf);
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
		char fp[17];
		if (!pc.rec.keys[sd].have) {
			printf("%s: not joined yet\n", side_name(sd));
			continue;
		}
		peer_fingerprint(&pc.rec.keys[sd], fp);
		printf("%s: %s, fingerprint %s\n", side_name(sd), pc.g.player[sd].addr, fp);
	}
	/* who owes the next commit: the head's waits */
	peer_waits_get(&pc, &w);
	for (int i = 0; i < w.n; i++)
		printf("waits: %s\n", w.l[i]);
	engine_describe_prompt(pc.g.data, &pc.g.state, &p);
	printf("now: %s\n", p.buf);
	peer_copy_close(&pc);
	strbuf_release(&err);
	strbuf_release(&seq);
	strbuf_release(&p);
	return 0;
}

static int exec_remind(int argc, char **argv)
{
	struct peer_opts o;
	struct mail_config cfg = { 0 };
	int ret, unsent = 0;

	if (parse_opts(argc, argv, "c", false, &o))
		return cmd_usage(&cmd_peer_entry);
	if ((ret = load_config(&o, &cfg)) != 0)
		return ret;
	ret = cmd_peer_remind(o.dir, &cfg, false, &unsent);
	config_release(&cfg);
	return ret ? ret : unsent ? EXIT_UNSENT : 0;
}

static int exec_claim(int argc, char **argv)
{
	struct peer_opts o;
	struct mail_config cfg = { 0 };
	struct peer_claim c;
	struct strbuf why = STRBUF_INIT;
	int ret;

	if (parse_opts(argc, argv, "c", false, &o))
		return cmd_usage(&cmd_peer_entry);
	if ((ret = load_config(&o, &cfg)) != 0)
		return ret;
	ret = peer_claim(o.dir, &cfg, &c, &why);
	if (ret == GAME_BUSY) {
		error("%s: busy: try again", o.dir);
		ret = EXIT_TEMPFAIL;
	} else if (ret != 0) {
		if (why.len)
			error("%s", why.buf);
		ret = EXIT_REJECTED;
	} else {
		printf("claimed: commit %u (%.12s); the %s lose by forfeit, the claim is mailed to them\n",
		       c.seq, c.commit, c.loser == SIDE_AMERICAN ? "Americans" : "British");
		ret = say_outbox(c.outbox, c.unsent, c.can_send, false);
	}
	peer_claim_release(&c);
	config_release(&cfg);
	strbuf_release(&why);
	return ret;
}

static int exec_audit(int argc, char **argv)
{
	struct peer_audit_report r;
	int ret;

	if (argc != 2)
		return cmd_usage(&cmd_peer_entry);
	peer_audit_report_init(&r);
	ret = peer_audit(argv[1], &r);
	switch (r.failed) {
	case PEER_AUDIT_NO_GAME:
		error("'%s' is no peer game that has begun:\n%s", argv[1], r.why.buf);
		break;
	case PEER_AUDIT_STATE:
		printf("audit: commit %zu: %s", r.at + 1, r.why.buf);
		break;
	case PEER_AUDIT_COMMIT:
		printf("audit: commit %zu (%.12s) does not replay: %s\n", r.at + 1, r.commit, r.why.buf);
		break;
	case PEER_AUDIT_START:
	case PEER_AUDIT_KEYS:
		printf("audit: %s\n", r.why.buf);
		break;
	case PEER_AUDIT_PASSED:
		printf("audit: %zu commits replayed by the rule of section 7: every proof verifies\n", r.n);
		if (r.opened)
			printf("audit: both masking keys published: %d slots opened, every share is its key's\n",
			       r.opened);
		else
			printf("audit: the keys are not published yet: the hidden cards stay hidden\n");
		break;
	}
	peer_audit_report_release(&r);
	return ret ? 1 : 0;
}

/* The subcommands: `postrider peer NAME ...` runs NAME's exec. */
static const struct cmd_entry peer_cmds[] = {
	{ .name = "new", .summary = "start a game and mail the invitation", .exec = exec_new },
	{ .name = "join", .summary = "join a game from its invitation", .exec = exec_join },
	{ .name = "status", .summary = "where a copy stands", .exec = exec_status },
	{ .name = "remind", .summary = "who owes what; resends and notices", .exec = exec_remind },
	{ .name = "claim", .summary = "end a game the other left", .exec = exec_claim },
	{ .name = "audit", .summary = "replay a copy and check every proof", .exec = exec_audit },
};

static int exec_peer(int argc, char **argv)
{
	struct strbuf names = STRBUF_INIT;

	if (argc < 2)
		return cmd_usage(&cmd_peer_entry);
	for (size_t i = 0; i < ARRAY_SIZE(peer_cmds); i++)
		if (!strcmp(argv[1], peer_cmds[i].name))
			return peer_cmds[i].exec(argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(peer_cmds); i++)
		strbuf_addf(&names, "%s%s", i ? i + 1 < ARRAY_SIZE(peer_cmds) ? ", " : " or " : "",
			    peer_cmds[i].name);
	error("unknown peer command '%s': %s", argv[1], names.buf);
	strbuf_release(&names);
	return cmd_usage(&cmd_peer_entry);
}

const struct cmd_entry cmd_peer_entry = {
	.name = "peer",
	.usage = "peer new DIR --me SIDE --american \"Name <addr>\" --british \"Name <addr>\" [--tournament] [--data DIR] [--secret HEX] [--config FILE]\n"
	"       postrider peer join DIR --address ADDR [--data DIR] [--secret HEX] [--config FILE] [MAIL | -]\n"
	"       postrider peer status DIR\n"
	"       postrider peer remind DIR [--config FILE]\n"
	"       postrider peer claim DIR [--config FILE]\n"
	"       postrider peer audit DIR",
	.summary = "a game between two players with no host (docs/peer.md)",
	.help = "  peer new     start a game: your copy in DIR, the invitation mailed to\n"
	"               the opponent (--me: your side)\n"
	"  peer join    build your copy in DIR from the invitation (a saved mail,\n"
	"               or standard input) and mail the join back; refused when\n"
	"               the invitation's data is not yours (--data DIR: the data\n"
	"               you accept); --address ADDR, your own address, is\n"
	"               required: an invitation that gives your side another one\n"
	"               is refused\n"
	"  peer status  the game, the sides' key fingerprints, who owes what\n"
	"  peer remind  who owes what since when; an automatic answer an hour\n"
	"               late: this copy's last mail again (then daily); tells\n"
	"               its player when he is late or may claim (run it from cron)\n"
	"  peer claim   end a game the other stopped answering, 7 days after the\n"
	"               commit he did not answer: he loses by forfeit\n"
	"  peer audit   replay every commit of a copy and check every proof; once\n"
	"               the game is over, open every card with the published keys\n"
	"  --secret HEX your 32-byte secret instead of a random one (tests only:\n"
	"               whoever knows it plays your side and sees your hand)\n"
	"  --config FILE  mail configuration (as for new and play)\n"
	"The mails between the two postriders are taken by `postrider play DIR`.\n"
	"exit status: 0 done and mailed, 3 done but mail waits in the outbox\n",
	.exec = exec_peer,
};
