/* spawn.h — starting a child process of the driver: a fresh exec of the
 * rangebench executable with posix_spawn (never a bare fork of a
 * multi-threaded process, which could inherit locks held by other threads
 * and pipes of sibling children; rb_spawn_main forks a single-threaded
 * one), its stdin and stdout pipes to the parent, and SIGINT, SIGTERM,
 * SIGHUP and SIGPIPE blocked: a Ctrl-C or a hang-up reaches the whole
 * process group, and the parent, not the child, decides what it stops.
 * Children set PR_SET_PDEATHSIG themselves (rb_child_bind_parent), so a
 * parent killed outright takes them along. */
#ifndef RB_DRIVER_SPAWN_H
#define RB_DRIVER_SPAWN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"

/* Start argv[0] with argv; *to_child: a pipe to its stdin (-1 to leave
 * stdin alone), *from_child: a pipe from its stdout. Both close-on-exec in
 * the parent. Returns the pid or -1 (err names what). */
pid_t rb_spawn(char *const argv[], int *to_child, int *from_child, struct rb_err *err);

/* The same child, running child_main() (what argv runs) in a fork of this
 * process instead when it is single-threaded (no other thread can hold a
 * lock, or start one, between the check and the fork): no exec, so no
 * dynamic loader, no sanitizer start-up, no start-up of ours. The fork gets
 * what the exec'd child would: the pipes as stdin and stdout, the signal
 * mask and defaults above, caught signals back to their default, every
 * close-on-exec descriptor closed (the parent's database and object files
 * among them); it never writes the parent's buffered output nor runs its
 * atexit handlers (it ends with _exit, with child_main's code, or 2 if
 * what it printed could not be written, as main does), and touches
 * nothing of the parent's but what child_main reads. In test builds its
 * leaks are not checked: that check (~15-20 ms a child, fork or exec) is
 * most of what a fork saves here, the fork alone little more than the
 * copy-on-write faults it costs the parent (sanitizer build; release: 3 ms
 * of a verify's 21); the same child_main runs exec'd, and checked, where
 * the parent has threads (a `run` of more than one object to open, and
 * the scan child that replaces a crashed one). Multi-threaded: rb_spawn(argv,
 * ...). *forked (may be NULL): whether the child is a fork; its resident
 * size then counts the pages it shares with this process. */
pid_t rb_spawn_main(char *const argv[], int (*child_main)(void), int *to_child, int *from_child, bool *forked,
		    struct rb_err *err);

/* in a child: die with the parent; false if the parent is already gone */
bool rb_child_bind_parent(void);

/* "signal 6 (Aborted)", "exit status 3", for a waitpid status */
void rb_status_text(int status, char *buf, size_t len);

/* wait for pid (retrying on EINTR); its status */
int rb_wait_child(pid_t pid);

/* resident bytes of a process (0 if unknown) */
uint64_t rb_rss_of(pid_t pid);

#endif
