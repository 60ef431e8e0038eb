// SPDX-License-Identifier: BSD-3-Clause
// sim/robot_model.h: a joint type and its URDF name read and write through one table.
#include "sim/robot_model.h"

#include <gtest/gtest.h>

namespace gapsim {
namespace {

TEST(RobotModel, JointTypeNamesReadBackAsTheirTypes) {
  for (JointType t : {JointType::Revolute, JointType::Continuous, JointType::Prismatic, JointType::Fixed})
    EXPECT_EQ(parseJointType(jointTypeName(t)), t) << jointTypeName(t);
  EXPECT_STREQ(jointTypeName(JointType::Continuous), "continuous");
  // URDF's other types are not joints gapsim simulates; a wrong case is not a name.
  for (const char* other : {"floating", "planar", "Revolute", "", "hinge"})
    EXPECT_FALSE(parseJointType(other)) << other;
}

}  // namespace
}  // namespace gapsim
