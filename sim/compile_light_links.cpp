// SPDX-License-Identifier: BSD-3-Clause
// The compile step's light-link rule: a body much lighter than both bodies it joins by movable
// joints (a servo bracket of a few grams between a torso and an arm, an ankle cross between a
// shank and a foot) gets its principal moments raised to its lighter neighbour's smallest one.
//
// Why: QuickStep is projected Gauss-Seidel on A = J M^-1 J^T. The rows of the two joints at such a
// body are coupled through its inverse inertia; when that dominates the neighbours' terms, the
// off-diagonal block approaches the diagonal ones and each sweep removes only a small part of
// the error, so 20 sweeps leave the joints sagging and ringing (the OP3's 12 g brackets: 0.12 rad
// at the shoulders, 12 rad/s). dWorldStep solves the same rows exactly and does not need it,
// and a robot file that sets its own inertia floor (SolverSettings::min_inertia_kgm2) has chosen
// its conditioning: the rule runs on QuickStep without a floor only.
//
// What it changes: the light body's rotational inertia (mass and COM stay). Real joints carry
// a reflected rotor inertia (gear ratio^2 x rotor inertia, e.g. 201.3^2 x 1e-7 = 4e-3 kg m^2 on
// the Nao's leg joints) that is far above the raised moments, which a URDF without <gapsim>
// leaves out; the raise is of that order or below.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <string>
#include <vector>

#include "sim/compile_detail.h"
#include "sim/input_error.h"

namespace gapsim::detail {
namespace {

struct LightLink {
  int body = -1;
  double floor_kgm2 = 0;
  std::string item, in_file, compiled;
};

/// The rule's decision for the rigid group `rep`, or body -1.
LightLink decide(const CompileContext& c, int rep, double ratio) {
  const RobotModel& m = c.m;
  const CompiledModel& o = c.out;
  LightLink d;
  const int mj = c.moving_joint[static_cast<size_t>(rep)];
  if (mj < 0) return d;
  const int bi = o.link_body[static_cast<size_t>(rep)];
  const int parent = o.link_last_body[static_cast<size_t>(m.joints[static_cast<size_t>(mj)].parent)];
  if (bi < 0 || parent < 0) return d;
  int child = -1;  // the heaviest body this one moves through a movable joint
  for (size_t ji = 0; ji < m.joints.size(); ++ji) {
    if (c.rigid[ji] || c.group_of[static_cast<size_t>(m.joints[ji].parent)] != rep) continue;
    const int cb = o.link_body[static_cast<size_t>(m.joints[ji].child)];
    if (cb >= 0 &&
        (child < 0 || o.bodies[static_cast<size_t>(cb)].mass_kg > o.bodies[static_cast<size_t>(child)].mass_kg))
      child = cb;
  }
  if (child < 0) return d;  // an end link is no link between two others
  const CompiledModel::Body& B = o.bodies[static_cast<size_t>(bi)];
  const CompiledModel::Body& P = o.bodies[static_cast<size_t>(parent)];
  const CompiledModel::Body& C = o.bodies[static_cast<size_t>(child)];
  const double lighter_kg = std::min(P.mass_kg, C.mass_kg);
  if (!(B.mass_kg < ratio * lighter_kg)) return d;
  const double floor_kgm2 = std::min(P.principal_kgm2[0], C.principal_kgm2[0]);
  if (!(B.principal_kgm2[0] < floor_kgm2)) return d;
  d.body = bi;
  d.floor_kgm2 = floor_kgm2;
  d.item = "body " + B.name + ": principal moments";
  d.in_file = sixDigits(B.principal_kgm2[0]) + " " + sixDigits(B.principal_kgm2[1]) + " " +
              sixDigits(B.principal_kgm2[2]) + " kg m^2; " + sixDigits(B.mass_kg) + " kg between " + P.name + " (" +
              sixDigits(P.mass_kg) + " kg) and " + C.name + " (" + sixDigits(C.mass_kg) + " kg)";
  d.compiled = "at least " + sixDigits(floor_kgm2) + " (the smallest moment of " +
               (P.principal_kgm2[0] <= C.principal_kgm2[0] ? P.name : C.name) + ")";
  return d;
}

/// `I` with every principal moment raised to at least `floor_kgm2`, same principal axes.
Eigen::Matrix3d raised(const Eigen::Matrix3d& I, double floor_kgm2) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(I);
  const Eigen::Vector3d ev = es.eigenvalues().cwiseMax(floor_kgm2);
  const Eigen::Matrix3d r = es.eigenvectors() * ev.asDiagonal() * es.eigenvectors().transpose();
  return 0.5 * (r + r.transpose());  // exactly symmetric, as ODE reads the upper triangle
}

}  // namespace

void regulariseLightLinks(CompileContext& c) {
  const SolverSettings& s = c.m.solver;
  if (!(s.light_link_mass_ratio > 0) || !c.out.quickstep || s.min_inertia_kgm2 > 0) return;
  // Decide on the bodies as compiled, then raise: a raise does not feed the next decision.
  std::vector<LightLink> todo;
  for (size_t rep = 0; rep < c.m.links.size(); ++rep) {
    if (c.group_of[rep] != static_cast<int>(rep) || c.is_static[rep] || c.soft_of[rep]) continue;
    LightLink d = decide(c, static_cast<int>(rep), s.light_link_mass_ratio);
    if (d.body >= 0) todo.push_back(std::move(d));
  }
  for (const LightLink& d : todo) {
    CompiledModel::Body& b = c.out.bodies[static_cast<size_t>(d.body)];
    b.inertia_kgm2 = raised(b.inertia_kgm2, d.floor_kgm2);
    b.principal_kgm2 = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(b.inertia_kgm2).eigenvalues();
    c.out.changes.push_back({d.item, d.in_file, d.compiled,
                             "lighter than solver light_link_mass_ratio " + sixDigits(s.light_link_mass_ratio) +
                                 " of both bodies it joins: QuickStep converges on it (docs/solver.md)"});
  }
}

}  // namespace gapsim::detail
