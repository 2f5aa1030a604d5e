/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types that upstream's ib_uverbs sees only in some files (through ib_core's
 * core_priv.h and uverbs' rdma_core.h), kept apart from uverbs.h for kABI:
 * genksyms computes an export's CRC from every type definition visible in
 * the file that exports it.  6.1's rdma_core.c and uverbs_main.c see these
 * (their exports' CRCs include them); umem.c and friends do not.  So our
 * files that export what those upstream files export, and the files that
 * need the definitions, include this header; the umem files must not, and
 * the files that export what 6.1's uverbs_ioctl.c and uverbs_std_types.c
 * export include only api_types.h.
 */
#ifndef OPENVERBS_KERNEL_CORE_TYPES_H
#define OPENVERBS_KERNEL_CORE_TYPES_H

#include <net/netns/generic.h>
#include <rdma/ib_mad.h>

#include "api_types.h"

/* ib_core's resource-tracking table of one type (restrack.h in 6.1). */
struct rdma_restrack_root {
	struct xarray xa;
	u32 next_id;
};

#endif /* OPENVERBS_KERNEL_CORE_TYPES_H */
