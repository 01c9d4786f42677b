# One viewer test: `pivot run SCENE --html [RUN_ARGS]` into OUT (with REPLAY_ARGS, the replay is
# then rewritten by `pivot replay OUT REPLAY_ARGS`, and must say that its frames are decimated),
# then check_replay.mjs on OUT/replay.html (headless chromium), which saves OUT/screenshot.png.
#   cmake -DPIVOT=... -DNODE=... -DSCENE=... -DOUT=... -DTOGGLES=a,b -DMAX_MB=50
#         [-DRUN_ARGS=a,b] [-DREPLAY_ARGS=a,b] -P run_replay.cmake
string(REPLACE "," ";" RUN_ARGS "${RUN_ARGS}")
string(REPLACE "," ";" REPLAY_ARGS "${REPLAY_ARGS}")
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${PIVOT} run ${SCENE} --out ${OUT} --html ${RUN_ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pivot run ${SCENE} --html exited with ${rc}: ${err}")
endif()
if(REPLAY_ARGS)
  execute_process(COMMAND ${PIVOT} replay ${OUT} ${REPLAY_ARGS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pivot replay ${OUT} ${REPLAY_ARGS} exited with ${rc}: ${err}")
  endif()
  file(STRINGS "${OUT}/replay.html" notes REGEX "frames decimated")
  if(NOT notes)
    message(FATAL_ERROR "the decimated replay does not say so")
  endif()
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
  # CTest's SKIP_REGULAR_EXPRESSION reads this line
  message("SKIP: chromium is not installed")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_replay.mjs failed (exit ${rc})")
endif()
