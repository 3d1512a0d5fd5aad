/*
 * data.h - the components of a game (map, generals, cards, set-up, turn
 * track) loaded from the YAML files of games/NAME/.
 *
 * Every fact the rules need comes from here, never from constants in C.
 * Indices are stable for one loaded data set: spaces, colonies, zones,
 * generals in file order; cards by number (cards[n] is card n, cards[0]
 * unused).
 *
 * Ownership: data_load() returns a struct data that owns all its strings;
 * data_free() releases it (NULL is safe). The engine only reads it.
 */
#ifndef POSTRIDER_DATA_H
#define POSTRIDER_DATA_H

#include "effects.h"
#include <stdbool.h>
#include "util.h"

#define DATA_MAX_SPACES 96
#define DATA_MAX_ADJ 12
#define DATA_MAX_COLONIES 16
#define DATA_MAX_ZONES 8
#define DATA_MAX_GENERALS 16
#define DATA_MAX_CARDS 110
#define DATA_MAX_YEARS 12
#define DATA_MAX_SETUP 32
#define DATA_MAX_EFFECTS 8
#define DATA_MAX_ALIASES 4
#define DATA_MAX_CONNECTIONS 160
#define DATA_MAX_FILES 12

enum side { SIDE_NONE = 0, SIDE_AMERICAN = 1, SIDE_BRITISH = 2 };
#define OTHER_SIDE(s) ((s) == SIDE_AMERICAN ? SIDE_BRITISH : SIDE_AMERICAN)

/* Nationality of pieces: French pieces belong to the American side (12.2.C). */
enum nation { NATION_AMERICAN = 0, NATION_BRITISH = 1, NATION_FRENCH = 2 };

enum shape { SHAPE_CIRCLE = 0, SHAPE_SQUARE, SHAPE_STAR };

struct data_source {
	const char *file;	/* file the fact came from (owned by data) */
	int line, column;	/* 1-based position of the record */
	char *source;		/* provenance: "rulebook 12.3" or "unverified" */
};

struct data_colony {
	char *name;		/* "Massachusetts", "Canada" */
	char *code;		/* "MA", ..., "CA" for Canada */
	bool canada;		/* Canada is not one of the thirteen (10.0.B) */
	bool south_of_winter_line; /* NC, SC, GA: south of the VA-NC line (2.1.B) */
	struct data_source src;
};

struct data_zone {
	char *name;		/* "New England" */
	struct data_source src;
};

struct data_adj {
	int to;			/* space index */
	bool wilderness;	/* counts as three spaces moved (7.3.D) */
	int only_general;	/* -1, or the one general who may use it (7.4.D) */
	bool unsourced;		/* no source confirms the connection */
};

struct data_space {
	char *name;		/* "Wilmington" */
	char *full_name;	/* "Wilmington NC"; "Quebec" in Canada: unique */
	int colony;		/* colony index */
	enum shape shape;
	bool port;
	bool fortified;		/* fortified port (2.1.C): the stars */
	bool winter_quarters;	/* squares and stars (2.1.B) */
	int zone;		/* blockade zone index, -1 if not a port */
	bool south_of_winter_line;
	int x, y;		/* drawing position on the map picture */
	int n_aliases;		/* other full spellings ("Basset Town PA") */
	char *aliases[DATA_MAX_ALIASES];
	int n_adj;
	struct data_adj adj[DATA_MAX_ADJ];
	struct data_source src;
};

/* One connection as stored in connections.yaml (a < b not implied). */
struct data_connection {
	int a, b;		/* space indices */
	bool wilderness;
	int only_general;	/* -1, or the one general who may use it */
	struct data_source src;
};

struct data_general {
	char *name;		/* "Washington" */
	enum side side;
	enum nation nation;
	int strategy, battle, agility;
	int retreat_bonus;	/* +2 for Washington and Greene (7.9.A) */
	bool never_to_reinforcements; /* Washington (7.4.C, 8.2.C) */
	struct data_source src;
};

/* Card kinds and flags. A card is an OPS card (ops 1-3) or an event. */
enum card_side {
	CARD_SIDE_NONE = 0,	/* no flag: campaigns, special events */
	CARD_SIDE_AMERICAN,
	CARD_SIDE_BRITISH,
};

enum card_reshuffle {
	RESHUFFLE_NEVER = 0,
	RESHUFFLE_WHEN_PLAYED,		/* #95, #99 (6.1.B) */
	RESHUFFLE_WHEN_DISCARDED,	/* #96 (6.1.B) */
};

/*
 * The machine form of an event: a small list of effects, each a verb and
 * arguments. The verbs and their meaning are documented in docs/data.md;
 * an event that needs code names its handler in `handler`.
 */
struct data_effect {
	enum effect_verb verb;	/* never EFFECT_NONE once loaded */
	int count;		/* how many (PCs, CUs, spaces), 0 if not used */
	int colonies_mask;	/* bit per colony index, 0 = any */
	char *where;		/* the text of `where:` as written, or NULL */
	/* `where:` compiled when the data loads (effects.h): */
	unsigned quals;		/* enum effect_qual bits */
	int space;		/* the space named, or -1 */
	int general;		/* remove_general: the general, or -1 */
	int amount;		/* a signed amount (track moves), 0 if not used */
};

struct data_card {
	int number;		/* 1-110 */
	char *title;
	char *label;		/* for messages: "#12 (3 OPS)", "#95 William Pitt ..." */
	int ops;		/* 1-3 for OPS cards, 0 for events */
	enum card_side side;
	bool battle_card;
	bool special;		/* "must be played" (6.34) */
	bool removed_after_play;
	enum card_reshuffle reshuffle;
	int war_ends_year;	/* Lord North's Government Falls: 1779-1783, else 0 */
	int campaign;		/* generals a campaign activates: 3 major, 2 minor, else 0 */
	bool set_aside_until_1776; /* #99 and Baron von Steuben (4.0, 6.1.E) */
	bool by_player;		/* the player carries the effects out from
				   its list of primitive actions, any order
				   (docs/cards.md, "Events by primitives") */
	char *text;		/* the event in our own words */
	enum card_handler handler; /* a code handler, HANDLER_NONE if effects suffice */
	int n_effects;
	struct data_effect effects[DATA_MAX_EFFECTS];
	struct data_source src;
};

/* One line of the set-up (4.0). */
enum setup_where { SETUP_SPACE = 0, SETUP_REINFORCEMENTS, SETUP_FRENCH_BOX };
struct data_setup {
	enum nation nation;	/* whose pieces */
	enum setup_where where;
	int space;		/* with SETUP_SPACE */
	int general;		/* -1 or a general index */
	int cus;		/* CUs placed */
	bool pc;		/* a PC of the nation's side */
	bool congress;		/* the Continental Congress */
	bool french_navy;	/* in the French box */
	struct data_source src;
};

struct data_year {
	int year;			/* 1775 ... 1783 */
	int british_reinforcements;	/* CUs to the box in 5.1 (8.1.A) */
	struct data_source src;
};

struct data {
	char *game;		/* "washingtons-war" */
	char *dir;		/* folder it was loaded from */
	char hash[65];		/* SHA-256 of the data files (data_hash) */

	int n_colonies;
	struct data_colony colonies[DATA_MAX_COLONIES];
	int n_zones;
	struct data_zone zones[DATA_MAX_ZONES];
	int n_spaces;
	struct data_space spaces[DATA_MAX_SPACES];
	int n_generals;
	struct data_general generals[DATA_MAX_GENERALS];
	int n_cards;			/* 110 */
	struct data_card cards[DATA_MAX_CARDS + 1]; /* by number; [0] unused */
	int n_setup;
	struct data_setup setup[DATA_MAX_SETUP];
	int n_years;
	struct data_year years[DATA_MAX_YEARS];

	/* Counter mix (2.0): CUs of each nation available in all. */
	int cu_pool[3];
	int pc_markers;		/* PC markers in the box, each double-sided */

	/* Added: the connections as stored (each once), for dumping/drawing. */
	int n_connections;
	struct data_connection connections[DATA_MAX_CONNECTIONS];
	/* Added: the PC placements that end the set-up (4.0). */
	int committees_pcs_per_colony;	/* Committees of Correspondence: 1 */
	int for_the_king_pcs;		/* For The King: 3 */
	/* Added: the sources of the counter mix and of the set-up's final
	 * PC placements (counters.yaml, setup.yaml). */
	struct data_source cu_src[3], pc_markers_src;
	struct data_source committees_src, for_the_king_src;
	/* Added: file names used in data_source.file (owned here). */
	int n_files;
	char *files[DATA_MAX_FILES];
};

/*
 * Loads and checks the data in folder dir (games/washingtons-war). On
 * failure prints every problem as "file:line:column: message" into errs
 * (one per line) and returns NULL. The result passes data_check().
 */
struct data *data_load(const char *dir, struct strbuf *errs);
/*
 * The same from texts already in memory (a game's data/ read from git):
 * texts[i] is the file data_file_name(i), for i below DATA_N_FILES; dir
 * names them in messages ("data" gives "data/cards.yaml:12:3: ...") and
 * in d->files, which are then not paths on disk; game is the module's
 * name (d->game, "washingtons-war"). The texts are released.
 */
#define DATA_N_FILES 9
struct data *data_load_texts(const char *dir, const char *game,
			     struct strbuf texts[], struct strbuf *errs);
/* The i-th data file's name ("colonies.yaml"), or NULL past the last. */
const char *data_file_name(int i);
void data_free(struct data *d);


/*
 * Checks the loaded data (connections symmetric, map connected, 110 cards,
 * seven special events, the ports of 12.3, the four fortified ports, the
 * set-up of 4.0, 13 generals). Appends problems to errs as
 * "file:line:column: message" lines; returns their number (0 = valid).
 */
int data_check(const struct data *d, struct strbuf *errs);

/*
 * Writes the data as YAML in the stable schema of docs/data.md (the output
 * of `postrider data`).
 */
void data_dump(const struct data *d, struct strbuf *out);

/*
 * SHA-256 over the data files in a fixed order (names sorted, each as
 * "name\0length\0bytes"), hex. Fills d->hash during data_load().
 * Added: computes it for the files of folder dir into out (65 bytes,
 * lowercase hex). Returns 0, or -1 with a message appended to errs.
 */
int data_hash(const char *dir, char out[65], struct strbuf *errs);

/* Look-ups. Return an index, or -1 if there is none. Exact, case-insensitive
 * match on full_name or one of its aliases (spaces), name (generals,
 * colonies, zones), code (colonies). */
int data_space_index(const struct data *d, const char *full_name);
int data_general_index(const struct data *d, const char *name);
int data_colony_index(const struct data *d, const char *name_or_code);
int data_zone_index(const struct data *d, const char *name);

/* True if spaces a and b are joined by a connection usable by everyone. */
bool data_adjacent(const struct data *d, int a, int b);

/*
 * Sheets (src/data-sheet.c, docs/data.md "Sheets"): the data as
 * tab-separated sheets with a header row, one row a record.
 */
#define DATA_N_SHEETS 9
/* The i-th sheet's file name ("cards.tsv"), or NULL past the last. */
const char *data_sheet_name(int i);
/*
 * Writes the data d as the texts of the DATA_N_SHEETS sheets into out[]
 * (appended; the caller owns them). Returns 0, or -1 with a line in err
 * for each value a sheet cannot hold (a tab or a line break).
 */
int data_sheet_texts(const struct data *d, struct strbuf out[DATA_N_SHEETS],
		     struct strbuf *err);
/*
 * Reads the sheets' texts (sheet_texts[i] is data_sheet_name(i); the
 * texts are only read) into the YAML texts of a data set (yaml[i] is
 * data_file_name(i), appended), and loads and checks the result as
 * data_load() does. Every problem is one line "dir/SHEET:ROW:COLUMN:
 * [column: ]message" in errs, all of them at once, ROW and COLUMN 1-based
 * (row 1 the header). Returns their number: 0 means yaml[] is a valid
 * data set. Never crashes on any input.
 */
int data_sheet_import(const char *dir, struct strbuf sheet_texts[DATA_N_SHEETS],
		      struct strbuf yaml[DATA_N_FILES], struct strbuf *errs);

/*
 * Provenance (src/data-prov.c, docs/data.md "Provenance").
 *
 * data_source_covers() reads a `source:` text: false if it is empty, is
 * "unverified", or has a clause "A, B and C unverified" naming one of
 * facts (a NULL-ended list of words, matched against each item's last
 * word: "exact effect" names "effect"); facts NULL means any fact of the
 * record. True otherwise. Never fails.
 */
bool data_source_covers(const char *source, const char *const *facts);
/* True if a source confirms the card's title (OPS cards: always). */
bool data_card_title_sourced(const struct data_card *c);
/* True if a source confirms what the card's event does (its effect,
 * counts, colonies and side; OPS cards: always, rule 6.2). */
bool data_card_effect_sourced(const struct data_card *c);
/* True if what players see marks the card: its title or its effect has
 * no source. */
bool data_card_marked(const struct data_card *c);
/* How many cards of the deck are marked. */
int data_cards_marked(const struct data *d);
/* True if every card's number, title, effect and OPS value has a source:
 * the deck is the printed one as far as the data can tell. */
bool data_deck_printed(const struct data *d);
/* The mark after a marked card or an unsourced connection in what
 * players see, and the sentence that explains it once. */
#define DATA_UNSOURCED_MARK "(?)"
#define DATA_UNSOURCED_NOTE \
	"(?) marks a card (its title or effect) or a connection that no\n" \
	"source we hold confirms: the printed game may differ."
/*
 * Appends the counts of sourced and unsourced facts, per kind of fact,
 * as a Markdown table (what `postrider data --check` prints and
 * docs/data.md holds).
 */
void data_provenance(const struct data *d, struct strbuf *out);

#endif
