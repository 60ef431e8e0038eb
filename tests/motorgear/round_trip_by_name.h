// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Test helper: every parameter a Params struct lists by name can be set by that name and reads
// back the value set (the field table's get and set address the same member).
#include <gtest/gtest.h>

#include <string>

namespace gapsim::test {

/// Sets each of P::paramNames() in `p` to `value(name)` and expects get(name) to return it.
template <class P, class ValueOf>
void expectRoundTripByName(P& p, ValueOf value) {
  for (const std::string& n : P::paramNames()) {
    const double v = value(n);
    p.set(n, v);
    EXPECT_EQ(p.get(n), v) << n;
  }
}

}  // namespace gapsim::test
