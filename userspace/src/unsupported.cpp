// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Importing another process's context and objects (ibv_import_*):
// libibverbs leaves these to provider ops, and neither our providers nor
// rdma-core 44's rxe has them, so they answer EOPNOTSUPP, as libibverbs
// does for such a provider.
#include <cerrno>
#include <infiniband/verbs.h>

#include "export.h"

OVB_EXPORT ibv_context *ibv_import_device(int)
try {
	errno = EOPNOTSUPP;
	return nullptr;
} OVB_ABI_CATCH

OVB_EXPORT ibv_pd *ibv_import_pd(ibv_context *, uint32_t)
try {
	errno = EOPNOTSUPP;
	return nullptr;
} OVB_ABI_CATCH

OVB_EXPORT void ibv_unimport_pd(ibv_pd *) {}

OVB_EXPORT ibv_mr *ibv_import_mr(ibv_pd *, uint32_t)
try {
	errno = EOPNOTSUPP;
	return nullptr;
} OVB_ABI_CATCH

OVB_EXPORT void ibv_unimport_mr(ibv_mr *) {}

OVB_EXPORT ibv_dm *ibv_import_dm(ibv_context *, uint32_t)
try {
	errno = EOPNOTSUPP;
	return nullptr;
} OVB_ABI_CATCH

OVB_EXPORT void ibv_unimport_dm(ibv_dm *) {}
