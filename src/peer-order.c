/*
 * peer-order.c - an order in a peer game (docs/peer.md 6.4, 9.5, 9.11):
 * run up to the first line that draws without the dice, that line
 * becoming a request; its later lines sealed, committed to, and shown as
 * they run; the request's line run by the answerer with the dice of both
 * players; the rest run by the order's own postrider.
 *
 * The order file: the order's lines, each one shown once it runs (or
 * "# dropped: LINE" once it can no longer), the others PEER_SEALED_LINE;
 * when none is left, "# salt HEX" ends it and the commitment of 6.4 is
 * checked.
 */
#include "peer-order.h"
#include "codec.h"
#include "engine/engine.h"
#include "order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#define SEALED "# (a line sealed until it runs or the game ends)"
#define DROPPED "# dropped: "
#define SALT "# salt "

int peer_run_text(struct peer_step *st, struct state *s, enum side side,
		  const char *text, struct rng_peer *rp, struct order_result *res)
{
	struct rng r;

	rng_init_keyless(&r, s->draws);
	r.peer = rp;
	r.log = &res->log;
	rp->generation = s->peer.generation + 1;
	rp->missing = false;
	order_run(st->pc->g.data, s, &r, side, text, res);
	s->draws = r.next;
	return rp->missing ? 1 : 0;
}

/* The lines of text, each without its LF, into a NULL-ended array. */
static int split(const char *text, char **line, int max)
{
	int n = 0;

	for (const char *p = text; *p && n < max; n++) {
		size_t l = strcspn(p, "\n");
		line[n] = xstrndup(p, l);
		p += l + (p[l] ? 1 : 0);
	}
	line[n] = NULL;
	return n;
}

static void free_lines(char **line)
{
	for (int i = 0; line[i]; i++)
		free(line[i]);
}

static void join(char **line, int from, int to, struct strbuf *out)
{
	for (int i = from; i < to; i++)
		strbuf_addf(out, "%s\n", line[i]);
}

/* Whether a line holds no decision (blank, or a comment). */
static bool is_blank(const char *line)
{
	size_t k = strspn(line, " \t");

	return !line[k] || line[k] == '#';
}

/*
 * Lines from..n-1 of an order run from st->next: the first that draws
 * without the dice ends the run (*request, *stop its index); one that
 * does not fit drops itself and the rest when may_drop (*stop its index),
 * else refuses the order with the engine's reason. Applies the lines
 * before *stop (*stop = n when all ran). Returns 0 or refused.
 */
static int advance(struct peer_step *st, enum side side, char **line, int from,
		   int n, bool may_drop, int *stop, bool *request,
		   struct strbuf *log)
{
	struct order_result res;
	struct rng_peer rp;
	int last_ok = from, r = 0;
	struct state s;

	*request = false;
	*stop = n;
	for (int j = from; j < n; j++) {
		struct strbuf pre = STRBUF_INIT;
		if (is_blank(line[j]) && j + 1 < n)
			continue;	/* judged with the line after it */
		join(line, from, j + 1, &pre);
		s = st->next;
		memset(&rp, 0, sizeof(rp));
		order_result_init(&res);
		int missing = peer_run_text(st, &s, side, pre.buf, &rp, &res);
		strbuf_release(&pre);
		if (missing || res.rejected) {
			*stop = j;
			*request = missing;
			if (!missing && !may_drop && !(is_blank(line[j]) && res.applied == 0 && last_ok > from))
				r = refuse_step(st, "%s", res.message.buf);
			else if (!missing && is_blank(line[j]))
				*stop = n;	/* trailing comments: nothing dropped */
			order_result_release(&res);
			break;
		}
		order_result_release(&res);
		last_ok = j + 1;
	}
	if (!r && last_ok > from) {
		struct strbuf pre = STRBUF_INIT;
		join(line, from, last_ok, &pre);
		memset(&rp, 0, sizeof(rp));
		order_result_init(&res);
		peer_run_text(st, &st->next, side, pre.buf, &rp, &res);
		strbuf_addbuf(log, &res.log);
		order_result_release(&res);
		strbuf_release(&pre);
	}
	return r;
}

/* The salt of order seq (6.4), 16 bytes. */
static void order_salt(const struct peer_copy *pc, unsigned seq, unsigned char salt[16])
{
	unsigned char msg[64], mac[32];
	size_t n = strlen("postrider-peer-order-salt");

	memcpy(msg, "postrider-peer-order-salt", n);
	put_be64(msg + n, seq);
	codec_hmac_sha256(pc->sk.rand, 32, msg, n + 8, mac);
	memcpy(salt, mac, 16);
}

static void commitment(const unsigned char salt[16], const char *text, char hex[65])
{
	size_t n = strlen(text);
	unsigned char *buf = xmalloc(36 + n), h[32];

	memcpy(buf, "postrider-peer-order", 20);
	memcpy(buf + 20, salt, 16);
	memcpy(buf + 36, text, n);
	SHA256(buf, 36 + n, h);
	free(buf);
	hex_encode(h, 32, hex);
}

/* The private copy of an order's full text: <gitdir>/postrider/peer-order-NNNN. */
static int private_path(struct peer_copy *pc, unsigned seq, struct strbuf *out)
{
	char name[32];

	snprintf(name, sizeof(name), "peer-order-%04u", seq);
	return repo_private_path(pc->g.repo, name, out);
}

/* The public file: lines 0..shown-1 as they are, the rest sealed. */
static void sealed_file(char **line, int n, int shown, struct strbuf *out)
{
	join(line, 0, shown, out);
	for (int i = shown; i < n; i++)
		strbuf_addf(out, "%s\n", SEALED);
}

int peer_order_first(struct peer_step *st, struct strbuf *log)
{
	char *line[257];
	struct strbuf text = STRBUF_INIT;
	int n, stop, r;
	bool request;

	strbuf_addstr(&text, st->order);
	if (text.len && text.buf[text.len - 1] != '\n')
		strbuf_addch(&text, '\n');
	n = split(text.buf, line, 256);
	st->order_seq = st->next.seq;
	snprintf(st->order_path, sizeof(st->order_path), "orders/%04u-%s.txt",
		 st->order_seq, side_name(st->c));
	if (!st->make && strstr(text.buf, SEALED "\n")) {
		/* the public text: the sealed lines are comments, the line
		 * before them the request's */
		int shown = 0;
		while (shown < n && strcmp(line[shown], SEALED))
			shown++;
		r = advance(st, st->c, line, 0, shown, false, &stop, &request, log);
		if (!r && (!request || stop != shown - 1))
			/* a committer who shows a line more or less than the
			 * rule gives */
			r = refuse_step(st, "the order shows lines up to %d, but the dice are called for at line %d",
					shown, stop + 1);
		if (!r)
			sealed_file(line, n, shown, &st->order_file);
	} else {
		r = advance(st, st->c, line, 0, n, false, &stop, &request, log);
		if (!r && request)
			sealed_file(line, n, stop + 1, &st->order_file);
		else if (!r)
			strbuf_addbuf(&st->order_file, &text);
		if (!r && request && st->make) {
			unsigned char salt[16];
			struct strbuf path = STRBUF_INIT;
			order_salt(st->pc, st->order_seq, salt);
			commitment(salt, text.buf, st->next.peer.sealed[st->c]);
			if (private_path(st->pc, st->order_seq, &path) < 0 ||
			    write_file_atomic(path.buf, text.buf, text.len) < 0)
				r = -1;
			strbuf_release(&path);
		}
	}
	if (!r && request) {
		if (!st->make)
			snprintf(st->next.peer.sealed[st->c], 65, "%s", st->given_sealed);
		snprintf(st->next.peer.pending, sizeof(st->next.peer.pending), "%s %u %d",
			 side_name(st->c), st->order_seq, stop + 1);
		st->request = true;
	}
	free_lines(line);
	strbuf_release(&text);
	return r;
}

/* "SIDE NNNN K" of s's pending: 0, or -1 when there is none. */
int peer_pending(const struct state *s, enum side *side, unsigned *seq, int *line)
{
	char who[16];
	int sd;

	if (!s->peer.pending[0] ||
	    sscanf(s->peer.pending, "%15s %u %d", who, seq, line) != 3 ||
	    (sd = side_parse(who)) <= 0)
		return -1;
	*side = (enum side)sd;
	return 0;
}

/* The order file of side's order seq at the parent, split. */
static int read_file_lines(struct peer_step *st, enum side side, unsigned seq,
			   char **line, char path[64])
{
	struct strbuf t = STRBUF_INIT;
	int n = -1;

	snprintf(path, 64, "orders/%04u-%s.txt", seq, side_name(side));
	if (repo_read(st->pc->g.repo, st->pc->g.head, path, &t) == 0)
		n = split(t.buf, line, 256);
	strbuf_release(&t);
	return n;
}

/* After a line of side's open order ran: still open, or closed. */
static void reopen(struct peer_step *st, enum side side, unsigned seq)
{
	if (st->next.peer.sealed[side][0])
		snprintf(st->next.peer.pending, sizeof(st->next.peer.pending), "%s %u 0",
			 side_name(side), seq);
	else
		st->next.peer.pending[0] = '\0';
}

int peer_order_pending(struct peer_step *st, struct rng_peer *rp, struct strbuf *log)
{
	enum side side;
	unsigned seq;
	int k, n, r = 0;
	char *line[257], path[64];
	struct order_result res;

	if (peer_pending(st->parent, &side, &seq, &k) < 0 || k < 1)
		return refuse_step(st, "no request is pending");
	n = read_file_lines(st, side, seq, line, path);
	if (n < k) {
		if (n >= 0)
			free_lines(line);
		return refuse_step(st, "the request's line %d is not in %s", k, path);
	}
	order_result_init(&res);
	strbuf_addf(log, "\n-- %d, order %u (%s) goes on with the dice of both players: %s --\n",
		    st->parent->year, seq, side_title(side), line[k - 1]);
	rp->missing = false;
	rp->reveal = peer_step_reveal;
	rp->ctx = st;
	{
		struct strbuf one = STRBUF_INIT;
		strbuf_addf(&one, "%s\n", line[k - 1]);
		struct state s = st->next;
		peer_run_text(st, &s, side, one.buf, rp, &res);
		strbuf_release(&one);
		if (rp->missing)
			r = refuse_step(st, "line %d of %s needs a fact this copy does not have", k, path);
		else if (!res.rejected)
			st->next = s;
		else
			strbuf_addstr(log, "(the line no longer fits: dropped)\n");
	}
	strbuf_addbuf(log, &res.log);
	order_result_release(&res);
	reopen(st, side, seq);
	free_lines(line);
	return r;
}

/* The original lines of the rest of an open order: the private copy
 * (make), or the lines the patch shows (verify), without their
 * "# dropped: " mark; the salt line of the patch in salt_hex. */
static int rest_lines(struct peer_step *st, unsigned seq, char **line, int sh,
		      int n, char salt_hex[33])
{
	struct strbuf t = STRBUF_INIT, path = STRBUF_INIT;
	char *all[257];
	int m = 0;

	salt_hex[0] = '\0';
	if (st->make) {
		if (private_path(st->pc, seq, &path) < 0 ||
		    read_file(path.buf, &t, 1 << 20) < 0) {
			strbuf_release(&path);
			return refuse_step(st, "the full text of order %u is lost from this copy", seq);
		}
		m = split(t.buf, all, 256);
		for (int i = sh; i < n && i < m; i++)
			line[i] = xstrdup(all[i]);
		free_lines(all);
		m = m == n ? n - sh : -1;
	} else {
		int g = split(st->cont ? st->cont : "", all, 256);
		for (int i = 0; i < g; i++) {
			const char *l = all[i];
			if (!strncmp(l, SALT, strlen(SALT))) {
				snprintf(salt_hex, 33, "%s", l + strlen(SALT));
				continue;
			}
			if (!strncmp(l, DROPPED, strlen(DROPPED)))
				l += strlen(DROPPED);
			if (sh + m < n)
				line[sh + m++] = xstrdup(l);
		}
		free_lines(all);
	}
	line[sh + (m > 0 ? m : 0)] = NULL;
	strbuf_release(&t);
	strbuf_release(&path);
	return m < 0 ? refuse_step(st, "the private text of order %u does not fit its file", seq) : 0;
}

/* The order file after a continuation, and its commitment checked when
 * no line stays sealed. 0 or refused. */
static int close_file(struct peer_step *st, char **f, char **line, int sh, int n,
		      int stop, bool request, const char *salt_hex)
{
	unsigned char salt[16];
	char hex[65];
	struct strbuf full = STRBUF_INIT;
	int r = 0;

	join(f, 0, sh, &st->order_file);
	if (request) {
		join(line, sh, stop + 1, &st->order_file);
		for (int i = stop + 1; i < n; i++)
			strbuf_addf(&st->order_file, "%s\n", SEALED);
		return 0;
	}
	join(line, sh, stop, &st->order_file);
	for (int i = stop; i < n; i++)
		strbuf_addf(&st->order_file, "%s%s\n", DROPPED, line[i]);
	if (st->make)
		order_salt(st->pc, st->order_seq, salt);
	else if (strlen(salt_hex) != 32 || hex_decode(salt_hex, salt, 16) < 0)
		return refuse_step(st, "order %u ends without its salt (6.4)", st->order_seq);
	hex_encode(salt, 16, hex);
	strbuf_addf(&st->order_file, "%s%s\n", SALT, hex);
	join(line, 0, n, &full);
	commitment(salt, full.buf, hex);
	if (strcmp(hex, st->parent->peer.sealed[st->c]))
		r = refuse_step(st, "the lines of order %u are not those the %s committed to before the dice (6.4)",
				st->order_seq, side_name(st->c));
	st->next.peer.sealed[st->c][0] = '\0';
	strbuf_release(&full);
	return r;
}

int peer_order_continue(struct peer_step *st, struct strbuf *log)
{
	enum side side;
	unsigned seq;
	int k, n, sh, r, stop;
	bool request;
	char *f[257], *line[257], salt_hex[33];
	struct strbuf happened = STRBUF_INIT;

	if (peer_pending(&st->next, &side, &seq, &k) < 0 || side != st->c || k != 0)
		return refuse_step(st, "the %s has no order with lines left", side_name(st->c));
	n = read_file_lines(st, side, seq, f, st->order_path);
	if (n < 0)
		return refuse_step(st, "order %u of the %s is not in the record", seq, side_name(side));
	st->order_seq = seq;
	for (sh = 0; sh < n && strcmp(f[sh], SEALED); sh++)
		line[sh] = xstrdup(f[sh]);
	line[sh] = NULL;
	r = rest_lines(st, seq, line, sh, n, salt_hex);
	int avail = sh;
	while (line[avail])
		avail++;
	if (!r) {
		/* the cards these lines play, opened by his shares */
		struct strbuf rest = STRBUF_INIT;
		join(line, sh, avail, &rest);
		r = peer_reveal_played(st, rest.buf);
		strbuf_release(&rest);
		if (!r) {
			for (int sd = SIDE_AMERICAN; sd <= SIDE_BRITISH; sd++)
				for (int i = 0; i < st->next.n_hand[sd]; i++) {
					int v = st->next.hand[sd][i];
					int c = CARD_IS_SLOT(v) ? peer_files_open(st->files, v, st->pc->g.data->n_cards) : 0;
					if (c)
						st->next.hand[sd][i] = c;
				}
		}
	}
	if (!r && avail < n) {
		/* verify: the lines shown end in a new request */
		r = advance(st, side, line, sh, avail, true, &stop, &request, &happened);
		if (!r && (!request || stop != avail - 1))
			r = refuse_step(st, "order %u shows lines up to %d, but the rule stops at line %d",
					seq, avail, stop + 1);
	} else if (!r) {
		r = advance(st, side, line, sh, n, true, &stop, &request, &happened);
	}
	if (!r)
		r = close_file(st, f, line, sh, n, stop, request, salt_hex);
	if (!r && request) {
		snprintf(st->next.peer.pending, sizeof(st->next.peer.pending), "%s %u %d",
			 side_name(side), seq, stop + 1);
		st->request = true;
	} else if (!r) {
		reopen(st, side, seq);
	}
	if (!r && happened.len)
		strbuf_addf(log, "\n-- %d, order %u (%s) goes on --\n%s", st->parent->year, seq,
			    side_title(side), happened.buf);
	free_lines(f);
	free_lines(line);
	strbuf_release(&happened);
	return r;
}

/*
 * The order text run on the committer's own view (cards: his hand as he
 * knows it) from st->next, line by line as peer-order.c runs it: up to
 * and with the first line that draws without the dice, or up to the first
 * line that does not fit (refused in a new order, dropped in a
 * continuation). The state it reaches in *out: the cards it plays are
 * those to reveal now, and no card of a sealed line is.
 */
static int own_run(struct peer_step *st, const char *text, const int *cards,
		   struct state *out)
{
	struct state base = st->next;
	struct strbuf pre = STRBUF_INIT;
	const char *p = text;
	int r = 0;

	for (int i = 0; i < base.n_hand[st->c]; i++)
		if (cards[i])
			base.hand[st->c][i] = cards[i];
	*out = base;
	while (*p) {
		size_t l = strcspn(p, "\n");
		struct rng_peer rp = { 0 };
		struct order_result res;
		struct state s = base;
		size_t k = strspn(p, " \t");
		bool blank = k >= l || p[k] == '#';
		strbuf_add(&pre, p, l);
		strbuf_addch(&pre, '\n');
		p += l + (p[l] ? 1 : 0);
		if (blank && *p)
			continue;
		order_result_init(&res);
		peer_run_text(st, &s, st->c, pre.buf, &rp, &res);
		if (rp.missing) {
			*out = s;	/* the request's line: its card shows */
			order_result_release(&res);
			break;
		}
		if (res.rejected) {
			if (st->kind == PEER_ORDER && !(blank && res.applied == 0 && pre.len > l + 1))
				r = refuse_step(st, "%s", res.message.buf);
			order_result_release(&res);
			break;
		}
		*out = s;
		order_result_release(&res);
	}
	strbuf_release(&pre);
	return r;
}

/*
 * The cards of c's hand this order plays, each opened by c's share: in
 * make, those the order takes out of the hand when run on c's own view;
 * in verify, the patch's shares of c for slots of c's own hand.
 */
int peer_reveal_played(struct peer_step *st, const char *text)
{
	enum side c = st->c;
	const struct state *p = st->parent;

	if (!st->make) {
		for (int i = 0; i < st->given->n_shares; i++) {
			int v = st->given->shares[i].slot;
			bool mine = false;
			for (int j = 0; j < p->n_hand[c]; j++)
				mine |= p->hand[c][j] == v;
			if (st->given->shares[i].side == c && mine) {
				int r = peer_fact_share(st, v);
				if (r)
					return r;
			}
		}
		return 0;
	}
	/* make: the order on the committer's view of his own hand */
	if (!text)
		return 0;
	int cards[STATE_MAX_HAND] = { 0 }, r;
	struct state s;

	peer_known_hand(st->pc, st->files, &st->next, c, cards);
	if ((r = own_run(st, text, cards, &s)) != 0)
		return r;
	for (int i = 0; i < st->next.n_hand[c]; i++) {
		bool kept = false;
		if (!CARD_IS_SLOT(st->next.hand[c][i]) || !cards[i])
			continue;
		for (int j = 0; j < s.n_hand[c]; j++)
			kept |= s.hand[c][j] == cards[i];
		if (!kept && (r = peer_fact_share(st, st->next.hand[c][i])) != 0)
			return r;
	}
	return 0;
}
