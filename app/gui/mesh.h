// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Triangle meshes of the collision primitives, as interleaved (position, normal) floats, 6 per
/// vertex, 3 vertices per triangle. Unit shapes are scaled per instance; a capsule is built at its
/// size because its caps must stay round.

#include <vector>

#include "sim/mesh.h"

namespace gapsim::gui::mesh {

std::vector<float> box();                                     ///< [-0.5, 0.5]^3
std::vector<float> sphere(int slices = 24, int stacks = 14);  ///< radius 1
std::vector<float> cylinder(int slices = 24);                 ///< radius 1, z in [-0.5, 0.5], capped
std::vector<float> cone(int slices = 24);                     ///< base radius 1 at z = 0, tip at z = 1
std::vector<float> capsule(float radius, float length, int slices = 24, int stacks = 8);  ///< along z
/// The triangles of one part of a robot-file mesh (sim/mesh.h), unscaled, with smooth normals where
/// neighbouring faces meet at less than 40 degrees and sharp edges elsewhere (CAD meshes have both).
std::vector<float> triangles(const TriangleMesh& m, const TriangleMesh::Part& part);

}  // namespace gapsim::gui::mesh
