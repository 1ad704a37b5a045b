# The installed package as a user meets it: install the build into a fresh prefix, build
# examples/capacity_planner against it with find_package(gpusched), run it on a bundled
# scenario, then build the same program from the pkg-config file alone.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... -P consumer.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "consumer.cmake needs -D${var}=...")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed (${code}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed include/gpusched/gpusched.hpp bin/gpusched)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "not installed: ${installed}")
  endif()
endforeach()

# find_package(gpusched 0.4) + gpusched::gpusched.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/capacity_planner -B ${WORK_DIR}/planner
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/planner)
set(expected "pool h100: 3 node\\(s\\), every pod gets a node\nthen 0 more like train-[a-z0-9]+ fit")
run(${WORK_DIR}/planner/capacity_planner ${SOURCE_DIR}/scenarios/node-pool-gpu.json h100)
if(NOT out MATCHES "${expected}")
  message(FATAL_ERROR "capacity_planner (find_package) printed:\n${out}")
endif()
message(STATUS "find_package consumer:\n${out}")
# The second pool of a scenario with two; 8 at most.
run(${WORK_DIR}/planner/capacity_planner ${SOURCE_DIR}/scenarios/gpu-pool-mix.json l4 8)
if(NOT out MATCHES "pool l4: 3 node\\(s\\), every pod gets a node\nthen 0 more like infer-")
  message(FATAL_ERROR "capacity_planner on a second pool printed:\n${out}")
endif()

# A plugin of one's own (examples/custom_plugin): GpuPacking, registered by name and enabled in
# the profile like an in-tree plugin, packs the 2-GPU pod onto the busy node, so the 8-GPU pod
# that the default profile leaves Pending runs.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/custom_plugin -B ${WORK_DIR}/custom_plugin
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/custom_plugin)
run(${WORK_DIR}/custom_plugin/custom_plugin ${SOURCE_DIR}/examples/custom_plugin/fragmented-gpus.json)
set(expected_custom "default profile:
  busy Running gpu-a
  infer Running gpu-b
  train Pending <none>
with GpuPacking \\(weight 10\\):
  busy Running gpu-a
  infer Running gpu-a
  train Running gpu-b
")
if(NOT out MATCHES "^${expected_custom}$")
  message(FATAL_ERROR "custom_plugin printed:\n${out}")
endif()
message(STATUS "custom plugin consumer:\n${out}")

# A version the package does not claim to be compatible with is refused: in 0.x, another minor
# version either way.
foreach(wanted 0.99 0.3)
  file(WRITE ${WORK_DIR}/other-${wanted}/CMakeLists.txt
       "cmake_minimum_required(VERSION 3.25)\nproject(p LANGUAGES CXX)\nfind_package(gpusched ${wanted} REQUIRED)\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/other-${wanted}
                  -B ${WORK_DIR}/other-${wanted}/build -DCMAKE_PREFIX_PATH=${prefix}
                  RESULT_VARIABLE code OUTPUT_QUIET ERROR_QUIET)
  if(code EQUAL 0)
    message(FATAL_ERROR "find_package(gpusched ${wanted}) accepted the installed 0.4 package")
  endif()
endforeach()

# pkg-config: the same program from the .pc file's flags (a static library: --static).
find_program(PKG_CONFIG NAMES pkgconf pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "")
file(GLOB_RECURSE pc_files ${prefix}/*/gpusched.pc)
list(LENGTH pc_files pc_count)
if(NOT pc_count EQUAL 1)
  message(FATAL_ERROR "expected one installed gpusched.pc, found: ${pc_files}")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run(${PKG_CONFIG} --cflags --libs --static gpusched)
string(STRIP "${out}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${CXX} -O1 ${SOURCE_DIR}/examples/capacity_planner/main.cpp ${flags}
    -o ${WORK_DIR}/capacity_planner_pc)
run(${WORK_DIR}/capacity_planner_pc ${SOURCE_DIR}/scenarios/node-pool-gpu.json h100)
if(NOT out MATCHES "${expected}")
  message(FATAL_ERROR "capacity_planner (pkg-config) printed:\n${out}")
endif()

# From source, as a subproject: FetchContent (add_subdirectory underneath) gives the same
# gpusched::gpusched target and configures only the library. The consumer's own object is
# compiled against what that target carries (include path, C++20); the library's sources are
# not compiled a fourth time here: every build of the suite compiles them, and the installed
# consumers above link and run against them.
file(COPY ${SOURCE_DIR}/examples/capacity_planner/main.cpp DESTINATION ${WORK_DIR}/fetch)
file(WRITE ${WORK_DIR}/fetch/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)
project(planner LANGUAGES CXX)
include(FetchContent)
FetchContent_Declare(gpusched SOURCE_DIR ${SOURCE_DIR})
FetchContent_MakeAvailable(gpusched)
if(TARGET gpusched_exe OR TARGET gpusched_tests)
  message(FATAL_ERROR \"a subproject gpusched builds more than its library\")
endif()
add_executable(capacity_planner main.cpp)
target_link_libraries(capacity_planner PRIVATE gpusched::gpusched)
")
run(${CMAKE_COMMAND} -S ${WORK_DIR}/fetch -B ${WORK_DIR}/fetch/build -G "Unix Makefiles"
    -DCMAKE_BUILD_TYPE=Debug
    -DCMAKE_CXX_COMPILER=${CXX})
# The Makefile generator's rule for one source of the top directory: that object alone.
run(${CMAKE_COMMAND} --build ${WORK_DIR}/fetch/build --target main.cpp.o)
file(GLOB_RECURSE planner_objects ${WORK_DIR}/fetch/build/CMakeFiles/capacity_planner.dir/*.o)
file(GLOB_RECURSE library_objects ${WORK_DIR}/fetch/build/_deps/*.o)
if(NOT planner_objects OR library_objects)
  message(FATAL_ERROR "FetchContent consumer: objects ${planner_objects}; library objects "
                      "${library_objects}")
endif()
