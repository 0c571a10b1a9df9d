#!/usr/bin/env bash
# kernel.sh — BPF programs from the Linux 6.1 tree (package linux-source-6.1),
# compiled with clang against a vmlinux.h generated from this machine's BTF
# (kernel-headers.sh must have run):
#   selftests/    tools/testing/selftests/bpf/progs/*.c, the test_progs flavour
#                 (-mcpu=v3), plus the objects the selftests link with
#                 `bpftool gen object` (LINKED_SKELS in their Makefile). The
#                 link inputs are left out of the corpus, as the selftests
#                 never load them on their own (selftests/LINKED.tsv lists them).
#   kernel-tree/  bpftool's skeleton programs, perf's bpf_skel programs, runqslower
# Files that fail to compile are listed in <dir>/FAILURES.tsv (file, first error).
. "$(dirname "$0")/lib.sh"
ver=$(pkg_version linux-source-6.1)
ST=$KSRC/tools/testing/selftests/bpf

# KERNEL_ONLY=FILE (corpus.sh --default): compile only the objects FILE
# names, one DIR/NAME a line (selftests/loop4.bpf.o, ...)
wanted() { # dir: passes the "src<TAB>outname" lines of wanted objects
	if [ -n "${KERNEL_ONLY:-}" ]; then
		awk -F'\t' -v d="$1" 'NR == FNR { w[$1] = 1; next } (d "/" $2) in w' "$KERNEL_ONLY" -
	else
		cat
	fi
}
build_set() { # dir kind: reads "src<TAB>outname" lines on stdin
	local dir=$1 kind=$2
	mkdir -p "$CORPUS/$dir"
	rm -rf "$WORK/errors/$kind"
	wanted "$dir" | tee -a "$WORK/origin-$dir.tsv" |
		awk -F'\t' -v d="$CORPUS/$dir" -v k="$kind" '{print k "\t" $1 "\t" d "/" $2}' |
		tr '\t' '\n' | xargs -d '\n' -r -n3 -P "$JOBS" "$RECIPE/compile-one.sh" || true
}
failures() { # dir kind
	local dir=$1 kind=$2 e f
	printf 'file\terror\n' >"$CORPUS/$dir/FAILURES.tsv"
	for e in "$WORK/errors/$kind"/*.err; do
		[ -e "$e" ] || continue
		f=$(basename "$e" .err)
		printf '%s\t%s\n' "$f" "$(grep -m1 -E 'error:' "$e" | sed "s|$KSRC/||; s|$WORK/||" | tr '\t' ' ')" \
			>>"$CORPUS/$dir/FAILURES.tsv"
	done
}

# --- selftests
rm -rf "$CORPUS/selftests" "$WORK"/origin-*.tsv
# (${f##*/}, not basename: one process per file was 6 s of CPU for the
# ~700 files)
for f in "$ST"/progs/*.c; do b=${f##*/}; printf '%s\t%s.bpf.o\n' "$f" "${b%.c}"; done |
	build_set selftests selftests
failures selftests selftests
# linked objects, as the selftests' Makefile builds them for LINKED_SKELS
link() { # name deps...
	local name=$1; shift
	local ins=() d
	[ -z "${KERNEL_ONLY:-}" ] || grep -qx "selftests/$name" "$KERNEL_ONLY" || return 0
	for d in "$@"; do
		[ -e "$WORK/full/selftests/$d" ] || { printf '%s\tinput %s did not compile\n' "$name" "$d" \
			>>"$CORPUS/selftests/FAILURES.tsv"; return 0; }
		ins+=("$WORK/full/selftests/$d")
	done
	printf 'bpftool gen object of %s\t%s\n' "$*" "$name" >>"$WORK/origin-selftests.tsv"
	printf '%s\t%s\n' "$name" "$*" >>"$CORPUS/selftests/LINKED.tsv"
	if bpftool gen object "$WORK/full/selftests/$name" "${ins[@]}" 2>"$WORK/errors/selftests/$name.err"; then
		$LLVM_STRIP -g "$WORK/full/selftests/$name" -o "$CORPUS/selftests/$name"
	else
		printf '%s\t%s\n' "$name" "$(head -1 "$WORK/errors/selftests/$name.err")" >>"$CORPUS/selftests/FAILURES.tsv"
	fi
}
printf 'linked\tinputs\n' >"$CORPUS/selftests/LINKED.tsv"
link test_static_linked.linked.bpf.o test_static_linked1.bpf.o test_static_linked2.bpf.o
link linked_funcs.linked.bpf.o linked_funcs1.bpf.o linked_funcs2.bpf.o
link linked_vars.linked.bpf.o linked_vars1.bpf.o linked_vars2.bpf.o
link linked_maps.linked.bpf.o linked_maps1.bpf.o linked_maps2.bpf.o
link test_subskeleton.linked.bpf.o test_subskeleton_lib2.bpf.o test_subskeleton_lib.bpf.o test_subskeleton.bpf.o
link test_subskeleton_lib.linked.bpf.o test_subskeleton_lib2.bpf.o test_subskeleton_lib.bpf.o
link test_usdt.linked.bpf.o test_usdt.bpf.o test_usdt_multispec.bpf.o
# the inputs stay in $WORK/full/selftests only
tail -n +2 "$CORPUS/selftests/LINKED.tsv" | cut -f2 | tr ' ' '\n' | sort -u |
	while read -r d; do rm -f "$CORPUS/selftests/$d"; done

# --- kernel-tree: bpftool, perf, runqslower
rm -rf "$CORPUS/kernel-tree"
for f in "$KSRC"/tools/bpf/bpftool/skeleton/*.bpf.c; do b=${f##*/}; printf '%s\tbpftool.%s.o\n' "$f" "${b%.c}"; done |
	build_set kernel-tree bpftool
for f in "$KSRC"/tools/perf/util/bpf_skel/*.bpf.c; do b=${f##*/}; printf '%s\tperf.%s.o\n' "$f" "${b%.c}"; done |
	build_set kernel-tree perf
printf '%s\trunqslower.bpf.o\n' "$KSRC/tools/bpf/runqslower/runqslower.bpf.c" | build_set kernel-tree runqslower
printf 'file\terror\n' >"$WORK/kt.tsv"
for k in bpftool perf runqslower; do failures kernel-tree $k; tail -n +2 "$CORPUS/kernel-tree/FAILURES.tsv" >>"$WORK/kt.tsv"; done
mv "$WORK/kt.tsv" "$CORPUS/kernel-tree/FAILURES.tsv"

for d in selftests kernel-tree; do
	for o in "$CORPUS/$d"/*.o; do
		o=$(basename "$o")
		printf '%s\tlinux-source-6.1\t%s\t%s\n' "$o" "$ver" \
			"$(awk -F'\t' -v o="$o" '$2 == o {sub(".*/linux-source-6.1/", "", $1); print $1; exit}' "$WORK/origin-$d.tsv")"
	done >"$CORPUS/$d/.provenance.tsv"
	log "$d: $(ls "$CORPUS/$d"/*.o | wc -l) objects, $(($(wc -l <"$CORPUS/$d/FAILURES.tsv") - 1)) failures"
done
