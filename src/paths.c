/*
 * paths.c - finding the files postrider ships with (paths.h).
 */
#include "paths.h"
#include "util.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool holds(const char *dir, const char *probe)
{
	struct stat st;
	char *p = xstrfmt("%s/%s", dir, probe);
	bool ok = stat(p, &st) == 0;

	free(p);
	return ok;
}

char *paths_find(const char *env, const char *env_sub, const char *sub,
		 const char *probe)
{
	const char *v = env ? getenv(env) : NULL;
	char exe[PATH_MAX];
	ssize_t n;
	char *p;

	/* a folder the user names is used as it is: a mistake there is
	 * said by the read that fails, never passed over */
	if (v && *v)
		return env_sub ? xstrfmt("%s/%s", v, env_sub) : xstrdup(v);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		static const char *const beside[] = {
			"", "/..", "/../share/postrider",
		};
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(beside); i++) {
			p = xstrfmt("%s%s/%s", exe, beside[i], sub);
			if (holds(p, probe))
				return p;
			free(p);
		}
	}
	return xstrfmt("%s/%s", POSTRIDER_DATADIR, sub);
}
