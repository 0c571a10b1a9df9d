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
n=0 rels=()
while read -r rel _; do
	case $rel in ''|'#'*) continue ;; esac
	[ -f "$CORPUS/$rel" ] || die "default.list: $rel is not in the corpus"
	ln -s "../$rel" "$d/${rel%%/*}.${rel#*/}"
	rels+=("$rel")
	n=$((n + 1))
done <"$list"
# each listed object's rows of the full manifest, in the list's order (one
# awk for all of them, not one per object)
printf '%s\n' "${rels[@]}" | awk -F'\t' 'NR == FNR { order[++k] = $0; next }
	{ rows[$4] = rows[$4] $0 "\n" } END { for (i = 1; i <= k; i++) printf "%s", rows[order[i]] }' - "$CORPUS/manifest.tsv" >>"$d/manifest.tsv"
log "default: $n objects, $(($(wc -l <"$d/manifest.tsv") - 1)) programs in $d"
