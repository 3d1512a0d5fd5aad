/*
 * turn.c - one accepted order becomes one commit and its mail.
 */
#include "turn.h"
#include "fault.h"
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void turn_happened(struct strbuf *out, const struct state *before,
		   uint32_t seq, enum side side, const char *engine_log)
{
	strbuf_addf(out, "\n-- %d, order %u (%s) --\n%s", before->year, seq,
		    side_title(side), engine_log);
}

int turn_publish(struct repo *r, const char *parent, const char *commit,
		 struct notify *n, struct strbuf *err)
{
	int pr;

	fault_point("mail-staged");
	pr = repo_commit_publish(r, parent, commit);

	if (pr == REPO_STALE) {
		notify_discard(n);
		strbuf_addstr(err, "the game moved on while this order was adjudicated");
		return TURN_STALE;
	}
	if (pr < 0) {
		notify_discard(n);
		strbuf_addstr(err, "cannot publish the commit");
		return -1;
	}
	trace_perf("commit published");
	fault_point("branch-moved");
	if (notify_publish(n) < 0)
		warning("commit %.12s is made but its mail stays in '%s/tmp'; "
			"the next run releases it", commit, n->outbox);
	fault_point("mail-released");
	return 0;
}

void turn_mark_host(struct strbuf *out, enum side side, bool late)
{
	if (late)
		strbuf_addf(out, "Typed by the host (play --as %s --default): the %s's default "
			    "order, the %s being late.\n", side_name(side), side_title(side),
			    side_title(side));
	else
		strbuf_addf(out, "Typed by the host (play --as %s), not sent by the %s by mail.\n",
			    side_name(side), side_title(side));
}

int turn_commit(struct game *g, const struct turn *t, struct notify *n,
		char commit[41], struct strbuf *err)
{
	struct strbuf state_yaml = STRBUF_INIT, sealed = STRBUF_INIT;
	struct strbuf log = STRBUF_INIT, msg = STRBUF_INIT, patch = STRBUF_INIT;
	struct strbuf proofs = STRBUF_INIT;
	struct repo_file *files = xcalloc(6 + (size_t)t->n_extra, sizeof(*files));
	char order_path[64];
	int nf = 0, ret = -1, r;
	const bool first = !g->head[0];
	const struct game_player *who = &g->player[t->side];
	long long now = game_now();
	struct repo_ident author = { who->name, who->addr, now, 0 };
	struct repo_ident committer = { g->player[0].name, g->player[0].addr, now, 0 };

	if (game_state_files(g, t->next, &state_yaml, &sealed) < 0) {
		strbuf_addstr(err, "cannot seal the private state");
		goto out;
	}
	if (!first && repo_read(g->repo, g->head, "log.txt", &log) < 0) {
		strbuf_addstr(err, "cannot read log.txt");
		goto out;
	}
	strbuf_addstr(&log, t->happened);
	if (log.len && log.buf[log.len - 1] != '\n')
		strbuf_addch(&log, '\n');
	/* the map's picture is painted while the commit is written and
	 * synced (bench/results.md) */
	notify_map_start(n, g, t->next, log.buf);
	trace_perf("map drawn, its PNG started");
	files[nf++] = (struct repo_file){ "state.yaml", state_yaml.buf, state_yaml.len };
	files[nf++] = (struct repo_file){ "private/state.sealed", sealed.buf, sealed.len };
	files[nf++] = (struct repo_file){ "log.txt", log.buf, log.len };
	if (game_proves(g)) {
		/* every public draw's proof, one line each, in draw order */
		if (!first && repo_read(g->repo, g->head, "proofs.txt", &proofs) < 0) {
			strbuf_addstr(err, "cannot read proofs.txt");
			goto out;
		}
		if (t->proofs)
			strbuf_addstr(&proofs, t->proofs);
		files[nf++] = (struct repo_file){ "proofs.txt", proofs.buf, proofs.len };
	}
	if (t->order_text) {
		snprintf(order_path, sizeof(order_path), "orders/%04u-%s.txt",
			 t->next->seq, side_name(t->side));
		files[nf++] = (struct repo_file){ order_path, t->order_text, strlen(t->order_text) };
	}
	for (int i = 0; i < t->n_extra; i++)
		files[nf++] = t->extra[i];

	strbuf_addf(&msg, "%s\n\n", t->subject);
	if (t->body && *t->body)
		strbuf_addf(&msg, "%s\n", t->body);
	strbuf_addf(&msg, "Postrider-Game: %s\nPostrider-Seq: %u\nPostrider-Side: %s\n",
		    g->id, t->next->seq, side_name(t->side));
	if (t->next->draws > g->state.draws || first)
		strbuf_addf(&msg, "Postrider-Draws: %llu-%llu\n",
			    (unsigned long long)(first ? 0 : g->state.draws),
			    (unsigned long long)t->next->draws);
	if (t->trailers)
		strbuf_addstr(&msg, t->trailers);

	if (repo_commit_prepare(g->repo, first ? NULL : g->head, files, nf, NULL,
				&author, &committer, msg.buf, commit) < 0) {
		strbuf_addstr(err, "cannot write the commit");
		goto out;
	}
	trace_perf("commit written");
	fault_point("commit-prepared");
	/* the first commit's component data as deflated binary patches:
	 * its patch weighs a third as much (repo.h) */
	if ((first ? repo_format_patch_packed(g->repo, commit, "data/", &patch) :
		     repo_format_patch(g->repo, commit, &patch)) < 0) {
		strbuf_addstr(err, "cannot format the commit as a patch");
		goto out;
	}
	trace_perf("patch formatted");
	if (notify_turn(n, g, t->next, commit, patch.buf, log.buf, err) < 0)
		goto out;
	trace_perf("reports staged");
	r = turn_publish(g->repo, first ? NULL : g->head, commit, n, err);
	if (r != 0) {
		ret = r;
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&state_yaml);
	strbuf_release(&sealed);
	strbuf_release(&log);
	strbuf_release(&proofs);
	strbuf_release(&msg);
	strbuf_release(&patch);
	free(files);
	return ret;
}

int turn_commit_host(struct game *g, const struct strbuf *yaml,
		     const char *happened, const char *subject,
		     struct notify *n, char commit[41], struct strbuf *err)
{
	return turn_commit_host_files(g, yaml, NULL, 0, happened, subject, n, commit, err);
}

int turn_commit_host_files(struct game *g, const struct strbuf *yaml,
			   const struct repo_file *more, int n_more, const char *happened,
			   const char *subject, struct notify *n, char commit[41],
			   struct strbuf *err)
{
	struct repo_file *extra = xcalloc(1 + (size_t)n_more, sizeof(*extra));
	int r;

	extra[0] = (struct repo_file){ "game.yaml", yaml->buf, yaml->len };
	for (int i = 0; i < n_more; i++)
		extra[1 + i] = more[i];
	struct turn t = {
		.next = &g->state, .side = SIDE_NONE, .happened = happened,
		.subject = subject, .extra = extra, .n_extra = 1 + n_more,
	};
	r = turn_commit(g, &t, n, commit, err);
	free(extra);
	return r;
}
