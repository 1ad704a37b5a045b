# The executable runs on mimalloc (tools/common/allocator.hpp): mimalloc says so when asked
# (MIMALLOC_VERBOSE=1, on standard error), and what gpusched prints is the same either way. A
# build that lost the link (or its override of malloc) would print nothing of mimalloc's. Run by
# ctest, in builds with GPUSCHED_MIMALLOC on, as
#   cmake -DGPUSCHED=<exe> -DSCENARIO=<file> -P allocator.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -E env MIMALLOC_VERBOSE=1 ${GPUSCHED} replay ${SCENARIO}
                        -o json
                OUTPUT_VARIABLE out_verbose ERROR_VARIABLE err_verbose RESULT_VARIABLE code_verbose)
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=MIMALLOC_VERBOSE ${GPUSCHED} replay
                        ${SCENARIO} -o json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT err_verbose MATCHES "mimalloc: process init")
  message(FATAL_ERROR "MIMALLOC_VERBOSE=1 gpusched replay: mimalloc said nothing; stderr "
                      "\"${err_verbose}\"")
endif()
if(NOT code_verbose STREQUAL code OR NOT out_verbose STREQUAL out OR out STREQUAL "")
  message(FATAL_ERROR "gpusched replay: exit ${code_verbose} and ${code}, outputs differ or are "
                      "empty")
endif()
if(err MATCHES "mimalloc")
  message(FATAL_ERROR "gpusched replay: mimalloc speaks unasked: \"${err}\"")
endif()
