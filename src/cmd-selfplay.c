/*
 * cmd-selfplay.c - `postrider selfplay`: complete games between two
 * players who choose uniformly among the legal actions, through the same
 * engine and enumeration the players use, checking the invariants after
 * every action.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "engine/engine.h"
#include "state-yaml.h"
#include "game.h"
#include "oracle.h"
#include "order.h"
#include "rng.h"

#define MAX_ACTIONS_PER_GAME 20000

struct totals {
	long games, actions, wins[3], ends[END__COUNT];
};

/* The seed of game i of a run: SHA-free, a simple spread of S and i into
 * 32 bytes (the stream itself does the mixing). */
static void game_seed(unsigned long long s, long i, unsigned char seed[32])
{
	memset(seed, 0, 32);
	for (int k = 0; k < 8; k++) {
		seed[k] = (unsigned char)(s >> (8 * k));
		seed[8 + k] = (unsigned char)((unsigned long long)i >> (8 * k));
	}
	seed[31] = 0x5e;
}

/* Whether two actions are the same decision. */
static bool same_action(const struct action *a, const struct action *b)
{
	return a->kind == b->kind && a->card == b->card && a->space == b->space &&
	       a->general == b->general && a->side == b->side &&
	       a->reaction == b->reaction && a->value == b->value &&
	       a->french == b->french;
}

/*
 * --round-trip: the state written, read and written again is the same
 * bytes, public and private; and every action given (one in `all`, or all
 * of acts[0..n-1]) formatted as an order and parsed back is the same
 * action. 0, or -1 with the difference in why.
 */
static int round_trips(const struct data *d, const struct state *st,
		       const struct action *acts, int n, struct strbuf *why)
{
	struct strbuf pub = STRBUF_INIT, priv = STRBUF_INIT, pub2 = STRBUF_INIT,
		      priv2 = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;
	static struct state back;
	int ret = 0;

	state_write_public(st, d, NULL, &pub);
	state_write_private(st, d, &priv);
	if (state_read(&back, d, pub.buf, pub.len, priv.buf, priv.len, &err) < 0) {
		strbuf_addf(why, "the state written does not read back:\n%s", err.buf);
		ret = -1;
		goto out;
	}
	state_write_public(&back, d, NULL, &pub2);
	state_write_private(&back, d, &priv2);
	if (strcmp(pub.buf, pub2.buf) || strcmp(priv.buf, priv2.buf)) {
		strbuf_addf(why, "the state written, read and written again differs (%s part)\n",
			    strcmp(pub.buf, pub2.buf) ? "public" : "private");
		ret = -1;
		goto out;
	}
	for (int i = 0; i < n && !ret; i++) {
		struct action b;
		int column;
		if (acts[i].kind == ACT_REACT || acts[i].kind == ACT_RESIGN)
			continue;
		strbuf_reset(&text);
		strbuf_reset(&err);
		action_format(d, &acts[i], &text);
		if (order_parse_line(d, st, st->prompt.side, text.buf, &b, &err, &column) < 0) {
			strbuf_addf(why, "the legal action '%s' does not parse back: %s\n", text.buf, err.buf);
			ret = -1;
		} else if (!same_action(&acts[i], &b)) {
			strbuf_addf(why, "the legal action '%s' parses back as another action\n", text.buf);
			ret = -1;
		}
	}
out:
	strbuf_release(&pub);
	strbuf_release(&priv);
	strbuf_release(&pub2);
	strbuf_release(&priv2);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/* Plays one game; returns 0, or -1 after printing a violation with the
 * path of actions that reproduces it. */
static int play_one(const struct data *d, unsigned long long s, long i,
		    FILE *logf, bool trips, struct totals *t)
{
	unsigned char seed[32], pick_seed[32];
	struct rng r, pick;
	struct state st;
	struct strbuf log = STRBUF_INIT, why = STRBUF_INIT, path = STRBUF_INIT;
	struct action acts[512];
	long n_actions = 0;
	int ret = 0;

	game_seed(s, i, seed);
	memcpy(pick_seed, seed, 32);
	pick_seed[31] = 0xc4;		/* the players' choices: another stream */
	rng_init(&r, seed, 0);
	rng_init(&pick, pick_seed, 0);
	r.log = &log;
	engine_new_game(d, &st, &r, &log);
	while (!engine_game_over(&st)) {
		int n = engine_legal(d, &st, acts, (int)ARRAY_SIZE(acts));
		if (n == 0) {
			error("game %ld: dead end at prompt '%s'",
			      i, prompt_kind_name(st.prompt.kind));
			ret = -1;
			break;
		}
		if (n > (int)ARRAY_SIZE(acts))
			n = (int)ARRAY_SIZE(acts);
		/* every legal action every 16th step, else the one chosen */
		int k = rng_uniform(&pick, n, NULL);
		if (trips && round_trips(d, &st, n_actions % 16 ? &acts[k] : acts,
					 n_actions % 16 ? 1 : n, &why) < 0) {
			error("game %ld: round trip: %s", i, why.buf);
			ret = -1;
			break;
		}
		struct action a = acts[k];
		action_format(d, &a, &path);
		strbuf_addf(&path, "   # %s\n", side_name(st.prompt.side));
		strbuf_reset(&why);
		engine_begin_order(&st);	/* each action is an order */
		if (engine_apply(d, &st, &a, &r, &log, &why) != ENGINE_OK) {
			error("game %ld: a listed action was refused: %s", i, why.buf);
			ret = -1;
			break;
		}
		st.draws = r.next;
		n_actions++;
		if (engine_invariants(d, &st, &why)) {
			error("game %ld: invariant broken:\n%s", i, why.buf);
			ret = -1;
			break;
		}
		if (n_actions > MAX_ACTIONS_PER_GAME) {
			error("game %ld: no end after %d actions", i, MAX_ACTIONS_PER_GAME);
			ret = -1;
			break;
		}
	}
	if (ret < 0)
		fprintf(stderr, "reproduce with: postrider selfplay --seed %llu --first %ld --games 1\n"
			"actions:\n%s", s, i, path.buf);
	if (logf) {
		fprintf(logf, "=== game %ld (seed %llu) ===\n%s", i, s, log.buf);
		fflush(logf);
	}
	t->games++;
	t->actions += n_actions;
	if (!ret) {
		t->wins[st.winner]++;
		t->ends[st.end]++;
		printf("game %ld: %s win (%s) in %d after %ld actions\n", i,
		       side_title(st.winner), game_end_name(st.end), st.year, n_actions);
	}
	strbuf_release(&log);
	strbuf_release(&why);
	strbuf_release(&path);
	return ret;
}

/* --oracle: the differential test of oracle.h. */
static int run_oracle(const struct data *d, unsigned long long seed, long first, long games)
{
	struct oracle_stats st = { 0 };
	struct strbuf report = STRBUF_INIT;

	oracle_run(d, seed, first, games, 3, &st, &report);
	fputs(report.buf, stdout);
	printf("oracle: games %ld, positions %ld, orders %ld (%ld rejected in both worlds, "
	       "%ld reaching a draw or the other side), check %ld, questions %ld; "
	       "replies that differ: %ld\n",
	       st.games, st.positions, st.orders, st.rejected, st.bound, st.checked,
	       st.questions, st.differ);
	strbuf_release(&report);
	return st.differ ? EXIT_REJECTED : 0;
}

static int exec_selfplay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "games", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "first", required_argument, NULL, 'f' },
		{ "log", required_argument, NULL, 'l' },
		{ "data", required_argument, NULL, 'd' },
		{ "round-trip", no_argument, NULL, 'r' },
		{ "oracle", no_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	long games = 10, first = 0;
	bool trips = false, oracle = false;
	unsigned long long seed = 1;
	const char *log_path = NULL, *data_opt = NULL;
	struct strbuf errs = STRBUF_INIT;
	struct totals t = { 0 };
	struct data *d;
	FILE *logf = NULL;
	char *dir;
	int c, ret = 0;
	struct timespec t0, t1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': games = strtol(optarg, NULL, 10); break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		case 'f': first = strtol(optarg, NULL, 10); break;
		case 'l': log_path = optarg; break;
		case 'd': data_opt = optarg; break;
		case 'r': trips = true; break;
		case 'o': oracle = true; break;
		default: return cmd_usage(&cmd_selfplay_entry);
		}
	}
	if (optind != argc || games < 1 || first < 0)
		return cmd_usage(&cmd_selfplay_entry);
	dir = game_data_dir(data_opt, "washingtons-war");
	d = data_load(dir, &errs);
	free(dir);
	if (!d) {
		fprintf(stderr, "%s", errs.buf);
		strbuf_release(&errs);
		return EXIT_REJECTED;
	}
	if (log_path && !(logf = fopen(log_path, "w"))) {
		perror(log_path);
		data_free(d);
		return EXIT_TEMPFAIL;
	}
	if (oracle) {
		ret = run_oracle(d, seed, first, games);
		data_free(d);
		strbuf_release(&errs);
		return ret;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = first; i < first + games; i++)
		if (play_one(d, seed, i, logf, trips, &t) < 0) {
			ret = EXIT_REJECTED;
			break;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("games %ld, actions %ld, American wins %ld, British wins %ld; "
	       "ended by: automatic %ld, War Ends card %ld, end of 1783 %ld; %.1f games/s\n",
	       t.games, t.actions, t.wins[SIDE_AMERICAN], t.wins[SIDE_BRITISH],
	       t.ends[END_AUTO_AMERICAN] + t.ends[END_AUTO_BRITISH],
	       t.ends[END_WAR_ENDS], t.ends[END_1783], secs > 0 ? (double)t.games / secs : 0.0);
	if (logf)
		fclose(logf);
	data_free(d);
	strbuf_release(&errs);
	return ret;
}

const struct cmd_entry cmd_selfplay_entry = {
	"selfplay", "selfplay [--games N] [--seed S] [--first I] [--log FILE] [--data DIR] [--round-trip | --oracle]",
	"play random complete games and check the invariants after every action",
	"  --games N   how many games (default 10)\n"
	"  --seed S    the run's seed; game I uses a stream derived from S and I\n"
	"  --first I   the number of the first game (to reproduce one)\n"
	"  --log FILE  write every game's full log\n"
	"  --round-trip  also check after every action that the state written,\n"
	"              read and written again is the same bytes, and that the\n"
	"              actions (all legal ones every 16th step) formatted as\n"
	"              orders parse back as the same actions\n"
	"  --oracle    instead, the differential test of docs/fairness.md \"No\n"
	"              oracle\": random orders decided against two worlds that\n"
	"              differ only in what the sender may not know (dice, the\n"
	"              other hand, sealed orders); every reply must be the same\n",
	exec_selfplay,
};
