# Pretraining end to end: ansor_export_pretraining featurises logged suite
# programs into a set, refuses to write over that set, and the plugin,
# given the set with HL_ANSOR_PRETRAIN, trains its model on it before the
# first round and still computes the right result.
# -DEXPORT=ansor_export_pretraining -DPLUGIN_TEST=ansor_plugin_load_test
# -DPLUGIN=libansor.so -DDATASET=model_dataset.jsonl.gz -DWORK=dir
# -DBUILD_TARGET=<ANSOR_TARGET> -DDATASET_TARGET=<the target the data set was measured on>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(log ${WORK}/records.jsonl)
set(set_file ${WORK}/pretraining.jsonl)
execute_process(COMMAND sh -c "zcat '${DATASET}' | head -n 600 > '${log}'" RESULT_VARIABLE rc)
if (NOT rc EQUAL 0)
  message(FATAL_ERROR "could not extract 600 records of ${DATASET}")
endif ()
# The plugin refuses a set measured on another target. Where the build's
# target is not the data set's (an AVX2 machine), the records are relabelled:
# what is under test is the export and the plugin's use of the set.
if (NOT "${BUILD_TARGET}" STREQUAL "${DATASET_TARGET}")
  file(READ ${log} records)
  string(REPLACE "\"target\":\"${DATASET_TARGET}\"" "\"target\":\"${BUILD_TARGET}\"" records "${records}")
  file(WRITE ${log} "${records}")
endif ()

execute_process(COMMAND ${EXPORT} ${log} --out ${set_file} --cap 50 --target ${BUILD_TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0 OR NOT out MATCHES "wrote .*: [0-9]+ programs of [0-9]+ pipelines")
  message(FATAL_ERROR "export failed (${rc}):\n${out}${err}")
endif ()
file(SIZE ${set_file} size_before)

execute_process(COMMAND ${EXPORT} ${log} --out ${set_file} --cap 10 --target ${BUILD_TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(SIZE ${set_file} size_after)
if (rc EQUAL 0 OR NOT err MATCHES "already exists" OR NOT size_before EQUAL size_after)
  message(FATAL_ERROR "a second export wrote over the set (${rc}, ${size_before} -> ${size_after} bytes):\n${out}${err}")
endif ()

execute_process(COMMAND ${CMAKE_COMMAND} -E env HL_ANSOR_TRIALS=4 HL_ANSOR_PRETRAIN=${set_file}
                        ${PLUGIN_TEST} ${PLUGIN}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if (NOT rc EQUAL 0 OR NOT out MATCHES "PASS" OR NOT err MATCHES "cost model pretrained on [1-9][0-9]* programs")
  message(FATAL_ERROR "the plugin did not tune with the pretraining set (${rc}):\n${out}${err}")
endif ()
message(STATUS "exported, kept, and pretrained the plugin's model")
