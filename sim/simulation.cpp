// SPDX-License-Identifier: BSD-3-Clause
#include "sim/simulation.h"

#include <ode/ode.h>

#include <cmath>
#include <sstream>

#include "sim/kinematics.h"
#include "sim/ode_init.h"

namespace gapsim {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMaxFootFeedback = 256;  // contact joints with force feedback per step

Eigen::Matrix3d toEigen(const dReal* R) {  // ODE 3x4 row-major rotation
  Eigen::Matrix3d M;
  M << R[0], R[1], R[2], R[4], R[5], R[6], R[8], R[9], R[10];
  return M;
}

void toOde(const Eigen::Matrix3d& M, dMatrix3 R) {
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) R[4 * r + c] = M(r, c);
    R[4 * r + 3] = 0;
  }
}

}  // namespace

/// Everything ODE: created in the constructor, destroyed in the destructor, touched only here.
struct Simulation::Impl {
  struct Body {
    dBodyID id = nullptr;
    std::string name;  ///< the first link of the group
    double mass_kg = 0;
    int foot = -1;     ///< index into model.foot_contacts, or -1
  };
  dWorldID world = nullptr;
  dSpaceID robot_space = nullptr;
  dGeomID ground = nullptr;
  dJointGroupID contacts = nullptr;
  dThreadingImplementationID threading = nullptr;
  std::vector<Body> bodies;
  std::vector<int> link_body;                        ///< -1: static (fixed to world)
  std::vector<Eigen::Isometry3d> link_in_body;       ///< link frame in its body frame
  std::vector<Eigen::Isometry3d> static_link_pose;   ///< world pose for static links
  std::vector<dJointID> joint_id;                    ///< nullptr for fixed joints
  std::vector<dJointFeedback> joint_fb;
  std::vector<dJointFeedback> foot_fb;
  std::vector<int> foot_fb_owner;  ///< foot index per used feedback slot, sign-encoded body side
  std::vector<int> foot_fb_side;   ///< 1 if the foot body is body1 of the contact joint, 2 if body2
  int foot_fb_used = 0;
  std::vector<int> foot_points;
  unsigned long rand_seed = 0;
  const RobotModel* model = nullptr;
  int contacts_this_step = 0;

  static void nearCallback(void* data, dGeomID o1, dGeomID o2);
  void addContacts(dGeomID o1, dGeomID o2);
};

void Simulation::Impl::nearCallback(void* data, dGeomID o1, dGeomID o2) {
  static_cast<Impl*>(data)->addContacts(o1, o2);
}

void Simulation::Impl::addContacts(dGeomID o1, dGeomID o2) {
  dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
  if (b1 == b2) return;
  if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
  const ContactSettings& cs = model->contact;
  dContact c[64];
  const int n = dCollide(o1, o2, cs.max_contacts, &c[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    c[i].surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    if (cs.slip1 > 0) c[i].surface.mode |= dContactSlip1;
    if (cs.slip2 > 0) c[i].surface.mode |= dContactSlip2;
    c[i].surface.mu = cs.mu;
    c[i].surface.soft_erp = cs.soft_erp;
    c[i].surface.soft_cfm = cs.soft_cfm;
    c[i].surface.slip1 = cs.slip1;
    c[i].surface.slip2 = cs.slip2;
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

Simulation::Simulation(std::shared_ptr<const RobotModel> model, const SimOptions& options)
    : model_(std::move(model)), impl_(std::make_unique<Impl>()) {
  detail::ensureOdeInitialized();
  const RobotModel& m = *model_;
  Impl& I = *impl_;
  I.model = &m;
  dt_s_ = options.dt_s.value_or(m.solver.dt_s);
  if (!(dt_s_ > 0) || !std::isfinite(dt_s_)) throw std::invalid_argument("dt must be > 0");
  profile_ = options.profile;
  I.rand_seed = static_cast<unsigned long>(options.seed);

  I.world = dWorldCreate();
  // One threading object per world: the default one that dInitODE2 creates is shared by all
  // worlds and is not thread-safe (DESIGN.md).
  I.threading = dThreadingAllocateSelfThreadedImplementation();
  dWorldSetStepThreadingImplementation(I.world, dThreadingImplementationGetFunctions(I.threading), I.threading);
  const Eigen::Vector3d& g = m.solver.gravity_m_s2;
  dWorldSetGravity(I.world, g.x(), g.y(), g.z());
  dWorldSetERP(I.world, m.solver.erp);
  dWorldSetCFM(I.world, m.solver.cfm);
  dWorldSetQuickStepNumIterations(I.world, options.iterations.value_or(m.solver.iterations));
  dWorldSetContactSurfaceLayer(I.world, m.contact.surface_layer_m);
  dWorldSetAutoDisableFlag(I.world, 0);
  I.robot_space = dSimpleSpaceCreate(nullptr);
  I.contacts = dJointGroupCreate(0);
  if (m.ground_plane) I.ground = dCreatePlane(nullptr, 0, 0, 1, 0);
  I.foot_fb.resize(kMaxFootFeedback);
  I.foot_fb_owner.resize(kMaxFootFeedback);
  I.foot_fb_side.resize(kMaxFootFeedback);
  I.foot_points.assign(m.foot_contacts.size(), 0);
  quickstep_ = options.quickstep.value_or(m.solver.quickstep);

  // --- bodies: links joined by fixed joints form one rigid body ---
  const size_t nl = m.links.size();
  std::vector<int> group_of(nl, -1);  // representative link of each link's rigid group
  std::vector<bool> is_static(nl, false);
  group_of[m.root_link] = m.root_link;
  is_static[m.root_link] = m.fixed_base;
  for (size_t sweep = 0; sweep <= nl; ++sweep)
    for (const Joint& j : m.joints) {
      if (group_of[j.parent] < 0 || group_of[j.child] >= 0) continue;
      group_of[j.child] = j.movable() ? j.child : group_of[j.parent];
      is_static[j.child] = !j.movable() && is_static[j.parent];
    }

  // Build at the zero configuration: ODE measures hinge angles from the pose the joint is
  // created in, so joints are made with q = 0 and the bodies are moved to the initial pose after.
  const Eigen::Isometry3d root = initialRootPose(m);
  const std::vector<double> zero_q(m.joints.size(), 0.0);
  const std::vector<Eigen::Isometry3d> pose0 = linkPoses(m, zero_q, root);
  const std::vector<Eigen::Isometry3d> pose_init = linkPoses(m, m.initial_q, root);

  I.link_body.assign(nl, -1);
  I.link_in_body.assign(nl, Eigen::Isometry3d::Identity());
  I.static_link_pose.assign(nl, Eigen::Isometry3d::Identity());
  std::vector<Eigen::Isometry3d> body_pose_init;
  for (size_t rep = 0; rep < nl; ++rep) {
    if (group_of[rep] != static_cast<int>(rep)) continue;
    if (is_static[rep]) {
      for (size_t l = 0; l < nl; ++l)
        if (group_of[l] == static_cast<int>(rep)) I.static_link_pose[l] = pose0[l];
      continue;
    }
    // Composite mass in the representative link's frame.
    double mass = 0;
    Eigen::Vector3d mc = Eigen::Vector3d::Zero();
    std::vector<size_t> members;
    for (size_t l = 0; l < nl; ++l)
      if (group_of[l] == static_cast<int>(rep)) members.push_back(l);
    const Eigen::Isometry3d rep_inv = pose0[rep].inverse();
    for (size_t l : members) {
      const Link& L = m.links[l];
      if (!L.has_inertial) continue;
      const Eigen::Isometry3d com_frame = rep_inv * pose0[l] * L.inertial.origin;
      mass += L.inertial.mass_kg;
      mc += L.inertial.mass_kg * com_frame.translation();
    }
    const Eigen::Vector3d com = mc / mass;
    Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about the composite COM, rep axes
    for (size_t l : members) {
      const Link& L = m.links[l];
      if (!L.has_inertial) continue;
      const Eigen::Isometry3d com_frame = rep_inv * pose0[l] * L.inertial.origin;
      const Eigen::Matrix3d R = com_frame.linear();
      const Eigen::Vector3d d = com_frame.translation() - com;
      // Parallel-axis theorem: I_c + m (|d|^2 E - d d^T).
      inertia += R * L.inertial.inertia_kgm2 * R.transpose() +
                 L.inertial.mass_kg * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
    }
    Impl::Body b;
    b.id = dBodyCreate(I.world);
    b.name = m.links[rep].name;
    b.mass_kg = mass;
    dMass dm;
    dMassSetParameters(&dm, mass, 0, 0, 0, inertia(0, 0), inertia(1, 1), inertia(2, 2), inertia(0, 1),
                       inertia(0, 2), inertia(1, 2));
    dBodySetMass(b.id, &dm);
    // Body frame: the representative link's axes, origin at the composite COM.
    Eigen::Isometry3d body0 = pose0[rep];
    body0.translation() = pose0[rep] * com;
    dBodySetPosition(b.id, body0.translation().x(), body0.translation().y(), body0.translation().z());
    dMatrix3 R;
    toOde(body0.linear(), R);
    dBodySetRotation(b.id, R);
    const int bi = static_cast<int>(I.bodies.size());
    dBodySetData(b.id, reinterpret_cast<void*>(static_cast<intptr_t>(bi)));
    for (size_t l : members) {
      I.link_body[l] = bi;
      I.link_in_body[l] = body0.inverse() * pose0[l];
    }
    Eigen::Isometry3d bi_pose = pose_init[rep];
    bi_pose.translation() = pose_init[rep] * com;
    body_pose_init.push_back(bi_pose);
    // Collision geometry, attached with its offset from the body frame.
    for (size_t l : members) {
      for (const Geometry& gm : m.links[l].collisions) {
        dGeomID gid = nullptr;
        switch (gm.type) {
          case Geometry::Type::Box: gid = dCreateBox(I.robot_space, gm.size_m.x(), gm.size_m.y(), gm.size_m.z()); break;
          case Geometry::Type::Sphere: gid = dCreateSphere(I.robot_space, gm.size_m.x()); break;
          case Geometry::Type::Capsule: gid = dCreateCapsule(I.robot_space, gm.size_m.x(), gm.size_m.y()); break;
          case Geometry::Type::Cylinder: gid = dCreateCylinder(I.robot_space, gm.size_m.x(), gm.size_m.y()); break;
          case Geometry::Type::Mesh: break;  // the parser replaced meshes
        }
        if (!gid) continue;
        dGeomSetBody(gid, b.id);
        const Eigen::Isometry3d off = I.link_in_body[l] * gm.origin;
        dGeomSetOffsetPosition(gid, off.translation().x(), off.translation().y(), off.translation().z());
        dMatrix3 Ro;
        toOde(off.linear(), Ro);
        dGeomSetOffsetRotation(gid, Ro);
      }
    }
    I.bodies.push_back(b);
  }
  for (size_t f = 0; f < m.foot_contacts.size(); ++f) {
    const int bi = I.link_body[m.foot_contacts[f].link];
    if (bi >= 0) I.bodies[bi].foot = static_cast<int>(f);
  }

  // --- joints, created at the zero configuration ---
  I.joint_id.assign(m.joints.size(), nullptr);
  I.joint_fb.resize(m.joints.size());
  for (size_t ji = 0; ji < m.joints.size(); ++ji) {
    const Joint& j = m.joints[ji];
    if (!j.movable()) continue;
    const int cb = I.link_body[j.child], pb = I.link_body[j.parent];
    dBodyID child = I.bodies[cb].id;
    dBodyID parent = pb >= 0 ? I.bodies[pb].id : nullptr;
    const Eigen::Isometry3d jf = pose0[j.parent] * j.origin;  // joint frame, world, q = 0
    const Eigen::Vector3d axis = jf.linear() * j.axis;
    dJointID id;
    // Attached (child, parent): ODE's angle is body1 relative to body2 about the axis, which is
    // URDF's convention for the child relative to the parent.
    if (j.type == JointType::Prismatic) {
      id = dJointCreateSlider(I.world, nullptr);
      dJointAttach(id, child, parent);
      dJointSetSliderAxis(id, axis.x(), axis.y(), axis.z());
    } else {
      id = dJointCreateHinge(I.world, nullptr);
      dJointAttach(id, child, parent);
      dJointSetHingeAnchor(id, jf.translation().x(), jf.translation().y(), jf.translation().z());
      dJointSetHingeAxis(id, axis.x(), axis.y(), axis.z());
    }
    const bool hinge = j.type != JointType::Prismatic;
    auto setParam = [&](int p, double v) {
      if (hinge) dJointSetHingeParam(id, p, v);
      else dJointSetSliderParam(id, p, v);
    };
    // ODE hinge stops must lie within (-pi, pi); wider limits are left to the servo.
    if (j.has_limits && (!hinge || (j.lower > -M_PI && j.upper < M_PI))) {
      setParam(dParamLoStop, j.lower);
      setParam(dParamHiStop, j.upper);
    }
    setParam(dParamFMax, 0.0);
    dJointSetFeedback(id, &I.joint_fb[ji]);
    I.joint_id[ji] = id;
  }

  // --- move the bodies to the initial pose ---
  for (size_t bi = 0; bi < I.bodies.size(); ++bi) {
    const Eigen::Isometry3d& T = body_pose_init[bi];
    dBodySetPosition(I.bodies[bi].id, T.translation().x(), T.translation().y(), T.translation().z());
    dMatrix3 R;
    toOde(T.linear(), R);
    dBodySetRotation(I.bodies[bi].id, R);
  }
  target_ = m.initial_q;
}

Simulation::~Simulation() {
  Impl& I = *impl_;
  if (I.contacts) dJointGroupDestroy(I.contacts);
  if (I.ground) dGeomDestroy(I.ground);
  if (I.robot_space) {
    dSpaceSetCleanup(I.robot_space, 1);
    dSpaceDestroy(I.robot_space);
  }
  if (I.world) {
    dWorldSetStepThreadingImplementation(I.world, nullptr, nullptr);
    dWorldDestroy(I.world);
  }
  if (I.threading) dThreadingFreeImplementation(I.threading);
}

void Simulation::setTargets(std::span<const double> q) {
  if (q.size() != target_.size())
    throw std::invalid_argument("setTargets: expected " + std::to_string(target_.size()) + " values, got " +
                                std::to_string(q.size()));
  std::copy(q.begin(), q.end(), target_.begin());
}

double Simulation::jointAngle_rad(int j) const {
  dJointID id = impl_->joint_id[j];
  if (!id) return 0.0;
  return model_->joints[j].type == JointType::Prismatic ? dJointGetSliderPosition(id) : dJointGetHingeAngle(id);
}

double Simulation::jointEncoder_rad(int j) const {
  const double q = jointAngle_rad(j);
  const double r = model_->joints[j].encoder_resolution_rad;
  return r > 0 ? std::round(q / r) * r : q;
}

double Simulation::jointRate_rad_s(int j) const {
  dJointID id = impl_->joint_id[j];
  if (!id) return 0.0;
  return model_->joints[j].type == JointType::Prismatic ? dJointGetSliderPositionRate(id)
                                                        : dJointGetHingeAngleRate(id);
}

double Simulation::jointTorque_Nm(int j) const {
  dJointID id = impl_->joint_id[j];
  if (!id) return 0.0;
  const dJointFeedback& fb = impl_->joint_fb[j];
  dBodyID b1 = dJointGetBody(id, 0);
  if (model_->joints[j].type == JointType::Prismatic) {
    dVector3 ax;
    dJointGetSliderAxis(id, ax);
    return fb.f1[0] * ax[0] + fb.f1[1] * ax[1] + fb.f1[2] * ax[2];
  }
  // ODE reports the torque on body1 about its COM; the constraint force acts at the anchor, so
  // the torque about the axis through the anchor is t1 - (anchor - com1) x f1, projected.
  dVector3 ax, an;
  dJointGetHingeAxis(id, ax);
  dJointGetHingeAnchor(id, an);
  const dReal* c = dBodyGetPosition(b1);
  const Eigen::Vector3d r(an[0] - c[0], an[1] - c[1], an[2] - c[2]);
  const Eigen::Vector3d f(fb.f1[0], fb.f1[1], fb.f1[2]), t(fb.t1[0], fb.t1[1], fb.t1[2]);
  return (t - r.cross(f)).dot(Eigen::Vector3d(ax[0], ax[1], ax[2]));
}

Eigen::Isometry3d Simulation::linkPose(int link) const {
  const int bi = impl_->link_body[link];
  if (bi < 0) return impl_->static_link_pose[link];
  dBodyID b = impl_->bodies[bi].id;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = toEigen(dBodyGetRotation(b));
  const dReal* p = dBodyGetPosition(b);
  T.translation() = Eigen::Vector3d(p[0], p[1], p[2]);
  return T * impl_->link_in_body[link];
}

ImuReading Simulation::imu(int index) const {
  const int link = model_->imus.empty() ? model_->root_link : model_->imus.at(index).link;
  const Eigen::Isometry3d T = linkPose(link);
  const Eigen::Matrix3d& R = T.linear();
  ImuReading r;
  // ZYX (yaw-pitch-roll) Euler angles of the link frame in the world.
  r.pitch_rad = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  r.roll_rad = std::atan2(R(2, 1), R(2, 2));
  r.tilt_rad = std::acos(std::clamp(R(2, 2), -1.0, 1.0));
  const int bi = impl_->link_body[link];
  if (bi >= 0) {
    const dReal* w = dBodyGetAngularVel(impl_->bodies[bi].id);
    r.gyro_rad_s = R.transpose() * Eigen::Vector3d(w[0], w[1], w[2]);
  }
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

void Simulation::actuate() {
  const RobotModel& m = *model_;
  Impl& I = *impl_;
  for (size_t ji = 0; ji < m.joints.size(); ++ji) {
    dJointID id = I.joint_id[ji];
    if (!id) continue;
    const Joint& j = m.joints[ji];
    const bool hinge = j.type != JointType::Prismatic;
    double vel, fmax;
    if (j.mimic.master >= 0) {
      // Coupled joint (Nao HipYawPitch): one motor drives both, so the coupling is mechanical.
      // Model it as a stiff velocity constraint toward the master's angle: the velocity that
      // closes half the error in one step, on top of the master's own speed.
      const int mj = j.mimic.master;
      const double want = j.mimic.multiplier * jointAngle_rad(mj) + j.mimic.offset;
      vel = j.mimic.multiplier * jointRate_rad_s(mj) + 0.5 * (want - jointAngle_rad(static_cast<int>(ji))) / dt_s_;
      fmax = 10.0 * m.joints[mj].servo.fmax_Nm;
    } else {
      // Ideal position servo ("plain ODE"): joint motor velocity toward the target.
      const double e = target_[ji] - jointAngle_rad(static_cast<int>(ji));
      vel = std::clamp(j.servo.gain_1_s * e, -j.servo.max_velocity_rad_s, j.servo.max_velocity_rad_s);
      fmax = j.servo.fmax_Nm;
    }
    if (hinge) {
      dJointSetHingeParam(id, dParamVel, vel);
      dJointSetHingeParam(id, dParamFMax, fmax);
      if (j.damping_Nms_rad > 0) dJointAddHingeTorque(id, -j.damping_Nms_rad * dJointGetHingeAngleRate(id));
    } else {
      dJointSetSliderParam(id, dParamVel, vel);
      dJointSetSliderParam(id, dParamFMax, fmax);
      if (j.damping_Nms_rad > 0) dJointAddSliderForce(id, -j.damping_Nms_rad * dJointGetSliderPositionRate(id));
    }
  }
}

void Simulation::collide() {
  Impl& I = *impl_;
  I.contacts_this_step = 0;
  I.foot_fb_used = 0;
  std::fill(I.foot_points.begin(), I.foot_points.end(), 0);
  if (I.ground) dSpaceCollide2(reinterpret_cast<dGeomID>(I.robot_space), I.ground, &I, &Impl::nearCallback);
  if (model_->contact.self_collision) dSpaceCollide(I.robot_space, &I, &Impl::nearCallback);
  contact_count_ = I.contacts_this_step;
}

void Simulation::step() {
  Impl& I = *impl_;
  const auto t0 = profile_ ? Clock::now() : Clock::time_point{};
  actuate();
  const auto t1 = profile_ ? Clock::now() : Clock::time_point{};
  collide();
  const auto t2 = profile_ ? Clock::now() : Clock::time_point{};
  // QuickStep shuffles constraint rows with ODE's one process-wide RNG: give this world its own
  // stream so that interleaved or repeated simulations in one process stay deterministic.
  dRandSetSeed(I.rand_seed);
  if (quickstep_) dWorldQuickStep(I.world, dt_s_);
  else dWorldStep(I.world, dt_s_);
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
    os << "simulation diverged at t=" << time_s_ << " s (step " << steps_ << ", dt=" << dt_s_ << " s): body '"
       << b.name << "' ";
    if (!finite) os << "has a non-finite state (NaN or inf)";
    else if (vn > m.max_linear_speed_m_s) os << "moves at " << vn << " m/s (bound " << m.max_linear_speed_m_s << " m/s)";
    else os << "spins at " << wn << " rad/s (bound " << m.max_angular_speed_rad_s << " rad/s)";
    throw DivergenceError(time_s_, b.name, os.str());
  }
}

}  // namespace gapsim
