/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types that upstream's ib_uverbs sees only in some files (through ib_core's
 * core_priv.h and uverbs' rdma_core.h), kept apart from uverbs.h for kABI:
 * genksyms computes an export's CRC from every type definition visible in
 * the file that exports it.  6.1's rdma_core.c and uverbs_main.c see these
 * (their exports' CRCs include them); umem.c and friends do not.  So our
 * files that export what those upstream files export, and the files that
 * need the definitions, include this header; the umem files must not.
 */
#ifndef OPENVERBS_KERNEL_CORE_TYPES_H
#define OPENVERBS_KERNEL_CORE_TYPES_H

#include <net/netns/generic.h>
#include <rdma/ib_mad.h>

#include "uverbs.h"

/* One attribute of an ioctl method (rdma_core.h in 6.1). */
struct uverbs_api_attr {
	struct uverbs_attr_spec spec;
};

/* ib_core's resource-tracking table of one type (restrack.h in 6.1). */
struct rdma_restrack_root {
	struct xarray xa;
	u32 next_id;
};

/* Per-device view of the uverbs API: which objects and commands it serves. */
struct uverbs_api {
	struct radix_tree_root radix;
	enum rdma_driver_id driver_id;

	unsigned int num_write;
	unsigned int num_write_ex;
	struct uverbs_api_write_method notsupp_method;
	const struct uverbs_api_write_method **write_methods;
	const struct uverbs_api_write_method **write_ex_methods;
};

#endif /* OPENVERBS_KERNEL_CORE_TYPES_H */
