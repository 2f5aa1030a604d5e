// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uverbs_no_driver_id_binding, as mthca and hns register with
 * (selftests/ovbtest/binding.c: ovbtest.ko loaded with
 * no_driver_id_binding=1).  What it changes for a library: RDMA netlink's
 * GET_CHARDEV answer for "uverbs" leaves RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID
 * out (rdma-core then cannot bind a provider by driver id), the rest of
 * the answer (name, ABI version) stays.  What it does not change: the
 * ioctl header's driver_id is still checked against the device's
 * (EINVAL for another driver's id) and the device's own id still works.
 * Each case loads the module both ways; the module is unloaded after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "kselftest_harness.h"
#include "ovbtest_lib.h"

/* ovbtest.ko (as ovbtest_load_module finds it) with @params. */
static int load_with(const char *params)
{
	return ovbtest_load_module_with(HCA_MODULE, params);
}

struct nl_msg {
	struct nlmsghdr h;
	char attrs[4096];
};

static void nl_put(struct nl_msg *m, __u16 type, const void *data, __u16 len)
{
	struct nlattr *a = (void *)((char *)m + NLMSG_ALIGN(m->h.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	m->h.nlmsg_len = NLMSG_ALIGN(m->h.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* One request of @op to NLDEV, one message back in @ans; 0 or -errno. */
static int nl_ask(__u16 op, __u16 flags, struct nl_msg *req, char *ans,
		  size_t len)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *h = (void *)ans;
	ssize_t n;

	if (fd < 0)
		return -errno;
	req->h.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op);
	req->h.nlmsg_flags = NLM_F_REQUEST | flags;
	req->h.nlmsg_seq = 1;
	n = sendto(fd, req, req->h.nlmsg_len, 0, (void *)&sa, sizeof(sa));
	if (n >= 0)
		n = recv(fd, ans, len, 0);
	n = n < 0 ? -errno : n;
	close(fd);
	if (n < 0)
		return n;
	if (n < (ssize_t)NLMSG_HDRLEN || !NLMSG_OK(h, (unsigned int)n))
		return -EPROTO;
	if (h->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	return 0;
}

/* The attribute @type of the message @h, or NULL. */
static struct nlattr *nl_attr(struct nlmsghdr *h, __u16 type)
{
	struct nlattr *a = (void *)((char *)h + NLMSG_HDRLEN);
	int left = h->nlmsg_len - NLMSG_HDRLEN;

	for (; left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= left;
	     left -= NLA_ALIGN(a->nla_len),
	     a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
	return NULL;
}

/* ovbtest0's ib_core index: GET by name is not there in 6.1, so a dump. */
static int dev_index(void)
{
	static char buf[65536];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nl_msg req = { .h.nlmsg_len = NLMSG_HDRLEN };
	struct nlmsghdr *h;
	struct nlattr *name, *idx;
	int index = -ENOENT;
	ssize_t n;

	if (fd < 0)
		return -errno;
	req.h.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	if (sendto(fd, &req, req.h.nlmsg_len, 0, (void *)&sa, sizeof(sa)) < 0)
		goto out;
	while (index < 0 && (n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		for (h = (void *)buf; NLMSG_OK(h, (unsigned int)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR)
				goto out;
			name = nl_attr(h, RDMA_NLDEV_ATTR_DEV_NAME);
			idx = nl_attr(h, RDMA_NLDEV_ATTR_DEV_INDEX);
			if (name && idx &&
			    !strcmp((char *)name + NLA_HDRLEN, HCA_IBDEV)) {
				memcpy(&index, (char *)idx + NLA_HDRLEN, 4);
				break;
			}
		}
	}
out:
	close(fd);
	return index;
}

/* GET_CHARDEV "uverbs" of ovbtest0 into @ans; 0 or -errno. */
static int chardev(char *ans, size_t len)
{
	struct nl_msg req = { .h.nlmsg_len = NLMSG_HDRLEN };
	int index = dev_index();
	__u32 u = index;

	if (index < 0)
		return index;
	nl_put(&req, RDMA_NLDEV_ATTR_DEV_INDEX, &u, sizeof(u));
	nl_put(&req, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs", sizeof("uverbs"));
	return nl_ask(RDMA_NLDEV_CMD_GET_CHARDEV, 0, &req, ans, len);
}

/* GET_CONTEXT by ioctl with @driver_id in the header; 0 or -errno. */
static int get_context_as(int fd, __u16 driver_id)
{
	struct ovbtest_alloc_ucontext_resp resp;
	__u32 vectors = 0;
	struct ioc c;

	ovbtest_ioc_init(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	c.hdr.driver_id = driver_id;
	ioc_out(&c, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vectors,
		sizeof(vectors));
	ioc_out(&c, UVERBS_ATTR_UHW_OUT, &resp, sizeof(resp));
	return ioc_call(fd, &c);
}

FIXTURE(binding) {
	char ioctl_abi;
	char ans[8192];
};

FIXTURE_VARIANT(binding) {
	const char *params;
	int unbound;
};

FIXTURE_VARIANT_ADD(binding, bound) {
	.params = "",
	.unbound = 0,
};

FIXTURE_VARIANT_ADD(binding, unbound) {
	.params = "no_driver_id_binding=1",
	.unbound = 1,
};

FIXTURE_SETUP(binding)
{
	int ret;

	self->ioctl_abi = 0;
	if (ovbtest_loaded())
		ASSERT_EQ(0, ovbtest_unload());
	ret = load_with(variant->params);
	if (ret == -ENOENT)
		SKIP(return, "ovbtest.ko not built");
	if (ret == -ENOEXEC)
		SKIP(return, "ovbtest.ko was built for another kernel");
	ASSERT_EQ(0, ret);
	self->ioctl_abi = ioctl_abi_on();
}

FIXTURE_TEARDOWN(binding)
{
	ioctl_abi_restore(self->ioctl_abi);
	if (ovbtest_loaded())
		ovbtest_unload();
}

/* The driver id is in the chardev answer unless the binding is off. */
TEST_F(binding, chardev_driver_id)
{
	struct nlmsghdr *h = (void *)self->ans;
	struct nlattr *id, *abi, *name;
	__u64 abi_ver = 0;
	__u32 v = ~0U;

	char path[PATH_MAX];

	/* the uverbs device is up */
	ASSERT_EQ(0, ovbtest_dev_path(path, sizeof(path), 5000));
	ASSERT_EQ(0, chardev(self->ans, sizeof(self->ans)));
	id = nl_attr(h, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID);
	abi = nl_attr(h, RDMA_NLDEV_ATTR_CHARDEV_ABI);
	name = nl_attr(h, RDMA_NLDEV_ATTR_CHARDEV_NAME);
	ASSERT_NE(NULL, abi);
	ASSERT_NE(NULL, name);
	memcpy(&abi_ver, (char *)abi + NLA_HDRLEN, sizeof(abi_ver));
	EXPECT_EQ(OVBTEST_UVERBS_ABI_VERSION, abi_ver);
	EXPECT_EQ(0, strncmp((char *)name + NLA_HDRLEN, "uverbs", 6));
	if (variant->unbound) {
		EXPECT_EQ(NULL, id);
	} else {
		ASSERT_NE(NULL, id);
		memcpy(&v, (char *)id + NLA_HDRLEN, sizeof(v));
		EXPECT_EQ(RDMA_DRIVER_UNKNOWN, v);
	}
}

/* The ioctl header's driver_id is checked either way. */
TEST_F(binding, ioctl_driver_id_checked)
{
	int fd = ovbtest_open_dev();

	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, get_context_as(fd, RDMA_DRIVER_MLX5));
	EXPECT_EQ(-EINVAL, get_context_as(fd, RDMA_DRIVER_MTHCA));
	EXPECT_EQ(0, get_context_as(fd, RDMA_DRIVER_UNKNOWN));
	close(fd);
}

TEST_HARNESS_MAIN
