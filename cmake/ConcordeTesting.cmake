# Every test compiles QtTest, nlohmann/json and much of the standard library: about 6 s of each
# sanitized test compile before its own code. The tests share one precompiled header per Qt
# flavour and folder instead (QtTest's headers depend on which Qt modules a test links, so the
# GUI tests have their own). A test whose flags differ from its host's still compiles, from the
# headers themselves (GCC says so with -Winvalid-pch, which CMake turns on).
function(concorde_share_test_headers name libs)
  # QtTest defines the test's folder (QT_TESTCASE_BUILDDIR), so each folder has its own hosts.
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  if("concorde_ui" IN_LIST libs)
    set(flavour ${folder}_widgets)
  else()
    set(flavour ${folder}_core)
  endif()
  # AUTOMOC's file is empty for a test (its moc output is included by the test itself); loading
  # the header into it would cost 2 s a test.
  set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${name}_autogen/mocs_compilation.cpp
                              PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  get_property(host GLOBAL PROPERTY CONCORDE_TEST_HEADER_HOST_${flavour})
  if(host)
    target_precompile_headers(${name} REUSE_FROM ${host})
    return()
  endif()
  set(headers <QtTest> <nlohmann/json.hpp> <algorithm> <cmath> <cstdint> <filesystem>
              <fstream> <functional> <map> <memory> <random> <sstream> <string> <vector>)
  if(flavour MATCHES "_widgets$")
    list(APPEND headers <QtWidgets>)
  endif()
  target_precompile_headers(${name} PRIVATE ${headers})
  set_property(GLOBAL PROPERTY CONCORDE_TEST_HEADER_HOST_${flavour} ${name})
endfunction()

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
  concorde_share_test_headers(${T_NAME} "${T_LIBS}")
  # A test is one or two files: a unity build gains nothing there, and would make GCC treat the
  # test's own file as a header (-Wsubobject-linkage on lambdas capturing its local types).
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests
                                             UNITY_BUILD OFF)
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
