/* spawn.c — starting and reaping the driver's child processes (see spawn.h). */
#include "driver/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t rb_spawn(char *const argv[], int *to_child, int *from_child, struct rb_err *err)
{
	int out[2] = {-1, -1}, in[2] = {-1, -1};
	if (pipe2(out, O_CLOEXEC) < 0 || (to_child && pipe2(in, O_CLOEXEC) < 0)) {
		rb_errf(err, "pipe: %s", strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (out[i] >= 0)
				close(out[i]);
			if (in[i] >= 0)
				close(in[i]);
		}
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	if (to_child)
		posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGPIPE);
	posix_spawnattr_setsigmask(&at, &mask);
	/* and their default actions: a parent that ignores SIGPIPE does not
	 * hand that on (a child whose parent died is ended by PDEATHSIG) */
	sigset_t dfl;
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGHUP);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	pid_t pid;
	extern char **environ;
	int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(out[1]);
	if (to_child)
		close(in[0]);
	if (rc != 0) {
		close(out[0]);
		if (to_child)
			close(in[1]);
		rb_errf(err, "cannot start %s: %s", argv[0], strerror(rc));
		return -1;
	}
	*from_child = out[0];
	if (to_child)
		*to_child = in[1];
	return pid;
}

bool rb_child_bind_parent(void)
{
	pid_t parent = getppid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	return getppid() == parent;
}

void rb_status_text(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "status %d", status);
}

int rb_wait_child(pid_t pid)
{
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

uint64_t rb_rss_of(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	unsigned long long size = 0, res = 0;
	int n = fscanf(f, "%llu %llu", &size, &res);
	fclose(f);
	long page = sysconf(_SC_PAGESIZE);
	return n == 2 && page > 0 ? (uint64_t)res * (uint64_t)page : 0;
}
