# Installation and packaging: `find_package(gpusched 0.x)` from an install prefix (or from the
# build tree), `gpusched::gpusched` to link, a pkg-config file, and the CLI in bin/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GPUSCHED_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpusched)

install(TARGETS gpusched EXPORT gpuschedTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gpusched TYPE INCLUDE)
install(EXPORT gpuschedTargets NAMESPACE gpusched:: DESTINATION ${GPUSCHED_CMAKE_DIR})
# The same targets from the build tree, for a consumer pointed at it without installing.
export(EXPORT gpuschedTargets NAMESPACE gpusched::
       FILE ${PROJECT_BINARY_DIR}/gpuschedTargets.cmake)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpuschedConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/gpuschedConfig.cmake
                              INSTALL_DESTINATION ${GPUSCHED_CMAKE_DIR})
# 0.x: a minor release may change the API (docs/versioning.md), so only the same 0.minor is
# compatible; from 1.0 on, any later 1.x is.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_gpusched_compatibility SameMinorVersion)
else()
  set(_gpusched_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpuschedConfigVersion.cmake
                                 COMPATIBILITY ${_gpusched_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/gpuschedConfig.cmake
              ${PROJECT_BINARY_DIR}/gpuschedConfigVersion.cmake
        DESTINATION ${GPUSCHED_CMAKE_DIR})

# pkg-config: the library is static by default, so its own dependencies come with --static.
# The prefix is found from the file's own place, so `cmake --install --prefix` anywhere works.
file(RELATIVE_PATH GPUSCHED_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" GPUSCHED_PC_TO_PREFIX "${GPUSCHED_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/gpusched.pc.in ${PROJECT_BINARY_DIR}/gpusched.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gpusched.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
