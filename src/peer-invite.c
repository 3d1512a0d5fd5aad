/*
 * peer-invite.c - `peer new` and `peer join` as a library (peer-invite.h):
 * the inviter's copy made from the options, the joiner's from the
 * invitation mail, each checked, its commit (peer-start.c) published and
 * its mail staged. The command (src/cmd-peer.c) reads the options and
 * the mail, says what was made and sends the outbox.
 */
#include "peer-invite.h"
#include "peer-wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/crypto.h>

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

/* The game of `peer new` in pc->g, from the options. 0, -1, or 1 (the
 * options make no game, said). */
static int new_game(struct peer_copy *pc, const struct peer_invite_opts *o)
{
	struct game *g = &pc->g;
	struct strbuf err = STRBUF_INIT;
	struct pcrypto_public pk;
	struct peer_keys k = { 0 };
	char fp[17], *datadir;
	int side = o->me ? side_parse(o->me) : -1;

	if (side <= 0 || !o->american || !o->british ||
	    game_player_parse(o->american, &g->player[SIDE_AMERICAN]) < 0 ||
	    game_player_parse(o->british, &g->player[SIDE_BRITISH]) < 0) {
		error("peer new needs --me american|british and both players' addresses (\"Name <addr@example.org>\")");
		return 1;
	}
	if (!ascii_strcasecmp(g->player[1].addr, g->player[2].addr)) {
		error("both players have the address '%s': each side needs its own", g->player[1].addr);
		return 1;
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

/* The invitation in the mail text: its envelope, patch and the parsed
 * envelope. 0, or 1 (said). */
static int read_invitation(const char *mail, size_t len, struct strbuf *env_text,
			   struct strbuf *patch, struct peer_envelope *e)
{
	char why[256];

	if (peer_mail_extract(mail, len, env_text, patch, why, sizeof(why)) != 0)
		return error("this is not an invitation to a peer game: %s", why), 1;
	if (peer_envelope_parse(env_text->buf, env_text->len, e, why, sizeof(why)) < 0)
		return error("the invitation's envelope does not follow the grammar of 8.1: %s", why), 1;
	if (strcmp(e->kind, "invite") || e->seq != 1 || e->parent[0])
		return error("this mail is commit %lu (%s) of game %s, not an invitation",
			     e->seq, e->kind, e->game), 1;
	if (peer_patch_check(e, patch->buf, patch->len, why, sizeof(why)) < 0)
		return error("%s", why), 1;
	return 0;
}

/* The joiner's copy from the invitation, checked; then the join. */
static int join_copy(struct peer_copy *pc, const char *dir, const struct peer_join_opts *o,
		     const struct mail_config *cfg, const struct peer_envelope *e,
		     const struct strbuf *env_text, const struct strbuf *patch)
{
	struct strbuf err = STRBUF_INIT;
	struct repo *r = NULL;
	char why[256], commit[41];
	enum side inviter = (enum side)e->from;
	int ret = 1;

	if (repo_create(dir, &r) < 0)
		goto out;
	if (repo_apply_patch(r, patch->buf, patch->len, e->commit, why, sizeof(why)) < 0) {
		error("the invitation's patch does not give commit %s: %s", e->commit, why);
		goto out;
	}
	if (make_secret(r, o->secret_hex, pc->secret) < 0)
		goto out;
	repo_free(r);
	r = NULL;
	if (game_open(dir, &pc->g, GAME_LOCK, &err) != 0) {
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

/* A copy that could not be made: what was made of dir goes (made: 1 the
 * folder is new, 2 it was there before and only its contents go); what:
 * "game" or "copy"; say: that nothing was made is said. */
static void unmake(const char *dir, int made, const char *what, bool say)
{
	if (made && remove_tree(dir, made == 2) < 0)
		error("could not remove the half-made %s in '%s': %s", what, dir, strerror(errno));
	else if (made && say)
		error("nothing was made in '%s'", dir);
}

int peer_invite(const char *dir, const struct peer_invite_opts *o,
		const struct mail_config *cfg, struct peer_copy *pc)
{
	char commit[41];
	struct stat st;
	int made = stat(dir, &st) == 0 ? 2 : 1, ret = -1;

	memset(pc, 0, sizeof(*pc));
	if (repo_create(dir, &pc->g.repo) < 0)
		return -1;
	pc->g.dir = xstrdup(dir);
	if (make_secret(pc->g.repo, o->secret_hex, pc->secret) < 0)
		goto out;
	if ((ret = new_game(pc, o)) != 0)
		goto out;
	ret = -1;
	if (peer_invite_commit(&pc->g, &pc->rec, pc->me, game_now(), commit) < 0 ||
	    peer_commit_mail(pc, cfg, NULL, commit, 1, PEER_INVITE, NULL) < 0)
		goto out;
	ret = 0;
out:
	if (ret) {
		peer_copy_close(pc);
		memset(pc, 0, sizeof(*pc));
		unmake(dir, made, "game", false);
	}
	return ret;
}

int peer_join(const char *dir, const struct peer_join_opts *o,
	      const struct mail_config *cfg, const char *mail, size_t len,
	      struct peer_copy *pc)
{
	struct strbuf env_text = STRBUF_INIT, patch = STRBUF_INIT;
	struct peer_envelope e;
	struct stat st;
	int made = 0, ret = -1;

	memset(pc, 0, sizeof(*pc));
	if (read_invitation(mail, len, &env_text, &patch, &e))
		goto out;
	made = stat(dir, &st) == 0 ? 2 : 1;
	if (join_copy(pc, dir, o, cfg, &e, &env_text, &patch))
		goto out;
	ret = 0;
out:
	if (ret) {
		peer_copy_close(pc);
		memset(pc, 0, sizeof(*pc));
		unmake(dir, made, "copy", true);
	}
	strbuf_release(&env_text);
	strbuf_release(&patch);
	return ret;
}
