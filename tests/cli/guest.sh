#!/usr/bin/env bash
# guest.sh — the guest runner (src/guest/): `run`, `verify` and `compare`
# with kernel-7.2, Debian sid's Linux 7.2 of kernels.conf, booted once in
# QEMU (TCG where KVM fails) on the six tiny programs: rows with the
# guest's release and clock, 7.2's own state sizes from its BTF, the cache
# answering a second run without a boot, an object the guest cannot open
# named by its host path; the bzImage's kernel booted uncompressed through
# its PVH entry (src/guest/pvh.h); and a kernel that does not boot (booted
# twice) becomes a row naming the reason, one that hangs (under TCG) is killed
# once it has spent a boot's CPU budget; a guest of two small objects gets
# one vCPU under TCG. The image is downloaded on first use
# into the kernel cache (scripts/kernels.sh); where the Debian mirror
# cannot be reached the test is skipped with one line.
set -u
RB=${RB:-build/test/rangebench}
. tests/cli/lib/tap.sh
skip() { n=$((n + 1)); echo "ok $n - $1 # skip $2"; }

if $RB trackers | grep -q '^kernel-7.2 .*not downloaded'; then
	scripts/kernels.sh kernel-7.2 >"$tmp/fetch.out" 2>&1
fi
if $RB trackers | grep -q '^kernel-7.2 .*not downloaded'; then
	skip "guest runner" "kernel-7.2 not downloaded (Debian mirror unreachable?): $(tail -1 "$tmp/fetch.out")"
	exit 0
fi
. tests/cli/lib/tiny.sh
# the downloaded image, used by path with a cache of the test's own, so the
# first run boots and the shared cache stays untouched
pkg=$(awk '$1 == "kernel-7.2" {print $2}' kernels.conf)
vmlinuz=${RB_KERNEL_CACHE:-$PWD/build/kernels}/${pkg#debian:*/}/vmlinuz
kc=$tmp/kcache
cat >"$tmp/kernels.conf" <<EOC
kernel-7.2  $vmlinuz  qemu  1G
nokernel    $tmp/tiny.o  qemu  512M
spinkernel  $tmp/spin.elf  qemu  512M
EOC
export RB_KERNELS_CONF=$tmp/kernels.conf RB_KERNEL_CACHE=$kc RB_GUEST_INPUTS=0
db=$tmp/g.sqlite

$RB run --no-census --db "$db" --label g --trackers old,kernel-7.2 -j 1 "$tmp/tiny.o" >"$tmp/run1.out" 2>&1
check "run --trackers old,kernel-7.2 exits 0" "[ $? -eq 0 ]" "$tmp/run1.out"
# one batch, one guest; a boot that fails under load is retried once
# (boot.c), which counts as a second guest
check "one guest booted (or one boot retried), nothing from the cache" "grep -Eq '1 objects, 0 from the cache, [12] guests' $tmp/run1.out" "$tmp/run1.out"
q() { sqlite3 "$db" "$1"; }
check "six kernel-7.2 rows, every one a verdict of the kernel" \
	"[ \"\$(q \"SELECT count(*) FROM results WHERE tracker = 'kernel-7.2' AND verdict IN ('success', 'failure')\")\" = 6 ]" "$tmp/run1.out"
check "rows name the guest's 7.2 release and the emulated clock" \
	"[ \"\$(q \"SELECT count(*) FROM results WHERE tracker = 'kernel-7.2' AND kernel_release LIKE '7.2.%' AND clock IN ('tcg', 'kvm')\")\" = 6 ]" "$tmp/run1.out"
check "7.2's own sizes from its BTF: bpf_reg_state 88 B, bpf_verifier_state + bpf_func_state 1264 B" \
	"[ \"\$(q \"SELECT min(reg_state_bytes) || '/' || max(state_bytes) FROM results WHERE tracker = 'kernel-7.2' AND verdict = 'success'\")\" = 88/1264 ]"
check "engine rows keep a native clock" \
	"[ \"\$(q \"SELECT count(*) FROM results WHERE tracker = 'old' AND clock IS NULL AND kernel_release IS NULL\")\" = 6 ]"
check "the engine's counts equal 7.2's on the tiny programs (no cnum-sensitive branch)" \
	"[ \"\$(q \"SELECT count(*) FROM results a JOIN results b USING (run_id, program_id) WHERE a.tracker = 'old' AND b.tracker = 'kernel-7.2' AND a.verdict = b.verdict AND a.insns_processed = b.insns_processed\")\" = 6 ]"

$RB compare --db "$db" --trackers old,kernel-7.2 g >"$tmp/cmp.out" 2>&1
check "compare --trackers old,kernel-7.2 within the run" "[ $? -le 1 ] && grep -q 'kernel-7.2' $tmp/cmp.out" "$tmp/cmp.out"
check "compare puts no emulated time in a ratio" "! grep -Eq 'time.*[0-9]+\.[0-9]+x' $tmp/cmp.out" "$tmp/cmp.out"

$RB plot --db "$db" -o "$tmp/plot" --only kernels g >"$tmp/plot.out" 2>&1
check "plot: the kernels chart renders old against kernel-7.2" \
	"[ $? -eq 0 ] && grep -q '^wrote .*kernels.svg' $tmp/plot.out && grep -q '100.00' $tmp/plot/data/kernels.tsv" "$tmp/plot.out"

$RB run --no-census --db "$db" --label g2 --trackers kernel-7.2 "$tmp/tiny.o" >"$tmp/run2.out" 2>&1
check "a second run is answered from the cache: no boot" \
	"[ $? -eq 0 ] && grep -q '1 from the cache, 0 guests' $tmp/run2.out" "$tmp/run2.out"
check "the cached rows equal the booted ones" \
	"[ \"\$(q \"SELECT count(*) FROM results a JOIN results b USING (program_id, tracker) WHERE a.run_id = 1 AND b.run_id = 2 AND a.verdict = b.verdict AND a.insns_processed = b.insns_processed AND a.total_states = b.total_states AND a.kernel_release = b.kernel_release AND a.clock = b.clock\")\" = 6 ]"

# a cached row whose message is a statistics line was written by a guest
# that did not know 7.2's "insns processed N" line: the object is verified
# again (in the guest bad.o boots anyway) and its cache file rewritten
# (this executable's cache: results/IMAGE/EXE, EXE its hash's first 16 digits)
rows=$(find "$kc" -path "*/results/*/$(sha256sum "$RB" | cut -c1-16)/*" -name '*.rows' | head -1)
sed -i '0,/^RBR\t/s/\t$/\tinsns processed 5/' "$rows"
check "(a cached row made stale)" "grep -q 'insns processed 5\$' '$rows'"
printf 'not a BPF object\n' >"$tmp/bad.o"
$RB verify --csv --tracker kernel-7.2 "$tmp/tiny.o" "$tmp/bad.o" >"$tmp/verify.out" 2>&1
check "verify --tracker kernel-7.2: six rows" "[ \$(grep -c '^tiny.o,' $tmp/verify.out) -eq 6 ]" "$tmp/verify.out"
check "a stale cached row is not used: verified again, none says 'insns processed', the cache file rewritten" \
	"! grep -q 'insns processed' $tmp/verify.out && ! grep -q 'insns processed' '$rows'" "$tmp/verify.out"
check "an object the guest cannot open is named by its host path, not the guest's copy (/o/N/...)" \
	"grep -q '$tmp/bad.o' $tmp/verify.out && ! grep -q '/o/[0-9]' $tmp/verify.out" "$tmp/verify.out"

$RB kdiff --trace --kernel kernel-7.2 --tracker old "$tmp/tiny.o:prog_loop" "$tmp/tiny.o:prog_zero" >"$tmp/trace.out" 2>&1
check "kdiff --trace: 7.2's log (gzip through the serial port) explores the path the engine does" \
	"[ $? -eq 0 ] && [ \$(grep -c 'success [0-9/]*.success [0-9/]*.same trace' $tmp/trace.out) -eq 2 ]" "$tmp/trace.out"

# another rangebench executable (here one byte longer) prepares objects
# with its own loader: it boots rather than reuse this one's rows (which
# hold tiny.o: the second run above). And a guest never outlives its
# rangebench: kill -9 that run while its guest boots (its guest directory
# goes under $tmp), and its QEMU must be gone too. (The other executable
# once ran to its end: a fourth boot, ~8 s of CPU under TCG, to show what
# its QEMU starting shows.)
cp "$RB" "$tmp/rb-other" && printf '\0' >>"$tmp/rb-other"
tiny_obj "$tmp/tiny1.o" 1
TMPDIR=$tmp "$tmp/rb-other" run --no-census --db "$tmp/g3.sqlite" --label g3 --trackers kernel-7.2 -j 1 "$tmp/tiny.o" "$tmp/tiny1.o" >"$tmp/run3.out" 2>&1 &
vpid=$!
qpid=
for _ in $(seq 1 240); do
	qpid=$(pgrep -P "$vpid" qemu 2>/dev/null | head -1)
	[ -n "$qpid" ] && break
	kill -0 "$vpid" 2>/dev/null || break # ended without a guest
	sleep 0.25
done
qcmd=$([ -n "$qpid" ] && tr '\0' ' ' <"/proc/$qpid/cmdline" 2>/dev/null)
check "another executable's run is not answered from this one's cache: it starts a guest" \
	"[ -n '$qpid' ]" "$tmp/run3.out"
# (the kernel run 1 uncompressed, in this test's kernel cache)
check "QEMU boots the image's kernel uncompressed: the ELF vmlinux-HASH16 with a PVH entry, not the bzImage" \
	"echo '$qcmd' | grep -q -- '-kernel $kc/kernel-7.2/vmlinux-[0-9a-f]\{16\} ' && [ \"\$(head -c 4 $kc/kernel-7.2/vmlinux-* | od -An -c | tr -d ' ')\" = '177ELF' ]" "$tmp/run3.out"
# (its batch, -j 1: tiny.o and tiny1.o, two objects of 2 KiB, in one guest)
check "two small objects: one vCPU under TCG (a second costs a TCG boot ~0.8 s of CPU), one each under KVM" \
	"case '$qcmd' in *'-accel kvm'*) echo '$qcmd' | grep -q -- '-smp 2 ' ;; *) echo '$qcmd' | grep -q -- '-smp 1 ' ;; esac" "$tmp/run3.out"
kill -9 "$vpid" 2>/dev/null
wait "$vpid" 2>/dev/null
gone=0
for _ in $(seq 1 40); do
	if [ -n "$qpid" ] && ! ps -o stat= -p "$qpid" 2>/dev/null | grep -qv Z; then gone=1; break; fi
	sleep 0.25
done
check "QEMU dies with the rangebench that started it (kill -9 of a run while the guest boots)" \
	"[ -n '$qpid' ] && [ $gone = 1 ]" "$tmp/run3.out"
[ -n "$qpid" ] && kill -9 "$qpid" 2>/dev/null

$RB run --no-census --db "$db" --label bad --trackers nokernel "$tmp/tiny.o" >"$tmp/run3.out" 2>&1
check "a kernel that does not boot: the run still ends" "[ $? -le 2 ]" "$tmp/run3.out"
check "and the object gets a row naming the reason" \
	"[ \"\$(q \"SELECT verdict FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'bad' AND r.tracker = 'nokernel' AND r.msg LIKE 'guest nokernel: did not boot%'\")\" = load_error ]" "$tmp/run3.out"

# a kernel that hangs without a line (an ELF whose PVH entry spins, jmp .):
# under TCG its guest is killed once QEMU has spent the CPU budget of a
# boot (RB_GUEST_BOOT_CPU s here, 40 s by default), not after the 300 s
# boot timeout; booted twice, as any guest that does not boot
# (le V N: V's N bytes, little-endian; printf -v, not a $(...) per byte)
le() { local v=$1 i h; for ((i = 0; i < $2; i++)); do printf -v h %02x $((v >> (8 * i) & 255)); printf "\\x$h"; done; }
{
	printf '\x7fELF\x02\x01\x01\x00' && le 0 8
	le 2 2 && le 62 2 && le 1 4 && le $((0x100200)) 8 && le 64 8 && le 0 8 && le 0 4 && le 64 2 && le 56 2 && le 2 2 && le 64 2 && le 0 4
	le 1 4 && le 5 4 && le 0 8 && le $((0x100000)) 8 && le $((0x100000)) 8 && le $((0x202)) 8 && le $((0x202)) 8 && le 4096 8
	le 4 4 && le 4 4 && le 176 8 && le $((0x1000b0)) 8 && le $((0x1000b0)) 8 && le 20 8 && le 20 8 && le 4 8
	le 4 4 && le 4 4 && le 18 4 && printf 'Xen\0' && le $((0x100200)) 4 # XEN_ELFNOTE_PHYS32_ENTRY
	head -c $((512 - 196)) /dev/zero && printf '\xeb\xfe'
} >"$tmp/spin.elf"
RB_GUEST_BOOT_CPU=0.2 RB_GUEST_ACCEL=tcg $RB run --no-census --db "$db" --label spin --trackers spinkernel "$tmp/tiny.o" >"$tmp/run5.out" 2>&1
check "a kernel that hangs: the run ends" "[ $? -le 2 ]" "$tmp/run5.out"
check "its TCG guest killed for the CPU budget, the object's row naming it" \
	"[ \"\$(q \"SELECT verdict FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'spin' AND r.tracker = 'spinkernel' AND r.msg LIKE 'guest spinkernel: did not boot (its CPU budget spent: hung)%'\")\" = load_error ]" "$tmp/run5.out"
