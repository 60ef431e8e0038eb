// SPDX-License-Identifier: BSD-3-Clause
#include "sim/drive_registry.h"

#include "motorgear/dc_motor.h"
#include "motorgear/drives.h"
#include "motorgear/mabel_leg_drive.h"
#include "motorgear/servo_drive.h"

namespace gapsim {

namespace {

std::unique_ptr<motorgear::Drive> makeModelDrive(const Joint& j, bool hinge, double dt_s, double q0_rad,
                                                 const CompiledChain& chain) {
  using namespace motorgear;
  const Drivetrain& d = j.drive;
  switch (!hinge && driveKindInfo(d.kind).hinge_only ? DriveKind::Ideal : d.kind) {
    case DriveKind::MoToFlex:
      return std::make_unique<MotoflexDrive>(chain.params, d.dry_friction_Nm, chain.damping_Nm_s_rad, q0_rad);
    case DriveKind::Dynamixel:
      return std::make_unique<DynamixelDrive>(d.dynamixel, dt_s, q0_rad);
    case DriveKind::DynamixelVoltage:
      return makeDynamixelServoDrive(d.voltage_servo, dt_s, q0_rad);
    case DriveKind::Torque:
      return std::make_unique<FrictionDrive>(d.dry_friction_Nm);
    case DriveKind::Ideal:
      break;
  }
  return std::make_unique<IdealServoDrive>(j.servo);
}

}  // namespace

std::unique_ptr<motorgear::Drive> makeDrive(const Joint& j, bool hinge, double dt_s, double q0_rad,
                                            const CompiledChain& chain, const RealityEffects& r) {
  using namespace motorgear;
  std::unique_ptr<Drive> d = makeModelDrive(j, hinge, dt_s, q0_rad, chain);
  if (!hinge || !r.changesDrives()) return d;
  if (r.command_delay_s > 0) d = std::make_unique<CommandDelayDrive>(std::move(d), r.command_delay_s, dt_s, q0_rad);
  // The joint's own dry friction stays the Coulomb part tau_c; M2 adds the static excess
  // (ratio - 1) tau_c s(qd) on top, so the sum is the Stribeck law of sim/reality.h.
  const double tau_c_Nm = j.drive.kind == DriveKind::Dynamixel ? j.drive.dynamixel.kc_Nm : j.drive.dry_friction_Nm;
  if (r.stribeck_static_ratio > 1 && tau_c_Nm > 0) {
    GearFriction::Params f;
    f.model = FrictionModel::M2;
    f.tau_c_Nm = 0.0;
    f.tau_s_Nm = (r.stribeck_static_ratio - 1.0) * tau_c_Nm;
    f.v_s_rad_s = r.stribeck_velocity_rad_s;
    f.alpha = r.stribeck_alpha;
    d = std::make_unique<GearFrictionDrive>(std::move(d), f);
  }
  if (r.backlash_rad > 0)
    d = std::make_unique<BacklashDrive>(
        std::move(d),
        BacklashDrive::Params{r.backlash_rad, r.backlash_drive_inertia_kgm2, BacklashDrive::Encoder::Motor}, q0_rad);
  return d;
}

std::optional<double> noLoadJointSpeed_rad_s(const Drivetrain& d) {
  if (d.kind != DriveKind::MoToFlex) return std::nullopt;
  const motorgear::JointDrivetrain::Params& p = d.motoflex;
  return motorgear::DcMotor(p.motor).noLoadJointSpeed_rad_s(p.pid.U_bat_V, p.gear.sigma);
}

std::vector<CoupledDriveSlot> makeCoupledDrives(const RobotModel& m) {
  std::vector<CoupledDriveSlot> out;
  for (const MabelLegSpec& s : m.mabel_legs) {
    const motorgear::MabelLegDrive::Params p{s.params, s.kp_mLA, s.kd_mLA, s.kp_mLS, s.kd_mLS};
    out.push_back({std::make_unique<motorgear::MabelLegDrive>(p, m.initial_q[static_cast<size_t>(s.hip)],
                                                              m.initial_q[static_cast<size_t>(s.knee)]),
                   {s.hip, s.knee},
                   "mabel_leg",
                   s.line});
  }
  return out;
}

}  // namespace gapsim
