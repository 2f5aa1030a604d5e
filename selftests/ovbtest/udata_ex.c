// SPDX-License-Identifier: GPL-2.0
/*
 * Driver udata of EX_QUERY_DEVICE, EX_MODIFY_QP and the legacy ALLOC_PD,
 * read and written as mlx4, mlx5, efa and irdma do theirs: the request zero-extended from
 * whatever udata->inlen the stack hands over, bytes past it checked zero
 * with ib_is_udata_cleared(), and a response cut to udata->outlen.  The
 * response reports the udata itself (addresses and lengths), so a test
 * sees exactly what each ib_uverbs gave the driver, by write() (legacy
 * 4-byte words with the response address in the command, or extended)
 * and by INVOKE_WRITE.  The uapi is struct ovbtest_udata_ex_cmd/_resp.
 *
 * CQ creation tells an old library from the new one by inlen alone,
 * as cxgb4's create_cq tells an old libcxgb4 (a request shorter than its
 * struct c4iw_create_cq) from a current one: struct ovbtest_create_cq_req
 * and _resp_v2.
 */
#include "ovbtest.h"

/*
 * Reads the request of @udata into @cmd (zeroed when there is none);
 * @trailing_err for nonzero bytes past it, the driver's own choice.
 */
int ovbtest_udata_ex_in(struct ib_udata *udata,
			struct ovbtest_udata_ex_cmd *cmd, int trailing_err)
{
	size_t len = min(udata->inlen, sizeof(*cmd));

	memset(cmd, 0, sizeof(*cmd));
	if (len && ib_copy_from_udata(cmd, udata, len))
		return -EFAULT;
	if (udata->inlen > sizeof(*cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(*cmd),
				 udata->inlen - sizeof(*cmd)))
		return trailing_err;
	return cmd->reserved ? -EINVAL : 0;
}

/* The response of @op, as much of it as udata->outlen holds. */
int ovbtest_udata_ex_out(struct ib_udata *udata,
			 const struct ovbtest_udata_ex_cmd *cmd,
			 enum ovbtest_udata_ex_op op)
{
	struct ovbtest_udata_ex_resp resp = {
		.inbuf = (uintptr_t)udata->inbuf,
		.outbuf = (uintptr_t)udata->outbuf,
		.inlen = udata->inlen,
		.outlen = udata->outlen,
		.tag = cmd->tag,
		.op = op,
	};
	size_t len = min(udata->outlen, sizeof(resp));

	if (!len)
		return 0;
	resp.response_length = len;
	return ib_copy_to_udata(udata, &resp, len);
}

/*
 * The library generation of a CQ creation, from udata->inlen only: a
 * request shorter than struct ovbtest_create_cq_req (none, or a legacy
 * 4-byte word) is an old library's, not read at all, answered with
 * legacy CQEs and the response less its last field; a whole one is read
 * (no further) and honoured, answered whole.  Fills @resp's own fields;
 * *@len is what the generation's response holds (the caller cuts it to
 * udata->outlen).
 */
int ovbtest_cq_abi(struct ib_udata *udata,
		   struct ovbtest_create_cq_resp_v2 *resp, size_t *len)
{
	struct ovbtest_create_cq_req req;

	if (udata->inlen < sizeof(req)) {
		resp->cqe_size = OVBTEST_CQE_SIZE_LEGACY;
		*len = offsetof(struct ovbtest_create_cq_resp_v2, abi_flags);
		return 0;
	}
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
	if (req.reserved)
		return -EINVAL;
	switch (req.cqe_size) {
	case 0:
		resp->cqe_size = OVBTEST_CQE_SIZE;
		break;
	case OVBTEST_CQE_SIZE_LEGACY:
	case OVBTEST_CQE_SIZE:
		resp->cqe_size = req.cqe_size;
		break;
	default:
		return -EINVAL;
	}
	resp->abi_flags = OVBTEST_CQ_ABI_NEW;
	*len = sizeof(*resp);
	return 0;
}
