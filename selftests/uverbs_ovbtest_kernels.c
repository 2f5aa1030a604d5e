// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Where ib_uverbs of Debian's 6.12 answers otherwise than 6.1's, on the
 * test HCA (selftests/ovbtest/, which on 6.12 uses that kernel's driver
 * API as its drivers do: selftests/ovbtest/compat.h).  Each expectation
 * that differs is keyed on the running kernel (ovbtest_k612()) and names
 * the 6.12 change; the in-tree module of each kernel is the oracle.
 *  - QUERY_PORT's ioctl response: active_speed_ex (6.12) beside the
 *    legacy u8 active_speed, which both cap at NDR;
 *  - MR access flags: FLUSH_GLOBAL / FLUSH_PERSISTENT (6.12, against
 *    the device's placement caps), and the errno of ODP on a device
 *    without it (6.1 EINVAL, 6.12 EOPNOTSUPP);
 *  - REREG_MR adding write access over a read-only pin: 6.12's drivers
 *    refuse it through ib_umem_check_rereg (EACCES);
 *  - ib_umem_get of a read-only MR: 6.1 pins with FOLL_FORCE|FOLL_WRITE
 *    (a shared read-only mapping fails, a private one gets COW copies);
 *    6.12 pins without FOLL_WRITE (the page cache pages themselves);
 *  - CREATE_CQ by write(): the driver gets a bundle without attributes
 *    (6.12 passes the bundle, 6.1 its udata);
 *  - rdma_user_mmap_disassociate (6.12): mappings revoked, the context
 *    and its mmap entries kept;
 *  - SMI sub-devices (6.12, RDMA netlink NEWDEV): no uverbs device.
 * The dma-buf revoke API is in uverbs_ovbtest_dmabuf_move, the flow
 * spec sizes in uverbs_ovbtest_xrc.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

#define PG		4096UL
#define RW		IB_UVERBS_ACCESS_LOCAL_WRITE
#define SPEED_PARAM	"/sys/module/" HCA_MODULE "/parameters/ib_speed"

/* 6.12's names, absent from 6.1's headers (include/uapi/rdma). */
#define SPEED_HDR	64
#define SPEED_NDR	128
#define SPEED_XDR	256
#define REREG_TRANS	(1 << 0)
#define REREG_ACCESS	(1 << 2)

/* 6.12's ib_uverbs_query_port_resp_ex: reserved[6] became [2] + a u32. */
struct port_resp_ex {
	struct ib_uverbs_query_port_resp legacy_resp;
	__u16 port_cap_flags2;
	__u8 reserved[2];
	__u32 active_speed_ex;
};

_Static_assert(sizeof(struct port_resp_ex) ==
	       sizeof(struct ib_uverbs_query_port_resp_ex), "6.1's size");

FIXTURE(k) {
	int fd;
	int pd;
	struct ovbtest_alloc_ucontext_resp uctx;
};

FIXTURE_SETUP(k)
{
	self->fd = -1;
	HCA_SETUP_LOAD();
	HCA_SETUP_OPEN(self->fd, &self->uctx, self->pd);
}

FIXTURE_TEARDOWN(k)
{
	int fd = open(SPEED_PARAM, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			perror(SPEED_PARAM);
		close(fd);
	}
	if (self->fd >= 0)
		close(self->fd);
}

static int set_speed(unsigned int speed)
{
	char buf[16];
	int fd = open(SPEED_PARAM, O_WRONLY), n, ret = 0;

	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%u", speed);
	if (write(fd, buf, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

static int query_port_ioctl(int fd, __u8 port, struct port_resp_ex *resp)
{
	struct ioc c;

	memset(resp, 0xa5, sizeof(*resp));
	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, port);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, resp, sizeof(*resp));
	return ioc_call(fd, &c);
}

static int query_port_write(int fd, __u8 port,
			    struct ib_uverbs_query_port_resp *resp)
{
	struct ib_uverbs_query_port req = {
		.response = (uintptr_t)resp, .port_num = port,
	};
	ssize_t ret = raw_cmd(fd, IB_USER_VERBS_CMD_QUERY_PORT, &req,
			      sizeof(req), sizeof(*resp));

	return ret < 0 ? (int)ret : 0;
}

/*
 * 6.12 reports the port's whole speed in active_speed_ex (the ioctl's
 * former reserved bytes); both cap the legacy u8 at NDR, so XDR (256,
 * new in 6.12) shows as NDR there.
 */
TEST_F(k, query_port_active_speed_ex)
{
	static const unsigned int speeds[] = { 1, SPEED_HDR, SPEED_NDR,
					       SPEED_XDR };
	struct ib_uverbs_query_port_resp legacy;
	struct port_resp_ex ex;
	unsigned int i, s;

	for (i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++) {
		s = speeds[i];
		ASSERT_EQ(0, set_speed(s));
		ASSERT_EQ(0, query_port_ioctl(self->fd, OVBTEST_PORT_IB, &ex));
		EXPECT_EQ(s > SPEED_NDR ? SPEED_NDR : s,
			  ex.legacy_resp.active_speed);
		/* 6.12: resp.active_speed_ex = attr.active_speed */
		EXPECT_EQ(ovbtest_k612() ? s : 0, ex.active_speed_ex);
		EXPECT_EQ(0, ex.reserved[0]);
		EXPECT_EQ(0, ex.reserved[1]);
		ASSERT_EQ(0, query_port_write(self->fd, OVBTEST_PORT_IB,
					      &legacy));
		EXPECT_EQ(s > SPEED_NDR ? SPEED_NDR : s, legacy.active_speed);
	}
	/* the RoCE port keeps its own */
	ASSERT_EQ(0, query_port_ioctl(self->fd, OVBTEST_PORT_ROCE, &ex));
	EXPECT_EQ(1, ex.legacy_resp.active_speed);
	EXPECT_EQ(ovbtest_k612() ? 1 : 0, ex.active_speed_ex);
}

static int rereg_mr(int fd, __u32 mr, __u32 flags, void *addr, size_t len,
		    __u32 access, __u32 *lkey)
{
	struct ib_uverbs_rereg_mr_resp resp;
	int ret = ovbtest_rereg_mr(fd, mr, flags, addr, len, (uintptr_t)addr,
				   0, access, &resp);

	if (!ret && lkey)
		*lkey = resp.lkey;
	return ret;
}

/*
 * ib_check_mr_access() on REG_MR and REREG_MR: 6.12 knows the FLUSH
 * placement flags and checks them against the device's caps (ovbtest
 * has FLUSH_GLOBAL and ATOMIC_WRITE there, not FLUSH_PERSISTENT), and
 * answers EOPNOTSUPP instead of 6.1's EINVAL for ODP on a device without
 * it.  On 6.1 the FLUSH bits are beyond IB_ACCESS_SUPPORTED: EINVAL.
 */
TEST_F(k, mr_access_flags)
{
	struct ib_uverbs_ex_query_device_resp dev;
	const int k612 = ovbtest_k612();
	char *buf;
	int mr;

	ASSERT_EQ(0, raw_query_device_ex(self->fd, &dev));
	/* 6.12: IB_DEVICE_FLUSH_GLOBAL, _FLUSH_PERSISTENT, _ATOMIC_WRITE */
	EXPECT_EQ(k612 ? RAW_DEVICE_FLUSH_GLOBAL | RAW_DEVICE_ATOMIC_WRITE : 0,
		  dev.device_cap_flags_ex & (RAW_DEVICE_FLUSH_GLOBAL |
					     RAW_DEVICE_FLUSH_PERSISTENT |
					     RAW_DEVICE_ATOMIC_WRITE));

	buf = mmap(NULL, PG, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	/* 6.12: ib_check_mr_access() returns EOPNOTSUPP for ODP */
	EXPECT_EQ(k612 ? -EOPNOTSUPP : -EINVAL,
		  ovbtest_reg_mr(self->fd, self->pd, buf, PG,
				 IB_UVERBS_ACCESS_ON_DEMAND));
	/* 6.12: IB_ACCESS_FLUSH_PERSISTENT needs IB_DEVICE_FLUSH_PERSISTENT */
	EXPECT_EQ(k612 ? -EOPNOTSUPP : -EINVAL,
		  ovbtest_reg_mr(self->fd, self->pd, buf, PG,
				 RW | RAW_ACCESS_FLUSH_PERSISTENT));
	/* 6.12: IB_ACCESS_FLUSH_GLOBAL, the device has the cap */
	mr = ovbtest_reg_mr(self->fd, self->pd, buf, PG,
			    RW | RAW_ACCESS_FLUSH_GLOBAL);
	if (!k612) {
		EXPECT_EQ(-EINVAL, mr);
		mr = ovbtest_reg_mr(self->fd, self->pd, buf, PG, RW);
	}
	ASSERT_LE(0, mr);
	/* the same checks on REREG_MR's new access */
	EXPECT_EQ(k612 ? -EOPNOTSUPP : -EINVAL,
		  rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0,
			   RW | RAW_ACCESS_FLUSH_PERSISTENT, NULL));
	EXPECT_EQ(k612 ? -EOPNOTSUPP : -EINVAL,
		  rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0,
			   IB_UVERBS_ACCESS_ON_DEMAND, NULL));
	EXPECT_EQ(k612 ? 0 : -EINVAL,
		  rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0,
			   RW | RAW_ACCESS_FLUSH_GLOBAL, NULL));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(buf, PG);
}

/*
 * Write access added to an MR pinned read-only, over the same range:
 * 6.1's mlx5 rewrites the key in place as for any access bit a key takes
 * (the same keys; 6.1 pinned the pages with FOLL_WRITE|FOLL_FORCE
 * anyway); 6.12's drivers call ib_umem_check_rereg() first, which
 * refuses it (EACCES).  A new range is a new pin on both (loaded into
 * the key: the same keys).
 */
TEST_F(k, rereg_write_access_over_a_read_only_pin)
{
	__u32 lkey0 = 0, lkey = 0;
	char *buf;
	int mr;

	buf = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	mr = ovbtest_reg_mr(self->fd, self->pd, buf, PG, 0);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0, 0, &lkey0));

	if (ovbtest_k612()) {
		/* 6.12: ib_umem_check_rereg() -> -EACCES */
		EXPECT_EQ(-EACCES, rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0,
					    RW, &lkey));
	} else {
		EXPECT_EQ(0, rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0, RW,
				      &lkey));
		EXPECT_EQ(lkey0, lkey);
	}
	/* with a new translation the range is pinned again: allowed */
	EXPECT_EQ(0, rereg_mr(self->fd, mr, REREG_TRANS | REREG_ACCESS,
			      buf + PG, PG, RW, &lkey));
	/* and now writable: dropping write access stays in place */
	EXPECT_EQ(0, rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0, 0, &lkey0));
	EXPECT_EQ(lkey, lkey0);
	EXPECT_EQ(0, rereg_mr(self->fd, mr, REREG_ACCESS, NULL, 0, RW, &lkey0));
	EXPECT_EQ(lkey, lkey0);
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	munmap(buf, 2 * PG);
}

/* COPY of @len bytes of MR @src into the first bytes of MR @dst. */
static int copy_out(int fd, int chan, int src, int dst, __u32 len)
{
	return ovbtest_copy(fd, chan, src, 0, dst, 0, len, NULL);
}

/*
 * A read-only MR over file pages (a memfd mapped read-only).  6.1's
 * ib_umem_get pins with FOLL_FORCE | FOLL_WRITE: a shared read-only
 * mapping cannot be pinned that way (EFAULT).  6.12 pins read-only MRs
 * without FOLL_WRITE: the shared mapping's MR is the file's own pages.
 * A private mapping gets a private copy on both (the file's later writes
 * never reach the MR).
 */
TEST_F(k, read_only_mr_over_file_pages)
{
	const int k612 = ovbtest_k612();
	char *shared, *priv, *dst;
	int mfd, chan, dmr, mr;

	mfd = memfd_create("ovbtest-ro", 0);
	ASSERT_LE(0, mfd);
	ASSERT_EQ(PG, pwrite(mfd, memset(alloca(PG), 'a', PG), PG, 0));
	shared = mmap(NULL, PG, PROT_READ, MAP_SHARED, mfd, 0);
	priv = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, mfd, 0);
	dst = mmap(NULL, PG, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shared);
	ASSERT_NE(MAP_FAILED, priv);
	ASSERT_NE(MAP_FAILED, dst);
	chan = ovbtest_chan_create(self->fd, self->pd, 4, NULL);
	ASSERT_LE(0, chan);
	dmr = ovbtest_reg_mr(self->fd, self->pd, dst, PG, RW);
	ASSERT_LE(0, dmr);

	/* 6.12: umem.c pins read-only without FOLL_WRITE | FOLL_FORCE */
	mr = ovbtest_reg_mr(self->fd, self->pd, shared, PG, 0);
	if (!k612) {
		EXPECT_EQ(-EFAULT, mr);
	} else {
		ASSERT_LE(0, mr);
		ASSERT_EQ(0, copy_out(self->fd, chan, mr, dmr, 8));
		EXPECT_EQ(0, memcmp(dst, "aaaaaaaa", 8));
		ASSERT_EQ(8, pwrite(mfd, "bbbbbbbb", 8, 0));
		ASSERT_EQ(0, copy_out(self->fd, chan, mr, dmr, 8));
		EXPECT_EQ(0, memcmp(dst, "bbbbbbbb", 8));
		EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));
	}

	ASSERT_EQ(8, pwrite(mfd, "cccccccc", 8, 0));
	mr = ovbtest_reg_mr(self->fd, self->pd, priv, PG, 0);
	ASSERT_LE(0, mr);
	ASSERT_EQ(0, copy_out(self->fd, chan, mr, dmr, 8));
	EXPECT_EQ(0, memcmp(dst, "cccccccc", 8));
	/*
	 * The file changes: both pinned a private copy, which the mapping
	 * now shows too (6.1 by its write fault; 6.12's GUP unshares a
	 * private file page for a long-term read-only pin).
	 */
	ASSERT_EQ(8, pwrite(mfd, "dddddddd", 8, 0));
	ASSERT_EQ(0, copy_out(self->fd, chan, mr, dmr, 8));
	EXPECT_EQ(0, memcmp(dst, "cccccccc", 8));
	EXPECT_EQ(0, memcmp(priv, "cccccccc", 8));
	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, mr));

	EXPECT_EQ(0, ovbtest_dereg_mr(self->fd, dmr));
	EXPECT_EQ(0, ovbtest_chan_destroy(self->fd, chan, NULL));
	munmap(shared, PG);
	munmap(priv, PG);
	munmap(dst, PG);
	close(mfd);
}

/*
 * CREATE_CQ by write(): the driver reads its CQ attribute from the
 * bundle (6.12 passes the bundle to create_cq, 6.1 the udata inside it)
 * and finds none, write() commands having no attributes; its response
 * still reaches the driver data.  (uverbs_ovbtest cq_create_driver_attribute
 * has the ioctl side: present, absent, malformed.)
 */
TEST_F(k, cq_create_by_write_has_no_driver_attribute)
{
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct ovbtest_create_cq_resp drv;
	} resp;
	struct ib_uverbs_create_cq req = {
		.response = (uintptr_t)&resp,
		.user_handle = 7,
		.cqe = 32,
		.comp_channel = -1,
	};
	struct ib_uverbs_destroy_cq_resp dresp;
	struct ib_uverbs_destroy_cq dreq = { .response = (uintptr_t)&dresp };

	memset(&resp, 0xff, sizeof(resp));
	ASSERT_LE(0, raw_cmd(self->fd, IB_USER_VERBS_CMD_CREATE_CQ, &req,
			     sizeof(req), sizeof(resp)));
	EXPECT_EQ(0, resp.drv.tag);
	EXPECT_EQ(32, resp.drv.cqe);
	EXPECT_LE(32, resp.core.cqe);
	dreq.cq_handle = resp.core.cq_handle;
	EXPECT_LE(0, raw_cmd(self->fd, IB_USER_VERBS_CMD_DESTROY_CQ, &dreq,
			     sizeof(dreq), sizeof(dresp)));
}

/*
 * rdma_user_mmap_disassociate() (6.12; ovbtest calls it as hns does
 * before a reset): every mapping of the device is zapped - a read-only
 * one then reads the zero page, a writable one the file's disassociate
 * page, and writes no longer reach the driver's page - while the
 * context, its objects and its mmap entries stay: a new mmap() maps the
 * real pages again.  6.1 has no such export: the method does not exist.
 */
TEST_F(k, mmap_disassociate)
{
	volatile uint64_t *cnt, *db, *db2;

	if (!ovbtest_k612()) {
		EXPECT_EQ(-EPROTONOSUPPORT, ovbtest_mmap_revoke(self->fd));
		return;
	}
	cnt = mmap(NULL, PG, PROT_READ, MAP_SHARED, self->fd,
		   self->uctx.counters_offset);
	db = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		  self->uctx.doorbell_offset);
	ASSERT_NE(MAP_FAILED, cnt);
	ASSERT_NE(MAP_FAILED, db);
	EXPECT_EQ(OVBTEST_MAGIC, cnt[2]);
	db[0] = 0x1234;
	EXPECT_EQ(0x1234, ovbtest_doorbell_value(self->fd));

	ASSERT_EQ(0, ovbtest_mmap_revoke(self->fd));
	EXPECT_EQ(0, cnt[2]);			/* the zero page */
	EXPECT_EQ(0, db[0]);			/* the disassociate page */
	db[0] = 0x5678;				/* goes there, not to the HCA */
	EXPECT_EQ(0x5678, db[0]);
	EXPECT_EQ(0x1234, ovbtest_doorbell_value(self->fd));

	/* the context lives on, its entries too: map them again */
	EXPECT_LE(0, raw_alloc_pd(self->fd));
	db2 = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		   self->uctx.doorbell_offset);
	ASSERT_NE(MAP_FAILED, db2);
	EXPECT_EQ(0x1234, db2[0]);
	db2[0] = 0x9abc;
	EXPECT_EQ(0x9abc, ovbtest_doorbell_value(self->fd));
	/* a second revoke takes the new mapping too; the old stays zapped */
	ASSERT_EQ(0, ovbtest_mmap_revoke(self->fd));
	EXPECT_EQ(0x5678, db2[0]);	/* the same disassociate page */
	EXPECT_EQ(0x9abc, ovbtest_doorbell_value(self->fd));
	munmap((void *)db2, PG);
	munmap((void *)db, PG);
	munmap((void *)cnt, PG);
}

struct mapper {
	int fd;
	__u64 offset;
	volatile int stop;
	pthread_mutex_t lock;	/* no revoke between a touch and its munmap */
	long maps, unexpected;
};

/*
 * mmap() racing the revokes, then, under @lock, touch and munmap.  In
 * 6.12 two things keep the rest out of the race (testing.md, Findings):
 * a mapping kept alive across another mmap() of the file deadlocks
 * against a revoke (disassociation_lock against mmap_lock), and a
 * mapping a revoke zapped and nothing touched since WARNs at munmap
 * (x86 PAT's untrack_pfn).
 */
static void *mapper_run(void *arg)
{
	struct mapper *m = arg;

	while (!m->stop) {
		volatile uint64_t *p = mmap(NULL, PG, PROT_READ | PROT_WRITE,
					    MAP_SHARED, m->fd, m->offset);

		if (p == MAP_FAILED) {
			m->unexpected++;
			continue;
		}
		pthread_mutex_lock(&m->lock);
		p[1] = p[1] + 1;	/* the real page or the disassociate one */
		munmap((void *)p, PG);
		pthread_mutex_unlock(&m->lock);
		m->maps++;
	}
	return NULL;
}

/*
 * Revokes while another thread maps (6.12 serialises mmap() and the
 * revoke by the file's disassociation_lock): every mmap() succeeds, every
 * access lands on some page (no SIGBUS), nothing is reported in dmesg.
 */
TEST_F(k, mmap_disassociate_races_mmap)
{
	struct mapper m = {
		.fd = self->fd, .offset = self->uctx.doorbell_offset,
		.lock = PTHREAD_MUTEX_INITIALIZER,
	};
	pthread_t t;
	int i, ret = 0;

	if (!ovbtest_k612()) {
		EXPECT_EQ(-EPROTONOSUPPORT, ovbtest_mmap_revoke(self->fd));
		return;
	}
	ASSERT_EQ(0, pthread_create(&t, NULL, mapper_run, &m));
	for (i = 0; i < 2000 && !ret; i++) {
		pthread_mutex_lock(&m.lock);
		ret = ovbtest_mmap_revoke(self->fd);
		pthread_mutex_unlock(&m.lock);
		usleep(50);
	}
	m.stop = 1;
	pthread_join(t, NULL);
	TH_LOG("%d revokes, %ld mappings", i, m.maps);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(0, m.unexpected);
	EXPECT_LT(100, m.maps);
}

/* ------------------------------------------- SMI sub-devices (6.12) */

/* RDMA netlink (rdma_netlink.h); NEWDEV, DELDEV and DEV_TYPE are 6.12's. */
#define NL_NLDEV		5
#define NLDEV_CMD_GET		1
#define NLDEV_CMD_NEWDEV	26
#define NLDEV_CMD_DELDEV	27
#define NLDEV_ATTR_DEV_INDEX	1
#define NLDEV_ATTR_DEV_NAME	2
#define NLDEV_ATTR_DEV_TYPE	99
#define DEVICE_TYPE_SMI		1
#define SMI_NAME		"ovbsmi0"

struct nl_req {
	struct nlmsghdr h;
	char attrs[256];
};

static void nl_put(struct nl_req *r, __u16 type, const void *data, __u16 len)
{
	struct nlattr *a = (void *)((char *)r + NLMSG_ALIGN(r->h.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void nl_init(struct nl_req *r, __u16 op, __u16 flags)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = NLMSG_HDRLEN;
	r->h.nlmsg_type = (NL_NLDEV << 10) + op;
	r->h.nlmsg_flags = NLM_F_REQUEST | flags;
	r->h.nlmsg_seq = 1;
}

/*
 * Sends @r and reads the answer into @buf: every part of a dump up to
 * NLMSG_DONE (ib_core sends one device per part); the ack's -errno, or
 * the length read.
 */
static int nl_talk(struct nl_req *r, char *buf, size_t len)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *h;
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (sendto(fd, r, r->h.nlmsg_len, 0, (void *)&sa, sizeof(sa)) < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	for (;;) {
		n = recv(fd, buf + got, len - got, 0);
		if (n < 0) {
			n = -errno;
			break;
		}
		h = (void *)(buf + got);
		if (n >= (ssize_t)NLMSG_HDRLEN && h->nlmsg_type == NLMSG_ERROR) {
			n = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
			break;
		}
		got += n;
		if (!(r->h.nlmsg_flags & NLM_F_DUMP) || !n ||
		    h->nlmsg_type == NLMSG_DONE || got >= len) {
			n = got;
			break;
		}
		/* the part ends with DONE when it is the last */
		for (; NLMSG_OK(h, (unsigned int)n); h = NLMSG_NEXT(h, n))
			if (h->nlmsg_type == NLMSG_DONE)
				break;
		if (NLMSG_OK(h, (unsigned int)n) && h->nlmsg_type == NLMSG_DONE) {
			n = got;
			break;
		}
	}
	close(fd);
	return n;
}

/* The ib_core index of device @name (one GET of it by name: a dump). */
static int nl_dev_index(const char *name)
{
	static char buf[65536];
	struct nl_req r;
	struct nlmsghdr *h;
	int n;

	nl_init(&r, NLDEV_CMD_GET, NLM_F_DUMP);
	n = nl_talk(&r, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (h = (void *)buf; NLMSG_OK(h, (unsigned int)n);
	     h = NLMSG_NEXT(h, n)) {
		struct nlattr *a = (void *)((char *)h + NLMSG_HDRLEN);
		int left = h->nlmsg_len - NLMSG_HDRLEN, index = -1;
		const char *dev = NULL;

		for (; left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
		       a->nla_len <= left;
		     left -= NLA_ALIGN(a->nla_len),
		     a = (void *)((char *)a + NLA_ALIGN(a->nla_len))) {
			if (a->nla_type == NLDEV_ATTR_DEV_INDEX)
				memcpy(&index, (char *)a + NLA_HDRLEN, 4);
			else if (a->nla_type == NLDEV_ATTR_DEV_NAME)
				dev = (char *)a + NLA_HDRLEN;
		}
		if (dev && !strcmp(dev, name))
			return index;
	}
	return -ENOENT;
}

static int nl_newdev(__u32 parent, const char *name, __u8 type)
{
	char buf[4096];
	struct nl_req r;

	nl_init(&r, NLDEV_CMD_NEWDEV, NLM_F_ACK);
	nl_put(&r, NLDEV_ATTR_DEV_INDEX, &parent, sizeof(parent));
	nl_put(&r, NLDEV_ATTR_DEV_NAME, name, strlen(name) + 1);
	nl_put(&r, NLDEV_ATTR_DEV_TYPE, &type, sizeof(type));
	return nl_talk(&r, buf, sizeof(buf));
}

static int nl_deldev(__u32 index)
{
	char buf[4096];
	struct nl_req r;

	nl_init(&r, NLDEV_CMD_DELDEV, NLM_F_ACK);
	nl_put(&r, NLDEV_ATTR_DEV_INDEX, &index, sizeof(index));
	return nl_talk(&r, buf, sizeof(buf));
}

/* Whether some uverbs device belongs to ib device @name. */
static int has_uverbs_dev(const char *name)
{
	char path[PATH_MAX], ib[64];
	int i, found = 0;
	FILE *f;

	for (i = 0; i < 64 && !found; i++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband_verbs/uverbs%d/ibdev", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(ib, sizeof(ib), f) && !strncmp(ib, name, strlen(name)) &&
		    ib[strlen(name)] == '\n')
			found = 1;
		fclose(f);
	}
	return found;
}

/*
 * 6.12's ib_uverbs refuses devices of type SMI (ib_uverbs_add_one):
 * ovbtest's SMI sub-device, made through RDMA netlink as for mlx5's
 * planes, is an ib device without a uverbs device; it goes with DELDEV,
 * or with its parent.  6.1 has no NEWDEV command (EINVAL).
 */
TEST_F(k, smi_sub_device_has_no_uverbs_device)
{
	int parent = nl_dev_index(HCA_IBDEV), smi, ret;

	ASSERT_LE(0, parent);
	ret = nl_newdev(parent, SMI_NAME, DEVICE_TYPE_SMI);
	if (!ovbtest_k612()) {
		/* 6.12: RDMA_NLDEV_CMD_NEWDEV and ib_device_ops::add_sub_dev */
		EXPECT_EQ(-EINVAL, ret);
		EXPECT_NE(0, access("/sys/class/infiniband/" SMI_NAME, F_OK));
		return;
	}
	ASSERT_EQ(0, ret);
	EXPECT_EQ(0, access("/sys/class/infiniband/" SMI_NAME, F_OK));
	usleep(200000);		/* as long as ovbtest0's would take to show */
	EXPECT_FALSE(has_uverbs_dev(SMI_NAME));
	EXPECT_TRUE(has_uverbs_dev(HCA_IBDEV));
	/* one per parent; only SMI */
	EXPECT_EQ(-EEXIST, nl_newdev(parent, "ovbsmi1", DEVICE_TYPE_SMI));
	smi = nl_dev_index(SMI_NAME);
	ASSERT_LE(0, smi);
	EXPECT_EQ(0, nl_deldev(smi));
	EXPECT_NE(0, access("/sys/class/infiniband/" SMI_NAME, F_OK));
	EXPECT_EQ(-EOPNOTSUPP, nl_newdev(parent, SMI_NAME, 2));
	/* again, left for the parent's unload to take (unload, below) */
	EXPECT_EQ(0, nl_newdev(parent, SMI_NAME, DEVICE_TYPE_SMI));
	EXPECT_FALSE(has_uverbs_dev(SMI_NAME));
}

/*
 * Last: the stack is left as found (rdma_core_programs unloads ib_uverbs),
 * and with the module the SMI sub-device smi_sub_device_has_no_uverbs_device
 * left.
 */
OVBTEST_UNLOAD_FIXTURE("/sys/class/infiniband/" SMI_NAME)

TEST_HARNESS_MAIN
