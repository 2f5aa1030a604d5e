/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The test HCA's STUCK objects (an IDR object whose destroy can refuse,
 * selftests/ovbtest/stuck.c) and the kernel log around the WARN ib_uverbs
 * gives when it forgets one: what uverbs_ovbtest_leak and
 * uverbs_ovbtest_retry share.
 */
#ifndef OVBTEST_STUCK_H
#define OVBTEST_STUCK_H

#include <regex.h>

#include "ovbtest_lib.h"

/*
 * The WARN at a forced cleanup: its call trace line, e.g. "
 * uverbs_destroy_ufile_hw+0xb5/0xd0 [ib_uverbs]" (ours: kernel/uobject.c).
 * ERE and Python regex alike.
 */
#define LEAK_WARN_RE	"uverbs_destroy_ufile_hw\\+0x[0-9a-f]+/0x[0-9a-f]+ \\[ib_uverbs\\]"

/* STUCK_CREATE (@holder: a STUCK handle, or -1); the handle or -errno. */
static inline int stuck_create(int fd, __u32 flags, int holder, __u32 *id)
{
	struct ioc c;
	int ret;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_STUCK, OVBTEST_METHOD_STUCK_CREATE);
	ioc_obj(&c, OVBTEST_ATTR_STUCK_CREATE_HANDLE, 0);
	ioc_in(&c, OVBTEST_ATTR_STUCK_CREATE_FLAGS, &flags, sizeof(flags));
	if (id)
		ioc_out(&c, OVBTEST_ATTR_STUCK_CREATE_ID, id, sizeof(*id));
	if (holder >= 0)
		ioc_obj(&c, OVBTEST_ATTR_STUCK_CREATE_HOLDER, holder);
	ret = ioc_call(fd, &c);
	return ret ? ret : (int)c.attrs[0].data;
}

static inline int stuck_query(int fd, __u32 handle, __u32 *id)
{
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_STUCK, OVBTEST_METHOD_STUCK_QUERY);
	ioc_obj(&c, OVBTEST_ATTR_STUCK_QUERY_HANDLE, handle);
	ioc_out(&c, OVBTEST_ATTR_STUCK_QUERY_ID, id, sizeof(*id));
	return ioc_call(fd, &c);
}

static inline int stuck_destroy(int fd, __u32 handle)
{
	struct ioc c;

	ovbtest_ioc_init(&c, OVBTEST_OBJECT_STUCK, OVBTEST_METHOD_STUCK_DESTROY);
	ioc_obj(&c, OVBTEST_ATTR_STUCK_DESTROY_HANDLE, handle);
	return ioc_call(fd, &c);
}

/* One line into the kernel log (the harness' ovb-expect windows). */
static inline void kmsg_say(const char *text)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		perror("/dev/kmsg");
	close(fd);
}

/* A reader of the records logged from now on; -1 on failure. */
static inline int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The text of the next record logged since the last read of a kmsg_open()
 * reader ("prio,seq,time,flags;text", cut to the text's first line), rec
 * its buffer; NULL when there is none.  Overwritten records and our own
 * "ovb-expect:" markers are skipped.
 */
static inline const char *kmsg_next(int fd, char *rec, size_t size)
{
	for (;;) {
		ssize_t len = read(fd, rec, size - 1);
		char *text, *nl;

		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			return NULL;
		rec[len] = 0;
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = 0;
		if (!strstr(text, "ovb-expect:"))
			return text;
	}
}

/*
 * A "WARNING:" record, printed as a TAP comment, counts in *warnings, and
 * in *leak_warnings when it is the forced cleanup's (leak_re: LEAK_WARN_RE
 * compiled).
 */
static inline void kmsg_count_warning(const char *text, const regex_t *leak_re,
				      int *warnings, int *leak_warnings)
{
	if (!strstr(text, "WARNING:"))
		return;
	printf("# kmsg: %s\n", text);
	fflush(stdout);
	(*warnings)++;
	if (!regexec(leak_re, text, 0, NULL, 0))
		(*leak_warnings)++;
}

/* ovbtest_unload(), retried for 2 s while the module is still busy. */
static inline int ovbtest_unload_wait(void)
{
	int i, ret = -EBUSY;

	for (i = 0; i < 100; i++) {
		ret = ovbtest_unload();
		if (ret != -EAGAIN && ret != -EWOULDBLOCK && ret != -EBUSY)
			break;
		usleep(20000);
	}
	return ret;
}

#endif /* OVBTEST_STUCK_H */
