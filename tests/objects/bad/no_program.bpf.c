/* no_program.bpf.c — an object with data but no program: opening it is
 * an error ("no programs: ..."), never an empty success. */
int counter = 1;
const char greeting[] = "hello";
