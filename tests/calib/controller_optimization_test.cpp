// SPDX-License-Identifier: BSD-3-Clause
// The keyframe space of the controller optimisation: which entries are free, the initial
// controller on the line from the start pose to the standing pose, values -> controller, and an
// initial controller file as the start.
#include "calib/controller_optimization.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/input_error.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::calib {
namespace {

TEST(ControllerSpace, FreesDurationsAndSagittalAnglesButNotTheFinalPose) {
  const RobotModel m = loadRobotFile(resolveRobotFile("bioloid"));
  const RisingTask task = makeRisingTask("sit", m);
  for (int n : {1, 2, 3}) {
    ControllerSpaceSettings s;
    s.keyframes = n;
    const ParameterSpace space = controllerSpace(task, s);
    EXPECT_EQ(space.dimension(), 4 * (n - 1) + 1) << n;
    EXPECT_EQ(space.entries().size(), static_cast<std::size_t>(7 * n));
    const KeyframeController c = controllerFromValues(space, space.initialValues());
    ASSERT_EQ(c.keyframes().size(), static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
      EXPECT_EQ(c.keyframes()[k].duration_s, s.init_duration_s);
      for (std::size_t j = 0; j < c.stems().size(); ++j) {
        const int right = task.legs.joints[task.legs.indexOf(c.stems()[j])].right;
        const double start = task.start_q[right], stand = task.stand_q[right];
        // keyframe k + 1 lies at (k + 1) / n on the line start -> stand; the last is q_T
        EXPECT_NEAR(c.keyframes()[k].q_rad[j], start + (stand - start) * (k + 1.0) / n, 1e-12) << c.stems()[j];
      }
    }
  }
  ControllerSpaceSettings bad;
  bad.keyframes = 0;
  EXPECT_THROW(controllerSpace(task, bad), InputError);
}

TEST(ControllerSpace, ValuesMapOntoTheFreeEntriesAndAnInitialControllerIsTheStart) {
  const RobotModel m = loadRobotFile(resolveRobotFile("bioloid"));
  const RisingTask task = makeRisingTask("kneel", m);
  const KeyframeController init(
      {"thigh", "shin", "heel"},
      {{0.9, {-0.7, -1.6, 1.1}, 0}, {0.6, {1.3, -1.6, -0.15}, 0}, {0.7, {-0.5, 1.0, -0.5}, 0}});
  ControllerSpaceSettings s;
  s.keyframes = 3;
  const ParameterSpace space = controllerSpace(task, s, &init);
  const KeyframeController c = controllerFromValues(space, space.initialValues());
  for (int k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(c.keyframes()[k].duration_s, init.keyframes()[k].duration_s);
    for (std::size_t j = 0; j < init.stems().size(); ++j) {
      const auto& st = c.stems();
      const auto it = std::find(st.begin(), st.end(), init.stems()[j]);
      ASSERT_NE(it, st.end());
      EXPECT_DOUBLE_EQ(c.keyframes()[k].q_rad[it - st.begin()], init.keyframes()[k].q_rad[j]);
    }
  }
  // Moving one free dimension moves exactly its entry.
  Eigen::VectorXd v = space.initialValues();
  v[0] = 1.25;  // kf1/duration_s
  EXPECT_EQ(controllerFromValues(space, v).keyframes()[0].duration_s, 1.25);
  // The initial controller must have the keyframe count asked for.
  s.keyframes = 2;
  EXPECT_THROW(controllerSpace(task, s, &init), InputError);
}

}  // namespace
}  // namespace gapsim::calib
