// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Does a provider's match table claim a device?
#include <fnmatch.h>

#include "providers.h"

namespace ovb {

bool provider_matches(const ovb_provider &p, const KernelDevice &d,
		      bool by_id, const std::string &modalias)
{
	for (const ovb_match *m = p.match; m && m->kind != OVB_MATCH_END; m++) {
		switch (m->kind) {
		case OVB_MATCH_DRIVER_ID:
			if (by_id && d.driver_id && m->driver_id == d.driver_id)
				return true;
			break;
		case OVB_MATCH_NAME_PREFIX:
			if (!by_id && d.ibdev_name.rfind(m->pattern, 0) == 0)
				return true;
			break;
		case OVB_MATCH_MODALIAS:
			if (!by_id && !modalias.empty() &&
			    fnmatch(m->pattern, modalias.c_str(), 0) == 0)
				return true;
			break;
		case OVB_MATCH_END:
			break;
		}
	}
	return false;
}

} // namespace ovb
