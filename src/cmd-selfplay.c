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
#include "game.h"
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

/* Plays one game; returns 0, or -1 after printing a violation with the
 * path of actions that reproduces it. */
static int play_one(const struct data *d, unsigned long long s, long i,
		    FILE *logf, struct totals *t)
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
			fprintf(stderr, "selfplay: game %ld: dead end at prompt '%s'\n",
				i, prompt_kind_name(st.prompt.kind));
			ret = -1;
			break;
		}
		if (n > (int)ARRAY_SIZE(acts))
			n = (int)ARRAY_SIZE(acts);
		struct action a = acts[rng_uniform(&pick, n, NULL)];
		action_format(d, &a, &path);
		strbuf_addf(&path, "   # %s\n", side_name(st.prompt.side));
		strbuf_reset(&why);
		engine_begin_order(&st);	/* each action is an order */
		if (engine_apply(d, &st, &a, &r, &log, &why) != ENGINE_OK) {
			fprintf(stderr, "selfplay: game %ld: a listed action was refused: %s\n", i, why.buf);
			ret = -1;
			break;
		}
		st.draws = r.next;
		n_actions++;
		if (engine_invariants(d, &st, &why)) {
			fprintf(stderr, "selfplay: game %ld: invariant broken after '%.*s':\n%s", i,
				(int)strcspn(path.buf + (path.len > 200 ? 0 : 0), "\n"), "", why.buf);
			ret = -1;
			break;
		}
		if (n_actions > MAX_ACTIONS_PER_GAME) {
			fprintf(stderr, "selfplay: game %ld: no end after %d actions\n", i, MAX_ACTIONS_PER_GAME);
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

static int exec_selfplay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "games", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "first", required_argument, NULL, 'f' },
		{ "log", required_argument, NULL, 'l' },
		{ "data", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	long games = 10, first = 0;
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
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = first; i < first + games; i++)
		if (play_one(d, seed, i, logf, &t) < 0) {
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
	"selfplay", "selfplay [--games N] [--seed S] [--first I] [--log FILE] [--data DIR]",
	"play random complete games and check the invariants after every action",
	"  --games N   how many games (default 10)\n"
	"  --seed S    the run's seed; game I uses a stream derived from S and I\n"
	"  --first I   the number of the first game (to reproduce one)\n"
	"  --log FILE  write every game's full log\n",
	exec_selfplay,
};
