// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// IBVERBS_PRIVATE_34: the interface between rdma-core's libibverbs and
// rdma-core's own providers (lib*-rdmav34.so).  What the providers need is
// in rdmacore/ (registration, contexts, the ibv_cmd_* listed in
// Documentation/userspace.md); the commands still here answer EOPNOTSUPP
// (a provider then fails that verb, not the device).
#include <cerrno>
#include <cstdarg>
#include <cstdint>

#include <infiniband/verbs.h>

#include "export.h"
#include "log.h"

#define OVB_PRIVATE(ret, name, value)		\
	OVB_EXPORT ret name(...)		\
	{					\
		errno = EOPNOTSUPP;		\
		return value;			\
	}

// Commands: rdma-core returns a positive errno from each.
OVB_PRIVATE(int, ibv_cmd_poll_cq, EOPNOTSUPP)

// Posting through the kernel (hfi1, qib): not yet; the first WR is the
// one refused, as the caller expects *bad to say.
OVB_EXPORT int ibv_cmd_post_send(ibv_qp *, ibv_send_wr *wr, ibv_send_wr **bad)
try {
	*bad = wr;
	return EOPNOTSUPP;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_post_recv(ibv_qp *, ibv_recv_wr *wr, ibv_recv_wr **bad)
try {
	*bad = wr;
	return EOPNOTSUPP;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_post_srq_recv(ibv_srq *, ibv_recv_wr *wr,
				     ibv_recv_wr **bad)
try {
	*bad = wr;
	return EOPNOTSUPP;
} OVB_ABI_CATCH


OVB_EXPORT void __verbs_log(void *, uint32_t level, const char *fmt, ...)
try {
	va_list ap;
	va_start(ap, fmt);
	ovb::log::vwrite(level, fmt, ap);
	va_end(ap);
} OVB_ABI_CATCH_VOID

// rdma-core's RDMAV_ALLOW_DISASSOC_DESTROY switch (a bool object).
extern "C" {
__attribute__((visibility("default"))) bool verbs_allow_disassociate_destroy;
}
