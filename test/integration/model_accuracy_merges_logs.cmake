# The accuracy benchmark reads a program measured in two logs as one program:
# the same 200 records given as two logs must make 200 programs, not 400
# (a program in both the train and the test split would flatter the model).
# -DTOOL=ansor_model_accuracy -DDATASET=model_dataset.jsonl.gz -DWORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/first_records.cmake)
execute_process(COMMAND ${TOOL} ${log} ${log} --no-leave-one-out --max-rounds 20
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} failed:\n${out}${err}")
endif ()
string(FIND "${out}" "200 programs" programs)
string(FIND "${out}" "(400 records, 200 duplicates merged" merged)
if (programs EQUAL -1 OR merged EQUAL -1)
  message(FATAL_ERROR "expected 200 programs from 400 records, 200 merged:\n${out}")
endif ()
message(STATUS "two copies of one log make one set of programs")
