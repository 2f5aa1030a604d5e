// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#pragma once

// The library's own version (the ABI it implements is rdma-core 44's).
#ifndef OPENVERBS_LIB_VERSION
#define OPENVERBS_LIB_VERSION "0.1.0"
#endif
