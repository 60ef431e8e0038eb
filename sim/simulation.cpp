// SPDX-License-Identifier: BSD-3-Clause
#include "sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "sim/kinematics.h"
#include "sim/ode_init.h"
#include "sim/simulation_impl.h"

namespace gapsim {
namespace {

using Clock = std::chrono::steady_clock;

Eigen::Matrix3d toEigen(const dReal* R) {  // ODE 3x4 row-major rotation
  Eigen::Matrix3d M;
  M << R[0], R[1], R[2], R[4], R[5], R[6], R[8], R[9], R[10];
  return M;
}

/// Keeps `keep` of the `n` contacts: the deepest, then each time the one farthest from those kept
/// (farthest-point sampling). ODE's convex collider returns the first vertices it finds below a
/// plane, which on a flat sole with many vertices can all lie at one edge; the kept points span
/// the contact patch, so a mesh foot stands on its corners as a box foot does.
int spreadContacts(dContact* c, int n, int keep) {
  if (n <= keep) return n;
  int deepest = 0;
  for (int i = 1; i < n; ++i)
    if (c[i].geom.depth > c[deepest].geom.depth) deepest = i;
  std::swap(c[0], c[deepest]);
  double dist[64];
  auto d2 = [&](int i, int j) {
    double s = 0;
    for (int k = 0; k < 3; ++k) s += (c[i].geom.pos[k] - c[j].geom.pos[k]) * (c[i].geom.pos[k] - c[j].geom.pos[k]);
    return s;
  };
  for (int i = 1; i < n; ++i) dist[i] = d2(i, 0);
  for (int k = 1; k < keep; ++k) {
    int best = k;
    for (int i = k + 1; i < n; ++i)
      if (dist[i] > dist[best]) best = i;
    std::swap(c[k], c[best]);
    std::swap(dist[k], dist[best]);
    for (int i = k + 1; i < n; ++i) dist[i] = std::min(dist[i], d2(i, k));
  }
  return keep;
}

}  // namespace

void Simulation::Impl::nearCallback(void* data, dGeomID o1, dGeomID o2) {
  static_cast<Impl*>(data)->addContacts(o1, o2);
}

void Simulation::Impl::addContacts(dGeomID o1, dGeomID o2) {
  dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
  if (b1 == b2) return;
  if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
  const ContactSettings& cs = model->contact;
  dContact c[64];
  const bool mesh = dGeomGetClass(o1) == dConvexClass || dGeomGetClass(o2) == dConvexClass;
  const int n = mesh ? spreadContacts(c, dCollide(o1, o2, 64, &c[0].geom, sizeof(dContact)), cs.max_contacts)
                     : dCollide(o1, o2, cs.max_contacts, &c[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    c[i].surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    if (cs.slip1 > 0) c[i].surface.mode |= dContactSlip1;
    if (cs.slip2 > 0) c[i].surface.mode |= dContactSlip2;
    c[i].surface.mu = cs.mu;
    c[i].surface.soft_erp = cs.soft_erp;
    c[i].surface.soft_cfm = cs.soft_cfm;
    c[i].surface.slip1 = cs.slip1;
    c[i].surface.slip2 = cs.slip2;
    contact_points.emplace_back(c[i].geom.pos[0], c[i].geom.pos[1], c[i].geom.pos[2]);
    dJointID j = dJointCreateContact(world, contacts, &c[i]);
    dJointAttach(j, b1, b2);
    // Feet: remember which contact joints push on them, to sum their force after the step.
    for (int side = 1; side <= 2; ++side) {
      dBodyID b = side == 1 ? b1 : b2;
      if (!b) continue;
      const int bi = static_cast<int>(reinterpret_cast<intptr_t>(dBodyGetData(b)));
      const int foot = bodies[bi].foot;
      if (foot < 0) continue;
      ++foot_points[foot];
      if (foot_fb_used < kMaxFootFeedback) {
        dJointSetFeedback(j, &foot_fb[foot_fb_used]);
        foot_fb_owner[foot_fb_used] = foot;
        foot_fb_side[foot_fb_used] = side;
        ++foot_fb_used;
      }
    }
  }
  contacts_this_step += n;
}

Simulation::~Simulation() { impl_->releaseOde(); }

const std::vector<Eigen::Vector3d>& Simulation::contactPoints_m() const { return impl_->contact_points; }

void Simulation::setTargets(std::span<const double> q) {
  if (q.size() != target_.size())
    throw std::invalid_argument("setTargets: expected " + std::to_string(target_.size()) + " values, got " +
                                std::to_string(q.size()));
  std::copy(q.begin(), q.end(), target_.begin());
}

double Simulation::jointAngle_rad(int j) const {
  dJointID id = impl_->act[j].id;
  if (!id)
    return impl_->compiled->joints[static_cast<size_t>(j)]
        .welded_q;  // fixed: 0; welded by the compile step: the value it holds
  return model_->joints[j].type == JointType::Prismatic ? dJointGetSliderPosition(id) : dJointGetHingeAngle(id);
}

double Simulation::jointEncoder_rad(int j) const {
  const double q = jointAngle_rad(j);
  const double r = model_->joints[j].encoder_resolution_rad;
  return r > 0 ? std::round(q / r) * r : q;
}

double Simulation::jointRate_rad_s(int j) const {
  dJointID id = impl_->act[j].id;
  if (!id) return 0.0;
  return model_->joints[j].type == JointType::Prismatic ? dJointGetSliderPositionRate(id) : dJointGetHingeAngleRate(id);
}

namespace {

/// Torque about a hinge's axis from a joint feedback record: ODE reports the torque on body1
/// about its COM; a constraint force acts at the anchor, so the torque about the axis through
/// the anchor is t1 - (anchor - com1) x f1, projected on the axis.
double axialTorque(dJointID id, const dJointFeedback& fb) {
  dVector3 ax, an;
  dJointGetHingeAxis(id, ax);
  dJointGetHingeAnchor(id, an);
  const dReal* c = dBodyGetPosition(dJointGetBody(id, 0));
  const Eigen::Vector3d r(an[0] - c[0], an[1] - c[1], an[2] - c[2]);
  const Eigen::Vector3d f(fb.f1[0], fb.f1[1], fb.f1[2]), t(fb.t1[0], fb.t1[1], fb.t1[2]);
  return (t - r.cross(f)).dot(Eigen::Vector3d(ax[0], ax[1], ax[2]));
}

}  // namespace

double Simulation::jointTorque_Nm(int j) const {
  const JointActuator& A = impl_->act[j];
  if (!A.id) return 0.0;
  if (model_->joints[j].type == JointType::Prismatic) {
    dVector3 ax;
    dJointGetSliderAxis(A.id, ax);
    return A.fb.f1[0] * ax[0] + A.fb.f1[1] * ax[1] + A.fb.f1[2] * ax[2];
  }
  // Joint motor and limit rows, the explicit drivetrain torque, and the damper row (angular only:
  // its torque on body1 lies along the axis).
  double tau = axialTorque(A.id, A.fb) + A.applied_torque_Nm;
  if (A.damper) {
    dVector3 ax;
    dJointGetHingeAxis(A.id, ax);
    tau += A.damper_fb.t1[0] * ax[0] + A.damper_fb.t1[1] * ax[1] + A.damper_fb.t1[2] * ax[2];
  }
  return tau;
}

const motorgear::JointDrivetrain* Simulation::drivetrain(int joint) const { return impl_->act[joint].chain; }

std::vector<std::string> Simulation::softJointNames() const {
  std::vector<std::string> out;
  for (const SoftJoint& s : impl_->soft) out.push_back(s.name);
  return out;
}

std::pair<double, double> Simulation::softJointAngles_rad(int index) const {
  dJointID u = impl_->soft[index].id;
  return {dJointGetUniversalAngle1(u), dJointGetUniversalAngle2(u)};
}

int Simulation::bodyCount() const { return static_cast<int>(impl_->bodies.size()); }

const CompileReport& Simulation::compileReport() const { return *impl_->compiled; }
const CompiledModel& Simulation::compiled() const { return *impl_->compiled; }

const std::vector<InertiaFloorChange>& Simulation::inertiaFloorChanges() const {
  return impl_->compiled->inertia_floor_changes;
}

Eigen::Isometry3d Simulation::linkPose(int link) const {
  const int bi = impl_->compiled->link_body[link];
  if (bi < 0) return impl_->compiled->static_link_pose[link];
  dBodyID b = impl_->bodies[bi].id;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = toEigen(dBodyGetRotation(b));
  const dReal* p = dBodyGetPosition(b);
  T.translation() = Eigen::Vector3d(p[0], p[1], p[2]);
  return T * impl_->compiled->link_in_body[link];
}

ImuReading Simulation::imu(int index) const {
  const int link = model_->imus.empty() ? model_->root_link : model_->imus.at(index).link;
  const Eigen::Matrix3d R = model_->imus.empty()
                                ? linkPose(link).linear()
                                : Eigen::Matrix3d(linkPose(link).linear() * model_->imus.at(index).R_link_sensor);
  ImuReading r;
  // ZYX (yaw-pitch-roll) Euler angles of the sensor frame in the world.
  r.pitch_rad = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  r.roll_rad = std::atan2(R(2, 1), R(2, 2));
  r.tilt_rad = std::acos(std::clamp(R(2, 2), -1.0, 1.0));
  const int bi = impl_->compiled->link_body[link];
  if (bi >= 0) {
    const dReal* w = dBodyGetAngularVel(impl_->bodies[bi].id);
    r.gyro_rad_s = R.transpose() * Eigen::Vector3d(w[0], w[1], w[2]);
  }
  if (imu_bias_rad_ != 0) {  // RealityEffects: a biased attitude estimate (sim/reality.h)
    r.pitch_rad += imu_bias_rad_;
    r.roll_rad += imu_bias_rad_;
    r.tilt_rad = std::acos(std::clamp(std::cos(r.pitch_rad) * std::cos(r.roll_rad), -1.0, 1.0));
  }
  if (gyro_bias_rad_s_ != 0) r.gyro_rad_s.array() += gyro_bias_rad_s_;
  return r;
}

FootContactReading Simulation::footContact(int index) const {
  const Impl& I = *impl_;
  FootContactReading r;
  r.points = I.foot_points.at(index);
  r.contact = r.points > 0;
  for (int k = 0; k < I.foot_fb_used; ++k) {
    if (I.foot_fb_owner[k] != index) continue;
    const dJointFeedback& fb = I.foot_fb[k];
    r.force_N += I.foot_fb_side[k] == 1 ? fb.f1[2] : fb.f2[2];
  }
  return r;
}

Eigen::Vector3d Simulation::com_m() const {
  Eigen::Vector3d s = Eigen::Vector3d::Zero();
  double mass = 0;
  for (const Impl::Body& b : impl_->bodies) {
    const dReal* p = dBodyGetPosition(b.id);
    s += b.mass_kg * Eigen::Vector3d(p[0], p[1], p[2]);
    mass += b.mass_kg;
  }
  return mass > 0 ? Eigen::Vector3d(s / mass) : s;
}

motorgear::DriveInput Simulation::driveInput(int joint) const {
  const double q = jointAngle_rad(joint);
  const double r = model_->joints[static_cast<size_t>(joint)].encoder_resolution_rad;
  return {target_[static_cast<size_t>(joint)], q, r > 0 ? std::round(q / r) * r : q, jointRate_rad_s(joint)};
}

void Simulation::applyCoupledDrives() {
  std::vector<motorgear::DriveInput>& in = impl_->coupled_in;
  std::vector<double>& tau_Nm = impl_->coupled_tau_Nm;
  for (CoupledDriveSlot& c : impl_->coupled_drives) {
    in.clear();
    for (int j : c.joints) in.push_back(driveInput(j));
    tau_Nm.assign(c.joints.size(), 0.0);
    c.drive->step(dt_s_, in, tau_Nm);
    for (size_t k = 0; k < c.joints.size(); ++k) addJointTorque_Nm(c.joints[k], tau_Nm[k]);
  }
}

int Simulation::coupledDriveCount() const { return static_cast<int>(impl_->coupled_drives.size()); }
motorgear::CoupledDrive& Simulation::coupledDrive(int index) { return *impl_->coupled_drives.at(index).drive; }
const motorgear::CoupledDrive& Simulation::coupledDrive(int index) const {
  return *impl_->coupled_drives.at(index).drive;
}

void Simulation::actuate() {
  const RobotModel& m = *model_;
  Impl& I = *impl_;
  if (I.planar.linear) {
    const Impl::PlanarBase& P = I.planar;
    const dReal* p = dBodyGetPosition(P.body);
    const double drift = P.normal.dot(Eigen::Vector3d(p[0], p[1], p[2])) - P.offset_m;
    dJointSetLMotorParam(P.linear, dParamVel, -0.5 * drift / dt_s_);
    // The rotation that takes the body's normal back onto the plane's: e = n_body x n (small angles).
    const Eigen::Vector3d e = (toEigen(dBodyGetRotation(P.body)) * P.normal_in_body).cross(P.normal);
    dJointSetAMotorParam(P.angular, dParamVel, 0.5 * e.dot(P.u) / dt_s_);
    dJointSetAMotorParam(P.angular, dParamVel2, 0.5 * e.dot(P.v) / dt_s_);
  }
  for (size_t ji = 0; ji < m.joints.size(); ++ji) {
    JointActuator& A = I.act[ji];
    if (!A.id) continue;
    const Joint& j = m.joints[ji];
    const int jj = static_cast<int>(ji);
    const bool hinge = j.type != JointType::Prismatic;
    double vel = 0.0, fmax = 0.0;
    A.applied_torque_Nm = 0.0;
    if (j.mimic.master >= 0) {
      // Coupled joint (Nao HipYawPitch): one motor drives both, so the coupling is mechanical.
      // Model it as a stiff velocity constraint toward the master's angle: the velocity that
      // closes half the error in one step, on top of the master's own speed.
      const int mj = j.mimic.master;
      const double want = j.mimic.multiplier * jointAngle_rad(mj) + j.mimic.offset;
      vel = j.mimic.multiplier * jointRate_rad_s(mj) + 0.5 * (want - jointAngle_rad(jj)) / dt_s_;
      fmax = 10.0 * std::max(m.joints[mj].servo.fmax_Nm, 1.0);
    } else {
      // The joint's drive (motorgear/drive.h, chosen in sim/drive_registry.cpp) says what enters
      // the solver: an explicit torque, the motor row and the damper row.
      const motorgear::SolverTerms t = A.drive->step(dt_s_, driveInput(jj));
      if (t.has_explicit_torque) {
        A.applied_torque_Nm = t.explicit_torque_Nm;
        dJointAddHingeTorque(A.id, A.applied_torque_Nm);
      }
      if (A.damper) {
        dJointSetAMotorParam(A.damper, dParamVel, t.damper_velocity_rad_s);
        dJointSetAMotorParam(A.damper, dParamFMax, t.damper_fmax_Nm);
      }
      vel = t.motor_velocity_rad_s;
      fmax = t.motor_fmax_Nm;
    }
    if (A.external_torque_Nm != 0.0) {
      if (hinge)
        dJointAddHingeTorque(A.id, A.external_torque_Nm);
      else
        dJointAddSliderForce(A.id, A.external_torque_Nm);
      A.applied_torque_Nm += A.external_torque_Nm;
      A.external_torque_Nm = 0.0;
    }
    if (hinge) {
      dJointSetHingeParam(A.id, dParamVel, vel);
      dJointSetHingeParam(A.id, dParamFMax, fmax);
    } else {
      dJointSetSliderParam(A.id, dParamVel, vel);
      dJointSetSliderParam(A.id, dParamFMax, fmax);
    }
  }
  for (const QueuedForce& f : I.queued_forces)
    dBodyAddForceAtPos(f.body, f.force_N.x(), f.force_N.y(), f.force_N.z(), f.point_m.x(), f.point_m.y(),
                       f.point_m.z());
  I.queued_forces.clear();
}

void Simulation::addJointTorque_Nm(int joint, double tau_Nm) {
  JointActuator& A = impl_->act.at(joint);
  if (!A.id)
    throw std::invalid_argument("addJointTorque_Nm: joint '" + model_->joints[joint].name + "' is not movable");
  A.external_torque_Nm += tau_Nm;
}

void Simulation::addLinkForce_N(int link, const Eigen::Vector3d& force_world_N, const Eigen::Vector3d& point_world_m) {
  const int bi = impl_->compiled->link_body.at(link);
  if (bi < 0) return;  // a static link: the world absorbs it
  impl_->queued_forces.push_back({impl_->bodies[bi].id, force_world_N, point_world_m});
}

Eigen::Vector3d Simulation::linkPointVelocity_m_s(int link, const Eigen::Vector3d& p) const {
  const int bi = impl_->compiled->link_body.at(link);
  if (bi < 0) return Eigen::Vector3d::Zero();
  dVector3 v;
  dBodyGetPointVel(impl_->bodies[bi].id, p.x(), p.y(), p.z(), v);
  return {v[0], v[1], v[2]};
}

void Simulation::collide() {
  Impl& I = *impl_;
  I.contacts_this_step = 0;
  I.contact_points.clear();
  I.foot_fb_used = 0;
  std::fill(I.foot_points.begin(), I.foot_points.end(), 0);
  if (I.ground) dSpaceCollide2(reinterpret_cast<dGeomID>(I.robot_space), I.ground, &I, &Impl::nearCallback);
  if (I.scene_space)
    dSpaceCollide2(reinterpret_cast<dGeomID>(I.robot_space), reinterpret_cast<dGeomID>(I.scene_space), &I,
                   &Impl::nearCallback);
  if (model_->contact.self_collision) dSpaceCollide(I.robot_space, &I, &Impl::nearCallback);
  contact_count_ = I.contacts_this_step;
}

void Simulation::step() {
  Impl& I = *impl_;
  const auto t0 = profile_ ? Clock::now() : Clock::time_point{};
  applyCoupledDrives();
  applyCompliantGround();
  actuate();
  const auto t1 = profile_ ? Clock::now() : Clock::time_point{};
  collide();
  const auto t2 = profile_ ? Clock::now() : Clock::time_point{};
  // QuickStep shuffles constraint rows with ODE's one process-wide RNG: give this world its own
  // stream so that interleaved or repeated simulations in one process stay deterministic.
  dRandSetSeed(I.rand_seed);
  if (quickstep_)
    dWorldQuickStep(I.world, dt_s_);
  else
    dWorldStep(I.world, dt_s_);
  I.rand_seed = dRandGetSeed();
  const auto t3 = profile_ ? Clock::now() : Clock::time_point{};
  dJointGroupEmpty(I.contacts);
  time_s_ = (++steps_) * dt_s_;
  checkDivergence();
  const double tilt = imu().tilt_rad;
  max_tilt_rad_ = std::max(max_tilt_rad_, tilt);
  if (!fall_time_s_ && tilt > model_->fall_tilt_rad) fall_time_s_ = time_s_;
  if (profile_) {
    const auto t4 = Clock::now();
    times_.collide_s += std::chrono::duration<double>(t2 - t1).count();
    times_.step_s += std::chrono::duration<double>(t3 - t2).count();
    times_.total_s += std::chrono::duration<double>(t4 - t0).count();
    ++times_.steps;
  }
}

void Simulation::checkDivergence() const {
  const RobotModel& m = *model_;
  for (const Impl::Body& b : impl_->bodies) {
    const dReal* p = dBodyGetPosition(b.id);
    const dReal* v = dBodyGetLinearVel(b.id);
    const dReal* w = dBodyGetAngularVel(b.id);
    const double vn = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    const double wn = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    const bool finite = std::isfinite(p[0] + p[1] + p[2]) && std::isfinite(vn) && std::isfinite(wn);
    if (finite && vn <= m.max_linear_speed_m_s && wn <= m.max_angular_speed_rad_s) continue;
    std::ostringstream os;
    os << "simulation diverged at t=" << time_s_ << " s (step " << steps_ << ", dt=" << dt_s_ << " s): body '" << b.name
       << "' ";
    if (!finite)
      os << "has a non-finite state (NaN or inf)";
    else if (vn > m.max_linear_speed_m_s)
      os << "moves at " << vn << " m/s (bound " << m.max_linear_speed_m_s << " m/s)";
    else
      os << "spins at " << wn << " rad/s (bound " << m.max_angular_speed_rad_s << " rad/s)";
    throw DivergenceError(time_s_, b.name, os.str());
  }
}

}  // namespace gapsim
