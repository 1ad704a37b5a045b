# deploy/: the Jobs replayed by gpusched itself, and the Job's sharded sweep run as N local
# processes, each with JOB_COMPLETION_INDEX set as an Indexed Job sets it, from a directory laid
# out as the ConfigMap mounts it; `merge` must give the unsharded table byte for byte. Run by
# ctest as
#   cmake -DGPUSCHED=<exe> -DSOURCE=<checkout> -DWORK_DIR=<dir> -P deploy_sweep.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/plans)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${ARGN}\nexit ${code}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run(${GPUSCHED} check ${SOURCE}/deploy/sweep-on-cluster.json)

# The shard count the Job asks for, from its manifest: completions, parallelism and --shard.
file(READ ${SOURCE}/deploy/sweep-job.yaml job)
string(REGEX MATCH "completions: ([0-9]+)" _ "${job}")
set(shards ${CMAKE_MATCH_1})
string(REGEX MATCH "--shard ([0-9]+)" _ "${job}")
if(NOT CMAKE_MATCH_1 STREQUAL shards OR NOT job MATCHES "parallelism: ${shards}\n")
  message(FATAL_ERROR "sweep-job.yaml: completions ${shards}, parallelism and --shard differ")
endif()

# The ConfigMap's files, side by side.
file(COPY ${SOURCE}/deploy/fragmentation-sweep.yaml
          ${SOURCE}/scenarios/gpu-fragmentation-spread.json
          ${SOURCE}/examples/planning/least-allocated.yaml
          ${SOURCE}/examples/planning/most-allocated.yaml
     DESTINATION ${WORK_DIR}/plans)
set(sweep ${WORK_DIR}/plans/fragmentation-sweep.yaml)

run(${GPUSCHED} sweep ${sweep})
set(whole "${out}")
set(shard_files)
math(EXPR last "${shards} - 1")
foreach(i RANGE ${last})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env JOB_COMPLETION_INDEX=${i}
                          ${GPUSCHED} sweep ${sweep} --shard ${shards}
                  OUTPUT_FILE ${WORK_DIR}/shard-${i}.csv RESULT_VARIABLE code ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "shard ${i}: exit ${code}\n${err}")
  endif()
  list(APPEND shard_files ${WORK_DIR}/shard-${i}.csv)
endforeach()
run(${GPUSCHED} merge ${shard_files})
if(NOT out STREQUAL whole)
  message(FATAL_ERROR "merged shards differ from the whole sweep:\n${out}\n---\n${whole}")
endif()
string(REGEX MATCHALL "\n" lines "${whole}")
list(LENGTH lines count)
message(STATUS "${shards} shards merged into the whole sweep's ${count} lines, byte for byte")
