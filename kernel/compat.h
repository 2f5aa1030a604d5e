/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openverbs ib_uverbs: the kernel interfaces that differ between the
 * Debian kernels this module builds for (6.1 and 6.12), in one place.
 * compat-config.h is generated at build time by kernel/compat-probe from
 * the target kernel's headers; the object files use only the names below,
 * never a version number.  Documentation/kernels.md: adding a kernel.
 */
#ifndef OVB_COMPAT_H
#define OVB_COMPAT_H

#include <linux/file.h>
#include <rdma/ib_verbs.h>

#include "compat-config.h"

/*
 * What create_cq and reg_user_mr_dmabuf get besides their arguments: the
 * driver's udata (6.1), or the whole bundle, so that a driver can read
 * its own attributes of the method (6.12).
 */
#ifdef OVB_HAVE_CREATE_CQ_BUNDLE
#define ovb_create_cq_driver_arg(attrs)		(attrs)
#else
#define ovb_create_cq_driver_arg(attrs)		(&(attrs)->driver_udata)
#endif
#ifdef OVB_HAVE_REG_DMABUF_MR_BUNDLE
#define ovb_reg_dmabuf_mr_driver_arg(attrs)	(attrs)
#else
#define ovb_reg_dmabuf_mr_driver_arg(attrs)	(&(attrs)->driver_udata)
#endif

/*
 * How many bytes of a flow filter ib_core understands: up to the real_sz
 * marker (6.1), or the whole struct (6.12, which packs the IPv6 filter so
 * that both say 39 bytes).
 */
#ifdef OVB_HAVE_FLOW_FILTER_REAL_SZ
#define ovb_flow_filter_size(type)	offsetof(type, real_sz)
#else
#define ovb_flow_filter_size(type)	sizeof(type)
#endif

/* Clearing VMA flags: a helper where vm_flags is read-only (6.3+). */
#ifdef OVB_HAVE_VM_FLAGS_CLEAR
#define ovb_vm_flags_clear(vma, flags)	vm_flags_clear(vma, flags)
#else
#define ovb_vm_flags_clear(vma, flags)	((vma)->vm_flags &= ~(flags))
#endif

/* The device class: its constructor and the devnode() callback type. */
#ifdef OVB_HAVE_CLASS_CREATE_OWNER
#define ovb_class_create(name)		class_create(THIS_MODULE, name)
#else
#define ovb_class_create(name)		class_create(name)
#endif
#ifdef OVB_HAVE_CONST_DEVNODE
#define OVB_DEVNODE_CONST const
#else
#define OVB_DEVNODE_CONST
#endif

/*
 * QUERY_PORT's active_speed_ex: the full 16-bit speed where the kernel's
 * ABI has the field, otherwise the bytes stay reserved (zero).
 */
static inline u32 ovb_port_active_speed_ex(const struct ib_port_attr *attr)
{
#ifdef OVB_HAVE_PORT_ACTIVE_SPEED_EX
	return attr->active_speed;
#else
	return 0;
#endif
}

/* Sub-devices of type SMI (6.12) get no uverbs device. */
static inline bool ovb_device_is_smi(const struct ib_device *ibdev)
{
#ifdef OVB_HAVE_DEVICE_TYPE_SMI
	return ibdev->type == RDMA_DEVICE_TYPE_SMI;
#else
	return false;
#endif
}

/* The file of a struct fd (an accessor since 6.12). */
#ifdef fd_file
#define ovb_fd_file(f)			fd_file(f)
#else
#define ovb_fd_file(f)			((f).file)
#endif

/*
 * ib_umem_get() pins read-only memory with FOLL_FORCE | FOLL_WRITE up to
 * 6.1 (to break COW); from 6.2 the memory manager keeps long-term R/O
 * pins coherent and the in-tree module pins without both.  No header says
 * which: compat-probe decides by the kernel's version.
 */
#ifdef OVB_HAVE_FORCED_READONLY_PINS
#define OVB_UMEM_FORCE_READONLY_PINS	true
#else
#define OVB_UMEM_FORCE_READONLY_PINS	false
#endif

#endif
