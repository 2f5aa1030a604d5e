// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * openverbs: prove uapi/openverbs/ layout-identical to the uapi headers of
 * each Linux kernel it describes (6.1 and 6.12).
 *
 * This translation unit includes our headers and one kernel's (the
 * reference's: the system's linux-libc-dev, or a linux-headers package's
 * include/uapi, see uapi/Makefile) <rdma/ib_user_verbs.h>, <rdma/rdma_user_rxe.h> (the write() ABI) and
 * <rdma/rdma_user_ioctl.h>, <rdma/ib_user_ioctl_cmds.h>,
 * <rdma/ib_user_ioctl_verbs.h> (the ioctl() ABI), <rdma/siw-abi.h> (siw's
 * driver ABI) side by side (which by
 * itself proves that the two sets of names do not clash) and compares them
 * with a table: one group per upstream struct or union, one line per member,
 * one ENUM() per named enum and one K() per constant.  Every check is a
 * static assertion, so a wrong layout does not build; the same numbers are
 * also compared at run time and printed as TAP, one line per group, per
 * enum and per constant, so that a run shows what was proved.  Build with
 * -DOVB_LAYOUT_RUNTIME_ONLY to turn the static assertions off and get every
 * difference listed in one run.
 *
 * Builds as C (gnu11) and as C++20, 64-bit and -m32; it must pass in each.
 * uapi/tests/abi_coverage.py checks that the table leaves no upstream type,
 * member or constant out; see Documentation/uapi.md.
 *
 * The table:
 *   BEGIN_GROUP(kw, ours, theirs)  compare kw ours with kw theirs: size and
 *                                  alignment; the lines up to END_GROUP()
 *                                  name their members.  Member paths may go
 *                                  through nested members: wr.rdma.rkey.
 *   M(m)              a scalar member: offset, size, alignment, same type
 *   A(m)              a fixed-size array: as M(), and the element count
 *   MT(m, ot, tt)     a member of struct/union type: offset, size,
 *                     alignment; it is ot in ours and tt in theirs (their
 *                     own groups compare the two types)
 *   U(m)              a member of an unnamed struct/union type: offset,
 *                     size, alignment (its members follow as paths)
 *   UO(m, ot)         as U(), where ours gives the type the name ot
 *   FLEX(m)           a flexible or zero-length array: offset, alignment,
 *                     same element type
 *   FLEXT(m, ot, tt)  the same for an array of struct: elements ot / tt
 *   MAS(om, tm)       ours' om against theirs' tm where the name or the
 *                     declared type differs: offset and size only
 *   KPTR(om, tm)      theirs' tm is a kernel pointer that ours carries as
 *                     the 64-bit om: same offset, and the pointer fits
 *   K(ours, theirs)   a constant (enumerator or #define): same value
 *   KSTR(ours, theirs)  a string constant: same bytes
 *   ENUM(ours, theirs)  enum ours against enum theirs: same size and
 *                     signedness (the integer type the compiler chose)
 *   NOT_UVERBS(theirs)  a constant of another char device that an upstream
 *                     header numbers beside ours (ib_umad's and hfi1's
 *                     ioctls): not uverbs ABI, left out on purpose; the
 *                     line only proves the name exists
 *
 * Where kernels differ, lines sit under #if OVB_REF_SINCE(major, minor)
 * (the kernel that added the fact) ... #else (what older references get
 * instead) ... #endif; nothing else may be conditional in the table.  For
 * a reference older than a fact, these stand in for the member lines:
 *   SPLIT(tm, om1, om2)  theirs' tm (reserved bytes a later kernel split)
 *                     is exactly ours' om1 followed by om2: om1 starts
 *                     where tm starts, om2 right after om1, and om2 ends
 *                     where tm ends
 *   INSIDE(om, tm)    ours' om, which the reference lacks, lies within
 *                     theirs' tm (a union member a later kernel added)
 *   FLEX_AT(om, tm)   ours' flexible array om, which the reference lacks,
 *                     starts where theirs' tm starts, same element type
 * abi_coverage.py reads the same conditions: against each reference every
 * upstream fact has a line compiled for it, and every line left out names
 * something that reference does not have.
 */

#ifdef __cplusplus
/*
 * Linux 6.1's <linux/stddef.h> has one definition of __DECLARE_FLEX_ARRAY,
 * written for C: an empty struct before the array.  In C++ that empty
 * struct takes a byte, so rdma_user_rxe.h (6.1's and later ones, all read
 * with the system's <linux/stddef.h>), read as C++, moves
 * rxe_dma_info's arrays (and grows it from 24 to 32 bytes) away from the
 * layout the kernel, which is C, uses.  Later kernels give C++ a plain
 * zero-length array; do the same here so that the C++ build compares with
 * the kernel's layout.  The C build uses the header untouched.
 */
#include <linux/stddef.h>
#undef __DECLARE_FLEX_ARRAY
#define __DECLARE_FLEX_ARRAY(type, name)	type name[0]
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <type_traits>
#else
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#endif

#include <openverbs/uverbs-abi.h>
#include <openverbs/rxe-abi.h>
#include <openverbs/ioctl-abi.h>
#include <openverbs/siw-abi.h>

#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/siw-abi.h>
#include <linux/version.h>

#ifdef __cplusplus
#define SAME_TYPE(a, b)		__is_same(a, b)
#define SIGNED_ENUM(t)		\
	std::is_signed<std::underlying_type<t>::type>::value
#define ALIGN_OF(t)		alignof(t)
#define STATIC_CHECK(c, msg)	static_assert(c, msg)
#else
#define SAME_TYPE(a, b)		__builtin_types_compatible_p(a, b)
#define SIGNED_ENUM(t)		(!((t)-1 > (t)0))
#define ALIGN_OF(t)		_Alignof(t)
#define STATIC_CHECK(c, msg)	_Static_assert(c, msg)
#endif

/*
 * The reference kernel, from its <linux/version.h> (uapi/Makefile puts the
 * headers package's generated one first).  The oldest we describe is 6.1;
 * newer ones are compared as far as the table knows them, and
 * abi_coverage.py names whatever a newer kernel adds.
 */
#define OVB_REF		(LINUX_VERSION_MAJOR * 256 + LINUX_VERSION_PATCHLEVEL)
#define OVB_REF_SINCE(major, minor)	(OVB_REF >= (major) * 256 + (minor))

STATIC_CHECK(OVB_REF_SINCE(6, 1),
	     "the reference <rdma/...> headers are older than Linux 6.1's");

/* <linux/version.h> and the rdma headers must be the same kernel's. */
#if OVB_REF_SINCE(6, 11) == defined(UVERBS_UDATA_DRIVER_DATA_NS)
#error "<linux/version.h> is not the version of these <rdma/...> headers"
#endif

#ifdef OVB_LAYOUT_RUNTIME_ONLY
#undef STATIC_CHECK
#define STATIC_CHECK(c, msg)	((void)0)
#endif

/* ------------------------------------------------------------ run time */

/* One group being compared: its verdict and a fingerprint of its layout. */
struct group {
	const char *ours;
	const char *theirs;
	unsigned int members;
	unsigned int bad;
	unsigned long fingerprint;
};

static unsigned int tests, failures;

static void mix(struct group *g, size_t v)
{
	/* FNV-1a over the numbers: equal layouts give equal fingerprints */
	g->fingerprint = ((g->fingerprint ^ v) * 16777619ul) & 0xfffffffful;
}

static void group_start(struct group *g, const char *ours, const char *theirs,
			size_t o_size, size_t t_size, size_t o_align,
			size_t t_align)
{
	g->ours = ours;
	g->theirs = theirs;
	g->members = 0;
	g->bad = 0;
	g->fingerprint = 2166136261ul;
	if (o_size != t_size || o_align != t_align) {
		printf("# %s: size %zu align %zu, %s: size %zu align %zu\n",
		       ours, o_size, o_align, theirs, t_size, t_align);
		g->bad++;
	}
	mix(g, o_size);
	mix(g, o_align);
}

static void member(struct group *g, const char *name, size_t o_off,
		   size_t t_off, size_t o_size, size_t t_size, size_t o_align,
		   size_t t_align, int same)
{
	g->members++;
	if (o_off != t_off || o_size != t_size || o_align != t_align ||
	    !same) {
		printf("# %s.%s: offset %zu/%zu size %zu/%zu align %zu/%zu%s\n",
		       g->ours, name, o_off, t_off, o_size, t_size, o_align,
		       t_align, same ? "" : ", different type");
		g->bad++;
	}
	mix(g, o_off);
	mix(g, o_size);
	mix(g, o_align);
}

static void group_end(const struct group *g)
{
	tests++;
	if (g->bad)
		failures++;
	printf("%sok %u - %s = %s: %u members, layout %08lx\n",
	       g->bad ? "not " : "", tests, g->ours, g->theirs, g->members,
	       g->fingerprint);
}

static void constant(const char *ours, const char *theirs, long long o,
		     long long t)
{
	tests++;
	if (o != t)
		failures++;
	printf("%sok %u - %s = %s: %lld", o != t ? "not " : "", tests, ours,
	       theirs, o);
	if (o != t)
		printf(", upstream %lld", t);
	printf("\n");
}

static void string_constant(const char *ours, const char *theirs,
			    const char *o, const char *t)
{
	int bad = strcmp(o, t) != 0;

	tests++;
	if (bad)
		failures++;
	printf("%sok %u - %s = %s: \"%s\"", bad ? "not " : "", tests, ours,
	       theirs, o);
	if (bad)
		printf(", upstream \"%s\"", t);
	printf("\n");
}

static void enum_type(const char *ours, const char *theirs, size_t o_size,
		      size_t t_size, int o_signed, int t_signed)
{
	int bad = o_size != t_size || o_signed != t_signed;

	tests++;
	if (bad)
		failures++;
	printf("%sok %u - enum %s = enum %s: %zu bytes, %s", bad ? "not " : "",
	       tests, ours, theirs, o_size, o_signed ? "signed" : "unsigned");
	if (bad)
		printf(", upstream %zu bytes, %s", t_size,
		       t_signed ? "signed" : "unsigned");
	printf("\n");
}

/* ---------------------------------------------------------- the macros */

#define OURS(m)		(((ovb_o *)0)->m)
#define THEIRS(m)	(((ovb_t *)0)->m)

#define BEGIN_GROUP(kw, ours, theirs)					\
	{								\
		typedef kw ours ovb_o;					\
		typedef kw theirs ovb_t;				\
		struct group g;						\
		STATIC_CHECK(sizeof(ovb_o) == sizeof(ovb_t),		\
			     #kw " " #ours ": size");			\
		STATIC_CHECK(ALIGN_OF(ovb_o) == ALIGN_OF(ovb_t),	\
			     #kw " " #ours ": alignment");		\
		group_start(&g, #kw " " #ours, #kw " " #theirs,		\
			    sizeof(ovb_o), sizeof(ovb_t),		\
			    ALIGN_OF(ovb_o), ALIGN_OF(ovb_t))

#define END_GROUP()							\
		group_end(&g);						\
	}								\
	do { } while (0)

/* The one check behind every member line. */
#define CHECK(om, tm, o_size, t_size, o_align, t_align, same)		\
	STATIC_CHECK(offsetof(ovb_o, om) == offsetof(ovb_t, tm),	\
		     #om ": offset");					\
	STATIC_CHECK((o_size) == (t_size), #om ": size");		\
	STATIC_CHECK((o_align) == (t_align), #om ": alignment");	\
	STATIC_CHECK(same, #om ": type");				\
	member(&g, #om, offsetof(ovb_o, om), offsetof(ovb_t, tm),	\
	       o_size, t_size, o_align, t_align, same)

#define MEMBER(om, tm, same)						\
	CHECK(om, tm, sizeof(OURS(om)), sizeof(THEIRS(tm)),		\
	      __alignof__(OURS(om)), __alignof__(THEIRS(tm)), same)

#define ELEMENTS(om, tm, same)						\
	CHECK(om, tm, sizeof(OURS(om)[0]), sizeof(THEIRS(tm)[0]),	\
	      __alignof__(OURS(om)), __alignof__(THEIRS(tm)), same)

#define M(m)								\
	MEMBER(m, m, SAME_TYPE(__typeof__(OURS(m)), __typeof__(THEIRS(m))))

#define A(m)								\
	STATIC_CHECK(sizeof(OURS(m)) / sizeof(OURS(m)[0]) ==		\
		     sizeof(THEIRS(m)) / sizeof(THEIRS(m)[0]),		\
		     #m ": element count");				\
	M(m)

#define MT(m, ot, tt)							\
	MEMBER(m, m, SAME_TYPE(__typeof__(OURS(m)), ot) &&		\
		     SAME_TYPE(__typeof__(THEIRS(m)), tt))

#define U(m)		MEMBER(m, m, 1)
#define UO(m, ot)	MEMBER(m, m, SAME_TYPE(__typeof__(OURS(m)), ot))
#define MAS(om, tm)							\
	CHECK(om, tm, sizeof(OURS(om)), sizeof(THEIRS(tm)),		\
	      __alignof__(OURS(om)), __alignof__(OURS(om)), 1)

#define KPTR(om, tm)							\
	STATIC_CHECK(offsetof(ovb_o, om) == offsetof(ovb_t, tm),	\
		     #om ": offset");					\
	STATIC_CHECK(sizeof(OURS(om)) == 8 &&				\
		     sizeof(THEIRS(tm)) <= sizeof(OURS(om)),		\
		     #om ": holds " #tm);				\
	member(&g, #om, offsetof(ovb_o, om), offsetof(ovb_t, tm),	\
	       sizeof(OURS(om)), sizeof(OURS(om)), 1, 1,		\
	       sizeof(THEIRS(tm)) <= sizeof(OURS(om)))

#define FLEX(m)								\
	ELEMENTS(m, m, SAME_TYPE(__typeof__(OURS(m)[0]),		\
				 __typeof__(THEIRS(m)[0])))

#define FLEXT(m, ot, tt)						\
	ELEMENTS(m, m, SAME_TYPE(__typeof__(OURS(m)[0]), ot) &&		\
		       SAME_TYPE(__typeof__(THEIRS(m)[0]), tt))

#define K(ours, theirs)							\
	STATIC_CHECK((long long)(ours) == (long long)(theirs),		\
		     #ours " == " #theirs);				\
	constant(#ours, #theirs, (long long)(ours), (long long)(theirs))

#define KSTR(ours, theirs)						\
	STATIC_CHECK(sizeof(ours) == sizeof(theirs),			\
		     #ours ": length");					\
	string_constant(#ours, #theirs, ours, theirs)

#define ENUM(ours, theirs)						\
	STATIC_CHECK(sizeof(enum ours) == sizeof(enum theirs),		\
		     "enum " #ours ": size");				\
	STATIC_CHECK(SIGNED_ENUM(enum ours) == SIGNED_ENUM(enum theirs), \
		     "enum " #ours ": signedness");			\
	enum_type(#ours, #theirs, sizeof(enum ours), sizeof(enum theirs), \
		  SIGNED_ENUM(enum ours), SIGNED_ENUM(enum theirs))

#define NOT_UVERBS(theirs)	((void)sizeof(theirs))

#define SPLIT(tm, om1, om2)						\
	STATIC_CHECK(offsetof(ovb_o, om2) ==				\
		     offsetof(ovb_o, om1) + sizeof(OURS(om1)),		\
		     #om2 ": right after " #om1);			\
	CHECK(om1, tm, offsetof(ovb_o, om2) + sizeof(OURS(om2)) -	\
		       offsetof(ovb_o, om1),				\
	      sizeof(THEIRS(tm)), 1, 1,					\
	      offsetof(ovb_o, om2) ==					\
	      offsetof(ovb_o, om1) + sizeof(OURS(om1)))

#define INSIDE_OF(om, tm)						\
	(offsetof(ovb_o, om) >= offsetof(ovb_t, tm) &&			\
	 offsetof(ovb_o, om) + sizeof(OURS(om)) <=			\
	 offsetof(ovb_t, tm) + sizeof(THEIRS(tm)))
#define INSIDE(om, tm)							\
	STATIC_CHECK(INSIDE_OF(om, tm), #om ": inside " #tm);		\
	member(&g, #om, offsetof(ovb_o, om), offsetof(ovb_o, om),	\
	       sizeof(OURS(om)), sizeof(OURS(om)), __alignof__(OURS(om)), \
	       __alignof__(OURS(om)), INSIDE_OF(om, tm))

#define FLEX_AT(om, tm)							\
	ELEMENTS(om, tm, SAME_TYPE(__typeof__(OURS(om)[0]),		\
				   __typeof__(THEIRS(tm)[0])))

/* ----------------------------------------------------------- the table */

static void structs(void)
{
	/* ---- the uverbs write() ABI: <rdma/ib_user_verbs.h>, in its order */

	BEGIN_GROUP(struct, ovb_async_event_desc, ib_uverbs_async_event_desc);
		M(element); M(event_type); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_comp_event_desc, ib_uverbs_comp_event_desc);
		M(cq_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_cq_moderation_caps,
		    ib_uverbs_cq_moderation_caps);
		M(max_cq_moderation_count); M(max_cq_moderation_period);
		M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_cmd_hdr, ib_uverbs_cmd_hdr);
		M(command); M(in_words); M(out_words);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_cmd_hdr, ib_uverbs_ex_cmd_hdr);
		M(response); M(provider_in_words); M(provider_out_words);
		M(cmd_hdr_reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_get_context_req, ib_uverbs_get_context);
		M(response); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_get_context_resp, ib_uverbs_get_context_resp);
		M(async_fd); M(num_comp_vectors); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_device_req, ib_uverbs_query_device);
		M(response); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_device_resp, ib_uverbs_query_device_resp);
		M(fw_ver); M(node_guid); M(sys_image_guid); M(max_mr_size);
		M(page_size_cap); M(vendor_id); M(vendor_part_id); M(hw_ver);
		M(max_qp); M(max_qp_wr); M(device_cap_flags); M(max_sge);
		M(max_sge_rd); M(max_cq); M(max_cqe); M(max_mr); M(max_pd);
		M(max_qp_rd_atom); M(max_ee_rd_atom); M(max_res_rd_atom);
		M(max_qp_init_rd_atom); M(max_ee_init_rd_atom); M(atomic_cap);
		M(max_ee); M(max_rdd); M(max_mw); M(max_raw_ipv6_qp);
		M(max_raw_ethy_qp); M(max_mcast_grp); M(max_mcast_qp_attach);
		M(max_total_mcast_qp_attach); M(max_ah); M(max_fmr);
		M(max_map_per_fmr); M(max_srq); M(max_srq_wr); M(max_srq_sge);
		M(max_pkeys); M(local_ca_ack_delay); M(phys_port_cnt);
		A(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_query_device_req, ib_uverbs_ex_query_device);
		M(comp_mask); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_odp_caps, ib_uverbs_odp_caps);
		M(general_caps); U(per_transport_caps);
		M(per_transport_caps.rc_odp_caps);
		M(per_transport_caps.uc_odp_caps);
		M(per_transport_caps.ud_odp_caps); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rss_caps, ib_uverbs_rss_caps);
		M(supported_qpts); M(max_rwq_indirection_tables);
		M(max_rwq_indirection_table_size); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_tm_caps, ib_uverbs_tm_caps);
		M(max_rndv_hdr_size); M(max_num_tags); M(flags); M(max_ops);
		M(max_sge); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_query_device_resp,
		    ib_uverbs_ex_query_device_resp);
		MT(base,
		   struct ovb_query_device_resp,
		   struct ib_uverbs_query_device_resp);
		M(comp_mask); M(response_length);
		MT(odp_caps, struct ovb_odp_caps, struct ib_uverbs_odp_caps);
		M(timestamp_mask); M(hca_core_clock); M(device_cap_flags_ex);
		MT(rss_caps, struct ovb_rss_caps, struct ib_uverbs_rss_caps);
		M(max_wq_type_rq); M(raw_packet_caps);
		MT(tm_caps, struct ovb_tm_caps, struct ib_uverbs_tm_caps);
		MT(cq_moderation_caps,
		   struct ovb_cq_moderation_caps,
		   struct ib_uverbs_cq_moderation_caps);
		M(max_dm_size); M(xrc_odp_caps); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_port_req, ib_uverbs_query_port);
		M(response); M(port_num); A(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_port_resp, ib_uverbs_query_port_resp);
		M(port_cap_flags); M(max_msg_sz); M(bad_pkey_cntr);
		M(qkey_viol_cntr); M(gid_tbl_len); M(pkey_tbl_len); M(lid);
		M(sm_lid); M(state); M(max_mtu); M(active_mtu); M(lmc);
		M(max_vl_num); M(sm_sl); M(subnet_timeout); M(init_type_reply);
		M(active_width); M(active_speed); M(phys_state); M(link_layer);
		M(flags); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_alloc_pd_req, ib_uverbs_alloc_pd);
		M(response); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_alloc_pd_resp, ib_uverbs_alloc_pd_resp);
		M(pd_handle); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_dealloc_pd_req, ib_uverbs_dealloc_pd);
		M(pd_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_open_xrcd_req, ib_uverbs_open_xrcd);
		M(response); M(fd); M(oflags); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_open_xrcd_resp, ib_uverbs_open_xrcd_resp);
		M(xrcd_handle); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_close_xrcd_req, ib_uverbs_close_xrcd);
		M(xrcd_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_reg_mr_req, ib_uverbs_reg_mr);
		M(response); M(start); M(length); M(hca_va); M(pd_handle);
		M(access_flags); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_reg_mr_resp, ib_uverbs_reg_mr_resp);
		M(mr_handle); M(lkey); M(rkey); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rereg_mr_req, ib_uverbs_rereg_mr);
		M(response); M(mr_handle); M(flags); M(start); M(length);
		M(hca_va); M(pd_handle); M(access_flags); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rereg_mr_resp, ib_uverbs_rereg_mr_resp);
		M(lkey); M(rkey); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_dereg_mr_req, ib_uverbs_dereg_mr);
		M(mr_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_alloc_mw_req, ib_uverbs_alloc_mw);
		M(response); M(pd_handle); M(mw_type); A(reserved);
		FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_alloc_mw_resp, ib_uverbs_alloc_mw_resp);
		M(mw_handle); M(rkey); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_dealloc_mw_req, ib_uverbs_dealloc_mw);
		M(mw_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_comp_channel_req,
		    ib_uverbs_create_comp_channel);
		M(response);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_comp_channel_resp,
		    ib_uverbs_create_comp_channel_resp);
		M(fd);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_cq_req, ib_uverbs_create_cq);
		M(response); M(user_handle); M(cqe); M(comp_vector);
		M(comp_channel); M(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_cq_req, ib_uverbs_ex_create_cq);
		M(user_handle); M(cqe); M(comp_vector); M(comp_channel);
		M(comp_mask); M(flags); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_cq_resp, ib_uverbs_create_cq_resp);
		M(cq_handle); M(cqe); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_cq_resp, ib_uverbs_ex_create_cq_resp);
		MT(base,
		   struct ovb_create_cq_resp, struct ib_uverbs_create_cq_resp);
		M(comp_mask); M(response_length);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_resize_cq_req, ib_uverbs_resize_cq);
		M(response); M(cq_handle); M(cqe); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_resize_cq_resp, ib_uverbs_resize_cq_resp);
		M(cqe); M(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_poll_cq_req, ib_uverbs_poll_cq);
		M(response); M(cq_handle); M(ne);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_wc, ib_uverbs_wc);
		M(wr_id); M(status); M(opcode); M(vendor_err); M(byte_len);
		U(ex); M(ex.imm_data); M(ex.invalidate_rkey); M(qp_num);
		M(src_qp); M(wc_flags); M(pkey_index); M(slid); M(sl);
		M(dlid_path_bits); M(port_num); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_poll_cq_resp, ib_uverbs_poll_cq_resp);
		M(count); M(reserved);
		FLEXT(wc, struct ovb_wc, struct ib_uverbs_wc);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_req_notify_cq_req, ib_uverbs_req_notify_cq);
		M(cq_handle); M(solicited_only);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_cq_req, ib_uverbs_destroy_cq);
		M(response); M(cq_handle); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_cq_resp, ib_uverbs_destroy_cq_resp);
		M(comp_events_reported); M(async_events_reported);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_global_route, ib_uverbs_global_route);
		A(dgid); M(flow_label); M(sgid_index); M(hop_limit);
		M(traffic_class); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ah_attr, ib_uverbs_ah_attr);
		MT(grh, struct ovb_global_route, struct ib_uverbs_global_route);
		M(dlid); M(sl); M(src_path_bits); M(static_rate); M(is_global);
		M(port_num); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_qp_attr, ib_uverbs_qp_attr);
		M(qp_attr_mask); M(qp_state); M(cur_qp_state); M(path_mtu);
		M(path_mig_state); M(qkey); M(rq_psn); M(sq_psn);
		M(dest_qp_num); M(qp_access_flags);
		MT(ah_attr, struct ovb_ah_attr, struct ib_uverbs_ah_attr);
		MT(alt_ah_attr, struct ovb_ah_attr, struct ib_uverbs_ah_attr);
		M(max_send_wr); M(max_recv_wr); M(max_send_sge);
		M(max_recv_sge); M(max_inline_data); M(pkey_index);
		M(alt_pkey_index); M(en_sqd_async_notify); M(sq_draining);
		M(max_rd_atomic); M(max_dest_rd_atomic); M(min_rnr_timer);
		M(port_num); M(timeout); M(retry_cnt); M(rnr_retry);
		M(alt_port_num); M(alt_timeout); A(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_qp_req, ib_uverbs_create_qp);
		M(response); M(user_handle); M(pd_handle); M(send_cq_handle);
		M(recv_cq_handle); M(srq_handle); M(max_send_wr);
		M(max_recv_wr); M(max_send_sge); M(max_recv_sge);
		M(max_inline_data); M(sq_sig_all); M(qp_type); M(is_srq);
		M(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_qp_req, ib_uverbs_ex_create_qp);
		M(user_handle); M(pd_handle); M(send_cq_handle);
		M(recv_cq_handle); M(srq_handle); M(max_send_wr);
		M(max_recv_wr); M(max_send_sge); M(max_recv_sge);
		M(max_inline_data); M(sq_sig_all); M(qp_type); M(is_srq);
		M(reserved); M(comp_mask); M(create_flags);
		M(rwq_ind_tbl_handle); M(source_qpn);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_open_qp_req, ib_uverbs_open_qp);
		M(response); M(user_handle); M(pd_handle); M(qpn); M(qp_type);
		A(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_qp_resp, ib_uverbs_create_qp_resp);
		M(qp_handle); M(qpn); M(max_send_wr); M(max_recv_wr);
		M(max_send_sge); M(max_recv_sge); M(max_inline_data);
		M(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_qp_resp, ib_uverbs_ex_create_qp_resp);
		MT(base,
		   struct ovb_create_qp_resp, struct ib_uverbs_create_qp_resp);
		M(comp_mask); M(response_length);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_qp_dest, ib_uverbs_qp_dest);
		A(dgid); M(flow_label); M(dlid); M(reserved); M(sgid_index);
		M(hop_limit); M(traffic_class); M(sl); M(src_path_bits);
		M(static_rate); M(is_global); M(port_num);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_qp_req, ib_uverbs_query_qp);
		M(response); M(qp_handle); M(attr_mask); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_qp_resp, ib_uverbs_query_qp_resp);
		MT(dest, struct ovb_qp_dest, struct ib_uverbs_qp_dest);
		MT(alt_dest, struct ovb_qp_dest, struct ib_uverbs_qp_dest);
		M(max_send_wr); M(max_recv_wr); M(max_send_sge);
		M(max_recv_sge); M(max_inline_data); M(qkey); M(rq_psn);
		M(sq_psn); M(dest_qp_num); M(qp_access_flags); M(pkey_index);
		M(alt_pkey_index); M(qp_state); M(cur_qp_state); M(path_mtu);
		M(path_mig_state); M(sq_draining); M(max_rd_atomic);
		M(max_dest_rd_atomic); M(min_rnr_timer); M(port_num);
		M(timeout); M(retry_cnt); M(rnr_retry); M(alt_port_num);
		M(alt_timeout); M(sq_sig_all); A(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_modify_qp_req, ib_uverbs_modify_qp);
		MT(dest, struct ovb_qp_dest, struct ib_uverbs_qp_dest);
		MT(alt_dest, struct ovb_qp_dest, struct ib_uverbs_qp_dest);
		M(qp_handle); M(attr_mask); M(qkey); M(rq_psn); M(sq_psn);
		M(dest_qp_num); M(qp_access_flags); M(pkey_index);
		M(alt_pkey_index); M(qp_state); M(cur_qp_state); M(path_mtu);
		M(path_mig_state); M(en_sqd_async_notify); M(max_rd_atomic);
		M(max_dest_rd_atomic); M(min_rnr_timer); M(port_num);
		M(timeout); M(retry_cnt); M(rnr_retry); M(alt_port_num);
		M(alt_timeout); A(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_modify_qp_req, ib_uverbs_ex_modify_qp);
		MT(base, struct ovb_modify_qp_req, struct ib_uverbs_modify_qp);
		M(rate_limit); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_modify_qp_resp, ib_uverbs_ex_modify_qp_resp);
		M(comp_mask); M(response_length);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_qp_req, ib_uverbs_destroy_qp);
		M(response); M(qp_handle); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_qp_resp, ib_uverbs_destroy_qp_resp);
		M(events_reported);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_sge, ib_uverbs_sge);
		M(addr); M(length); M(lkey);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_send_wr, ib_uverbs_send_wr);
		M(wr_id); M(num_sge); M(opcode); M(send_flags); U(ex);
		M(ex.imm_data); M(ex.invalidate_rkey); U(wr); U(wr.rdma);
		M(wr.rdma.remote_addr); M(wr.rdma.rkey); M(wr.rdma.reserved);
		U(wr.atomic); M(wr.atomic.remote_addr);
		M(wr.atomic.compare_add); M(wr.atomic.swap); M(wr.atomic.rkey);
		M(wr.atomic.reserved); U(wr.ud); M(wr.ud.ah);
		M(wr.ud.remote_qpn); M(wr.ud.remote_qkey); M(wr.ud.reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_post_send_req, ib_uverbs_post_send);
		M(response); M(qp_handle); M(wr_count); M(sge_count);
		M(wqe_size);
		FLEXT(send_wr, struct ovb_send_wr, struct ib_uverbs_send_wr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_post_send_resp, ib_uverbs_post_send_resp);
		M(bad_wr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_recv_wr, ib_uverbs_recv_wr);
		M(wr_id); M(num_sge); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_post_recv_req, ib_uverbs_post_recv);
		M(response); M(qp_handle); M(wr_count); M(sge_count);
		M(wqe_size);
		FLEXT(recv_wr, struct ovb_recv_wr, struct ib_uverbs_recv_wr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_post_recv_resp, ib_uverbs_post_recv_resp);
		M(bad_wr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_post_srq_recv_req, ib_uverbs_post_srq_recv);
		M(response); M(srq_handle); M(wr_count); M(sge_count);
		M(wqe_size);
		FLEXT(recv, struct ovb_recv_wr, struct ib_uverbs_recv_wr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_post_srq_recv_resp,
		    ib_uverbs_post_srq_recv_resp);
		M(bad_wr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_ah_req, ib_uverbs_create_ah);
		M(response); M(user_handle); M(pd_handle); M(reserved);
		MT(attr, struct ovb_ah_attr, struct ib_uverbs_ah_attr);
		FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_ah_resp, ib_uverbs_create_ah_resp);
		M(ah_handle); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_ah_req, ib_uverbs_destroy_ah);
		M(ah_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_attach_mcast_req, ib_uverbs_attach_mcast);
		A(gid); M(qp_handle); M(mlid); M(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_detach_mcast_req, ib_uverbs_detach_mcast);
		A(gid); M(qp_handle); M(mlid); M(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_hdr, ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved); FLEX(flow_spec_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_eth_filter, ib_uverbs_flow_eth_filter);
		A(dst_mac); A(src_mac); M(ether_type); M(vlan_tag);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_eth, ib_uverbs_flow_spec_eth);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_eth_filter,
		   struct ib_uverbs_flow_eth_filter);
		MT(mask,
		   struct ovb_flow_eth_filter,
		   struct ib_uverbs_flow_eth_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_ipv4_filter, ib_uverbs_flow_ipv4_filter);
		M(src_ip); M(dst_ip); M(proto); M(tos); M(ttl); M(flags);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_ipv4, ib_uverbs_flow_spec_ipv4);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_ipv4_filter,
		   struct ib_uverbs_flow_ipv4_filter);
		MT(mask,
		   struct ovb_flow_ipv4_filter,
		   struct ib_uverbs_flow_ipv4_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_tcp_udp_filter,
		    ib_uverbs_flow_tcp_udp_filter);
		M(dst_port); M(src_port);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_tcp_udp, ib_uverbs_flow_spec_tcp_udp);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_tcp_udp_filter,
		   struct ib_uverbs_flow_tcp_udp_filter);
		MT(mask,
		   struct ovb_flow_tcp_udp_filter,
		   struct ib_uverbs_flow_tcp_udp_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_ipv6_filter, ib_uverbs_flow_ipv6_filter);
		A(src_ip); A(dst_ip); M(flow_label); M(next_hdr);
		M(traffic_class); M(hop_limit); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_ipv6, ib_uverbs_flow_spec_ipv6);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_ipv6_filter,
		   struct ib_uverbs_flow_ipv6_filter);
		MT(mask,
		   struct ovb_flow_ipv6_filter,
		   struct ib_uverbs_flow_ipv6_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_action_tag,
		    ib_uverbs_flow_spec_action_tag);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved); M(tag_id); M(reserved1);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_action_drop,
		    ib_uverbs_flow_spec_action_drop);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_action_handle,
		    ib_uverbs_flow_spec_action_handle);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved); M(handle); M(reserved1);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_action_count,
		    ib_uverbs_flow_spec_action_count);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved); M(handle); M(reserved1);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_tunnel_filter,
		    ib_uverbs_flow_tunnel_filter);
		M(tunnel_id);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_tunnel, ib_uverbs_flow_spec_tunnel);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_tunnel_filter,
		   struct ib_uverbs_flow_tunnel_filter);
		MT(mask,
		   struct ovb_flow_tunnel_filter,
		   struct ib_uverbs_flow_tunnel_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_esp_filter,
		    ib_uverbs_flow_spec_esp_filter);
		M(spi); M(seq);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_esp, ib_uverbs_flow_spec_esp);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_spec_esp_filter,
		   struct ib_uverbs_flow_spec_esp_filter);
		MT(mask,
		   struct ovb_flow_spec_esp_filter,
		   struct ib_uverbs_flow_spec_esp_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_gre_filter, ib_uverbs_flow_gre_filter);
		M(c_ks_res0_ver); M(protocol); M(key);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_gre, ib_uverbs_flow_spec_gre);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_gre_filter,
		   struct ib_uverbs_flow_gre_filter);
		MT(mask,
		   struct ovb_flow_gre_filter,
		   struct ib_uverbs_flow_gre_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_mpls_filter, ib_uverbs_flow_mpls_filter);
		M(label);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_spec_mpls, ib_uverbs_flow_spec_mpls);
		MT(hdr,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
		M(type); M(size); M(reserved);
		MT(val,
		   struct ovb_flow_mpls_filter,
		   struct ib_uverbs_flow_mpls_filter);
		MT(mask,
		   struct ovb_flow_mpls_filter,
		   struct ib_uverbs_flow_mpls_filter);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_attr, ib_uverbs_flow_attr);
		M(type); M(size); M(priority); M(num_of_specs); A(reserved);
		M(port); M(flags);
		FLEXT(flow_specs,
		   struct ovb_flow_spec_hdr, struct ib_uverbs_flow_spec_hdr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_flow_req, ib_uverbs_create_flow);
		M(comp_mask); M(qp_handle);
		MT(flow_attr, struct ovb_flow_attr, struct ib_uverbs_flow_attr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_flow_resp, ib_uverbs_create_flow_resp);
		M(comp_mask); M(flow_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_flow_req, ib_uverbs_destroy_flow);
		M(comp_mask); M(flow_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_srq_req, ib_uverbs_create_srq);
		M(response); M(user_handle); M(pd_handle); M(max_wr);
		M(max_sge); M(srq_limit); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_xsrq_req, ib_uverbs_create_xsrq);
		M(response); M(user_handle); M(srq_type); M(pd_handle);
		M(max_wr); M(max_sge); M(srq_limit); M(max_num_tags);
		M(xrcd_handle); M(cq_handle); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_create_srq_resp, ib_uverbs_create_srq_resp);
		M(srq_handle); M(max_wr); M(max_sge); M(srqn);
		FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_modify_srq_req, ib_uverbs_modify_srq);
		M(srq_handle); M(attr_mask); M(max_wr); M(srq_limit);
		FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_srq_req, ib_uverbs_query_srq);
		M(response); M(srq_handle); M(reserved); FLEX(driver_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_srq_resp, ib_uverbs_query_srq_resp);
		M(max_wr); M(max_sge); M(srq_limit); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_srq_req, ib_uverbs_destroy_srq);
		M(response); M(srq_handle); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_destroy_srq_resp, ib_uverbs_destroy_srq_resp);
		M(events_reported);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_wq_req, ib_uverbs_ex_create_wq);
		M(comp_mask); M(wq_type); M(user_handle); M(pd_handle);
		M(cq_handle); M(max_wr); M(max_sge); M(create_flags);
		M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_wq_resp, ib_uverbs_ex_create_wq_resp);
		M(comp_mask); M(response_length); M(wq_handle); M(max_wr);
		M(max_sge); M(wqn);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_destroy_wq_req, ib_uverbs_ex_destroy_wq);
		M(comp_mask); M(wq_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_destroy_wq_resp,
		    ib_uverbs_ex_destroy_wq_resp);
		M(comp_mask); M(response_length); M(events_reported);
		M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_modify_wq_req, ib_uverbs_ex_modify_wq);
		M(attr_mask); M(wq_handle); M(wq_state); M(curr_wq_state);
		M(flags); M(flags_mask);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_rwq_ind_table_req,
		    ib_uverbs_ex_create_rwq_ind_table);
		M(comp_mask); M(log_ind_tbl_size); FLEX(wq_handles);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_create_rwq_ind_table_resp,
		    ib_uverbs_ex_create_rwq_ind_table_resp);
		M(comp_mask); M(response_length); M(ind_tbl_handle);
		M(ind_tbl_num);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_destroy_rwq_ind_table_req,
		    ib_uverbs_ex_destroy_rwq_ind_table);
		M(comp_mask); M(ind_tbl_handle);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_cq_moderation, ib_uverbs_cq_moderation);
		M(cq_count); M(cq_period);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ex_modify_cq_req, ib_uverbs_ex_modify_cq);
		M(cq_handle); M(attr_mask);
		MT(attr,
		   struct ovb_cq_moderation, struct ib_uverbs_cq_moderation);
		M(reserved);
	END_GROUP();

	/* ---- rdma_rxe: <rdma/rdma_user_rxe.h> */

	BEGIN_GROUP(union, ovb_rxe_gid, rxe_gid);
		A(raw); U(global); M(global.subnet_prefix);
		M(global.interface_id);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_global_route, rxe_global_route);
		MT(dgid, union ovb_rxe_gid, union rxe_gid);
		M(flow_label); M(sgid_index); M(hop_limit); M(traffic_class);
	END_GROUP();

	/*
	 * rxe_av holds the kernel's socket addresses; ours spells them out
	 * (see rxe-abi.h), so compare those types too.  The address
	 * union is unnamed upstream and union ovb_rxe_sockaddr in ours.
	 */
	BEGIN_GROUP(struct, ovb_rxe_sockaddr_in, sockaddr_in);
		M(sin_family); M(sin_port); MAS(sin_addr, sin_addr);
		MAS(pad, __pad);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_sockaddr_in6, sockaddr_in6);
		M(sin6_family); M(sin6_port); M(sin6_flowinfo);
		MAS(sin6_addr, sin6_addr); M(sin6_scope_id);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_av, rxe_av);
		M(port_num); M(network_type); A(dmac);
		MT(grh, struct ovb_rxe_global_route, struct rxe_global_route);
		UO(sgid_addr, union ovb_rxe_sockaddr);
		MT(sgid_addr._sockaddr_in,
		   struct ovb_rxe_sockaddr_in, struct sockaddr_in);
		MT(sgid_addr._sockaddr_in6,
		   struct ovb_rxe_sockaddr_in6, struct sockaddr_in6);
		UO(dgid_addr, union ovb_rxe_sockaddr);
		MT(dgid_addr._sockaddr_in,
		   struct ovb_rxe_sockaddr_in, struct sockaddr_in);
		MT(dgid_addr._sockaddr_in6,
		   struct ovb_rxe_sockaddr_in6, struct sockaddr_in6);
	END_GROUP();

	/*
	 * Built inside the kernel, upstream's rxe_send_wr has one more union
	 * member, wr.reg (16 bytes), which userspace never sees: smaller than
	 * wr.ud, it changes no offset or size (a kernel-side build of both
	 * headers agrees).
	 */
	BEGIN_GROUP(struct, ovb_rxe_send_wr, rxe_send_wr);
		M(wr_id); M(reserved); M(opcode); M(send_flags); U(ex);
		M(ex.imm_data); M(ex.invalidate_rkey); U(wr);
#if OVB_REF_SINCE(6, 2)
		U(wr.flush); M(wr.flush.remote_addr); M(wr.flush.length);
		M(wr.flush.rkey); M(wr.flush.type); M(wr.flush.level);
#else
		INSIDE(wr.flush, wr);
#endif
		U(wr.rdma);
		M(wr.rdma.remote_addr); M(wr.rdma.rkey); M(wr.rdma.reserved);
		U(wr.atomic); M(wr.atomic.remote_addr);
		M(wr.atomic.compare_add); M(wr.atomic.swap); M(wr.atomic.rkey);
		M(wr.atomic.reserved); U(wr.ud); M(wr.ud.remote_qpn);
		M(wr.ud.remote_qkey); M(wr.ud.pkey_index); M(wr.ud.reserved);
		M(wr.ud.ah_num); A(wr.ud.pad);
		MT(wr.ud.av, struct ovb_rxe_av, struct rxe_av);
		U(wr.mw); M(wr.mw.addr); M(wr.mw.length); M(wr.mw.mr_lkey);
		M(wr.mw.mw_rkey); M(wr.mw.rkey); M(wr.mw.access);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_sge, rxe_sge);
		M(addr); M(length); M(lkey);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_mmap_info, mminfo);
		M(offset); M(size); M(pad);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_dma_info, rxe_dma_info);
		M(length); M(resid); M(cur_sge); M(num_sge); M(sge_offset);
		M(reserved); FLEX(inline_data);
#if OVB_REF_SINCE(6, 2)
		FLEX(atomic_wr);
#else
		FLEX_AT(atomic_wr, inline_data);
#endif
		FLEXT(sge, struct ovb_rxe_sge, struct rxe_sge);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_send_wqe, rxe_send_wqe);
		MT(wr, struct ovb_rxe_send_wr, struct rxe_send_wr);
		M(status); M(state); M(iova); M(mask); M(first_psn);
		M(last_psn); M(ack_length); M(ssn); M(has_rd_atomic);
		MT(dma, struct ovb_rxe_dma_info, struct rxe_dma_info);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_recv_wqe, rxe_recv_wqe);
		M(wr_id); M(reserved); M(padding);
		MT(dma, struct ovb_rxe_dma_info, struct rxe_dma_info);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_create_ah_resp, rxe_create_ah_resp);
		M(ah_num); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_create_cq_resp, rxe_create_cq_resp);
		MT(mi, struct ovb_rxe_mmap_info, struct mminfo);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_resize_cq_resp, rxe_resize_cq_resp);
		MT(mi, struct ovb_rxe_mmap_info, struct mminfo);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_create_qp_resp, rxe_create_qp_resp);
		MT(rq_mi, struct ovb_rxe_mmap_info, struct mminfo);
		MT(sq_mi, struct ovb_rxe_mmap_info, struct mminfo);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_create_srq_resp, rxe_create_srq_resp);
		MT(mi, struct ovb_rxe_mmap_info, struct mminfo);
		M(srq_num); M(reserved);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_modify_srq_req, rxe_modify_srq_cmd);
		M(mmap_info_addr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_rxe_queue_buf, rxe_queue_buf);
		M(log2_elem_size); M(index_mask); A(pad_1); M(producer_index);
		A(pad_2); M(consumer_index); A(pad_3); FLEX(data);
	END_GROUP();

	/* ---- siw: <rdma/siw-abi.h> (the same in 6.1 and 6.12) */

	BEGIN_GROUP(struct, ovb_siw_uresp_create_cq, siw_uresp_create_cq);
		M(cq_id); M(num_cqe); M(cq_key);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_uresp_create_qp, siw_uresp_create_qp);
		M(qp_id); M(num_sqe); M(num_rqe); M(pad); M(sq_key);
		M(rq_key);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_ureq_reg_mr, siw_ureq_reg_mr);
		M(stag_key); A(reserved); M(pad);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_uresp_reg_mr, siw_uresp_reg_mr);
		M(stag); M(pad);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_uresp_create_srq, siw_uresp_create_srq);
		M(num_rqe); M(pad); M(srq_key);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_uresp_alloc_ctx, siw_uresp_alloc_ctx);
		M(dev_id); M(pad);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_sge, siw_sge);
		M(laddr); M(length); M(lkey);
	END_GROUP();

	/* sge: arrays of the two sge types, which their own group compares */
	BEGIN_GROUP(struct, ovb_siw_sqe, siw_sqe);
		M(id); M(flags); M(num_sge); M(opcode); M(rkey); M(raddr);
		M(base_mr); MAS(sge, sge); M(access);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_rqe, siw_rqe);
		M(id); M(flags); M(num_sge); M(opcode); M(unused);
		MAS(sge, sge);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_cqe, siw_cqe);
		M(id); M(flags); M(opcode); M(status); M(bytes); M(imm_data);
		M(inval_stag); KPTR(qp_id, base_qp); M(qp_id);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_siw_cq_ctrl, siw_cq_ctrl);
		M(flags); M(pad);
	END_GROUP();

	/* ---- the uverbs ioctl() ABI: <rdma/rdma_user_ioctl_cmds.h> and
	 * <rdma/ib_user_ioctl_verbs.h>, in their order */

	BEGIN_GROUP(struct, ovb_ioctl_attr, ib_uverbs_attr);
		M(attr_id); M(len); M(flags); U(attr_data);
		U(attr_data.enum_data); M(attr_data.enum_data.elem_id);
		M(attr_data.enum_data.reserved); M(attr_data.reserved);
		M(data); M(data_s64);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_ioctl_hdr, ib_uverbs_ioctl_hdr);
		M(length); M(object_id); M(method_id); M(num_attrs);
		M(reserved1); M(driver_id); M(reserved2);
		FLEXT(attrs, struct ovb_ioctl_attr, struct ib_uverbs_attr);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_action_esp_keymat_aes_gcm,
		    ib_uverbs_flow_action_esp_keymat_aes_gcm);
		M(iv); M(iv_algo); M(salt); M(icv_len); M(key_len); A(aes_key);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_action_esp_replay_bmp,
		    ib_uverbs_flow_action_esp_replay_bmp);
		M(size);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_action_esp_encap,
		    ib_uverbs_flow_action_esp_encap);
		M(val_ptr); M(next_ptr); M(len); M(type);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_flow_action_esp, ib_uverbs_flow_action_esp);
		M(spi); M(seq); M(tfc_pad); M(flags); M(hard_limit_pkts);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_query_port_resp_ex,
		    ib_uverbs_query_port_resp_ex);
		MT(legacy_resp,
		   struct ovb_query_port_resp,
		   struct ib_uverbs_query_port_resp);
		M(port_cap_flags2);
#if OVB_REF_SINCE(6, 7)
		A(reserved); M(active_speed_ex);
#else
		SPLIT(reserved, reserved, active_speed_ex);
#endif
	END_GROUP();

	BEGIN_GROUP(struct, ovb_qp_cap, ib_uverbs_qp_cap);
		M(max_send_wr); M(max_recv_wr); M(max_send_sge);
		M(max_recv_sge); M(max_inline_data);
	END_GROUP();

	BEGIN_GROUP(struct, ovb_gid_entry, ib_uverbs_gid_entry);
		A(gid); M(gid_index); M(port_num); M(gid_type);
		M(netdev_ifindex);
	END_GROUP();
}

static void enums(void)
{
	/* every named enum: the write() ABI's, then the ioctl() ABI's */
	ENUM(ovb_write_cmd, ib_uverbs_write_cmds);
	ENUM(ovb_ex_create_cq_flags, ib_uverbs_ex_create_cq_flags);
#if OVB_REF_SINCE(6, 2)
	ENUM(ovb_placement_type, ib_placement_type);
	ENUM(ovb_selectivity_level, ib_selectivity_level);
#endif
	ENUM(ovb_wc_opcode, ib_uverbs_wc_opcode);
	ENUM(ovb_create_qp_mask, ib_uverbs_create_qp_mask);
	ENUM(ovb_wr_opcode, ib_uverbs_wr_opcode);
	ENUM(ovb_device_cap_flags, ib_uverbs_device_cap_flags);
	ENUM(ovb_raw_packet_caps, ib_uverbs_raw_packet_caps);
	ENUM(ovb_default_objects, uverbs_default_objects);
	ENUM(ovb_methods_device, uverbs_methods_device);
	ENUM(ovb_attrs_invoke_write_cmd_attr_ids,
	     uverbs_attrs_invoke_write_cmd_attr_ids);
	ENUM(ovb_attrs_info_handles_id, uverbs_attrs_info_handles_id);
	ENUM(ovb_attrs_query_port_cmd_attr_ids,
	     uverbs_attrs_query_port_cmd_attr_ids);
	ENUM(ovb_attrs_get_context_attr_ids, uverbs_attrs_get_context_attr_ids);
	ENUM(ovb_attrs_query_context_attr_ids,
	     uverbs_attrs_query_context_attr_ids);
	ENUM(ovb_attrs_query_gid_table_cmd_attr_ids,
	     uverbs_attrs_query_gid_table_cmd_attr_ids);
	ENUM(ovb_attrs_query_gid_entry_cmd_attr_ids,
	     uverbs_attrs_query_gid_entry_cmd_attr_ids);
	ENUM(ovb_method_async_event, uverbs_method_async_event);
	ENUM(ovb_attrs_async_event_create, uverbs_attrs_async_event_create);
	ENUM(ovb_methods_pd, uverbs_methods_pd);
	ENUM(ovb_attrs_pd_destroy_ids, uverbs_attrs_pd_destroy_ids);
	ENUM(ovb_methods_cq, uverbs_methods_cq);
	ENUM(ovb_attrs_create_cq_cmd_attr_ids,
	     uverbs_attrs_create_cq_cmd_attr_ids);
	ENUM(ovb_attrs_destroy_cq_cmd_attr_ids,
	     uverbs_attrs_destroy_cq_cmd_attr_ids);
	ENUM(ovb_methods_qp, uverbs_methods_qp);
	ENUM(ovb_attrs_create_qp_cmd_attr_ids,
	     uverbs_attrs_create_qp_cmd_attr_ids);
	ENUM(ovb_attrs_destroy_qp_cmd_attr_ids,
	     uverbs_attrs_destroy_qp_cmd_attr_ids);
	ENUM(ovb_methods_srq, uverbs_methods_srq);
	ENUM(ovb_attrs_create_srq_cmd_attr_ids,
	     uverbs_attrs_create_srq_cmd_attr_ids);
	ENUM(ovb_attrs_destroy_srq_cmd_attr_ids,
	     uverbs_attrs_destroy_srq_cmd_attr_ids);
	ENUM(ovb_methods_wq, uverbs_methods_wq);
	ENUM(ovb_attrs_create_wq_cmd_attr_ids,
	     uverbs_attrs_create_wq_cmd_attr_ids);
	ENUM(ovb_attrs_destroy_wq_cmd_attr_ids,
	     uverbs_attrs_destroy_wq_cmd_attr_ids);
	ENUM(ovb_methods_rwq_ind_tbl, uverbs_methods_rwq_ind_tbl);
	ENUM(ovb_attrs_rwq_ind_tbl_destroy_ids,
	     uverbs_attrs_rwq_ind_tbl_destroy_ids);
	ENUM(ovb_methods_ah, uverbs_methods_ah);
	ENUM(ovb_attrs_ah_destroy_ids, uverbs_attrs_ah_destroy_ids);
	ENUM(ovb_methods_mr, uverbs_methods_mr);
	ENUM(ovb_attrs_reg_dm_mr_cmd_attr_ids,
	     uverbs_attrs_reg_dm_mr_cmd_attr_ids);
	ENUM(ovb_attrs_mr_destroy_ids, uverbs_attrs_mr_destroy_ids);
	ENUM(ovb_attrs_advise_mr_cmd_attr_ids,
	     uverbs_attrs_advise_mr_cmd_attr_ids);
	ENUM(ovb_attrs_query_mr_cmd_attr_ids,
	     uverbs_attrs_query_mr_cmd_attr_ids);
	ENUM(ovb_attrs_reg_dmabuf_mr_cmd_attr_ids,
	     uverbs_attrs_reg_dmabuf_mr_cmd_attr_ids);
	ENUM(ovb_methods_mw, uverbs_methods_mw);
	ENUM(ovb_attrs_mw_destroy_ids, uverbs_attrs_mw_destroy_ids);
	ENUM(ovb_methods_xrcd, uverbs_methods_xrcd);
	ENUM(ovb_attrs_xrcd_destroy_ids, uverbs_attrs_xrcd_destroy_ids);
	ENUM(ovb_methods_dm, uverbs_methods_dm);
	ENUM(ovb_attrs_alloc_dm_cmd_attr_ids,
	     uverbs_attrs_alloc_dm_cmd_attr_ids);
	ENUM(ovb_attrs_free_dm_cmd_attr_ids, uverbs_attrs_free_dm_cmd_attr_ids);
	ENUM(ovb_methods_flow, uverbs_methods_flow);
	ENUM(ovb_attrs_flow_destroy_ids, uverbs_attrs_flow_destroy_ids);
	ENUM(ovb_methods_actions_flow_action_ops,
	     uverbs_methods_actions_flow_action_ops);
	ENUM(ovb_attrs_create_flow_action_esp,
	     uverbs_attrs_create_flow_action_esp);
	ENUM(ovb_attrs_modify_flow_action_esp,
	     uverbs_attrs_modify_flow_action_esp);
	ENUM(ovb_attrs_destroy_flow_action_esp,
	     uverbs_attrs_destroy_flow_action_esp);
	ENUM(ovb_methods_actions_counters_ops,
	     uverbs_methods_actions_counters_ops);
	ENUM(ovb_attrs_create_counters_cmd_attr_ids,
	     uverbs_attrs_create_counters_cmd_attr_ids);
	ENUM(ovb_attrs_destroy_counters_cmd_attr_ids,
	     uverbs_attrs_destroy_counters_cmd_attr_ids);
	ENUM(ovb_attrs_read_counters_cmd_attr_ids,
	     uverbs_attrs_read_counters_cmd_attr_ids);
	ENUM(ovb_core_support, ib_uverbs_core_support);
	ENUM(ovb_access_flags, ib_uverbs_access_flags);
	ENUM(ovb_srq_type, ib_uverbs_srq_type);
	ENUM(ovb_wq_type, ib_uverbs_wq_type);
	ENUM(ovb_wq_flags, ib_uverbs_wq_flags);
	ENUM(ovb_qp_type, ib_uverbs_qp_type);
	ENUM(ovb_qp_create_flags, ib_uverbs_qp_create_flags);
	ENUM(ovb_query_port_cap_flags, ib_uverbs_query_port_cap_flags);
	ENUM(ovb_query_port_flags, ib_uverbs_query_port_flags);
	ENUM(ovb_gid_type, ib_uverbs_gid_type);
	ENUM(ovb_read_counters_flags, ib_uverbs_read_counters_flags);
	ENUM(ovb_advise_mr_advice, ib_uverbs_advise_mr_advice);
	ENUM(ovb_advise_mr_flag, ib_uverbs_advise_mr_flag);
	ENUM(ovb_flow_action_esp_keymat, ib_uverbs_flow_action_esp_keymat);
	ENUM(ovb_flow_action_esp_keymat_aes_gcm_iv_algo,
	     ib_uverbs_flow_action_esp_keymat_aes_gcm_iv_algo);
	ENUM(ovb_flow_action_esp_replay, ib_uverbs_flow_action_esp_replay);
	ENUM(ovb_flow_action_esp_flags, ib_uverbs_flow_action_esp_flags);
	ENUM(ovb_driver_id, rdma_driver_id);
}

static void constants(void)
{
	/* every enumerator and value #define, in the headers' order */
	K(OVB_UVERBS_ABI_VERSION, IB_USER_VERBS_ABI_VERSION);
	K(OVB_CMD_EX_FIRST_NEW_ID, IB_USER_VERBS_CMD_THRESHOLD);
	K(OVB_CMD_ID_MASK, IB_USER_VERBS_CMD_COMMAND_MASK);
	K(OVB_CMD_FLAG_EXTENDED, IB_USER_VERBS_CMD_FLAG_EXTENDED);
	K(OVB_MAX_LOG_IND_TBL_SIZE, IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE);
	K(OVB_DEVICE_NAME_MAX, IB_DEVICE_NAME_MAX);
	K(OVB_CMD_GET_CONTEXT, IB_USER_VERBS_CMD_GET_CONTEXT);
	K(OVB_CMD_QUERY_DEVICE, IB_USER_VERBS_CMD_QUERY_DEVICE);
	K(OVB_CMD_QUERY_PORT, IB_USER_VERBS_CMD_QUERY_PORT);
	K(OVB_CMD_ALLOC_PD, IB_USER_VERBS_CMD_ALLOC_PD);
	K(OVB_CMD_DEALLOC_PD, IB_USER_VERBS_CMD_DEALLOC_PD);
	K(OVB_CMD_CREATE_AH, IB_USER_VERBS_CMD_CREATE_AH);
	K(OVB_CMD_MODIFY_AH, IB_USER_VERBS_CMD_MODIFY_AH);
	K(OVB_CMD_QUERY_AH, IB_USER_VERBS_CMD_QUERY_AH);
	K(OVB_CMD_DESTROY_AH, IB_USER_VERBS_CMD_DESTROY_AH);
	K(OVB_CMD_REG_MR, IB_USER_VERBS_CMD_REG_MR);
	K(OVB_CMD_REG_SMR, IB_USER_VERBS_CMD_REG_SMR);
	K(OVB_CMD_REREG_MR, IB_USER_VERBS_CMD_REREG_MR);
	K(OVB_CMD_QUERY_MR, IB_USER_VERBS_CMD_QUERY_MR);
	K(OVB_CMD_DEREG_MR, IB_USER_VERBS_CMD_DEREG_MR);
	K(OVB_CMD_ALLOC_MW, IB_USER_VERBS_CMD_ALLOC_MW);
	K(OVB_CMD_BIND_MW, IB_USER_VERBS_CMD_BIND_MW);
	K(OVB_CMD_DEALLOC_MW, IB_USER_VERBS_CMD_DEALLOC_MW);
	K(OVB_CMD_CREATE_COMP_CHANNEL, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL);
	K(OVB_CMD_CREATE_CQ, IB_USER_VERBS_CMD_CREATE_CQ);
	K(OVB_CMD_RESIZE_CQ, IB_USER_VERBS_CMD_RESIZE_CQ);
	K(OVB_CMD_DESTROY_CQ, IB_USER_VERBS_CMD_DESTROY_CQ);
	K(OVB_CMD_POLL_CQ, IB_USER_VERBS_CMD_POLL_CQ);
	K(OVB_CMD_PEEK_CQ, IB_USER_VERBS_CMD_PEEK_CQ);
	K(OVB_CMD_REQ_NOTIFY_CQ, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	K(OVB_CMD_CREATE_QP, IB_USER_VERBS_CMD_CREATE_QP);
	K(OVB_CMD_QUERY_QP, IB_USER_VERBS_CMD_QUERY_QP);
	K(OVB_CMD_MODIFY_QP, IB_USER_VERBS_CMD_MODIFY_QP);
	K(OVB_CMD_DESTROY_QP, IB_USER_VERBS_CMD_DESTROY_QP);
	K(OVB_CMD_POST_SEND, IB_USER_VERBS_CMD_POST_SEND);
	K(OVB_CMD_POST_RECV, IB_USER_VERBS_CMD_POST_RECV);
	K(OVB_CMD_ATTACH_MCAST, IB_USER_VERBS_CMD_ATTACH_MCAST);
	K(OVB_CMD_DETACH_MCAST, IB_USER_VERBS_CMD_DETACH_MCAST);
	K(OVB_CMD_CREATE_SRQ, IB_USER_VERBS_CMD_CREATE_SRQ);
	K(OVB_CMD_MODIFY_SRQ, IB_USER_VERBS_CMD_MODIFY_SRQ);
	K(OVB_CMD_QUERY_SRQ, IB_USER_VERBS_CMD_QUERY_SRQ);
	K(OVB_CMD_DESTROY_SRQ, IB_USER_VERBS_CMD_DESTROY_SRQ);
	K(OVB_CMD_POST_SRQ_RECV, IB_USER_VERBS_CMD_POST_SRQ_RECV);
	K(OVB_CMD_OPEN_XRCD, IB_USER_VERBS_CMD_OPEN_XRCD);
	K(OVB_CMD_CLOSE_XRCD, IB_USER_VERBS_CMD_CLOSE_XRCD);
	K(OVB_CMD_CREATE_XSRQ, IB_USER_VERBS_CMD_CREATE_XSRQ);
	K(OVB_CMD_OPEN_QP, IB_USER_VERBS_CMD_OPEN_QP);
	K(OVB_EX_CMD_QUERY_DEVICE, IB_USER_VERBS_EX_CMD_QUERY_DEVICE);
	K(OVB_EX_CMD_CREATE_CQ, IB_USER_VERBS_EX_CMD_CREATE_CQ);
	K(OVB_EX_CMD_CREATE_QP, IB_USER_VERBS_EX_CMD_CREATE_QP);
	K(OVB_EX_CMD_MODIFY_QP, IB_USER_VERBS_EX_CMD_MODIFY_QP);
	K(OVB_EX_CMD_CREATE_FLOW, IB_USER_VERBS_EX_CMD_CREATE_FLOW);
	K(OVB_EX_CMD_DESTROY_FLOW, IB_USER_VERBS_EX_CMD_DESTROY_FLOW);
	K(OVB_EX_CMD_CREATE_WQ, IB_USER_VERBS_EX_CMD_CREATE_WQ);
	K(OVB_EX_CMD_MODIFY_WQ, IB_USER_VERBS_EX_CMD_MODIFY_WQ);
	K(OVB_EX_CMD_DESTROY_WQ, IB_USER_VERBS_EX_CMD_DESTROY_WQ);
	K(OVB_EX_CMD_CREATE_RWQ_IND_TBL,
	  IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL);
	K(OVB_EX_CMD_DESTROY_RWQ_IND_TBL,
	  IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL);
	K(OVB_EX_CMD_MODIFY_CQ, IB_USER_VERBS_EX_CMD_MODIFY_CQ);
#if OVB_REF_SINCE(6, 2)
	K(OVB_FLUSH_GLOBAL, IB_FLUSH_GLOBAL);
	K(OVB_FLUSH_PERSISTENT, IB_FLUSH_PERSISTENT);
	K(OVB_FLUSH_RANGE, IB_FLUSH_RANGE);
	K(OVB_FLUSH_MR, IB_FLUSH_MR);
#endif
	K(OVB_CREATE_CQ_FLAG_TIMESTAMP_COMPLETION,
	  IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION);
	K(OVB_CREATE_CQ_FLAG_IGNORE_OVERRUN, IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	K(OVB_WC_SEND, IB_UVERBS_WC_SEND);
	K(OVB_WC_RDMA_WRITE, IB_UVERBS_WC_RDMA_WRITE);
	K(OVB_WC_RDMA_READ, IB_UVERBS_WC_RDMA_READ);
	K(OVB_WC_COMP_SWAP, IB_UVERBS_WC_COMP_SWAP);
	K(OVB_WC_FETCH_ADD, IB_UVERBS_WC_FETCH_ADD);
	K(OVB_WC_BIND_MW, IB_UVERBS_WC_BIND_MW);
	K(OVB_WC_LOCAL_INV, IB_UVERBS_WC_LOCAL_INV);
	K(OVB_WC_TSO, IB_UVERBS_WC_TSO);
#if OVB_REF_SINCE(6, 2)
	K(OVB_WC_FLUSH, IB_UVERBS_WC_FLUSH);
	K(OVB_WC_ATOMIC_WRITE, IB_UVERBS_WC_ATOMIC_WRITE);
#endif
	K(OVB_CREATE_QP_MASK_IND_TABLE, IB_UVERBS_CREATE_QP_MASK_IND_TABLE);
	K(OVB_CREATE_QP_SUP_COMP_MASK, IB_UVERBS_CREATE_QP_SUP_COMP_MASK);
	K(OVB_WR_RDMA_WRITE, IB_UVERBS_WR_RDMA_WRITE);
	K(OVB_WR_RDMA_WRITE_WITH_IMM, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM);
	K(OVB_WR_SEND, IB_UVERBS_WR_SEND);
	K(OVB_WR_SEND_WITH_IMM, IB_UVERBS_WR_SEND_WITH_IMM);
	K(OVB_WR_RDMA_READ, IB_UVERBS_WR_RDMA_READ);
	K(OVB_WR_ATOMIC_CMP_AND_SWP, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP);
	K(OVB_WR_ATOMIC_FETCH_AND_ADD, IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD);
	K(OVB_WR_LOCAL_INV, IB_UVERBS_WR_LOCAL_INV);
	K(OVB_WR_BIND_MW, IB_UVERBS_WR_BIND_MW);
	K(OVB_WR_SEND_WITH_INV, IB_UVERBS_WR_SEND_WITH_INV);
	K(OVB_WR_TSO, IB_UVERBS_WR_TSO);
	K(OVB_WR_RDMA_READ_WITH_INV, IB_UVERBS_WR_RDMA_READ_WITH_INV);
	K(OVB_WR_MASKED_ATOMIC_CMP_AND_SWP,
	  IB_UVERBS_WR_MASKED_ATOMIC_CMP_AND_SWP);
	K(OVB_WR_MASKED_ATOMIC_FETCH_AND_ADD,
	  IB_UVERBS_WR_MASKED_ATOMIC_FETCH_AND_ADD);
#if OVB_REF_SINCE(6, 2)
	K(OVB_WR_FLUSH, IB_UVERBS_WR_FLUSH);
	K(OVB_WR_ATOMIC_WRITE, IB_UVERBS_WR_ATOMIC_WRITE);
#endif
	K(OVB_DEVICE_RESIZE_MAX_WR, IB_UVERBS_DEVICE_RESIZE_MAX_WR);
	K(OVB_DEVICE_BAD_PKEY_CNTR, IB_UVERBS_DEVICE_BAD_PKEY_CNTR);
	K(OVB_DEVICE_BAD_QKEY_CNTR, IB_UVERBS_DEVICE_BAD_QKEY_CNTR);
	K(OVB_DEVICE_RAW_MULTI, IB_UVERBS_DEVICE_RAW_MULTI);
	K(OVB_DEVICE_AUTO_PATH_MIG, IB_UVERBS_DEVICE_AUTO_PATH_MIG);
	K(OVB_DEVICE_CHANGE_PHY_PORT, IB_UVERBS_DEVICE_CHANGE_PHY_PORT);
	K(OVB_DEVICE_UD_AV_PORT_ENFORCE, IB_UVERBS_DEVICE_UD_AV_PORT_ENFORCE);
	K(OVB_DEVICE_CURR_QP_STATE_MOD, IB_UVERBS_DEVICE_CURR_QP_STATE_MOD);
	K(OVB_DEVICE_SHUTDOWN_PORT, IB_UVERBS_DEVICE_SHUTDOWN_PORT);
	K(OVB_DEVICE_PORT_ACTIVE_EVENT, IB_UVERBS_DEVICE_PORT_ACTIVE_EVENT);
	K(OVB_DEVICE_SYS_IMAGE_GUID, IB_UVERBS_DEVICE_SYS_IMAGE_GUID);
	K(OVB_DEVICE_RC_RNR_NAK_GEN, IB_UVERBS_DEVICE_RC_RNR_NAK_GEN);
	K(OVB_DEVICE_SRQ_RESIZE, IB_UVERBS_DEVICE_SRQ_RESIZE);
	K(OVB_DEVICE_N_NOTIFY_CQ, IB_UVERBS_DEVICE_N_NOTIFY_CQ);
	K(OVB_DEVICE_MEM_WINDOW, IB_UVERBS_DEVICE_MEM_WINDOW);
	K(OVB_DEVICE_UD_IP_CSUM, IB_UVERBS_DEVICE_UD_IP_CSUM);
	K(OVB_DEVICE_XRC, IB_UVERBS_DEVICE_XRC);
	K(OVB_DEVICE_MEM_MGT_EXTENSIONS, IB_UVERBS_DEVICE_MEM_MGT_EXTENSIONS);
	K(OVB_DEVICE_MEM_WINDOW_TYPE_2A, IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2A);
	K(OVB_DEVICE_MEM_WINDOW_TYPE_2B, IB_UVERBS_DEVICE_MEM_WINDOW_TYPE_2B);
	K(OVB_DEVICE_RC_IP_CSUM, IB_UVERBS_DEVICE_RC_IP_CSUM);
	K(OVB_DEVICE_RAW_IP_CSUM, IB_UVERBS_DEVICE_RAW_IP_CSUM);
	K(OVB_DEVICE_MANAGED_FLOW_STEERING,
	  IB_UVERBS_DEVICE_MANAGED_FLOW_STEERING);
	K(OVB_DEVICE_RAW_SCATTER_FCS, IB_UVERBS_DEVICE_RAW_SCATTER_FCS);
	K(OVB_DEVICE_PCI_WRITE_END_PADDING,
	  IB_UVERBS_DEVICE_PCI_WRITE_END_PADDING);
#if OVB_REF_SINCE(6, 2)
	K(OVB_DEVICE_FLUSH_GLOBAL, IB_UVERBS_DEVICE_FLUSH_GLOBAL);
	K(OVB_DEVICE_FLUSH_PERSISTENT, IB_UVERBS_DEVICE_FLUSH_PERSISTENT);
	K(OVB_DEVICE_ATOMIC_WRITE, IB_UVERBS_DEVICE_ATOMIC_WRITE);
#endif
	K(OVB_RAW_PACKET_CAP_CVLAN_STRIPPING,
	  IB_UVERBS_RAW_PACKET_CAP_CVLAN_STRIPPING);
	K(OVB_RAW_PACKET_CAP_SCATTER_FCS, IB_UVERBS_RAW_PACKET_CAP_SCATTER_FCS);
	K(OVB_RAW_PACKET_CAP_IP_CSUM, IB_UVERBS_RAW_PACKET_CAP_IP_CSUM);
	K(OVB_RAW_PACKET_CAP_DELAY_DROP, IB_UVERBS_RAW_PACKET_CAP_DELAY_DROP);
	K(OVB_RXE_NETWORK_TYPE_IPV4, RXE_NETWORK_TYPE_IPV4);
	K(OVB_RXE_NETWORK_TYPE_IPV6, RXE_NETWORK_TYPE_IPV6);

	KSTR(OVB_SIW_NODE_DESC_COMMON, SIW_NODE_DESC_COMMON);
	K(OVB_SIW_ABI_VERSION, SIW_ABI_VERSION);
	K(OVB_SIW_MAX_SGE, SIW_MAX_SGE);
	K(OVB_SIW_UOBJ_MAX_KEY, SIW_UOBJ_MAX_KEY);
	K(OVB_SIW_INVAL_UOBJ_KEY, SIW_INVAL_UOBJ_KEY);
	K(OVB_SIW_MAX_INLINE, SIW_MAX_INLINE);
	ENUM(ovb_siw_opcode, siw_opcode);
	K(OVB_SIW_OP_WRITE, SIW_OP_WRITE);
	K(OVB_SIW_OP_READ, SIW_OP_READ);
	K(OVB_SIW_OP_READ_LOCAL_INV, SIW_OP_READ_LOCAL_INV);
	K(OVB_SIW_OP_SEND, SIW_OP_SEND);
	K(OVB_SIW_OP_SEND_WITH_IMM, SIW_OP_SEND_WITH_IMM);
	K(OVB_SIW_OP_SEND_REMOTE_INV, SIW_OP_SEND_REMOTE_INV);
	K(OVB_SIW_OP_FETCH_AND_ADD, SIW_OP_FETCH_AND_ADD);
	K(OVB_SIW_OP_COMP_AND_SWAP, SIW_OP_COMP_AND_SWAP);
	K(OVB_SIW_OP_RECEIVE, SIW_OP_RECEIVE);
	K(OVB_SIW_OP_READ_RESPONSE, SIW_OP_READ_RESPONSE);
	K(OVB_SIW_OP_INVAL_STAG, SIW_OP_INVAL_STAG);
	K(OVB_SIW_OP_REG_MR, SIW_OP_REG_MR);
	K(OVB_SIW_NUM_OPCODES, SIW_NUM_OPCODES);
	ENUM(ovb_siw_wqe_flags, siw_wqe_flags);
	K(OVB_SIW_WQE_VALID, SIW_WQE_VALID);
	K(OVB_SIW_WQE_INLINE, SIW_WQE_INLINE);
	K(OVB_SIW_WQE_SIGNALLED, SIW_WQE_SIGNALLED);
	K(OVB_SIW_WQE_SOLICITED, SIW_WQE_SOLICITED);
	K(OVB_SIW_WQE_READ_FENCE, SIW_WQE_READ_FENCE);
	K(OVB_SIW_WQE_REM_INVAL, SIW_WQE_REM_INVAL);
	K(OVB_SIW_WQE_COMPLETED, SIW_WQE_COMPLETED);
	ENUM(ovb_siw_notify_flags, siw_notify_flags);
	K(OVB_SIW_NOTIFY_NOT, SIW_NOTIFY_NOT);
	K(OVB_SIW_NOTIFY_SOLICITED, SIW_NOTIFY_SOLICITED);
	K(OVB_SIW_NOTIFY_NEXT_COMPLETION, SIW_NOTIFY_NEXT_COMPLETION);
	K(OVB_SIW_NOTIFY_MISSED_EVENTS, SIW_NOTIFY_MISSED_EVENTS);
	K(OVB_SIW_NOTIFY_ALL, SIW_NOTIFY_ALL);
	ENUM(ovb_siw_wc_status, siw_wc_status);
	K(OVB_SIW_WC_SUCCESS, SIW_WC_SUCCESS);
	K(OVB_SIW_WC_LOC_LEN_ERR, SIW_WC_LOC_LEN_ERR);
	K(OVB_SIW_WC_LOC_PROT_ERR, SIW_WC_LOC_PROT_ERR);
	K(OVB_SIW_WC_LOC_QP_OP_ERR, SIW_WC_LOC_QP_OP_ERR);
	K(OVB_SIW_WC_WR_FLUSH_ERR, SIW_WC_WR_FLUSH_ERR);
	K(OVB_SIW_WC_BAD_RESP_ERR, SIW_WC_BAD_RESP_ERR);
	K(OVB_SIW_WC_LOC_ACCESS_ERR, SIW_WC_LOC_ACCESS_ERR);
	K(OVB_SIW_WC_REM_ACCESS_ERR, SIW_WC_REM_ACCESS_ERR);
	K(OVB_SIW_WC_REM_INV_REQ_ERR, SIW_WC_REM_INV_REQ_ERR);
	K(OVB_SIW_WC_GENERAL_ERR, SIW_WC_GENERAL_ERR);
	K(OVB_SIW_NUM_WC_STATUS, SIW_NUM_WC_STATUS);

	/* ---- the ioctl() ABI, in the order of uapi/openverbs/ioctl-abi.h */
	K(OVB_IOCTL_MAGIC, RDMA_IOCTL_MAGIC);
	K(OVB_IOCTL_MAGIC, IB_IOCTL_MAGIC);	/* its old name */
	K(OVB_VERBS_IOCTL, RDMA_VERBS_IOCTL);
	K(OVB_ID_NS_MASK, UVERBS_ID_NS_MASK);
	K(OVB_ID_NS_SHIFT, UVERBS_ID_NS_SHIFT);
#if OVB_REF_SINCE(6, 11)
	K(OVB_ID_DRIVER_NS, UVERBS_ID_DRIVER_NS);
	K(OVB_ID_DRIVER_NS_WITH_UHW, UVERBS_ID_DRIVER_NS_WITH_UHW);
#else	/* 6.11 named the namespace's first id instead */
	K(OVB_UDATA_DRIVER_DATA_NS, UVERBS_UDATA_DRIVER_DATA_NS);
	K(OVB_UDATA_DRIVER_DATA_FLAG, UVERBS_UDATA_DRIVER_DATA_FLAG);
#endif
	K(OVB_ACCESS_OPTIONAL_FIRST, IB_UVERBS_ACCESS_OPTIONAL_FIRST);
	K(OVB_ACCESS_OPTIONAL_LAST, IB_UVERBS_ACCESS_OPTIONAL_LAST);
	K(OVB_ATTR_F_MANDATORY, UVERBS_ATTR_F_MANDATORY);
	K(OVB_ATTR_F_VALID_OUTPUT, UVERBS_ATTR_F_VALID_OUTPUT);
	K(OVB_ATTR_UHW_IN, UVERBS_ATTR_UHW_IN);
	K(OVB_ATTR_UHW_OUT, UVERBS_ATTR_UHW_OUT);
	K(OVB_OBJECT_DEVICE, UVERBS_OBJECT_DEVICE);
	K(OVB_OBJECT_PD, UVERBS_OBJECT_PD);
	K(OVB_OBJECT_COMP_CHANNEL, UVERBS_OBJECT_COMP_CHANNEL);
	K(OVB_OBJECT_CQ, UVERBS_OBJECT_CQ);
	K(OVB_OBJECT_QP, UVERBS_OBJECT_QP);
	K(OVB_OBJECT_SRQ, UVERBS_OBJECT_SRQ);
	K(OVB_OBJECT_AH, UVERBS_OBJECT_AH);
	K(OVB_OBJECT_MR, UVERBS_OBJECT_MR);
	K(OVB_OBJECT_MW, UVERBS_OBJECT_MW);
	K(OVB_OBJECT_FLOW, UVERBS_OBJECT_FLOW);
	K(OVB_OBJECT_XRCD, UVERBS_OBJECT_XRCD);
	K(OVB_OBJECT_RWQ_IND_TBL, UVERBS_OBJECT_RWQ_IND_TBL);
	K(OVB_OBJECT_WQ, UVERBS_OBJECT_WQ);
	K(OVB_OBJECT_FLOW_ACTION, UVERBS_OBJECT_FLOW_ACTION);
	K(OVB_OBJECT_DM, UVERBS_OBJECT_DM);
	K(OVB_OBJECT_COUNTERS, UVERBS_OBJECT_COUNTERS);
	K(OVB_OBJECT_ASYNC_EVENT, UVERBS_OBJECT_ASYNC_EVENT);
	K(OVB_METHOD_INVOKE_WRITE, UVERBS_METHOD_INVOKE_WRITE);
	K(OVB_METHOD_INFO_HANDLES, UVERBS_METHOD_INFO_HANDLES);
	K(OVB_METHOD_QUERY_PORT, UVERBS_METHOD_QUERY_PORT);
	K(OVB_METHOD_GET_CONTEXT, UVERBS_METHOD_GET_CONTEXT);
	K(OVB_METHOD_QUERY_CONTEXT, UVERBS_METHOD_QUERY_CONTEXT);
	K(OVB_METHOD_QUERY_GID_TABLE, UVERBS_METHOD_QUERY_GID_TABLE);
	K(OVB_METHOD_QUERY_GID_ENTRY, UVERBS_METHOD_QUERY_GID_ENTRY);
	K(OVB_ATTR_CORE_IN, UVERBS_ATTR_CORE_IN);
	K(OVB_ATTR_CORE_OUT, UVERBS_ATTR_CORE_OUT);
	K(OVB_ATTR_WRITE_CMD, UVERBS_ATTR_WRITE_CMD);
	K(OVB_ATTR_INFO_OBJECT_ID, UVERBS_ATTR_INFO_OBJECT_ID);
	K(OVB_ATTR_INFO_TOTAL_HANDLES, UVERBS_ATTR_INFO_TOTAL_HANDLES);
	K(OVB_ATTR_INFO_HANDLES_LIST, UVERBS_ATTR_INFO_HANDLES_LIST);
	K(OVB_ATTR_QUERY_PORT_PORT_NUM, UVERBS_ATTR_QUERY_PORT_PORT_NUM);
	K(OVB_ATTR_QUERY_PORT_RESP, UVERBS_ATTR_QUERY_PORT_RESP);
	K(OVB_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
	  UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS);
	K(OVB_ATTR_GET_CONTEXT_CORE_SUPPORT,
	  UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT);
	K(OVB_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
	  UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS);
	K(OVB_ATTR_QUERY_CONTEXT_CORE_SUPPORT,
	  UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT);
	K(OVB_ATTR_QUERY_GID_TABLE_ENTRY_SIZE,
	  UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE);
	K(OVB_ATTR_QUERY_GID_TABLE_FLAGS, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS);
	K(OVB_ATTR_QUERY_GID_TABLE_RESP_ENTRIES,
	  UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	K(OVB_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
	  UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES);
	K(OVB_ATTR_QUERY_GID_ENTRY_PORT, UVERBS_ATTR_QUERY_GID_ENTRY_PORT);
	K(OVB_ATTR_QUERY_GID_ENTRY_GID_INDEX,
	  UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX);
	K(OVB_ATTR_QUERY_GID_ENTRY_FLAGS, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS);
	K(OVB_ATTR_QUERY_GID_ENTRY_RESP_ENTRY,
	  UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY);
	K(OVB_METHOD_ASYNC_EVENT_ALLOC, UVERBS_METHOD_ASYNC_EVENT_ALLOC);
	K(OVB_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE,
	  UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
	K(OVB_METHOD_PD_DESTROY, UVERBS_METHOD_PD_DESTROY);
	K(OVB_ATTR_DESTROY_PD_HANDLE, UVERBS_ATTR_DESTROY_PD_HANDLE);
	K(OVB_METHOD_CQ_CREATE, UVERBS_METHOD_CQ_CREATE);
	K(OVB_METHOD_CQ_DESTROY, UVERBS_METHOD_CQ_DESTROY);
	K(OVB_ATTR_CREATE_CQ_HANDLE, UVERBS_ATTR_CREATE_CQ_HANDLE);
	K(OVB_ATTR_CREATE_CQ_CQE, UVERBS_ATTR_CREATE_CQ_CQE);
	K(OVB_ATTR_CREATE_CQ_USER_HANDLE, UVERBS_ATTR_CREATE_CQ_USER_HANDLE);
	K(OVB_ATTR_CREATE_CQ_COMP_CHANNEL, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL);
	K(OVB_ATTR_CREATE_CQ_COMP_VECTOR, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR);
	K(OVB_ATTR_CREATE_CQ_FLAGS, UVERBS_ATTR_CREATE_CQ_FLAGS);
	K(OVB_ATTR_CREATE_CQ_RESP_CQE, UVERBS_ATTR_CREATE_CQ_RESP_CQE);
	K(OVB_ATTR_CREATE_CQ_EVENT_FD, UVERBS_ATTR_CREATE_CQ_EVENT_FD);
	K(OVB_ATTR_DESTROY_CQ_HANDLE, UVERBS_ATTR_DESTROY_CQ_HANDLE);
	K(OVB_ATTR_DESTROY_CQ_RESP, UVERBS_ATTR_DESTROY_CQ_RESP);
	K(OVB_METHOD_QP_CREATE, UVERBS_METHOD_QP_CREATE);
	K(OVB_METHOD_QP_DESTROY, UVERBS_METHOD_QP_DESTROY);
	K(OVB_ATTR_CREATE_QP_HANDLE, UVERBS_ATTR_CREATE_QP_HANDLE);
	K(OVB_ATTR_CREATE_QP_XRCD_HANDLE, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE);
	K(OVB_ATTR_CREATE_QP_PD_HANDLE, UVERBS_ATTR_CREATE_QP_PD_HANDLE);
	K(OVB_ATTR_CREATE_QP_SRQ_HANDLE, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE);
	K(OVB_ATTR_CREATE_QP_SEND_CQ_HANDLE,
	  UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	K(OVB_ATTR_CREATE_QP_RECV_CQ_HANDLE,
	  UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	K(OVB_ATTR_CREATE_QP_IND_TABLE_HANDLE,
	  UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE);
	K(OVB_ATTR_CREATE_QP_USER_HANDLE, UVERBS_ATTR_CREATE_QP_USER_HANDLE);
	K(OVB_ATTR_CREATE_QP_CAP, UVERBS_ATTR_CREATE_QP_CAP);
	K(OVB_ATTR_CREATE_QP_TYPE, UVERBS_ATTR_CREATE_QP_TYPE);
	K(OVB_ATTR_CREATE_QP_FLAGS, UVERBS_ATTR_CREATE_QP_FLAGS);
	K(OVB_ATTR_CREATE_QP_SOURCE_QPN, UVERBS_ATTR_CREATE_QP_SOURCE_QPN);
	K(OVB_ATTR_CREATE_QP_EVENT_FD, UVERBS_ATTR_CREATE_QP_EVENT_FD);
	K(OVB_ATTR_CREATE_QP_RESP_CAP, UVERBS_ATTR_CREATE_QP_RESP_CAP);
	K(OVB_ATTR_CREATE_QP_RESP_QP_NUM, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM);
	K(OVB_ATTR_DESTROY_QP_HANDLE, UVERBS_ATTR_DESTROY_QP_HANDLE);
	K(OVB_ATTR_DESTROY_QP_RESP, UVERBS_ATTR_DESTROY_QP_RESP);
	K(OVB_METHOD_SRQ_CREATE, UVERBS_METHOD_SRQ_CREATE);
	K(OVB_METHOD_SRQ_DESTROY, UVERBS_METHOD_SRQ_DESTROY);
	K(OVB_ATTR_CREATE_SRQ_HANDLE, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	K(OVB_ATTR_CREATE_SRQ_PD_HANDLE, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE);
	K(OVB_ATTR_CREATE_SRQ_XRCD_HANDLE, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE);
	K(OVB_ATTR_CREATE_SRQ_CQ_HANDLE, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE);
	K(OVB_ATTR_CREATE_SRQ_USER_HANDLE, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE);
	K(OVB_ATTR_CREATE_SRQ_MAX_WR, UVERBS_ATTR_CREATE_SRQ_MAX_WR);
	K(OVB_ATTR_CREATE_SRQ_MAX_SGE, UVERBS_ATTR_CREATE_SRQ_MAX_SGE);
	K(OVB_ATTR_CREATE_SRQ_LIMIT, UVERBS_ATTR_CREATE_SRQ_LIMIT);
	K(OVB_ATTR_CREATE_SRQ_MAX_NUM_TAGS,
	  UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS);
	K(OVB_ATTR_CREATE_SRQ_TYPE, UVERBS_ATTR_CREATE_SRQ_TYPE);
	K(OVB_ATTR_CREATE_SRQ_EVENT_FD, UVERBS_ATTR_CREATE_SRQ_EVENT_FD);
	K(OVB_ATTR_CREATE_SRQ_RESP_MAX_WR, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR);
	K(OVB_ATTR_CREATE_SRQ_RESP_MAX_SGE,
	  UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE);
	K(OVB_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
	  UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM);
	K(OVB_ATTR_DESTROY_SRQ_HANDLE, UVERBS_ATTR_DESTROY_SRQ_HANDLE);
	K(OVB_ATTR_DESTROY_SRQ_RESP, UVERBS_ATTR_DESTROY_SRQ_RESP);
	K(OVB_METHOD_WQ_CREATE, UVERBS_METHOD_WQ_CREATE);
	K(OVB_METHOD_WQ_DESTROY, UVERBS_METHOD_WQ_DESTROY);
	K(OVB_ATTR_CREATE_WQ_HANDLE, UVERBS_ATTR_CREATE_WQ_HANDLE);
	K(OVB_ATTR_CREATE_WQ_PD_HANDLE, UVERBS_ATTR_CREATE_WQ_PD_HANDLE);
	K(OVB_ATTR_CREATE_WQ_CQ_HANDLE, UVERBS_ATTR_CREATE_WQ_CQ_HANDLE);
	K(OVB_ATTR_CREATE_WQ_USER_HANDLE, UVERBS_ATTR_CREATE_WQ_USER_HANDLE);
	K(OVB_ATTR_CREATE_WQ_TYPE, UVERBS_ATTR_CREATE_WQ_TYPE);
	K(OVB_ATTR_CREATE_WQ_EVENT_FD, UVERBS_ATTR_CREATE_WQ_EVENT_FD);
	K(OVB_ATTR_CREATE_WQ_MAX_WR, UVERBS_ATTR_CREATE_WQ_MAX_WR);
	K(OVB_ATTR_CREATE_WQ_MAX_SGE, UVERBS_ATTR_CREATE_WQ_MAX_SGE);
	K(OVB_ATTR_CREATE_WQ_FLAGS, UVERBS_ATTR_CREATE_WQ_FLAGS);
	K(OVB_ATTR_CREATE_WQ_RESP_MAX_WR, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR);
	K(OVB_ATTR_CREATE_WQ_RESP_MAX_SGE, UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE);
	K(OVB_ATTR_CREATE_WQ_RESP_WQ_NUM, UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM);
	K(OVB_ATTR_DESTROY_WQ_HANDLE, UVERBS_ATTR_DESTROY_WQ_HANDLE);
	K(OVB_ATTR_DESTROY_WQ_RESP, UVERBS_ATTR_DESTROY_WQ_RESP);
	K(OVB_METHOD_RWQ_IND_TBL_DESTROY, UVERBS_METHOD_RWQ_IND_TBL_DESTROY);
	K(OVB_ATTR_DESTROY_RWQ_IND_TBL_HANDLE,
	  UVERBS_ATTR_DESTROY_RWQ_IND_TBL_HANDLE);
	K(OVB_METHOD_AH_DESTROY, UVERBS_METHOD_AH_DESTROY);
	K(OVB_ATTR_DESTROY_AH_HANDLE, UVERBS_ATTR_DESTROY_AH_HANDLE);
	K(OVB_METHOD_DM_MR_REG, UVERBS_METHOD_DM_MR_REG);
	K(OVB_METHOD_MR_DESTROY, UVERBS_METHOD_MR_DESTROY);
	K(OVB_METHOD_ADVISE_MR, UVERBS_METHOD_ADVISE_MR);
	K(OVB_METHOD_QUERY_MR, UVERBS_METHOD_QUERY_MR);
	K(OVB_METHOD_REG_DMABUF_MR, UVERBS_METHOD_REG_DMABUF_MR);
	K(OVB_ATTR_REG_DM_MR_HANDLE, UVERBS_ATTR_REG_DM_MR_HANDLE);
	K(OVB_ATTR_REG_DM_MR_OFFSET, UVERBS_ATTR_REG_DM_MR_OFFSET);
	K(OVB_ATTR_REG_DM_MR_LENGTH, UVERBS_ATTR_REG_DM_MR_LENGTH);
	K(OVB_ATTR_REG_DM_MR_PD_HANDLE, UVERBS_ATTR_REG_DM_MR_PD_HANDLE);
	K(OVB_ATTR_REG_DM_MR_ACCESS_FLAGS, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS);
	K(OVB_ATTR_REG_DM_MR_DM_HANDLE, UVERBS_ATTR_REG_DM_MR_DM_HANDLE);
	K(OVB_ATTR_REG_DM_MR_RESP_LKEY, UVERBS_ATTR_REG_DM_MR_RESP_LKEY);
	K(OVB_ATTR_REG_DM_MR_RESP_RKEY, UVERBS_ATTR_REG_DM_MR_RESP_RKEY);
	K(OVB_ATTR_DESTROY_MR_HANDLE, UVERBS_ATTR_DESTROY_MR_HANDLE);
	K(OVB_ATTR_ADVISE_MR_PD_HANDLE, UVERBS_ATTR_ADVISE_MR_PD_HANDLE);
	K(OVB_ATTR_ADVISE_MR_ADVICE, UVERBS_ATTR_ADVISE_MR_ADVICE);
	K(OVB_ATTR_ADVISE_MR_FLAGS, UVERBS_ATTR_ADVISE_MR_FLAGS);
	K(OVB_ATTR_ADVISE_MR_SGE_LIST, UVERBS_ATTR_ADVISE_MR_SGE_LIST);
	K(OVB_ATTR_QUERY_MR_HANDLE, UVERBS_ATTR_QUERY_MR_HANDLE);
	K(OVB_ATTR_QUERY_MR_RESP_LKEY, UVERBS_ATTR_QUERY_MR_RESP_LKEY);
	K(OVB_ATTR_QUERY_MR_RESP_RKEY, UVERBS_ATTR_QUERY_MR_RESP_RKEY);
	K(OVB_ATTR_QUERY_MR_RESP_LENGTH, UVERBS_ATTR_QUERY_MR_RESP_LENGTH);
	K(OVB_ATTR_QUERY_MR_RESP_IOVA, UVERBS_ATTR_QUERY_MR_RESP_IOVA);
	K(OVB_ATTR_REG_DMABUF_MR_HANDLE, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
	K(OVB_ATTR_REG_DMABUF_MR_PD_HANDLE,
	  UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE);
	K(OVB_ATTR_REG_DMABUF_MR_OFFSET, UVERBS_ATTR_REG_DMABUF_MR_OFFSET);
	K(OVB_ATTR_REG_DMABUF_MR_LENGTH, UVERBS_ATTR_REG_DMABUF_MR_LENGTH);
	K(OVB_ATTR_REG_DMABUF_MR_IOVA, UVERBS_ATTR_REG_DMABUF_MR_IOVA);
	K(OVB_ATTR_REG_DMABUF_MR_FD, UVERBS_ATTR_REG_DMABUF_MR_FD);
	K(OVB_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
	  UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS);
	K(OVB_ATTR_REG_DMABUF_MR_RESP_LKEY,
	  UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY);
	K(OVB_ATTR_REG_DMABUF_MR_RESP_RKEY,
	  UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY);
	K(OVB_METHOD_MW_DESTROY, UVERBS_METHOD_MW_DESTROY);
	K(OVB_ATTR_DESTROY_MW_HANDLE, UVERBS_ATTR_DESTROY_MW_HANDLE);
	K(OVB_METHOD_XRCD_DESTROY, UVERBS_METHOD_XRCD_DESTROY);
	K(OVB_ATTR_DESTROY_XRCD_HANDLE, UVERBS_ATTR_DESTROY_XRCD_HANDLE);
	K(OVB_METHOD_DM_ALLOC, UVERBS_METHOD_DM_ALLOC);
	K(OVB_METHOD_DM_FREE, UVERBS_METHOD_DM_FREE);
	K(OVB_ATTR_ALLOC_DM_HANDLE, UVERBS_ATTR_ALLOC_DM_HANDLE);
	K(OVB_ATTR_ALLOC_DM_LENGTH, UVERBS_ATTR_ALLOC_DM_LENGTH);
	K(OVB_ATTR_ALLOC_DM_ALIGNMENT, UVERBS_ATTR_ALLOC_DM_ALIGNMENT);
	K(OVB_ATTR_FREE_DM_HANDLE, UVERBS_ATTR_FREE_DM_HANDLE);
	K(OVB_METHOD_FLOW_DESTROY, UVERBS_METHOD_FLOW_DESTROY);
	K(OVB_ATTR_DESTROY_FLOW_HANDLE, UVERBS_ATTR_DESTROY_FLOW_HANDLE);
	K(OVB_METHOD_FLOW_ACTION_ESP_CREATE,
	  UVERBS_METHOD_FLOW_ACTION_ESP_CREATE);
	K(OVB_METHOD_FLOW_ACTION_DESTROY, UVERBS_METHOD_FLOW_ACTION_DESTROY);
	K(OVB_METHOD_FLOW_ACTION_ESP_MODIFY,
	  UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY);
	K(OVB_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE,
	  UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE);
	K(OVB_ATTR_FLOW_ACTION_ESP_ATTRS, UVERBS_ATTR_FLOW_ACTION_ESP_ATTRS);
	K(OVB_ATTR_FLOW_ACTION_ESP_ESN, UVERBS_ATTR_FLOW_ACTION_ESP_ESN);
	K(OVB_ATTR_FLOW_ACTION_ESP_KEYMAT, UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT);
	K(OVB_ATTR_FLOW_ACTION_ESP_REPLAY, UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY);
	K(OVB_ATTR_FLOW_ACTION_ESP_ENCAP, UVERBS_ATTR_FLOW_ACTION_ESP_ENCAP);
	K(OVB_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE,
	  UVERBS_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE);
	K(OVB_ATTR_DESTROY_FLOW_ACTION_HANDLE,
	  UVERBS_ATTR_DESTROY_FLOW_ACTION_HANDLE);
	K(OVB_METHOD_COUNTERS_CREATE, UVERBS_METHOD_COUNTERS_CREATE);
	K(OVB_METHOD_COUNTERS_DESTROY, UVERBS_METHOD_COUNTERS_DESTROY);
	K(OVB_METHOD_COUNTERS_READ, UVERBS_METHOD_COUNTERS_READ);
	K(OVB_ATTR_CREATE_COUNTERS_HANDLE, UVERBS_ATTR_CREATE_COUNTERS_HANDLE);
	K(OVB_ATTR_DESTROY_COUNTERS_HANDLE,
	  UVERBS_ATTR_DESTROY_COUNTERS_HANDLE);
	K(OVB_ATTR_READ_COUNTERS_HANDLE, UVERBS_ATTR_READ_COUNTERS_HANDLE);
	K(OVB_ATTR_READ_COUNTERS_BUFF, UVERBS_ATTR_READ_COUNTERS_BUFF);
	K(OVB_ATTR_READ_COUNTERS_FLAGS, UVERBS_ATTR_READ_COUNTERS_FLAGS);
	K(OVB_CORE_SUPPORT_OPTIONAL_MR_ACCESS,
	  IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS);
	K(OVB_ACCESS_LOCAL_WRITE, IB_UVERBS_ACCESS_LOCAL_WRITE);
	K(OVB_ACCESS_REMOTE_WRITE, IB_UVERBS_ACCESS_REMOTE_WRITE);
	K(OVB_ACCESS_REMOTE_READ, IB_UVERBS_ACCESS_REMOTE_READ);
	K(OVB_ACCESS_REMOTE_ATOMIC, IB_UVERBS_ACCESS_REMOTE_ATOMIC);
	K(OVB_ACCESS_MW_BIND, IB_UVERBS_ACCESS_MW_BIND);
	K(OVB_ACCESS_ZERO_BASED, IB_UVERBS_ACCESS_ZERO_BASED);
	K(OVB_ACCESS_ON_DEMAND, IB_UVERBS_ACCESS_ON_DEMAND);
	K(OVB_ACCESS_HUGETLB, IB_UVERBS_ACCESS_HUGETLB);
#if OVB_REF_SINCE(6, 2)
	K(OVB_ACCESS_FLUSH_GLOBAL, IB_UVERBS_ACCESS_FLUSH_GLOBAL);
	K(OVB_ACCESS_FLUSH_PERSISTENT, IB_UVERBS_ACCESS_FLUSH_PERSISTENT);
#endif
	K(OVB_ACCESS_RELAXED_ORDERING, IB_UVERBS_ACCESS_RELAXED_ORDERING);
	K(OVB_ACCESS_OPTIONAL_RANGE, IB_UVERBS_ACCESS_OPTIONAL_RANGE);
	K(OVB_SRQT_BASIC, IB_UVERBS_SRQT_BASIC);
	K(OVB_SRQT_XRC, IB_UVERBS_SRQT_XRC);
	K(OVB_SRQT_TM, IB_UVERBS_SRQT_TM);
	K(OVB_WQT_RQ, IB_UVERBS_WQT_RQ);
	K(OVB_WQ_FLAGS_CVLAN_STRIPPING, IB_UVERBS_WQ_FLAGS_CVLAN_STRIPPING);
	K(OVB_WQ_FLAGS_SCATTER_FCS, IB_UVERBS_WQ_FLAGS_SCATTER_FCS);
	K(OVB_WQ_FLAGS_DELAY_DROP, IB_UVERBS_WQ_FLAGS_DELAY_DROP);
	K(OVB_WQ_FLAGS_PCI_WRITE_END_PADDING,
	  IB_UVERBS_WQ_FLAGS_PCI_WRITE_END_PADDING);
	K(OVB_QPT_RC, IB_UVERBS_QPT_RC);
	K(OVB_QPT_UC, IB_UVERBS_QPT_UC);
	K(OVB_QPT_UD, IB_UVERBS_QPT_UD);
	K(OVB_QPT_RAW_PACKET, IB_UVERBS_QPT_RAW_PACKET);
	K(OVB_QPT_XRC_INI, IB_UVERBS_QPT_XRC_INI);
	K(OVB_QPT_XRC_TGT, IB_UVERBS_QPT_XRC_TGT);
	K(OVB_QPT_DRIVER, IB_UVERBS_QPT_DRIVER);
	K(OVB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK,
	  IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK);
	K(OVB_QP_CREATE_SCATTER_FCS, IB_UVERBS_QP_CREATE_SCATTER_FCS);
	K(OVB_QP_CREATE_CVLAN_STRIPPING, IB_UVERBS_QP_CREATE_CVLAN_STRIPPING);
	K(OVB_QP_CREATE_PCI_WRITE_END_PADDING,
	  IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING);
	K(OVB_QP_CREATE_SQ_SIG_ALL, IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
	K(OVB_PCF_SM, IB_UVERBS_PCF_SM);
	K(OVB_PCF_NOTICE_SUP, IB_UVERBS_PCF_NOTICE_SUP);
	K(OVB_PCF_TRAP_SUP, IB_UVERBS_PCF_TRAP_SUP);
	K(OVB_PCF_OPT_IPD_SUP, IB_UVERBS_PCF_OPT_IPD_SUP);
	K(OVB_PCF_AUTO_MIGR_SUP, IB_UVERBS_PCF_AUTO_MIGR_SUP);
	K(OVB_PCF_SL_MAP_SUP, IB_UVERBS_PCF_SL_MAP_SUP);
	K(OVB_PCF_MKEY_NVRAM, IB_UVERBS_PCF_MKEY_NVRAM);
	K(OVB_PCF_PKEY_NVRAM, IB_UVERBS_PCF_PKEY_NVRAM);
	K(OVB_PCF_LED_INFO_SUP, IB_UVERBS_PCF_LED_INFO_SUP);
	K(OVB_PCF_SM_DISABLED, IB_UVERBS_PCF_SM_DISABLED);
	K(OVB_PCF_SYS_IMAGE_GUID_SUP, IB_UVERBS_PCF_SYS_IMAGE_GUID_SUP);
	K(OVB_PCF_PKEY_SW_EXT_PORT_TRAP_SUP,
	  IB_UVERBS_PCF_PKEY_SW_EXT_PORT_TRAP_SUP);
	K(OVB_PCF_EXTENDED_SPEEDS_SUP, IB_UVERBS_PCF_EXTENDED_SPEEDS_SUP);
	K(OVB_PCF_CM_SUP, IB_UVERBS_PCF_CM_SUP);
	K(OVB_PCF_SNMP_TUNNEL_SUP, IB_UVERBS_PCF_SNMP_TUNNEL_SUP);
	K(OVB_PCF_REINIT_SUP, IB_UVERBS_PCF_REINIT_SUP);
	K(OVB_PCF_DEVICE_MGMT_SUP, IB_UVERBS_PCF_DEVICE_MGMT_SUP);
	K(OVB_PCF_VENDOR_CLASS_SUP, IB_UVERBS_PCF_VENDOR_CLASS_SUP);
	K(OVB_PCF_DR_NOTICE_SUP, IB_UVERBS_PCF_DR_NOTICE_SUP);
	K(OVB_PCF_CAP_MASK_NOTICE_SUP, IB_UVERBS_PCF_CAP_MASK_NOTICE_SUP);
	K(OVB_PCF_BOOT_MGMT_SUP, IB_UVERBS_PCF_BOOT_MGMT_SUP);
	K(OVB_PCF_LINK_LATENCY_SUP, IB_UVERBS_PCF_LINK_LATENCY_SUP);
	K(OVB_PCF_CLIENT_REG_SUP, IB_UVERBS_PCF_CLIENT_REG_SUP);
	K(OVB_PCF_LINK_SPEED_WIDTH_TABLE_SUP,
	  IB_UVERBS_PCF_LINK_SPEED_WIDTH_TABLE_SUP);
	K(OVB_PCF_VENDOR_SPECIFIC_MADS_TABLE_SUP,
	  IB_UVERBS_PCF_VENDOR_SPECIFIC_MADS_TABLE_SUP);
	K(OVB_PCF_MCAST_PKEY_TRAP_SUPPRESSION_SUP,
	  IB_UVERBS_PCF_MCAST_PKEY_TRAP_SUPPRESSION_SUP);
	K(OVB_PCF_MCAST_FDB_TOP_SUP, IB_UVERBS_PCF_MCAST_FDB_TOP_SUP);
	K(OVB_PCF_HIERARCHY_INFO_SUP, IB_UVERBS_PCF_HIERARCHY_INFO_SUP);
	K(OVB_PCF_IP_BASED_GIDS, IB_UVERBS_PCF_IP_BASED_GIDS);
	K(OVB_QPF_GRH_REQUIRED, IB_UVERBS_QPF_GRH_REQUIRED);
	K(OVB_GID_TYPE_IB, IB_UVERBS_GID_TYPE_IB);
	K(OVB_GID_TYPE_ROCE_V1, IB_UVERBS_GID_TYPE_ROCE_V1);
	K(OVB_GID_TYPE_ROCE_V2, IB_UVERBS_GID_TYPE_ROCE_V2);
	K(OVB_READ_COUNTERS_PREFER_CACHED,
	  IB_UVERBS_READ_COUNTERS_PREFER_CACHED);
	K(OVB_ADVISE_MR_ADVICE_PREFETCH, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH);
	K(OVB_ADVISE_MR_ADVICE_PREFETCH_WRITE,
	  IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE);
	K(OVB_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT,
	  IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT);
	K(OVB_ADVISE_MR_FLAG_FLUSH, IB_UVERBS_ADVISE_MR_FLAG_FLUSH);
	K(OVB_FLOW_ACTION_ESP_KEYMAT_AES_GCM,
	  IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM);
	K(OVB_FLOW_ACTION_IV_ALGO_SEQ, IB_UVERBS_FLOW_ACTION_IV_ALGO_SEQ);
	K(OVB_FLOW_ACTION_ESP_REPLAY_NONE,
	  IB_UVERBS_FLOW_ACTION_ESP_REPLAY_NONE);
	K(OVB_FLOW_ACTION_ESP_REPLAY_BMP, IB_UVERBS_FLOW_ACTION_ESP_REPLAY_BMP);
	K(OVB_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO,
	  IB_UVERBS_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO);
	K(OVB_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD,
	  IB_UVERBS_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD);
	K(OVB_FLOW_ACTION_ESP_FLAGS_TUNNEL,
	  IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TUNNEL);
	K(OVB_FLOW_ACTION_ESP_FLAGS_TRANSPORT,
	  IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TRANSPORT);
	K(OVB_FLOW_ACTION_ESP_FLAGS_DECRYPT,
	  IB_UVERBS_FLOW_ACTION_ESP_FLAGS_DECRYPT);
	K(OVB_FLOW_ACTION_ESP_FLAGS_ENCRYPT,
	  IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ENCRYPT);
	K(OVB_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW,
	  IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW);
	K(OVB_DRIVER_UNKNOWN, RDMA_DRIVER_UNKNOWN);
	K(OVB_DRIVER_MLX5, RDMA_DRIVER_MLX5);
	K(OVB_DRIVER_MLX4, RDMA_DRIVER_MLX4);
	K(OVB_DRIVER_CXGB3, RDMA_DRIVER_CXGB3);
	K(OVB_DRIVER_CXGB4, RDMA_DRIVER_CXGB4);
	K(OVB_DRIVER_MTHCA, RDMA_DRIVER_MTHCA);
	K(OVB_DRIVER_BNXT_RE, RDMA_DRIVER_BNXT_RE);
	K(OVB_DRIVER_OCRDMA, RDMA_DRIVER_OCRDMA);
	K(OVB_DRIVER_NES, RDMA_DRIVER_NES);
	K(OVB_DRIVER_I40IW, RDMA_DRIVER_I40IW);
	K(OVB_DRIVER_IRDMA, RDMA_DRIVER_IRDMA);
	K(OVB_DRIVER_VMW_PVRDMA, RDMA_DRIVER_VMW_PVRDMA);
	K(OVB_DRIVER_QEDR, RDMA_DRIVER_QEDR);
	K(OVB_DRIVER_HNS, RDMA_DRIVER_HNS);
	K(OVB_DRIVER_USNIC, RDMA_DRIVER_USNIC);
	K(OVB_DRIVER_RXE, RDMA_DRIVER_RXE);
	K(OVB_DRIVER_HFI1, RDMA_DRIVER_HFI1);
	K(OVB_DRIVER_QIB, RDMA_DRIVER_QIB);
	K(OVB_DRIVER_EFA, RDMA_DRIVER_EFA);
	K(OVB_DRIVER_SIW, RDMA_DRIVER_SIW);
	K(OVB_DRIVER_ERDMA, RDMA_DRIVER_ERDMA);
#if OVB_REF_SINCE(6, 2)
	K(OVB_DRIVER_MANA, RDMA_DRIVER_MANA);
#endif

	/* <rdma/rdma_user_ioctl.h> also numbers ib_umad's and hfi1's ioctls */
	NOT_UVERBS(IB_USER_MAD_REGISTER_AGENT);
	NOT_UVERBS(IB_USER_MAD_UNREGISTER_AGENT);
	NOT_UVERBS(IB_USER_MAD_ENABLE_PKEY);
	NOT_UVERBS(IB_USER_MAD_REGISTER_AGENT2);
	NOT_UVERBS(HFI1_IOCTL_ASSIGN_CTXT);
	NOT_UVERBS(HFI1_IOCTL_CTXT_INFO);
	NOT_UVERBS(HFI1_IOCTL_USER_INFO);
	NOT_UVERBS(HFI1_IOCTL_TID_UPDATE);
	NOT_UVERBS(HFI1_IOCTL_TID_FREE);
	NOT_UVERBS(HFI1_IOCTL_CREDIT_UPD);
	NOT_UVERBS(HFI1_IOCTL_RECV_CTRL);
	NOT_UVERBS(HFI1_IOCTL_POLL_TYPE);
	NOT_UVERBS(HFI1_IOCTL_ACK_EVENT);
	NOT_UVERBS(HFI1_IOCTL_SET_PKEY);
	NOT_UVERBS(HFI1_IOCTL_CTXT_RESET);
	NOT_UVERBS(HFI1_IOCTL_TID_INVAL_READ);
	NOT_UVERBS(HFI1_IOCTL_GET_VERS);
}

int main(void)
{
	structs();
	enums();
	constants();
	printf("1..%u\n", tests);
	return failures ? 1 : 0;
}
