// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/component.h"

#include <gtest/gtest.h>

#include "motorgear/dc_motor.h"
#include "motorgear/pid.h"

namespace gapsim::motorgear {
namespace {

// reset() returns a component to the state of a new one, and a state saved through state() and
// written back continues bit for bit (what SimState snapshots rely on).
TEST(Component, ResetAndRestoreTheState) {
  DcMotor motor(DcMotor::Params{});
  const double first_Nm = motor.step(1e-3, 6.0, 0.5);
  motor.step(1e-3, 6.0, 0.5);
  motor.reset();
  EXPECT_EQ(motor.step(1e-3, 6.0, 0.5), first_Nm);

  Pid pid(Pid::Params{});
  pid.step(1e-3, 0.2, 0.0);
  const Pid::State saved = pid.state();
  const double next_V = pid.step(1e-3, 0.2, 0.01);
  pid.step(1e-3, 0.2, 0.02);
  pid.state() = saved;
  EXPECT_EQ(pid.step(1e-3, 0.2, 0.01), next_V);
  EXPECT_EQ(pid.params().p_V_rad, Pid::Params{}.p_V_rad);
}

}  // namespace
}  // namespace gapsim::motorgear
