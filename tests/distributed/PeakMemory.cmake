# A rank of `tessera sweep` holds its extended block (and a few copies of it), never the whole
# grid: from a tiny grid to a large one on 2 ranks, the peak resident set of the largest rank
# (the summary's peak_host_bytes) grows by at most LIMIT times the bytes of one rank's extended
# block. -DTESSERA=... -DMPIEXEC=... -DSMALL=8x8x8 -DLARGE=128x256x256 -DEXTENDED_BYTES=...
# -DLIMIT_TENTHS=55 -DDIR=... (for the JSON files)
set(peaks "")
foreach(size ${SMALL} ${LARGE})
  set(json "${DIR}/peak-${size}.json")
  execute_process(COMMAND ${MPIEXEC} --allow-run-as-root --oversubscribe -np 2 ${TESSERA} sweep
                          j3d7pt --size ${size} --steps 2 --iterations 1 --tuning-db off
                          --json ${json}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 240)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the sweep of ${size} failed (${rc}):\n${out}\n${err}")
  endif()
  file(READ ${json} text)
  string(JSON peak GET "${text}" peak_host_bytes)
  message(STATUS "${size}: peak ${peak} bytes")
  list(APPEND peaks ${peak})
endforeach()
list(GET peaks 0 small)
list(GET peaks 1 large)
math(EXPR growth "${large} - ${small}")
math(EXPR bound "${EXTENDED_BYTES} * ${LIMIT_TENTHS} / 10")
math(EXPR tenths "${growth} * 10 / ${EXTENDED_BYTES}")
message(STATUS "growth ${growth} bytes = ${tenths}/10 of the extended block, bound ${bound}")
if(growth GREATER bound)
  message(FATAL_ERROR "the peak memory of a rank grew by ${growth} bytes from ${SMALL} to "
                      "${LARGE}, ${tenths}/10 of its extended block (at most ${LIMIT_TENTHS}/10)")
endif()
