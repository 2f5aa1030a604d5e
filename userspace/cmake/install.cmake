# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# What `cmake --install build/userspace --prefix P` installs, by component
# (the Debian packages are cut along the same lines, Documentation/install.md):
#   runtime  libibverbs.so.1 in the private <libdir>/openverbs, providers in
#            its providers/, <sysconfdir>/openverbs/libibverbs.d/<name>.driver
#   tools    ovb-status, ovb-rc-pingpong, ovb-run, their man pages, examples
#   dev      the C++ API and provider headers, libibverbs.so, openverbs.pc,
#            openverbs-provider.pc, the CMake package (find_package(openverbs))
# Nothing is installed outside the prefix, except the config directory when
# the prefix is /usr (then /etc).
include(CMakePackageConfigHelpers)

# ------------------------------------------------------------ runtime
install(TARGETS ibverbs EXPORT openverbsTargets
	LIBRARY DESTINATION ${OVB_INSTALL_LIBDIR}
		COMPONENT runtime NAMELINK_COMPONENT dev)
# Providers and their .driver files: providers/CMakeLists.txt.

# ------------------------------------------------------------ tools
# Our tools run on our library: a RUNPATH from bin/ to the private libdir,
# relative ($ORIGIN) so the prefix can move; LD_LIBRARY_PATH still wins.
file(RELATIVE_PATH OVB_BIN_TO_LIB ${CMAKE_INSTALL_FULL_BINDIR}
	${CMAKE_INSTALL_FULL_LIBDIR}/openverbs)
foreach(tool ovb-status ovb-devinfo ovb-rc-pingpong)
	set_target_properties(${tool} PROPERTIES
		INSTALL_RPATH "\$ORIGIN/${OVB_BIN_TO_LIB}")
	target_link_options(${tool} PRIVATE -Wl,--enable-new-dtags)
endforeach()
install(TARGETS ovb-status ovb-devinfo ovb-rc-pingpong
	RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
# ovb-run: any program on our library (LD_LIBRARY_PATH), found relative
# to the script itself.
configure_file(tools/ovb-run.in ${CMAKE_BINARY_DIR}/ovb-run @ONLY)
install(PROGRAMS ${CMAKE_BINARY_DIR}/ovb-run
	DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
install(FILES man/ovb-status.1 man/ovb-devinfo.1 man/ovb-rc-pingpong.1 man/ovb-run.1
	DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tools)
install(FILES man/openverbs.7
	DESTINATION ${CMAKE_INSTALL_MANDIR}/man7 COMPONENT tools)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/../packaging/limits.d/openverbs-memlock.conf
	DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/openverbs/examples COMPONENT tools)

# ------------------------------------------------------------ dev
set(OVB_HEADERS
	include/openverbs/verbs.hpp
	include/openverbs/wr.hpp
	include/openverbs/qp_state.hpp
	include/openverbs/rdmacm.hpp
	include/openverbs/provider.h
	${OPENVERBS_UAPI}/openverbs/uverbs-abi.h
	${OPENVERBS_UAPI}/openverbs/ioctl-abi.h
	${OPENVERBS_UAPI}/openverbs/rxe-abi.h
	${OPENVERBS_UAPI}/openverbs/siw-abi.h)
install(FILES ${OVB_HEADERS}
	DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/openverbs COMPONENT dev)
target_include_directories(ibverbs INTERFACE
	$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# openverbs::verbs, the C++ API: header only, C++20, over openverbs::ibverbs.
add_library(openverbs_verbs INTERFACE)
set_target_properties(openverbs_verbs PROPERTIES EXPORT_NAME verbs)
target_compile_features(openverbs_verbs INTERFACE cxx_std_20)
target_link_libraries(openverbs_verbs INTERFACE ibverbs)
# openverbs::provider: the headers a provider is written against.
add_library(openverbs_provider INTERFACE)
set_target_properties(openverbs_provider PROPERTIES EXPORT_NAME provider)
target_include_directories(openverbs_provider INTERFACE
	$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS openverbs_verbs openverbs_provider EXPORT openverbsTargets)

set(OVB_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/openverbs)
install(EXPORT openverbsTargets NAMESPACE openverbs::
	DESTINATION ${OVB_CMAKEDIR} COMPONENT dev)
configure_package_config_file(cmake/openverbsConfig.cmake.in
	${CMAKE_BINARY_DIR}/openverbsConfig.cmake
	INSTALL_DESTINATION ${OVB_CMAKEDIR}
	PATH_VARS OVB_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/openverbsConfigVersion.cmake
	COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/openverbsConfig.cmake
	${CMAKE_BINARY_DIR}/openverbsConfigVersion.cmake
	DESTINATION ${OVB_CMAKEDIR} COMPONENT dev)

# pkg-config files: written at install time with the prefix of that install
# (`cmake --install --prefix P` or the configured one), as absolute paths,
# because the RUNPATH they give programs must be absolute.
foreach(pc openverbs openverbs-provider)
	install(CODE "
		set(OVB_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
		set(OVB_INSTALL_LIBDIR \"${OVB_INSTALL_LIBDIR}\")
		set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
		set(PROJECT_VERSION \"${PROJECT_VERSION}\")
		configure_file(\"${CMAKE_CURRENT_SOURCE_DIR}/cmake/${pc}.pc.in\"
			\"${CMAKE_BINARY_DIR}/install-pc/${pc}.pc\" @ONLY)"
		COMPONENT dev)
	install(FILES ${CMAKE_BINARY_DIR}/install-pc/${pc}.pc
		DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endforeach()
