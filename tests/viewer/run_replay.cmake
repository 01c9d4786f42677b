# One viewer test: `pivot run SCENE --html` into OUT, then check_replay.mjs on OUT/replay.html
# (headless chromium), which saves OUT/screenshot.png. Prints the replay's size.
#   cmake -DPIVOT=... -DNODE=... -DSCENE=... -DOUT=... -DTOGGLES=a,b -DMAX_MB=50 -P run_replay.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${PIVOT} run ${SCENE} --out ${OUT} --html
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pivot run ${SCENE} --html exited with ${rc}: ${err}")
endif()
string(REGEX MATCH "replay +[^\n]*" line "${out}")
message("${line}")
file(SIZE "${OUT}/replay.html" bytes)
math(EXPR limit "${MAX_MB} * 1000000")
if(bytes GREATER limit)
  message(FATAL_ERROR "replay.html is ${bytes} bytes, more than ${MAX_MB} MB")
endif()
execute_process(COMMAND ${NODE} ${CMAKE_CURRENT_LIST_DIR}/check_replay.mjs ${OUT}/replay.html
                        ${OUT}/screenshot.png "${TOGGLES}"
                RESULT_VARIABLE rc)
if(rc EQUAL 77)
  message("SKIP: chromium is not installed")
  # CTest's SKIP_REGULAR_EXPRESSION reads this line
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_replay.mjs failed (exit ${rc})")
endif()
