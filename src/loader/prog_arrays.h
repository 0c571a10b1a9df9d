/* prog_arrays.h — what the prog arrays of an object hold after tc fills
 * them from "N/M" sections (prog_arrays.c; rb_prog.tail_filled). */
#ifndef RB_LOADER_PROG_ARRAYS_H
#define RB_LOADER_PROG_ARRAYS_H

#include <stdbool.h>
#include <stddef.h>

#include "loader/object.h"

/* 6.18 bpf_check_tail_call, run after a program verified: every prog
 * array it refers to must take it (__bpf_prog_map_compatible: the same
 * program type, expected attach type, XDP frags and sleepable flags as
 * the array's owner, the first program stored in it). Returns false, with
 * *map the array's index, when one the loader filled does not. */
bool rb_prog_arrays_compatible(const struct rb_object *obj, const struct rb_prog *p, size_t *map);

#endif
