/*
 * peer-files.c - the files of the cryptography in a peer game's record
 * (docs/peer.md 6.3).
 */
#include "peer-files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void peer_files_init(struct peer_files *f)
{
	memset(f, 0, sizeof(*f));
}

void peer_shuffle_release(struct peer_shuffle *sh)
{
	free(sh->refs);
	free(sh->out);
	free(sh->proof);
	memset(sh, 0, sizeof(*sh));
}

void peer_files_release(struct peer_files *f)
{
	for (int g = 0; g <= PEER_MAX_GEN; g++)
		for (int k = 0; k < 3; k++)
			peer_shuffle_release(&f->sh[g][k]);
	free(f->shares);
	free(f->dice);
	memset(f, 0, sizeof(*f));
}

void peer_shuffle_path(int gen, int turn, char out[48])
{
	snprintf(out, 48, "peer/shuffles/%d-%d.txt", gen, turn);
}

void peer_slot_name(int slot, char out[PEER_REF_MAX])
{
	snprintf(out, PEER_REF_MAX, "s%d.%d", CARD_SLOT_GEN(slot), CARD_SLOT_POS(slot));
}

int peer_slot_parse(const char *s, size_t len)
{
	char buf[PEER_REF_MAX];
	int g, i, n = 0;

	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sscanf(buf, "s%d.%d%n", &g, &i, &n) != 2 || (size_t)n != len ||
	    g < 1 || g > PEER_MAX_GEN || i < 0 || i > 255 || buf[1] == '0')
		return 0;
	if (buf[strcspn(buf, ".") + 1] == '0' && buf[strcspn(buf, ".") + 2])
		return 0;	/* no leading zero: one name a slot */
	return CARD_SLOT(g, i);
}

size_t peer_ctx_share(const char *id, int slot, enum side side, char out[256])
{
	char name[PEER_REF_MAX];
	int n;

	peer_slot_name(slot, name);
	n = snprintf(out, 256, "%s share %s %s", id, name, side_name(side));
	return n < 0 || n > PCRYPTO_MAX_CTX ? 0 : (size_t)n;
}

size_t peer_ctx_shuffle(const char *id, int gen, int turn, enum side side,
			char out[256])
{
	int n = snprintf(out, 256, "%s shuffle %d %d %s", id, gen, turn, side_name(side));

	return n < 0 || n > PCRYPTO_MAX_CTX ? 0 : (size_t)n;
}

static void hex_lines(struct strbuf *out, const char *key, const unsigned char *b,
		      size_t n)
{
	char hex[2 * PCRYPTO_CT + 1];

	hex_encode(b, n, hex);
	strbuf_addf(out, "%s %s\n", key, hex);
}

void peer_shuffle_write(const struct peer_shuffle *sh, struct strbuf *out)
{
	size_t plen = PCRYPTO_SHUFFLE_PROOF(sh->n);

	strbuf_addf(out, "postrider-peer shuffle\ngeneration %d\nturn %d\nside %s\ncards %d\n",
		    sh->gen, sh->turn, side_name(sh->side), sh->n);
	if (sh->turn == 1)
		for (int i = 0; i < sh->n; i++)
			strbuf_addf(out, "in %s\n", sh->refs[i]);
	for (int i = 0; i < sh->n; i++)
		hex_lines(out, "out", sh->out + (size_t)i * PCRYPTO_CT, PCRYPTO_CT);
	for (size_t at = 0; at < plen; at += 64)
		hex_lines(out, "proof", sh->proof + at, plen - at < 64 ? plen - at : 64);
}

/* The next line of *p (without its LF) into line/len; false at the end. */
static bool next_line(const char **p, const char **line, size_t *len)
{
	const char *nl;

	if (!**p)
		return false;
	nl = strchr(*p, '\n');
	if (!nl)
		return false;	/* every line ends in LF */
	*line = *p;
	*len = (size_t)(nl - *p);
	*p = nl + 1;
	return true;
}

/* "KEY VALUE" with KEY; the value. */
static const char *keyed(const char *line, size_t len, const char *key, size_t *vlen)
{
	size_t k = strlen(key);

	if (len <= k + 1 || strncmp(line, key, k) || line[k] != ' ')
		return NULL;
	*vlen = len - k - 1;
	return line + k + 1;
}

static int bad(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s", what);
	return -1;
}

static int parse_int_line(const char **p, const char *key, long lo, long hi, long *v)
{
	const char *line, *val;
	size_t len, vlen;
	char buf[16];

	if (!next_line(p, &line, &len) || !(val = keyed(line, len, key, &vlen)) ||
	    vlen >= sizeof(buf) || !vlen || (vlen > 1 && val[0] == '0'))
		return -1;
	memcpy(buf, val, vlen);
	buf[vlen] = '\0';
	if (strspn(buf, "0123456789") != vlen)
		return -1;
	*v = strtol(buf, NULL, 10);
	return *v < lo || *v > hi ? -1 : 0;
}

static int parse_ref(const char *v, size_t vlen, char out[PEER_REF_MAX])
{
	if (vlen >= PEER_REF_MAX)
		return -1;
	if (v[0] == '#') {
		if (vlen < 2 || v[1] == '0' || strspn(v + 1, "0123456789") < vlen - 1)
			return -1;
	} else if (!peer_slot_parse(v, vlen)) {
		return -1;
	}
	memcpy(out, v, vlen);
	out[vlen] = '\0';
	return 0;
}

int peer_shuffle_parse(const char *text, struct peer_shuffle *sh, char *why,
		       size_t whylen)
{
	const char *p = text, *line, *v;
	size_t len, vlen, plen, at = 0;
	long gen, turn, n;
	int side;

	memset(sh, 0, sizeof(*sh));
	if (!next_line(&p, &line, &len) || len != 22 || strncmp(line, "postrider-peer shuffle", 22))
		return bad(why, whylen, "not a shuffle file (its first line)");
	if (parse_int_line(&p, "generation", 1, PEER_MAX_GEN, &gen) < 0 ||
	    parse_int_line(&p, "turn", 1, 2, &turn) < 0)
		return bad(why, whylen, "a bad generation or turn line");
	if (!next_line(&p, &line, &len) || !(v = keyed(line, len, "side", &vlen)) ||
	    (side = (vlen == 8 && !strncmp(v, "american", 8)) ? SIDE_AMERICAN :
		    (vlen == 7 && !strncmp(v, "british", 7)) ? SIDE_BRITISH : 0) == 0)
		return bad(why, whylen, "a bad side line");
	if (parse_int_line(&p, "cards", 2, PCRYPTO_MAX_DECK, &n) < 0)
		return bad(why, whylen, "a bad cards line");
	sh->gen = (int)gen;
	sh->turn = (int)turn;
	sh->side = (enum side)side;
	sh->n = (int)n;
	plen = PCRYPTO_SHUFFLE_PROOF(n);
	sh->out = xmalloc((size_t)n * PCRYPTO_CT);
	sh->proof = xmalloc(plen);
	if (turn == 1) {
		sh->refs = xcalloc((size_t)n, PEER_REF_MAX);
		for (long i = 0; i < n; i++)
			if (!next_line(&p, &line, &len) || !(v = keyed(line, len, "in", &vlen)) ||
			    parse_ref(v, vlen, sh->refs[i]) < 0)
				goto fail;
	}
	for (long i = 0; i < n; i++)
		if (!next_line(&p, &line, &len) || !(v = keyed(line, len, "out", &vlen)) ||
		    vlen != 2 * PCRYPTO_CT || strspn(v, "0123456789abcdef") < vlen ||
		    hex_decode(v, sh->out + (size_t)i * PCRYPTO_CT, PCRYPTO_CT) < 0)
			goto fail;
	while (at < plen) {
		size_t want = plen - at < 64 ? plen - at : 64;
		if (!next_line(&p, &line, &len) || !(v = keyed(line, len, "proof", &vlen)) ||
		    vlen != 2 * want || strspn(v, "0123456789abcdef") < vlen ||
		    hex_decode(v, sh->proof + at, want) < 0)
			goto fail;
		at += want;
	}
	if (*p)
		goto fail;
	sh->have = true;
	return 0;
fail:
	peer_shuffle_release(sh);
	return bad(why, whylen, "a bad in, out or proof line, or a line too many");
}

void peer_files_add_shuffle(struct peer_files *f, const struct peer_shuffle *src)
{
	struct peer_shuffle *sh = &f->sh[src->gen][src->turn];
	size_t plen = PCRYPTO_SHUFFLE_PROOF(src->n);

	peer_shuffle_release(sh);
	*sh = *src;
	sh->refs = NULL;
	if (src->refs) {
		sh->refs = xcalloc((size_t)src->n, PEER_REF_MAX);
		memcpy(sh->refs, src->refs, (size_t)src->n * PEER_REF_MAX);
	}
	sh->out = xmalloc((size_t)src->n * PCRYPTO_CT);
	memcpy(sh->out, src->out, (size_t)src->n * PCRYPTO_CT);
	sh->proof = xmalloc(plen);
	memcpy(sh->proof, src->proof, plen);
	sh->have = true;
}

void peer_share_line(const struct peer_share *s, struct strbuf *out)
{
	char name[PEER_REF_MAX], hex[2 * PCRYPTO_SHARE + 1];

	peer_slot_name(s->slot, name);
	hex_encode(s->share, PCRYPTO_SHARE, hex);
	strbuf_addf(out, "%s %s %s\n", name, side_name(s->side), hex);
}

void peer_files_add_share(struct peer_files *f, const struct peer_share *s)
{
	if (f->n_shares == f->cap_shares) {
		f->cap_shares = f->cap_shares ? 2 * f->cap_shares : 64;
		f->shares = xrealloc(f->shares, (size_t)f->cap_shares * sizeof(*f->shares));
	}
	f->shares[f->n_shares++] = *s;
}

int peer_share_parse(const char *line, size_t len, struct peer_files *f,
		     char *why, size_t whylen)
{
	struct peer_share s;
	const char *sp = memchr(line, ' ', len), *sp2;
	size_t rest;

	if (!sp || !(s.slot = peer_slot_parse(line, (size_t)(sp - line))))
		return bad(why, whylen, "a share line without its slot");
	sp++;
	rest = len - (size_t)(sp - line);
	sp2 = memchr(sp, ' ', rest);
	if (!sp2)
		return bad(why, whylen, "a share line without its side");
	if (sp2 - sp == 8 && !strncmp(sp, "american", 8))
		s.side = SIDE_AMERICAN;
	else if (sp2 - sp == 7 && !strncmp(sp, "british", 7))
		s.side = SIDE_BRITISH;
	else
		return bad(why, whylen, "a share line with a bad side");
	sp2++;
	rest = len - (size_t)(sp2 - line);
	if (rest != 2 * PCRYPTO_SHARE || strspn(sp2, "0123456789abcdef") < rest ||
	    hex_decode(sp2, s.share, PCRYPTO_SHARE) < 0)
		return bad(why, whylen, "a share line whose share is not 194 hex digits");
	peer_files_add_share(f, &s);
	return 0;
}

void peer_dice_line(const struct peer_dice *d, struct strbuf *out)
{
	char a[2 * VRF_PROOF_BYTES + 1], b[2 * VRF_PROOF_BYTES + 1];

	hex_encode(d->proof[SIDE_AMERICAN], VRF_PROOF_BYTES, a);
	hex_encode(d->proof[SIDE_BRITISH], VRF_PROOF_BYTES, b);
	strbuf_addf(out, "%s american %s british %s\n", d->oid, a, b);
}

void peer_files_add_dice(struct peer_files *f, const struct peer_dice *d)
{
	if (f->n_dice == f->cap_dice) {
		f->cap_dice = f->cap_dice ? 2 * f->cap_dice : 16;
		f->dice = xrealloc(f->dice, (size_t)f->cap_dice * sizeof(*f->dice));
	}
	f->dice[f->n_dice++] = *d;
}

int peer_dice_parse(const char *line, size_t len, struct peer_files *f,
		    char *why, size_t whylen)
{
	struct peer_dice d;
	const size_t H = 2 * VRF_PROOF_BYTES;

	memset(&d, 0, sizeof(d));
	if (len != 40 + 10 + H + 9 + H || line[40] != ' ' ||
	    strncmp(line + 41, "american ", 9) || line[50 + H] != ' ' ||
	    strncmp(line + 51 + H, "british ", 8) ||
	    strspn(line, "0123456789abcdef") < 40 ||
	    hex_decode(line + 50, d.proof[SIDE_AMERICAN], VRF_PROOF_BYTES) < 0 ||
	    hex_decode(line + 59 + H, d.proof[SIDE_BRITISH], VRF_PROOF_BYTES) < 0)
		return bad(why, whylen, "a bad line of dice.txt");
	memcpy(d.oid, line, 40);
	d.oid[40] = '\0';
	peer_files_add_dice(f, &d);
	return 0;
}

/* Each line of text through parse. */
static int parse_lines(const char *text, struct peer_files *f,
		       int (*parse)(const char *, size_t, struct peer_files *, char *, size_t),
		       const char *name, struct strbuf *err)
{
	const char *p = text, *line;
	size_t len;
	char why[160];
	int n = 0;

	while (next_line(&p, &line, &len)) {
		n++;
		if (parse(line, len, f, why, sizeof(why)) < 0) {
			strbuf_addf(err, "%s:%d: %s\n", name, n, why);
			return -1;
		}
	}
	if (*p) {
		strbuf_addf(err, "%s: its last line has no LF\n", name);
		return -1;
	}
	return 0;
}

void peer_key_line(enum side side, const unsigned char key[32], struct strbuf *out)
{
	char hex[65];

	hex_encode(key, 32, hex);
	strbuf_addf(out, "%s %s\n", side_name(side), hex);
}

int peer_key_parse(const char *line, size_t len, struct peer_files *f,
		   char *why, size_t whylen)
{
	int side = len == 8 + 1 + 64 && !strncmp(line, "american ", 9) ? SIDE_AMERICAN :
		   len == 7 + 1 + 64 && !strncmp(line, "british ", 8) ? SIDE_BRITISH : 0;
	const char *hex = line + len - 64;

	if (!side || strspn(hex, "0123456789abcdef") < 64 || f->have_key[side] ||
	    hex_decode(hex, f->key[side], 32) < 0)
		return bad(why, whylen, "a bad line of keys.txt (SIDE and 64 hex digits, once a side)");
	f->have_key[side] = true;
	return 0;
}

int peer_files_load(struct repo *r, const char *rev, struct peer_files *f,
		    struct strbuf *err)
{
	struct strbuf t = STRBUF_INIT;
	char path[48], why[160];
	int ret = -1, rc;

	peer_files_init(f);
	if ((rc = repo_read(r, rev, "peer/shares.txt", &t)) < 0 ||
	    (rc == 0 && parse_lines(t.buf, f, peer_share_parse, "peer/shares.txt", err) < 0))
		goto out;
	strbuf_reset(&t);
	if ((rc = repo_read(r, rev, "peer/dice.txt", &t)) < 0 ||
	    (rc == 0 && parse_lines(t.buf, f, peer_dice_parse, "peer/dice.txt", err) < 0))
		goto out;
	strbuf_reset(&t);
	if ((rc = repo_read(r, rev, "peer/keys.txt", &t)) < 0 ||
	    (rc == 0 && parse_lines(t.buf, f, peer_key_parse, "peer/keys.txt", err) < 0))
		goto out;
	for (int g = 1; g <= PEER_MAX_GEN; g++) {
		for (int k = 1; k <= 2; k++) {
			strbuf_reset(&t);
			peer_shuffle_path(g, k, path);
			if ((rc = repo_read(r, rev, path, &t)) < 0)
				goto out;
			if (rc)
				continue;
			if (peer_shuffle_parse(t.buf, &f->sh[g][k], why, sizeof(why)) < 0 ||
			    f->sh[g][k].gen != g || f->sh[g][k].turn != k) {
				strbuf_addf(err, "%s: %s\n", path, why);
				goto out;
			}
		}
	}
	ret = 0;
out:
	strbuf_release(&t);
	return ret;
}

const struct peer_share *peer_files_share(const struct peer_files *f, int slot,
					  enum side side)
{
	for (int i = 0; i < f->n_shares; i++)
		if (f->shares[i].slot == slot && f->shares[i].side == side)
			return &f->shares[i];
	return NULL;
}

const unsigned char *peer_files_ct(const struct peer_files *f, int slot)
{
	int g = CARD_SLOT_GEN(slot), i = CARD_SLOT_POS(slot);
	const struct peer_shuffle *sh;

	if (g < 1 || g > PEER_MAX_GEN)
		return NULL;
	sh = &f->sh[g][2];
	if (!sh->have || i >= sh->n)
		return NULL;
	return sh->out + (size_t)i * PCRYPTO_CT;
}

int peer_files_open(const struct peer_files *f, int slot, int n_cards)
{
	const struct peer_share *a = peer_files_share(f, slot, SIDE_AMERICAN);
	const struct peer_share *b = peer_files_share(f, slot, SIDE_BRITISH);
	const unsigned char *ct = peer_files_ct(f, slot);
	int c;

	if (!a || !b || !ct)
		return 0;
	c = pcrypto_unmask(ct, a->share, b->share, n_cards);
	return c > 0 ? c : 0;
}
