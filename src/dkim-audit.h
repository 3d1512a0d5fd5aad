/*
 * dkim-audit.h - who sent each order, from the mail records that
 * dkim-intake.h keeps (docs/fairness.md, section 22): for the audit, per
 * player how many orders came by mail signed by his own domain, how many
 * without that proof, and how many the host typed; every kept mail that
 * can be read (public after the reveal, or the host's own copy) checked
 * again, its signatures against the key records kept with it, its
 * commitment, its sender, its token and its order against the order
 * file. For the reports: the lines that tell a player which orders of
 * his opponent carry no such proof.
 *
 * Ownership: struct dkim_audit owns its strbufs (dkim_audit_release()).
 */
#ifndef POSTRIDER_DKIM_AUDIT_H
#define POSTRIDER_DKIM_AUDIT_H

#include "game.h"

struct dkim_audit {
	unsigned proven[3];	/* by side: mail signed by his domain */
	unsigned unproven[3];	/* mail without that proof */
	unsigned host[3];	/* typed by the host (play --as) */
	unsigned unrecorded[3];	/* mail with no record (an older game,
				   or dkim: check: false) */
	unsigned checked;	/* kept mails checked again */
	unsigned sealed;	/* kept mails not readable here (sealed) */
	struct strbuf notes;	/* one line per order without proof */
	size_t at;		/* the commit of the first mismatch */
	struct strbuf why;
};

void dkim_audit_init(struct dkim_audit *a);
void dkim_audit_release(struct dkim_audit *a);

/*
 * Walks history (n commits, oldest first) of g. 0 when every record
 * agrees with what can be checked, 1 when one does not (a->at, a->why),
 * -1 when the repository cannot be read.
 */
int dkim_audit(struct game *g, char (*history)[41], size_t n, struct dkim_audit *a);

/*
 * Whether a commit may add path (kind 'A'): an order's record (its
 * order file orders/NNNN-SIDE.txt gives mail/NNNN-SIDE.txt), or a
 * revealing commit's kept mail mail/NNNN-SIDE.eml.
 */
bool dkim_audit_path_ok(char kind, const char *path, const char *order_path, bool revealing);

/*
 * For the report to side at commit (a game in host mode): a line for
 * each order of the other side since side's last order that came by mail
 * without his provider's valid signature, oldest first, appended to out.
 * (An order the host typed is marked in the log: docs/fairness.md 16c.)
 */
void dkim_story(struct repo *r, const char *commit, enum side side, struct strbuf *out);

/*
 * The reveal: every kept mail of a record in the history at head, as
 * the files mail/NNNN-SIDE.eml to commit (paths and their texts, *n of
 * each, malloc'd; dkim_reveal_free()). A kept mail that is missing is a
 * warning. 0, or -1 when the repository cannot be read.
 */
int dkim_reveal_files(const struct game *g, char ***paths, struct strbuf **texts, int *n);
void dkim_reveal_free(char **paths, struct strbuf *texts, int n);

#endif
