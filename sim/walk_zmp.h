// SPDX-License-Identifier: BSD-3-Clause
#pragma once
/// \file
/// ZMP preview control on the cart-table model (Kajita et al., "Biped walking pattern generation
/// by using preview control of zero-moment point", ICRA 2003), one horizontal axis at a time.
///
/// Cart-table model: the whole robot is a point mass at constant height z_c on a massless table.
/// State x = (c, c', c'') (COM position m, velocity m/s, acceleration m/s^2), input u = c'''
/// (jerk, m/s^3), output the ZMP
///   p = c - (z_c / g) c''.
/// Exact discretisation with period T (jerk held over the period):
///   A = [1 T T^2/2; 0 1 T; 0 0 1],  B = [T^3/6; T^2/2; T],  C = [1 0 -z_c/g].
///
/// Preview control with integral action (Katayama et al. 1985, as used by Kajita 2003): the
/// augmented state (e_k, dx_k) with e = p - p_ref, dx_k = x_k - x_{k-1},
///   At = [1 CA; 0 A],  Bt = [CB; B],  It = [1; 0],
/// cost sum Qe e^2 + R du^2; Pt solves the discrete algebraic Riccati equation
///   Pt = At' Pt At - At' Pt Bt (R + Bt' Pt Bt)^-1 Bt' Pt At + diag(Qe, 0, 0, 0)
/// (iterated to convergence, Eigen). Gains K = (R + Bt' Pt Bt)^-1 Bt' Pt At = [Gi Gx], preview
/// gains Gd(1) = -Gi, Gd(j) = (R + Bt' Pt Bt)^-1 Bt' X(j-1), X(1) = -Ac' Pt It, X(j) = Ac' X(j-1),
/// Ac = At - Bt K. The control law
///   u_k = -Gi sum_{i<=k} (p_i - p_ref_i) - Gx x_k - sum_{j=1..N} Gd(j) p_ref_{k+j}.
/// Validity: a point mass at constant height; the generated COM is exact for that model only.

#include <Eigen/Core>
#include <vector>

namespace gapsim {

struct ZmpPreviewParams {
  double period_s = 0.01;      ///< control period T (s)
  double com_height_m = 0.26;  ///< z_c: COM height above the ground (m)
  double gravity_m_s2 = 9.81;  ///< g (m/s^2)
  double preview_s = 1.6;      ///< preview horizon N T (s)
  double q_error = 1.0;        ///< Qe: weight of the ZMP error (1/m^2)
  double r_input = 1e-9;       ///< R: weight of the jerk increment (s^6/m^2); small = tight ZMP tracking
  /// Throws InputError naming the field for a non-finite or non-positive value.
  void validate() const;
};

/// One axis of COM state over time: c (m), c' (m/s), c'' (m/s^2) per sample.
struct ComTrajectory {
  std::vector<double> pos_m, vel_m_s, acc_m_s2;
  /// The cart-table ZMP of sample k: c - z_c/g c''.
  double zmp_m(std::size_t k, double com_height_m, double gravity_m_s2) const {
    return pos_m[k] - com_height_m / gravity_m_s2 * acc_m_s2[k];
  }
};

class ZmpPreviewController {
 public:
  explicit ZmpPreviewController(const ZmpPreviewParams& p);

  const ZmpPreviewParams& params() const { return p_; }
  int previewSteps() const { return static_cast<int>(gd_.size()); }
  double integralGain() const { return gi_; }
  const Eigen::RowVector3d& stateGain() const { return gx_; }
  const std::vector<double>& previewGains() const { return gd_; }

  /// Runs the controller over a ZMP reference sampled every period (one value per sample; the
  /// last value is held beyond the end for the preview), from rest at c = zmp_ref[0]. Returns
  /// one COM state per reference sample.
  ComTrajectory track(const std::vector<double>& zmp_ref_m) const;

 private:
  ZmpPreviewParams p_;
  Eigen::Matrix3d A_;
  Eigen::Vector3d B_;
  Eigen::RowVector3d C_;
  double gi_ = 0;
  Eigen::RowVector3d gx_;
  std::vector<double> gd_;
};

}  // namespace gapsim
