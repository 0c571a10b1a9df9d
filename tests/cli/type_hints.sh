#!/usr/bin/env bash
# type_hints.sh — a corpus directory's rangebench.types (issue 25 item 6):
# glob rules give program types to sections no loader types right, read
# by load, verify, kdiff and run, with one line per object saying which
# rule typed each program; an object without a license section is loaded
# as libbpf loads it (an empty license), said in one line, and --license
# overrides it. tests/objects/type_hints.bpf.c: "from-netdev" (XDP code),
# "test", "filter" (a GPL-only helper), no license section.
set -u
RB=${RB:-build/test/rangebench}
OBJS=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

d=$tmp/corpus
mkdir -p "$d"
cp "$OBJS/type_hints.bpf.o" "$d/"
O=$d/type_hints.bpf.o
field() { awk -F, -v p="$1" -v c="$2" '$2 == p { print $c }' "$3"; }

# before: no rules
"$RB" verify --csv --tracker old "$O" >"$tmp/before.csv" 2>"$tmp/before.err"
check "without rules: from-netdev typed sched_cls (cilium) fails: R1 invalid mem access 'scalar'" \
	'[ "$(field xdp_entry 3 $tmp/before.csv)" = failure ] && grep -q "xdp_entry,.*invalid mem access .scalar." $tmp/before.csv' "$tmp/before.csv"
check "without rules: 'test' and 'filter' name no type (load_error, naming rangebench.types)" \
	'[ "$(field test_entry 3 $tmp/before.csv)" = load_error ] && [ "$(field gpl_entry 3 $tmp/before.csv)" = load_error ] && grep -q "rangebench.types" $tmp/before.csv' "$tmp/before.csv"
check "without rules: a line says libbpf did not type them (cilium, unknown)" \
	'grep -q "types: xdp_entry sched_cls by cilium, test_entry - by no rule: unknown" $tmp/before.err' "$tmp/before.err"
check "no license section: one line says it is loaded with an empty license, as libbpf does" \
	'grep -q "type_hints.bpf.o: no license section: loaded with an empty license, as libbpf does" $tmp/before.err' "$tmp/before.err"

cat >"$d/rangebench.types" <<'RULES'
# program types of this directory's objects
type_hints.bpf.o:from-netdev   xdp        # ip link set dev D xdp obj O sec from-netdev
*.o:test                       socket_filter
*:filter                       socket
RULES
"$RB" verify --csv --tracker old "$O" >"$tmp/after.csv" 2>"$tmp/after.err"
check "with rules: from-netdev verified as xdp: success" '[ "$(field xdp_entry 3 $tmp/after.csv)" = success ]' "$tmp/after.csv"
check "with rules: test verified as socket_filter: success" '[ "$(field test_entry 3 $tmp/after.csv)" = success ]' "$tmp/after.csv"
check "with rules: filter, empty license: cannot call GPL-restricted function" \
	'[ "$(field gpl_entry 3 $tmp/after.csv)" = failure ] && grep -q "gpl_entry,.*GPL-restricted" $tmp/after.csv' "$tmp/after.csv"
check "with rules: one line names the rule that typed each program" \
	'grep -q "types: xdp_entry xdp by rangebench.types:2 type_hints.bpf.o:from-netdev, test_entry socket_filter by rangebench.types:3 \*.o:test, gpl_entry socket_filter by rangebench.types:4 \*:filter" $tmp/after.err' "$tmp/after.err"
"$RB" verify --csv --tracker old --license GPL "$O" >"$tmp/lic.csv" 2>"$tmp/lic.err"
check "--license GPL: the GPL-only helper is allowed (success), and a line says so" \
	'[ "$(field gpl_entry 3 $tmp/lic.csv)" = success ] && grep -q "no license section: loaded with license .GPL. (--license)" $tmp/lic.err' "$tmp/lic.err"
"$RB" load "$O" >"$tmp/load.out" 2>"$tmp/load.err"
check "load shows type-from hints with the rule" \
	'grep -Eq "prog xdp_entry +section from-netdev +type xdp .*type-from hints \(rangebench.types:2 type_hints.bpf.o:from-netdev\)" $tmp/load.out && grep -q "types: xdp_entry xdp by rangebench.types:2" $tmp/load.err' "$tmp/load.out"
# the command line's type ranks above the rules
"$RB" verify --csv --tracker old --prog-type sched_cls "$O" >"$tmp/user.csv" 2>"$tmp/user.err"
check "--prog-type ranks above the rules (test typed sched_cls by user)" \
	'grep -q "test_entry sched_cls by user" $tmp/user.err' "$tmp/user.err"

# run reads them too
"$RB" run -q --db "$tmp/db.sqlite" --trackers old --no-census --label hints "$d" >"$tmp/run.out" 2>&1
got=$(sqlite3 "$tmp/db.sqlite" "SELECT group_concat(name || '=' || verdict, ' ') FROM (SELECT p.name, r.verdict FROM results r JOIN programs p ON p.id = r.program_id WHERE p.name IN ('xdp_entry', 'test_entry') ORDER BY p.name)" 2>&1)
check "run: from-netdev and test verified with the rules' types ($got)" \
	'[ "$got" = "test_entry=success xdp_entry=success" ]' "$tmp/run.out"

# a bad rule: the object fails with the file, the line and the reason
printf '*.o:test socket_filter\n*.o xdpp\n' >"$d/rangebench.types"
"$RB" verify --tracker old "$O" >"$tmp/bad.out" 2>"$tmp/bad.err"; rc=$?
check "a bad rule: exit 2, 'rangebench.types:2: unknown program type 'xdpp''" \
	'[ $rc -eq 2 ] && grep -q "rangebench.types:2: unknown program type .xdpp." $tmp/bad.err' "$tmp/bad.err"
printf 'type_hints.bpf.o\n' >"$d/rangebench.types"
"$RB" load "$O" >/dev/null 2>"$tmp/bad2.err"; rc=$?
check "a rule without a type: exit 2, names the line" \
	'[ $rc -eq 2 ] && grep -q "rangebench.types:1: .type_hints.bpf.o. names no program type" $tmp/bad2.err' "$tmp/bad2.err"

# kdiff: the kernel loads what the rules type, and agrees
printf 'type_hints.bpf.o:from-netdev xdp\n*.o:test socket_filter\n' >"$d/rangebench.types"
"$RB" kdiff "$O:xdp_entry" >"$tmp/kd.out" 2>&1; rc=$?
if grep -q "verdict  kernel unavailable" "$tmp/kd.out"; then
	ok "kdiff from-netdev as xdp # skip bpf() not permitted"
else
	check "kdiff from-netdev as xdp: log, verdict and counts equal the kernel's" '[ $rc -eq 0 ] && grep -q "^logs agree" $tmp/kd.out' "$tmp/kd.out"
fi
