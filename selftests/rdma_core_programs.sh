#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Unmodified rdma-core 44 programs (Debian's libibverbs, librdmacm,
# perftest) on whichever ib_uverbs qemu/run loaded, over rxe0.  Then the
# stack itself: every RDMA driver module of the distro loads against the
# running ib_uverbs, nothing stays allocated once the programs are gone,
# `rmmod rdma_rxe ib_uverbs` works, and the other ib_uverbs (in-tree when
# ours runs, ours when the in-tree one runs) prints the same `ibv_devinfo
# -v`.  The stack is put back as it was before the script exits.  TAP 13.
#
#   qemu/run --uverbs=ours --hca=rxe -- build/selftests/rdma_core_programs
set -u
dev=${OVB_DEV:-rxe0}
addr=10.0.2.15
log=$(mktemp -d)
. "$(dirname "$(realpath "$0")")/lib.sh"
n=0 failed=0

# pair NAME EXPECT LISTEN SERVER-CMD... -- CLIENT-CMD...: run a server, wait
# until it listens (LISTEN: tcp or cm, see lib.sh) and run a client against
# it; EXPECT is "pass" or "fail" (both sides must agree).
pair() {
	local name=$1 expect=$2 listen=$3
	shift 3
	local server=() client=()
	while [ "$1" != -- ]; do server+=("$1"); shift; done
	shift
	client=("$@")
	timeout 90 "${server[@]}" >"$log/$name.server" 2>&1 &
	local spid=$!
	if [ "$expect" = pass ]; then
		wait_listen $listen 18515
	else
		sleep 2	# the server is expected to fail before it listens
	fi
	timeout 60 "${client[@]}" >"$log/$name.client" 2>&1
	local crc=$?
	wait $spid
	local src=$?
	{ echo "server: ${server[*]} -> $src"; cat "$log/$name.server"
	  echo "client: ${client[*]} -> $crc"; cat "$log/$name.client"; } >"$log/$name.both"
	local ok=1
	case $expect in
	pass) [ $crc = 0 ] && [ $src = 0 ] && ok=0 ;;
	fail) [ $crc != 0 ] && [ $src != 0 ] && [ $crc != 124 ] && [ $src != 124 ] && ok=0 ;;
	esac
	result $ok "$name ($expect)" "$log/$name.both"
}

echo "TAP version 13"

modprobe rdma_ucm
before=$(rdma_resources "$dev")
echo "# resources before: $before"

ibv_devices >"$log/devices" 2>&1 && grep -qw "$dev" "$log/devices"
result $? "ibv_devices lists $dev" "$log/devices"

ibv_devinfo -v -d "$dev" >"$log/devinfo" 2>&1 && grep -q PORT_ACTIVE "$log/devinfo"
result $? "ibv_devinfo -v -d $dev" "$log/devinfo"

for pp in rc uc ud srq; do
	pair "ibv_${pp}_pingpong" pass tcp ibv_${pp}_pingpong -d "$dev" -g 1 -n 200 -- \
		ibv_${pp}_pingpong -d "$dev" -g 1 -n 200 $addr
done
# 6.1's rxe has no XRC: opening the XRC domain fails with EOPNOTSUPP (95)
# on either stack.
pair ibv_xsrq_pingpong fail tcp ibv_xsrq_pingpong -d "$dev" -g 1 -n 50 -- \
	ibv_xsrq_pingpong -d "$dev" -g 1 -n 50 $addr
grep -q "Couldn't Open the XRC Domain 95" "$log/ibv_xsrq_pingpong.server"
result $? "ibv_xsrq_pingpong: no XRC domain on rxe (EOPNOTSUPP)" "$log/ibv_xsrq_pingpong.both"

for t in send write read atomic; do
	pair "ib_${t}_bw" pass tcp ib_${t}_bw -d "$dev" -x 1 -n 500 -F -- \
		ib_${t}_bw -d "$dev" -x 1 -n 500 -F $addr
done
for t in send write read; do
	pair "ib_${t}_lat" pass tcp ib_${t}_lat -d "$dev" -x 1 -n 500 -F -- \
		ib_${t}_lat -d "$dev" -x 1 -n 500 -F $addr
done

pair rping pass cm rping -s -a $addr -C 20 -- rping -c -a $addr -C 20 -v
pair ucmatose pass cm ucmatose -c 2 -C 20 -- ucmatose -s $addr -c 2 -C 20

# Give the rxe tasklets a moment to drop their last references.
for i in 1 2 3 4 5; do
	after=$(rdma_resources "$dev")
	[ "$after" = "$before" ] && break
	sleep 1
done
echo "# resources after: $after"
[ "$after" = "$before" ]
result $? "no object left behind on $dev (rdma resource show)"

# Every RDMA HCA driver module of the distro loads against this ib_uverbs
# (no hardware needed), unless it imports a symbol this ib_uverbs does
# not export yet: that is reported as a skip naming the symbols.
kver=$(uname -r)
mods=/lib/modules/$kver/kernel/drivers/infiniband
# nm of a module file as the kernel ships it (6.1: .ko; 6.12: .ko.xz).
module_nm() { # nm-options... FILE
	local file=${*: -1} opts=("${@:1:$#-1}")
	case $file in
	*.ko.xz) xz -dc "$file" >"$log/nm.ko" && nm "${opts[@]}" "$log/nm.ko" ;;
	*.ko.zst) zstd -qdc "$file" >"$log/nm.ko" && nm "${opts[@]}" "$log/nm.ko" ;;
	*) nm "${opts[@]}" "$file" ;;
	esac
}
upstream_exports() {
	module_nm --defined-only "$(echo "$mods"/core/ib_uverbs.ko*)" |
		awk '$3 ~ /^__ksymtab_/ { sub("__ksymtab_", "", $3); print $3 }' | sort -u
}
running_exports() {
	awk '$4 == "[ib_uverbs]" && $3 ~ /^__ksymtab_/ { sub("__ksymtab_", "", $3); print $3 }' \
		/proc/kallsyms | sort -u
}
drivers=("$mods"/hw/*/*.ko*)
[ -e "${drivers[0]}" ] || skip "modprobe the distro's HCA drivers" "$kver has none under $mods/hw (a trimmed debug kernel)"
for ko in "${drivers[@]}"; do
	[ -e "$ko" ] || continue
	mod=$(basename "${ko%.ko*}")
	missing=$(comm -12 <(module_nm -u "$ko" | awk '{ print $2 }' | sort -u) <(upstream_exports) |
		comm -23 - <(running_exports))
	if [ -n "$missing" ]; then
		skip "modprobe $mod" "imports $(echo $missing | wc -w) symbol(s) this ib_uverbs does not export yet: $(echo $missing)"
		continue
	fi
	dmesg -C
	modprobe "$mod" >"$log/$mod" 2>&1 && grep -q "^$mod " /proc/modules
	st=$?
	dmesg >>"$log/$mod"
	grep -qE "disagrees about version|Unknown symbol" "$log/$mod" && st=1
	result $st "modprobe $mod" "$log/$mod"
	modprobe -r "$mod" >/dev/null 2>&1
done

# Unload the whole stack, bring up the other ib_uverbs, compare what
# rdma-core prints, and go back.  A few tries: IPv6 autoconfiguration may
# still be adding GIDs right after the device appears.
nic=$(rxe_netdev "$dev")
devinfo_settled() { # output file
	wait_gid "$dev" 1
	ibv_devinfo -v -d "$dev" >"$1" 2>&1
}
# kernel/load refuses to stack ours on the in-tree module, in one line.
refusal() {
	"$OVB_TOP/kernel/load" "$OVB_MODULE" >"$log/refusal" 2>&1
	local st=$?
	[ $st = 1 ] && [ "$(wc -l <"$log/refusal")" = 1 ] &&
		grep -q "the in-tree ib_uverbs is loaded; unload it first: modprobe -r .*ib_uverbs" "$log/refusal"
	result $? "kernel/load refuses while the in-tree ib_uverbs is loaded" "$log/refusal"
}
if ! stack_pick || [ -z "$nic" ]; then
	skip "rmmod rdma_rxe ib_uverbs" "not started by qemu/run (OVB_MODULE/OVB_UVERBS unset) or no netdev"
	skip "ibv_devinfo -v identical on the other ib_uverbs" "as above"
	skip "stack restored" "as above"
	skip "kernel/load refuses while the in-tree ib_uverbs is loaded" "as above"
else
	devinfo_settled "$log/devinfo.this"
	[ "$stack_other_name" = openverbs ] && refusal
	stack_down "$dev" >"$log/down" 2>&1
	result $? "rmmod rdma_rxe ib_uverbs (after all programs exited)" "$log/down"
	stack_up "$dev" "$nic" "${stack_other[@]}" >"$log/other" 2>&1 && devinfo_settled "$log/devinfo.other"
	diff -u "$log/devinfo.this" "$log/devinfo.other" >"$log/devinfo.diff" 2>&1 ||
		cat "$log/other" >>"$log/devinfo.diff"
	[ "$stack_other_name" = in-tree ] && refusal
	[ -s "$log/devinfo.diff" ]
	result $((! $?)) "ibv_devinfo -v identical on the $stack_other_name ib_uverbs" "$log/devinfo.diff"
	{ stack_down "$dev" && stack_up "$dev" "$nic" "${stack_this[@]}" && ibv_devinfo -d "$dev" | grep -q PORT_ACTIVE; } >"$log/back" 2>&1
	result $? "stack restored" "$log/back"
fi

rm -rf "$log"
echo "1..$n"
[ $failed = 0 ]
