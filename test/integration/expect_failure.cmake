# Runs COMMAND (a ;-list) and passes only if it fails and its output
# contains EXPECT: used to check that bad input gets a clear error.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (rc EQUAL 0)
  message(FATAL_ERROR "expected a failure, got success:\n${out}${err}")
endif ()
string(FIND "${out}${err}" "${EXPECT}" at)
if (at EQUAL -1)
  message(FATAL_ERROR "the error does not say '${EXPECT}':\n${out}${err}")
endif ()
message(STATUS "failed as expected with: ${EXPECT}")
