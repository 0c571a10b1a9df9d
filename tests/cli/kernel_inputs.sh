#!/usr/bin/env bash
# kernel_inputs.sh — an engine row of a profile after 6.18 opens its objects
# with the inputs of the kernel it stands for (src/loader/kernel_inputs.h):
# that kernel's BTF, configuration (CONFIG_* externs) and uname -a
# (LINUX_KERNEL_VERSION), and LINUX_HAS_SYSCALL_WRAPPER as libbpf finds it
# there; 6.18 rows keep the running kernel's. tests/objects/kernel_inputs.bpf.o
# with made-up inputs (--kernel-inputs DIR, the running kernel's BTF), then
# with the kernel cache's 7.2.13 inputs (the default for @7.2 rows), pinned
# to what 7.2.13 gave in its guest (2026-12-06), measured with
#   RB_KERNEL_CACHE=DIR rangebench verify --csv --tracker kernel-7.2 build/test/objects/kernel_inputs.bpf.o
# wrapper success,10,1; version success,11,1; config_hz success,5,0 (its
# CONFIG_HZ is 250); ra_entry success,5,0 (6.18.44 has no do_page_cache_ra:
# refused). Skipped without the running kernel's BTF or the cached inputs.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/kernel_inputs.bpf.o
. tests/cli/lib/tap.sh

row() { "$RB" verify --csv "$@" 2>/dev/null | awk -F, 'NR > 1 { print $2 "," $3 "," $5 "," $6 }' | tr '\n' ' '; }
# rows_m CSV TRACKER: row()'s line of TRACKER's rows in the CSV of a verify
# with several --tracker (each tracker's rows as alone; the tracker third)
rows_m() { awk -F, -v t="$2" 'NR > 1 && $3 == t { print $2 "," $4 "," $6 "," $7 }' "$1" | tr '\n' ' '; }

if [ ! -f /sys/kernel/btf/vmlinux ]; then
	ok "made-up kernel inputs # skip no /sys/kernel/btf/vmlinux here"
else
	mkdir -p "$tmp/a" "$tmp/b"
	for d in a b; do ln -s /sys/kernel/btf/vmlinux "$tmp/$d/btf"; done
	printf 'CONFIG_HZ=300\nCONFIG_ARCH_HAS_SYSCALL_WRAPPER=y\nCONFIG_KPROBE_EVENTS=y\n' >"$tmp/a/config"
	echo "Linux (none) 7.2.13+deb14-cloud-amd64 #1 SMP PREEMPT_DYNAMIC Debian 7.2.13-1 (2026-10-28) x86_64 GNU/Linux" >"$tmp/a/uname"
	# no kprobe PMU (CONFIG_KPROBE_EVENTS): libbpf's probe fails, as on a
	# kernel built without it; a 6.x release; another HZ
	printf 'CONFIG_HZ=100\nCONFIG_ARCH_HAS_SYSCALL_WRAPPER=y\n' | gzip >"$tmp/b/config"
	echo "Linux h 6.1.0-50-cloud-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1 (2025-11-08) x86_64 GNU/Linux" >"$tmp/b/uname"
	# old@7.2 and old with inputs a in one verify (one process, not two)
	"$RB" verify --csv --kernel-inputs "$tmp/a" --tracker old@7.2 --tracker old "$OBJ" >"$tmp/a2.csv" 2>/dev/null
	a=$(rows_m "$tmp/a2.csv" old@7.2)
	check "inputs a (wrapper, 7.2.13, HZ 300): the wrapper, version and HZ sides are walked" \
		'[ "$a" = "wrapper,success,10,1 version,success,11,1 config_hz,success,10,1 ra_entry,refused,0,0 " ]'
	b=$(row --kernel-inputs "$tmp/b" --tracker cnum-mainline@7.2 "$OBJ")
	check "inputs b (no kprobe events, 6.1.158, HZ 100; gzip config): none of them" \
		'[ "$b" = "wrapper,success,5,0 version,success,6,0 config_hz,success,5,0 ra_entry,refused,0,0 " ]'
	# the 6.18 profile ignores them: the running kernel's inputs
	r618=$(rows_m "$tmp/a2.csv" old)
	rnone=$(row --tracker old@7.2 --kernel-inputs none "$OBJ")
	check "the 6.18 row keeps the running kernel's inputs, as --kernel-inputs none does" '[ -n "$r618" ] && [ "$r618" = "$rnone" ]'
	"$RB" verify --kernel-inputs "$tmp/nothing" --tracker old@7.2 "$OBJ" >"$tmp/bad.out" 2>&1
	check "a directory without btf: exit 2 naming it" '[ $? -eq 2 ] && grep -q "nothing: no btf file" "$tmp/bad.out"' "$tmp/bad.out"
	# run: the same per row, in the driver's child processes
	"$RB" run -q --no-census --db "$tmp/r.db" --kernel-inputs "$tmp/a" --trackers old,old@7.2 -j 1 "$OBJ" >"$tmp/run.out" 2>&1
	q() { sqlite3 "$tmp/r.db" "SELECT insns_processed FROM results r JOIN programs p ON p.id = r.program_id WHERE p.name = '$1' AND r.tracker = '$2'"; }
	check "run: old@7.2 opened with inputs a (wrapper 10 insns), old with the running kernel's ($(q wrapper old))" \
		'[ "$(q wrapper old@7.2)" = 10 ] && [ "$(q config_hz old@7.2)" = 10 ] && [ -n "$(q wrapper old)" ]' "$tmp/run.out"
fi

# the 6.18 side: the engine (old) equals the running kernel program by program
. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" kernel_inputs

# the kernel cache's 7.2.13 inputs: the default for @7.2 rows
inputs=$(ls -d "${RB_KERNEL_CACHE:-build/kernels}"/linux-image-7.2*/inputs 2>/dev/null | head -1)
if [ -z "$inputs" ] || [ ! -f "$inputs/btf" ]; then
	ok "7.2.13's inputs # skip no kernel-7.2 inputs in the kernel cache (a kernel-7.2 guest run writes them)"
	exit 0
fi
# the three rows with the cached inputs in one verify
"$RB" verify --csv --tracker cnum-mainline@7.2 --tracker old@7.2 --tracker old "$OBJ" >"$tmp/c3.csv" 2>/dev/null
for t in cnum-mainline@7.2 old@7.2; do
	got=$(rows_m "$tmp/c3.csv" $t)
	check "$t with the cached 7.2.13 inputs: as 7.2.13" \
		'[ "$got" = "wrapper,success,10,1 version,success,11,1 config_hz,success,5,0 ra_entry,success,5,0 " ]'
done
got=$(rows_m "$tmp/c3.csv" old | grep -o 'ra_entry,[^ ]* ')
check "old (6.18): do_page_cache_ra is not in the running kernel's BTF" '[ "${got%% *}" = "ra_entry,refused,0,0" ] || ! uname -r | grep -q "^6\.18\."'
