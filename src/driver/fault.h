/* fault.h — a test-only fault switch for the driver.
 *
 * In test builds (RB_TEST_BUILD) the run command reads RB_TEST_FAULT, a
 * comma-separated list of TRACKER:KIND, and the driver perturbs what that
 * tracker's verifications record, so that tests can check that `compare`
 * and the charts show a changed tracker:
 *   states   total and peak states doubled (+1)
 *   insns    instructions processed * 3/2 (+1)
 *   verdict  every accepted program recorded as rejected at insn 0
 *   slow     each verification sleeps 200 ms (to interrupt a run)
 *   crash    each verification's process dies (abort) after verifying
 *   hang     each verification hangs after verifying (until killed)
 *   hog      each verification then grows its memory by 64 MiB every
 *            50 ms (touched, so resident) until killed
 *   note     each verification then prints "RB_TEST_FAULT: verified
 *            TRACKER" on stderr (the order of a run's verifications)
 * and the target "open" (every object) or "open=GLOB" (objects whose file
 * name matches GLOB) with KIND crash, hang or hog makes the process that
 * opens an object (a scan child, scan.h) die, hang or grow in the opening
 * step, as a loader crashing (or allocating without end) on a hostile
 * object would; "scan-exit:crash" makes a scan child die (abort) at its
 * exit, after its last answer,
 * "scan-exit:hang" makes it hang there (its parent then kills it after
 * 1 s, not RB_SCAN_EXIT_S, so that a test need not wait), and
 * "verify-log:crash" a `verify --log` (a child of `run --keep-logs`) die
 * once its first program's log is printed.
 * The perturbation lives in the driver, not in a tracker: the recorded
 * rows change, the verifier does not. Release builds ignore the variable. */
#ifndef RB_DRIVER_FAULT_H
#define RB_DRIVER_FAULT_H

#include <stdbool.h>

#include "result/result.h"

enum {
	RB_FAULT_STATES = 1,
	RB_FAULT_INSNS = 2,
	RB_FAULT_VERDICT = 4,
	RB_FAULT_SLOW = 8,
	RB_FAULT_CRASH = 16,
	RB_FAULT_HANG = 32,
	RB_FAULT_HOG = 64,
	RB_FAULT_NOTE = 128,
};

/* The fault kinds spec sets for tracker (0: none; -1: bad spec). */
int rb_fault_parse(const char *spec, const char *tracker);
/* The kinds (RB_FAULT_CRASH, RB_FAULT_HANG, RB_FAULT_HOG) spec sets for opening path. */
int rb_fault_open(const char *spec, const char *path);
/* Does spec hold item ("scan-exit:crash") as one of its entries? */
bool rb_fault_named(const char *spec, const char *item);
/* After a verification by tracker: note, sleep, crash or hang as the kinds say. */
void rb_fault_during(int kinds, const char *tracker);
/* Apply the kinds to a result (not RB_FAULT_SLOW/CRASH/HANG). */
void rb_fault_apply(int kinds, struct rb_result *res);
/* RB_TEST_FAULT in test builds, NULL in release builds */
const char *rb_fault_env(void);

#endif
