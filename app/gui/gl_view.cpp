// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/gl_view.h"

#include <QGuiApplication>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QQuaternion>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <map>

#include "app/gui/mesh.h"

// The shaders are compiled into gapsim_gui, a static library: its resources need an explicit init.
static void initGapsimResources() { Q_INIT_RESOURCE(gapsim); }

namespace gapsim::gui {

namespace {
QMatrix4x4 toQt(const Eigen::Isometry3d& iso) {
  const Eigen::Matrix4f m = iso.matrix().cast<float>();
  return QMatrix4x4(m.data()).transposed();  // Eigen is column-major, QMatrix4x4(float*) row-major
}

// Two greys and an accent, alternated along the kinematic tree as on a Nao's shell.
QVector4D linkColor(const RobotModel& m, int link) {
  static const QVector4D kLight(0.90f, 0.90f, 0.92f, 1), kDark(0.42f, 0.47f, 0.56f, 1), kAccent(0.95f, 0.55f, 0.20f, 1);
  if (link == m.root_link) return kAccent;
  int depth = 0;
  for (int l = link; l != m.root_link && depth < 64; ++depth) {
    int parent = -1;
    for (const Joint& j : m.joints)
      if (j.child == l) parent = j.parent;
    if (parent < 0) break;
    l = parent;
  }
  return depth % 2 ? kLight : kDark;
}

constexpr QVector4D kComColor(0.85f, 0.10f, 0.10f, 1), kContactColor(0.10f, 0.65f, 0.20f, 1),
    kForceColor(0.15f, 0.35f, 0.90f, 1), kAxisColor(0.95f, 0.80f, 0.10f, 1), kShadowColor(0.05f, 0.05f, 0.08f, 0.45f),
    kSceneColor(0.62f, 0.52f, 0.40f,
                0.4f);  // static boxes (walls, seats): wood, translucent so the robot shows through
}  // namespace

bool GlView::platformSupportsOpenGL() {
  const QString p = QGuiApplication::platformName();
  if (p == "offscreen" || p == "minimal" || p == "vnc" || p == "linuxfb") return false;
  QOpenGLContext probe;
  return probe.create();
}

GlView::GlView() : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate) {
  initGapsimResources();
  setMinimumSize(QSize(320, 240));
}

GlView::~GlView() {
  if (!context()) return;  // never initialised (hidden, or no OpenGL)
  makeCurrent();
  meshes_.clear();
  grid_quad_.vao.destroy();
  grid_quad_.vbo.destroy();
  mesh_prog_.reset();
  grid_prog_.reset();
  doneCurrent();
}

void GlView::setRobot(std::shared_ptr<const RobotModel> model, const Frame& initial) {
  model_ = std::move(model);
  frame_ = initial;
  items_dirty_ = true;
  // Height of the robot: the top of its highest shape (centre + largest half extent) above the
  // ground or its lowest shape, whichever is lower.
  float zmin = 0.0f, zmax = 0.05f;
  for (std::size_t l = 0; l < model_->links.size() && l < frame_.links.size(); ++l) {
    const Link& link = model_->links[l];
    for (const Geometry& g : link.visuals.empty() ? link.collisions : link.visuals) {
      // Corners of the shape's local bounding box, in the world.
      const Eigen::Vector3f s = g.size_m.cast<float>();
      QVector3D lo, hi;
      if (g.type == Geometry::Type::Mesh) {
        if (!g.mesh) continue;
        const Eigen::Vector3f a = g.mesh->lower.cwiseProduct(g.mesh_scale.cast<float>()),
                              b = g.mesh->upper.cwiseProduct(g.mesh_scale.cast<float>());
        lo = QVector3D(std::min(a.x(), b.x()), std::min(a.y(), b.y()), std::min(a.z(), b.z()));
        hi = QVector3D(std::max(a.x(), b.x()), std::max(a.y(), b.y()), std::max(a.z(), b.z()));
      } else {
        hi = g.type == Geometry::Type::Box      ? QVector3D(s.x(), s.y(), s.z()) / 2
             : g.type == Geometry::Type::Sphere ? QVector3D(s.x(), s.x(), s.x())
                                                : QVector3D(s.x(), s.x(), s.y() / 2 + s.x());
        lo = -hi;
      }
      const QMatrix4x4 m = linkMatrix(static_cast<int>(l)) * toQt(g.origin);
      for (int c = 0; c < 8; ++c) {
        const float z = m.map(QVector3D(c & 1 ? hi.x() : lo.x(), c & 2 ? hi.y() : lo.y(), c & 4 ? hi.z() : lo.z())).z();
        zmin = std::min(zmin, z), zmax = std::max(zmax, z);
      }
    }
  }
  robot_height_m_ = std::max(0.1f, zmax - zmin);
  resetCamera();
}

void GlView::setFrame(const Frame& frame) {
  frame_ = frame;
  if (follow_) {
    const QVector3D p = followPoint();
    camera_.target.setX(p.x());
    camera_.target.setY(p.y());
  }
  update();
}

void GlView::setFollow(bool on) {
  if (follow_ == on) return;
  follow_ = on;
  if (on) setFrame(frame_);
  emit followChanged(on);
}

void GlView::resetCamera() {
  const QVector3D p = followPoint();
  camera_ = OrbitCamera();
  camera_.frame(QVector3D(p.x(), p.y(), 0), robot_height_m_);
  update();
}

QVector3D GlView::followPoint() const {
  if (!model_ || frame_.links.empty()) return {};
  int link = model_->imus.empty() ? model_->root_link : model_->imus.front().link;
  if (model_->fixed_base) {  // the root is the world: follow the centre of mass instead
    return {frame_.com_m[0], frame_.com_m[1], frame_.com_m[2]};
  }
  const PoseF& p = frame_.links[static_cast<std::size_t>(link)];
  return {p.p[0], p.p[1], p.p[2]};
}

QMatrix4x4 GlView::linkMatrix(int link) const {
  QMatrix4x4 m;
  if (link < 0 || static_cast<std::size_t>(link) >= frame_.links.size()) return m;
  const PoseF& p = frame_.links[static_cast<std::size_t>(link)];
  m.translate(p.p[0], p.p[1], p.p[2]);
  m.rotate(QQuaternion(p.q[0], p.q[1], p.q[2], p.q[3]));
  return m;
}

void GlView::initializeGL() {
  initializeOpenGLFunctions();
  gl_info_ = QStringLiteral("OpenGL %1, %2")
                 .arg(reinterpret_cast<const char*>(glGetString(GL_VERSION)),
                      reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  auto build = [&](std::unique_ptr<QOpenGLShaderProgram>& prog, const char* vs, const char* fs) {
    prog = std::make_unique<QOpenGLShaderProgram>();
    if (!prog->addShaderFromSourceFile(QOpenGLShader::Vertex, vs) ||
        !prog->addShaderFromSourceFile(QOpenGLShader::Fragment, fs) || !prog->link()) {
      gl_info_ += QStringLiteral("; shader error: ") + prog->log();
      qWarning("gapsim: %s", qPrintable(gl_info_));
      return false;
    }
    return true;
  };
  gl_ok_ = build(mesh_prog_, ":/shaders/mesh.vert", ":/shaders/mesh.frag") &&
           build(grid_prog_, ":/shaders/grid.vert", ":/shaders/grid.frag");
  meshes_.clear();
  upload(mesh::box());
  upload(mesh::sphere());
  upload(mesh::cylinder());
  upload(mesh::cone());
  base_meshes_ = meshes_.size();
  const float corners[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
  grid_quad_.vao.create();
  grid_quad_.vao.bind();
  grid_quad_.vbo.create();
  grid_quad_.vbo.bind();
  grid_quad_.vbo.allocate(corners, sizeof corners);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
  grid_quad_.vao.release();
  grid_quad_.vertices = 6;
  items_dirty_ = true;
  fps_timer_.start();
}

int GlView::upload(const std::vector<float>& v) {
  auto m = std::make_unique<GpuMesh>();
  m->vao.create();
  m->vao.bind();
  m->vbo.create();
  m->vbo.bind();
  m->vbo.allocate(v.data(), static_cast<int>(v.size() * sizeof(float)));
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
  m->vao.release();
  m->vertices = static_cast<int>(v.size() / 6);
  meshes_.push_back(std::move(m));
  return static_cast<int>(meshes_.size() - 1);
}

void GlView::buildItems() {
  items_.clear();
  meshes_.resize(base_meshes_);  // drop the capsules of the previous robot
  items_dirty_ = false;
  if (!model_) return;
  // Each part of each mesh file is uploaded once, however many links draw it.
  std::map<std::pair<const TriangleMesh*, std::size_t>, int> uploaded;
  for (std::size_t l = 0; l < model_->links.size(); ++l) {
    const Link& link = model_->links[l];
    const auto& shapes = link.visuals.empty() ? link.collisions : link.visuals;
    for (const Geometry& g : shapes) {
      Item it;
      it.link = static_cast<int>(l);
      // The file's <material> colour, else the mesh's own, else the greys of the kinematic tree.
      it.color = g.has_color ? QVector4D(g.rgba.x(), g.rgba.y(), g.rgba.z(), g.rgba.w()) : linkColor(*model_, it.link);
      it.local = toQt(g.origin);
      const auto s = g.size_m.cast<float>();
      switch (g.type) {
        case Geometry::Type::Box:
          it.mesh = kBox, it.local.scale(s.x(), s.y(), s.z());
          it.closed = s.minCoeff() > 0;  // a negative size would turn it inside out
          break;
        case Geometry::Type::Sphere:
          it.mesh = kSphere, it.local.scale(s.x());
          it.closed = s.x() > 0;
          break;
        case Geometry::Type::Cylinder:
          it.mesh = kCylinder, it.local.scale(s.x(), s.x(), s.y());
          it.closed = s.x() > 0 && s.y() > 0;
          break;
        case Geometry::Type::Capsule:
          it.mesh = upload(mesh::capsule(s.x(), s.y()));
          it.closed = s.x() > 0 && s.y() >= 0;
          break;
        case Geometry::Type::Mesh: {
          if (!g.mesh) continue;  // the loader replaced missing meshes by boxes
          const Eigen::Vector3f sc = g.mesh_scale.cast<float>();
          it.local.scale(sc.x(), sc.y(), sc.z());
          for (std::size_t p = 0; p < g.mesh->parts.size(); ++p) {
            const TriangleMesh::Part& part = g.mesh->parts[p];
            auto [at, fresh] = uploaded.try_emplace({g.mesh.get(), p}, -1);
            if (fresh) at->second = upload(mesh::triangles(*g.mesh, part));
            Item pi = it;
            pi.mesh = at->second;
            if (!g.has_color && part.has_color)
              pi.color = QVector4D(part.rgba.x(), part.rgba.y(), part.rgba.z(), part.rgba.w());
            items_.push_back(pi);
          }
          continue;
        }
      }
      items_.push_back(it);
    }
  }
}

void GlView::resizeGL(int, int) {}

void GlView::drawMesh(int mesh, const QMatrix4x4& model, const QVector4D& color, bool unlit) {
  GpuMesh& m = *meshes_[static_cast<std::size_t>(mesh)];
  mesh_prog_->setUniformValue("u_model", model);
  mesh_prog_->setUniformValue("u_normalMat", model.normalMatrix());
  mesh_prog_->setUniformValue("u_color", color);
  mesh_prog_->setUniformValue("u_unlit", unlit);
  m.vao.bind();
  glDrawArrays(GL_TRIANGLES, 0, m.vertices);
  m.vao.release();
}

void GlView::drawArrow(const QVector3D& from, const QVector3D& to, float radius, const QVector4D& color) {
  const QVector3D d = to - from;
  const float len = d.length();
  if (len < 1e-6f) return;
  const QQuaternion rot = QQuaternion::rotationTo(QVector3D(0, 0, 1), d / len);
  const float head = std::min(len * 0.35f, radius * 5);
  QMatrix4x4 shaft;
  shaft.translate(from + d / len * (len - head) / 2);
  shaft.rotate(rot);
  shaft.scale(radius, radius, len - head);
  drawMesh(kCylinder, shaft, color);
  QMatrix4x4 tip;
  tip.translate(from + d / len * (len - head));
  tip.rotate(rot);
  tip.scale(radius * 2.2f, radius * 2.2f, head);
  drawMesh(kCone, tip, color);
}

void GlView::drawRobot(bool shadow) {
  // Culling the back faces of closed shapes halves what software OpenGL rasterises for the robot;
  // meshes from files may be open or wound either way and stay two-sided.
  for (const Item& it : items_) {
    if (it.closed)
      glEnable(GL_CULL_FACE);
    else
      glDisable(GL_CULL_FACE);
    drawMesh(it.mesh, linkMatrix(it.link) * it.local, shadow ? kShadowColor : it.color, shadow);
  }
  glDisable(GL_CULL_FACE);
}

void GlView::setGhost(std::vector<PoseF> links, std::vector<QVector4D> colors) {
  ghost_links_ = std::move(links), ghost_colors_ = std::move(colors);
  update();
}

void GlView::drawScene() {
  if (!model_) return;
  for (const SceneBox& b : model_->scene_boxes) {
    QMatrix4x4 m = toQt(b.pose);
    m.scale(float(b.size_m.x()), float(b.size_m.y()), float(b.size_m.z()));
    drawMesh(kBox, m, kSceneColor);
  }
}

void GlView::drawMarkers() {
  const float s = robot_height_m_;
  glDisable(GL_DEPTH_TEST);  // markers sit inside the bodies: always on top
  if (show_com_) {
    const QVector3D c(frame_.com_m[0], frame_.com_m[1], frame_.com_m[2]);
    QMatrix4x4 m;
    m.translate(c);
    m.scale(0.025f * s);
    drawMesh(kSphere, m, kComColor);
    QMatrix4x4 line;  // plumb line to the ground and its foot point
    line.translate(c.x(), c.y(), c.z() / 2);
    line.scale(0.003f * s, 0.003f * s, std::abs(c.z()));
    drawMesh(kCylinder, line, kComColor, true);
    QMatrix4x4 disc;
    disc.translate(c.x(), c.y(), 0.001f);
    disc.scale(0.03f * s, 0.03f * s, 0.002f);
    drawMesh(kCylinder, disc, kComColor, true);
  }
  if (show_contacts_ && model_) {
    const double weight = std::max(1e-6, model_->totalMass_kg() * 9.81);
    for (std::size_t k = 0; k < model_->foot_contacts.size() && k < frame_.feet.size(); ++k) {
      if (!frame_.feet[k].contact) continue;
      const PoseF& p = frame_.links[static_cast<std::size_t>(model_->foot_contacts[k].link)];
      const QVector3D base(p.p[0], p.p[1], 0.002f);
      QMatrix4x4 disc;
      disc.translate(base);
      disc.scale(0.035f * s, 0.035f * s, 0.003f);
      drawMesh(kCylinder, disc, kContactColor, true);
      // Vertical ground reaction, half the robot's height for its whole weight.
      const float len = float(frame_.feet[k].force_N / weight) * 0.5f * s;
      drawArrow(base, base + QVector3D(0, 0, len), 0.006f * s, kForceColor);
    }
  }
  if (show_axes_ && model_) {
    for (const Joint& j : model_->joints) {
      if (!j.movable()) continue;
      // The child frame sits on the joint and the axis is fixed in it (rotation about the axis).
      const QMatrix4x4 child = linkMatrix(j.child);
      const QVector3D o = child.map(QVector3D(0, 0, 0));
      const QVector3D a = child.mapVector(QVector3D(float(j.axis.x()), float(j.axis.y()), float(j.axis.z())));
      drawArrow(o - a * 0.06f * s, o + a * 0.06f * s, 0.004f * s, kAxisColor);
    }
  }
  glEnable(GL_DEPTH_TEST);
}

void GlView::drawGrid(const QMatrix4x4& vp) {
  const float extent = std::max(8.0f, camera_.distance_m * 12);
  grid_prog_->bind();
  grid_prog_->setUniformValue("u_viewProj", vp);
  grid_prog_->setUniformValue("u_center", QVector2D(camera_.target.x(), camera_.target.y()));
  grid_prog_->setUniformValue("u_extent", extent);
  grid_prog_->setUniformValue("u_eye", camera_.eye());
  grid_quad_.vao.bind();
  glDrawArrays(GL_TRIANGLES, 0, grid_quad_.vertices);
  grid_quad_.vao.release();
}

void GlView::paintGL() {
  QElapsedTimer paint_clock;
  paint_clock.start();
  ++frames_, ++fps_frames_;
  if (fps_timer_.isValid() && fps_timer_.elapsed() > 1000) {
    fps_ = fps_frames_ * 1000.0 / fps_timer_.restart();
    fps_frames_ = 0;
  }
  glClearColor(0.74f, 0.80f, 0.87f, 1.0f);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  if (!gl_ok_) return;
  if (items_dirty_) buildItems();
  const float aspect = float(width()) / std::max(1, height());
  const QMatrix4x4 vp = camera_.projection(aspect) * camera_.view();

  glEnable(GL_BLEND);
  // Colour blends; destination alpha stays 1, so the view and its screenshots stay opaque where
  // the grid fades out and under the shadow.
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  drawGrid(vp);

  mesh_prog_->bind();
  mesh_prog_->setUniformValue("u_viewProj", vp);
  mesh_prog_->setUniformValue("u_lightDir", light_dir_);
  mesh_prog_->setUniformValue("u_eye", camera_.eye());
  if (show_robot_) {
    // Planar shadow: every vertex projected onto z = 0 along the light, p' = p - (p_z / l_z) l.
    // The stencil lets each ground pixel darken once, however many bodies overlap there.
    const QVector3D l = light_dir_;
    flatten_ = QMatrix4x4(1, 0, -l.x() / l.z(), 0,  //
                          0, 1, -l.y() / l.z(), 0,  //
                          0, 0, 0, 0.0005f,         //
                          0, 0, 0, 1);
    mesh_prog_->setUniformValue("u_flatten", flatten_);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_EQUAL, 0, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
    drawRobot(true);
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_DEPTH_TEST);
    mesh_prog_->setUniformValue("u_flatten", QMatrix4x4());
    drawRobot(false);
  }
  mesh_prog_->setUniformValue("u_flatten", QMatrix4x4());
  if (!ghost_links_.empty()) {  // translucent: drawn over the robot, not written to depth
    glDepthMask(GL_FALSE);
    for (const Item& it : items_) {
      const auto l = static_cast<std::size_t>(it.link);
      if (l >= ghost_links_.size() || l >= ghost_colors_.size()) continue;
      QMatrix4x4 m;
      m.translate(ghost_links_[l].p[0], ghost_links_[l].p[1], ghost_links_[l].p[2]);
      m.rotate(QQuaternion(ghost_links_[l].q[0], ghost_links_[l].q[1], ghost_links_[l].q[2], ghost_links_[l].q[3]));
      drawMesh(it.mesh, m * it.local, ghost_colors_[l]);
    }
    glDepthMask(GL_TRUE);
  }
  drawScene();  // after the robot: translucent, it must not hide what stands behind it
  drawMarkers();
  mesh_prog_->release();
  if (qEnvironmentVariableIsSet("GAPSIM_GL_DEBUG")) {
    glFinish();
    qWarning("gapsim: paintGL %dx%d ok=%d items=%zu glError=0x%x %.2f ms", width(), height(), gl_ok_, items_.size(),
             glGetError(), paint_clock.nsecsElapsed() * 1e-6);
  }
}

QImage GlView::grabFramebuffer() {
  if (!context()) return {};
  makeCurrent();
  // An offscreen target of its own: the window's back buffer is undefined after a swap, and a
  // covered or unmapped window has no pixels to read.
  const QSize size_px = size() * devicePixelRatio();
  QOpenGLFramebufferObjectFormat fbo_format;
  fbo_format.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
  fbo_format.setSamples(std::max(0, format().samples()));  // as the window (GAPSIM_GL_SAMPLES); toImage resolves
  QOpenGLFramebufferObject fbo(size_px, fbo_format);
  fbo.bind();
  glViewport(0, 0, size_px.width(), size_px.height());
  paintGL();
  QImage img = fbo.toImage().convertToFormat(QImage::Format_RGB32);  // opaque, as the window shows it
  fbo.release();
  doneCurrent();
  return img;
}

void GlView::mousePressEvent(QMouseEvent* e) { last_mouse_ = e->position().toPoint(); }

void GlView::mouseMoveEvent(QMouseEvent* e) {
  const QPoint p = e->position().toPoint();
  const QPoint d = p - last_mouse_;
  last_mouse_ = p;
  const bool pan = (e->buttons() & (Qt::RightButton | Qt::MiddleButton)) ||
                   ((e->buttons() & Qt::LeftButton) && (e->modifiers() & Qt::ShiftModifier));
  if (pan) {
    camera_.pan(float(d.x()), float(d.y()), height());
    setFollow(false);
  } else if (e->buttons() & Qt::LeftButton) {
    camera_.orbit(float(d.x()), float(d.y()));
  }
  update();
}

void GlView::wheelEvent(QWheelEvent* e) {
  camera_.zoom(e->angleDelta().y() / 120.0f);
  update();
}

void GlView::mouseDoubleClickEvent(QMouseEvent*) { resetCamera(); }

}  // namespace gapsim::gui
