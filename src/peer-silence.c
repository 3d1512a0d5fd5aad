/*
 * peer-silence.c - deadlines and silence in a peer game (docs/peer.md
 * section 11): who owes what since when, the resend of a late automatic
 * answer's cause, and the claim (a commit of kind claim: the silent side
 * loses by forfeit, the claimant publishes his masking key).
 */
#include "peer-silence.h"
#include "peer-files.h"
#include "peer-patch.h"
#include "peer-step.h"
#include "peer-wire.h"
#include "engine/engine.h"
#include "state-yaml.h"
#include "outbox.h"
#include "vrf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void peer_date_text(long long t, char out[32])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(out, 32, "%Y-%m-%d %H:%M UTC", &tm);
}

void peer_waits_get(struct peer_copy *pc, struct peer_waits *w)
{
	struct strbuf msg = STRBUF_INIT, v = STRBUF_INIT;

	w->n = 0;
	repo_commit_info(pc->g.repo, pc->g.head, &msg, NULL, NULL, NULL);
	while (w->n < STATE_PEER_MAX_WAITS &&
	       repo_trailer_get(msg.buf, "Postrider-Waits", (unsigned)w->n, &v) == 0) {
		snprintf(w->l[w->n++], STATE_PEER_WAIT_MAX, "%s", v.buf);
		strbuf_reset(&v);
	}
	strbuf_release(&v);
	strbuf_release(&msg);
}

/* The first waits line that names side, or NULL. */
static const char *owes_line(const struct peer_waits *w, enum side side)
{
	size_t n = strlen(side_name(side));

	for (int i = 0; i < w->n; i++)
		if (!strncmp(w->l[i], side_name(side), n) && w->l[i][n] == ' ')
			return w->l[i];
	return NULL;
}

void peer_owed_get(struct peer_copy *pc, struct peer_owed *o)
{
	struct peer_waits w;
	int sd;

	memset(o, 0, sizeof(*o));
	o->side = SIDE_NONE;
	repo_commit_info(pc->g.repo, pc->g.head, NULL, NULL, NULL, &o->since);
	o->limit = o->since + PEER_FORFEIT_LIMIT;
	peer_waits_get(pc, &w);
	if (!w.n)
		return;
	{
		char first[16];
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(w.l[0], " "), w.l[0]);
		if ((sd = side_parse(first)) <= 0)
			return;
	}
	o->side = (enum side)sd;
	snprintf(o->what, sizeof(o->what), "%s", w.l[0]);
	for (int i = 0; i < w.n; i++)
		if (!strstr(w.l[i], " decision") && !strncmp(w.l[i], side_name(o->side), strlen(side_name(o->side))))
			o->automatic = true;
	if (o->automatic && strstr(o->what, " decision"))
		snprintf(o->what, sizeof(o->what), "%s", w.l[1]);
}

/* <gitdir>/postrider/NAME */
static char *private_path(struct peer_copy *pc, const char *name)
{
	struct strbuf p = STRBUF_INIT;

	repo_private_path(pc->g.repo, name, &p);
	return strbuf_detach(&p, NULL);
}

int peer_private_read(struct peer_copy *pc, const char *name, struct strbuf *out)
{
	char *p = private_path(pc, name), buf[4096];
	FILE *f = fopen(p, "r");
	size_t n;

	free(p);
	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(out, buf, n);
	fclose(f);
	return 0;
}

void peer_private_write(struct peer_copy *pc, const char *name, const char *text, size_t len)
{
	char *p = private_path(pc, name);
	FILE *f = fopen(p, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		warning("cannot write '%s'", p);
	free(p);
}

void peer_silence_keep(struct peer_copy *pc, const char *commit,
		       const char *mail, size_t len)
{
	peer_private_write(pc, "peer-last-mail", mail, len);
	peer_private_write(pc, "peer-last-mail.id", commit, strlen(commit));
}

void peer_silence_received(struct peer_copy *pc, long long now)
{
	char buf[80];

	snprintf(buf, sizeof(buf), "%s %lld\n", pc->g.head, now);
	peer_private_write(pc, "peer-received", buf, strlen(buf));
}

/* When this copy accepted its head, if it was a mail of the other's
 * (peer_silence_received()): 0 with *t, or -1. */
static int received_at(struct peer_copy *pc, long long *t)
{
	char *p = private_path(pc, "peer-received"), id[41];
	FILE *f = fopen(p, "r");
	int ret = -1;

	free(p);
	if (!f)
		return -1;
	if (fscanf(f, "%40s %lld", id, t) == 2 && !strcmp(id, pc->g.head))
		ret = 0;
	fclose(f);
	return ret;
}

/* ---- the claim ---- */

/* The silent side's log line, the same in both copies. */
static void claim_line(const struct peer_owed *o, enum side c, unsigned pseq,
		       const char *parent, struct strbuf *log)
{
	char d[32];

	peer_date_text(o->since, d);
	strbuf_addf(log, "The %s claim the game (docs/peer.md 11): the %s did not answer commit %u "
		    "(%.12s) of %s, which left them owing \"%s\", for %lld days. "
		    "The %s lose by forfeit.\n",
		    c == SIDE_AMERICAN ? "Americans" : "British",
		    OTHER_SIDE(c) == SIDE_AMERICAN ? "Americans" : "British",
		    pseq, parent, d, o->what, PEER_FORFEIT_LIMIT / 86400,
		    OTHER_SIDE(c) == SIDE_AMERICAN ? "Americans" : "British");
}

/* What a claim's patch may add: the claimant's key, nothing else. */
static int claim_given(struct peer_copy *pc, enum side c, const struct peer_files *g,
		       const unsigned char **x, struct strbuf *why)
{
	unsigned char pk[VRF_PK_BYTES];

	if (g->n_shares || g->n_dice || g->have_key[OTHER_SIDE(c)]) {
		strbuf_addstr(why, "a claim adds nothing but its claimant's key (6.5)");
		return 1;
	}
	for (int gen = 1; gen <= PEER_MAX_GEN; gen++)
		if (g->sh[gen][1].have || g->sh[gen][2].have) {
			strbuf_addstr(why, "a claim adds nothing but its claimant's key (6.5)");
			return 1;
		}
	if (!g->have_key[c]) {
		strbuf_addf(why, "a claim publishes its claimant's masking key, and this one does not (11, 9.12)");
		return 1;
	}
	if (vrf_public_key(g->key[c], pk) < 0 || memcmp(pk, pc->rec.keys[c].mask, PCRYPTO_PT)) {
		strbuf_addf(why, "the %s's published key is not the secret of his mask_key (9.12)",
			    side_name(c));
		return 1;
	}
	*x = g->key[c];
	return 0;
}

/* Whether c may claim after the head of pc at t (now: the clock): 0, or 1 with why. */
static int claim_allowed(struct peer_copy *pc, enum side c, long long t, long long now,
			 struct peer_owed *o, struct strbuf *why)
{
	const struct state *p = &pc->g.state;
	struct peer_waits w;
	char d[32];

	peer_waits_get(pc, &w);
	peer_owed_get(pc, o);
	if (engine_game_over(p)) {
		strbuf_addstr(why, "the game is over: there is nothing to claim");
		return 1;
	}
	if (!pc->rec.keys[OTHER_SIDE(c)].have || !pc->rec.have_joint) {
		strbuf_addf(why, "the %s never joined: there is no game to claim",
			    side_name(OTHER_SIDE(c)));
		return 1;
	}
	if (owes_line(&w, c)) {
		strbuf_addf(why, "the %s owe the next commit (%s): a side that owes cannot claim (11)",
			    c == SIDE_AMERICAN ? "Americans" : "British", owes_line(&w, c));
		return 1;
	}
	if (o->side != OTHER_SIDE(c)) {
		strbuf_addstr(why, "nobody owes the next commit");
		return 1;
	}
	if (t < o->limit || now < o->limit) {
		strbuf_addf(why, "too early: the %s owe \"%s\" only since ", side_name(o->side), o->what);
		peer_date_text(o->since, d);
		strbuf_addstr(why, d);
		peer_date_text(o->limit, d);
		strbuf_addf(why, "; a claim is possible from %s (11)", d);
		return 1;
	}
	return 0;
}

int peer_claim_build(struct peer_copy *pc, struct peer_files *files,
		     enum side c, long long t, long long now, bool make,
		     const struct peer_files *given, unsigned seq,
		     struct state *next, char commit[41], struct strbuf *why)
{
	struct strbuf state = STRBUF_INIT, log = STRBUF_INIT, add = STRBUF_INIT;
	struct strbuf keys = STRBUF_INIT, subj = STRBUF_INIT, end = STRBUF_INIT;
	const unsigned char *x = pc->sk.mask;
	struct repo_file f[3];
	struct peer_owed o;
	int r;

	if ((r = claim_allowed(pc, c, t, now, &o, why)) != 0)
		return r;
	if (make && pc->me != c)
		BUG("a claim made by the other side's copy");
	if (!make && (r = claim_given(pc, c, given, &x, why)) != 0)
		return r;
	if (files->have_key[c]) {
		strbuf_addf(why, "the %s's key is published already", side_name(c));
		return 1;
	}
	*next = pc->g.state;
	repo_read(pc->g.repo, pc->g.head, "log.txt", &log);
	claim_line(&o, c, seq - 1, pc->g.head, &log);
	engine_forfeit(pc->g.data, next, OTHER_SIDE(c), &log);
	engine_describe_prompt(pc->g.data, next, &end);
	strbuf_addf(&log, "%s\n", end.buf);
	next->peer.n_waits = 0;
	next->peer.pending[0] = '\0';
	state_write_public(next, pc->g.data, NULL, &state);
	repo_read(pc->g.repo, pc->g.head, "peer/keys.txt", &keys);
	peer_key_line(c, x, &add);
	strbuf_addbuf(&keys, &add);
	f[0] = (struct repo_file){ "state.yaml", state.buf, state.len };
	f[1] = (struct repo_file){ "log.txt", log.buf, log.len };
	f[2] = (struct repo_file){ "peer/keys.txt", keys.buf, keys.len };
	strbuf_addf(&subj, "%s: claim", side_title(c));
	struct peer_commit pcm = {
		.kind = PEER_CLAIM, .side = c, .seq = seq, .subject = subj.buf,
		.waits = "", .files = f, .n_files = 3, .time = t,
	};
	r = peer_commit_prepare(&pc->g, pc->g.head, &pcm, commit) < 0 ? -1 : 0;
	strbuf_release(&state);
	strbuf_release(&log);
	strbuf_release(&add);
	strbuf_release(&keys);
	strbuf_release(&subj);
	strbuf_release(&end);
	return r;
}

/* The claim's rebuild from its patch, dated t, against the copy's clock. */
static int claim_replay(struct peer_copy *pc, enum side c, unsigned seq, long long t,
			const char *patch, struct state *next, char commit[41],
			struct strbuf *why)
{
	struct peer_files files, given;
	struct strbuf order = STRBUF_INIT, err = STRBUF_INIT;
	int r = -1;

	peer_files_init(&given);
	if (peer_files_load(pc->g.repo, pc->g.head, &files, &err) < 0) {
		strbuf_addf(why, "cannot read this copy's record: %s", err.buf);
		goto out;
	}
	if (peer_given_from_patch(patch, &given, &order, why) != PEER_ACCEPTED || order.len) {
		if (order.len)
			strbuf_addstr(why, "a claim adds nothing but its claimant's key (6.5)");
		r = 1;
		goto out_files;
	}
	if (peer_check_time(pc->g.repo, pc->g.head, t, game_now(), why)) {
		r = 1;
		goto out_files;
	}
	r = peer_claim_build(pc, &files, c, t, game_now(), false, &given, seq, next, commit, why);
out_files:
	peer_files_release(&files);
out:
	peer_files_release(&given);
	strbuf_release(&order);
	strbuf_release(&err);
	return r;
}

/* The date of a patch (its Date: line). */
static int patch_date(struct repo *r, const char *rev, long long *t)
{
	return repo_commit_info(r, rev, NULL, NULL, NULL, t);
}

int peer_claim_accept(struct peer_copy *pc, const struct peer_envelope *e,
		      const char *patch, struct strbuf *said)
{
	struct strbuf why = STRBUF_INIT;
	struct state next;
	char commit[41];
	long long t = 0;
	int r, ret = PEER_REFUSED;

	if (peer_patch_time(patch, &t) < 0) {
		strbuf_addstr(said, "the patch has no date");
		goto out;
	}
	r = claim_replay(pc, (enum side)e->from, (unsigned)e->seq, t, patch, &next, commit, &why);
	if (r == 0) {
		/* the silent side's own week: counted from when this copy got
		 * the commit, if later than its date (a commit dated back) */
		long long got, now = game_now();
		char d1[32], d2[32];
		if (received_at(pc, &got) == 0 && now < got + PEER_FORFEIT_LIMIT) {
			peer_date_text(got, d1);
			peer_date_text(got + PEER_FORFEIT_LIMIT, d2);
			strbuf_addf(&why, "too early: this copy received commit %lu only at %s; "
				    "a claim is possible from %s by its clock (11)", e->seq - 1, d1, d2);
			r = 1;
		}
	}
	if (r > 0) {
		strbuf_addf(said, "commit %lu (claim) is refused: %s", e->seq, why.buf);
		goto out;
	}
	ret = PEER_FAILED;
	if (r < 0) {
		strbuf_addf(said, "cannot rebuild the claim%s%s", why.len ? ": " : "", why.buf);
		goto out;
	}
	ret = PEER_REFUSED;
	if (peer_built_is_mailed(pc, e, commit, patch, said) < 0)
		goto out;
	ret = PEER_FAILED;
	if (peer_publish_head(pc, commit, said) < 0)
		goto out;
	pc->g.state = next;
	strbuf_addf(said, "accepted: commit %lu of the %s (claim, %.12s): the %s lose by forfeit",
		    e->seq, side_name((enum side)e->from), commit,
		    pc->me == SIDE_AMERICAN ? "Americans" : "British");
	ret = PEER_ACCEPTED;
out:
	strbuf_release(&why);
	return ret;
}

int peer_claim_audit(struct peer_copy *pc, const char *rev, enum side c,
		     unsigned seq, const char *patch, struct strbuf *why)
{
	struct state next;
	char commit[41];
	long long t = 0;
	int r;

	if (patch_date(pc->g.repo, rev, &t) < 0)
		return -1;
	r = claim_replay(pc, c, seq, t, patch, &next, commit, why);
	if (r == 0 && strcmp(commit, rev)) {
		strbuf_addf(why, "the rule gives %s", commit);
		r = 1;
	}
	return r;
}
