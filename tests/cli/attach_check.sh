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

# verdicts of the one program by the engine (old) and the running kernel in
# one process: verify --tracker old --tracker kernel --prog-type P
# [--attach-type A]; lines TRACKER:VERDICT (the kernel's missing where bpf()
# is not permitted: verify says why and gives the engine's row)
verdicts() {
	local p=$1 a=$2
	"$RB" verify --csv --tracker old --tracker kernel --prog-type "$p" ${a:+--attach-type "$a"} "$O" 2>"$tmp/err" |
		awk -F, '$2 == "ret_one" { print $3 ":" $4 }'
}

# type, attach type ('' none), 6.18's answer
cases="sk_lookup::refused sk_lookup:sk_lookup:success netfilter::refused netfilter:netfilter:success
cgroup_sock_addr::refused cgroup_sock_addr:cgroup_inet4_connect:success cgroup_sock_addr:sk_lookup:refused
cgroup_sockopt::refused cgroup_sockopt:cgroup_setsockopt:success cgroup_sockopt:cgroup_inet4_connect:refused
cgroup_skb::success cgroup_skb:sk_lookup:refused cgroup_sock::success cgroup_sock:cgroup_setsockopt:refused
sk_reuseport::success sk_reuseport:netfilter:refused socket_filter:sk_lookup:success
tracing::failure tracing:trace_iter:failure tracing:trace_raw_tp:failure"
kbad="" kmissing=0
for c in $cases; do
	IFS=: read -r p a want <<<"$c"
	verdicts "$p" "$a" >"$tmp/v"
	got=$(sed -n 's/^old://p' "$tmp/v")
	check "$p, attach type ${a:-none}: $want (got $got)" '[ "$got" = "$want" ]' "$tmp/err"
	k=$(sed -n 's/^kernel://p' "$tmp/v")
	if [ -z "$k" ]; then kmissing=$((kmissing + 1)); elif [ "$k" != "$want" ]; then kbad="$kbad $p:$a"; fi
done
"$RB" verify --csv --tracker old --prog-type sk_lookup "$O" >"$tmp/msg.csv" 2>/dev/null
check "the refusal names the attach type and the type, and the kernel's answer" \
	'grep -q "ret_one,refused,.*expected attach type 0 not valid for program type 30: BPF_PROG_LOAD failed: Invalid argument (empty log)" $tmp/msg.csv' "$tmp/msg.csv"

# a tracing or LSM program without an attach target (no BTF id): 6.18
# check_attach_btf_id -> bpf_check_attach_target, a verifier message before
# any instruction (the running kernel refuses fentry and LSM programs here
# under lockdown; kernel-7.2 gives this message for them too)
for pa in tracing:trace_fentry lsm:; do
	IFS=: read -r p a <<<"$pa"
	"$RB" verify --csv --tracker old --prog-type "$p" ${a:+--attach-type "$a"} "$O" >"$tmp/bt.csv" 2>/dev/null
	check "$p, attach type ${a:-none}, no BTF id: failure at 0 insns, 'Tracing programs must provide btf_id'" \
		'grep -q "^attach_check.bpf.o,ret_one,failure,[0-9]*,0,0,0,.*,-1,Tracing programs must provide btf_id$" $tmp/bt.csv' "$tmp/bt.csv"
done

# the running kernel gives the same verdicts where bpf() is permitted (its
# rows from the same verifies as the engine's above)
if [ "$kmissing" -gt 0 ]; then
	ok "the running kernel agrees # skip bpf() not permitted here ($kmissing cases without a kernel row)"
else
	check "the running kernel gives every verdict above (differ:${kbad:- none})" '[ -z "$kbad" ]'
fi
