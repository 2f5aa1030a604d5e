# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Shell helpers shared by the guest tests (sourced, not run).

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
