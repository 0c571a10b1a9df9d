/* child.h — the guest side: `rangebench guest-verify IDX OBJ [--prog-type
 * T] [--prog NAME] [--log]`, run by the guest's init for each object of a
 * batch. It verifies the object's programs with the kernel it runs on
 * (the guest kernel, through bpf(); the loader reads that kernel's BTF,
 * kallsyms, config and uname, and probes its helper sets) and prints the
 * lines of rowtext.h to stdout (a serial port of the guest). */
#ifndef RB_GUEST_CHILD_H
#define RB_GUEST_CHILD_H

int rb_guest_child_main(int argc, char **argv);

#endif
