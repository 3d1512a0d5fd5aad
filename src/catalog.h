/*
 * catalog.h - the index of a folder of games, ROOT/.postrider-index: one
 * summary per game, enough for `list` and `remind` to answer for 10,000
 * games without opening 10,000 repositories (issue 33).
 *
 * Never a second source of truth. Each entry carries the key of what it
 * was read from: the commit at the head of main, and the identity (inode,
 * size, modification time) of the host's clock.yaml and secret. Every
 * run reads the key of every game from the repository itself (HEAD, the
 * ref of main, two stat()s; no libgit2) and reads the game again, as the
 * commands always did, when its key differs, when it has no entry, or
 * when it did not open last time; the entries of games gone are dropped.
 * A file that does not parse, fails its checksum, or was written by
 * another build of postrider is ignored and rebuilt whole. Nothing in it
 * is ever believed without its key matching, so deleting it is always
 * safe (it is rebuilt; `postrider index ROOT --rebuild` does it at once).
 *
 * The file (text; fields separated by tabs, \\, \t and \n escaped):
 *   postrider-index 1 BUILD
 *   NAME KEY ID AMERICAN BRITISH YEAR SEQ SIDE SINCE PROMPT RESULT
 *        SECRET DEADLINE DUE WARNED LATE          (one line per game)
 *   sha256 HEX                                    (of all lines above)
 * written with mode 0600 (it holds the host's clocks) by rename, so a
 * reader sees the old file or the new one.
 *
 * Ownership: struct catalog owns its entries and their strings;
 * catalog_release() frees them.
 */
#ifndef POSTRIDER_CATALOG_H
#define POSTRIDER_CATALOG_H

#include <stdbool.h>

#include "game.h"
#include "util.h"

#define CATALOG_FILE ".postrider-index"

/* What `list` shows and `remind` needs of one game, read from it. */
struct catalog_summary {
	char *id, *american, *british;	/* the players' names */
	int year;
	unsigned seq;
	enum side side;		/* to move; SIDE_NONE when the game is over */
	long long since;	/* the time of the head commit */
	char *prompt;		/* the decision asked, or "game over" */
	char *result;		/* "british (victory)", or "" while running */
	bool secret;		/* the host's copy (the seed is there) */
	long long deadline;	/* the clock's (clock.h): 0 none */
	long long due;		/* clock_due() of the side to move */
	unsigned warned, late;	/* the clock's marks of alarms sent */
};

/* The key of a game's repository: its head, its clock's and secret's
 * identity. A key of "" is never equal to a stored one. */
#define CATALOG_KEY_SIZE 160

struct catalog_entry {
	char *name;		/* the folder's name under ROOT */
	char *dir;		/* ROOT/NAME */
	char key[CATALOG_KEY_SIZE];
	bool sound;		/* it opened; else err says why */
	bool fresh;		/* read from the repository by this run */
	char *err;
	struct catalog_summary sum;
};

struct catalog {
	char *root, *path;	/* ROOT, and ROOT/.postrider-index */
	struct catalog_entry *e;	/* sorted by name */
	size_t n;
	size_t reread;		/* entries read from their repository */
	bool file_ok;		/* the file was there and trusted */
	bool saved;		/* the file was written by this run */
};

enum catalog_flags {
	CATALOG_REBUILD = 1,	/* believe nothing in the file: read every game */
	CATALOG_NO_FILE = 2,	/* neither read nor write the file */
};

/*
 * The games under root (every folder there that is a repository, as
 * cmd_game_dirs() finds them), each validated against its repository
 * and read again when stale; then the file is written if anything
 * changed (a file that cannot be written is left, silently: the answer
 * is right, only slower next time). Returns 0, or -1 with the reason in
 * err if root cannot be read.
 */
int catalog_open(const char *root, unsigned flags, struct catalog *c,
		 struct strbuf *err);
void catalog_release(struct catalog *c);

/* The summary of an open game (the same fields catalog_open() keeps). */
void catalog_summarize(const struct game *g, struct catalog_summary *s);
void catalog_summary_release(struct catalog_summary *s);

/*
 * The key of the game in dir as it is now, read without opening the
 * repository: the commit main points to (HEAD must name refs/heads/main;
 * a loose ref or packed-refs), "+" and the clock's identity, "+" and the
 * secret's. Returns 0, or -1 (key set to "") when it cannot be read
 * cheaply: the game is then always read again.
 */
int catalog_key(const char *dir, char key[CATALOG_KEY_SIZE]);

#endif
