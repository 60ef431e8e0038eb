#version 330 core
// SPDX-License-Identifier: GPL-3.0-or-later
// Blinn-Phong: a sun, a headlight fill and a sky/ground hemisphere ambient; u_unlit for markers and the shadow.
in vec3 v_normal;
in vec3 v_world;

uniform vec4 u_color;
uniform vec3 u_lightDir;  // towards the light, world frame
uniform vec3 u_eye;
uniform bool u_unlit;

out vec4 fragColor;

void main() {
  if (u_unlit) {
    fragColor = u_color;
    return;
  }
  vec3 n = normalize(v_normal);
  vec3 v = normalize(u_eye - v_world);
  if (dot(n, v) < 0.0) n = -n;  // open or inverted shapes still read as lit
  vec3 l = normalize(u_lightDir);
  float diffuse = max(dot(n, l), 0.0);
  // A headlight (a fill light at the eye) as well: the sun alone leaves the side that faces the
  // camera dark whenever the camera looks from the side away from it.
  float fill = max(dot(n, v), 0.0);
  float specular = pow(max(dot(n, normalize(l + v)), 0.0), 40.0) * 0.25;
  float hemi = 0.5 + 0.5 * n.z;
  vec3 ambient = mix(vec3(0.20, 0.19, 0.18), vec3(0.42, 0.45, 0.52), hemi);
  vec3 c = u_color.rgb * (ambient + 0.6 * diffuse + 0.35 * fill) + vec3(specular);
  fragColor = vec4(min(c, vec3(1.0)), u_color.a);
}
