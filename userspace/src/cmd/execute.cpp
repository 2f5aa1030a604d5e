// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "execute.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <vector>

#include "../log.h"
#include "../valgrind.h"
#include "encode.h"

namespace ovb::cmd {

namespace {

// A byte buffer on the stack when small, on the heap otherwise.
class Scratch {
public:
	explicit Scratch(size_t n)
	{
		if (n > inline_.size())
			heap_.resize(n);
		span_ = heap_.empty() ? std::span<std::byte>(inline_.data(), n)
				      : std::span<std::byte>(heap_);
		std::memset(span_.data(), 0, n);
	}
	std::span<std::byte> span() { return span_; }

private:
	alignas(8) std::array<std::byte, 512> inline_;
	std::vector<std::byte> heap_;
	std::span<std::byte> span_;
};

} // namespace

int execute(int fd, const Spec &spec, const void *req, size_t req_len,
	    void *resp, size_t resp_len, const ovb_udata *ud)
{
	size_t drv_out = ud ? ud->out_len : 0;
	Scratch response(resp_len + drv_out);
	Message m{
		.req = {static_cast<const std::byte *>(req), req_len},
		.drv_in = ud && ud->in_len
			? std::span<const std::byte>(
				  static_cast<const std::byte *>(ud->in), ud->in_len)
			: std::span<const std::byte>(),
		.resp_addr = reinterpret_cast<uintptr_t>(response.span().data()),
		.resp_len = resp_len,
		.drv_out_len = drv_out,
	};
	size_t len = frame_size(spec, m);

	if (!len) {
		log::debug("cmd %s: cannot frame %zu+%zu bytes", spec.name,
			   req_len, m.drv_in.size());
		return EINVAL;
	}
	Scratch frame(len);
	encode(spec, m, frame.span());

	ssize_t n = write(fd, frame.span().data(), len);
	if (n != static_cast<ssize_t>(len)) {
		int err = n < 0 ? errno : EIO;
		log::debug("cmd %s: %s", spec.name, strerror(err));
		return err;
	}
	vg::kernel_wrote(response.span().data(), resp_len + drv_out);
	if (resp_len)
		std::memcpy(resp, response.span().data(), resp_len);
	if (drv_out)
		std::memcpy(ud->out, response.span().data() + resp_len, drv_out);
	return 0;
}

} // namespace ovb::cmd
