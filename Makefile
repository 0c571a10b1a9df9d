# rangebench — build, test, corpus, benchmarks.
#
#   make            install missing Debian packages, build build/rangebench
#   make test       sanitizer (ASan+UBSan) build of everything, run every test
#   make corpus     build the corpus of real BPF objects under programs/corpus
#   make bench      micro-benchmarks (Google Benchmark)
#
# Every file under src/tracker/ except registry.c is width-generic: it is
# compiled once per register width (RB_BITS = 64, 32, 16, 8) into objects
# under build/.../w<bits>/ and linked side by side.

# `make` alone builds `all`, whatever the makefiles included below (the
# objects' .d files, build/libbpf.mk) define first: without this, the first
# target of the first .d file found became the goal, and `make` in a built
# tree rebuilt one object and not build/rangebench
.DEFAULT_GOAL := all

CC      ?= gcc
CXX     ?= g++
WIDTHS  := 64 32 16 8

WARN    := -Wall -Wextra -Werror
CSTD    := -std=c11 -D_GNU_SOURCE
# The libbpf linked (README, "Which libbpf"): scripts/libbpf.sh, run to
# make build/libbpf.mk, chooses it: a current libbpf built statically from
# Debian sid's source package under build/libbpf/, or the system's
# libbpf-dev when that cannot be had (RB_LIBBPF=system forces it; `rm
# build/libbpf.mk` asks again). The file names the archive (LIBBPF_A,
# LIBBPF_INC, LIBBPF_FROM), and the script points the link
# build/libbpf-include at the chosen headers (no link: the system's, in
# /usr/include). The Makefile does not include the file: the objects that
# include libbpf's headers (LIBBPF_USERS) and the links wait for it, and
# every other object compiles while libbpf is downloaded and built (a fresh
# clone's first 13 s or so, one core mostly idle while apt reads sid's
# list; make used to remake the file, then restart). A link reads the
# archive's name from the file when it runs.
LIBBPF_MK  := build/libbpf.mk
LIBBPF_INC := -Ibuild/libbpf-include
LIBBPF_A    = $(shell sed -n 's/^LIBBPF_A := //p' $(LIBBPF_MK))
INC     := -Isrc $(LIBBPF_INC)
# -MMD -MP: every object records the headers it includes (build/**/*.d,
# read below), so a header change rebuilds only what includes it
DEPFLAGS := -MMD -MP
# The compile cache: with RB_CACHE on (default ~/.cache/rangebench, as for
# libbpf's build and the corpus steps; RB_CACHE= turns it off, and CI=true
# leaves it off unless RB_CACHE is set), every compile of an object (the
# release and test builds, the BPF test objects, the benchmark objects)
# goes through ccache (Debian's), its entries under RB_CACHE/ccache, keyed
# by the compiler, its flags, the source and every header it read (ccache's
# depend mode, below), so that a second clone of the same user restores the
# objects it has seen instead of compiling them again. Links are not
# cached. The objects name their sources relative to the clone
# (-fdebug-prefix-map below: DW_AT_comp_dir is "."), so a restored object
# is byte for byte what the compile gives in any clone. The store's and the
# kernel registry's objects embed files with .incbin, which ccache does not
# see: they are compiled every time (OBJCACHE emptied for them, below).
ifeq ($(CI),true)
RB_CACHE ?=
endif
RB_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/rangebench
# (off, and every object compiled, where ccache is missing or the cache
# directory cannot be made)
OBJCACHE := $(if $(RB_CACHE),$(if $(shell command -v ccache),$(if $(shell mkdir -p '$(RB_CACHE)/ccache' 2>/dev/null && \
	[ -w '$(RB_CACHE)/ccache' ] && echo y),ccache)))
# (depend mode: on a miss ccache reads the compile's -MMD list of the
# headers it read instead of running the preprocessor first, about 0.05 s
# per gcc compile and 0.16 s per clang one; that list leaves out the system
# headers, so the versions of the installed Debian packages,
# build/ccache-system, are part of every key instead)
ifneq ($(OBJCACHE),)
export CCACHE_DIR := $(RB_CACHE)/ccache
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_MAXSIZE ?= 2G
export CCACHE_DEPEND := 1
export CCACHE_EXTRAFILES := build/ccache-system
$(shell mkdir -p build && dpkg-query -W -f='$${Package} $${Version} $${Architecture}\n' >build/ccache-system.tmp 2>/dev/null; \
	cmp -s build/ccache-system.tmp build/ccache-system && rm -f build/ccache-system.tmp || mv -f build/ccache-system.tmp build/ccache-system)
endif
# (objects, BPF objects included, name the clone's directory "." in their
# debug information: the same bytes wherever it is)
PREFIX_MAP := -fdebug-prefix-map=$(CURDIR)=.
# -g1: line tables and inlined frames (perf, callgrind and backtraces name
# functions, files and lines; no types or variables for a debugger), as the
# test build: the same code (GCC's -g does not change what it generates),
# and the release build takes about 17% less CPU (a sample of 47 of its
# objects: 12.4 s -> 10.3 s), which the main job's first step is made of
# (issue 26: make main-job on 2 cores)
CFLAGS_REL  := $(CSTD) $(WARN) -O2 -g1 $(PREFIX_MAP) $(INC) $(DEPFLAGS) $(EXTRA_CFLAGS)
# UBSan traps (-fsanitize-undefined-trap-on-error): every check of
# -fsanitize=undefined is compiled in as before and stops the process at
# the first undefined behaviour, with an illegal instruction instead of a
# call into libubsan. tests/run.sh sets ASAN_OPTIONS=handle_sigill=1, so
# ASan prints the faulting line's stack; cmocka reports the test failed.
# Why: each sanitizer process LeakSanitizer scanned 18 MB of globals at
# exit, 12 of them UBSan's (6 MB of source locations and type data in the
# binary's .data, 6 MB of libubsan's .bss); without libubsan it is 6 MB.
SAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
               -fsanitize-undefined-trap-on-error
# -g1: line tables and inlined frames only (no types or variables): the
# sanitizers' reports name the same functions, files and lines as with -g
# (inlined callers included), and the test build compiles about 15% and
# links about a third faster (issue 26: make test on 2 cores)
# -ffunction-sections: each function in a section of its own, so that the
# link puts every object's ASan constructor and destructor (which register
# and unregister its globals) side by side (tests/support/ctors.order,
# LDFLAGS_TEST below) instead of one at the end of each object's code
CFLAGS_TEST := $(CSTD) $(WARN) -Og -g1 -ffunction-sections $(PREFIX_MAP) -fno-omit-frame-pointer $(SAN_FLAGS) $(INC) \
               -DRB_TEST_BUILD $(DEPFLAGS) $(EXTRA_CFLAGS)
# The test build is at -Og but for the code the suites compute in, at -O1
# (TEST_HOT, objects under build/test/obj/). -Og keeps GCC's flow warnings
# (-Werror) and every sanitizer check, and a sanitizer object compiles in
# about 38% less CPU than at -O1 (12 engine, census, loader, tracker files,
# 3 interleaved rounds, load 12-16: 7.3 s -> 4.5 s). Where the suites' CPU
# goes in the project's own code (perf record -F 199 over tests/run.sh,
# 11,210 samples in the sanitizer binaries, load 10-16, each object's
# samples by its symbols' addresses): census/ 1,931, the trackers at width
# 8 (the census's exhaustive width) 1,992, loader/sha256.c 834; the engine
# 529 and its 40-byte copy 138 (138 objects: 37 s of CPU to build at -O1),
# the trackers at widths 16-64 about 500, every other folder under 100.
TEST_HOT := census/% loader/sha256.o w8/%
CFLAGS_TEST_HOT := $(patsubst -Og,-O1,$(CFLAGS_TEST))
# and at -O2 where that pays for its compile on a fresh clone (each object
# compiled at -O1 and -O2 without the cache; the suites' CPU with it at
# each, interleaved, load 14-22): sha256.c, which every sanitizer process
# hashes its objects with (+0.03 s to compile; 64 MiB hashed in 0.87 s of
# user time instead of 1.10), the width-8 tnum.c (+0.1 s; test_tnum 2.29
# -> 1.22 s, three rounds), census's pool.c (+0.06 s; census_gamma8, every
# gamma of the census: test_census 12.16 -> 11.74 s, two rounds). Every
# object of TEST_HOT and TEST_UNIT_HOT at -O2: +9 s to compile (42
# objects: 23.9 -> 32.9 s) for about 4 s less in the suites.
TEST_O2 := loader/sha256.o w8/tracker/tnum.o census/pool.o
CFLAGS_TEST_O2 := $(patsubst -Og,-O2,$(CFLAGS_TEST))
# The folders the suites spend almost no CPU in are at -O0 (TEST_COLD):
# their sanitizer objects compile in about 14% less CPU than at -Og (their
# 78 objects and exec/'s 5: 18.7 -> 16.1 s, 3 interleaved rounds, load
# 6-8; exec/ alone 1.08 -> 0.96 s, left at -Og as test_exec computes in
# it), and they ran 117 of the 44,000 samples of a perf record -F 199 of
# every command-line suite (the engine 474 and its 40-byte copy 113,
# loader 458, trackers 266, census 146, driver 46, oracle 35, util 24,
# exec 11; libbpf 995; the kernel, libc and the sanitizer runtime the
# rest). The unit tests of their code took as much CPU either way (12
# tests, 3 interleaved rounds, load 15-25: 24.1 s -Og, 23.5 s -O0). GCC's
# flow warnings (-Wmaybe-uninitialized...) for their code come from the
# release build (-O2, -Werror).
TEST_COLD := cli/% store/% guest/% report/% progen/% explain/% verify/% result/% kernels/% corpus/%
CFLAGS_TEST_COLD := $(patsubst -Og,-O0,$(CFLAGS_TEST))
tst_cflags = $(if $(filter $(addprefix $(TST)/,$(TEST_O2)),$(1)),$(CFLAGS_TEST_O2),$(if \
	$(filter $(addprefix $(TST)/,$(TEST_HOT)),$(1)),$(CFLAGS_TEST_HOT),$(if \
	$(filter $(addprefix $(TST)/,$(TEST_COLD)),$(1)),$(CFLAGS_TEST_COLD),$(CFLAGS_TEST))))
# The unit tests' own sources at -O0 too, but for those whose own code
# computes (exhaustive loops over states; each took 1.5 s of CPU or more in
# a full run's suite-times), at -O1: the 25 others compile in about 4.9 s
# of CPU at -O0, 6.2 s at -Og, 7.6 s at -O1 (and their tests ran in
# 6.5-6.7 s at -Og against 6.6-7.3 s at -O1, two rounds each, interleaved,
# load 10-13). A unit test that computes belongs in this list.
TEST_UNIT_HOT := census engine_ctx oracle arc2 old cnum_fast loader_malformed cnum old_sync tnum exec_fault \
                 store_concurrent
unit_cflags = $(if $(filter $(TEST_UNIT_HOT),$(1)),$(CFLAGS_TEST_HOT),$(CFLAGS_TEST_COLD))
# Tracker code (every tracker alike) is built without GCC 12's -O2
# vectorizer: it merged pairs of 8-byte fields (a tnum, an arc, two
# bounds) into 16-byte loads right after the fields were stored one by
# one, loads the CPU cannot forward from its store buffer; measured with
# `make bench` (5 interleaved repetitions): cnum/old geomean 0.74 -> 0.72,
# branch_taken 13.0 -> 7.0 ns (old), 17.2 -> 11.2 ns (cnum).
TRACKER_CFLAGS := -fno-tree-vectorize
LIBS_DEB := -lelf -lz -lsqlite3
LD_WRAPS := -Wl,--wrap=syscall -Wl,--wrap=btf__load_vmlinux_btf -Wl,--wrap=btf__free -Wl,--wrap=uname -Wl,--wrap=gzopen64
LDLIBS   = $(LIBBPF_A) $(LIBS_DEB) -lm -lpthread $(LD_WRAPS)
# The test build's executables link libelf, zlib and SQLite statically
# (the Debian -dev packages' archives): three shared libraries fewer for
# the dynamic linker to map and relocate at each start, and for ASan and
# LeakSanitizer to list (their modules) in each process. libasan, libm,
# libgcc_s and libc stay shared (libasan needs them), as does libcmocka.
# `rangebench --version`: 34.9 -> 33.0 ms of CPU (median of 100 processes
# each, alternating, load 6). Leaks from their allocations are reported as
# before (a scratch program's leaked sqlite3_open and deflateInit: the same
# leaks, bytes and objects, their frames now named from the executable's
# symbols).
LDLIBS_TEST = $(LIBBPF_A) -Wl,-Bstatic $(LIBS_DEB) -Wl,-Bdynamic -lm -lpthread $(LD_WRAPS)
# -no-pie: the sanitizer build's 190,000 dynamic relocations (ASan's global
# descriptors, UBSan's type data) are resolved at link time instead of at
# each start: 13% of the CPU of a short `verify` (perf), and the test suite
# starts about a thousand such processes
# -fuse-ld=gold where binutils has it: the test build links about forty
# sanitizer binaries of the whole library, each 0.9 s of CPU with ld.bfd,
# 0.6 s with gold (the same --wrap options; ld.bfd where gold is missing)
# --section-ordering-file (gold's; ld.bfd links them in object order):
# the ASan constructors (.text._sub_I_*, one per object, 301 in
# build/test/rangebench) and destructors side by side, in 9 pages of code
# instead of 315 spread over its 4.6 MB of .text. The constructors run in
# every process before main, and each page of code they ran on was mapped
# into the process with its neighbours: 4.4 MB of the executable's code
# resident after `rangebench --version`, 0.2 MB now, and its CPU 33.0 ->
# 30.5 ms (median of 120 processes each, alternating, load 4). With the
# static libraries above: 36.6 -> 31.5 ms, and `verify --csv` of
# build/test/fixtures/tiny.o 92 -> 88 ms (100 and 60 processes, load 8).
LD_GOLD := -fuse-ld=gold -Wl,--section-ordering-file=tests/support/ctors.order
LDFLAGS_TEST := $(SAN_FLAGS) -no-pie $(if $(shell command -v ld.gold),$(LD_GOLD))

# Debian packages the project needs (installed by `make` when missing)
DEB_PKGS := gcc g++ make ccache libbpf-dev libelf-dev zlib1g-dev libsqlite3-dev sqlite3 \
            libcmocka-dev libbenchmark-dev gnuplot-nox clang llvm clang-19 linux-source-6.1 \
            bpftool python3 parallel valgrind strace

SRC_ALL   := $(shell find src -name '*.c' | sort)
GENERIC   := $(filter-out src/tracker/registry.c,$(filter src/tracker/%,$(SRC_ALL)))
PLAIN     := $(filter-out $(GENERIC) src/cli/main.c,$(SRC_ALL))
HEADERS   := $(shell find src -name '*.h')

# Tracker variants: a tracker folder compiled a second time, with extra
# flags, into its own objects (its symbols renamed by the flags, see
# src/tracker/cnum/variant.h), so both builds are registry rows of one
# binary. One line per variant: name, folder, flags.
TRACKER_VARIANTS := cnum_mainline
VARIANT_cnum_mainline_DIR   := src/tracker/cnum
VARIANT_cnum_mainline_FLAGS := -DRB_CNUM_MAINLINE_ALGOS
# files of the folder the flags do not change, compiled once and shared by
# both builds under one name (their code was the same in both: arc.c and
# bounds.c at every width, objdump -d; 8 of 24 objects fewer per build)
VARIANT_cnum_mainline_SHARED := arc.c bounds.c

variant_objs = $(foreach v,$(TRACKER_VARIANTS),$(foreach w,$(WIDTHS), \
	$(patsubst $(VARIANT_$(v)_DIR)/%.c,$(1)/w$(w)/variant/$(v)/%.o,$(filter-out \
	$(addprefix $(VARIANT_$(v)_DIR)/,$(VARIANT_$(v)_SHARED)),$(wildcard $(VARIANT_$(v)_DIR)/*.c)))))

# True-size states: the engine compiled a second time with 40-byte value
# slots (-DRB_VAL_WORDS=5), partially linked into one object whose every
# defined symbol gets the prefix rb_e40_ (objcopy --redefine-syms), so
# both builds are in one binary; rb_engine_verify (engine.c) runs a tracker
# whose val_size fits in 40 bytes (cnum, cnum-mainline) in it, so its
# registers, spilled slots and stored states are allocated at its own size.
ENGINE_SLOT_SRCS  := $(sort $(wildcard src/engine/*.c))
ENGINE_SLOT_FLAGS := -DRB_VAL_WORDS=5 -DRB_ENGINE_SLOT_VARIANT
# Files of the engine the flags cannot change, compiled once: no file their
# compile reads (the source and the headers its .d file lists) names
# RB_VAL_WORDS or RB_ENGINE_SLOT_VARIANT (none includes tracker/tracker.h),
# so the preprocessor gives the same source either way. Their objects (the
# engine's own, under engine/) go into the 40-byte engine's partial link as
# its compiled copies did: the same bytes (engine_e40.o unchanged, release
# and test builds), each symbol prefixed there as before, calls among the
# copy's files unchanged. 8 compiles fewer per build (test build: 0.8 s of
# CPU of 14.2 s for the 70 copies). The link checks the list
# (slot_shared_check): it fails when a listed file reads a file that names
# either flag. (15 more engine files compile to identical objects, but
# include tracker/tracker.h through engine/state.h: only a second compile
# could show that their code does not depend on the slot size.)
ENGINE_SLOT_SHARED := helper_gpl.c helper_sets.c helper_table.c map_compat.c names.c profile.c raw_tp_args.c vmlinux.c
# (in the order of ENGINE_SLOT_SRCS, as the partial link had them)
slot_objs = $(foreach f,$(ENGINE_SLOT_SRCS),$(patsubst src/%.c,$(1)/$(if $(filter $(notdir $(f)),$(ENGINE_SLOT_SHARED)),,e40/)%.o,$(f)))
slot_shared_check = for o in $(patsubst %.c,$(1)/engine/%,$(ENGINE_SLOT_SHARED)); do \
	  read=$$(sed 's/[:\\]/ /g' $$o.d 2>/dev/null | tr ' ' '\n' | grep '\.[ch]$$' | sort -u); \
	  bad=$$(grep -lE 'RB_VAL_WORDS|RB_ENGINE_SLOT_VARIANT' $$read /dev/null); \
	  if [ -z "$$read" ] || [ -n "$$bad" ]; then \
	    echo "$$o.o: its compile reads $${bad:-files its missing $$o.d does not list}, which may name the slot flags:" \
	      "remove it from ENGINE_SLOT_SHARED (Makefile)"; exit 1; fi; done

objs = $(foreach w,$(WIDTHS),$(patsubst src/%.c,$(1)/w$(w)/%.o,$(GENERIC))) \
       $(call variant_objs,$(1)) \
       $(patsubst src/%.c,$(1)/%.o,$(PLAIN)) \
       $(1)/engine_e40.o

REL  := build/obj
TST  := build/test/obj
FUZ  := build/fuzz/obj
REL_OBJS := $(call objs,$(REL))
TST_OBJS := $(call objs,$(TST))

TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(patsubst tests/unit/%.c,build/test/%,$(TEST_SRCS))
# The unit tests share one binary, build/test/unit/tests (its main:
# tests/support/unit_main.c), but for those linked with objects of their
# own (below); build/test/test_X is a hard link to it, and runs the suite of
# tests/unit/test_X.c (the name it is started by chooses). One link instead
# of 36: each took 0.15-0.2 s of CPU with gold, about what the whole binary
# takes (5.3 s of make test's build, load 6-9), and the binary starts in
# about 12 ms more CPU per suite (its tests' static arrays, 4.8 MB of .bss,
# are mapped at start; 36 suites: 0.4 s)
TEST_OWN_LINK := build/test/test_exec_fault build/test/test_bench_report
TEST_SHARED := $(filter-out $(TEST_OWN_LINK),$(TEST_BINS))
TEST_SHARED_OBJS := $(patsubst build/test/%,build/test/unit/%.o,$(TEST_SHARED))
UNIT_BIN  := build/test/unit/tests
UNIT_LIST := build/test/unit/suites.h

# The sanitizer build's flags, in a file rewritten only when they change:
# every object and binary of build/test depends on it, so a change of
# CFLAGS_TEST or LDFLAGS_TEST rebuilds the test build instead of linking
# objects built with the old flags (UBSan traps cannot link against
# objects that call libubsan).
TST_FLAGS := build/test/flags
TST_PREFAULT := $(TST)/lsan_prefault.o
ifeq ($(filter clean,$(MAKECMDGOALS)),)
TST_FLAGS_LINE := $(CFLAGS_TEST) | $(LDFLAGS_TEST) | static: $(LIBS_DEB) | -O1: $(TEST_HOT) $(TEST_UNIT_HOT) | -O2: $(TEST_O2) | -O0: $(TEST_COLD)
$(shell mkdir -p build/test && { echo '$(TST_FLAGS_LINE)' | cmp -s - $(TST_FLAGS) || \
	echo '$(TST_FLAGS_LINE)' >$(TST_FLAGS); })
# (the shared binary's list of suites, RB_UNIT(test_X) lines, rewritten only
# when the set of tests/unit/test_*.c changes)
$(shell mkdir -p build/test/unit && { printf 'RB_UNIT(%s)\n' $(notdir $(TEST_SHARED)) | cmp -s - $(UNIT_LIST) || \
	printf 'RB_UNIT(%s)\n' $(notdir $(TEST_SHARED)) >$(UNIT_LIST); })
endif
$(filter-out %/engine_e40.o,$(TST_OBJS)) $(call slot_objs,$(TST)) $(TST)/cli/main.o build/test/fault/engine/alu.o $(TEST_OWN_LINK) \
  $(TEST_SHARED_OBJS) $(UNIT_BIN) build/test/unit/main.o \
  build/test/fuzz_verify build/test/rangebench $(TST_PREFAULT): $(TST_FLAGS)

.PHONY: all deps test corpus corpus-default corpus-sched-ext bench bench-insns clean fuzz main-job kernels

# Parallel by default, one job per core (every rule names its inputs, and
# objects wait for build/.deps); `make -j1` or any -jN overrides it. Only
# the top-level make: a sub-make started with + (make main-job's) shares
# its parent's job slots, and a -j of its own only reset them (make 4.3:
# "-j2 forced in makefile: resetting jobserver mode").
ifeq ($(MAKELEVEL)$(filter -j% j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell nproc)
endif
# Objects list the headers they include in .d files (-MMD); an object
# without one (built before -MMD) depends on every header instead (HDEPS,
# expanded a second time per target).
-include $(shell find build/obj build/test build/fuzz build/bench -type f -name '*.d' 2>/dev/null)
.SECONDEXPANSION:
HDEPS = $$(if $$(wildcard $$(basename $$@).d),,$$(HEADERS))
# An object's directory, made once (the rule below) rather than by a
# `mkdir -p` per object: an order-only prerequisite of the object rules
# (about 370 processes fewer in a release build)
ODIR = $$(@D)/.
.PRECIOUS: %/.
%/.:
	@mkdir -p $@
all: deps build/rangebench

# (not after build/.deps, as when make remade the file before reading the
# rest: GNU make 4.3 with -j2 did not come back to it once .deps was made,
# and a fresh clone's `make test` started libbpf after 2.5 min of compiles)
$(LIBBPF_MK): scripts/libbpf.sh
	@RB_DEPS_STAMP=build/.deps scripts/libbpf.sh $@
# what includes libbpf's headers waits for the libbpf and is rebuilt when it
# changes (the test sources compiled into their binaries: below)
LIBBPF_USERS := $(patsubst src/%.c,%,$(shell grep -rlE '#include (<bpf/|"loader/bpf_standin.h")' src --include='*.c'))
$(foreach f,$(LIBBPF_USERS),$(foreach o,$(REL) $(TST) $(FUZ),$(o)/$(f).o $(if $(filter engine/%,$(f)),$(o)/e40/$(f).o))): $(LIBBPF_MK)

deps: build/.deps
# (one dpkg-query for all of them, not one with a grep per package: 0.06 s
# of CPU instead of 0.95, and 0.7 s instead of 9.6 s at load 20, before
# anything else of a fresh clone's build starts; a package is there when
# its status is installed without error: "ii ", "hi ")
build/.deps: Makefile
	@mkdir -p build; rm -f build/.deps.failed
	@missing=$$(dpkg-query -W -f='$${db:Status-Abbrev}|$${Package}\n' $(DEB_PKGS) 2>/dev/null | \
	  awk -F'|' -v want='$(DEB_PKGS)' 'substr($$1, 2, 2) == "i " {ok[$$2] = 1} \
	    END {n = split(want, w, " "); for (i = 1; i <= n; i++) if (!(w[i] in ok)) printf " %s", w[i]}'); \
	if [ -n "$$missing" ]; then \
	  echo "installing missing Debian packages:$$missing"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >build/deps.log 2>&1 \
	    || { echo "apt-get failed, see build/deps.log"; touch build/.deps.failed; exit 1; }; \
	fi
	@touch $@

define width_rules
$(REL)/w$(1)/%.o: src/%.c $$(HDEPS) | build/.deps $$(ODIR)
	$$(OBJCACHE) $$(CC) $$(CFLAGS_REL) $$(TRACKER_CFLAGS) -DRB_BITS=$(1) -c $$< -o $$@
$(TST)/w$(1)/%.o: src/%.c $$(HDEPS) | build/.deps $$(ODIR)
	$$(OBJCACHE) $$(CC) $$(call tst_cflags,$$@) -DRB_BITS=$(1) -c $$< -o $$@
endef
$(foreach w,$(WIDTHS),$(eval $(call width_rules,$(w))))

define variant_rules
$(REL)/w$(2)/variant/$(1)/%.o: $(VARIANT_$(1)_DIR)/%.c $$(HDEPS) | build/.deps $$(ODIR)
	$$(OBJCACHE) $$(CC) $$(CFLAGS_REL) $$(TRACKER_CFLAGS) $(VARIANT_$(1)_FLAGS) -DRB_BITS=$(2) -c $$< -o $$@
$(TST)/w$(2)/variant/$(1)/%.o: $(VARIANT_$(1)_DIR)/%.c $$(HDEPS) | build/.deps $$(ODIR)
	$$(OBJCACHE) $$(CC) $$(call tst_cflags,$$@) $(VARIANT_$(1)_FLAGS) -DRB_BITS=$(2) -c $$< -o $$@
endef
$(foreach v,$(TRACKER_VARIANTS),$(foreach w,$(WIDTHS),$(eval $(call variant_rules,$(v),$(w)))))

$(REL)/e40/%.o: src/%.c $(HDEPS) | build/.deps $(ODIR)
	$(OBJCACHE) $(CC) $(CFLAGS_REL) $(ENGINE_SLOT_FLAGS) -c $< -o $@
$(TST)/e40/%.o: src/%.c $(HDEPS) | build/.deps $(ODIR)
	$(OBJCACHE) $(CC) $(CFLAGS_TEST) $(ENGINE_SLOT_FLAGS) -c $< -o $@
define slot_link
$(1)/engine_e40.o: $(call slot_objs,$(1))
	@$$(call slot_shared_check,$(1))
	ld -r -o $$@.tmp $$^
	nm -g --defined-only $$@.tmp | awk '{print $$$$3 " rb_e40_" $$$$3}' >$$@.syms
	objcopy --redefine-syms=$$@.syms $$@.tmp $$@
	@rm -f $$@.tmp $$@.syms
endef
$(eval $(call slot_link,$(REL)))
$(eval $(call slot_link,$(TST)))

$(REL)/%.o: src/%.c $(HDEPS) | build/.deps $(ODIR)
	$(OBJCACHE) $(CC) $(CFLAGS_REL) -c $< -o $@
$(TST)/%.o: src/%.c $(HDEPS) | build/.deps $(ODIR)
	$(OBJCACHE) $(CC) $(call tst_cflags,$@) -c $< -o $@

build/librangebench.a: $(REL_OBJS)
	@rm -f $@; ar rcs $@ $^
build/test/librangebench.a: $(TST_OBJS)
	@mkdir -p $(@D); rm -f $@; ar rcs $@ $^

build/rangebench: $(REL)/cli/main.o build/librangebench.a | $(LIBBPF_MK)
	$(CC) -o $@ $^ $(LDLIBS)
build/test/rangebench: $(TST)/cli/main.o $(TST_PREFAULT) build/test/librangebench.a | $(LIBBPF_MK)
	$(CC) $(LDFLAGS_TEST) -o $@ $(filter-out $(TST_FLAGS),$^) $(LDLIBS_TEST)
# Linked into every executable of the test build (never the library):
# as ASan starts (its __asan_default_options hook), the pages LeakSanitizer
# reads at exit are mapped in a few madvise calls, most of them as 2 MiB
# pages, instead of a page fault each (tests/support/lsan_prefault.c:
# `rangebench --version` 2,315 -> 1,295 page faults, about a quarter less
# CPU; from the hook instead of .preinit_array, about 1 ms less again)
$(TST_PREFAULT): tests/support/lsan_prefault.c | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) $(CC) $(CFLAGS_TEST) -c $< -o $@

# Small BPF objects the loader tests (and the fuzzer's seed corpus) use.
# Written in C (*.bpf.c) or, for what only old toolchains produce, in BPF
# assembly (*.bpf.s); em_none.bpf.o is old_toolchain.bpf.o with e_machine 0.
TEST_BPF_SRCS := $(sort $(wildcard tests/objects/*.bpf.c tests/objects/*.bpf.s))
# tests/objects/bad/: objects that must not open (an object without
# programs), kept out of build/test/objects, which tools run whole;
# tests/objects/hostile/: objects that crash the loader of the process that
# opens them (libbpf 1.1), kept out of both (the fuzz replay opens bad/ in
# process).
TEST_BPF_OBJS := $(patsubst tests/objects/%,build/test/objects/%.o,$(basename $(TEST_BPF_SRCS))) \
	build/test/objects/em_none.bpf.o build/test/objects/legacy_rela.bpf.o \
	$(patsubst tests/objects/bad/%.bpf.c,build/test/objects-bad/%.bpf.o,$(wildcard tests/objects/bad/*.bpf.c)) \
	$(patsubst tests/objects/hostile/%.bpf.c,build/test/objects-hostile/%.bpf.o,$(wildcard tests/objects/hostile/*.bpf.c)) \
	$(patsubst tests/objects/clang19/%.bpf.c,build/test/objects/clang19/%.bpf.o,$(wildcard tests/objects/clang19/*.bpf.c))
BPF_CFLAGS := -O2 -g $(PREFIX_MAP) $(DEPFLAGS) -target bpf -I/usr/include/x86_64-linux-gnu
build/test/objects/%.bpf.o: tests/objects/%.bpf.c | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang $(BPF_CFLAGS) -c $< -o $@
build/test/objects-bad/%.bpf.o: tests/objects/bad/%.bpf.c | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang $(BPF_CFLAGS) -c $< -o $@
build/test/objects-hostile/%.bpf.o: tests/objects/hostile/%.bpf.c | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang $(BPF_CFLAGS) -c $< -o $@
# tests/objects/clang19/: what only clang >= 18 emits (arena variables in
# .addr_space.1, addr_space_cast); bookworm's clang-19 (DEB_PKGS)
build/test/objects/clang19/%.bpf.o: tests/objects/clang19/%.bpf.c | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang-19 $(BPF_CFLAGS) -mcpu=v3 -c $< -o $@
build/test/objects/%.bpf.o: tests/objects/%.bpf.s | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang -target bpf -c $< -o $@
# The worked examples of programs/src/ (tests/cli/explain.sh), with the
# flags programs/recipe/compile-one.sh gives them and the UAPI headers as
# their vmlinux.h (tests/objects/own/vmlinux.h): instruction numbers as in
# the corpus's own/ objects.
TEST_OWN_OBJS := $(patsubst programs/src/%.bpf.c,build/test/own/%.bpf.o,$(wildcard programs/src/*.bpf.c))
build/test/own/%.bpf.o: programs/src/%.bpf.c programs/src/common.h tests/objects/own/vmlinux.h | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang -g $(PREFIX_MAP) $(DEPFLAGS) -O2 -target bpf -mcpu=v3 -Wall -Werror -Itests/objects/own -I/usr/include/x86_64-linux-gnu -c $< -o $@
# older tc objects carry no BTF
build/test/objects/iproute2_tc.bpf.o: BPF_CFLAGS += -g0
# old LLVM's relocations: SHT_RELA sections of R_BPF_NONE entries (tests/objects/rela/)
build/test/objects/legacy_rela.bpf.o: tests/objects/rela/legacy_rela.bpf.c tests/objects/rela/rel_to_rela.py | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang $(BPF_CFLAGS) -g0 -c $< -o $@.rel.o
	python3 tests/objects/rela/rel_to_rela.py $@.rel.o $@ && rm -f $@.rel.o
build/test/objects/em_none.bpf.o: build/test/objects/old_toolchain.bpf.o
	cp $< $@.tmp && printf '\000\000' | dd of=$@.tmp bs=1 seek=18 conv=notrunc status=none && mv $@.tmp $@

# (compiled, then linked: the compile goes through the compile cache; each
# test's main is renamed rb_unit_test_X, which the shared binary's main
# calls)
build/test/unit/test_%.o: tests/unit/test_%.c $(HEADERS) $(LIBBPF_MK) | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) $(CC) $(call unit_cflags,$*) -Itests/unit -Dmain=rb_unit_test_$* -c $< -o $@
build/test/unit/main.o: tests/support/unit_main.c $(UNIT_LIST) | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) $(CC) $(CFLAGS_TEST) -Ibuild/test/unit -c $< -o $@
$(UNIT_BIN): build/test/unit/main.o $(TEST_SHARED_OBJS) $(TST_PREFAULT) build/test/librangebench.a $(TEST_BPF_OBJS) $(LIBBPF_MK)
	$(CC) -o $@ build/test/unit/main.o $(TEST_SHARED_OBJS) $(TST_PREFAULT) build/test/librangebench.a $(LDFLAGS_TEST) $(LDLIBS_TEST) -lcmocka
$(TEST_SHARED): $(UNIT_BIN)
	@ln -f $< $@

# execcheck's fault-injection test: src/engine/alu.c rebuilt with issue 10's
# cause A put back (-DRB_FAULT_ALU32_LINK), linked ahead of the library so
# that its definitions replace the library's alu.o in this binary only.
build/test/fault/engine/alu.o: src/engine/alu.c $(HDEPS) | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) $(CC) $(CFLAGS_TEST) -DRB_FAULT_ALU32_LINK -c $< -o $@
build/test/test_exec_fault: tests/unit/test_exec_fault.c build/test/fault/engine/alu.o $(TST_PREFAULT) build/test/librangebench.a $(HEADERS) \
  $(LIBBPF_MK)
	@mkdir -p $(@D)
	$(CC) $(call unit_cflags,exec_fault) -DRB_FAULT_ALU32_LINK -Itests/unit -o $@ $< build/test/fault/engine/alu.o $(TST_PREFAULT) \
	  build/test/librangebench.a $(LDFLAGS_TEST) $(LDLIBS_TEST) -lcmocka

# the benchmark shim's C side (bench/report.c, bench/ops.c) under the sanitizers
build/test/test_bench_report: tests/unit/test_bench_report.c bench/report.c bench/ops.c bench/bench.h \
  $(TST_PREFAULT) build/test/librangebench.a $(HEADERS) $(LIBBPF_MK)
	@mkdir -p $(@D)
	$(CC) $(call unit_cflags,bench_report) -Ibench -Itests/unit -o $@ $< bench/report.c bench/ops.c $(TST_PREFAULT) build/test/librangebench.a \
	  $(LDFLAGS_TEST) $(LDLIBS_TEST) -lcmocka

# the command-line tests' fixture tests/cli/fixtures/tiny.bpf.c, built once
# (tests/cli/lib/tiny.sh copies them; plain and -DTAG=N, the tags the
# scripts use) instead of by clang in each script
TINY_OBJS := build/test/fixtures/tiny.o $(foreach t,1 2 3 4 7,build/test/fixtures/tiny-tag$(t).o)
build/test/fixtures/tiny.o: tests/cli/fixtures/tiny.bpf.c | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang -O2 $(DEPFLAGS) -target bpf -c $< -o $@
build/test/fixtures/tiny-tag%.o: tests/cli/fixtures/tiny.bpf.c | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang -O2 $(DEPFLAGS) -target bpf -DTAG=$* -c $< -o $@

# The test command: sanitizer build of the CLI, every unit test and the
# fuzz target, and tests/run.sh runs them all and ends with "N passed, N failed".
# make builds what the command-line suites read first (TEST_CLI_INPUTS),
# then starts tests/run.sh while a second make (its output in
# build/test/late.log, shown if it fails) builds the rest: the unit tests'
# binaries, the slowest suite's first (tests/suite-times), each followed by
# build/test/ready/NAME, which tests/run.sh waits for before it runs it
# (the suites of the shared binary, build/test/unit/tests, are all ready
# once it is linked); then
# the fuzz target's check and the benchmark objects. The compiles take the
# CPU the suites leave (cli/guest waits for QEMU, some suites sleep), where
# they used to end the build with the suites not started.
TEST_CLI_INPUTS := build/test/rangebench $(TEST_BPF_OBJS) $(TEST_OWN_OBJS) $(TINY_OBJS) build/test/fuzz_verify
TEST_UNIT_NAMES := $(notdir $(TEST_BINS))
TEST_UNIT_ORDER := $(filter $(TEST_UNIT_NAMES),$(shell sed -n 's/.* unit://p' tests/suite-times 2>/dev/null))
# (the benchmark bodies, compiled as `make bench` does; defined here, before
# TEST_LATE reads it: defined after it, make test built none of them)
BENCH_OBJS := $(patsubst bench/%.c,build/bench/%.o,$(wildcard bench/*.c))
TEST_LATE := $(addprefix build/test/ready/,$(TEST_UNIT_ORDER) $(filter-out $(TEST_UNIT_ORDER),$(TEST_UNIT_NAMES))) \
             build/test/fuzz_loader_check build/bench/shim.o $(BENCH_OBJS)
build/test/ready/%: build/test/%
	@mkdir -p $(@D) && touch $@
test: deps $(TEST_CLI_INPUTS)
	@rm -rf build/test/ready build/test/late.status; \
	{ $(MAKE) --no-print-directory $(TEST_LATE) >build/test/late.log 2>&1; echo $$? >build/test/late.status; } & \
	RB_TEST_LATE=build/test/late.status tests/run.sh build/test; rc=$$?; wait; \
	if [ "$$(cat build/test/late.status 2>/dev/null)" != 0 ]; then \
	  tail -40 build/test/late.log; echo "make test: building the unit tests failed (build/test/late.log)"; exit 1; fi; \
	exit $$rc

# The corpus of real BPF objects under programs/corpus (programs/recipe/corpus.sh):
# each step is cached by a stamp keyed on its recipe scripts, inputs and Debian
# package versions, so only what changed is rebuilt. JOBS=N sets the parallelism.
corpus: deps build/rangebench
	@programs/recipe/corpus.sh build/rangebench
# only the objects of programs/default.list (what the main job verifies)
corpus-default: deps build/rangebench
	@programs/recipe/corpus.sh --default build/rangebench

# the sched_ext example schedulers of Debian sid's linux-source-7.2, built
# with clang-19 into programs/corpus/sched-ext/ (programs/recipe/sched-ext.sh;
# needs kernel-7.2's BTF from `make kernels`); not part of `make corpus`
corpus-sched-ext: deps build/rangebench
	@programs/recipe/sched-ext.sh
# the Debian kernel images of kernels.conf, into build/kernels/ (src/kernels/)
kernels:
	@scripts/kernels.sh

# the store embeds db/*.sql with .incbin (src/store/schema_sql.c)
$(REL)/store/schema_sql.o $(TST)/store/schema_sql.o: db/schema.sql db/views.sql $(wildcard db/migrations/*.sql)
# and the kernel registry embeds kernels.conf (src/kernels/conf_default.c);
# neither goes through the compile cache, which would not see those files
$(REL)/kernels/conf_default.o $(TST)/kernels/conf_default.o: kernels.conf
$(foreach o,$(REL) $(TST) $(FUZ),$(o)/store/schema_sql.o $(o)/kernels/conf_default.o): OBJCACHE :=

# Micro-benchmarks: C bodies in bench/*.c, registered with Google Benchmark
# by the C++ shim bench/shim.cc. `make bench` prints ns/op of every registry tracker and its ratio to old per
# tracker operation (the median of 5 repetitions, interleaved in random order so that the
# ratios are measured side by side; BENCH_REPS); BENCH_ARGS='--db db/results.sqlite' also stores them.
BENCH_REPS ?= --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
BENCH_ARGS ?= --benchmark_min_time=0.01
build/bench/%.o: bench/%.c bench/bench.h $(HDEPS) | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) $(CC) $(CFLAGS_REL) -Ibench -c $< -o $@
build/bench/shim.o: bench/shim.cc bench/bench.h $(HEADERS) | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) $(CXX) -std=c++17 -O2 -g1 $(PREFIX_MAP) $(DEPFLAGS) -Wall -Wextra -Werror -Ibench -Isrc -c $< -o $@
build/bench/rangebench-bench: build/bench/shim.o $(BENCH_OBJS) build/librangebench.a | $(LIBBPF_MK)
	$(CXX) -o $@ $^ $(LDLIBS) -lbenchmark -lpthread
# no colour codes unless stdout is a terminal (logs of `make bench > FILE` stay plain)
bench: deps build/bench/rangebench-bench
	build/bench/rangebench-bench $$([ -t 1 ] || echo --benchmark_color=false) $(BENCH_REPS) $(BENCH_ARGS)
# instructions per operation, old vs cnum (valgrind's callgrind; bench/README.md)
bench-insns: deps build/bench/rangebench-bench
	bench/insns.sh

# The main job: build, corpus, every available tracker over the default
# corpus and the census into db/results.sqlite, micro-benchmarks, charts.
# (+: the job's own makes share this make's job slots; without it they
# found no jobserver and built with -j1)
main-job:
	+@db/main_job.sh

# libFuzzer targets. fuzz_loader: the loader alone (loader/, util/ and
# progen/, whose batch files the loader opens, compiled into it); `make
# test` builds it unoptimised (build/test/fuzz_loader_check), so it cannot
# rot. fuzz_verify:
# the loader with the engine behind it (old and cnum verify what loads),
# linked against the whole library built with clang for libFuzzer under
# build/fuzz/obj; `make fuzz FUZZ_TIME=600` runs it. `make test` builds
# fuzz_verify.c with gcc as a replay program instead (build/test/fuzz_verify,
# run by tests/cli/fuzz_replay.sh on the seed objects and tests/fuzz/regress/).
FUZZ_TIME ?= 120
FUZZ_SRCS := $(wildcard src/loader/*.c) $(wildcard src/util/*.c) $(wildcard src/progen/*.c)
build/fuzz/fuzz_loader: tests/fuzz/fuzz_loader.c tests/fuzz/fuzz_btf.h $(FUZZ_SRCS) $(HEADERS) $(LIBBPF_MK) | build/.deps
	@mkdir -p $(@D)
	clang $(CSTD) $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined $(INC) -o $@ $< $(FUZZ_SRCS) $(LDLIBS)
# what `make test` builds of it, so that it cannot rot (nothing runs it):
# what a clang build of it would fail on, with the same flags and link,
# without optimisation or debug information, in three parts: (1) clang's
# front end over every source of FUZZ_SRCS with the target's flags and
# warnings (-fsyntax-only, all of them in one clang -cc1 process:
# scripts/clang-syntax.sh), (2) fuzz_loader.c compiled with them, (3) the
# libFuzzer link of fuzz_loader.o and the test build's objects of
# FUZZ_SRCS (gcc's, with ASan and UBSan's traps: the link resolves against
# clang's runtimes), which fails, as the target's link would, when a
# source of the loader calls into a file FUZZ_SRCS does not name. Each of
# the 32 sources compiled by clang -O0 with the sanitizers instead took
# about 7.7 s of CPU (make test's build, load 2-9); the front end of all of
# them in one process takes about 0.8 s (3 rounds, 0.74-1.01 s).
FUZZ_CHECK_FLAGS := $(CSTD) $(WARN) -g0 -O0 -fsanitize=fuzzer,address,undefined $(INC)
FUZZ_CHECK_SYNTAX := build/test/fuzz_check/syntax.ok
$(FUZZ_CHECK_SYNTAX): $(FUZZ_SRCS) $(HEADERS) scripts/clang-syntax.sh $(LIBBPF_MK) | build/.deps
	@mkdir -p $(@D)
	scripts/clang-syntax.sh $(FUZZ_CHECK_FLAGS) -- $(FUZZ_SRCS)
	@touch $@
build/test/fuzz_check/fuzz_loader.o: tests/fuzz/fuzz_loader.c tests/fuzz/fuzz_btf.h $(HDEPS) $(LIBBPF_MK) | build/.deps $(ODIR)
	$(OBJCACHE) clang $(FUZZ_CHECK_FLAGS) $(DEPFLAGS) -c $< -o $@
build/test/fuzz_loader_check: build/test/fuzz_check/fuzz_loader.o $(patsubst src/%.c,$(TST)/%.o,$(FUZZ_SRCS)) $(FUZZ_CHECK_SYNTAX) \
  $(LIBBPF_MK)
	clang $(FUZZ_CHECK_FLAGS) -o $@ $(filter %.o,$^) $(LDLIBS)
# (clang also flags static functions one tracker variant compiles out, and
# designated initializers that leave fields to their zero default)
CFLAGS_FUZZ := $(DEPFLAGS) $(CSTD) $(WARN) -Wno-unused-function -Wno-missing-field-initializers -g $(PREFIX_MAP) -O1 -fno-omit-frame-pointer \
               -fsanitize=fuzzer-no-link,address,undefined $(INC)
define fuzz_width_rules
$(FUZ)/w$(1)/%.o: src/%.c $$(HDEPS) | build/.deps
	@mkdir -p $$(@D)
	$$(OBJCACHE) clang $$(CFLAGS_FUZZ) -DRB_BITS=$(1) -c $$< -o $$@
$(foreach v,$(TRACKER_VARIANTS),
$(FUZ)/w$(1)/variant/$(v)/%.o: $(VARIANT_$(v)_DIR)/%.c $$(HDEPS) | build/.deps
	@mkdir -p $$(@D)
	$$(OBJCACHE) clang $$(CFLAGS_FUZZ) $(VARIANT_$(v)_FLAGS) -DRB_BITS=$(1) -c $$< -o $$@)
endef
$(foreach w,$(WIDTHS),$(eval $(call fuzz_width_rules,$(w))))
$(FUZ)/e40/%.o: src/%.c $(HDEPS) | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang $(CFLAGS_FUZZ) $(ENGINE_SLOT_FLAGS) -c $< -o $@
$(eval $(call slot_link,$(FUZ)))
$(FUZ)/%.o: src/%.c $(HDEPS) | build/.deps
	@mkdir -p $(@D)
	$(OBJCACHE) clang $(CFLAGS_FUZZ) -c $< -o $@
build/fuzz/librangebench.a: $(call objs,$(FUZ))
	@rm -f $@; ar rcs $@ $^
build/fuzz/fuzz_verify: tests/fuzz/fuzz_verify.c tests/fuzz/fuzz_btf.h build/fuzz/librangebench.a $(HEADERS) $(LIBBPF_MK)
	clang $(CSTD) $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined $(INC) -o $@ $< build/fuzz/librangebench.a $(LDLIBS)
build/test/fuzz_verify: tests/fuzz/fuzz_verify.c tests/fuzz/fuzz_btf.h $(TST_PREFAULT) build/test/librangebench.a $(HEADERS) $(LIBBPF_MK)
	$(CC) $(CFLAGS_TEST) -DRB_FUZZ_REPLAY -o $@ $< $(TST_PREFAULT) build/test/librangebench.a $(LDFLAGS_TEST) $(LDLIBS_TEST)
fuzz: build/fuzz/fuzz_verify $(TEST_BPF_OBJS)
	@mkdir -p build/fuzz/corpus build/fuzz/artifacts
	cp $(TEST_BPF_OBJS) tests/fuzz/regress/* build/fuzz/corpus/
	-cp /usr/lib/x86_64-linux-gnu/bpf/*.o build/fuzz/corpus/ 2>/dev/null
	build/fuzz/fuzz_verify -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 -timeout=20 -max_len=262144 \
	  -artifact_prefix=build/fuzz/artifacts/ build/fuzz/corpus

clean:
	rm -rf build
