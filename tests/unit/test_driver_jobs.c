/* test_driver_jobs.c — the driver's job list (manifest, directory walk,
 * files, deduplication, corpus source), the test fault switch, and a child
 * started by fork or exec (spawn.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver/fault.h"
#include "driver/jobs.h"
#include "driver/spawn.h"

static char root[256];

static void touch(const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("x", f);
	fclose(f);
}

static void mk(const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(mkdir(p, 0777), 0);
}

/* corpus/
 *   manifest.tsv   (lists xdp-tools/a.o twice and own/b.o)
 *   xdp-tools/a.o  xdp-tools/skip.txt
 *   own/b.o        own/sub/c.o
 *   default/manifest.tsv (lists own/b.o, relative to corpus/)
 *   default/link.o -> ../xdp-tools/a.o */
static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/rb_jobs_%d", (int)getpid());
	mkdir(root, 0777);
	mk("corpus");
	mk("corpus/xdp-tools");
	mk("corpus/own");
	mk("corpus/own/sub");
	mk("corpus/default");
	touch("corpus/xdp-tools/a.o");
	touch("corpus/xdp-tools/skip.txt");
	touch("corpus/own/b.o");
	touch("corpus/own/sub/c.o");
	char p[512], target[512];
	snprintf(p, sizeof(p), "%s/corpus/manifest.tsv", root);
	FILE *f = fopen(p, "w");
	fputs("source\tpackage\tobject\tprogram\n"
	      "xdp-tools\txdp-tools\txdp-tools/a.o\tp1\n"
	      "xdp-tools\txdp-tools\txdp-tools/a.o\tp2\n"
	      "mine\trangebench\town/b.o\tq\n",
	      f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/corpus/default/manifest.tsv", root);
	f = fopen(p, "w");
	fputs("source\tobject\nown\town/b.o\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/corpus/default/link.o", root);
	snprintf(target, sizeof(target), "../xdp-tools/a.o");
	assert_int_equal(symlink(target, p), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void manifest_lists_each_object_once(void **state)
{
	(void)state;
	char dir[300];
	snprintf(dir, sizeof(dir), "%s/corpus", root);
	const char *in[] = {dir};
	struct rb_joblist l;
	struct rb_err err = {{0}};
	assert_int_equal(rb_jobs_collect(in, 1, &l, &err), 0);
	assert_int_equal(l.n, 2); /* a.o listed twice, c.o not in the manifest */
	assert_non_null(strstr(l.objs[0].path, "own/b.o"));
	assert_string_equal(l.objs[0].source, "mine");
	assert_non_null(strstr(l.objs[1].path, "xdp-tools/a.o"));
	assert_string_equal(l.objs[1].source, "xdp-tools");
	rb_jobs_free(&l);
}

static void sub_corpus_manifest_paths_relative_to_parent(void **state)
{
	(void)state;
	char dir[300];
	snprintf(dir, sizeof(dir), "%s/corpus/default", root);
	const char *in[] = {dir};
	struct rb_joblist l;
	struct rb_err err = {{0}};
	assert_int_equal(rb_jobs_collect(in, 1, &l, &err), 0);
	assert_int_equal(l.n, 1);
	struct stat sb;
	assert_int_equal(stat(l.objs[0].path, &sb), 0); /* a path that exists */
	assert_null(strstr(l.objs[0].path, "/../"));
	assert_string_equal(l.objs[0].source, "own");
	rb_jobs_free(&l);
}

static void walk_finds_dot_o_and_dedups_links(void **state)
{
	(void)state;
	char own[300], link[300], a[300];
	snprintf(own, sizeof(own), "%s/corpus/own", root);
	snprintf(link, sizeof(link), "%s/corpus/default/link.o", root);
	snprintf(a, sizeof(a), "%s/corpus/xdp-tools/a.o", root);
	const char *in[] = {own, link, a};
	struct rb_joblist l;
	struct rb_err err = {{0}};
	assert_int_equal(rb_jobs_collect(in, 3, &l, &err), 0);
	/* own/b.o, own/sub/c.o, and a.o once (the link names the same file) */
	assert_int_equal(l.n, 3);
	int seen_c = 0, seen_a = 0;
	for (size_t i = 0; i < l.n; i++) {
		seen_c += strstr(l.objs[i].path, "sub/c.o") != NULL;
		seen_a += strstr(l.objs[i].path, "/a.o") || strstr(l.objs[i].path, "/link.o");
		assert_null(strstr(l.objs[i].path, ".txt"));
	}
	assert_int_equal(seen_c, 1);
	assert_int_equal(seen_a, 1); /* the name given first (link.o) is kept */
	/* the source of an object found by walking: the directory under corpus/ */
	for (size_t i = 0; i < l.n; i++)
		if (strstr(l.objs[i].path, "sub/c.o"))
			assert_string_equal(l.objs[i].source, "own");
	rb_jobs_free(&l);
}

/* a manifest line whose object path is too long to open: an entry that
 * carries the reason (its row), the other objects listed as usual */
static void too_long_path_is_an_entry_with_its_reason(void **state)
{
	(void)state;
	char dir[300], m[400];
	snprintf(dir, sizeof(dir), "%s/longm", root);
	assert_int_equal(mkdir(dir, 0777), 0);
	snprintf(m, sizeof(m), "%s/manifest.tsv", dir);
	FILE *f = fopen(m, "w");
	assert_non_null(f);
	fprintf(f, "object\tsource\n");
	for (int i = 0; i < 4200; i++)
		fputc('q', f);
	fprintf(f, ".o\tfar\n../corpus/own/b.o\tnear\n");
	fclose(f);
	const char *in[] = {dir};
	struct rb_joblist l;
	struct rb_err err = {{0}};
	assert_int_equal(rb_jobs_collect(in, 1, &l, &err), 0);
	assert_int_equal(l.n, 2);
	int far = -1, near = -1;
	for (size_t i = 0; i < l.n; i++) {
		if (!strcmp(l.objs[i].source, "far"))
			far = (int)i;
		if (!strcmp(l.objs[i].source, "near"))
			near = (int)i;
	}
	assert_true(far >= 0 && near >= 0);
	assert_non_null(l.objs[far].error);
	assert_non_null(strstr(l.objs[far].error, "path longer than 4095 bytes"));
	assert_true(strlen(l.objs[far].path) > 4200); /* kept whole: its own key */
	assert_null(l.objs[near].error);
	rb_jobs_free(&l);
}

static void missing_input_names_it(void **state)
{
	(void)state;
	const char *in[] = {"/nonexistent/rb/corpus"};
	struct rb_joblist l;
	struct rb_err err = {{0}};
	assert_int_equal(rb_jobs_collect(in, 1, &l, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/rb/corpus"));
}

static void guess_source(void **state)
{
	(void)state;
	char out[64];
	rb_jobs_guess_source("/x/programs/corpus/libbpf-tools/opensnoop.0.o", out, sizeof(out));
	assert_string_equal(out, "libbpf-tools");
	rb_jobs_guess_source("/somewhere/objs/prog.o", out, sizeof(out));
	assert_string_equal(out, "objs");
}

static void fault_spec(void **state)
{
	(void)state;
	assert_int_equal(rb_fault_parse(NULL, "old"), 0);
	assert_int_equal(rb_fault_parse("cnum:states", "old"), 0);
	assert_int_equal(rb_fault_parse("cnum:states", "cnum"), RB_FAULT_STATES);
	assert_int_equal(rb_fault_parse("cnum:states,*:verdict", "cnum"), RB_FAULT_STATES | RB_FAULT_VERDICT);
	assert_int_equal(rb_fault_parse("*:slow", "kernel"), RB_FAULT_SLOW);
	assert_int_equal(rb_fault_parse("cnum", "cnum"), -1);
	assert_int_equal(rb_fault_parse("cnum:bogus", "cnum"), -1);

	struct rb_result r = {.verdict = RB_ACCEPT, .err_insn = -1, .insns_processed = 10,
			      .total_states = 3, .peak_states = 2};
	rb_fault_apply(RB_FAULT_STATES | RB_FAULT_INSNS, &r);
	assert_int_equal(r.total_states, 7);
	assert_int_equal(r.peak_states, 5);
	assert_int_equal(r.insns_processed, 16);
	assert_int_equal(r.verdict, RB_ACCEPT);
	rb_fault_apply(RB_FAULT_VERDICT, &r);
	assert_int_equal(r.verdict, RB_REJECT);
	assert_int_equal(r.err_insn, 0);
	struct rb_result rej = {.verdict = RB_REFUSED};
	rb_fault_apply(RB_FAULT_VERDICT, &rej);
	assert_int_equal(rej.verdict, RB_REFUSED); /* only accepted programs flip */
#ifdef RB_TEST_BUILD
	setenv("RB_TEST_FAULT", "old:insns", 1);
	assert_string_equal(rb_fault_env(), "old:insns");
	unsetenv("RB_TEST_FAULT");
#endif
}

/* the descriptors the parent opened for forked_child_as_if_execd */
static int fd_cloexec = -1, fd_kept = -1;

static void on_usr1(int sig) { (void)sig; }

/* a child_main: what it got, one line on stdout (by write and by stdio,
 * which the fork must write out at its end), exit code 7 */
static int report_child(void)
{
	alarm(20); /* a stdin that never ends (its write end inherited) */
	char buf[64];
	ssize_t r;
	size_t in = 0;
	while ((r = read(STDIN_FILENO, buf, sizeof(buf))) > 0)
		in += (size_t)r;
	sigset_t m;
	sigprocmask(SIG_SETMASK, NULL, &m);
	bool mask = sigismember(&m, SIGINT) && sigismember(&m, SIGTERM) && sigismember(&m, SIGHUP) &&
		    sigismember(&m, SIGPIPE) && !sigismember(&m, SIGUSR2);
	struct sigaction usr1, pipe;
	sigaction(SIGUSR1, NULL, &usr1);
	sigaction(SIGPIPE, NULL, &pipe);
	char line[160];
	int n = snprintf(line, sizeof(line), "in=%zu mask=%d usr1=%d pipe=%d cloexec=%d kept=%d", in, mask,
			 usr1.sa_handler == SIG_DFL, pipe.sa_handler == SIG_DFL,
			 fcntl(fd_cloexec, F_GETFD) < 0 && errno == EBADF, fcntl(fd_kept, F_GETFD) >= 0);
	if (write(STDOUT_FILENO, line, (size_t)n) != n)
		return 3;
	printf(" stdio\n");
	return 7;
}

/* all of fd until end of file */
static void read_all(int fd, char *buf, size_t len)
{
	size_t at = 0;
	ssize_t r;
	while (at + 1 < len && (r = read(fd, buf + at, len - 1 - at)) > 0)
		at += (size_t)r;
	buf[at] = 0;
}

/* single-threaded: a fork that gets what an exec'd child would (spawn.h) */
static void forked_child_as_if_execd(void **state)
{
	(void)state;
	struct sigaction sa = {.sa_handler = on_usr1}, old_usr1, old_pipe;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old_usr1);
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGPIPE, NULL, &old_pipe);
	fd_cloexec = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fd_kept = open("/dev/null", O_RDONLY);
	assert_true(fd_cloexec > 2 && fd_kept > 2);
	/* unwritten output of the parent: never the child's to write */
	fputs("PARENT", stdout);
	char *argv[] = {"/bin/sh", "-c", "cat >/dev/null; printf exec", NULL};
	int to = -1, from = -1;
	struct rb_err err = {{0}};
	bool forked = false;
	pid_t pid = rb_spawn_main(argv, report_child, &to, &from, &forked, &err);
	assert_true(pid > 0 && forked);
	assert_int_equal(write(to, "abc", 3), 3);
	close(to);
	char out[256];
	read_all(from, out, sizeof(out));
	close(from);
	int status = rb_wait_child(pid);
	sigaction(SIGUSR1, &old_usr1, NULL);
	signal(SIGPIPE, SIG_DFL);
	close(fd_cloexec);
	close(fd_kept);
	assert_string_equal(out, "in=3 mask=1 usr1=1 pipe=1 cloexec=1 kept=1 stdio\n");
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 7);
}

static void *blocked_reader(void *arg)
{
	char c;
	return read(*(int *)arg, &c, 1) == 1 ? NULL : arg;
}

/* multi-threaded: never a fork, argv is exec'd */
static void threaded_parent_execs(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, blocked_reader, &p[0]), 0);
	char *argv[] = {"/bin/sh", "-c", "cat >/dev/null; printf exec", NULL};
	int to = -1, from = -1;
	struct rb_err err = {{0}};
	bool forked = true;
	pid_t pid = rb_spawn_main(argv, report_child, &to, &from, &forked, &err);
	assert_true(pid > 0 && !forked);
	close(to);
	char out[256];
	read_all(from, out, sizeof(out));
	close(from);
	int status = rb_wait_child(pid);
	assert_int_equal(write(p[1], "x", 1), 1);
	pthread_join(t, NULL);
	close(p[0]);
	close(p[1]);
	assert_string_equal(out, "exec");
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(manifest_lists_each_object_once),
		cmocka_unit_test(sub_corpus_manifest_paths_relative_to_parent),
		cmocka_unit_test(walk_finds_dot_o_and_dedups_links),
		cmocka_unit_test(too_long_path_is_an_entry_with_its_reason),
		cmocka_unit_test(missing_input_names_it),
		cmocka_unit_test(guess_source),
		cmocka_unit_test(fault_spec),
		cmocka_unit_test(forked_child_as_if_execd),
		cmocka_unit_test(threaded_parent_execs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
