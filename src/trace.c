/*
 * trace.c - phase times on stderr when POSTRIDER_TRACE_PERF is set.
 */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

void trace_perf(const char *what)
{
	/* set by main()'s call, before any thread starts */
	static int on = -1;
	static double origin;

	if (on < 0) {
		const char *v = getenv("POSTRIDER_TRACE_PERF");
		on = v && *v && *v != '0';
		origin = now_ms();
	}
	if (on) {
		struct timespec t;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		fprintf(stderr, "perf: %8.3f ms  %8.3f ms CPU  %s\n", now_ms() - origin,
			t.tv_sec * 1e3 + t.tv_nsec / 1e6, what);
	}
}
