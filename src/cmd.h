/*
 * cmd.h - the subcommand table.
 *
 * To add a command: write src/cmd-NAME.c exporting one `const struct
 * cmd_entry cmd_NAME_entry`, declare it below, add it to the table in
 * cmd.c, document it in README.md and docs/postrider.1, and add a test.
 *
 * A command's exec() gets argv with argv[0] the command name and returns
 * the process exit status: 0 success, 1 rejected (an illegal order, a
 * failed check), 2 usage, 3 done (a turn committed) but mail could not
 * be sent and waits in the outbox, 4 (audit only) every commit verifies
 * but the game is not fair, 75 temporary failure (nothing changed;
 * retry), 78 permanent failure the host must fix (EXIT_CONFIG). Each
 * status has one meaning, listed in docs/postrider.1 (EXIT STATUS).
 * Only main and the cmd- files exit or print usage.
 */
#ifndef POSTRIDER_CMD_H
#define POSTRIDER_CMD_H

#include <stdbool.h>
#include <stddef.h>

#define EXIT_REJECTED 1
#define EXIT_USAGE 2
/* play, new and the other commands that mail: the turn is committed but
 * its mail could not be sent */
#define EXIT_UNSENT 3
/* audit: every commit verifies, but the game is not fair by construction
 * (a seed chosen by the host, or fixed dice) */
#define EXIT_NOT_FAIR 4
#define EXIT_TEMPFAIL 75
/*
 * A permanent failure that only the host can mend: a wrong configuration,
 * missing templates, a game that cannot be opened (sysexits EX_CONFIG). A
 * mail system bounces the message with postrider's explanation instead of
 * retrying it for days; 75 stays for what may succeed later (a busy game,
 * a full disk, a commit that raced another).
 */
#define EXIT_CONFIG 78

struct cmd_entry {
	const char *name;
	const char *usage;	/* the synopsis after "postrider " */
	const char *summary;	/* one line for `postrider --help` */
	const char *help;	/* the options, for `postrider NAME --help` */
	int (*exec)(int argc, char **argv);
};

extern const struct cmd_entry cmd_new_entry;
extern const struct cmd_entry cmd_play_entry;
extern const struct cmd_entry cmd_check_entry;
extern const struct cmd_entry cmd_show_entry;
extern const struct cmd_entry cmd_options_entry;
extern const struct cmd_entry cmd_log_entry;
extern const struct cmd_entry cmd_data_entry;
extern const struct cmd_entry cmd_send_entry;
extern const struct cmd_entry cmd_selfplay_entry;
extern const struct cmd_entry cmd_reveal_entry;
extern const struct cmd_entry cmd_audit_entry;
extern const struct cmd_entry cmd_list_entry;
extern const struct cmd_entry cmd_peer_entry;
extern const struct cmd_entry cmd_index_entry;
extern const struct cmd_entry cmd_archive_entry;
extern const struct cmd_entry cmd_publish_entry;
extern const struct cmd_entry cmd_remind_entry;
extern const struct cmd_entry cmd_deadline_entry;
extern const struct cmd_entry cmd_player_entry;
extern const struct cmd_entry cmd_doctor_entry;

/* The table, NULL-terminated. */
extern const struct cmd_entry *const cmd_table[];

/* Prints "usage: postrider <usage>" and the help to stderr; returns 2. */
int cmd_usage(const struct cmd_entry *e);
/* True if argv holds -h or --help (then prints the help on stdout). */
int cmd_wants_help(const struct cmd_entry *e, int argc, char **argv);

/* remind on the peer copy dir (cmd-remind.c, for `remind` on a peer
 * copy and for `peer remind`): said on stdout (terse: only what was mailed
 * or failed); a mail left in the outbox counts in *unsent; the exit
 * status. */
struct mail_config;
int cmd_peer_remind(const char *dir, const struct mail_config *cfg, bool terse,
		    int *unsent);

/* Whether path is a git repository (a work tree's .git, or bare). */
bool cmd_is_repository(const char *path);
/*
 * The games a command given ROOT|DIR works on: DIR itself when it is a
 * repository, else every repository directly under ROOT, sorted by name
 * (folders that are no repository are not a club's business). Appends
 * malloc'd paths to *dirs (grown with xrealloc; the caller frees each
 * and the array). Returns 0, or -1 after printing why ROOT cannot be
 * read.
 */
int cmd_game_dirs(const char *arg, char ***dirs, size_t *n);

#endif
