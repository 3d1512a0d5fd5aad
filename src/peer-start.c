/*
 * peer-start.c - the first two commits of a peer game (docs/peer.md 9.1):
 * the invitation and the join, built by one function each, which the
 * committer runs to make the commit and the receiver to replay it (8.3
 * step 6): the same facts give the same commit id.
 */
#include "peer-start.h"
#include "engine/engine.h"
#include "state-yaml.h"

#include <stdlib.h>
#include <string.h>

void peer_join_line(const struct game *g, enum side joiner, struct strbuf *out)
{
	strbuf_addf(out, "\n-- The %s, %s, joins the game; no host: every die and card comes from both players (peer) --\n",
		    side_title(joiner), g->player[joiner].name);
}

void peer_setup_state(const struct game *g, struct state *s, struct strbuf *log)
{
	struct rng r;

	rng_init_keyless(&r, 0);
	engine_new_game(g->data, s, &r, log);
	s->tournament = g->tournament;	/* 6.34.C.i */
	s->peer.on = true;
}

int peer_invite_commit(struct game *g, const struct peer_record *rec,
		       enum side inviter, long long time, char commit[41])
{
	struct strbuf yaml = STRBUF_INIT, log = STRBUF_INIT, state = STRBUF_INIT;
	struct strbuf texts[DATA_MAX_FILES], waits = STRBUF_INIT;
	struct repo_file files[DATA_MAX_FILES + 3];
	char *paths[DATA_MAX_FILES] = { NULL };
	int nf = 0, ret = -1;
	struct state s;

	for (int i = 0; i < DATA_MAX_FILES; i++)
		strbuf_init(&texts[i]);
	peer_game_yaml(g, rec, &yaml);
	strbuf_addf(&log, "-- A game between two players with no host: the %s, %s, invites the %s, %s (set-up, 4.0) --\n",
		    side_title(inviter), g->player[inviter].name,
		    side_title(OTHER_SIDE(inviter)), g->player[OTHER_SIDE(inviter)].name);
	peer_setup_state(g, &s, &log);
	if (log.len && log.buf[log.len - 1] != '\n')
		strbuf_addch(&log, '\n');
	state_write_public(&s, g->data, NULL, &state);
	files[nf++] = (struct repo_file){ "game.yaml", yaml.buf, yaml.len };
	files[nf++] = (struct repo_file){ "state.yaml", state.buf, state.len };
	files[nf++] = (struct repo_file){ "log.txt", log.buf, log.len };
	for (int i = 0; i < g->n_data_files; i++) {
		paths[i] = xstrfmt("data/%s", g->data_files[i]);
		/* the inviter's from the data folder, a copy's from its tree */
		if (g->head[0] ? repo_read(g->repo, g->head, paths[i], &texts[i]) != 0
			       : read_file(g->data->files[i], &texts[i], 4 << 20) < 0) {
			error("cannot read the component data '%s'", paths[i]);
			goto out;
		}
		files[nf++] = (struct repo_file){ paths[i], texts[i].buf, texts[i].len };
	}
	strbuf_addf(&waits, "%s join\n", side_name(OTHER_SIDE(inviter)));
	struct peer_commit pc = {
		.kind = PEER_INVITE, .side = inviter, .seq = 1,
		.subject = "Invitation to a game with no host",
		.waits = waits.buf, .files = files, .n_files = nf, .time = time,
	};
	ret = peer_commit_prepare(g, NULL, &pc, commit);
out:
	for (int i = 0; i < DATA_MAX_FILES; i++) {
		free(paths[i]);
		strbuf_release(&texts[i]);
	}
	strbuf_release(&yaml);
	strbuf_release(&log);
	strbuf_release(&state);
	strbuf_release(&waits);
	return ret;
}

int peer_join_commit(struct game *g, const struct peer_record *rec,
		     enum side joiner, long long time, char commit[41])
{
	struct strbuf yaml = STRBUF_INIT, log = STRBUF_INIT, waits = STRBUF_INIT;
	struct repo_file files[2];
	int ret = -1;

	peer_game_yaml(g, rec, &yaml);
	if (repo_read(g->repo, g->head, "log.txt", &log) != 0) {
		error("the game has no log.txt");
		goto out;
	}
	peer_join_line(g, joiner, &log);
	files[0] = (struct repo_file){ "game.yaml", yaml.buf, yaml.len };
	files[1] = (struct repo_file){ "log.txt", log.buf, log.len };
	strbuf_addf(&waits, "%s decision\n", side_name(g->state.prompt.side));
	struct peer_commit pc = {
		.kind = PEER_JOIN, .side = joiner, .seq = 2,
		.subject = "Joined the game",
		.waits = waits.buf, .files = files, .n_files = 2, .time = time,
	};
	ret = peer_commit_prepare(g, g->head, &pc, commit);
out:
	strbuf_release(&yaml);
	strbuf_release(&log);
	strbuf_release(&waits);
	return ret;
}
