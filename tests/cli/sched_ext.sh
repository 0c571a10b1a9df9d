#!/usr/bin/env bash
# sched_ext.sh — sched_ext schedulers in the 7.2 profile (profile.h
# sched_ext, kfunc_trusted_default): tests/objects/sched_ext.bpf.o verified
# by the engine with Linux 7.2.13's BTF gives, program by program, what
# 7.2.13 gives. The kernel's rows were measured in its QEMU guest
# (2026-12-06) with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/sched_ext.bpf.o
# and are recorded below; CI does not boot 7.2, and the 7.2 BTF is what a
# guest run leaves in the kernel cache (kernel-7.2's inputs/btf): without
# it the sched_ext half is skipped with one line. The running 6.18.44 kernel
# has no sched_ext: its BTF lacks the struct_ops type, so libbpf cannot
# open the object, and with 7.2's BTF the 6.18 profile does not model it.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/sched_ext.bpf.o
. tests/cli/lib/tap.sh

# walk_plain.bpf.o (no sched_ext, host BTF): the 6.18 profile as 6.18.44,
# the 7.2 profile as 7.2.13 gave it in its guest (2026-12-06, as above)
WP=${RB_TEST_OBJECTS:-build/test/objects}/walk_plain.bpf.o
# split_rows PREFIX: the CSV of a verify with several --tracker on stdin,
# each tracker's rows (the tracker column dropped: as a verify with that
# tracker alone prints them) into PREFIX.TRACKER.csv (TRACKER's [^a-z0-9]
# as _)
split_rows() {
	awk -F, -v pre="$1" 'NR == 1 { h = $1 "," $2 substr($0, length($1 $2 $3) + 3); next }
		{ t = $3; gsub(/[^a-z0-9]/, "_", t); f = pre "." t ".csv"
		  if (!(f in seen)) { print h >f; seen[f] = 1 }
		  print $1 "," $2 substr($0, length($1 $2 $3) + 3) >f }'
}
# (row TRACKER PROG: PROG's "verdict,insns,states,err_insn" from one verify
# --csv of both programs per tracker, kept in $tmp; made for the four
# trackers at once, with arena_ptr's programs below: one process, not one
# per tracker and object, each ~0.2 s of CPU)
AP=${RB_TEST_OBJECTS:-build/test/objects}/clang19/arena_ptr.bpf.o
"$RB" verify --csv --tracker old --tracker cnum-mainline --tracker old@7.2 --tracker cnum-mainline@7.2 \
	"$WP:walk_plain" "$WP:global_lock" "$AP:arena_index" "$AP:arena_alloc" 2>/dev/null | split_rows "$tmp/wp"
row() {
	local f=$tmp/wp.${1//[^a-z0-9]/_}.csv
	[ -e "$f" ] || "$RB" verify --csv --tracker "$1" "$WP:walk_plain" "$WP:global_lock" >"$f" 2>/dev/null
	awk -F, -v p="$2" '$2 == p { print $3 "," $5 "," $6 "," $11; exit }' "$f"
}
for t in old cnum-mainline; do
	check "walk_plain, $t: an unlisted walked pointer is untrusted (6.18.44: failure at insn 6)" \
		'[ "$(row $t walk_plain)" = "failure,6,0,6" ]'
	check "walk_plain, $t@7.2: it is a plain pointer (7.2.13: success, 12 insns)" '[ "$(row $t@7.2 walk_plain)" = "success,12,1,-1" ]'
	check "global_lock, $t and $t@7.2: the .data.glock lock is found (both kernels: success, 10 insns)" \
		'[ "$(row $t global_lock)" = "success,10,1,-1" ] && [ "$(row $t@7.2 global_lock)" = "success,10,1,-1" ]'
done
. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$WP" walk_plain

# arena memory (arena.c; 6.18.44 here cannot create an arena map, EPERM):
# 7.2.13's rows, measured in its guest (2026-12-06) as above (made with
# walk_plain's, above)
arow() {
	local f=$tmp/wp.${1//[^a-z0-9]/_}.csv
	[ -e "$f" ] || "$RB" verify --csv --tracker "$1" "$AP:arena_index" "$AP:arena_alloc" >"$f" 2>/dev/null
	awk -F, -v p="$2" '$2 == p { print $3 "," $5 "," $6 "," $11; exit }' "$f"
}
for t in old cnum-mainline; do
	check "arena_index, $t@7.2: as 7.2.13 (success, 33 insns, 1 state)" '[ "$(arow $t@7.2 arena_index)" = "success,33,1,-1" ]'
	check "arena_alloc, $t@7.2: bpf_arena_alloc_pages under a lock, as 7.2.13 (success, 25 insns, 2 states)" \
		'[ "$(arow $t@7.2 arena_alloc)" = "success,25,2,-1" ]'
done

btf=$(ls "${RB_KERNEL_CACHE:-build/kernels}"/linux-image-7.2*/inputs/btf 2>/dev/null | head -1)
if [ -z "$btf" ]; then
	ok "sched_ext in the 7.2 profile # skip no kernel-7.2 BTF in the kernel cache (a kernel-7.2 guest run writes it)"
	exit 0
fi

"$RB" verify --csv --btf "$btf" --tracker cnum-mainline@7.2 "$OBJ" >"$tmp/e.csv" 2>"$tmp/e.err"
check "verify @7.2 with 7.2's BTF exits 0" '[ $? -eq 0 ]' "$tmp/e.err"
# program|verdict|insns|states|error insn|message, as 7.2.13 gave them
while IFS='|' read -r prog verdict insns states at msg; do
	check "$prog: $verdict, $insns insns, $states states${msg:+, '$msg'} (7.2.13)" \
	  'csv_row "$tmp/e.csv" 2="$prog" 3="$verdict" 5="$insns" 6="$states" 11="$at" "~$msg"' "$tmp/e.csv"
done <<'EOF'
t_select_cpu|success|20|1|-1|
t_enqueue|success|9|0|-1|
t_dispatch|success|3|0|-1|
t_tick|failure|3|0|2|R1 cannot write into ptr_task_struct at off=876 size=4
t_running|failure|2|0|1|calling kernel function scx_bpf_dsq_move_to_local is not allowed
t_enable|failure|0|0|-1|attach to unsupported member enable of struct sched_ext_ops
t_init|success|4|0|-1|
EOF

# run: the scan opens the object as on the running kernel, which refuses
# it; it is then opened with the kernel inputs of the @7.2 row, whose rows
# are verified as verify gives them, while old's rows say why they are not
# (before: every row of the object was that load error)
"$RB" run -q --no-census --db "$tmp/run.db" --kernel-inputs "$(dirname "$btf")" \
	--trackers old,cnum-mainline@7.2 "$OBJ" >"$tmp/run.out" 2>&1
check "run over it with old and cnum-mainline@7.2 exits 0" '[ $? -eq 0 ]' "$tmp/run.out"
sqlite3 -separator , "$tmp/run.db" "select program, verdict, insns_processed, total_states from result_rows
	where tracker = 'cnum-mainline@7.2' order by program" >"$tmp/run.csv" 2>&1
check "run: cnum-mainline@7.2's rows are verify's, program by program" \
	'[ "$(cat "$tmp/run.csv")" = "$(awk -F, '"'"'NR > 1 { print $2 "," $3 "," $5 "," $6 }'"'"' "$tmp/e.csv" | sort)" ] &&
	 [ "$(wc -l <"$tmp/run.csv")" -eq 7 ]' "$tmp/run.csv"
check "run: old's 7 rows are load errors naming the running kernel's refusal" \
	'[ "$(sqlite3 "$tmp/run.db" "select count(*) from result_rows where tracker = '"'old'"' and verdict = '"'load_error'"'
	     and program <> '"''"' and msg like '"'%not found in kernel BTF%'"'")" -eq 7 ]' "$tmp/run.db"

# the 6.18 profile has no sched_ext (6.18.44 here: "not a supported struct")
"$RB" verify --csv --btf "$btf" --tracker cnum-mainline "$OBJ:t_init" >"$tmp/618.csv" 2>&1
check "the 6.18 profile does not model sched_ext_ops" \
	'grep -q "^sched_ext.bpf.o,t_init,unsupported,.*struct_ops type sched_ext_ops is not modelled" "$tmp/618.csv"' "$tmp/618.csv"

# sched_ext's DSQ iterator (iter.c; tests/objects/scx_iter.bpf.c): 7.2.13's
# rows, measured in its guest (2026-12-06) with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/scx_iter.bpf.o
# (i_running: 7.2.13 names the argument "R1", the engine "arg #0")
IT=${RB_TEST_OBJECTS:-build/test/objects}/scx_iter.bpf.o
# both trackers in one verify, each one's rows into $tmp/it.TRACKER.csv
"$RB" verify --csv --btf "$btf" --tracker cnum-mainline@7.2 --tracker old@7.2 "$IT" 2>"$tmp/it.err" | split_rows "$tmp/it"
for t in cnum-mainline@7.2 old@7.2; do
	cp "$tmp/it.${t//[^a-z0-9]/_}.csv" "$tmp/it.csv" 2>/dev/null || cp "$tmp/it.err" "$tmp/it.csv"
	while IFS='|' read -r prog verdict insns states at msg; do
		check "$t $prog: $verdict, $insns insns, $states states${msg:+, '$msg'} (7.2.13)" \
		  'csv_row "$tmp/it.csv" 2="$prog" 3="$verdict" 5="$insns" 6="$states" 11="$at" "~$msg"' "$tmp/it.csv"
	done <<'ROWS'
i_dispatch|success|32|3|-1|
i_enqueue|success|180|17|-1|
i_tick|failure|9|1|8|would lead to reference leak
i_running|failure|10|1|9|expected an initialized iter_scx_dsq as
ROWS
done
"$RB" verify --log --btf "$btf" --tracker cnum-mainline@7.2 "$IT:i_enqueue" >"$tmp/it.log" 2>&1
check "next() gives an RCU task pointer (the iterator is KF_RCU_PROTECTED)" \
	'grep -q "^from 9 to 10: R0=rcu_ptr_task_struct(id=" "$tmp/it.log"' "$tmp/it.log"
