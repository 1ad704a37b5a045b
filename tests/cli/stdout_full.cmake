# The real executable with its standard output on a full device (Linux's /dev/full): the report
# is lost, so the run fails with exit 3 and says so, instead of "succeeding". main.cpp hands
# std::cout to cli::run, which flushes and checks it. Run by ctest as
#   cmake -DGPUSCHED=<exe> -DSCENARIO=<file> -P stdout_full.cmake
if(NOT EXISTS /dev/full)
  return()
endif()
foreach(output json table)
  execute_process(COMMAND ${GPUSCHED} replay ${SCENARIO} -o ${output}
                  OUTPUT_FILE /dev/full ERROR_VARIABLE err RESULT_VARIABLE code)
  if(NOT code EQUAL 3 OR NOT err STREQUAL
     "gpusched: error: cannot write standard output: No space left on device\n")
    message(FATAL_ERROR "replay -o ${output} > /dev/full: exit ${code}, stderr \"${err}\"")
  endif()
endforeach()
