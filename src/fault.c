/*
 * fault.c - crash points for the tests (fault.h).
 */
#include "fault.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fault_point(const char *name)
{
	static int read_env;
	static char want[64];
	static unsigned long nth = 1, seen;

	if (!read_env) {
		const char *v = getenv("POSTRIDER_FAULT");
		read_env = 1;
		if (v && strlen(v) < sizeof(want)) {
			const char *at = strchr(v, '@');
			size_t l = at ? (size_t)(at - v) : strlen(v);
			memcpy(want, v, l);
			want[l] = '\0';
			if (at)
				nth = strtoul(at + 1, NULL, 10);
		}
	}
	if (!want[0] || strcmp(want, name) || ++seen < nth)
		return;
	kill(getpid(), SIGKILL);
	_exit(137);	/* not reached: SIGKILL cannot be caught */
}
