// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test support: a call must be refused with an exception that says why. validate(), the
// constructors that call it and the readers quote what they refuse (the number, the field, the
// option), and the tests check the quote.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace gapsim::test {

/// Whether `f` throws an E with every one of `parts` in its message; a failure shows the message.
template <class E>
::testing::AssertionResult throwsSaying(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
  } catch (const E& e) {
    const std::string msg = e.what();
    for (const auto& part : parts)
      if (msg.find(part) == std::string::npos)
        return ::testing::AssertionFailure() << "'" << msg << "' lacks '" << part << "'";
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "nothing thrown";
}

}  // namespace gapsim::test
