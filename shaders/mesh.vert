#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// Robot bodies, markers and the robot's planar shadow. World frame: x forward, y left, z up (m).
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;

uniform mat4 u_viewProj;
uniform mat4 u_model;      // link pose * geometry origin * size
uniform mat3 u_normalMat;  // inverse transpose of u_model's 3x3
uniform mat4 u_flatten;    // identity, or the projection onto the ground along the light (shadow)

out vec3 v_normal;
out vec3 v_world;

void main() {
  vec4 w = u_flatten * (u_model * vec4(a_pos, 1.0));
  v_world = w.xyz / w.w;
  v_normal = u_normalMat * a_normal;
  gl_Position = u_viewProj * w;
}
