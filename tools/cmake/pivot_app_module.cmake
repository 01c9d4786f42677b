# The application layer (docs/architecture.md "The application layer"): the modules the pivot
# command is made of, each a folder of tools/ and a static library, kept apart as the library's
# modules are.
#
# pivot_app_module(NAME [DEPS module...] [LINK target...])
#   A static library pivot_app_NAME from tools/NAME/*.cpp, linked to the library (pivot::pivot),
#   to the app modules in DEPS and to the targets in LINK (Boost, nlohmann_json, ...). It is
#   compiled against its own include root ${PROJECT_BINARY_DIR}/app_layers/NAME, which holds
#   NAME and each DEP as links to their folders and nothing else: an app module's headers are
#   included as "NAME/<file>.hpp", and an include of an app module that is not a declared
#   dependency is "file not found". DEPS lists every module included, also through a header.
#
# pivot_app_include_root(TARGET NAME DEPS module...)
#   Compiles TARGET (the command itself, a test, a fuzz target) against such a root,
#   ${PROJECT_BINARY_DIR}/app_layers/NAME, that links the app modules DEPS.
#
# The graph is kept in global properties for tests/architecture: PIVOT_APP_MODULES and
# PIVOT_APP_MODULE_DEPS_NAME.

function(pivot_app_include_root target name)
  set(root ${PROJECT_BINARY_DIR}/app_layers/${name})
  file(MAKE_DIRECTORY ${root})
  foreach(module IN LISTS ARGN)
    if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/tools/${module})
      message(FATAL_ERROR "pivot_app_include_root(${name}): no app module tools/${module}")
    endif()
    pivot_link_folder(${PROJECT_SOURCE_DIR}/tools/${module} ${root}/${module})
  endforeach()
  target_include_directories(${target} PRIVATE ${root})
endfunction()

function(pivot_app_module name)
  cmake_parse_arguments(M "" "" "DEPS;LINK" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/${name}/*.cpp)
  add_library(pivot_app_${name} STATIC ${sources})
  if(NOT PIVOT_BUILD_TOOLS)
    # only the fuzz targets use it: built when they are
    set_target_properties(pivot_app_${name} PROPERTIES EXCLUDE_FROM_ALL ON)
  endif()
  target_compile_options(pivot_app_${name} PRIVATE ${PIVOT_WARNINGS} ${PIVOT_FP_FLAGS})
  pivot_app_include_root(pivot_app_${name} ${name} ${name} ${M_DEPS})
  set(deps)
  foreach(dep IN LISTS M_DEPS)
    list(APPEND deps pivot_app_${dep})
  endforeach()
  target_link_libraries(pivot_app_${name} PUBLIC pivot::pivot ${deps} fmt::fmt ${M_LINK})
  set_property(GLOBAL APPEND PROPERTY PIVOT_APP_MODULES ${name})
  set_property(GLOBAL PROPERTY PIVOT_APP_MODULE_DEPS_${name} ${M_DEPS})
endfunction()
