/*
 * game.c - opening a game repository: game.yaml, the data copy, the state
 * and the secret. See game.h for the layout.
 */
#include "game.h"
#include "mail.h"
#include "paths.h"
#include "state-yaml.h"
#include "ytree.h"
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

long long game_now(void)
{
	const char *s = getenv("POSTRIDER_NOW");

	if (s && *s)
		return strtoll(s, NULL, 10);
	return (long long)time(NULL);
}

char *game_data_dir(const char *override, const char *module)
{
	char *sub;
	char *dir;

	if (override)
		return xstrdup(override);
	sub = xstrfmt("games/%s", module);
	dir = paths_find("POSTRIDER_GAMES", module, sub, "cards.yaml");
	free(sub);
	return dir;
}

void game_close(struct game *g)
{
	if (!g)
		return;
	repo_free(g->repo);
	data_free(g->data_owned);
	free(g->dir);
	free(g->id);
	free(g->module);
	free(g->data_hash);
	free(g->data_name);
	for (int i = 0; i < g->n_data_files; i++)
		free(g->data_files[i]);
	for (int i = 0; i < 3; i++) {
		free(g->player[i].name);
		free(g->player[i].addr);
	}
	free(g->seed_source);
	memset(g, 0, sizeof(*g));
}

static char *dup_scalar(struct ytree *t, yaml_node_t *map, const char *key,
			struct strbuf *err, int *errors)
{
	yaml_node_t *n = ytree_get(t, map, key);
	const char *v = ytree_scalar(n);

	if (!v) {
		ytree_error(t, n ? n : map, err, "missing or bad '%s'", key);
		(*errors)++;
		return NULL;
	}
	return xstrdup(v);
}

static const char *const mail_modes[MAIL__COUNT] = {
	[MAIL_EVERY] = "every", [MAIL_MY_MOVE] = "my-move", [MAIL_DIGEST] = "digest",
};

const char *mail_mode_name(enum mail_mode m)
{
	if ((int)m < 0 || m >= MAIL__COUNT)
		BUG("mail mode %d", m);
	return mail_modes[m];
}

int mail_mode_parse(const char *s)
{
	for (int m = 0; m < MAIL__COUNT; m++)
		if (!strcmp(s, mail_modes[m]))
			return m;
	return -1;
}

/* Game ids go into mail headers, file names and the VRF input. */
static bool game_id_ok(const char *id)
{
	size_t n = strlen(id);

	if (!n || n > RNG_MAX_GAME_ID)
		return false;
	for (const char *p = id; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return false;
	return true;
}

/* The players and the host: name, address, mail mode; the count of
 * errors it found. */
static int read_players(struct game *g, struct ytree *t, yaml_node_t *root,
			struct strbuf *err)
{
	static const char *const player_keys[] = { "name", "address", "mail", NULL };
	yaml_node_t *n, *m;
	int errors = 0;

	m = ytree_get(t, root, "players");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		yaml_node_t *p = ytree_get(t, m, side_name(side));
		if (!p) {
			ytree_error(t, m ? m : root, err, "missing player '%s'", side_name(side));
			errors++;
			continue;
		}
		errors += ytree_check_keys(t, p, player_keys, err);
		g->player[side].name = dup_scalar(t, p, "name", err, &errors);
		g->player[side].addr = dup_scalar(t, p, "address", err, &errors);
		if ((n = ytree_get(t, p, "mail"))) {
			const char *mode_text = ytree_scalar(n);
			int mode = mode_text ? mail_mode_parse(mode_text) : -1;
			if (mode < 0) {
				ytree_error(t, n, err, "bad 'mail': every, my-move or digest");
				errors++;
			} else {
				g->player[side].mail = (enum mail_mode)mode;
			}
		}
	}
	if ((m = ytree_get(t, root, "host"))) {
		errors += ytree_check_keys(t, m, player_keys, err);
		g->player[0].name = dup_scalar(t, m, "name", err, &errors);
		g->player[0].addr = dup_scalar(t, m, "address", err, &errors);
	} else if (!g->peer) {
		ytree_error(t, root, err, "missing 'host'");
		errors++;
	}
	return errors;
}

/* The fairness block m: the seed's commitment and source, the version,
 * its public key, fixed dice and a revealed seed; the count of errors. */
static int read_fairness(struct game *g, struct ytree *t, yaml_node_t *m,
			 struct strbuf *err)
{
	static const char *const fair_keys[] = {
		"seed_commitment", "seed_source", "fixed_dice", "revealed_seed",
		"version", "vrf_public_key", NULL
	};
	yaml_node_t *n;
	int errors = 0;
	long v;

	const char *c;
	errors += ytree_check_keys(t, m, fair_keys, err);
	c = ytree_scalar(ytree_get(t, m, "seed_commitment"));
	if (!c || strlen(c) != 64) {
		ytree_error(t, m, err, "missing or bad 'seed_commitment'");
		errors++;
	} else {
		memcpy(g->commitment, c, 65);
	}
	g->seed_source = dup_scalar(t, m, "seed_source", err, &errors);
	g->fairness = 1;
	if ((n = ytree_get(t, m, "version"))) {
		if (ytree_int(t, n, 1, GAME_FAIRNESS_MAX, &v, err) < 0)
			errors++;
		else
			g->fairness = (int)v;
	}
	n = ytree_get(t, m, "vrf_public_key");
	if (game_proves(g)) {
		const char *k = ytree_scalar(n);
		if (!k || strlen(k) != 66 || hex_decode(k, g->vrf_pk, 33) < 0 ||
		    (g->vrf_pk[0] != 2 && g->vrf_pk[0] != 3)) {
			ytree_error(t, n ? n : m, err, "fairness version %d needs 'vrf_public_key' (66 hex digits, a compressed P-256 point)",
				    g->fairness);
			errors++;
		}
	} else if (n) {
		ytree_error(t, n, err, "'vrf_public_key' belongs to fairness versions 2 to %d",
			    GAME_FAIRNESS_MAX);
		errors++;
	}
	if ((n = ytree_get(t, m, "fixed_dice")) &&
	    ytree_bool(t, n, &g->fixed_dice, err) < 0)
		errors++;
	if ((n = ytree_get(t, m, "revealed_seed"))) {
		unsigned char seed[FAIR_SEED_BYTES];
		const char *s = ytree_scalar(n);
		if (!s || fair_seed_parse(s, seed) < 0 ||
		    !fair_commitment_matches(seed, g->commitment)) {
			ytree_error(t, n, err, "the revealed seed does not match the commitment");
			errors++;
		} else {
			g->revealed = true;
			memcpy(g->seed, seed, sizeof(seed));
			g->have_seed = true;
		}
	}
	return errors;
}

static int read_game_yaml(struct game *g, const char *text, size_t len,
			  struct strbuf *err)
{
	static const char *const keys[] = {
		"postrider", "id", "game", "data_name", "data_hash", "data_files", "players",
		"host", "options", "fairness", "mode", "peer", NULL
	};
	static const char *const opt_keys[] = { "tournament_rule", NULL };
	struct ytree t;
	yaml_node_t *root, *n, *m;
	int errors = 0;
	long v;

	if (ytree_parse(&t, "game.yaml", text, len, err) < 0)
		return -1;
	root = ytree_root(&t);
	if (!root || root->type != YAML_MAPPING_NODE) {
		strbuf_addstr(err, "game.yaml: not a mapping\n");
		ytree_free(&t);
		return -1;
	}
	errors += ytree_check_keys(&t, root, keys, err);
	n = ytree_get(&t, root, "postrider");
	if (!n || ytree_int(&t, n, 1, 1000, &v, err) < 0 || v != GAME_FORMAT) {
		ytree_error(&t, n ? n : root, err, "not a postrider game of format %d", GAME_FORMAT);
		errors++;
	}
	g->id = dup_scalar(&t, root, "id", err, &errors);
	if (g->id && !game_id_ok(g->id)) {
		ytree_error(&t, ytree_get(&t, root, "id"), err,
			    "bad 'id': 1 to 64 letters, digits, '.', '_' or '-'");
		errors++;
	}
	g->module = dup_scalar(&t, root, "game", err, &errors);
	g->data_hash = dup_scalar(&t, root, "data_hash", err, &errors);
	if (ytree_get(&t, root, "data_name")) {
		g->data_name = dup_scalar(&t, root, "data_name", err, &errors);
		if (g->data_name && (!*g->data_name || strlen(g->data_name) > 100 ||
				     strpbrk(g->data_name, "\n\r\t"))) {
			ytree_error(&t, ytree_get(&t, root, "data_name"), err,
				    "bad 'data_name': 1 to 100 characters on one line");
			errors++;
		}
	}
	n = ytree_get(&t, root, "data_files");
	for (int i = 0; i < ytree_len(n) && i < DATA_MAX_FILES; i++) {
		const char *f = ytree_scalar(ytree_item(&t, n, i));
		if (!f || !*f || strchr(f, '/') || f[0] == '.') {
			ytree_error(&t, ytree_item(&t, n, i), err, "bad data file name");
			errors++;
			continue;
		}
		g->data_files[g->n_data_files++] = xstrdup(f);
	}
	if (!g->n_data_files) {
		ytree_error(&t, root, err, "no data_files");
		errors++;
	}
	if ((n = ytree_get(&t, root, "mode"))) {
		const char *mode = ytree_scalar(n);
		if (!mode || strcmp(mode, "peer")) {
			ytree_error(&t, n, err, "bad 'mode': the one mode named is peer");
			errors++;
		} else {
			g->peer = true;
		}
	}
	errors += read_players(g, &t, root, err);
	if ((m = ytree_get(&t, root, "options"))) {
		errors += ytree_check_keys(&t, m, opt_keys, err);
		if ((n = ytree_get(&t, m, "tournament_rule")) &&
		    ytree_bool(&t, n, &g->tournament, err) < 0)
			errors++;
	}
	if ((m = ytree_get(&t, root, "fairness"))) {
		errors += read_fairness(g, &t, m, err);
	} else if (!g->peer) {
		ytree_error(&t, root, err, "missing 'fairness'");
		errors++;
	}
	ytree_free(&t);
	return errors ? -1 : 0;
}

int game_parse_yaml(struct game *g, const char *text, size_t len,
		    struct strbuf *err)
{
	return read_game_yaml(g, text, len, err);
}

bool game_dir_is_peer(const char *dir)
{
	struct game g;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	bool peer = false;

	memset(&g, 0, sizeof(g));
	if (repo_open_why(dir, &g.repo, &err) == 0 && repo_head(g.repo, g.head) == 0 &&
	    repo_read(g.repo, g.head, "game.yaml", &text) == 0 &&
	    read_game_yaml(&g, text.buf, text.len, &err) == 0)
		peer = g.peer;
	game_close(&g);
	strbuf_release(&text);
	strbuf_release(&err);
	return peer;
}

void game_write_identity(const struct game *g, const char *comment,
			 struct strbuf *out)
{
	strbuf_addf(out, "# %s\n", comment);
	strbuf_addf(out, "postrider: %d\n", GAME_FORMAT);
	strbuf_addf(out, "id: %s\n", g->id);
	strbuf_addf(out, "game: %s\n", g->module);
	if (g->data_name) {
		strbuf_addstr(out, "data_name: ");
		ytree_emit_scalar(out, g->data_name);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out, "data_hash: %s\n", g->data_hash);
	strbuf_addstr(out, "data_files: [");
	for (int i = 0; i < g->n_data_files; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", g->data_files[i]);
	strbuf_addstr(out, "]\nplayers:\n");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++) {
		strbuf_addf(out, "  %s:\n    name: ", side_name(side));
		ytree_emit_scalar(out, g->player[side].name);
		strbuf_addstr(out, "\n    address: ");
		ytree_emit_scalar(out, g->player[side].addr);
		strbuf_addch(out, '\n');
		if (g->player[side].mail != MAIL_EVERY)	/* the default unsaid */
			strbuf_addf(out, "    mail: %s\n", mail_mode_name(g->player[side].mail));
	}
}

void game_write_yaml(const struct game *g, struct strbuf *out)
{
	game_write_identity(g, "A game of Washington's War adjudicated by postrider.", out);
	strbuf_addstr(out, "host:\n  name: ");
	ytree_emit_scalar(out, g->player[0].name);
	strbuf_addstr(out, "\n  address: ");
	ytree_emit_scalar(out, g->player[0].addr);
	strbuf_addf(out, "\noptions:\n  tournament_rule: %s\n",
		    g->tournament ? "true" : "false");
	strbuf_addf(out, "fairness:\n  seed_commitment: %s\n  seed_source: %s\n",
		    g->commitment, g->seed_source);
	if (game_proves(g)) {
		char hex[67];
		hex_encode(g->vrf_pk, 33, hex);
		strbuf_addf(out, "  version: %d\n  vrf_public_key: %s\n", g->fairness, hex);
	}
	if (g->fixed_dice)
		strbuf_addstr(out, "  fixed_dice: true\n");
	if (g->revealed) {
		char hex[FAIR_SEED_HEX];
		fair_seed_format(g->seed, hex);
		strbuf_addf(out, "  revealed_seed: %s\n", hex);
	}
}

/* In version 2, whether g->seed gives the public key: 0 or -1. */
static int game_vrf_key_matches(const struct game *g)
{
	unsigned char pk[33];

	if (!game_proves(g))
		return 0;
	if (fair_vrf_keys(g->seed, NULL, pk) < 0)
		return -1;
	return memcmp(pk, g->vrf_pk, 33) ? -1 : 0;
}

/* Reads the seed from <gitdir>/postrider/secret, if there. 1 = absent. */
static int read_secret(struct game *g, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ret = 0;

	if (repo_private_path(g->repo, "secret", &path) < 0) {
		strbuf_addstr(err, "cannot find the host's private folder\n");
		return -1;
	}
	if (read_file(path.buf, &text, 4096) < 0) {
		if (errno == ENOENT) {
			ret = 1;
		} else {
			strbuf_addf(err, "cannot read the game secret '%s': %s\n",
				    path.buf, strerror(errno));
			ret = -1;
		}
	} else if (fair_seed_parse(text.buf, g->seed) < 0) {
		strbuf_addf(err, "the game secret '%s' is not a seed (64 hex digits)\n", path.buf);
		ret = -1;
	} else if (!fair_commitment_matches(g->seed, g->commitment)) {
		strbuf_addf(err, "the game secret '%s' does not match the commitment in game.yaml\n", path.buf);
		ret = -1;
	} else if (game_vrf_key_matches(g) < 0) {
		strbuf_addf(err, "the game secret '%s' does not give the VRF public key in game.yaml\n", path.buf);
		ret = -1;
	} else {
		g->have_seed = true;
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/*
 * Loads the game's copy of the data straight from the committed data/
 * folder (the blobs, read into memory; nothing is written to disk), and
 * checks it against the hash game.yaml recorded.
 */
static int load_data(struct game *g, struct strbuf *err)
{
	struct strbuf texts[DATA_N_FILES], errs = STRBUF_INIT;
	int ret = -1;

	for (int i = 0; i < DATA_N_FILES; i++)
		strbuf_init(&texts[i]);
	for (int i = 0; i < DATA_N_FILES; i++) {
		char *path = xstrfmt("data/%s", data_file_name(i));
		int r = repo_read(g->repo, g->head, path, &texts[i]);
		free(path);
		if (r != 0) {
			strbuf_addf(err, "the game's data file 'data/%s' is missing from the repository\n",
				    data_file_name(i));
			for (int j = 0; j < DATA_N_FILES; j++)
				strbuf_release(&texts[j]);
			goto out;
		}
	}
	g->data = g->data_owned = data_load_texts("data", g->module, texts, &errs);
	if (!g->data) {
		strbuf_addstr(err, "the game's data does not load:\n");
		strbuf_add(err, errs.buf, errs.len);
		goto out;
	}
	if (strcmp(g->data->hash, g->data_hash)) {
		strbuf_addf(err, "the game's data has hash %s, game.yaml says %s\n",
			    g->data->hash, g->data_hash);
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&errs);
	return ret;
}

int game_open(const char *dir, struct game *g, unsigned flags,
	      struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int r, ret = -1;

	memset(g, 0, sizeof(*g));
	g->dir = xstrdup(dir);
	if (repo_open_why(dir, &g->repo, err) < 0) {
		/* one message, the reason (issue 30: twice as root) */
		strbuf_addch(err, '\n');
		return -1;
	}
	trace_perf("libgit2 started, repository opened");
	if (flags & GAME_LOCK) {
		r = repo_lock(g->repo, 10000);
		if (r == REPO_BUSY) {
			strbuf_addstr(err, "the game is busy: another postrider run holds its lock\n");
			return GAME_BUSY;
		}
		if (r < 0) {
			strbuf_addstr(err, "cannot lock the game\n");
			return -1;
		}
	}
	r = repo_head(g->repo, g->head);
	if (r != 0) {
		strbuf_addf(err, "'%s' has no game in it (no commit on main)\n", dir);
		return -1;
	}
	if (!repo_head_on_main(g->repo)) {
		strbuf_addf(err, "'%s': HEAD is not on branch main\n", dir);
		return -1;
	}
	if (repo_read(g->repo, g->head, "game.yaml", &text) != 0) {
		strbuf_addf(err, "'%s' is not a postrider game: no game.yaml\n", dir);
		goto out;
	}
	if (read_game_yaml(g, text.buf, text.len, err) < 0)
		goto out;
	if (!g->have_seed) {
		r = read_secret(g, err);
		if (r < 0)
			goto out;
		if (r == 1 && (flags & GAME_NEED_SECRET) && !g->peer) {
			strbuf_addf(err, "the game secret is missing: this is not the host's copy of %s (%s/postrider/secret)\n",
				    g->id, repo_gitdir(g->repo));
			goto out;
		}
	}
	if (load_data(g, err) < 0)
		goto out;
	trace_perf("component data read and checked");
	{
		/* the host's clock (clock.h); a player's copy has none */
		long long head_time = 0;
		repo_commit_info(g->repo, g->head, NULL, NULL, NULL, &head_time);
		if (!g->have_seed)
			clock_init(&g->clock, head_time);
		else if (clock_load(g->repo, head_time, &g->clock, err) < 0)
			goto out;
	}
	ret = game_load_state(g, g->head, err);
out:
	strbuf_release(&text);
	return ret;
}

int game_load_state(struct game *g, const char *commit, struct strbuf *err)
{
	struct strbuf pub = STRBUF_INIT, sealed = STRBUF_INIT, priv = STRBUF_INIT;
	int ret = -1;

	g->have_private = false;
	if (repo_read(g->repo, commit, "state.yaml", &pub) != 0) {
		strbuf_addstr(err, "the game has no state.yaml\n");
		goto out;
	}
	if (g->have_seed) {
		struct strbuf oerr = STRBUF_INIT;
		struct state tmp;
		/* the seq is needed to open the seal: read the public part first */
		if (state_read(&tmp, g->data, pub.buf, pub.len, NULL, 0, err) < 0)
			goto out;
		if (repo_read(g->repo, commit, "private/state.sealed", &sealed) != 0) {
			strbuf_addstr(err, "the game has no private/state.sealed\n");
			goto out;
		}
		if (fair_open(g->seed, tmp.seq, sealed.buf, sealed.len, &priv, &oerr) < 0) {
			strbuf_addf(err, "private/state.sealed: %s\n", oerr.buf);
			strbuf_release(&oerr);
			goto out;
		}
		strbuf_release(&oerr);
		if (state_read(&g->state, g->data, pub.buf, pub.len, priv.buf,
			       priv.len, err) < 0)
			goto out;
		g->have_private = true;
	} else if (state_read(&g->state, g->data, pub.buf, pub.len, NULL, 0, err) < 0) {
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&pub);
	strbuf_release(&sealed);
	strbuf_release(&priv);
	return ret;
}

void game_rng_for(const struct game *g, const struct state *s, struct rng *r)
{
	if (!g->have_seed) {
		rng_init_keyless(r, s->draws);
		return;
	}
	rng_init(r, g->seed, s->draws);
	state_mix_words(s, r);
	if (game_proves(g)) {
		unsigned char sk[32], pk[33];
		if (fair_vrf_keys(g->seed, sk, pk) < 0)
			BUG("cannot derive the VRF key");
		rng_use_vrf(r, sk, g->id);
		OPENSSL_cleanse(sk, sizeof(sk));
		/* version 3: the new game's own draws, side 0 (section 19);
		 * version 4: from the first public draw of the game (19b) */
		if (g->fairness == 3)
			rng_vrf_bind_order(r, 0, 0);
		else if (g->fairness == 4)
			rng_vrf_bind_count(r, 0);
	}
}

bool game_proves(const struct game *g)
{
	return g->fairness >= 2 && g->fairness <= GAME_FAIRNESS_MAX;
}

/* The number of lines of a proofs.txt: the game's public draws so far. */
static uint64_t public_draws(const char *proofs)
{
	uint64_t n = 0;

	for (const char *p = proofs; p && *p; p++)
		n += *p == '\n';
	return n;
}

void game_rng_order_after(const struct game *g, const struct state *s, enum side side,
			  const char *proofs, struct rng *r)
{
	game_rng_for(g, s, r);
	if (g->fairness == 3 && r->vrf)
		rng_vrf_bind_order(r, (int)side, s->orders[side]);
	if (g->fairness == 4 && r->vrf)
		rng_vrf_bind_count(r, public_draws(proofs));
}

void game_rng_order(const struct game *g, const struct state *s, enum side side,
		    struct rng *r)
{
	struct strbuf proofs = STRBUF_INIT;

	/* version 4 counts the public draws of the history at head */
	if (g->fairness == 4 && g->have_seed && g->repo && g->head[0] &&
	    repo_read(g->repo, g->head, "proofs.txt", &proofs) != 0)
		strbuf_reset(&proofs);
	game_rng_order_after(g, s, side, proofs.buf, r);
	strbuf_release(&proofs);
}

void game_rng(const struct game *g, struct rng *r)
{
	game_rng_for(g, &g->state, r);
}

void game_token(const struct game *g, enum side side, char out[FAIR_TOKEN_SIZE])
{
	game_token_for(g, &g->state, side, out);
}

void game_token_for(const struct game *g, const struct state *s, enum side side,
		    char out[FAIR_TOKEN_SIZE])
{
	/* Bound to the side's own count of accepted orders, so that an order
	 * of one side (a standing reaction) never makes the other side's
	 * token stale, while a replayed or second order of the same side is. */
	fair_token(g->peer ? g->token_key : g->seed, g->id, s->orders[side], (int)side, out);
}

void game_hand_salt(const struct game *g, const struct state *s, enum side side,
		    char salt[FAIR_SALT_HEX], char hash[FAIR_HASH_HEX])
{
	struct strbuf hand = STRBUF_INIT;

	state_write_hand(s, side, &hand);
	fair_hand_commitment(g->seed, s->seq, (int)side, hand.buf, salt, hash);
	strbuf_release(&hand);
}

int game_state_files(const struct game *g, const struct state *s,
		     struct strbuf *state_yaml, struct strbuf *sealed)
{
	return game_state_files_as(g, s, FAIR_SEAL_V4, state_yaml, sealed);
}

int game_state_files_as(const struct game *g, const struct state *s,
			int seal_fmt, struct strbuf *state_yaml,
			struct strbuf *sealed)
{
	char salt[3][FAIR_SALT_HEX], hash[3][FAIR_HASH_HEX];
	const char *commit[3] = { NULL, hash[1], hash[2] };
	struct strbuf priv = STRBUF_INIT;
	int ret;

	if (!g->have_seed)
		BUG("game_state_files without the seed");
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		game_hand_salt(g, s, side, salt[side], hash[side]);
	state_write_public(s, g->data, commit, state_yaml);
	state_write_private(s, g->data, &priv);
	ret = fair_seal_as(g->seed, s->seq, seal_fmt, priv.buf, priv.len,
			   state_private_padded_size(s, g->data, seal_fmt >= FAIR_SEAL_V4),
			   sealed);
	strbuf_release(&priv);
	return ret;
}

int game_player_parse(const char *text, struct game_player *p)
{
	char *name = NULL, *addr = NULL;

	if (!text || mail_parse_address(text, &name, &addr) < 0)
		return -1;
	if (!name || !*name) {
		free(name);
		name = xstrdup(addr);
	}
	p->name = name;
	p->addr = addr;
	return 0;
}

void game_address_change_line(const struct game *g, int who, const char *name,
			      const char *addr, struct strbuf *out)
{
	strbuf_addf(out, "\n-- The host gives the %s a new address: %s <%s> (was %s <%s>) --\n",
		    who ? side_title((enum side)who) : "host", name, addr,
		    g->player[who].name, g->player[who].addr);
}
