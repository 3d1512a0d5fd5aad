/*
 * peer-report.c - a peer game's postrider and its own player (docs/peer.md
 * 8.4, 8.5): the report when his decision is due (what happened, his
 * hand, the legal orders, from his own copy), with a one-time token, and
 * his order by mail: a reply from his own address that carries the token.
 */
#include "peer.h"
#include "peer-step.h"
#include "codec.h"
#include "engine/engine.h"
#include "fair.h"
#include "mail.h"
#include "outbox.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

/* The token of the copy's player for its state (8.4): fairness's token
 * under a key only his own postrider holds. */
static void token(const struct peer_copy *pc, char out[FAIR_TOKEN_SIZE])
{
	static const char label[] = "postrider-peer-key-token";
	unsigned char k[32];

	codec_hmac_sha256(pc->sk.rand, 32, (const unsigned char *)label, sizeof(label) - 1, k);
	fair_token(k, pc->g.id, pc->g.state.orders[pc->me], pc->me, out);
	OPENSSL_cleanse(k, sizeof(k));
}

/* "Name <addr>" of the copy's player. */
static char *me_line(const struct peer_copy *pc)
{
	return xstrfmt("%s <%s>", pc->g.player[pc->me].name, pc->g.player[pc->me].addr);
}

/* A mail from the postrider to its own player, into the outbox. */
static int to_player(struct peer_copy *pc, const struct mail_config *cfg,
		     const char *kind, const char *subject, const char *text)
{
	struct strbuf msg = STRBUF_INIT, err = STRBUF_INIT;
	char date[40], *me = me_line(pc), *dir = peer_outbox_dir(pc, cfg);
	const char *at = strchr(pc->g.player[pc->me].addr, '@');
	char *id = xstrfmt("<postrider.%s.%s.%.12s.%s@%s>", pc->g.id, kind, pc->g.head,
			   side_name(pc->me), at ? at + 1 : "localhost");
	char *hint = xstrfmt("%s-%s-%.12s", pc->g.id, kind, pc->g.head);
	int ret = -1;

	mail_format_date(game_now(), 0, date);
	struct mail_out m = {
		.from = me, .to = me, .subject = subject, .message_id = id,
		.date = date, .game_id = pc->g.id, .commit = pc->g.head, .text = text,
	};
	if (mail_compose(&m, &msg, &err) < 0)
		error("cannot write the %s to the %s: %s", kind, side_name(pc->me), err.buf);
	else
		ret = outbox_add(dir, hint, msg.buf, msg.len, NULL);
	free(me);
	free(dir);
	free(id);
	free(hint);
	strbuf_release(&msg);
	strbuf_release(&err);
	return ret;
}

int peer_notice(struct peer_copy *pc, const struct mail_config *cfg,
		const char *kind, const char *subject, const char *text)
{
	return to_player(pc, cfg, kind, subject, text);
}

int peer_notice_refused(struct peer_copy *pc, const struct mail_config *cfg,
			const char *why)
{
	struct strbuf text = STRBUF_INIT;
	int ret;

	strbuf_addf(&text, "Your postrider of game %s refused a mail that said it came from the\n"
		    "other player's postrider, and changed nothing:\n\n  %s\n\n"
		    "A forged mail, or a damaged one: if your game waits for him and no\n"
		    "good mail comes, ask him (`postrider peer status` says who owes what).\n",
		    pc->g.id, why);
	ret = to_player(pc, cfg, "refused", "a mail from the other postrider was refused", text.buf);
	strbuf_release(&text);
	return ret;
}

int peer_report(struct peer_copy *pc, const struct mail_config *cfg, const char *since)
{
	struct strbuf text = STRBUF_INIT, subj = STRBUF_INIT, p = STRBUF_INIT;
	struct state view = pc->g.state;
	char tok[FAIR_TOKEN_SIZE];
	int ret;

	if (engine_game_over(&pc->g.state) || pc->g.state.prompt.side != pc->me ||
	    peer_owes(&pc->g.state, pc->me) || peer_owes(&pc->g.state, OTHER_SIDE(pc->me)))
		return 0;
	if (peer_view_own(pc->g.dir, &view) < 0)
		return -1;
	token(pc, tok);
	engine_describe_prompt(pc->g.data, &view, &p);
	strbuf_addf(&subj, "[%s] %s: your decision (%s)", pc->g.id, tok, p.buf);
	strbuf_addf(&text, "Your postrider of game %s: it is your decision.\n\n%s\n\n",
		    pc->g.id, p.buf);
	strbuf_addstr(&text, "Your hand:");
	for (int i = 0; i < view.n_hand[pc->me]; i++) {
		int c = view.hand[pc->me][i];
		if (c > 0 && c <= pc->g.data->n_cards)
			strbuf_addf(&text, "\n  %s", pc->g.data->cards[c].label);
	}
	strbuf_addf(&text, "%s\n", view.n_hand[pc->me] ? "" : " none");
	if (since && *since)
		strbuf_addf(&text, "\nWhat happened:\n%s", since);
	strbuf_addstr(&text, "\nYour legal orders:\n");
	report_options(pc->g.data, &view, false, &text);
	strbuf_addstr(&text, "\nReply to this mail with your order, one decision a line (keep the\n"
		      "subject: its token says the order answers this report).\n");
	ret = to_player(pc, cfg, "report", subj.buf, text.buf);
	strbuf_release(&text);
	strbuf_release(&subj);
	strbuf_release(&p);
	return ret;
}

int peer_join_notice(struct peer_copy *pc, const struct mail_config *cfg)
{
	enum side other = OTHER_SIDE(pc->me);
	struct strbuf text = STRBUF_INIT, subj = STRBUF_INIT;
	char fp[17];
	int ret;

	peer_fingerprint(&pc->rec.keys[other], fp);
	strbuf_addf(&subj, "[%s] the %s joined: fingerprint %s", pc->g.id, side_name(other), fp);
	strbuf_addf(&text, "Your postrider of game %s: the %s joined, with the keys whose\n"
		    "fingerprint is\n\n    %s\n\n"
		    "Compare it with your opponent by telephone or in person (his `postrider\n"
		    "peer status` shows it). If it is not his, someone else holds his seat:\n"
		    "do not play this game.\n", pc->g.id, side_name(other), fp);
	ret = to_player(pc, cfg, "joined", subj.buf, text.buf);
	strbuf_release(&text);
	strbuf_release(&subj);
	return ret;
}

int peer_mailed_order(struct peer_copy *pc, const struct mail_config *cfg,
		      const char *mail, size_t len, struct strbuf *said)
{
	struct mail_message m = { 0 };
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT, out = STRBUF_INIT;
	char tok[FAIR_TOKEN_SIZE], got[MAIL_TOKEN_SIZE];
	char *order = NULL;
	int status = 1;

	if (mail_parse(mail, len, &m, &err) < 0) {
		strbuf_addf(said, "rejected: the mail cannot be read: %s (nothing was changed)", err.buf);
		goto out;
	}
	if (m.automatic) {
		strbuf_addf(said, "ignored: a machine's mail (%s)", m.automatic);
		status = 0;
		goto out;
	}
	if (ascii_strcasecmp(m.from_addr, pc->g.player[pc->me].addr)) {
		/* a stranger, or the opponent writing to the wrong postrider:
		 * no reply (nothing a stranger could learn from) */
		strbuf_addf(said, "rejected: %s is not this copy's player (%s): only his own orders are read here",
			    m.from_addr, pc->g.player[pc->me].addr);
		goto out;
	}
	token(pc, tok);
	if (!mail_find_token(&m, got) || !fair_token_equal(got, tok)) {
		strbuf_addstr(said, "rejected: the order carries no token, or a stale one: reply to your postrider's last report");
		to_player(pc, cfg, "rejected", "your order was not read: no token, or a stale one",
			  "Your postrider read no order from your mail: reply to its last report,\nwhose subject carries the token of the decision now due.\n");
		goto out;
	}
	order = mail_order_text(m.body);
	status = peer_order_now(pc, cfg, order, false, &why, &out);
	if (status == 1) {
		struct strbuf t = STRBUF_INIT;
		strbuf_addf(&t, "Your order was not played: %s\n\nNothing was changed; your last report stands.\n",
			    why.buf);
		to_player(pc, cfg, "rejected", "your order was not played", t.buf);
		strbuf_release(&t);
	}
	strbuf_addbuf(said, status == 0 ? &out : &why);
out:
	free(order);
	mail_message_release(&m);
	strbuf_release(&err);
	strbuf_release(&why);
	strbuf_release(&out);
	return status;
}
