# concorde_add_qtest(NAME <name> SOURCES <files...> LIBS <targets...> [LABELS <labels...>]
#                    [TIMEOUT <seconds>])
# Builds one QtTest executable and registers it with CTest. Tests run offscreen and find the
# shipped presets in the build tree.
function(concorde_add_qtest)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} Qt6::Test)
  target_compile_definitions(${T_NAME} PRIVATE
    CONCORDE_SOURCE_DIR="${CMAKE_SOURCE_DIR}" CONCORDE_BINARY_DIR="${CMAKE_BINARY_DIR}")
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # Under ASan+UBSan the tests run several times slower (test_integration_cli: 85 s in the
  # release build, over 300 s sanitized), so their limits scale with the build.
  if(CONCORDE_SANITIZE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * 4")
  endif()
  # QtTest kills any single test function after QTEST_FUNCTION_TIMEOUT (300 s by default), which
  # fired before CTest's limit in the sanitized CI run; one limit governs both.
  math(EXPR T_FUNCTION_TIMEOUT_MS "${T_TIMEOUT} * 1000")
  set_tests_properties(${T_NAME} PROPERTIES
    TIMEOUT ${T_TIMEOUT}
    LABELS "${T_LABELS}"
    ENVIRONMENT "QTEST_FUNCTION_TIMEOUT=${T_FUNCTION_TIMEOUT_MS};QT_QPA_PLATFORM=offscreen;CONCORDE_PRESETS_DIR=${CMAKE_SOURCE_DIR}/resources/presets;CONCORDE_BIN_DIR=${CMAKE_BINARY_DIR}/bin")
endfunction()
