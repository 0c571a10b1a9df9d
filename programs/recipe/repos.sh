#!/usr/bin/env bash
# repos.sh — optional corpus sources from public repositories, built with
# the Debian clang. They need a local git mirror of each repository under
# $RB_REPOS (a directory holding OWNER+NAME/repo, bare git repositories);
# without one a source is skipped with one line, and nothing else in the
# corpus (in particular the default corpus) depends on them.
#   suricata  OISF/suricata ebpf/*.c: the IDS's XDP and socket filters
#             (its Makefile.am flags); suricata loads every section but
#             "xdp" as a socket filter (util-ebpf.c), so its manifest rows
#             say prog_type socket_filter
#   katran    facebookincubator/katran: the XDP load balancer, its
#             healthchecking tc programs and the decap programs, built the
#             way katran/lib/Makefile-bpf builds them
# Each writes corpus/<source>/ with .provenance.tsv (commit as version)
# and FAILURES.tsv.
. "$(dirname "$0")/lib.sh"
REPOS=${RB_REPOS:-}

# checkout SOURCE OWNER+NAME DIR: the repository's HEAD tree into DIR;
# prints the commit. Fails (after one line) when there is no mirror.
checkout() {
	local src=$1 name=$2 dir=$3 git=${REPOS:+$REPOS/$2/repo}
	if [ -z "$REPOS" ] || ! git -C "$git" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		log "$src: skipped (no git mirror of ${name/+//}: set RB_REPOS=DIR with $name/repo in it)"
		return 1
	fi
	rm -rf "$dir"; mkdir -p "$dir"
	git -C "$git" archive HEAD | tar -x -C "$dir"
	git -C "$git" rev-parse --short=12 HEAD
}

# build SOURCE OUTDIR VERSION ORIGIN_PREFIX PROG_TYPE CFLAGS... : compile
# "src<TAB>out" lines from stdin into OUTDIR, recording provenance (with
# PROG_TYPE, the type the project's own loader gives sections libbpf does
# not know, "-" for none) and failures
build() {
	local src=$1 out=$2 ver=$3 pre=$4 ptype=$5; shift 5
	local f o
	while IFS=$'\t' read -r f o; do
		if $CLANG "$@" -target bpf -c "$f" -o "$out/$o" 2>"$WORK/$src.$o.err"; then
			printf '%s\t%s\t%s\t%s\t%s\n' "$o" "$src" "$ver" "${f#"$pre"/}" "$ptype" >>"$out/.provenance.tsv"
		else
			rm -f "$out/$o"
			printf '%s\t%s\n' "${f#"$pre"/}" "$(grep -m1 'error:' "$WORK/$src.$o.err" | sed "s|$pre/||")" \
				>>"$out/FAILURES.tsv"
		fi
	done
}

fresh() { rm -rf "$1"; mkdir -p "$1"; : >"$1/.provenance.tsv"; printf 'file\terror\n' >"$1/FAILURES.tsv"; }
report() { log "$1 $2: $(wc -l <"$3/.provenance.tsv") objects, $(($(wc -l <"$3/FAILURES.tsv") - 1)) failures"; }

# --- suricata
out=$CORPUS/suricata; t=$WORK/suricata
rm -rf "$out"
if ver=$(checkout suricata OISF+suricata "$t"); then
	fresh "$out"
	for f in "$t"/ebpf/*.c; do printf '%s\t%s.bpf.o\n' "$f" "$(basename "$f" .c)"; done |
		build suricata "$out" "$ver" "$t" socket_filter -Wall -I"$t/ebpf/include" -O2 -g -I/usr/include/x86_64-linux-gnu \
			-D__KERNEL__ -D__ASM_SYSREG_H
	report suricata "$ver" "$out"
fi

# --- katran: as katran/lib/Makefile-bpf builds, clang to LLVM IR for the
# host, then llc -march=bpf (glibc's headers want a host target)
out=$CORPUS/katran; t=$WORK/katran
rm -rf "$out"
if ver=$(checkout katran facebookincubator+katran "$t"); then
	fresh "$out"
	for f in "$t"/katran/lib/bpf/{balancer.bpf,healthchecking_ipip,healthchecking.bpf,xdp_pktcntr,xdp_root}.c \
		"$t"/katran/decap/bpf/*.bpf.c "$t"/katran/decap/tc_bpf/*.bpf.c; do
		[ -e "$f" ] || continue
		o=$(basename "$(dirname "$f")").$(basename "$f" .c).o
		if { $CLANG -I"$t/katran/lib/linux_includes" -I"$t" -DDEBUG -D__KERNEL__ -Wno-unused-value \
			-Wno-pointer-sign -Wno-compare-distinct-pointer-types -O2 -emit-llvm -c -g "$f" -o - |
			${LLC:-llc} -march=bpf -filetype=obj -o "$out/$o"; } 2>"$WORK/katran.$o.err"; then
			printf '%s\tkatran\t%s\t%s\t-\n' "$o" "$ver" "${f#"$t"/}" >>"$out/.provenance.tsv"
		else
			rm -f "$out/$o"
			printf '%s\t%s\n' "${f#"$t"/}" "$(grep -m1 'error' "$WORK/katran.$o.err" | sed "s|$t/||")" >>"$out/FAILURES.tsv"
		fi
	done
	report katran "$ver" "$out"
fi
