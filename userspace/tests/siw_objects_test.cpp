// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The siw provider's objects without a kernel: the core commands are
// stubbed (they answer with siw's driver data), and a memfd stands in for
// the uverbs file, so the rings are really mmap()ed at the keys the stub
// hands out and the doorbell is really written to "cmd_fd".  Shows where
// the provider looks for the rings and the CQ control word, what it puts
// there, and when it rings.
#include <gtest/gtest.h>

#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

#include "siw.h"

namespace {

constexpr uint64_t kSqKey = 4096, kRqKey = 8192, kCqKey = 12288,
		   kSrqKey = 16384;
constexpr uint32_t kNum = 4;
constexpr uint32_t kQpHandle = 7;

uint64_t sq_key = kSqKey;	// what the next CREATE_QP answers
int destroyed_qps;

int fake_create_cq(ibv_context *ctx, int, ibv_comp_channel *, int, ibv_cq *cq,
		   ovb_udata *ud)
{
	ovb_siw_uresp_create_cq r{};
	r.cq_id = 3;
	r.num_cqe = kNum;
	r.cq_key = kCqKey;
	EXPECT_GE(ud->out_len, sizeof(r));
	std::memcpy(ud->out, &r, sizeof(r));
	cq->context = ctx;
	return 0;
}
int fake_create_qp(ibv_pd *pd, ibv_qp *qp, ibv_qp_init_attr *, ovb_udata *ud)
{
	ovb_siw_uresp_create_qp r{};
	r.qp_id = 5;
	r.num_sqe = kNum;
	r.num_rqe = kNum;
	r.sq_key = sq_key;
	r.rq_key = kRqKey;
	EXPECT_GE(ud->out_len, sizeof(r));
	std::memcpy(ud->out, &r, sizeof(r));
	qp->context = pd->context;
	qp->handle = kQpHandle;
	return 0;
}
int fake_create_srq(ibv_pd *pd, ibv_srq *srq, ibv_srq_init_attr *, uint32_t *,
		    ovb_udata *ud)
{
	ovb_siw_uresp_create_srq r{};
	r.num_rqe = kNum;
	r.srq_key = kSrqKey;
	std::memcpy(ud->out, &r, sizeof(r));
	srq->context = pd->context;
	return 0;
}
int fake_destroy(ibv_cq *) { return 0; }
int fake_destroy_qp(ibv_qp *)
{
	destroyed_qps++;
	return 0;
}
int fake_destroy_srq(ibv_srq *) { return 0; }
void fake_log(ibv_context *, int, const char *, ...) {}

struct SiwObjects : ::testing::Test {
	SiwObjects()
	{
		core.abi_version = OVB_PROVIDER_ABI_VERSION;
		core.create_cq = fake_create_cq;
		core.destroy_cq = fake_destroy;
		core.create_qp = fake_create_qp;
		core.destroy_qp = fake_destroy_qp;
		core.create_srq = fake_create_srq;
		core.destroy_srq = fake_destroy_srq;
		core.log = fake_log;
		siw::core = &core;
		fd = memfd_create("uverbs", 0);
		EXPECT_GE(fd, 0);
		EXPECT_EQ(ftruncate(fd, kSrqKey + 4096), 0);
		ctx.cmd_fd = fd;
		pd.context = &ctx;
		sq_key = kSqKey;
		destroyed_qps = 0;
	}
	~SiwObjects() override { close(fd); }
	template <typename T>
	T at(uint64_t off)
	{
		T v;
		EXPECT_EQ(pread(fd, &v, sizeof(v), static_cast<off_t>(off)),
			  static_cast<ssize_t>(sizeof(v)));
		return v;
	}
	template <typename T>
	void put(uint64_t off, const T &v)
	{
		EXPECT_EQ(pwrite(fd, &v, sizeof(v), static_cast<off_t>(off)),
			  static_cast<ssize_t>(sizeof(v)));
	}
	// How many bytes the provider has write()n to cmd_fd: doorbells.
	off_t written() { return lseek(fd, 0, SEEK_CUR); }
	ovb_core core{};
	int fd = -1;
	ibv_context ctx{};
	ibv_pd pd{};
};

ibv_send_wr one_send(uint64_t id, ibv_sge &sge)
{
	ibv_send_wr wr{};
	wr.wr_id = id;
	wr.opcode = IBV_WR_SEND;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	return wr;
}

} // namespace

TEST_F(SiwObjects, CqPollsTheMappedRingAndArmsTheWordBehindIt)
{
	ibv_cq *cq = siw::create_cq(&ctx, kNum, nullptr, 0);
	ASSERT_NE(cq, nullptr);
	ibv_wc wc{};
	EXPECT_EQ(siw::poll_cq(cq, 1, &wc), 0);
	ovb_siw_cqe cqe{};
	cqe.id = 99;
	cqe.opcode = OVB_SIW_OP_SEND;
	cqe.bytes = 12;
	cqe.flags = OVB_SIW_WQE_VALID;
	put(kCqKey, cqe);			// the "kernel" completes one
	ASSERT_EQ(siw::poll_cq(cq, 1, &wc), 1);
	EXPECT_EQ(wc.wr_id, 99u);
	EXPECT_EQ(wc.byte_len, 12u);
	EXPECT_EQ(at<ovb_siw_cqe>(kCqKey).flags, 0) << "handed back";

	const uint64_t ctrl = kCqKey + kNum * sizeof(ovb_siw_cqe);
	EXPECT_EQ(at<uint32_t>(ctrl), uint32_t(OVB_SIW_NOTIFY_NOT));
	EXPECT_EQ(siw::req_notify_cq(cq, 0), 0);
	EXPECT_EQ(at<uint32_t>(ctrl), uint32_t(OVB_SIW_NOTIFY_SOLICITED |
					       OVB_SIW_NOTIFY_NEXT_COMPLETION));
	EXPECT_EQ(siw::req_notify_cq(cq, 1), 0);
	EXPECT_EQ(at<uint32_t>(ctrl), uint32_t(OVB_SIW_NOTIFY_SOLICITED));
	EXPECT_EQ(siw::destroy_cq(cq), 0);
}

TEST_F(SiwObjects, PostSendWritesTheSqeAndRingsOnlyAnIdleQueue)
{
	ibv_qp_init_attr attr{};
	attr.qp_type = IBV_QPT_RC;
	ibv_qp *qp = siw::create_qp(&pd, &attr);
	ASSERT_NE(qp, nullptr);
	ibv_sge sge{0x1000, 8, 2};
	ibv_send_wr wr = one_send(1, sge);
	ibv_send_wr *bad = nullptr;

	// An idle SQ: the SQE lands in slot 0 and the doorbell is written.
	ASSERT_EQ(siw::post_send(qp, &wr, &bad), 0);
	auto sqe = at<ovb_siw_sqe>(kSqKey);
	EXPECT_EQ(sqe.id, 1u);
	EXPECT_EQ(sqe.flags, OVB_SIW_WQE_VALID);
	const off_t db = sizeof(ovb_cmd_hdr) + sizeof(ovb_post_send_req);
	ASSERT_EQ(written(), db);
	auto hdr = at<ovb_cmd_hdr>(0);
	EXPECT_EQ(hdr.command, uint32_t(OVB_CMD_POST_SEND));
	EXPECT_EQ(hdr.in_words * 4u, uint32_t(db));
	auto req = at<ovb_post_send_req>(sizeof(ovb_cmd_hdr));
	EXPECT_EQ(req.qp_handle, kQpHandle);
	EXPECT_EQ(req.wr_count, 0u);

	// Slot 0 still the kernel's: it will walk on into slot 1, no doorbell.
	wr.wr_id = 2;
	ASSERT_EQ(siw::post_send(qp, &wr, &bad), 0);
	EXPECT_EQ(at<ovb_siw_sqe>(kSqKey + sizeof(ovb_siw_sqe)).id, 2u);
	EXPECT_EQ(written(), db);

	// The kernel took both: the next post rings again.
	put(kSqKey, ovb_siw_sqe{});
	put(kSqKey + sizeof(ovb_siw_sqe), ovb_siw_sqe{});
	wr.wr_id = 3;
	ASSERT_EQ(siw::post_send(qp, &wr, &bad), 0);
	EXPECT_EQ(written(), 2 * db);
	EXPECT_EQ(siw::destroy_qp(qp), 0);
}

TEST_F(SiwObjects, PostSendOnAFullRingIsEnomemAndNamesTheWr)
{
	ibv_qp_init_attr attr{};
	ibv_qp *qp = siw::create_qp(&pd, &attr);
	ASSERT_NE(qp, nullptr);
	ibv_sge sge{0x1000, 8, 2};
	ibv_send_wr w[kNum + 1];
	for (uint32_t i = 0; i <= kNum; i++) {
		w[i] = one_send(i, sge);
		w[i].next = i < kNum ? &w[i + 1] : nullptr;
	}
	ibv_send_wr *bad = nullptr;
	EXPECT_EQ(siw::post_send(qp, &w[0], &bad), ENOMEM);
	EXPECT_EQ(bad, &w[kNum]);
	EXPECT_GT(written(), 0) << "the WRs that went in are kicked";
	EXPECT_EQ(siw::destroy_qp(qp), 0);
}

TEST_F(SiwObjects, PostRecvFillsTheMappedReceiveRing)
{
	ibv_qp_init_attr attr{};
	ibv_qp *qp = siw::create_qp(&pd, &attr);
	ASSERT_NE(qp, nullptr);
	ibv_sge sge{0x3000, 64, 4};
	ibv_recv_wr wr{};
	wr.wr_id = 21;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad = nullptr;
	ASSERT_EQ(siw::post_recv(qp, &wr, &bad), 0);
	auto rqe = at<ovb_siw_rqe>(kRqKey);
	EXPECT_EQ(rqe.id, 21u);
	EXPECT_EQ(rqe.flags, OVB_SIW_WQE_VALID);
	EXPECT_EQ(rqe.sge[0].laddr, 0x3000u);
	EXPECT_EQ(written(), 0) << "receives need no doorbell";
	EXPECT_EQ(siw::destroy_qp(qp), 0);
}

TEST_F(SiwObjects, SrqFillsItsOwnRing)
{
	ibv_srq_init_attr attr{};
	ibv_srq *srq = siw::create_srq(&pd, &attr);
	ASSERT_NE(srq, nullptr);
	ibv_sge sge{0x4000, 16, 5};
	ibv_recv_wr wr{};
	wr.wr_id = 31;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ibv_recv_wr *bad = nullptr;
	ASSERT_EQ(siw::post_srq_recv(srq, &wr, &bad), 0);
	EXPECT_EQ(at<ovb_siw_rqe>(kSrqKey).id, 31u);
	EXPECT_EQ(siw::destroy_srq(srq), 0);
}

TEST_F(SiwObjects, QpWithoutAMappingIsDestroyedAgain)
{
	sq_key = OVB_SIW_INVAL_UOBJ_KEY;
	ibv_qp_init_attr attr{};
	errno = 0;
	EXPECT_EQ(siw::create_qp(&pd, &attr), nullptr);
	EXPECT_EQ(errno, ENOMEM);
	EXPECT_EQ(destroyed_qps, 1);
}
