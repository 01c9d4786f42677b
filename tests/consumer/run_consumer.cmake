# Builds and runs tests/consumer against Pivot, as a user's project would:
#   MODE=find_package      install the build tree into a prefix, then find_package(pivot)
#   MODE=add_subdirectory  add_subdirectory(<pivot source>) inside the consumer
foreach(var MODE PIVOT_SOURCE_DIR PIVOT_BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGV}")
  endif()
endfunction()

# add_subdirectory compiles the whole library again: without optimization, to keep it quick
if(MODE STREQUAL "find_package")
  set(build_type Release)
else()
  set(build_type Debug)
endif()
set(configure_args -G Ninja -S ${PIVOT_SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build
    -DCMAKE_BUILD_TYPE=${build_type} -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCONSUMER_MODE=${MODE})
if(CMAKE_CXX_COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
endif()
if(MODE STREQUAL "find_package")
  run(${CMAKE_COMMAND} --install ${PIVOT_BUILD_DIR} --prefix ${WORK_DIR}/prefix)
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
       -DPIVOT_PREFIX=${WORK_DIR}/prefix)
else()
  # with the library's default options, as a user's project gets them: one object per source
  # file (PIVOT_UNITY_BUILD OFF). Every other build here uses unity batches, which hid files
  # that compiled only beside their batch's neighbours (a name from another file's namespace).
  list(APPEND configure_args -DPIVOT_SOURCE_DIR=${PIVOT_SOURCE_DIR})
endif()
run(${CMAKE_COMMAND} ${configure_args})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
run(${WORK_DIR}/build/consumer_planar)
