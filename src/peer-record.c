/*
 * peer-record.c - the record of a peer game (docs/peer.md section 6): the
 * player's secret, the keys of game.yaml, opening a copy, and the commits
 * with their trailers.
 */
#include "peer-record.h"
#include "codec.h"
#include "fair.h"
#include "ytree.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/crypto.h>
#include <openssl/sha.h>

static const char *const kind_names[PEER_KIND__COUNT] = {
	"invite", "join", "order", "answer", "claim", "end",
};

const char *peer_kind_name(enum peer_kind k)
{
	if ((int)k < 0 || k >= PEER_KIND__COUNT)
		BUG("peer kind %d", k);
	return kind_names[k];
}

int peer_kind_parse(const char *s)
{
	for (int k = 0; k < PEER_KIND__COUNT; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	return -1;
}

int peer_secret_new(struct repo *r, unsigned char secret[32])
{
	struct strbuf path = STRBUF_INIT;
	char hex[66];
	int ret = -1;

	if (fair_new_seed(secret) < 0)
		return -1;
	if (repo_private_path(r, PEER_SECRET_NAME, &path) < 0)
		goto out;
	hex_encode(secret, 32, hex);
	strcat(hex, "\n");
	if (write_file_atomic(path.buf, hex, 65) < 0)
		goto out;
	if (chmod(path.buf, 0600) < 0) {
		error("cannot make '%s' private: %s", path.buf, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	OPENSSL_cleanse(hex, sizeof(hex));
	strbuf_release(&path);
	return ret;
}

int peer_secret_read(struct repo *r, unsigned char secret[32],
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = -1;

	if (repo_private_path(r, PEER_SECRET_NAME, &path) < 0) {
		strbuf_addstr(err, "cannot find the copy's private folder");
		goto out;
	}
	if (read_file(path.buf, &text, 4096) < 0) {
		if (errno == ENOENT)
			ret = 1;
		else
			strbuf_addf(err, "cannot read '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	if (text.len != 65 || text.buf[64] != '\n' ||
	    hex_decode(text.buf, secret, 32) < 0) {
		strbuf_addf(err, "'%s' is not a peer secret (64 hex digits)", path.buf);
		goto out;
	}
	ret = 0;
out:
	if (text.len)
		OPENSSL_cleanse(text.buf, text.len);
	strbuf_release(&text);
	strbuf_release(&path);
	return ret;
}

/* "ID key SIDE" (8.2) into ctx; its length. */
static size_t key_ctx(const char *id, enum side side, char ctx[PCRYPTO_MAX_CTX + 1])
{
	int n = snprintf(ctx, PCRYPTO_MAX_CTX + 1, "%s key %s", id, side_name(side));

	return n < 0 || n > PCRYPTO_MAX_CTX ? 0 : (size_t)n;
}

int peer_keys_make(const unsigned char secret[32], const char *id,
		   enum side side, struct peer_keys *k)
{
	struct pcrypto_secret sk;
	struct pcrypto_public pk;
	char ctx[PCRYPTO_MAX_CTX + 1];
	size_t n = key_ctx(id, side, ctx);
	int ret = -1;

	memset(k, 0, sizeof(*k));
	if (!n || pcrypto_keys(secret, &sk, &pk) < 0 ||
	    pcrypto_key_prove(&sk, (const unsigned char *)ctx, n, k->proof) < 0)
		goto out;
	memcpy(k->vrf, pk.vrf, PCRYPTO_PT);
	memcpy(k->mask, pk.mask, PCRYPTO_PT);
	memcpy(k->sign, pk.sign, PCRYPTO_PT);
	k->have = true;
	ret = 0;
out:
	OPENSSL_cleanse(&sk, sizeof(sk));
	return ret;
}

int peer_keys_check(const char *id, enum side side, const struct peer_keys *k)
{
	char ctx[PCRYPTO_MAX_CTX + 1];
	size_t n = key_ctx(id, side, ctx);

	if (!n || !k->have)
		return -1;
	return pcrypto_key_verify(k->mask, (const unsigned char *)ctx, n, k->proof);
}

void peer_fingerprint(const struct peer_keys *k, char out[17])
{
	unsigned char buf[3 * PCRYPTO_PT], h[32];

	memcpy(buf, k->vrf, PCRYPTO_PT);
	memcpy(buf + PCRYPTO_PT, k->mask, PCRYPTO_PT);
	memcpy(buf + 2 * PCRYPTO_PT, k->sign, PCRYPTO_PT);
	SHA256(buf, sizeof(buf), h);
	hex_encode(h, 8, out);
}

/* A hex field of n bytes in map m; errors counted. */
static void read_hex(struct ytree *t, yaml_node_t *m, const char *key,
		     unsigned char *out, size_t n, struct strbuf *err, int *errors)
{
	yaml_node_t *v = ytree_get(t, m, key);
	const char *s = ytree_scalar(v);

	if (!s || strlen(s) != 2 * n || hex_decode(s, out, n) < 0) {
		ytree_error(t, v ? v : m, err, "missing or bad '%s' (%zu hex digits)",
			    key, 2 * n);
		(*errors)++;
	}
}

static int read_side(struct ytree *t, yaml_node_t *m, const char *id,
		     enum side side, struct peer_keys *k, struct strbuf *err)
{
	static const char *const keys[] = {
		"vrf_key", "mask_key", "mask_proof", "sign_key", NULL
	};
	int errors = ytree_check_keys(t, m, keys, err);

	read_hex(t, m, "vrf_key", k->vrf, PCRYPTO_PT, err, &errors);
	read_hex(t, m, "mask_key", k->mask, PCRYPTO_PT, err, &errors);
	read_hex(t, m, "mask_proof", k->proof, PCRYPTO_PROOF, err, &errors);
	read_hex(t, m, "sign_key", k->sign, PCRYPTO_PT, err, &errors);
	if (errors)
		return errors;
	k->have = true;
	if (peer_keys_check(id, side, k) < 0) {
		ytree_error(t, m, err, "the %s key proof does not verify", side_name(side));
		k->have = false;
		errors++;
	}
	return errors;
}

int peer_record_read(const char *id, const char *text, size_t len,
		     struct peer_record *rec, struct strbuf *err)
{
	static const char *const keys[] = {
		"version", "american", "british", "joint_key", NULL
	};
	struct ytree t;
	yaml_node_t *m, *n;
	int errors = 0;
	long v;

	memset(rec, 0, sizeof(*rec));
	if (ytree_parse(&t, "game.yaml", text, len, err) < 0)
		return -1;
	m = ytree_get(&t, ytree_root(&t), "peer");
	if (!m || m->type != YAML_MAPPING_NODE) {
		strbuf_addstr(err, "game.yaml: no peer section");
		ytree_free(&t);
		return -1;
	}
	errors += ytree_check_keys(&t, m, keys, err);
	n = ytree_get(&t, m, "version");
	if (!n || ytree_int(&t, n, 1, 1000, &v, err) < 0 || v != PEER_VERSION) {
		ytree_error(&t, n ? n : m, err, "not a peer game of version %d", PEER_VERSION);
		errors++;
	}
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		if ((n = ytree_get(&t, m, side_name(side))))
			errors += read_side(&t, n, id, side, &rec->keys[side], err);
	if ((n = ytree_get(&t, m, "joint_key"))) {
		unsigned char y[PCRYPTO_PT];
		read_hex(&t, m, "joint_key", rec->joint, PCRYPTO_PT, err, &errors);
		if (!rec->keys[SIDE_AMERICAN].have || !rec->keys[SIDE_BRITISH].have ||
		    pcrypto_joint_key(rec->keys[SIDE_AMERICAN].mask,
				      rec->keys[SIDE_BRITISH].mask, y) < 0 ||
		    memcmp(y, rec->joint, PCRYPTO_PT)) {
			ytree_error(&t, n, err, "the joint key is not the sum of both masking keys");
			errors++;
		} else {
			rec->have_joint = true;
		}
	}
	ytree_free(&t);
	return errors ? -1 : 0;
}

static void write_hex(struct strbuf *out, const char *indent, const char *key,
		      const unsigned char *b, size_t n)
{
	char hex[2 * PCRYPTO_PROOF + 1];

	hex_encode(b, n, hex);
	strbuf_addf(out, "%s%s: %s\n", indent, key, hex);
}

void peer_game_yaml(const struct game *g, const struct peer_record *rec,
		    struct strbuf *out)
{
	game_write_identity(g, "A game of Washington's War between two players, no host (postrider).", out);
	strbuf_addf(out, "options:\n  tournament_rule: %s\n",
		    g->tournament ? "true" : "false");
	strbuf_addf(out, "mode: peer\npeer:\n  version: %d\n", PEER_VERSION);
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		const struct peer_keys *k = &rec->keys[side];
		if (!k->have)
			continue;
		strbuf_addf(out, "  %s:\n", side_name(side));
		write_hex(out, "    ", "vrf_key", k->vrf, PCRYPTO_PT);
		write_hex(out, "    ", "mask_key", k->mask, PCRYPTO_PT);
		write_hex(out, "    ", "mask_proof", k->proof, PCRYPTO_PROOF);
		write_hex(out, "    ", "sign_key", k->sign, PCRYPTO_PT);
	}
	if (rec->have_joint)
		write_hex(out, "  ", "joint_key", rec->joint, PCRYPTO_PT);
}

int peer_copy_open(const char *dir, struct peer_copy *pc, unsigned flags,
		   struct strbuf *err)
{
	struct game g;
	int r;

	memset(pc, 0, sizeof(*pc));
	r = game_open(dir, &g, flags & ~GAME_NEED_SECRET, err);
	if (r != 0) {
		pc->g = g;	/* closed by peer_copy_close() */
		return r;
	}
	return peer_copy_adopt(&g, pc, err);
}

/* The key of the player's reply tokens (8.4): HMAC(K_rand,
 * "postrider-peer-key-token"), only his own postrider holds it. */
static void token_key(const struct peer_copy *pc, unsigned char out[32])
{
	static const char label[] = "postrider-peer-key-token";

	codec_hmac_sha256(pc->sk.rand, 32, (const unsigned char *)label, sizeof(label) - 1, out);
}

int peer_copy_adopt(struct game *g, struct peer_copy *pc, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct peer_keys mine;
	int r = -1;

	memset(pc, 0, sizeof(*pc));
	pc->g = *g;
	memset(g, 0, sizeof(*g));
	if (!pc->g.peer) {
		strbuf_addf(err, "'%s' is not a peer game (game.yaml has no 'mode: peer')", pc->g.dir);
		goto out;
	}
	if (repo_read(pc->g.repo, pc->g.head, "game.yaml", &text) != 0 ||
	    peer_record_read(pc->g.id, text.buf, text.len, &pc->rec, err) < 0)
		goto out;
	r = peer_secret_read(pc->g.repo, pc->secret, err);
	if (r == 1)
		strbuf_addf(err, "'%s' holds no peer secret (%s/postrider/%s): not a player's copy",
			    pc->g.dir, repo_gitdir(pc->g.repo), PEER_SECRET_NAME);
	if (r != 0) {
		r = -1;
		goto out;
	}
	r = -1;
	if (pcrypto_keys(pc->secret, &pc->sk, NULL) < 0)
		goto out;
	pc->me = SIDE_NONE;
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		if (!pc->rec.keys[side].have ||
		    peer_keys_make(pc->secret, pc->g.id, side, &mine) < 0)
			continue;
		if (!memcmp(mine.sign, pc->rec.keys[side].sign, PCRYPTO_PT))
			pc->me = side;
	}
	if (pc->me == SIDE_NONE) {
		strbuf_addf(err, "the peer secret of '%s' gives neither side's keys in game.yaml", pc->g.dir);
		goto out;
	}
	pc->g.own = pc->me;
	token_key(pc, pc->g.token_key);
	r = 0;
out:
	strbuf_release(&text);
	return r;
}

void peer_copy_close(struct peer_copy *pc)
{
	OPENSSL_cleanse(pc->g.token_key, sizeof(pc->g.token_key));
	game_close(&pc->g);
	OPENSSL_cleanse(pc->secret, sizeof(pc->secret));
	OPENSSL_cleanse(&pc->sk, sizeof(pc->sk));
}

int peer_commit_prepare(struct game *g, const char *parent,
			const struct peer_commit *pc, char commit[41])
{
	struct strbuf msg = STRBUF_INIT;
	const struct game_player *who = &g->player[pc->side];
	struct repo_ident id = { who->name, who->addr, pc->time, 0 };
	int ret;

	strbuf_addf(&msg, "%s\n\n", pc->subject);
	strbuf_addf(&msg, "Postrider-Game: %s\nPostrider-Seq: %u\nPostrider-Side: %s\nPostrider-Kind: %s\n",
		    g->id, pc->seq, side_name(pc->side), peer_kind_name(pc->kind));
	for (const char *w = pc->waits; w && *w;) {
		const char *nl = strchr(w, '\n');
		size_t n = nl ? (size_t)(nl - w) : strlen(w);
		strbuf_addf(&msg, "Postrider-Waits: %.*s\n", (int)n, w);
		w += n + (nl ? 1 : 0);
	}
	ret = repo_commit_prepare(g->repo, parent, pc->files, pc->n_files, NULL,
				  &id, &id, msg.buf, commit);
	strbuf_release(&msg);
	return ret;
}
