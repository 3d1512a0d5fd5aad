/*
 * archive.h - the replay page of an archived game (`postrider archive`).
 *
 * Ownership: the caller owns the game; the page is written to a file.
 */
#ifndef POSTRIDER_ARCHIVE_H
#define POSTRIDER_ARCHIVE_H

#include "game.h"

/*
 * Writes OUT_DIR/replay.html: one step per commit of g's history (the map,
 * what happened, the draws, both hands, the board), rendered from
 * templates/replay.html, a page that works from the file with no server and
 * no network. g must be revealed (the hands are opened with the seed).
 * Changes g->state. Returns 0, or -1 with the reason in err.
 */
int archive_replay(struct game *g, const char *out_dir, struct strbuf *err);

/* Appends s as a JSON string ("..." with escapes; '<' written \u003c so
 * that the text can stand inside a <script> element). */
void archive_json_string(struct strbuf *out, const char *s, size_t len);

#endif
