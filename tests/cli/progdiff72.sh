#!/usr/bin/env bash
# progdiff72.sh — `rangebench progdiff --reference kernel-7.2`: random
# programs of every family through Debian sid's Linux 7.2 in its guest,
# compared with the engine's 7.2 profile (cnum-mainline@7.2 by default).
# Everywhere: bad options exit 2, a kernel image that is not downloaded
# skips with the reason. Where the kernel cache (RB_KERNEL_CACHE, make
# kernels) holds the 7.2 image: two programs per family in one guest, every
# family in the table with 0 verdict differences and every program
# answered (the logs compared by their digests, the release named); with
# --no-logs a second run is answered from the guest cache without a boot;
# and a guest that stops answering (--guest-timeout 1) is killed, its
# programs counted under no-ref, the run ending with exit 1 instead of
# hanging. The image is downloaded on first use into the kernel cache
# (scripts/kernels.sh, as guest.sh does; whichever starts first downloads
# it, the other waits for it); where the Debian mirror cannot be reached
# the guest part is skipped with one line.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh
skip() { n=$((n + 1)); echo "ok $n - $1 # skip $2"; }

"$RB" progdiff --reference kernel-7.2 --batch 0 >"$tmp/out" 2>&1
check "--batch 0: exit 2" "[ $? -eq 2 ] && grep -q 'batch (1..20000)' $tmp/out" "$tmp/out"
"$RB" progdiff --reference kernel-7.2 --guest-jobs 9 >"$tmp/out" 2>&1
check "--guest-jobs 9: exit 2" "[ $? -eq 2 ] && grep -q 'guest-jobs (1..8)' $tmp/out" "$tmp/out"
"$RB" progdiff --reference old --tracker cnum --no-logs --cases 1 >"$tmp/out" 2>&1
check "--no-logs with an engine reference: exit 2 naming it" \
	"[ $? -eq 2 ] && grep -q 'no-logs is for a kernel image reference (old is not one)' $tmp/out" "$tmp/out"
RB_KERNEL_CACHE=$tmp/empty "$RB" progdiff --reference kernel-7.2 --cases 1 >"$tmp/out" 2>&1
check "no image in the kernel cache: skipped with the reason, exit 0" \
	"[ $? -eq 0 ] && grep -q '^progdiff skipped: kernel-7.2: .*not downloaded' $tmp/out" "$tmp/out"

if $RB trackers | grep -q '^kernel-7.2 .*not downloaded'; then
	scripts/kernels.sh kernel-7.2 >"$tmp/fetch.out" 2>&1
fi
if $RB trackers | grep -q '^kernel-7.2 .*not downloaded'; then
	skip "progdiff against kernel-7.2" "the kernel cache (${RB_KERNEL_CACHE:-build/kernels}) has no 7.2 image (Debian mirror unreachable?): $(tail -1 "$tmp/fetch.out")"
	exit 0
fi
# the downloaded image by path, with a result cache of the test's own
pkg=$(awk '$1 == "kernel-7.2" {print $2}' kernels.conf)
vmlinuz=${RB_KERNEL_CACHE:-$PWD/build/kernels}/${pkg#debian:*/}/vmlinuz
cat >"$tmp/kernels.conf" <<EOC
kernel-7.2  $vmlinuz  qemu  1G
EOC
export RB_KERNELS_CONF=$tmp/kernels.conf RB_KERNEL_CACHE=$tmp/kc RB_GUEST_INPUTS=0
fams='^(range|alu32|muldiv|neg|bswap|movsx|regjmp|jset|loop|spill|ptr|mixed|atomic|pkt|call|stack|memsx|link32|maygoto|ringbuf) '

"$RB" progdiff --reference kernel-7.2 --cases 2 --seed 3 --show 0 >"$tmp/run1.out" 2>"$tmp/run1.err"
rc=$?
cat "$tmp/run1.err" >>"$tmp/run1.out"
check "two programs per family: exit 0 or 1, a table of every family, tracker cnum-mainline@7.2" \
	"[ $rc -le 1 ] && [ \$(grep -cE '$fams' $tmp/run1.out) -eq 20 ] && grep -q 'tracker cnum-mainline@7.2, reference kernel-7.2 (7.2' $tmp/run1.out" "$tmp/run1.out"
# total: programs r-accept verdict message insns logs states identical no-verd trace no-ref
check "all 40 answered by the guest, 0 verdict differences, no engine without a verdict" \
	"awk '\$1 == \"total\" && \$2 == 40 && \$4 == 0 && \$10 == 0 && \$12 == 0 {f = 1} END {exit !f}' $tmp/run1.out" "$tmp/run1.out"
check "the 20 batch files in one guest with two vCPUs (only a batch of two small objects or fewer has one)" \
	"grep -Eq 'guest [0-9]+ booting \((tcg|kvm), 20 objects, 2 vCPUs\)' $tmp/run1.out" "$tmp/run1.out"
check "logs compared by their digests: the kernel's state lines counted" \
	"awk '\$1 == \"total\" && \$8 > 0 {f = 1} END {exit !f}' $tmp/run1.out && ! grep -q 'logs not compared' $tmp/run1.out" "$tmp/run1.out"

"$RB" progdiff --reference kernel-7.2 --cases 2 --seed 3 --show 0 --no-logs >"$tmp/run2.out" 2>&1
"$RB" progdiff --reference kernel-7.2 --cases 2 --seed 3 --show 0 --no-logs >"$tmp/run3.out" 2>&1
check "--no-logs: the same verdict and instruction columns as with logs" \
	"[ \"\$(awk '\$1 == \"total\" {print \$2, \$3, \$4, \$6}' $tmp/run1.out)\" = \"\$(awk '\$1 == \"total\" {print \$2, \$3, \$4, \$6}' $tmp/run2.out)\" ] && grep -q 'logs not compared' $tmp/run2.out" "$tmp/run2.out"
check "--no-logs a second time: answered from the guest cache, no guest booted" \
	"grep -q '(7.2.*, 0 guests)' $tmp/run3.out && [ \"\$(grep '^total' $tmp/run2.out)\" = \"\$(grep '^total' $tmp/run3.out)\" ]" "$tmp/run3.out"

timeout 600 "$RB" progdiff --reference kernel-7.2 --family jset --cases 2 --seed 4 --show 1 --guest-timeout 1 >"$tmp/run4.out" 2>&1
rc=$?
check "a guest silent for --guest-timeout is killed: its programs under no-ref, exit 1, not hung" \
	"[ $rc -eq 1 ] && awk '\$1 == \"jset\" && \$2 == 0 && \$12 == 2 {f = 1} END {exit !f}' $tmp/run4.out && grep -q '^program jset 0 (seed 4): no row from kernel-7.2' $tmp/run4.out" "$tmp/run4.out"
