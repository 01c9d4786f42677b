# pivot_module(NAME [FOLDER folder] [DEPS module...] PUBLIC_HEADERS header...)
#
# Declares one module of the library: an OBJECT target pivot_NAME from FOLDER/**/*.cpp (FOLDER
# is NAME unless given: the scenes module's code is scenes/format/, beside the shipped scenes),
# compiled against its own include root ${PROJECT_BINARY_DIR}/layers/NAME, which holds
# pivot/NAME and pivot/DEP for each allowed dependency as links to their source folders, and
# nothing else. An include of a module that is not allowed therefore fails to compile.
#
# Sets, in the caller's scope: PIVOT_MODULES (appended), PIVOT_MODULE_DEPS_NAME,
# PIVOT_MODULE_FOLDER_NAME (the source folder, relative to the project),
# PIVOT_PUBLIC_HEADERS_NAME (relative to the folder; the installed headers), and
# PIVOT_INCLUDE_ROOT (the root that links every module, for users of the whole library in the
# build tree).

set(PIVOT_INCLUDE_ROOT ${PROJECT_BINARY_DIR}/include)

# a link at `link` to the folder `target`, made anew on every configure
function(pivot_link_folder target link)
  if(IS_SYMLINK ${link} OR EXISTS ${link})
    file(REMOVE ${link})
  endif()
  file(CREATE_LINK ${target} ${link} SYMBOLIC)
endfunction()

function(pivot_module name)
  cmake_parse_arguments(M "" "FOLDER" "DEPS;PUBLIC_HEADERS" ${ARGN})
  if(NOT M_FOLDER)
    set(M_FOLDER ${name})
  endif()
  set(PIVOT_MODULE_FOLDER_${name} ${M_FOLDER})
  set(folder ${PROJECT_SOURCE_DIR}/${M_FOLDER})
  set(layer ${PROJECT_BINARY_DIR}/layers/${name})
  file(MAKE_DIRECTORY ${layer}/pivot ${PIVOT_INCLUDE_ROOT}/pivot)
  foreach(module IN ITEMS ${name} ${M_DEPS})
    pivot_link_folder(${PROJECT_SOURCE_DIR}/${PIVOT_MODULE_FOLDER_${module}} ${layer}/pivot/${module})
  endforeach()
  pivot_link_folder(${folder} ${PIVOT_INCLUDE_ROOT}/pivot/${name})

  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  foreach(header IN LISTS M_PUBLIC_HEADERS)
    if(NOT EXISTS ${folder}/${header})
      message(FATAL_ERROR "pivot_module(${name}): public header ${header} does not exist")
    endif()
  endforeach()

  add_library(pivot_${name} OBJECT ${sources})
  target_compile_features(pivot_${name} PUBLIC cxx_std_20)
  set_target_properties(pivot_${name} PROPERTIES CXX_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
  target_compile_options(pivot_${name} PRIVATE ${PIVOT_WARNINGS} ${PIVOT_FP_FLAGS})
  target_include_directories(pivot_${name} PRIVATE ${layer} ${PROJECT_BINARY_DIR}/generated)
  target_link_libraries(pivot_${name} PRIVATE Eigen3::Eigen fmt::fmt)
  if(PIVOT_UNITY_BUILD)
    set_target_properties(pivot_${name} PROPERTIES UNITY_BUILD ON)
  endif()

  set(PIVOT_MODULES ${PIVOT_MODULES} ${name} PARENT_SCOPE)
  set(PIVOT_MODULE_DEPS_${name} ${M_DEPS} PARENT_SCOPE)
  set(PIVOT_MODULE_FOLDER_${name} ${M_FOLDER} PARENT_SCOPE)
  set(PIVOT_PUBLIC_HEADERS_${name} ${M_PUBLIC_HEADERS} PARENT_SCOPE)
endfunction()
