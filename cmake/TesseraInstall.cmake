# `cmake --install build [--prefix P]` installs
#   P/include/tessera/<folder>/*.h     the headers of every library's folders
#   P/lib/libtessera_*.a               every library recorded by tessera_library()
#   P/bin/tessera                      the command-line tool
#   P/lib/cmake/tessera/               the package: find_package(tessera) gives tessera::tessera
#                                      (every library), and tessera::tessera_<name> for each one
# Libraries are taken from the global properties that tessera_library() fills, so a library
# added later is installed without an edit here. Include this file after every library.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(tessera_libraries GLOBAL PROPERTY TESSERA_LIBRARIES)
get_property(tessera_header_dirs GLOBAL PROPERTY TESSERA_HEADER_DIRS)
list(REMOVE_DUPLICATES tessera_header_dirs)

# The umbrella target (exported as tessera::tessera; the name `tessera` is the tool's).
add_library(tessera_package INTERFACE)
set_target_properties(tessera_package PROPERTIES EXPORT_NAME tessera)
target_link_libraries(tessera_package INTERFACE ${tessera_libraries})

install(TARGETS ${tessera_libraries} tessera_package EXPORT tesseraTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera)
install(TARGETS tessera RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The examples' sources (docs/api.md points to them), installed here because the install rules
# of examples/, an EXCLUDE_FROM_ALL directory, do not run.
file(GLOB tessera_example_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/*.cpp)
install(FILES ${tessera_example_sources} DESTINATION ${CMAKE_INSTALL_DATADIR}/tessera/examples)
foreach(dir IN LISTS tessera_header_dirs)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()

set(tessera_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/tessera)
install(EXPORT tesseraTargets NAMESPACE tessera:: DESTINATION ${tessera_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tesseraConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/tesseraConfig.cmake
                              INSTALL_DESTINATION ${tessera_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tesseraConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tesseraConfig.cmake
              ${PROJECT_BINARY_DIR}/tesseraConfigVersion.cmake
        DESTINATION ${tessera_cmake_dir})
