/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * openverbs: the user ABI of ovbtest, the project's test HCA driver
 * (selftests/ovbtest/), a device without hardware whose "DMA engine" copies
 * bytes between two memory regions of the caller.  Shared by the kernel
 * driver, the selftests and the provider (providers/ovbtest).
 *
 * Everything beyond the standard verbs is reached through driver-defined
 * ioctl objects and methods, in the driver namespace of the ioctl ABI
 * (ids with bit 12 set, UVERBS_ID_NS_SPECIFIC in
 * <rdma/rdma_user_ioctl_cmds.h>).  Only <linux/types.h> is needed.
 */
#ifndef OPENVERBS_UAPI_OVBTEST_ABI_H
#define OPENVERBS_UAPI_OVBTEST_ABI_H

#include <linux/types.h>

/* /sys/class/infiniband_verbs/uverbsN/abi_version of the device. */
#define OVBTEST_UVERBS_ABI_VERSION	1
/* The device's name prefix (ovbtest0, ...); driver_id is 0 (UNKNOWN). */
#define OVBTEST_DEVICE_PREFIX		"ovbtest"
#define OVBTEST_MAGIC			0x6f76627465737431ULL	/* "ovbtest1" */
/* The most one COPY moves. */
#define OVBTEST_COPY_MAX		(4U << 20)

/*
 * UVERBS_ID_NS_SPECIFIC: the first id of the driver namespace, for
 * objects and methods.  Driver attributes start two later
 * (UVERBS_ID_DRIVER_NS_WITH_UHW): UHW_IN and UHW_OUT, the driver udata of
 * a method, are the first two.
 */
#define OVBTEST_NS			(1U << 12)
#define OVBTEST_ATTR_NS			(OVBTEST_NS + 2)

/*
 * Objects of the driver: a copy channel bound to a PD, and an IDR object
 * whose destroy can fail, as a real driver's can (DEVX when the firmware
 * refuses): created with OVBTEST_STUCK_REFUSE, its destroy answers -EBUSY
 * until ib_uverbs gives up on it at close, created with a holder it answers
 * -EBUSY until the holder is gone (selftests/ovbtest/stuck.c; tests:
 * selftests/uverbs_ovbtest_leak.c, selftests/uverbs_ovbtest_retry.c).
 */
enum ovbtest_objects {
	OVBTEST_OBJECT_CHAN = OVBTEST_NS,
	OVBTEST_OBJECT_STUCK,
};

enum ovbtest_chan_methods {
	OVBTEST_METHOD_CHAN_CREATE = OVBTEST_NS,
	OVBTEST_METHOD_CHAN_QUERY,
	OVBTEST_METHOD_CHAN_DESTROY,
	OVBTEST_METHOD_CHAN_COPY,
};

/* A method the driver adds to the standard DEVICE object. */
enum ovbtest_device_methods {
	OVBTEST_METHOD_DEVICE_INFO = OVBTEST_NS,
};

enum ovbtest_chan_create_attrs {
	OVBTEST_ATTR_CHAN_CREATE_HANDLE = OVBTEST_ATTR_NS,	/* IDR NEW */
	OVBTEST_ATTR_CHAN_CREATE_PD,			/* IDR PD, READ */
	OVBTEST_ATTR_CHAN_CREATE_DEPTH,			/* PTR_IN __u32 */
	OVBTEST_ATTR_CHAN_CREATE_ID,			/* PTR_OUT __u32, optional */
};

enum ovbtest_chan_query_attrs {
	OVBTEST_ATTR_CHAN_QUERY_HANDLE = OVBTEST_ATTR_NS,	/* IDR READ */
	OVBTEST_ATTR_CHAN_QUERY_STATS,			/* PTR_OUT ovbtest_chan_stats */
};

enum ovbtest_chan_destroy_attrs {
	OVBTEST_ATTR_CHAN_DESTROY_HANDLE = OVBTEST_ATTR_NS,	/* IDR DESTROY */
	OVBTEST_ATTR_CHAN_DESTROY_STATS,		/* PTR_OUT, optional */
};

enum ovbtest_chan_copy_attrs {
	OVBTEST_ATTR_CHAN_COPY_HANDLE = OVBTEST_ATTR_NS,	/* IDR READ */
	OVBTEST_ATTR_CHAN_COPY_SRC_MR,			/* IDR MR, READ */
	OVBTEST_ATTR_CHAN_COPY_DST_MR,			/* IDR MR, READ */
	OVBTEST_ATTR_CHAN_COPY_DESC,			/* PTR_IN ovbtest_copy_desc */
	OVBTEST_ATTR_CHAN_COPY_SEQ,			/* PTR_OUT __u64, optional */
};

/* An attribute the driver adds to the standard CQ_CREATE method. */
enum ovbtest_cq_create_attrs {
	OVBTEST_ATTR_CQ_CREATE_TAG = OVBTEST_ATTR_NS,	/* PTR_IN __u32, optional */
};

enum ovbtest_device_info_attrs {
	OVBTEST_ATTR_DEVICE_INFO = OVBTEST_ATTR_NS,		/* PTR_OUT ovbtest_device_info */
};

/* The COPY descriptor: like an RDMA WRITE between two local MRs. */
struct ovbtest_copy_desc {
	__aligned_u64 src_offset;	/* from the start of the source MR */
	__aligned_u64 dst_offset;
	__u32 length;			/* at most OVBTEST_COPY_MAX */
	__u32 flags;			/* none defined: must be 0 */
};

struct ovbtest_chan_stats {
	__aligned_u64 copies;
	__aligned_u64 bytes;
	__u32 id;
	__u32 depth;
};

/*
 * With a BAR, a fixed mmap offset maps (non-cached) up to
 * OVBTEST_MMAP_FIXED_PAGES pages of the device's own BAR region, shared by
 * every context, with no mmap entry - as mlx4 maps its doorbell (UAR)
 * page.  The page offset is above every entry's (those end at U32_MAX).
 */
#define OVBTEST_MMAP_FIXED_PGOFF	(1ULL << 32)
#define OVBTEST_MMAP_FIXED_PAGES	4

struct ovbtest_device_info {
	__aligned_u64 magic;		/* OVBTEST_MAGIC */
	__aligned_u64 counters_offset;	/* mmap offset of the counters page */
	__aligned_u64 doorbell_offset;	/* mmap offset of the doorbell page */
	__aligned_u64 doorbell_value;	/* the first u64 of the doorbell page */
	/* objects alive on the whole device (every context) */
	__u32 contexts;
	__u32 pds;
	__u32 cqs;
	__u32 mrs;
	__u32 chans;
	__u32 qps;		/* was reserved (0): the minimum size ends here */
	__u32 mcast_groups;	/* multicast groups with a QP attached */
	__u32 mcast_attached;	/* QP memberships over all groups */
	/* STUCK objects the driver still holds (destroyed ones are gone) */
	__u32 stuck;
	/* ... of them, those whose context is gone: ib_uverbs leaked them */
	__u32 stuck_orphans;
	/* the first u64 of the context's WC and non-cached pages (or 0) */
	__aligned_u64 wc_value;
	__aligned_u64 nc_value;
	/* the first u64 of each page of the fixed-offset region (or 0) */
	__aligned_u64 fixed_value[OVBTEST_MMAP_FIXED_PAGES];
};

/* Driver data of the CHAN_CREATE method (UVERBS_ATTR_UHW). */
struct ovbtest_chan_create_req {
	__aligned_u64 cookie;
};

struct ovbtest_chan_create_resp {
	__aligned_u64 cookie;		/* the request's, echoed */
	__u32 id;
	__u32 reserved;
};

/* Driver response of CQ creation (UHW_OUT / write() driver data). */
struct ovbtest_create_cq_resp {
	__u32 tag;			/* OVBTEST_ATTR_CQ_CREATE_TAG, or 0 */
	__u32 cqe;
	/* ib_cq_init_attr.flags as the driver got them (cq_mod.c) */
	__u32 flags;
	__u32 reserved;
};

/*
 * Driver data of GET_CONTEXT (alloc_ucontext).  The counters and doorbell
 * pages are kernel RAM, mapped cached.  With OVBTEST_UCTX_BAR the context
 * also has a write-combining page and a non-cached page of device memory
 * (a PCI BAR: QEMU's ivshmem-plain, BAR 2), as mlx5's BlueFlame registers
 * and UAR doorbells, each starting with its OVBTEST_*_FILL; *_bar_offset
 * says where in the BAR they are (selftests/ovbtest/mmap.c).
 */
struct ovbtest_alloc_ucontext_resp {
	__aligned_u64 magic;
	__aligned_u64 counters_offset;
	__aligned_u64 doorbell_offset;
	__u32 flags;			/* enum ovbtest_uctx_flags */
	__u32 reserved;
	__aligned_u64 wc_offset;	/* mmap offset of the WC page */
	__aligned_u64 nc_offset;	/* ... of the non-cached page */
	__aligned_u64 wc_bar_offset;
	__aligned_u64 nc_bar_offset;
};

enum ovbtest_uctx_flags {
	OVBTEST_UCTX_BAR = 1 << 0,	/* wc_* and nc_* are valid */
};

#define OVBTEST_WC_FILL		(OVBTEST_MAGIC ^ 1)
#define OVBTEST_NC_FILL		(OVBTEST_MAGIC ^ 2)

/*
 * The counters page (read-only mapping): the driver bumps it after every
 * COPY of the context.
 */
struct ovbtest_counters {
	__aligned_u64 completions;
	__aligned_u64 bytes;
	__aligned_u64 magic;		/* OVBTEST_MAGIC while the device lives */
};

/*
 * Method shapes that real drivers use (mlx5 DEVX), in their own objects
 * (selftests/ovbtest/events.c, probe.c; test: selftests/uverbs_ovbtest_methods.c).
 * Their ids start at OVBTEST_NS + 10, clear of the objects above.  ib_uverbs
 * has 32 object keys, 20 of them for the core (6.1's uapi_key_obj(),
 * UVERBS_API_OBJ_KEY_NUM_DRIVER): OVBTEST_NS + 11 is the last driver object,
 * a device with OVBTEST_NS + 12 gets no uverbs device (-EOVERFLOW).
 */
enum ovbtest_methods_objects {
	/* An FD object with its own read() and poll(), like DEVX's async
	 * command FD: records that OVBTEST_METHOD_PROBE_POST queues.
	 */
	OVBTEST_OBJECT_EVENTS = OVBTEST_NS + 10,
	/* No handles of its own: global methods, like MLX5_IB_OBJECT_DEVX. */
	OVBTEST_OBJECT_PROBE,
};

enum ovbtest_events_methods {
	OVBTEST_METHOD_EVENTS_ALLOC = OVBTEST_NS,
};

enum ovbtest_events_alloc_attrs {
	OVBTEST_ATTR_EVENTS_ALLOC_FD = OVBTEST_ATTR_NS,	/* FD NEW */
};

enum ovbtest_probe_methods {
	OVBTEST_METHOD_PROBE_POST = OVBTEST_NS,
	OVBTEST_METHOD_PROBE_ANY_READ,
	OVBTEST_METHOD_PROBE_ANY_WRITE,
	OVBTEST_METHOD_PROBE_MRS,
	OVBTEST_METHOD_PROBE_ENUM,
	OVBTEST_METHOD_PROBE_RAW_FD,
	OVBTEST_METHOD_PROBE_ALLOC,
};

enum ovbtest_probe_post_attrs {
	OVBTEST_ATTR_PROBE_POST_FD = OVBTEST_ATTR_NS,	/* FD EVENTS, READ */
	OVBTEST_ATTR_PROBE_POST_COOKIE,			/* PTR_IN __u64 */
	OVBTEST_ATTR_PROBE_POST_SEQ,			/* PTR_OUT __u32, optional */
};

/* ANY_READ and ANY_WRITE. */
enum ovbtest_probe_any_attrs {
	OVBTEST_ATTR_PROBE_ANY_HANDLE = OVBTEST_ATTR_NS,	/* IDR any type */
	OVBTEST_ATTR_PROBE_ANY_INFO,			/* PTR_OUT ovbtest_any_info */
	/* ANY_WRITE only: a second handle, READ, optional */
	OVBTEST_ATTR_PROBE_ANY_OTHER,
};

enum ovbtest_probe_mrs_attrs {
	/* IDRS_ARRAY of MR handles, READ, OVBTEST_MRS_MIN..OVBTEST_MRS_MAX */
	OVBTEST_ATTR_PROBE_MRS_HANDLES = OVBTEST_ATTR_NS,
	OVBTEST_ATTR_PROBE_MRS_INFO,			/* PTR_OUT ovbtest_mrs_info */
};

enum ovbtest_probe_enum_attrs {
	/* ENUM_IN: elem_id OVBTEST_ENUM_NARROW (__u32) or _WIDE (struct) */
	OVBTEST_ATTR_PROBE_ENUM_IN = OVBTEST_ATTR_NS,
	OVBTEST_ATTR_PROBE_ENUM_INFO,			/* PTR_OUT ovbtest_enum_info */
};

enum ovbtest_probe_raw_fd_attrs {
	OVBTEST_ATTR_PROBE_RAW_FD = OVBTEST_ATTR_NS,	/* RAW_FD */
	OVBTEST_ATTR_PROBE_RAW_FD_ECHO,			/* PTR_OUT __s32 */
};

enum ovbtest_probe_alloc_attrs {
	/*
	 * PTR_OUT of 8..OVBTEST_ALLOC_MAX bytes: the method takes that many
	 * from uverbs_alloc() (not zalloc), writes OVBTEST_MAGIC into the
	 * first 8 and copies all of them out.
	 */
	OVBTEST_ATTR_PROBE_ALLOC_OUT = OVBTEST_ATTR_NS,
};

enum ovbtest_stuck_methods {
	OVBTEST_METHOD_STUCK_CREATE = OVBTEST_NS,
	OVBTEST_METHOD_STUCK_QUERY,
	OVBTEST_METHOD_STUCK_DESTROY,
	OVBTEST_METHOD_STUCK_LOG,
};

enum ovbtest_stuck_create_attrs {
	OVBTEST_ATTR_STUCK_CREATE_HANDLE = OVBTEST_ATTR_NS,	/* IDR NEW */
	OVBTEST_ATTR_STUCK_CREATE_FLAGS,		/* FLAGS_IN ovbtest_stuck_flags, optional */
	OVBTEST_ATTR_STUCK_CREATE_ID,			/* PTR_OUT __u32, optional */
	/*
	 * IDR READ, optional: an older STUCK object that takes a reference
	 * on the new one, as firmware objects point to each other (a DEVX
	 * MODIFY can make an old object point to a newer one).  The new
	 * object's destroy answers -EBUSY while its holder exists, for every
	 * reason but an aborted create; the holder's destroy releases it.
	 */
	OVBTEST_ATTR_STUCK_CREATE_HOLDER,
};

enum ovbtest_stuck_query_attrs {
	OVBTEST_ATTR_STUCK_QUERY_HANDLE = OVBTEST_ATTR_NS,	/* IDR READ */
	OVBTEST_ATTR_STUCK_QUERY_ID,			/* PTR_OUT __u32 */
};

enum ovbtest_stuck_destroy_attrs {
	OVBTEST_ATTR_STUCK_DESTROY_HANDLE = OVBTEST_ATTR_NS,	/* IDR DESTROY */
};

/*
 * STUCK_LOG takes no handle: it moves the oldest records of the driver's
 * log of destroy calls (module-wide, OVBTEST_STUCK_LOG_MAX records, the
 * newest dropped beyond) into RECORDS and says how many in COUNT.  What is
 * left unread at module unload is printed, one "ovbtest: stuck log: id ID
 * REASON RESULT" line each (REASON a number of ovbtest_stuck_reason).
 */
enum ovbtest_stuck_log_attrs {
	OVBTEST_ATTR_STUCK_LOG_RECORDS = OVBTEST_ATTR_NS,	/* PTR_OUT ovbtest_stuck_record[] */
	OVBTEST_ATTR_STUCK_LOG_COUNT,			/* PTR_OUT __u32 */
};

#define OVBTEST_STUCK_LOG_MAX	64

/* Why ib_uverbs called the destroy (its enum rdma_remove_reason). */
enum ovbtest_stuck_reason {
	OVBTEST_STUCK_WHY_DESTROY = 1,		/* a user DESTROY */
	OVBTEST_STUCK_WHY_CLOSE,		/* the uverbs file closes */
	OVBTEST_STUCK_WHY_DRIVER_REMOVE,	/* hot-unplug (disassociate) */
	OVBTEST_STUCK_WHY_ABORT,		/* a failed create */
	OVBTEST_STUCK_WHY_DRIVER_FAILURE,	/* the core gives up on it */
};

/* One call of the STUCK destroy: which object, why, what it answered. */
struct ovbtest_stuck_record {
	__u32 id;				/* OVBTEST_ATTR_STUCK_CREATE_ID */
	__u32 reason;				/* ovbtest_stuck_reason */
	__s32 result;				/* 0 or -EBUSY */
	__u32 reserved;
};

enum ovbtest_stuck_flags {
	/*
	 * Destroy fails with -EBUSY for every reason but an aborted create
	 * (RDMA_REMOVE_ABORT: the object never reached user space) and
	 * RDMA_REMOVE_DRIVER_FAILURE; without it the object dies normally.
	 */
	OVBTEST_STUCK_REFUSE = 1 << 0,
};

#define OVBTEST_MRS_MIN		1
#define OVBTEST_MRS_MAX		4
#define OVBTEST_ALLOC_MAX	4096

/* One record of the EVENTS FD, as read() returns it (whole or ENOSPC). */
struct ovbtest_event {
	__aligned_u64 cookie;		/* OVBTEST_ATTR_PROBE_POST_COOKIE */
	__u32 seq;			/* 1, 2, ... per FD */
	__u32 reserved;
};

enum ovbtest_any_flags {
	OVBTEST_ANY_OWN_DEVICE = 1 << 0,	/* the object is of this device */
	OVBTEST_ANY_OWN_CONTEXT = 1 << 1,	/* ... and of the caller's context */
};

struct ovbtest_any_info {
	__u32 object_id;		/* uobj_get_object_id(): UVERBS_OBJECT_* */
	__u32 handle;			/* the handle, echoed */
	__u32 flags;			/* enum ovbtest_any_flags */
	__u32 other_object_id;		/* ANY_WRITE's OTHER, or 0 */
};

struct ovbtest_mrs_info {
	__aligned_u64 bytes;		/* sum of the MRs' lengths */
	__u32 count;
	__u32 handles[OVBTEST_MRS_MAX];	/* echoed in order, 0 beyond count */
	__u32 reserved;
};

enum ovbtest_enum_elems {
	OVBTEST_ENUM_NARROW,		/* PTR_IN __u32 */
	OVBTEST_ENUM_WIDE,		/* PTR_IN struct ovbtest_enum_wide */
};

struct ovbtest_enum_wide {
	__aligned_u64 a;
	__aligned_u64 b;
};

struct ovbtest_enum_info {
	__u32 elem_id;			/* uverbs_attr_get_enum_id() */
	__u32 len;			/* the attribute's length */
	__aligned_u64 sum;		/* the value, or a + b */
};

/*
 * A dma-buf exporter for the device's dma-buf MRs (REG_DMABUF_MR):
 * OVBTEST_METHOD_DEVICE_DMABUF_ALLOC on the standard DEVICE object returns
 * a dma-buf fd over that many zeroed pages, which mmap()s (shared, read
 * and write) so a test can see what COPY moved.  The exporter is a module
 * of its own, ovbtest_dmabuf.ko (a dma-buf holds its exporter's module):
 * without it loaded the method answers EOPNOTSUPP.  Its live counts are
 * in /sys/module/ovbtest_dmabuf/parameters/ (buffers, attachments,
 * mappings, pins).  The method id is the last a driver may use on an
 * object (UVERBS_API_METHOD_KEY_NUM_DRIVER: 8), leaving the ones below
 * it for others.
 */
enum ovbtest_dmabuf_device_methods {
	OVBTEST_METHOD_DEVICE_DMABUF_ALLOC = OVBTEST_NS + 7,
};

enum ovbtest_dmabuf_alloc_attrs {
	OVBTEST_ATTR_DMABUF_ALLOC_PAGES = OVBTEST_ATTR_NS,	/* PTR_IN __u32 */
	OVBTEST_ATTR_DMABUF_ALLOC_FLAGS,		/* FLAGS_IN __u32, optional */
	OVBTEST_ATTR_DMABUF_ALLOC_FD,			/* PTR_OUT __s32 */
};

enum ovbtest_dmabuf_flags {
	/*
	 * An exporter without pin/unpin: the core maps the buffer once at
	 * attach time for a dynamic importer.  Without the flag it has
	 * pin/unpin and maps under the reservation lock.
	 */
	OVBTEST_DMABUF_STATIC = 1 << 0,
};

#define OVBTEST_DMABUF_MAX_PAGES	256

/*
 * An attribute the driver adds to the standard REG_DMABUF_MR method:
 * with OVBTEST_DMABUF_MR_DYNAMIC the MR imports the buffer as mlx5 does
 * (ib_umem_dmabuf_get() with a move_notify that drops the mapping, which
 * the next COPY remaps under the reservation lock); without it the buffer
 * is pinned, as efa does.  The driver's read-only module parameters
 * dmabuf_move_notifies and dmabuf_remaps count what the importer did.
 */
enum ovbtest_reg_dmabuf_mr_attrs {
	OVBTEST_ATTR_REG_DMABUF_MR_FLAGS = OVBTEST_ATTR_NS,	/* FLAGS_IN, optional */
};

enum ovbtest_dmabuf_mr_flags {
	OVBTEST_DMABUF_MR_DYNAMIC = 1 << 0,
	/*
	 * 6.12 kernels only (6.1: EINVAL, an unknown flag): a pinned import
	 * the exporter may revoke (ib_umem_dmabuf_get_pinned_revocable_and_lock
	 * with a revoke callback): a move of the buffer revokes the MR instead
	 * of failing on its pin; a revoked MR's COPY answers EIO.  Without
	 * DYNAMIC or REVOCABLE a 6.12 build pins through
	 * ib_umem_dmabuf_get_pinned_with_dma_device(), as mlx5's data-direct
	 * MRs.  The read-only module parameter dmabuf_revokes counts the
	 * revoke callbacks.
	 */
	OVBTEST_DMABUF_MR_REVOCABLE = 1 << 1,
};

/*
 * 6.12 kernels only: a method added to the standard MR object revokes a
 * pinned dma-buf MR through ib_umem_dmabuf_revoke(), as mlx5 revokes its
 * data-direct MRs when the data-direct device goes; a revoked MR stays
 * (its handle, its keys) until DEREG_MR, its COPY answers EIO.  Not a
 * dma-buf MR: EINVAL; a dynamic one: EOPNOTSUPP.  On 6.1 the method does
 * not exist.
 */
enum ovbtest_mr_methods {
	OVBTEST_METHOD_MR_DMABUF_REVOKE = OVBTEST_NS,
	OVBTEST_METHOD_MR_DMA_MAP,	/* below */
	OVBTEST_METHOD_MR_DMA_TRANSLATE,	/* below */
	OVBTEST_METHOD_MR_ODP_STATE,		/* below */
};

enum ovbtest_mr_revoke_attrs {
	OVBTEST_ATTR_MR_REVOKE_HANDLE = OVBTEST_ATTR_NS,	/* IDR MR, READ */
};

/*
 * OVBTEST_METHOD_MR_DMA_MAP (both kernels), on a user-memory MR: what the
 * umem ib_uverbs built for the device's DMA device holds, as a hardware
 * driver reads it to fill its translation tables.  The device's DMA
 * device is a platform device without an IOMMU in front, so a DMA address
 * is the physical address of the page.  DMA_MAP_OUT: the umem's address,
 * length and iova, ib_umem_num_pages(), the number of mapped scatterlist
 * entries (and of CPU-side ones, which an IOMMU merges into fewer), ib_umem_find_best_pgsz() for the bitmap of DMA_MAP_PGSZ and the
 * MR's iova, and ib_umem_num_dma_blocks() for that size (0 when none
 * fits).  DMA_MAP_SEGS (optional): the mapped entries, as many as fit;
 * DMA_MAP_BLOCKS (optional): the DMA address of each block of the best
 * size, as many as fit, at most 4096 each (rdma_umem_for_each_dma_block()).
 * Without CAP_SYS_ADMIN: EPERM (physical addresses, as pagemap's frame
 * numbers); a dma-buf, ODP or device-memory MR, or a bitmap without a size
 * of at least a page: EINVAL.  The MR is taken exclusively (the call sets
 * the umem's iova): EBUSY while another command uses it.
 */
enum ovbtest_mr_dma_map_attrs {
	OVBTEST_ATTR_MR_DMA_MAP_HANDLE = OVBTEST_ATTR_NS,	/* IDR MR, WRITE */
	OVBTEST_ATTR_MR_DMA_MAP_PGSZ,		/* PTR_IN __aligned_u64 */
	OVBTEST_ATTR_MR_DMA_MAP_OUT,		/* PTR_OUT ovbtest_mr_dma_map */
	OVBTEST_ATTR_MR_DMA_MAP_SEGS,		/* PTR_OUT ovbtest_dma_seg[] */
	OVBTEST_ATTR_MR_DMA_MAP_BLOCKS,		/* PTR_OUT __aligned_u64[] */
};

struct ovbtest_mr_dma_map {
	__aligned_u64 address;
	__aligned_u64 length;
	__aligned_u64 iova;
	__aligned_u64 best_pgsz;
	__aligned_u64 num_blocks;
	__u32 num_pages;
	__u32 num_segs;
	/* since the IOMMU case: the entries on the CPU side (orig_nents) */
	__u32 num_cpu_segs;
	__u32 reserved;
};

struct ovbtest_dma_seg {
	__aligned_u64 addr;
	__aligned_u64 len;
};

/*
 * OVBTEST_METHOD_MR_DMA_TRANSLATE (both kernels), on the MR object but of
 * no MR: what the IOMMU in front of the device's DMA device makes of DMA
 * addresses.  With ovbtest.ko's dma_pci=1 the DMA device is QEMU's edu PCI
 * device (1234:11e8; qemu/run --iommu puts it behind an Intel IOMMU), else
 * the platform device without an IOMMU.  DMA_TRANSLATE_OUT: the kind of
 * the device's IOMMU domain (iommu_get_domain_for_dev()) and whether the
 * DMA device is the PCI one; DMA_TRANSLATE_PHYS: for each DMA address of
 * DMA_TRANSLATE_IOVAS (at most 4096), the physical address the domain
 * maps it to (iommu_iova_to_phys(); 0: not mapped), all 0 without a
 * translating domain.  Without CAP_SYS_ADMIN: EPERM.
 */
enum ovbtest_mr_dma_translate_attrs {
	OVBTEST_ATTR_MR_DMA_TRANSLATE_IOVAS = OVBTEST_ATTR_NS,	/* PTR_IN __aligned_u64[] */
	OVBTEST_ATTR_MR_DMA_TRANSLATE_OUT,	/* PTR_OUT ovbtest_dma_translate */
	OVBTEST_ATTR_MR_DMA_TRANSLATE_PHYS,	/* PTR_OUT __aligned_u64[] */
};

/*
 * OVBTEST_METHOD_MR_ODP_STATE (both kernels, ovbtest.ko loaded with odp=1):
 * what the device's translation of an on-demand paging MR holds now - the
 * pages ib_umem_odp has DMA-mapped for it (readable, and of those the
 * writable ones), over the MR's range or, for an implicit MR, over the
 * child ranges made so far (OVBTEST_ODP_CHILD_SHIFT each), and the
 * invalidations that reached the MR.  Not an ODP MR: EINVAL.  With
 * odp=1 the device reports ODP caps as mlx5 does (general: SUPPORT and
 * SUPPORT_IMPLICIT; RC and XRC: SEND, RECV, WRITE, READ, ATOMIC,
 * SRQ_RECV; UD: SEND, SRQ_RECV; READ and SRQ_RECV left out of the
 * registration-time query, as mlx5 leaves them out for kernel users),
 * registers ODP MRs (explicit, and implicit for start 0 length U64_MAX),
 * faults their pages in when COPY reaches them and on ADVISE_MR's
 * prefetch, and counts in read-only module parameters: odp_invalidations
 * (invalidate callbacks that unmapped pages), odp_fault_pages (pages
 * mapped by COPY's faults) and odp_prefetch_pages (pages mapped by
 * ADVISE_MR).
 */
enum ovbtest_mr_odp_state_attrs {
	OVBTEST_ATTR_MR_ODP_STATE_HANDLE = OVBTEST_ATTR_NS,	/* IDR MR, READ */
	OVBTEST_ATTR_MR_ODP_STATE_OUT,		/* PTR_OUT ovbtest_mr_odp_state */
};

#define OVBTEST_ODP_CHILD_SHIFT	21
/*
 * At most this many child ranges per implicit MR: the one past it fails
 * with ENOMEM (COPY, ADVISE_MR with FLUSH; silently without).
 * PREFETCH_NO_FAULT makes no child where no VMA is.
 */
#define OVBTEST_ODP_MAX_CHILDREN	4096

struct ovbtest_mr_odp_state {
	__aligned_u64 readable;		/* DMA-mapped pages */
	__aligned_u64 writable;		/* ... mapped for writing too */
	__aligned_u64 invalidations;	/* invalidate calls that unmapped */
	__u32 implicit;			/* 1: an implicit MR */
	__u32 children;			/* implicit: child ranges made */
};

enum ovbtest_dma_domain {
	OVBTEST_DMA_DOMAIN_NONE,	/* no IOMMU: DMA addresses are physical */
	OVBTEST_DMA_DOMAIN_IDENTITY,	/* passthrough */
	OVBTEST_DMA_DOMAIN_DMA,		/* translated, unmaps flushed at once */
	OVBTEST_DMA_DOMAIN_DMA_FQ,	/* translated, IOTLB flushes deferred */
	OVBTEST_DMA_DOMAIN_OTHER,
};

struct ovbtest_dma_translate {
	__u32 domain;			/* enum ovbtest_dma_domain */
	__u32 pci;			/* 1: the DMA device is the edu device */
};

/*
 * 6.12 kernels only: OVBTEST_METHOD_DEVICE_MMAP_REVOKE, the last free
 * method id of the DEVICE object, revokes every mapping of the device's
 * uverbs files through rdma_user_mmap_disassociate(), as hns does before
 * a reset: mapped pages are zapped (a later fault gets the zero page, or
 * for a writable mapping the file's disassociate page), contexts and
 * objects stay, and a new mmap() maps the real pages again.  On 6.1 the
 * method does not exist.
 */
enum ovbtest_device_mmap_revoke_methods {
	OVBTEST_METHOD_DEVICE_MMAP_REVOKE = OVBTEST_NS + 3,
};

/*
 * OVBTEST_METHOD_DEVICE_DMABUF_MOVE: the exporter moves a (non-static)
 * buffer of its own, as a GPU driver evicts one: under the reservation
 * lock it tells every importer (move_notify), then, unless one still
 * holds a pin (EBUSY), copies the contents into new pages, frees the old
 * ones and zaps the CPU mappings (they fault the new pages in).  MOVES
 * returns how often the buffer has moved.
 */
enum ovbtest_dmabuf_move_methods {
	OVBTEST_METHOD_DEVICE_DMABUF_MOVE = OVBTEST_NS + 4,
};

enum ovbtest_dmabuf_move_attrs {
	OVBTEST_ATTR_DMABUF_MOVE_FD = OVBTEST_ATTR_NS,	/* PTR_IN __s32 */
	OVBTEST_ATTR_DMABUF_MOVE_MOVES,			/* PTR_OUT __u32, optional */
};

/*
 * The objects of the XRC, WQ and flow steering verbs alive on the device
 * (selftests/ovbtest/xrc.c, wq.c, flow.c; test: selftests/uverbs_ovbtest_xrc.c),
 * from another method of the standard DEVICE object.
 */
enum ovbtest_device_res_methods {
	OVBTEST_METHOD_DEVICE_RES = OVBTEST_NS + 5,
};

enum ovbtest_device_res_attrs {
	OVBTEST_ATTR_DEVICE_RES_INFO = OVBTEST_ATTR_NS,	/* PTR_OUT ovbtest_res_info */
};

struct ovbtest_res_info {
	__u32 xrcds;
	__u32 srqs;		/* basic and XRC */
	__u32 wqs;
	__u32 rwq_ind_tbls;
	__u32 flows;
	__u32 qps;		/* as ovbtest_device_info's */
};

/*
 * What the driver's create_flow received last (selftests/ovbtest/flow.c),
 * from a third method of the DEVICE object: the rule and, for each spec,
 * its type and size as ib_uverbs made them (union ib_flow_spec) and the
 * filter's value and mask (eth, ipv4, tcp/udp: their first 16 bytes;
 * ipv6: the last 16 of the kernel's OVBTEST_FLOW_IPV6_LEN, up to
 * hop_limit) or the tag.  The kernel's ipv6 filter has no padding (6.1:
 * it ends at real_sz; 6.12: __packed), so its spec is 88 bytes on 6.1
 * (filters 4-aligned) and 84 on 6.12 (byte-aligned).
 */
#define OVBTEST_FLOW_IPV6_LEN	39

enum ovbtest_device_flow_methods {
	OVBTEST_METHOD_DEVICE_LAST_FLOW = OVBTEST_NS + 6,
};

enum ovbtest_device_flow_attrs {
	OVBTEST_ATTR_DEVICE_LAST_FLOW_INFO = OVBTEST_ATTR_NS,	/* PTR_OUT ovbtest_flow_info */
};

#define OVBTEST_FLOW_MAX_SPECS	8

struct ovbtest_flow_spec_rec {
	__u32 type;
	__u16 size;		/* the kernel spec's */
	__u16 reserved;
	__u8 val[16];
	__u8 mask[16];
};

struct ovbtest_flow_info {
	__u32 seq;		/* flows created so far, 0: none */
	__u32 qp_num;
	__u32 type;
	__u32 flags;
	__u16 priority;
	__u8 num_of_specs;
	__u8 port;
	__u32 reserved;
	struct ovbtest_flow_spec_rec specs[OVBTEST_FLOW_MAX_SPECS];
};

/*
 * The device's ports (selftests/ovbtest/port.c): 1 is InfiniBand, 2 Ethernet
 * (RoCE v1 and v2) over the module's own netdev ovbeth<N>, whose MAC is
 * OVBTEST_ROCE_MAC.  Loaded with raw_ports=N it has N raw-Ethernet-only
 * ports more, OVBTEST_PORT_RAW_FIRST on (rawport.c), at most
 * OVBTEST_MAX_RAW_PORTS; with usnic=1 port 1 is a USNIC port (usnic.c).
 */
#define OVBTEST_PORT_IB			1
#define OVBTEST_PORT_ROCE		2
#define OVBTEST_NUM_PORTS		2
#define OVBTEST_ROCE_GID_TBL_LEN	16
#define OVBTEST_PORT_RAW_FIRST		3
#define OVBTEST_MAX_RAW_PORTS		1000
#define OVBTEST_ROCE_MAC		{ 0x02, 0x00, 0x00, 0x0f, 0xe5, 0x71 }

/*
 * An address vector as the driver received it (selftests/ovbtest/ah.c): in
 * CREATE_AH's driver response (udata), and the last one of a CREATE_AH
 * or of a MODIFY_QP with IB_QP_AV from a fourth method of the DEVICE
 * object.  type is enum rdma_ah_attr_type (1 IB, 2 RoCE); gid_type and
 * ndev_ifindex are those of the source GID's entry (0xff and 0 without a
 * GRH); dmac is what ib_core resolved on RoCE.
 */
enum ovbtest_device_av_methods {
	/*
	 * A driver has 8 method ids per object (ib_uverbs 6.1:
	 * UVERBS_API_METHOD_KEY_NUM_DRIVER), OVBTEST_NS to OVBTEST_NS + 7.
	 * On the DEVICE object + 1 stays unused (uverbs_ovbtest: an id the
	 * driver does not define), + 3 is MMAP_REVOKE on 6.12 (+ 4 is
	 * DMABUF_MOVE): none is left.
	 */
	OVBTEST_METHOD_DEVICE_LAST_AV = OVBTEST_NS + 2,
};

enum ovbtest_device_av_attrs {
	OVBTEST_ATTR_DEVICE_LAST_AV_INFO = OVBTEST_ATTR_NS,	/* PTR_OUT ovbtest_av_info */
};

enum ovbtest_av_source {
	OVBTEST_AV_NONE,
	OVBTEST_AV_CREATE_AH,
	OVBTEST_AV_MODIFY_QP,
};

struct ovbtest_av_info {
	__u32 seq;		/* AVs received so far, 0: none */
	__u32 qp_num;		/* MODIFY_QP's QP, else 0 */
	__u8 source;		/* enum ovbtest_av_source */
	__u8 type;
	__u8 port_num;
	__u8 ah_flags;		/* IB_AH_GRH: 1 */
	__u16 dlid;
	__u8 sl;
	__u8 static_rate;
	__u8 dmac[6];
	__u8 sgid_index;
	__u8 hop_limit;
	__u8 dgid[16];
	__u32 flow_label;
	__u8 traffic_class;
	__u8 gid_type;
	__u16 reserved;
	__u32 ndev_ifindex;
	__u32 dlid32;		/* the whole DLID (OPA: 32 bits, opa.c) */
};

/*
 * Asynchronous events on demand (selftests/ovbtest/async.c; test:
 * selftests/uverbs_ovbtest_async.c): a method added to each of the standard
 * QP, SRQ and WQ objects raises one event of the object, as the hardware
 * would, through ib_core's handler of it.  On an XRC TGT QP (any handle
 * of it, the creator's or one OPEN_QP made) the event goes to the shared
 * QP, so every handle of it gets one.  The type must be one of the
 * object's (enum ib_event_type): QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR,
 * COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR, QP_LAST_WQE_REACHED for a
 * QP; SRQ_ERR, SRQ_LIMIT_REACHED for an SRQ (the limit must be armed and
 * the event disarms it, as on mlx5); WQ_FATAL for a WQ.  Others: EINVAL.
 */
enum ovbtest_raise_methods {
	OVBTEST_METHOD_QP_RAISE = OVBTEST_NS,
	OVBTEST_METHOD_SRQ_RAISE = OVBTEST_NS,
	OVBTEST_METHOD_WQ_RAISE = OVBTEST_NS,
};

enum ovbtest_raise_attrs {
	OVBTEST_ATTR_RAISE_HANDLE = OVBTEST_ATTR_NS,	/* IDR QP/SRQ/WQ, READ */
	OVBTEST_ATTR_RAISE_EVENT,			/* PTR_IN __u32 */
};

/*
 * A flow action object made by a driver method added to the standard
 * FLOW_ACTION object (as mlx5's MODIFY_HEADER / PACKET_REFORMAT creates;
 * selftests/ovbtest/flow.c): flows reference it through an ACTION_HANDLE spec
 * and the core FLOW_ACTION_DESTROY destroys it.
 */
enum ovbtest_flow_action_methods {
	OVBTEST_METHOD_FLOW_ACTION_CREATE = OVBTEST_NS,
};

enum ovbtest_flow_action_attrs {
	OVBTEST_ATTR_FLOW_ACTION_CREATE_HANDLE = OVBTEST_ATTR_NS,	/* IDR NEW */
};

/*
 * READ_COUNTERS of a counters object bound to flow rules by their count
 * action: counter @i reads this, for the @rules holding the object.
 */
#define OVBTEST_COUNTER_VALUE(i, rules)	(0xc0000000ULL + ((i) << 8) + (rules))

/*
 * Device memory as mlx5's MEMIC hands it out: the standard DM_ALLOC
 * method carries a driver attribute with the mmap() offset and length of
 * the DM's pages (selftests/ovbtest/dm.c).  The pages belong to an mmap
 * entry of their own, removed when the DM is freed: mappings made before
 * keep the pages until their last munmap(), a new mmap() is refused.
 */
enum ovbtest_dm_alloc_attrs {
	OVBTEST_ATTR_DM_ALLOC_MMAP = OVBTEST_ATTR_NS,	/* PTR_OUT, optional */
};

struct ovbtest_dm_mmap {
	__aligned_u64 offset;	/* for mmap() on the uverbs file */
	__aligned_u64 length;	/* the DM's length, rounded up to pages */
};

/*
 * The work requests a kernel post reached the driver with, as rdmavt's
 * user QPs take them (POST_SEND, POST_RECV, POST_SRQ_RECV through
 * ib_uverbs; selftests/ovbtest/post.c; test: selftests/uverbs_ovbtest_post.c).
 * The driver refuses as rdmavt does: a send on a QP not in RTS or SQD, a
 * receive on a QP in RESET (EINVAL, the first WR); a WR with more SGEs
 * than the QP's or SRQ's cap (EINVAL, that WR); a chain longer than the
 * queue (ENOMEM, the first WR that does not fit).  A method added to the
 * standard QP and SRQ objects returns the last post's record: the first
 * OVBTEST_POST_MAX_WR WRs of its chain with their first
 * OVBTEST_POST_MAX_SGE SGEs (a QP keeps its last send and its last
 * receive post apart).
 */
#define OVBTEST_POST_MAX_WR		8
#define OVBTEST_POST_MAX_SGE		4

enum ovbtest_last_post_methods {
	OVBTEST_METHOD_QP_LAST_POST = OVBTEST_NS + 1,
	OVBTEST_METHOD_SRQ_LAST_POST = OVBTEST_NS + 1,
};

enum ovbtest_last_post_attrs {
	OVBTEST_ATTR_LAST_POST_HANDLE = OVBTEST_ATTR_NS,	/* IDR QP/SRQ, READ */
	OVBTEST_ATTR_LAST_POST_RECORD,		/* PTR_OUT ovbtest_post_record */
	OVBTEST_ATTR_LAST_POST_RECV,	/* PTR_IN __u32, QP: nonzero for receives */
};

enum ovbtest_post_kind {
	OVBTEST_POST_NONE,
	OVBTEST_POST_SEND,
	OVBTEST_POST_RECV,
	OVBTEST_POST_SRQ_RECV,
};

struct ovbtest_post_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

struct ovbtest_post_wr {
	__aligned_u64 wr_id;
	__u32 opcode;		/* enum ib_wr_opcode; 0 for a receive */
	__u32 send_flags;
	__u32 num_sge;
	__u32 ex;		/* imm_data (its bytes as posted) or invalidate_rkey */
	__aligned_u64 remote_addr;	/* RDMA and atomic WRs */
	__aligned_u64 compare_add;	/* atomic WRs */
	__aligned_u64 swap;
	__u32 rkey;		/* RDMA and atomic WRs */
	__u32 ah_handle;	/* UD: the AH's handle (its uobject's id), ~0 none */
	__u32 remote_qpn;	/* UD */
	__u32 remote_qkey;
	struct ovbtest_post_sge sge[OVBTEST_POST_MAX_SGE];
};

struct ovbtest_post_record {
	__u32 kind;		/* enum ovbtest_post_kind; NONE before any post */
	__u32 posts;		/* posts that reached the driver */
	__u32 chain_len;	/* WRs in the last post's chain */
	__u32 bad_index;	/* the WR refused (from 0), ~0 when none was */
	__s32 ret;		/* what the driver answered */
	__u32 dead_ahs;		/* UD WRs, ever, naming an AH already destroyed */
	struct ovbtest_post_wr wr[OVBTEST_POST_MAX_WR];
};

/*
 * Driver udata of EX_QUERY_DEVICE and EX_MODIFY_QP (a RESET -> INIT ...
 * transition alike), and of the legacy ALLOC_PD (a user PD), as mlx4,
 * mlx5, efa and irdma read and write theirs
 * (selftests/ovbtest/udata_ex.c; test: selftests/uverbs_ovbtest_udata_ex.c).
 * The request is read zero-extended from the first udata->inlen bytes;
 * bytes past it must be zero (ib_is_udata_cleared()): EINVAL on
 * EX_QUERY_DEVICE, EOPNOTSUPP on EX_MODIFY_QP, as mlx5.  The response
 * reports the udata the driver was handed and is cut to udata->outlen:
 * nothing is written when that is 0.
 */
struct ovbtest_udata_ex_cmd {
	__aligned_u64 tag;		/* echoed in the response */
	__aligned_u64 reserved;		/* 0, else EINVAL */
};

struct ovbtest_udata_ex_resp {
	__aligned_u64 inbuf;		/* udata->inbuf, the user address */
	__aligned_u64 outbuf;		/* udata->outbuf */
	__u32 inlen;
	__u32 outlen;
	__aligned_u64 tag;		/* the request's */
	__u32 response_length;		/* bytes written: min(outlen, sizeof) */
	__u32 op;			/* OVBTEST_UDATA_EX_* that wrote it */
};

enum ovbtest_udata_ex_op {
	OVBTEST_UDATA_EX_QUERY_DEVICE = 1,
	OVBTEST_UDATA_EX_MODIFY_QP,
	OVBTEST_UDATA_EX_ALLOC_PD,	/* legacy ALLOC_PD: EINVAL for a tail */
};

/*
 * CQ creation's driver data for two library generations, the generation
 * told apart by the request's length alone as cxgb4's create_cq does
 * (selftests/ovbtest/udata_ex.c; test: selftests/uverbs_ovbtest_udata_ex.c):
 *  - udata->inlen < sizeof(struct ovbtest_create_cq_req) (no request, or
 *    a 4-byte legacy word): an old library.  Nothing of the request is
 *    read; the CQ gets the legacy 32-byte CQEs and the response is
 *    struct ovbtest_create_cq_resp_v2 without its last field (abi_flags),
 *    20 bytes however much room there is;
 *  - a whole request (bytes past it are not read): the new library.
 *    cqe_size is honoured (0: 64; else 32 or 64, EINVAL otherwise;
 *    reserved nonzero: EINVAL) and the response is whole, abi_flags
 *    OVBTEST_CQ_ABI_NEW.
 * Either response is cut to udata->outlen (cxgb4 writes its fixed length;
 * this driver never writes past outlen).  The first 16 bytes are
 * struct ovbtest_create_cq_resp.
 */
struct ovbtest_create_cq_req {
	__u32 cqe_size;
	__u32 reserved;
};

struct ovbtest_create_cq_resp_v2 {
	struct ovbtest_create_cq_resp base;
	__u32 cqe_size;			/* bytes per CQE: 32 for old libraries */
	__u32 abi_flags;		/* enum ovbtest_cq_abi_flags; new only */
};

enum ovbtest_cq_abi_flags {
	OVBTEST_CQ_ABI_NEW = 1 << 0,	/* the request was whole */
};

#define OVBTEST_CQE_SIZE_LEGACY	32
#define OVBTEST_CQE_SIZE	64

/*
 * CQ moderation and CQ create flags (selftests/ovbtest/cq_mod.c; test:
 * selftests/uverbs_ovbtest_cq_mod.c).  The CQ create flags taken are
 * IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION and _IGNORE_OVERRUN, as on mlx5;
 * others: EOPNOTSUPP (from the driver: ioctl's CQ_CREATE refuses them
 * first, EINVAL).  modify_cq takes a count and a period up to the
 * device's cq_moderation_caps (EX_QUERY_DEVICE), else EINVAL; the module
 * parameter cq_moderation reads "cqe count period" of the last CQ it
 * moderated.
 */
#define OVBTEST_MAX_CQ_MOD_COUNT	1000
#define OVBTEST_MAX_CQ_MOD_PERIOD	4095

/*
 * QUERY_CONTEXT reaches the driver's query_ucontext op (selftests/ovbtest/ctx.c,
 * test: selftests/uverbs_ovbtest_ctx_attrs.c): the driver adds a mandatory
 * PTR_OUT to the core method, as mlx5 adds MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
 * and answers in it what GET_CONTEXT's driver data said (at least up to
 * flags; the rest is zeroed, as uverbs_copy_to_struct_or_zero does).
 */
enum ovbtest_query_context_attrs {
	OVBTEST_ATTR_QUERY_CONTEXT_RESP = OVBTEST_ATTR_NS,	/* PTR_OUT ovbtest_alloc_ucontext_resp */
};

/*
 * Two more driver objects (selftests/ovbtest/attrs.c, hidden.c; test:
 * selftests/uverbs_ovbtest_ctx_attrs.c):
 *  - ATTRS, global methods: ECHO reads CONST_IN attributes with and without
 *    a default and FLAGS_IN attributes through uverbs_get_flags32/64, and
 *    returns what the driver got;
 *  - HIDDEN, an IDR object whose UAPI_DEF_IS_OBJ_SUPPORTED function says no
 *    (as mlx5 hides DEVX, VAR and others on devices without the capability):
 *    ib_uverbs drops it, its methods, and the methods of other objects
 *    that take a handle of it as a mandatory attribute (HIDDEN_MAND on
 *    ATTRS).  HIDDEN_OPT takes one as an optional attribute: it stays.
 *    ATTRS itself has an IS_OBJ_SUPPORTED function that says yes.
 */
enum ovbtest_attrs_objects {
	OVBTEST_OBJECT_ATTRS = OVBTEST_NS + 2,
	OVBTEST_OBJECT_HIDDEN = OVBTEST_NS + 3,
};

enum ovbtest_attrs_methods {
	OVBTEST_METHOD_ATTRS_ECHO = OVBTEST_NS,
	OVBTEST_METHOD_ATTRS_HIDDEN_MAND,
	OVBTEST_METHOD_ATTRS_HIDDEN_OPT,
};

enum ovbtest_attrs_echo_attrs {
	/* CONST_IN u16, mandatory: uverbs_get_const() */
	OVBTEST_ATTR_ATTRS_ECHO_U16 = OVBTEST_ATTR_NS,
	/* CONST_IN u8, optional: uverbs_get_const_default(OVBTEST_ATTRS_U8_DEFAULT) */
	OVBTEST_ATTR_ATTRS_ECHO_U8,
	/* CONST_IN s16, optional: uverbs_get_const_default(OVBTEST_ATTRS_S16_DEFAULT) */
	OVBTEST_ATTR_ATTRS_ECHO_S16,
	/* CONST_IN s32, optional, no default: uverbs_get_const() (ENOENT kept in s32_ret) */
	OVBTEST_ATTR_ATTRS_ECHO_S32,
	/* FLAGS_IN, optional: uverbs_get_flags32(OVBTEST_ATTRS_F32_ALLOWED) */
	OVBTEST_ATTR_ATTRS_ECHO_FLAGS32,
	/* FLAGS_IN, optional: uverbs_get_flags64(OVBTEST_ATTRS_F64_ALLOWED) */
	OVBTEST_ATTR_ATTRS_ECHO_FLAGS64,
	OVBTEST_ATTR_ATTRS_ECHO_INFO,		/* PTR_OUT ovbtest_attrs_info */
};

#define OVBTEST_ATTRS_U8_DEFAULT	0x5a
#define OVBTEST_ATTRS_S16_DEFAULT	(-300)
/*
 * Bit 32 is deliberately beyond a u32: uverbs_get_flags32() takes it as
 * allowed and must still refuse it, as the value does not fit.
 */
#define OVBTEST_ATTRS_F32_ALLOWED	0x10000000bULL
#define OVBTEST_ATTRS_F64_ALLOWED	0x8000000000000001ULL

struct ovbtest_attrs_info {
	__aligned_u64 flags64;
	__u32 flags32;
	__s32 s32;
	__s32 s32_ret;		/* uverbs_get_const()'s return: 0 or -ENOENT */
	__s16 s16;
	__u16 u16;
	__u8 u8;
	__u8 reserved[3];
	__u32 calls;		/* ECHO handler runs on the device, this one included */
};

enum ovbtest_attrs_hidden_attrs {
	/* HIDDEN_MAND: mandatory; HIDDEN_OPT: optional */
	OVBTEST_ATTR_ATTRS_HIDDEN_HANDLE = OVBTEST_ATTR_NS,	/* IDR HIDDEN, READ */
	OVBTEST_ATTR_ATTRS_HIDDEN_CALLS,		/* PTR_OUT __u32, optional */
};

enum ovbtest_hidden_methods {
	OVBTEST_METHOD_HIDDEN_CREATE = OVBTEST_NS,
};

enum ovbtest_hidden_create_attrs {
	OVBTEST_ATTR_HIDDEN_CREATE_HANDLE = OVBTEST_ATTR_NS,	/* IDR NEW */
};

/*
 * Interrupt-context completions (selftests/ovbtest/irq.c): a method added
 * to the standard CQ object starts a per-CQ hrtimer in hard-interrupt mode
 * that fires @count times, @period_ns apart, and on each expiry calls what
 * the flags ask, from the interrupt as a hardware driver's EQ handler does:
 * the CQ's comp_handler (armed or not, as efa), its event_handler with
 * IB_EVENT_CQ_ERR.  A new call first stops the timer; @count 0 only stops
 * it.  FIRED reports the expiries since the CQ was made, read with the
 * timer stopped.  destroy_cq stops the timer before it returns (no handler
 * call after it), as a driver synchronises with its interrupt.
 */
enum ovbtest_cq_methods {
	OVBTEST_METHOD_CQ_IRQ = OVBTEST_NS,
};

enum ovbtest_cq_irq_attrs {
	OVBTEST_ATTR_CQ_IRQ_HANDLE = OVBTEST_ATTR_NS,	/* IDR CQ, READ */
	OVBTEST_ATTR_CQ_IRQ_ARGS,			/* PTR_IN ovbtest_cq_irq */
	OVBTEST_ATTR_CQ_IRQ_FIRED,			/* PTR_OUT __u64, optional */
};

enum ovbtest_cq_irq_flags {
	OVBTEST_CQ_IRQ_COMP = 1 << 0,		/* cq->comp_handler */
	OVBTEST_CQ_IRQ_CQ_ERR = 1 << 1,		/* cq->event_handler, CQ_ERR */
};

struct ovbtest_cq_irq {
	__u32 count;
	__u32 period_ns;	/* at least 1000 */
	__u32 flags;		/* enum ovbtest_cq_irq_flags, not 0 */
	__u32 reserved;		/* 0 */
};

/*
 * IB_QPT_DRIVER QPs (selftests/ovbtest/drv_qp.c; test:
 * selftests/uverbs_ovbtest_drv_qp.c), as efa's SRD and mlx5's DC QPs: the
 * create udata names the sub-type.  The request is read as efa reads its
 * own: EINVAL when udata->inlen does not reach driver_qp_type, when bytes
 * past the struct are not zero or comp_mask is set; EOPNOTSUPP for an
 * unknown sub-type.  Each sub-type has the driver's own requirements
 * (ib_uverbs checks none of them for IB_QPT_DRIVER):
 *  - SRD (efa): no SRQ, no create flags (EOPNOTSUPP);
 *  - DCI (mlx5's DC initiator): send only (receive caps: EINVAL), no
 *    SRQ (EINVAL), any create flags ib_uverbs hands over, kept;
 *  - DCT (mlx5's DC target): receives on an SRQ (EINVAL without one), no
 *    send queue (send caps: EINVAL), no create flags (EINVAL).
 * The three follow UD's state machine (ib_modify_qp_is_ok() with
 * IB_QPT_UD, as efa checks SRD's transitions).  The response reports what
 * reached the driver, cut to udata->outlen.
 */
#define OVBTEST_QPT_DRIVER		0xff	/* IB_UVERBS_QPT_DRIVER */

enum ovbtest_drv_qp_type {
	OVBTEST_DRV_QPT_SRD = 1,
	OVBTEST_DRV_QPT_DCI,
	OVBTEST_DRV_QPT_DCT,
};

struct ovbtest_drv_qp_cmd {
	__u32 driver_qp_type;		/* enum ovbtest_drv_qp_type */
	__u32 comp_mask;		/* 0 */
};

enum ovbtest_drv_qp_seen {
	OVBTEST_DRV_QP_PD = 1 << 0,
	OVBTEST_DRV_QP_SEND_CQ = 1 << 1,
	OVBTEST_DRV_QP_RECV_CQ = 1 << 2,
	OVBTEST_DRV_QP_SAME_CQ = 1 << 3,	/* send_cq == recv_cq */
	OVBTEST_DRV_QP_SRQ = 1 << 4,
	OVBTEST_DRV_QP_SIG_ALL = 1 << 5,	/* sq_sig_type IB_SIGNAL_ALL_WR */
};

struct ovbtest_drv_qp_resp {
	__u32 driver_qp_type;
	__u32 qp_type;			/* init_attr->qp_type */
	__u32 seen;			/* enum ovbtest_drv_qp_seen */
	__u32 create_flags;		/* init_attr->create_flags */
	__u32 max_send_wr;		/* init_attr->cap */
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u32 qpn;
	__u32 inlen;			/* udata->inlen */
	__u32 outlen;			/* udata->outlen */
};

/*
 * An OPA port (hfi1's kind; selftests/ovbtest/opa.c; test:
 * selftests/uverbs_ovbtest_opa.c).  Loaded with opa=1, the InfiniBand port
 * has RDMA_CORE_CAP_OPA_AH (no MAD capabilities: nothing serves MADs),
 * and its LID and SM LID are the module parameters ib_lid and ib_sm_lid
 * (writable, 32 bits; a port that is not OPA reports their low 16).  An address vector
 * of the OPA type with a GRH whose destination GID carries an extended
 * LID (ib_is_opa_gid()) gets that LID as its DLID, as hfi1 makes one.
 * A method added to the standard CQ object queues one completion of a
 * QP whose send or receive CQ it is, with the LIDs given; the next poll
 * returns it.  Destroying the QP drops it, as a driver cleans its CQs.
 * A source LID above 16 bits on a port that is not OPA: EINVAL (ib_uverbs
 * WARNs on such a LID; no driver makes one).  EBUSY: a completion is
 * pending, or the CQ is in use by another command (taken exclusively).
 */
enum ovbtest_cq_push_methods {
	OVBTEST_METHOD_CQ_PUSH_WC = OVBTEST_NS + 1,
};

enum ovbtest_cq_push_wc_attrs {
	OVBTEST_ATTR_CQ_PUSH_WC_CQ = OVBTEST_ATTR_NS,	/* IDR CQ, WRITE */
	OVBTEST_ATTR_CQ_PUSH_WC_QP,			/* IDR QP, READ */
	OVBTEST_ATTR_CQ_PUSH_WC_ARGS,			/* PTR_IN ovbtest_push_wc */
};

struct ovbtest_push_wc {
	__aligned_u64 wr_id;
	__u32 slid;		/* wc->slid, 32 bits */
	__u32 src_qp;
	__u8 port_num;		/* a port of the device */
	__u8 sl;
	__u8 dlid_path_bits;
	__u8 reserved;		/* 0 */
	__u32 reserved2;	/* 0 */
};

/*
 * Interrupt-context async events (selftests/ovbtest/irq_events.c; test:
 * selftests/uverbs_ovbtest_irq_events.c): a method added to the standard
 * QP, SRQ and WQ objects, and one of the driver's PORT_IRQ object, start an
 * hrtimer in hard-interrupt mode that fires @count times, @period_ns
 * apart.  Each expiry raises @event from the interrupt, as an HCA's event
 * queue handler does: the object's event_handler with the object, or for
 * the PORT_IRQ method ib_dispatch_event() on port @port.  The types: those
 * of the RAISE methods above (SRQ_LIMIT_REACHED only when the limit is
 * armed, and the event disarms it: an expiry with the limit disarmed
 * raises nothing), and for the device PORT_ACTIVE, PORT_ERR, LID_CHANGE,
 * PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE; others EINVAL.
 * (The DEVICE object has no method id left: uverbs_ovbtest probes the
 * one after DEVICE_INFO as missing, 6.12 uses NS+3; hence an object of
 * its own, without handles, at the next free object id.)
 * @port is 0 on an object.  The port's period is at least
 * OVBTEST_PORT_IRQ_MIN_PERIOD (each event is a work item of ib_core's),
 * and its timer stops when the context that started it is gone.  OVBTEST_IRQ_EV_DEFER (QPs only) makes each
 * expiry queue a work item that calls the handler from an ordered
 * workqueue, as mlx5 delivers QP events; destroy_qp waits for it.  A new
 * call first stops the timer (and waits for queued work); @count 0 only
 * stops it.  RAISED reports the events the driver raised since the
 * object was made (the device: since the module was loaded), read with
 * the timer stopped.  destroy_qp/srq/wq stop the timer before they
 * return, and the module stops the device's before it unregisters.
 */
enum ovbtest_irq_ev_methods {
	OVBTEST_METHOD_QP_IRQ = OVBTEST_NS + 2,
	OVBTEST_METHOD_SRQ_IRQ = OVBTEST_NS + 2,
	OVBTEST_METHOD_WQ_IRQ = OVBTEST_NS + 2,
	OVBTEST_METHOD_PORT_IRQ = OVBTEST_NS,	/* on OVBTEST_OBJECT_PORT_IRQ */
};

enum ovbtest_irq_ev_objects {
	OVBTEST_OBJECT_PORT_IRQ = OVBTEST_NS + 4,
};

enum ovbtest_irq_ev_attrs {
	OVBTEST_ATTR_IRQ_EV_HANDLE = OVBTEST_ATTR_NS,	/* IDR QP/SRQ/WQ, READ; not on PORT_IRQ */
	OVBTEST_ATTR_IRQ_EV_ARGS,			/* PTR_IN ovbtest_irq_ev */
	OVBTEST_ATTR_IRQ_EV_RAISED,			/* PTR_OUT __u64, optional */
	/* PORT_IRQ only: the events of all the device's QPs, SRQs and WQs */
	OVBTEST_ATTR_IRQ_EV_OBJ_RAISED,			/* PTR_OUT __u64, optional */
};

#define OVBTEST_PORT_IRQ_MIN_PERIOD	20000	/* ns */

enum ovbtest_irq_ev_flags {
	OVBTEST_IRQ_EV_DEFER = 1 << 0,	/* QP: the handler from a workqueue */
};

struct ovbtest_irq_ev {
	__u32 count;
	__u32 period_ns;	/* at least 1000 when @count */
	__u32 event;		/* enum ib_event_type */
	__u32 port;		/* DEVICE: a port number; objects: 0 */
	__u32 flags;		/* enum ovbtest_irq_ev_flags */
	__u32 reserved;		/* 0 */
};

/*
 * A fatal device error raised from hard-interrupt context
 * (selftests/ovbtest/fatal.c; test: selftests/uverbs_ovbtest_fatal.c), a
 * second method of the PORT_IRQ object.  It arms a one-shot hrtimer
 * (HRTIMER_MODE_REL) that expires after @delay_ns (at least 1000) and,
 * as mlx5's internal-error path (mlx5_ib_handle_internal_error, then
 * ib_dispatch_event) does: marks the device failed, calls comp_handler
 * of every CQ of the device, and dispatches IB_EVENT_DEVICE_FATAL with
 * element.port_num @port (mlx5 and ocrdma give 1; mthca and cxgb4 0; 0 or
 * a port of the device here).  The first expiry of the device dispatches
 * the event, later ones only notify the CQs (mlx5 dispatches while
 * ib_active, then clears it).  From the failure on, as mlx5 answers with
 * its command interface down: GET_CONTEXT fails EAGAIN (alloc_ucontext
 * with ib_active false), ALLOC_PD, CREATE_CQ, CREATE_QP and REG_MR fail
 * ENOLINK (a firmware command refused), destroys succeed.  The timer is
 * the device's: it outlives the context that armed it, a new call
 * re-arms it (a pending one is cancelled first, and RAISED is read then);
 * @delay_ns 0 only cancels.  The module cancels it before it unregisters.
 * RAISED: fatal errors raised so far on the device; FAILED: whether it
 * has failed (read after the cancel).
 */
enum ovbtest_fatal_methods {
	OVBTEST_METHOD_PORT_FATAL = OVBTEST_NS + 1,	/* on OVBTEST_OBJECT_PORT_IRQ */
};

enum ovbtest_fatal_attrs {
	OVBTEST_ATTR_FATAL_ARGS = OVBTEST_ATTR_NS,	/* PTR_IN ovbtest_fatal */
	OVBTEST_ATTR_FATAL_RAISED,			/* PTR_OUT __u64, optional */
	OVBTEST_ATTR_FATAL_FAILED,			/* PTR_OUT __u32, optional */
};

struct ovbtest_fatal {
	__u32 delay_ns;		/* 0: cancel only */
	__u32 port;		/* element.port_num of the event */
	__u32 flags;		/* 0 */
	__u32 reserved;		/* 0 */
};

/*
 * Driver methods on core objects that make, destroy or read core-typed
 * objects, as mlx5's fs.c and dm.c do (selftests/ovbtest/drv_flow.c and
 * dm.c; test: selftests/uverbs_ovbtest_drv_flow.c).
 *
 * FLOW_CREATE, a method the driver adds to the core FLOW object (mlx5's
 * MLX5_IB_METHOD_CREATE_FLOW): a rule without specs, made by the driver
 * and handed to ib_uverbs with ib_set_flow(), on the QP DEST_QP names
 * (UD or RAW_PACKET, else EINVAL; none: a rule without a QP, as mlx5's
 * with a DEVX destination), whose usecnt it then holds; the flow actions
 * ACTIONS names are held by the rule's flow resources (flow_resources_add).
 * From ib_set_flow() on, an error destroys the rule through the core
 * (uverbs_finalize_uobj_create): ID is written after it.  The rule is a
 * FLOW like those of EX_CREATE_FLOW: the core's FLOW_DESTROY, write()
 * EX_DESTROY_FLOW, the driver's FLOW_DESTROY (mlx5's MLX5_IB_METHOD_
 * DESTROY_FLOW, the core's destroy under a driver method id), close()
 * and hot-unplug destroy it.
 *
 * FLOW_LOG takes no handle: it moves the oldest records of the driver's
 * log (module-wide, OVBTEST_FLOW_LOG_MAX records, newer ones dropped)
 * into RECORDS and says how many in COUNT.  The log has one record per
 * destroy_flow call of a FLOW_CREATE rule and one per destroy_qp call of
 * a QP that was ever a FLOW_CREATE rule's DEST_QP.  What is unread at
 * module unload is printed, a "ovbtest: flow log: KIND ID QPN USECNT"
 * line each.
 *
 * DM_QUERY, a method the driver adds to the core DM object as a global
 * method tree (mlx5's MLX5_IB_METHOD_DM_QUERY): the DM's mmap page index
 * (that of OVBTEST_ATTR_DM_ALLOC_MMAP's offset), its length as ib_uverbs
 * recorded it at DM_ALLOC, and the MRs over it (its usecnt, the core's).
 */
enum ovbtest_flow_methods {
	OVBTEST_METHOD_FLOW_CREATE = OVBTEST_NS,
	OVBTEST_METHOD_FLOW_DESTROY,
	OVBTEST_METHOD_FLOW_LOG,
};

enum ovbtest_flow_create_attrs {
	OVBTEST_ATTR_FLOW_CREATE_HANDLE = OVBTEST_ATTR_NS,	/* IDR FLOW, NEW */
	OVBTEST_ATTR_FLOW_CREATE_DEST_QP,		/* IDR QP, READ, optional */
	/* IDRS_ARRAY of FLOW_ACTION, READ, 1..OVBTEST_FLOW_MAX_ACTIONS, optional */
	OVBTEST_ATTR_FLOW_CREATE_ACTIONS,
	OVBTEST_ATTR_FLOW_CREATE_ID,			/* PTR_OUT __u32, optional */
};

#define OVBTEST_FLOW_MAX_ACTIONS	2

enum ovbtest_flow_destroy_attrs {
	OVBTEST_ATTR_FLOW_DESTROY_HANDLE = OVBTEST_ATTR_NS,	/* IDR FLOW, DESTROY */
};

enum ovbtest_flow_log_attrs {
	OVBTEST_ATTR_FLOW_LOG_RECORDS = OVBTEST_ATTR_NS,	/* PTR_OUT ovbtest_flow_record[] */
	OVBTEST_ATTR_FLOW_LOG_COUNT,			/* PTR_OUT __u32 */
};

#define OVBTEST_FLOW_LOG_MAX	64

enum ovbtest_flow_log_kind {
	OVBTEST_FLOW_LOG_FLOW = 1,	/* destroy_flow of a FLOW_CREATE rule */
	OVBTEST_FLOW_LOG_QP,		/* destroy_qp of one's DEST_QP */
};

struct ovbtest_flow_record {
	__u32 kind;		/* enum ovbtest_flow_log_kind */
	__u32 id;		/* FLOW: FLOW_CREATE's ID; QP: the QP number */
	__u32 qpn;		/* the QP's number; a FLOW without one: 0 */
	__u32 qp_usecnt;	/* the QP's usecnt during the call (0: none) */
};

enum ovbtest_dm_methods {
	OVBTEST_METHOD_DM_QUERY = OVBTEST_NS,
};

enum ovbtest_dm_query_attrs {
	OVBTEST_ATTR_DM_QUERY_HANDLE = OVBTEST_ATTR_NS,	/* IDR DM, READ */
	OVBTEST_ATTR_DM_QUERY_PAGE_INDEX,		/* PTR_OUT __u16 */
	OVBTEST_ATTR_DM_QUERY_LENGTH,			/* PTR_OUT __u64 */
	OVBTEST_ATTR_DM_QUERY_MRS,			/* PTR_OUT __u32, optional */
};

/*
 * OVBTEST_OBJECT_MMAP_KIND: a buffer of the driver that user space maps
 * the way one named driver maps its queues, outside rdma_user_mmap_io()
 * (selftests/ovbtest/mmap_kinds.c; test:
 * selftests/uverbs_ovbtest_mmap_kinds.c).  CREATE returns the mmap()
 * offset (bytes) and length; ACCESS reads, then optionally writes, the
 * u64 at INDEX of the buffer as the driver sees it; DESTROY frees it, as
 * destroying the queue that owns it would.  OVBTEST_NS + 8: a driver
 * object key of its own (see ovbtest_methods_objects for the limit;
 * OVBTEST_NS + 9 stays undefined: uverbs_ovbtest asserts on it).
 */
enum ovbtest_mmap_kind_objects {
	OVBTEST_OBJECT_MMAP_KIND = OVBTEST_NS + 8,
};

enum ovbtest_mmap_kind_methods {
	OVBTEST_METHOD_MMAP_KIND_CREATE = OVBTEST_NS,
	OVBTEST_METHOD_MMAP_KIND_ACCESS,
	OVBTEST_METHOD_MMAP_KIND_DESTROY,
};

enum ovbtest_mmap_kind_create_attrs {
	OVBTEST_ATTR_MMAP_KIND_CREATE_HANDLE = OVBTEST_ATTR_NS,	/* IDR NEW */
	OVBTEST_ATTR_MMAP_KIND_CREATE_KIND,	/* CONST_IN u32, mandatory */
	OVBTEST_ATTR_MMAP_KIND_CREATE_FILL,	/* PTR_IN u64: the first u64 */
	OVBTEST_ATTR_MMAP_KIND_CREATE_OFFSET,	/* PTR_OUT u64 */
	OVBTEST_ATTR_MMAP_KIND_CREATE_LENGTH,	/* PTR_OUT u64 */
};

enum ovbtest_mmap_kind_access_attrs {
	OVBTEST_ATTR_MMAP_KIND_ACCESS_HANDLE = OVBTEST_ATTR_NS,	/* IDR READ */
	OVBTEST_ATTR_MMAP_KIND_ACCESS_INDEX,	/* PTR_IN u32, mandatory */
	OVBTEST_ATTR_MMAP_KIND_ACCESS_WRITE,	/* PTR_IN u64: stored after */
	OVBTEST_ATTR_MMAP_KIND_ACCESS_READ,	/* PTR_OUT u64, mandatory */
};

enum ovbtest_mmap_kind_destroy_attrs {
	OVBTEST_ATTR_MMAP_KIND_DESTROY_HANDLE = OVBTEST_ATTR_NS,	/* IDR DESTROY */
};

/*
 * The kinds, each modelled on one driver.  None is recorded by ib_core
 * (no rdma_user_mmap_io()), so a hot-unplug's disassociation leaves every
 * one of these mappings in place.  Every kind wants a MAP_SHARED map of
 * exactly its length (-EINVAL otherwise).
 */
enum ovbtest_mmap_kind_type {
	/* siw: OVBTEST_MMAP_KIND_VMALLOC_PAGES pages of vmalloc_user(),
	 * found through an mmap entry, mapped by remap_vmalloc_range()
	 */
	OVBTEST_MMAP_KIND_VMALLOC,
	/* qedr's doorbell-recovery page (efa's queues): one kernel page,
	 * an mmap entry, vm_insert_page()
	 */
	OVBTEST_MMAP_KIND_PAGE,
	/* mlx5's clock-info page: as PAGE, read-only: a map asking for
	 * PROT_WRITE or PROT_EXEC gets -EPERM, and VM_MAYWRITE is cleared
	 */
	OVBTEST_MMAP_KIND_PAGE_RO,
	/* ocrdma (cxgb4): kernel pages at an offset that is their physical
	 * address, looked up in a list of the context, remap_pfn_range()
	 * with VM_IO set (as usnic); no mmap entry.  A hot-unplug cannot
	 * take this mapping away, so the driver then leaves the pages to it
	 * (never freed) instead of freeing memory a process still maps.
	 */
	OVBTEST_MMAP_KIND_PHYS,
	/* vmw_pvrdma's UAR: a non-cached BAR page, io_remap_pfn_range(),
	 * VM_DONTCOPY | VM_DONTEXPAND: a fork's child has no mapping.
	 * Needs the BAR (OVBTEST_UCTX_BAR; -ENODEV otherwise).
	 */
	OVBTEST_MMAP_KIND_DONTCOPY,
	OVBTEST_MMAP_KIND_NUM
};

#define OVBTEST_MMAP_KIND_VMALLOC_PAGES	3

#endif /* OPENVERBS_UAPI_OVBTEST_ABI_H */
