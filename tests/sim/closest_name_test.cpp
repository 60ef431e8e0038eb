// SPDX-License-Identifier: BSD-3-Clause
#include "sim/closest_name.h"

#include <gtest/gtest.h>

namespace gapsim {
namespace {

TEST(ClosestName, OneEditForShortNamesTwoForLongOnes) {
  EXPECT_EQ(closestName("iterattions", {"dt_s", "iterations", "stepper"}), "iterations");  // 1 edit, long
  EXPECT_EQ(closestName("motor/B_vv", {"motor/B_v", "motor/K_e"}), "motor/B_v");
  EXPECT_EQ(closestName("mu", {"mu", "erp"}), "mu");
  EXPECT_EQ(closestName("frame", {"name", "type"}), "");         // two edits in a short name: no guess
  EXPECT_EQ(closestName("segmnts_", {"segments"}), "segments");  // two edits, 8 characters
  EXPECT_EQ(closestName("anything", {}), "");
}

}  // namespace
}  // namespace gapsim
