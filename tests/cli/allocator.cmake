# The executable runs itself again on mimalloc (tools/common/allocator.hpp). The second run gets
# the same arguments and standard streams, so its outputs and exit codes equal those of a run
# that keeps its allocator (GPUSCHED_ALLOCATOR set); it is on mimalloc, which says so when asked
# (MIMALLOC_VERBOSE=1, on standard error), and the first is not; nor is one with LD_PRELOAD set.
# Run by ctest, in builds with GPUSCHED_MIMALLOC on, as
#   cmake -DGPUSCHED=<exe> -DSCENARIO=<file> -P allocator.cmake
foreach(args "replay;${SCENARIO};-o;json" "replay;${SCENARIO};--output;table;--strict"
        "replay;${SCENARIO}.missing" "check;${SCENARIO};--no-such-flag")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GPUSCHED_ALLOCATOR MIMALLOC_VERBOSE=1
                          ${GPUSCHED} ${args}
                  OUTPUT_VARIABLE out_again ERROR_VARIABLE err_again RESULT_VARIABLE code_again)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GPUSCHED_ALLOCATOR=system MIMALLOC_VERBOSE=1
                          ${GPUSCHED} ${args}
                  OUTPUT_VARIABLE out_once ERROR_VARIABLE err_once RESULT_VARIABLE code_once)
  if(NOT err_again MATCHES "mimalloc: process init")
    message(FATAL_ERROR "gpusched ${args}: not run again on mimalloc; stderr \"${err_again}\"")
  endif()
  if(err_once MATCHES "mimalloc")
    message(FATAL_ERROR "gpusched ${args} with GPUSCHED_ALLOCATOR set: on mimalloc")
  endif()
  # mimalloc's own lines aside, standard error is the same.
  string(REGEX REPLACE "mimalloc: [^\n]*\n" "" err_again "${err_again}")
  string(REGEX REPLACE "heap stats:.*" "" err_again "${err_again}")
  if(NOT code_again STREQUAL code_once OR NOT out_again STREQUAL out_once OR
     NOT err_again STREQUAL err_once)
    message(FATAL_ERROR "gpusched ${args}: exit ${code_again} on mimalloc, ${code_once} without; "
                        "stderr \"${err_again}\" against \"${err_once}\"")
  endif()
  if(out_again STREQUAL "" AND err_again STREQUAL "")
    message(FATAL_ERROR "gpusched ${args}: no output at all")
  endif()
endforeach()
# A preload of the user's (valgrind's, say) wins: the program does not run itself again.
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GPUSCHED_ALLOCATOR LD_PRELOAD=libc.so.6
                        MIMALLOC_VERBOSE=1 ${GPUSCHED} replay ${SCENARIO} -o json
                OUTPUT_VARIABLE out_preloaded ERROR_VARIABLE err_preloaded)
execute_process(COMMAND ${CMAKE_COMMAND} -E env GPUSCHED_ALLOCATOR=system ${GPUSCHED} replay
                        ${SCENARIO} -o json OUTPUT_VARIABLE out_system)
if(err_preloaded MATCHES "mimalloc" OR NOT out_preloaded STREQUAL out_system)
  message(FATAL_ERROR "gpusched with LD_PRELOAD set: run again on mimalloc, or another output; "
                      "stderr \"${err_preloaded}\"")
endif()
