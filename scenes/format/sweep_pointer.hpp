#pragma once
// Sweeps (internal): a parameter's JSON pointer applied to the base scene's JSON. The pointer
// must name an existing value (replaced) or a new key of an existing object (added); unlike
// `pivot run --set`, no object is created on the way, so a misspelt path is an error, not a
// silently added key that the strict scene reader would then reject far from the sweep file.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pivot::detail {

using ojson = nlohmann::ordered_json;

/// the pointer's unescaped tokens; throws std::invalid_argument with the reason when it is not
/// a JSON pointer (RFC 6901) or is the whole document
std::vector<std::string> pointer_tokens(const std::string& pointer);

/// a token as an array index (RFC 6901 §4: "0" or digits without a leading zero; no sign, no
/// space, "01" is not one); none when it is not one or does not fit a size_t
std::optional<std::size_t> pointer_array_index(std::string_view token);

/// Where the pointer lands in `doc`: the value to replace, or a new key of an existing object.
/// Throws std::invalid_argument naming the part of the pointer that does not exist.
ojson& pointer_target(ojson& doc, const std::string& pointer);

/// a parameter's value as its results.csv cell: a string as itself, anything else as JSON text
std::string parameter_cell(const std::string& value_json);

}  // namespace pivot::detail
