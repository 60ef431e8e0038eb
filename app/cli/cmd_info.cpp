// SPDX-License-Identifier: BSD-3-Clause
// gapsim-cli info ROBOT: what the loader made of a robot file, and (--compiled, --json) what the
// compile step makes of it (sim/compile.h).
#include <cstdio>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/info_compiled.h"
#include "sim/compile.h"
#include "sim/drive_kinds.h"
#include "sim/robot_library.h"
#include "sim/urdf_parser.h"

namespace gapsim::cli {

namespace {

std::string baseText(const RobotModel& m) {
  if (m.fixed_base) return "fixed to the world";
  if (!m.planar_base) return "floating";
  char b[128];
  const Eigen::Vector3d& n = m.planar_normal;
  std::snprintf(b, sizeof b, "planar (moves in the plane with normal (%.3g, %.3g, %.3g))", n.x(), n.y(), n.z());
  return b;
}

/// The joints table; returns the actuated degrees of freedom (welded joints do not count).
int printJoints(const RobotModel& m, const CompiledModel& c) {
  const auto movable = m.movableJoints();
  int welded = 0;
  for (const auto& j : c.joints) welded += j.welded ? 1 : 0;
  std::printf(
      "\njoints (%zu, %zu movable, %d of them welded by the compile step):\n  %-18s %-10s %-16s %-16s %9s %9s %9s %9s  "
      "%s\n",
      m.joints.size(), movable.size(), welded, "name", "type", "parent", "child", "lower_rad", "upper_rad", "effort_Nm",
      "vel_rad_s", "drivetrain");
  int dof = 0;
  for (size_t ji = 0; ji < m.joints.size(); ++ji) {
    const Joint& j = m.joints[ji];
    std::string drive = "-";
    if (c.joints[ji].welded) {
      drive = "welded by the compile step (info --compiled)";
    } else if (j.movable() && j.mimic.master >= 0) {
      drive = "coupled to " + m.joints[j.mimic.master].name + " (x" + std::to_string(j.mimic.multiplier) + ")";
    } else if (j.movable()) {
      drive = driveSummary(j);
      dof += passiveJoint(j) ? 0 : 1;
    }
    std::printf("  %-18s %-10s %-16s %-16s %9.4f %9.4f %9.4g %9.4g  %s\n", j.name.c_str(), jointTypeName(j.type),
                m.links[j.parent].name.c_str(), m.links[j.child].name.c_str(), j.has_limits ? j.lower : 0.0,
                j.has_limits ? j.upper : 0.0, j.effort, j.velocity, drive.c_str());
  }
  return dof;
}

void printFile(const RobotModel& m, const CompiledModel& c) {
  std::printf("robot %s (%s)\n", m.name.c_str(), m.source_file.c_str());
  if (!m.source_text.empty()) std::printf("source: %s\n", m.source_text.c_str());
  for (const auto& w : m.warnings) std::printf("warning: %s\n", w.c_str());
  std::printf("base: %s, root link %s\n", baseText(m).c_str(), m.links[m.root_link].name.c_str());
  std::printf("\nlinks (%zu):\n  %-22s %10s %8s\n", m.links.size(), "name", "mass_kg", "shapes");
  for (const Link& l : m.links)
    std::printf("  %-22s %10.5f %8zu\n", l.name.c_str(), l.has_inertial ? l.inertial.mass_kg : 0.0,
                l.collisions.size());
  const int dof = printJoints(m, c);
  std::printf("\ndegrees of freedom (actuated): %d\n", dof);
  for (const SoftLink& s : m.soft_links)
    std::printf("soft link %s: %d segments, D_B %.5g N m/rad, damping %.3g N m s/rad, friction %.3g N m\n",
                m.links[s.link].name.c_str(), s.segments, s.D_B_Nm_rad, s.damping_Nms_rad, s.friction_Nm);
  std::printf("sensors: %zu imu, %zu foot contacts\n", m.imus.size(), m.foot_contacts.size());
  std::printf("solver: dt %.4g s, %s, %d iterations; contact mu %.3g\n", m.solver.dt_s,
              m.solver.quickstep ? "QuickStep" : "dWorldStep", m.solver.iterations, m.contact.mu);
  std::printf("total mass: %.6f kg\n", m.totalMass_kg());
}

void printInertiaFloor(const RobotModel& m, const CompiledModel& c) {
  if (m.solver.min_inertia_kgm2 <= 0) return;
  std::printf("inertia floor %.3g kg m^2 (solver min_inertia_kgm2): raises %zu of %zu bodies\n",
              m.solver.min_inertia_kgm2, c.inertia_floor_changes.size(), c.bodies.size());
  for (const InertiaFloorChange& f : c.inertia_floor_changes)
    std::printf("  %-22s principal moments %.3g %.3g %.3g kg m^2 -> at least %.3g\n", f.body.c_str(),
                f.principal_before_kgm2[0], f.principal_before_kgm2[1], f.principal_before_kgm2[2], f.floor_kgm2);
}

}  // namespace

Action addInfo(CLI::App& app) {
  auto robot = std::make_shared<std::string>();
  app.add_option("robot", *robot, "nao, bioloid, mabel or a path to a robot file")->required();
  auto compiled = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  app.add_flag("--compiled", *compiled,
               "also print what the compile step decided: simulated bodies (merged links, mass, principal moments, "
               "armature), joints (rows, drives, damper rows), soft joints, and every value that runs differently from "
               "the file's, with the reason");
  app.add_flag("--json", *json, "print only the compiled model, as JSON");
  return [robot, compiled, json] {
    const RobotModel m = loadRobotFile(resolveRobotFile(*robot));
    const CompiledModel c = compile(m);  // the decisions only: no ODE world is built
    if (*json) {
      std::cout << compiledJson(m, c).dump(2) << "\n";
      return kExitOk;
    }
    printFile(m, c);
    if (*compiled)
      printCompiled(m, c);
    else
      printInertiaFloor(m, c);
    return kExitOk;
  };
}

}  // namespace gapsim::cli
