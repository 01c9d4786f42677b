#pragma once
// sensors.csv, the scene's sensors sampled during `pivot run` (docs/cli.md "sensors.csv",
// docs/sensors.md): one wide table, `t` then a column `NAME.FIELD` per sensor and field in the
// scene's order, a row at each time at least one sensor sampled, the cells of the sensors not
// sampled then empty. Numbers as fmt's shortest text that reads back to the same double.

#include <filesystem>
#include <string>
#include <vector>

#include "pivot/engine/sensors.hpp"
#include "run_files/run_output.hpp"

namespace pivot::cli {

/// the header of sensors.csv for `sensors`: "t,imu.ax,imu.ay,..."
[[nodiscard]] std::string sensors_header(const SensorSet& sensors);

class SensorWriter {
 public:
  /// opens the file and writes the header
  SensorWriter(const SensorSet& sensors, const std::filesystem::path& file);
  /// a row at time t: the latest values of the sensors that sampled (SensorSet::sampled)
  void write(const SensorSet& sensors, double t);
  void close() { out_.close(); }

 private:
  OutputFile out_;
  std::string row_;
};

/// sensors.csv read back: its columns after t, and per row t and one value per column (NaN for
/// an empty cell: the sensor did not sample then)
struct SensorTable {
  std::vector<std::string> columns;  ///< "NAME.FIELD", in the file's order
  std::vector<std::string> sensor;   ///< each column's NAME
  std::vector<double> times;
  std::vector<std::vector<double>> values;  ///< per column, one per row
};

/// reads sensors.csv strictly: a header "t,NAME.FIELD,...", rows of its width whose t is finite
/// and increasing, each cell a finite number or empty (a
/// sensor's cells all or none), and every row with at least one
/// value; throws pivot::Error naming the file and the line
[[nodiscard]] SensorTable read_sensor_table(const std::filesystem::path& file);

}  // namespace pivot::cli
