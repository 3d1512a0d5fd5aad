/*
 * game.h - one game repository as the commands see it: game.yaml (who
 * plays, the randomness commitment), the copy of the component data the
 * game was created with, the current state (public and sealed private),
 * and the host's secret seed kept outside the history.
 *
 * Layout of a game repository (docs/repository.md):
 *   game.yaml              identity, players, options, seed commitment
 *   data/NAME.yaml         the component data the game is played with
 *   state.yaml             the public state, canonical
 *   private/state.sealed   deck order and hands, sealed (fair_seal)
 *   orders/NNNN-side.txt   every accepted order, verbatim
 *   log.txt                the running log
 * and, never committed, <gitdir>/postrider/secret (the seed) and
 * <gitdir>/postrider/clock.yaml (the host's clock, clock.h).
 *
 * Ownership: struct game owns everything it points to; game_close()
 * releases it (safe on a zeroed or half-opened game).
 */
#ifndef POSTRIDER_GAME_H
#define POSTRIDER_GAME_H

#include "clock.h"
#include "data.h"
#include "fair.h"
#include "repo.h"
#include "rng.h"
#include "state.h"

#define GAME_FORMAT 1

/*
 * When a player is mailed (players.SIDE.mail in game.yaml; README.md, Mail):
 * every turn's report, or only when he must decide (and at the end);
 * digest is the same without the board's text (the map still comes).
 * The story of each report covers all since his last decision.
 */
enum mail_mode { MAIL_EVERY = 0, MAIL_MY_MOVE, MAIL_DIGEST, MAIL__COUNT };
const char *mail_mode_name(enum mail_mode m);
/* "every", "my-move", "digest": the mode, or -1. */
int mail_mode_parse(const char *s);

struct game_player {
	char *name;
	char *addr;
	enum mail_mode mail;	/* players only; the host's is unused */
};

struct game {
	char *dir;
	struct repo *repo;
	const struct data *data;
	struct data *data_owned;	/* what game_close frees: data, or NULL
					   where the data is borrowed */
	char head[41];			/* the commit the state was read from */

	/* game.yaml */
	char *id;			/* "ww-1a2b3c4d" */
	char *module;			/* "washingtons-war" */
	char *data_hash;
	char *data_name;	/* the data set's name (its folder's), or NULL
				   in a game made before it was recorded */
	int n_data_files;
	char *data_files[DATA_MAX_FILES];
	struct game_player player[3];	/* [0] host, [SIDE_AMERICAN], [SIDE_BRITISH] */
	char commitment[FAIR_COMMIT_HEX];
	char *seed_source;		/* "random" or "given" */
	bool tournament;		/* Optional Tournament Rule (6.34.C.i) */
	bool fixed_dice;		/* some dice were fixed: never a fair game */
	bool revealed;			/* the seed has been published */
	/* mode: peer (docs/peer.md 6.1): no host, no seed; the players'
	 * keys are in game.yaml's peer section (peer.h reads it) */
	bool peer;
	/* a peer copy opened with its player's secret (peer_copy_open()):
	 * the side whose copy it is, and the key of his reply tokens
	 * (docs/peer.md 8.4); SIDE_NONE in host mode. The "host" of a peer
	 * copy, who writes its player's mail, is his own postrider. */
	enum side own;
	unsigned char token_key[32];
	/*
	 * The version of the construction (docs/fairness.md): 1, every draw
	 * from the keyed stream, checked at the reveal; 2, the public draws
	 * from a VRF whose public key is vrf_pk, checked at once; 3, as 2
	 * with each public draw's input naming the order that calls for it
	 * and its place in that order (section 19); 4, as 2 with each
	 * public draw's input its place among the game's public draws
	 * (section 19b). game_proves() is 2, 3 or 4.
	 */
	int fairness;
	unsigned char vrf_pk[33];

	/* the secret */
	bool have_seed;
	unsigned char seed[FAIR_SEED_BYTES];

	/* the state at head */
	struct state state;
	bool have_private;

	/* the host's clock: deadline, time taken, vacations (clock.h) */
	struct game_clock clock;
};

enum game_open_flags {
	GAME_NEED_SECRET = 1,	/* fail without the seed (play, check) */
	GAME_LOCK = 2,		/* take the run lock first (play) */
};

/*
 * Opens the game in dir: locks it if asked (REPO_BUSY is returned as
 * GAME_BUSY), reads game.yaml, the data copy and the state at HEAD, and
 * the secret if it is there (or required; a peer game has no host's
 * secret: g->peer says so, and peer_copy_adopt() reads its player's). Returns 0, GAME_BUSY, or -1
 * with the reason appended to err.
 */
#define GAME_BUSY 3
int game_open(const char *dir, struct game *g, unsigned flags,
	      struct strbuf *err);
void game_close(struct game *g);

/* Whether dir is a game whose game.yaml says mode peer (read as
 * game_open() reads it, nothing else of the game): for a command given
 * either a game or a folder of games (`remind`). */
bool game_dir_is_peer(const char *dir);

/*
 * Reads "Name <addr>" (or a bare address, the name then being the
 * address) into p's name and addr (malloc'd; p's old strings are not
 * freed). Returns 0, or -1 for anything that is not one mail address.
 */
int game_player_parse(const char *text, struct game_player *p);

/*
 * The log line of an address change (postrider player, checked by the
 * audit): "\n-- The host gives the American a new address: NAME <ADDR>
 * (was OLD <OLDADDR>) --\n", for player who (0 the host) of g.
 */
void game_address_change_line(const struct game *g, int who, const char *name,
			      const char *addr, struct strbuf *out);

/* A random stream for the game at its current draw index. */
void game_rng(const struct game *g, struct rng *r);
/* The same for state s (an audit's replay): the stream at s->draws, with
 * s's words mixed in and, in version 2, the VRF key. */
void game_rng_for(const struct game *g, const struct state *s, struct rng *r);
/* The stream of the order of side played on state s (play, the audit's
 * replay): game_rng_for(), and in version 3 the public draws bound to the
 * side's order s->orders[side] (docs/fairness.md section 19), in version 4
 * numbered on from the game's count of public draws, the lines of proofs
 * (section 19b). game_rng_order() reads proofs.txt at g->head (none
 * without a repository: an oracle's world, which has drawn nothing). */
void game_rng_order_after(const struct game *g, const struct state *s, enum side side,
			  const char *proofs, struct rng *r);
void game_rng_order(const struct game *g, const struct state *s, enum side side,
		    struct rng *r);
/* The newest fairness version (game.yaml's fairness.version), the
 * default of a new game. */
#define GAME_FAIRNESS_MAX 4
/* Whether the game keeps VRF proofs of its public draws (version 2 to 4). */
bool game_proves(const struct game *g);

/* The one-time reply token of side for the state at head, and for a given
 * state. A token is valid until that side's next accepted order. Keyed
 * by the host's seed, or in a peer copy by g->token_key. */
void game_token(const struct game *g, enum side side, char out[FAIR_TOKEN_SIZE]);
void game_token_for(const struct game *g, const struct state *s, enum side side,
		    char out[FAIR_TOKEN_SIZE]);

/*
 * Loads g->state (and the private part when the seed is known) as it was
 * committed at `commit` (a full id), replacing what game_open() loaded.
 * Returns 0, or -1 with the reason in err.
 */
int game_load_state(struct game *g, const char *commit, struct strbuf *err);

/*
 * Reads the fields of game.yaml (text, len) into g, which must be zeroed
 * (game_close() frees them). Returns 0, or -1 with the reasons in err.
 */
int game_parse_yaml(struct game *g, const char *text, size_t len,
		    struct strbuf *err);

/* The part of game.yaml both modes share, after the comment line "# "
 * comment: the format, id, data, and the players (up to "players:" and
 * their entries). Appended to out. */
void game_write_identity(const struct game *g, const char *comment,
			 struct strbuf *out);
/* Writes game.yaml from g (host mode; a peer game's is peer_game_yaml()). */
void game_write_yaml(const struct game *g, struct strbuf *out);

/*
 * The files of a commit for state s: state.yaml (with hand commitments),
 * private/state.sealed. Appends them to files (paths and contents owned by
 * the caller's bufs). Needs the seed. Returns 0 or -1 (error printed).
 * The private state is sealed in the current format (fair_seal(), padded);
 * game_state_files_as() seals it in format seal_fmt (FAIR_SEAL_V3 or _V2
 * for the audit of a commit made before the sides' rooms or the padding).
 */
int game_state_files(const struct game *g, const struct state *s,
		     struct strbuf *state_yaml, struct strbuf *sealed);
int game_state_files_as(const struct game *g, const struct state *s,
			int seal_fmt, struct strbuf *state_yaml,
			struct strbuf *sealed);

/* The hand commitment salt of side for state s (mailed to that player). */
void game_hand_salt(const struct game *g, const struct state *s, enum side side,
		    char salt[FAIR_SALT_HEX], char hash[FAIR_HASH_HEX]);

/* The current time: $POSTRIDER_NOW (seconds since the epoch, for tests) or
 * the clock. */
long long game_now(void);

/* Finds the component data folder of a game module: --data, then
 * $POSTRIDER_GAMES/<module>, ./games/<module>, the installed copy. */
char *game_data_dir(const char *override, const char *module);

#endif
