// SPDX-License-Identifier: BSD-3-Clause
// The BIOLOID data package's lean-to-stand layout: the only reader that knows its paths.
#include "calib/lean_to_stand_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "sim/input_error.h"

namespace gapsim::calib {

namespace {

namespace fs = std::filesystem;

/// "0.05-01" -> 0.05 (the step duration in the file name); NaN if the name has no such prefix.
double durationOf(const std::string& stem) {
  const std::size_t dash = stem.rfind('-');
  if (dash == std::string::npos) return std::nan("");
  try {
    std::size_t used = 0;
    const double d = std::stod(stem.substr(0, dash), &used);
    return used == dash && d >= 0 ? d : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

ManifestTrial legacyTrial(const std::string& root, const std::string& recording_path, const std::string& name,
                          bool power_cable) {
  ManifestTrial t;
  const std::string stem = fs::path(recording_path).stem().string();
  t.name = name;
  t.recording = recording_path;
  t.step_duration_s = durationOf(stem);
  if (!std::isfinite(t.step_duration_s))
    throw InputError(recording_path, 0, "file name", "expected <step duration>-<trial>.csv, e.g. 0.05-01.csv");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", t.step_duration_s);
  t.commands = (fs::path(root) / "motions" / "lean-to-stand" / (std::string(buf) + ".csv")).string();
  if (!fs::exists(t.commands))
    throw InputError(recording_path, 0, "motion", "no commanded motion " + t.commands + " for this trial");
  t.initial = InitialPoseSource::kFirstFrame;
  t.hold = CommandHold::kFrames;
  t.whole_ticks = true;  // the ctrl app sent int(ticks) (data README)
  t.measured = leanToStandSignals();
  if (power_cable) t.tags.push_back("withPowerCable");
  return t;
}

void addLegacyTrials(RecordingManifest& m, const fs::path& dir, const std::string& prefix, bool cable) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".csv") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files)
    m.trials.push_back(legacyTrial(m.source, f.string(), prefix + f.stem().string(), cable));
}

fs::path legacyDir(const fs::path& root) { return root / "rising" / "lean-to-stand"; }

}  // namespace

RecordingManifest legacyLeanToStandManifest(const std::string& root) {
  RecordingManifest m;
  m.source = root;
  m.dir = root;
  m.authors_wall = true;
  const fs::path dir = legacyDir(root);
  if (!fs::is_directory(dir))
    throw InputError(root, 0, "--recordings",
                     "neither a recording manifest (a .json file, or a directory holding recordings.json) nor the "
                     "BIOLOID data package (no directory rising/lean-to-stand, expected ../shared/real-data/bioloid)");
  addLegacyTrials(m, dir, "", false);
  if (fs::is_directory(dir / "withPowerCable")) addLegacyTrials(m, dir / "withPowerCable", "withPowerCable/", true);
  if (m.trials.empty()) throw InputError(dir.string(), 0, "", "no recordings (*.csv)");
  return m;
}

bool isLeanToStandPackage(const std::string& dir) {
  return fs::is_directory(legacyDir(dir)) && fs::is_directory(fs::path(dir) / "motions");
}

RecordingManifest leanToStandTrialOf(const std::string& root, const std::string& recording,
                                     const std::string& as_given) {
  const fs::path rel = fs::path(recording).lexically_relative(legacyDir(root));
  if (rel.empty() || *rel.begin() == "..")
    throw InputError(as_given, 0, "", "not a trial of " + root + " (expected rising/lean-to-stand/<dur>-<n>.csv)");
  RecordingManifest m;
  m.source = root;
  m.dir = root;
  m.authors_wall = true;
  m.trials.push_back(legacyTrial(root, recording, (rel.parent_path() / rel.stem()).generic_string(),
                                 rel.parent_path() == "withPowerCable"));
  return m;
}

}  // namespace gapsim::calib
