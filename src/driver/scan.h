/* scan.h — opening untrusted objects in a child process.
 *
 * An object is opened only in a scan child, `EXE run --scan-child`
 * (spawn.h), never in the process that asks: the loader (libbpf among it)
 * runs on hostile files, and a crash or heap corruption there must cost
 * that object, not the run (issue 24). One child opens object after
 * object, as the parent sends their paths through its stdin, and answers
 * each with the object's identity (sha256, and every program's index,
 * name, section, type and instruction count, names whole: wire.h) or the
 * loader's error. A child that dies (or passes the budget) costs the
 * object in flight: the caller is told the signal, and the next object
 * goes to a new child. */
#ifndef RB_DRIVER_SCAN_H
#define RB_DRIVER_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/object.h"
#include "util/err.h"

/* seconds one object may take to open before its child is killed */
#define RB_SCAN_BUDGET_S 120.0
/* seconds an idle child may take to exit once its stdin is closed */
#define RB_SCAN_EXIT_S 10.0

struct rb_scan_prog {
	uint32_t idx; /* index in rb_object.progs */
	char *name, *section;
	uint32_t prog_type, attach_type; /* attach_type: libbpf's expected attach type */
	uint64_t insn_cnt;
	uint64_t helpers[4]; /* the helper ids (1..255) its instructions call, a bit each */
};

struct rb_scan_obj {
	char sha256[65];
	struct rb_scan_prog *progs;
	size_t nprogs;
};

void rb_scan_obj_free(struct rb_scan_obj *o);

/* the helper ids (1..255) program p's instructions call, a bit each: the
 * ids a verification of it asks the running kernel's helper sets about */
void rb_scan_helper_calls(const struct rb_prog *p, uint64_t out[4]);

enum rb_scan_status {
	RB_SCAN_OK = 0,      /* opened: out filled */
	RB_SCAN_FAILED = 1,  /* the loader refused it: err is its message */
	RB_SCAN_CRASHED = 2, /* the child died or was killed opening it: err says how */
	RB_SCAN_STOPPED = 3, /* stop() said so: the child was killed */
};

struct rb_scan;

/* exe: the rangebench executable ("/proc/self/exe"); stop (may be NULL)
 * is polled while a child works; mem_limit_mib: the child's own resident
 * memory while it opens an object, past which it is killed (0 = none): an
 * exec'd child's resident size, a forked one's growth since the fork (its
 * resident size counts the pages it still shares with this process) */
struct rb_scan *rb_scan_new(const char *exe, bool (*stop)(void *), void *stop_arg, uint64_t mem_limit_mib);
/* Open one object in the child (started when needed: a fork of this
 * process where it is single-threaded, spawn.h, as in verify and in a
 * run's scan of its one object before its threads start; else an exec of
 * exe): an rb_scan_status, or -1 when no child could be started (err says
 * why). */
int rb_scan_object(struct rb_scan *s, const char *path, const struct rb_load_opts *lo, struct rb_scan_obj *out,
		   struct rb_err *err);
/* The next rb_scan_object is the caller's last: its child is ended as soon
 * as it has answered, before the answer is read here (rb_scan_end reports
 * how it ended). A forked child (spawn.h) shares this process's memory
 * while it lives: each page this process writes meanwhile is copied, and
 * an allocation splits the sanitizer's huge pages (test builds). */
void rb_scan_last(struct rb_scan *s);
/* Ends the idle child (if any): closes its stdin and waits for it to
 * exit, at most RB_SCAN_EXIT_S seconds before it is killed. True when it
 * exited with status 0 (or there was none); false, and how it ended in
 * `why` ("signal 11 (Segmentation fault)"), when it crashed, failed or had
 * to be killed: every answer it gave came before, but a child that dies at
 * its exit has corrupted its memory or leaked (the sanitizer build), and
 * the caller says so. A later rb_scan_object starts a new child. */
bool rb_scan_end(struct rb_scan *s, char *why, size_t len);
/* ends the child (if any, as rb_scan_end, its status ignored) and frees s */
void rb_scan_free(struct rb_scan *s);

/* the child's side: requests from stdin, answers to stdout; exit code */
int rb_scan_child_main(void);

#endif
