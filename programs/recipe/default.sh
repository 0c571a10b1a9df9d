#!/usr/bin/env bash
# default.sh — materialise the default corpus: programs/corpus/default/
# holds one symlink per entry of programs/default.list (paths relative to
# programs/corpus; '#' starts a comment), named <source>.<file>, plus
# default/manifest.tsv (the rows of the full manifest for those objects).
# A listed object that is missing is an error.
. "$(dirname "$0")/lib.sh"
list=$ROOT/programs/default.list
d=$CORPUS/default
rm -rf "$d"; mkdir -p "$d"
head -1 "$CORPUS/manifest.tsv" >"$d/manifest.tsv"
n=0
while read -r rel _; do
	case $rel in ''|'#'*) continue ;; esac
	[ -f "$CORPUS/$rel" ] || die "default.list: $rel is not in the corpus"
	ln -s "../$rel" "$d/${rel%%/*}.${rel#*/}"
	awk -F'\t' -v o="$rel" '$4 == o' "$CORPUS/manifest.tsv" >>"$d/manifest.tsv"
	n=$((n + 1))
done <"$list"
log "default: $n objects, $(($(wc -l <"$d/manifest.tsv") - 1)) programs in $d"
