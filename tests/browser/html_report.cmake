# The HTML report in a real browser: `gpusched replay SCENARIO --html`, then headless Chromium
# renders the page; its DOM must show the report's script ran without an error and drew what is
# expected (#render-status carries the counts it drew), and a screenshot must come out as a PNG.
#
#   cmake -DGPUSCHED=... -DCHROMIUM=... -DSCENARIO=... -DEXPECT=data-bars=2,data-gpu-bars=0
#         -DWORK_DIR=... -P html_report.cmake
cmake_minimum_required(VERSION 3.25)

foreach(var GPUSCHED CHROMIUM SCENARIO EXPECT WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "html_report.cmake: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(page "${WORK_DIR}/report.html")
set(screenshot "${WORK_DIR}/report.png")

execute_process(COMMAND "${GPUSCHED}" replay "${SCENARIO}" --html "${page}"
                RESULT_VARIABLE replayed OUTPUT_QUIET ERROR_VARIABLE replay_err)
if(NOT replayed EQUAL 0)
  message(FATAL_ERROR "gpusched replay --html exited ${replayed}: ${replay_err}")
endif()

# Root in a container needs --no-sandbox; a profile of its own lets tests run in parallel.
set(chromium "${CHROMIUM}" --headless --no-sandbox --disable-gpu --no-first-run
             --user-data-dir=${WORK_DIR}/profile)
execute_process(COMMAND ${chromium} --dump-dom "file://${page}"
                RESULT_VARIABLE dumped OUTPUT_VARIABLE dom ERROR_VARIABLE chromium_err
                TIMEOUT 120)
if(NOT dumped EQUAL 0)
  message(FATAL_ERROR "chromium --dump-dom exited ${dumped}: ${chromium_err}")
endif()
string(REGEX MATCH "<div id=\"render-status\"[^>]*>[^<]*" status "${dom}")
if(status STREQUAL "")
  message(FATAL_ERROR "no #render-status in the rendered page:\n${dom}")
endif()
string(REPLACE "," ";" expected "data-done=1,data-errors=0,${EXPECT}")
foreach(pair IN LISTS expected)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 value)
  if(NOT status MATCHES " ${name}=\"${value}\"")
    message(FATAL_ERROR "expected ${name}=\"${value}\" in the rendered page, got:\n${status}")
  endif()
endforeach()

execute_process(COMMAND ${chromium} --screenshot=${screenshot} --window-size=1400,1000
                        --hide-scrollbars "file://${page}"
                RESULT_VARIABLE shot ERROR_VARIABLE chromium_err TIMEOUT 120)
if(NOT shot EQUAL 0 OR NOT EXISTS "${screenshot}")
  message(FATAL_ERROR "chromium --screenshot exited ${shot}: ${chromium_err}")
endif()
file(SIZE "${screenshot}" size)
file(READ "${screenshot}" signature LIMIT 8 HEX)
if(size EQUAL 0 OR NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "the screenshot is not a PNG (${size} bytes, starts ${signature})")
endif()
message(STATUS "rendered ${SCENARIO}: ${status}; screenshot ${screenshot} (${size} bytes)")
