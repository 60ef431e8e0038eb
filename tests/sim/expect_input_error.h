// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test helper: a call must throw an InputError naming a line and a field.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "sim/input_error.h"

namespace gapsim::test {

/// Runs `f`, expects an InputError at `line` naming `field` whose message contains `text` (any
/// message when `text` is empty).
inline void expectInputError(const std::function<void()>& f, int line, const std::string& field,
                             const std::string& text = "") {
  try {
    f();
    ADD_FAILURE() << "no InputError thrown (expected line " << line << ", field '" << field << "')";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << "'" << e.what() << "' lacks '" << text << "'";
  }
}

}  // namespace gapsim::test
