# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# openverbs: the one entry point.  `make help` lists the targets.
#
# Everything is built below build/.  The kernels (Documentation/kernels.md):
# kernel/targets lists the Debian series (6.1, 6.12) and flavors, and
# kernel/target-kver finds the installed ones.  KVER is the kernel of the
# one-kernel targets (kernel, check, fuzz, bench, dkms-install): by default
# the newest installed 6.1 amd64.  KVERS are the kernels the test targets
# go through (qemu-test, dkms-test, deb-test): the newest amd64 kernel of
# every series, or only KVER when KVER is given.

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD ?= $(TOP)/build
DEFAULT_KVER := $(shell env -u KVER $(TOP)/kernel/target-kver)
# Every installed kernel of every series and flavor (make kernel-flavors,
# make kabi-check; PREEMPT_RT shows locking mistakes).
ifeq ($(origin KVER),undefined)
KVER := $(DEFAULT_KVER)
KVERS ?= $(shell $(TOP)/kernel/target-kver --all)
ALL_KVERS := $(shell $(TOP)/kernel/target-kver --all every)
else
KVERS ?= $(KVER)
ALL_KVERS := $(KVER)
endif
KDIR ?= /lib/modules/$(KVER)/build
# Where Kbuild puts the objects of KVER: build/kernel for the default
# kernel, build/kernel-KVER for any other (qemu/run and kernel/load pick
# the module by the same rule).
KOBJ ?= $(if $(filter $(DEFAULT_KVER),$(KVER)),$(BUILD)/kernel,$(BUILD)/kernel-$(KVER))
UVERBS ?= ours
# KERNEL=debug: run the guest on the debug kernel (KASAN, lockdep, ...)
# that qemu/build-debug-kernel builds from linux-source-6.1.
KERNEL ?= distro
QEMU_TIMEOUT ?= 3000
# make fuzz: how long the ABI fuzzer runs (seconds) and with which seed
# (empty: a new one, printed); make fuzz-compare: the seeds and commands
# per seed whose results must be the same on both stacks.
FUZZ_SECONDS ?= 1800
FUZZ_SEED ?=
# make fuzz FUZZ_THREADS=N [FUZZ_PROCS=M]: the concurrent mode instead
# (N threads and M forked processes on the same files; invariants only).
FUZZ_THREADS ?=
FUZZ_PROCS ?=
FUZZ_SEEDS ?= 1 2 3 4 5 6 7 8
FUZZ_COUNT ?= 6000
JOBS ?= $(shell nproc)
# CI treats every warning as an error; so do we, always.
KERNEL_W ?= 1
VERSION := $(shell sed -n 's/^\#define OPENVERBS_VERSION[[:space:]]*"\(.*\)"/\1/p' $(TOP)/kernel/uverbs.h)
DKMS_SRC := $(BUILD)/dkms/src/openverbs-$(VERSION)
DKMS_TREES := --dkmstree $(BUILD)/dkms/tree --sourcetree $(BUILD)/dkms/src

.PHONY: all help setup ensure-setup kernel userspace selftests uapi-check \
	unit-test kabi-check kabi-check-one qemu-test qemu-test-one interop node-faults fuzz fuzz-compare test demo \
	check check-sparse clean bench bench-programs kernel-flavors debug-kernel dkms-source dkms-build \
	dkms-test deb deb-lint deb-test dkms-install dkms-remove kernels siw

# $(call each-kver,KERNELS,COMMAND): runs the shell COMMAND once per kernel
# of KERNELS with $$kv set to it, going on after a failure; prints one
# result line per kernel and fails if any failed (or there is none).  Each
# kernel's output is also kept in build/logs/TARGET.KERNEL.log, and for a
# kernel that failed its failure lines are repeated at the end, where a CI
# log's tail shows them (a two-node run's lines carry the node's "A| " or
# "B| " prefix).
FAILURE_LINES := ^([AB]\| )?[[:space:]]*not ok |^([AB]\| )?[[:space:]]*\# FAIL|^([AB]\| )?(interop|faults) [0-9].* FAIL |qemu/run: (job exit [1-9]|TIMEOUT|the guest)|unexpected warning|FAILED|Error [0-9]
each-kver = status=0; results=; failed=; mkdir -p $(BUILD)/logs; \
	[ -n "$(strip $(1))" ] || { echo "$@: no target kernel installed: run 'make setup'" >&2; exit 1; }; \
	for kv in $(1); do \
		echo "$@: ---- $$kv"; \
		if ( $(2) ) 2>&1 | tee $(BUILD)/logs/$@.$$kv.log; [ "$${PIPESTATUS[0]}" = 0 ]; then \
			r=ok; else r=FAILED; status=1; failed="$$failed $$kv"; fi; \
		results="$${results}$@: $$kv: $$r\n"; \
	done; \
	for kv in $$failed; do \
		echo "$@: $$kv: the failure lines of $(BUILD)/logs/$@.$$kv.log:"; \
		grep -E '$(FAILURE_LINES)' $(BUILD)/logs/$@.$$kv.log | grep -v -E '\# (TODO|SKIP)' | tail -n 40; \
	done; \
	printf '%b' "$$results"; exit $$status

all: kernel userspace selftests

help:
	@echo "make demo        set up, build, boot QEMU with our ib_uverbs + Soft-RoCE, run real RDMA"
	@echo "make test        set up, build, unit tests, kABI check, selftests in QEMU (the gate)"
	@echo "make setup       install the Debian packages the project needs (root)"
	@echo "make             build kernel module, userspace library and selftests into build/"
	@echo "make qemu-test   selftests in QEMU on every target kernel (UVERBS=ours|intree, KVER=one)"
	@echo "                 and a two-node smoke test (ours <-> in-tree over a link)"
	@echo "make interop     two guests, every stack and library pair: the matrix in compatibility.md"
	@echo "make node-faults two guests: link down, killed peer, netem loss/reorder (rxe, siw)"
	@echo "make kernels     list the target kernels found (KVER, KVERS, every flavor)"
	@echo "make kernel-flavors  compile for every installed target kernel and flavor"
	@echo "make qemu-test KERNEL=debug  the same on a KASAN/lockdep kernel built here (long)"
	@echo "make siw         the test-only Soft-iWARP module for every kernel of KVERS (build/siw/KVER/siw.ko)"
	@echo "make fuzz        the ABI fuzzer in QEMU for FUZZ_SECONDS (KERNEL=debug, UVERBS=, FUZZ_SEED=)"
	@echo "                 FUZZ_THREADS=N FUZZ_PROCS=M: concurrent mode, N threads + M processes on shared files"
	@echo "make fuzz-compare  the fuzzer's results for FUZZ_SEEDS on both stacks, compared"
	@echo "make kabi-check  exported symbol CRCs vs each installed kernel's Module.symvers (every flavor)"
	@echo "make check       checkpatch + sparse on the kernel module (every series of KVERS), checkpatch on the test modules"
	@echo "make dkms-install  install ib_uverbs on this machine with dkms (root)"
	@echo "make dkms-test   dkms build here, dkms install + modprobe rdma_rxe in QEMU"
	@echo "make deb         Debian packages into build/deb (openverbs-dkms, libopenverbs, -tools, -dev)"
	@echo "make deb-lint    lintian over the packages: any error, warning or info tag fails"
	@echo "make deb-test    install the packages with apt in QEMU, ping-pong, remove, check clean removal"
	@echo "make bench       ours vs in-tree ib_uverbs and rdma-core in one guest boot (Documentation/performance.md)"
	@echo "variables: KVER=$(KVER) KVERS=\"$(KVERS)\" KDIR=$(KDIR) KOBJ=$(KOBJ) UVERBS=$(UVERBS)"

kernels:
	@echo "KVER (default for one-kernel targets): $(KVER)"
	@echo "KVERS (qemu-test, dkms-test, deb-test): $(KVERS)"
	@echo "every flavor (kernel-flavors, kabi-check): $(ALL_KVERS)"

# ---------------------------------------------------------------- setup
setup:
	@$(TOP)/qemu/setup-host --install

# Installs only when something is missing; a no-op on a ready machine.
ensure-setup:
	@$(TOP)/qemu/setup-host --check >/dev/null || $(TOP)/qemu/setup-host --install

# ---------------------------------------------------------------- build
# Kbuild builds in a directory of links to kernel/, so that objects land in
# build/kernel (build/kernel-KVER) and the source tree stays clean.
kernel:
	@test -n "$(KVER)" || { echo "no target kernel's headers found (kernel/target-kver): run 'make setup'" >&2; exit 1; }
	@mkdir -p $(KOBJ)
	@find $(KOBJ) -maxdepth 1 -xtype l -delete
	@for f in $(TOP)/kernel/Kbuild $(TOP)/kernel/*.[ch]; do \
		ln -sfn $$f $(KOBJ)/$$(basename $$f); done
	$(MAKE) -C $(KDIR) M=$(KOBJ) OVB_UAPI=$(TOP)/uapi OVB_WERROR=y W=$(KERNEL_W) modules

# Compile (warnings are errors) for every installed kernel and flavor
# (KVER=: that one only).
kernel-flavors:
	@$(call each-kver,$(ALL_KVERS),$(MAKE) --no-print-directory kernel KVER=$$kv)

userspace:
	cmake -S $(TOP)/userspace -B $(BUILD)/userspace -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DOPENVERBS_WERROR=ON >/dev/null
	cmake --build $(BUILD)/userspace -j $(JOBS)

# The guest suite: the kselftests plus the library's data-path test
# (unmodified rdma-core tools and perftest on our libibverbs + provider).
# The programs are the same for every kernel; the suite's kernel modules
# are built for KVER: beside the programs for the default kernel, in
# build/selftests/modules/KVER/ for another (the programs look there
# first for the kernel they run on).
selftests:
	$(MAKE) -C $(TOP)/selftests O=$(BUILD)/selftests KDIR=$(KDIR) \
		MODULES_KVER=$(if $(filter-out $(DEFAULT_KVER),$(KVER)),$(KVER)) \
		EXTERNAL_TESTS="$(TOP)/userspace/tests/guest/data-path $(TOP)/userspace/tests/guest/rdma-ops $(TOP)/userspace/tests/guest/ovbtest-provider $(TOP)/userspace/tests/guest/ovbtest-hotplug $(TOP)/userspace/tests/guest/rdmacore-provider $(TOP)/userspace/tests/guest/rdmacore-pytests $(TOP)/userspace/tests/guest/rdmacore-parity $(TOP)/userspace/tests/guest/wr-verbs" \
		EXTERNAL_SIW_TESTS="$(TOP)/userspace/tests/guest/siw-provider $(TOP)/userspace/tests/guest/wr-verbs"

# ---------------------------------------------------------------- tests
uapi-check:
	$(MAKE) -C $(TOP)/uapi check O=$(BUILD)/uapi

unit-test: userspace uapi-check
	cd $(BUILD)/userspace && ctest --output-on-failure

# Every installed kernel and flavor (KVER=: that one only): ours against
# that kernel's in-tree ib_uverbs.
kabi-check:
	@$(call each-kver,$(ALL_KVERS),$(MAKE) --no-print-directory kabi-check-one KVER=$$kv)

kabi-check-one:
	@$(MAKE) --no-print-directory kernel || { echo "kabi-check: $(KVER): our module does not build for it" >&2; exit 1; }
	$(TOP)/kernel/kabi-check $(KOBJ)/Module.symvers $(KDIR)/Module.symvers

# Debian boots with init_on_alloc=1, which hides a missing zeroing: the
# programs whose responses carry bytes the kernel or a driver filled run a
# second time on a boot with init_on_alloc=0.
ZERO_TESTS := uverbs_write_abi uverbs_ioctl uverbs_ovbtest uverbs_ovbtest_verbs uverbs_ovbtest_rereg uverbs_ovbtest_methods

# Every kernel of KVERS in turn (each with its own in-tree module as the
# oracle: UVERBS=intree); KERNEL=debug: the debug kernel only.
ifeq ($(KERNEL),debug)
qemu-test: qemu-test-one
else
qemu-test:
	@$(call each-kver,$(KVERS),$(MAKE) --no-print-directory qemu-test-one KVER=$$kv)
endif

# The tests that need a guest IOMMU (qemu/run --iommu: QEMU's edu PCI
# device behind an Intel IOMMU): one short boot per kernel (about 30 s).
IOMMU_TESTS := uverbs_ovbtest_iommu

# One kernel (KVER).  The in-tree stack needs no module of ours, but
# rdma_core_programs swaps to it when it is built.  The iWARP programs
# (tests-siw.list) get a third boot, on Soft-iWARP (make siw); not on the
# debug kernel (no siw.ko is built for it), nor is the fourth, a boot
# with an IOMMU (IOMMU_TESTS).  Then two guests over a link:
# the cross-node smoke test, and the short form of the faults between
# nodes (not on the debug kernel either: it has no sch_netem).
qemu-test-one: userspace selftests $(if $(filter debug,$(KERNEL)),,siw)
ifeq ($(KERNEL),debug)
	$(MAKE) kernel
	$(MAKE) debug-kernel
else
	$(MAKE) --no-print-directory kernel || \
		{ [ "$(UVERBS)" = intree ] && echo "qemu-test: our module does not build for $(KVER); the in-tree run goes on"; }
endif
	$(TOP)/qemu/run --kernel=$(KERNEL) --kver=$(KVER) --uverbs=$(UVERBS) --hca=rxe --timeout $(QEMU_TIMEOUT) -- \
		$(TOP)/selftests/run_tests --build $(BUILD)/selftests
	$(TOP)/qemu/run --kernel=$(KERNEL) --kver=$(KVER) --uverbs=$(UVERBS) --hca=rxe --timeout $(QEMU_TIMEOUT) \
		--append=init_on_alloc=0 -- \
		$(TOP)/selftests/run_tests --build $(BUILD)/selftests $(ZERO_TESTS)
ifneq ($(KERNEL),debug)
	$(TOP)/qemu/run --kver=$(KVER) --uverbs=$(UVERBS) --hca=siw --timeout $(QEMU_TIMEOUT) -- \
		$(TOP)/selftests/run_tests --build $(BUILD)/selftests $$(cat $(BUILD)/selftests/tests-siw.list)
	$(TOP)/qemu/run --iommu --kver=$(KVER) --uverbs=$(UVERBS) --hca=none --timeout 600 -- \
		$(TOP)/selftests/run_tests --build $(BUILD)/selftests $(IOMMU_TESTS)
endif
	$(TOP)/qemu/interop --smoke --kernel=$(KERNEL) --kver=$(KVER) --hca=rxe --timeout=600
ifneq ($(KERNEL),debug)
	$(TOP)/qemu/node-faults --short --kver=$(KVER) --hca=rxe --timeout=600
endif

# Two guests over a link (qemu/nodes): every stack pair, library pair and
# cross-node test; the table goes into Documentation/compatibility.md.
interop: kernel userspace siw
	$(TOP)/qemu/interop --write-doc --kver=$(KVER) --hca=rxe --timeout=1500
	$(TOP)/qemu/interop --write-doc --kver=$(KVER) --hca=siw --timeout=1500

# Faults between the two nodes (netem loss and reordering, a SIGKILLed
# peer, a link down), rxe then siw: 1-4 min per stack pair; make
# qemu-test runs its short form (Documentation/testing.md, "Faults between
# nodes").
node-faults: kernel userspace selftests siw
	$(TOP)/qemu/node-faults --kver=$(KVER) --hca=rxe --timeout=600
	$(TOP)/qemu/node-faults --kver=$(KVER) --hca=siw --timeout=600

# The long fuzzer run (the suite runs it for 20 s); a splat fails it.
fuzz: kernel selftests
ifeq ($(KERNEL),debug)
	$(MAKE) debug-kernel
endif
	$(TOP)/qemu/run --kernel=$(KERNEL) --kver=$(KVER) --uverbs=$(UVERBS) --hca=rxe \
		--timeout $$(( $(FUZZ_SECONDS) + 600 )) -- \
		$(BUILD)/selftests/uverbs_fuzz --seconds $(FUZZ_SECONDS) \
		$(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) \
		$(if $(FUZZ_THREADS),--threads $(FUZZ_THREADS)) \
		$(if $(FUZZ_PROCS),--procs $(FUZZ_PROCS))

# Differential: every command's result must be the in-tree module's.
fuzz-compare: kernel selftests
	$(TOP)/selftests/fuzz/compare-stacks --build $(BUILD) \
		--count $(FUZZ_COUNT) $(FUZZ_SEEDS)

# Each part prints how long it took (Documentation/status.md keeps them).
timed = t0=$$(date +%s); $(1); st=$$?; \
	echo "make test: '$(strip $(1))' $$(( $$(date +%s) - t0 )) s, exit $$st"; exit $$st

test: ensure-setup
	@$(call timed,$(MAKE) all)
	@$(call timed,$(MAKE) kernel-flavors)
	@$(call timed,$(MAKE) unit-test)
	@$(call timed,$(MAKE) deb-lint)
	@$(call timed,$(MAKE) kabi-check)
	@$(call timed,$(MAKE) qemu-test)
	@$(call timed,$(MAKE) dkms-test)
	@$(call timed,$(MAKE) deb-test DEB_TEST_BUILD=host)

demo: ensure-setup
	$(MAKE) kernel userspace
	$(TOP)/qemu/run --kver=$(KVER) --uverbs=ours --hca=rxe --timeout 600 -- $(TOP)/qemu/demo-guest

# checkpatch once; sparse against every kernel series of KVERS (the compat
# layer compiles different code for each).
check:
	$(TOP)/kernel/check-style $(TOP)/kernel
	$(TOP)/kernel/check-style $(TOP)/selftests/ovbtest LINUX_VERSION_CODE,CONSTANT_COMPARISON
	$(TOP)/kernel/check-style $(TOP)/selftests/odp
	@$(call each-kver,$(KVERS),$(MAKE) --no-print-directory check-sparse KVER=$$kv)

check-sparse: kernel
	$(MAKE) -C $(KDIR) M=$(KOBJ) OVB_UAPI=$(TOP)/uapi C=2 W=$(KERNEL_W) modules

# Soft-iWARP (siw.ko) for every kernel of KVERS, from that series'
# linux-source against its headers, for qemu/run --hca=siw: test-only,
# never installed, rebuilt only when its inputs change (qemu/build-siw).
siw:
	@test -n "$(strip $(KVERS))" || { echo "siw: no target kernel installed: run 'make setup'" >&2; exit 1; }
	$(TOP)/qemu/build-siw $(BUILD) $(KVERS)

# The debug kernel and our module built against it (build/kernel-debug).
debug-kernel:
	$(TOP)/qemu/build-debug-kernel $(BUILD)
	$(MAKE) kernel KVER=$$(cat $(BUILD)/debug-kernel/release) \
		KDIR=$(BUILD)/debug-kernel/obj KOBJ=$(BUILD)/kernel-debug
	$(MAKE) -C $(TOP)/selftests O=$(BUILD)/selftests odp-module \
		KDIR=$(BUILD)/debug-kernel/obj \
		MODULES_KVER=$$(cat $(BUILD)/debug-kernel/release)

# ---------------------------------------------------------------- bench
# One guest boot of KVER, both ib_uverbs modules loaded in turn
# (bench/guest); the raw results are copied to build/bench/KVER/raw, the
# table and results.json land in build/bench/KVER/, and KVER's series'
# section of Documentation/performance.md (+ performance-SERIES.png) is
# rewritten.  The nodes section (BENCH_SECTIONS) boots two guests more
# (bench/nodes): perftest across a link, both nodes on the same stack.
# See Documentation/performance.md.
BENCH_ROUNDS ?= 4
BENCH_CONTROL_ROUNDS ?= 6
BENCH_REPS ?= 3
BENCH_MIN_TIME ?= 0.2
BENCH_UCOST_ITERS ?= 300
BENCH_SECTIONS ?= limits control datapath ucost cxxcost umem load nodes
BENCH_LOAD_ROUNDS ?= 2
BENCH_LOAD_SECONDS ?= 1
BENCH_NODES_ROUNDS ?= 2
BENCH_TIMEOUT ?= 3600
# Debian's python3 (python3-matplotlib draws the chart), not one from PATH.
BENCH_PYTHON ?= /usr/bin/python3
BENCH_OUT ?= $(BUILD)/bench/$(KVER)

bench-programs:
	cmake -S $(TOP)/bench -B $(BUILD)/bench/bin -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD)/bench/bin -j $(JOBS)

bench: kernel userspace bench-programs siw
	@rm -rf $(BENCH_OUT)/raw; mkdir -p $(BENCH_OUT)
	@status=0; \
	$(TOP)/qemu/run --kver=$(KVER) --uverbs=none --mem=3072 --timeout $(BENCH_TIMEOUT) -- \
		env BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_CONTROL_ROUNDS=$(BENCH_CONTROL_ROUNDS) \
		BENCH_REPS=$(BENCH_REPS) BENCH_MIN_TIME=$(BENCH_MIN_TIME) BENCH_UCOST_ITERS=$(BENCH_UCOST_ITERS) \
		BENCH_LOAD_ROUNDS=$(BENCH_LOAD_ROUNDS) BENCH_LOAD_SECONDS=$(BENCH_LOAD_SECONDS) BENCH_SECTIONS="$(BENCH_SECTIONS)" $(TOP)/bench/guest \
		2> >(tee $(BENCH_OUT)/qemu-run.log >&2) || status=$$?; \
	run=$$(sed -n 's|.*, log \(.*\)/console.log$$|\1|p' $(BENCH_OUT)/qemu-run.log); \
	cp -r $$run/share/bench $(BENCH_OUT)/raw || exit 1; \
	if [[ " $(BENCH_SECTIONS) " == *" nodes "* ]]; then \
		BENCH_NODES_ROUNDS=$(BENCH_NODES_ROUNDS) $(TOP)/bench/nodes $(BENCH_OUT)/raw \
			--kver=$(KVER) --timeout=$(BENCH_TIMEOUT) || status=$$?; \
	fi; \
	BENCH_DATE="$$(date -u '+%Y-%m-%d %H:%M UTC')" \
	BENCH_COMMIT="$$(git -C $(TOP) describe --always --dirty 2>/dev/null)" \
		$(BENCH_PYTHON) $(TOP)/bench/report $(BENCH_OUT)/raw $(BENCH_OUT) \
		--doc $(TOP)/Documentation || exit 1; \
	exit $$status

# ---------------------------------------------------------------- dkms
# The source tree dkms wants: dkms.conf, Kbuild, its compat-probe (run by
# Kbuild for the kernel being built) and sources, uapi/.
dkms-source:
	@test -n "$(VERSION)" || { echo "no OPENVERBS_VERSION in kernel/uverbs.h" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/uapi
	cp $(TOP)/kernel/Kbuild $(TOP)/kernel/compat-probe $(DKMS_SRC)/
	cp $(filter-out %/compat-config.h,$(wildcard $(TOP)/kernel/*.[ch])) $(DKMS_SRC)/
	cp -r $(TOP)/uapi/openverbs $(DKMS_SRC)/uapi/
	@# BUILD_EXCLUSIVE_KERNEL: the releases of kernel/targets' series.
	re=$$($(TOP)/kernel/target-kver --release-regex | sed 's/[\\&|]/\\&/g'); \
	sed -e 's/@VERSION@/$(VERSION)/' -e "s|@KERNELS@|$$re|" $(TOP)/kernel/dkms.conf >$(DKMS_SRC)/dkms.conf

# dkms add, then dkms build for every kernel of KVERS, in a private tree
# under build/ (the machine's dkms state is untouched); dkms-test installs
# from it inside a guest of each kernel.
dkms-build: dkms-source
	rm -rf $(BUILD)/dkms/tree
	mkdir -p $(BUILD)/dkms/tree
	dkms add $(DKMS_TREES) -m openverbs -v $(VERSION)
	@$(call each-kver,$(KVERS),dkms build $(DKMS_TREES) -m openverbs -v $(VERSION) -k $$kv)

dkms-test: dkms-build
	@$(call each-kver,$(KVERS),$(TOP)/qemu/run --kver=$$kv --uverbs=none --timeout $(QEMU_TIMEOUT) -- \
		$(TOP)/qemu/dkms-guest $(BUILD)/dkms $(VERSION) $$kv)

# On a node: the real thing, in /usr/src and dkms' own tree, plus the
# modprobe.d softdep and the udev rule (packaging/, Documentation/install.md).
MODPROBE_D ?= /etc/modprobe.d
UDEV_RULES_D ?= /etc/udev/rules.d
NODE_FILES := $(MODPROBE_D)/openverbs.conf $(UDEV_RULES_D)/60-openverbs.rules

dkms-install: dkms-source
	cp -r $(DKMS_SRC) /usr/src/
	dkms add -m openverbs -v $(VERSION)
	dkms install -m openverbs -v $(VERSION) -k $(KVER)
	install -D -m 644 $(TOP)/packaging/modprobe.d/openverbs.conf $(MODPROBE_D)/openverbs.conf
	install -D -m 644 $(TOP)/packaging/udev/60-openverbs.rules $(UDEV_RULES_D)/60-openverbs.rules
	-udevadm control --reload 2>/dev/null && udevadm trigger --subsystem-match=infiniband_verbs 2>/dev/null

dkms-remove:
	dkms remove -m openverbs -v $(VERSION) --all
	rm -f $(NODE_FILES)
	rm -rf /usr/src/openverbs-$(VERSION)

# ---------------------------------------------------------------- packages
# dpkg-deb, no debhelper (packaging/deb/build-debs, Documentation/install.md).
deb: dkms-source
	$(TOP)/packaging/deb/build-debs $(TOP) $(BUILD)/deb $(DKMS_SRC)

# DEB_TEST_BUILD=guest (default): the package's postinst builds the module
# with dkms inside the guest, as on a node; under TCG that alone takes many
# minutes, hence its own timeout.  DEB_TEST_BUILD=host (make test): the
# module make dkms-build built is put in place first and the postinst only
# installs it.
DEB_TEST_BUILD ?= guest
DEB_TEST_TIMEOUT ?= 2700
# Lintian as Debian's archive would run it; packaging/deb/lintian-overrides
# lists the tags that do not apply and why.
deb-lint: deb
	lintian --fail-on error,warning,info --tag-display-limit 0 $(BUILD)/deb/*.deb

# One set of packages, installed in a guest of each kernel of KVERS.
deb-test: deb-lint $(if $(filter host,$(DEB_TEST_BUILD)),dkms-build)
	@$(call each-kver,$(KVERS),$(TOP)/qemu/run --kver=$$kv --uverbs=none --timeout $(DEB_TEST_TIMEOUT) -- \
		$(TOP)/qemu/deb-guest $(BUILD)/deb $(VERSION) $$kv \
		$(if $(filter host,$(DEB_TEST_BUILD)),$(BUILD)/dkms/tree))

clean:
	rm -rf $(BUILD)
