// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdmacore_device_release DEV NETDEV: when a library releases an rdma-core
// provider's device (its uninit_device op), on whichever libibverbs.so.1
// runs this program; rdma-core's is the reference (run it on both, expect
// the same lines).  The program registers a driver of its own for DEV (an
// rxe device on NETDEV) before the first device list, as a plugin does,
// and counts the devices it allocates and releases.  DEV is deleted and
// added again with `rdma link` on the way (root only), and is back at the
// end.  Prints one "ok"/"FAIL" line per check; exits 1 if one failed.
//
// rdmacore_device_release --exit DEV: opens DEV through the driver and
// exits with the context open: rdma-core never releases its devices at
// exit (uninit_device would print).
//
// rdmacore_device_release --ops DEV: the verbs rdma-core hands to the
// provider's ops unchecked or after its own checks (rereg_mr,
// reg_dmabuf_mr, the imports, import_context), reached through a driver
// whose ops count their calls, and what the library does around them; and
// the core support bits GET_CONTEXT leaves in the verbs_device.
//
// Not covered: a device removed while one of its contexts is open (rxe
// has no disassociate: the removal waits for the context to close).
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "../../src/rdmacore/abi.h"

using ovb::rdmacore::ContextOps;
using ovb::rdmacore::DeviceOps;
using ovb::rdmacore::MatchEnt;
using ovb::rdmacore::SysfsDev;
using ovb::rdmacore::VerbsDevice;

// rdma-core 44's private entry points (driver.h is not installed).
extern "C" {
void verbs_register_driver_34(const DeviceOps *ops);
void *_verbs_init_and_alloc_context(ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    verbs_context *context_offset,
				    uint32_t driver_id);
void verbs_uninit_context(verbs_context *context);
void verbs_set_ops(verbs_context *vctx, const ContextOps *ops);
int ibv_cmd_get_context(verbs_context *context, void *cmd, size_t cmd_size,
			ib_uverbs_get_context_resp *resp, size_t resp_size);
}

using ovb::rdmacore::VerbsMr;

namespace {

int failed;
int allocated, released;
VerbsDevice *last_allocated, *last_released;

void check(bool ok, const std::string &what)
{
	std::printf("%s %s (allocated %d, released %d)\n", ok ? "ok" : "FAIL",
		    what.c_str(), allocated, released);
	failed |= !ok;
}

VerbsDevice *alloc_device(SysfsDev *)
{
	auto *v = static_cast<VerbsDevice *>(calloc(1, sizeof(VerbsDevice)));
	allocated++;
	last_allocated = v;
	return v;
}

void uninit_device(VerbsDevice *v)
{
	// Straight to the fd: at exit, stdio may already be gone.
	static const char line[] = "uninit_device called\n";
	if (write(1, line, sizeof(line) - 1) < 0)
		failed = 1;
	released++;
	last_released = v;
	free(v);
}

void free_context(ibv_context *ctx)
{
	auto *v = reinterpret_cast<verbs_context *>(
		reinterpret_cast<char *>(ctx) - offsetof(verbs_context, context));
	verbs_uninit_context(v);
	free(v);
}

// The ops the driver's contexts get (--ops adds the counting ones).
ContextOps g_ops;

verbs_context *alloc_context(ibv_device *dev, int fd, void *)
{
	auto *v = static_cast<verbs_context *>(_verbs_init_and_alloc_context(
		dev, fd, sizeof(verbs_context), nullptr, RDMA_DRIVER_RXE));
	if (!v)
		return nullptr;
	struct {
		ib_uverbs_cmd_hdr hdr;
		ib_uverbs_get_context core;
	} cmd{};
	ib_uverbs_get_context_resp resp{};
	if (ibv_cmd_get_context(v, &cmd, sizeof(cmd), &resp, sizeof(resp))) {
		verbs_uninit_context(v);
		free(v);
		return nullptr;
	}
	g_ops.free_context = free_context;
	verbs_set_ops(v, &g_ops);
	return v;
}

const MatchEnt kMatch[] = {
	{nullptr, {.driver_id = RDMA_DRIVER_RXE}, 0, 0,
	 ovb::rdmacore::kMatchDriverId},
	{},
};

DeviceOps g_driver = {
	.name = "release-check",
	.match_min_abi_version = 0,
	.match_max_abi_version = INT_MAX,
	.match_table = kMatch,
	.static_providers = nullptr,
	.match_device = nullptr,
	.alloc_context = alloc_context,
	.import_context = nullptr,
	.alloc_device = alloc_device,
	.uninit_device = uninit_device,
};

const char *g_dev, *g_netdev;

// The list and DEV in it (nullptr when absent).
ibv_device **list(ibv_device **dev)
{
	ibv_device **l = ibv_get_device_list(nullptr);
	*dev = nullptr;
	for (int i = 0; l && l[i]; i++)
		if (!std::strcmp(l[i]->name, g_dev))
			*dev = l[i];
	return l;
}

bool link(bool add)
{
	std::string cmd = add ? std::string("rdma link add ") + g_dev +
					" type rxe netdev " + g_netdev
			      : std::string("rdma link delete ") + g_dev;
	return std::system(cmd.c_str()) == 0;
}

// After `rdma link add`, the device node may take a moment.
ibv_device **list_until_present(ibv_device **dev)
{
	for (int i = 0; i < 50; i++) {
		ibv_device **l = list(dev);
		if (*dev)
			return l;
		ibv_free_device_list(l);
		usleep(100000);
	}
	return list(dev);
}

// --ops: a driver whose MR and import ops count their calls.
namespace counting {

int rereg_calls, dmabuf_calls, imports, unimports, import_contexts;
int rereg_answer;		// what rereg_mr returns next
ibv_pd *rereg_pd;
void *rereg_addr;
size_t rereg_length;
uint32_t last_handle;
uint64_t dmabuf_offset, dmabuf_iova;
int dmabuf_fd;

ibv_pd *alloc_pd(ibv_context *)
{
	return static_cast<ibv_pd *>(calloc(1, sizeof(ibv_pd)));
}

int dealloc_pd(ibv_pd *pd)
{
	free(pd);
	return 0;
}

ibv_mr *new_mr(int type)
{
	auto *vmr = static_cast<VerbsMr *>(calloc(1, sizeof(VerbsMr)));
	vmr->mr_type = type;
	return &vmr->mr;
}

ibv_mr *reg_mr(ibv_pd *, void *, size_t, uint64_t, int)
{
	return new_mr(ovb::rdmacore::kMrTypeMr);
}

int dereg_mr(VerbsMr *vmr)
{
	free(vmr);
	return 0;
}

int rereg_mr(VerbsMr *, int, ibv_pd *pd, void *addr, size_t length, int)
{
	rereg_calls++;
	rereg_pd = pd;
	rereg_addr = addr;
	rereg_length = length;
	if (rereg_answer)
		errno = rereg_answer;
	return rereg_answer;
}

ibv_mr *reg_dmabuf_mr(ibv_pd *, uint64_t offset, size_t, uint64_t iova,
		      int fd, int)
{
	dmabuf_calls++;
	dmabuf_offset = offset;
	dmabuf_iova = iova;
	dmabuf_fd = fd;
	return new_mr(ovb::rdmacore::kMrTypeDmabufMr);
}

// The library sets nothing in an imported object: the provider does.
ibv_pd *import_pd(ibv_context *ctx, uint32_t handle)
{
	imports++;
	last_handle = handle;
	ibv_pd *pd = alloc_pd(ctx);
	pd->context = ctx;
	pd->handle = handle;
	return pd;
}

ibv_mr *import_mr(ibv_pd *pd, uint32_t handle)
{
	imports++;
	last_handle = handle;
	ibv_mr *mr = new_mr(ovb::rdmacore::kMrTypeImportedMr);
	mr->context = pd->context;
	mr->pd = pd;
	mr->handle = handle;
	return mr;
}

ibv_dm *import_dm(ibv_context *ctx, uint32_t handle)
{
	imports++;
	last_handle = handle;
	auto *dm = static_cast<ibv_dm *>(calloc(1, sizeof(ibv_dm)));
	dm->context = ctx;
	return dm;
}

void unimport_pd(ibv_pd *pd)
{
	unimports++;
	free(pd);
}

void unimport_mr(ibv_mr *mr)
{
	unimports++;
	free(mr);
}

void unimport_dm(ibv_dm *dm)
{
	unimports++;
	free(dm);
}

// As mlx5's: the library's part of a context on the fd it was given, the
// ops, no GET_CONTEXT (the context exists in the kernel already).
verbs_context *import_context(ibv_device *dev, int fd)
{
	import_contexts++;
	auto *v = static_cast<verbs_context *>(_verbs_init_and_alloc_context(
		dev, fd, sizeof(verbs_context), nullptr, RDMA_DRIVER_RXE));
	if (v)
		verbs_set_ops(v, &g_ops);
	return v;
}

void install(ContextOps &ops, DeviceOps &driver)
{
	ops.alloc_pd = alloc_pd;
	ops.dealloc_pd = dealloc_pd;
	ops.reg_mr = reg_mr;
	ops.dereg_mr = dereg_mr;
	ops.rereg_mr = rereg_mr;
	ops.reg_dmabuf_mr = reg_dmabuf_mr;
	ops.import_pd = import_pd;
	ops.import_mr = import_mr;
	ops.import_dm = import_dm;
	ops.unimport_pd = unimport_pd;
	ops.unimport_mr = unimport_mr;
	ops.unimport_dm = unimport_dm;
	ops.free_context = free_context;
	driver.import_context = import_context;
}

void say(const char *what, long long v)
{
	std::printf("%s: %lld\n", what, v);
}

void mrs(ibv_context *ctx)
{
	static char buf[2][8192];
	ibv_pd *pd = ibv_alloc_pd(ctx), *pd2 = ibv_alloc_pd(ctx);
	ibv_mr *mr = ibv_reg_mr(pd, buf[0], 4096, IBV_ACCESS_LOCAL_WRITE);
	check(pd && pd2 && mr, "PDs and an MR through the driver's ops");
	if (!mr)
		return;
	int rc = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_PD | IBV_REREG_MR_CHANGE_TRANSLATION,
			      pd2, buf[1], 8192, 0);
	say("rereg_mr (new PD and range)", rc);
	say("  provider's rereg_mr calls", rereg_calls);
	check(rereg_pd == pd2 && rereg_addr == buf[1] && rereg_length == 8192,
	      "  the provider got the new PD and range");
	check(mr->pd == pd2 && mr->addr == buf[1] && mr->length == 8192,
	      "  the MR took the new PD and range");
	rereg_answer = EPERM;
	errno = 0;
	rc = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, nullptr, nullptr, 0,
			  IBV_ACCESS_REMOTE_READ);
	say("rereg_mr the provider fails", rc);
	say("  errno", errno);
	say("  provider's rereg_mr calls", rereg_calls);
	check(mr->pd == pd2 && mr->addr == buf[1], "  the MR unchanged");
	rereg_answer = 0;
	reinterpret_cast<VerbsMr *>(mr)->mr_type = ovb::rdmacore::kMrTypeNullMr;
	errno = 0;
	rc = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, nullptr, nullptr, 0, 0);
	say("rereg_mr of a null MR", rc);
	say("  errno", errno);
	say("  provider's rereg_mr calls", rereg_calls);
	reinterpret_cast<VerbsMr *>(mr)->mr_type = ovb::rdmacore::kMrTypeMr;
	say("dereg_mr", ibv_dereg_mr(mr));

	ibv_mr *dm = ibv_reg_dmabuf_mr(pd, 0x1000, 4096, 0x2000, 77,
				       IBV_ACCESS_LOCAL_WRITE);
	say("reg_dmabuf_mr: provider's calls", dmabuf_calls);
	check(dm && dmabuf_offset == 0x1000 && dmabuf_iova == 0x2000 &&
		      dmabuf_fd == 77,
	      "  the provider got offset, iova and fd");
	check(dm && dm->context == ctx && dm->pd == pd &&
		      dm->addr == reinterpret_cast<void *>(0x1000) &&
		      dm->length == 4096,
	      "  the MR's context, PD, addr (the offset) and length");
	if (dm)
		say("dereg_mr of the dma-buf MR", ibv_dereg_mr(dm));

	ibv_pd *ipd = ibv_import_pd(ctx, 7);
	say("import_pd: handle the provider got", ipd ? last_handle : -1);
	ibv_mr *imr = ipd ? ibv_import_mr(ipd, 8) : nullptr;
	say("import_mr: handle the provider got", imr ? last_handle : -1);
	ibv_dm *idm = ibv_import_dm(ctx, 9);
	say("import_dm: handle the provider got", idm ? last_handle : -1);
	if (imr)
		ibv_unimport_mr(imr);
	if (ipd)
		ibv_unimport_pd(ipd);
	if (idm)
		ibv_unimport_dm(idm);
	say("imports", imports);
	say("unimports", unimports);
	ibv_dealloc_pd(pd);
	ibv_dealloc_pd(pd2);
}

void import_device(ibv_context *ctx)
{
	int fds[2];
	if (pipe(fds) == 0) {
		errno = 0;
		ibv_context *c = ibv_import_device(fds[0]);
		say("import_device of a pipe: errno", c ? 0 : errno);
		close(fds[0]);
		close(fds[1]);
	}
	int null = open("/dev/null", O_RDWR);
	errno = 0;
	ibv_context *c = ibv_import_device(null);
	say("import_device of /dev/null: errno", c ? 0 : errno);
	close(null);
	ibv_context *imported = ibv_import_device(dup(ctx->cmd_fd));
	say("import_device of DEV's command fd: provider's import_context calls",
	    import_contexts);
	check(imported && imported->device == ctx->device &&
		      imported->async_fd >= 0,
	      "  a context of DEV, with an async event fd");
	if (imported)
		ibv_close_device(imported);
}

int run()
{
	ibv_device *dev;
	ibv_device **l = list(&dev);
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	check(ctx != nullptr, "DEV opens through the driver's alloc_context");
	if (!ctx)
		return 1;
	std::printf("verbs_device core_support after GET_CONTEXT: %#llx\n",
		    static_cast<unsigned long long>(
			    reinterpret_cast<VerbsDevice *>(dev)->core_support));
	mrs(ctx);
	import_device(ctx);
	ibv_close_device(ctx);
	ibv_free_device_list(l);
	return failed;
}

} // namespace counting

// --exit: a context left open at exit.
int exit_with_context_open()
{
	ibv_device *dev;
	ibv_device **l = list(&dev);
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	check(ctx != nullptr, "DEV opens through the driver's alloc_context");
	ibv_free_device_list(l);
	std::printf("exit(0) with the context open\n");
	std::fflush(stdout);
	std::exit(failed);
}

} // namespace

int main(int argc, char **argv)
{
	// Unbuffered: the lines uninit_device writes come in order.
	std::setvbuf(stdout, nullptr, _IONBF, 0);
	if (argc == 3 && !std::strcmp(argv[1], "--exit")) {
		g_dev = argv[2];
		verbs_register_driver_34(&g_driver);
		return exit_with_context_open();
	}
	if (argc == 3 && !std::strcmp(argv[1], "--ops")) {
		g_dev = argv[2];
		counting::install(g_ops, g_driver);
		verbs_register_driver_34(&g_driver);
		return counting::run();
	}
	if (argc < 3) {
		std::fprintf(stderr, "usage: %s DEV NETDEV | --exit DEV | --ops DEV\n",
			     argv[0]);
		return 2;
	}
	g_dev = argv[1];
	g_netdev = argv[2];
	verbs_register_driver_34(&g_driver);

	ibv_device *dev, *again;
	ibv_device **l1 = list(&dev);
	check(dev && allocated == 1 && released == 0,
	      "first list: the driver allocated DEV");
	ibv_context *ctx = dev ? ibv_open_device(dev) : nullptr;
	check(ctx != nullptr, "DEV opens through the driver's alloc_context");
	ibv_free_device_list(l1);
	if (ctx)
		ibv_close_device(ctx);
	check(released == 0,
	      "list freed, context closed: a present device stays allocated");

	ibv_device **l2 = list(&again);
	check(again == dev && allocated == 1,
	      "next list: the same device, not allocated again");

	check(link(false), "rdma link delete DEV");
	ibv_device **l3 = list(&again);
	check(!again && released == 0,
	      "list after the removal: DEV gone, still held by the earlier list");
	ibv_free_device_list(l3);
	check(released == 0, "freeing the newer list releases nothing");
	ibv_free_device_list(l2);
	check(released == 1 && last_released == last_allocated,
	      "freeing the last list holding it: uninit_device of that device");

	check(link(true), "rdma link add DEV");
	ibv_device **l4 = list_until_present(&again);
	check(again && allocated == 2, "DEV back: a new device allocated");
	ibv_free_device_list(l4);
	check(released == 1, "its list freed: still present, still allocated");

	check(link(false), "rdma link delete DEV again");
	ibv_device **l5 = list(&again);
	check(!again && released == 2,
	      "held by nothing when it left the list: released at once");
	ibv_free_device_list(l5);

	check(link(true), "rdma link add DEV again");
	ibv_device **l6 = list_until_present(&again);
	check(again && allocated == 3 && released == 2, "DEV back at the end");
	ibv_free_device_list(l6);
	return failed;
}
