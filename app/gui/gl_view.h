// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// The 3D view: an OpenGL window drawing the robot's shapes at the poses of the shown Frame with
/// the OpenGL 3.3 core shaders of shaders/ (lit bodies, a grid on the ground, the robot's shadow
/// projected onto the ground along the light), plus optional markers: centre of mass, foot
/// contacts with their vertical force, joint axes. Only draws; owns no simulation state.
///
/// A QOpenGLWindow in a window container (QWidget::createWindowContainer), not a QOpenGLWidget:
/// a QOpenGLWidget draws into a texture that Qt then composes with the whole top-level window's
/// backing store by OpenGL on every frame, and on software OpenGL (llvmpipe) that full-window pass
/// and swap cost more than the scene itself. The window draws straight into its own surface.

#include <QElapsedTimer>
#include <QMatrix4x4>
#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QOpenGLWindow>
#include <QVector4D>
#include <memory>
#include <vector>

#include "app/gui/camera.h"
#include "app/gui/frame.h"
#include "sim/robot_model.h"

namespace gapsim::gui {

class GlView : public QOpenGLWindow, protected QOpenGLExtraFunctions {
  Q_OBJECT
 public:
  GlView();
  ~GlView() override;

  /// False on Qt platforms without OpenGL windows (offscreen, minimal): callers must not show a
  /// GlView there.
  static bool platformSupportsOpenGL();

  /// Shapes of a new robot (visual geometry, else collision geometry); frames the camera on it.
  void setRobot(std::shared_ptr<const RobotModel> model, const Frame& initial);
  void setFrame(const Frame& frame);

  bool showCom() const { return show_com_; }
  bool showContacts() const { return show_contacts_; }
  bool showJointAxes() const { return show_axes_; }
  bool follow() const { return follow_; }
  void setShowCom(bool on) { show_com_ = on, update(); }
  void setShowContacts(bool on) { show_contacts_ = on, update(); }
  void setShowJointAxes(bool on) { show_axes_ = on, update(); }
  void setShowRobot(bool on) { show_robot_ = on, update(); }  ///< off: the empty scene (tests)
  void setFollow(bool on);
  /// A second, translucent robot (ghost_pose.h): one pose and one colour per link; empty: none.
  void setGhost(std::vector<PoseF> links, std::vector<QVector4D> colors);
  const std::vector<PoseF>& ghostLinks() const { return ghost_links_; }
  void resetCamera();
  OrbitCamera& camera() { return camera_; }

  /// paintGL calls per second over the last second.
  double framesPerSecond() const { return fps_; }
  long framesDrawn() const { return frames_; }
  /// The scene at the window's size, drawn into an offscreen framebuffer (what the window shows,
  /// whether or not it is exposed); null before the first initialisation.
  QImage grabFramebuffer();
  /// "OpenGL 4.5 (Core Profile) Mesa ..., llvmpipe" once initialised.
  QString glInfo() const { return gl_info_; }
  /// False (with glInfo() holding the reason) when the shaders failed to build.
  bool glOk() const { return gl_ok_; }

 signals:
  void followChanged(bool on);

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;

 private:
  struct GpuMesh {
    QOpenGLVertexArrayObject vao;
    QOpenGLBuffer vbo{QOpenGLBuffer::VertexBuffer};
    int vertices = 0;
  };
  struct Item {
    int link = -1;
    QMatrix4x4 local;  // geometry origin * size, in the link frame
    int mesh = 0;
    QVector4D color;
    // A closed surface wound counter-clockwise seen from outside (the shapes of mesh.h): its back
    // faces are hidden, and each face set, towards or away from the light, casts the whole shadow.
    bool closed = false;
  };
  enum BaseMesh { kBox, kSphere, kCylinder, kCone, kBaseMeshes };

  int upload(const std::vector<float>& vertices);
  void buildItems();
  void drawMesh(int mesh, const QMatrix4x4& model, const QVector4D& color, bool unlit = false);
  void drawArrow(const QVector3D& from, const QVector3D& to, float radius, const QVector4D& color);
  void drawRobot(bool shadow);
  void drawScene();  ///< the model's static scene boxes (RobotModel::scene_boxes: walls, seats)
  void drawMarkers();
  void drawGrid(const QMatrix4x4& view_proj);
  QMatrix4x4 linkMatrix(int link) const;
  QVector3D followPoint() const;

  std::shared_ptr<const RobotModel> model_;
  Frame frame_;
  std::vector<PoseF> ghost_links_;
  std::vector<QVector4D> ghost_colors_;
  std::vector<Item> items_;
  bool items_dirty_ = false;
  float robot_height_m_ = 0.5f;

  std::vector<std::unique_ptr<GpuMesh>> meshes_;
  std::size_t base_meshes_ = 0;
  std::unique_ptr<QOpenGLShaderProgram> mesh_prog_, grid_prog_;
  GpuMesh grid_quad_;
  QMatrix4x4 flatten_;  // identity or the shadow projection
  bool gl_ok_ = false;
  QString gl_info_;

  OrbitCamera camera_;
  bool follow_ = false, show_com_ = false, show_contacts_ = false, show_axes_ = false, show_robot_ = true;
  QPoint last_mouse_;
  QVector3D light_dir_{0.2f, 0.6f, 1.0f};  // towards the light: the shadow falls to the camera's right

  QElapsedTimer fps_timer_;
  long frames_ = 0, fps_frames_ = 0;
  double fps_ = 0;
};

}  // namespace gapsim::gui
