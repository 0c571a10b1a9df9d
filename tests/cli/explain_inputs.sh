#!/usr/bin/env bash
# explain_inputs.sh — explain opens each engine row's object with the
# inputs of the kernel the row stands for, as run does
# (src/cli/explain_inputs.h), and classes a change the inputs make as
# "kernel inputs", naming the input. tests/objects/explain_inputs.bpf.o:
# btf_type keeps a branch only where the kernel's BTF has struct
# rb_xi_probe, config_opt only where the configuration sets
# CONFIG_RB_XI_TEST. Made-up inputs: that object's own BTF (it has the
# type) and a configuration setting the option, for the @7.2 rows
# (--kernel-inputs); 6.18 rows keep the running kernel's (neither). Two
# kernels of a configuration (never booted) get the rows of old and old@7.2,
# as explain_sides.sh does. Skipped without the running kernel's BTF.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh
OBJ=${RB_TEST_OBJECTS:-${RB_TEST_BIN:-build/test}/objects}/explain_inputs.bpf.o
if [ ! -f /sys/kernel/btf/vmlinux ]; then
	ok "explain with kernel inputs # skip no /sys/kernel/btf/vmlinux here"
	exit 0
fi
in=$tmp/in
mkdir -p "$in"
ln -s "$(realpath "$OBJ")" "$in/btf"
printf 'CONFIG_RB_XI_TEST=y\nCONFIG_ARCH_HAS_SYSCALL_WRAPPER=y\n' >"$in/config"
cat >"$tmp/kernels.conf" <<EOC
kernel-a  $tmp/none-a  qemu  1G
kernel-b  $tmp/none-b  qemu  1G
EOC
export RB_KERNELS_CONF=$tmp/kernels.conf
db=$tmp/x.sqlite
q() { sqlite3 "$db" "$1"; }
fig() { q "SELECT verdict || ' ' || insns_processed || '/' || total_states FROM results r JOIN programs p ON p.id = r.program_id WHERE p.name = '$1' AND r.tracker = '$2'"; }

"$RB" run -q --no-census --db "$db" --label s --kernel-inputs "$in" --trackers old,old@7.2 -j 1 "$OBJ" >"$tmp/run.out" 2>&1
check "run: old@7.2 opened with the made-up inputs walks both branches, old does not" \
	'[ "$(fig btf_type old)" != "$(fig btf_type old@7.2)" ] && [ "$(fig config_opt old)" != "$(fig config_opt old@7.2)" ]' "$tmp/run.out"
q "CREATE TABLE t AS SELECT * FROM results WHERE tracker = 'old'; UPDATE t SET tracker = 'kernel-a';
   INSERT INTO results SELECT * FROM t; DELETE FROM t;
   INSERT INTO t SELECT * FROM results WHERE tracker = 'old@7.2'; UPDATE t SET tracker = 'kernel-b';
   INSERT INTO results SELECT * FROM t; DROP TABLE t;"

"$RB" explain --db "$db" --run s --baseline kernel-a --candidate kernel-b --stand-ins old,old@7.2 \
	--kernel-inputs "$in" >"$tmp/k.out" 2>&1
rc=$?
check "both changes reproduced by the rows with their own inputs and explained (exit 0)" \
	"[ $rc -eq 0 ] && grep -q '^summary: 2 programs differ between kernel-a and kernel-b; 2 with an engine stand-in for each side, 2 explained' $tmp/k.out" "$tmp/k.out"
check "the stand-ins differ in the profile and the kernel inputs" \
	"grep -q '^stand-ins: *old for kernel-a, old@7.2 for kernel-b (same verdict, insns, states); they differ in profile and kernel inputs$' $tmp/k.out" "$tmp/k.out"
b618=$(fig btf_type old)
check "old with the candidate's inputs gives its figures; the counterfactual, old@7.2 with the running kernel's, gives old's" \
	"grep -A4 ':btf_type$' $tmp/k.out | grep -q \"^inputs: *old with $in's inputs: $(fig btf_type old@7.2) (the candidate's); counterfactual: old@7.2 with the running kernel's inputs: $b618 -> vanished\"" "$tmp/k.out"
check "the input named: BTF for btf_type, config for config_opt" \
	"grep -Eq '^ +1  explained kernel inputs: BTF$' $tmp/k.out && grep -Eq '^ +1  explained kernel inputs: config$' $tmp/k.out" "$tmp/k.out"
check "stored with the class" \
	"[ \"\$(q \"SELECT group_concat(x, ' ') FROM (SELECT p.name || '=' || e.class || '=' || e.explained AS x FROM explanations e JOIN programs p ON p.id = e.program_id ORDER BY p.name)\")\" = 'btf_type=kernel inputs: BTF=1 config_opt=kernel inputs: config=1' ]"

"$RB" plot --db "$db" -o "$tmp/plot" --only kernels_attribution s >"$tmp/plot.out" 2>&1
check "plot kernels_attribution: explain's classes, both programs under kernel_inputs" \
	"[ $? -eq 0 ] && head -1 $tmp/plot/data/kernels_attribution.tsv | grep -q '^#source.switch.tracker.kernel_inputs.two_steps.const_fold' && awk -F'\t' 'NR > 1 && \$2 == 0 && \$3 == 0 && \$4 == 2 && \$5 == 0' $tmp/plot/data/kernels_attribution.tsv | grep -q ." "$tmp/plot.out"

# every row with the running kernel's inputs (as explain opened objects
# before): the @7.2 rows no longer reproduce kernel-b
"$RB" explain --db "$db" --run s --baseline kernel-a --candidate kernel-b --stand-ins old,old@7.2 \
	--kernel-inputs none --no-store >"$tmp/none.out" 2>&1
check "--kernel-inputs none: not reproduced (exit 1)" \
	"[ $? -eq 1 ] && grep -q '^summary: 2 programs differ .* 0 with an engine stand-in for each side' $tmp/none.out" "$tmp/none.out"

# two engine rows as sides, verified here
"$RB" explain --baseline old --candidate old@7.2 --kernel-inputs "$in" "$OBJ:config_opt" >"$tmp/e.out" 2>&1
check "explain old -> old@7.2 OBJ:PROG: kernel inputs, config (exit 0)" \
	"[ $? -eq 0 ] && grep -q '^stand-ins: *old is old, old@7.2 is old@7.2 .*kernel inputs$' $tmp/e.out && grep -q '^explained: *yes' $tmp/e.out" "$tmp/e.out"
