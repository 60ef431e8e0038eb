// SPDX-License-Identifier: BSD-3-Clause
// The compliant ground of a step (before actuate()): each toe's penetration becomes one contact
// row whose softness is the ground's spring-damper (motorgear::CompliantGround).
#include <cmath>
#include <stdexcept>

#include "sim/simulation.h"
#include "sim/simulation_impl.h"

namespace gapsim {

void Simulation::initCompliantGround() {
  Impl& I = *impl_;
  for (const CompliantGroundSpec& g : model_->compliant_grounds) {
    I.toe_state.resize(I.toe_state.size() + g.toes.size());
    I.toe_out.resize(I.toe_out.size() + g.toes.size());
    I.toe_fb.resize(I.toe_out.size());
    I.toe_link_feedback.resize(I.toe_out.size(), false);
  }
}

void Simulation::applyCompliantGround() {
  const RobotModel& m = *model_;
  Impl& I = *impl_;
  // Compliant ground: one ODE contact row per toe whose soft ERP/CFM make the normal force the
  // Marhefka-Orin spring-damper linearised at the current penetration, taken implicitly (an
  // explicit force makes the 0.35 kg effective toe mass chatter at impact); the LuGre tangential
  // damping is the friction rows' slip (implicit), its bristle spring their target speed.
  int k = 0;
  for (const CompliantGroundSpec& g : m.compliant_grounds) {
    for (const ToePoint& t : g.toes) {
      const Eigen::Vector3d p = linkPose(t.link) * t.point_in_link_m;
      const Eigen::Vector3d v = linkPointVelocity_m_s(t.link, p);
      motorgear::CompliantGround::updateBristle(g.params, I.toe_state[k], dt_s_, I.toe_out[k].contact, v.head<2>());
      const double z = -p.z(), zd = -v.z();
      I.toe_out[k] = {};
      const int bi = I.compiled->link_body[t.link];
      if (z > 0 && bi >= 0) {
        const auto sd = motorgear::CompliantGround::normalSpringDamper(g.params, z, zd);
        const double fn_est = motorgear::CompliantGround::normalForce_N(g.params, z, zd);
        const auto tan = motorgear::CompliantGround::tangential(g.params, I.toe_state[k], fn_est, v.head<2>());
        dContact c{};
        c.geom.pos[0] = p.x();
        c.geom.pos[1] = p.y();
        c.geom.pos[2] = p.z();
        c.geom.normal[2] = 1.0;
        c.geom.depth = z + dWorldGetContactSurfaceLayer(I.world);  // ODE only corrects depth beyond the layer
        c.fdir1[0] = 1.0;
        c.surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM | dContactFDir1;
        const double hk = dt_s_ * sd.kp_N_m + sd.kd_Ns_m;
        c.surface.soft_erp = dt_s_ * sd.kp_N_m / hk;
        c.surface.soft_cfm = 1.0 / hk;
        c.surface.mu = g.params.alpha_h0;
        if (tan.c_Ns_m > 0) {
          c.surface.mode |= dContactSlip1 | dContactSlip2 | dContactMotion1 | dContactMotion2;
          c.surface.slip1 = c.surface.slip2 = 1.0 / tan.c_Ns_m;
          // Motion rows drive the relative velocity of body1 w.r.t. body2 along fdir1/fdir2 toward
          // the target: the toe's slip speed toward v_star.
          c.surface.motion1 = tan.v_star_m_s(0);
          c.surface.motion2 = tan.v_star_m_s(1);
        } else {
          c.surface.mu = 0.0;
        }
        dJointID j = dJointCreateContact(I.world, I.contacts, &c);
        dJointAttach(j, I.bodies[bi].id, nullptr);
        I.toe_fb[k] = {};
        dJointSetFeedback(j, &I.toe_fb[k]);
        I.toe_out[k].contact = true;
        I.toe_out[k].penetration_m = z;
        I.toe_link_feedback[k] = true;
      } else {
        I.toe_link_feedback[k] = false;
      }
      ++k;
    }
  }
}

int Simulation::toeCount() const { return static_cast<int>(impl_->toe_out.size()); }

const motorgear::CompliantGround::Output& Simulation::toeContact(int toe) const {
  Impl& I = *impl_;
  motorgear::CompliantGround::Output& o = I.toe_out.at(toe);
  if (I.toe_link_feedback[toe]) {  // the contact row's force in the last step
    const dJointFeedback& fb = I.toe_fb[toe];
    o.force_N = Eigen::Vector3d(fb.f1[0], fb.f1[1], fb.f1[2]);
    o.normal_N = fb.f1[2];
  }
  return o;
}

double Simulation::toeHeight_m(int toe) const {
  int k = 0;
  for (const CompliantGroundSpec& g : model_->compliant_grounds)
    for (const ToePoint& t : g.toes)
      if (k++ == toe) return (linkPose(t.link) * t.point_in_link_m).z();
  throw std::out_of_range("toeHeight_m: no toe " + std::to_string(toe));
}

}  // namespace gapsim
