/*
 * peer-step.c - the rule of docs/peer.md section 7: one commit of a peer
 * game from its parent and its committer's facts, made or replayed by
 * the same code (peer-step.h).
 */
#include "peer-step.h"
#include "codec.h"
#include "engine/engine.h"
#include "state-yaml.h"
#include "order.h"
#include "turn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#define SEALED_LINE "# (a line sealed until it runs or the game ends)"

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
static int obtain_share(struct peer_step *st, int slot)
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
static int obtain_shuffle(struct peer_step *st, int gen, int turn,
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

/* ---- the game ---- */

/* ---- the commit ---- */

/* Slots of generations whose turn 2 is in the record. */
static bool slot_complete(const struct peer_files *f, int v)
{
	return CARD_IS_SLOT(v) && peer_files_ct(f, v) != NULL;
}

/* Turn 1 of the generations the engine made (9.4), then owed turns 2. */
static int shuffles_due(struct peer_step *st, int first_gen)
{
	const struct state *s = &st->next;
	const struct data *d = st->pc->g.data;

	for (int g = first_gen; g <= s->peer.generation; g++) {
		const struct state_shuffle *in = &s->shuffles[g - first_gen];
		unsigned char *cts = xmalloc((size_t)in->n * PCRYPTO_CT);
		char (*refs)[PEER_REF_MAX] = xcalloc((size_t)in->n, PEER_REF_MAX);
		int r = 0;
		for (int i = 0; i < in->n && !r; i++) {
			int v = in->items[i];
			const unsigned char *ct;
			if (CARD_IS_SLOT(v)) {
				peer_slot_name(v, refs[i]);
				if (!(ct = peer_files_ct(st->files, v)))
					r = refuse_step(st, "generation %d takes %s, whose generation is not shuffled yet",
						   g, refs[i]);
				else
					memcpy(cts + (size_t)i * PCRYPTO_CT, ct, PCRYPTO_CT);
			} else {
				snprintf(refs[i], PEER_REF_MAX, "#%d", v);
				if (v < 1 || v > d->n_cards ||
				    pcrypto_open(st->pc->rec.joint, v, cts + (size_t)i * PCRYPTO_CT) < 0)
					r = refuse_step(st, "card %d cannot be masked", v);
			}
		}
		if (!r)
			r = obtain_shuffle(st, g, 1, cts, in->n, refs);
		free(cts);
		free(refs);
		if (r)
			return r;
	}
	return 0;
}

/* The owed turn 2 of a generation whose turn 1 the other side made. */
static int turn2_owed(struct peer_step *st)
{
	for (int g = 1; g <= st->next.peer.generation && g <= PEER_MAX_GEN; g++) {
		const struct peer_shuffle *t1 = &st->files->sh[g][1];
		if (t1->have && !st->files->sh[g][2].have && t1->side != st->c) {
			int r = obtain_shuffle(st, g, 2, t1->out, t1->n, NULL);
			if (r)
				return r;
		}
	}
	return 0;
}

/* c's shares for every slot of the other's hand that lacks it. */
static int shares_due(struct peer_step *st)
{
	enum side o = OTHER_SIDE(st->c);

	for (int i = 0; i < st->next.n_hand[o]; i++) {
		int v = st->next.hand[o][i];
		if (slot_complete(st->files, v) && !peer_files_share(st->files, v, st->c)) {
			int r = obtain_share(st, v);
			if (r)
				return r;
		}
	}
	return 0;
}

/* At the end (9.12): the committer's masking key, made or checked. */
static int key_due(struct peer_step *st)
{
	unsigned char pk[VRF_PK_BYTES];
	const unsigned char *x;

	if (!engine_game_over(&st->next) || st->files->have_key[st->c] || st->request)
		return 0;
	if (st->make) {
		x = st->pc->sk.mask;
	} else {
		if (!st->given->have_key[st->c])
			return refuse_step(st, "the game is over: the %s's masking key is due (9.12)",
					   side_name(st->c));
		x = st->given->key[st->c];
		if (vrf_public_key(x, pk) < 0 || memcmp(pk, st->pc->rec.keys[st->c].mask, PCRYPTO_PT))
			return refuse_step(st, "the %s's published key is not the secret of his mask_key (9.12)",
					   side_name(st->c));
	}
	memcpy(st->files->key[st->c], x, 32);
	st->files->have_key[st->c] = true;
	st->gave_key = true;
	return 0;
}

/* The waits of the new state (6.2), in order. */
static void set_waits(struct peer_step *st)
{
	struct state_peer *p = &st->next.peer;
	const struct peer_files *f = st->files;

	p->n_waits = 0;
#define WAIT(...) do { if (p->n_waits < STATE_PEER_MAX_WAITS) \
	snprintf(p->waits[p->n_waits++], STATE_PEER_WAIT_MAX, __VA_ARGS__); } while (0)
	if (st->request)
		WAIT("%s dice", side_name(OTHER_SIDE(st->c)));
	for (int g = 1; g <= p->generation && g <= PEER_MAX_GEN; g++)
		if (f->sh[g][1].have && !f->sh[g][2].have)
			WAIT("%s shuffle %d", side_name(OTHER_SIDE(f->sh[g][1].side)), g);
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++) {
		enum side o = OTHER_SIDE(sd);
		for (int i = 0; i < st->next.n_hand[o]; i++) {
			int v = st->next.hand[o][i];
			if (slot_complete(f, v) && !peer_files_share(f, v, sd)) {
				WAIT("%s shares", side_name(sd));
				break;
			}
		}
	}
	{
		enum side ps;
		unsigned pseq;
		int pl;
		if (!st->request && peer_pending(&st->next, &ps, &pseq, &pl) == 0 && pl == 0 &&
		    (st->next.prompt.side == ps || engine_game_over(&st->next)))
			WAIT("%s lines %u", side_name(ps), pseq);
	}
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++)
		if (engine_game_over(&st->next) && !st->request && !f->have_key[sd])
			WAIT("%s key", side_name(sd));
	if (!p->n_waits && !engine_game_over(&st->next))
		WAIT("%s decision", side_name(st->next.prompt.side));
#undef WAIT
}

/* The revealed slots of c's hand: given (verify) or planned (make). */
int peer_reveal_played(struct peer_step *st, const char *text);

/* Replaces each slot of a hand that both shares open by its card. */
static void substitute_open(struct peer_step *st)
{
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++)
		for (int i = 0; i < st->next.n_hand[sd]; i++) {
			int v = st->next.hand[sd][i];
			int c = CARD_IS_SLOT(v) ? peer_files_open(st->files, v, st->pc->g.data->n_cards) : 0;
			if (c)
				st->next.hand[sd][i] = c;
		}
}

/* verify: every fact the patch adds is one the rules called for. */
static int all_used(struct peer_step *st)
{
	const struct peer_files *f = st->files, *g = st->given;

	if (f->n_shares - st->n_old_shares != g->n_shares)
		return refuse_step(st, "the commit gives %d unmasking share(s) the rules did not call for",
			      g->n_shares - (f->n_shares - st->n_old_shares));
	if (f->n_dice - st->n_old_dice != g->n_dice)
		return refuse_step(st, "the commit gives dice no request called for");
	for (enum side sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++)
		if (g->have_key[sd] && !(sd == st->c && st->gave_key))
			return refuse_step(st, "the commit publishes the %s's key, which the rules did not call for",
					   side_name(sd));
	for (int gen = 1; gen <= PEER_MAX_GEN; gen++)
		for (int k = 1; k <= 2; k++)
			if (g->sh[gen][k].have && st->old_sh[gen][k])
				return refuse_step(st, "the commit shuffles generation %d turn %d again", gen, k);
			else if (g->sh[gen][k].have && !f->sh[gen][k].have)
				return refuse_step(st, "the commit shuffles generation %d, which the rules did not call for", gen);
	return 0;
}

/* The files of the commit: state, log, order, the cryptography. */
static int write_commit(struct peer_step *st, const char *happened, char commit[41]);

/* A card of side's hand that a share opened must have left it (9.6,
 * 9.7): no share of a card the rules did not reveal. */
static int played_left(struct peer_step *st, enum side side)
{
	const struct state *p = st->parent;

	for (int j = 0; j < p->n_hand[side]; j++) {
		int v = p->hand[side][j];
		int card = CARD_IS_SLOT(v) ? peer_files_open(st->files, v, st->pc->g.data->n_cards) : 0;
		for (int i = 0; card && i < st->next.n_hand[side]; i++)
			if (st->next.hand[side][i] == card)
				return refuse_step(st, "a share reveals a card of the %s's hand that the rules do not reveal",
						   side_name(side));
	}
	return 0;
}

int peer_step_reveal(void *ctx, enum side side, int slot)
{
	struct peer_step *st = ctx;

	if (side != st->c || !CARD_IS_SLOT(slot))
		return 0;
	if (!peer_files_share(st->files, slot, side) && obtain_share(st, slot) != 0)
		return 0;
	return peer_files_open(st->files, slot, st->pc->g.data->n_cards);
}

/* The dice of the request the parent is (5.1, 5.2): made or checked. */
static int obtain_dice(struct peer_step *st, struct rng_peer *rp)
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

/* Section 7, 2: the game as far as the committer's facts reach. */
static int the_game(struct peer_step *st, struct strbuf *happened)
{
	struct strbuf log = STRBUF_INIT;
	struct rng_peer rp = { 0 };
	enum side pside;
	unsigned pseq;
	int pline, r = 0;

	if (st->kind == PEER_ORDER) {
		if ((r = peer_reveal_played(st, st->order)) == 0) {
			substitute_open(st);
			st->next.seq = st->parent->seq + 1;
			r = peer_order_first(st, &log);
		}
		if (!r) {
			st->next.orders[st->c]++;
			turn_happened(happened, st->parent, st->next.seq, st->c, log.buf);
		}
		goto out;
	}
	if (peer_pending(st->parent, &pside, &pseq, &pline) == 0 && pline > 0 &&
	    pside != st->c) {
		/* the answer to a request: the dice, and its line */
		substitute_open(st);
		if ((r = obtain_dice(st, &rp)) == 0)
			r = peer_order_pending(st, &rp, happened);
		if (!r)
			r = played_left(st, pside);
		goto out;
	}
	if (peer_pending(st->parent, &pside, &pseq, &pline) == 0 && pline == 0 &&
	    pside == st->c && (st->parent->prompt.side == st->c ||
				engine_game_over(st->parent))) {
		/* the committer's own order goes on (its cards revealed there) */
		r = peer_order_continue(st, happened);
	}
out:
	strbuf_release(&log);
	return r || st->request ? r : played_left(st, st->c);
}

/*
 * Section 7: a commit only its committer owes (finding 4 of the red team,
 * issue 34). An order when the decision is his (as peer_order_now() asks
 * before making one); an answer when the parent's waits say he owes
 * something, or an end when he does and the game is over (as
 * peer_answer_owed() makes them). 0, or refused.
 */
static int kind_owed(struct peer_step *st)
{
	const struct state *p = st->parent;
	bool over = engine_game_over(p);
	char decision[STATE_PEER_WAIT_MAX];

	snprintf(decision, sizeof(decision), "%s decision", side_name(st->c));
	switch (st->kind) {
	case PEER_ORDER:
		if (!over && p->prompt.side == st->c &&
		    (p->peer.n_waits == 0 ||
		     (p->peer.n_waits == 1 && !strcmp(p->peer.waits[0], decision))))
			return 0;
		if (!over && p->prompt.side != st->c && p->prompt.side != SIDE_NONE)
			return refuse_step(st, "an order of the %s after commit %u: this decision is the %s's, not yours (7)",
					   side_name(st->c), st->seq - 1, side_title(p->prompt.side));
		return refuse_step(st, "an order of the %s after commit %u, whose decision is not due (waits: %s; 7)",
				   side_name(st->c), st->seq - 1, p->peer.n_waits ? p->peer.waits[0] : "nothing");
	case PEER_ANSWER:
	case PEER_END:
		if (!peer_owes(p, st->c))
			return refuse_step(st, "the %s owes nothing after commit %u (waits: %s; 7)",
					   side_name(st->c), st->seq - 1,
					   p->peer.n_waits ? p->peer.waits[0] : "nothing");
		if (over != (st->kind == PEER_END))
			return refuse_step(st, "a commit of kind %s %s (7, 9.12)",
					   st->kind == PEER_END ? "end" : "answer",
					   over ? "after the game is over (it is end)"
						: "before the game is over");
		return 0;
	default:
		return refuse_step(st, "no commit of this kind is made by the rule of section 7");
	}
}

int peer_step_build(struct peer_step *st, char commit[41])
{
	struct strbuf happened = STRBUF_INIT;
	int first_gen, r;

	st->next = *st->parent;
	st->next.n_shuffles = 0;
	st->n_old_shares = st->files->n_shares;
	st->n_old_dice = st->files->n_dice;
	for (int g = 0; g <= PEER_MAX_GEN; g++)
		for (int k = 0; k < 3; k++)
			st->old_sh[g][k] = st->files->sh[g][k].have;
	if (!st->make && (r = kind_owed(st)) != 0)
		goto out;
	/* 1. what the committer owes */
	if ((r = turn2_owed(st)) != 0)
		goto out;
	/* 2. the game */
	first_gen = st->next.peer.generation + 1;
	if ((r = the_game(st, &happened)) != 0)
		goto out;
	/* 3. what became due */
	if ((r = shuffles_due(st, first_gen)) != 0 || (r = shares_due(st)) != 0 ||
	    (r = key_due(st)) != 0)
		goto out;
	set_waits(st);
	if (!st->make && (r = all_used(st)) != 0)
		goto out;
	r = write_commit(st, happened.buf, commit);
out:
	strbuf_release(&happened);
	return r;
}

/*
 * The order text run on the committer's own view (cards: his hand as he
 * knows it) from st->next, line by line as peer-order.c runs it: up to
 * and with the first line that draws without the dice, or up to the first
 * line that does not fit (refused in a new order, dropped in a
 * continuation). The state it reaches in *out: the cards it plays are
 * those to reveal now, and no card of a sealed line is.
 */
static int own_run(struct peer_step *st, const char *text, const int *cards,
		   struct state *out)
{
	struct state base = st->next;
	struct strbuf pre = STRBUF_INIT;
	const char *p = text;
	int r = 0;

	for (int i = 0; i < base.n_hand[st->c]; i++)
		if (cards[i])
			base.hand[st->c][i] = cards[i];
	*out = base;
	while (*p) {
		size_t l = strcspn(p, "\n");
		struct rng_peer rp = { 0 };
		struct order_result res;
		struct state s = base;
		size_t k = strspn(p, " \t");
		bool blank = k >= l || p[k] == '#';
		strbuf_add(&pre, p, l);
		strbuf_addch(&pre, '\n');
		p += l + (p[l] ? 1 : 0);
		if (blank && *p)
			continue;
		order_result_init(&res);
		peer_run_text(st, &s, st->c, pre.buf, &rp, &res);
		if (rp.missing) {
			*out = s;	/* the request's line: its card shows */
			order_result_release(&res);
			break;
		}
		if (res.rejected) {
			if (st->kind == PEER_ORDER && !(blank && res.applied == 0 && pre.len > l + 1))
				r = refuse_step(st, "%s", res.message.buf);
			order_result_release(&res);
			break;
		}
		*out = s;
		order_result_release(&res);
	}
	strbuf_release(&pre);
	return r;
}

/*
 * The cards of c's hand this order plays, each opened by c's share: in
 * make, those the order takes out of the hand when run on c's own view;
 * in verify, the patch's shares of c for slots of c's own hand.
 */
int peer_reveal_played(struct peer_step *st, const char *text)
{
	enum side c = st->c;
	const struct state *p = st->parent;

	if (!st->make) {
		for (int i = 0; i < st->given->n_shares; i++) {
			int v = st->given->shares[i].slot;
			bool mine = false;
			for (int j = 0; j < p->n_hand[c]; j++)
				mine |= p->hand[c][j] == v;
			if (st->given->shares[i].side == c && mine) {
				int r = obtain_share(st, v);
				if (r)
					return r;
			}
		}
		return 0;
	}
	/* make: the order on the committer's view of his own hand */
	if (!text)
		return 0;
	int cards[STATE_MAX_HAND] = { 0 }, r;
	struct state s;

	peer_known_hand(st->pc, st->files, &st->next, c, cards);
	if ((r = own_run(st, text, cards, &s)) != 0)
		return r;
	for (int i = 0; i < st->next.n_hand[c]; i++) {
		bool kept = false;
		if (!CARD_IS_SLOT(st->next.hand[c][i]) || !cards[i])
			continue;
		for (int j = 0; j < s.n_hand[c]; j++)
			kept |= s.hand[c][j] == cards[i];
		if (!kept && (r = obtain_share(st, st->next.hand[c][i])) != 0)
			return r;
	}
	return 0;
}

/* old text of path at the parent plus add, as a file of the commit. */
static void appended(struct peer_step *st, const char *path, const char *add,
		     struct strbuf *out)
{
	repo_read(st->pc->g.repo, st->pc->g.head, path, out);
	strbuf_addstr(out, add);
}

static int write_commit(struct peer_step *st, const char *happened, char commit[41])
{
	struct strbuf state = STRBUF_INIT, log = STRBUF_INIT, shares = STRBUF_INIT;
	struct strbuf dice = STRBUF_INIT, waits = STRBUF_INIT, subj = STRBUF_INIT;
	struct strbuf add = STRBUF_INIT, shtext[8], keys = STRBUF_INIT;
	struct repo_file files[16];
	char sh_path[8][48];
	int nf = 0, nsh = 0, ret = -1;
	const struct peer_files *f = st->files;

	for (int i = 0; i < 8; i++)
		strbuf_init(&shtext[i]);
	state_write_public(&st->next, st->pc->g.data, NULL, &state);
	files[nf++] = (struct repo_file){ "state.yaml", state.buf, state.len };
	appended(st, "log.txt", happened, &log);
	files[nf++] = (struct repo_file){ "log.txt", log.buf, log.len };
	if (st->order_file.len)
		files[nf++] = (struct repo_file){ st->order_path, st->order_file.buf,
						  st->order_file.len };
	/* the shares and dice this commit adds: those past the parent's */
	for (int i = st->n_old_shares; i < f->n_shares; i++)
		peer_share_line(&f->shares[i], &add);
	if (add.len) {
		appended(st, "peer/shares.txt", add.buf, &shares);
		files[nf++] = (struct repo_file){ "peer/shares.txt", shares.buf, shares.len };
	}
	strbuf_reset(&add);
	for (int i = st->n_old_dice; i < f->n_dice; i++)
		peer_dice_line(&f->dice[i], &add);
	if (add.len) {
		appended(st, "peer/dice.txt", add.buf, &dice);
		files[nf++] = (struct repo_file){ "peer/dice.txt", dice.buf, dice.len };
	}
	if (st->gave_key) {
		struct strbuf k = STRBUF_INIT;
		peer_key_line(st->c, f->key[st->c], &k);
		appended(st, "peer/keys.txt", k.buf, &keys);
		files[nf++] = (struct repo_file){ "peer/keys.txt", keys.buf, keys.len };
		strbuf_release(&k);
	}
	for (int g = 1; g <= PEER_MAX_GEN && nsh < 8; g++)
		for (int k = 1; k <= 2 && nsh < 8; k++)
			if (f->sh[g][k].have && !st->old_sh[g][k]) {
				peer_shuffle_path(g, k, sh_path[nsh]);
				peer_shuffle_write(&f->sh[g][k], &shtext[nsh]);
				files[nf++] = (struct repo_file){ sh_path[nsh], shtext[nsh].buf, shtext[nsh].len };
				nsh++;
			}
	for (int i = 0; i < st->next.peer.n_waits; i++)
		strbuf_addf(&waits, "%s\n", st->next.peer.waits[i]);
	if (st->kind == PEER_ORDER)
		strbuf_addf(&subj, "%d %s: order %u", st->parent->year, side_title(st->c), st->next.seq);
	else
		strbuf_addf(&subj, "%s: %s", side_title(st->c), peer_kind_name(st->kind));
	struct peer_commit pcm = {
		.kind = st->kind, .side = st->c, .seq = st->seq, .subject = subj.buf,
		.waits = waits.buf, .files = files, .n_files = nf, .time = st->time,
	};
	ret = peer_commit_prepare(&st->pc->g, st->pc->g.head, &pcm, commit) < 0 ? -1 : 0;
	for (int i = 0; i < 8; i++)
		strbuf_release(&shtext[i]);
	strbuf_release(&state);
	strbuf_release(&log);
	strbuf_release(&shares);
	strbuf_release(&dice);
	strbuf_release(&waits);
	strbuf_release(&subj);
	strbuf_release(&add);
	strbuf_release(&keys);
	return ret;
}
