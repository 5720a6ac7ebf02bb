# ansor_blend_models: the shipped model blended with itself scores every
# program twice as high, so it ranks 200 logged programs exactly as the
# shipped model does; a zero weight, a missing member and a single member
# are refused, the first two by name.
# -DBLEND=ansor_blend_models -DACCURACY=ansor_model_accuracy -DDATASET=model_dataset.jsonl.gz -DMODEL=ansor_cost_model.gz -DWORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/first_records.cmake)
set(blend ${WORK}/self_blend.gz)
file(REMOVE ${blend})
execute_process(COMMAND ${BLEND} ${MODEL}:1 ${MODEL}:1 --out ${blend}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0 OR NOT EXISTS ${blend})
  message(FATAL_ERROR "blending the shipped model with itself failed (exit ${rc}):\n${out}${err}")
endif ()

# Every member's trees are kept: three copies hold 1.5 times the trees of two.
string(REGEX MATCH "([0-9]+) trees of 2 models" two "${out}")
set(two_trees ${CMAKE_MATCH_1})
execute_process(COMMAND ${BLEND} ${MODEL} ${MODEL}:0.5 ${MODEL}:2 --out ${WORK}/three.gz
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "([0-9]+) trees of 3 models" three "${out}")
math(EXPR expected "${two_trees} * 3 / 2")
if (NOT rc EQUAL 0 OR NOT two OR NOT three OR NOT CMAKE_MATCH_1 EQUAL expected)
  message(FATAL_ERROR "blends of two and three copies hold ${two_trees} and ${CMAKE_MATCH_1} trees (exit ${rc}):\n${out}${err}")
endif ()

function(ranking model result)
  execute_process(COMMAND ${ACCURACY} ${log} --model ${model}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "model_file: pairwise_accuracy=([0-9.]+) recall@30=([0-9.]+)" line "${out}")
  if (NOT rc EQUAL 0 OR NOT line)
    message(FATAL_ERROR "${ACCURACY} --model ${model} failed (exit ${rc}):\n${out}${err}")
  endif ()
  set(${result} "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}" PARENT_SCOPE)
endfunction()
ranking(${MODEL} shipped)
ranking(${blend} blended)
if (NOT shipped STREQUAL blended)
  message(FATAL_ERROR "the self-blend ranks differently from the shipped model: ${blended} against ${shipped}")
endif ()

execute_process(COMMAND ${BLEND} ${MODEL}:1 ${MODEL}:0 --out ${WORK}/zero.gz
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "must be positive" named)
if (rc EQUAL 0 OR named EQUAL -1)
  message(FATAL_ERROR "a zero weight was not refused (exit ${rc}):\n${out}${err}")
endif ()
execute_process(COMMAND ${BLEND} ${MODEL} ${WORK}/no_such_model.gz --out ${WORK}/missing.gz
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "no_such_model.gz" named)
if (rc EQUAL 0 OR named EQUAL -1)
  message(FATAL_ERROR "a missing member was not refused by name (exit ${rc}):\n${out}${err}")
endif ()
execute_process(COMMAND ${BLEND} ${MODEL} --out ${WORK}/one.gz RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if (rc EQUAL 0)
  message(FATAL_ERROR "a blend of one model was not refused")
endif ()
message(STATUS "the self-blend ranks as the shipped model: pairwise and recall ${blended}")
