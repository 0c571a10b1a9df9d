#!/usr/bin/env bash
# compile-one.sh KIND SRC OUT — compile one BPF C file with the flags of the
# tree it comes from, then strip DWARF but keep BTF (`llvm-strip -g` keeps
# .BTF and .BTF.ext). The unstripped object is kept in $WORK/full/KIND/ (for
# linking); on failure clang's messages go to $WORK/errors/KIND/<OUT name>.err
# and the exit status is 1.
#   selftests  flags of tools/testing/selftests/bpf/Makefile (6.1), test_progs flavour
#   bpftool    flags of tools/bpf/bpftool/Makefile (skeleton/*.bpf.c)
#   perf       flags of tools/perf/Makefile.perf (util/bpf_skel/*.bpf.c)
#   runqslower flags of tools/bpf/runqslower/Makefile
#   own        programs/src/*.bpf.c (this project)
# (called once per object: no process here that a shell expansion can do,
# and clang's resource directory from corpus.sh when it ran it)
case $0 in */*) . "${0%/*}/lib.sh" ;; *) . ./lib.sh ;; esac
kind=$1 src=$2 out=$3
INC=$WORK/inc
# the object names its sources relative to the clone (./build/corpus-work/...,
# ./programs/src/...) in its BTF line info, not by this clone's absolute path:
# the same object from every clone, so corpus.sh's cache serves them all
MAP=-fdebug-prefix-map=$ROOT=.
SYS="-idirafter ${CLANG_RESOURCE_DIR:-$($CLANG -print-resource-dir)}/include -idirafter /usr/include/x86_64-linux-gnu -idirafter /usr/include"
case $kind in
selftests)
	ST=$KSRC/tools/testing/selftests/bpf
	extra=
	case ${src##*/} in test_l4lb_noinline.c|test_xdp_noinline.c) extra=-fno-inline ;; esac
	flags="-g -D__TARGET_ARCH_x86 -mlittle-endian -I$INC -I$ST -I$KSRC/tools/include/uapi $SYS \
	       -Wno-compare-distinct-pointer-types -DENABLE_ATOMICS_TESTS $extra -O2 -target bpf -mcpu=v3" ;;
bpftool)
	flags="-I$INC -I$KSRC/tools/include/uapi -g -O2 -Wall -fno-stack-protector -target bpf" ;;
perf)
	flags="-g -O2 -target bpf -Wall -Werror -I$INC -I$KSRC/tools/include/uapi" ;;
runqslower)
	flags="-g -O2 -target bpf -I$INC -I$KSRC/tools/include/uapi" ;;
own)
	flags="-g -O2 -target bpf -mcpu=v3 -Wall -Werror -I$INC" ;;
*) die "compile-one: unknown kind $kind" ;;
esac
full=$WORK/full/$kind/${out##*/}; err=$WORK/errors/$kind/${out##*/}.err
mkdir -p "$WORK/full/$kind" "$WORK/errors/$kind"
rm -f "$out" "$err" "$full"
# shellcheck disable=SC2086
if $CLANG $flags $MAP -c "$src" -o "$full" 2>"$err"; then
	$LLVM_STRIP -g "$full" -o "$out"
	rm -f "$err"
else
	rm -f "$full"
	exit 1
fi
