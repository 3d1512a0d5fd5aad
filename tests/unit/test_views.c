/*
 * test_views.c - the engine with one hand known (docs/peer.md section 12):
 * a peer game's draws from a request's key, shuffles into slots, cards
 * revealed from a hand, and the `peer:` section of state.yaml.
 *
 * The main test is differential, over whole games: random legal play
 * (as `postrider selfplay` drives it) in host mode, and the same actions
 * in peer mode, where the hidden cards are slots. The peer stream has, for
 * each action, the key and the draw number that the host's stream uses
 * for it (host shuffles draw from the same counter, peer shuffles do not,
 * so the counters part: that difference is checked too), and reveal()
 * knows every slot from a table the test fills by redoing each host
 * shuffle itself from its recorded list. Each action is applied to the
 * mover's view (his hand known) and to the view of the replay in the
 * other copy (only the named card substituted for its slot): the two give
 * the same public state and log; after
 * every action the public state and the log must be the host's byte for
 * byte, every slot must stand for the host's card at its place, the
 * mover's view must list the host's legal actions, and the peer state must
 * hold the invariants and round-trip through state.yaml.
 *
 * Runs from the repository root (it loads games/washingtons-war).
 */
#include "engine_fixture.h"
#include "order.h"
#include "report.h"

#ifndef VIEW_GAMES
#define VIEW_GAMES 16
#endif
#define MAX_ACTIONS 3000
#define MAX_GEN 64

/* The test's knowledge of every slot: card[g][i] for slot sg.i. */
struct slot_table {
	int card[MAX_GEN + 1][256];
	long reveals;
};

static int table_card(const struct slot_table *t, int v)
{
	int g = CARD_SLOT_GEN(v), i = CARD_SLOT_POS(v);

	if (g < 1 || g > MAX_GEN)
		fail_msg("slot s%d.%d beyond the test's table", g, i);
	return t->card[g][i];
}

static int reveal_from_table(void *ctx, enum side side, int slot)
{
	struct slot_table *t = ctx;

	(void)side;
	t->reveals++;
	return table_card(t, slot);
}

/* A card value compared with the host's: a slot stands for its card. */
static void same_card(const struct slot_table *t, int peer, int host,
		      const char *where, int i, long step)
{
	int v = CARD_IS_SLOT(peer) ? table_card(t, peer) : peer;

	if (v != host)
		fail_msg("step %ld: %s[%d] is %d (%s), the host has %d", step, where,
			 i, v, CARD_IS_SLOT(peer) ? "a slot" : "a number", host);
}

static void same_cards(const struct slot_table *t, const int *peer, int np,
		       const int *host, int nh, const char *where, long step)
{
	if (np != nh)
		fail_msg("step %ld: %s holds %d cards, the host's %d", step, where, np, nh);
	for (int i = 0; i < np; i++)
		same_card(t, peer[i], host[i], where, i, step);
}

/*
 * The host's shuffles of the last action, redone by the test from their
 * recorded lists and first draws: the deck order each gave, which fills
 * the slots of the peer's generations; the peer's recorded lists must be
 * the host's, slot for card.
 */
static uint64_t learn_shuffles(struct slot_table *t, const struct state *hs,
			       const struct state *ps, const struct rng *hr,
			       int gen_before, long step)
{
	uint64_t used = 0;

	assert_int_equal(ps->n_shuffles, hs->n_shuffles);
	assert_int_equal(ps->peer.generation, gen_before + ps->n_shuffles);
	for (int k = 0; k < hs->n_shuffles; k++) {
		const struct state_shuffle *h = &hs->shuffles[k], *p = &ps->shuffles[k];
		int g = gen_before + k + 1, items[DATA_MAX_CARDS];

		assert_true(g <= MAX_GEN);
		same_cards(t, p->items, p->n, h->items, h->n, "a shuffle's list", step);
		memcpy(items, h->items, sizeof(int) * (size_t)h->n);
		for (int i = h->n - 1, at = 0; i >= 1; i--, at++) {
			int j = rng_value_at(hr->key, h->first + (uint64_t)at, i + 1);
			int x = items[i];
			items[i] = items[j];
			items[j] = x;
		}
		for (int i = 0; i < h->n; i++)
			t->card[g][i] = items[i];
		used += (uint64_t)h->n - 1;
	}
	return used;
}

/* The public YAML of a peer state as host mode writes it (no peer:). */
static void public_text(const struct state *s, uint64_t draws, struct strbuf *out)
{
	struct state c = *s;

	c.peer.on = false;
	c.draws = draws;
	strbuf_reset(out);
	state_write_public(&c, D, NULL, out);
}

/* The mover's view: the deciding side's slots replaced by their cards. */
static void mover_view(const struct slot_table *t, const struct state *ps,
		       struct state *v)
{
	enum side side = ps->prompt.side;

	*v = *ps;
	for (int i = 0; i < v->n_hand[side]; i++)
		if (CARD_IS_SLOT(v->hand[side][i]))
			v->hand[side][i] = table_card(t, v->hand[side][i]);
}

/* The replay's view: the card the action names substituted for its slot
 * in the deciding side's hand (the share of the commit opens it). */
static void replay_view(const struct slot_table *t, struct state *ps,
			const struct action *a)
{
	enum side side = ps->prompt.side;

	if (!a->card || side == SIDE_NONE)
		return;
	for (int i = 0; i < ps->n_hand[side]; i++)
		if (CARD_IS_SLOT(ps->hand[side][i]) &&
		    table_card(t, ps->hand[side][i]) == a->card)
			ps->hand[side][i] = a->card;
}

/* state.yaml of a peer state, read back and written again: the same bytes,
 * the same cards. */
static void round_trip(const struct state *ps, long step)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;
	struct state back;

	state_write_public(ps, D, NULL, &a);
	if (state_read(&back, D, a.buf, a.len, NULL, 0, &err) < 0)
		fail_msg("step %ld: a peer state.yaml is refused:\n%s\n%s", step, err.buf, a.buf);
	state_write_public(&back, D, NULL, &b);
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(back.n_deck, ps->n_deck);
	assert_memory_equal(back.deck, ps->deck, sizeof(int) * (size_t)ps->n_deck);
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		assert_memory_equal(back.hand[side], ps->hand[side],
				    sizeof(int) * (size_t)ps->n_hand[side]);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
}

struct totals {
	long actions, shuffles, reveals, games, missing_draws;
};

/* The listed legal actions of the mover's view are the host's. */
static void same_legal(const struct slot_table *t, const struct state *hs,
		       const struct state *ps, const struct action *hacts, int n,
		       long step)
{
	static struct action pacts[512];
	struct state v;
	int m;

	mover_view(t, ps, &v);
	m = engine_legal(D, &v, pacts, (int)ARRAY_SIZE(pacts));
	if (m != engine_legal(D, hs, NULL, 0))
		fail_msg("step %ld: the mover's view lists %d actions, the host %d", step, m, n);
	if (memcmp(pacts, hacts, sizeof(*pacts) * (size_t)(n < m ? n : m)))
		fail_msg("step %ld: the mover's view lists other actions", step);
}

/* After an action: the peer state against the host's. */
static void compare(const struct slot_table *t, const struct state *hs,
		    const struct state *ps, struct strbuf *htext,
		    struct strbuf *ptext, long step)
{
	strbuf_reset(htext);
	state_write_public(hs, D, NULL, htext);
	public_text(ps, hs->draws, ptext);
	if (strcmp(htext->buf, ptext->buf))
		fail_msg("step %ld: the public states differ:\n--- host\n%s\n--- peer\n%s",
			 step, htext->buf, ptext->buf);
	same_cards(t, ps->deck, ps->n_deck, hs->deck, hs->n_deck, "the deck", step);
	for (enum side side = SIDE_AMERICAN; side <= SIDE_BRITISH; side++)
		same_cards(t, ps->hand[side], ps->n_hand[side], hs->hand[side],
			   hs->n_hand[side], side_name(side), step);
	if (ps->peer.generation)
		for (int i = 0; i < ps->n_deck; i++)
			assert_int_equal(ps->deck[i], CARD_SLOT(ps->peer.generation,
							     ps->peer.deck_top + i));
}

static int reveal_nothing(void *ctx, enum side side, int slot)
{
	(void)ctx;
	(void)side;
	(void)slot;
	return 0;
}

/*
 * Applies a to a copy of ps with the key taken away (or, with no_card,
 * with the key but no slot known); the copy is thrown away. Whether the
 * stream said something was missing.
 */
static bool try_without(const struct state *ps, const struct action *a,
			struct rng *pr, struct rng_peer *pp, bool no_card)
{
	static struct state c;
	struct strbuf log = STRBUF_INIT, why = STRBUF_INIT;
	uint64_t next = pr->next;
	struct slot_table *t = pp->ctx;
	long reveals = t->reveals;

	c = *ps;
	pp->have_key = no_card;
	pp->reveal = no_card ? reveal_nothing : reveal_from_table;
	pp->missing = false;
	if (engine_apply(D, &c, a, pr, &log, &why) != ENGINE_OK)
		fail_msg("an action refused without %s: %s", no_card ? "the cards" : "the key", why.buf);
	pr->next = next;
	t->reveals = reveals;
	strbuf_release(&log);
	strbuf_release(&why);
	return pp->missing;
}

/* One game in both modes, compared after every action. */
static void differential_game(unsigned char game, struct totals *tot)
{
	static struct action acts[512];
	static struct slot_table table;
	struct state hs, ps;
	struct rng hr, pr, pick;
	struct rng_peer pp = { 0 };
	struct strbuf hlog = STRBUF_INIT, plog = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf htext = STRBUF_INIT, ptext = STRBUF_INIT, mlog = STRBUF_INIT;
	long step;

	memset(&table, 0, sizeof(table));
	rng_fixed(&hr, (unsigned char)(40 + game));
	rng_fixed(&pick, (unsigned char)(140 + game));
	engine_new_game(D, &hs, &hr, &hlog);
	ps = hs;		/* the set-up draws nothing and deals nothing */
	ps.peer.on = true;
	rng_init_keyless(&pr, 0);
	pp.reveal = reveal_from_table;
	pp.ctx = &table;
	pr.peer = &pp;
	round_trip(&ps, 0);
	for (step = 1; !engine_game_over(&hs) && step < MAX_ACTIONS; step++) {
		int n = engine_legal(D, &hs, acts, (int)ARRAY_SIZE(acts));
		int gen = ps.peer.generation;
		uint64_t h0 = hr.next, shuffled;
		long reveals = table.reveals;

		assert_true(n > 0);
		if (n > (int)ARRAY_SIZE(acts))
			n = (int)ARRAY_SIZE(acts);
		same_legal(&table, &hs, &ps, acts, n, step);
		struct action a = acts[rng_uniform(&pick, n, NULL)];
		if (a.kind == ACT_RESIGN)
			a = acts[0];

		strbuf_reset(&hlog);
		strbuf_reset(&why);
		engine_begin_order(&hs);
		if (engine_apply(D, &hs, &a, &hr, &hlog, &why) != ENGINE_OK)
			fail_msg("step %ld: the host refuses a listed action: %s", step, why.buf);
		hs.draws = hr.next;

		/* the request's key, and the draw number the host's stream
		 * was at: the host's dice */
		memcpy(pp.key, hr.key, sizeof(pp.key));
		pp.have_key = true;
		pp.missing = false;
		pr.next = h0;
		strbuf_reset(&plog);
		strbuf_reset(&why);
		/* the mover's copy: his whole hand known */
		static struct state mv;
		mover_view(&table, &ps, &mv);
		engine_begin_order(&mv);
		pp.have_key = true;
		pp.reveal = reveal_from_table;
		pp.missing = false;
		long reveals_mv = table.reveals;
		if (engine_apply(D, &mv, &a, &pr, &plog, &why) != ENGINE_OK || pp.missing)
			fail_msg("step %ld: the mover's view refuses the host's action: %s", step, why.buf);
		mv.draws = pr.next;
		table.reveals = reveals_mv;
		strbuf_reset(&mlog);
		strbuf_addbuf(&mlog, &plog);
		strbuf_reset(&plog);
		pr.next = h0;
		/* the other's copy, replaying: the named card opened by its share */
		replay_view(&table, &ps, &a);
		engine_begin_order(&ps);
		/* as the order layer does: the action on a copy without the
		 * key, and on one that cannot know the slots; either marks
		 * the action missing exactly when it needed what was not there */
		bool no_key = try_without(&ps, &a, &pr, &pp, false);
		bool no_card = try_without(&ps, &a, &pr, &pp, true);
		pp.have_key = true;
		pp.reveal = reveal_from_table;
		pp.missing = false;
		pr.next = h0;
		if (engine_apply(D, &ps, &a, &pr, &plog, &why) != ENGINE_OK)
			fail_msg("step %ld: the peer view refuses the host's action: %s", step, why.buf);
		if (pp.missing)
			fail_msg("step %ld: a draw or a card was missing with the key and every slot known", step);
		ps.draws = pr.next;

		shuffled = learn_shuffles(&table, &hs, &ps, &hr, gen, step);
		/* host shuffles draw from the counter, the peer's do not */
		assert_true(hs.draws - h0 == (ps.draws - h0) + shuffled);
		if (no_key != (ps.draws > h0))
			fail_msg("step %ld: %d public draws, but missing is %s without the key",
				 step, (int)(ps.draws - h0), no_key ? "set" : "not set");
		if (no_card != (table.reveals > reveals))
			fail_msg("step %ld: %ld cards revealed, but missing is %s without them",
				 step, table.reveals - reveals, no_card ? "set" : "not set");
		tot->missing_draws += no_key;
		if (strcmp(hlog.buf, plog.buf))
			fail_msg("step %ld: the logs differ:\n--- host\n%s\n--- peer\n%s",
				 step, hlog.buf, plog.buf);
		compare(&table, &hs, &ps, &htext, &ptext, step);
		/* the mover's copy and the other's agree, byte for byte */
		if (strcmp(mlog.buf, plog.buf))
			fail_msg("step %ld: the mover's log differs from the replay's", step);
		assert_int_equal(mv.draws, ps.draws);
		strbuf_reset(&htext);
		public_text(&mv, mv.draws, &htext);
		public_text(&ps, ps.draws, &ptext);
		assert_string_equal(htext.buf, ptext.buf);
		same_cards(&table, mv.deck, mv.n_deck, hs.deck, hs.n_deck, "the mover's deck", step);
		if (engine_invariants(D, &ps, &why))
			fail_msg("step %ld: the peer state breaks an invariant:\n%s", step, why.buf);
		if (!engine_game_over(&ps)) {
			struct state v;
			mover_view(&table, &ps, &v);
			if (engine_invariants(D, &v, &why))
				fail_msg("step %ld: the mover's view breaks an invariant:\n%s", step, why.buf);
		}
		round_trip(&ps, step);
		tot->shuffles += ps.n_shuffles;
		tot->reveals += table.reveals - reveals;
		tot->actions++;
	}
	assert_true(engine_game_over(&hs));
	assert_true(engine_game_over(&ps));
	tot->games++;
	strbuf_release(&hlog);
	strbuf_release(&plog);
	strbuf_release(&why);
	strbuf_release(&htext);
	strbuf_release(&ptext);
	strbuf_release(&mlog);
}

static void test_differential_games(void **state)
{
	struct totals tot = { 0 };

	(void)state;
	for (unsigned char g = 0; g < VIEW_GAMES; g++)
		differential_game(g, &tot);
	print_message("views: %ld games, %ld actions (%ld with public draws), %ld shuffles, "
		      "%ld cards revealed at random\n", tot.games, tot.actions,
		      tot.missing_draws, tot.shuffles, tot.reveals);
	assert_int_equal(tot.games, VIEW_GAMES);
	/* the comparison went through shuffles of the game, not set-up alone */
	assert_true(tot.shuffles >= VIEW_GAMES);
	/* and through cards taken at random from a hand of slots (6.31) */
	assert_true(tot.reveals > 0);
}

/* A die and a uniform draw of a peer stream: from the request's key at
 * the draw number, or missing without it. */
static void test_peer_draws(void **state)
{
	struct rng_peer pp = { 0 };
	struct strbuf log = STRBUF_INIT;

	(void)state;
	rng_init_keyless(&R, 40);
	R.peer = &pp;
	R.log = &log;
	assert_int_equal(rng_die(&R, "a battle"), 1);
	assert_true(pp.missing);
	assert_int_equal(R.next, 41);
	pp.missing = false;
	assert_int_equal(rng_uniform(&R, 7, "a card"), 0);
	assert_true(pp.missing);
	assert_string_equal(log.buf, "draw 40: d6 -> missing (a battle)\n"
			    "draw 41: uniform(7) -> missing (a card)\n");

	for (int i = 0; i < 32; i++)
		pp.key[i] = (unsigned char)(0xa0 ^ i);
	pp.have_key = true;
	pp.missing = false;
	for (uint64_t n = 42; n < 300; n++) {
		int v = n % 2 ? rng_die(&R, NULL) : rng_uniform(&R, 5, NULL);
		assert_int_equal(v, n % 2 ? rng_value_at(pp.key, n, 6) + 1
					  : rng_value_at(pp.key, n, 5));
	}
	assert_false(pp.missing);
	assert_int_equal(R.next, 300);
	R.peer = NULL;
	R.log = NULL;
	strbuf_release(&log);
}

/* A peer game played through its set-up by the peer stream: the deck is
 * generation 1, 14 slots dealt, the American to decide who plays first. */
static void peer_setup(struct state *ps, struct rng_peer *pp)
{
	struct action acts[512];
	struct rng pick;

	memset(pp, 0, sizeof(*pp));
	rng_fixed(&pick, 77);
	rng_init_keyless(&R, 0);
	R.peer = pp;
	strbuf_reset(&LOG);
	engine_new_game(D, ps, &R, &LOG);
	ps->peer.on = true;
	while (ps->prompt.kind == PROMPT_CC || ps->prompt.kind == PROMPT_FTK) {
		int n = engine_legal(D, ps, acts, (int)ARRAY_SIZE(acts));
		struct action a = acts[rng_uniform(&pick, n < 512 ? n : 512, NULL)];
		if (a.kind == ACT_RESIGN)
			a = acts[0];
		engine_begin_order(ps);
		assert_int_equal(engine_apply(D, ps, &a, &R, &LOG, &WHY), ENGINE_OK);
	}
	R.peer = NULL;
	assert_int_equal(ps->peer.generation, 1);
	assert_int_equal(ps->peer.deck_top, 14);
	assert_int_equal(pp->generation, 2);
	assert_int_equal(ps->draws, 0);		/* the shuffle drew nothing */
	assert_int_equal(ps->n_shuffles, 1);	/* its list, for turn 1 */
	assert_int_equal(ps->shuffles[0].n, 108);
	assert_int_equal(ps->hand[SIDE_AMERICAN][0], CARD_SLOT(1, 0));
	assert_int_equal(ps->hand[SIDE_BRITISH][0], CARD_SLOT(1, 1));
	assert_int_equal(ps->deck[0], CARD_SLOT(1, 14));
	assert_int_equal(engine_invariants(D, ps, &WHY), 0);
}

/* A peer state.yaml with every field of peer: reads back and writes the
 * same bytes; a host state has no peer: at all. */
static void test_peer_state_round_trip(void **state)
{
	struct state ps, back;
	struct rng_peer pp;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, err = STRBUF_INIT;
	static const char sealed[] =
		"4d2e0000000000000000000000000000000000000000000000000000000000ff";

	(void)state;
	peer_setup(&ps, &pp);
	/* a discarded event taken in an exchange: a number both know (9.9) */
	ps.hand[SIDE_BRITISH][6] = 46;
	ps.peer.n_waits = 2;
	strcpy(ps.peer.waits[0], "british dice 9f1c0a");
	strcpy(ps.peer.waits[1], "american shares");
	strcpy(ps.peer.pending, "american 17 3");
	strcpy(ps.peer.sealed[SIDE_AMERICAN], sealed);
	state_write_public(&ps, D, NULL, &a);
	assert_non_null(strstr(a.buf, "\npeer:\n  generation: 1\n  deck_top: 14\n  hands:\n"
				   "    american: [s1.0, s1.2, s1.4, s1.6, s1.8, s1.10, s1.12]\n"
				   "    british: [s1.1, s1.3, s1.5, s1.7, s1.9, s1.11, 46]\n"
				   "  waits:\n    - british dice 9f1c0a\n    - american shares\n"
				   "  pending: american 17 3\n  sealed:\n    american: 4d2e"));
	if (state_read(&back, D, a.buf, a.len, NULL, 0, &err) < 0)
		fail_msg("%s", err.buf);
	state_write_public(&back, D, NULL, &b);
	assert_string_equal(a.buf, b.buf);
	assert_true(back.peer.on);
	assert_int_equal(back.peer.n_waits, 2);
	assert_string_equal(back.peer.waits[1], "american shares");
	assert_string_equal(back.peer.pending, "american 17 3");
	assert_string_equal(back.peer.sealed[SIDE_AMERICAN], sealed);
	assert_string_equal(back.peer.sealed[SIDE_BRITISH], "");
	assert_int_equal(back.n_deck, ps.n_deck);
	assert_memory_equal(back.deck, ps.deck, sizeof(int) * (size_t)ps.n_deck);
	assert_memory_equal(back.hand, ps.hand, sizeof(ps.hand));
	/* a peer game seals nothing */
	assert_int_equal(state_read(&back, D, a.buf, a.len, "seq: 0\n", 7, &err), -1);

	/* a host game: no peer:, and read back as a host game */
	strbuf_reset(&a);
	rng_fixed(&R, 1);
	engine_new_game(D, &S, &R, &LOG);
	state_write_public(&S, D, NULL, &a);
	assert_null(strstr(a.buf, "peer:"));
	assert_int_equal(state_read(&back, D, a.buf, a.len, NULL, 0, &err), 0);
	assert_false(back.peer.on);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
}

/* state.yaml with `from` replaced by `to` once: refused, the message
 * naming the line. */
static void refused(const char *text, const char *from, const char *to,
		    const char *message)
{
	struct strbuf t = STRBUF_INIT, err = STRBUF_INIT;
	const char *at = strstr(text, from);
	struct state back;

	if (!at)
		fail_msg("no '%s' in the state", from);
	strbuf_add(&t, text, (size_t)(at - text));
	strbuf_addstr(&t, to);
	strbuf_addstr(&t, at + strlen(from));
	if (state_read(&back, D, t.buf, t.len, NULL, 0, &err) == 0)
		fail_msg("'%s' for '%s' was accepted", to, from);
	if (!strstr(err.buf, message) || !strstr(err.buf, "state.yaml:"))
		fail_msg("'%s' for '%s': the message is '%s', not '%s'", to, from,
			 err.buf, message);
	strbuf_release(&t);
	strbuf_release(&err);
}

/* A corrupt slot, or a hand that does not fit the deck, is a load error. */
static void test_peer_state_refused(void **state)
{
	struct state ps;
	struct rng_peer pp;
	struct strbuf a = STRBUF_INIT;
	static const char *const bad_slots[] = {
		"s0.2", "s1.256", "s01.2", "s1.02", "s1.", "s.2", "s1.2x", "S1.2",
		"s-1.2", "s1.-2", "s1 .2", "s1.2.0", "s99999999999.2", "s",
	};
	static const char neither[] = "is neither a card number nor a slot sG.i";

	(void)state;
	peer_setup(&ps, &pp);
	state_write_public(&ps, D, NULL, &a);
	for (size_t i = 0; i < ARRAY_SIZE(bad_slots); i++)
		refused(a.buf, "s1.2,", strcat(strcpy((char[32]){ 0 }, bad_slots[i]), ","),
			neither);
	/* slots the deck has not dealt: above its top, a generation to come */
	refused(a.buf, "s1.2,", "s1.14,", "is not a card the deck has dealt");
	refused(a.buf, "s1.2,", "s2.0,", "is not a card the deck has dealt");
	refused(a.buf, "s1.2,", "s1.4,", "is twice in the hands");
	refused(a.buf, "s1.1,", "s1.0,", "is twice in the hands");
	refused(a.buf, "s1.2,", "0,", "is out of range");
	refused(a.buf, "s1.2,", "111,", "is out of range");
	refused(a.buf, "s1.2, ", "", "the american hand lists 6 cards, cards.hands says 7");
	refused(a.buf, "deck_top: 14", "deck_top: 256", "is out of range");
	refused(a.buf, "deck_top: 14", "deck_top: 200", "does not fit a generation");
	refused(a.buf, "generation: 1", "generation: 0", "no generation yet");
	refused(a.buf, "waits: []", "waits: [\"a\\tb\"]", "a control character");
	refused(a.buf, "waits: []", "waits: [x, x, x, x, x, x, x, x, x]", "at most 8");
	refused(a.buf, "waits: []", "waits: []\n  sealed: {british: 4d2e}",
		"a commitment is 64 lowercase hex digits");
	refused(a.buf, "waits: []", "waits: []\n  extra: 1", "unknown key 'extra'");
	strbuf_release(&a);
}

/* An order that host mode would let its mover take back stands in a peer
 * game: it was mailed (docs/peer.md 12). */
static void test_peer_no_undo(void **state)
{
	struct state prev, cur, next;
	struct rng_peer pp;

	(void)state;
	peer_setup(&prev, &pp);
	prev.peer.on = false;
	cur = prev;
	cur.seq = prev.seq + 1;
	cur.orders[prev.prompt.side]++;
	cur.react[prev.prompt.side][REACT_EXCHANGE] = REACT_NEVER;
	strbuf_reset(&WHY);
	assert_int_equal(engine_undo(&prev, &cur, &cur, prev.prompt.side, &next, &WHY), 0);
	prev.peer.on = cur.peer.on = true;
	strbuf_reset(&WHY);
	assert_int_equal(engine_undo(&prev, &cur, &cur, prev.prompt.side, &next, &WHY), -1);
	assert_non_null(strstr(WHY.buf, "a peer game has no undo"));
}

/* Outside the engine, what reads a hand by card number is safe with a
 * slot: a report of a hand not yet opened, a card name not in the hand. */
static void test_slots_outside_the_engine(void **state)
{
	struct state ps;
	struct rng_peer pp;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	peer_setup(&ps, &pp);
	ps.hand[SIDE_AMERICAN][1] = 46;
	report_hand(D, &ps, SIDE_AMERICAN, &out);
	assert_non_null(strstr(out.buf, "  a card not yet opened (s1.0)\n  "));
	assert_non_null(strstr(out.buf, "  a card not yet opened (s1.12)\n"));
	assert_non_null(strstr(out.buf, D->cards[46].label));
	/* the suggestions come from the cards the sender can see */
	assert_int_equal(order_find_card(D, &ps, SIDE_AMERICAN, "no such title at all", &err), -1);
	assert_non_null(strstr(err.buf, "unknown card"));
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer_draws),
		cmocka_unit_test(test_peer_state_round_trip),
		cmocka_unit_test(test_peer_state_refused),
		cmocka_unit_test(test_peer_no_undo),
		cmocka_unit_test(test_slots_outside_the_engine),
		cmocka_unit_test(test_differential_games),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
