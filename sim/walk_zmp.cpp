// SPDX-License-Identifier: BSD-3-Clause
#include "sim/walk_zmp.h"

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "sim/input_error.h"

namespace gapsim {

void ZmpPreviewParams::validate() const {
  auto positive = [](double v, const char* field) {
    if (!std::isfinite(v) || !(v > 0))
      throw InputError("", 0, field, "must be finite and > 0, got " + std::to_string(v));
  };
  positive(period_s, "period_s");
  positive(com_height_m, "com_height_m");
  positive(gravity_m_s2, "gravity_m_s2");
  positive(preview_s, "preview_s");
  positive(q_error, "q_error");
  positive(r_input, "r_input");
}

ZmpPreviewController::ZmpPreviewController(const ZmpPreviewParams& p) : p_(p) {
  p_.validate();
  const double T = p.period_s;
  A_ << 1, T, T * T / 2, 0, 1, T, 0, 0, 1;
  B_ << T * T * T / 6, T * T / 2, T;
  C_ << 1, 0, -p.com_height_m / p.gravity_m_s2;

  using Mat4 = Eigen::Matrix4d;
  using Vec4 = Eigen::Vector4d;
  Mat4 At = Mat4::Zero();
  At(0, 0) = 1;
  At.block<1, 3>(0, 1) = C_ * A_;
  At.block<3, 3>(1, 1) = A_;
  Vec4 Bt;
  Bt(0) = (C_ * B_)(0);
  Bt.tail<3>() = B_;
  Vec4 It = Vec4::Zero();
  It(0) = 1;
  Mat4 Q = Mat4::Zero();
  Q(0, 0) = p.q_error;

  // Discrete algebraic Riccati equation by fixed-point iteration of the Riccati recursion, which
  // converges monotonically from P = Q for this stabilisable, detectable pair. The scale of P is
  // that of Q / (1 - rho^2) for the closed-loop spectral radius rho, so a relative criterion.
  Mat4 P = Q;
  for (int it = 0; it < 100000; ++it) {
    const double s = p.r_input + Bt.dot(P * Bt);
    const Mat4 Pn = At.transpose() * P * At - (At.transpose() * P * Bt) * (Bt.transpose() * P * At) / s + Q;
    const double change = (Pn - P).norm();
    P = Pn;
    if (change <= 1e-13 * P.norm()) break;
  }
  const double s = p.r_input + Bt.dot(P * Bt);
  const Eigen::RowVector4d K = (Bt.transpose() * P * At) / s;
  gi_ = K(0);
  gx_ = K.tail<3>();
  const Mat4 Ac = At - Bt * K;
  const int N = std::max(1, static_cast<int>(std::lround(p.preview_s / T)));
  gd_.resize(N);
  gd_[0] = -gi_;
  Vec4 X = -Ac.transpose() * P * It;
  for (int j = 1; j < N; ++j) {
    gd_[j] = Bt.dot(X) / s;
    X = Ac.transpose() * X;
  }
}

ComTrajectory ZmpPreviewController::track(const std::vector<double>& ref) const {
  ComTrajectory out;
  const std::size_t n = ref.size();
  out.pos_m.resize(n);
  out.vel_m_s.resize(n);
  out.acc_m_s2.resize(n);
  if (n == 0) return out;
  // The summed control law is the sum over k of the incremental one, which starts from rest at
  // the origin; with a truncated preview (sum of Gd != -Gx(0)) it is only translation-invariant
  // in coordinates where the start is 0. So work relative to ref[0]: a constant reference then
  // gives exactly zero input.
  const double origin = ref[0];
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  double err_sum = 0;
  const int N = static_cast<int>(gd_.size());
  for (std::size_t k = 0; k < n; ++k) {
    out.pos_m[k] = x(0) + origin;
    out.vel_m_s[k] = x(1);
    out.acc_m_s2[k] = x(2);
    err_sum += (C_ * x)(0) - (ref[k] - origin);
    double preview = 0;
    for (int j = 1; j <= N; ++j) preview += gd_[j - 1] * (ref[std::min(k + j, n - 1)] - origin);
    const double u = -gi_ * err_sum - (gx_ * x)(0) - preview;
    x = A_ * x + B_ * u;
  }
  return out;
}

}  // namespace gapsim
