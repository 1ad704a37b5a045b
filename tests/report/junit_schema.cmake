# `gpusched check --junit` against docs/junit.xsd: on the bundled scenarios (all pass), and on
# scenarios that fail an expectation, cannot be replayed or assert nothing. XSD 1.0 cannot compare
# the counts with the testcases, so XPath does. Copies of a report broken in ways a renderer would
# misread must fail the schema, or the schema has stopped guarding anything. Run by ctest as
#   cmake -DGPUSCHED=<exe> -DXMLLINT=<xmllint> -DSCHEMA=<xsd> -DSCENARIOS=<dir> -DWORK_DIR=<dir>
#         -P junit_schema.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# Runs the command and fails unless it exits with `expected`; its stdout is left in `out`.
function(run expected)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL expected)
    message(FATAL_ERROR "${ARGN}\nexit ${code}, expected ${expected}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# The value of an XPath 1.0 expression on `report`.
function(xpath report expression)
  run(0 ${XMLLINT} --xpath "${expression}" ${report})
  string(STRIP "${out}" out)
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Validates `report` against the schema, then checks that every count is the number of its
# testcases, with a failure or with an error, in the whole report and in each suite.
function(validate report)
  run(0 ${XMLLINT} --noout --schema ${SCHEMA} ${report})
  xpath(${report} "/testsuites/@tests = count(//testcase) and \
/testsuites/@failures = count(//testcase[failure]) and \
/testsuites/@errors = count(//testcase[error]) and \
not(//testsuite[@tests != count(testcase) or @failures != count(testcase[failure]) or \
@errors != count(testcase[error])])")
  if(NOT out STREQUAL "true")
    message(FATAL_ERROR "${report}: the counts disagree with the testcases")
  endif()
endfunction()

# (a) Every bundled scenario passes: a suite each, no failure, no error.
run(0 ${GPUSCHED} check ${SCENARIOS} --junit ${WORK_DIR}/scenarios.xml)
if(NOT out MATCHES "\n([0-9]+) passed, 0 failed\n")
  message(FATAL_ERROR "check ${SCENARIOS}: ${out}")
endif()
set(passed ${CMAKE_MATCH_1})
validate(${WORK_DIR}/scenarios.xml)
xpath(${WORK_DIR}/scenarios.xml "concat(count(//testsuite), ' ', count(//failure | //error))")
if(NOT out STREQUAL "${passed} 0")
  message(FATAL_ERROR "scenarios.xml: ${out}; expected ${passed} suites, none failed")
endif()

# (b) One expectation holds and one fails (markup and quotes in the name, a multi-line message),
# a file with a type error on line 3, and a scenario without expectations.
file(WRITE ${WORK_DIR}/problems/failing.json [=[
{
  "name": "gpu <demo> & \"friends\"",
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1"},
     "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110", "nvidia.com/gpu": "1"}}},
    {"kind": "Pod", "metadata": {"name": "a"},
     "spec": {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}},
    {"kind": "Pod", "metadata": {"name": "b"},
     "spec": {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]}}
  ],
  "expect": [
    {"at": "end", "pods": "default/*", "phases": {"Running": 1, "Pending": 1}},
    {"at": "end", "pod": "default/b", "phase": "Running"}
  ]
}
]=])
file(WRITE ${WORK_DIR}/problems/broken.json [=[
{
  "name": "broken",
  "cluster": 3
}
]=])
file(WRITE ${WORK_DIR}/problems/bare.json [=[
{"name": "bare", "cluster": []}
]=])
run(1 ${GPUSCHED} check ${WORK_DIR}/problems --junit ${WORK_DIR}/problems.xml)
if(NOT out MATCHES "\n0 passed, 3 failed\n")
  message(FATAL_ERROR "check ${WORK_DIR}/problems: ${out}")
endif()
validate(${WORK_DIR}/problems.xml)
xpath(${WORK_DIR}/problems.xml "concat(/testsuites/@tests, ' ', /testsuites/@failures, ' ', \
/testsuites/@errors, ' ', //testcase[error]/@line, ' ', \
//failure[@type = 'NoExpectations']/../@file)")
if(NOT out STREQUAL "4 2 1 3 ${WORK_DIR}/problems/bare.json")
  message(FATAL_ERROR "problems.xml: ${out}")
endif()

# (c) Characters XML 1.0 cannot carry, from the input: U+FFFE, U+FFFF and control characters in
# the scenario's name and messages, and a file name that is not UTF-8. The report must still be
# well-formed (xmllint parses it) and valid.
string(ASCII 255 not_utf8)
file(WRITE "${WORK_DIR}/odd/odd${not_utf8}name.json" [=[
{
  "name": "odd \uFFFE \uFFFF \u0001 \u001b[31m \u007f \u009b end",
  "cluster": [
    {"kind": "Node", "metadata": {"name": "w1"},
     "status": {"capacity": {"cpu": "8", "memory": "32Gi", "pods": "110"}}}
  ],
  "expect": [
    {"at": "end", "pods": "default/*", "phases": {"Running": 1}}
  ]
}
]=])
file(WRITE "${WORK_DIR}/odd/broken${not_utf8}.json" [=[
{"name": "b", "cluster": [{"kind": "Node", "metadata": {"name": "\u0000\uFFFF"}}]}
]=])
run(1 ${GPUSCHED} check ${WORK_DIR}/odd --junit ${WORK_DIR}/odd.xml)
validate(${WORK_DIR}/odd.xml)
xpath(${WORK_DIR}/odd.xml "concat(/testsuites/@tests, ' ', /testsuites/@failures, ' ', \
/testsuites/@errors)")
if(NOT out STREQUAL "2 1 1")
  message(FATAL_ERROR "odd.xml: ${out}")
endif()

# The schema rejects what a renderer would misread: a count that is not an integer, a testcase
# without its file, a failure without its type, line 0.
file(READ ${WORK_DIR}/problems.xml report)
function(rejects pattern replacement)
  string(REGEX REPLACE "${pattern}" "${replacement}" broken "${report}")
  if(broken STREQUAL report)
    message(FATAL_ERROR "problems.xml has no match for ${pattern}")
  endif()
  file(WRITE ${WORK_DIR}/broken.xml "${broken}")
  execute_process(COMMAND ${XMLLINT} --noout --schema ${SCHEMA} ${WORK_DIR}/broken.xml
                  RESULT_VARIABLE code OUTPUT_QUIET ERROR_QUIET)
  if(code EQUAL 0)
    message(FATAL_ERROR
            "the schema accepts problems.xml with \"${pattern}\" made \"${replacement}\"")
  endif()
endfunction()
rejects(" tests=\"4\" failures=\"2\"" " tests=\"4.0\" failures=\"2\"")
rejects(" name=\"replay\" file=\"[^\"]*\"" " name=\"replay\"")
rejects(" type=\"ExpectationFailed\"" "")
rejects(" line=\"3\"" " line=\"0\"")
