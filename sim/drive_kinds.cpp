// SPDX-License-Identifier: BSD-3-Clause
#include "sim/drive_kinds.h"

#include <array>
#include <cstdio>
#include <stdexcept>

#include "motorgear/friction.h"

namespace gapsim {
namespace {

using motorgear::ParamInfo;

const std::array<DriveKindInfo, 5> kKinds{{
    // kind, type, title, hinge_only, ideal_servo, dry_friction, external_torque, motoflex_chain
    {DriveKind::MoToFlex, "motoflex", "MoToFlex chain", true, false, true, false, true},
    {DriveKind::Dynamixel, "dynamixel", "Dynamixel servo", true, false, false, false, false},
    {DriveKind::DynamixelVoltage, "dynamixel_voltage", "Dynamixel voltage model", true, false, false, false, false},
    {DriveKind::Ideal, "ideal", "ideal servo", false, true, false, false, false},
    {DriveKind::Torque, "torque", "torque input", false, false, true, true, false},
}};

[[noreturn]] void noLeaves(const Drivetrain& d, const std::string& leaf) {
  throw std::invalid_argument("the " + std::string(driveKindInfo(d.kind).title) + " has no parameter '" + leaf + "'");
}

}  // namespace

std::span<const DriveKindInfo> driveKinds() { return kKinds; }

std::vector<ParamInfo> servoLeaves(std::vector<ParamInfo> info) {
  for (ParamInfo& i : info) i.name = std::string(kServoLeafPrefix) + i.name;
  return info;
}

std::string servoParamName(const std::string& leaf) {
  if (!leaf.starts_with(kServoLeafPrefix))
    throw std::invalid_argument("servo parameter '" + leaf + "' must start with " + std::string(kServoLeafPrefix));
  return leaf.substr(kServoLeafPrefix.size());
}

const DriveKindInfo& driveKindInfo(DriveKind kind) {
  for (const DriveKindInfo& k : kKinds)
    if (k.kind == kind) return k;
  throw std::logic_error("driveKindInfo: a DriveKind without a row in drive_kinds.cpp");
}

std::optional<DriveKind> driveKindOfType(std::string_view type) {
  for (const DriveKindInfo& k : kKinds)
    if (k.type == type) return k.kind;
  return std::nullopt;
}

std::vector<std::string> driveTypeNames() {
  std::vector<std::string> out;
  for (const DriveKindInfo& k : kKinds) out.emplace_back(k.type);
  return out;
}

std::vector<ParamInfo> driveLeaves(const Drivetrain& d) {
  switch (d.kind) {
    case DriveKind::MoToFlex:
      return motorgear::JointDrivetrain::Params::paramInfo();
    case DriveKind::Dynamixel:
      return servoLeaves(motorgear::DynamixelServo::Params::paramInfo());
    case DriveKind::DynamixelVoltage:
      return servoLeaves(motorgear::DynamixelServoModel::paramInfo());
    case DriveKind::Ideal:
    case DriveKind::Torque:
      break;
  }
  return {};
}

double driveLeaf(const Drivetrain& d, const std::string& leaf) {
  switch (d.kind) {
    case DriveKind::MoToFlex:
      return d.motoflex.get(leaf);
    case DriveKind::Dynamixel:
      return d.dynamixel.get(servoParamName(leaf));
    case DriveKind::DynamixelVoltage:
      return d.voltage_servo.get(servoParamName(leaf));
    case DriveKind::Ideal:
    case DriveKind::Torque:
      break;
  }
  noLeaves(d, leaf);
}

void setDriveLeaf(Drivetrain& d, const std::string& leaf, double value) {
  switch (d.kind) {
    case DriveKind::MoToFlex:
      d.motoflex.set(leaf, value);
      break;
    case DriveKind::Dynamixel:
      d.dynamixel.set(servoParamName(leaf), value);
      break;
    case DriveKind::DynamixelVoltage:
      d.voltage_servo.set(servoParamName(leaf), value);
      break;
    case DriveKind::Ideal:
    case DriveKind::Torque:
      noLeaves(d, leaf);
  }
  validateDrive(d);
}

void validateDrive(const Drivetrain& d) {
  switch (d.kind) {
    case DriveKind::MoToFlex:
      d.motoflex.validate();
      break;
    case DriveKind::Dynamixel:
      d.dynamixel.validate();
      break;
    case DriveKind::DynamixelVoltage:
      d.voltage_servo.validate();
      break;
    case DriveKind::Ideal:
    case DriveKind::Torque:
      break;
  }
}

void applyDrivePreset(Drivetrain& d, const std::string& preset) {
  switch (d.kind) {
    case DriveKind::MoToFlex:
      if (preset == "typeA")
        d.motoflex = motorgear::JointDrivetrain::Params::typeA();
      else if (preset == "typeB")
        d.motoflex = motorgear::JointDrivetrain::Params::typeB();
      else
        throw std::invalid_argument("expected typeA or typeB, got '" + preset + "'");
      return;
    case DriveKind::DynamixelVoltage:
      d.voltage_servo = motorgear::DynamixelServoModel::fromPreset(motorgear::dynamixelPreset(preset));
      return;
    case DriveKind::Dynamixel:
    case DriveKind::Ideal:
    case DriveKind::Torque:
      break;
  }
  throw std::invalid_argument("presets exist for types motoflex and dynamixel_voltage only, got type '" +
                              std::string(driveKindInfo(d.kind).type) + "'");
}

double driveArmature_kgm2(const Drivetrain& d) {
  switch (d.kind) {
    case DriveKind::MoToFlex:
      return d.motoflex.gear.reflectedInertia_kgm2();
    case DriveKind::DynamixelVoltage:
      return d.voltage_servo.armature_kgm2;
    case DriveKind::Dynamixel:
    case DriveKind::Ideal:
    case DriveKind::Torque:
      break;
  }
  return 0.0;
}

std::optional<PositionServoLaw> positionServoLaw(const Drivetrain& d) {
  if (d.kind != DriveKind::Dynamixel) return std::nullopt;
  const motorgear::DynamixelServo::Params& p = d.dynamixel;
  return PositionServoLaw{p.kp_Nm_rad, p.kd_Nm_s_rad, p.kc_Nm, p.tau_max_Nm};
}

std::string driveSummary(const Joint& j) {
  char b[200];
  switch (j.drive.kind) {
    case DriveKind::MoToFlex: {
      const auto& p = j.drive.motoflex;
      const std::string integ = p.gear.integrator == motorgear::Gear::Integrator::kExact
                                    ? std::string("exact")
                                    : std::to_string(p.gear.substeps) + " substeps";
      std::snprintf(b, sizeof b, "MoToFlex %s (sigma %.5g, %s gear, %s, friction %.3g N m)", j.drive.group.c_str(),
                    p.gear.sigma, p.gear.variant == motorgear::Gear::Variant::kCoupled ? "coupled" : "motoflex2011",
                    integ.c_str(), j.drive.dry_friction_Nm);
      return b;
    }
    case DriveKind::Dynamixel: {
      const auto& p = j.drive.dynamixel;
      std::snprintf(b, sizeof b, "Dynamixel (kp %.4g, kd %.4g, kc %.3g, clamp %.3g N m)", p.kp_Nm_rad, p.kd_Nm_s_rad,
                    p.kc_Nm, p.tau_max_Nm);
      return b;
    }
    case DriveKind::DynamixelVoltage: {
      const auto& v = j.drive.voltage_servo;
      std::snprintf(b, sizeof b,
                    "Dynamixel voltage model (stall %.3g N m, no-load %.3g rad/s at %.3g V, %s friction, "
                    "armature %.3g kg m^2)",
                    v.get("stall_torque"), v.get("no_load_speed"), v.drive.firmware.supply_V,
                    motorgear::frictionModelName(v.friction.model).c_str(), v.armature_kgm2);
      return b;
    }
    case DriveKind::Torque:
      return "torque-driven (" + (j.drive.group.empty() ? std::string("external") : j.drive.group) + ")";
    case DriveKind::Ideal:
      break;
  }
  if (passiveJoint(j)) return "passive";
  std::snprintf(b, sizeof b, "ideal servo (gain %.3g 1/s, fmax %.3g N m)", j.servo.gain_1_s, j.servo.fmax_Nm);
  return b;
}

bool passiveJoint(const Joint& j) { return driveKindInfo(j.drive.kind).ideal_servo && j.servo.fmax_Nm <= 0; }

}  // namespace gapsim
