// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// IBVERBS_PRIVATE_34: the interface between rdma-core's libibverbs and
// rdma-core's own providers (lib*-rdmav34.so).  What the providers need is
// in rdmacore/ (registration, contexts, the ibv_cmd_* listed in
// Documentation/userspace.md); here, what is left: the log.
#include <cerrno>
#include <cstdarg>
#include <cstdint>

#include <infiniband/verbs.h>

#include "export.h"
#include "log.h"

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
