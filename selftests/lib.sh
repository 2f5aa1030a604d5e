# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Shell helpers shared by the guest tests (sourced, not run).

# TAP 13 lines, numbered by the caller's counters n and failed (it sets
# both to 0 and ends with "1..$n").  result STATUS NAME [DETAIL-FILE]: ok
# when STATUS is 0, else not ok with DETAIL-FILE's lines as comments;
# skip NAME REASON: ok with a SKIP directive.
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=$((failed + 1))
		[ -n "${3:-}" ] && sed 's/^/# /' "$3"
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

# wait_listen tcp PORT | wait_listen cm [SECONDS]: wait until a server
# listens, on a TCP port (the ping-pongs' and perftest's out-of-band
# exchange) or as an RDMA CM id (rping, ucmatose); a fixed sleep is too
# short on a loaded machine.  Fails after SECONDS (default 120).
wait_listen() {
	local kind=$1 port=${2:-} limit=${3:-120} i
	for i in $(seq $((limit * 4))); do
		case $kind in
		tcp) [ -n "$(ss -ltnH "sport = :$port")" ] && return 0 ;;
		cm) rdma resource show cm_id 2>/dev/null | grep -q "state LISTEN" && return 0 ;;
		esac
		sleep 0.25
	done
	return 1
}

# wait_port_free PORT [SECONDS]: wait until nothing listens on TCP PORT (an
# iWARP listener of the previous server goes a moment after its process;
# a client started meanwhile reaches the old one and is refused).  Fails
# after SECONDS (default 30).
wait_port_free() {
	local port=$1 limit=${2:-30} i
	for i in $(seq $((limit * 4))); do
		[ -z "$(ss -ltnH "sport = :$port")" ] && return 0
		sleep 0.25
	done
	return 1
}

# wait_gid DEV INDEX [SECONDS]: wait until port 1 of DEV has a GID at INDEX
# (right after a RoCE device appears, ib_core is still filling its table
# from the netdev's addresses).  Fails after SECONDS (default 10).
wait_gid() {
	local dev=$1 index=$2 limit=${3:-10} i
	for i in $(seq $((limit * 4))); do
		case $(cat "/sys/class/infiniband/$dev/ports/1/gids/$index" 2>/dev/null) in
		"" | 0000:0000:0000:0000:0000:0000:0000:0000) sleep 0.25 ;;
		*) return 0 ;;
		esac
	done
	return 1
}

# The two ib_uverbs of one boot, for the tests that compare them: qemu/run
# loaded one (OVB_UVERBS, OVB_MODULE); the other is the in-tree module when
# ours runs, ours when the in-tree one runs.  stack_pick sets stack_this and
# stack_other (the commands that load each), stack_this_name and
# stack_other_name (openverbs, in-tree), and fails
# when qemu/run did not start this job.  stack_down DEV takes rdma_ucm,
# DEV's driver and ib_uverbs out; stack_up DEV NETDEV LOAD... loads an
# ib_uverbs with LOAD and puts DEV back on NETDEV.  The driver is the one
# qemu/run's --hca chose (OVB_HCA): rdma_rxe, or siw from OVB_SIW_MODULE.
stack_pick() {
	if [ -n "${OVB_MODULE:-}" ] && [ "${OVB_UVERBS:-}" = ours ]; then
		stack_this=(insmod "$OVB_MODULE") stack_other=(modprobe ib_uverbs)
		stack_this_name=openverbs stack_other_name=in-tree
	elif [ -n "${OVB_MODULE:-}" ] && [ -f "$OVB_MODULE" ]; then
		stack_this=(modprobe ib_uverbs) stack_other=(insmod "$OVB_MODULE")
		stack_this_name=in-tree stack_other_name=openverbs
	else
		return 1
	fi
}

stack_down() {
	local driver=rdma_rxe
	[ "${OVB_HCA:-}" = siw ] && driver=siw
	# 6.1's siw does not hold ib_uverbs: modprobe -r rdma_ucm takes it out.
	rdma link delete "$1" && modprobe -r rdma_ucm && rmmod "$driver" &&
		{ ! grep -q "^ib_uverbs " /proc/modules || rmmod ib_uverbs; } &&
		! grep -q "^ib_uverbs " /proc/modules
}

stack_up() {
	local dev=$1 nic=$2
	shift 2
	"$@" || return 1
	if [ "${OVB_HCA:-}" = siw ]; then
		insmod "$OVB_SIW_MODULE" && rdma link add "$dev" type siw netdev "$nic"
	else
		modprobe rdma_rxe && rdma link add "$dev" type rxe netdev "$nic"
	fi && modprobe rdma_ucm
}

# rxe_netdev DEV: the netdev under the software RDMA device DEV (rxe, siw).
rxe_netdev() {
	rdma link show "$1/1" | awk '{ for (i = 1; i < NF; i++) if ($i == "netdev") print $(i + 1) }'
}

# rdma_resources DEV: DEV's object counts as ib_core keeps them (pd, cq, qp,
# mr, ctx...): the same line before and after a test means nothing leaked.
rdma_resources() {
	rdma resource show | grep "^[0-9]*: $1:"
}
