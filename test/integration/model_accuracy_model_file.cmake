# --model ranks measured programs by a trained model file and trains nothing:
# the shipped model, trained on the suite data set, must rank 200 of its
# programs far better than chance (it has seen them), and a file that is
# not a model must be refused by name.
# -DTOOL=ansor_model_accuracy -DDATASET=model_dataset.jsonl.gz -DMODEL=ansor_cost_model.gz -DWORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/first_records.cmake)
execute_process(COMMAND ${TOOL} ${log} --model ${MODEL}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} --model failed:\n${out}${err}")
endif ()
string(REGEX MATCH "model_file: pairwise_accuracy=([0-9.]+)" line "${out}")
if (NOT line)
  message(FATAL_ERROR "no model_file summary line:\n${out}")
endif ()
if (CMAKE_MATCH_1 LESS 0.7)
  message(FATAL_ERROR "the shipped model ranks its own training programs at ${CMAKE_MATCH_1}:\n${out}")
endif ()
string(FIND "${out}" "model_file top1:" top1)
if (top1 EQUAL -1)
  message(FATAL_ERROR "no top-1 line:\n${out}")
endif ()
execute_process(COMMAND ${TOOL} ${log} --model ${log}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "${log}" named)
if (rc EQUAL 0 OR named EQUAL -1)
  message(FATAL_ERROR "a log given as --model was not refused by name (exit ${rc}):\n${out}${err}")
endif ()
message(STATUS "the shipped model ranks logged programs through --model: pairwise ${CMAKE_MATCH_1}")
