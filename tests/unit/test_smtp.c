/*
 * test_smtp.c - outbox_send() and smtp_send() against a real SMTP server
 * on 127.0.0.1: aiosmtpd's Mailbox handler (Debian: python3-aiosmtpd),
 * started and stopped by the test. Never touches the real network. A
 * missing aiosmtpd is a failure, not a skip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "mail.h"
#include "outbox.h"
#include "smtp.h"
#include "transport.h"

#define PYTHON "/usr/bin/python3"

struct server {
	pid_t pid;
	int port;
	char *dir;	/* temp folder: mailbox/ and outbox/ */
};

/* A port nobody listens on right now (the kernel's choice). */
static int free_port(void)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	assert_true(fd >= 0);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static bool can_connect(int port)
{
	struct sockaddr_in a = { 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok;

	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

static int start_server(void **state)
{
	struct server *s = xcalloc(1, sizeof(*s));
	char tmpl[] = "/tmp/postrider-smtp-XXXXXX";

	if (access(PYTHON, X_OK) ||
	    system(PYTHON " -c 'import aiosmtpd' 2>/dev/null")) {
		fprintf(stderr, "FAIL: test_smtp needs " PYTHON " with "
			"aiosmtpd (Debian: apt-get install python3-aiosmtpd)"
			"\n");
		free(s);
		return -1;
	}
	s->dir = xstrdup(mkdtemp(tmpl));
	s->port = free_port();
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (!s->pid) {
		char listen[64], *mbox = xstrfmt("%s/mailbox", s->dir);
		snprintf(listen, sizeof(listen), "127.0.0.1:%d", s->port);
		execl(PYTHON, PYTHON, "-m", "aiosmtpd", "-n", "-l", listen,
		      "-c", "aiosmtpd.handlers.Mailbox", mbox, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200; i++) {	/* up to 10 s */
		int st;
		if (can_connect(s->port)) {
			*state = s;
			return 0;
		}
		if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
			fprintf(stderr, "FAIL: aiosmtpd exited at start\n");
			return -1;
		}
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "FAIL: aiosmtpd does not listen on port %d\n",
		s->port);
	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
	return -1;
}

static int stop_server(void **state)
{
	struct server *s = *state;
	char *cmd;

	if (!s)
		return 0;
	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
	cmd = xstrfmt("rm -rf '%s'", s->dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove '%s'\n", s->dir);
	free(cmd);
	free(s->dir);
	free(s);
	return 0;
}

/* Names in a folder, not starting with '.'. */
static size_t count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* The body (after the first blank line) with line endings made LF. */
static char *body_of(const char *msg)
{
	const char *b = strstr(msg, "\r\n\r\n");
	const char *lf = strstr(msg, "\n\n");
	struct strbuf sb = STRBUF_INIT;

	if (!b || (lf && lf < b))
		b = lf ? lf + 2 : "";
	else
		b += 4;
	for (; *b; b++)
		if (*b != '\r')
			strbuf_addch(&sb, *b);
	return strbuf_detach(&sb, NULL);
}

static void compose(const char *id, const char *text, struct strbuf *out)
{
	struct mail_out o = { 0 };
	struct strbuf err = STRBUF_INIT;
	char date[40];

	mail_format_date(1795165200LL, 0, date);
	o.from = "Postrider Referee <referee@example.org>";
	o.to = "Alice <alice@example.net>";
	o.cc = "Bob <bob@example.com>";
	o.subject = "[ww-3f9a] test \xE2\x80\x94 smtp";
	o.message_id = id;
	o.date = date;
	o.game_id = "ww-3f9a";
	o.text = text;
	o.patch = "From x\n.\n..\nnot a real patch\n";
	o.patch_name = "0001-test.patch";
	if (mail_compose(&o, out, &err) < 0)
		fail_msg("compose: %s", err.buf);
	strbuf_release(&err);
}

static void test_send_two(void **state)
{
	struct server *s = *state;
	char *outbox = xstrfmt("%s/outbox", s->dir);
	char *mbox_new = xstrfmt("%s/mailbox/new", s->dir);
	char *p;
	struct strbuf m1 = STRBUF_INIT, m2 = STRBUF_INIT, report = STRBUF_INIT;
	struct mail_config cfg = { 0 };

	compose("<postrider.ww-3f9a.0001.british@example.org>",
		"first message\n.\n.leading dot\nG\xC3\xA9n\xC3\xA9ral\n", &m1);
	compose("<postrider.ww-3f9a.0002.american@example.org>",
		"second message\n", &m2);
	assert_int_equal(outbox_add(outbox, "0001-british", m1.buf, m1.len,
				    NULL), 0);
	assert_int_equal(outbox_add(outbox, "0002-american", m2.buf, m2.len,
				    NULL), 0);
	cfg.smtp_url = xstrfmt("smtp://127.0.0.1:%d", s->port);
	cfg.starttls = false;
	cfg.timeout = 20;
	assert_int_equal(outbox_send(outbox, &cfg, &report, NULL), 0);
	assert_string_equal(report.buf,
		"sent '0001-british.1' to alice@example.net, bob@example.com\n"
		"sent '0002-american.1' to alice@example.net, bob@example.com\n");
	p = xstrfmt("%s/new", outbox);
	assert_int_equal(count_files(p), 0);
	free(p);
	p = xstrfmt("%s/cur/0001-british.1:2,S", outbox);
	assert_int_equal(access(p, F_OK), 0);
	free(p);
	p = xstrfmt("%s/cur/0002-american.1:2,S", outbox);
	assert_int_equal(access(p, F_OK), 0);
	free(p);

	/* both arrived, bodies byte-identical, both recipients */
	assert_int_equal(count_files(mbox_new), 2);
	DIR *d = opendir(mbox_new);
	struct dirent *e;
	int seen = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *path = xstrfmt("%s/%s", mbox_new, e->d_name);
		struct strbuf got = STRBUF_INIT;
		assert_int_equal(read_file(path, &got, 1 << 20), 0);
		const struct strbuf *want =
			strstr(got.buf, "0001.british") ? &m1 : &m2;
		seen |= want == &m1 ? 1 : 2;
		char *gb = body_of(got.buf), *wb = body_of(want->buf);
		assert_string_equal(gb, wb);
		free(gb);
		free(wb);
		char *rcpt = mail_header_get(got.buf, got.len, "X-RcptTo");
		assert_non_null(rcpt);
		assert_non_null(strstr(rcpt, "alice@example.net"));
		assert_non_null(strstr(rcpt, "bob@example.com"));
		free(rcpt);
		char *mf = mail_header_get(got.buf, got.len, "X-MailFrom");
		assert_string_equal(mf, "referee@example.org");
		free(mf);
		strbuf_release(&got);
		free(path);
	}
	closedir(d);
	assert_int_equal(seen, 3);

	/* nothing left: a second run sends nothing */
	strbuf_reset(&report);
	assert_int_equal(outbox_send(outbox, &cfg, &report, NULL), 0);
	assert_string_equal(report.buf, "");
	assert_int_equal(count_files(mbox_new), 2);

	config_release(&cfg);
	strbuf_release(&m1);
	strbuf_release(&m2);
	strbuf_release(&report);
	free(outbox);
	free(mbox_new);
}

static void test_dead_server(void **state)
{
	struct server *s = *state;
	char *outbox = xstrfmt("%s/outbox-dead", s->dir), *p;
	struct strbuf m = STRBUF_INIT, report = STRBUF_INIT, path = STRBUF_INIT;
	struct mail_config cfg = { 0 };

	compose("<postrider.ww-3f9a.0003.british@example.org>", "lost?\n", &m);
	assert_int_equal(outbox_add(outbox, "0003-british", m.buf, m.len,
				    &path), 0);
	cfg.smtp_url = xstrfmt("smtp://127.0.0.1:%d", free_port());
	cfg.timeout = 5;
	assert_int_equal(outbox_send(outbox, &cfg, &report, NULL), 1);
	assert_true(!strncmp(report.buf, "not sent '0003-british.1': smtp to "
			     "'smtp://127.0.0.1:", 50));
	assert_int_equal(access(path.buf, F_OK), 0);	/* still in new/ */
	p = xstrfmt("%s/cur", outbox);
	assert_int_equal(count_files(p), 0);
	free(p);

	/* and it goes out once the server is there */
	free(cfg.smtp_url);
	cfg.smtp_url = xstrfmt("smtp://127.0.0.1:%d", s->port);
	strbuf_reset(&report);
	assert_int_equal(outbox_send(outbox, &cfg, &report, NULL), 0);
	assert_int_equal(access(path.buf, F_OK), -1);

	/* a message without recipients is refused for good: set aside in
	 * failed/, kept, never retried */
	strbuf_reset(&report);
	strbuf_reset(&path);
	assert_int_equal(outbox_add(outbox, "norcpt",
				    "From: a@example.org\r\n\r\nx\r\n", 26,
				    &path), 0);
	int perm = -1;
	assert_int_equal(outbox_send(outbox, &cfg, &report, &perm), 1);
	assert_int_equal(perm, 1);
	p = xstrfmt("not sent 'norcpt.1': the message has no To or Cc "
		    "recipient; refused for good, moved to '%s/failed'\n",
		    outbox);
	assert_string_equal(report.buf, p);
	free(p);
	assert_int_equal(access(path.buf, F_OK), -1);
	p = xstrfmt("%s/failed/norcpt.1", outbox);
	assert_int_equal(access(p, F_OK), 0);
	free(p);
	strbuf_reset(&report);
	assert_int_equal(outbox_send(outbox, &cfg, &report, &perm), 0);
	assert_int_equal(perm, 0);
	/* the lock file is the only thing added at the top */
	p = xstrfmt("%s/.lock", outbox);
	assert_int_equal(access(p, F_OK), 0);
	free(p);

	config_release(&cfg);
	strbuf_release(&m);
	strbuf_release(&report);
	strbuf_release(&path);
	free(outbox);
}

/* Is a library whose file name has name mapped into this process? */
static bool mapped(const char *name)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	bool found = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		found |= strstr(line, name) != NULL;
	fclose(f);
	return found;
}

/* libcurl is loaded when the transport first talks SMTP, not at start
 * (issue 41): this program is linked as postrider is. */
static void test_curl_loaded_to_send(void **state)
{
	struct server *s = *state;
	struct mail_config cfg = { 0 };
	struct strbuf err = STRBUF_INIT;

	assert_false(mapped("/libcurl"));
	cfg.smtp_url = xstrfmt("smtp://127.0.0.1:%d", s->port);
	cfg.timeout = 20;
	if (smtp_probe(&cfg, &err) < 0)
		fail_msg("smtp_probe: %s", err.buf);
	assert_true(mapped("/libcurl"));
	config_release(&cfg);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curl_loaded_to_send),
		cmocka_unit_test(test_send_two),
		cmocka_unit_test(test_dead_server),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, start_server, stop_server);
}
