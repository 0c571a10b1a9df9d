#!/usr/bin/env bash
# scripts/clang-syntax.sh — clang's front end (-fsyntax-only: every error and
# warning clang gives a compile, -Werror included) over C sources, all of
# them in one clang -cc1 process.
#
#   scripts/clang-syntax.sh CLANG-FLAGS... -- SOURCE...
#
# Why: a clang process spends about 0.1 s of CPU starting (page faults while
# libLLVM and libclang-cpp are relocated), and the driver runs each source
# of a multi-source command in a cc1 process of its own; `make test`'s check
# of the fuzz target (Makefile, fuzz_loader_check) compiled its 32 sources
# in about 7.7 s, one `clang -fsyntax-only` per source takes about 5.7 s, one
# cc1 for all of them about 0.8 s. The cc1 command is the one the driver
# gives the first source (clang -###: the flags as the driver translates
# them), with every source as an input: cc1 checks its inputs one after the
# other, each with a fresh preprocessor (a macro of one is not defined in
# the next), and exits non-zero if any of them has an error.
# Exit status: clang's; 2 if the driver's cc1 command cannot be read.
set -u
flags=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do flags+=("$1"); shift; done
[ $# -gt 1 ] || { echo "usage: $0 CLANG-FLAGS... -- SOURCE..." >&2; exit 2; }
shift
srcs=("$@")
line=$(clang -### "${flags[@]}" -fsyntax-only "${srcs[0]}" 2>&1 | grep -F '"-cc1"') || {
	echo "$0: clang -### printed no cc1 command" >&2; exit 2; }
# (clang -### quotes every argument with "", escaping ", \ and $)
eval "set -- $line"
# the driver's command ends with the source it was given
if [ "${!#}" != "${srcs[0]}" ] || [ "$2" != -cc1 ]; then
	echo "$0: unexpected cc1 command: $line" >&2; exit 2
fi
exec "${@:1:$#-1}" "${srcs[@]}"
