/*
 * dkim-audit.c - the mail records of a history read and checked again
 * (dkim-audit.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dkim-audit.h"
#include "dkim-intake.h"
#include "fair.h"
#include "mail.h"
#include "order.h"
#include "repo.h"

void dkim_audit_init(struct dkim_audit *a)
{
	memset(a, 0, sizeof(*a));
	strbuf_init(&a->notes);
	strbuf_init(&a->why);
}

void dkim_audit_release(struct dkim_audit *a)
{
	strbuf_release(&a->notes);
	strbuf_release(&a->why);
}

/* A trailer's value in a commit message, malloc'd, or NULL. */
static char *trailer(const char *msg, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = msg; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, key, k) && p[k] == ':' && p[k + 1] == ' ')
			return xstrndup(p + k + 2, strcspn(p + k + 2, "\n"));
	return NULL;
}

/* What a commit says of itself. */
struct commit_info {
	long seq;		/* -1: none */
	enum side side;
	bool host;		/* Postrider-Via: host */
	bool mail;		/* Postrider-Via: mail */
	long long time;
};

static int commit_info(struct repo *r, const char *id, struct commit_info *ci)
{
	struct strbuf msg = STRBUF_INIT;
	char *seq, *side, *via;

	memset(ci, 0, sizeof(*ci));
	ci->seq = -1;
	if (repo_commit_info(r, id, &msg, NULL, NULL, &ci->time) < 0) {
		strbuf_release(&msg);
		return -1;
	}
	seq = trailer(msg.buf, "Postrider-Seq");
	side = trailer(msg.buf, "Postrider-Side");
	via = trailer(msg.buf, "Postrider-Via");
	if (seq)
		ci->seq = strtol(seq, NULL, 10);
	ci->side = !side ? SIDE_NONE : !strcmp(side, "american") ? SIDE_AMERICAN :
		   !strcmp(side, "british") ? SIDE_BRITISH : SIDE_NONE;
	ci->host = via && !strncmp(via, "host", 4);
	ci->mail = via && !strcmp(via, "mail");
	free(seq);
	free(side);
	free(via);
	strbuf_release(&msg);
	return 0;
}

/* A record's line that begins with key and a space: the rest, or NULL. */
static const char *rec_get(const char *rec, const char *key, size_t *len)
{
	size_t k = strlen(key);

	for (const char *p = rec; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, key, k) && p[k] == ' ') {
			*len = strcspn(p + k + 1, "\n");
			return p + k + 1;
		}
	return NULL;
}

static char *rec_dup(const char *rec, const char *key)
{
	size_t n;
	const char *v = rec_get(rec, key, &n);
	return v ? xstrndup(v, n) : NULL;
}

/* The recorded key records, as the check asks for them. */
static int recorded_key(void *ctx, const char *name, char **txt)
{
	const char *rec = ctx;
	struct strbuf out = STRBUF_INIT;
	size_t nl = strlen(name);
	int r = 0;

	for (const char *p = rec; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (strncmp(p, "key ", 4) || strncmp(p + 4, name, nl) || p[4 + nl] != ' ')
			continue;
		const char *v = p + 5 + nl;
		size_t n = strcspn(v, "\n");
		if (n == 19 && !memcmp(v, "(temporary failure)", 19))
			r = -1;
		else if (n == 6 && !memcmp(v, "(none)", 6))
			r = 0;
		else {
			if (out.len)
				strbuf_addch(&out, '\n');
			strbuf_add(&out, v, n);
			r = 1;
		}
		if (r < 0)
			break;
	}
	if (r == 1)
		*txt = strbuf_detach(&out, NULL);
	strbuf_release(&out);
	return r;
}

/* The signature lines of a record. */
static void sig_lines(const char *rec, struct strbuf *out)
{
	for (const char *p = rec; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, "signature ", 10))
			strbuf_addf(out, "%.*s\n", (int)strcspn(p, "\n"), p);
}

/* Checks a readable kept mail against its record. 0, or -1 with why. */
static int check_kept(struct game *g, const char *commit, const struct commit_info *ci,
		      unsigned n_before, const char *rec, const char *mail, size_t len,
		      struct strbuf *why)
{
	struct dkim_sig *sigs = NULL;
	size_t n = 0;
	struct strbuf result = STRBUF_INIT, lines = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf order = STRBUF_INIT, err = STRBUF_INIT, full = STRBUF_INIT;
	struct mail_message m = { 0 };
	char *from = rec_dup(rec, "from"), *res = rec_dup(rec, "result");
	char *ar = rec_dup(rec, "authentication-results"), *kept = rec_dup(rec, "kept");
	char *text = NULL, path[64], hex[65], tok[MAIL_TOKEN_SIZE], want_tok[FAIR_TOKEN_SIZE];
	int ret = -1;

	if (g->have_seed) {
		dkim_kept_hash(g->seed, (uint32_t)ci->seq, ci->side, mail, len, hex);
		if (!kept || strcmp(kept, hex)) {
			strbuf_addf(why, "the kept mail is not the one its record commits to (kept %s)",
				    kept ? kept : "missing");
			goto out;
		}
	}
	if (dkim_check(mail, len, recorded_key, (void *)(uintptr_t)rec, ci->time, &sigs, &n) < 0)
		n = 0;
	dkim_describe(sigs, n, from, ar, &result, &lines);
	sig_lines(rec, &want);
	if (!res || strcmp(res, result.buf) || strcmp(want.buf, lines.buf)) {
		strbuf_addf(why, "its signatures checked again give 'result %s' and\n%s"
			    "where the record says 'result %s' and\n%s", result.buf, lines.buf,
			    res ? res : "(none)", want.buf);
		goto out;
	}
	if (mail_parse(mail, len, &m, &err) < 0 || !m.from_addr || !from ||
	    strcmp(m.from_addr, from)) {
		strbuf_addf(why, "the kept mail is not from %s", from ? from : "(no sender)");
		goto out;
	}
	if (g->have_seed) {
		fair_token(g->seed, g->id, n_before, (int)ci->side, want_tok);
		if (!mail_find_token(&m, tok) || !fair_token_equal(tok, want_tok)) {
			strbuf_addstr(why, "the kept mail does not carry the token of this order");
			goto out;
		}
	}
	snprintf(path, sizeof(path), "orders/%04ld-%s.txt", ci->seq, side_name(ci->side));
	if (repo_read(g->repo, commit, path, &order) != 0) {
		strbuf_addf(why, "%s is missing", path);
		goto out;
	}
	text = mail_order_text(m.body ? m.body : "");
	if (strstr(order.buf, "# (a line sealed until it runs")) {
		struct state saved = g->state;
		if (!g->have_seed || game_load_state(g, commit, &err) < 0 ||
		    !order_unseal(order.buf, g->state.sealed_lines[ci->side], &full)) {
			g->state = saved;
			ret = 0;	/* the replay with the seed checks the sealed lines */
			goto out;
		}
		g->state = saved;
		strbuf_reset(&order);
		strbuf_addbuf(&order, &full);
	}
	if (strcmp(order.buf, text)) {
		strbuf_addf(why, "the order in the kept mail is not %s", path);
		goto out;
	}
	ret = 0;
out:
	dkim_sigs_free(sigs, n);
	mail_message_release(&m);
	free(from);
	free(res);
	free(ar);
	free(kept);
	free(text);
	strbuf_release(&result);
	strbuf_release(&lines);
	strbuf_release(&want);
	strbuf_release(&order);
	strbuf_release(&err);
	strbuf_release(&full);
	return ret;
}

/* The player's address in game.yaml at commit, malloc'd, or NULL. */
static char *player_at(struct repo *r, const char *commit, enum side side)
{
	struct strbuf y = STRBUF_INIT, err = STRBUF_INIT;
	struct game tmp;
	char *addr = NULL;

	memset(&tmp, 0, sizeof(tmp));
	if (repo_read(r, commit, "game.yaml", &y) == 0 &&
	    game_parse_yaml(&tmp, y.buf, y.len, &err) == 0 && tmp.player[side].addr)
		addr = xstrdup(tmp.player[side].addr);
	game_close(&tmp);
	strbuf_release(&y);
	strbuf_release(&err);
	return addr;
}

/* One line for the record of an order without proof. */
static void note(struct strbuf *out, long seq, enum side side, const char *rec)
{
	char *res = rec_dup(rec, "result"), *from = rec_dup(rec, "from");
	const char *dom = from && strchr(from, '@') ? strchr(from, '@') + 1 : "his domain";
	size_t n;
	const char *why = rec_get(rec, "signature 1", &n);

	strbuf_addf(out, "order %ld (%s) came by mail without a valid signature of %s: %s",
		    seq, side_title(side), dom, res ? res : "no result");
	if (why && memchr(why, ':', n))
		strbuf_addf(out, " (%.*s)", (int)(n - (size_t)((const char *)memchr(why, ':', n) + 2 - why)),
			    (const char *)memchr(why, ':', n) + 2);
	strbuf_addch(out, '\n');
	free(res);
	free(from);
}

int dkim_audit(struct game *g, char (*history)[41], size_t n, struct dkim_audit *a)
{
	struct strbuf rec = STRBUF_INIT, mail = STRBUF_INIT, dir = STRBUF_INIT;
	unsigned count[3] = { 0, 0, 0 };
	const char *head = n ? history[n - 1] : NULL;
	int ret = 0;

	/* the host's own folder, read only where it is (an audit writes
	 * nothing) */
	if (g->have_seed) {
		struct stat st;
		strbuf_addf(&dir, "%s/postrider/mail", repo_gitdir(g->repo));
		if (stat(dir.buf, &st) < 0 || !S_ISDIR(st.st_mode))
			strbuf_reset(&dir);
	}
	for (size_t i = 1; i < n && !ret; i++) {
		struct commit_info ci;
		char path[64], *addr = NULL, *from = NULL, *res = NULL;
		if (commit_info(g->repo, history[i], &ci) < 0) {
			ret = -1;
			break;
		}
		if (ci.side == SIDE_NONE)
			continue;	/* a commit of the host: no order */
		unsigned before = count[ci.side]++;
		if (ci.host) {
			a->host[ci.side]++;
			continue;
		}
		snprintf(path, sizeof(path), "mail/%04ld-%s.txt", ci.seq, side_name(ci.side));
		strbuf_reset(&rec);
		if (!ci.mail || repo_read(g->repo, history[i], path, &rec) != 0) {
			a->unrecorded[ci.side]++;
			continue;
		}
		a->at = i;
		addr = player_at(g->repo, history[i], ci.side);
		from = rec_dup(rec.buf, "from");
		res = rec_dup(rec.buf, "result");
		{
			char *head_line = xstrfmt("postrider-mail 1\norder %ld %s\n", ci.seq,
						  side_name(ci.side));
			if (strncmp(rec.buf, head_line, strlen(head_line)) || !res ||
			    !rec_get(rec.buf, "kept", &(size_t){ 0 })) {
				strbuf_addf(&a->why, "%s is not a mail record of order %ld (%s)", path,
					    ci.seq, side_name(ci.side));
				ret = 1;
			} else if (!from || !addr || strcmp(from, addr)) {
				strbuf_addf(&a->why, "%s is of a mail from %s, not from the %s (%s)", path,
					    from ? from : "nobody", side_title(ci.side), addr ? addr : "?");
				ret = 1;
			}
			free(head_line);
		}
		if (!ret) {
			if (!strncmp(res, "pass", 4)) {
				a->proven[ci.side]++;
			} else {
				a->unproven[ci.side]++;
				note(&a->notes, ci.seq, ci.side, rec.buf);
			}
			/* the kept mail: public after the reveal, or the host's */
			char eml[64];
			snprintf(eml, sizeof(eml), "mail/%04ld-%s.eml", ci.seq, side_name(ci.side));
			strbuf_reset(&mail);
			int have = head && repo_read(g->repo, head, eml, &mail) == 0;
			if (!have && dir.len) {
				char *file = xstrfmt("%s/%04ld-%s.eml", dir.buf, ci.seq, side_name(ci.side));
				have = read_file(file, &mail, 16 << 20) == 0;
				free(file);
			}
			if (!have) {
				a->sealed++;
			} else {
				struct strbuf why = STRBUF_INIT;
				if (check_kept(g, history[i], &ci, before, rec.buf, mail.buf, mail.len,
					       &why) < 0) {
					strbuf_addf(&a->why, "order %ld (%s): %s", ci.seq,
						    side_title(ci.side), why.buf);
					ret = 1;
				} else {
					a->checked++;
				}
				strbuf_release(&why);
			}
		}
		free(addr);
		free(from);
		free(res);
	}
	strbuf_release(&rec);
	strbuf_release(&mail);
	strbuf_release(&dir);
	return ret;
}

/* "NNNN-SIDE" then ext, after mail/. */
static bool mail_name(const char *p, const char *ext)
{
	size_t e = strlen(ext);

	if (strncmp(p, "mail/", 5))
		return false;
	p += 5;
	if (strspn(p, "0123456789") != 4 || p[4] != '-')
		return false;
	p += 5;
	if (!strncmp(p, "american", 8))
		p += 8;
	else if (!strncmp(p, "british", 7))
		p += 7;
	else
		return false;
	return strlen(p) == e && !strcmp(p, ext);
}

bool dkim_audit_path_ok(char kind, const char *path, const char *order_path, bool revealing)
{
	if (kind != 'A')
		return false;
	if (order_path) {
		/* orders/NNNN-SIDE.txt: mail/NNNN-SIDE.txt */
		return !strncmp(order_path, "orders/", 7) && !strncmp(path, "mail/", 5) &&
		       !strcmp(path + 5, order_path + 7) && mail_name(path, ".txt");
	}
	return revealing && mail_name(path, ".eml");
}

void dkim_story(struct repo *r, const char *commit, enum side side, struct strbuf *out)
{
	struct strbuf lines = STRBUF_INIT, rec = STRBUF_INIT;
	char cur[41];

	if (!commit || strlen(commit) != 40)
		return;
	memcpy(cur, commit, 41);
	/* back from the commit to side's last order (at most 200 commits) */
	for (int walked = 0; walked < 200; walked++) {
		struct commit_info ci;
		char path[64], *spec, *line = NULL;
		if (commit_info(r, cur, &ci) < 0 || ci.seq <= 0 || ci.side == side)
			break;
		snprintf(path, sizeof(path), "mail/%04ld-%s.txt", ci.seq, side_name(ci.side));
		strbuf_reset(&rec);
		/* an order the host typed is marked in the log itself
		 * (docs/fairness.md 16c) */
		if (ci.side == OTHER_SIDE(side) && ci.mail &&
			   repo_read(r, cur, path, &rec) == 0) {
			char *res = rec_dup(rec.buf, "result");
			if (res && strncmp(res, "pass", 4))
				line = xstrfmt("Order %ld of the %s came by mail without a valid "
					       "signature of his mail provider (DKIM: %s): nothing "
					       "proves who sent it.\n", ci.seq, side_title(ci.side), res);
			free(res);
		}
		if (line) {	/* oldest first */
			struct strbuf tmp = STRBUF_INIT;
			strbuf_addstr(&tmp, line);
			strbuf_addbuf(&tmp, &lines);
			strbuf_release(&lines);
			lines = tmp;
			free(line);
		}
		spec = xstrfmt("%s^", cur);
		if (repo_resolve(r, spec, cur) < 0) {
			free(spec);
			break;
		}
		free(spec);
	}
	strbuf_addbuf(out, &lines);
	strbuf_release(&lines);
	strbuf_release(&rec);
}

int dkim_reveal_files(const struct game *g, char ***paths, struct strbuf **texts, int *n)
{
	struct strbuf dir = STRBUF_INIT, rec = STRBUF_INIT;
	int cap = 0;

	*paths = NULL;
	*texts = NULL;
	*n = 0;
	if (dkim_kept_dir(g->repo, &dir) < 0)
		return -1;
	for (uint32_t seq = 1; seq <= g->state.seq; seq++) {
		for (enum side k = SIDE_AMERICAN; k <= SIDE_BRITISH; k++) {
			char path[64];
			char *file;
			snprintf(path, sizeof(path), "mail/%04u-%s.txt", seq, side_name(k));
			strbuf_reset(&rec);
			if (repo_read(g->repo, g->head, path, &rec) != 0)
				continue;
			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				*paths = xrealloc(*paths, (size_t)cap * sizeof(**paths));
				*texts = xrealloc(*texts, (size_t)cap * sizeof(**texts));
			}
			strbuf_init(&(*texts)[*n]);
			file = xstrfmt("%s/%04u-%s.eml", dir.buf, seq, side_name(k));
			if (read_file(file, &(*texts)[*n], 16 << 20) < 0) {
				warning("the kept mail of order %u (%s) is missing ('%s'): nobody can "
					"check its signatures", seq, side_name(k), file);
				strbuf_release(&(*texts)[*n]);
				free(file);
				continue;
			}
			free(file);
			(*paths)[*n] = xstrfmt("mail/%04u-%s.eml", seq, side_name(k));
			(*n)++;
		}
	}
	strbuf_release(&dir);
	strbuf_release(&rec);
	return 0;
}

void dkim_reveal_free(char **paths, struct strbuf *texts, int n)
{
	for (int i = 0; i < n; i++) {
		free(paths[i]);
		strbuf_release(&texts[i]);
	}
	free(paths);
	free(texts);
}
