// SPDX-License-Identifier: BSD-3-Clause
// The compile step's bodies: each rigid group of links (or soft-link segment) becomes one body
// whose mass, COM and inertia are those ODE gets. What differs from the file (a massless link's
// mass, a zero principal moment, the armature, the inertia floor) is listed with the reason.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "sim/compile_detail.h"
#include "sim/drive_kinds.h"
#include "sim/input_error.h"

namespace gapsim::detail {
namespace {

/// Mass, COM and inertia (about the COM) of a set of parts, in one frame.
struct MassProps {
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

struct Part {
  double mass;
  Eigen::Isometry3d frame;  // COM frame (rotation = inertia axes) in the common frame
  Eigen::Matrix3d inertia;
};

MassProps combine(const std::vector<Part>& parts) {
  MassProps r;
  for (const Part& p : parts) {
    r.mass += p.mass;
    r.com += p.mass * p.frame.translation();
  }
  if (r.mass > 0) r.com /= r.mass;
  for (const Part& p : parts) {
    const Eigen::Matrix3d R = p.frame.linear();
    const Eigen::Vector3d d = p.frame.translation() - r.com;
    // Parallel-axis theorem: I_c + m (|d|^2 E - d d^T).
    r.inertia +=
        R * p.inertia * R.transpose() + p.mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  return r;
}

bool positiveDefinite(const Eigen::Matrix3d& I) {
  return Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues().minCoeff() > 0;
}

/// The mass and moments a body gets when the file gives it too little for ODE. A massless link
/// moved by a joint with links of mass below it (a dummy link between two joints) gets
/// kMasslessBodyFraction of the robot's mass as a solid sphere of radius kMasslessBodyRadius_m:
/// lighter, or with the moments of a point, it makes QuickStep diverge against its neighbours
/// (tests/sim/urdf_quirks_test.cpp: 1e-3 of the mass in a 20 mm sphere spins up within 3 s). Every
/// principal moment is at least that of a solid sphere of radius kMinGyrationRadius_m (0.4 m r^2):
/// a point mass or a rod along its axis has a zero moment, which ODE refuses. Both are reported.
constexpr double kMasslessBodyFraction = 3e-3;
constexpr double kMasslessBodyRadius_m = 0.02;
constexpr double kMinGyrationRadius_m = 0.001;

/// A massless link moved by a joint, with links of mass below it (the parser refuses the other
/// cases, and the welds take massless frames).
void regulariseMassless(CompileContext& c, const std::string& name, MassProps& mp) {
  mp.mass = kMasslessBodyFraction * c.m.totalMass_kg();
  mp.com = Eigen::Vector3d::Zero();
  mp.inertia = Eigen::Matrix3d::Identity() * 0.4 * mp.mass * kMasslessBodyRadius_m * kMasslessBodyRadius_m;
  c.out.changes.push_back({"body " + name + ": mass", "0 kg (no <inertial>)",
                           sixDigits(mp.mass) + " kg, principal moments " + sixDigits(mp.inertia(0, 0)) + " kg m^2",
                           "a link moved by a joint needs mass in ODE: " + sixDigits(kMasslessBodyFraction) +
                               " of the robot's, a sphere of radius " + sixDigits(kMasslessBodyRadius_m) + " m"});
}

/// Zero principal moments (point masses, rods along their axis): ODE needs a positive-definite
/// tensor. A negative moment is no body at all (the parser refuses it; a parameter set can still
/// make one): ODE's own check refuses it at instantiation, it is not papered over here.
void regulariseZeroMoments(CompileContext& c, const std::string& name, MassProps& mp) {
  const double floor = 0.4 * mp.mass * kMinGyrationRadius_m * kMinGyrationRadius_m;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(mp.inertia);
  const Eigen::Vector3d ev = es.eigenvalues();
  if (!(ev.minCoeff() < floor * (1 - 1e-9) && ev.minCoeff() >= -1e-12 * ev.cwiseAbs().maxCoeff())) return;
  const Eigen::Vector3d before = es.eigenvalues();
  mp.inertia = es.eigenvectors() * before.cwiseMax(floor).asDiagonal() * es.eigenvectors().transpose();
  c.out.changes.push_back({"body " + name + ": principal moments",
                           sixDigits(before[0]) + " " + sixDigits(before[1]) + " " + sixDigits(before[2]) + " kg m^2",
                           "at least " + sixDigits(floor),
                           "ODE needs every moment > 0: that of a solid sphere of radius " +
                               sixDigits(kMinGyrationRadius_m) + " m of the body's mass"});
}

/// Reflected rotor inertia about the joint axis (`axis` in the body's frame at q = 0). Added to the
/// body, so it turns with the body in space rather than relative to the parent: exact while the
/// parent does not rotate about the same axis, the usual approximation of engines without an
/// armature term.
void addArmature(CompileContext& c, const std::string& body, int joint, double armature_kgm2,
                 const Eigen::Vector3d& axis, MassProps& mp) {
  if (!(armature_kgm2 > 0)) return;
  mp.inertia += armature_kgm2 * axis * axis.transpose();
  c.out.changes.push_back(
      {c.m.joints[static_cast<size_t>(joint)].name + ": armature",
       "the drive's reflected rotor inertia " + sixDigits(armature_kgm2) + " kg m^2 about the joint axis",
       "added to the inertia of body " + body,
       "ODE has no armature term: the rotor's inertia turns with the child body"});
}

/// `I` with every principal moment raised to at least `floor_kgm2` (same principal axes): the
/// solver's inertia floor (SolverSettings::min_inertia_kgm2). Returned by value on purpose: Eigen
/// rounds this product differently when it is assigned into an existing matrix, and the golden
/// logs pin these bits.
Eigen::Matrix3d withInertiaFloor(const Eigen::Matrix3d& I, double floor_kgm2) {
  if (floor_kgm2 <= 0) return I;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es(I);
  if (es.eigenvalues().minCoeff() >= floor_kgm2) return I;
  const Eigen::Vector3d raised = es.eigenvalues().cwiseMax(floor_kgm2);
  return es.eigenvectors() * raised.asDiagonal() * es.eigenvectors().transpose();
}

/// The inertia floor applied to a body's inertia about its COM (armature included), listed.
void floorInertia(CompileContext& c, const std::string& name, MassProps& mp) {
  const double floor_kgm2 = c.m.solver.min_inertia_kgm2;
  const Eigen::Matrix3d raised = withInertiaFloor(mp.inertia, floor_kgm2);
  if (raised == mp.inertia) return;
  const Eigen::Vector3d before = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(mp.inertia).eigenvalues();
  c.out.inertia_floor_changes.push_back({name, before, floor_kgm2});
  c.out.changes.push_back({"body " + name + ": principal moments",
                           sixDigits(before[0]) + " " + sixDigits(before[1]) + " " + sixDigits(before[2]) + " kg m^2",
                           "at least " + sixDigits(floor_kgm2),
                           "solver min_inertia_kgm2: QuickStep converges on light links (docs/solver.md)"});
  mp.inertia = raised;
}

/// A body as ODE gets it: dMassSetParameters reads the upper triangle, so the tensor is that
/// triangle mirrored.
int addBody(CompileContext& c, const std::string& name, const MassProps& mp, double mass_kg,
            const Eigen::Isometry3d& pose_build, const Eigen::Isometry3d& pose_initial, double armature_kgm2) {
  CompiledModel::Body b;
  b.name = name;
  b.mass_kg = mass_kg;
  const Eigen::Matrix3d& I = mp.inertia;
  b.inertia_kgm2 << I(0, 0), I(0, 1), I(0, 2), I(0, 1), I(1, 1), I(1, 2), I(0, 2), I(1, 2), I(2, 2);
  b.principal_kgm2 = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(b.inertia_kgm2).eigenvalues();
  b.armature_kgm2 = armature_kgm2;
  b.pose_build = pose_build;
  b.pose_initial = pose_initial;
  c.out.bodies.push_back(b);
  return static_cast<int>(c.out.bodies.size()) - 1;
}

/// A collision shape, if ODE can collide it (the parser replaced missing meshes; a flat one, with
/// no hull, is drawn but not collided).
void addShape(CompiledModel::Body& b, int link, int index, const Geometry& gm, const Eigen::Isometry3d& link_in_body) {
  if (gm.type == Geometry::Type::Mesh && (!gm.mesh || gm.mesh->hull.empty())) return;
  b.shapes.push_back({link, index, link_in_body * gm.origin});
}

/// Soft link: N segments along the vector from the link origin to its child joint. Each gets m/N;
/// the segment COMs are the link COM shifted along that vector so that the total COM is
/// unchanged; inertias are split so that the total about the COM is unchanged where that stays
/// physical (else I/N each). The armature goes to the first segment.
void compileSoftSegments(CompileContext& c, int rep, const SoftLink& s) {
  const RobotModel& m = c.m;
  const Link& RL = m.links[rep];
  const int mj = c.moving_joint[rep];
  const double armature = mj >= 0 ? driveArmature_kgm2(m.joints[mj].drive) : 0.0;
  const Eigen::Vector3d axis_rep = mj >= 0 ? m.joints[mj].axis : Eigen::Vector3d::UnitZ();
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  for (const Joint& j : m.joints)
    if (j.parent == rep && j.movable()) v = j.origin.translation();
  const int N = s.segments;
  const double ms = RL.inertial.mass_kg / N;
  const int first = static_cast<int>(c.out.bodies.size());
  for (int k = 0; k < N; ++k) {
    const Eigen::Vector3d shift = ((k + 0.5) / N - 0.5) * v;
    Part p{ms, RL.inertial.origin, RL.inertial.inertia_kgm2 / N};
    p.frame.translation() += shift;
    Eigen::Matrix3d Ik = RL.inertial.inertia_kgm2 / N;
    const Eigen::Vector3d d = shift;  // COM offset of this segment from the link COM
    const Eigen::Matrix3d Rc = RL.inertial.origin.linear();
    const Eigen::Vector3d dc = Rc.transpose() * d;
    const Eigen::Matrix3d corr = ms * (dc.squaredNorm() * Eigen::Matrix3d::Identity() - dc * dc.transpose());
    if (positiveDefinite(Ik - corr)) Ik -= corr;
    p.inertia = Ik;
    MassProps mp = combine({p});
    const std::string name = RL.name + "#" + std::to_string(k);
    if (k == 0) addArmature(c, name, mj, armature, axis_rep, mp);
    // Segment body frame: link axes, origin at the segment COM.
    Eigen::Isometry3d seg0 = c.pose_build[rep];
    seg0.translation() = c.pose_build[rep] * mp.com;
    Eigen::Isometry3d segi = c.pose_initial[rep];
    segi.translation() = c.pose_initial[rep] * mp.com;
    mp.com.setZero();
    floorInertia(c, name, mp);
    const int bi = addBody(c, name, mp, ms, seg0, segi, k == 0 && armature > 0 ? armature : 0.0);
    // Geometry goes to the segment whose span holds its centre.
    for (size_t g = 0; g < RL.collisions.size(); ++g) {
      const Geometry& gm = RL.collisions[g];
      const double t = v.squaredNorm() > 0 ? gm.origin.translation().dot(v) / v.squaredNorm() : 0.0;
      const int owner = std::clamp(static_cast<int>(std::floor(t * N)), 0, N - 1);
      if (owner == k) addShape(c.out.bodies[bi], rep, static_cast<int>(g), gm, seg0.inverse() * c.pose_build[rep]);
    }
  }
  c.out.link_body[rep] = first;
  c.out.link_last_body[rep] = first + N - 1;
  c.out.link_in_body[rep] = c.out.bodies[first].pose_build.inverse() * c.pose_build[rep];
  c.soft_plans.push_back({&s, first, v});
}

/// A rigid group: the combined mass properties of its links, in the frame of its first link
/// moved to the group's COM.
void compileRigidGroup(CompileContext& c, int rep, const std::vector<size_t>& members) {
  const RobotModel& m = c.m;
  const Link& RL = m.links[rep];
  const int mj = c.moving_joint[rep];
  const double armature = mj >= 0 ? driveArmature_kgm2(m.joints[mj].drive) : 0.0;
  const Eigen::Vector3d axis_rep = mj >= 0 ? m.joints[mj].axis : Eigen::Vector3d::UnitZ();
  const Eigen::Isometry3d rep_inv = c.pose_build[rep].inverse();
  std::vector<Part> parts;
  for (size_t l : members) {
    const Link& L = m.links[l];
    if (L.has_inertial)
      parts.push_back({L.inertial.mass_kg, rep_inv * c.pose_build[l] * L.inertial.origin, L.inertial.inertia_kgm2});
  }
  MassProps mp = combine(parts);
  if (mp.mass <= 0) regulariseMassless(c, RL.name, mp);
  regulariseZeroMoments(c, RL.name, mp);
  addArmature(c, RL.name, mj, armature, axis_rep, mp);
  Eigen::Isometry3d body0 = c.pose_build[rep];
  body0.translation() = c.pose_build[rep] * mp.com;
  Eigen::Isometry3d bodyi = c.pose_initial[rep];
  bodyi.translation() = c.pose_initial[rep] * mp.com;
  const double mass = mp.mass;
  mp.com.setZero();
  floorInertia(c, RL.name, mp);
  const int bi = addBody(c, RL.name, mp, mass, body0, bodyi, armature > 0 ? armature : 0.0);
  for (size_t l : members) {
    c.out.link_body[l] = bi;
    c.out.link_last_body[l] = bi;
    c.out.link_in_body[l] = body0.inverse() * c.pose_build[l];
    for (size_t g = 0; g < m.links[l].collisions.size(); ++g)
      addShape(c.out.bodies[bi], static_cast<int>(l), static_cast<int>(g), m.links[l].collisions[g],
               c.out.link_in_body[l]);
  }
}

/// The links each body carries (for the report), and the foot each body is.
void nameBodyLinks(CompileContext& c) {
  const RobotModel& m = c.m;
  CompiledModel& o = c.out;
  for (size_t bi = 0; bi < o.bodies.size(); ++bi)
    for (size_t l = 0; l < m.links.size(); ++l)
      if (o.link_body[l] == static_cast<int>(bi) ||
          (o.link_last_body[l] == static_cast<int>(bi) && o.link_body[l] != o.link_last_body[l]))
        o.bodies[bi].links.push_back(m.links[l].name);
  for (size_t f = 0; f < m.foot_contacts.size(); ++f) {
    const int bi = o.link_last_body[m.foot_contacts[f].link];
    if (bi >= 0) o.bodies[static_cast<size_t>(bi)].foot = static_cast<int>(f);
  }
}

}  // namespace

void compileBodies(CompileContext& c) {
  const size_t nl = c.m.links.size();
  c.out.link_body.assign(nl, -1);
  c.out.link_last_body.assign(nl, -1);
  c.out.link_in_body.assign(nl, Eigen::Isometry3d::Identity());
  c.out.static_link_pose.assign(nl, Eigen::Isometry3d::Identity());
  for (size_t rep = 0; rep < nl; ++rep) {
    if (c.group_of[rep] != static_cast<int>(rep)) continue;
    std::vector<size_t> members;
    for (size_t l = 0; l < nl; ++l)
      if (c.group_of[l] == static_cast<int>(rep)) members.push_back(l);
    if (c.is_static[rep]) {
      for (size_t l : members) c.out.static_link_pose[l] = c.pose_build[l];
      continue;
    }
    if (const SoftLink* s = c.soft_of[rep])
      compileSoftSegments(c, static_cast<int>(rep), *s);
    else
      compileRigidGroup(c, static_cast<int>(rep), members);
  }
  nameBodyLinks(c);
}

}  // namespace gapsim::detail
