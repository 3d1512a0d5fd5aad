/*
 * peer-report.c - the notices of a peer copy's postrider to its own
 * player (docs/peer.md 8.5): a mail of the other postrider refused, the
 * other side joined, a reminder (peer-remind.c). They are the host's
 * notices (notify.c, templates/notice.txt), written by his own
 * postrider as him; his reports and answers come from play.c and
 * notify.c as in host mode (peer-play.c).
 */
#include "peer.h"
#include "notify.h"

#include <stdio.h>
#include <string.h>

int peer_notice(struct peer_copy *pc, const struct mail_config *cfg,
		const char *kind, const char *subject, const char *text)
{
	struct notify n;
	int ret;

	memset(&n, 0, sizeof(n));
	n.outbox = peer_outbox_dir(pc, cfg);
	ret = notify_notice_subject(&n, &pc->g, pc->me, kind, subject, text);
	notify_release(&n);
	return ret;
}

int peer_notice_refused(struct peer_copy *pc, const struct mail_config *cfg,
			const char *why)
{
	struct strbuf text = STRBUF_INIT, subj = STRBUF_INIT;
	int ret;

	strbuf_addf(&subj, "[%s] a mail from the other postrider was refused", pc->g.id);
	strbuf_addf(&text, "Your postrider refused a mail that said it came from the other\n"
		    "player's postrider, and changed nothing:\n\n  %s\n\n"
		    "A forged mail, or a damaged one: if your game waits for him and no\n"
		    "good mail comes, ask him (`postrider peer status` says who owes what).\n",
		    why);
	ret = peer_notice(pc, cfg, "refused", subj.buf, text.buf);
	strbuf_release(&text);
	strbuf_release(&subj);
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
	strbuf_addf(&text, "The %s joined, with the keys whose fingerprint is\n\n    %s\n\n"
		    "Compare it with your opponent by telephone or in person (his `postrider\n"
		    "peer status` shows it). If it is not his, someone else holds his seat:\n"
		    "do not play this game.\n", side_name(other), fp);
	ret = peer_notice(pc, cfg, "joined", subj.buf, text.buf);
	strbuf_release(&text);
	strbuf_release(&subj);
	return ret;
}
