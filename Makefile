# SPDX-License-Identifier: GPL-2.0
#
# Allocation trampolines workspace. Kernel sources come from Debian's
# linux-source-6.12; everything is built under build/.
#
#   make deps     install what is missing (apt-get)
#   make kernel   prepare the tree, build the guest and prof kernels
#   make run      deps + our kernel, boot it in QEMU with the trampolines
#                 on, end with alloc_report's live view of it: the top
#                 sites by size and by growth (RUN_VARIANT=prof: upstream's)
#   make check    host tests, kernel builds, guest tests: "N passed, N failed"
#   make check-defconfig  x86_64_defconfig, its modules and our suite (not CI)
#   make export   the whole work as a git am series for a 6.12 tree: build/export
#   make shell    boot the guest kernel to an interactive shell
#   make soak     the torture and fuzz tests for 10 minutes, 3000 module
#                 load/unload cycles, on each kernel
#   make bench    the three kernels side by side: BENCHMARKS.md, BENCHMARKS.png
#   make bench-objtool  time of the objtool pass and bytes it adds per site
#   make profile  instructions per op of the benchmark loops, by function

TOP	:= $(CURDIR)
BUILD	:= $(TOP)/build
S	:= $(TOP)/scripts/alloc_tramp
RUN_VARIANT ?= tramp
RUN_ARGS ?= $(if $(filter tramp debug,$(RUN_VARIANT)),alloc_trampolines=on)
PROFILE_VARIANT ?= tramp
PROFILE_STATE ?= on

.PHONY: all deps tree kernel kernel-guest kernel-prof kernel-tramp kernel-debug run check check-defconfig export shell soak \
	bench bench-objtool profile clean distclean

all: kernel

deps:
	@$(S)/deps.sh

tree:
	@$(S)/prepare-tree.sh $(TOP) $(BUILD)

kernel: kernel-guest kernel-prof kernel-tramp

kernel-guest kernel-prof kernel-tramp kernel-debug: kernel-%: tree
	@$(S)/build-kernel.sh $(BUILD) $*

run: deps
	@$(MAKE) --no-print-directory kernel-$(RUN_VARIANT)
	@GUEST_ARGS="$(RUN_ARGS)" $(S)/run-guest-tests.sh $(TOP) $(BUILD) $(RUN_VARIANT) report/show.sh
	@tr -d '\r' < $(BUILD)/logs/$(RUN_VARIANT)/results.log | sed -n 's/^# view: //p'

check:
	@$(S)/check.sh $(TOP) $(BUILD)

export:
	@$(S)/export.sh $(TOP) $(BUILD)/export

check-defconfig: deps tree
	@$(S)/check-defconfig.sh $(TOP) $(BUILD)

shell: kernel-guest
	@$(S)/mkinitramfs.sh $(TOP) $(BUILD)/shell.cpio
	qemu-system-x86_64 -m 1G -smp 2 -nographic -no-reboot \
		-kernel $(BUILD)/obj/guest/arch/x86/boot/bzImage \
		-initrd $(BUILD)/shell.cpio \
		-append "console=ttyS0 panic=-1 alloc_tramp.shell"

# The torture test for 10 minutes and 3000 module load/unload cycles, on
# the tramp and the debug kernels
soak: kernel-tramp kernel-debug
	@for v in tramp debug; do \
		RUN_NAME=soak-$$v GUEST_TIMEOUT=3600 \
		GUEST_ARGS="alloc_tramp.torture_seconds=600 alloc_tramp.fuzz_writes=2000 \
			alloc_tramp.churn_cycles=3000 alloc_tramp.test_timeout=1800" \
		$(S)/run-guest-tests.sh $(TOP) $(BUILD) $$v \
		alloc_tramp/torture.sh alloc_tramp/fuzz.sh alloc_tramp/churn.sh; done

bench: deps tree
	@$(S)/bench.sh $(TOP) $(BUILD)

bench-objtool: kernel-tramp
	@$(S)/bench-objtool.sh $(BUILD)

profile:
	@$(MAKE) --no-print-directory kernel-$(PROFILE_VARIANT)
	@$(S)/profile.sh $(TOP) $(BUILD) $(PROFILE_VARIANT) $(PROFILE_STATE)

clean:
	rm -rf $(BUILD)/obj $(BUILD)/logs $(BUILD)/check

distclean:
	rm -rf $(BUILD)
