#!/usr/bin/env bash
# iproute2.sh — iproute2's example tc programs (package iproute2-doc,
# /usr/share/doc/iproute2/examples/bpf/, C sources), compiled with clang:
# examples/bpf/*.c with BTF (BTF-defined maps, as iproute2 >= 5.x reads
# them), examples/bpf/legacy/*.c without BTF (struct bpf_elf_map maps in
# SEC("maps"), "N/M" tail-call sections, as tc's own loader reads them).
# The header they include (iproute2's include/bpf_api.h) is not packaged:
# recipe/include/iproute2/bpf_api.h stands in for it. iproute2-doc is not
# installed: its .deb is unpacked (deb_unpack).
. "$(dirname "$0")/lib.sh"
out=$CORPUS/iproute2; tmp=$WORK/iproute2
rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp/src"
ver=$(deb_unpack iproute2-doc "$tmp/root") || die "iproute2-doc: cannot fetch the package"
ex=$tmp/root/usr/share/doc/iproute2/examples/bpf
prov=$out/.provenance.tsv; : >"$prov"
printf 'file\terror\n' >"$out/FAILURES.tsv"
# one example: its object name, how it is compiled (-g: BTF; legacy ones without)
name() { local b; b=$(basename "$1" .c); case $1 in */legacy/*) echo "legacy.$b" ;; *) echo "$b" ;; esac; }
compile() { # SRC: $out/NAME.bpf.o, or clang's messages in $tmp/NAME.err
	local f=$1 b g=-g
	b=$(name "$f")
	case $f in */legacy/*) g=-g0 ;; esac
	sed 's|#include "[./]*include/bpf_api.h"|#include <bpf_api.h>|' "$f" >"$tmp/src/$b.c"
	# (sources named relative to the clone, as compile-one.sh does)
	$CLANG -O2 $g -target bpf -I"$RECIPE/include/iproute2" -I/usr/include/x86_64-linux-gnu \
		-fdebug-prefix-map="$ROOT"=. -c "$tmp/src/$b.c" -o "$out/$b.bpf.o" 2>"$tmp/$b.err" || rm -f "$out/$b.bpf.o"
}
export -f name compile
export out tmp CLANG RECIPE ROOT
# $JOBS at a time, then the provenance and failure lists in file order
for f in "$ex"/*.c "$ex"/legacy/*.c; do [ -e "$f" ] && echo "$f"; done |
	xargs -d '\n' -r -n1 -P "$JOBS" bash -c 'compile "$1"' _ || true
for f in "$ex"/*.c "$ex"/legacy/*.c; do
	[ -e "$f" ] || continue
	b=$(name "$f")
	if [ -f "$out/$b.bpf.o" ]; then
		printf '%s\tiproute2-doc\t%s\t%s\n' "$b.bpf.o" "$ver" "${f#"$tmp"/root}" >>"$prov"
	else
		printf '%s\t%s\n' "${f#"$tmp"/root}" "$(grep -m1 'error:' "$tmp/$b.err" | sed "s|$tmp/||")" >>"$out/FAILURES.tsv"
	fi
done
log "iproute2-doc $ver: $(wc -l <"$prov") objects, $(($(wc -l <"$out/FAILURES.tsv") - 1)) failures"
