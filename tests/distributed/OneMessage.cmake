# A mistake every rank of `mpirun -np 2 tessera ...` finds must be printed once, not once per
# rank, without Open MPI's abort banner, and every rank must exit with status 2 (mpirun passes
# it on). -DTESSERA=... -DMPIEXEC=... -DARGS="sweep ..." (a ;-list) -DMESSAGE="error: ..."
execute_process(COMMAND ${MPIEXEC} --allow-run-as-root --oversubscribe -np 2 ${TESSERA} ${ARGS}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 240)
set(all "${out}${err}")
string(LENGTH "${all}" with)
string(REPLACE "${MESSAGE}" "" stripped "${all}")
string(LENGTH "${stripped}" without)
string(LENGTH "${MESSAGE}" length)
math(EXPR count "(${with} - ${without}) / ${length}")
if(NOT count EQUAL 1)
  message(FATAL_ERROR "'${MESSAGE}' printed ${count} times:\n${all}")
endif()
if(all MATCHES "MPI_ABORT|MPI_Abort")
  message(FATAL_ERROR "the run ended with MPI_Abort:\n${all}")
endif()
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "exit status ${rc}, expected 2:\n${all}")
endif()
