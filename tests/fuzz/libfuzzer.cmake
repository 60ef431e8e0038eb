# libFuzzer targets of the parsers (tests/fuzz/parser_fuzz.cpp), with -DGAPSIM_LIBFUZZER=ON and
# clang only: scripts/fuzz.sh --libfuzzer configures build-fuzz/ so. Every library is built with
# -fsanitize=fuzzer-no-link,address,undefined (coverage for the fuzzer, ASan+UBSan for findings).
set(GAPSIM_FUZZ_TARGETS urdf robot_step motion_csv joint_table webots mtn params space scenarios log controller
    servo_log)

macro(gapsim_libfuzzer_flags)
  if(GAPSIM_LIBFUZZER)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      message(FATAL_ERROR "GAPSIM_LIBFUZZER needs clang (CXX=clang++), not ${CMAKE_CXX_COMPILER_ID}")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -g)
    add_link_options(-fsanitize=address,undefined)
  endif()
endmacro()

macro(gapsim_libfuzzer_targets)
  if(GAPSIM_LIBFUZZER)
    foreach(t ${GAPSIM_FUZZ_TARGETS})
      add_executable(fuzz_${t} ${CMAKE_SOURCE_DIR}/tests/fuzz/parser_fuzz.cpp)
      target_compile_definitions(fuzz_${t} PRIVATE GAPSIM_FUZZ_TARGET=${t})
      target_link_libraries(fuzz_${t} PRIVATE gapsim_calib gapsim_sim)
      target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
      set_target_properties(fuzz_${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    endforeach()
  endif()
endmacro()
