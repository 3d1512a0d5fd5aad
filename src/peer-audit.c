/*
 * peer-audit.c - `postrider peer audit`: a peer game checked from one
 * copy, by anyone (docs/peer.md 9.12): the invitation and the join
 * rebuilt, every later commit rebuilt by the rule of section 7 from the
 * facts it adds (every proof verified, every share one the rules called
 * for, every sealed order against its commitment), and, once both
 * masking keys are published, every slot of every generation opened and
 * every share checked against the keys. The results are data
 * (peer-audit.h); src/cmd-peer.c says them.
 */
#include "peer-audit.h"
#include "peer-start.h"
#include "peer-step.h"
#include "peer-silence.h"
#include "engine/engine.h"
#include "state-yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Commit rev (its parent loaded in pc) rebuilt from its facts. */
static int audit_commit(struct peer_copy *pc, const char *rev, struct strbuf *why)
{
	struct strbuf patch = STRBUF_INIT, order = STRBUF_INIT, kind = STRBUF_INIT;
	struct strbuf side = STRBUF_INIT, seq = STRBUF_INIT, err = STRBUF_INIT;
	struct peer_files files, given;
	struct peer_step st;
	char commit[41];
	int r = -1, sd;

	peer_step_init(&st);
	peer_files_init(&files);
	peer_files_init(&given);
	if (repo_format_patch(pc->g.repo, rev, &patch) < 0 ||
	    repo_trailer(pc->g.repo, rev, "Postrider-Kind", &kind) < 0 ||
	    repo_trailer(pc->g.repo, rev, "Postrider-Side", &side) < 0 ||
	    repo_trailer(pc->g.repo, rev, "Postrider-Seq", &seq) < 0 ||
	    (sd = side_parse(side.buf)) <= 0 || peer_kind_parse(kind.buf) < PEER_ORDER) {
		strbuf_addstr(why, "its trailers do not name a kind, a side and a seq");
		goto out;
	}
	if (peer_files_load(pc->g.repo, pc->g.head, &files, &err) < 0 ||
	    peer_given_from_patch(patch.buf, &given, &order, why) != PEER_ACCEPTED) {
		strbuf_addbuf(why, &err);
		goto out;
	}
	if (peer_kind_parse(kind.buf) == PEER_CLAIM) {
		r = peer_claim_audit(pc, rev, (enum side)sd, (unsigned)strtoul(seq.buf, NULL, 10),
				     patch.buf, why);
		goto out;
	}
	st.pc = pc;
	st.parent = &pc->g.state;
	st.files = &files;
	st.c = (enum side)sd;
	st.kind = (enum peer_kind)peer_kind_parse(kind.buf);
	st.order = st.kind == PEER_ORDER ? order.buf : NULL;
	st.cont = order.buf;
	st.given = &given;
	st.seq = (unsigned)strtoul(seq.buf, NULL, 10);
	repo_commit_info(pc->g.repo, rev, NULL, NULL, NULL, &st.time);
	if (peer_check_time(pc->g.repo, pc->g.head, st.time, game_now(), why)) {
		r = 1;
		goto out;
	}
	{
		/* the commitment the commit's state adds, as a reader takes it */
		struct strbuf s = STRBUF_INIT;
		struct state tmp;
		if (repo_read(pc->g.repo, rev, "state.yaml", &s) == 0 &&
		    state_read(&tmp, pc->g.data, s.buf, s.len, NULL, 0, &err) == 0)
			snprintf(st.given_sealed, sizeof(st.given_sealed), "%s", tmp.peer.sealed[sd]);
		strbuf_release(&s);
	}
	r = peer_step_build(&st, commit);
	if (r > 0)
		strbuf_addbuf(why, &st.why);
	else if (r == 0 && strcmp(commit, rev)) {
		strbuf_addf(why, "the rule gives %s", commit);
		r = 1;
	}
out:
	peer_step_release(&st);
	peer_files_release(&files);
	peer_files_release(&given);
	strbuf_release(&patch);
	strbuf_release(&order);
	strbuf_release(&kind);
	strbuf_release(&side);
	strbuf_release(&seq);
	strbuf_release(&err);
	return r;
}

/* The first two commits, rebuilt from the final game.yaml's keys. */
static int audit_start(struct peer_copy *pc, char (*hist)[41], struct strbuf *why)
{
	struct strbuf side = STRBUF_INIT, err = STRBUF_INIT;
	struct peer_record invite = pc->rec;
	char commit[41];
	long long t = 0;
	int inviter, r = 1;

	if (repo_trailer(pc->g.repo, hist[0], "Postrider-Side", &side) < 0 ||
	    (inviter = side_parse(side.buf)) <= 0) {
		strbuf_addstr(why, "the invitation names no side");
		goto out;
	}
	invite.keys[OTHER_SIDE(inviter)].have = false;
	invite.have_joint = false;
	snprintf(pc->g.head, sizeof(pc->g.head), "%s", hist[0]);
	repo_commit_info(pc->g.repo, hist[0], NULL, NULL, NULL, &t);
	if (peer_invite_commit(&pc->g, &invite, (enum side)inviter, t, commit) < 0 ||
	    strcmp(commit, hist[0])) {
		strbuf_addstr(why, "commit 1 is not the invitation of rule 4.0 for its players, data and keys");
		goto out;
	}
	if (game_load_state(&pc->g, hist[0], &err) < 0) {
		strbuf_addbuf(why, &err);
		goto out;
	}
	repo_commit_info(pc->g.repo, hist[1], NULL, NULL, NULL, &t);
	if (peer_check_time(pc->g.repo, hist[0], t, game_now(), why))
		goto out;
	if (peer_join_commit(&pc->g, &pc->rec, OTHER_SIDE(inviter), t, commit) < 0 ||
	    strcmp(commit, hist[1])) {
		strbuf_addstr(why, "commit 2 is not the join of the other side's keys");
		goto out;
	}
	r = 0;
out:
	strbuf_release(&side);
	strbuf_release(&err);
	return r;
}

/* With both keys: every slot opened, every share the keys' own. */
static int audit_keys(struct peer_copy *pc, int *opened, struct strbuf *why)
{
	struct peer_files f;
	struct strbuf err = STRBUF_INIT;
	struct pcrypto_secret k[3];
	int r = 1;

	*opened = 0;
	memset(k, 0, sizeof(k));
	if (peer_files_load(pc->g.repo, pc->g.head, &f, &err) < 0) {
		strbuf_addbuf(why, &err);
		goto out;
	}
	if (!f.have_key[SIDE_AMERICAN] || !f.have_key[SIDE_BRITISH]) {
		r = 0;	/* not over yet: nothing to open */
		goto out;
	}
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++)
		memcpy(k[sd].mask, f.key[sd], 32);
	for (int g = 1; g <= PEER_MAX_GEN && f.sh[g][2].have; g++)
		for (int i = 0; i < f.sh[g][2].n; i++) {
			const unsigned char *ct = f.sh[g][2].out + (size_t)i * PCRYPTO_CT;
			unsigned char s[3][PCRYPTO_SHARE];
			int slot = CARD_SLOT(g, i);
			if (pcrypto_share(&k[1], (const unsigned char *)"audit", 5, ct, s[1]) < 0 ||
			    pcrypto_share(&k[2], (const unsigned char *)"audit", 5, ct, s[2]) < 0 ||
			    pcrypto_unmask(ct, s[1], s[2], pc->g.data->n_cards) <= 0) {
				strbuf_addf(why, "slot s%d.%d opens to no card with both keys", g, i);
				goto out;
			}
			for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
				const struct peer_share *ps = peer_files_share(&f, slot, sd);
				if (ps && memcmp(ps->share, s[sd], PCRYPTO_PT)) {
					strbuf_addf(why, "the %s share of s%d.%d is not his key's", side_name(sd), g, i);
					goto out;
				}
			}
			(*opened)++;
		}
	r = 0;
out:
	peer_files_release(&f);
	strbuf_release(&err);
	return r;
}

void peer_audit_report_init(struct peer_audit_report *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->why);
}

void peer_audit_report_release(struct peer_audit_report *r)
{
	strbuf_release(&r->why);
}

int peer_audit(const char *dir, struct peer_audit_report *r)
{
	struct peer_copy pc;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	char (*hist)[41] = NULL;
	size_t n = 0;
	int ret = 1;

	memset(&pc, 0, sizeof(pc));
	if (game_open(dir, &pc.g, 0, &err) != 0 || !pc.g.peer ||
	    repo_read(pc.g.repo, pc.g.head, "game.yaml", &text) != 0 ||
	    peer_record_read(pc.g.id, text.buf, text.len, &pc.rec, &err) < 0 ||
	    repo_history(pc.g.repo, &hist, &n) < 0 || n < 2) {
		r->failed = PEER_AUDIT_NO_GAME;
		strbuf_addbuf(&r->why, &err);
		ret = -1;
		goto out;
	}
	r->n = n;
	pc.me = SIDE_NONE;
	if (audit_start(&pc, hist, &r->why)) {
		r->failed = PEER_AUDIT_START;
		goto out;
	}
	for (size_t i = 2; i < n; i++) {
		r->at = i;
		snprintf(r->commit, sizeof(r->commit), "%s", hist[i]);
		snprintf(pc.g.head, sizeof(pc.g.head), "%s", hist[i - 1]);
		if (game_load_state(&pc.g, hist[i - 1], &r->why) < 0) {
			r->failed = PEER_AUDIT_STATE;
			goto out;
		}
		if (audit_commit(&pc, hist[i], &r->why)) {
			r->failed = PEER_AUDIT_COMMIT;
			goto out;
		}
	}
	snprintf(pc.g.head, sizeof(pc.g.head), "%s", hist[n - 1]);
	if (audit_keys(&pc, &r->opened, &r->why)) {
		r->failed = PEER_AUDIT_KEYS;
		goto out;
	}
	ret = 0;
out:
	free(hist);
	peer_copy_close(&pc);
	strbuf_release(&err);
	strbuf_release(&text);
	return ret;
}
