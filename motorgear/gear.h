// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Gear: MoToFlex Algorithm 2 (gear flexibility D_g and tolerance l_h by a mass in a hull),
// plus a physically coupled variant. Linear notation as in the paper ("radius 1"): all positions
// are joint-side angles [rad], the mass m_g is a joint-side inertia [kg m^2], D_g a joint-side
// stiffness [N m/rad], torques are joint-side [N m]. Positive torque increases q.
//
// Both variants, per call of step(dt, T_M, q, qd):
//   T' = sigma * T_M                                          (Alg. 2 line 1; T_M motor side)
//   the mass dynamics below over the frame, T_j = (1/dt) int T_s dt (line 13), integrated
//   kExact (default of typeA()/typeB()): in closed form, event-driven (see "Exact integration")
//   kSubsteps: N substeps of h = dt/N (line 2); spring deflection p_h from the dead zone
//     (lines 3-9), T_s = D_g p_h (line 10), mass update (lines 11-12), T_j = sum T_s h/dt.
//
// kMotoflex2011 (faithful): the mass is driven by T' and held by the spring whose far end is
//   FIXED; the joint's motion does not enter. Dead zone [0, l_h] (not centred):
//     p_h = p_m - l_h if p_m > l_h;  p_h = p_m if p_m < 0;  else 0
//     m_g pdd_m = T' - D_g p_h - B_g pd_m
//   A torque filter: steady state T_j = T' = sigma T_M; a torque reversal passes no torque until
//   the mass has crossed the hull (time ~ sqrt(2 m_g l_h / |T'|), or l_h B_g/|T'| when damped).
// kCoupled: the spring acts between the mass (the motor side of the gear) and the JOINT. The
//   joint moves at qd during the frame, reacting to the gear torque alone (qd += T_s h/J_joint)
//   when J_joint > 0 (recommended, see below). Deflection delta = p_m - q is
//   integrated as d delta/dt = pd_m - qd (state, not recomputed from q: recomputing injects the
//   splitting error q_actual - q_extrapolated ~ dt^2 qdd into the stiff spring every frame,
//   which drove the nearly undamped type-B gear unstable against a 0.02 kg m^2 joint). q is only
//   used to initialise p_m (a probe). Dead zone centred, [-l_h/2, +l_h/2]:
//     p_h = delta - l_h/2 if delta > l_h/2;  delta + l_h/2 if delta < -l_h/2;  else 0
//     contact c = (p_h != 0);  T_s = c (D_g p_h + B_g (pd_m - qd))   (Kelvin-Voigt hull contact)
//     m_g pdd_m = T' - T_s - B_m pd_m
//   An external torque reversing the joint moves it through the full play l_h before the spring
//   resists. B_g acts on the relative speed only (acting on pd_m as in kMotoflex2011 it would
//   brake the joint itself with 84 N m s/rad for type A). B_m is the motor-side bearing/back-EMF
//   friction reflected to the joint side (JointDrivetrain routes sigma*B_v here in this mode).
//
// Exact integration (Params::integrator = kExact): within a frame T' and qd are constant, so
// inside the hull (flight) and against either face (contact) the mass obeys a linear 2nd-order
// ODE with constant coefficients and constant forcing, in x = p_m (2011) or x = delta (coupled):
//   flight:  m_g x'' = F - c_f x'                   c_f = B_g (2011), B_m (coupled)
//   contact: m_g y'' = F - D_g y - c_c y',  y = x - face,  c_c = B_g (2011), B_g + B_m (coupled)
//   F = T' (2011), T' - B_m qd (coupled);  T_s = D_g y (+ B_g y' coupled) in contact, 0 in flight
// Each regime is solved in closed form (damped sinusoid, critically/overdamped exponentials with
// series near the degenerate points, B = 0 exact), the first face crossing in the rest of the
// frame is bracketed exactly between the analytic velocity zeros and refined to 1e-13 relative,
// and the regime switches there. int T_s dt follows exactly from the ODE's impulse balance
// (m (y'_1 - y'_0) = F tau - c (y_1 - y_0) - D int y). Same equations as the substeps, without
// their error: no stability limit, no limit cycle, cost ~80-100 ns per frame plus ~0.15 us per
// face crossing (type B rattles at the faces after torque reversals: 6-14 crossings per frame on
// average in bench_motorgear, 1.1-2.1 us per frame; the substeps need 8-12 us at N = 1000). The switches cannot
// accumulate (the force is continuous at a face and F constant, so ever gentler re-entries end on one side of the
// face); 256 per frame only guard against rounding-level grazing, the rest of such a frame falls back to substeps at w
// h = 0.05. Not supported: kCoupled with J_joint > 0 (the joint reaction with B_m > 0 makes the contact 3rd order);
// validate() rejects it, use kSubsteps there. Note that the nearly undamped type-B rattle is chaotic (a 1e-12
// perturbation reaches 0.1 N m within 40 frames), so any two integrators, or one at two step counts, part ways there
// after some frames.
//
// Substep integration: semi-implicit Euler, spring explicit at the start of the substep, viscous
// terms implicit, position with the new velocity:
//     v' = (v + h (T' - D_g p_h + c B_g qd)/m_g) / (1 + h (B + ...)/m_g),   p' = p + h v'
// For the linear spring in contact with b = h B/m_g, w = sqrt(D_g/m_g) the amplification matrix
// has det = 1/(1+b) and trace (2 + b - (w h)^2)/(1+b): stable iff (w h)^2 < 4 + 2 b. Damping
// only helps (implicit), so the limit enforced by validate() is the undamped one:
//     w * dt_g < 2,   dt_g = frame_s / substeps,   w = sqrt(D_g / m_g)
// (no separate damping limit; with B explicit as printed it would be h B_g/m_g < 2 as well).
// The paper's printed order (p updated with the OLD speed, then v) is explicit Euler, stable only
// for w h < 2 zeta (zeta = B_g / (2 sqrt(D_g m_g))): type A (w h = 0.753, 2 zeta = 1.04) would be
// stable, type B (w h = 1.28, 2 zeta = 0.00077) diverges. Hence the semi-implicit scheme here.
// MoToFlex values at frame 1 ms, N = 100 (dt_g = 10 us):
//   type A: w = 7.53e4 rad/s (12.0 kHz), zeta = 0.518, w dt_g = 0.753, max stable dt_g = 26.6 us
//   type B: w = 1.277e5 rad/s (20.3 kHz), zeta = 3.9e-4, w dt_g = 1.277, max dt_g = 15.7 us
// Smallest stable N at 1 ms: 38 (A), 64 (B). The paper's N = 100 is linearly stable with this
// scheme, but for type B (zeta = 4e-4, contact lasting ~2.5 substeps) the spring evaluated at the
// start of each substep pumps energy at every hull impact and the mass settles into a numerical
// limit cycle: steady torque off by 39 % (kMotoflex2011) and 115 % (kCoupled) at N = 100; from
// N = 600 on the results converge. Params::typeB() therefore sets N = 1000 (w dt_g = 0.128) for
// kSubsteps; type A (zeta = 0.52) is converged at N = 100. validate() checks the substep limit
// with kExact too, so that switching the integrator never yields an unstable parameter set.
// Period error of the scheme (undamped): T_num/T = w h / arccos(1 - (w h)^2/2) = 0.975 (A) and
// 0.922 (B) at N = 100; the filter is far above the 1 kHz control rate either way.
// kCoupled and the simulator: T_j is applied to the joint as an explicit torque over the frame.
// With J_joint = 0 the joint is an infinitely heavy wall moving at qd during the frame and only
// receives the momentum afterwards; that conserves momentum but not energy (error P^2/(2 J) per
// frame for a transferred impulse P). For type A the hull damper hides it; the nearly undamped
// type-B mass rattling in the play pumps energy this way (measured: a 0.05 rad/s joint of
// 0.02 kg m^2 gained 6x its kinetic energy in 3 s, 3000x at 0.005 kg m^2). Setting J_joint to
// the joint's inertia about its axis (including the armature) lets the joint speed react to the
// gear torque inside the substeps (a symplectic pair), which removes the pump; the simulator then
// applies the frame-average torque, whose impulse equals the in-frame one. Keep m_g < J_joint.
//
// Reflected rotor inertia: J_rotor (motor side) appears at the joint as sigma^2 J_rotor
// (MuJoCo's "armature"). This component does not integrate it: the simulator adds
// reflectedInertia_kgm2() to the joint's inertia about its axis. Default J_rotor = 0 reproduces
// MoToFlex, which has no rotor inertia.
//
// Parameters: motoflex_nao_parameters.csv (ReductionType, Mass, GearSc, HullLength,
// InnerDamping), gear type A (201.3: HipYawPitch, HipRoll, AnkleRoll) and B (130.85: HipPitch,
// KneePitch, AnklePitch). step() never throws; non-finite inputs propagate.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "motorgear/component.h"
#include "motorgear/param_access.h"

namespace gapsim::motorgear {

namespace detail {
/// Gear kExact: one regime per unit mass, y'' = f - w2 y - lam y' (lam_s: the part of lam that is
/// in the spring torque); a = lam/2, s = w2 - a^2, wd = sqrt|s|, r1/r2 overdamped exponents,
/// half_decay = exp(-a pi/wd). Derived from the Params at construction.
struct GearMode {
  double w2 = 0, lam = 0, lam_s = 0, a = 0, s = 0, wd = 0, inv_wd = 0, r1 = 0, r2 = 0;
  double half_decay = 0;
};
}  // namespace detail

class Gear : public Component<Gear> {
 public:
  enum class Variant { kMotoflex2011 = 0, kCoupled = 1 };
  enum class Integrator { kSubsteps = 0, kExact = 1 };

  /// Defaults: MoToFlex gear type A (motoflex_nao_parameters.csv, value_type_A; KianRK/MoToFlex
  /// config/Normal.gnm), integrated in substeps.
  struct Params : FieldParams<Params> {
    Variant variant = Variant::kMotoflex2011;       ///< name "variant": 0 motoflex2011, 1 coupled
    double sigma = 201.3;                           ///< reduction ratio omega_motor/omega_joint [-]   "sigma"
    double m_g_kgm2 = 1.0808e-3;                    ///< gear mass, joint side [kg m^2]                "m_g"
    double D_g_Nm_rad = 6.1308e6;                   ///< gear spring constant, joint side [N m/rad]    "D_g"
    double B_g_Nm_s_rad = 84.365;                   ///< gear viscous friction [N m s/rad]             "B_g"
    double l_h_rad = 1.3010e-5;                     ///< hull length = dead-zone width [rad]           "l_h"
    double B_m_Nm_s_rad = 0.0;                      ///< kCoupled: mass-to-housing friction [N m s/rad] "B_m"
    int substeps = 100;                             ///< N substeps per frame (kSubsteps) [-]          "substeps"
    Integrator integrator = Integrator::kSubsteps;  ///< 0 substeps, 1 exact          "integrator"
    double frame_s = 1e-3;                          ///< step length step() is called with [s]         "frame"
    double J_rotor_kgm2 = 0.0;                      ///< rotor inertia, motor side [kg m^2]            "J_rotor"
    double J_joint_kgm2 = 0.0;                      ///< kCoupled: joint inertia about its axis incl. armature,
                                                    ///< for the in-frame joint reaction; 0 = joint at constant
                                                    ///< qd through the frame [kg m^2]                 "J_joint"

    /// Throws std::invalid_argument with the numbers, including the stability limit
    /// sqrt(D_g/m_g) * frame_s/substeps < 2 (for either integrator) and kExact with kCoupled
    /// and J_joint > 0 (not supported).
    void validate() const;

    double omega_rad_s() const;   ///< sqrt(D_g / m_g)
    double dampingRatio() const;  ///< B_g / (2 sqrt(D_g m_g))
    double substep_s() const { return frame_s / substeps; }
    double maxStableSubstep_s() const { return 2.0 / omega_rad_s(); }
    int minStableSubsteps() const;  ///< smallest N with omega*frame/N < 2
    double reflectedInertia_kgm2() const { return sigma * sigma * J_rotor_kgm2; }

    /// MoToFlex gear type A (201.3) and B (130.85), motoflex_nao_parameters.csv.
    static Params typeA();  ///< kExact; substeps 100 (as the paper) if switched to kSubsteps
    static Params typeB();  ///< kExact; substeps 1000 (see the limit-cycle note above)

    /// The field table (names variant, sigma, m_g, D_g, B_g, l_h, B_m, substeps, frame, J_rotor, J_joint, integrator)
    /// behind paramNames, paramInfo, get and set.
    static std::span<const Field<Params>> fields();
    static constexpr std::string_view kComponent = "Gear";
  };

  struct State {
    double p_m_rad = 0.0;         ///< mass position (kMotoflex2011: in the hull frame;
                                  ///< kCoupled: absolute joint-side angle, a probe) [rad]
    double v_m_rad_s = 0.0;       ///< mass speed [rad/s]
    double deflection_rad = 0.0;  ///< kMotoflex2011: p_m; kCoupled: delta = p_m - q (state)
    bool initialised = false;     ///< kCoupled: false -> first step sets p_m = q, v_m = qd
    // Last outputs, for probes (end of the last substep unless stated).
    double input_torque_Nm = 0.0;   ///< T' = sigma T_M
    double spring_rad = 0.0;        ///< p_h, spring compression beyond the hull
    bool contact = false;           ///< mass touches the hull
    double spring_torque_Nm = 0.0;  ///< T_s of the last substep (kExact: at the frame end)
    double joint_torque_Nm = 0.0;   ///< T_j, frame average
    int events = 0;                 ///< kExact: regime switches (hull face crossings) last frame
  };

  Gear() : Gear(Params{}) {}
  explicit Gear(const Params& params);  ///< validates (throws std::invalid_argument)

  /// Advances one frame dt_s (== params.frame_s for the validated stability) and returns the
  /// frame-averaged joint torque T_j [N m]. T_motor_Nm is motor side. q_rad, qd_rad_s are the
  /// joint angle and speed at the start of the frame (ignored by kMotoflex2011).
  double step(double dt_s, double T_motor_Nm, double q_rad = 0.0, double qd_rad_s = 0.0);

  /// Puts the mass at rest-relative position: kMotoflex2011 at 0, kCoupled centred on q with qd.
  void reset(double q_rad = 0.0, double qd_rad_s = 0.0);

  /// Stored energy of the gear: 1/2 m_g v_m^2 + 1/2 D_g p_h(deflection)^2 [J].
  double energy_J() const;

  double reflectedInertia_kgm2() const { return params_.reflectedInertia_kgm2(); }

  /// Dead-zone map p_h(deflection) of the given variant.
  static double springDeflection(Variant variant, double deflection_rad, double l_h_rad);

 private:
  double stepSubsteps(double dt_s, double T_in_Nm, double qd_rad_s);
  double stepExact(double dt_s, double T_in_Nm, double qd_rad_s);

  friend class Component<Gear>;
  Params params_{};
  State state_{};
  detail::GearMode fly_{}, touch_{};  ///< kExact: flight inside the hull, contact with a face
};

}  // namespace gapsim::motorgear
