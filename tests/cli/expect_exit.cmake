# Runs PIVOT with ARGS ('|'-separated) and prints one line "exit code: N | stdout: ... | stderr: ..."
# for PASS_REGULAR_EXPRESSION to match (the regular expression includes the exit code, since
# CTest ignores the exit code of a test that has PASS_REGULAR_EXPRESSION).
#   cmake -DPIVOT=... -DARGS="check|file.json" -P expect_exit.cmake
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PIVOT} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REPLACE "\n" " " out "${out}")
string(REPLACE "\n" " " err "${err}")
message("exit code: ${rc} | stdout: ${out} | stderr: ${err}")
