/*
 * run.c - for `make bench` (issue 41): runs one command as a child and
 * appends to LOG what the kernel counted of it, so that every figure of
 * the bench has its CPU time beside its wall-clock time and the load of
 * the machine at that moment:
 *
 *	bench-run LOG COMMAND [ARG ...]
 *
 * appends "run WALL_US CPU_US MAXRSS_KIB EXIT LOAD1 :: COMMAND ARG ..."
 * (CPU: user + system of the child and of what it waited for, from
 * wait4(2); LOAD1: the one-minute load average as it ends). With
 * BENCH_TRACE set, the child runs with POSTRIDER_TRACE_PERF=1 and the
 * lines "perf: ..." it writes on its standard error are appended after
 * that line as "trace ...", not passed on; the rest of its standard error
 * is. Exits as the command did (127 if it could not run).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static double load1(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double v = -1;

	if (f) {
		if (fscanf(f, "%lf", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct strbuf_ {
		char *buf;
		size_t len, alloc;
	} traced = { NULL, 0, 0 };
	int trace = getenv("BENCH_TRACE") != NULL, fds[2] = { -1, -1 }, status = 0;
	struct rusage ru;
	long long t0, t1;
	pid_t pid;
	FILE *log;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-run LOG COMMAND [ARG ...]\n");
		return 2;
	}
	if (trace && pipe(fds) < 0) {
		perror("bench-run: pipe");
		return 127;
	}
	t0 = now_us();
	pid = fork();
	if (pid < 0) {
		perror("bench-run: fork");
		return 127;
	}
	if (!pid) {
		if (trace) {
			dup2(fds[1], 2);
			close(fds[0]);
			close(fds[1]);
			setenv("POSTRIDER_TRACE_PERF", "1", 1);
		}
		execvp(argv[2], argv + 2);
		fprintf(stderr, "bench-run: cannot run %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (trace) {
		FILE *in;
		char line[4096];
		close(fds[1]);
		in = fdopen(fds[0], "r");
		while (in && fgets(line, sizeof(line), in)) {
			size_t n = strlen(line);
			if (strncmp(line, "perf: ", 6)) {
				fputs(line, stderr);
				continue;
			}
			if (traced.len + n + 7 > traced.alloc) {
				traced.alloc = 2 * (traced.len + n + 7);
				traced.buf = realloc(traced.buf, traced.alloc);
				if (!traced.buf)
					return 127;
			}
			memcpy(traced.buf + traced.len, "trace ", 6);
			memcpy(traced.buf + traced.len + 6, line + 6, n - 6);
			traced.len += n;
			traced.buf[traced.len] = '\0';
		}
		if (in)
			fclose(in);
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("bench-run: wait4");
			return 127;
		}
	t1 = now_us();
	log = fopen(argv[1], "a");
	if (!log) {
		perror(argv[1]);
		return 127;
	}
	fprintf(log, "run %lld %lld %ld %d %.2f ::", t1 - t0,
		(long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
			ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
		ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
		load1());
	for (int i = 2; i < argc; i++)
		fprintf(log, " %s", argv[i]);
	fputc('\n', log);
	if (traced.len)
		fputs(traced.buf, log);
	fclose(log);
	free(traced.buf);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
