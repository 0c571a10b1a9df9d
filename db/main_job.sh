#!/usr/bin/env bash
# main_job.sh — the suite's main job, from a fresh clone (as root on Debian):
# install what is missing and build, build the default corpus, verify it
# with every available tracker and every kernel image `make kernels`
# downloaded (plus the operator census) into
# db/results.sqlite, run the micro-benchmarks into the same database, and
# render the charts into plots/out/. Ends with a closing note: the charts
# and how long each step and the whole job took.
#
#   db/main_job.sh            (or: make main-job)
#   LABEL=after db/main_job.sh   label the run (default: main)
set -euo pipefail
cd "$(dirname "$0")/.."
label=${LABEL:-main}
t0=$(date +%s)
steps=()
# the CPU time (user + system, in clock ticks) of this script's finished
# children: fields 16 and 17 of /proc/PID/stat (cutime, cstime)
hz=$(getconf CLK_TCK)
child_ticks() { awk '{print $16 + $17}' /proc/$$/stat; }
# No step silent for long: a step's output passes through relay, which
# says the step is still running when no line came for 5 s (under load the
# census, the benchmarks' first measurements and the corpus's package
# lookups were silent for 10-15 s). read -t times the silence itself: an
# earlier ticker process, which looked every 5 s at when the last line came,
# let up to 10 s pass without a line (9.4 s seen at load 17).
relay() { # NAME START(s since the epoch)
	local l part= st now
	while :; do
		if IFS= read -r -t 5 l; then
			printf '%s\n' "$part$l"
			part=
		else
			st=$?
			# over 128: timed out (l holds what came of an unfinished line)
			[ "$st" -gt 128 ] || break
			part+=$l
			printf -v now '%(%s)T' -1
			echo "   ($1: running for $((now - $2)) s)"
		fi
	done
	# the last line, if it had no newline
	[ -z "$part$l" ] || printf '%s\n' "$part$l"
}
step() {
	local name=$1
	shift
	local s c rc=0
	s=$(date +%s)
	c=$(child_ticks)
	echo "== $name: $*"
	"$@" 2>&1 | relay "$name" "$s" || rc=$?
	[ "$rc" -eq 0 ] || exit "$rc"
	steps+=("$(printf '%-28s %5ds wall %6.1fs cpu' "$name" $(($(date +%s) - s)) \
		"$(echo "$(child_ticks) $c $hz" | awk '{print ($1 - $2) / $3}')")")
}

# the Debian packages first (one apt-get at a time), then the build (libbpf,
# the binary, the benchmark binary) and the corpus steps that need no
# binary (unpacking the kernel sources, compiling the kernel's and this
# project's BPF programs, downloads) side by side: the build leaves a core
# idle while libbpf downloads and while it links, and these steps are
# mostly one process at a time. (libbpf is one job of the build: the
# objects that do not include its headers compile beside it.)
build_and_sources() {
	make deps
	programs/recipe/corpus.sh --default --sources &
	local cp=$! rc=0
	# a failed build stops the corpus steps too
	trap 'kill $cp 2>/dev/null' EXIT
	make build/rangebench build/bench/rangebench-bench || rc=$?
	[ $rc -eq 0 ] || return $rc
	wait $cp || { echo "corpus: the steps without the binary failed" >&2; return 1; }
	trap - EXIT
}
step "build + corpus sources" build_and_sources
# The corpus step with the binary (the objects of programs/default.list
# only, what the job verifies; the full corpus is `make corpus`) runs
# about one process at a time for 6-7 s, one core idle: the
# micro-benchmarks run beside it, on that core, their output kept and
# printed after the corpus's. The median of 3 interleaved repetitions of
# at least 5 ms each (make bench alone: 5 of at least 10 ms): about 7 s
# of CPU; every (operation, tracker) measured, the ratios side by side in
# time as before.
# (the binary the build step made, run as `make bench` runs it: no second
# make beside the corpus's in the same tree)
bench_beside_corpus() {
	local bp rc=0 brc=0 log=build/main-job-bench.log
	local cmd=(build/bench/rangebench-bench --benchmark_color=false --benchmark_repetitions=3
		--benchmark_enable_random_interleaving=true --benchmark_min_time=0.005
		--db db/results.sqlite --label "$label")
	"${cmd[@]}" >"$log" 2>&1 &
	bp=$!
	# a failed corpus step stops the benchmarks too, and so does an
	# interrupt (a background job of a script ignores SIGINT) until they end
	trap 'kill $bp 2>/dev/null' EXIT
	make corpus-default || rc=$?
	[ $rc -eq 0 ] || return $rc
	echo "micro-benchmarks, run beside the corpus step: ${cmd[*]}"
	wait $bp || brc=$?
	trap - EXIT
	cat "$log"
	[ $brc -eq 0 ] || { echo "micro-benchmarks failed (exit $brc)" >&2; return $brc; }
}
step "corpus + micro-benchmarks" bench_beside_corpus
# exit 130: interrupted; anything else non-zero stops the job
# --repeat 3: the median of three verifications per (program, tracker) for times
# the kernel images of kernels.conf that `make kernels` downloaded (none:
# the engine's trackers and the running kernel, as before) join the run
trackers=$(build/rangebench trackers --csv | awk -F, 'NR > 1 && ($2 == "engine" || $1 == "kernel" ||
	($2 == "kernel" && $0 !~ /not downloaded/)) {print $1}' | paste -sd, -)
step "verify default corpus" build/rangebench run --repeat 3 --label "$label" --trackers "$trackers"
step "charts" build/rangebench plot

total=$(($(date +%s) - t0))
echo
echo "== main job done in $((total / 60)) min $((total % 60)) s ($(echo "$(child_ticks) $hz" | awk '{printf "%.0f", $1 / $2}') s of CPU; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
for s in "${steps[@]}"; do echo "   $s"; done
echo "   results: db/results.sqlite (build/rangebench query lists the ready-made queries)"
echo "   charts in plots/out/:"
for f in plots/out/*.png; do
	[ -e "$f" ] && echo "     $(basename "$f" .png)  ($f, ${f%.png}.svg)"
done
