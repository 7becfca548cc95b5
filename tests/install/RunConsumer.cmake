# cmake -DBUILD_DIR=... -DCONSUMER_SOURCE=... -DWORK_DIR=... -DCXX_COMPILER=... -P RunConsumer.cmake
# Installs the build into WORK_DIR/prefix, then configures, builds and runs the consumer project
# against it; any failing step fails the test with its output.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(expected include/tessera/tessera/tessera.h include/tessera/core/Expr.h
                 lib/cmake/tessera/tesseraConfig.cmake bin/tessera
                 share/tessera/examples/iterated_program.cpp
                 share/tessera/examples/multigrid_quickstart.cpp)
  if(NOT EXISTS ${prefix}/${expected})
    message(FATAL_ERROR "the installation lacks ${expected}")
  endif()
endforeach()
step("the installed tool" ${prefix}/bin/tessera --version)

set(launcher)
if(CXX_LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER})
endif()
step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK_DIR}/build
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
     ${launcher})
step("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step("running the consumer" ${WORK_DIR}/build/consumer)
