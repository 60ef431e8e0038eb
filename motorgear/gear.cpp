// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/gear.h"

#include <array>
#include <cmath>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = Gear::Params;
using detail::Field;

const std::array<Field<P>, 11> kFields{{
    {"variant", "-", "0 motoflex2011 (torque filter), 1 coupled (deflection against the joint)",
     [](const P& p) { return static_cast<double>(p.variant); },
     [](P& p, double v) {
       p.variant = static_cast<Gear::Variant>(detail::toInt(v, 0, 1, "Gear variant"));
     }},
    {"sigma", "-", "reduction ratio omega_motor/omega_joint", [](const P& p) { return p.sigma; },
     [](P& p, double v) { p.sigma = v; }},
    {"m_g", "kg*m^2", "gear mass (joint side)", [](const P& p) { return p.m_g_kgm2; },
     [](P& p, double v) { p.m_g_kgm2 = v; }},
    {"D_g", "N*m/rad", "gear spring constant (joint side)", [](const P& p) { return p.D_g_Nm_rad; },
     [](P& p, double v) { p.D_g_Nm_rad = v; }},
    {"B_g", "N*m*s/rad", "gear viscous friction", [](const P& p) { return p.B_g_Nm_s_rad; },
     [](P& p, double v) { p.B_g_Nm_s_rad = v; }},
    {"l_h", "rad", "hull length (dead-zone width)", [](const P& p) { return p.l_h_rad; },
     [](P& p, double v) { p.l_h_rad = v; }},
    {"B_m", "N*m*s/rad", "coupled: gear mass friction against the housing",
     [](const P& p) { return p.B_m_Nm_s_rad; }, [](P& p, double v) { p.B_m_Nm_s_rad = v; }},
    {"substeps", "-", "substeps per frame", [](const P& p) { return double(p.substeps); },
     [](P& p, double v) { p.substeps = detail::toInt(v, 1, 1000000, "Gear substeps"); }},
    {"frame", "s", "frame length step() is called with", [](const P& p) { return p.frame_s; },
     [](P& p, double v) { p.frame_s = v; }},
    {"J_rotor", "kg*m^2", "rotor inertia, motor side (joint sees sigma^2 J_rotor)",
     [](const P& p) { return p.J_rotor_kgm2; }, [](P& p, double v) { p.J_rotor_kgm2 = v; }},
    {"J_joint", "kg*m^2", "coupled: joint inertia for the in-frame joint reaction (0 = none)",
     [](const P& p) { return p.J_joint_kgm2; }, [](P& p, double v) { p.J_joint_kgm2 = v; }},
}};

bool finitePositive(double v) { return std::isfinite(v) && v > 0; }
bool finiteNonNegative(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

void Gear::Params::validate() const {
  using detail::num;
  const int var = static_cast<int>(variant);
  if (var < 0 || var > 1)
    throw std::invalid_argument("Gear: variant must be 0 or 1, got " + std::to_string(var));
  if (!finitePositive(sigma) || !finitePositive(m_g_kgm2) || !finitePositive(D_g_Nm_rad) ||
      !finitePositive(frame_s))
    throw std::invalid_argument("Gear: sigma, m_g, D_g, frame must be finite and > 0, got sigma = " +
                                num(sigma) + ", m_g = " + num(m_g_kgm2) + " kg*m^2, D_g = " +
                                num(D_g_Nm_rad) + " N*m/rad, frame = " + num(frame_s) + " s");
  if (!finiteNonNegative(B_g_Nm_s_rad) || !finiteNonNegative(B_m_Nm_s_rad) ||
      !finiteNonNegative(l_h_rad) || !finiteNonNegative(J_rotor_kgm2) ||
      !finiteNonNegative(J_joint_kgm2))
    throw std::invalid_argument("Gear: B_g, B_m, l_h, J_rotor, J_joint must be finite and >= 0, got B_g = " +
                                num(B_g_Nm_s_rad) + " N*m*s/rad, B_m = " + num(B_m_Nm_s_rad) +
                                " N*m*s/rad, l_h = " + num(l_h_rad) + " rad, J_rotor = " +
                                num(J_rotor_kgm2) + " kg*m^2, J_joint = " + num(J_joint_kgm2) +
                                " kg*m^2");
  if (substeps < 1)
    throw std::invalid_argument("Gear: substeps must be >= 1, got " + std::to_string(substeps));
  const double wh = omega_rad_s() * substep_s();
  if (!(wh < 2.0))
    throw std::invalid_argument(
        "Gear: unstable substep: omega * dt_g = " + num(wh) + " >= 2 with omega = sqrt(D_g/m_g) = " +
        num(omega_rad_s()) + " rad/s (D_g = " + num(D_g_Nm_rad) + " N*m/rad, m_g = " +
        num(m_g_kgm2) + " kg*m^2), dt_g = frame/substeps = " + num(frame_s) + " s / " +
        std::to_string(substeps) + " = " + num(substep_s()) + " s; need dt_g < " +
        num(maxStableSubstep_s()) + " s, i.e. substeps >= " + std::to_string(minStableSubsteps()));
}

double Gear::Params::omega_rad_s() const { return std::sqrt(D_g_Nm_rad / m_g_kgm2); }

double Gear::Params::dampingRatio() const {
  return B_g_Nm_s_rad / (2.0 * std::sqrt(D_g_Nm_rad * m_g_kgm2));
}

int Gear::Params::minStableSubsteps() const {
  // Smallest N with omega * frame / N < 2.
  const double x = omega_rad_s() * frame_s / 2.0;
  const double n = std::floor(x) + 1.0;
  return n > 1e9 ? 1000000000 : static_cast<int>(n);
}

Gear::Params Gear::Params::typeA() {
  // motoflex_nao_parameters.csv, value_type_A (KianRK/MoToFlex config/Normal.gnm).
  Params p;
  p.sigma = 201.3;
  p.m_g_kgm2 = 1.0808e-3;
  p.D_g_Nm_rad = 6.1308e6;
  p.l_h_rad = 1.3010e-5;
  p.B_g_Nm_s_rad = 84.365;
  return p;
}

Gear::Params Gear::Params::typeB() {
  // motoflex_nao_parameters.csv, value_type_B.
  Params p;
  p.sigma = 130.85;
  p.m_g_kgm2 = 1.1037e-3;
  p.D_g_Nm_rad = 1.7995e7;
  p.l_h_rad = 1.0509e-5;
  p.B_g_Nm_s_rad = 0.10897;
  // Not the paper's 100: at N = 100 (w dt_g = 1.28, a contact lasts ~2.5 substeps) the nearly
  // undamped type-B mass falls into a numerical limit cycle at the hull faces (steady torque off
  // by 39 % in kMotoflex2011, 115 % in kCoupled); N >= 600 converges. 1000 gives w dt_g = 0.128.
  p.substeps = 1000;
  return p;
}

std::vector<std::string> Gear::Params::paramNames() { return detail::fieldNames<P>(kFields); }
std::vector<ParamInfo> Gear::Params::paramInfo() { return detail::fieldInfo<P>(kFields); }
double Gear::Params::get(std::string_view name) const {
  return detail::getField<P>(kFields, *this, "Gear", name);
}
void Gear::Params::set(std::string_view name, double value) {
  detail::setField<P>(kFields, *this, "Gear", name, value);
}

Gear::Gear(const Params& params) : params_(params) { params_.validate(); }

double Gear::springDeflection(Variant variant, double x, double l_h) {
  // Written so that a NaN deflection yields NaN (comparisons with NaN are false).
  if (variant == Variant::kMotoflex2011) {
    // Alg. 2 lines 3-9: hull [0, l_h].
    if (x > l_h) return x - l_h;
    if (x >= 0.0) return 0.0;
    return x;
  }
  const double half = 0.5 * l_h;
  if (x > half) return x - half;
  if (x >= -half) return 0.0;
  return x + half;
}

void Gear::reset(double q_rad, double qd_rad_s) {
  state_ = State{};
  if (params_.variant == Variant::kCoupled) {
    state_.p_m_rad = q_rad;
    state_.v_m_rad_s = qd_rad_s;
  }
  state_.initialised = true;
}

double Gear::energy_J() const {
  const Params& p = params_;
  const double x = p.variant == Variant::kCoupled ? state_.deflection_rad : state_.p_m_rad;
  const double ph = springDeflection(p.variant, x, p.l_h_rad);
  return 0.5 * p.m_g_kgm2 * state_.v_m_rad_s * state_.v_m_rad_s + 0.5 * p.D_g_Nm_rad * ph * ph;
}

double Gear::step(double dt_s, double T_motor_Nm, double q_rad, double qd_rad_s) {
  const Params& p = params_;
  State& s = state_;
  const bool coupled = p.variant == Variant::kCoupled;
  if (coupled && !s.initialised) reset(q_rad, qd_rad_s);
  s.initialised = true;

  const double Tin = p.sigma * T_motor_Nm;  // Alg. 2 line 1
  const int n = p.substeps;
  const double h = dt_s / n;
  const double inv_m = 1.0 / p.m_g_kgm2;
  double pm = s.p_m_rad;
  double vm = s.v_m_rad_s;
  // kMotoflex2011: the deflection is p_m itself. kCoupled: delta = p_m - q integrated as
  // d delta/dt = v_m - qd (see the header: no splitting error enters the stiff spring).
  double x = coupled ? s.deflection_rad : pm;
  // kCoupled: joint speed inside the frame, advanced by the gear torque alone when J_joint > 0.
  double qd = qd_rad_s;
  const double h_over_J = p.J_joint_kgm2 > 0 ? h / p.J_joint_kgm2 : 0.0;
  double sum_Ts = 0.0;
  double ph = 0.0, Ts = 0.0;

  for (int k = 0; k < n; ++k) {
    ph = springDeflection(p.variant, x, p.l_h_rad);  // lines 3-9
    if (coupled) {
      const double Bc = ph != 0.0 ? p.B_g_Nm_s_rad : 0.0;
      // m (v' - v)/h = Tin - D ph - Bc (v' - qd) - B_m v'   (viscous terms implicit)
      vm = (vm + h * inv_m * (Tin - p.D_g_Nm_rad * ph + Bc * qd)) /
           (1.0 + h * inv_m * (Bc + p.B_m_Nm_s_rad));
      Ts = p.D_g_Nm_rad * ph + Bc * (vm - qd);
      qd += h_over_J * Ts;  // joint reacts within the frame (symplectic pair with the mass)
      x += h * (vm - qd);
      pm += h * vm;
    } else {
      Ts = p.D_g_Nm_rad * ph;  // line 10
      // line 12 with the viscous term implicit; the paper's order (line 11 before 12) would be
      // explicit Euler, see the header.
      vm = (vm + h * inv_m * (Tin - Ts)) / (1.0 + h * inv_m * p.B_g_Nm_s_rad);
      pm += h * vm;  // line 11 with the new speed (symplectic)
      x = pm;
    }
    sum_Ts += Ts;  // line 13: T_j += T_s h/dt, the factor applied once below
  }

  s.p_m_rad = pm;
  s.v_m_rad_s = vm;
  s.deflection_rad = x;
  s.input_torque_Nm = Tin;
  s.spring_rad = springDeflection(p.variant, x, p.l_h_rad);
  s.contact = s.spring_rad != 0.0;
  s.spring_torque_Nm = Ts;
  s.joint_torque_Nm = sum_Ts / n;
  return s.joint_torque_Nm;
}

}  // namespace gapsim::motorgear
