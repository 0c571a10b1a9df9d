/* child.c — verifying one object inside the guest (see child.h). */
#include "guest/child.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "engine/vmlinux.h"
#include "guest/rowtext.h"
#include "kernels/kernels.h"
#include "loader/object.h"
#include "oracle/helper_probe.h"
#include "verify/progdiff.h"
#include "verify/verify.h"

static const char b64chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* the log of one program, gzip-compressed (verifier logs shrink about
 * twentyfold: the serial port under TCG carries some 70 KB/s), as RBZ
 * lines of base64 */
static void put_log(unsigned idx, const char *name, const char *log, size_t len)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return;
	size_t cap = deflateBound(&z, (uLong)len) + 64;
	unsigned char *gz = malloc(cap);
	if (!gz) {
		deflateEnd(&z);
		return;
	}
	z.next_in = (unsigned char *)(uintptr_t)log;
	z.avail_in = (uInt)len;
	z.next_out = gz;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	size_t n = cap - z.avail_out;
	deflateEnd(&z);
	for (size_t i = 0; rc == Z_STREAM_END && i < n; i += 57) {
		printf("RBZ\t%u\t", idx);
		rb_rowtext_put_escaped(stdout, name);
		putchar('\t');
		for (size_t j = i; j < i + 57 && j < n; j += 3) {
			unsigned v = (unsigned)gz[j] << 16 | (j + 1 < n ? (unsigned)gz[j + 1] << 8 : 0) |
				     (j + 2 < n ? gz[j + 2] : 0);
			putchar(b64chars[v >> 18 & 63]);
			putchar(b64chars[v >> 12 & 63]);
			putchar(j + 1 < n ? b64chars[v >> 6 & 63] : '=');
			putchar(j + 2 < n ? b64chars[v & 63] : '=');
		}
		putchar('\n');
	}
	free(gz);
}

/* one object: its rows (or its RBE line), then "RBO IDX end" */
static int verify_object(unsigned idx, const char *path, int argc, char **argv, struct rb_vmlinux *vm)
{
	const char *want = NULL;
	bool want_log = false, digest = false;
	size_t log_head = 0;
	struct rb_load_opts lo = {0};
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--prog-type") && i + 1 < argc)
			lo.prog_type = argv[++i];
		else if (!strcmp(argv[i], "--prog") && i + 1 < argc)
			want = argv[++i];
		else if (!strcmp(argv[i], "--log"))
			want_log = true;
		else if (!strcmp(argv[i], "--log-digest"))
			want_log = digest = true;
		else if (!strcmp(argv[i], "--log-head") && i + 1 < argc)
			log_head = strtoull(argv[++i], NULL, 10);
	}
	printf("RBO\t%u\tbegin\n", idx);
	struct rb_object *obj = NULL;
	struct rb_err err = {{0}};
	if (rb_object_open(path, &lo, &obj, &err) < 0) {
		printf("RBE\t%u\t", idx);
		rb_rowtext_put_escaped(stdout, err.msg);
		printf("\nRBO\t%u\tend\n", idx);
		return 0;
	}
	static struct rb_helper_probe hp;
	rb_helper_probe_init(&hp, true);
	for (size_t p = 0; p < obj->prog_cnt; p++) {
		const struct rb_prog *pr = &obj->progs[p];
		if (want && strcmp(pr->name, want))
			continue;
		char *logbuf = NULL;
		size_t loglen = 0;
		FILE *logf = want_log ? open_memstream(&logbuf, &loglen) : NULL;
		struct rb_verify_opts vo = {
			.tracker = RB_KERNEL_RUNNING, .log = logf, .log_head = log_head, .vmlinux = vm, .helpers = &hp.src};
		struct rb_result res;
		memset(&res, 0, sizeof(res));
		res.err_insn = -1;
		if (rb_verify(obj, p, &vo, &res, &err) < 0) {
			memset(&res, 0, sizeof(res));
			res.verdict = RB_LOAD_ERROR;
			res.err_insn = -1;
			snprintf(res.msg, sizeof(res.msg), "%.255s", err.msg);
		}
		struct rb_progdiff_sum sum;
		char line[160];
		if (logf) {
			fclose(logf);
			if (digest && rb_progdiff_summarise(logbuf, &sum) == 0) {
				rb_progdiff_sum_format(&sum, line, sizeof(line));
				put_log(idx, pr->name, line, strlen(line));
			} else if (!digest) {
				put_log(idx, pr->name, logbuf ? logbuf : "", loglen);
			}
			free(logbuf);
		}
		rb_rowtext_put_row(stdout, idx, obj->sha256, pr->section, pr->name, pr->prog_type,
				   (unsigned long long)pr->insn_cnt, &res);
	}
	printf("RBO\t%u\tend\n", idx);
	rb_object_free(obj);
	return 0;
}

/* One line of a list, "IDX PATH ARGS...", split into av (the words of
 * line): the number of words, 0 for a blank line. */
static int split_line(char *line, char **av, int max)
{
	int ac = 0;
	for (char *save = NULL, *w = strtok_r(line, " \t\n", &save); w && ac < max; w = strtok_r(NULL, " \t\n", &save))
		av[ac++] = w;
	return ac >= 2 ? ac : 0;
}

/* --list FILE --ports P1,P2,...: every line of FILE ("IDX PATH
 * ARGS...") in a child process of its own (an object that crashes the
 * loader costs that object only), one child per port at a time, the next
 * object to the first port that is free (a slow object holds up one port
 * only); after each, "RBO IDX exit CODE" on its port, and while one
 * runs, "RBG alive IDX" every KEEPALIVE_S seconds. The guest kernel's
 * BTF is parsed once, here, and inherited: parsing it for each object (the
 * kernel rows' struct sizes) cost about 0.15 s per object natively and
 * several times that under TCG, most of a small object's time. */
#define KEEPALIVE_S 30 /* an "RBG alive" line per busy port this often */

static int verify_list(const char *list, const char *ports, struct rb_vmlinux *vm)
{
	enum { MAX_SLOTS = 8 };
	FILE *port[MAX_SLOTS];
	pid_t busy[MAX_SLOTS] = {0};
	unsigned busy_idx[MAX_SLOTS] = {0};
	int nport = 0;
	char pl[1024];
	snprintf(pl, sizeof(pl), "%s", ports);
	for (char *save = NULL, *w = strtok_r(pl, ",", &save); w && nport < MAX_SLOTS; w = strtok_r(NULL, ",", &save)) {
		if (!(port[nport] = fopen(w, "w"))) {
			fprintf(stderr, "guest-verify: %s: cannot open\n", w);
			return 2;
		}
		setvbuf(port[nport++], NULL, _IOLBF, 0);
	}
	FILE *f = fopen(list, "r");
	if (!f || !nport) {
		fprintf(stderr, "guest-verify: %s: cannot open (or no --ports)\n", list);
		return 2;
	}
	rb_vmlinux_get(vm);
	/* SIGCHLD blocked: waited for with a timeout (sigtimedwait) */
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	char line[4096];
	bool more = true;
	for (int running = 0; more || running;) {
		int slot = 0;
		while (slot < nport && busy[slot])
			slot++;
		char *av[16];
		int ac = 0;
		while (more && slot < nport && ac == 0)
			if (!fgets(line, sizeof(line), f))
				more = false;
			else
				ac = split_line(line, av, 16);
		if (ac) {
			unsigned idx = (unsigned)strtoul(av[0], NULL, 10);
			fflush(NULL);
			pid_t pid = fork();
			if (pid == 0) {
				sigprocmask(SIG_UNBLOCK, &chld, NULL);
				dup2(fileno(port[slot]), 1);
				int rc = verify_object(idx, av[1], ac - 2, av + 2, vm);
				fflush(stdout);
				_exit(rc);
			}
			if (pid < 0) {
				fprintf(port[slot], "RBO\t%u\texit\t1\n", idx);
				continue;
			}
			busy[slot] = pid;
			busy_idx[slot] = idx;
			running++;
			continue;
		}
		if (!running)
			continue;
		/* a child ended, or KEEPALIVE_S passed: an object at the
		 * instruction limit takes minutes under TCG (strobemeta_bpf_loop:
		 * 12 s natively, over 13 min in a guest on a loaded host), and
		 * the host kills a guest silent for its idle timeout */
		struct timespec ts = {.tv_sec = KEEPALIVE_S};
		sigtimedwait(&chld, NULL, &ts);
		int st = 0;
		pid_t pid;
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			for (int s = 0; s < nport; s++)
				if (busy[s] == pid) {
					int code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
					fprintf(port[s], "RBO\t%u\texit\t%d\n", busy_idx[s], code);
					busy[s] = 0;
					running--;
				}
		for (int s = 0; s < nport; s++)
			if (busy[s])
				fprintf(port[s], "RBG\talive\t%u\n", busy_idx[s]);
	}
	fclose(f);
	for (int s = 0; s < nport; s++)
		fclose(port[s]);
	return 0;
}

int rb_guest_child_main(int argc, char **argv)
{
	bool list = argc == 5 && !strcmp(argv[1], "--list") && !strcmp(argv[3], "--ports");
	if (argc < 3 || (!strncmp(argv[1], "--", 2) && !list)) {
		fprintf(stderr, "usage: rangebench guest-verify IDX OBJ [--prog-type T] [--prog NAME] [--log|--log-digest]\n"
				"       rangebench guest-verify --list FILE --ports TTY,... (FILE: lines IDX OBJ ARGS...)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct rb_vmlinux *vm = rb_vmlinux_new();
	int rc = list ? verify_list(argv[2], argv[4], vm)
		      : verify_object((unsigned)strtoul(argv[1], NULL, 10), argv[2], argc - 3, argv + 3, vm);
	rb_vmlinux_free(vm);
	return rc;
}
