# A viewer check on a fresh replay: `pivot run SCENE --html` into OUT, then
# `node CHECK OUT/replay.html CHECK_ARGS...` (headless chromium; exit 77 without it).
#   cmake -DPIVOT=... -DNODE=... -DSCENE=... -DOUT=... -DCHECK=file.mjs [-DCHECK_ARGS=a,b]
#         [-DRUN_ARGS=a,b] (more arguments of pivot run)
#         -P run_check.cmake
string(REPLACE "," ";" CHECK_ARGS "${CHECK_ARGS}")
string(REPLACE "," ";" RUN_ARGS "${RUN_ARGS}")
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${PIVOT} run ${SCENE} --out ${OUT} --html --quiet ${RUN_ARGS}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pivot run ${SCENE} --html exited with ${rc}: ${err}")
endif()
execute_process(COMMAND ${NODE} ${CHECK} ${OUT}/replay.html ${CHECK_ARGS} RESULT_VARIABLE rc)
if(rc EQUAL 77)
  message("SKIP: chromium is not installed")
  # the test's SKIP_RETURN_CODE
  cmake_language(EXIT 77)
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CHECK} failed (exit ${rc})")
endif()
