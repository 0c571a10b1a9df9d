#!/usr/bin/env bash
# cilium-ebpf.sh — the little-endian BPF test objects the Go library
# cilium/ebpf ships (package golang-github-cilium-ebpf-dev, *-el.elf under
# /usr/share/gocode/src/github.com/cilium/ebpf): objects built by several
# clang versions (7, 9, 14) with legacy and BTF maps, iproute2-compatible
# map records, CO-RE tests, sections named the pre-1.0 libbpf way. Kept
# byte for byte (the big-endian twins are left out). The package is not
# installed: its .deb is unpacked (deb_unpack).
. "$(dirname "$0")/lib.sh"
out=$CORPUS/cilium-ebpf; tmp=$WORK/cilium-ebpf
rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp"
ver=$(deb_unpack golang-github-cilium-ebpf-dev "$tmp/root") || die "golang-github-cilium-ebpf-dev: cannot fetch the package"
base=$tmp/root/usr/share/gocode/src/github.com/cilium/ebpf
prov=$out/.provenance.tsv; : >"$prov"
find "$base" -name '*-el.elf' | sort | while read -r f; do
	rel=${f#"$base"/}
	d=$(dirname "$rel"); d=${d//\//.}
	o=$(basename "$f" -el.elf).o
	[ "$d" = testdata ] || o=${d%.testdata}.$o
	cp "$f" "$out/$o"
	printf '%s\tgolang-github-cilium-ebpf-dev\t%s\t%s\n' "$o" "$ver" "${f#"$tmp"/root}" >>"$prov"
done
log "cilium-ebpf $ver: $(wc -l <"$prov") objects"
