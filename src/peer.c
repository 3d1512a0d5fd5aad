/*
 * peer.c - the protocol of a peer game (docs/peer.md sections 7 and 8):
 * a commit mailed to the opponent, and a mail from him accepted by the
 * steps of 8.3, its commit rebuilt from its facts by the same code that
 * made it (the replay of step 6) and its id compared (step 7).
 */
/* strptime, timegm: _GNU_SOURCE is in CFLAGS */
#include "peer.h"
#include "peer-silence.h"
#include "fault.h"
#include "config.h"
#include "mail.h"
#include "notify.h"
#include "turn.h"
#include "outbox.h"
#include "peer-wire.h"
#include "peer-step.h"
#include "vrf.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

#include <openssl/sha.h>

/* The Message-ID of commit rev's mail, from its trailers. 0 or -1. */
static int commit_message_id(struct peer_copy *pc, const char *rev,
			     char *out, size_t outlen)
{
	struct strbuf seq = STRBUF_INIT, side = STRBUF_INIT;
	int ret = -1, sd;

	if (repo_trailer(pc->g.repo, rev, "Postrider-Seq", &seq) < 0 ||
	    repo_trailer(pc->g.repo, rev, "Postrider-Side", &side) < 0 ||
	    (sd = side_parse(side.buf)) <= 0)
		goto out;
	ret = peer_mail_message_id(pc->g.id, strtoul(seq.buf, NULL, 10), sd,
				   pc->g.player[sd].addr, out, outlen);
out:
	strbuf_release(&seq);
	strbuf_release(&side);
	return ret;
}

char *peer_outbox_dir(struct peer_copy *pc, const struct mail_config *cfg)
{
	struct strbuf p = STRBUF_INIT;

	if (cfg && cfg->outbox)
		return xstrdup(cfg->outbox);
	if (repo_private_path(pc->g.repo, "outbox", &p) < 0)
		BUG("no private path for the outbox");
	return strbuf_detach(&p, NULL);
}

/* "Name <addr>" of side. */
static char *player_line(const struct game *g, enum side side)
{
	return xstrfmt("%s <%s>", g->player[side].name, g->player[side].addr);
}

/* The mail of commit (8.1), appended to out. 0 or -1 (said). */
static int compose(struct peer_copy *pc, const char *parent, const char *commit,
		   unsigned seq, enum peer_kind kind, const unsigned char *dice,
		   struct strbuf *out)
{
	struct strbuf patch = STRBUF_INIT, env_text = STRBUF_INIT;
	char date[40], why[200], reply[256] = "", root_id[256] = "";
	char *from = player_line(&pc->g, pc->me);
	char *to = player_line(&pc->g, OTHER_SIDE(pc->me));
	char *refs = NULL;
	struct peer_envelope e;
	long long time = 0;
	char (*hist)[41] = NULL;
	size_t n_hist = 0;
	int ret = -1;

	memset(&e, 0, sizeof(e));
	if ((kind == PEER_INVITE ? repo_format_patch_packed(pc->g.repo, commit, "data/", &patch)
				 : repo_format_patch(pc->g.repo, commit, &patch)) < 0)
		goto out;
	snprintf(e.game, sizeof(e.game), "%s", pc->g.id);
	e.from = pc->me;
	e.seq = seq;
	snprintf(e.parent, sizeof(e.parent), "%s", parent ? parent : "");
	snprintf(e.commit, sizeof(e.commit), "%s", commit);
	snprintf(e.kind, sizeof(e.kind), "%s", peer_kind_name(kind));
	SHA256((const unsigned char *)patch.buf, patch.len, e.patch);
	if (dice) {
		e.n_dice = 1;
		snprintf(e.dice[0].oid, sizeof(e.dice[0].oid), "%s", commit);
		memcpy(e.dice[0].proof, dice, PEER_WIRE_VRF_PROOF);
	}
	if (peer_envelope_write(&e, &pc->sk, &env_text) < 0)
		goto out;
	if (parent) {
		commit_message_id(pc, parent, reply, sizeof(reply));
		if (repo_history(pc->g.repo, &hist, &n_hist) == 0 && n_hist)
			commit_message_id(pc, hist[0], root_id, sizeof(root_id));
		refs = xstrfmt("%s%s%s", root_id, *root_id && strcmp(root_id, reply) ? " " : "",
			       strcmp(root_id, reply) ? reply : "");
	}
	repo_commit_info(pc->g.repo, commit, NULL, NULL, NULL, &time);
	mail_format_date(time, 0, date);
	struct peer_mail m = {
		.from = from, .to = to, .date = date,
		.in_reply_to = *reply ? reply : NULL,
		.references = refs && *refs ? refs : NULL,
		.env = &e, .envelope = env_text.buf, .envelope_len = env_text.len,
		.patch = patch.buf, .patch_len = patch.len,
	};
	if (peer_mail_compose(&m, out, why, sizeof(why)) < 0) {
		error("cannot write the mail of commit %s: %s", commit, why);
		goto out;
	}
	ret = 0;
out:
	free(hist);
	free(refs);
	free(from);
	free(to);
	strbuf_release(&patch);
	strbuf_release(&env_text);
	return ret;
}

/* Mails commit to the other side by the path every commit with mail
 * takes (turn_publish(): staged, the branch moved, released), and keeps
 * the mail for a resend (11). */
static int commit_mail(struct peer_copy *pc, const struct mail_config *cfg,
		       const char *parent, const char *commit, unsigned seq,
		       enum peer_kind kind, const unsigned char *dice,
		       struct strbuf *outbox_path)
{
	struct strbuf mail = STRBUF_INIT, err = STRBUF_INIT;
	struct notify n;
	char hint[128];
	int ret = -1;

	memset(&n, 0, sizeof(n));
	n.outbox = peer_outbox_dir(pc, cfg);
	fault_point("commit-prepared");
	if (compose(pc, parent, commit, seq, kind, dice, &mail) < 0)
		goto out;
	/* named by its commit first, as a turn's reports: notify_recover()
	 * releases it after a crash */
	snprintf(hint, sizeof(hint), "%s-peer-%u-%s", commit, seq, side_name(pc->me));
	if (notify_stage(&n, hint, mail.buf, mail.len, &err) < 0 ||
	    turn_publish(pc->g.repo, parent, commit, &n, &err) != 0) {
		error("%s", err.buf);
		goto out;
	}
	snprintf(pc->g.head, sizeof(pc->g.head), "%s", commit);
	peer_silence_keep(pc, commit, mail.buf, mail.len);
	if (outbox_path)
		strbuf_addf(outbox_path, "%s/new", n.outbox);
	ret = 0;
out:
	notify_release(&n);
	strbuf_release(&mail);
	strbuf_release(&err);
	return ret;
}

int peer_commit_mail(struct peer_copy *pc, const struct mail_config *cfg,
		     const char *parent, const char *commit, unsigned seq,
		     enum peer_kind kind, struct strbuf *outbox_path)
{
	return commit_mail(pc, cfg, parent, commit, seq, kind, NULL, outbox_path);
}

int peer_commit_mail_dice(struct peer_copy *pc, const struct mail_config *cfg,
			  const char *parent, const char *commit, unsigned seq,
			  enum peer_kind kind, const unsigned char *proof)
{
	return commit_mail(pc, cfg, parent, commit, seq, kind, proof, NULL);
}

/* <gitdir>/postrider/peer-request-OID */
static int request_path(struct peer_copy *pc, const char *oid, struct strbuf *out)
{
	char name[64];

	snprintf(name, sizeof(name), "peer-request-%.40s", oid);
	return repo_private_path(pc->g.repo, name, out);
}

int peer_request_proof(struct peer_copy *pc, const char *oid,
		       unsigned char proof[81])
{
	struct strbuf p = STRBUF_INIT, t = STRBUF_INIT;
	int ret = -1;

	if (request_path(pc, oid, &p) == 0 && read_file(p.buf, &t, 1024) == 0 &&
	    t.len >= 162 && hex_decode(t.buf, proof, 81) == 0)
		ret = 0;
	strbuf_release(&p);
	strbuf_release(&t);
	return ret;
}

/* Keeps the requester's die proof of an accepted request. */
static int keep_request_proof(struct peer_copy *pc, const struct peer_envelope *e)
{
	struct strbuf p = STRBUF_INIT;
	char hex[2 * PEER_WIRE_VRF_PROOF + 2];
	int ret = -1;

	for (int i = 0; i < e->n_dice; i++) {
		if (strcmp(e->dice[i].oid, e->commit))
			continue;
		hex_encode(e->dice[i].proof, PEER_WIRE_VRF_PROOF, hex);
		strcat(hex, "\n");
		if (request_path(pc, e->commit, &p) == 0 &&
		    write_file_atomic(p.buf, hex, strlen(hex)) == 0)
			ret = 0;
	}
	strbuf_release(&p);
	return ret;
}

bool peer_mail_is_peer(const char *mail, size_t len)
{
	struct strbuf env = STRBUF_INIT, patch = STRBUF_INIT;
	char why[200];
	int r = peer_mail_extract(mail, len, &env, &patch, why, sizeof(why));

	strbuf_release(&env);
	strbuf_release(&patch);
	return r == 0;	/* a broken one is refused by a peer copy, and is
			   no order for a host's game either */
}

/* The joiner's keys from the lines his join adds to game.yaml. */
static int join_keys(const char *added, struct peer_keys *k)
{
	static const char *const names[] = { "vrf_key", "mask_key", "mask_proof", "sign_key" };
	unsigned char *dst[] = { k->vrf, k->mask, k->proof, k->sign };
	const size_t len[] = { PCRYPTO_PT, PCRYPTO_PT, PCRYPTO_PROOF, PCRYPTO_PT };

	memset(k, 0, sizeof(*k));
	for (int i = 0; i < 4; i++) {
		char *key = xstrfmt("\n    %s: ", names[i]);
		const char *p = strstr(added, key);
		size_t skip = strlen(key);
		free(key);
		if (!p || strspn(p + skip, "0123456789abcdef") != 2 * len[i] ||
		    p[skip + 2 * len[i]] != '\n' || hex_decode(p + skip, dst[i], len[i]) < 0)
			return -1;
	}
	k->have = true;
	return 0;
}

/* 8.3 steps 5 to 7 for a join: the commit rebuilt from the joiner's keys. */
static int accept_join(struct peer_copy *pc, const struct peer_envelope *e,
		       const char *env_text, size_t env_len, const char *patch,
		       struct strbuf *said)
{
	struct strbuf changes = STRBUF_INIT, added = STRBUF_INIT;
	enum side joiner = (enum side)e->from;
	struct peer_record rec = pc->rec;
	char why[200], commit[41];
	long long time;
	int ret = PEER_REFUSED;

	if (rec.keys[joiner].have || rec.have_joint) {
		strbuf_addf(said, "the %s has joined already", side_name(joiner));
		goto out;
	}
	if (repo_patch_changes(patch, strlen(patch), &changes, why, sizeof(why)) < 0) {
		strbuf_addf(said, "the patch does not parse: %s", why);
		goto out;
	}
	if (strcmp(changes.buf, "M game.yaml\nM log.txt\n")) {
		strbuf_addstr(said, "a join may change only game.yaml and log.txt (6.5)");
		goto out;
	}
	if (peer_patch_added(patch, "game.yaml", &added) < 0 ||
	    join_keys(added.buf, &rec.keys[joiner]) < 0) {
		strbuf_addstr(said, "the join adds no keys of the joiner to game.yaml");
		goto out;
	}
	if (peer_envelope_verify(e, rec.keys[joiner].sign, env_text, env_len) < 0) {
		strbuf_addf(said, "the signature of the envelope does not verify under the %s's sign_key",
			    side_name(joiner));
		goto out;
	}
	if (peer_keys_check(pc->g.id, joiner, &rec.keys[joiner]) < 0) {
		strbuf_addf(said, "the %s key proof does not verify (3.2)", side_name(joiner));
		goto out;
	}
	if (pcrypto_joint_key(rec.keys[SIDE_AMERICAN].mask, rec.keys[SIDE_BRITISH].mask,
			      rec.joint) < 0) {
		strbuf_addstr(said, "the two masking keys give no joint key (3.2)");
		goto out;
	}
	rec.have_joint = true;
	if (peer_patch_time(patch, &time) < 0) {
		strbuf_addstr(said, "the patch has no date");
		goto out;
	}
	if (peer_check_time(pc->g.repo, pc->g.head, time, game_now(), said))
		goto out;
	ret = PEER_FAILED;
	if (peer_join_commit(&pc->g, &rec, joiner, time, commit) < 0) {
		strbuf_addstr(said, "cannot rebuild the join");
		goto out;
	}
	ret = PEER_REFUSED;
	if (peer_built_is_mailed(pc, e, commit, patch, said) < 0)
		goto out;
	ret = PEER_FAILED;
	if (peer_publish_head(pc, commit, said) < 0)
		goto out;
	pc->rec = rec;
	{
		char fp[17];
		peer_fingerprint(&rec.keys[joiner], fp);
		strbuf_addf(said, "accepted: the %s joined (commit %.12s); the %s's fingerprint: %s (compare it with him by telephone or in person, 9.1)",
			    side_name(joiner), commit, side_title(joiner), fp);
	}
	ret = PEER_ACCEPTED;
out:
	strbuf_release(&changes);
	strbuf_release(&added);
	return ret;
}

/* The commitment of side that the patch's state.yaml adds (6.4), or "". */
static void sealed_from_patch(const char *patch, int side, char out[65])
{
	struct strbuf add = STRBUF_INIT;
	char *key = xstrfmt("\n    %s: ", side_name((enum side)side));
	const char *p;

	out[0] = '\0';
	strbuf_addch(&add, '\n');
	if (peer_patch_added(patch, "state.yaml", &add) == 0) {
		for (p = add.buf; (p = strstr(p, key)); p++) {
			const char *v = p + strlen(key);
			if (strspn(v, "0123456789abcdef") == 64 && v[64] == '\n') {
				memcpy(out, v, 64);
				out[64] = '\0';
			}
		}
	}
	free(key);
	strbuf_release(&add);
}

/* 5.1: a request comes with exactly one die proof, its requester's for its
 * own commit, that verifies; any other commit comes with none (finding 3
 * of the red team, issue 34). 0, or PEER_REFUSED (said). */
static int check_request_proof(struct peer_copy *pc, const struct peer_envelope *e,
			       bool request, struct strbuf *said)
{
	unsigned char oid[20], alpha[PCRYPTO_ALPHA_MAX], beta[VRF_HASH_BYTES];
	size_t n;

	if (!request) {
		if (e->n_dice) {
			strbuf_addf(said, "commit %lu (%s) is no request, yet its envelope has a dice line (5.1)",
				    e->seq, e->kind);
			return PEER_REFUSED;
		}
		return 0;
	}
	if (e->n_dice != 1 || strcmp(e->dice[0].oid, e->commit)) {
		strbuf_addf(said, "request %lu comes without a valid die proof: its envelope must have one dice line, for commit %.12s (5.1)",
			    e->seq, e->commit);
		return PEER_REFUSED;
	}
	n = hex_decode(e->commit, oid, 20) < 0 ? 0
		: pcrypto_dice_alpha(pc->g.id, e->from, oid, 20, alpha);
	if (!n || vrf_verify(pc->rec.keys[e->from].vrf, e->dice[0].proof, alpha, n, beta) < 0) {
		strbuf_addf(said, "request %lu comes without a valid die proof: the %s die proof for %.12s does not verify (5.1)",
			    e->seq, side_name((enum side)e->from), e->commit);
		return PEER_REFUSED;
	}
	return 0;
}

/* 8.3 steps 5 to 7 for an order or an answer: the commit rebuilt by the
 * rule of section 7 from the facts the patch adds. */
static int accept_step(struct peer_copy *pc, const struct peer_envelope *e,
		       const char *patch, struct strbuf *said)
{
	struct peer_files files, given;
	struct strbuf order = STRBUF_INIT, err = STRBUF_INIT;
	struct peer_step st;
	char commit[41];
	int ret = PEER_FAILED, r;

	peer_step_init(&st);
	peer_files_init(&given);
	if (peer_files_load(pc->g.repo, pc->g.head, &files, &err) < 0) {
		strbuf_addf(said, "cannot read this copy's record: %s", err.buf);
		goto out;
	}
	if ((ret = peer_given_from_patch(patch, &given, &order, said)) != PEER_ACCEPTED)
		goto out;
	ret = PEER_REFUSED;
	st.pc = pc;
	st.parent = &pc->g.state;
	st.files = &files;
	st.c = (enum side)e->from;
	st.kind = (enum peer_kind)peer_kind_parse(e->kind);
	st.order = st.kind == PEER_ORDER ? order.buf : NULL;
	st.cont = order.buf;
	st.given = &given;
	sealed_from_patch(patch, e->from, st.given_sealed);
	st.seq = (unsigned)e->seq;
	if (st.kind == PEER_ORDER && !order.len) {
		strbuf_addstr(said, "an order commit adds no order file");
		goto out;
	}
	if (peer_patch_time(patch, &st.time) < 0) {
		strbuf_addstr(said, "the patch has no date");
		goto out;
	}
	if (peer_check_time(pc->g.repo, pc->g.head, st.time, game_now(), said))
		goto out;
	r = peer_step_build(&st, commit);
	if (r > 0) {
		strbuf_addf(said, "commit %lu (%s) does not replay: %s", e->seq, e->kind, st.why.buf);
		goto out;
	}
	if (r < 0) {
		ret = PEER_FAILED;
		strbuf_addstr(said, "cannot rebuild the commit");
		goto out;
	}
	if (peer_built_is_mailed(pc, e, commit, patch, said) < 0 ||
	    check_request_proof(pc, e, st.request, said))
		goto out;
	ret = PEER_FAILED;
	if (peer_publish_head(pc, commit, said) < 0)
		goto out;
	pc->g.state = st.next;
	if (st.request && keep_request_proof(pc, e) < 0) {
		strbuf_addf(said, "accepted, but the request of commit %lu came without its die proof", e->seq);
		ret = PEER_ACCEPTED;
		goto out;
	}
	strbuf_addf(said, "accepted: commit %lu of the %s (%s, %.12s)", e->seq,
		    side_name(st.c), e->kind, commit);
	ret = PEER_ACCEPTED;
out:
	peer_step_release(&st);
	peer_files_release(&files);
	peer_files_release(&given);
	strbuf_release(&order);
	strbuf_release(&err);
	return ret;
}

/* 8.3 steps 1 to 4: the envelope, its game and sender, the patch's hash,
 * the place in the history. PEER_ACCEPTED to go on. */
static int check_envelope(struct peer_copy *pc, const char *mail, size_t len,
			  const struct peer_envelope *e, const char *env_text,
			  size_t env_len, const char *patch, size_t patch_len,
			  struct strbuf *said)
{
	char why[256];
	int k = peer_kind_parse(e->kind), place;

	if (strcmp(e->game, pc->g.id)) {
		strbuf_addf(said, "the mail is for game %s, this copy is %s", e->game, pc->g.id);
		return PEER_REFUSED;
	}
	if (e->from != (int)OTHER_SIDE(pc->me)) {
		strbuf_addf(said, "the mail says it comes from the %s, who is this copy's own side",
			    side_name(pc->me));
		return PEER_REFUSED;
	}
	/* a join's key is in its own patch: checked there */
	if (k != PEER_JOIN && (!pc->rec.keys[e->from].have ||
			       peer_envelope_verify(e, pc->rec.keys[e->from].sign,
						    env_text, env_len) < 0)) {
		strbuf_addf(said, "the signature of the envelope does not verify under the %s's sign_key (3.3)",
			    side_name((enum side)e->from));
		return PEER_REFUSED;
	}
	if (peer_patch_check(e, patch, patch_len, why, sizeof(why)) < 0) {
		strbuf_addf(said, "%s", why);
		return PEER_REFUSED;
	}
	place = peer_place(pc->g.repo, e, why, sizeof(why));
	switch (place) {
	case PEER_PLACE_NEXT:
		return PEER_ACCEPTED;
	case PEER_PLACE_COPY:
		strbuf_addf(said, "already applied: commit %.12s", e->commit);
		return PEER_COPY;
	case PEER_PLACE_UNKNOWN:
		strbuf_addf(said, "not yet: %s", why);
		return PEER_LATER;
	case PEER_PLACE_FORK: {
		struct strbuf kept = STRBUF_INIT;
		char why2[200];
		strbuf_addf(said, "%s", why);
		if (peer_keep_fork(pc->g.repo, e, mail, len, &kept, why2, sizeof(why2)) == 0)
			strbuf_addf(said, " (kept in %s)", kept.buf);
		strbuf_release(&kept);
		return PEER_REFUSED;
	}
	case PEER_PLACE_BAD:
		strbuf_addf(said, "%s", why);
		return PEER_REFUSED;
	default:
		strbuf_addf(said, "cannot read the history: %s", why);
		return PEER_FAILED;
	}
}

int peer_accept_mail(struct peer_copy *pc, const struct mail_config *cfg,
		     const char *mail, size_t len, struct strbuf *said)
{
	struct strbuf env_text = STRBUF_INIT, patch = STRBUF_INIT;
	struct peer_envelope e;
	char why[256];
	int ret = PEER_REFUSED, k;

	(void)cfg;
	if (peer_mail_extract(mail, len, &env_text, &patch, why, sizeof(why)) != 0) {
		strbuf_addf(said, "not a mail between postriders: %s", why);
		goto out;
	}
	if (peer_envelope_parse(env_text.buf, env_text.len, &e, why, sizeof(why)) < 0) {
		strbuf_addf(said, "the envelope does not follow the grammar of 8.1: %s", why);
		goto out;
	}
	ret = check_envelope(pc, mail, len, &e, env_text.buf, env_text.len,
			     patch.buf, patch.len, said);
	if (ret != PEER_ACCEPTED)
		goto out;
	k = peer_kind_parse(e.kind);
	switch (k) {
	case PEER_JOIN:
		ret = accept_join(pc, &e, env_text.buf, env_text.len, patch.buf, said);
		break;
	case PEER_ORDER:
	case PEER_ANSWER:
	case PEER_END:
		ret = accept_step(pc, &e, patch.buf, said);
		break;
	case PEER_CLAIM:
		ret = peer_claim_accept(pc, &e, patch.buf, said);
		break;
	default:
		strbuf_addf(said, "commit %lu of kind %s: this postrider does not play that part of the protocol yet",
			    e.seq, e.kind);
		ret = PEER_REFUSED;
	}
	if (ret == PEER_ACCEPTED)
		peer_silence_received(pc, game_now());
out:
	strbuf_release(&env_text);
	strbuf_release(&patch);
	return ret;
}
