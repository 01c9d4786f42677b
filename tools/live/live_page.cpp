#include "live/live_page.hpp"

#include <nlohmann/json.hpp>

#include "pivot/version.hpp"
#include "replay/viewer_bundle.hpp"
#include "run_files/run_output.hpp"

namespace pivot::cli {

std::string live_page(std::string_view scene_name) {
  const std::string title = xml_text(scene_name);
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"pivot " +
      std::string(kVersion) + "\">\n<title>" + title + " - Pivot live</title>\n</head>\n<body>\n";
  if (kViewerBundle.empty()) {
    page += "<p>The viewer is unavailable: " + xml_text(kViewerUnavailable) +
            "</p>\n<p>The WebSocket at /ws serves the run all the same.</p>\n";
  } else {
    // the marker the viewer looks for (viewer/src/main.js): live mode, and where to connect
    page += "<noscript>The viewer needs JavaScript.</noscript>\n"
            "<script type=\"application/json\" id=\"pivot-live\">{\"ws\": \"/ws\"}</script>\n"
            "<script>" +
            std::string(kViewerBundle) + "</script>\n";
  }
  page += "</body>\n</html>\n";
  return page;
}

}  // namespace pivot::cli
