// SPDX-License-Identifier: BSD-3-Clause
// The compile step's top level and its structural decisions: solver settings, welded joints,
// rigid groups, the build and initial poses, coupled drives. Bodies: compile_bodies.cpp; joints:
// compile_joints.cpp.
#include "sim/compile.h"

#include <cmath>
#include <functional>
#include <stdexcept>

#include "sim/compile_detail.h"
#include "sim/drive_registry.h"
#include "sim/input_error.h"
#include "sim/kinematics.h"

namespace gapsim {
namespace {

using detail::CompileContext;

/// dt, stepper and iterations: the file's, unless the run's options override them (listed).
void compileSolver(const RobotModel& m, const SimOptions& o, CompiledModel& out) {
  out.dt_s = o.dt_s.value_or(m.solver.dt_s);
  if (!(out.dt_s > 0) || !std::isfinite(out.dt_s)) throw std::invalid_argument("dt must be > 0");
  out.quickstep = o.quickstep.value_or(m.solver.quickstep);
  out.iterations = o.iterations.value_or(m.solver.iterations);
  out.sor_w = m.solver.sor_w;
  out.seed = o.seed;
  out.stepper = out.quickstep
                    ? "QuickStep, " + std::to_string(out.iterations) + " iterations, SOR w " + sixDigits(out.sor_w)
                    : std::string("dWorldStep (exact LCP)");
  out.stepper +=
      ", dt " + sixDigits(out.dt_s) + " s, ERP " + sixDigits(m.solver.erp) + ", CFM " + sixDigits(m.solver.cfm);
  const std::string why = "the run's options override the robot file";
  if (out.dt_s != m.solver.dt_s)
    out.changes.push_back({"solver dt", sixDigits(m.solver.dt_s) + " s", sixDigits(out.dt_s) + " s", why});
  if (out.quickstep != m.solver.quickstep)
    out.changes.push_back({"solver stepper", m.solver.quickstep ? "QuickStep" : "dWorldStep",
                           out.quickstep ? "QuickStep" : "dWorldStep", why});
  if (out.quickstep && out.iterations != m.solver.iterations)
    out.changes.push_back(
        {"solver iterations", std::to_string(m.solver.iterations), std::to_string(out.iterations), why});
}

void checkSceneBoxes(const RobotModel& m) {
  for (const SceneBox& b : m.scene_boxes)
    if (!(b.size_m.minCoeff() > 0) || !b.size_m.allFinite())
      throw std::invalid_argument("scene box '" + b.name + "': size must be positive and finite");
}

/// Joints welded by the compile step (SolverSettings::weld_mass_ratio): a movable joint whose child
/// subtree weighs less than `weld_mass_ratio` of the robot, or is a massless frame without collision
/// geometry. A joint below a welded one is welded too (its subtree is lighter still).
std::vector<bool> weldedJoints(const RobotModel& m, std::vector<CompiledModel::Change>& changes) {
  const size_t nl = m.links.size();
  std::vector<std::vector<int>> children(nl);
  for (size_t ji = 0; ji < m.joints.size(); ++ji) children[m.joints[ji].parent].push_back(static_cast<int>(ji));
  std::vector<double> mass(nl, 0.0);
  std::vector<bool> collides(nl, false);
  std::function<void(int)> sum = [&](int l) {
    mass[l] = m.links[l].has_inertial ? m.links[l].inertial.mass_kg : 0.0;
    collides[l] = !m.links[l].collisions.empty();
    for (int ji : children[l]) {
      sum(m.joints[ji].child);
      mass[l] += mass[m.joints[ji].child];
      collides[l] = collides[l] || collides[m.joints[ji].child];
    }
  };
  sum(m.root_link);
  const double total = m.totalMass_kg();
  std::vector<bool> welded(m.joints.size(), false);
  std::function<void(int, bool)> visit = [&](int l, bool inside_weld) {
    for (int ji : children[l]) {
      const Joint& j = m.joints[ji];
      const double sub = mass[j.child];
      const bool frame = sub <= 0 && !collides[j.child];
      const bool light = m.solver.weld_mass_ratio > 0 && sub < m.solver.weld_mass_ratio * total;
      welded[ji] = j.movable() && (inside_weld || frame || light);
      if (welded[ji] && !inside_weld)
        changes.push_back({"joint " + j.name,
                           "movable, moves " + sixDigits(sub) + " kg (link " + m.links[j.child].name + " and below)",
                           "welded to " + m.links[j.parent].name + " at its initial value",
                           frame ? std::string("it moves a massless frame: nothing to simulate")
                                 : "it moves " + sixDigits(sub / total) + " of the robot's " + sixDigits(total) +
                                       " kg (below solver weld_mass_ratio " + sixDigits(m.solver.weld_mass_ratio) +
                                       "): so light a body makes the solver ill-conditioned"});
      visit(j.child, inside_weld || welded[ji]);
    }
  };
  visit(m.root_link, false);
  return welded;
}

/// Rigid groups: links joined by fixed or welded joints form one body, named by its first link;
/// a group joined to a static root by rigid joints is static. Also which joint moves each group,
/// and which links are soft.
void groupLinks(CompileContext& c) {
  const RobotModel& m = c.m;
  const size_t nl = m.links.size();
  c.rigid.resize(m.joints.size());
  for (size_t ji = 0; ji < m.joints.size(); ++ji) c.rigid[ji] = !m.joints[ji].movable() || c.out.joints[ji].welded;
  c.group_of.assign(nl, -1);
  c.is_static.assign(nl, false);
  c.group_of[m.root_link] = m.root_link;
  c.is_static[m.root_link] = m.fixed_base;
  for (size_t sweep = 0; sweep <= nl; ++sweep)
    for (size_t ji = 0; ji < m.joints.size(); ++ji) {
      const Joint& j = m.joints[ji];
      if (c.group_of[j.parent] < 0 || c.group_of[j.child] >= 0) continue;
      c.group_of[j.child] = c.rigid[ji] ? c.group_of[j.parent] : j.child;
      c.is_static[j.child] = c.rigid[ji] && c.is_static[j.parent];
    }
  c.soft_of.assign(nl, nullptr);
  for (const SoftLink& s : m.soft_links)
    if (s.segments > 1) c.soft_of[s.link] = &s;
  c.moving_joint.assign(nl, -1);
  for (size_t ji = 0; ji < m.joints.size(); ++ji)
    if (!c.rigid[ji]) c.moving_joint[m.joints[ji].child] = static_cast<int>(ji);
}

/// The build configuration (every joint at zero, welded ones at the value they hold: ODE measures
/// joint angles from the pose a joint is created in) and the initial pose.
void compilePoses(CompileContext& c) {
  const RobotModel& m = c.m;
  const Eigen::Isometry3d root = initialRootPose(m);
  std::vector<double> q_build(m.joints.size(), 0.0);
  for (size_t ji = 0; ji < m.joints.size(); ++ji)
    if (c.out.joints[ji].welded) q_build[ji] = c.out.joints[ji].welded_q = m.initial_q[ji];
  c.pose_build = linkPoses(m, q_build, root);
  c.pose_initial = linkPoses(m, m.initial_q, root);
}

/// The model's multi-joint drives (makeCoupledDrives), each on joints that have a row of their own.
void compileCoupledDrives(CompileContext& c) {
  const RobotModel& m = c.m;
  for (CoupledDriveSlot& s : makeCoupledDrives(m)) {
    for (int j : s.joints)
      if (c.out.joints[static_cast<size_t>(j)].row == CompiledModel::Joint::Row::None)
        throw InputError(m.source_file, s.line, s.element,
                         "drives joint '" + m.joints[static_cast<size_t>(j)].name +
                             "', which is not movable here (fixed, or welded by the compile step because what it "
                             "moves is too light: gapsim-cli info --compiled); give it a movable joint with mass");
    c.out.coupled_drives.push_back({std::move(s.drive), s.joints, s.element, s.line});
  }
}

}  // namespace

CompiledModel compile(const RobotModel& m, const SimOptions& options) {
  CompiledModel out;
  compileSolver(m, options, out);
  checkSceneBoxes(m);
  out.joints.resize(m.joints.size());
  const std::vector<bool> welded = weldedJoints(m, out.changes);
  for (size_t ji = 0; ji < m.joints.size(); ++ji) out.joints[ji].welded = welded[ji];
  CompileContext c{m, out, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  const RealityEffects effects = combinedEffects(m.reality, options.reality);
  c.reality = &effects;
  if (effects.changesDrives())
    out.changes.push_back({"hinge drives", "the robot file's",
                           "wrapped by reality effects (command delay, Stribeck friction, backlash)",
                           m.reality.changesDrives() ? "the model's reality/... parameters (sim/reality.h)"
                                                     : "SimOptions::reality: a twin's reality (sim/reality.h)"});
  out.imu_bias_rad = effects.imu_bias_rad;
  out.gyro_bias_rad_s = effects.gyro_bias_rad_s;
  groupLinks(c);
  compilePoses(c);
  detail::compileBodies(c);
  detail::regulariseLightLinks(c);
  detail::compileSoftJoints(c);
  detail::compileJoints(c);
  detail::compilePlanarBase(c);
  compileCoupledDrives(c);
  return out;
}

}  // namespace gapsim
