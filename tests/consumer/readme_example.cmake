# The README's C++ example is the consumer program: the first ```cpp block of README.md must be
# the lines of tests/consumer/main.cpp between its "README example begins/ends" markers, so the
# example a newcomer copies is the one the consumer tests build and run.
#   cmake -DPIVOT_SOURCE_DIR=... -P readme_example.cmake
file(READ ${PIVOT_SOURCE_DIR}/README.md readme)
file(READ ${PIVOT_SOURCE_DIR}/tests/consumer/main.cpp program)
string(FIND "${readme}" "```cpp\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "README.md has no ```cpp block")
endif()
math(EXPR start "${start} + 7")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "```" stop)
string(SUBSTRING "${rest}" 0 ${stop} example)

set(begin_marker "// README example begins\n")
string(FIND "${program}" "${begin_marker}" begin)
string(FIND "${program}" "// README example ends" end)
if(begin EQUAL -1 OR end EQUAL -1)
  message(FATAL_ERROR "tests/consumer/main.cpp lacks its README example markers")
endif()
string(LENGTH "${begin_marker}" marker_length)
math(EXPR begin "${begin} + ${marker_length}")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${program}" ${begin} ${length} expected)
if(NOT example STREQUAL expected)
  message(FATAL_ERROR "README.md's C++ example differs from tests/consumer/main.cpp; README has:\n"
                      "${example}\nmain.cpp has:\n${expected}")
endif()
message(STATUS "README.md's C++ example is tests/consumer/main.cpp")
