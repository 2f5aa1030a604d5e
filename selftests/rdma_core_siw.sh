#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Unmodified rdma-core 44 programs (Debian's libibverbs with its siw
# provider, librdmacm, perftest) over Soft-iWARP siw0, on whichever
# ib_uverbs qemu/run loaded: ibv_devices, ibv_devinfo -v, rping, ucmatose,
# perftest's send/write/read bandwidth and latency over rdma_cm (-R), each
# checked on what it prints; iWARP's rules as stock programs meet them
# (ibv_ud_pingpong: no UD QP; ibv_rc_pingpong: no connection without the
# CM).  Then the other ib_uverbs (in-tree when ours runs, ours when the
# in-tree one runs) under the same siw.ko prints the same `ibv_devinfo -v`,
# and the stack is put back.  TAP 13.  With LD_LIBRARY_PATH at a build of
# userspace/ the same programs run on openverbs' library and providers/siw,
# and one check more proves that provider is the one in use
# (userspace/tests/guest/siw-provider).
#
#   qemu/run --uverbs=ours --hca=siw -- build/selftests/rdma_core_siw
set -u
dev=${OVB_DEV:-siw0}
addr=10.0.2.15
log=$(mktemp -d)
. "$(dirname "$(realpath "$0")")/lib.sh"
n=0 failed=0

# Each result line says how long its step took (TCG is slow; the budget
# in make qemu-test is about a minute).
last=$SECONDS
result() { # status name [detail file]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2 ($((SECONDS - last)) s)"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
		[ -n "${3:-}" ] && sed 's/^/# /' "$3"
	fi
	last=$SECONDS
}

skip() { # name reason
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

# pair NAME EXPECT PORT SERVER-CMD... -- CLIENT-CMD...: a server, then,
# once it listens on TCP PORT, a client; EXPECT pass or fail (both sides).
# Both outputs and exit codes end up in $log/NAME.both.  An iWARP listen is
# a TCP listen (siw's kernel socket), which comes up after the rdma_cm id
# shows LISTEN: a client started on the cm_id state alone was refused.
pair() {
	local name=$1 expect=$2 port=$3
	shift 3
	local server=() client=()
	while [ "$1" != -- ]; do server+=("$1"); shift; done
	shift
	client=("$@")
	wait_port_free "$port" || echo "  # port $port still has a listener before $name"
	timeout 90 "${server[@]}" >"$log/$name.server" 2>&1 &
	local spid=$!
	if [ "$expect" = pass ]; then
		wait_listen tcp "$port"
	else
		sleep 1	# the server is expected to fail before it listens
	fi
	timeout 60 "${client[@]}" >"$log/$name.client" 2>&1
	local crc=$?
	wait $spid
	local src=$?
	{ echo "server: ${server[*]} -> $src"; cat "$log/$name.server"
	  echo "client: ${client[*]} -> $crc"; cat "$log/$name.client"; } >"$log/$name.both"
	case $expect in
	pass) [ $crc = 0 ] && [ $src = 0 ] ;;
	fail) [ $crc != 0 ] && [ $src != 0 ] && [ $crc != 124 ] && [ $src != 124 ] ;;
	esac
}

# perftest_row FILE BYTES: the result row of a perftest run for messages
# of BYTES (bandwidth: bytes, iterations, peak, average, rate; latency:
# bytes, iterations, min, max, typical, average, ...).
perftest_row() {
	awk -v b="$2" '$1 == b && NF >= 5 && $2 ~ /^[0-9]+$/ { print; exit }' "$1"
}

# clock_ok FILE: perftest trusted its cycle counter.  On a busy TCG host its
# frequency estimate fails ("Correlation coefficient r^2 ... < 0.9") and
# the figures it derives from it come out as 0.00 or nonsense; then only
# the row itself (bytes and iterations) can be asserted, and a diagnostic
# line says so.
clock_ok() {
	if grep -q 'Correlation coefficient r^2' "$1"; then
		echo "  # $(basename "$1"): perftest's clock estimate failed (host load); figures not asserted"
		return 1
	fi
}

# bw_ok FILE ITERS: ITERS messages of 65536 bytes at a positive average
# bandwidth (any, when perftest's clock failed).
bw_ok() {
	local row min=0
	row=$(perftest_row "$1" 65536)
	clock_ok "$1" || min=-1
	[ -n "$row" ] && awk -v it="$2" -v min=$min '{ exit !($2 == it && $4 > min) }' <<<"$row"
}

# lat_ok FILE ITERS: ITERS round trips of 2 bytes, 0 < min <= average
# (when perftest's clock held).
lat_ok() {
	local row clock=1
	row=$(perftest_row "$1" 2)
	clock_ok "$1" || clock=0
	[ -n "$row" ] && awk -v it="$2" -v clock=$clock \
		'{ exit !($2 == it && (!clock || ($3 > 0 && $3 <= $6))) }' <<<"$row"
}

echo "TAP version 13"

if ! rdma link show "$dev/1" >/dev/null 2>&1; then
	echo "1..0 # SKIP no $dev: run with qemu/run --hca=siw"
	exit 4
fi
modprobe rdma_ucm
before=$(rdma_resources "$dev")
echo "# resources before: $before"

# The library under test: rdma-core's (Debian's libibverbs and libsiw), or
# openverbs' with its providers/siw when LD_LIBRARY_PATH leads to a build
# of userspace/ (userspace/tests/guest/siw-provider sets it).  Then one
# more check: the provider that opens the device is ours (glibc's loader
# names every library it initialises).
OPENVERBS_IDENTIFY=1 ibv_devices 2>&1 >/dev/null |
	grep "^openverbs libibverbs" >"$log/identity"
if [ -s "$log/identity" ]; then
	sed 's/^/# library: /' "$log/identity"
	LD_DEBUG=libs ibv_devinfo -d "$dev" 2>&1 |
		grep -E "calling init: |PORT_|rror" >"$log/which-provider"
	grep -q "calling init: .*/libsiw-openverbs\.so" "$log/which-provider" &&
		grep -q PORT_ACTIVE "$log/which-provider"
	result $? "openverbs' libibverbs opens $dev with its siw provider" "$log/which-provider"
else
	echo "# library: rdma-core's libibverbs and libsiw"
fi

# ibv_devices: the device with its 16-digit GUID.
ibv_devices >"$log/devices" 2>&1
grep -qE "^[[:space:]]*$dev[[:space:]]+[0-9a-f]{16}$" "$log/devices"
result $? "ibv_devices lists $dev with its GUID" "$log/devices"

# ibv_devinfo -v: an iWARP RNIC port on Ethernet, active, with room for QPs.
devinfo_is_iwarp() { # file
	grep -qE "^[[:space:]]*transport:[[:space:]]+iWARP \(1\)$" "$1" &&
		grep -qE "^[[:space:]]*link_layer:[[:space:]]+Ethernet$" "$1" &&
		grep -qE "^[[:space:]]*state:[[:space:]]+PORT_ACTIVE \(4\)$" "$1" &&
		awk '$1 == "max_qp:" { found = 1; ok = $2 > 0 } END { exit !(found && ok) }' "$1"
}
ibv_devinfo -v -d "$dev" >"$log/devinfo" 2>&1 && devinfo_is_iwarp "$log/devinfo"
result $? "ibv_devinfo -v -d $dev: transport iWARP, Ethernet, PORT_ACTIVE" "$log/devinfo"

# rping: 20 verified ping-pongs, each side printing its 20 buffers.
pair rping pass 7174 rping -s -a $addr -p 7174 -C 20 -v -V -- rping -c -a $addr -p 7174 -C 20 -v -V &&
	[ "$(grep -c "ping data: rdma-ping-" "$log/rping.client")" = 20 ] &&
	[ "$(grep -c "server ping data: rdma-ping-" "$log/rping.server")" = 20 ]
result $? "rping: 20 verified RDMA read/write ping-pongs" "$log/rping.both"

# ucmatose: 2 connections, 20 sends each way, both sides complete.
ucmatose_done() { # file
	grep -q "^data transfers complete" "$1" && grep -q "^test complete" "$1" &&
		grep -q "^return status 0" "$1"
}
ucmatose_pair() { # port
	pair ucmatose pass "$1" ucmatose -p "$1" -c 2 -C 20 -- ucmatose -s $addr -p "$1" -c 2 -C 20 &&
		ucmatose_done "$log/ucmatose.client" && ucmatose_done "$log/ucmatose.server"
}
# siw's own connect race: now and then the client's connection ends in
# CONNECT_ERROR -22 (EINVAL from siw's MPA reply step), on the in-tree
# ib_uverbs with rdma-core's library and libsiw as on ours (about 1 run in
# 40, Documentation/testing.md, Findings).  That one outcome gets one more
# run, said in a diagnostic; anything else, or the race twice, fails.
siw_connect_race() { # client output
	grep -q "RDMA_CM_EVENT_CONNECT_ERROR, error: -22" "$1"
}
ucmatose_pair 7471
rc=$?
if [ $rc != 0 ] && siw_connect_race "$log/ucmatose.client"; then
	echo "  # ucmatose: CONNECT_ERROR -22 (siw's connect race), once more on another port"
	mv "$log/ucmatose.both" "$log/ucmatose.first"
	ucmatose_pair 7472
	rc=$?
fi
result $rc "ucmatose: 2 connections x 20 messages" "$log/ucmatose.both"

# perftest over rdma_cm: the counts and a positive bandwidth or latency
# on both sides.  siw's listen race: siw's TCP socket listens before its
# listening endpoint is ready (siw_cm.c, siw_create_listen), and a connect
# in between is refused, so the client ends in "Connection refused" while
# the server waits on (seen once in about 60 pairs, on either ib_uverbs
# and either library; Documentation/testing.md, Findings).  That one
# outcome gets one more run, said in a diagnostic; anything else, or the
# race twice, fails.
siw_listen_race() { # client output
	grep -q "ERRNO: Connection refused" "$1"
}
perftest_pair() { # program
	pair "$1" pass 18515 "$1" -d "$dev" -R -n $iters -F -- \
		"$1" -d "$dev" -R -n $iters -F $addr && return 0
	siw_listen_race "$log/$1.client" || return 1
	echo "  # $1: connection refused (siw's listen race), once more"
	mv "$log/$1.both" "$log/$1.first"
	pair "$1" pass 18515 "$1" -d "$dev" -R -n $iters -F -- \
		"$1" -d "$dev" -R -n $iters -F $addr
}
iters=100
for t in send write read; do
	perftest_pair "ib_${t}_bw" && bw_ok "$log/ib_${t}_bw.client" $iters
	result $? "ib_${t}_bw -R: $iters x 64 KiB, bandwidth > 0" "$log/ib_${t}_bw.both"
done
for t in send write read; do
	perftest_pair "ib_${t}_lat" && lat_ok "$log/ib_${t}_lat.client" $iters
	result $? "ib_${t}_lat -R: $iters x 2 bytes, latency > 0" "$log/ib_${t}_lat.both"
done

# iWARP's rules, as stock programs meet them: the server fails; the
# client, whose exchange the server then closes, too.
pair ibv_ud_pingpong fail 18515 ibv_ud_pingpong -d "$dev" -g 0 -n 10 -- \
	ibv_ud_pingpong -d "$dev" -g 0 -n 10 $addr &&
	grep -q "Couldn't create QP" "$log/ibv_ud_pingpong.server"
result $? "ibv_ud_pingpong: no UD QP on iWARP" "$log/ibv_ud_pingpong.both"
pair ibv_rc_pingpong fail 18515 ibv_rc_pingpong -d "$dev" -g 0 -n 10 -- \
	ibv_rc_pingpong -d "$dev" -g 0 -n 10 $addr &&
	grep -q "Failed to modify QP to RTS" "$log/ibv_rc_pingpong.server"
result $? "ibv_rc_pingpong: no connection without the iWARP CM" "$log/ibv_rc_pingpong.both"

for i in 1 2 3 4 5; do
	after=$(rdma_resources "$dev")
	[ "$after" = "$before" ] && break
	sleep 1
done
echo "# resources after: $after"
[ "$after" = "$before" ]
result $? "no object left behind on $dev (rdma resource show)"

# The other ib_uverbs under the same siw.ko (lib.sh's stack_down and
# stack_up, OVB_HCA=siw): it loads (6.12's siw imports ib_uverbs' umem
# symbols) and prints the same devinfo.
nic=$(rxe_netdev "$dev")
if [ "${OVB_HCA:-}" != siw ] || ! stack_pick || [ -z "$nic" ] || [ ! -f "${OVB_SIW_MODULE:-}" ]; then
	skip "ibv_devinfo -v identical on the other ib_uverbs" "not started by qemu/run --hca=siw, or no netdev"
	skip "stack restored" "as above"
else
	ibv_devinfo -v -d "$dev" >"$log/devinfo.this" 2>&1
	{ stack_down "$dev" && stack_up "$dev" "$nic" "${stack_other[@]}" &&
		ibv_devinfo -v -d "$dev" >"$log/devinfo.other" 2>&1; } >"$log/other" 2>&1
	diff -u "$log/devinfo.this" "$log/devinfo.other" >"$log/devinfo.diff" 2>&1 ||
		cat "$log/other" >>"$log/devinfo.diff"
	[ -s "$log/devinfo.diff" ]
	result $((! $?)) "ibv_devinfo -v identical on the $stack_other_name ib_uverbs" "$log/devinfo.diff"
	{ stack_down "$dev" && stack_up "$dev" "$nic" "${stack_this[@]}" && ibv_devinfo -d "$dev" | grep -q PORT_ACTIVE; } >"$log/back" 2>&1
	result $? "stack restored" "$log/back"
fi

rm -rf "$log"
echo "1..$n"
[ $failed = 0 ]
