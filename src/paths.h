/*
 * paths.h - where postrider finds the files it ships with (the component
 * data under games/, the templates), whatever the working directory:
 *
 *   1. the environment variable given (POSTRIDER_GAMES, POSTRIDER_TEMPLATES),
 *      as it is, even if it holds nothing (the read then says so),
 *   2. beside the executable (/proc/self/exe): EXEDIR/SUB (a copy at the
 *      top of a checkout), EXEDIR/../SUB (build/postrider in a checkout),
 *      EXEDIR/../share/postrider/SUB (installed under a PREFIX),
 *   3. the DATADIR compiled in (make install PREFIX=...).
 *
 * Ownership: the result is allocated; the caller frees it.
 */
#ifndef POSTRIDER_PATHS_H
#define POSTRIDER_PATHS_H

/*
 * The first folder of the list above, for sub ("templates",
 * "games/washingtons-war"), that holds the file probe ("turn.txt",
 * "cards.yaml"); env is the variable to look at first (its value + "/" +
 * env_sub if env_sub is not NULL), taken without probing when set. If
 * no folder holds it, the DATADIR one (a later read then says what is
 * missing).
 */
char *paths_find(const char *env, const char *env_sub, const char *sub,
		 const char *probe);

#endif
