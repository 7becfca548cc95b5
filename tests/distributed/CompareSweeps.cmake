# `tessera sweep` on 1, 2 and 4 ranks must print the same checksum (the same result bit for bit).
# -DTESSERA=... -DMPIEXEC=... -DARGS="sweep ..." (a ;-list); with -DREFERENCE_ARGS=..., the
# checksum must also equal that of those arguments on one rank (e.g. the same sweep without an
# option that must not change the result). -DMPI_FLAGS=... (a ;-list) goes to every mpirun of
# ARGS (e.g. TCP between the ranks instead of shared memory).
set(first "")
if(DEFINED REFERENCE_ARGS)
  execute_process(COMMAND ${MPIEXEC} --allow-run-as-root --oversubscribe -np 1 ${TESSERA}
                          ${REFERENCE_ARGS}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 240)
  string(REGEX MATCH "checksum ([0-9a-f]+)" found "${out}")
  if(NOT rc EQUAL 0 OR NOT found)
    message(FATAL_ERROR "tessera ${REFERENCE_ARGS} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "reference: ${CMAKE_MATCH_1}")
  set(first ${CMAKE_MATCH_1})
endif()
foreach(np 1 2 4)
  execute_process(COMMAND ${MPIEXEC} --allow-run-as-root --oversubscribe ${MPI_FLAGS} -np ${np}
                          ${TESSERA} ${ARGS}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 240)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tessera ${ARGS} on ${np} ranks failed (${rc}):\n${out}\n${err}")
  endif()
  string(REGEX MATCH "checksum ([0-9a-f]+)" found "${out}")
  if(NOT found)
    message(FATAL_ERROR "no checksum in the output on ${np} ranks:\n${out}")
  endif()
  message(STATUS "${np} ranks: ${CMAKE_MATCH_1}")
  if(first STREQUAL "")
    set(first ${CMAKE_MATCH_1})
  elseif(NOT first STREQUAL CMAKE_MATCH_1)
    message(FATAL_ERROR "${np} ranks give checksum ${CMAKE_MATCH_1}, the first run ${first}")
  endif()
endforeach()
