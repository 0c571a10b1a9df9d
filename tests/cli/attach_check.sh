#!/usr/bin/env bash
# attach_check.sh — Linux 6.18 bpf_prog_load refuses a program whose
# expected attach type its program type does not take
# (bpf_prog_load_fixup_attach_type, then bpf_prog_load_check_attach: EINVAL,
# nothing logged, before the verifier runs); the engine refuses it too. And
# its verifier fails a tracing or LSM program without an attach BTF id.
# tests/objects/attach_check.bpf.c: one program returning 1 in a section no
# loader types, typed with --prog-type/--attach-type. Found on a public
# project's sk_lookup object typed with --prog-type alone: the engine
# verified it (success), the kernel refused it.
set -u
RB=${RB:-build/test/rangebench}
OBJS=${RB_TEST_OBJECTS:-build/test/objects}
. tests/cli/lib/tap.sh
O=$OBJS/attach_check.bpf.o

# verdicts of the one program by the engine (old) and the running kernel,
# every case in one process: the object copied once per case into a
# directory whose rangebench.types types each copy (case K: cK.o PROG-TYPE
# [ATTACH-TYPE], the rules --prog-type/--attach-type give; the two checks
# below give them on the command line), one verify --tracker old --tracker
# kernel of all the copies (rows FILE,PROG,TRACKER,VERDICT; the kernel's
# missing where bpf() is not permitted: verify says why and gives the
# engine's rows). 21 verifies -> 1 (issue 26)

# type, attach type ('' none), 6.18's answer
cases="sk_lookup::refused sk_lookup:sk_lookup:success netfilter::refused netfilter:netfilter:success
cgroup_sock_addr::refused cgroup_sock_addr:cgroup_inet4_connect:success cgroup_sock_addr:sk_lookup:refused
cgroup_sockopt::refused cgroup_sockopt:cgroup_setsockopt:success cgroup_sockopt:cgroup_inet4_connect:refused
cgroup_skb::success cgroup_skb:sk_lookup:refused cgroup_sock::success cgroup_sock:cgroup_setsockopt:refused
sk_reuseport::success sk_reuseport:netfilter:refused socket_filter:sk_lookup:success
tracing::failure tracing:trace_iter:failure tracing:trace_raw_tp:failure"
mkdir "$tmp/c"
k=0 objs="" typed=""
for c in $cases lsm::btf; do
	IFS=: read -r p a want <<<"$c"
	k=$((k + 1))
	echo "c$k.o $p $a" >>"$tmp/c/rangebench.types"
	objs="$objs $tmp/c/c$k.o"
	typed="$typed$tmp/c/c$k.o: types: ret_one $p by rangebench.types:$k c$k.o:*
"
done
tee $objs <"$O" >/dev/null # the copies, one process
"$RB" verify --csv --tracker old --tracker kernel $objs >"$tmp/all.csv" 2>"$tmp/err"
# each copy's verdict per tracker, read by the shell (no awk or sed a case)
declare -A v=()
while IFS=, read -r f pr t vd rest; do [ "$pr" = ret_one ] && v[$f,$t]=$vd; done <"$tmp/all.csv"
kbad="" kmissing=0 k=0
for c in $cases; do
	IFS=: read -r p a want <<<"$c"
	k=$((k + 1))
	got=${v[c$k.o,old]:-}
	check "$p, attach type ${a:-none}: $want (got $got)" '[ "$got" = "$want" ]' "$tmp/err"
	kv=${v[c$k.o,kernel]:-}
	if [ -z "$kv" ]; then kmissing=$((kmissing + 1)); elif [ "$kv" != "$want" ]; then kbad="$kbad $p:$a"; fi
done
check "each case typed by its own rangebench.types rule, no other ($((k + 1)) copies)" \
	'[ "$(sed -n "s/^rangebench verify: //p" $tmp/err | grep " types: " | sort -u)" = "$(printf %s "$typed" | sort -u)" ]' "$tmp/err"
"$RB" verify --csv --tracker old --prog-type sk_lookup "$O" >"$tmp/msg.csv" 2>/dev/null
check "the refusal names the attach type and the type, and the kernel's answer" \
	'grep -q "ret_one,refused,.*expected attach type 0 not valid for program type 30: BPF_PROG_LOAD failed: Invalid argument (empty log)" $tmp/msg.csv' "$tmp/msg.csv"

# a tracing or LSM program without an attach target (no BTF id): 6.18
# check_attach_btf_id -> bpf_check_attach_target, a verifier message before
# any instruction (the running kernel refuses fentry and LSM programs here
# under lockdown; kernel-7.2 gives this message for them too)
"$RB" verify --csv --tracker old --prog-type tracing --attach-type trace_fentry "$O" >"$tmp/bt.csv" 2>/dev/null
check "tracing, attach type trace_fentry, no BTF id: failure at 0 insns, 'Tracing programs must provide btf_id'" \
	'grep -q "^attach_check.bpf.o,ret_one,failure,[0-9]*,0,0,0,.*,-1,Tracing programs must provide btf_id$" $tmp/bt.csv' "$tmp/bt.csv"
# lsm: case $((k + 1)) of the verify above (its old row)
awk -F, -v f="c$((k + 1)).o" '$1 == f && $3 == "old"' "$tmp/all.csv" | cut -d, -f3 --complement >"$tmp/bt.csv"
check "lsm, attach type none, no BTF id: failure at 0 insns, 'Tracing programs must provide btf_id'" \
	'grep -q "^c$((k + 1)).o,ret_one,failure,[0-9]*,0,0,0,.*,-1,Tracing programs must provide btf_id$" $tmp/bt.csv' "$tmp/all.csv"

# the running kernel gives the same verdicts where bpf() is permitted (its
# rows from the same verifies as the engine's above)
if [ "$kmissing" -gt 0 ]; then
	ok "the running kernel agrees # skip bpf() not permitted here ($kmissing cases without a kernel row)"
else
	check "the running kernel gives every verdict above (differ:${kbad:- none})" '[ -z "$kbad" ]'
fi
