#!/usr/bin/env bash
# load.sh — `rangebench load`: lists programs and maps of good objects,
# reports a bad file as "FILE: error: reason" and carries on with the next
# file (exit 2), --json gives one parseable object per file.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh

"$RB" load "$OBJ/btf_maps.bpf.o" "$OBJ/legacy_maps.bpf.o" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "good objects exit 0" '[ $rc -eq 0 ]'
check "lists the xdp program with its section, type and autoload" \
  'grep -Eq "prog use_maps +section xdp +type xdp +attach xdp +autoload yes +insns [0-9]+" "$tmp/out"'
check "SEC(\"?xdp\") program listed with autoload no" 'grep -Eq "prog not_autoloaded .*autoload no" "$tmp/out"'
check "unknown section gives type unknown" 'grep -Eq "prog unknown_type +section weird_section_name +type unknown" "$tmp/out"'
check "map sized by the loader is flagged" 'grep -Eq "map  unsized .*max_entries 1024 .*sized-by-loader: max_entries" "$tmp/out"'
check "legacy object flagged, its maps listed" \
  'grep -q "legacy_maps.bpf.o: 2 programs, 3 maps, BTF no, legacy maps" "$tmp/out" && grep -Eq "map  legacy_hash +type hash +key 4 value 8 max_entries 64" "$tmp/out"'
check "summary line" 'grep -q "^# 2 objects opened, 0 failed" "$tmp/out"'

printf 'not an object' >"$tmp/bad.o"
head -c 300 "$OBJ/subprog.bpf.o" >"$tmp/trunc.o"
"$RB" load "$tmp/bad.o" "$OBJ/subprog.bpf.o" "$tmp/trunc.o" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a bad file makes exit 2" '[ $rc -eq 2 ]'
check "bad file reported as FILE: error: reason" 'grep -q "^$tmp/bad.o: error: not an ELF file" "$tmp/err"'
check "truncated file reported" 'grep -q "^$tmp/trunc.o: error: section header table" "$tmp/err"'
check "the good file between them is still listed" 'grep -q "subprog.bpf.o: 2 programs" "$tmp/out"'

"$RB" load --json "$OBJ/global_data.bpf.o" "$tmp/bad.o" >"$tmp/json"; rc=$?
check "--json with a bad file exits 2" '[ $rc -eq 2 ]'
check "--json lines parse and carry the fields" 'python3 - "$tmp/json" <<PY
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2, rows
g = rows[0]
assert g["btf"] is True and g["programs"][0]["name"] == "read_globals"
assert g["programs"][0]["type"] == "socket_filter" and g["programs"][0]["insns"] > 0
ro = [m for m in g["maps"] if m["name"].endswith(".rodata")][0]
assert ro["frozen"] is True and ro["global_data"] is True
assert rows[1]["error"].startswith("not an ELF file")
PY'

"$RB" load >/dev/null 2>&1; rc=$?
check "no file is a usage error" '[ $rc -eq 2 ]'
"$RB" load --btf /nonexistent/vmlinux "$OBJ/core.bpf.o" >/dev/null 2>"$tmp/err"; rc=$?
check "missing --btf file: one clean error naming the BTF file, before any object" \
	'[ $rc -eq 2 ] && grep -q "^rangebench load: --btf /nonexistent/vmlinux: cannot open: No such file" "$tmp/err" && [ $(wc -l <"$tmp/err") -eq 1 ]'
