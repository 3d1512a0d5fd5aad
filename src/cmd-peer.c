/*
 * cmd-peer.c - `postrider peer`: a game between two players with no host
 * (docs/peer.md). `peer new` starts one and mails the invitation, `peer
 * join` builds the invited player's copy from it and mails the join,
 * `peer status` says where a copy stands. The mails between the two
 * postriders are then taken by `postrider play` (its peer branch).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/crypto.h>

#include "cmd.h"
#include "config.h"
#include "engine/engine.h"
#include "game.h"
#include "mail.h"
#include "notify.h"
#include "peer.h"
#include "peer-wire.h"
#include "peer-silence.h"
#include "transport.h"

#define MAX_MAIL (8 << 20)

struct peer_opts {
	const char *am, *br, *me, *data, *secret_hex, *config_path, *dir, *input;
	const char *address;	/* join: the joiner's own address, checked */
	bool tournament;
};

/* Parses the options of `peer new` and `peer join`; 0 or EXIT_USAGE. */
static int parse_opts(int argc, char **argv, struct peer_opts *o, bool join)
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
		switch (c) {
		case 'a': o->am = optarg; break;
		case 'b': o->br = optarg; break;
		case 'm': o->me = optarg; break;
		case 'd': o->data = optarg; break;
		case 's': o->secret_hex = optarg; break;
		case 't': o->tournament = true; break;
		case 'c': o->config_path = optarg; break;
		case 'A': o->address = optarg; break;
		default: return EXIT_USAGE;
		}
	}
	if (join ? (optind != argc - 1 && optind != argc - 2) : optind != argc - 1)
		return EXIT_USAGE;
	if (join && (o->am || o->br || o->me || o->tournament))
		return EXIT_USAGE;
	if (!join && o->address)
		return EXIT_USAGE;
	o->dir = argv[optind];
	o->input = join && optind == argc - 2 ? argv[optind + 1] : NULL;
	return 0;
}

/* The secret: --secret HEX (tests), else drawn; written 0600. */
static int make_secret(struct repo *r, const char *hex, unsigned char secret[32])
{
	struct strbuf path = STRBUF_INIT;
	char line[66];
	int ret = -1;

	if (!hex)
		return peer_secret_new(r, secret);
	if (strlen(hex) != 64 || hex_decode(hex, secret, 32) < 0)
		return error("--secret takes 64 hex digits");
	if (repo_private_path(r, PEER_SECRET_NAME, &path) < 0)
		goto out;
	hex_encode(secret, 32, line);
	strcat(line, "\n");
	if (write_file_atomic(path.buf, line, 65) < 0 || chmod(path.buf, 0600) < 0)
		goto out;
	ret = 0;
out:
	OPENSSL_cleanse(line, sizeof(line));
	strbuf_release(&path);
	return ret;
}

/* Mails what the outbox holds, as `new` and `play` do: 0, or EXIT_UNSENT. */
static int send_now(struct peer_copy *pc, const struct mail_config *cfg,
		    const char *outbox)
{
	struct notify n = { 0 };
	int ret;

	(void)pc;
	n.outbox = xstrdup(outbox);
	ret = notify_send(&n, cfg) > 0 ? EXIT_UNSENT : 0;
	if (ret || !transport_can_send(cfg))
		printf("outbox: %s/new\n", outbox);
	notify_release(&n);
	return ret;
}

static char *outbox_of(struct peer_copy *pc, const struct mail_config *cfg)
{
	struct strbuf p = STRBUF_INIT;

	if (cfg->outbox)
		return xstrdup(cfg->outbox);
	repo_private_path(pc->g.repo, "outbox", &p);
	return strbuf_detach(&p, NULL);
}

/* The game of `peer new` in pc->g, from the options. 0, -1 or EXIT_USAGE. */
static int new_game(struct peer_copy *pc, const struct peer_opts *o)
{
	struct game *g = &pc->g;
	struct strbuf err = STRBUF_INIT;
	struct pcrypto_public pk;
	struct peer_keys k = { 0 };
	char fp[17], *datadir;
	int side = o->me ? side_parse(o->me) : -1;

	if (side <= 0 || !o->am || !o->br ||
	    game_player_parse(o->am, &g->player[SIDE_AMERICAN]) < 0 ||
	    game_player_parse(o->br, &g->player[SIDE_BRITISH]) < 0) {
		error("peer new needs --me american|british and both players' addresses (\"Name <addr@example.org>\")");
		return EXIT_USAGE;
	}
	if (!ascii_strcasecmp(g->player[1].addr, g->player[2].addr)) {
		error("both players have the address '%s': each side needs its own", g->player[1].addr);
		return EXIT_USAGE;
	}
	pc->me = (enum side)side;
	g->peer = true;
	g->module = xstrdup("washingtons-war");
	datadir = game_data_dir(o->data, g->module);
	g->data = g->data_owned = data_load(datadir, &err);
	if (!g->data) {
		error("the component data in '%s' does not load:\n%s", datadir, err.buf);
		free(datadir);
		strbuf_release(&err);
		return -1;
	}
	free(datadir);
	strbuf_release(&err);
	g->data_hash = xstrdup(g->data->hash);
	g->data_name = xstrdup(g->data->game);
	g->tournament = o->tournament;
	for (int i = 0; i < g->data->n_files; i++) {
		const char *f = g->data->files[i], *b = strrchr(f, '/');
		g->data_files[g->n_data_files++] = xstrdup(b ? b + 1 : f);
	}
	/* the id from the inviter's keys, which do not depend on it */
	if (pcrypto_keys(pc->secret, &pc->sk, &pk) < 0)
		return -1;
	memcpy(k.vrf, pk.vrf, PCRYPTO_PT);
	memcpy(k.mask, pk.mask, PCRYPTO_PT);
	memcpy(k.sign, pk.sign, PCRYPTO_PT);
	peer_fingerprint(&k, fp);
	g->id = xstrfmt("ww-%.8s", fp);
	if (peer_keys_make(pc->secret, g->id, pc->me, &pc->rec.keys[pc->me]) < 0)
		return -1;
	return 0;
}

/* The rules the game is played with: the joiner compares them as he does
 * the fingerprint (9.1). */
static void say_data(const struct game *g)
{
	printf("data: %s, hash %s, options: %s\n", g->data_name ? g->data_name : "?",
	       g->data_hash ? g->data_hash : "?", g->tournament ? "tournament" : "none");
}

/* The invitation's data against the data installed here, or the one of
 * --data DIR (finding 2 of issue 34). 0, or 1 (refused, said). */
static int check_invitation_data(const struct game *g, const char *override)
{
	struct strbuf err = STRBUF_INIT;
	char *dir = game_data_dir(override, g->module ? g->module : "washingtons-war");
	struct data *d = data_load(dir, &err);
	int ret = 1;

	if (!d)
		error("the data in '%s' does not load, so the invitation cannot be compared with it:\n%s",
		      dir, err.buf);
	else if (!g->data_hash || strcmp(d->hash, g->data_hash))
		error("the invitation's rules data (%s, hash %s) is not the data %s (hash %s); "
		      "join with --data DIR to accept the data in DIR",
		      g->data_name ? g->data_name : "?", g->data_hash ? g->data_hash : "?",
		      override ? "given with --data" : "installed here", d->hash);
	else
		ret = 0;
	if (d)
		data_free(d);
	free(dir);
	strbuf_release(&err);
	return ret;
}

/* The joiner's own address in the invitation: where his postrider will
 * mail his reports (his hand) and whence it takes his orders (8.4). The
 * joiner must say it (--address): the inviter writes both addresses, and
 * one that is not the joiner's would get his hand (the red team's
 * finding, issue 34). 0, or 1 (refused, said). */
static int check_own_address(const struct game *g, enum side me, const char *address)
{
	struct game_player p = { 0 };
	const char *addr = address;
	int ret = 0;

	if (!address) {
		error("peer join needs --address ADDR, your own address: the invitation names %s <%s> for the %s, and your postrider would mail your hand there and take orders from it",
		      g->player[me].name, g->player[me].addr, side_name(me));
		return 1;
	}
	if (game_player_parse(address, &p) == 0)
		addr = p.addr;
	if (addr && ascii_strcasecmp(addr, g->player[me].addr)) {
		error("the invitation gives the %s the address %s, not yours (%s): your postrider would mail your hand there and take orders from it; ask the inviter for an invitation to your own address",
		      side_name(me), g->player[me].addr, addr);
		ret = 1;
	}
	free(p.name);
	free(p.addr);
	return ret;
}

static void say_own_address(const struct game *g, enum side me)
{
	printf("your address: %s <%s> (your postrider mails your reports, with your hand, there and takes your orders from it: if it is not yours, do not play)\n",
	       g->player[me].name, g->player[me].addr);
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
	struct strbuf err = STRBUF_INIT, outbox = STRBUF_INIT;
	char commit[41], *box = NULL;
	int ret = 1, made = 0;
	struct stat st;

	if (parse_opts(argc, argv, &o, false))
		return cmd_usage(&cmd_peer_entry);
	memset(&pc, 0, sizeof(pc));
	if (config_load(o.config_path, &cfg, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	made = stat(o.dir, &st) == 0 ? 2 : 1;
	if (repo_create(o.dir, &pc.g.repo) < 0) {
		made = 0;
		goto out;
	}
	pc.g.dir = xstrdup(o.dir);
	if (make_secret(pc.g.repo, o.secret_hex, pc.secret) < 0)
		goto out;
	if ((ret = new_game(&pc, &o)) != 0) {
		ret = ret < 0 ? 1 : ret;
		goto out;
	}
	ret = 1;
	if (peer_invite_commit(&pc.g, &pc.rec, pc.me, game_now(), commit) < 0 ||
	    peer_commit_mail(&pc, &cfg, NULL, commit, 1, PEER_INVITE, &outbox) < 0)
		goto out;
	made = 0;
	printf("created peer game %s in %s (commit %.12s): the %s; the invitation to %s is mailed\n",
	       pc.g.id, o.dir, commit, side_name(pc.me), pc.g.player[OTHER_SIDE(pc.me)].addr);
	say_fingerprint(&pc, pc.me);
	say_data(&pc.g);
	fflush(stdout);
	box = outbox_of(&pc, &cfg);
	ret = send_now(&pc, &cfg, box);
out:
	free(box);
	peer_copy_close(&pc);
	config_release(&cfg);
	if (ret != 0 && made && remove_tree(o.dir, made == 2) < 0)
		error("could not remove the half-made game in '%s': %s", o.dir, strerror(errno));
	strbuf_release(&err);
	strbuf_release(&outbox);
	return ret;
}

/* The invitation in mail: its envelope checked against its own keys and
 * its commit rebuilt by the rule of 9.1. 0, or 1 (refused, said). */
static int check_invitation(struct peer_copy *pc, const struct peer_envelope *e,
			    const char *env_text, size_t env_len)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct game *g = &pc->g;
	enum side inviter = (enum side)e->from;
	char commit[41];
	long long time = 0;
	int ret = 1;

	if (repo_read(g->repo, g->head, "game.yaml", &text) != 0 ||
	    peer_record_read(g->id, text.buf, text.len, &pc->rec, &err) < 0) {
		error("the invitation's game.yaml is no peer game:\n%s", err.buf);
		goto out;
	}
	if (!pc->rec.keys[inviter].have || pc->rec.keys[OTHER_SIDE(inviter)].have ||
	    pc->rec.have_joint) {
		error("the invitation must hold the keys of its sender, the %s, and no others",
		      side_name(inviter));
		goto out;
	}
	if (peer_envelope_verify(e, pc->rec.keys[inviter].sign, env_text, env_len) < 0) {
		error("the invitation's signature does not verify under its own sign_key");
		goto out;
	}
	repo_commit_info(g->repo, g->head, NULL, NULL, NULL, &time);
	if (peer_invite_commit(g, &pc->rec, inviter, time, commit) < 0 ||
	    strcmp(commit, g->head)) {
		error("the invitation does not replay: its set-up is not the one of rule 4.0 for its players and data");
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/* Reads the invitation mail; its envelope, patch and the parsed envelope.
 * 0, or 1 (said). */
static int read_invitation(const char *input, struct strbuf *env_text,
			   struct strbuf *patch, struct peer_envelope *e)
{
	struct strbuf mail = STRBUF_INIT;
	char why[256];
	int ret = 1;

	if (!input || !strcmp(input, "-")) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0 && mail.len < MAX_MAIL)
			strbuf_add(&mail, buf, n);
	} else if (read_file(input, &mail, MAX_MAIL) < 0) {
		error("cannot read '%s': %s", input, strerror(errno));
		goto out;
	}
	if (peer_mail_extract(mail.buf, mail.len, env_text, patch, why, sizeof(why)) != 0) {
		error("this is not an invitation to a peer game: %s", why);
		goto out;
	}
	if (peer_envelope_parse(env_text->buf, env_text->len, e, why, sizeof(why)) < 0) {
		error("the invitation's envelope does not follow the grammar of 8.1: %s", why);
		goto out;
	}
	if (strcmp(e->kind, "invite") || e->seq != 1 || e->parent[0]) {
		error("this mail is commit %lu (%s) of game %s, not an invitation",
		      e->seq, e->kind, e->game);
		goto out;
	}
	if (peer_patch_check(e, patch->buf, patch->len, why, sizeof(why)) < 0) {
		error("%s", why);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&mail);
	return ret;
}

/* The joiner's copy from the invitation, checked; then the join. */
static int join_copy(struct peer_copy *pc, const struct peer_opts *o,
		     const struct mail_config *cfg, const struct peer_envelope *e,
		     const struct strbuf *env_text, const struct strbuf *patch)
{
	struct strbuf err = STRBUF_INIT;
	struct repo *r = NULL;
	char why[256], commit[41];
	enum side inviter = (enum side)e->from;
	int ret = 1;

	if (repo_create(o->dir, &r) < 0)
		goto out;
	if (repo_apply_patch(r, patch->buf, patch->len, e->commit, why, sizeof(why)) < 0) {
		error("the invitation's patch does not give commit %s: %s", e->commit, why);
		goto out;
	}
	if (make_secret(r, o->secret_hex, pc->secret) < 0)
		goto out;
	repo_free(r);
	r = NULL;
	if (game_open(o->dir, &pc->g, GAME_LOCK, &err) != 0) {
		error("the invitation is no game:\n%s", err.buf);
		goto out;
	}
	if (!pc->g.peer || strcmp(pc->g.id, e->game)) {
		error("the invitation's game.yaml is not that of peer game %s", e->game);
		goto out;
	}
	if (check_invitation(pc, e, env_text->buf, env_text->len) ||
	    check_invitation_data(&pc->g, o->data))
		goto out;
	pc->me = OTHER_SIDE(inviter);
	if (check_own_address(&pc->g, pc->me, o->address))
		goto out;
	if (pcrypto_keys(pc->secret, &pc->sk, NULL) < 0 ||
	    peer_keys_make(pc->secret, pc->g.id, pc->me, &pc->rec.keys[pc->me]) < 0 ||
	    pcrypto_joint_key(pc->rec.keys[1].mask, pc->rec.keys[2].mask, pc->rec.joint) < 0)
		goto out;
	pc->rec.have_joint = true;
	if (peer_join_commit(&pc->g, &pc->rec, pc->me,
			     peer_commit_time(pc->g.repo, pc->g.head), commit) < 0 ||
	    peer_commit_mail(pc, cfg, pc->g.head, commit, 2, PEER_JOIN, NULL) < 0)
		goto out;
	ret = 0;
out:
	repo_free(r);
	strbuf_release(&err);
	return ret;
}

static int exec_join(int argc, char **argv)
{
	struct peer_opts o;
	struct peer_copy pc;
	struct mail_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT, env_text = STRBUF_INIT, patch = STRBUF_INIT;
	struct peer_envelope e;
	char *box = NULL;
	int ret = 1, made = 0;
	struct stat st;

	if (parse_opts(argc, argv, &o, true))
		return cmd_usage(&cmd_peer_entry);
	memset(&pc, 0, sizeof(pc));
	if (config_load(o.config_path, &cfg, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (read_invitation(o.input, &env_text, &patch, &e))
		goto out;
	made = stat(o.dir, &st) == 0 ? 2 : 1;
	if (join_copy(&pc, &o, &cfg, &e, &env_text, &patch))
		goto out;
	made = 0;
	printf("joined peer game %s in %s as the %s (commit %.12s); the join is mailed to %s\n",
	       pc.g.id, o.dir, side_name(pc.me), pc.g.head, pc.g.player[OTHER_SIDE(pc.me)].addr);
	say_fingerprint(&pc, OTHER_SIDE(pc.me));
	say_data(&pc.g);
	say_own_address(&pc.g, pc.me);
	fflush(stdout);
	box = outbox_of(&pc, &cfg);
	ret = send_now(&pc, &cfg, box);
out:
	free(box);
	peer_copy_close(&pc);
	config_release(&cfg);
	if (ret != 0 && made && remove_tree(o.dir, made == 2) < 0)
		error("could not remove the half-made copy in '%s': %s", o.dir, strerror(errno));
	else if (ret != 0 && made)
		error("nothing was made in '%s'", o.dir);
	strbuf_release(&err);
	strbuf_release(&env_text);
	strbuf_release(&patch);
	return ret;
}

static int exec_status(int argc, char **argv)
{
	struct peer_copy pc;
	struct strbuf err = STRBUF_INIT, seq = STRBUF_INIT, p = STRBUF_INIT;
	int ret = 1;

	if (argc != 2)
		return cmd_usage(&cmd_peer_entry);
	if (peer_copy_open(argv[1], &pc, 0, &err) != 0) {
		error("%s", err.buf);
		goto out;
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
	{
		/* who owes the next commit: the head's Postrider-Waits */
		struct strbuf msg = STRBUF_INIT, w = STRBUF_INIT;
		repo_commit_info(pc.g.repo, pc.g.head, &msg, NULL, NULL, NULL);
		for (unsigned i = 0; repo_trailer_get(msg.buf, "Postrider-Waits", i, &w) == 0; i++) {
			printf("waits: %s\n", w.buf);
			strbuf_reset(&w);
		}
		strbuf_release(&w);
		strbuf_release(&msg);
	}
	engine_describe_prompt(pc.g.data, &pc.g.state, &p);
	printf("now: %s\n", p.buf);
	ret = 0;
out:
	peer_copy_close(&pc);
	strbuf_release(&err);
	strbuf_release(&seq);
	strbuf_release(&p);
	return ret;
}

static int exec_peer(int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage(&cmd_peer_entry);
	if (!strcmp(argv[1], "new"))
		return exec_new(argc - 1, argv + 1);
	if (!strcmp(argv[1], "join"))
		return exec_join(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status"))
		return exec_status(argc - 1, argv + 1);
	if (!strcmp(argv[1], "remind") || !strcmp(argv[1], "claim")) {
		int r = (argv[1][0] == 'r' ? peer_remind_main : peer_claim_main)(argc - 1, argv + 1);
		return r == EXIT_USAGE ? cmd_usage(&cmd_peer_entry) : r;
	}
	if (!strcmp(argv[1], "audit")) {
		if (argc != 3)
			return cmd_usage(&cmd_peer_entry);
		return peer_audit(argv[2]);
	}
	error("unknown peer command '%s': new, join, status, remind, claim or audit", argv[1]);
	return cmd_usage(&cmd_peer_entry);
}

const struct cmd_entry cmd_peer_entry = {
	"peer",
	"peer new DIR --me SIDE --american \"Name <addr>\" --british \"Name <addr>\" [--tournament] [--data DIR] [--secret HEX] [--config FILE]\n"
	"       postrider peer join DIR --address ADDR [--data DIR] [--secret HEX] [--config FILE] [MAIL | -]\n"
	"       postrider peer status DIR\n"
	"       postrider peer remind DIR [--config FILE]\n"
	"       postrider peer claim DIR [--config FILE]\n"
	"       postrider peer audit DIR",
	"a game between two players with no host (docs/peer.md)",
	"  peer new     start a game: your copy in DIR, the invitation mailed to\n"
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
	exec_peer,
};
