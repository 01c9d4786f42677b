# pivot replay on corrupted and truncated run folders: each case damages one file of a good
# run (pivot run RUN_SCENE into OUT/good) in a copy, and expects exit code 2 and one line naming
# the file and the place. Then the good folder replays (exit 0), when pivot has the viewer.
#   cmake -DPIVOT=... -DSCENE=... -DOUT=... -P replay_errors.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${PIVOT} run ${SCENE} --out ${OUT}/good --duration 0.05 --quiet
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pivot run ${SCENE} exited with ${rc}: ${err}")
endif()

# removes the last n lines of a file, keeping its last line break (a file cut between lines)
function(drop_last_lines path n)
  file(STRINGS ${path} rows)
  list(LENGTH rows count)
  math(EXPR count "${count} - ${n}")
  list(SUBLIST rows 0 ${count} rows)
  list(JOIN rows "\n" text)
  file(WRITE ${path} "${text}\n")
endfunction()

set(failures 0)
# case name, file, how to damage it (a CMake snippet on ${path}), the expected error (regex)
function(expect_error name file damage expected)
  set(dir ${OUT}/${name})
  file(COPY ${OUT}/good/ DESTINATION ${dir})
  set(path ${dir}/${file})
  cmake_language(EVAL CODE "${damage}")
  execute_process(COMMAND ${PIVOT} replay ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(STRIP "${err}" err)
  string(REGEX MATCHALL "\n" lines "${err}")
  if(NOT rc EQUAL 2 OR NOT err MATCHES "^pivot: error: [^\n]*${expected}" OR lines)
    message("FAIL  ${name}: exit ${rc}, stderr: ${err}\n      expected exit 2 and one line matching: ${expected}")
    math(EXPR failures "${failures} + 1")
    set(failures ${failures} PARENT_SCOPE)
  else()
    message("ok    ${name}: ${err}")
  endif()
endfunction()

expect_error(missing-folder "" [[file(REMOVE_RECURSE ${dir})]] "missing-folder: is not a run folder")
expect_error(trajectory-cut-mid-line trajectory.csv
  [[file(READ ${path} t)
    string(LENGTH "${t}" n)
    math(EXPR n "${n} - 7")
    string(SUBSTRING "${t}" 0 ${n} t)
    file(WRITE ${path} "${t}")]]
  "trajectory.csv: line [0-9]+: the line is cut off before its end \\(the file is truncated\\)")
expect_error(trajectory-cut-mid-frame trajectory.csv
  [[drop_last_lines(${path} 1)]]
  "trajectory.csv: line [0-9]+: the last frame is incomplete \\(the file is truncated\\)")
expect_error(trajectory-empty trajectory.csv [[file(WRITE ${path} "")]]
  "trajectory.csv: line 1: expected the header \"t,body,x,")
expect_error(trajectory-bad-number trajectory.csv
  [[file(READ ${path} t)
    string(REGEX REPLACE "\n(0,[^,]*,)[^,]*" "\n\\1x1.5" t "${t}")
    file(WRITE ${path} "${t}")]]
  "trajectory.csv: line 2: column x: expected a finite number \\(got \"x1.5\"\\)")
expect_error(trajectory-unknown-body trajectory.csv
  [[file(READ ${path} t)
    string(REGEX REPLACE "\n0,link3," "\n0,nobody," t "${t}")
    file(WRITE ${path} "${t}")]]
  "trajectory.csv: line 4: body \"nobody\" is not a body of shapes.json")
expect_error(metrics-missing metrics.csv [[file(REMOVE ${path})]]
  "metrics.csv: cannot be read")
expect_error(metrics-short-row metrics.csv
  [[file(APPEND ${path} "0.5,1,2\n")]]
  "metrics.csv: line [0-9]+: expected 12 columns \\(got 3\\)")
expect_error(summary-not-json summary.json [[file(WRITE ${path} "{\"scene\": ")]]
  "summary.json: not valid JSON")
expect_error(summary-no-hash summary.json [[file(WRITE ${path} "{\"scene\": \"s\", \"dt\": 0.001}")]]
  "summary.json: missing key \"final_state_hash\"")
expect_error(shapes-missing shapes.json [[file(REMOVE ${path})]] "shapes.json: cannot be read")
expect_error(shapes-bad-part shapes.json
  [[file(READ ${path} t)
    string(REPLACE "\"half_extents\"" "\"half_extent\"" t "${t}")
    file(WRITE ${path} "${t}")]]
  "shapes.json: /bodies/0/parts/0: missing key \"half_extents\"")
expect_error(joints-cut joints.csv
  [[drop_last_lines(${path} 2)]]
  "joints.csv: the frame at t = [0-9.e-]+ has 4 joint rows, the first frame 6")
expect_error(contacts-off-frame contacts.csv
  [[file(APPEND ${path} "0.0123,link1,link2,0,0,0,0,0,1,0,1,0,0,0\n")]]
  "contacts.csv: line 2: t = 0.0123 is not a frame time of trajectory.csv")

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} damaged run folder(s) not reported as expected")
endif()
execute_process(COMMAND ${PIVOT} replay ${OUT}/good RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(rc EQUAL 2 AND err MATCHES "replays are unavailable")
  message("ok    the good folder: no viewer in this build (${err})")
elseif(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/good/replay.html)
  message(FATAL_ERROR "pivot replay on the good folder exited with ${rc}: ${err}")
else()
  message("ok    the good folder replays: ${out}")
endif()
