// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ioctl() ABI of /dev/infiniband/uverbs0 (RDMA_VERBS_IOCTL): the
 * header and attribute rules of the parser and the device-level methods.
 * Every expectation is what the in-tree 6.1 module answers, so the same
 * test passes on both stacks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <rdma/ib_user_verbs.h>

#include "kselftest_harness.h"
#include "uverbs_raw.h"
#include "uverbs_ioctl.h"

static int open_uverbs(struct __test_metadata *_metadata)
{
	int fd = open(UVERBS_DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		SKIP(return -1, "%s missing: no RDMA device (run with --hca=rxe)",
		     UVERBS_DEV);
	return fd;
}

/* A QUERY_PORT call for port 1 with room for the extended response. */
static void query_port_call(struct ioc *c, struct ib_uverbs_query_port_resp_ex *resp)
{
	ioc_init(c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	ioc_out(c, UVERBS_ATTR_QUERY_PORT_RESP, resp, sizeof(*resp));
}

/* ------------------------------------------------ the header, no context */

FIXTURE(hdr) {
	int fd;
	char abi;
};

FIXTURE_SETUP(hdr)
{
	self->abi = ioctl_abi_on();
	self->fd = open_uverbs(_metadata);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(hdr)
{
	if (self->fd >= 0)
		close(self->fd);
	ioctl_abi_restore(self->abi);
}

TEST_F(hdr, other_ioctl_numbers_are_enotty)
{
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR(RDMA_IOCTL_MAGIC, 2,
					     struct ib_uverbs_ioctl_hdr), &c));
	EXPECT_EQ(ENOTTY, errno);
}

TEST_F(hdr, unreadable_header_is_efault)
{
	EXPECT_EQ(-1, ioctl(self->fd, RDMA_VERBS_IOCTL, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(hdr, length_must_match_num_attrs)
{
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	c.hdr.num_attrs = 1;
	c.hdr.length = sizeof(c.hdr);
	EXPECT_EQ(-1, ioctl(self->fd, RDMA_VERBS_IOCTL, &c));
	EXPECT_EQ(EINVAL, errno);
	c.hdr.num_attrs = 0;
	c.hdr.length = sizeof(c.hdr) + 1;
	EXPECT_EQ(-1, ioctl(self->fd, RDMA_VERBS_IOCTL, &c));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(hdr, longer_than_a_page_is_einval)
{
	size_t n = 4096 / sizeof(struct ib_uverbs_attr);
	struct ib_uverbs_ioctl_hdr *h = calloc(1, sizeof(*h) + n * 16);

	ASSERT_NE(NULL, h);
	h->object_id = UVERBS_OBJECT_DEVICE;
	h->method_id = UVERBS_METHOD_QUERY_PORT;
	h->driver_id = RDMA_DRIVER_RXE;
	h->num_attrs = n;
	h->length = sizeof(*h) + n * 16;
	EXPECT_EQ(-1, ioctl(self->fd, RDMA_VERBS_IOCTL, h));
	EXPECT_EQ(EINVAL, errno);
	free(h);
}

TEST_F(hdr, reserved_fields_are_eprotonosupport)
{
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	c.hdr.reserved1 = 1;
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	c.hdr.reserved2 = 1;
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
}

TEST_F(hdr, other_driver_id_is_einval)
{
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	c.hdr.driver_id = RDMA_DRIVER_MLX5;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(hdr, unknown_object_or_method_is_eprotonosupport)
{
	struct ioc c;

	ioc_init(&c, 0x7f, 0);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	ioc_init(&c, UVERBS_OBJECT_DEVICE, 0x1f);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	/* the driver namespace: rxe declares nothing there */
	ioc_init(&c, UVERBS_UDATA_DRIVER_DATA_FLAG | 1, 0);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	/* rxe has no device memory and no counters: those methods are gone */
	ioc_init(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
	ioc_init(&c, UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_CREATE);
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
}

TEST_F(hdr, methods_need_a_context)
{
	struct ib_uverbs_query_port_resp_ex resp;
	struct ioc c;

	query_port_call(&c, &resp);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

/* ----------------------------------------- attributes, with a context */

FIXTURE(ioctl) {
	int fd;
	int async_fd;
	char abi;
};

/* The context as rdma-core 44 makes it: GET_CONTEXT, ASYNC_EVENT_ALLOC. */
FIXTURE_SETUP(ioctl)
{
	__u32 vectors = 0;
	__u64 support = 0;
	struct ioc c;

	self->abi = ioctl_abi_on();
	self->async_fd = -1;
	self->fd = open_uverbs(_metadata);
	ASSERT_LE(0, self->fd);

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	ioc_out(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vectors,
		sizeof(vectors));
	ioc_out(&c, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &support,
		sizeof(support));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_LE(1, vectors);
	EXPECT_EQ(IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS, support);
	EXPECT_TRUE(c.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT);

	ioc_init(&c, UVERBS_OBJECT_ASYNC_EVENT, UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	ioc_obj(&c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0);
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	self->async_fd = c.attrs[0].data;
	EXPECT_LE(0, self->async_fd);
	EXPECT_EQ(FD_CLOEXEC, fcntl(self->async_fd, F_GETFD));
}

FIXTURE_TEARDOWN(ioctl)
{
	if (self->async_fd >= 0)
		close(self->async_fd);
	if (self->fd >= 0)
		close(self->fd);
	ioctl_abi_restore(self->abi);
}

TEST_F(ioctl, second_get_context_is_einval)
{
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, query_port_fills_marks_and_zero_extends)
{
	struct ib_uverbs_query_port_resp legacy = {};
	struct ib_uverbs_query_port req = {
		.response = (uintptr_t)&legacy, .port_num = 1,
	};
	unsigned char buf[64];
	struct ib_uverbs_query_port_resp_ex *resp = (void *)buf;
	struct ioc c;
	size_t i;

	memset(buf, 0xa5, sizeof(buf));
	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, buf, sizeof(buf));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_TRUE(c.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	EXPECT_FALSE(c.attrs[0].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	for (i = sizeof(*resp); i < sizeof(buf); i++)
		EXPECT_EQ(0, buf[i]);

	/* The same port through write(): the legacy part is identical. */
	ASSERT_LE(0, raw_cmd(self->fd, IB_USER_VERBS_CMD_QUERY_PORT, &req,
			     sizeof(req), sizeof(legacy)));
	EXPECT_EQ(0, memcmp(&legacy, &resp->legacy_resp, sizeof(legacy)));
}

TEST_F(ioctl, bad_port_is_einval)
{
	struct ib_uverbs_query_port_resp_ex resp;
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 9);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, &resp, sizeof(resp));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* a u8 constant above 255 does not fit */
	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 0x101);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, &resp, sizeof(resp));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, missing_mandatory_attr_is_einval)
{
	struct ib_uverbs_query_port_resp_ex resp;
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, &resp, sizeof(resp));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, unknown_attr_is_ignored_unless_mandatory)
{
	struct ib_uverbs_query_port_resp_ex resp;
	struct ioc c;

	query_port_call(&c, &resp);
	ioc_const(&c, 0x1e, 7);
	EXPECT_EQ(0, ioc_call(self->fd, &c));

	query_port_call(&c, &resp);
	ioc_const(&c, 0x1e, 7)->flags = UVERBS_ATTR_F_MANDATORY;
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));

	/* a driver-namespace attribute rxe does not declare */
	query_port_call(&c, &resp);
	ioc_const(&c, UVERBS_UDATA_DRIVER_DATA_FLAG | 3, 7)->flags = UVERBS_ATTR_F_MANDATORY;
	EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c));
}

TEST_F(ioctl, duplicate_attr_is_einval)
{
	struct ib_uverbs_query_port_resp_ex resp;
	struct ioc c;

	query_port_call(&c, &resp);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, ptr_sizes_are_checked)
{
	struct ib_uverbs_query_port_resp_ex resp;
	__u32 port = 1;
	__u64 big[2] = { 1, 0 };
	struct ioc c;

	/* a fixed-size input: shorter and longer are both EINVAL */
	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_in(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, &port, sizeof(port));
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, &resp, sizeof(resp));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_in(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, big, sizeof(big));
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, &resp, sizeof(resp));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* an output shorter than the struct's required part */
	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, &resp, 8);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, reserved_attr_data_is_einval)
{
	struct ib_uverbs_query_port_resp_ex resp;
	struct ioc c;

	query_port_call(&c, &resp);
	c.attrs[0].attr_data.reserved = 1;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	query_port_call(&c, &resp);
	c.attrs[1].attr_data.reserved = 1;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, unwritable_output_is_efault)
{
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	ioc_const(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
	ioc_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, (void *)8,
		sizeof(struct ib_uverbs_query_port_resp_ex));
	EXPECT_EQ(-EFAULT, ioc_call(self->fd, &c));
}

TEST_F(ioctl, unreadable_attrs_are_efault)
{
	struct ib_uverbs_ioctl_hdr *h;
	void *page;

	/* the header readable, the attribute array past it unmapped */
	page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	ASSERT_EQ(0, munmap(page + 4096, 4096));
	h = page + 4096 - sizeof(*h);
	memset(h, 0, sizeof(*h));
	h->object_id = UVERBS_OBJECT_DEVICE;
	h->method_id = UVERBS_METHOD_QUERY_PORT;
	h->driver_id = RDMA_DRIVER_RXE;
	h->num_attrs = 2;
	h->length = sizeof(*h) + 2 * sizeof(struct ib_uverbs_attr);
	EXPECT_EQ(-1, ioctl(self->fd, RDMA_VERBS_IOCTL, h));
	EXPECT_EQ(EFAULT, errno);
	munmap(page, 4096);
}

TEST_F(ioctl, flags_attrs_reject_unknown_bits)
{
	struct ib_uverbs_gid_entry entry = {};
	struct ioc c;
	__u32 flags = 1;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 0);
	ioc_in(&c, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, &flags, sizeof(flags));
	ioc_out(&c, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &entry,
		sizeof(entry));
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* 4-byte (old) and 8-byte flags are both accepted */
	flags = 0;
	c.attrs[2].data = 0;
	EXPECT_EQ(0, ioc_call(self->fd, &c));
	c.attrs[2].len = 8;
	EXPECT_EQ(0, ioc_call(self->fd, &c));
	c.attrs[2].len = 2;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, gid_entry_and_table)
{
	struct ib_uverbs_gid_entry entry = {}, table[16];
	__u64 n = 0;
	struct ioc c;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 0);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0);
	ioc_out(&c, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &entry,
		sizeof(entry));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(1, entry.port_num);
	EXPECT_EQ(0, entry.gid_index);
	EXPECT_NE(0, entry.netdev_ifindex);
	EXPECT_NE(0, entry.gid[0] | entry.gid[1]);

	/* an index past the filled ones: no data; a bad port: EINVAL */
	c.attrs[1].data = 1000;
	EXPECT_EQ(-ENODATA, ioc_call(self->fd, &c));
	c.attrs[1].data = 0;
	c.attrs[0].data = 2;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE);
	ioc_const(&c, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, sizeof(table[0]));
	ioc_out(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, table,
		sizeof(table));
	ioc_out(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &n, sizeof(n));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_LE(1, n);
	EXPECT_EQ(0, memcmp(&table[0], &entry, sizeof(entry)));

	/* entry size 0 is EINVAL; a buffer smaller than one entry too */
	c.attrs[0].data = 0;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	c.attrs[0].data = sizeof(table[0]);
	c.attrs[1].len = sizeof(table[0]) - 1;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

TEST_F(ioctl, invoke_write_carries_write_commands)
{
	struct ib_uverbs_query_device_resp resp = {};
	struct ib_uverbs_query_device_resp wresp = {};
	struct ioc c;
	__u64 unused = 0;

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	ioc_const(&c, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_QUERY_DEVICE);
	ioc_in(&c, UVERBS_ATTR_CORE_IN, &unused, sizeof(unused));
	ioc_out(&c, UVERBS_ATTR_CORE_OUT, &resp, sizeof(resp));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	ASSERT_EQ(0, raw_query_device(self->fd, &wresp));
	EXPECT_EQ(0, memcmp(&resp, &wresp, sizeof(resp)));
	/* the response is an output the kernel wrote, and says so (6.1) */
	EXPECT_TRUE(c.attrs[2].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	EXPECT_FALSE(c.attrs[1].flags & UVERBS_ATTR_F_VALID_OUTPUT);

	/* too small a response buffer: ENOSPC, and nothing written */
	c.attrs[2].flags = 0;
	c.attrs[2].len = sizeof(resp) - 8;
	EXPECT_EQ(-ENOSPC, ioc_call(self->fd, &c));
	EXPECT_FALSE(c.attrs[2].flags & UVERBS_ATTR_F_VALID_OUTPUT);
	/* a command the device does not serve, a number past all: EOPNOTSUPP */
	c.attrs[2].len = sizeof(resp);
	c.attrs[0].data = IB_USER_VERBS_CMD_POLL_CQ;
	EXPECT_EQ(-EOPNOTSUPP, ioc_call(self->fd, &c));
	c.attrs[0].data = 60;
	EXPECT_EQ(-EOPNOTSUPP, ioc_call(self->fd, &c));
	/* bits outside command | extended flag: EINVAL */
	c.attrs[0].data = 0x10000 | IB_USER_VERBS_CMD_QUERY_DEVICE;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
}

/*
 * A write command's request at the top of the address space, in the page
 * where kernel error pointers live: copying from it faults (EFAULT, as in
 * 6.1), it is never taken for an errno.  The request "ends" past the wrap,
 * so the cursor over the POST_* requests' arrays sees room for them (rxe
 * serves POST_SEND alone of them: it posts receives from user space).
 * On the module before this test, POST_SEND answered -8 and -4095.
 */
TEST_F(ioctl, invoke_write_request_in_the_top_page_is_efault)
{
	static const __u64 tops[] = { ~0ull - 7, ~0ull - 4094 };
	static const __u32 cmds[] = { IB_USER_VERBS_CMD_POST_SEND,
				      IB_USER_VERBS_CMD_QUERY_DEVICE };
	__u8 in[64] = {}, out[512];
	unsigned int i, j;
	struct ioc c;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		for (j = 0; j < sizeof(tops) / sizeof(tops[0]); j++) {
			ioc_init(&c, UVERBS_OBJECT_DEVICE,
				 UVERBS_METHOD_INVOKE_WRITE);
			ioc_const(&c, UVERBS_ATTR_WRITE_CMD, cmds[i]);
			ioc_in(&c, UVERBS_ATTR_CORE_IN, in, sizeof(in));
			ioc_out(&c, UVERBS_ATTR_CORE_OUT, out, sizeof(out));
			c.attrs[1].data = tops[j];
			EXPECT_EQ(-EFAULT, ioc_call(self->fd, &c))
				TH_LOG("command %u, request at %#llx", cmds[i],
				       (unsigned long long)tops[j]);
		}
	}
}

TEST_F(ioctl, pd_handles_listed_and_destroyed)
{
	__u32 handles[8] = {};
	__u32 total = 0;
	int pd1, pd2;
	struct ioc c;

	pd1 = ioctl_alloc_pd(self->fd);
	ASSERT_LE(0, pd1);
	pd2 = raw_alloc_pd(self->fd);
	ASSERT_LE(0, pd2);

	ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
	ioc_const(&c, UVERBS_ATTR_INFO_OBJECT_ID, UVERBS_OBJECT_PD);
	ioc_out(&c, UVERBS_ATTR_INFO_TOTAL_HANDLES, &total, sizeof(total));
	ioc_out(&c, UVERBS_ATTR_INFO_HANDLES_LIST, handles, sizeof(handles));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(2, total);
	EXPECT_TRUE((handles[0] == pd1 && handles[1] == pd2) ||
		    (handles[0] == pd2 && handles[1] == pd1));
	/* the list must have room for at least one handle, in whole u32s */
	c.attrs[2].len = 6;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	EXPECT_EQ(0, ioctl_destroy_pd(self->fd, pd1));
	EXPECT_EQ(-ENOENT, ioctl_destroy_pd(self->fd, pd1));
	EXPECT_EQ(0, ioctl_destroy_pd(self->fd, pd2));
	EXPECT_EQ(-ENOENT, ioctl_destroy_pd(self->fd, 4000));
}

TEST_F(ioctl, object_attr_rules)
{
	int pd = raw_alloc_pd(self->fd);
	struct ioc c;

	ASSERT_LE(0, pd);
	/* a handle carries no length and no reserved bits */
	ioc_init(&c, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_PD_HANDLE, pd)->len = 4;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	ioc_init(&c, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_PD_HANDLE, pd)->attr_data.reserved = 1;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* a handle of another type is not a PD */
	ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_MR_HANDLE, pd);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	/* the right type destroys it */
	EXPECT_EQ(0, ioctl_destroy_pd(self->fd, pd));
}

TEST_F(ioctl, mr_query_and_destroy)
{
	struct ib_uverbs_reg_mr_resp mresp = {};
	static char buf[8192] __attribute__((aligned(4096)));
	__u32 lkey = 0, rkey = 0;
	__u64 length = 0, iova = 0;
	int pd = raw_alloc_pd(self->fd);
	struct ib_uverbs_reg_mr req = {
		.response = (uintptr_t)&mresp,
		.start = (uintptr_t)buf,
		.length = sizeof(buf),
		.hca_va = 0x10000,
		.access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};
	struct ioc c;

	ASSERT_LE(0, pd);
	req.pd_handle = pd;
	ASSERT_LE(0, raw_cmd(self->fd, IB_USER_VERBS_CMD_REG_MR, &req,
			     sizeof(req), sizeof(mresp)));

	ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR);
	ioc_obj(&c, UVERBS_ATTR_QUERY_MR_HANDLE, mresp.mr_handle);
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &lkey, sizeof(lkey));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &rkey, sizeof(rkey));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &length, sizeof(length));
	ioc_out(&c, UVERBS_ATTR_QUERY_MR_RESP_IOVA, &iova, sizeof(iova));
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(mresp.lkey, lkey);
	EXPECT_EQ(mresp.rkey, rkey);
	EXPECT_EQ(sizeof(buf), length);
	EXPECT_EQ(0x10000, iova);

	/* the PD is in use */
	EXPECT_EQ(-EBUSY, ioctl_destroy_pd(self->fd, pd));
	ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_MR_HANDLE, mresp.mr_handle);
	EXPECT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(0, ioctl_destroy_pd(self->fd, pd));
}

/*
 * ADVISE_MR and REG_DMABUF_MR exist on every device (6.1 declares them for
 * all); rxe has neither operation, so a well-formed call reaches the handler
 * and answers EOPNOTSUPP, while a malformed one fails in the parser first.
 */
TEST_F(ioctl, advise_and_dmabuf_mr_are_declared_but_unsupported_on_rxe)
{
	struct ib_uverbs_sge sge = { .addr = 0x1000, .length = 64 };
	__u64 offset = 0, length = 4096, iova = 0x10000;
	__u32 fd = 0, lkey, rkey;
	int pd = raw_alloc_pd(self->fd);
	struct ioc c;

	ASSERT_LE(0, pd);
	ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR);
	ioc_obj(&c, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, pd);
	ioc_const(&c, UVERBS_ATTR_ADVISE_MR_ADVICE,
		  IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH);
	ioc_const(&c, UVERBS_ATTR_ADVISE_MR_FLAGS, 0);
	ioc_in(&c, UVERBS_ATTR_ADVISE_MR_SGE_LIST, &sge, sizeof(sge));
	EXPECT_EQ(-EOPNOTSUPP, ioc_call(self->fd, &c));
	c.hdr.num_attrs--;		/* no SGE list: mandatory, EINVAL */
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	c.hdr.num_attrs++;
	c.attrs[3].len = sizeof(sge) - 1;	/* shorter than one SGE */
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));

	ioc_init(&c, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
	ioc_obj(&c, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0);
	ioc_obj(&c, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, pd);
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, &offset, sizeof(offset));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, &length, sizeof(length));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_IOVA, &iova, sizeof(iova));
	ioc_in(&c, UVERBS_ATTR_REG_DMABUF_MR_FD, &fd, sizeof(fd));
	ioc_out(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey, sizeof(lkey));
	ioc_out(&c, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey, sizeof(rkey));
	EXPECT_EQ(-EOPNOTSUPP, ioc_call(self->fd, &c));
	/* a PD handle that is not one: the parser's ENOENT comes first */
	c.attrs[1].data = pd + 100;
	EXPECT_EQ(-ENOENT, ioc_call(self->fd, &c));
	/* nothing was created either time */
	EXPECT_EQ(0, ioctl_destroy_pd(self->fd, pd));
}

/*
 * Objects whose driver operations rxe lacks are not there at all: DM,
 * COUNTERS, FLOW_ACTION, and DM_MR_REG (its mandatory DM handle names an
 * absent object) answer EPROTONOSUPPORT, as on 6.1.
 */
TEST_F(ioctl, objects_rxe_lacks_are_eprotonosupport)
{
	static const struct { __u16 object, method; } absent[] = {
		{ UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC },
		{ UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE },
		{ UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG },
		{ UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_CREATE },
		{ UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_READ },
		{ UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_DESTROY },
	};
	struct ioc c;
	size_t i;

	for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		ioc_init(&c, absent[i].object, absent[i].method);
		ioc_obj(&c, 0, 0);
		EXPECT_EQ(-EPROTONOSUPPORT, ioc_call(self->fd, &c))
			TH_LOG("object %u method %u", absent[i].object,
			       absent[i].method);
	}
}

TEST_F(ioctl, cq_destroy_reports_events)
{
	struct ib_uverbs_destroy_cq_resp resp = { 7, 7 };
	struct ib_uverbs_create_cq_resp cq;
	struct ioc c;

	ASSERT_EQ(0, raw_create_cq(self->fd, 8, 0, -1, 0x1234, &cq));
	ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_CQ_HANDLE, cq.cq_handle);
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));	/* RESP is mandatory */
	ioc_out(&c, UVERBS_ATTR_DESTROY_CQ_RESP, &resp, sizeof(resp));
	EXPECT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(0, resp.comp_events_reported);
	EXPECT_EQ(0, resp.async_events_reported);
	EXPECT_EQ(-ENOENT, ioc_call(self->fd, &c));
}

/* CQ_CREATE for rxe (its driver reply needs room); 0 or -errno. */
TEST_F(ioctl, cq_create_checks_and_creates)
{
	__u32 handle = ~0u, cqe = 0;

	ASSERT_EQ(0, ioctl_create_cq(self->fd, 8, 0, 0, &handle, &cqe));
	EXPECT_LE(8, cqe);
	/* a vector the device lacks, a flag it does not know */
	EXPECT_EQ(-EINVAL, ioctl_create_cq(self->fd, 8, 4096, 0, &handle, &cqe));
	EXPECT_EQ(-EINVAL, ioctl_create_cq(self->fd, 8, 0, 1 << 7, &handle,
					   &cqe));
	EXPECT_EQ(0, ioctl_destroy_cq(self->fd, handle));
}

/* QP_CREATE of an RC QP on @pd/@cq; 0 or -errno. */
/*
 * An FD attribute is looked up as an int: -1 or any fd that is not a file
 * of the right kind is EBADF, a value wider than an int EINVAL (the fuzzer
 * found ours answering EINVAL for -1).
 */
TEST_F(ioctl, fd_attrs_are_ints_and_ebadf_when_not_ours)
{
	static const struct { __s64 fd; int err; } cases[] = {
		{ -1, -EBADF }, { -1000, -EBADF }, { 1000, -EBADF },
		{ 0, -EBADF }, { 0x100000000ll, -EINVAL }, { -0x80000001ll, -EINVAL },
	};
	__u32 cqe = 4, vector = 0, real_cqe;
	__u64 user_handle = 1;
	char drv[64];
	struct ioc c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ioc_init(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_HANDLE, 0);
		ioc_in(&c, UVERBS_ATTR_CREATE_CQ_CQE, &cqe, sizeof(cqe));
		ioc_in(&c, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, &user_handle,
		       sizeof(user_handle));
		ioc_in(&c, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, &vector,
		       sizeof(vector));
		ioc_out(&c, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &real_cqe,
			sizeof(real_cqe));
		ioc_out(&c, UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
		ioc_obj(&c, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, cases[i].fd);
		EXPECT_EQ(cases[i].err, ioc_call(self->fd, &c))
			TH_LOG("comp channel fd %lld", (long long)cases[i].fd);
		/* the async event file is no completion channel either */
		if (i == 0) {
			c.attrs[c.hdr.num_attrs - 1].data = self->async_fd;
			EXPECT_EQ(-EBADF, ioc_call(self->fd, &c));
		}
	}
}

static int ioctl_create_qp(int fd, __s64 pd, __u32 cq, __u64 type,
			   __u32 *handle, __u32 *qpn,
			   struct ib_uverbs_qp_cap *out)
{
	struct ib_uverbs_qp_cap cap = {
		.max_send_wr = 4, .max_recv_wr = 4,
		.max_send_sge = 1, .max_recv_sge = 1,
	};
	__u64 user_handle = 0xbeef;
	char drv[128];
	struct ioc c;
	int ret;

	ioc_init(&c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_HANDLE, 0);
	if (pd >= 0)
		ioc_obj(&c, UVERBS_ATTR_CREATE_QP_PD_HANDLE, pd);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, cq);
	ioc_obj(&c, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, cq);
	ioc_in(&c, UVERBS_ATTR_CREATE_QP_USER_HANDLE, &user_handle,
	       sizeof(user_handle));
	ioc_in(&c, UVERBS_ATTR_CREATE_QP_CAP, &cap, sizeof(cap));
	ioc_const(&c, UVERBS_ATTR_CREATE_QP_TYPE, type);
	ioc_out(&c, UVERBS_ATTR_CREATE_QP_RESP_CAP, out, sizeof(*out));
	ioc_out(&c, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, qpn, sizeof(*qpn));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	ret = ioc_call(fd, &c);
	if (!ret)
		*handle = c.attrs[0].data;
	return ret;
}

TEST_F(ioctl, qp_create_checks_and_creates)
{
	struct ib_uverbs_destroy_qp_resp dresp = { 7 };
	struct ib_uverbs_qp_cap cap = {};
	__u32 cq, cqe, qp = ~0u, qpn = 0;
	int pd = raw_alloc_pd(self->fd);
	struct ioc c;

	ASSERT_LE(0, pd);
	ASSERT_EQ(0, ioctl_create_cq(self->fd, 8, 0, 0, &cq, &cqe));
	/* an RC QP needs a PD; a type that does not exist is EINVAL */
	EXPECT_EQ(-ENOENT, ioctl_create_qp(self->fd, -1, cq, IB_UVERBS_QPT_RC,
					   &qp, &qpn, &cap));
	EXPECT_EQ(-EINVAL, ioctl_create_qp(self->fd, pd, cq, 0x55, &qp, &qpn,
					   &cap));
	ASSERT_EQ(0, ioctl_create_qp(self->fd, pd, cq, IB_UVERBS_QPT_RC, &qp,
				     &qpn, &cap));
	EXPECT_NE(0, qpn);
	EXPECT_LE(4, cap.max_send_wr);
	EXPECT_LE(4, cap.max_recv_wr);
	/* the CQ and the PD are in use now */
	EXPECT_EQ(-EBUSY, ioctl_destroy_cq(self->fd, cq));
	EXPECT_EQ(-EBUSY, ioctl_destroy_pd(self->fd, pd));

	ioc_init(&c, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_QP_HANDLE, qp);
	ioc_out(&c, UVERBS_ATTR_DESTROY_QP_RESP, &dresp, sizeof(dresp));
	EXPECT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(0, dresp.events_reported);
	EXPECT_EQ(0, ioctl_destroy_cq(self->fd, cq));
	EXPECT_EQ(0, ioctl_destroy_pd(self->fd, pd));
}

TEST_F(ioctl, srq_create_checks_and_creates)
{
	struct ib_uverbs_destroy_srq_resp dresp = { 7 };
	__u32 max_wr = 16, max_sge = 1, limit = 0, rwr = 0, rsge = 0;
	__u64 user_handle = 0x5a;
	int pd = raw_alloc_pd(self->fd);
	char drv[64];
	struct ioc c;
	__u32 srq;

	ASSERT_LE(0, pd);
	ioc_init(&c, UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE);
	ioc_obj(&c, UVERBS_ATTR_CREATE_SRQ_HANDLE, 0);
	ioc_obj(&c, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, pd);
	ioc_const(&c, UVERBS_ATTR_CREATE_SRQ_TYPE, IB_UVERBS_SRQT_BASIC);
	ioc_in(&c, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, &user_handle,
	       sizeof(user_handle));
	ioc_in(&c, UVERBS_ATTR_CREATE_SRQ_MAX_WR, &max_wr, sizeof(max_wr));
	ioc_in(&c, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, &max_sge, sizeof(max_sge));
	ioc_in(&c, UVERBS_ATTR_CREATE_SRQ_LIMIT, &limit, sizeof(limit));
	ioc_out(&c, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &rwr, sizeof(rwr));
	ioc_out(&c, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &rsge, sizeof(rsge));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	/* a type that does not exist; XRC without a domain */
	c.attrs[2].data = 0x33;
	EXPECT_EQ(-EINVAL, ioc_call(self->fd, &c));
	c.attrs[2].data = IB_UVERBS_SRQT_XRC;
	EXPECT_EQ(-ENOENT, ioc_call(self->fd, &c));
	c.attrs[2].data = IB_UVERBS_SRQT_BASIC;
	ASSERT_EQ(0, ioc_call(self->fd, &c));
	srq = c.attrs[0].data;
	EXPECT_LE(max_wr, rwr);
	EXPECT_LE(max_sge, rsge);
	EXPECT_EQ(-EBUSY, ioctl_destroy_pd(self->fd, pd));

	ioc_init(&c, UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_DESTROY);
	ioc_obj(&c, UVERBS_ATTR_DESTROY_SRQ_HANDLE, srq);
	ioc_out(&c, UVERBS_ATTR_DESTROY_SRQ_RESP, &dresp, sizeof(dresp));
	EXPECT_EQ(0, ioc_call(self->fd, &c));
	EXPECT_EQ(0, dresp.events_reported);
	EXPECT_EQ(0, ioctl_destroy_pd(self->fd, pd));
}

TEST_HARNESS_MAIN
