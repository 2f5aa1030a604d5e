/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ovbtest's kernel compatibility: everything the driver does differently
 * on Debian's 6.1 and 6.12 kernels is keyed here, on LINUX_VERSION_CODE
 * (the two kernels' own headers; nothing in between is a target).  The
 * driver's files test the OVBTEST_K612 feature macro or use the helpers
 * below, never the version itself.
 *
 * 6.12's driver-facing differences the driver uses (Documentation/kernels.md
 * has the module's side):
 *  - create_cq and reg_user_mr_dmabuf take the whole uverbs_attr_bundle
 *    (6.1: the driver udata, from which rdma_udata_to_uverbs_attr_bundle()
 *    recovers the bundle);
 *  - ib_uverbs exports ib_umem_check_rereg, the revocable and
 *    dma-device dma-buf imports, ib_umem_dmabuf_revoke and
 *    rdma_user_mmap_disassociate;
 *  - ib_check_mr_access() knows the FLUSH access flags and the device
 *    caps IB_DEVICE_FLUSH_* and IB_DEVICE_ATOMIC_WRITE exist;
 *  - ib_device_ops has add_sub_dev / del_sub_dev (SMI sub-devices).
 * Kernel API churn: vm_flags is written through vm_flags_set() and
 * vm_flags_clear() (6.3), no_llseek is gone (6.12: a NULL llseek is
 * -ESPIPE), <asm/unaligned.h> moved to <linux/unaligned.h> (6.12),
 * dma_set_max_seg_size() returns void (6.12).
 */
#ifndef OVBTEST_COMPAT_H
#define OVBTEST_COMPAT_H

#include <linux/version.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define OVBTEST_K612 1
#else
#define OVBTEST_K612 0
#endif

#if OVBTEST_K612
/* What create_cq and reg_user_mr_dmabuf receive from the core. */
#define ovbtest_op_bundle		struct uverbs_attr_bundle
#define ovbtest_op_attrs(b)		(b)
#define ovbtest_op_udata(b)		(&(b)->driver_udata)
#define OVBTEST_NO_LLSEEK		NULL
#else
#define ovbtest_op_bundle		struct ib_udata
#define ovbtest_op_attrs(u)		rdma_udata_to_uverbs_attr_bundle(u)
#define ovbtest_op_udata(u)		(u)
#define OVBTEST_NO_LLSEEK		no_llseek
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define ovbtest_vm_flags_set(vma, f)	vm_flags_set(vma, f)
#define ovbtest_vm_flags_clear(vma, f)	vm_flags_clear(vma, f)
#else
#define ovbtest_vm_flags_set(vma, f)	((vma)->vm_flags |= (f))
#define ovbtest_vm_flags_clear(vma, f)	((vma)->vm_flags &= ~(f))
#endif

static inline int ovbtest_dma_set_max_seg_size(struct device *dev,
					       unsigned int size)
{
#if OVBTEST_K612
	dma_set_max_seg_size(dev, size);
	return 0;
#else
	return dma_set_max_seg_size(dev, size);
#endif
}

#endif /* OVBTEST_COMPAT_H */
