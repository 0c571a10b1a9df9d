#!/usr/bin/env bash
# libbpf-tools.sh — the BPF object embedded (libbpf skeleton) in each
# libbpf-tools executable in /usr/sbin; tools sharing one object (e.g.
# the fs*dist/fs*slower family) keep it once, under the first tool's name.
# usage: libbpf-tools.sh RANGEBENCH
. "$(dirname "$0")/lib.sh"
RB=$1
out=$CORPUS/libbpf-tools; tmp=$WORK/libbpf-tools
rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp"
prov=$out/.provenance.tsv; : >"$prov"
exes=$(dpkg -L libbpf-tools | grep '^/usr/sbin/.' | sort | only_wanted libbpf-tools)
"$RB" extract -o "$tmp" $exes >"$tmp/extract.tsv"
cut -f5 "$tmp/extract.tsv" | keep_unique "$out" |
	provenance "$tmp/extract.tsv" libbpf-tools "$(pkg_version libbpf-tools)" >>"$prov"
log "libbpf-tools: $(wc -l <"$prov") objects from $(echo "$exes" | wc -l) executables"
