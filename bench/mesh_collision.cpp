// SPDX-License-Identifier: BSD-3-Clause
// What colliding the Nao's feet as meshes costs per step: the shipped Nao walks its
// 200 mm/s walk at the defaults three times: with its box feet (B-Human's primitives), with a
// Nao-like foot mesh of 640 triangles (bench/data/nao_foot_l.stl, make_nao_foot.py; the right foot
// mirrored by scale 1 -1 1) collided as its convex hull, and with that hull reduced to the box's 8
// corners (the cheapest mesh). Prints the collision time and the whole step per step.
// Usage: bench_mesh_collision [robots dir] [foot stl]
#include <cstdio>
#include <memory>
#include <string>

#include "sim/ankle_balance.h"
#include "sim/mesh.h"
#include "sim/motion_readers.h"
#include "sim/runner.h"
#include "sim/urdf_parser.h"

using namespace gapsim;

namespace {

struct Figures {
  double collide_us = 0, step_us = 0, distance_m = 0, max_tilt_deg = 0;
  int contacts_per_step = 0;
  bool fell = false;
};

Figures walk(std::shared_ptr<const RobotModel> m, const Motion& motion) {
  SimOptions options;
  options.profile = true;
  Simulation sim(m, options);
  RunConfig cfg;
  cfg.duration_s = motion.duration_s() + 1.0;
  cfg.balance = motionController(motion);
  const RunSummary s = runMotion(sim, &motion, cfg, nullptr);
  const StageTimes& t = sim.stageTimes();
  return {1e6 * t.collide_s / t.steps, 1e6 * t.total_s / t.steps, s.distance_m, s.max_tilt_deg, 0,
          s.fall_time_s.has_value()};
}

/// The model with each foot's box replaced by `mesh` at the box's centre (right foot mirrored).
std::shared_ptr<const RobotModel> withMeshFeet(const RobotModel& nao, std::shared_ptr<const TriangleMesh> mesh) {
  RobotModel m = nao;
  for (const char* name : {"l_ankle", "r_ankle"}) {
    Link& l = m.links[m.linkIndex(name)];
    for (Geometry& g : l.collisions) {
      if (g.type != Geometry::Type::Box) continue;
      g.type = Geometry::Type::Mesh;
      g.mesh = mesh;
      g.mesh_scale = Eigen::Vector3d(1, name[0] == 'r' ? -1 : 1, 1);
    }
  }
  return std::make_shared<const RobotModel>(std::move(m));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string robots = argc > 1 ? argv[1] : GAPSIM_DEFAULT_ROBOTS_DIR;
  const std::string foot = argc > 2 ? argv[2] : std::string(GAPSIM_BENCH_DATA_DIR) + "/nao_foot_l.stl";
  const RobotModel nao = loadRobotFile(robots + "/nao/nao.urdf");
  const Motion motion = readMotionCsv(robots + "/nao/motions/walk_200mm_s_1s.csv");
  auto mesh = loadMesh(foot);
  // The box as a mesh: its 8 corners (what a hull-simplified foot costs at the least).
  auto box = std::make_shared<TriangleMesh>();
  const double bx = 0.075, by = 0.0375, bz = 0.015;
  for (int c = 0; c < 8; ++c) box->vertices.emplace_back(c & 1 ? bx : -bx, c & 2 ? by : -by, c & 4 ? bz : -bz);
  box->hull = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
               {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  std::size_t hull_vertices = 0;
  {
    std::vector<bool> seen(mesh->vertices.size(), false);
    for (const auto& t : mesh->hull)
      for (auto v : t) hull_vertices += !seen[v], seen[v] = true;
  }
  std::printf("Nao walk_200mm_s_1s at the defaults, per 1 ms step (one core):\n");
  std::printf("  %-34s %12s %12s %10s %10s\n", "feet", "collide_us", "step_us", "dist_m", "tilt_deg");
  auto row = [&](const char* name, const Figures& f) {
    std::printf("  %-34s %12.2f %12.2f %10.3f %10.2f%s\n", name, f.collide_us, f.step_us, f.distance_m, f.max_tilt_deg,
                f.fell ? "  (fell)" : "");
  };
  row("boxes (primitives)", walk(std::make_shared<const RobotModel>(nao), motion));
  char label[96];
  std::snprintf(label, sizeof label, "mesh hull (%zu tris, %zu hull verts)", mesh->triangles.size(), hull_vertices);
  row(label, walk(withMeshFeet(nao, mesh), motion));
  row("mesh hull = the box's 8 corners", walk(withMeshFeet(nao, box), motion));
  return 0;
}
