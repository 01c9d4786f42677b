#include "pivot/scenes/sweep_pointer.hpp"

#include <fmt/core.h>

#include <charconv>
#include <stdexcept>

namespace pivot::detail {

std::vector<std::string> pointer_tokens(const std::string& pointer) {
  std::vector<std::string> tokens;
  try {
    // json_pointer checks the syntax and unescapes ~0 and ~1
    for (nlohmann::json::json_pointer p(pointer); !p.empty(); p.pop_back())
      tokens.insert(tokens.begin(), p.back());
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument("not a JSON pointer (expected /key/0/key...)");
  }
  if (tokens.empty()) throw std::invalid_argument("a parameter cannot replace the whole scene");
  return tokens;
}

std::optional<std::size_t> pointer_array_index(std::string_view token) {
  if (token.empty() || (token.size() > 1 && token.front() == '0')) return std::nullopt;
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return index;
}

ojson& pointer_target(ojson& doc, const std::string& pointer) {
  const std::vector<std::string> tokens = pointer_tokens(pointer);
  ojson* node = &doc;
  std::string at;  // the pointer walked so far, escaped as written
  nlohmann::json::json_pointer walked;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    const bool last = i + 1 == tokens.size();
    const std::string here = at.empty() ? "the scene" : "the scene's " + at;
    walked /= token;
    const std::string next = walked.to_string();
    if (node->is_array()) {
      const std::optional<std::size_t> index = pointer_array_index(token);
      if (!index || *index >= node->size())
        throw std::invalid_argument(
            fmt::format("the scene has no {} ({} is an array of {} elements)", next,
                        at.empty() ? "the scene" : at, node->size()));
      node = &(*node)[*index];
    } else if (node->is_object()) {
      if (!node->contains(token)) {
        if (!last)
          throw std::invalid_argument(fmt::format(
              "the scene has no {} (a parameter may add a key only to an object that exists)",
              next));
        (*node)[token] = nullptr;  // the new key, given its value by the caller
      }
      node = &(*node)[token];
    } else {
      throw std::invalid_argument(
          fmt::format("{} is not an object or an array, so it has no {}", here, next));
    }
    at = next;
  }
  return *node;
}

std::string parameter_cell(const std::string& value_json) {
  const ojson value = ojson::parse(value_json);
  return value.is_string() ? value.get<std::string>() : value_json;
}

}  // namespace pivot::detail
