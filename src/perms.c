/*
 * perms.c - who may write a game's files (perms.h).
 */
#include "perms.h"

#include <ftw.h>
#include <sys/stat.h>

/* nftw() gives its callback no context: the walk's, for one walk at a time */
static struct {
	int count, named;
	struct strbuf *out;
} walk;

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_SL || flag == FTW_SLN || !(st->st_mode & 022))
		return 0;
	if (walk.count++ < walk.named)
		strbuf_addf(walk.out, "      '%s' (mode %03o)\n", path,
			    (unsigned)(st->st_mode & 0777));
	return 0;
}

int perms_writable_by_others(const char *root, int named, struct strbuf *out)
{
	walk.count = 0;
	walk.named = named;
	walk.out = out;
	if (nftw(root, visit, 32, FTW_PHYS) < 0)
		return -1;
	return walk.count;
}
