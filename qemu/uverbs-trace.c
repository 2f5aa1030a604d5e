// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * LD_PRELOAD shim for qemu/strace-compare: logs every uverbs command a
 * process issues, decoded (strace shows RDMA_VERBS_IOCTL as a bare
 * pointer): "ioctl OBJ.METHOD attrs=ID,ID,... = RESULT" and
 * "write CMD = RESULT", one line each, to the file named by UVERBS_TRACE.
 * With UVERBS_TRACE_DETAIL set, each attribute is ID/LEN/FLAGS (flags as
 * sent, before the kernel marks outputs valid).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#define UVERBS_MAJOR 231

static FILE *trace_file(void)
{
	static FILE *f;
	const char *path;

	if (!f && (path = getenv("UVERBS_TRACE")))
		f = fopen(path, "a");
	return f;
}

static void trace_result(FILE *f, long ret, int err)
{
	if (ret < 0)
		fprintf(f, " = -%s\n", strerrorname_np(err));
	else
		fprintf(f, " = %ld\n", ret);
	fflush(f);
}

static int is_uverbs(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) == UVERBS_MAJOR;
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	const struct ib_uverbs_ioctl_hdr *h;
	FILE *f = trace_file();
	unsigned short flags[64];
	va_list ap;
	void *arg;
	int ret, err, i;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	h = arg;
	if (f && req == RDMA_VERBS_IOCTL)
		for (i = 0; i < h->num_attrs && i < 64; i++)
			flags[i] = h->attrs[i].flags;
	ret = real(fd, req, arg);
	err = errno;
	if (f && req == RDMA_VERBS_IOCTL) {
		fprintf(f, "ioctl %u.%u attrs=", h->object_id, h->method_id);
		for (i = 0; i < h->num_attrs; i++) {
			fprintf(f, "%s%#x", i ? "," : "", h->attrs[i].attr_id);
			if (getenv("UVERBS_TRACE_DETAIL") && i < 64)
				fprintf(f, "/%u/%#x", h->attrs[i].len, flags[i]);
		}
		trace_result(f, ret, err);
	}
	errno = err;
	return ret;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	const struct ib_uverbs_cmd_hdr *h = buf;
	FILE *f = trace_file();
	ssize_t ret;
	int err;

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	ret = real(fd, buf, n);
	err = errno;
	if (f && n >= sizeof(*h) && is_uverbs(fd)) {
		fprintf(f, "write %#x", h->command);
		trace_result(f, ret, err);
	}
	errno = err;
	return ret;
}
