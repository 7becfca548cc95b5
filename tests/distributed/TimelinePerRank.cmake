# `mpirun -np 2 tessera solve ... --timeline DIR/t.json` writes one trace per rank, t.rank0.json
# and t.rank1.json, each with the rank's own commands: its cycles, its halo faces and the blocks
# of the level gathered onto every rank. -DTESSERA=... -DMPIEXEC=... -DDIR=... (made empty here)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
execute_process(COMMAND ${MPIEXEC} --allow-run-as-root --oversubscribe -np 2 ${TESSERA} solve
                        poisson3d --size 16 --max-cycles 2 --tol 1e-30 -q
                        --timeline ${DIR}/t.json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 240)
if(NOT rc EQUAL 1) # the cycle limit, below a tolerance no run reaches
  message(FATAL_ERROR "exit status ${rc}, expected 1:\n${out}${err}")
endif()
if(EXISTS "${DIR}/t.json")
  message(FATAL_ERROR "t.json written under mpirun: each rank writes t.rankR.json")
endif()
foreach(rank 0 1)
  file(READ "${DIR}/t.rank${rank}.json" trace)
  foreach(expected "\"cycle 2\"" "\"pid\":${rank}" "\"halo face read\"" "\"halo face written\""
                   "\"gathered level's block read\"" "\"smooth\"")
    string(FIND "${trace}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "rank ${rank}'s timeline has no ${expected}:\n${trace}")
    endif()
  endforeach()
endforeach()
file(REMOVE_RECURSE "${DIR}")
