// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// execute_ioctl on rdma-core's command buffer: chained driver attributes
// gathered behind the core ones, a small UHW_IN inlined, the header's
// length and driver id, a marshalling error refused before any call, and
// __ioctl_final_num_attrs.  The "device" is a pipe: the ioctl itself
// answers ENOTTY, after the buffer was prepared.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "context.h"

using namespace ovb::rdmacore;

extern "C" int execute_ioctl(ibv_context *ctx, CommandBuffer *cmd);
extern "C" unsigned int __ioctl_final_num_attrs(unsigned int n,
						CommandBuffer *link);

namespace {

// A command buffer with room for n attributes, as rdma-core's
// DECLARE_COMMAND_BUFFER lays it out on the stack.
struct Buffer {
	explicit Buffer(unsigned n) : mem(sizeof(CommandBuffer) / 8 + 2 * n + 1)
	{
		b()->next_attr = b()->hdr.attrs;
		b()->last_attr = b()->hdr.attrs + n;
		b()->uhw_in_idx = kNoUhw;
		b()->uhw_out_idx = kNoUhw;
		b()->hdr.object_id = 3;
		b()->hdr.method_id = 7;
	}
	CommandBuffer *b() { return reinterpret_cast<CommandBuffer *>(mem.data()); }
	ovb_ioctl_attr &add(uint16_t id, uint16_t len, uint64_t data)
	{
		ovb_ioctl_attr &a = *b()->next_attr++;
		a = {};
		a.attr_id = id;
		a.len = len;
		a.data = data;
		return a;
	}
	std::vector<uint64_t> mem;
};

struct PipeContext {
	PipeContext()
	{
		EXPECT_EQ(pipe(fds), 0);
		vctx.context.cmd_fd = fds[0];
		vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
		vctx.sz = sizeof(vctx);
		vctx.priv = &priv;
		priv.driver_id = 4;	// RDMA_DRIVER_MLX5
	}
	~PipeContext()
	{
		close(fds[0]);
		close(fds[1]);
	}
	int fds[2];
	verbs_context vctx{};
	verbs_ex_private priv{};
};

} // namespace

TEST(RdmaCoreIoctl, GathersChainedAttrsAndInlinesSmallUhw)
{
	PipeContext c;
	Buffer core(8), drv(3);
	core.add(1, 4, 0x11);
	core.add(2, 8, 0x22);
	uint32_t uhw_bytes = 0xa1b2c3d4;
	drv.add(9, 16, 0x99);
	drv.add(OVB_ATTR_UHW_IN, sizeof(uhw_bytes),
		reinterpret_cast<uintptr_t>(&uhw_bytes));
	drv.b()->uhw_in_idx = 1;
	core.b()->next = drv.b();
	EXPECT_EQ(__ioctl_final_num_attrs(2, drv.b()), 4u);

	errno = 0;
	EXPECT_EQ(execute_ioctl(&c.vctx.context, core.b()), ENOTTY);
	const ovb_ioctl_hdr &h = core.b()->hdr;
	EXPECT_EQ(h.num_attrs, 4);
	EXPECT_EQ(h.length, sizeof(ovb_ioctl_hdr) + 4 * sizeof(ovb_ioctl_attr));
	EXPECT_EQ(h.driver_id, 4u);
	EXPECT_EQ(h.attrs[2].attr_id, 9);
	EXPECT_EQ(h.attrs[3].attr_id, OVB_ATTR_UHW_IN);
	EXPECT_EQ(core.b()->uhw_in_idx, 3);
	uint32_t inlined;
	std::memcpy(&inlined, &h.attrs[3].data, sizeof(inlined));
	EXPECT_EQ(inlined, 0xa1b2c3d4u);
}

TEST(RdmaCoreIoctl, MarshallingErrorIsEinvalWithoutACall)
{
	PipeContext c;
	Buffer core(2);
	core.add(1, 4, 1);
	core.b()->buffer_error = 1;
	EXPECT_EQ(execute_ioctl(&c.vctx.context, core.b()), EINVAL);
	EXPECT_EQ(core.b()->hdr.length, 0);	// nothing was prepared
}
