// SPDX-License-Identifier: BSD-3-Clause
// ODE's own failures (dDebug, dError: abort() and exit(1) by default) end one simulation with an
// OdeError, a DivergenceError, and leave the process and later simulations as they were. The bad
// values are put into a model directly, as a program may do: the parsers refuse them.
#include "sim/ode_error.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <string>

#include "sim/robot_library.h"
#include "sim/runner.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"

// For builds with -fsanitize=address (LeakSanitizer), for this whole test binary: the job an
// OdeError interrupts is already off ODE's job list and only the unwound frames referred to it,
// 80 bytes per interrupted step (the rest of that world's threading object is kept reachable,
// sim/ode_init.h). Only the job records of ODE's threading are exempt.
extern "C" const char* __lsan_default_suppressions() { return "leak:PreallocateJobInfos\n"; }

namespace gapsim {
namespace {

std::shared_ptr<RobotModel> arm() {
  return std::make_shared<RobotModel>(
      loadRobotFile(std::string(GAPSIM_SOURCE_DIR) + "/tests/app/data/thirdparty_arm_robot.urdf"));
}

/// Builds and steps `model` for up to `steps` steps; the OdeError's message, or "" if none.
std::string odeErrorOf(std::shared_ptr<const RobotModel> model, int steps = 200) {
  try {
    Simulation sim(std::move(model));
    for (int k = 0; k < steps; ++k) sim.step();
  } catch (const OdeError& e) {
    EXPECT_TRUE(std::isnan(e.time_s()));
    EXPECT_FALSE(e.odeMessage().empty());
    return e.what();
  }
  return "";
}

/// Poses of every link after 300 steps of a swinging arm: the reference of determinism.
std::vector<double> swing(const std::shared_ptr<const RobotModel>& model) {
  Simulation sim(model);
  std::vector<double> tgt = model->initial_q;
  for (int k = 0; k < 300; ++k) {
    for (size_t j = 1; j < tgt.size(); ++j) tgt[j] = 0.3 * std::sin(3.0 * sim.time_s() + j);
    sim.setTargets(tgt);
    sim.step();
  }
  std::vector<double> out;
  for (size_t l = 0; l < model->links.size(); ++l)
    for (int r = 0; r < 3; ++r) out.push_back(sim.linkPose(static_cast<int>(l)).translation()(r));
  return out;
}

TEST(OdeError, AHugeJointOriginEndsTheSimulationNotTheProcess) {
  // 1e308 m between a leg and the torso: the first step's constraint forces overflow and ODE's
  // quaternion normalisation asserts (dxNormalize4), which used to abort() the process.
  auto m = arm();
  m->joints[static_cast<size_t>(m->jointIndex("hip_fl"))].origin.translation().x() = 1e308;
  const std::string what = odeErrorOf(m);
  EXPECT_NE(what.find("ODE internal error"), std::string::npos) << what;
  EXPECT_NE(what.find("this simulation stops here"), std::string::npos) << what;
}

TEST(OdeError, IsADivergenceToTheRunner) {
  auto m = arm();
  m->joints[static_cast<size_t>(m->jointIndex("hip_fl"))].origin.translation().x() = -1e308;
  Simulation sim(m);
  RunConfig cfg;
  cfg.duration_s = 0.2;
  const RunSummary s = runMotion(sim, nullptr, cfg, nullptr);
  EXPECT_TRUE(s.diverged);
  EXPECT_NE(s.divergence.find("ODE internal error"), std::string::npos) << s.divergence;
}

TEST(OdeError, ATinyBackEmfConstantEndsTheSimulation) {
  // K_e = 1e-320 V s/rad (a subnormal): the implicit damper row's CFM 1/b overflows to inf.
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  for (Joint& j : m->joints)
    if (j.drive.group == "legs/typeB") j.drive.motoflex.motor.K_e_V_s_rad = 1e-320;
  const std::string what = odeErrorOf(m, 50);
  EXPECT_NE(what.find("ODE internal error"), std::string::npos) << what;
}

TEST(OdeError, AnInvalidMassIsRefusedByOdeInTheConstructor) {
  // dBodySetMass asserts dMassCheck; its reason comes first as an ODE message, quoted.
  auto m = arm();
  m->links[static_cast<size_t>(m->linkIndex("leg_fl"))].inertial.inertia_kgm2(0, 0) = -1.0;
  try {
    Simulation sim(m);
    FAIL() << "no OdeError";
  } catch (const OdeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("dMassCheck"), std::string::npos) << what;
    EXPECT_NE(what.find("inertia must be positive definite"), std::string::npos) << what;
  }
}

/// Resident memory of this process (bytes), from /proc/self/statm.
double residentBytes() {
  std::ifstream in("/proc/self/statm");
  double pages_total = 0, pages_resident = 0;
  in >> pages_total >> pages_resident;
  return pages_resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

TEST(OdeError, AConstructorThatThrowsLeavesNoOdeObjectBehind) {
  // ~Simulation does not run for a constructor that throws; the ODE world, its bodies, geoms and
  // joints were leaked. A hinge axis of NaN makes the initial poses NaN, and ODE asserts
  // (dxOrthogonalizeR) when they are set, after every body and geom was created. Memory freed is
  // reused: growth over 1000 attempts stays far below the 36 MB the leak amounted to.
#if defined(__SANITIZE_ADDRESS__)
  // reason: only in an ASan build (never in CI's Release build), where freed memory is quarantined
  // so resident memory grows whatever the code does; there LeakSanitizer checks the same thing.
  GTEST_SKIP() << "AddressSanitizer quarantines freed memory: resident memory grows anyway; its leak check "
                  "covers this";  // reason: ASan builds only (see above)
#endif
  auto m = std::make_shared<RobotModel>(loadRobotFile(resolveRobotFile("nao")));
  for (auto it = m->joints.rbegin(); it != m->joints.rend(); ++it)
    if (it->movable()) {
      it->axis = Eigen::Vector3d(NAN, 0, 0);
      break;
    }
  auto attempt = [&] {
    try {
      Simulation sim(m);
      ADD_FAILURE() << "no OdeError";
    } catch (const OdeError& e) {
      EXPECT_NE(std::string(e.what()).find("ODE internal error"), std::string::npos) << e.what();
    }
  };
  for (int i = 0; i < 20; ++i) attempt();  // warm up the allocator
  const double before = residentBytes();
  for (int i = 0; i < 1000; ++i) attempt();
  EXPECT_LT(residentBytes() - before, 5e6) << "resident memory grew by " << (residentBytes() - before) / 1e6 << " MB";
}

TEST(OdeError, LaterSimulationsInTheProcessAreBitIdentical) {
  // ODE's state left by an interrupted step is per world (its job list, kept alive on purpose,
  // sim/ode_init.h): a run after one that failed equals a run before it, bit for bit.
  auto good = arm();
  const std::vector<double> before = swing(good);
  auto bad = arm();
  bad->joints[static_cast<size_t>(bad->jointIndex("hip_br"))].origin.translation().z() = 1e308;
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(odeErrorOf(bad).empty());
  EXPECT_EQ(swing(good), before);
}

}  // namespace
}  // namespace gapsim
