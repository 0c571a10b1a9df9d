#!/usr/bin/env bash
# own.sh — this project's own BPF programs (programs/src/*.bpf.c), the
# talk's worked examples, compiled into programs/corpus/own/ ($JOBS at a
# time).
. "$(dirname "$0")/lib.sh"
out=$CORPUS/own
rm -rf "$out" "$WORK/errors/own"; mkdir -p "$out"
: >"$out/.provenance.tsv"
for f in "$ROOT"/programs/src/*.bpf.c; do
	[ -e "$f" ] && printf '%s\n%s\n' "$f" "$out/$(basename "$f" .c).o"
done | xargs -d '\n' -r -n2 -P "$JOBS" "$RECIPE/compile-one.sh" own || true
fail=0
for f in "$ROOT"/programs/src/*.bpf.c; do
	[ -e "$f" ] || continue
	o=$(basename "$f" .c).o
	if [ -f "$out/$o" ]; then
		printf '%s\trangebench\tsrc-%s\tprograms/src/%s\n' "$o" "$(sha256sum "$f" | cut -c1-12)" "$(basename "$f")" >>"$out/.provenance.tsv"
	else
		cat "$WORK/errors/own/$o.err" >&2; fail=1
	fi
done
[ $fail = 0 ] || die "own programs failed to compile (see above)"
log "own: $(wc -l <"$out/.provenance.tsv") objects"
