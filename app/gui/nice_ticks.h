// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// \file
/// "Nice numbers" for plot axes (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990):
/// the tick step is 1, 2 or 5 x 10^n, the smallest such step that puts at most `max_ticks` ticks
/// on the range, and the ticks sit on multiples of the step. A label is printed with exactly the
/// decimals the step needs: a step of 0.002 gives "0.004", "0.006", never "0.00529" or "9.91e-05".
/// Steps below 1e-4 or above 1e5 are printed in scientific notation with the step's mantissa
/// digits ("2e-05", "4e-05").

#include <QString>
#include <QStringList>
#include <vector>

class QCategoryAxis;

namespace gapsim::gui {

/// The step 1, 2 or 5 x 10^n for [lo, hi] with at most max_ticks ticks (max_ticks >= 2); 0 if
/// the range is empty or not finite.
double niceStep(double lo, double hi, int max_ticks);

/// The printf format of the labels of an axis over [lo, hi] with this step: "%.Nf" with the
/// step's decimals, or "%.Ne" with the mantissa digits the step needs on this range.
QString niceLabelFormat(double lo, double hi, double step);

/// The tick values (multiples of step) inside [lo, hi].
std::vector<double> niceTicks(double lo, double hi, double step);

/// The label of tick v with that format (a tick at zero, or within 1e-9 steps of it, prints as 0,
/// never "-0.00").
QString niceLabel(double v, double step, const QString& format);

/// Puts the axis's ticks, grid lines and labels at multiples of a nice step for its current range
/// with at most max_ticks ticks. A category axis with labels on the values, so the drawn text is
/// exactly niceLabel's (Qt Charts' own dynamic ticks add the step repeatedly and can print
/// "-0.00" at zero).
void applyNiceTicks(QCategoryAxis* axis, int max_ticks);

/// The labels the axis draws.
QStringList axisTickLabels(const QCategoryAxis& axis);

}  // namespace gapsim::gui
