/*
 * hostlog.c - one line per message for the host (hostlog.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "hostlog.h"
#include "util.h"

static void add_field(struct strbuf *line, const char *s, size_t max)
{
	size_t n = 0;

	if (!s || !*s) {
		strbuf_addch(line, '-');
		return;
	}
	for (; *s && n < max; s++, n++)
		strbuf_addch(line, (unsigned char)*s < ' ' || *s == 0x7f ? ' ' : *s);
}

int hostlog_write(const char *path, long long now, const char *game,
		  const char *message_id, const char *from, int status,
		  const char *what)
{
	struct strbuf line = STRBUF_INIT;
	char when[UTC_TIME_SIZE];
	int fd, ret = 0;

	if (!path)
		return 0;
	utc_format(now, when);
	strbuf_addf(&line, "%s ", when);
	add_field(&line, game, 64);
	strbuf_addch(&line, ' ');
	add_field(&line, message_id, 250);
	strbuf_addch(&line, ' ');
	add_field(&line, from, 250);
	strbuf_addf(&line, ": exit %d: ", status);
	add_field(&line, what, 2000);
	strbuf_addch(&line, '\n');
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, line.buf, line.len) != (ssize_t)line.len) {
		warning("cannot write the host's log '%s': %s", path, strerror(errno));
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&line);
	return ret;
}
