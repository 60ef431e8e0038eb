// SPDX-License-Identifier: GPL-3.0-or-later
// gapsim: the desktop application. See scripted_run.h for the command line.
#include <QApplication>
#include <QCoreApplication>
#include <QSettings>
#include <QSurfaceFormat>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "app/gui/main_window.h"
#include "app/gui/plot_widget.h"
#include "app/gui/scripted_run.h"

int main(int argc, char** argv) {
  const char* platform = std::getenv("QT_QPA_PLATFORM");
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!platform || !*platform) && (!display || !*display) && (!wayland || !*wayland)) {
    // --help (and a command line error) needs no window: answer it as on a desktop.
    QCoreApplication core(argc, argv);
    int code = 0;
    if (!gapsim::gui::parseOptions(QCoreApplication::arguments(), code)) return code;
    std::cerr << "gapsim: no display ($DISPLAY and $WAYLAND_DISPLAY are empty). Run it on a desktop, under\n"
                 "  xvfb-run -a -s \"-screen 0 1600x1000x24\" gapsim ...   (headless, e.g. with --screenshot), or\n"
                 "use the headless front end: gapsim-cli demo\n";
    return 1;
  }
  // OpenGL 3.3 core for the shaders in shaders/; stencil for the shadow; set before QApplication.
  QSurfaceFormat fmt;
  fmt.setVersion(3, 3);
  fmt.setProfile(QSurfaceFormat::CoreProfile);
  fmt.setDepthBufferSize(24);
  fmt.setStencilBufferSize(8);
  fmt.setSamples(qEnvironmentVariableIntValue("GAPSIM_GL_SAMPLES"));  // MSAA costs llvmpipe dearly; off by default
  QSurfaceFormat::setDefaultFormat(fmt);
  QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("gapsim");
  QApplication::setApplicationName("gapsim");

  int code = 0;
  const auto options = gapsim::gui::parseOptions(QApplication::arguments(), code);
  if (!options) return code;
  gapsim::gui::Options o = *options;
  const bool scripted = o.scripted();
  if (o.robot.isEmpty()) o.robot = scripted ? "nao" : QSettings().value("lastRobot", "nao").toString();

  gapsim::gui::PlotWidget::setUseOpenGL(o.plot_opengl);
  gapsim::gui::MainWindow window(!scripted);
  if (scripted)
    window.resize(o.width, o.height);
  else if (window.size().width() < 400)
    window.resize(1280, 800);  // the first start; frame rates per size: docs/gui.md#frame-rate
  window.show();
  gapsim::gui::ScriptedRun run(&window, o);
  QObject::connect(&run, &gapsim::gui::ScriptedRun::finished, &app, [](int c) { QApplication::exit(c); });
  if (!run.start()) {
    if (scripted) return 2;
    if (o.robot != "nao") window.openRobot("nao");  // a bad remembered robot must not lock the user out
  }
  return QApplication::exec();
}
