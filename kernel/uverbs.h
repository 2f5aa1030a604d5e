/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openverbs ib_uverbs: definitions private to the module.
 */
#ifndef OPENVERBS_KERNEL_UVERBS_H
#define OPENVERBS_KERNEL_UVERBS_H

#include <linux/device.h>

#define OPENVERBS_VERSION	"0.1.0"

/* The uverbs ABI version this module serves (class attribute abi_version). */
#define OVB_UVERBS_ABI_VERSION	6

/* Character device numbers, as rdma-core and udev rules expect them. */
#define UVERBS_CLASS_NAME		"infiniband_verbs"
#define UVERBS_MAJOR			231
#define UVERBS_BASE_MINOR		192
#define UVERBS_MAX_DEVICES		8192
#define UVERBS_NUM_FIXED_MINORS		32
#define UVERBS_NUM_DYNAMIC_MINORS	(UVERBS_MAX_DEVICES - UVERBS_NUM_FIXED_MINORS)

extern struct class *uverbs_class;

#endif /* OPENVERBS_KERNEL_UVERBS_H */
