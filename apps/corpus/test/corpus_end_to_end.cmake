# ansor_corpus measures two tiny random pipelines for real (2 programs each),
# a second run finds them complete, and ansor_train_model trains on the file,
# then on its first pipeline only (--corpus-pipelines).
# -DCORPUS=ansor_corpus -DTRAIN=ansor_train_model -DWORK=dir -DBUILD_TARGET=<ANSOR_TARGET, what the corpus measures for>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(file ${WORK}/tiny.jsonl.gz)
set(args --out ${file} --seeds 0-1 --stages 3 --max-size 64 --programs 2 --round 1)
foreach (run first second)
  execute_process(COMMAND ${CORPUS} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out_${run} ERROR_VARIABLE err)
  if (NOT rc EQUAL 0)
    message(FATAL_ERROR "${CORPUS} failed:\n${out_${run}}${err}")
  endif ()
endforeach ()
if (NOT out_first MATCHES "2 pipelines appended \\(0 failed\\), 4 programs" OR NOT out_second MATCHES "0 pipelines appended.*2 of 2 complete")
  message(FATAL_ERROR "expected 2 pipelines, then none more:\n${out_first}${out_second}")
endif ()
execute_process(COMMAND ${TRAIN} --corpus ${file} --out ${WORK}/model.gz --max-rounds 10 --target ${BUILD_TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0 OR NOT out MATCHES "trained on 4 programs of 2 pipelines" OR NOT EXISTS ${WORK}/model.gz)
  message(FATAL_ERROR "${TRAIN} did not train on the corpus:\n${out}${err}")
endif ()
execute_process(COMMAND ${TRAIN} --corpus ${file} --corpus-pipelines 1 --out ${WORK}/model1.gz --max-rounds 10
                        --target ${BUILD_TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0 OR NOT out MATCHES "corpus: 1 pipelines read" OR NOT out MATCHES "trained on 2 programs of 1 pipelines")
  message(FATAL_ERROR "${TRAIN} --corpus-pipelines 1 did not train on the first pipeline alone:\n${out}${err}")
endif ()
message(STATUS "corpus measured, resumed and trained on, whole and its first pipeline")
