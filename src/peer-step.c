/*
 * peer-step.c - the rule of docs/peer.md section 7: one commit of a peer
 * game from its parent and its committer's facts, made or replayed by
 * the same code (peer-step.h): what the committer owes, the game as far
 * as his facts reach (peer-order.c), what became due, the waits, the
 * commit. The facts themselves are peer-facts.c's.
 */
#include "peer-step.h"
#include "engine/engine.h"
#include "state-yaml.h"
#include "turn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
			r = peer_fact_shuffle(st, g, 1, cts, in->n, refs);
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
			int r = peer_fact_shuffle(st, g, 2, t1->out, t1->n, NULL);
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
			int r = peer_fact_share(st, v);
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
		if ((r = peer_fact_dice(st, &rp)) == 0)
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

int peer_step_owed(const struct state *p, enum side c, enum peer_kind kind,
		   unsigned seq, struct strbuf *why)
{
	bool over = engine_game_over(p);
	char decision[STATE_PEER_WAIT_MAX];

	snprintf(decision, sizeof(decision), "%s decision", side_name(c));
	switch (kind) {
	case PEER_ORDER:
		if (!over && p->prompt.side == c &&
		    (p->peer.n_waits == 0 ||
		     (p->peer.n_waits == 1 && !strcmp(p->peer.waits[0], decision))))
			return 0;
		if (!over && p->prompt.side != c && p->prompt.side != SIDE_NONE)
			strbuf_addf(why, "an order of the %s after commit %u: this decision is the %s's, not yours (7)",
				    side_name(c), seq - 1, side_title(p->prompt.side));
		else
			strbuf_addf(why, "an order of the %s after commit %u, whose decision is not due (waits: %s; 7)",
				    side_name(c), seq - 1, p->peer.n_waits ? p->peer.waits[0] : "nothing");
		return 1;
	case PEER_ANSWER:
	case PEER_END:
		if (!peer_owes(p, c)) {
			strbuf_addf(why, "the %s owes nothing after commit %u (waits: %s; 7)",
				    side_name(c), seq - 1, p->peer.n_waits ? p->peer.waits[0] : "nothing");
			return 1;
		}
		if (over != (kind == PEER_END)) {
			strbuf_addf(why, "a commit of kind %s %s (7, 9.12)",
				    kind == PEER_END ? "end" : "answer",
				    over ? "after the game is over (it is end)" : "before the game is over");
			return 1;
		}
		return 0;
	default:
		strbuf_addstr(why, "no commit of this kind is made by the rule of section 7");
		return 1;
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
	if (!st->make && (r = peer_step_owed(st->parent, st->c, st->kind, st->seq,
					       &st->why)) != 0)
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
