/*
 * sendmail.c - the sendmail transport: one message handed to the
 * sendmail(8) program of the host's mail system (sendmail.h, transport.h), as
 * `sendmail -oi -f FROM -- TO...` with the message on its standard
 * input: 0; -2 if it exits EX_USAGE, EX_DATAERR, EX_NOUSER or EX_NOHOST
 * (the message itself is refused); -1 for any other failure
 * (EX_TEMPFAIL, cannot run it).
 */
#include "sendmail.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>

int sendmail_send(const struct mail_config *cfg,
		  const struct mail_envelope *env, const char *msg, size_t len,
		  struct strbuf *err)
{
	const char *prog = cfg->sendmail ? cfg->sendmail : "/usr/sbin/sendmail";
	char **rcpts = NULL, *from = NULL;
	char **argv = NULL;
	size_t n = 0, argc = 0;
	int ret = -2, fds[2] = { -1, -1 }, status;
	pid_t pid;

	if (mail_envelope_recipients(env, msg, len, &rcpts, &n, err) < 0)
		goto out;
	if (!n) {
		strbuf_addstr(err, "the message has no To or Cc recipient");
		goto out;
	}
	ret = -1;
	from = mail_envelope_sender(env, cfg->from, msg, len);
	if (!from || from[0] == '-') {
		strbuf_addstr(err, "no sender address: set 'from' in the "
			      "configuration");
		goto out;
	}
	argv = xcalloc(n + 7, sizeof(*argv));
	/* copies, so that execv() gets the char * it asks for */
	argv[argc++] = xstrdup(prog);
	argv[argc++] = xstrdup("-oi");
	argv[argc++] = xstrdup("-f");
	argv[argc++] = xstrdup(*from ? from : "<>");	/* "": the null sender */
	argv[argc++] = xstrdup("--");
	for (size_t i = 0; i < n; i++)
		argv[argc++] = xstrdup(rcpts[i]);
	argv[argc] = NULL;
	if (pipe(fds) < 0) {
		strbuf_addf(err, "cannot run %s: %s", prog, strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		strbuf_addf(err, "cannot run %s: %s", prog, strerror(errno));
		goto out;
	}
	if (pid == 0) {
		if (dup2(fds[0], 0) < 0)
			_exit(EX_OSERR);
		close(fds[0]);
		close(fds[1]);
		execv(prog, argv);
		_exit(EX_TEMPFAIL);	/* missing: the host may install it */
	}
	close(fds[0]);
	fds[0] = -1;
	{
		/* a sendmail that dies early must not kill us */
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);
		const char *p = msg;
		size_t left = len;
		while (left) {
			ssize_t w = write(fds[1], p, left);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			p += w;
			left -= (size_t)w;
		}
		close(fds[1]);
		fds[1] = -1;
		signal(SIGPIPE, old);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			strbuf_addf(err, "cannot wait for %s: %s", prog,
				    strerror(errno));
			goto out;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		ret = 0;
	} else if (WIFEXITED(status)) {
		int code = WEXITSTATUS(status);
		/* sysexits: these refuse the message itself */
		if (code == EX_USAGE || code == EX_DATAERR ||
		    code == EX_NOUSER || code == EX_NOHOST)
			ret = -2;
		strbuf_addf(err, "%s exited with status %d", prog, code);
	} else {
		strbuf_addf(err, "%s was killed by signal %d", prog,
			    WTERMSIG(status));
	}
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	for (size_t i = 0; i < n; i++)
		free(rcpts[i]);
	free(rcpts);
	for (size_t i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
	free(from);
	return ret;
}
