# Runs COMMAND (a ;-list) and passes only if it succeeds and its output
# contains EXPECT.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0)
  message(FATAL_ERROR "expected success, got ${rc}:\n${out}${err}")
endif ()
string(FIND "${out}${err}" "${EXPECT}" at)
if (at EQUAL -1)
  message(FATAL_ERROR "the output does not say '${EXPECT}':\n${out}${err}")
endif ()
message(STATUS "succeeded and said: ${EXPECT}")
