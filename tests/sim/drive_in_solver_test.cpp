// SPDX-License-Identifier: BSD-3-Clause
// The law that runs is the law in motorgear: the torque the solver applies to a Dynamixel joint
// equals motorgear::DynamixelServo's torque, for the explicit variant (kd = 0) and for the
// implicit damper row (kd > 0, where qd is the end-of-step rate).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "motorgear/dynamixel_servo.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

namespace gapsim {
namespace {

std::shared_ptr<RobotModel> pendulumWith(const motorgear::DynamixelServo::Params& p) {
  auto m = std::make_shared<RobotModel>(loadRobotFile(std::string(GAPSIM_TEST_DATA_DIR) + "/pendulum.urdf"));
  m->solver.gravity_m_s2.setZero();
  Joint& j = m->joints[static_cast<std::size_t>(m->jointIndex("hinge"))];
  j.drive.kind = DriveKind::Dynamixel;
  j.drive.dynamixel = p;
  j.encoder_resolution_rad = 0;
  // The bob's COM on the axis: the hinge's positional rows then carry no load, and the torque the
  // solver reports about the axis is the drive's alone.
  Link& bob = m->links[static_cast<std::size_t>(j.child)];
  bob.inertial.origin = Eigen::Isometry3d::Identity();
  bob.inertial.inertia_kgm2 += bob.inertial.mass_kg * 0.25 * Eigen::Matrix3d::Identity();  // keep I about the axis ~0.25
  return m;
}

motorgear::DynamixelServo::Params law(double kd) {
  motorgear::DynamixelServo::Params p;
  p.kp_Nm_rad = 9.272;
  p.kd_Nm_s_rad = kd;
  p.kc_Nm = 0.0;  // no dry friction row: the solver's torque is the law's alone
  p.tau_max_Nm = 5.0;
  p.tau_min_Nm = -5.0;
  return p;
}

/// Steps toward a goal 0.3 rad away and compares, each step, the joint torque the solver applied
/// with DynamixelServo::torque_Nm at (goal, angle before the step, rate after it for the implicit
/// row / before it for the explicit law, whose kd is 0 anyway).
void expectSolverTorqueIsTheLaw(double kd) {
  const auto model = pendulumWith(law(kd));
  Simulation sim(model);
  const int j = model->jointIndex("hinge");
  std::vector<double> target = model->initial_q;
  target[static_cast<std::size_t>(j)] += 0.3;
  sim.setTargets(target);
  for (int k = 0; k < 200; ++k) {
    const double q_before = sim.jointAngle_rad(j);
    sim.step();
    const double qd_after = sim.jointRate_rad_s(j);
    const double law_Nm =
        motorgear::DynamixelServo::torque_Nm(law(kd), target[static_cast<std::size_t>(j)], q_before, qd_after);
    // 1e-9 N m against a law of up to 3 N m: dWorldStep solves the rows exactly.
    ASSERT_NEAR(sim.jointTorque_Nm(j), law_Nm, 1e-9) << "step " << k << ", kd " << kd;
  }
}

TEST(DriveInSolver, DynamixelExplicitLawIsTheMotorgearLaw) { expectSolverTorqueIsTheLaw(0.0); }
TEST(DriveInSolver, DynamixelDamperRowIsTheMotorgearLawWithEndOfStepRate) { expectSolverTorqueIsTheLaw(0.3069); }

}  // namespace
}  // namespace gapsim
