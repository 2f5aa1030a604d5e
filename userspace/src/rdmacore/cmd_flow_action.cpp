// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// rdma-core's ibv_cmd_* for flow actions (IPsec ESP): ioctl methods only,
// with no write() twin.  Each attribute the application's ESP description
// carries goes in as the kernel declares it (the ESN inline, keying
// material and replay protection as enums naming their protocol, the
// ESP and encapsulation structs by pointer); the provider may chain its
// own attributes (link).
#include <cerrno>

#include <openverbs/ioctl-abi.h>

#include "../export.h"
#include "cmdbuf.h"

namespace ovb::rdmacore {
int answer(int rc);	// cmd_context.cpp
int destroyed(int rc);
}

using namespace ovb::rdmacore;

namespace {

// ESP_CREATE and ESP_MODIFY: the handle and up to five attributes.
constexpr unsigned int kEspAttrs = 6;

void add_esp(IoctlCall &call, const ibv_flow_action_esp_attr *esp)
{
	if (esp->comp_mask & IBV_FLOW_ACTION_ESP_MASK_ESN)
		call.ptr_in(OVB_ATTR_FLOW_ACTION_ESP_ESN, &esp->esn, sizeof(esp->esn));
	if (esp->keymat_ptr)
		call.enum_in(OVB_ATTR_FLOW_ACTION_ESP_KEYMAT,
			     static_cast<uint8_t>(esp->keymat_proto),
			     esp->keymat_ptr, esp->keymat_len);
	if (esp->replay_ptr)
		call.enum_in(OVB_ATTR_FLOW_ACTION_ESP_REPLAY,
			     static_cast<uint8_t>(esp->replay_proto),
			     esp->replay_ptr, esp->replay_len);
	if (esp->esp_encap)
		call.ptr_in(OVB_ATTR_FLOW_ACTION_ESP_ENCAP, esp->esp_encap,
			    sizeof(*esp->esp_encap));
	if (esp->esp_attr)
		call.ptr_in(OVB_ATTR_FLOW_ACTION_ESP_ATTRS, esp->esp_attr,
			    sizeof(*esp->esp_attr));
}

} // namespace

OVB_EXPORT int ibv_cmd_create_flow_action_esp(ibv_context *ctx,
					      ibv_flow_action_esp_attr *attr,
					      VerbsFlowAction *action,
					      CommandBuffer *link)
try {
	IoctlCall call(OVB_OBJECT_FLOW_ACTION, OVB_METHOD_FLOW_ACTION_ESP_CREATE,
		       kEspAttrs, link);
	size_t handle = call.obj_out(OVB_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE);
	add_esp(call, attr);
	int rc = call.run(ctx);
	if (rc)
		return answer(rc);
	action->action.context = ctx;
	action->type = kFlowActionEsp;
	action->handle = call.handle(handle);
	return 0;
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_modify_flow_action_esp(VerbsFlowAction *action,
					      ibv_flow_action_esp_attr *attr,
					      CommandBuffer *link)
try {
	IoctlCall call(OVB_OBJECT_FLOW_ACTION, OVB_METHOD_FLOW_ACTION_ESP_MODIFY,
		       kEspAttrs, link);
	call.obj_in(OVB_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE, action->handle);
	add_esp(call, attr);
	return answer(call.run(action->action.context));
} OVB_ABI_CATCH

OVB_EXPORT int ibv_cmd_destroy_flow_action(VerbsFlowAction *action)
try {
	IoctlCall call(OVB_OBJECT_FLOW_ACTION, OVB_METHOD_FLOW_ACTION_DESTROY, 1);
	call.obj_in(OVB_ATTR_DESTROY_FLOW_ACTION_HANDLE, action->handle);
	return destroyed(call.run(action->action.context));
} OVB_ABI_CATCH
