/*
 * hostmail.c - mail for the host, handed to its own mailbox (hostmail.h).
 */
#include "hostmail.h"
#include "mail.h"
#include "transport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* A Maildir: tmp/ then new/, by rename, as every Maildir writer does. */
static int to_maildir(const char *dir, const struct strbuf *msg,
		      struct strbuf *done, struct strbuf *err)
{
	static const char *const subs[] = { "tmp", "new", "cur" };
	static unsigned counter;
	char host[128] = "localhost";
	char *tmp = NULL, *new = NULL, *name;
	int fd, ret = -1;

	for (size_t i = 0; i < 3; i++) {
		char *d = xstrfmt("%s/%s", dir, subs[i]);
		int r = mkdir_p(d);
		free(d);
		if (r < 0) {
			strbuf_addf(err, "cannot create the Maildir '%s': %s", dir, strerror(errno));
			return -1;
		}
	}
	gethostname(host, sizeof(host) - 1);
	for (char *h = host; *h; h++)
		if (*h == '/' || *h == ':')
			*h = '_';
	name = xstrfmt("%lld.P%ldQ%u.%s", (long long)time(NULL), (long)getpid(),
		       ++counter, host);
	tmp = xstrfmt("%s/tmp/%s", dir, name);
	new = xstrfmt("%s/new/%s", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, msg->buf, msg->len) < 0 || fsync(fd) < 0) {
		strbuf_addf(err, "cannot write '%s': %s", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		goto out;
	}
	close(fd);
	if (rename(tmp, new) < 0) {
		strbuf_addf(err, "cannot move '%s' into new/: %s", tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	strbuf_addf(done, "handed to the host's Maildir '%s'", dir);
	ret = 1;
out:
	free(name);
	free(tmp);
	free(new);
	return ret;
}

/* An mbox: a "From " line, the message with its body's "From " lines
 * quoted, an empty line; the file locked meanwhile. */
static int to_mbox(const char *path, const char *sender, const struct strbuf *msg,
		   struct strbuf *done, struct strbuf *err)
{
	struct strbuf b = STRBUF_INIT;
	time_t now = time(NULL);
	char date[64];
	int fd, ret = -1;

	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", gmtime(&now));
	strbuf_addf(&b, "From %s %s\n", sender && *sender ? sender : "MAILER-DAEMON", date);
	for (const char *p = msg->buf; p < msg->buf + msg->len;) {
		const char *nl = memchr(p, '\n', (size_t)(msg->buf + msg->len - p));
		size_t l = nl ? (size_t)(nl - p) + 1 : (size_t)(msg->buf + msg->len - p);
		const char *q = p;
		while (q < p + l && *q == '>')
			q++;
		if ((size_t)(p + l - q) >= 5 && !strncmp(q, "From ", 5))
			strbuf_addch(&b, '>');
		strbuf_add(&b, p, l);
		p += l;
	}
	if (b.len && b.buf[b.len - 1] != '\n')
		strbuf_addch(&b, '\n');
	strbuf_addch(&b, '\n');
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0 || write_all(fd, b.buf, b.len) < 0 ||
	    fsync(fd) < 0) {
		strbuf_addf(err, "cannot append to the mbox '%s': %s", path, strerror(errno));
	} else {
		strbuf_addf(done, "handed to the host's mbox '%s'", path);
		ret = 1;
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&b);
	return ret;
}

int hostmail_deliver(const struct mail_config *cfg, const char *raw,
		     size_t len, const char *why, struct strbuf *done,
		     struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT;
	char *seen, *sender = NULL, *v;
	const char *dest = cfg ? cfg->host_mail : NULL;
	int ret;

	if (!dest)
		return 0;
	if ((seen = mail_header_get(raw, len, HOSTMAIL_HEADER))) {
		free(seen);
		return 0;
	}
	/* one line, whatever why holds */
	strbuf_addstr(&msg, HOSTMAIL_HEADER ": ");
	for (const char *p = why; *p && msg.len < 300; p++)
		strbuf_addch(&msg, (unsigned char)*p < ' ' ? ' ' : *p);
	strbuf_addstr(&msg, "\n");
	strbuf_add(&msg, raw, len);
	if ((v = mail_header_get(raw, len, "Return-Path"))) {
		char *name = NULL;
		if (mail_parse_address(v, &name, &sender) < 0)
			sender = NULL;
		free(name);
		free(v);
	}
	if (dest[0] == '/') {
		size_t l = strlen(dest);
		ret = dest[l - 1] == '/' ? to_maildir(dest, &msg, done, err)
			: to_mbox(dest, sender, &msg, done, err);
	} else {
		/* the null sender: a refusal of the copy comes back to no one */
		const char *rcpts[] = { dest };
		struct mail_envelope env = { "", rcpts, 1 };
		ret = transport_send(cfg, &env, msg.buf, msg.len, err) == 0 ? 1 : -1;
		if (ret > 0)
			strbuf_addf(done, "forwarded to the host at %s", dest);
	}
	free(sender);
	strbuf_release(&msg);
	return ret;
}
