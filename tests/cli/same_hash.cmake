# The built-in default scene and scenes/default.json give the same final-state hash.
#   cmake -DPIVOT=... -DSCENE=.../default.json -DOUT=... -P same_hash.cmake
set(hashes)
foreach(scene "" "${SCENE}")
  file(REMOVE_RECURSE "${OUT}")
  execute_process(COMMAND ${PIVOT} run ${scene} --out ${OUT} --duration 0.05 --quiet
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pivot run ${scene} exited with ${rc}: ${err}")
  endif()
  file(READ "${OUT}/summary.json" summary)
  string(JSON hash GET "${summary}" final_state_hash)
  list(APPEND hashes ${hash})
endforeach()
list(GET hashes 0 builtin)
list(GET hashes 1 file)
if(NOT builtin STREQUAL file)
  message(FATAL_ERROR "built-in default scene ${builtin} != scenes/default.json ${file}")
endif()
