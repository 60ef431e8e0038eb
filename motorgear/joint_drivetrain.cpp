// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/joint_drivetrain.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = JointDrivetrain::Params;

constexpr Field<P> kFlags[]{
    {"enable/pid", "-", "1: PID drives the motor; 0: motor unpowered (U = 0)",
     [](const P& p) { return p.enable_pid ? 1.0 : 0.0; },
     [](P& p, double v) { p.enable_pid = toBool(v, "enable/pid"); }},
    {"enable/battery_clamp", "-", "1: clamp U to +-U_bat; 0: unlimited",
     [](const P& p) { return p.enable_battery_clamp ? 1.0 : 0.0; },
     [](P& p, double v) { p.enable_battery_clamp = toBool(v, "enable/battery_clamp"); }},
    {"enable/motor", "-", "1: RL motor model; 0: T_M = S K_t U / R",
     [](const P& p) { return p.enable_motor ? 1.0 : 0.0; },
     [](P& p, double v) { p.enable_motor = toBool(v, "enable/motor"); }},
    {"enable/gear", "-", "1: gear model; 0: T_j = sigma T_M", [](const P& p) { return p.enable_gear ? 1.0 : 0.0; },
     [](P& p, double v) { p.enable_gear = toBool(v, "enable/gear"); }},
};

using Pr = JointDrivetrain::Probes;
constexpr Probe<Pr> kProbes[]{
    GAPSIM_PROBE_ROW(Pr, q_target_rad),
    GAPSIM_PROBE_ROW(Pr, error_rad),
    GAPSIM_PROBE_ROW(Pr, U_unclamped_V),
    GAPSIM_PROBE_ROW(Pr, U_V),
    GAPSIM_PROBE_ROW(Pr, pid_saturated),
    GAPSIM_PROBE_ROW(Pr, U_R_V),
    GAPSIM_PROBE_ROW(Pr, current_A),
    GAPSIM_PROBE_ROW(Pr, motor_friction_Nm),
    GAPSIM_PROBE_ROW(Pr, motor_torque_Nm),
    GAPSIM_PROBE_ROW(Pr, gear_input_torque_Nm),
    GAPSIM_PROBE_ROW(Pr, gear_mass_position_rad),
    GAPSIM_PROBE_ROW(Pr, gear_mass_speed_rad_s),
    GAPSIM_PROBE_ROW(Pr, gear_deflection_rad),
    GAPSIM_PROBE_ROW(Pr, spring_rad),
    GAPSIM_PROBE_ROW(Pr, hull_contact),
    GAPSIM_PROBE_ROW(Pr, spring_torque_Nm),
    GAPSIM_PROBE_ROW(Pr, joint_torque_Nm),
};

// Splits "stage/leaf" at the first '/'.
bool splitStage(std::string_view name, std::string_view stage, std::string_view& leaf) {
  if (name.size() > stage.size() + 1 && name.substr(0, stage.size()) == stage && name[stage.size()] == '/') {
    leaf = name.substr(stage.size() + 1);
    return true;
  }
  return false;
}

template <class Sub>
void appendPrefixed(std::vector<ParamInfo>& out, std::string_view prefix) {
  for (auto info : Sub::paramInfo()) {
    info.name = std::string(prefix) + "/" + info.name;
    out.push_back(std::move(info));
  }
}

Pid::Params effectivePid(const P& p) {
  Pid::Params q = p.pid;
  if (!p.enable_battery_clamp) q.U_bat_V = std::numeric_limits<double>::infinity();
  return q;
}

Gear::Params effectiveGear(const P& p) {
  Gear::Params g = p.gear;
  if (p.enable_motor && g.variant == Gear::Variant::kCoupled) g.B_m_Nm_s_rad += g.sigma * p.motor.B_v_Nm_s_rad;
  return g;
}

}  // namespace

void JointDrivetrain::Params::validate() const {
  auto wrap = [](const char* stage, auto&& fn) {
    try {
      fn();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("JointDrivetrain/") + stage + ": " + e.what());
    }
  };
  wrap("pid", [&] { pid.validate(); });
  wrap("motor", [&] { motor.validate(); });
  wrap("gear", [&] { gear.validate(); });
  if (back_emf_external && enable_gear && gear.variant == Gear::Variant::kCoupled)
    throw std::invalid_argument(
        "JointDrivetrain: back_emf_external needs the kMotoflex2011 gear (kCoupled's back-EMF uses the "
        "gear mass speed, which the host cannot see)");
}

JointDrivetrain::Params JointDrivetrain::Params::typeA() {
  // motoflex_nao_parameters.csv, value_type_A: the motor's defaults (B = 5.346e-2) and the type-A
  // gear integrated exactly.
  Params p;
  p.gear = Gear::Params::typeA();
  return p;
}

JointDrivetrain::Params JointDrivetrain::Params::typeB() {
  // motoflex_nao_parameters.csv, value_type_B (B = 3.883e-2 and the type-B gear).
  Params p;
  p.motor.B_v_Nm_s_rad = 3.883e-2;
  p.gear = Gear::Params::typeB();
  return p;
}

std::vector<ParamInfo> JointDrivetrain::Params::paramInfo() {
  std::vector<ParamInfo> out;
  appendPrefixed<Pid::Params>(out, "pid");
  appendPrefixed<DcMotor::Params>(out, "motor");
  appendPrefixed<Gear::Params>(out, "gear");
  for (auto& i : fieldInfo<P>(kFlags)) out.push_back(std::move(i));
  return out;
}

std::vector<std::string> JointDrivetrain::Params::paramNames() {
  std::vector<std::string> out;
  for (auto& i : paramInfo()) out.push_back(std::move(i.name));
  return out;
}

double JointDrivetrain::Params::get(std::string_view name) const {
  std::string_view leaf;
  try {
    if (splitStage(name, "pid", leaf)) return pid.get(leaf);
    if (splitStage(name, "motor", leaf)) return motor.get(leaf);
    if (splitStage(name, "gear", leaf)) return gear.get(leaf);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("JointDrivetrain: unknown parameter '" + std::string(name) + "': " + e.what());
  }
  return getField<P>(kFlags, *this, "JointDrivetrain", name);
}

void JointDrivetrain::Params::set(std::string_view name, double value) {
  std::string_view leaf;
  try {
    if (splitStage(name, "pid", leaf)) return pid.set(leaf, value);
    if (splitStage(name, "motor", leaf)) return motor.set(leaf, value);
    if (splitStage(name, "gear", leaf)) return gear.set(leaf, value);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("JointDrivetrain: cannot set '" + std::string(name) + "': " + e.what());
  }
  setField<P>(kFlags, *this, "JointDrivetrain", name, value);
}

std::vector<std::string> JointDrivetrain::Probes::names() { return probeNames<Pr>(kProbes); }

double JointDrivetrain::Probes::get(std::string_view name) const {
  return probeValue<Pr>(kProbes, *this, "JointDrivetrain probe", name);
}

JointDrivetrain::JointDrivetrain(const Params& params) : params_(params) {
  params_.validate();
  pid_ = Pid(effectivePid(params_));
  motor_ = DcMotor(params_.motor);
  gear_ = Gear(effectiveGear(params_));
}

void JointDrivetrain::reset(double q_rad, double qd_rad_s) {
  pid_.reset();
  motor_.reset();
  gear_.reset(q_rad, qd_rad_s);
  probes_ = Probes{};
}

JointDrivetrain::State JointDrivetrain::state() const {
  return State{pid_.state(), motor_.state(), gear_.state(), probes_};
}

void JointDrivetrain::setState(const State& s) {
  pid_.state() = s.pid;
  motor_.state() = s.motor;
  gear_.state() = s.gear;
  probes_ = s.probes;
}

double JointDrivetrain::jointDamping_Nm_s_rad() const {
  return params_.enable_motor ? motor_.jointDamping_Nm_s_rad(params_.gear.sigma) : 0.0;
}

double JointDrivetrain::jointStallTorque_Nm() const {
  return params_.gear.sigma * motor_.stallTorque_Nm(params_.pid.U_bat_V);
}

double JointDrivetrain::step(double dt_s, double q_target_rad, double q_rad, double qd_rad_s) {
  const Params& p = params_;
  Probes& pr = probes_;
  const double sigma = p.gear.sigma;
  const bool coupled = p.enable_gear && p.gear.variant == Gear::Variant::kCoupled;

  pr.q_target_rad = q_target_rad;
  pr.error_rad = q_target_rad - q_rad;
  double U = 0.0;
  if (p.enable_pid) {
    U = pid_.step(dt_s, q_target_rad, q_rad);
    pr.U_unclamped_V = pid_.state().u_unclamped_V;
    pr.pid_saturated = pid_.state().saturated;
  } else {
    pr.U_unclamped_V = 0.0;
    pr.pid_saturated = false;
  }
  pr.U_V = U;

  double T_M = 0.0;
  if (p.enable_motor) {
    // Motor speed for a true back-EMF: the motor shaft is the gear mass in kCoupled.
    const double omega_joint_side = coupled ? gear_.state().v_m_rad_s : qd_rad_s;
    const double omega_friction = coupled ? 0.0 : qd_rad_s;  // kCoupled: B_v lives in the gear
    // back_emf_external: the torque without the back-EMF; the probes with it (I is linear in the
    // speed, and L/R << dt).
    const double omega_emf = p.back_emf_external ? 0.0 : sigma * omega_joint_side;
    T_M = motor_.step(dt_s, U, omega_friction, omega_emf);
    const double U_e_external = p.back_emf_external ? p.motor.K_e_V_s_rad * sigma * omega_joint_side : 0.0;
    pr.U_R_V = motor_.state().U_R_V - U_e_external;
    pr.current_A = pr.U_R_V / p.motor.R_Ohm;
    // kCoupled: report the motor-side friction the gear applies (start-of-frame mass speed).
    pr.motor_friction_Nm = coupled ? p.motor.B_v_Nm_s_rad * omega_joint_side : motor_.state().friction_Nm;
  } else {
    // Static gain of the motor: the PID output acts as a torque, scale S K_t / R [N m/V].
    T_M = p.motor.S * p.motor.K_t_Nm_A / p.motor.R_Ohm * U;
    pr.U_R_V = U;
    pr.current_A = U / p.motor.R_Ohm;
    pr.motor_friction_Nm = 0.0;
  }
  pr.motor_torque_Nm = T_M;

  double T_j;
  if (p.enable_gear) {
    T_j = gear_.step(dt_s, T_M, q_rad, qd_rad_s);
    const Gear::State& g = gear_.state();
    pr.gear_input_torque_Nm = g.input_torque_Nm;
    pr.gear_mass_position_rad = g.p_m_rad;
    pr.gear_mass_speed_rad_s = g.v_m_rad_s;
    pr.gear_deflection_rad = g.deflection_rad;
    pr.spring_rad = g.spring_rad;
    pr.hull_contact = g.contact;
    pr.spring_torque_Nm = g.spring_torque_Nm;
  } else {
    T_j = sigma * T_M;
    pr.gear_input_torque_Nm = T_j;
    pr.gear_mass_position_rad = 0.0;
    pr.gear_mass_speed_rad_s = 0.0;
    pr.gear_deflection_rad = 0.0;
    pr.spring_rad = 0.0;
    pr.hull_contact = false;
    pr.spring_torque_Nm = T_j;
  }
  pr.joint_torque_Nm = T_j;
  return T_j;
}

}  // namespace gapsim::motorgear
