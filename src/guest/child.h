/* child.h — the guest side: `rangebench guest-verify --list FILE --ports
 * TTY,...`, run once by the guest's init for a batch (FILE: lines "IDX OBJ
 * [--prog-type T] [--prog NAME] [--log|--log-digest]"), or `guest-verify IDX OBJ
 * [ARGS]` for one object. Each object, in a child process of its own,
 * has its programs verified with the kernel it runs on (the guest kernel,
 * through bpf(); the loader reads that kernel's BTF, kallsyms, config and
 * uname) and prints the lines of rowtext.h to its port (a serial port of
 * the guest; stdout for one object). */
#ifndef RB_GUEST_CHILD_H
#define RB_GUEST_CHILD_H

int rb_guest_child_main(int argc, char **argv);

#endif
