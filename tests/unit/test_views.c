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
 * view of the replay (the named card substituted for its slot); after
 * every action the public state and the log must be the host's byte for
 * byte, every slot must stand for the host's card at its place, the
 * mover's view must list the host's legal actions, and the peer state must
 * hold the invariants and round-trip through state.yaml.
 *
 * Runs from the repository root (it loads games/washingtons-war).
 */
#include "engine_fixture.h"

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
	long actions, shuffles, reveals, games;
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

/* One game in both modes, compared after every action. */
static void differential_game(unsigned char game, struct totals *tot)
{
	static struct action acts[512];
	static struct slot_table table;
	struct state hs, ps;
	struct rng hr, pr, pick;
	struct rng_peer pp = { 0 };
	struct strbuf hlog = STRBUF_INIT, plog = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf htext = STRBUF_INIT, ptext = STRBUF_INIT;
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
		replay_view(&table, &ps, &a);
		engine_begin_order(&ps);
		if (engine_apply(D, &ps, &a, &pr, &plog, &why) != ENGINE_OK)
			fail_msg("step %ld: the peer view refuses the host's action: %s", step, why.buf);
		if (pp.missing)
			fail_msg("step %ld: a draw or a card was missing with the key and every slot known", step);
		ps.draws = pr.next;

		shuffled = learn_shuffles(&table, &hs, &ps, &hr, gen, step);
		/* host shuffles draw from the counter, the peer's do not */
		assert_true(hs.draws - h0 == (ps.draws - h0) + shuffled);
		if (strcmp(hlog.buf, plog.buf))
			fail_msg("step %ld: the logs differ:\n--- host\n%s\n--- peer\n%s",
				 step, hlog.buf, plog.buf);
		compare(&table, &hs, &ps, &htext, &ptext, step);
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
}

static void test_differential_games(void **state)
{
	struct totals tot = { 0 };

	(void)state;
	for (unsigned char g = 0; g < VIEW_GAMES; g++)
		differential_game(g, &tot);
	print_message("views: %ld games, %ld actions, %ld shuffles, %ld cards revealed at random\n",
		      tot.games, tot.actions, tot.shuffles, tot.reveals);
	assert_int_equal(tot.games, VIEW_GAMES);
	/* the comparison went through shuffles of the game, not set-up alone */
	assert_true(tot.shuffles >= VIEW_GAMES);
	/* and through cards taken at random from a hand of slots (6.31) */
	assert_true(tot.reveals > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differential_games),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
