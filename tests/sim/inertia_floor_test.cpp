// SPDX-License-Identifier: BSD-3-Clause
// The solver's inertia floor (SolverSettings::min_inertia_kgm2): which bodies it raises, and the
// physics it gives: a pendulum whose bob's own moment is raised swings with the compound period.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "sim/compile.h"
#include "sim/input_error.h"
#include "sim/parameters.h"
#include "sim/robot_library.h"
#include "sim/simulation.h"
#include "sim/urdf_parser.h"
#include "tests/throws_saying.h"

namespace gapsim {
namespace {

using gapsim::test::throwsSaying;

/// A 1 kg bob 0.1 m below a hinge about y, with a tiny own moment (1e-6 kg m^2), released at
/// `q0_rad`; no ground, dWorldStep, passive joint.
std::string pendulum(double floor_kgm2, double q0_rad) {
  return R"(<robot name="pendulum">
  <link name="world"/>
  <link name="bob"><inertial><origin xyz="0 0 -0.1"/><mass value="1"/>
    <inertia ixx="1e-6" iyy="1e-6" izz="1e-6" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="swing" type="continuous"><parent link="world"/><child link="bob"/><axis xyz="0 1 0"/>
    <origin xyz="0 0 1"/></joint>
  <gapsim>
    <initial_pose><joint name="swing" value_rad=")" +
         std::to_string(q0_rad) + R"("/></initial_pose>
    <solver dt_s="0.0001" stepper="big" min_inertia_kgm2=")" +
         std::to_string(floor_kgm2) + R"("/>
    <ground type="none"/>
    <servo joint="swing" fmax_Nm="0"/>
  </gapsim>
</robot>)";
}

/// Time of the first zero crossing of the joint angle: a quarter period.
double quarterPeriod_s(double floor_kgm2) {
  Simulation sim(std::make_shared<RobotModel>(parseRobotXml(pendulum(floor_kgm2, 0.02), "pendulum.urdf")));
  while (sim.jointAngle_rad(0) > 0 && sim.time_s() < 5) sim.step();
  return sim.time_s();
}

TEST(InertiaFloor, ListsTheRaisedBodiesAndLeavesOthersAlone) {
  Simulation raised(std::make_shared<RobotModel>(parseRobotXml(pendulum(0.01, 0.0), "p.urdf")));
  ASSERT_EQ(raised.inertiaFloorChanges().size(), 1u);
  EXPECT_EQ(raised.inertiaFloorChanges()[0].body, "bob");
  EXPECT_NEAR(raised.inertiaFloorChanges()[0].principal_before_kgm2[0], 1e-6, 1e-12);
  EXPECT_DOUBLE_EQ(raised.inertiaFloorChanges()[0].floor_kgm2, 0.01);
  Simulation below(std::make_shared<RobotModel>(parseRobotXml(pendulum(1e-7, 0.0), "p.urdf")));
  EXPECT_TRUE(below.inertiaFloorChanges().empty());  // 1e-6 is above a 1e-7 floor
  Simulation none(std::make_shared<RobotModel>(parseRobotXml(pendulum(0.0, 0.0), "p.urdf")));
  EXPECT_TRUE(none.inertiaFloorChanges().empty());
}

TEST(InertiaFloor, PendulumSwingsWithTheRaisedMoment) {
  // Small-angle compound pendulum: T = 2 pi sqrt((I_c + m l^2) / (m g l)), m = 1 kg, l = 0.1 m,
  // g = 9.81. I_c = 1e-6 (no floor) or 0.01 (floor): quarter periods 0.1586 s and 0.2243 s.
  // Tolerance 0.5 %: dt = 0.1 ms is 0.06 % of the quarter period, and 0.02 rad amplitude changes
  // the period by 2.5e-5 (1 + theta^2 / 16).
  const auto quarter = [](double I_c) { return 0.5 * M_PI * std::sqrt((I_c + 0.01) / (9.81 * 0.1)); };
  EXPECT_NEAR(quarterPeriod_s(0.0), quarter(1e-6), 0.005 * quarter(1e-6));
  EXPECT_NEAR(quarterPeriod_s(0.01), quarter(0.01), 0.005 * quarter(0.01));
}

TEST(InertiaFloor, IsAParameterWithARange) {
  RobotModel m = parseRobotXml(pendulum(0.0, 0.0), "p.urdf");
  setParameter(m, "solver/min_inertia", 0.002, "set.csv", 3);
  EXPECT_DOUBLE_EQ(m.solver.min_inertia_kgm2, 0.002);
  EXPECT_THROW(setParameter(m, "solver/min_inertia", -1.0, "set.csv", 4), InputError);
  EXPECT_THROW(setParameter(m, "solver/min_inertia", NAN, "set.csv", 4), InputError);
  EXPECT_THROW(parseRobotXml(pendulum(2.0, 0.0), "p.urdf"), InputError);
}

TEST(InertiaFloor, PlainRunsTakeThePlainFloorTheFileStates) {
  std::string xml = pendulum(0.001, 0.02);
  const std::string attr = R"(min_inertia_kgm2="0.001000")";
  ASSERT_NE(xml.find(attr), std::string::npos);
  RobotModel without = parseRobotXml(xml, "p.urdf");
  makePlain(without);  // no plain floor stated: the floor stays
  EXPECT_DOUBLE_EQ(without.solver.min_inertia_kgm2, 0.001);
  xml.replace(xml.find(attr), attr.size(), attr + R"( min_inertia_plain_kgm2="0.01")");
  RobotModel full = parseRobotXml(xml, "p.urdf");
  EXPECT_DOUBLE_EQ(full.solver.min_inertia_kgm2, 0.001);  // the full pipeline keeps its floor
  RobotModel plain = full;
  makePlain(plain);
  EXPECT_DOUBLE_EQ(plain.solver.min_inertia_kgm2, 0.01);
  // The plain run swings with the raised moment: the compound pendulum's quarter period.
  Simulation sim(std::make_shared<RobotModel>(plain));
  while (sim.jointAngle_rad(0) > 0 && sim.time_s() < 5) sim.step();
  const double quarter_s = 0.5 * M_PI * std::sqrt((0.01 + 0.01) / (9.81 * 0.1));
  EXPECT_NEAR(sim.time_s(), quarter_s, 0.005 * quarter_s);
  // A parameter, listed only where the file states it, with the floor's range.
  setParameter(full, "solver/min_inertia_plain", 0.004, "set.csv", 2);
  EXPECT_DOUBLE_EQ(*full.solver.plain_min_inertia_kgm2, 0.004);
  bool listed = false;
  for (const auto& e : listParameters(full)) listed |= e.name == "solver/min_inertia_plain" && e.value == 0.004;
  EXPECT_TRUE(listed);
  for (const auto& e : listParameters(without)) EXPECT_NE(e.name, "solver/min_inertia_plain");
  EXPECT_THROW(setParameter(full, "solver/min_inertia_plain", 2.0, "set.csv", 3), InputError);
  xml.replace(xml.find(R"("0.01")"), 6, R"("-1")");
  EXPECT_THROW(parseRobotXml(xml, "p.urdf"), InputError);
}

TEST(InertiaFloor, PlainRunsTakeThePlainIterationsTheFileStates) {
  std::string xml = pendulum(0.001, 0.02);
  const std::string attr = R"(min_inertia_kgm2="0.001000")";
  RobotModel without = parseRobotXml(xml, "p.urdf");
  const int file_iterations = without.solver.iterations;
  makePlain(without);  // none stated: the file's iterations stay
  EXPECT_EQ(without.solver.iterations, file_iterations);
  for (const auto& e : listParameters(without)) EXPECT_NE(e.name, "solver/iterations_plain");
  xml.replace(xml.find(attr), attr.size(), attr + R"( iterations_plain="37")");
  RobotModel full = parseRobotXml(xml, "p.urdf");
  EXPECT_EQ(full.solver.iterations, file_iterations);  // the full pipeline keeps its own
  RobotModel plain = full;
  makePlain(plain);
  EXPECT_EQ(plain.solver.iterations, 37);
  setParameter(full, "solver/iterations_plain", 25, "set.csv", 2);
  makePlain(full);
  EXPECT_EQ(full.solver.iterations, 25);
  bool listed = false;
  for (const auto& e : listParameters(full)) listed |= e.name == "solver/iterations_plain" && e.value == 25;
  EXPECT_TRUE(listed);
  EXPECT_THROW(setParameter(full, "solver/iterations_plain", 2.5, "set.csv", 3), InputError);
  EXPECT_THROW(setParameter(full, "solver/iterations_plain", 0, "set.csv", 3), InputError);
  for (const char* bad : {R"("0")", R"("1e308")", R"("nan")", R"("12.5")"}) {
    std::string broken = xml;
    broken.replace(broken.find(R"("37")"), 4, bad);
    EXPECT_TRUE(throwsSaying<InputError>([&] { parseRobotXml(broken, "p.urdf"); }, {"iterations_plain"}))
        << "iterations_plain=" << bad;
  }
}

TEST(InertiaFloor, QuickStepOverRelaxesAsTheFileSaysPlainRunsTheirOwn) {
  std::string xml = pendulum(0.001, 0.02);
  const std::string attr = R"(min_inertia_kgm2="0.001000")";
  RobotModel ode_default = parseRobotXml(xml, "p.urdf");
  EXPECT_DOUBLE_EQ(ode_default.solver.sor_w, 1.3);  // ODE's own, for a file that says nothing
  for (const auto& e : listParameters(ode_default)) EXPECT_NE(e.name, "solver/sor_w_plain");
  xml.replace(xml.find(attr), attr.size(), attr + R"( sor_w="1.7" sor_w_plain="1.4")");
  RobotModel full = parseRobotXml(xml, "p.urdf");
  EXPECT_DOUBLE_EQ(full.solver.sor_w, 1.7);
  EXPECT_DOUBLE_EQ(compile(full, {}).sor_w, 1.7);  // what the world is built with
  RobotModel plain = full;
  makePlain(plain);
  EXPECT_DOUBLE_EQ(plain.solver.sor_w, 1.4);
  setParameter(full, "solver/sor_w", 1.5, "set.csv", 2);
  EXPECT_DOUBLE_EQ(full.solver.sor_w, 1.5);
  for (double bad : {0.0, 2.0, 1e308})
    EXPECT_THROW(setParameter(full, "solver/sor_w", bad, "set.csv", 3), InputError) << bad;
  for (const char* bad : {R"("0")", R"("2")", R"("nan")"}) {
    std::string broken = xml;
    broken.replace(broken.find(R"("1.7")"), 5, bad);
    EXPECT_TRUE(throwsSaying<InputError>([&] { parseRobotXml(broken, "p.urdf"); }, {"sor_w"})) << "sor_w=" << bad;
  }
  // The Nao's file states both (docs/solver.md, "What closes the distance gap").
  const RobotModel nao = loadRobotFile(resolveRobotFile("nao"));
  EXPECT_DOUBLE_EQ(nao.solver.sor_w, 1.5);
  EXPECT_DOUBLE_EQ(nao.solver.plain_sor_w.value_or(0), 1.7);
}

}  // namespace
}  // namespace gapsim
