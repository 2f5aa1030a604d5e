// SPDX-License-Identifier: GPL-2.0
/*
 * openverbs ib_uverbs: the GID table queries of the ioctl ABI
 * (QUERY_GID_TABLE, QUERY_GID_ENTRY).  write() has none: rdma-core reads
 * sysfs when these are missing.
 */

#include <linux/netdevice.h>
#include <rdma/ib_cache.h>

#include "uverbs.h"

/* Entries of the size the user asked for: truncated or zero-extended. */
static int uverbs_copy_gid_entries(struct uverbs_attr_bundle *attrs,
				   const struct ib_uverbs_gid_entry *entries,
				   size_t n, size_t user_size)
{
	const size_t size = sizeof(*entries);
	const struct uverbs_attr *attr;
	u8 __user *dst;
	size_t i;

	if (user_size == size)
		return uverbs_copy_to(attrs,
				      OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
				      entries, n * size);

	attr = uverbs_attr_get(attrs, OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	dst = u64_to_user_ptr(attr->ptr_attr.data);
	for (i = 0; i < n; i++, dst += user_size) {
		if (copy_to_user(dst, &entries[i], min(user_size, size)))
			return -EFAULT;
		if (user_size > size && clear_user(dst + size, user_size - size))
			return -EFAULT;
	}
	return uverbs_output_written(attrs,
				     OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
}

/*
 * QUERY_GID_TABLE's inputs: no flag is defined yet; the user's entry size
 * (not 0) and how many such entries its buffer holds (at least one).
 */
static int gid_table_args(struct uverbs_attr_bundle *attrs,
			  size_t *entry_size, int *max_entries)
{
	u32 flags;
	int ret;

	ret = uverbs_get_flags32(&flags, attrs,
				 OVB_ATTR_QUERY_GID_TABLE_FLAGS, 0) ?:
	      uverbs_get_const(entry_size, attrs,
			       OVB_ATTR_QUERY_GID_TABLE_ENTRY_SIZE);
	if (ret || !*entry_size)
		return ret ?: -EINVAL;
	*max_entries = uverbs_attr_ptr_get_array_size(attrs,
						      OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
						      *entry_size);
	if (*max_entries > 0)
		return 0;
	return *max_entries ?: -EINVAL;
}

static int UVERBS_HANDLER(OVB_METHOD_QUERY_GID_TABLE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_gid_entry *entries;
	struct ib_ucontext *ucontext;
	size_t entry_size;
	ssize_t n;
	int max, ret;

	ret = gid_table_args(attrs, &entry_size, &max);
	if (ret)
		return ret;
	ucontext = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	entries = uverbs_kcalloc(attrs, max, sizeof(*entries));
	if (IS_ERR(entries))
		return PTR_ERR(entries);

	n = rdma_query_gid_table(ucontext->device, entries, max);
	ret = n < 0 ? -EINVAL :
	      uverbs_copy_gid_entries(attrs, entries, n, entry_size);
	return ret ?: uverbs_copy_to(attrs,
				     OVB_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
				     &n, sizeof(n));
}

/* QUERY_GID_ENTRY's inputs: no flag is defined yet; port and index. */
static int gid_entry_args(struct uverbs_attr_bundle *attrs, u32 *port,
			  u32 *index)
{
	u32 flags;

	return uverbs_get_flags32(&flags, attrs,
				  OVB_ATTR_QUERY_GID_ENTRY_FLAGS, 0) ?:
	       uverbs_get_const(port, attrs, OVB_ATTR_QUERY_GID_ENTRY_PORT) ?:
	       uverbs_get_const(index, attrs,
				OVB_ATTR_QUERY_GID_ENTRY_GID_INDEX);
}

/* The ABI's view of one GID; a GID without a netdev has ifindex 0. */
static int gid_entry_fill(struct ib_uverbs_gid_entry *entry,
			  const struct ib_gid_attr *gid_attr)
{
	struct net_device *ndev;
	int ret = 0;

	*entry = (struct ib_uverbs_gid_entry) {
		.gid_index = gid_attr->index,
		.port_num = gid_attr->port_num,
		.gid_type = gid_attr->gid_type,
	};
	memcpy(&entry->gid, &gid_attr->gid, sizeof(gid_attr->gid));

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(gid_attr);
	if (!IS_ERR(ndev))
		entry->netdev_ifindex = ndev->ifindex;
	else if (PTR_ERR(ndev) != -ENODEV)
		ret = PTR_ERR(ndev);
	rcu_read_unlock();
	return ret;
}

static int UVERBS_HANDLER(OVB_METHOD_QUERY_GID_ENTRY)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uverbs_gid_entry entry;
	const struct ib_gid_attr *gid_attr;
	struct ib_ucontext *ucontext;
	u32 port, index;
	int ret;

	ret = gid_entry_args(attrs, &port, &index);
	if (ret)
		return ret;
	ucontext = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(ucontext))
		return PTR_ERR(ucontext);
	if (!rdma_is_port_valid(ucontext->device, port))
		return -EINVAL;

	/* An empty slot is ENODATA (rdma-core reports that as such). */
	gid_attr = rdma_get_gid_attr(ucontext->device, port, index);
	if (IS_ERR(gid_attr))
		return PTR_ERR(gid_attr);
	ret = gid_entry_fill(&entry, gid_attr) ?:
	      uverbs_copy_to_struct_or_zero(attrs,
					    OVB_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
					    &entry, sizeof(entry));
	rdma_put_gid_attr(gid_attr);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_QUERY_GID_TABLE,
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, u64,
						 UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_QUERY_GID_TABLE_FLAGS, u32,
						 UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
						UVERBS_ATTR_MIN_SIZE(0), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
						UVERBS_ATTR_TYPE(u64), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(OVB_METHOD_QUERY_GID_ENTRY,
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_QUERY_GID_ENTRY_PORT, u32,
						 UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(OVB_ATTR_QUERY_GID_ENTRY_GID_INDEX, u32,
						 UA_MANDATORY),
			    UVERBS_ATTR_FLAGS_IN(OVB_ATTR_QUERY_GID_ENTRY_FLAGS, u32,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVB_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
						UVERBS_ATTR_STRUCT(struct ib_uverbs_gid_entry,
								   netdev_ifindex),
						UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(OVB_OBJECT_DEVICE,
			      &UVERBS_METHOD(OVB_METHOD_QUERY_GID_TABLE),
			      &UVERBS_METHOD(OVB_METHOD_QUERY_GID_ENTRY));

const struct uapi_definition uverbs_def_device_gid[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(OVB_OBJECT_DEVICE),
	{ }
};
