/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ovbtest: a test-only RDMA device without hardware.  It serves user
 * contexts, PDs, CQs (nothing completes on them but what a test pushes,
 * opa.c), MRs over pinned user memory (re-registered in place or as a new
 * MR, as mlx5), UD and RC QPs without a data path, IB_QPT_DRIVER QPs of
 * efa's and mlx5's kinds (drv_qp.c), InfiniBand multicast groups with
 * rdmavt's rules, mmap'able pages per context (cached, and write-combining
 * and non-cached over a PCI BAR when there is one), a driver-defined copy
 * channel object whose COPY method moves bytes between two of the
 * caller's MRs, as a loopback HCA's RDMA WRITE would, an object whose
 * destroy can fail, and QP, SRQ and WQ async events raised when a test
 * asks (async.c) or from an interrupt, with port events (irq_events.c).
 * It implements disassociate_ucontext, so it can be unloaded while users
 * hold objects.  Destroys check the context their udata names (udata.c).
 * Loaded with odp=1 it has mlx5's on-demand paging MRs and ADVISE_MR
 * (odp.c).
 */
#ifndef OVBTEST_H
#define OVBTEST_H

#include <linux/atomic.h>
#include <linux/dma-buf.h>
#include <linux/hrtimer.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include <openverbs/ovbtest-abi.h>

#include "compat.h"

/* Objects alive on the device, reported by OVBTEST_METHOD_DEVICE_INFO. */
struct ovbtest_counts {
	atomic_t contexts;
	atomic_t pds;
	atomic_t cqs;
	atomic_t mrs;
	atomic_t chans;
	atomic_t dms;		/* not reported: checked at unload */
	atomic_t counters;
	atomic_t qps;
	atomic_t mcast_groups;
	atomic_t mcast_attached;	/* QP memberships, all groups */
	/* xrc.c, wq.c, flow.c (OVBTEST_METHOD_DEVICE_RES) */
	atomic_t xrcds;
	atomic_t srqs;
	atomic_t wqs;
	atomic_t rwq_ind_tbls;
	atomic_t flows;
	atomic_t ahs;		/* ah.c: checked at unload */
};

/* Device limits (query_device) that the driver enforces. */
#define OVBTEST_MAX_QP			256
#define OVBTEST_MAX_QP_WR		1024
#define OVBTEST_MAX_SGE			4
#define OVBTEST_MAX_INLINE		64
#define OVBTEST_MAX_MCAST_GRP		16
#define OVBTEST_MAX_MCAST_QP_ATTACH	8

/*
 * irq_events.c: an object's (or the device's) async events raised from
 * an hrtimer in hard-irq context, as an HCA's event queue interrupt does.
 */
enum ovbtest_irq_kind {
	OVBTEST_IRQ_QP,
	OVBTEST_IRQ_SRQ,
	OVBTEST_IRQ_WQ,
	OVBTEST_IRQ_DEVICE,
};

struct ovbtest_irq_src {
	struct mutex lock;		/* restarts of the timer */
	struct hrtimer timer;
	enum ovbtest_irq_kind kind;
	struct ovbtest_dev *dev;
	u32 left;			/* expiries to come */
	u32 event;			/* enum ib_event_type */
	u32 port;			/* device events */
	u32 flags;			/* enum ovbtest_irq_ev_flags */
	struct ib_ucontext *owner;	/* device: who started it (lock) */
	u64 period_ns;
	u64 raised;			/* handler calls; read with the timer stopped */
};

void ovbtest_irq_src_init(struct ovbtest_irq_src *src,
			  enum ovbtest_irq_kind kind, struct ib_device *ibdev);
void ovbtest_irq_src_stop(struct ovbtest_irq_src *src);
void ovbtest_irq_ctx_gone(struct ib_ucontext *ibuc);
int ovbtest_irq_events_init(void);
void ovbtest_irq_events_exit(void);
extern const struct uapi_definition ovbtest_irq_events_uapi_defs[];

struct ovbtest_dev {
	struct ib_device ibdev;
	struct ovbtest_counts live;
	atomic_t next_key;
	atomic_t next_chan;
	struct ida qpn_ida;		/* QP numbers from 2: 0 and 1 are SMI/GSI */
	struct mutex mcast_lock;	/* the groups and their members */
	struct list_head mcast_groups;
	atomic_t next_stuck;
	spinlock_t stuck_lock;		/* the list below */
	/* STUCK objects not destroyed, leaked ones too (stuck.c) */
	struct list_head stuck;
	struct net_device *ndev;	/* the RoCE port's (netdev.c) */
	struct ovbtest_dev *smi;	/* the SMI sub-device (subdev.c) */
	struct ovbtest_irq_src irq;	/* port events (irq_events.c) */
	atomic64_t irq_obj_raised;	/* ... and its objects' */
	/* fatal.c: the device's CQs, and its fatal error */
	spinlock_t cq_lock;		/* cqs; held across comp_handler */
	struct list_head cqs;
	struct mutex fatal_lock;	/* re-arming of fatal_timer */
	struct hrtimer fatal_timer;
	u32 fatal_port;
	bool fatal_shut;		/* unplugging: no re-arming */
	atomic_t failed;		/* the device has failed for good */
	u64 fatal_raised;		/* read with the timer stopped */
	/* odp.c: the ODP MRs by lkey, for ADVISE_MR (RCU: ovbtest_odp_srcu) */
	struct xarray odp_mrs;
};

/* The kinds of page a context maps (mmap.c). */
enum ovbtest_mmap_kind {
	OVBTEST_MMAP_CACHED,	/* kernel RAM */
	OVBTEST_MMAP_WC,	/* a BAR page, write-combining */
	OVBTEST_MMAP_NC,	/* a BAR page, non-cached */
	OVBTEST_MMAP_KINDS
};

/* A page of the context that user space maps. */
struct ovbtest_mmap_page {
	struct rdma_user_mmap_entry rdma_entry;
	enum ovbtest_mmap_kind kind;
	bool read_only;
	bool kmap;		/* a buffer of mmap_kinds.c, mapped there */
	void *page;		/* cached: the pages, 1 << order of them */
	unsigned int order;
	void __iomem *io;	/* BAR pages: the kernel's mapping of it */
	phys_addr_t phys;	/* ... its bus address */
	u64 bar_offset;		/* ... and where it is in the BAR */
};

struct ovbtest_ucontext {
	struct ib_ucontext ibuc;
	struct ovbtest_mmap_page *counters;
	struct ovbtest_mmap_page *doorbell;
	/* BAR pages, NULL without a BAR (mmap.c) */
	struct ovbtest_mmap_page *wc;
	struct ovbtest_mmap_page *nc;
	/* mmap_kinds.c: the PHYS buffers, found by physical address */
	struct mutex kmap_lock;
	struct list_head kmaps;
};

/* owner: the creating context, NULL for kernel objects (udata.c) */
struct ovbtest_pd {
	struct ib_pd ibpd;
	struct ovbtest_ucontext *owner;
};

struct ovbtest_cq {
	struct ib_cq ibcq;
	struct ovbtest_ucontext *owner;
	struct list_head dev_entry;	/* on dev->cqs (fatal.c) */
	/* irq.c: the CQ's "interrupt" and what it does */
	struct mutex irq_lock;		/* restarts of the timer */
	struct hrtimer irq_timer;
	u32 irq_left;			/* expiries to come */
	u32 irq_flags;
	u64 irq_period_ns;
	u64 irq_fired;			/* read with the timer stopped */
	/*
	 * opa.c: one completion a test pushed, until polled.  Its wc.qp is
	 * wc_qp, a stand-in holding the QP's number: a poller reads it after
	 * dropping wc_lock, when the real QP may be gone (destroy forgets
	 * only what is still pending); the push takes the CQ exclusively, so
	 * no push rewrites it under a poll.  wc_owner is only compared.
	 */
	spinlock_t wc_lock;
	bool wc_pending;
	struct ib_wc wc;
	struct ib_qp wc_qp;
	const struct ib_qp *wc_owner;
};

/* What modify_qp set and query_qp reports; no queues, no data path. */
struct ovbtest_qp {
	struct ib_qp ibqp;
	struct ovbtest_ucontext *owner;	/* udata.c */
	struct mutex lock;		/* the attributes below */
	enum ib_qp_state state;
	u32 port_num;
	u16 pkey_index;
	u32 qkey;
	u32 sq_psn;
	u32 rq_psn;
	u32 dest_qp_num;
	int access;
	enum ib_mtu path_mtu;
	struct ib_qp_cap cap;
	enum ib_sig_type sq_sig_type;
	struct rdma_ah_attr av;		/* IB_QP_AV, without its sgid_attr */
	u32 drv_type;			/* IB_QPT_DRIVER: its sub-type (drv_qp.c) */
	unsigned int n_mcast;		/* groups it is a member of (mcast_lock) */
	/* the last posts (post.c), under post_lock */
	spinlock_t post_lock;
	struct ovbtest_post_record last_send;
	struct ovbtest_post_record last_recv;
	struct ovbtest_irq_src irq;	/* irq_events.c */
	bool flow_dest;			/* a FLOW_CREATE rule's (drv_flow.c) */
};

struct ovbtest_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	int access;
	/* REG_MR's context (udata.c); NULL for MRs made otherwise */
	struct ovbtest_ucontext *owner;
	/* pages the key's translation table holds (mr_rereg.c) */
	size_t xlt_pages;
	/* dma-buf MRs: the exporter's page lookup (symbol_get), or NULL */
	struct page *(*dmabuf_page)(struct dma_buf_attachment *attach,
				    dma_addr_t addr, unsigned int *offset);
	bool dmabuf_dynamic;	/* imported with a move_notify of our own */
	/*
	 * odp.c: an ODP MR (umem->is_odp).  An implicit one's umem is the
	 * parent of the child ranges made on access (odp_children, by
	 * address >> OVBTEST_ODP_CHILD_SHIFT, under odp_lock).
	 */
	bool odp_implicit;
	struct mm_struct *odp_mm;	/* implicit: held by mmgrab() */
	struct mutex odp_lock;		/* odp_children, odp_nchildren */
	struct xarray odp_children;
	unsigned int odp_nchildren;
	atomic64_t odp_invalidations;
};

static inline struct ovbtest_dev *to_odev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct ovbtest_dev, ibdev);
}

static inline struct ovbtest_ucontext *to_ouc(struct ib_ucontext *ibuc)
{
	return container_of(ibuc, struct ovbtest_ucontext, ibuc);
}

static inline struct ovbtest_qp *to_oqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct ovbtest_qp, ibqp);
}

static inline struct ovbtest_pd *to_opd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct ovbtest_pd, ibpd);
}

static inline struct ovbtest_cq *to_ocq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct ovbtest_cq, ibcq);
}

static inline struct ovbtest_mr *to_omr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct ovbtest_mr, ibmr);
}

static inline struct ovbtest_mmap_page *
to_opage(struct rdma_user_mmap_entry *entry)
{
	return container_of(entry, struct ovbtest_mmap_page, rdma_entry);
}

static inline struct ovbtest_counters *
ovbtest_counters(struct ovbtest_ucontext *uc)
{
	return uc->counters->page;
}

struct ovbtest_ah {
	struct ib_ah ibah;
	bool live;		/* from create_ah until destroy_ah (post.c) */
};

static inline struct ovbtest_ah *to_oah(struct ib_ah *ibah)
{
	return container_of(ibah, struct ovbtest_ah, ibah);
}

/* main.c */
void ovbtest_dev_init(struct ovbtest_dev *dev, unsigned int ports);

/* subdev.c: the SMI sub-device (6.12's add_sub_dev; empty on 6.1) */
extern const struct ib_device_ops ovbtest_subdev_ops;

/* port.c: the IB port and the RoCE port; netdev.c: the RoCE port's netdev */
extern const struct ib_device_ops ovbtest_port_ops;
int ovbtest_port_params_check(void);
/* rawport.c: raw-Ethernet-only ports (raw_ports=N) */
int ovbtest_port_count(u32 *count);
bool ovbtest_is_raw_port(u32 port);
bool ovbtest_raw_qps(void);
/* usnic.c: a USNIC port and node type (usnic=1) */
bool ovbtest_is_usnic_port(u32 port);
u8 ovbtest_node_type(void);
int ovbtest_netdev_add(struct ovbtest_dev *dev);
void ovbtest_netdev_remove(struct ovbtest_dev *dev);

/* ah.c: AHs, and the last address vector given to the driver */
extern const struct ib_device_ops ovbtest_ah_ops;
extern const struct uapi_definition ovbtest_ah_uapi_defs[];
void ovbtest_av_record(const struct rdma_ah_attr *attr, u8 source,
		       u32 qp_num, struct ovbtest_av_info *av);

/* verbs.c */
extern const struct ib_device_ops ovbtest_verbs_ops;
struct ib_mr *ovbtest_mr_around(struct ib_device *ibdev, struct ib_umem *umem,
				u64 virt_addr, int access);
struct ib_mr *ovbtest_mr_new(struct ib_device *ibdev, u64 start, u64 length,
			     u64 virt_addr, int access);

/* mr_rereg.c: REREG_MR, in place or as a new MR, as mlx5 decides */
extern const struct ib_device_ops ovbtest_mr_rereg_ops;
int ovbtest_mr_copy(struct ovbtest_mr *src, u64 src_off, struct ovbtest_mr *dst,
		    u64 dst_off, u32 len);

/*
 * odp.c: on-demand paging MRs and ADVISE_MR (odp=1), built only where
 * ib_core has ib_umem_odp (CONFIG_INFINIBAND_ON_DEMAND_PAGING); without
 * it no odp parameter, no ODP caps, REG_MR with ON_DEMAND EOPNOTSUPP.
 */
#if IS_ENABLED(CONFIG_INFINIBAND_ON_DEMAND_PAGING)
extern const struct uapi_definition ovbtest_odp_uapi_defs[];
#define OVBTEST_ODP_UAPI_DEFS	UAPI_DEF_CHAIN(ovbtest_odp_uapi_defs),
bool ovbtest_odp_enabled(void);
void ovbtest_odp_dev_init(struct ovbtest_dev *dev);
void ovbtest_odp_caps(struct ib_device_attr *attr, bool user);
struct ib_mr *ovbtest_odp_mr_new(struct ib_device *ibdev, u64 start,
				 u64 length, u64 virt_addr, int access);
void ovbtest_odp_mr_release(struct ovbtest_mr *mr);
void ovbtest_odp_mr_put_mm(struct ovbtest_mr *mr);
u64 ovbtest_odp_mr_limit(struct ovbtest_mr *mr);
int ovbtest_odp_xfer(struct ovbtest_mr *mr, u64 off, void *buf, size_t len,
		     bool to_umem);
#else
#define OVBTEST_ODP_UAPI_DEFS
static inline bool ovbtest_odp_enabled(void)
{
	return false;
}

static inline void ovbtest_odp_dev_init(struct ovbtest_dev *dev)
{
}

static inline void ovbtest_odp_caps(struct ib_device_attr *attr, bool user)
{
}

static inline struct ib_mr *ovbtest_odp_mr_new(struct ib_device *ibdev,
					       u64 start, u64 length,
					       u64 virt_addr, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void ovbtest_odp_mr_release(struct ovbtest_mr *mr)
{
}

static inline void ovbtest_odp_mr_put_mm(struct ovbtest_mr *mr)
{
}

/* no umem is ODP here: never called */
static inline u64 ovbtest_odp_mr_limit(struct ovbtest_mr *mr)
{
	return 0;
}

static inline int ovbtest_odp_xfer(struct ovbtest_mr *mr, u64 off, void *buf,
				   size_t len, bool to_umem)
{
	return -EFAULT;
}
#endif

/* mmap.c */
extern const struct ib_device_ops ovbtest_mmap_ops;
extern const struct uapi_definition ovbtest_mmap_uapi_defs[];
void ovbtest_mmap_init(void);
void ovbtest_mmap_exit(void);
bool ovbtest_mmap_has_bar(void);
struct ovbtest_mmap_page *ovbtest_mmap_insert_ram(struct ib_ucontext *ibuc,
						  unsigned int order);
struct ovbtest_mmap_page *ovbtest_mmap_insert(struct ib_ucontext *ibuc,
					      enum ovbtest_mmap_kind kind,
					      bool read_only, u64 fill);
u64 ovbtest_mmap_read(struct ovbtest_mmap_page *p);
u64 ovbtest_mmap_fixed_read(unsigned int i);
int ovbtest_mmap_pages_get(struct ovbtest_mmap_page *p, u64 fill);
void ovbtest_mmap_pages_put(struct ovbtest_mmap_page *p);

/* mmap_kinds.c: buffers mapped as siw, qedr, mlx5, ocrdma, pvrdma do */
extern const struct uapi_definition ovbtest_mmap_kinds_uapi_defs[];
void ovbtest_kmap_ctx_init(struct ovbtest_ucontext *uc);
bool ovbtest_kmap_phys_mmap(struct ib_ucontext *ibuc,
			    struct vm_area_struct *vma, int *ret);
int ovbtest_kmap_mmap(struct vm_area_struct *vma, struct ovbtest_mmap_page *p);
void ovbtest_kmap_free(struct ovbtest_mmap_page *p);

/* qp.c */
extern const struct ib_device_ops ovbtest_qp_ops;

/* drv_qp.c: IB_QPT_DRIVER QPs, their sub-type from the create udata */
int ovbtest_drv_qp_create(struct ovbtest_qp *qp, struct ib_qp_init_attr *init,
			  struct ib_udata *udata);
int ovbtest_drv_qp_respond(struct ovbtest_qp *qp,
			   const struct ib_qp_init_attr *init,
			   struct ib_udata *udata);

/* mcast.c */
extern const struct ib_device_ops ovbtest_mcast_ops;
void ovbtest_mcast_init(struct ovbtest_dev *dev);
void ovbtest_mcast_drop_qp(struct ovbtest_qp *qp);

/* dm.c */
extern const struct ib_device_ops ovbtest_dm_ops;
extern const struct uapi_definition ovbtest_dm_uapi_defs[];

/* chan.c */
extern const struct uapi_definition ovbtest_uapi_defs[];

/* irq.c: a CQ's completions and CQ events from hard-interrupt context */
extern const struct uapi_definition ovbtest_irq_uapi_defs[];
void ovbtest_irq_cq_init(struct ovbtest_cq *cq);
void ovbtest_irq_cq_stop(struct ovbtest_cq *cq);

/* fatal.c: a fatal device error from hard-interrupt context */
extern const struct uapi_definition ovbtest_fatal_uapi_defs[];
void ovbtest_fatal_init(struct ovbtest_dev *dev);
void ovbtest_fatal_shutdown(struct ovbtest_dev *dev);
void ovbtest_fatal_cq_add(struct ovbtest_cq *cq);
void ovbtest_fatal_cq_del(struct ovbtest_cq *cq);

/* After a fatal error the device answers as mlx5's with its commands down. */
static inline bool ovbtest_failed(struct ib_device *ibdev)
{
	return atomic_read(&to_odev(ibdev)->failed);
}

/* events.c: the EVENTS FD object; probe.c: the PROBE methods */
extern const struct uapi_definition ovbtest_events_uapi_defs[];
extern const struct uapi_definition ovbtest_probe_uapi_defs[];
int ovbtest_events_post(struct ib_uobject *uobj, u64 cookie, u32 *seq);

/* dmabuf_mr.c: dma-buf MRs and the DEVICE method that exports dma-bufs */
extern const struct uapi_definition ovbtest_dmabuf_uapi_defs[];
struct ib_mr *ovbtest_reg_user_mr_dmabuf(struct ib_pd *ibpd, u64 offset,
					 u64 length, u64 virt_addr, int fd,
					 int access, ovbtest_op_bundle *op);
void ovbtest_dmabuf_mr_release(struct ovbtest_mr *mr);
int ovbtest_dmabuf_xfer(struct ovbtest_mr *mr, u64 off, void *buf,
			size_t len, bool to_umem);
struct page *ovbtest_dma_page(struct device *dev, dma_addr_t addr,
			      unsigned int *offset);
/* xrc.c: XRC domains and SRQs; the DEVICE_RES method */
#define OVBTEST_MAX_SRQ_WR		1024

struct ovbtest_xrcd {
	struct ib_xrcd ibxrcd;
	u32 xrcdn;
};

struct ovbtest_srq {
	struct ib_srq ibsrq;
	struct mutex lock;		/* attr */
	struct ib_srq_attr attr;
	u32 srqn;
	/* attr.srq_limit is in force (SRQ_LIMIT_REACHED disarms it) */
	atomic_t limit_armed;
	spinlock_t post_lock;		/* last_recv (post.c) */
	struct ovbtest_post_record last_recv;
	struct ovbtest_irq_src irq;	/* irq_events.c */
};

static inline struct ovbtest_xrcd *to_oxrcd(struct ib_xrcd *ibxrcd)
{
	return container_of(ibxrcd, struct ovbtest_xrcd, ibxrcd);
}

static inline struct ovbtest_srq *to_osrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct ovbtest_srq, ibsrq);
}

extern const struct ib_device_ops ovbtest_xrc_ops;
extern const struct uapi_definition ovbtest_xrc_uapi_defs[];

/* wq.c: receive WQs and RSS indirection tables */
#define OVBTEST_MAX_LOG_RWQ_TBL		4

extern const struct ib_device_ops ovbtest_wq_ops;
struct ovbtest_wq {
	struct ib_wq ibwq;
	struct mutex lock;		/* ibwq.state */
	struct ovbtest_irq_src irq;	/* irq_events.c */
};

static inline struct ovbtest_wq *to_owq(struct ib_wq *ibwq)
{
	return container_of(ibwq, struct ovbtest_wq, ibwq);
}

/* flow.c: flow steering rules; the DEVICE_LAST_FLOW method */
extern const struct ib_device_ops ovbtest_flow_ops;
extern const struct uapi_definition ovbtest_flow_uapi_defs[];

/* A rule of EX_CREATE_FLOW (flow.c) or of FLOW_CREATE (drv_flow.c). */
struct ovbtest_flow {
	struct ib_flow ibflow;
	u32 id;				/* FLOW_CREATE's, 0 for EX_CREATE_FLOW */
};

/* drv_flow.c: FLOW methods of the driver and their log */
extern const struct uapi_definition ovbtest_drv_flow_uapi_defs[];
void ovbtest_drv_flow_gone(struct ovbtest_flow *flow);
void ovbtest_drv_flow_qp_gone(struct ovbtest_qp *qp);
void ovbtest_drv_flow_report(void);
/* async.c: QP, SRQ and WQ events on request */
extern const struct uapi_definition ovbtest_async_uapi_defs[];

/* opa.c: OPA LIDs; completions a test pushes onto a CQ */
extern const struct uapi_definition ovbtest_opa_uapi_defs[];
u32 ovbtest_opa_dlid(const struct rdma_ah_attr *attr);
void ovbtest_wc_cq_init(struct ovbtest_cq *cq);
int ovbtest_wc_poll(struct ovbtest_cq *cq, int num_entries, struct ib_wc *wc);
void ovbtest_wc_forget_qp(struct ib_qp *qp);

/* post.c */
extern const struct ib_device_ops ovbtest_post_ops;
extern const struct uapi_definition ovbtest_post_uapi_defs[];

/* udata.c: destroys check the context their udata names */
struct ovbtest_ucontext *ovbtest_udata_owner(struct ib_udata *udata);
void ovbtest_udata_check(struct ovbtest_ucontext *owner,
			 struct ib_udata *udata);
void ovbtest_udata_report(void);

/* udata_ex.c: driver udata of EX_QUERY_DEVICE and EX_MODIFY_QP */
int ovbtest_udata_ex_in(struct ib_udata *udata,
			struct ovbtest_udata_ex_cmd *cmd, int trailing_err);
int ovbtest_udata_ex_out(struct ib_udata *udata,
			 const struct ovbtest_udata_ex_cmd *cmd,
			 enum ovbtest_udata_ex_op op);
int ovbtest_cq_abi(struct ib_udata *udata,
		   struct ovbtest_create_cq_resp_v2 *resp, size_t *len);

/* cq_mod.c: CQ moderation (modify_cq); the CQ create flags taken */
#define OVBTEST_CQ_FLAGS	(IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION | \
				 IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN)
extern const struct ib_device_ops ovbtest_cq_mod_ops;

/* binding.c: uverbs_no_driver_id_binding when loaded with it */
void ovbtest_binding_init(struct ib_device *ibdev);

/* stuck.c: the object whose destroy fails */
extern const struct uapi_definition ovbtest_stuck_uapi_defs[];
void ovbtest_stuck_orphan(struct ovbtest_ucontext *uc);
void ovbtest_stuck_free_all(struct ovbtest_dev *dev);
void ovbtest_stuck_count(struct ovbtest_dev *dev, u32 *all, u32 *orphans);

/* ctx.c: query_ucontext and its attribute on QUERY_CONTEXT */
extern const struct ib_device_ops ovbtest_ctx_ops;
extern const struct uapi_definition ovbtest_ctx_uapi_defs[];

/* attrs.c: CONST_IN and FLAGS_IN; hidden.c: an object the driver hides */
extern const struct uapi_definition ovbtest_attrs_uapi_defs[];
extern const struct uapi_definition ovbtest_hidden_uapi_defs[];
/* dma_map.c */
extern const struct uapi_definition ovbtest_dma_map_uapi_defs[];
int ovbtest_dma_pci_init(void);
int ovbtest_dma_register(struct ovbtest_dev *dev, const char *name,
			 struct device *dflt);
void ovbtest_dma_pci_exit(void);
/* main.c */
void ovbtest_unplug(struct ovbtest_dev *dev);

#endif /* OVBTEST_H */
