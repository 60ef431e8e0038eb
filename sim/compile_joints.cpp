// SPDX-License-Identifier: BSD-3-Clause
// The compile step's joints: robot joints (hinge or slider rows, stops, the drive and its damper
// row), the universal joints between soft-link segments, and the planar base's rows. Every value
// that runs differently from the file's is listed with the reason.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "motorgear/dc_motor.h"
#include "sim/compile_detail.h"
#include "sim/drive_registry.h"
#include "sim/input_error.h"

namespace gapsim::detail {
namespace {

/// Inertia of the subtree below joint `j` about its axis at the initial pose (kg m^2): what the
/// coupled gear sees as the joint's own inertia when it is not told otherwise.
double subtreeInertiaAboutAxis(const RobotModel& m, int j, const std::vector<Eigen::Isometry3d>& pose) {
  const Joint& jt = m.joints[j];
  const Eigen::Isometry3d jf = pose[jt.parent] * jt.origin;
  const Eigen::Vector3d a = jf.linear() * jt.axis, p = jf.translation();
  std::vector<bool> in(m.links.size(), false);
  in[jt.child] = true;
  for (size_t sweep = 0; sweep < m.links.size(); ++sweep)
    for (const Joint& o : m.joints)
      if (in[o.parent]) in[o.child] = true;
  double I = 0;
  for (size_t l = 0; l < m.links.size(); ++l) {
    if (!in[l] || !m.links[l].has_inertial) continue;
    const Link& L = m.links[l];
    const Eigen::Isometry3d cf = pose[l] * L.inertial.origin;
    const Eigen::Vector3d r = cf.translation() - p;
    const Eigen::Vector3d rp = r - r.dot(a) * a;
    const Eigen::Vector3d al = cf.linear().transpose() * a;
    I += al.dot(L.inertial.inertia_kgm2 * al) + L.inertial.mass_kg * rp.squaredNorm();
  }
  return I;
}

/// A MoToFlex chain's parameters as they run: its gear frame is the physics step; the
/// motoflex2011 gear's speed friction and back-EMF leave the chain for the damper row; the coupled
/// gear gets the joint inertia it needs.
CompiledChain compileChain(CompileContext& c, int ji) {
  const Joint& j = c.m.joints[static_cast<size_t>(ji)];
  const double dt_s = c.out.dt_s;
  CompiledChain compiled;
  motorgear::JointDrivetrain::Params& p = compiled.params;
  p = j.drive.motoflex;
  if (p.gear.frame_s != dt_s)
    c.out.changes.push_back({j.name + ": gear/frame", sixDigits(p.gear.frame_s) + " s", sixDigits(dt_s) + " s",
                             "the chain is stepped once per physics step"});
  p.gear.frame_s = dt_s;
  if (p.gear.variant == motorgear::Gear::Variant::kMotoflex2011) {
    // The speed friction sigma B_v qd and the back-EMF damping sigma^2 S K_t K_e / R leave the
    // explicit chain for the implicit damper row. Explicit, they need b dt / J < 2, which the
    // light pelvis and soft-leg segments violate (14 of 100 sweep sets diverged with explicit damping);
    // implicit, a motor on a light link reaches its no-load speed U / (K_e sigma) in one step
    // instead of overshooting. Exact up to the RL lag L/R = 48 us << dt (I is linear in qd).
    if (p.enable_motor) {
      compiled.damping_Nm_s_rad = motorgear::DcMotor(p.motor).jointDamping_Nm_s_rad(p.gear.sigma);
      c.out.changes.push_back({j.name + ": motor/B_v and back-EMF",
                               "B_v " + sixDigits(p.motor.B_v_Nm_s_rad) + " N m s/rad, K_e " +
                                   sixDigits(p.motor.K_e_V_s_rad) + " V s/rad in the chain",
                               "implicit damper row b = " + sixDigits(compiled.damping_Nm_s_rad) + " N m s/rad",
                               "explicit, b dt / J < 2 fails on light links (docs/drivetrain.md, Back-EMF)"});
      p.motor.B_v_Nm_s_rad = 0.0;
      p.back_emf_external = true;
    }
  } else if (p.gear.J_joint_kgm2 <= 0) {
    // The coupled gear needs the joint's inertia for its in-frame joint reaction; the exact
    // integrator cannot take that reaction (3rd-order contact), so it falls back to substeps.
    p.gear.J_joint_kgm2 = subtreeInertiaAboutAxis(c.m, ji, c.pose_initial) + p.gear.reflectedInertia_kgm2();
    c.out.changes.push_back(
        {j.name + ": gear/J_joint and gear/integrator", "0 (none), as in the file",
         sixDigits(p.gear.J_joint_kgm2) + " kg m^2, substeps",
         "the coupled gear needs the joint inertia; the exact integrator cannot take its reaction"});
    p.gear.integrator = motorgear::Gear::Integrator::kSubsteps;
  }
  return compiled;
}

/// The drive of a movable joint that is not a mimic (sim/drive_registry.h), built at the initial
/// pose, and its damper row.
void compileDrive(CompileContext& c, int ji, bool hinge) {
  const Joint& j = c.m.joints[static_cast<size_t>(ji)];
  CompiledModel::Joint& cj = c.out.joints[static_cast<size_t>(ji)];
  const DriveKindInfo& kind = driveKindInfo(j.drive.kind);
  const CompiledChain chain = kind.motoflex_chain && hinge ? compileChain(c, ji) : CompiledChain{};
  cj.prototype = makeDrive(j, hinge, c.out.dt_s, c.m.initial_q[static_cast<size_t>(ji)], chain,
                           c.reality ? *c.reality : RealityEffects{});
  const bool servo_instead = !hinge && kind.hinge_only;
  const DriveKindInfo& runs = servo_instead ? driveKindInfo(DriveKind::Ideal) : kind;
  cj.drive = runs.ideal_servo && j.servo.fmax_Nm <= 0 ? "passive (ideal servo, fmax 0)" : std::string(runs.title);
  if (servo_instead)
    c.out.changes.push_back({j.name + ": drive", std::string(kind.title),
                             "ideal servo (gain " + sixDigits(j.servo.gain_1_s) + " 1/s)",
                             "the MoToFlex chain and the Dynamixel servos drive hinges only"});
  if (hinge) cj.damper_Nm_s_rad = cj.prototype->damping_Nm_s_rad();  // damper rows are angular motors
}

/// A movable, unwelded joint: its row between the child's body and the parent's (last) body at
/// the build configuration, its stops, and what drives it.
void compileJoint(CompileContext& c, int ji) {
  const Joint& j = c.m.joints[static_cast<size_t>(ji)];
  CompiledModel::Joint& cj = c.out.joints[static_cast<size_t>(ji)];
  const bool hinge = j.type != JointType::Prismatic;
  cj.row = hinge ? CompiledModel::Joint::Row::Hinge : CompiledModel::Joint::Row::Slider;
  cj.child_body = c.out.link_body[j.child];
  cj.parent_body = c.out.link_last_body[j.parent];
  const Eigen::Isometry3d jf = c.pose_build[j.parent] * j.origin;
  const Eigen::Vector3d axis = jf.linear() * j.axis;  // constructed, not assigned: the same bits as before
  cj.anchor_m = jf.translation();
  cj.axis = axis;
  // ODE hinge stops must lie within (-pi, pi); wider limits are left to the servo.
  cj.stops = j.has_limits && (!hinge || (j.lower > -std::numbers::pi && j.upper < std::numbers::pi));
  cj.lower = j.lower;
  cj.upper = j.upper;
  if (j.has_limits && !cj.stops)
    c.out.changes.push_back({j.name + ": limits", "[" + sixDigits(j.lower) + ", " + sixDigits(j.upper) + "] rad",
                             "no joint stops (the drive alone keeps the joint in range)",
                             "ODE hinge stops must lie within (-pi, pi)"});
  cj.viscous_Nm_s_rad = j.damping_Nms_rad;
  cj.coulomb_Nm = j.friction_Nm;
  cj.mimic = j.mimic.master >= 0;
  if (cj.mimic) {
    cj.drive = "mimic of " + c.m.joints[static_cast<size_t>(j.mimic.master)].name;
    return;
  }
  compileDrive(c, ji, hinge);
}

}  // namespace

void compileJoints(CompileContext& c) {
  for (size_t ji = 0; ji < c.m.joints.size(); ++ji) {
    if (c.rigid[ji]) {
      c.out.joints[ji].drive = c.out.joints[ji].welded ? "welded" : "fixed";
      continue;
    }
    compileJoint(c, static_cast<int>(ji));
  }
}

void compileSoftJoints(CompileContext& c) {
  // A limit with LoStop = HiStop = 0 is a bilateral constraint whose error reduction and
  // mixing give a spring k and damper c: ERP = h k / (h k + c), CFM = 1 / (h k + c) (ODE manual,
  // "How to use ERP and CFM"), stable for any k.
  for (const CompileContext::SoftPlan& sp : c.soft_plans) {
    const SoftLink& s = *sp.spec;
    const Eigen::Isometry3d& lf = c.pose_build[s.link];
    const Eigen::Vector3d along = (lf.linear() * sp.axis_link).normalized();
    // Bending axes: the link's x axis made perpendicular to the link, then the third direction.
    // (Order matters to ODE: axis 1 must not be parallel to the universal joint's default axis 2, y.)
    Eigen::Vector3d u1 = lf.linear().col(0) - lf.linear().col(0).dot(along) * along;
    if (u1.norm() < 1e-6) u1 = lf.linear().col(1) - lf.linear().col(1).dot(along) * along;
    u1.normalize();
    const Eigen::Vector3d u2 = along.cross(u1);
    const double hk = c.out.dt_s * s.D_B_Nm_rad, damping = s.damping_Nms_rad;
    for (int k = 1; k < s.segments; ++k) {
      CompiledModel::SoftJoint sj;
      sj.name = c.m.links[s.link].name + "/soft" + std::to_string(k);
      sj.body1 = sp.first_body + k;
      sj.body2 = sp.first_body + k - 1;
      const Eigen::Vector3d at = lf * (sp.axis_link * (static_cast<double>(k) / s.segments));
      sj.anchor_m = at;
      sj.axis1 = u1;
      sj.axis2 = u2;
      sj.stop_erp = hk / (hk + damping);
      sj.stop_cfm = 1.0 / (hk + damping);
      sj.friction_Nm = s.friction_Nm;
      c.out.soft_joints.push_back(sj);
    }
  }
}

void compilePlanarBase(CompileContext& c) {
  const RobotModel& m = c.m;
  if (!m.planar_base) return;
  // Rows as strong as 100 times the robot's weight (at 1 m for the torque): hard in practice.
  CompiledModel::PlanarBase& P = c.out.planar;
  P.enabled = true;
  P.body = c.out.link_body[m.root_link];
  const Eigen::Isometry3d& body_initial = c.out.bodies[static_cast<size_t>(P.body)].pose_initial;
  P.normal = m.planar_normal.normalized();
  P.u = P.normal.unitOrthogonal();
  P.v = P.normal.cross(P.u);
  P.offset_m = P.normal.dot(body_initial.translation());
  P.normal_in_body = body_initial.linear().transpose() * P.normal;
  P.fmax = 100.0 * m.totalMass_kg() * std::max(1.0, m.solver.gravity_m_s2.norm());
  c.out.changes.push_back({"root " + m.links[m.root_link].name, "planar joint from world",
                           "held in the plane with normal (" + sixDigits(P.normal.x()) + ", " +
                               sixDigits(P.normal.y()) + ", " + sixDigits(P.normal.z()) + ") by motor rows of up to " +
                               sixDigits(P.fmax) + " N (N m)",
                           "ODE has no planar joint"});
}

}  // namespace gapsim::detail
