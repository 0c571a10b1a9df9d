#!/usr/bin/env bash
# sched-ext.sh — `make corpus-sched-ext`: the sched_ext example schedulers
# of Debian's linux-source-7.2 (tools/sched_ext/scx_*.bpf.c) into
# programs/corpus/sched-ext/ (issue 25 item 5). Not part of `make corpus`:
# it downloads linux-source-7.2 (about 150 MB) and needs a kernel with
# sched_ext to check against (kernel-7.2 of kernels.conf: `make kernels`).
#   1. linux-source-7.2 from Debian sid, never installed: a private apt
#      list (deb sid) under build/corpus-work/apt-sid (lists at most once a
#      day), `apt-get download`, `dpkg-deb -x`, the tarball's tools/ and
#      include/ only
#   2. vmlinux.h from kernel-7.2's BTF (the kernel cache's inputs/btf, which
#      `make kernels` writes; the running 6.18 kernel has no sched_ext)
#   3. each scx_*.bpf.c with clang-19 and the flags of tools/sched_ext/Makefile
#      (libbpf's headers: the libbpf rangebench links, build/libbpf.mk)
# Verify them with the kernel (`verify --tracker kernel-7.2`) or the engine
# (`verify --btf $RB_KERNEL_CACHE/linux-image-7.2.../inputs/btf --tracker
# cnum-mainline@7.2`: libbpf then resolves sched_ext_ops in 7.2's BTF).
. "$(dirname "$0")/lib.sh"
PKG=${RB_SCHED_EXT_PKG:-linux-source-7.2}
KCACHE=${RB_KERNEL_CACHE:-$ROOT/build/kernels}
BTF=$(ls "$KCACHE"/linux-image-7.2*/inputs/btf 2>/dev/null | head -1 || true)
[ -n "$BTF" ] || die "no kernel-7.2 BTF in $KCACHE (run make kernels first)"
command -v clang-19 >/dev/null || need_pkgs clang-19
INC=$(sed -n 's/^LIBBPF_INC := -I//p' "$ROOT/build/libbpf.mk" 2>/dev/null || true)
[ -n "$INC" ] && [ -f "$INC/bpf/bpf_helper_defs.h" ] || die "no current libbpf headers (build/libbpf.mk: run make first)"
MIRROR=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian

A=$WORK/apt-sid; out=$CORPUS/sched-ext; tmp=$WORK/sched-ext
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$WORK/debs"
echo "deb $MIRROR sid main" >"$A/sources.list"
O=(-o "Dir::Etc::sourcelist=$A/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$A/lists"
	-o "Dir::Cache=$A/cache" -o Debug::NoLocking=1)
if [ -z "$(find "$A/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
	apt-get "${O[@]}" update -q >"$A/update.log" 2>&1 || die "cannot reach $MIRROR (sid): see $A/update.log"
fi
ver=$(apt-cache "${O[@]}" show "$PKG" 2>/dev/null | awk '/^Version:/ {print $2; exit}')
[ -n "$ver" ] || die "sid has no $PKG"
deb=$(ls "$WORK/debs/${PKG}_${ver/:/%3a}"_all.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	(cd "$WORK/debs" && apt-get "${O[@]}" download -q "$PKG=$ver") >"$WORK/$PKG-download.log" 2>&1 ||
		die "$PKG: download failed, see $WORK/$PKG-download.log"
	deb=$(ls "$WORK/debs/${PKG}_${ver/:/%3a}"_all.deb | head -1)
fi
rm -rf "$tmp" "$out"; mkdir -p "$tmp/x" "$tmp/inc" "$out"
dpkg-deb -x "$deb" "$tmp/x"
tarball=$(ls "$tmp"/x/usr/src/linux-source-*.tar.* | head -1)
top=$(basename "$tarball"); top=${top%.tar.*} # linux-source-7.2.tar.xz holds linux-source-7.2/
tar xf "$tarball" -C "$tmp" "$top/tools/sched_ext" "$top/tools/include" "$top/include" "$top/tools/lib/bpf"
S=$tmp/$top
bpftool btf dump file "$BTF" format c >"$tmp/inc/vmlinux.h"
# libbpf's BPF-side headers: the linked libbpf's (bpf_helper_defs.h is generated there)
mkdir -p "$tmp/inc/bpf" && cp "$INC"/bpf/*.h "$tmp/inc/bpf/"
sys=$(clang-19 -v -E - </dev/null 2>&1 | sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
fails=0
for f in "$S"/tools/sched_ext/scx_*.bpf.c; do
	b=$(basename "$f" .c)
	# shellcheck disable=SC2086
	if nice clang-19 -g -D__TARGET_ARCH_x86 -mlittle-endian -I"$S/tools/sched_ext/include" \
		-I"$S/tools/sched_ext/include/bpf-compat" -I"$tmp/inc" -I"$S/tools/include/uapi" -I"$S/include" $sys \
		-Wall -Wno-compare-distinct-pointer-types -Wno-microsoft-anon-tag -fms-extensions -O2 -mcpu=v3 \
		-target bpf -c "$f" -o "$out/$b.o" 2>"$tmp/$b.err"; then
		printf '%s\t%s\t%s\ttools/sched_ext/%s\n' "$b.o" "$PKG" "$ver" "$(basename "$f")" >>"$out/.provenance.tsv"
	else
		fails=$((fails + 1)); log "sched-ext: $b does not compile: $(grep -m1 error: "$tmp/$b.err")"
	fi
done
rm -rf "$tmp/x"
log "sched-ext: $PKG $ver, $(ls "$out"/*.o 2>/dev/null | wc -l) schedulers ($fails failed), vmlinux.h from $BTF"
