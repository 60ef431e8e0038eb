// SPDX-License-Identifier: BSD-3-Clause
#include "motorgear/gear.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace gapsim::motorgear {
namespace {

using P = Gear::Params;

constexpr Field<P> kFields[]{
    {"variant", "-", "0 motoflex2011 (torque filter), 1 coupled (deflection against the joint)",
     [](const P& p) { return static_cast<double>(p.variant); },
     [](P& p, double v) { p.variant = static_cast<Gear::Variant>(toInt(v, 0, 1, "Gear variant")); }},
    memberField<P, &P::sigma>("sigma", "-", "reduction ratio omega_motor/omega_joint"),
    memberField<P, &P::m_g_kgm2>("m_g", "kg*m^2", "gear mass (joint side)"),
    memberField<P, &P::D_g_Nm_rad>("D_g", "N*m/rad", "gear spring constant (joint side)"),
    memberField<P, &P::B_g_Nm_s_rad>("B_g", "N*m*s/rad", "gear viscous friction"),
    memberField<P, &P::l_h_rad>("l_h", "rad", "hull length (dead-zone width)"),
    memberField<P, &P::B_m_Nm_s_rad>("B_m", "N*m*s/rad", "coupled: gear mass friction against the housing"),
    {"substeps", "-", "substeps per frame", [](const P& p) { return double(p.substeps); },
     [](P& p, double v) { p.substeps = toInt(v, 1, 1000000, "Gear substeps"); }},
    memberField<P, &P::frame_s>("frame", "s", "frame length step() is called with"),
    memberField<P, &P::J_rotor_kgm2>("J_rotor", "kg*m^2", "rotor inertia, motor side (joint sees sigma^2 J_rotor)"),
    memberField<P, &P::J_joint_kgm2>("J_joint", "kg*m^2",
                                     "coupled: joint inertia for the in-frame joint reaction (0 = none)"),
    {"integrator", "-", "0 substeps (semi-implicit Euler), 1 exact (closed form, event-driven)",
     [](const P& p) { return static_cast<double>(p.integrator); },
     [](P& p, double v) { p.integrator = static_cast<Gear::Integrator>(toInt(v, 0, 1, "Gear integrator")); }},
};

bool finitePositive(double v) { return std::isfinite(v) && v > 0; }
bool finiteNonNegative(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

void Gear::Params::validate() const {
  using detail::num;
  const int var = static_cast<int>(variant);
  if (var < 0 || var > 1) throw std::invalid_argument("Gear: variant must be 0 or 1, got " + std::to_string(var));
  if (!finitePositive(sigma) || !finitePositive(m_g_kgm2) || !finitePositive(D_g_Nm_rad) || !finitePositive(frame_s))
    throw std::invalid_argument("Gear: sigma, m_g, D_g, frame must be finite and > 0, got sigma = " + num(sigma) +
                                ", m_g = " + num(m_g_kgm2) + " kg*m^2, D_g = " + num(D_g_Nm_rad) +
                                " N*m/rad, frame = " + num(frame_s) + " s");
  if (!finiteNonNegative(B_g_Nm_s_rad) || !finiteNonNegative(B_m_Nm_s_rad) || !finiteNonNegative(l_h_rad) ||
      !finiteNonNegative(J_rotor_kgm2) || !finiteNonNegative(J_joint_kgm2))
    throw std::invalid_argument(
        "Gear: B_g, B_m, l_h, J_rotor, J_joint must be finite and >= 0, got B_g = " + num(B_g_Nm_s_rad) +
        " N*m*s/rad, B_m = " + num(B_m_Nm_s_rad) + " N*m*s/rad, l_h = " + num(l_h_rad) +
        " rad, J_rotor = " + num(J_rotor_kgm2) + " kg*m^2, J_joint = " + num(J_joint_kgm2) + " kg*m^2");
  if (substeps < 1) throw std::invalid_argument("Gear: substeps must be >= 1, got " + std::to_string(substeps));
  const int integ = static_cast<int>(integrator);
  if (integ < 0 || integ > 1)
    throw std::invalid_argument("Gear: integrator must be 0 or 1, got " + std::to_string(integ));
  if (integrator == Integrator::kExact && variant == Variant::kCoupled && J_joint_kgm2 > 0)
    throw std::invalid_argument(
        "Gear: integrator 1 (exact) supports variant 1 (coupled) only with J_joint = 0, got "
        "J_joint = " +
        num(J_joint_kgm2) +
        " kg*m^2 (the in-frame joint reaction with B_m > 0 "
        "makes the contact dynamics third order); set integrator 0 (substeps) or J_joint 0");
  // The substep limit is checked with kExact too, so that switching the integrator never turns
  // a valid parameter set into an unstable one.
  const double wh = omega_rad_s() * substep_s();
  if (!(wh < 2.0))
    throw std::invalid_argument(
        "Gear: unstable substep: omega * dt_g = " + num(wh) +
        " >= 2 with omega = sqrt(D_g/m_g) = " + num(omega_rad_s()) + " rad/s (D_g = " + num(D_g_Nm_rad) +
        " N*m/rad, m_g = " + num(m_g_kgm2) + " kg*m^2), dt_g = frame/substeps = " + num(frame_s) + " s / " +
        std::to_string(substeps) + " = " + num(substep_s()) + " s; need dt_g < " + num(maxStableSubstep_s()) +
        " s, i.e. substeps >= " + std::to_string(minStableSubsteps()));
}

double Gear::Params::omega_rad_s() const { return std::sqrt(D_g_Nm_rad / m_g_kgm2); }

double Gear::Params::dampingRatio() const { return B_g_Nm_s_rad / (2.0 * std::sqrt(D_g_Nm_rad * m_g_kgm2)); }

int Gear::Params::minStableSubsteps() const {
  // Smallest N with omega * frame / N < 2.
  const double x = omega_rad_s() * frame_s / 2.0;
  const double n = std::floor(x) + 1.0;
  return n > 1e9 ? 1000000000 : static_cast<int>(n);
}

Gear::Params Gear::Params::typeA() {
  Params p;                           // the defaults are type A's numbers
  p.integrator = Integrator::kExact;  // substeps 100 (the paper's) when switched to kSubsteps
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
  p.integrator = Integrator::kExact;
  return p;
}

std::span<const Field<P>> Gear::Params::fields() { return kFields; }

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
  State& s = state_;
  if (params_.variant == Variant::kCoupled && !s.initialised) reset(q_rad, qd_rad_s);
  s.initialised = true;
  const double Tin = params_.sigma * T_motor_Nm;  // Alg. 2 line 1
  s.input_torque_Nm = Tin;
  return params_.integrator == Integrator::kExact ? stepExact(dt_s, Tin, qd_rad_s) : stepSubsteps(dt_s, Tin, qd_rad_s);
}

double Gear::stepSubsteps(double dt_s, double Tin, double qd_rad_s) {
  const Params& p = params_;
  State& s = state_;
  const bool coupled = p.variant == Variant::kCoupled;
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
      vm = (vm + h * inv_m * (Tin - p.D_g_Nm_rad * ph + Bc * qd)) / (1.0 + h * inv_m * (Bc + p.B_m_Nm_s_rad));
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
  s.spring_rad = springDeflection(p.variant, x, p.l_h_rad);
  s.contact = s.spring_rad != 0.0;
  s.spring_torque_Nm = Ts;
  s.joint_torque_Nm = sum_Ts / n;
  s.events = 0;
  return s.joint_torque_Nm;
}

// ---------------------------------------------------------------------------------------------
// Exact integrator (Params::integrator = kExact). Within a frame T' (and in kCoupled qd) is
// constant, so in the integration coordinate x (kMotoflex2011: p_m; kCoupled: delta, with
// x' = v_m - qd) every regime is  y'' = f - w2 y - lam y'  per unit mass, with
//   flight (x inside the hull):  y = x,          w2 = 0,          lam = B_g/m (2011), B_m/m (coupled)
//   contact beyond face b:       y = x - b,      w2 = D_g/m,      lam = B_g/m (2011), (B_g+B_m)/m
//   f = T'/m (2011), (T' - B_m qd)/m (coupled).
// Closed forms (E = e^{-a t}, a = lam/2, s = w2 - a^2, z = y - f/w2):
//   contact: z(t) = z0 E C + (v0 + a z0) E S,  y'(t) = v0 E C - (a v0 + w2 z0) E S,
//            C = cos(wd t), S = sin(wd t)/wd (s > 0), cosh/sinh for s < 0, series near s t^2 = 0
//   flight:  y(t) = y0 + v0 phi + f psi,  y'(t) = v0 e^{-lam t} + f phi,
//            phi = (1 - e^{-lam t})/lam, psi = (t - phi)/lam (series for small lam t; B = 0 exact)
// Event location: y' has analytically known zeros, so each regime splits into monotone pieces
// and a crossing is bracketed exactly (no sampling can miss it). Flight and overdamped contact
// have at most one velocity zero (two pieces); underdamped contact oscillates about z = 0 with
// extrema |z_k| = |z_0| e^{-a pi k/wd}, non-increasing, so if neither the first maximum nor the
// first minimum reaches the face no later one does: two pieces suffice there as well. The root
// in a piece is refined with the local quadratic model (y', y'' from the ODE; cubic
// convergence, bisection as the safeguard) until a step is below 1e-10 of t, which leaves an
// error far below 1e-13 relative.
// Frame-average torque, exactly: integrating the contact ODE over a segment of length tau,
//   (1/m) int T_s dt = f tau - (y'_1 - y'_0) - (lam - lam_s)(y_1 - y_0),
// lam_s = B_g/m in kCoupled contact (Kelvin-Voigt term in T_s), 0 in kMotoflex2011.
// A state on a face belongs to the side its speed points to (its acceleration f if at rest).
// The switches cannot accumulate (no Zeno): the force is continuous at a face and f constant, so
// ever gentler re-entries end on one side of it; kMaxEvents only guards against rounding-level
// grazing, the rest of such a frame is finished with fine semi-implicit substeps (w h = 0.05).

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxEvents = 256;

constexpr std::array<double, 13> kInvFact{
    1.0,        1.0,         1.0 / 2,      1.0 / 6,       1.0 / 24,       1.0 / 120,      1.0 / 720,
    1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600};

using Mode = detail::GearMode;

Mode makeMode(double w2, double lam, double lam_s) {
  Mode m;
  m.w2 = w2;
  m.lam = lam;
  m.lam_s = lam_s;
  m.a = 0.5 * lam;
  if (w2 > 0) {
    const double w = std::sqrt(w2);
    m.s = (w - m.a) * (w + m.a);  // w^2 - a^2 without cancellation
    m.wd = std::sqrt(std::abs(m.s));
    m.inv_wd = m.wd > 0 ? 1.0 / m.wd : kInf;
    if (m.s < 0) {
      m.r1 = -w2 / (m.a + m.wd);  // slow root -a + beta, without cancellation
      m.r2 = -(m.a + m.wd);
    } else {
      m.half_decay = std::exp(-m.a * std::numbers::pi * m.inv_wd);
    }
  }
  return m;
}

// Trajectory of one regime from (y0, v0) at local time 0.
struct Traj {
  const Mode& m;
  double f, y0, v0;
  double ye = 0.0, z0 = 0.0, B0 = 0.0, K = 0.0;

  Traj(const Mode& mode, double f_, double y0_, double v0_) : m(mode), f(f_), y0(y0_), v0(v0_) {
    if (m.w2 > 0) {
      ye = f / m.w2;
      z0 = y0 - ye;
      B0 = v0 + m.a * z0;
      K = m.a * v0 + m.w2 * z0;
    }
  }

  void eval(double t, double& y, double& v) const {
    if (m.w2 > 0) {
      double ec, es;
      const double q = m.s * t * t;
      if (std::abs(q) < 0.01) {
        // C = sum (-q)^n/(2n)!, S = t sum (-q)^n/(2n+1)!; |q| < 0.01: n <= 5 leaves < 1e-17.
        // |q| < 1e-4: n <= 3 leaves < 1e-20.
        const int top = std::abs(q) < 1e-4 ? 3 : 5;
        double c = kInvFact[2 * top], sn = kInvFact[2 * top + 1];
        for (int n = top - 1; n >= 0; --n) {
          c = c * -q + kInvFact[2 * n];
          sn = sn * -q + kInvFact[2 * n + 1];
        }
        const double E = std::exp(-m.a * t);
        ec = E * c;
        es = E * sn * t;
      } else if (m.s > 0) {
        const double E = std::exp(-m.a * t);
        const double th = m.wd * t;
        ec = E * std::cos(th);
        es = E * std::sin(th) * m.inv_wd;
      } else {
        const double e1 = std::exp(m.r1 * t), e2 = std::exp(m.r2 * t);
        ec = 0.5 * (e1 + e2);
        es = (e1 - e2) / (2.0 * m.wd);  // wd t >= 0.1 here: no cancellation worth the name
      }
      y = ye + z0 * ec + B0 * es;
      v = v0 * ec - K * es;
      return;
    }
    const double x = m.lam * t;
    double e, phi, psi;
    if (x < 0.1) {
      // phi = t sum (-x)^n/(n+1)!, psi = t^2 sum (-x)^n/(n+2)!, n <= 10: remainder < 3e-18.
      // x < 1e-3: n <= 4 leaves < 2e-18.
      const int top = x < 1e-3 ? 4 : 10;
      double p1 = kInvFact[top + 1], p2 = kInvFact[top + 2];
      for (int n = top - 1; n >= 0; --n) {
        p1 = p1 * -x + kInvFact[n + 1];
        p2 = p2 * -x + kInvFact[n + 2];
      }
      phi = p1 * t;
      psi = p2 * t * t;
      e = 1.0 - m.lam * phi;
    } else {
      const double em1 = std::expm1(-x);
      e = 1.0 + em1;
      phi = -em1 / m.lam;
      psi = (t - phi) / m.lam;
    }
    y = y0 + v0 * phi + f * psi;
    v = v0 * e + f * phi;
  }

  double accel(double y, double v) const { return f - m.w2 * y - m.lam * v; }

  // First t > 0 with y'(t) = 0, +inf if none.
  double firstStop() const {
    if (m.w2 > 0) {
      if (m.s > 0) {
        // y' ~ v0 cos(th) - (K/wd) sin(th) = R cos(th + phi): zeros at th = pi/2 - phi + n pi.
        const double phi = std::atan2(K * m.inv_wd, v0);
        double th = 0.5 * std::numbers::pi - phi;
        if (th <= 0.0)
          th += std::numbers::pi;
        else if (th > std::numbers::pi)
          th -= std::numbers::pi;
        return th / m.wd;
      }
      // y' = 0  <=>  tanh(beta t)/beta = v0/K (critical: t = v0/K), at most one root.
      if (v0 == 0.0 || K == 0.0 || (v0 > 0) != (K > 0)) return kInf;
      const double r = v0 / K, xb = m.wd * r;
      if (xb >= 1.0) return kInf;
      return r * (xb < 1e-4 ? 1.0 + xb * xb / 3.0 : std::atanh(xb) / xb);
    }
    // y' = v0 e^{-lam t} + f phi = 0  <=>  t = log1p(-lam v0/f)/lam (B = 0: -v0/f).
    if (v0 == 0.0 || f == 0.0 || (v0 > 0) == (f > 0)) return kInf;
    const double r = -v0 / f, x = m.lam * r;
    return r * (x < 1e-4 ? 1.0 - x / 2.0 + x * x / 3.0 : std::log1p(x) / x);
  }

  // Only underdamped contact has more than one velocity zero; the next one is half a period on.
  double secondStop(double first) const { return m.w2 > 0 && m.s > 0 ? first + std::numbers::pi * m.inv_wd : kInf; }
};

// Root of h(t) = d (y(t) - g), increasing on [lo, hi] with h(lo) < 0 <= h(hi); (y_lo, v_lo) is
// the state at lo. Returns t in (lo, hi] and the speed there. Start: if both ends are velocity
// zeros (underdamped contact, a half-swing) h ~ A - B cos(pi s), exact without damping; else
// from lo. Steps: root of the local quadratic model h + h' d + h'' d^2/2 (h'' from the ODE, so
// one evaluation per step, cubic convergence), Newton or bisection when that leaves the bracket.
double crossing(const Traj& tr, double g, int d, double lo, double h_lo, double y_lo, double v_lo, double hi,
                double h_hi, bool half_swing, double& v_out) {
  double t = lo, y = y_lo, v = v_lo;
  if (half_swing) {
    const double c = std::clamp((h_lo + h_hi) / (h_hi - h_lo), -1.0, 1.0);
    t = lo + (hi - lo) * (std::acos(c) / std::numbers::pi);
    if (!(t > lo && t < hi)) t = 0.5 * (lo + hi);
    tr.eval(t, y, v);
  }
  for (int it = 0; it < 100; ++it) {
    const double h = d * (y - g);
    if (t > lo) {
      if (h < 0)
        lo = t;
      else
        hi = t;
    }
    if (h == 0.0 && t > lo) {
      v_out = v;
      return t;
    }
    const double hp = d * v, hpp = d * tr.accel(y, v);
    const double disc = hp * hp - 2.0 * h * hpp;
    double step = disc >= 0 ? -2.0 * h / (hp + std::copysign(std::sqrt(disc), hp)) : -h / hp;
    double tn = t + step;
    const bool inside = tn > lo && tn < hi;
    if (!inside) {
      tn = 0.5 * (lo + hi);
      step = tn - t;
    }
    if (inside && std::abs(step) <= 1e-10 * tn) {
      // Cubic convergence: the error after this step is far below 1e-13 relative.
      v_out = v + tr.accel(y, v) * step;
      return tn;
    }
    if (hi - lo <= 1e-15 * hi) break;
    t = tn;
    tr.eval(t, y, v);
  }
  tr.eval(hi, y, v_out);
  return hi;
}

// Side of the hull a state belongs to: +1 beyond hi, -1 beyond lo, 0 in flight. On a face the
// speed decides, at rest the acceleration f (spring and dampers vanish there).
int side(double x, double v, double f, double lo, double hi) {
  if (x > hi) return 1;
  if (x < lo) return -1;
  if (x == hi && (v > 0 || (v == 0 && f > 0))) return 1;
  if (x == lo && (v < 0 || (v == 0 && f < 0))) return -1;
  return 0;
}

}  // namespace

Gear::Gear(const Params& params) : params_(params) {
  params_.validate();
  const Params& p = params_;
  const bool coupled = p.variant == Variant::kCoupled;
  const double inv_m = 1.0 / p.m_g_kgm2;
  fly_ = makeMode(0.0, (coupled ? p.B_m_Nm_s_rad : p.B_g_Nm_s_rad) * inv_m, 0.0);
  touch_ = makeMode(p.D_g_Nm_rad * inv_m, (coupled ? p.B_g_Nm_s_rad + p.B_m_Nm_s_rad : p.B_g_Nm_s_rad) * inv_m,
                    coupled ? p.B_g_Nm_s_rad * inv_m : 0.0);
}

/// One function on purpose: the event loop's state (position, speed, time, impulse and the mode it
/// is in) is shared by every branch of a frame, and this is the step's inner loop; split up, each
/// piece would take and return that state.
double Gear::stepExact(double dt_s, double Tin, double qd_rad_s) {
  const Params& p = params_;
  State& s = state_;
  const bool coupled = p.variant == Variant::kCoupled;
  const double m = p.m_g_kgm2, inv_m = 1.0 / m;
  const double lo = coupled ? -0.5 * p.l_h_rad : 0.0;
  const double hi = coupled ? 0.5 * p.l_h_rad : p.l_h_rad;
  const double f = (coupled ? Tin - p.B_m_Nm_s_rad * qd_rad_s : Tin) * inv_m;
  const Mode& fly = fly_;
  const Mode& touch = touch_;

  double x = coupled ? s.deflection_rad : s.p_m_rad;
  double v = coupled ? s.v_m_rad_s - qd_rad_s : s.v_m_rad_s;
  const double x_start = x;
  double t = 0.0, impulse = 0.0;  // impulse: int T_s dt / m
  int events = 0;

  while (events < kMaxEvents) {
    const double rem = dt_s - t;
    const int sd = side(x, v, f, lo, hi);
    const Mode& md = sd != 0 ? touch : fly;
    const double off = sd > 0 ? hi : sd < 0 ? lo : 0.0;
    const double y0 = x - off;
    const Traj tr(md, f, y0, v);
    // Exits (face g in y, direction d): flight leaves upward at hi or downward at lo, contact
    // returns to its face. In the first piece, a face the state starts on is skipped (the side
    // rule guarantees the motion starts away from it).
    double g[2];
    int n_ex = 0;
    int d[2];
    if (sd == 0) {
      g[0] = hi, d[0] = 1, g[1] = lo, d[1] = -1, n_ex = 2;
    } else {
      g[0] = 0.0, d[0] = -sd, n_ex = 1;
    }
    const double t1 = tr.firstStop();
    const double t2 = tr.secondStop(t1);
    double a = 0.0, ya = y0, va = v, yb = y0, vb = v, b = 0.0;
    int hit = -1;
    double te = 0.0, ve = 0.0;
    for (int piece = 0; piece < 2 && hit < 0; ++piece) {
      b = piece == 0 ? t1 : t2;
      const bool last = !(b < rem);
      if (last) b = rem;
      if (piece == 1 && !last) {
        // Underdamped contact, extremum to extremum: z(t + pi/wd) = -exp(-a pi/wd) z(t).
        yb = tr.ye - (ya - tr.ye) * md.half_decay;
        vb = 0.0;
      } else {
        tr.eval(b, yb, vb);
      }
      for (int k = 0; k < n_ex; ++k) {
        if (piece == 0 && y0 == g[k]) continue;
        const double hb = d[k] * (yb - g[k]);
        if (!(hb >= 0)) continue;
        const double ha = d[k] * (ya - g[k]);
        hit = k;
        if (ha >= 0) {  // on the face at a piece boundary already (rounding at an extremum)
          te = a;
          ve = va;
        } else {
          te = crossing(tr, g[k], d[k], a, ha, ya, va, b, hb, piece == 1 && !last, ve);
        }
        break;
      }
      if (last) break;
      a = b;
      ya = yb;
      va = vb;
    }
    double tau, y1, v1;
    if (hit >= 0) {
      tau = te, y1 = g[hit], v1 = ve;
    } else {
      tau = rem;
      if (b == rem)
        y1 = yb, v1 = vb;
      else
        tr.eval(rem, y1, v1);
    }
    if (sd != 0) impulse += f * tau - (v1 - v) - (md.lam - md.lam_s) * (y1 - y0);
    x = y1 + off;
    v = v1;
    if (hit < 0) {
      t = dt_s;
      break;
    }
    t += tau;
    ++events;
  }
  if (events >= kMaxEvents && t < dt_s) {
    // Guard (see above): finish the frame with semi-implicit substeps at w h = 0.05.
    const double rem = dt_s - t;
    const int n = std::max(1, static_cast<int>(std::ceil(rem * std::sqrt(touch.w2) / 0.05)));
    const double h = rem / n;
    for (int k = 0; k < n; ++k) {
      const double ph = x > hi ? x - hi : x < lo ? x - lo : 0.0;
      const Mode& md = ph != 0.0 ? touch : fly;
      v = (v + h * (f - touch.w2 * ph)) / (1.0 + h * md.lam);
      impulse += h * (touch.w2 * ph + md.lam_s * v);
      x += h * v;
    }
  }

  if (coupled) {
    s.p_m_rad += (x - x_start) + qd_rad_s * dt_s;
    s.v_m_rad_s = v + qd_rad_s;
  } else {
    s.p_m_rad = x;
    s.v_m_rad_s = v;
  }
  s.deflection_rad = x;
  s.spring_rad = springDeflection(p.variant, x, p.l_h_rad);
  s.contact = s.spring_rad != 0.0;
  s.spring_torque_Nm = m * (touch.w2 * s.spring_rad + (s.contact ? touch.lam_s * v : 0.0));
  s.events = events;
  const bool finite = std::isfinite(x) && std::isfinite(v);
  s.joint_torque_Nm = finite ? m * impulse / dt_s : std::numeric_limits<double>::quiet_NaN();
  return s.joint_torque_Nm;
}

}  // namespace gapsim::motorgear
