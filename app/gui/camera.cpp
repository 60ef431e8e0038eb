// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/camera.h"

#include <QtMath>
#include <algorithm>
#include <cmath>

namespace gapsim::gui {

QVector3D OrbitCamera::eye() const {
  const float y = qDegreesToRadians(yaw_deg), p = qDegreesToRadians(pitch_deg);
  return target + distance_m * QVector3D(std::cos(p) * std::cos(y), std::cos(p) * std::sin(y), std::sin(p));
}

QMatrix4x4 OrbitCamera::view() const {
  QMatrix4x4 m;
  m.lookAt(eye(), target, QVector3D(0, 0, 1));
  return m;
}

QMatrix4x4 OrbitCamera::projection(float aspect) const {
  QMatrix4x4 m;
  // Near plane scaled with the distance keeps depth precision where the robot is.
  m.perspective(fov_deg, aspect, std::max(0.002f, distance_m * 0.01f), std::max(50.0f, distance_m * 40.0f));
  return m;
}

void OrbitCamera::orbit(float dx, float dy) {
  yaw_deg -= dx * 0.4f;
  pitch_deg = std::clamp(pitch_deg + dy * 0.4f, -89.0f, 89.0f);
}

void OrbitCamera::pan(float dx, float dy, int viewport_h) {
  // One pixel moves the target by the world size of a pixel at the target's depth.
  const float px = 2.0f * distance_m * std::tan(qDegreesToRadians(fov_deg) / 2) / std::max(1, viewport_h);
  const QVector3D fwd = (target - eye()).normalized();
  const QVector3D right = QVector3D::crossProduct(fwd, QVector3D(0, 0, 1)).normalized();
  const QVector3D up = QVector3D::crossProduct(right, fwd);
  target += (-dx * right + dy * up) * px;
}

void OrbitCamera::zoom(float steps) { distance_m = std::clamp(distance_m * std::pow(0.88f, steps), 0.05f, 60.0f); }

void OrbitCamera::frame(const QVector3D& base, float height_m) {
  const float h = std::max(height_m, 0.05f);
  target = base + QVector3D(0, 0, 0.5f * h);
  distance_m = std::max(0.3f, 2.6f * h);
}

}  // namespace gapsim::gui
