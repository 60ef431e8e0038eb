// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// A BIOLOID keyframe controller (sim/keyframe_controller.h, paper 001) as a table: one row per
/// keyframe with its time from the previous one d_k, its time from the start t_k, and the
/// right-leg target of every mirrored joint in degrees (the left leg follows by the mirror).

#include <QTableWidget>

#include "sim/keyframe_controller.h"

namespace gapsim::gui {

class KeyframeTable : public QTableWidget {
  Q_OBJECT
 public:
  explicit KeyframeTable(QWidget* parent = nullptr);
  void showController(const KeyframeController& c);
};

}  // namespace gapsim::gui
