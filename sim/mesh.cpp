// SPDX-License-Identifier: BSD-3-Clause
#include "sim/mesh.h"

#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <tinyxml2.h>

#include <Eigen/Geometry>
#include <assimp/Importer.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace gapsim {
namespace {

namespace fs = std::filesystem;

/// Convex hull of the mesh's vertices with qhull (reentrant libqhull_r): triangulated output
/// ("Qt"), retried with joggled input ("QJ") when the points are nearly flat. Empty when even
/// that fails (fewer than 4 points, or all on one plane): the mesh then has no volume to collide.
std::vector<std::array<std::uint32_t, 3>> convexHull(const std::vector<Eigen::Vector3f>& v) {
  std::vector<std::array<std::uint32_t, 3>> out;
  if (v.size() < 4) return out;
  std::vector<coordT> pts(v.size() * 3);
  for (size_t i = 0; i < v.size(); ++i)
    for (int k = 0; k < 3; ++k) pts[3 * i + k] = v[i][k];
  for (const char* options : {"qhull Qt", "qhull QJ"}) {
    qhT qh_storage;
    qhT* qh = &qh_storage;
    FILE* err = std::tmpfile();  // qhull reports to a FILE*; a failure is answered by the retry
    qh_zero(qh, err);
    const int rc =
        qh_new_qhull(qh, 3, static_cast<int>(v.size()), pts.data(), False, const_cast<char*>(options), nullptr, err);
    if (rc == 0) {
      facetT* facet;
      FORALLfacets {
        vertexT *vertex, **vertexp;
        std::array<std::uint32_t, 3> t{};
        int k = 0;
        FOREACHvertex_(facet->vertices) {
          if (k < 3) t[k] = static_cast<std::uint32_t>(qh_pointid(qh, vertex->point));
          ++k;
        }
        if (k != 3) continue;
        // Orient counter-clockwise seen from outside (qhull's normal points out).
        const Eigen::Vector3d a = v[t[0]].cast<double>(), b = v[t[1]].cast<double>(), c = v[t[2]].cast<double>();
        const Eigen::Vector3d n(facet->normal[0], facet->normal[1], facet->normal[2]);
        if ((b - a).cross(c - a).dot(n) < 0) std::swap(t[1], t[2]);
        out.push_back(t);
      }
    }
    qh_freeqhull(qh, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(qh, &curlong, &totlong);
    if (err) std::fclose(err);
    if (rc == 0 && !out.empty()) return out;
    out.clear();
  }
  return out;
}

std::shared_ptr<TriangleMesh> readMesh(const std::string& path) {
  Assimp::Importer importer;
  // Coordinates as written (ROS convention), but the COLLADA <unit> applied.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                                     aiProcess_PreTransformVertices | aiProcess_SortByPType);
  if (!scene) throw std::runtime_error(path + ": cannot read mesh: " + importer.GetErrorString());
  auto m = std::make_shared<TriangleMesh>();
  m->path = path;
  for (unsigned mi = 0; mi < scene->mNumMeshes; ++mi) {
    const aiMesh* am = scene->mMeshes[mi];
    if (!(am->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    TriangleMesh::Part part;
    part.first_triangle = static_cast<std::uint32_t>(m->triangles.size());
    const auto base = static_cast<std::uint32_t>(m->vertices.size());
    for (unsigned i = 0; i < am->mNumVertices; ++i)
      m->vertices.emplace_back(am->mVertices[i].x, am->mVertices[i].y, am->mVertices[i].z);
    for (unsigned f = 0; f < am->mNumFaces; ++f) {
      const aiFace& face = am->mFaces[f];
      if (face.mNumIndices != 3) continue;
      m->triangles.push_back({base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]});
    }
    part.triangle_count = static_cast<std::uint32_t>(m->triangles.size()) - part.first_triangle;
    if (am->mMaterialIndex < scene->mNumMaterials) {
      aiColor4D c;
      // Assimp gives every file a default material; only a colour the file states is used.
      const aiMaterial* mat = scene->mMaterials[am->mMaterialIndex];
      aiString name;
      mat->Get(AI_MATKEY_NAME, name);
      const bool is_default = std::string(name.C_Str()) == AI_DEFAULT_MATERIAL_NAME;
      if (!is_default && aiGetMaterialColor(mat, AI_MATKEY_COLOR_DIFFUSE, &c) == AI_SUCCESS) {
        part.has_color = true;
        part.rgba = {c.r, c.g, c.b, c.a};
        float opacity = 1.0f;
        if (aiGetMaterialFloat(mat, AI_MATKEY_OPACITY, &opacity) == AI_SUCCESS) part.rgba[3] *= opacity;
      }
    }
    if (part.triangle_count) m->parts.push_back(part);
  }
  if (m->triangles.empty()) throw std::runtime_error(path + ": the mesh file holds no triangles");
  m->lower = m->upper = m->vertices.front();
  for (const auto& p : m->vertices) {
    m->lower = m->lower.cwiseMin(p);
    m->upper = m->upper.cwiseMax(p);
  }
  m->hull = convexHull(m->vertices);
  return m;
}

bool isDirectory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// The <name> of a ROS package.xml, or "".
/// The package's name: the text of <package><name> in package.xml, parsed as XML so that a
/// <name> inside a comment or another element (an author's, a dependency's) is not taken for it.
std::string packageName(const fs::path& package_xml) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(package_xml.string().c_str()) != tinyxml2::XML_SUCCESS) return "";
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root || std::string(root->Name()) != "package") return "";
  const tinyxml2::XMLElement* name = root->FirstChildElement("name");
  if (!name || !name->GetText()) return "";
  std::string n = name->GetText();
  const auto first = n.find_first_not_of(" \t\r\n"), last = n.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? "" : n.substr(first, last - first + 1);
}

std::vector<fs::path> splitPathList(const char* env) {
  std::vector<fs::path> out;
  if (!env) return out;
  std::stringstream ss(env);
  for (std::string d; std::getline(ss, d, ':');)
    if (!d.empty()) out.emplace_back(d);
  return out;
}

}  // namespace

std::shared_ptr<const TriangleMesh> loadMesh(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const TriangleMesh>> cache;  // key: path + mtime
  std::error_code ec;
  const auto mtime = fs::last_write_time(path, ec);
  const std::string key = path + "@" + std::to_string(ec ? 0 : mtime.time_since_epoch().count());
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(key); it != cache.end())
    if (auto m = it->second.lock()) return m;
  std::shared_ptr<const TriangleMesh> m = readMesh(path);
  cache[key] = m;
  return m;
}

std::string resolveMeshUri(const std::string& uri, const std::string& robot_file, std::vector<std::string>* tried) {
  auto accept = [&](const fs::path& p) {
    if (tried) tried->push_back(p.string());
    return isFile(p);
  };
  const fs::path robot_dir = fs::absolute(fs::path(robot_file)).parent_path();
  const std::string kPackage = "package://", kFile = "file://";
  if (uri.rfind(kPackage, 0) == 0) {
    const std::string rest = uri.substr(kPackage.size());
    const auto slash = rest.find('/');
    if (slash == std::string::npos) return "";
    const std::string pkg = rest.substr(0, slash), inner = rest.substr(slash + 1);
    std::vector<fs::path> roots;
    for (const fs::path& d : splitPathList(std::getenv("ROS_PACKAGE_PATH"))) {
      if (d.filename() == pkg) roots.push_back(d);
      roots.push_back(d / pkg);
    }
    for (const fs::path& d : splitPathList(std::getenv("AMENT_PREFIX_PATH"))) roots.push_back(d / "share" / pkg);
    for (fs::path d = robot_dir; !d.empty(); d = d.parent_path()) {
      if (d.filename() == pkg) roots.push_back(d);
      if (isDirectory(d / pkg)) roots.push_back(d / pkg);
      if (packageName(d / "package.xml") == pkg) roots.push_back(d);
      if (d == d.parent_path()) break;
    }
    for (const fs::path& r : roots)
      if (accept(r / inner)) return (r / inner).lexically_normal().string();
    return "";
  }
  fs::path p = uri.rfind(kFile, 0) == 0 ? fs::path(uri.substr(kFile.size())) : fs::path(uri);
  if (p.is_relative()) p = robot_dir / p;
  return accept(p) ? p.lexically_normal().string() : "";
}

}  // namespace gapsim
