/*
 * oracle.c - the differential test of "no reply depends on a draw before
 * it counts" (oracle.h).
 */
#include "oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "game.h"
#include "play.h"
#include "query.h"
#include "rng.h"

#define MAX_ACTIONS_PER_GAME 20000
#define MAX_REPORTED 5

/* The seeds of game i: the world's two (A and B) and the players' choices. */
static void seeds(unsigned long long s, long i, unsigned char out[3][32])
{
	for (int w = 0; w < 3; w++) {
		memset(out[w], 0, 32);
		for (int k = 0; k < 8; k++) {
			out[w][k] = (unsigned char)(s >> (8 * k));
			out[w][8 + k] = (unsigned char)((unsigned long long)i >> (8 * k));
		}
		out[w][31] = (unsigned char)(0xa0 + w);
	}
}

/* A game in memory for state s and seed: what play_decide() reads. */
static void world(const struct data *d, const struct state *s,
		  const unsigned char seed[32], struct game *g)
{
	/* a game of the mind: nothing here is freed, nor written to */
	static char id[] = "ww-0rac1e";
	static char names[3][16] = { "Referee", "Abigail", "Banastre" };
	static char addrs[3][32] = {
		"ref@example.org", "abigail@example.org", "banastre@example.org"
	};

	memset(g, 0, sizeof(*g));
	g->data = d;
	g->id = id;
	for (int k = 0; k < 3; k++)
		g->player[k] = (struct game_player){ names[k], addrs[k], MAIL_EVERY };
	memcpy(g->seed, seed, 32);
	g->have_seed = true;
	g->fairness = GAME_FAIRNESS_MAX;
	g->state = *s;
	g->have_private = true;
}

/*
 * The other world: what side k may not know made different. The other
 * side's hand trades cards with the deck (the counts stay), the deck is
 * in another order, his sealed standing orders are others and his
 * held-over lines (as many) say other things.
 */
static void other_world(const struct data *d, struct state *s, enum side k,
			struct rng *pick)
{
	enum side o = OTHER_SIDE(k);

	for (int i = 0; i < s->n_hand[o] && s->n_deck; i++)
		if (rng_uniform(pick, 2, NULL)) {
			int j = rng_uniform(pick, s->n_deck, NULL), c = s->hand[o][i];
			s->hand[o][i] = s->deck[j];
			s->deck[j] = c;
		}
	rng_shuffle(pick, s->deck, s->n_deck, NULL);
	static const char *const any[] = { "", "if battle: none always" };
	static const char *const american[] = { "if attacked: stand always",
						"if battle: none\nif attacked: stand" };
	int w = rng_uniform(pick, 4, NULL);
	const char *st = w < 2 ? any[w] : o == SIDE_AMERICAN ? american[w - 2] : any[1];
	snprintf(s->standing[o], sizeof(s->standing[o]), "%s", st);
	if (s->held[o][0]) {
		char *p = s->held[o];
		int lines = 1;
		for (const char *q = p; *q; q++)
			lines += *q == '\n';
		p[0] = '\0';
		for (int l = 0; l < lines; l++)
			snprintf(p + strlen(p), STATE_HELD_MAX - strlen(p), "%s%s", l ? "\n" : "",
				 rng_uniform(pick, 2, NULL) ? "stop" : "pass");
	}
	(void)d;
}

/* The world's own sealed things, before the other world is made: the
 * side that moved last may have held-over lines when the side to decide
 * answers his interruption (self-play never writes any). */
static void seal_some(struct state *s, struct rng *pick)
{
	enum side o = OTHER_SIDE(s->prompt.side);

	if (!engine_prompt_interrupts(s) || rng_uniform(pick, 2, NULL))
		return;
	snprintf(s->held[o], STATE_HELD_MAX, "%s", rng_uniform(pick, 2, NULL) ? "stop" : "stop\npass");
}

/* A line no state makes right, or one that may be wrong only now. */
static void bad_line(const struct data *d, const struct state *s, struct rng *pick,
		     struct strbuf *out)
{
	static const char *const fixed[] = {
		"frobnicate", "place Atlantis", "pc 999", "resign", "to", "take many",
		"pass", "done", "stop", "retreat Boston", "battle 98", "place Boston",
		"intercept Greene", "first british", "never fly", "if battle: dance",
	};
	int k = rng_uniform(pick, (int)ARRAY_SIZE(fixed) + 2, NULL);

	if (k < (int)ARRAY_SIZE(fixed)) {
		strbuf_addstr(out, fixed[k]);
	} else if (k == (int)ARRAY_SIZE(fixed)) {
		/* a verb with a random space */
		static const char *const verbs[] = { "to", "place", "flip", "retreat", "land" };
		strbuf_addf(out, "%s %s", verbs[rng_uniform(pick, 5, NULL)],
			    d->spaces[rng_uniform(pick, d->n_spaces, NULL)].full_name);
	} else {
		/* a card of the sender's own hand, as an event */
		enum side side = s->prompt.side;
		if (s->n_hand[side])
			strbuf_addf(out, "event %d", s->hand[side][rng_uniform(pick, s->n_hand[side], NULL)]);
		else
			strbuf_addstr(out, "event 1");
	}
	strbuf_addch(out, '\n');
}

/*
 * A random order of the side to decide: up to four legal lines (each
 * legal when it comes, in a world of its own dice), then maybe a bad one.
 * Returns whether a bad line ends it.
 */
static bool random_order(const struct data *d, const struct state *s,
			 struct rng *pick, struct strbuf *out)
{
	struct state t = *s;
	struct strbuf log = STRBUF_INIT, why = STRBUF_INIT;
	unsigned char scratch[32] = { 0x5c };
	struct rng r;
	enum side k = s->prompt.side;
	int n = rng_uniform(pick, 5, NULL);
	bool bad = rng_uniform(pick, 4, NULL) != 0;

	scratch[1] = (unsigned char)rng_uniform(pick, 256, NULL);
	rng_init(&r, scratch, t.draws);
	engine_begin_order(&t);
	for (int i = 0; i < n && !engine_game_over(&t) && t.prompt.side == k; i++) {
		struct action acts[256];
		int m = engine_legal(d, &t, acts, (int)ARRAY_SIZE(acts));
		if (m <= 0)
			break;
		if (m > (int)ARRAY_SIZE(acts))
			m = (int)ARRAY_SIZE(acts);
		struct action a = acts[rng_uniform(pick, m, NULL)];
		if (a.kind == ACT_RESIGN)
			break;
		strbuf_reset(&why);
		if (t.n_shuffles >= STATE_MAX_SHUFFLES - 1 ||
		    engine_apply(d, &t, &a, &r, &log, &why) != ENGINE_OK)
			break;
		action_format(d, &a, out);
		strbuf_addch(out, '\n');
	}
	if (bad || !out->len)
		bad_line(d, &t, pick, out);
	strbuf_release(&log);
	strbuf_release(&why);
	return bad || !n;
}

/* Appends the first line where a and b differ, for the report. */
static void first_difference(const char *a, const char *b, struct strbuf *out)
{
	int line = 1;

	while (*a && *a == *b) {
		line += *a == '\n';
		a++;
		b++;
	}
	while (*a && a[-1] != '\n' && line > 1)
		a--;
	strbuf_addf(out, "    line %d: '%.*s' / '%.*s'\n", line, (int)strcspn(a, "\n"), a,
		    (int)strcspn(b, "\n"), b);
}

/* Whether two outcomes show the sender the same bytes. */
static bool same_reply(const struct play_outcome *a, const struct play_outcome *b)
{
	if (a->verdict != b->verdict || a->status != b->status || a->n_mail != b->n_mail)
		return false;
	if (a->verdict == PLAY_ACCEPTED && !a->out.len && !b->out.len)
		return true;	/* committed: the sender is bound, his report is his */
	if (strcmp(a->said.buf, b->said.buf) || strcmp(a->out.buf, b->out.buf))
		return false;
	for (int i = 0; i < a->n_mail; i++)
		if (strcmp(a->mail[i].text, b->mail[i].text))
			return false;
	return true;
}

struct probe {
	const struct data *d;
	struct game g[2];
	struct oracle_stats *st;
	struct strbuf *report;
	long game;
	long step;
};

static void note_difference(struct probe *pr, const char *what, const char *order,
			    const char *a, const char *b)
{
	pr->st->differ++;
	if (pr->st->differ > MAX_REPORTED)
		return;
	strbuf_addf(pr->report, "game %ld, step %ld, %s, %s decides:\n", pr->game, pr->step, what,
		    side_title(pr->g[0].state.prompt.side));
	for (const char *p = order; *p;) {
		size_t n = strcspn(p, "\n");
		strbuf_addf(pr->report, "  | %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	first_difference(a, b, pr->report);
	if (getenv("POSTRIDER_ORACLE_FULL"))
		strbuf_addf(pr->report, "--- world a:\n%s\n--- world b:\n%s\n", a, b);
}

/* Decides text in both worlds, as play and as check, and compares. */
static void decide_both(struct probe *pr, const char *text)
{
	enum side k = pr->g[0].state.prompt.side;

	for (int check = 0; check < 2; check++) {
		struct play_outcome out[2];
		struct play_request rq = { .input = text, .len = strlen(text), .as = (int)k,
					   .check = check };
		for (int w = 0; w < 2; w++) {
			struct game g = pr->g[w];
			play_outcome_init(&out[w]);
			play_decide(&g, &rq, &out[w]);
		}
		pr->st->orders += !check;
		pr->st->checked += check;
		if (!check && out[0].verdict == PLAY_REJECTED && out[1].verdict == PLAY_REJECTED)
			pr->st->rejected++;
		if (!check && out[0].verdict == PLAY_ACCEPTED &&
		    (out[0].next.draws != pr->g[0].state.draws ||
		     out[0].next.prompt.side != k))
			pr->st->bound++;
		if (!same_reply(&out[0], &out[1])) {
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
			for (int w = 0; w < 2; w++) {
				struct strbuf *x = w ? &b : &a;
				strbuf_addf(x, "verdict %d status %d\n%s\n%s", out[w].verdict,
					    out[w].status, out[w].said.buf, out[w].out.buf);
				for (int i = 0; i < out[w].n_mail; i++)
					strbuf_addf(x, "\n%s", out[w].mail[i].text);
			}
			note_difference(pr, check ? "check" : "play", text, a.buf, b.buf);
			strbuf_release(&a);
			strbuf_release(&b);
		}
		play_outcome_release(&out[0]);
		play_outcome_release(&out[1]);
	}
}

/* Every question of the side to decide, in both worlds. */
static void ask_both(struct probe *pr)
{
	enum side k = pr->g[0].state.prompt.side;

	for (int q = QUERY_NONE + 1; q < QUERY__COUNT; q++) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		/* each question as a player writes it (a space where it
		 * takes one) */
		char *text = xstrfmt("%s Boston", query_name((enum query)q));
		int n;
		if (query_parse(text, &n) != (enum query)q) {
			free(text);
			text = xstrdup(query_name((enum query)q));
			query_parse(text, &n);
		}
		query_answer(&pr->g[0], k, (enum query)q, n, text, "", &a);
		query_answer(&pr->g[1], k, (enum query)q, n, text, "", &b);
		free(text);
		pr->st->questions++;
		if (strcmp(a.buf, b.buf))
			note_difference(pr, query_name((enum query)q), query_name((enum query)q),
					a.buf, b.buf);
		strbuf_release(&a);
		strbuf_release(&b);
	}
}

/* Probes state s of a game: two worlds, a random order, the questions. */
static void probe(struct probe *pr, const struct state *s, unsigned char seed[3][32],
		  struct rng *pick)
{
	struct state a = *s, b;
	struct strbuf text = STRBUF_INIT;

	seal_some(&a, pick);
	b = a;
	other_world(pr->d, &b, s->prompt.side, pick);
	world(pr->d, &a, seed[0], &pr->g[0]);
	world(pr->d, &b, seed[1], &pr->g[1]);
	random_order(pr->d, &a, pick, &text);
	decide_both(pr, text.buf);
	if (rng_uniform(pick, 8, NULL) == 0)
		ask_both(pr);
	pr->st->positions++;
	strbuf_release(&text);
}

static int play_game(const struct data *d, unsigned long long seed, long i, int every,
		     struct oracle_stats *st, struct strbuf *report)
{
	unsigned char sd[3][32];
	struct rng r, pick;
	struct state s;
	struct strbuf log = STRBUF_INIT, why = STRBUF_INIT;
	struct probe pr = { .d = d, .st = st, .report = report, .game = i };
	struct action acts[512];
	int ret = 0;

	seeds(seed, i, sd);
	rng_init(&r, sd[0], 0);
	rng_init(&pick, sd[2], 0);
	engine_new_game(d, &s, &r, &log);
	for (long step = 0; !engine_game_over(&s) && step < MAX_ACTIONS_PER_GAME; step++) {
		int n = engine_legal(d, &s, acts, (int)ARRAY_SIZE(acts));
		if (n <= 0) {
			ret = -1;
			break;
		}
		if (n > (int)ARRAY_SIZE(acts))
			n = (int)ARRAY_SIZE(acts);
		if (rng_uniform(&pick, every, NULL) == 0) {
			pr.step = step;
			probe(&pr, &s, sd, &pick);
		}
		struct action a = acts[rng_uniform(&pick, n, NULL)];
		if (a.kind == ACT_RESIGN)
			a = acts[0];
		strbuf_reset(&log);
		strbuf_reset(&why);
		engine_begin_order(&s);
		if (engine_apply(d, &s, &a, &r, &log, &why) != ENGINE_OK) {
			strbuf_addf(report, "game %ld: a listed action was refused: %s\n", i, why.buf);
			ret = -1;
			break;
		}
		s.draws = r.next;
	}
	st->games++;
	strbuf_release(&log);
	strbuf_release(&why);
	return ret;
}

long oracle_run(const struct data *d, unsigned long long seed, long first,
		long games, int every, struct oracle_stats *st,
		struct strbuf *report)
{
	if (every < 1)
		every = 1;
	for (long i = first; i < first + games; i++)
		if (play_game(d, seed, i, every, st, report) < 0)
			st->differ++;
	if (st->differ > MAX_REPORTED)
		strbuf_addf(report, "... and %ld more differences\n", st->differ - MAX_REPORTED);
	return st->differ;
}
