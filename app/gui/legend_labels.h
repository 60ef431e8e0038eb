// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// Legend texts for the signals of one plot: the full names with the part all of them share at
/// the front removed, cut at a '/' or ": " boundary and replaced by "…/", so "LKneePitch/q_rad"
/// and "RKneePitch/q_rad" stay whole (they differ in the first letter) while
/// "real.csv: LKneePitch/q_rad" and "real.csv: LKneePitch/tau_Nm" read "…/q_rad" and "…/tau_Nm".
/// The end of a name is never cut: that is where joints and quantities differ.

#include <QString>
#include <QStringList>

namespace gapsim::gui {

/// One label per name, in order. A single name, or names sharing no whole leading component, are
/// returned as they are; names that are all equal too.
QStringList legendLabels(const QStringList& names);

/// The part legendLabels removed ("LKneePitch/", "real.csv: "), shown once before the entries;
/// empty if it removed nothing.
QString legendPrefix(const QStringList& names);

}  // namespace gapsim::gui
