// SPDX-License-Identifier: BSD-3-Clause
// Simulation::state / setState (sim/sim_state.h): what is and is not captured is listed there.
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sim/sim_state.h"
#include "sim/simulation.h"
#include "sim/simulation_impl.h"

namespace gapsim {
namespace {

static_assert(std::is_same_v<dReal, double>,
              "SimState keeps ODE's numbers as double: ODE must be built in double precision");
static_assert(sizeof(dJointFeedback) == sizeof(SimState::Feedback), "dJointFeedback is four dVector3");

SimState::Feedback toState(const dJointFeedback& fb) {
  SimState::Feedback out;
  std::memcpy(out.data(), &fb, sizeof fb);
  return out;
}

void fromState(const SimState::Feedback& in, dJointFeedback& fb) { std::memcpy(&fb, in.data(), sizeof fb); }

template <size_t N>
void copyOut(const dReal* from, std::array<double, N>& to) {
  std::memcpy(to.data(), from, N * sizeof(double));
}

void mustMatch(const char* what, size_t have, size_t state) {
  if (have != state)
    throw std::invalid_argument(std::string("Simulation::setState: the state has ") + std::to_string(state) + " " +
                                what + ", this simulation " + std::to_string(have) +
                                " (a state of another compiled model)");
}

}  // namespace

SimState::Body Simulation::Impl::bodyState(dBodyID b) {
  SimState::Body s;
  copyOut(dBodyGetPosition(b), s.position_m);
  copyOut(dBodyGetQuaternion(b), s.quaternion);
  copyOut(dBodyGetRotation(b), s.rotation);
  copyOut(dBodyGetLinearVel(b), s.velocity_m_s);
  copyOut(dBodyGetAngularVel(b), s.angular_velocity_rad_s);
  return s;
}

void Simulation::Impl::setBodyState(dBodyID b, const SimState::Body& s) {
  // dBodySetQuaternion normalises the quaternion again, which can change its last bit. ODE's
  // getters return its own storage, so the quaternion and the matrix derived from it are written
  // there bit for bit; dBodySetPosition then tells the body's geometries that it moved.
  dBodySetQuaternion(b, s.quaternion.data());
  std::memcpy(const_cast<dReal*>(dBodyGetQuaternion(b)), s.quaternion.data(), sizeof s.quaternion);
  std::memcpy(const_cast<dReal*>(dBodyGetRotation(b)), s.rotation.data(), sizeof s.rotation);
  dBodySetPosition(b, s.position_m[0], s.position_m[1], s.position_m[2]);
  dBodySetLinearVel(b, s.velocity_m_s[0], s.velocity_m_s[1], s.velocity_m_s[2]);
  dBodySetAngularVel(b, s.angular_velocity_rad_s[0], s.angular_velocity_rad_s[1], s.angular_velocity_rad_s[2]);
}

std::vector<int> Simulation::Impl::shapeOrder() const {
  std::vector<int> order;
  const int n = dSpaceGetNumGeoms(robot_space);
  for (int i = 0; i < n; ++i)
    order.push_back(static_cast<int>(reinterpret_cast<intptr_t>(dGeomGetData(dSpaceGetGeom(robot_space, i)))));
  return order;
}

void Simulation::Impl::setShapeOrder(const std::vector<int>& order) {
  // dSpaceAdd puts a geometry at the front of the list: add the last one first.
  for (dGeomID g : shapes) dSpaceRemove(robot_space, g);
  for (auto it = order.rbegin(); it != order.rend(); ++it) dSpaceAdd(robot_space, shapes.at(static_cast<size_t>(*it)));
}

SimState Simulation::state() const {
  const Impl& I = *impl_;
  SimState s;
  s.time_s = time_s_;
  s.steps = steps_;
  s.rand_seed = I.rand_seed;
  s.targets_rad = target_;
  s.fall_time_s = fall_time_s_;
  s.max_tilt_rad = max_tilt_rad_;
  for (const Impl::Body& b : I.bodies) s.bodies.push_back(Impl::bodyState(b.id));
  s.shape_order = I.shapeOrder();
  for (const JointActuator& A : I.act) {
    SimState::Joint j;
    if (A.drive) j.drive = A.drive->clone();
    j.external_torque_Nm = A.external_torque_Nm;
    j.applied_torque_Nm = A.applied_torque_Nm;
    j.feedback = toState(A.fb);
    j.damper_feedback = toState(A.damper_fb);
    s.joints.push_back(std::move(j));
  }
  for (const QueuedForce& f : I.queued_forces)
    s.queued_forces.push_back(
        {static_cast<int>(reinterpret_cast<intptr_t>(dBodyGetData(f.body))), f.force_N, f.point_m});
  for (const CoupledDriveSlot& c : I.coupled_drives) s.coupled_drives.push_back(c.drive->clone());
  s.toe_states = I.toe_state;
  s.toe_outputs = I.toe_out;
  s.toe_has_feedback = I.toe_link_feedback;
  for (const dJointFeedback& fb : I.toe_fb) s.toe_feedback.push_back(toState(fb));
  s.contact_count = contact_count_;
  s.contact_points_m = I.contact_points;
  s.foot_points = I.foot_points;
  for (int k = 0; k < I.foot_fb_used; ++k)
    s.foot_records.push_back({I.foot_fb_owner[k], I.foot_fb_side[k], toState(I.foot_fb[k])});
  return s;
}

void Simulation::setState(const SimState& s) {
  Impl& I = *impl_;
  mustMatch("bodies", I.bodies.size(), s.bodies.size());
  mustMatch("joints", I.act.size(), s.joints.size());
  mustMatch("coupled drives", I.coupled_drives.size(), s.coupled_drives.size());
  mustMatch("toes", I.toe_state.size(), s.toe_states.size());
  mustMatch("collision shapes", I.shapes.size(), s.shape_order.size());
  mustMatch("targets", target_.size(), s.targets_rad.size());
  for (size_t j = 0; j < I.act.size(); ++j)
    if (static_cast<bool>(I.act[j].drive) != static_cast<bool>(s.joints[j].drive))
      throw std::invalid_argument("Simulation::setState: joint '" + model_->joints[j].name +
                                  "' has a drive in one and not the other");
  time_s_ = s.time_s;
  steps_ = s.steps;
  I.rand_seed = static_cast<unsigned long>(s.rand_seed);
  target_ = s.targets_rad;
  fall_time_s_ = s.fall_time_s;
  max_tilt_rad_ = s.max_tilt_rad;
  for (size_t b = 0; b < I.bodies.size(); ++b) Impl::setBodyState(I.bodies[b].id, s.bodies[b]);
  I.setShapeOrder(s.shape_order);
  for (size_t j = 0; j < I.act.size(); ++j) {
    JointActuator& A = I.act[j];
    const SimState::Joint& sj = s.joints[j];
    if (A.drive) A.drive->restore(*sj.drive);
    A.external_torque_Nm = sj.external_torque_Nm;
    A.applied_torque_Nm = sj.applied_torque_Nm;
    fromState(sj.feedback, A.fb);
    fromState(sj.damper_feedback, A.damper_fb);
  }
  I.queued_forces.clear();
  for (const SimState::QueuedForce& f : s.queued_forces)
    I.queued_forces.push_back({I.bodies.at(static_cast<size_t>(f.body)).id, f.force_N, f.point_m});
  for (size_t c = 0; c < I.coupled_drives.size(); ++c) I.coupled_drives[c].drive->restore(*s.coupled_drives[c]);
  I.toe_state = s.toe_states;
  I.toe_out = s.toe_outputs;
  I.toe_link_feedback = s.toe_has_feedback;
  for (size_t t = 0; t < I.toe_fb.size() && t < s.toe_feedback.size(); ++t) fromState(s.toe_feedback[t], I.toe_fb[t]);
  contact_count_ = s.contact_count;
  I.contact_points = s.contact_points_m;
  I.foot_points = s.foot_points;
  I.foot_fb_used = std::min(static_cast<int>(s.foot_records.size()), kMaxFootFeedback);
  for (int k = 0; k < I.foot_fb_used; ++k) {
    I.foot_fb_owner[k] = s.foot_records[k].foot;
    I.foot_fb_side[k] = s.foot_records[k].side;
    fromState(s.foot_records[k].feedback, I.foot_fb[k]);
  }
}

namespace {

/// FNV-1a over bytes.
struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
  }
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes(&v, sizeof v);
  }
};

}  // namespace

std::uint64_t SimState::hash() const {
  Fnv f;
  f.value(time_s);
  f.value(steps);
  f.value(rand_seed);
  for (double q : targets_rad) f.value(q);
  f.value(fall_time_s.value_or(-1.0));
  f.value(max_tilt_rad);
  for (const Body& b : bodies) {
    f.value(b.position_m);
    f.value(b.quaternion);
    f.value(b.velocity_m_s);
    f.value(b.angular_velocity_rad_s);
  }
  for (int i : shape_order) f.value(i);
  return f.h;
}

}  // namespace gapsim
