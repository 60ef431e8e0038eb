// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/component.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "motorgear/dc_motor.h"
#include "motorgear/dynamixel_servo.h"
#include "motorgear/gear.h"
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

// Validate once, step without throwing: a constructor refuses invalid parameters, and a step
// with a non-finite input returns a non-finite output (the simulation reports it as a divergence
// with its time and body) instead of throwing in the middle of a step.
TEST(Component, ConstructorsValidateAndStepsPropagateNonFiniteInput) {
  DcMotor::Params motor;
  motor.L_H = 0.0;
  EXPECT_THROW(DcMotor{motor}, std::invalid_argument);
  Pid::Params pid;
  pid.U_bat_V = 0.0;
  EXPECT_THROW(Pid{pid}, std::invalid_argument);
  DynamixelServo::Params servo;
  servo.kd_Nm_s_rad = -1;
  EXPECT_THROW(DynamixelServo{servo}, std::invalid_argument);
  Gear::Params gear = Gear::Params::typeA();
  gear.D_g_Nm_rad = -1;
  EXPECT_THROW(Gear{gear}, std::invalid_argument);

  const double nan = std::nan("");
  EXPECT_TRUE(std::isnan(DcMotor(DcMotor::Params{}).step(1e-3, nan, 0.0)));
  EXPECT_TRUE(std::isnan(Pid(Pid::Params{}).step(1e-3, nan, 0.0)));
  EXPECT_TRUE(std::isnan(DynamixelServo(DynamixelServo::Params{}).step(1e-3, nan, 0.0, 0.0)));
  for (const Gear::Integrator integrator : {Gear::Integrator::kSubsteps, Gear::Integrator::kExact}) {
    Gear::Params p = Gear::Params::typeA();
    p.integrator = integrator;
    EXPECT_TRUE(std::isnan(Gear(p).step(1e-3, nan)));
  }
}

}  // namespace
}  // namespace gapsim::motorgear
