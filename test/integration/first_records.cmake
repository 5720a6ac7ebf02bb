# The first 200 records of the gzip'd data set DATASET, written to
# ${WORK}/first_200_records.jsonl; sets `log` to that file. The data-set
# tests include this to rank a small slice of the suite's programs.
file(MAKE_DIRECTORY ${WORK})
set(log ${WORK}/first_200_records.jsonl)
execute_process(COMMAND sh -c "zcat '${DATASET}' | head -n 200 > '${log}'" RESULT_VARIABLE rc)
if (NOT rc EQUAL 0)
  message(FATAL_ERROR "could not extract 200 records of ${DATASET}")
endif ()
