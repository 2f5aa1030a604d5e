// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The write() ABI of /dev/infiniband/uverbs0: header validation, context
 * rules, the event files.  Every expectation is what the in-tree 6.1
 * module answers, so the same test passes on both stacks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "kselftest_harness.h"

#define UVERBS_DEV "/dev/infiniband/uverbs0"
#define PORT_STATE_ACTIVE 4	/* IB PortState: Active */

/* Issue one legacy command: header + request, in 4-byte words. */
static ssize_t legacy_cmd(int fd, __u32 cmd, void *req, size_t req_len,
			  size_t resp_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		char body[512];
	} buf = {};

	buf.hdr.command = cmd;
	buf.hdr.in_words = (sizeof(buf.hdr) + req_len) / 4;
	buf.hdr.out_words = resp_len / 4;
	memcpy(buf.body, req, req_len);
	return write(fd, &buf, sizeof(buf.hdr) + req_len);
}

static int get_context(int fd, struct ib_uverbs_get_context_resp *resp)
{
	struct ib_uverbs_get_context req = {
		.response = (uintptr_t)resp,
	};

	return legacy_cmd(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req, sizeof(req),
			  sizeof(*resp)) < 0 ? -errno : 0;
}

static int open_uverbs(struct __test_metadata *_metadata)
{
	int fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		SKIP(return -1, "%s missing: no RDMA device (run with --hca=rxe)",
		     UVERBS_DEV);
	return fd;
}

FIXTURE(uverbs) {
	int fd;
};

FIXTURE_SETUP(uverbs)
{
	self->fd = open_uverbs(_metadata);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(uverbs)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(uverbs, write_shorter_than_header_is_einval)
{
	__u32 word = IB_USER_VERBS_CMD_QUERY_DEVICE;

	EXPECT_EQ(-1, write(self->fd, &word, sizeof(word)));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(uverbs, unknown_command_is_eopnotsupp)
{
	char req[16] = {};

	EXPECT_EQ(-1, legacy_cmd(self->fd, 200, req, sizeof(req), 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

TEST_F(uverbs, reserved_command_bits_are_einval)
{
	char req[16] = {};

	EXPECT_EQ(-1, legacy_cmd(self->fd, 0x40000000 | IB_USER_VERBS_CMD_QUERY_DEVICE,
				 req, sizeof(req), 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(uverbs, in_words_must_match_write_length)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_query_device req;
	} buf = {};
	struct ib_uverbs_query_device_resp resp;

	buf.hdr.command = IB_USER_VERBS_CMD_QUERY_DEVICE;
	buf.hdr.in_words = sizeof(buf) / 4 + 1;
	buf.hdr.out_words = sizeof(resp) / 4;
	buf.req.response = (uintptr_t)&resp;
	EXPECT_EQ(-1, write(self->fd, &buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(uverbs, request_shorter_than_command_is_enospc)
{
	struct ib_uverbs_get_context_resp resp;
	__u64 response = (uintptr_t)&resp;

	/* GET_CONTEXT wants 8 bytes of request; give it 4. */
	EXPECT_EQ(-1, legacy_cmd(self->fd, IB_USER_VERBS_CMD_GET_CONTEXT,
				 &response, 4, sizeof(resp)));
	EXPECT_EQ(ENOSPC, errno);
}

TEST_F(uverbs, response_room_too_small_is_enospc)
{
	struct ib_uverbs_get_context_resp resp;
	struct ib_uverbs_get_context req = { .response = (uintptr_t)&resp };

	EXPECT_EQ(-1, legacy_cmd(self->fd, IB_USER_VERBS_CMD_GET_CONTEXT, &req,
				 sizeof(req), sizeof(resp) - 4));
	EXPECT_EQ(ENOSPC, errno);
}

TEST_F(uverbs, commands_before_get_context_are_einval)
{
	struct ib_uverbs_query_device_resp resp;
	struct ib_uverbs_query_device req = { .response = (uintptr_t)&resp };

	EXPECT_EQ(-1, legacy_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
				 sizeof(req), sizeof(resp)));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(uverbs, get_context_once_per_file)
{
	struct ib_uverbs_get_context_resp resp = {};

	ASSERT_EQ(0, get_context(self->fd, &resp));
	EXPECT_LE(0, (int)resp.async_fd);
	EXPECT_LE(1, resp.num_comp_vectors);
	EXPECT_EQ(-EINVAL, get_context(self->fd, &resp));
	close(resp.async_fd);
}

TEST_F(uverbs, bad_response_pointer_is_efault)
{
	struct ib_uverbs_get_context_resp resp = {};
	struct ib_uverbs_query_device req = { .response = 8 };

	ASSERT_EQ(0, get_context(self->fd, &resp));
	EXPECT_EQ(-1, legacy_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
				 sizeof(req), sizeof(struct ib_uverbs_query_device_resp)));
	EXPECT_EQ(EFAULT, errno);
	close(resp.async_fd);
}

TEST_F(uverbs, nonzero_tail_past_request_is_eopnotsupp)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct ib_uverbs_query_device_resp resp;
	struct {
		struct ib_uverbs_query_device req;
		__u64 tail;
	} req = { .req.response = (uintptr_t)&resp, .tail = 1 };

	ASSERT_EQ(0, get_context(self->fd, &ctx));
	EXPECT_EQ(-1, legacy_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
				 sizeof(req), sizeof(resp)));
	EXPECT_EQ(EOPNOTSUPP, errno);
	req.tail = 0;
	EXPECT_EQ((ssize_t)(sizeof(struct ib_uverbs_cmd_hdr) + sizeof(req)),
		  legacy_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &req,
			     sizeof(req), sizeof(resp)));
	close(ctx.async_fd);
}

TEST_F(uverbs, query_device_and_port)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct ib_uverbs_query_device_resp dev = {};
	struct ib_uverbs_query_port_resp port = {};
	struct ib_uverbs_query_device dreq = { .response = (uintptr_t)&dev };
	struct ib_uverbs_query_port preq = { .response = (uintptr_t)&port };

	ASSERT_EQ(0, get_context(self->fd, &ctx));
	ASSERT_LT(0, legacy_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_DEVICE, &dreq,
				sizeof(dreq), sizeof(dev)));
	EXPECT_LE(1, dev.phys_port_cnt);
	EXPECT_NE(0, dev.max_qp);
	EXPECT_NE(0, dev.max_cqe);

	preq.port_num = 1;
	ASSERT_LT(0, legacy_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_PORT, &preq,
				sizeof(preq), sizeof(port)));
	EXPECT_EQ(PORT_STATE_ACTIVE, port.state);
	EXPECT_LE(1, port.gid_tbl_len);

	preq.port_num = dev.phys_port_cnt + 1;
	EXPECT_EQ(-1, legacy_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_PORT, &preq,
				 sizeof(preq), sizeof(port)));
	EXPECT_EQ(EINVAL, errno);
	close(ctx.async_fd);
}

TEST_F(uverbs, ex_query_device_rejects_comp_mask)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct ib_uverbs_ex_query_device_resp resp = {};
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_query_device req;
	} buf = {};

	ASSERT_EQ(0, get_context(self->fd, &ctx));
	buf.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED |
			  IB_USER_VERBS_EX_CMD_QUERY_DEVICE;
	buf.hdr.in_words = sizeof(buf.req) / 8;
	buf.hdr.out_words = sizeof(resp) / 8;
	buf.ex.response = (uintptr_t)&resp;
	ASSERT_EQ((ssize_t)sizeof(buf), write(self->fd, &buf, sizeof(buf)));
	EXPECT_EQ(sizeof(resp), resp.response_length);

	buf.req.comp_mask = 1;
	EXPECT_EQ(-1, write(self->fd, &buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);

	/* A response buffer but no response words is malformed. */
	buf.req.comp_mask = 0;
	buf.hdr.out_words = 0;
	EXPECT_EQ(-1, write(self->fd, &buf, sizeof(buf)));
	EXPECT_EQ(EINVAL, errno);
	close(ctx.async_fd);
}

TEST_F(uverbs, async_fd_is_pollable_and_nonblocking)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct ib_uverbs_async_event_desc evt;
	struct pollfd pfd;

	ASSERT_EQ(0, get_context(self->fd, &ctx));
	pfd = (struct pollfd){ .fd = ctx.async_fd, .events = POLLIN };
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, fcntl(ctx.async_fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, read(ctx.async_fd, &evt, sizeof(evt)));
	EXPECT_EQ(EAGAIN, errno);
	close(ctx.async_fd);
}

TEST_F(uverbs, comp_channel_outlives_its_uverbs_file)
{
	struct ib_uverbs_get_context_resp ctx = {};
	struct ib_uverbs_create_comp_channel_resp ch = {};
	struct ib_uverbs_create_comp_channel req = { .response = (uintptr_t)&ch };
	struct ib_uverbs_comp_event_desc evt;
	struct pollfd pfd;

	ASSERT_EQ(0, get_context(self->fd, &ctx));
	ASSERT_LT(0, legacy_cmd(self->fd, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL,
				&req, sizeof(req), sizeof(ch)));
	ASSERT_LE(0, (int)ch.fd);
	ASSERT_EQ(0, fcntl(ch.fd, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, read(ch.fd, &evt, sizeof(evt)));
	EXPECT_EQ(EAGAIN, errno);

	/* Closing the device file destroys the channel's queue: EIO. */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(-1, read(ch.fd, &evt, sizeof(evt)));
	EXPECT_EQ(EIO, errno);
	pfd = (struct pollfd){ .fd = ch.fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLERR);
	close(ch.fd);
	close(ctx.async_fd);
}

TEST_F(uverbs, many_files_many_contexts)
{
	int fds[64];
	int i;

	for (i = 0; i < 64; i++) {
		struct ib_uverbs_get_context_resp ctx = {};

		fds[i] = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);
		ASSERT_LE(0, fds[i]);
		ASSERT_EQ(0, get_context(fds[i], &ctx));
		close(ctx.async_fd);
	}
	for (i = 0; i < 64; i++)
		close(fds[i]);
}

/*
 * Ours answers ENOTTY unless its ioctl_abi parameter is on (rdma-core then
 * uses write() for everything); the in-tree module parses the header.
 */
TEST_F(uverbs, verbs_ioctl_answer_matches_the_stack)
{
	const char *stack = getenv("OVB_UVERBS");
	struct ib_uverbs_ioctl_hdr hdr = { .length = sizeof(hdr) };
	int ret = ioctl(self->fd, RDMA_VERBS_IOCTL, &hdr);
	char abi = 'N';
	int pfd;

	pfd = open("/sys/module/ib_uverbs/parameters/ioctl_abi", O_RDONLY);
	if (pfd >= 0) {
		if (read(pfd, &abi, 1) != 1)
			abi = 'N';
		close(pfd);
	}
	EXPECT_EQ(-1, ret);
	if (stack && !strcmp(stack, "ours") && abi != 'Y') {
		EXPECT_EQ(ENOTTY, errno);
	} else {
		EXPECT_NE(ENOTTY, errno);
	}
}

TEST_HARNESS_MAIN
