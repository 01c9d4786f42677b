# The installed scenes are complete: installs the component "scenes" (tools/CMakeLists.txt) of
# the build tree into a prefix, then checks that every shipped scene and sweep file
# (scenes/**/*.json, not scenes/format/) is installed, and so is every file it refers to: a
# JSON string of the file that names a file beside it in the source tree (a mesh, a URDF robot,
# a BVH clip, a trajectory, the scene of a sweep) must name one in the installed scenes too.
# Prints every file missing, then fails if one was.
foreach(var PIVOT_SOURCE_DIR PIVOT_BUILD_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "installed_scenes.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${PIVOT_BUILD_DIR} --component scenes
                        --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install --component scenes failed (${rc})")
endif()

set(source ${PIVOT_SOURCE_DIR}/scenes)
set(installed ${WORK_DIR}/prefix/share/pivot/scenes)
file(GLOB_RECURSE scene_files RELATIVE ${source} ${source}/*.json)
list(FILTER scene_files EXCLUDE REGEX "^format/")
set(missing 0)
set(references 0)
foreach(scene IN LISTS scene_files)
  if(NOT EXISTS ${installed}/${scene})
    message(STATUS "not installed: ${scene}")
    math(EXPR missing "${missing} + 1")
    continue()
  endif()
  get_filename_component(folder ${scene} DIRECTORY)
  file(READ ${source}/${scene} text)
  string(REGEX MATCHALL "\"[^\";\n]+\"" strings "${text}")
  foreach(quoted IN LISTS strings)
    string(REGEX REPLACE "^\"(.*)\"$" "\\1" value "${quoted}")
    if(folder)
      set(value ${folder}/${value})
    endif()
    if(NOT EXISTS ${source}/${value} OR IS_DIRECTORY ${source}/${value})
      continue()
    endif()
    math(EXPR references "${references} + 1")
    if(NOT EXISTS ${installed}/${value})
      message(STATUS "not installed: ${value} (${scene} refers to it)")
      math(EXPR missing "${missing} + 1")
    endif()
  endforeach()
endforeach()

list(LENGTH scene_files count)
if(count EQUAL 0)
  message(FATAL_ERROR "no shipped scene found in ${source}")
endif()
if(missing GREATER 0)
  message(FATAL_ERROR "${missing} shipped file(s) not installed")
endif()
message(STATUS "${count} scene and sweep files and the ${references} files they refer to are installed")
