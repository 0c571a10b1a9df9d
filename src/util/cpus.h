/* cpus.h — the number of possible CPUs (the kernel's nr_cpu_ids), read
 * from /sys/devices/system/cpu/possible ("0-N" or "0"). */
#ifndef RB_UTIL_CPUS_H
#define RB_UTIL_CPUS_H

/* N + 1 for "0-N"; 0 when the file cannot be read or parsed */
unsigned rb_possible_cpus(void);

#endif
