// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/mesh.h"

#include <QVector3D>
#include <cmath>
#include <numbers>
#include <unordered_map>

namespace gapsim::gui::mesh {

namespace {

void vertex(std::vector<float>& out, const QVector3D& p, const QVector3D& n) {
  out.insert(out.end(), {p.x(), p.y(), p.z(), n.x(), n.y(), n.z()});
}

void quad(std::vector<float>& out, QVector3D a, QVector3D b, QVector3D c, QVector3D d, QVector3D n) {
  vertex(out, a, n), vertex(out, b, n), vertex(out, c, n);
  vertex(out, a, n), vertex(out, c, n), vertex(out, d, n);
}

// A surface of revolution about z: profile points (r, z) with their normals (nr, nz).
struct ProfilePoint {
  float r, z, nr, nz;
};
void revolve(std::vector<float>& out, const std::vector<ProfilePoint>& prof, int slices) {
  for (int s = 0; s < slices; ++s) {
    const float a0 = 2 * std::numbers::pi_v<float> * s / slices, a1 = 2 * std::numbers::pi_v<float> * (s + 1) / slices;
    const float c0 = std::cos(a0), s0 = std::sin(a0), c1 = std::cos(a1), s1 = std::sin(a1);
    for (std::size_t k = 0; k + 1 < prof.size(); ++k) {
      const ProfilePoint &p = prof[k], &q = prof[k + 1];
      const QVector3D p0(p.r * c0, p.r * s0, p.z), p1(p.r * c1, p.r * s1, p.z);
      const QVector3D q0(q.r * c0, q.r * s0, q.z), q1(q.r * c1, q.r * s1, q.z);
      const QVector3D np0(p.nr * c0, p.nr * s0, p.nz), np1(p.nr * c1, p.nr * s1, p.nz);
      const QVector3D nq0(q.nr * c0, q.nr * s0, q.nz), nq1(q.nr * c1, q.nr * s1, q.nz);
      vertex(out, p0, np0), vertex(out, p1, np1), vertex(out, q1, nq1);
      vertex(out, p0, np0), vertex(out, q1, nq1), vertex(out, q0, nq0);
    }
  }
}
}  // namespace

std::vector<float> box() {
  std::vector<float> o;
  const float h = 0.5f;
  quad(o, {h, -h, -h}, {h, h, -h}, {h, h, h}, {h, -h, h}, {1, 0, 0});
  quad(o, {-h, h, -h}, {-h, -h, -h}, {-h, -h, h}, {-h, h, h}, {-1, 0, 0});
  quad(o, {h, h, -h}, {-h, h, -h}, {-h, h, h}, {h, h, h}, {0, 1, 0});
  quad(o, {-h, -h, -h}, {h, -h, -h}, {h, -h, h}, {-h, -h, h}, {0, -1, 0});
  quad(o, {-h, -h, h}, {h, -h, h}, {h, h, h}, {-h, h, h}, {0, 0, 1});
  quad(o, {-h, h, -h}, {h, h, -h}, {h, -h, -h}, {-h, -h, -h}, {0, 0, -1});
  return o;
}

std::vector<float> sphere(int slices, int stacks) {
  std::vector<ProfilePoint> prof;
  for (int k = 0; k <= stacks; ++k) {
    const float a = -std::numbers::pi_v<float> / 2 + std::numbers::pi_v<float> * k / stacks;
    prof.push_back({std::cos(a), std::sin(a), std::cos(a), std::sin(a)});
  }
  std::vector<float> o;
  revolve(o, prof, slices);
  return o;
}

std::vector<float> cylinder(int slices) {
  std::vector<float> o;
  revolve(o, {{0, -0.5f, 0, -1}, {1, -0.5f, 0, -1}}, slices);  // bottom cap
  revolve(o, {{1, -0.5f, 1, 0}, {1, 0.5f, 1, 0}}, slices);     // side
  revolve(o, {{1, 0.5f, 0, 1}, {0, 0.5f, 0, 1}}, slices);      // top cap
  return o;
}

std::vector<float> cone(int slices) {
  std::vector<float> o;
  const float n = 1 / std::sqrt(2.0f);
  revolve(o, {{0, 0, 0, -1}, {1, 0, 0, -1}}, slices);
  revolve(o, {{1, 0, n, n}, {0, 1, n, n}}, slices);
  return o;
}

std::vector<float> capsule(float r, float len, int slices, int stacks) {
  std::vector<ProfilePoint> prof;
  for (int k = 0; k <= stacks; ++k) {  // bottom hemisphere
    const float a = -std::numbers::pi_v<float> / 2 + (std::numbers::pi_v<float> / 2) * k / stacks;
    prof.push_back({r * std::cos(a), -len / 2 + r * std::sin(a), std::cos(a), std::sin(a)});
  }
  for (int k = 0; k <= stacks; ++k) {  // top hemisphere (its first point closes the cylinder)
    const float a = (std::numbers::pi_v<float> / 2) * k / stacks;
    prof.push_back({r * std::cos(a), len / 2 + r * std::sin(a), std::cos(a), std::sin(a)});
  }
  std::vector<float> o;
  revolve(o, prof, slices);
  return o;
}

std::vector<float> triangles(const TriangleMesh& m, const TriangleMesh::Part& part) {
  // Face normals, then per corner the average of the normals of the faces at that vertex that lie
  // within 40 degrees of the face's own (a crease angle, as CAD viewers shade).
  const std::uint32_t first = part.first_triangle, count = part.triangle_count;
  std::vector<QVector3D> fn(count);
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> faces_at;  // vertex -> faces of this part
  for (std::uint32_t f = 0; f < count; ++f) {
    const auto& t = m.triangles[first + f];
    const auto p = [&](int k) { return QVector3D(m.vertices[t[k]].x(), m.vertices[t[k]].y(), m.vertices[t[k]].z()); };
    fn[f] = QVector3D::crossProduct(p(1) - p(0), p(2) - p(0));
    const float len = fn[f].length();
    fn[f] = len > 0 ? fn[f] / len : QVector3D(0, 0, 1);
    for (int k = 0; k < 3; ++k) faces_at[t[k]].push_back(f);
  }
  const float crease = std::cos(40.0f * std::numbers::pi_v<float> / 180.0f);
  std::vector<float> out;
  out.reserve(count * 18);
  for (std::uint32_t f = 0; f < count; ++f) {
    const auto& t = m.triangles[first + f];
    for (int k = 0; k < 3; ++k) {
      QVector3D n;
      for (std::uint32_t g : faces_at[t[k]])
        if (QVector3D::dotProduct(fn[g], fn[f]) >= crease) n += fn[g];
      n.normalize();
      const auto& v = m.vertices[t[k]];
      vertex(out, QVector3D(v.x(), v.y(), v.z()), n);
    }
  }
  return out;
}

}  // namespace gapsim::gui::mesh
