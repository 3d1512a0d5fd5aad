/*
 * peer-step.c - the rule of docs/peer.md section 7: one commit of a peer
 * game from its parent and its committer's facts, made or replayed by
 * the same code (peer-step.h).
 */
#include "peer-step.h"
#include "codec.h"
#include "engine/engine.h"
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
}

void peer_step_release(struct peer_step *st)
{
	strbuf_release(&st->why);
}

static int refuse(struct peer_step *st, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int refuse(struct peer_step *st, const char *fmt, ...)
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
		return refuse(st, "slot %s has no masked card yet", name);
	if (st->make) {
		if (pcrypto_share(&st->pc->sk, (const unsigned char *)ctx, n, ct, s.share) < 0)
			return refuse(st, "cannot make the share of %s", name);
	} else {
		const struct peer_share *g = peer_files_share(st->given, slot, st->c);
		if (!g)
			return refuse(st, "the %s share of %s is missing (the rules call for it)",
				      side_name(st->c), name);
		if (pcrypto_share_verify(rec->keys[st->c].mask, (const unsigned char *)ctx, n,
					 ct, g->share) < 0)
			return refuse(st, "the %s unmasking share of %s does not verify (4.5)",
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
		return refuse(st, "generation %d: a deck of %d cards cannot be shuffled", gen, n);
	if (st->make) {
		sh.out = xmalloc((size_t)n * PCRYPTO_CT);
		sh.proof = xmalloc(PCRYPTO_SHUFFLE_PROOF(n));
		sh.refs = refs;
		if (pcrypto_shuffle(&st->pc->sk, (const unsigned char *)ctx, cl, rec->joint,
				    in, n, sh.out, sh.proof) < 0) {
			refuse(st, "cannot shuffle generation %d", gen);
			goto out;
		}
		peer_files_add_shuffle(st->files, &sh);
		ret = 0;
		goto out;
	}
	const struct peer_shuffle *g = &st->given->sh[gen][turn];
	if (!g->have || g->side != st->c || g->n != n)
		return refuse(st, "turn %d of generation %d by the %s is missing (the rules call for it)",
			      turn, gen, side_name(st->c));
	for (int i = 0; turn == 1 && i < n; i++)
		if (strcmp(g->refs[i], refs[i]))
			return refuse(st, "turn 1 of generation %d does not shuffle the cards the rules give it (input %d)",
				      gen, i);
	if (pcrypto_shuffle_verify((const unsigned char *)ctx, cl, rec->joint, in, n,
				   g->out, g->proof) < 0)
		return refuse(st, "the shuffle of generation %d turn %d is not a permutation of its input remasked under the joint key (4.4)",
			      gen, turn);
	peer_files_add_shuffle(st->files, g);
	return 0;
out:
	free(sh.out);
	free(sh.proof);
	return ret;
}

/* ---- the game ---- */

/* The engine's run of text for side on st->next from a copy of it. */
static int run_text(struct peer_step *st, struct state *s, enum side side,
		    const char *text, struct rng_peer *rp, struct order_result *res)
{
	struct rng r;

	rng_init_keyless(&r, s->draws);
	r.peer = rp;
	r.log = &res->log;
	rp->generation = s->peer.generation + 1;
	rp->missing = false;
	order_run(st->pc->g.data, s, &r, side, text, res);
	s->draws = r.next;
	return rp->missing ? 1 : 0;
}

/* The lines of text, each with its LF, as pointers. */
static int split_lines(const char *text, const char **line, size_t *len, int max)
{
	int n = 0;

	for (const char *p = text; *p && n < max; n++) {
		size_t l = strcspn(p, "\n");
		line[n] = p;
		len[n] = l + (p[l] ? 1 : 0);
		p += len[n];
	}
	return n;
}

/*
 * Runs an order (section 7, 9.5): all of it if it draws nothing without
 * the key; else the lines before the first that draws, that line being
 * the request's pending action. The order file's text in pub.
 */
static int run_order(struct peer_step *st, struct strbuf *log, struct strbuf *pub)
{
	const char *line[256];
	size_t len[256];
	int n = split_lines(st->order, line, len, 256), k;
	struct rng_peer rp = { 0 };
	struct order_result res;
	struct state s = st->next;
	int missing;

	order_result_init(&res);
	missing = run_text(st, &s, st->c, st->order, &rp, &res);
	if (res.rejected && !missing) {
		refuse(st, "%s", res.message.buf);
		order_result_release(&res);
		return 1;
	}
	if (!missing) {
		st->next = s;
		strbuf_addbuf(log, &res.log);
		strbuf_addstr(pub, st->order);
		order_result_release(&res);
		return 0;
	}
	order_result_release(&res);
	/* the first line whose prefix draws */
	for (k = 1; k <= n; k++) {
		struct strbuf pre = STRBUF_INIT;
		for (int i = 0; i < k; i++)
			strbuf_add(&pre, line[i], len[i]);
		order_result_init(&res);
		s = st->next;
		memset(&rp, 0, sizeof(rp));
		missing = run_text(st, &s, st->c, pre.buf, &rp, &res);
		strbuf_release(&pre);
		if (missing)
			break;
		order_result_release(&res);
	}
	order_result_release(&res);
	if (k > n)
		return refuse(st, "the order draws, but no line of it alone does");
	return refuse(st, "line %d calls for dice; a peer game does not draw them yet", k);
}

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
					r = refuse(st, "generation %d takes %s, whose generation is not shuffled yet",
						   g, refs[i]);
				else
					memcpy(cts + (size_t)i * PCRYPTO_CT, ct, PCRYPTO_CT);
			} else {
				snprintf(refs[i], PEER_REF_MAX, "#%d", v);
				if (v < 1 || v > d->n_cards ||
				    pcrypto_open(st->pc->rec.joint, v, cts + (size_t)i * PCRYPTO_CT) < 0)
					r = refuse(st, "card %d cannot be masked", v);
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
	if (!p->n_waits && !engine_game_over(&st->next))
		WAIT("%s decision", side_name(st->next.prompt.side));
#undef WAIT
}

/* The revealed slots of c's hand: given (verify) or planned (make). */
static int reveal_played(struct peer_step *st);

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
		return refuse(st, "the commit gives %d unmasking share(s) the rules did not call for",
			      g->n_shares - (f->n_shares - st->n_old_shares));
	if (f->n_dice - st->n_old_dice != g->n_dice)
		return refuse(st, "the commit gives dice no request called for");
	for (int gen = 1; gen <= PEER_MAX_GEN; gen++)
		for (int k = 1; k <= 2; k++)
			if (g->sh[gen][k].have && st->old_sh[gen][k])
				return refuse(st, "the commit shuffles generation %d turn %d again", gen, k);
			else if (g->sh[gen][k].have && !f->sh[gen][k].have)
				return refuse(st, "the commit shuffles generation %d, which the rules did not call for", gen);
	return 0;
}

/* The files of the commit: state, log, order, the cryptography. */
static int write_commit(struct peer_step *st, const char *happened,
			const char *order_pub, char commit[41]);

int peer_step_build(struct peer_step *st, char commit[41])
{
	struct strbuf log = STRBUF_INIT, pub = STRBUF_INIT, happened = STRBUF_INIT;
	int first_gen, r;

	st->next = *st->parent;
	st->next.n_shuffles = 0;
	st->n_old_shares = st->files->n_shares;
	st->n_old_dice = st->files->n_dice;
	for (int g = 0; g <= PEER_MAX_GEN; g++)
		for (int k = 0; k < 3; k++)
			st->old_sh[g][k] = st->files->sh[g][k].have;
	/* 1. what the committer owes */
	if ((r = turn2_owed(st)) != 0)
		goto out;
	/* 2. the game */
	if (st->kind == PEER_ORDER) {
		if ((r = reveal_played(st)) != 0)
			goto out;
		substitute_open(st);
		first_gen = st->next.peer.generation + 1;
		if ((r = run_order(st, &log, &pub)) != 0)
			goto out;
		st->next.seq = st->parent->seq + 1;
		st->next.orders[st->c]++;
		turn_happened(&happened, st->parent, st->next.seq, st->c, log.buf);
		/* a card revealed to be played must have left the hand */
		for (int j = 0; j < st->parent->n_hand[st->c]; j++) {
			int v = st->parent->hand[st->c][j];
			int card = CARD_IS_SLOT(v) ? peer_files_open(st->files, v, st->pc->g.data->n_cards) : 0;
			for (int i = 0; card && i < st->next.n_hand[st->c]; i++)
				if (st->next.hand[st->c][i] == card) {
					r = refuse(st, "a share reveals a card of the %s's hand that the order does not play",
						   side_name(st->c));
					goto out;
				}
		}
		/* 3. what became due */
		if ((r = shuffles_due(st, first_gen)) != 0)
			goto out;
	}
	if ((r = shares_due(st)) != 0)
		goto out;
	set_waits(st);
	if (!st->make && (r = all_used(st)) != 0)
		goto out;
	r = write_commit(st, happened.buf, st->kind == PEER_ORDER ? pub.buf : NULL, commit);
out:
	strbuf_release(&log);
	strbuf_release(&pub);
	strbuf_release(&happened);
	return r;
}

/*
 * The cards of c's hand this order plays, each opened by c's share: in
 * make, those the order takes out of the hand when run on c's own view;
 * in verify, the patch's shares of c for slots of c's own hand.
 */
static int reveal_played(struct peer_step *st)
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
	int cards[STATE_MAX_HAND];
	struct state s = *p;
	struct rng_peer rp = { 0 };
	struct order_result res;

	peer_known_hand(st->pc, st->files, p, c, cards);
	for (int i = 0; i < s.n_hand[c]; i++)
		if (cards[i])
			s.hand[c][i] = cards[i];
	order_result_init(&res);
	run_text(st, &s, c, st->order, &rp, &res);
	if (res.rejected && !rp.missing) {
		refuse(st, "%s", res.message.buf);
		order_result_release(&res);
		return 1;
	}
	order_result_release(&res);
	for (int i = 0; i < p->n_hand[c]; i++) {
		bool kept = false;
		if (!CARD_IS_SLOT(p->hand[c][i]) || !cards[i])
			continue;
		for (int j = 0; j < s.n_hand[c]; j++)
			kept |= s.hand[c][j] == cards[i];
		if (!kept) {
			int r = obtain_share(st, p->hand[c][i]);
			if (r)
				return r;
		}
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

static int write_commit(struct peer_step *st, const char *happened,
			const char *order_pub, char commit[41])
{
	struct strbuf state = STRBUF_INIT, log = STRBUF_INIT, shares = STRBUF_INIT;
	struct strbuf dice = STRBUF_INIT, waits = STRBUF_INIT, subj = STRBUF_INIT;
	struct strbuf add = STRBUF_INIT, shtext[8];
	struct repo_file files[16];
	char order_path[64], sh_path[8][48];
	int nf = 0, nsh = 0, ret = -1;
	const struct peer_files *f = st->files;

	for (int i = 0; i < 8; i++)
		strbuf_init(&shtext[i]);
	state_write_public(&st->next, st->pc->g.data, NULL, &state);
	files[nf++] = (struct repo_file){ "state.yaml", state.buf, state.len };
	appended(st, "log.txt", happened, &log);
	files[nf++] = (struct repo_file){ "log.txt", log.buf, log.len };
	if (order_pub) {
		snprintf(order_path, sizeof(order_path), "orders/%04u-%s.txt",
			 st->next.seq, side_name(st->c));
		files[nf++] = (struct repo_file){ order_path, order_pub, strlen(order_pub) };
	}
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
		strbuf_addf(&subj, "%s: answer", side_title(st->c));
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
	return ret;
}
