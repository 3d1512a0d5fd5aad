/*
 * rollup.c - for `make bench` (issue 33): loaded with LD_PRELOAD into a
 * `postrider play`, it copies /proc/self/smaps_rollup to $ROLLUP_OUT as
 * the process exits, so that the bench can tell a turn's resident memory
 * that is shared library pages (Shared_Clean: the page cache, shared by
 * every process) from what is its own (Private_Dirty: heap, stacks, the
 * libraries' relocated data).
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((destructor)) static void rollup(void)
{
	const char *out = getenv("ROLLUP_OUT");
	FILE *in, *o;
	char line[256];

	if (!out || !(in = fopen("/proc/self/smaps_rollup", "r")))
		return;
	if ((o = fopen(out, "w"))) {
		while (fgets(line, sizeof(line), in))
			fputs(line, o);
		fclose(o);
	}
	fclose(in);
}
