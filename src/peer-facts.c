/*
 * peer-facts.c - the step of docs/peer.md section 7 (peer-facts.h) and
 * its facts: each share, shuffle and die a commit adds, made with the
 * committer's secret, or taken from the patch and checked.
 */
#include "peer-facts.h"
#include "codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void peer_step_init(struct peer_step *st)
{
	memset(st, 0, sizeof(*st));
	strbuf_init(&st->why);
	strbuf_init(&st->order_file);
}

void peer_step_release(struct peer_step *st)
{
	strbuf_release(&st->why);
	strbuf_release(&st->order_file);
}

int refuse_step(struct peer_step *st, const char *fmt, ...)
{
	va_list ap;

	if (!st->why.len) {
		va_start(ap, fmt);
		strbuf_vaddf(&st->why, fmt, ap);
		va_end(ap);
	}
	return 1;
}

const char *peer_owes(const struct state *s, enum side side)
{
	size_t n = strlen(side_name(side));

	for (int i = 0; i < s->peer.n_waits; i++) {
		const char *w = s->peer.waits[i];
		if (!strncmp(w, side_name(side), n) && w[n] == ' ' &&
		    strncmp(w + n + 1, "decision", 8))
			return w;
	}
	return NULL;
}

void peer_known_hand(const struct peer_copy *pc, const struct peer_files *f,
		     const struct state *s, enum side side, int *cards)
{
	for (int i = 0; i < s->n_hand[side]; i++) {
		int v = s->hand[side][i];
		const struct peer_share *o;
		const unsigned char *ct;

		cards[i] = 0;
		if (!CARD_IS_SLOT(v)) {
			cards[i] = v;
			continue;
		}
		if ((cards[i] = peer_files_open(f, v, pc->g.data->n_cards)))
			continue;
		if (side != pc->me || !(ct = peer_files_ct(f, v)) ||
		    !(o = peer_files_share(f, v, OTHER_SIDE(side))))
			continue;
		int c = pcrypto_unmask_own(&pc->sk, ct, o->share, pc->g.data->n_cards);
		cards[i] = c > 0 ? c : 0;
	}
}

/* ---- the facts: made with the secret, or taken from the patch ---- */

/* c's share of slot: made, or the patch's, checked. 0 or refused. */
int peer_fact_share(struct peer_step *st, int slot)
{
	const struct peer_record *rec = &st->pc->rec;
	const unsigned char *ct = peer_files_ct(st->files, slot);
	struct peer_share s = { .slot = slot, .side = st->c };
	char ctx[256], name[PEER_REF_MAX];
	size_t n = peer_ctx_share(st->pc->g.id, slot, st->c, ctx);

	peer_slot_name(slot, name);
	if (!ct || !n)
		return refuse_step(st, "slot %s has no masked card yet", name);
	if (st->make) {
		if (pcrypto_share(&st->pc->sk, (const unsigned char *)ctx, n, ct, s.share) < 0)
			return refuse_step(st, "cannot make the share of %s", name);
	} else {
		const struct peer_share *g = peer_files_share(st->given, slot, st->c);
		if (!g)
			return refuse_step(st, "the %s share of %s is missing (the rules call for it)",
				      side_name(st->c), name);
		if (pcrypto_share_verify(rec->keys[st->c].mask, (const unsigned char *)ctx, n,
					 ct, g->share) < 0)
			return refuse_step(st, "the %s unmasking share of %s does not verify (4.5)",
				      side_name(st->c), name);
		s = *g;
	}
	peer_files_add_share(st->files, &s);
	return 0;
}

/* A shuffle of generation gen, turn: made or checked; added. */
int peer_fact_shuffle(struct peer_step *st, int gen, int turn,
			  const unsigned char *in, int n, char (*refs)[PEER_REF_MAX])
{
	const struct peer_record *rec = &st->pc->rec;
	struct peer_shuffle sh = { .gen = gen, .turn = turn, .side = st->c, .n = n };
	char ctx[256];
	size_t cl = peer_ctx_shuffle(st->pc->g.id, gen, turn, st->c, ctx);
	int ret = 1;

	if (n < 2 || n > PCRYPTO_MAX_DECK || !cl)
		return refuse_step(st, "generation %d: a deck of %d cards cannot be shuffled", gen, n);
	if (st->make) {
		sh.out = xmalloc((size_t)n * PCRYPTO_CT);
		sh.proof = xmalloc(PCRYPTO_SHUFFLE_PROOF(n));
		sh.refs = refs;
		if (pcrypto_shuffle(&st->pc->sk, (const unsigned char *)ctx, cl, rec->joint,
				    in, n, sh.out, sh.proof) < 0) {
			refuse_step(st, "cannot shuffle generation %d", gen);
			goto out;
		}
		peer_files_add_shuffle(st->files, &sh);
		ret = 0;
		goto out;
	}
	const struct peer_shuffle *g = &st->given->sh[gen][turn];
	if (!g->have || g->side != st->c || g->n != n)
		return refuse_step(st, "turn %d of generation %d by the %s is missing (the rules call for it)",
			      turn, gen, side_name(st->c));
	for (int i = 0; turn == 1 && i < n; i++)
		if (strcmp(g->refs[i], refs[i]))
			return refuse_step(st, "turn 1 of generation %d does not shuffle the cards the rules give it (input %d)",
				      gen, i);
	if (pcrypto_shuffle_verify((const unsigned char *)ctx, cl, rec->joint, in, n,
				   g->out, g->proof) < 0)
		return refuse_step(st, "the shuffle of generation %d turn %d is not a permutation of its input remasked under the joint key (4.4)",
			      gen, turn);
	peer_files_add_shuffle(st->files, g);
	return 0;
out:
	free(sh.out);
	free(sh.proof);
	return ret;
}

int peer_step_reveal(void *ctx, enum side side, int slot)
{
	struct peer_step *st = ctx;

	if (side != st->c || !CARD_IS_SLOT(slot))
		return 0;
	if (!peer_files_share(st->files, slot, side) && peer_fact_share(st, slot) != 0)
		return 0;
	return peer_files_open(st->files, slot, st->pc->g.data->n_cards);
}

/* The dice of the request the parent is (5.1, 5.2): made or checked. */
int peer_fact_dice(struct peer_step *st, struct rng_peer *rp)
{
	const struct peer_record *rec = &st->pc->rec;
	enum side req = OTHER_SIDE(st->c);
	unsigned char oid[20], alpha[PCRYPTO_ALPHA_MAX], beta[3][32];
	struct peer_dice d;
	size_t n;

	memset(&d, 0, sizeof(d));
	snprintf(d.oid, sizeof(d.oid), "%s", st->pc->g.head);
	if (hex_decode(d.oid, oid, 20) < 0)
		return refuse_step(st, "the request has no commit id");
	if (st->make) {
		if (!st->req_proof)
			return refuse_step(st, "the request's own die proof is missing (its envelope)");
		memcpy(d.proof[req], st->req_proof, VRF_PROOF_BYTES);
		n = pcrypto_dice_alpha(st->pc->g.id, st->c, oid, 20, alpha);
		if (!n || vrf_prove(st->pc->sk.vrf, alpha, n, d.proof[st->c]) < 0)
			return refuse_step(st, "cannot make the die proof");
	} else {
		int i;
		for (i = 0; i < st->given->n_dice && strcmp(st->given->dice[i].oid, d.oid); i++)
			;
		if (i == st->given->n_dice)
			return refuse_step(st, "the answer gives no dice for request %s", d.oid);
		d = st->given->dice[i];
	}
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
		n = pcrypto_dice_alpha(st->pc->g.id, sd, oid, 20, alpha);
		if (!n || vrf_verify(rec->keys[sd].vrf, d.proof[sd], alpha, n, beta[sd]) < 0)
			return refuse_step(st, "the %s die proof for request %.12s does not verify (5.1)",
					   side_name(sd), d.oid);
	}
	if (pcrypto_dice_key(beta[SIDE_AMERICAN], beta[SIDE_BRITISH], rp->key) < 0)
		return refuse_step(st, "no key from the dice");
	rp->have_key = true;
	peer_files_add_dice(st->files, &d);
	return 0;
}
