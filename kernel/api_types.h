/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-device API tree: what 6.1's rdma_core.h defines and every
 * exporting file of upstream's ib_uverbs sees (uverbs_ioctl.c and
 * uverbs_std_types.c see only these; rdma_core.c and uverbs_main.c also see
 * ib_core's private types, see core_types.h).  genksyms expands struct
 * uverbs_api and struct uverbs_api_attr into the CRCs of our exports, so
 * their members follow 6.1 exactly; struct uverbs_api_ioctl_method is ours
 * (no export reaches it).
 */
#ifndef OPENVERBS_KERNEL_API_TYPES_H
#define OPENVERBS_KERNEL_API_TYPES_H

#include <linux/radix-tree.h>

#include "uverbs.h"

/* One attribute of an ioctl method. */
struct uverbs_api_attr {
	struct uverbs_attr_spec spec;
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

/*
 * One ioctl method of the tree, computed from its declaration when the
 * tree is built: what the parser needs without walking the attributes.
 */
struct uverbs_api_ioctl_method {
	int (*handler)(struct uverbs_attr_bundle *attrs);
	DECLARE_BITMAP(attr_mandatory, UVERBS_API_ATTR_BKEY_LEN);
	u16 call_size;		/* least bytes of one call's state (ioctl.c) */
	u8 driver_method:1;	/* the handler lives in the HCA driver */
	u8 disabled:1;
	u8 has_udata:1;		/* declares UVERBS_ATTR_UHW() */
	u8 key_bitmap_len;	/* highest attribute bkey + 1 */
	u8 destroy_bkey;	/* the DESTROY attribute, or BKEY_LEN */
	/* the declared attributes by bkey (NULL: none), key_bitmap_len long */
	const struct uverbs_api_attr *attrs[];
};

#endif /* OPENVERBS_KERNEL_API_TYPES_H */
