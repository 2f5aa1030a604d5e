// SPDX-License-Identifier: GPL-2.0
/*
 * What ib_uverbs' umem of a user-memory MR holds for the device's DMA
 * device (OVBTEST_METHOD_MR_DMA_MAP): the mapped scatterlist, the best
 * page size for a bitmap and the blocks of that size, read the way a
 * hardware driver reads them to fill its translation tables (mlx5's
 * mkey, efa's page list, irdma's PBLEs).
 */
#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#define UVERBS_MODULE_NAME ovbtest_dma_map
#include <rdma/uverbs_named_ioctl.h>

#include "ovbtest.h"

/* At most this many entries of each list are reported. */
#define OVBTEST_DMA_MAP_MAX	4096

/* Each mapped entry of @umem into @segs, up to @room; the count mapped. */
static u32 ovbtest_dma_segs(struct ib_umem *umem, struct ovbtest_dma_seg *segs,
			    size_t room)
{
	struct scatterlist *sg;
	u32 i, n = 0;

	for_each_sgtable_dma_sg(&umem->sgt_append.sgt, sg, i) {
		if (n < room) {
			segs[n].addr = sg_dma_address(sg);
			segs[n].len = sg_dma_len(sg);
		}
		n++;
	}
	return n;
}

/* The DMA address of each @pgsz block of @umem into @blocks, up to @room. */
static void ovbtest_dma_blocks(struct ib_umem *umem, unsigned long pgsz,
			       u64 *blocks, size_t room)
{
	struct ib_block_iter biter;
	size_t n = 0;

	rdma_umem_for_each_dma_block(umem, &biter, pgsz) {
		if (n == room)
			break;
		blocks[n++] = rdma_block_iter_dma_address(&biter);
	}
}

/* An optional PTR_OUT array attribute: room for entries of @size, at most max. */
static size_t ovbtest_out_room(struct uverbs_attr_bundle *attrs, u16 idx,
			       size_t size)
{
	if (!uverbs_attr_is_valid(attrs, idx))
		return 0;
	return min_t(size_t, uverbs_attr_get_len(attrs, idx) / size,
		     OVBTEST_DMA_MAP_MAX);
}

static int UVERBS_HANDLER(OVBTEST_METHOD_MR_DMA_MAP)(struct uverbs_attr_bundle *attrs)
{
	struct ib_mr *ibmr = uverbs_attr_get_obj(attrs,
						 OVBTEST_ATTR_MR_DMA_MAP_HANDLE);
	struct ib_umem *umem = to_omr(ibmr)->umem;
	struct ovbtest_mr_dma_map map = {};
	struct ovbtest_dma_seg *segs = NULL;
	size_t seg_room, block_room;
	u64 *blocks = NULL, pgsz_bitmap;
	int ret;

	/* physical addresses, as pagemap's frame numbers, are the admin's */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!umem || umem->is_dmabuf || umem->is_odp)
		return -EINVAL;
	ret = uverbs_copy_from(&pgsz_bitmap, attrs,
			       OVBTEST_ATTR_MR_DMA_MAP_PGSZ);
	if (ret)
		return ret;
	/* as every driver's: some size of at least a page */
	if (!(pgsz_bitmap & GENMASK_ULL(63, PAGE_SHIFT)))
		return -EINVAL;
	map.address = umem->address;
	map.length = umem->length;
	map.num_pages = ib_umem_num_pages(umem);
	/* sets the umem's iova, which ib_umem_num_dma_blocks() reads */
	map.best_pgsz = ib_umem_find_best_pgsz(umem, pgsz_bitmap, ibmr->iova);
	map.iova = umem->iova;
	if (map.best_pgsz)
		map.num_blocks = ib_umem_num_dma_blocks(umem, map.best_pgsz);

	seg_room = ovbtest_out_room(attrs, OVBTEST_ATTR_MR_DMA_MAP_SEGS,
				    sizeof(*segs));
	block_room = map.best_pgsz ?
		ovbtest_out_room(attrs, OVBTEST_ATTR_MR_DMA_MAP_BLOCKS,
				 sizeof(*blocks)) : 0;
	segs = kvcalloc(max_t(size_t, seg_room, 1), sizeof(*segs), GFP_KERNEL);
	blocks = kvcalloc(max_t(size_t, block_room, 1), sizeof(*blocks),
			  GFP_KERNEL);
	ret = -ENOMEM;
	if (!segs || !blocks)
		goto out;
	map.num_segs = ovbtest_dma_segs(umem, segs, seg_room);
	if (block_room)
		ovbtest_dma_blocks(umem, map.best_pgsz, blocks, block_room);

	ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_MAP_OUT, &map,
			     sizeof(map));
	if (!ret && seg_room)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_MAP_SEGS, segs,
				     min_t(size_t, seg_room, map.num_segs) *
				     sizeof(*segs));
	if (!ret && block_room)
		ret = uverbs_copy_to(attrs, OVBTEST_ATTR_MR_DMA_MAP_BLOCKS,
				     blocks,
				     min_t(u64, block_room, map.num_blocks) *
				     sizeof(*blocks));
out:
	kvfree(blocks);
	kvfree(segs);
	return ret;
}

DECLARE_UVERBS_NAMED_METHOD(OVBTEST_METHOD_MR_DMA_MAP,
			    /* exclusive: ib_umem_find_best_pgsz() sets the iova */
			    UVERBS_ATTR_IDR(OVBTEST_ATTR_MR_DMA_MAP_HANDLE,
					    UVERBS_OBJECT_MR,
					    UVERBS_ACCESS_WRITE,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(OVBTEST_ATTR_MR_DMA_MAP_PGSZ,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_MAP_OUT,
						UVERBS_ATTR_STRUCT(struct ovbtest_mr_dma_map,
								   num_segs),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_MAP_SEGS,
						UVERBS_ATTR_MIN_SIZE(sizeof(struct ovbtest_dma_seg)),
						UA_OPTIONAL),
			    UVERBS_ATTR_PTR_OUT(OVBTEST_ATTR_MR_DMA_MAP_BLOCKS,
						UVERBS_ATTR_MIN_SIZE(sizeof(u64)),
						UA_OPTIONAL));

ADD_UVERBS_METHODS(ovbtest_mr_dma_map, UVERBS_OBJECT_MR,
		   &UVERBS_METHOD(OVBTEST_METHOD_MR_DMA_MAP));

const struct uapi_definition ovbtest_dma_map_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_MR, &ovbtest_mr_dma_map),
	{},
};
