/* spawn.c — starting and reaping the driver's child processes (see spawn.h). */
#include "driver/spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* a child's signal mask (SIGINT, SIGTERM, SIGHUP, SIGPIPE blocked) and the
 * signals it gets at their default action whatever the parent did: a
 * parent that ignores SIGPIPE does not hand that on (a child whose parent
 * died is ended by PDEATHSIG) */
static void child_signals(sigset_t *mask, sigset_t *dfl)
{
	sigemptyset(mask);
	sigaddset(mask, SIGINT);
	sigaddset(mask, SIGTERM);
	sigaddset(mask, SIGHUP);
	sigaddset(mask, SIGPIPE);
	sigemptyset(dfl);
	sigaddset(dfl, SIGPIPE);
	sigaddset(dfl, SIGHUP);
}

static int child_pipes(int out[2], int in[2], bool want_in, struct rb_err *err)
{
	if (pipe2(out, O_CLOEXEC) == 0 && (!want_in || pipe2(in, O_CLOEXEC) == 0))
		return 0;
	rb_errf(err, "pipe: %s", strerror(errno));
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (in[i] >= 0)
			close(in[i]);
	}
	return -1;
}

/* the parent's side once a child is started (pid) or not (pid < 0,
 * errno_was why): the child's pipe ends closed here, the parent's handed
 * out, or all closed and err set */
static pid_t parent_ends(pid_t pid, int errno_was, const char *what, int out[2], int in[2], int *to_child,
			 int *from_child, struct rb_err *err)
{
	close(out[1]);
	if (to_child)
		close(in[0]);
	if (pid < 0) {
		close(out[0]);
		if (to_child)
			close(in[1]);
		rb_errf(err, "cannot start %s: %s", what, strerror(errno_was));
		return -1;
	}
	*from_child = out[0];
	if (to_child)
		*to_child = in[1];
	return pid;
}

pid_t rb_spawn(char *const argv[], int *to_child, int *from_child, struct rb_err *err)
{
	int out[2] = {-1, -1}, in[2] = {-1, -1};
	if (child_pipes(out, in, to_child != NULL, err) < 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	if (to_child)
		posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	sigset_t mask, dfl;
	child_signals(&mask, &dfl);
	posix_spawnattr_setsigmask(&at, &mask);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	pid_t pid;
	extern char **environ;
	int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return parent_ends(rc == 0 ? pid : -1, rc, argv[0], out, in, to_child, from_child, err);
}

/* Is this process single-threaded now? Then no other thread can start one
 * before a fork, nor hold a lock the child would inherit. */
static bool single_threaded(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	if (!f)
		return false;
	char line[256];
	long n = 0;
	while (fgets(line, sizeof(line), f) && sscanf(line, "Threads: %ld", &n) != 1)
		;
	fclose(f);
	return n == 1;
}

/* in a fork, as an exec would: close every close-on-exec descriptor
 * (above stderr: stdin and stdout are the pipes); false if they cannot
 * all be found */
static bool close_cloexec(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return false;
	struct dirent *e;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		int fl;
		if (fd > STDERR_FILENO && fd != dirfd(d) && (fl = fcntl(fd, F_GETFD)) >= 0 && (fl & FD_CLOEXEC))
			close(fd);
	}
	closedir(d);
	return true;
}

/* in a fork, as an exec would: caught signals back to their default
 * action, but not the ones a crash raises (SIGSEGV, SIGBUS, SIGFPE,
 * SIGILL, SIGABRT, SIGTRAP, SIGSYS): the program never catches those, and
 * where a handler is set the sanitizer runtime of a test build set it, as
 * it does at the start of every process; then dfl to their default */
static void reset_signals(const sigset_t *dfl)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction old;
		if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &old) < 0)
			continue;
		bool crash = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT ||
			     sig == SIGTRAP || sig == SIGSYS;
		bool caught = (old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN);
		if ((caught && !crash) || sigismember(dfl, sig))
			sigaction(sig, &sa, NULL);
	}
}

pid_t rb_spawn_main(char *const argv[], int (*child_main)(void), int *to_child, int *from_child, bool *forked,
		    struct rb_err *err)
{
	bool fork_it = single_threaded();
	if (forked)
		*forked = fork_it;
	if (!fork_it)
		return rb_spawn(argv, to_child, from_child, err);
	int out[2] = {-1, -1}, in[2] = {-1, -1};
	if (child_pipes(out, in, to_child != NULL, err) < 0)
		return -1;
	sigset_t all, old, mask, dfl;
	child_signals(&mask, &dfl);
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	pid_t pid = fork();
	if (pid == 0) {
		reset_signals(&dfl);
		int rc = 2;
		if (dup2(out[1], STDOUT_FILENO) >= 0 && (!to_child || dup2(in[0], STDIN_FILENO) >= 0) &&
		    close_cloexec() && sigprocmask(SIG_SETMASK, &mask, NULL) == 0) {
			/* the parent's unwritten output and unread input are
			 * the parent's */
			__fpurge(stdout);
			clearerr(stdout);
			__fpurge(stdin);
			rc = child_main();
			/* as main's exit does: what the child printed, and a
			 * failure to print it */
			if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0)
				rc = 2;
		}
		/* _exit: the parent's atexit handlers and buffered streams are
		 * not the child's (spawn.h: no leak check here) */
		_exit(rc);
	}
	int fork_errno = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return parent_ends(pid, fork_errno, argv[0], out, in, to_child, from_child, err);
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
	/* read with open and read, not stdio: nothing allocated (a parent
	 * allocating while a fork of it lives copies pages: spawn.h) */
	char path[64], buf[128];
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	unsigned long long size = 0, res = 0;
	long page = sysconf(_SC_PAGESIZE);
	return sscanf(buf, "%llu %llu", &size, &res) == 2 && page > 0 ? (uint64_t)res * (uint64_t)page : 0;
}
