#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# rdma-core 44's own Python test suite, unmodified (Debian's python3-pyverbs:
# pyverbs on rdma-core's libibverbs, and the unittest modules of
# /usr/share/doc/rdma-core/tests, which the selftests build unpacks next to
# this script as rdma-core-tests/), over the device qemu/run's --hca made
# (rxe0, or siw0 in the Soft-iWARP boot) on whichever ib_uverbs qemu/run
# loaded: one TAP line per test case, a skip with the suite's own reason.  In the same boot the same cases then run on the other ib_uverbs
# (in-tree when ours runs, ours when the in-tree one runs), which must give
# every case the same verdict (pass, fail, skip) with the same reason; a
# case failing the same way on both is a TAP TODO (the suite's or the
# kernel's, not ib_uverbs').  Nothing may stay allocated on the device.
# The stack is put back as it was before the script exits.  TAP 13.
#
#   qemu/run --uverbs=ours --hca=rxe -- build/selftests/rdma_core_pytests
#   qemu/run --uverbs=ours --hca=siw -- build/selftests/rdma_core_pytests
#
# OVB_PYTESTS: test modules (test_cq) or case id prefixes (test_qp.QPTest)
# instead of the whole suite; OVB_PYTESTS_OTHER=0: this stack only.
set -u
here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"
dev=${OVB_DEV:-${OVB_HCA:-rxe}0}
suite=$here/rdma-core-tests
runner=$here/rdma_core_pytests.py
log=$(mktemp -d)
n=0 failed=0
stack_this_name=${OVB_UVERBS:-this} stack_other_name=other

# The whole suite by default (273 cases, about a minute per stack under TCG;
# the mlx5, efa and CUDA ones skip on rxe and siw in their setUp).
modules=()
[ -n "${OVB_PYTESTS:-}" ] && read -ra modules <<<"$OVB_PYTESTS"

# The GID the suite's traffic uses: the first RoCE v2 one of port 1 (rxe
# sends RoCE v2 only), once the table holds the guest's IPv4 address too.
# An iWARP device (siw) has one GID, its NIC's MAC address, and no types.
pick_gid() {
	local types=/sys/class/infiniband/$dev/ports/1/gid_attrs/types i
	case $(cat "/sys/class/infiniband/$dev/node_type" 2>/dev/null) in
	*RNIC*) echo 0; return 0 ;;
	esac
	wait_gid "$dev" 1 || return 1
	for i in $(seq 0 15); do
		[ "$(cat "$types/$i" 2>/dev/null)" = "RoCE v2" ] && { echo "$i"; return 0; }
	done
	return 1
}

# run_suite TAG: every selected case on the stack now loaded; verdicts in
# $log/TAG ("status TAB id TAB reason"), tracebacks in $log/TAG.tb.
run_suite() {
	local gid start=$SECONDS
	gid=$(pick_gid) || { echo "# no RoCE v2 GID on $dev port 1"; gid=0; }
	timeout -k 10 "${OVB_PYTESTS_TIMEOUT:-500}" /usr/bin/python3 "$runner" run "$suite" "$log/$1" \
		--dev "$dev" --gid "$gid" "${modules[@]}" 2>"$log/$1.progress"
	echo "$?" >"$log/$1.status"
	echo "$((SECONDS - start)) s, GID index $gid, runner exit status $(cat "$log/$1.status")" >"$log/$1.how"
}

summary() { # TAG: the verdict counts, time and runner status of one run
	echo "$(cut -f1 "$log/$1" | sort | uniq -c | awk '{ printf "%s %s, ", $1, $2 }')$(cat "$log/$1.how")"
}

echo "TAP version 13"
if [ ! -f "$suite/__init__.py" ] || ! /usr/bin/python3 -c 'import pyverbs' 2>/dev/null; then
	echo "1..0 # SKIP rdma-core's tests or pyverbs missing (python3-pyverbs; make setup, make selftests)"
	exit 4
fi
/usr/bin/python3 "$runner" list "$suite" "${modules[@]}" >"$log/cases" 2>&1

modprobe rdma_ucm
before=$(rdma_resources "$dev")
run_suite this
for i in 1 2 3 4 5; do
	after=$(rdma_resources "$dev")
	[ "$after" = "$before" ] && break
	sleep 1
done

# The other ib_uverbs: the same cases, the same verdicts and reasons.
nic=$(rxe_netdev "$dev")
other=no
if [ "${OVB_PYTESTS_OTHER:-1}" != 0 ] && stack_pick && [ -n "$nic" ]; then
	other=yes
	{ stack_down "$dev" && stack_up "$dev" "$nic" "${stack_other[@]}"; } >"$log/other.load" 2>&1 &&
		run_suite other
	{ stack_down "$dev" && stack_up "$dev" "$nic" "${stack_this[@]}" &&
		ibv_devinfo -d "$dev" | grep -q PORT_ACTIVE; } >"$log/back" 2>&1
	echo "$?" >"$log/back.status"
fi

# One line per case, with this stack's verdict; a case that fails here and
# fails the same way on the other stack is "not ok ... # TODO" (TAP 13: a
# known failure): not ib_uverbs' to fix.
if [ "$other" = yes ] && [ -f "$log/other.status" ]; then
	/usr/bin/python3 "$runner" tap "$log/cases" "$log/this" $((n + 1)) "$log/other" "$stack_other_name"
else
	/usr/bin/python3 "$runner" tap "$log/cases" "$log/this" $((n + 1))
fi >"$log/tap"
cat "$log/tap"
n=$((n + $(grep -cE '^(not )?ok [0-9]+' "$log/tap")))
failed=$((failed + $(grep -E '^not ok [0-9]+' "$log/tap" | grep -cv '# TODO')))
echo "# $stack_this_name: $(summary this)"

echo "# resources before: $before"
echo "# resources after: $after"
[ "$after" = "$before" ]
result $? "no object left behind on $dev (rdma resource show)"

if [ "$other" = no ]; then
	skip "same verdicts on the other ib_uverbs" "OVB_PYTESTS_OTHER=0, or not started by qemu/run (OVB_MODULE/OVB_UVERBS unset), or no netdev"
	skip "stack restored" "as above"
else
	if [ -f "$log/other.status" ]; then
		echo "# $stack_other_name: $(summary other)"
		/usr/bin/python3 "$runner" compare "$log/this" "$stack_this_name" \
			"$log/other" "$stack_other_name" >"$log/diff"
		st=$?
	else
		st=1
		cp "$log/other.load" "$log/diff"
	fi
	result $st "same verdicts on the $stack_other_name ib_uverbs ($(wc -l <"$log/this") cases)" "$log/diff"
	[ "$(cat "$log/back.status")" = 0 ]
	result $? "stack restored" "$log/back"
fi

rm -rf "$log"
echo "1..$n"
[ $failed = 0 ]
