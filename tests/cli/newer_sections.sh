#!/usr/bin/env bash
# newer_sections.sh — sections only mainline libbpf knows (or types
# otherwise than libbpf 1.1): `load` prints mainline's program and attach
# type for each program of tests/objects/newer_sections.bpf.o, and the
# engine (old) equals the running kernel on every one of them (kdiff: log,
# verdict, counts; the kernel refuses the sleepable tracepoints and the
# session program returning 2, and so must the engine). Kernel comparisons
# are skipped with a note where bpf() is not permitted.
set -u
RB=${RB:-build/test/rangebench}
OBJ=${RB_TEST_OBJECTS:-build/test/objects}/newer_sections.bpf.o
. tests/cli/lib/tap.sh

"$RB" load "$OBJ" >"$tmp/load" 2>"$tmp/err"; rc=$?
check "load: exit 0, no program of unknown type" \
  '[ $rc -eq 0 ] && grep -q "22 programs (0 of unknown type, 0 not prepared)" "$tmp/load"' "$tmp/err"
# program, type, attach type as mainline libbpf loads them on this kernel
while read -r prog type attach; do
	check "load: $prog is $type / $attach (type-from libbpf>1.1)" \
	  'has_ere "$tmp/load" "^  prog $prog +section [^ ]+ +type $type +attach $attach +autoload yes insns [0-9]+ type-from libbpf>1.1$"' "$tmp/load"
done <<'EOF'
up_multi kprobe trace_uprobe_multi
uret_multi kprobe trace_uprobe_multi
up_multi_s kprobe trace_uprobe_multi
uret_multi_s kprobe trace_uprobe_multi
kp_session kprobe trace_kprobe_session
up_session kprobe trace_uprobe_session
up_session_s_bad kprobe trace_uprobe_session
usdt_probe kprobe trace_uprobe_multi
usdt_s kprobe trace_uprobe_multi
tc_ingress sched_cls tcx_ingress
tcx_egress sched_cls tcx_egress
nk_primary sched_cls netkit_primary
nk_peer sched_cls netkit_peer
skb_verdict sk_skb sk_skb_verdict
unix_connect cgroup_sock_addr cgroup_unix_connect
unix_sendmsg cgroup_sock_addr cgroup_unix_sendmsg
unix_recvmsg cgroup_sock_addr cgroup_unix_recvmsg
unix_getsockname_bad cgroup_sock_addr cgroup_unix_getsockname
nf_accept netfilter netfilter
nf_write_bad netfilter netfilter
tp_sleepable tracepoint -
raw_tp_sleepable raw_tracepoint -
EOF
# --attach-type takes mainline's names too
"$RB" load --prog-type kprobe --attach-type trace_uprobe_multi "$OBJ" >/dev/null 2>"$tmp/err"; rc=$?
check "load: --attach-type trace_uprobe_multi is accepted" '[ $rc -eq 0 ]' "$tmp/err"

# the engine's verdicts (no kernel needed): sleepable only where 6.18 allows it
"$RB" verify --compiled-helpers "$OBJ" >"$tmp/v" 2>&1
check "verify: sleepable tracepoints refused as 6.18 refuses them" \
  'grep -Eq "tp_sleepable +failure .*Only fentry/fexit/fmod_ret, lsm, iter, uprobe, and struct_ops programs can be sleepable" "$tmp/v"' "$tmp/v"
check "verify: a session program must return 0 or 1" \
  'grep -Eq "up_session_s_bad +failure .*should have been in \[0, 1\]" "$tmp/v"' "$tmp/v"
check "verify: the AF_UNIX hooks are verified, getsockname must return 1" \
  'grep -Eq "unix_connect +success" "$tmp/v" && grep -Eq "unix_getsockname_bad +failure .*should have been in \[1, 1\]" "$tmp/v"' "$tmp/v"
check "verify: netfilter programs are verified (context: two trusted BTF pointers, read only)" \
  'grep -Eq "nf_accept +success" "$tmp/v" && grep -Eq "nf_write_bad +failure" "$tmp/v"' "$tmp/v"
check "verify: the sleepable uprobe-multi program may call bpf_copy_from_user" \
  'grep -Eq "up_multi_s +success" "$tmp/v"' "$tmp/v"

. tests/cli/lib/kdiff_each.sh
kdiff_every_program "$OBJ" newer_sections
