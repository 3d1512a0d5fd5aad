/*
 * engine-only.c - the engine links alone (issue 15). Built against
 * libengine.a as a whole archive with libcrypto only (Makefile,
 * engine-check): a reference from the engine to libyaml, libgit2 or
 * libcurl fails the link. Runs one trivial call so the program is used.
 */
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"

int main(void)
{
	static struct state s;

	memset(&s, 0, sizeof(s));
	engine_begin_order(&s);
	printf("the engine links without libyaml, libgit2 and libcurl (game over: %s)\n",
	       engine_game_over(&s) ? "yes" : "no");
	return 0;
}
