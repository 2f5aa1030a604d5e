// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A context made by ibv_import_device() has an async event fd of its own,
// which only the ioctl create methods name: its CQ and SRQ creates never
// fall back to write() (rdma-core 44 answers EOPNOTSUPP there), while an
// opened context's do.  The "device" is a pipe: the ioctl answers ENOTTY
// (no ioctl ABI), a write() command lands in the pipe where the test
// reads it back.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <unistd.h>

#include "context.h"
#include "core.h"

namespace {

struct PipeContext {
	explicit PipeContext(bool imported)
	{
		EXPECT_EQ(pipe2(fds, O_NONBLOCK), 0);
		vctx.context.cmd_fd = fds[1];
		vctx.context.async_fd = 77;
		vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
		vctx.sz = sizeof(vctx);
		vctx.priv = &priv;
		priv.imported = imported;
		pd.context = &vctx.context;
	}
	~PipeContext()
	{
		close(fds[0]);
		close(fds[1]);
	}
	// The write() command's number in the pipe, or -1 if none came.
	int64_t written_command()
	{
		uint32_t hdr[4] = {};
		ssize_t n = read(fds[0], hdr, sizeof(hdr));
		return n >= 4 ? static_cast<int64_t>(hdr[0]) : -1;
	}
	ibv_context *ctx() { return &vctx.context; }
	int fds[2];
	verbs_context vctx{};
	verbs_ex_private priv{};
	ibv_pd pd{};
};

} // namespace

TEST(ImportedContext, OpenedContextCreatesCqByWrite)
{
	PipeContext c(false);
	ibv_cq cq{};
	EXPECT_EQ(0, ovb::core_create_cq(c.ctx(), 16, nullptr, 0, &cq, nullptr));
	EXPECT_EQ(OVB_CMD_CREATE_CQ, c.written_command());
	// the ioctl's ENOTTY marked every method class for write()
	EXPECT_EQ(~0u, c.priv.unsupported);
}

TEST(ImportedContext, ImportedContextRefusesCqByWrite)
{
	PipeContext c(true);
	ibv_cq cq{};
	EXPECT_EQ(EOPNOTSUPP,
		  ovb::core_create_cq(c.ctx(), 16, nullptr, 0, &cq, nullptr));
	EXPECT_EQ(-1, c.written_command());
}

TEST(ImportedContext, SrqByWriteOnlyWhenOpened)
{
	for (bool imported : { false, true }) {
		PipeContext c(imported);
		ibv_srq srq{};
		ibv_srq_init_attr attr{};
		attr.attr.max_wr = 8;
		attr.attr.max_sge = 1;
		uint32_t srqn = 0;
		EXPECT_EQ(imported ? EOPNOTSUPP : 0,
			  ovb::core_create_srq(&c.pd, &srq, &attr, &srqn, nullptr));
		EXPECT_EQ(imported ? -1 : int64_t{OVB_CMD_CREATE_SRQ},
			  c.written_command());
	}
}
