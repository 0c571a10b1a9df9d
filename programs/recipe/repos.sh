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
#   cilium    Cilium's tc/XDP/socket datapath (bpf/*.c), built by its own
#             bpf/Makefile (each object with its MAX_*_OPTIONS, -mcpu=v3);
#             from a mirror of cilium/cilium or of a fork (*+cilium)
#   tetragon  cilium/tetragon's bpf/ (kprobe/tracepoint/uprobe/LSM sensors,
#             every kernel-version variant), built by its own bpf/Makefile
#   pwru      cilium/pwru's kprobe_pwru.c (its bpf2go flags)
#   inspektor-gadget  inspektor-gadget/inspektor-gadget gadgets/*/program.bpf.c
#   bpf-examples      xdp-project/bpf-examples: every BPF_TARGETS of its
#             Makefiles (XDP, tc, AF_XDP, tracing), Debian's libbpf headers
#   libbpf-bootstrap  libbpf/libbpf-bootstrap examples/c/*.bpf.c
#   bpftop    Netflix/bpftop's pid_iter.bpf.c
#   ebpf_exporter     cloudflare/ebpf_exporter examples/*.bpf.c (its vmlinux.h)
# The last six are built with the Debian clang and the project's flags;
# $WORK/inc/vmlinux.h (this machine's BTF) stands in where a project
# expects a generated vmlinux.h.
# Each writes corpus/<source>/ with .provenance.tsv (commit as version)
# and FAILURES.tsv.
. "$(dirname "$0")/lib.sh"
REPOS=${RB_REPOS:-}
# headers the Debian toolchain lacks for BPF-target builds: an empty
# gnu/stubs-32.h (glibc's headers on a target that is not x86_64), and the
# struct bpf_map_def of libbpf < 1.0 (build() adds it where a legacy
# source needs it)
STUBS=$WORK/repos-inc
mkdir -p "$STUBS/gnu" && : >"$STUBS/gnu/stubs-32.h"
cat >"$STUBS/bpf_map_def.h" <<'EOF'
struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};
EOF

# checkout SOURCE OWNER+NAME DIR [PATH...]: the repository's HEAD tree
# (or only the PATHs in it) into DIR; prints the commit. Fails (after one
# line) when there is no mirror.
# NAME may be a glob (OWNER+NAME patterns, e.g. "*+cilium" for forks):
# of the mirrors that match, the one whose HEAD commit is newest is used.
checkout() {
	local src=$1 name=$2 dir=$3 git="" m t best=-1
	shift 3
	if [ -n "$REPOS" ]; then
		for m in "$REPOS"/$name/repo; do
			t=$(git -C "$m" log -1 --format=%ct HEAD 2>/dev/null) || continue
			[ "$t" -gt "$best" ] && { best=$t; git=$m; }
		done
	fi
	if [ -z "$git" ]; then
		log "$src: skipped (no git mirror of ${name/+//}: set RB_REPOS=DIR with $name/repo in it)"
		return 1
	fi
	rm -rf "$dir"; mkdir -p "$dir"
	git -C "$git" archive HEAD -- "$@" | tar -x -C "$dir"
	git -C "$git" rev-parse --short=12 HEAD
}

# build SOURCE OUTDIR VERSION ORIGIN_PREFIX PROG_TYPE CFLAGS... : compile
# "src<TAB>out" lines from stdin into OUTDIR, recording provenance (with
# PROG_TYPE, the type the project's own loader gives sections libbpf does
# not know, "-" for none) and failures
build() {
	local src=$1 out=$2 ver=$3 pre=$4 ptype=$5; shift 5
	local f o rc
	while IFS=$'\t' read -r f o; do
		rc=0
		$CLANG "$@" -target bpf -c "$f" -o "$out/$o" 2>"$WORK/$src.$o.err" || rc=$?
		# a legacy SEC("maps") source written for libbpf < 1.0, whose
		# struct bpf_map_def Debian's libbpf 1.1 headers no longer declare:
		# again with that declaration
		if [ $rc -ne 0 ] && grep -q "incomplete type 'struct bpf_map_def'" "$WORK/$src.$o.err"; then
			rc=0
			$CLANG "$@" -include "$STUBS/bpf_map_def.h" -target bpf -c "$f" -o "$out/$o" \
				2>"$WORK/$src.$o.err" || rc=$?
		fi
		if [ $rc -eq 0 ]; then
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

VMLINUX_INC=$WORK/inc

# copy_objs SOURCE OUTDIR VERSION ORIGIN OBJ... : objects a project's own
# Makefile built, with provenance
copy_objs() {
	local src=$1 out=$2 ver=$3 origin=$4 o; shift 4
	for o in "$@"; do
		[ -s "$o" ] || continue
		cp "$o" "$out/"
		printf '%s\t%s\t%s\t%s\t-\n' "$(basename "$o")" "$src" "$ver" "$origin/$(basename "$o")" >>"$out/.provenance.tsv"
	done
}

# --- cilium: its bpf/Makefile (Makefile.defs asks for go, which only sets
# variables the BPF objects do not use)
out=$CORPUS/cilium; t=$WORK/cilium
rm -rf "$out"
if ver=$(checkout cilium '*+cilium' "$t" bpf Makefile.defs Makefile.quiet); then
	fresh "$out"
	objs="bpf_lxc.o bpf_overlay.o bpf_sock.o bpf_host.o bpf_wireguard.o bpf_xdp.o bpf_network.o bpf_alignchecker.o"
	make -C "$t/bpf" -k -j"$JOBS" CLANG="$CLANG" $objs >"$WORK/cilium.log" 2>&1 || true
	for o in $objs; do [ -s "$t/bpf/$o" ] || printf '%s\t%s\n' "bpf/${o%.o}.c" "see $WORK/cilium.log" >>"$out/FAILURES.tsv"; done
	copy_objs cilium "$out" "$ver" bpf $(for o in $objs; do echo "$t/bpf/$o"; done)
	report cilium "$ver" "$out"
fi

# --- tetragon: its bpf/Makefile (objs/*.o, one per sensor and kernel variant)
out=$CORPUS/tetragon; t=$WORK/tetragon
rm -rf "$out"
if ver=$(checkout tetragon cilium+tetragon "$t" bpf); then
	fresh "$out"
	make -C "$t/bpf" -k -j"$JOBS" CLANG="$CLANG" >"$WORK/tetragon.log" 2>&1 ||
		printf '%s\t%s\n' "bpf/Makefile" "some targets failed, see $WORK/tetragon.log" >>"$out/FAILURES.tsv"
	copy_objs tetragon "$out" "$ver" bpf/objs "$t"/bpf/objs/*.o
	report tetragon "$ver" "$out"
fi

# --- pwru (bpf2go: -I./bpf/headers -Wno-address-of-packed-member)
out=$CORPUS/pwru; t=$WORK/pwru
rm -rf "$out"
if ver=$(checkout pwru cilium+pwru "$t" bpf); then
	fresh "$out"
	printf '%s\t%s\n' "$t/bpf/kprobe_pwru.c" kprobe_pwru.o |
		build pwru "$out" "$ver" "$t" - -O2 -g -I"$t/bpf/headers" -D__TARGET_ARCH_x86 -Wno-address-of-packed-member
	report pwru "$ver" "$out"
fi

# --- inspektor-gadget: one object per gadget
out=$CORPUS/inspektor-gadget; t=$WORK/inspektor-gadget
rm -rf "$out"
if ver=$(checkout inspektor-gadget inspektor-gadget+inspektor-gadget "$t" gadgets include); then
	fresh "$out"
	for f in "$t"/gadgets/*/program.bpf.c; do printf '%s\t%s.bpf.o\n' "$f" "$(basename "$(dirname "$f")")"; done |
		build inspektor-gadget "$out" "$ver" "$t" - -O2 -g -D__TARGET_ARCH_x86 -I"$t/include" \
			-I"$t/include/gadget/amd64" -idirafter /usr/include/x86_64-linux-gnu -idirafter "$STUBS" -Wno-unused-value
	report inspektor-gadget "$ver" "$out"
fi

# --- xdp-project/bpf-examples: the BPF_TARGETS (and TC_BPF_TARGETS) of
# each example's Makefile; its lib/libbpf submodule is replaced by Debian's
# libbpf headers
out=$CORPUS/bpf-examples; t=$WORK/bpf-examples
rm -rf "$out"
if ver=$(checkout bpf-examples xdp-project+bpf-examples "$t"); then
	fresh "$out"
	for d in "$t"/*/; do
		for b in $(sed -n 's/^\(TC_\)\?BPF_TARGETS *[:+]\?= *//p' "$d/Makefile" 2>/dev/null); do
			[ -f "$d$b.c" ] && printf '%s\t%s.%s.o\n' "$d$b.c" "$(basename "$d")" "$b"
		done
	done | sort -u |
		build bpf-examples "$out" "$ver" "$t" - -O2 -g -D__TARGET_ARCH_x86 -I"$t/include" -I"$t/headers" \
			-I"$t/lib/util" -I/usr/include/x86_64-linux-gnu -idirafter "$STUBS" -Wno-compare-distinct-pointer-types
	report bpf-examples "$ver" "$out"
fi

# --- libbpf-bootstrap examples (vmlinux.h of this machine)
out=$CORPUS/libbpf-bootstrap; t=$WORK/libbpf-bootstrap
rm -rf "$out"
if ver=$(checkout libbpf-bootstrap libbpf+libbpf-bootstrap "$t"); then
	fresh "$out"
	for f in "$t"/examples/c/*.bpf.c; do printf '%s\t%s.o\n' "$f" "$(basename "$f" .c)"; done |
		build libbpf-bootstrap "$out" "$ver" "$t" - -O2 -g -mcpu=v3 -D__TARGET_ARCH_x86 -I"$VMLINUX_INC" \
			-I"$t/examples/c" -idirafter /usr/include/x86_64-linux-gnu
	report libbpf-bootstrap "$ver" "$out"
fi

# --- bpftop
out=$CORPUS/bpftop; t=$WORK/bpftop
rm -rf "$out"
if ver=$(checkout bpftop Netflix+bpftop "$t"); then
	fresh "$out"
	for f in "$t"/src/bpf/*.bpf.c; do printf '%s\t%s.o\n' "$f" "$(basename "$f" .c)"; done |
		build bpftop "$out" "$ver" "$t" - -O2 -g -mcpu=v3 -D__TARGET_ARCH_x86 -I"$VMLINUX_INC" \
			-idirafter /usr/include/x86_64-linux-gnu
	report bpftop "$ver" "$out"
fi

# --- ebpf_exporter examples (its own include/x86/vmlinux.h, -mcpu=v3)
out=$CORPUS/ebpf_exporter; t=$WORK/ebpf_exporter
rm -rf "$out"
if ver=$(checkout ebpf_exporter cloudflare+ebpf_exporter "$t"); then
	fresh "$out"
	for f in "$t"/examples/*.bpf.c; do printf '%s\t%s.o\n' "$f" "$(basename "$f" .c)"; done |
		build ebpf_exporter "$out" "$ver" "$t" - -O2 -g -mcpu=v3 -D__TARGET_ARCH_x86 -I"$t/include/x86" \
			-I"$t/examples" -idirafter /usr/include/x86_64-linux-gnu
	report ebpf_exporter "$ver" "$out"
fi
