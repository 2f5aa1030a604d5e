# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# openverbs: the one entry point.  `make help` lists the targets.
#
# Everything is built below build/.  The kernel target is the newest
# installed Debian 6.1 amd64 kernel (override with KVER= or KDIR=).

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD ?= $(TOP)/build
KVER ?= $(shell $(TOP)/kernel/target-kver)
KDIR ?= /lib/modules/$(KVER)/build
# Where Kbuild puts the objects of this KVER (another flavor: its own dir).
KOBJ ?= $(BUILD)/kernel
# The other Debian 6.1 flavors we must compile on (PREEMPT_RT shows locking
# mistakes); make setup installs their headers.
FLAVORS := cloud-amd64 rt-amd64
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
	unit-test kabi-check qemu-test fuzz fuzz-compare test demo check clean bench bench-programs \
	kernel-flavors debug-kernel dkms-source dkms-build dkms-test dkms-install dkms-remove \
	deb deb-lint deb-test

all: kernel userspace selftests

help:
	@echo "make demo        set up, build, boot QEMU with our ib_uverbs + Soft-RoCE, run real RDMA"
	@echo "make test        set up, build, unit tests, kABI check, selftests in QEMU (the gate)"
	@echo "make setup       install the Debian packages the project needs (root)"
	@echo "make             build kernel module, userspace library and selftests into build/"
	@echo "make qemu-test   selftests in QEMU (UVERBS=ours|intree)"
	@echo "make kernel-flavors  compile for the cloud-amd64 and rt-amd64 headers too"
	@echo "make qemu-test KERNEL=debug  the same on a KASAN/lockdep kernel built here (long)"
	@echo "make fuzz        the ABI fuzzer in QEMU for FUZZ_SECONDS (KERNEL=debug, UVERBS=, FUZZ_SEED=)"
	@echo "                 FUZZ_THREADS=N FUZZ_PROCS=M: concurrent mode, N threads + M processes on shared files"
	@echo "make fuzz-compare  the fuzzer's results for FUZZ_SEEDS on both stacks, compared"
	@echo "make kabi-check  compare exported symbol CRCs with the kernel's Module.symvers"
	@echo "make check       checkpatch + sparse on the kernel module"
	@echo "make dkms-install  install ib_uverbs on this machine with dkms (root)"
	@echo "make dkms-test   dkms build here, dkms install + modprobe rdma_rxe in QEMU"
	@echo "make deb         Debian packages into build/deb (openverbs-dkms, libopenverbs, -tools, -dev)"
	@echo "make deb-lint    lintian over the packages: any error, warning or info tag fails"
	@echo "make deb-test    install the packages with apt in QEMU, ping-pong, remove, check clean removal"
	@echo "make bench       ours vs in-tree ib_uverbs and rdma-core in one guest boot (Documentation/performance.md)"
	@echo "variables: KVER=$(KVER) KDIR=$(KDIR) UVERBS=$(UVERBS)"

# ---------------------------------------------------------------- setup
setup:
	@$(TOP)/qemu/setup-host --install

# Installs only when something is missing; a no-op on a ready machine.
ensure-setup:
	@$(TOP)/qemu/setup-host --check >/dev/null || $(TOP)/qemu/setup-host --install

# ---------------------------------------------------------------- build
# Kbuild builds in a directory of links to kernel/, so that objects land in
# build/kernel and the source tree stays clean.
kernel:
	@test -n "$(KVER)" || { echo "no 6.1.0-*-amd64 kernel headers found: run 'make setup'" >&2; exit 1; }
	@mkdir -p $(KOBJ)
	@find $(KOBJ) -maxdepth 1 -xtype l -delete
	@for f in $(TOP)/kernel/Kbuild $(TOP)/kernel/*.[ch]; do \
		ln -sfn $$f $(KOBJ)/$$(basename $$f); done
	$(MAKE) -C $(KDIR) M=$(KOBJ) OVB_UAPI=$(TOP)/uapi OVB_WERROR=y W=$(KERNEL_W) modules

# Compile (warnings are errors) for every other flavor's headers.
kernel-flavors:
	@for f in $(FLAVORS); do \
		kv=$$($(TOP)/kernel/target-kver $$f); \
		test -n "$$kv" || { echo "no linux-headers-6.1.0-*-$$f: run 'make setup'" >&2; exit 1; }; \
		$(MAKE) --no-print-directory kernel KVER=$$kv KDIR=/lib/modules/$$kv/build \
			KOBJ=$(BUILD)/kernel-$$f || exit 1; \
		$(TOP)/kernel/kabi-check $(BUILD)/kernel-$$f/Module.symvers \
			/lib/modules/$$kv/build/Module.symvers || exit 1; \
	done

userspace:
	cmake -S $(TOP)/userspace -B $(BUILD)/userspace -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DOPENVERBS_WERROR=ON >/dev/null
	cmake --build $(BUILD)/userspace -j $(JOBS)

# The guest suite: the kselftests plus the library's data-path test
# (unmodified rdma-core tools and perftest on our libibverbs + provider).
selftests:
	$(MAKE) -C $(TOP)/selftests O=$(BUILD)/selftests KDIR=$(KDIR) \
		EXTERNAL_TESTS="$(TOP)/userspace/tests/guest/data-path $(TOP)/userspace/tests/guest/ovbtest-provider"

# ---------------------------------------------------------------- tests
uapi-check:
	$(MAKE) -C $(TOP)/uapi check O=$(BUILD)/uapi

unit-test: userspace uapi-check
	cd $(BUILD)/userspace && ctest --output-on-failure

kabi-check: kernel
	$(TOP)/kernel/kabi-check $(BUILD)/kernel/Module.symvers $(KDIR)/Module.symvers

# Debian boots with init_on_alloc=1, which hides a missing zeroing: the
# programs whose responses carry bytes the kernel or a driver filled run a
# second time on a boot with init_on_alloc=0.
ZERO_TESTS := uverbs_write_abi uverbs_ioctl uverbs_ovbtest uverbs_ovbtest_verbs uverbs_ovbtest_methods

qemu-test: kernel userspace selftests
ifeq ($(KERNEL),debug)
	$(MAKE) debug-kernel
endif
	$(TOP)/qemu/run --kernel=$(KERNEL) --uverbs=$(UVERBS) --hca=rxe --timeout $(QEMU_TIMEOUT) -- \
		$(TOP)/selftests/run_tests --build $(BUILD)/selftests
	$(TOP)/qemu/run --kernel=$(KERNEL) --uverbs=$(UVERBS) --hca=rxe --timeout $(QEMU_TIMEOUT) \
		--append=init_on_alloc=0 -- \
		$(TOP)/selftests/run_tests --build $(BUILD)/selftests $(ZERO_TESTS)

# The long fuzzer run (the suite runs it for 20 s); a splat fails it.
fuzz: kernel selftests
ifeq ($(KERNEL),debug)
	$(MAKE) debug-kernel
endif
	$(TOP)/qemu/run --kernel=$(KERNEL) --uverbs=$(UVERBS) --hca=rxe \
		--timeout $$(( $(FUZZ_SECONDS) + 600 )) -- \
		$(BUILD)/selftests/uverbs_fuzz --seconds $(FUZZ_SECONDS) \
		$(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) \
		$(if $(FUZZ_THREADS),--threads $(FUZZ_THREADS)) \
		$(if $(FUZZ_PROCS),--procs $(FUZZ_PROCS))

# Differential: every command's result must be the in-tree module's.
fuzz-compare: kernel selftests
	$(TOP)/selftests/fuzz/compare-stacks --build $(BUILD) \
		--count $(FUZZ_COUNT) $(FUZZ_SEEDS)

test: ensure-setup
	$(MAKE) all
	$(MAKE) kernel-flavors
	$(MAKE) unit-test
	$(MAKE) kabi-check
	$(MAKE) qemu-test
	$(MAKE) dkms-test
	$(MAKE) deb-test DEB_TEST_BUILD=host

demo: ensure-setup
	$(MAKE) kernel userspace
	$(TOP)/qemu/run --uverbs=ours --hca=rxe --timeout 600 -- $(TOP)/qemu/demo-guest

check: kernel
	$(TOP)/kernel/check-style $(TOP)/kernel
	$(MAKE) -C $(KDIR) M=$(BUILD)/kernel OVB_UAPI=$(TOP)/uapi C=2 W=$(KERNEL_W) modules

# The debug kernel and our module built against it (build/kernel-debug).
debug-kernel:
	$(TOP)/qemu/build-debug-kernel $(BUILD)
	$(MAKE) kernel KVER=$$(cat $(BUILD)/debug-kernel/release) \
		KDIR=$(BUILD)/debug-kernel/obj KOBJ=$(BUILD)/kernel-debug
	$(MAKE) -C $(TOP)/selftests O=$(BUILD)/selftests odp-module \
		KDIR=$(BUILD)/debug-kernel/obj \
		ODP_KVER=$$(cat $(BUILD)/debug-kernel/release)

# ---------------------------------------------------------------- bench
# One guest boot, both ib_uverbs modules loaded in turn (bench/guest); the
# raw results are copied to build/bench/raw, the table and results.json
# land in build/bench/, and Documentation/performance.md (+ .png) is
# rewritten.  See Documentation/performance.md.
BENCH_ROUNDS ?= 4
BENCH_CONTROL_ROUNDS ?= 6
BENCH_REPS ?= 3
BENCH_MIN_TIME ?= 0.2
BENCH_UCOST_ITERS ?= 300
BENCH_SECTIONS ?= limits control datapath ucost umem load
BENCH_LOAD_ROUNDS ?= 2
BENCH_LOAD_SECONDS ?= 1
BENCH_TIMEOUT ?= 3600
# Debian's python3 (python3-matplotlib draws the chart), not one from PATH.
BENCH_PYTHON ?= /usr/bin/python3

bench-programs:
	cmake -S $(TOP)/bench -B $(BUILD)/bench/bin -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD)/bench/bin -j $(JOBS)

bench: kernel userspace bench-programs
	@rm -rf $(BUILD)/bench/raw
	@status=0; \
	$(TOP)/qemu/run --uverbs=none --mem=3072 --timeout $(BENCH_TIMEOUT) -- \
		env BENCH_ROUNDS=$(BENCH_ROUNDS) BENCH_CONTROL_ROUNDS=$(BENCH_CONTROL_ROUNDS) \
		BENCH_REPS=$(BENCH_REPS) BENCH_MIN_TIME=$(BENCH_MIN_TIME) BENCH_UCOST_ITERS=$(BENCH_UCOST_ITERS) \
		BENCH_LOAD_ROUNDS=$(BENCH_LOAD_ROUNDS) BENCH_LOAD_SECONDS=$(BENCH_LOAD_SECONDS) BENCH_SECTIONS="$(BENCH_SECTIONS)" $(TOP)/bench/guest \
		2> >(tee $(BUILD)/bench/qemu-run.log >&2) || status=$$?; \
	run=$$(sed -n 's|.*, log \(.*\)/console.log$$|\1|p' $(BUILD)/bench/qemu-run.log); \
	cp -r $$run/share/bench $(BUILD)/bench/raw || exit 1; \
	BENCH_DATE="$$(date -u '+%Y-%m-%d %H:%M UTC')" \
	BENCH_COMMIT="$$(git -C $(TOP) describe --always --dirty 2>/dev/null)" \
		$(BENCH_PYTHON) $(TOP)/bench/report $(BUILD)/bench/raw $(BUILD)/bench \
		--doc $(TOP)/Documentation || exit 1; \
	exit $$status

# ---------------------------------------------------------------- dkms
# The source tree dkms wants: dkms.conf, Kbuild and sources, uapi/.
dkms-source:
	@test -n "$(VERSION)" || { echo "no OPENVERBS_VERSION in kernel/uverbs.h" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/uapi
	cp $(TOP)/kernel/Kbuild $(TOP)/kernel/compat-probe $(DKMS_SRC)/
	cp $(filter-out %/compat-config.h,$(wildcard $(TOP)/kernel/*.[ch])) $(DKMS_SRC)/
	cp -r $(TOP)/uapi/openverbs $(DKMS_SRC)/uapi/
	sed 's/@VERSION@/$(VERSION)/' $(TOP)/kernel/dkms.conf >$(DKMS_SRC)/dkms.conf

# dkms add + build in a private tree under build/ (the machine's dkms state
# is untouched); dkms-test installs from it inside the guest.
dkms-build: dkms-source
	rm -rf $(BUILD)/dkms/tree
	mkdir -p $(BUILD)/dkms/tree
	dkms add $(DKMS_TREES) -m openverbs -v $(VERSION)
	dkms build $(DKMS_TREES) -m openverbs -v $(VERSION) -k $(KVER)

dkms-test: dkms-build
	$(TOP)/qemu/run --uverbs=none --timeout $(QEMU_TIMEOUT) -- \
		$(TOP)/qemu/dkms-guest $(BUILD)/dkms $(VERSION) $(KVER)

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

deb-test: deb-lint $(if $(filter host,$(DEB_TEST_BUILD)),dkms-build)
	$(TOP)/qemu/run --uverbs=none --timeout $(DEB_TEST_TIMEOUT) -- \
		$(TOP)/qemu/deb-guest $(BUILD)/deb $(VERSION) $(KVER) \
		$(if $(filter host,$(DEB_TEST_BUILD)),$(BUILD)/dkms/tree)

clean:
	rm -rf $(BUILD)
