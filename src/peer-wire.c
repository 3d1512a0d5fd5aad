/*
 * peer-wire.c - the mails between two postriders (docs/peer.md 8.1 and
 * 8.3 steps 1 to 4): the envelope of a commit (written, signed, parsed
 * with the strict grammar, verified), the mail that carries it and the
 * patch, the two attachments found again in a delivered mail, and the
 * place of a received commit in the history.
 */
#include "peer-wire.h"
#include "mail.h"
#include "repo.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

static const char *const kinds[] = {
	"invite", "join", "order", "answer", "claim", "end",
};

int peer_kind_valid(const char *kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kind, kinds[i]))
			return 1;
	return 0;
}

static const char *side_word(int side)
{
	return side == 1 ? "american" : side == 2 ? "british" : NULL;
}

static int fail(char *why, size_t whylen, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* n lowercase hex digits and nothing else. */
static bool is_lower_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool is_oid(const char *s)
{
	return strlen(s) == 40 && is_lower_hex(s, 40);
}

/* ---- the envelope (8.1) ------------------------------------------------- */

int peer_envelope_write(const struct peer_envelope *e,
			const struct pcrypto_secret *sk, struct strbuf *out)
{
	struct strbuf t = STRBUF_INIT;
	unsigned char sig[PCRYPTO_PROOF];
	char hex[2 * PEER_WIRE_VRF_PROOF + 1];

	if (!mail_valid_game_id(e->game) ||
	    strspn(e->game, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
	    strlen(e->game) || !side_word(e->from) || !e->seq || e->seq > 999999999 ||
	    (*e->parent && !is_oid(e->parent)) || !is_oid(e->commit) ||
	    !peer_kind_valid(e->kind) || e->n_dice < 0 ||
	    e->n_dice > PEER_WIRE_MAX_DICE)
		return error("cannot write the envelope of commit %lu: a field "
			     "is not valid", e->seq);
	for (int i = 0; i < e->n_dice; i++)
		if (!is_oid(e->dice[i].oid))
			return error("cannot write the envelope of commit %lu: "
				     "a dice line's commit is not valid", e->seq);
	strbuf_addf(&t, "postrider-peer 1\ngame %s\nfrom %s\nseq %lu\n",
		    e->game, side_word(e->from), e->seq);
	strbuf_addf(&t, "parent %s\ncommit %s\nkind %s\n",
		    *e->parent ? e->parent : "none", e->commit, e->kind);
	hex_encode(e->patch, sizeof(e->patch), hex);
	strbuf_addf(&t, "patch %s\n", hex);
	for (int i = 0; i < e->n_dice; i++) {
		hex_encode(e->dice[i].proof, PEER_WIRE_VRF_PROOF, hex);
		strbuf_addf(&t, "dice %s %s\n", e->dice[i].oid, hex);
	}
	if (pcrypto_sign(sk, t.buf, t.len, sig) < 0) {
		strbuf_release(&t);
		return error("cannot sign the envelope of commit %lu", e->seq);
	}
	hex_encode(sig, sizeof(sig), hex);
	strbuf_addf(&t, "sig %s\n", hex);
	strbuf_addbuf(out, &t);
	strbuf_release(&t);
	return 0;
}

/* The reader of an envelope: one line at a time. */
struct reader {
	const char *p, *end;
	const char *line;	/* the current line (without its LF) */
	size_t len;
	int lineno;
	char *why;
	size_t whylen;
};

/* Takes the next line; -1 at the end of the text. */
static int next_line(struct reader *rd)
{
	const char *nl;

	if (rd->p >= rd->end)
		return -1;
	nl = memchr(rd->p, '\n', (size_t)(rd->end - rd->p));
	rd->lineno++;
	rd->line = rd->p;
	if (!nl) {
		rd->len = (size_t)(rd->end - rd->p);
		rd->p = rd->end;
		return 1;	/* a last line without its LF */
	}
	rd->len = (size_t)(nl - rd->p);
	rd->p = nl + 1;
	return 0;
}

/*
 * Reads the line "NAME VALUE" that must come next: the value's bytes in
 * val (NUL terminated, at most vallen - 1 of them). -1 with the reason.
 */
static int expect(struct reader *rd, const char *name, char *val,
		  size_t vallen)
{
	size_t nl = strlen(name);
	int r = next_line(rd);

	if (r < 0)
		return fail(rd->why, rd->whylen, "line %d: the envelope ends "
			    "before its \"%s\" line", rd->lineno + 1, name);
	if (r > 0)
		return fail(rd->why, rd->whylen, "line %d: no line feed at the "
			    "end of the envelope", rd->lineno);
	if (memchr(rd->line, '\r', rd->len))
		return fail(rd->why, rd->whylen, "line %d: a carriage return "
			    "(the envelope's lines end with LF alone)",
			    rd->lineno);
	if (rd->len <= nl || memcmp(rd->line, name, nl) || rd->line[nl] != ' ')
		return fail(rd->why, rd->whylen, "line %d: \"%s\" expected, "
			    "found \"%.*s\"", rd->lineno, name,
			    (int)(rd->len > 24 ? 24 : rd->len), rd->line);
	if (rd->len - nl - 1 >= vallen)
		return fail(rd->why, rd->whylen, "line %d: the %s is too long",
			    rd->lineno, name);
	memcpy(val, rd->line + nl + 1, rd->len - nl - 1);
	val[rd->len - nl - 1] = '\0';
	if (memchr(val, '\0', rd->len - nl - 1))
		return fail(rd->why, rd->whylen, "line %d: a NUL byte",
			    rd->lineno);
	return 0;
}

/* A value of n lowercase hex digits into out (n / 2 bytes). */
static int hex_value(struct reader *rd, const char *what, const char *val,
		     size_t n, unsigned char *out)
{
	if (strlen(val) != n)
		return fail(rd->why, rd->whylen, "line %d: the %s is not %zu "
			    "hex digits", rd->lineno, what, n);
	if (!is_lower_hex(val, n))
		return fail(rd->why, rd->whylen, "line %d: the %s is not "
			    "lowercase hex", rd->lineno, what);
	if (out && hex_decode(val, out, n / 2) < 0)
		return fail(rd->why, rd->whylen, "line %d: the %s is not hex",
			    rd->lineno, what);
	return 0;
}

static int read_head(struct reader *rd, struct peer_envelope *e)
{
	char v[256];

	if (next_line(rd) == 0 && memchr(rd->line, '\r', rd->len))
		return fail(rd->why, rd->whylen, "line 1: a carriage return "
			    "(the envelope's lines end with LF alone)");
	if (rd->lineno != 1 || rd->len != 16 ||
	    memcmp(rd->line, "postrider-peer 1", 16) || rd->p[-1] != '\n')
		return fail(rd->why, rd->whylen, "line 1: not \"postrider-peer "
			    "1\" (not an envelope, or another version)");
	if (expect(rd, "game", v, sizeof(v)) < 0)
		return -1;
	if (!mail_valid_game_id(v) || strlen(v) >= sizeof(e->game) ||
	    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(v))
		return fail(rd->why, rd->whylen, "line %d: not a game id",
			    rd->lineno);
	strcpy(e->game, v);
	if (expect(rd, "from", v, sizeof(v)) < 0)
		return -1;
	if (!strcmp(v, "american"))
		e->from = 1;
	else if (!strcmp(v, "british"))
		e->from = 2;
	else
		return fail(rd->why, rd->whylen, "line %d: the side is neither "
			    "american nor british", rd->lineno);
	if (expect(rd, "seq", v, sizeof(v)) < 0)
		return -1;
	if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 9)
		return fail(rd->why, rd->whylen, "line %d: seq is not a number "
			    "(1 to 9 digits)", rd->lineno);
	if (v[0] == '0')
		return fail(rd->why, rd->whylen, "line %d: seq has a leading "
			    "zero or is zero", rd->lineno);
	e->seq = strtoul(v, NULL, 10);
	if (expect(rd, "parent", v, sizeof(v)) < 0)
		return -1;
	if (strcmp(v, "none")) {
		if (hex_value(rd, "parent", v, 40, NULL) < 0)
			return -1;
		strcpy(e->parent, v);
	}
	if (expect(rd, "commit", v, sizeof(v)) < 0 ||
	    hex_value(rd, "commit", v, 40, NULL) < 0)
		return -1;
	strcpy(e->commit, v);
	if (expect(rd, "kind", v, sizeof(v)) < 0)
		return -1;
	if (!peer_kind_valid(v))
		return fail(rd->why, rd->whylen, "line %d: unknown kind",
			    rd->lineno);
	strcpy(e->kind, v);
	if (expect(rd, "patch", v, sizeof(v)) < 0 ||
	    hex_value(rd, "patch", v, 64, e->patch) < 0)
		return -1;
	return 0;
}

/* The "dice" lines, then the "sig" line, then the end. */
static int read_tail(struct reader *rd, struct peer_envelope *e)
{
	char v[512];

	for (;;) {
		const char *save = rd->p;
		int save_no = rd->lineno;
		if (next_line(rd) < 0)
			return fail(rd->why, rd->whylen, "line %d: the envelope "
				    "ends before its \"sig\" line",
				    rd->lineno + 1);
		bool dice = rd->len > 5 && !memcmp(rd->line, "dice ", 5);
		rd->p = save;
		rd->lineno = save_no;
		if (!dice)
			break;
		if (expect(rd, "dice", v, sizeof(v)) < 0)
			return -1;
		if (e->n_dice == PEER_WIRE_MAX_DICE)
			return fail(rd->why, rd->whylen, "line %d: more than %d "
				    "dice lines", rd->lineno, PEER_WIRE_MAX_DICE);
		if (strlen(v) != 40 + 1 + 2 * PEER_WIRE_VRF_PROOF || v[40] != ' ')
			return fail(rd->why, rd->whylen, "line %d: a dice line "
				    "is not \"dice OID HEX162\"", rd->lineno);
		v[40] = '\0';
		if (hex_value(rd, "dice commit", v, 40, NULL) < 0 ||
		    hex_value(rd, "dice proof", v + 41, 2 * PEER_WIRE_VRF_PROOF,
			      e->dice[e->n_dice].proof) < 0)
			return -1;
		strcpy(e->dice[e->n_dice].oid, v);
		e->n_dice++;
	}
	if (expect(rd, "sig", v, sizeof(v)) < 0 ||
	    hex_value(rd, "sig", v, 2 * PCRYPTO_PROOF, e->sig) < 0)
		return -1;
	if (rd->p != rd->end)
		return fail(rd->why, rd->whylen, "line %d: a line after the "
			    "\"sig\" line", rd->lineno + 1);
	return 0;
}

int peer_envelope_parse(const char *text, size_t len, struct peer_envelope *e,
			char *why, size_t whylen)
{
	struct reader rd = { text, text + len, NULL, 0, 0, why, whylen };

	memset(e, 0, sizeof(*e));
	if (read_head(&rd, e) < 0 || read_tail(&rd, e) < 0) {
		memset(e, 0, sizeof(*e));
		return -1;
	}
	return 0;
}

/* The offset of the "sig " line in text: the start of its last line. */
static int sig_offset(const char *text, size_t len, size_t *off)
{
	size_t i;

	if (len < 2 || text[len - 1] != '\n')
		return -1;
	for (i = len - 1; i > 0 && text[i - 1] != '\n'; i--)
		;
	if (len - i < 4 || memcmp(text + i, "sig ", 4))
		return -1;
	*off = i;
	return 0;
}

int peer_envelope_verify(const struct peer_envelope *e,
			 const unsigned char sign_key[PCRYPTO_PT],
			 const char *text, size_t len)
{
	size_t off;

	if (sig_offset(text, len, &off) < 0)
		return -1;
	return pcrypto_sign_verify(sign_key, text, off, e->sig);
}

int peer_patch_check(const struct peer_envelope *e, const char *patch,
		     size_t len, char *why, size_t whylen)
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	char a[65], b[65];

	SHA256((const unsigned char *)patch, len, md);
	if (!memcmp(md, e->patch, sizeof(md)))
		return 0;
	hex_encode(md, sizeof(md), a);
	hex_encode(e->patch, sizeof(e->patch), b);
	return fail(why, whylen, "the patch's SHA-256 is %.12s..., the "
		    "envelope says %.12s...", a, b);
}

/* ---- the mail (8.1) ----------------------------------------------------- */

int peer_mail_message_id(const char *game, unsigned long seq, int side,
			 const char *addr, char *out, size_t outlen)
{
	const char *at = addr ? strrchr(addr, '@') : NULL;
	size_t dl;
	int n;

	if (!at || !side_word(side) || !mail_valid_game_id(game))
		return -1;
	at++;
	dl = strcspn(at, ">");
	if (!dl || memchr(at, ' ', dl))
		return -1;
	n = snprintf(out, outlen, "<postrider.%s.%lu.%s.peer@%.*s>", game, seq,
		     side_word(side), (int)dl, at);
	return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int peer_mail_compose(const struct peer_mail *m, struct strbuf *out,
		      char *why, size_t whylen)
{
	const struct peer_envelope *e = m->env;
	struct strbuf err = STRBUF_INIT, note = STRBUF_INIT;
	char mid[256], subject[128], text[256], ename[32], pname[48];
	struct mail_out mo;
	int ret;

	if (!e || !m->envelope || !m->patch || !m->from || !m->to || !m->date)
		return fail(why, whylen, "a peer mail needs an envelope, a "
			    "patch, From, To and Date");
	if (peer_mail_message_id(e->game, e->seq, e->from, m->from, mid,
				 sizeof(mid)) < 0)
		return fail(why, whylen, "no Message-ID for commit %lu (the "
			    "sender's address has no domain?)", e->seq);
	if (memchr(m->envelope, '\0', m->envelope_len) ||
	    memchr(m->patch, '\0', m->patch_len))
		return fail(why, whylen, "a NUL byte in the envelope or the "
			    "patch");
	snprintf(subject, sizeof(subject), "[%s] peer %lu %s %s", e->game,
		 e->seq, side_word(e->from), e->kind);
	snprintf(text, sizeof(text), "This mail is for your postrider: commit "
		 "%lu of game %s (%s, by the %s side).\nIt applies it by "
		 "itself; there is nothing to answer.\n", e->seq, e->game,
		 e->kind, side_word(e->from));
	snprintf(ename, sizeof(ename), "peer-%lu.txt", e->seq);
	snprintf(pname, sizeof(pname), "%lu-%s.patch", e->seq,
		 side_word(e->from));
	strbuf_add(&note, m->envelope, m->envelope_len);
	{
		char *patch = xstrndup(m->patch, m->patch_len);
		memset(&mo, 0, sizeof(mo));
		mo.from = m->from;
		mo.to = m->to;
		mo.subject = subject;
		mo.message_id = mid;
		mo.in_reply_to = m->in_reply_to;
		mo.references = m->references;
		mo.date = m->date;
		mo.game_id = e->game;
		mo.commit = e->commit;
		mo.text = text;
		mo.note = note.buf;
		mo.note_name = ename;
		mo.patch = patch;
		mo.patch_name = pname;
		mo.patch_type = "text/x-diff";
		ret = mail_compose(&mo, out, &err);
		free(patch);
	}
	if (ret < 0)
		fail(why, whylen, "%s", err.buf);
	strbuf_release(&err);
	strbuf_release(&note);
	return ret;
}

/* "peer-N.txt" (N decimal without leading zero): N, or 0. */
static unsigned long envelope_name(const char *s)
{
	size_t d;

	if (strncmp(s, "peer-", 5))
		return 0;
	s += 5;
	d = strspn(s, "0123456789");
	if (!d || d > 9 || *s == '0' || strcmp(s + d, ".txt"))
		return 0;
	return strtoul(s, NULL, 10);
}

/* "N-SIDE.patch": N, or 0. */
static unsigned long patch_name(const char *s)
{
	size_t d = strspn(s, "0123456789");

	if (!d || d > 9 || *s == '0' || s[d] != '-' ||
	    (strcmp(s + d + 1, "american.patch") &&
	     strcmp(s + d + 1, "british.patch")))
		return 0;
	return strtoul(s, NULL, 10);
}

int peer_mail_extract(const char *mail, size_t len, struct strbuf *envelope,
		      struct strbuf *patch, char *why, size_t whylen)
{
	struct mail_attachment *a;
	struct strbuf err = STRBUF_INIT;
	size_t n, ie = SIZE_MAX, ip = SIZE_MAX;
	unsigned long seq = 0;
	int ret = -1;

	if (mail_attachments(mail, len, &a, &n, &err) < 0) {
		fail(why, whylen, "%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	for (size_t i = 0; i < n; i++) {
		unsigned long k = envelope_name(a[i].name);
		if (!k)
			continue;
		if (ie != SIZE_MAX) {
			fail(why, whylen, "two envelopes in one mail (%s and %s)",
			     a[ie].name, a[i].name);
			goto out;
		}
		ie = i;
		seq = k;
	}
	if (ie == SIZE_MAX) {
		ret = 1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (patch_name(a[i].name) != seq)
			continue;
		if (ip != SIZE_MAX) {
			fail(why, whylen, "two patches of commit %lu in one mail",
			     seq);
			goto out;
		}
		ip = i;
	}
	if (ip == SIZE_MAX) {
		fail(why, whylen, "the mail has the envelope %s but no patch "
		     "%lu-SIDE.patch", a[ie].name, seq);
		goto out;
	}
	/* the envelope's CRLF are the mail's: its grammar has no CR */
	for (size_t k = 0; k < a[ie].len; k++)
		if (!(a[ie].data[k] == '\r' && k + 1 < a[ie].len &&
		      a[ie].data[k + 1] == '\n'))
			strbuf_addch(envelope, a[ie].data[k]);
	strbuf_add(patch, a[ip].data, a[ip].len);
	ret = 0;
out:
	mail_attachments_free(a, n);
	return ret;
}

/* ---- the place of a commit in the history (8.3 step 4) ------------------ */

/* The Postrider-Seq trailer of commit rev, or 0 (none, or unreadable). */
static unsigned long commit_seq(struct repo *r, const char *rev)
{
	struct strbuf v = STRBUF_INIT;
	unsigned long seq = 0;

	if (repo_trailer(r, rev, "Postrider-Seq", &v) == 0)
		seq = strtoul(v.buf, NULL, 10);
	strbuf_release(&v);
	return seq;
}

int peer_place(struct repo *r, const struct peer_envelope *e, char *why,
	       size_t whylen)
{
	char (*hist)[41] = NULL;
	size_t n = 0;
	bool have_commit = false, have_parent = false;
	unsigned long head_seq;
	int ret;

	if (repo_history(r, &hist, &n) < 0)
		return fail(why, whylen, "cannot read the history of the copy");
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(hist[i], e->commit))
			have_commit = true;
		if (*e->parent && !strcmp(hist[i], e->parent))
			have_parent = true;
	}
	if (have_commit) {
		ret = PEER_PLACE_COPY;
		fail(why, whylen, "commit %lu (%.12s) is already applied",
		     e->seq, e->commit);
	} else if (!*e->parent) {
		ret = n ? PEER_PLACE_FORK : PEER_PLACE_NEXT;
		if (n)
			fail(why, whylen, "forks the history before its first "
			     "commit: the opponent sent another first commit");
		else
			fail(why, whylen, "the first commit");
	} else if (!have_parent) {
		ret = PEER_PLACE_UNKNOWN;
		fail(why, whylen, "the parent of commit %lu (%.12s) is not in "
		     "the history yet: a mail before it is late or lost",
		     e->seq, e->parent);
	} else if (strcmp(hist[n - 1], e->parent)) {
		ret = PEER_PLACE_FORK;
		fail(why, whylen, "forks the history after %lu: the opponent "
		     "sent two different commits after one",
		     commit_seq(r, e->parent));
	} else if ((head_seq = commit_seq(r, e->parent)) + 1 != e->seq) {
		ret = PEER_PLACE_BAD;
		fail(why, whylen, "commit %lu follows the head, whose seq is "
		     "%lu", e->seq, head_seq);
	} else {
		ret = PEER_PLACE_NEXT;
		fail(why, whylen, "the next commit, %lu", e->seq);
	}
	free(hist);
	return ret;
}

int peer_keep_fork(struct repo *r, const struct peer_envelope *e,
		   const char *mail, size_t len, struct strbuf *path_out,
		   char *why, size_t whylen)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	int ret = -1;

	if (repo_private_path(r, "peer", &dir) < 0) {
		fail(why, whylen, "cannot make the folder of the copy's own "
		     "files");
		goto out;
	}
	strbuf_addstr(&dir, "/forks");
	if (mkdir_p(dir.buf) < 0) {
		fail(why, whylen, "cannot make %s: %s", dir.buf, strerror(errno));
		goto out;
	}
	strbuf_addf(&path, "%s/%lu-%s-%s.eml", dir.buf, e->seq,
		    side_word(e->from) ? side_word(e->from) : "none", e->commit);
	if (write_file_atomic(path.buf, mail, len) < 0) {
		fail(why, whylen, "cannot write %s", path.buf);
		goto out;
	}
	if (path_out)
		strbuf_addbuf(path_out, &path);
	ret = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&path);
	return ret;
}
