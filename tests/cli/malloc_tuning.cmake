# The executable runs itself again with GLIBC_TUNABLES set (tools/common/malloc_tuning.hpp): the
# second run must get the same arguments and standard streams,
# so its outputs and exit codes equal those of a run that does not execute itself again
# (GLIBC_TUNABLES set, here empty). Run by ctest as
#   cmake -DGPUSCHED=<exe> -DSCENARIO=<file> -P malloc_tuning.cmake
foreach(args "replay;${SCENARIO};-o;json" "replay;${SCENARIO};--output;table;--strict"
        "replay;${SCENARIO}.missing" "check;${SCENARIO};--no-such-flag")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GLIBC_TUNABLES ${GPUSCHED} ${args}
                  OUTPUT_VARIABLE out_again ERROR_VARIABLE err_again RESULT_VARIABLE code_again)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env GLIBC_TUNABLES= ${GPUSCHED} ${args}
                  OUTPUT_VARIABLE out_once ERROR_VARIABLE err_once RESULT_VARIABLE code_once)
  if(NOT code_again STREQUAL code_once OR NOT out_again STREQUAL out_once OR
     NOT err_again STREQUAL err_once)
    message(FATAL_ERROR "gpusched ${args}: exit ${code_again} with malloc tuned, ${code_once} "
                        "without; stderr \"${err_again}\" against \"${err_once}\"")
  endif()
  if(out_again STREQUAL "" AND err_again STREQUAL "")
    message(FATAL_ERROR "gpusched ${args}: no output at all")
  endif()
endforeach()
