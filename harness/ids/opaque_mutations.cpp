// Negative forms of an id in a format the identifier module does not know
// (integers, nanoid, base64url, hex hashes: a field that kept its format
// before DATA-ID-001, or a target that does not mint UUIDs). Only forms that
// cannot be another valid id of the same format are made: the case of its
// letters, padding, wrapping, and (for non-numeric ids) one character short
// or long. A numeric id is never shortened or lengthened (12 -> 1 is another
// live entity), it gets a leading zero and a decimal point instead.
#include "ids/ids.hpp"

namespace idconform::ids {

std::vector<Mutation> opaque_mutations(std::string_view text) {
    std::vector<Mutation> out;
    if (text.empty()) return out;
    const std::string s(text);
    const bool numeric = s.find_first_not_of("0123456789") == std::string::npos;
    auto upper = [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; };
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    std::string up = s, low = s, flipped = s;
    for (char& c : up) c = upper(c);
    for (char& c : low) c = lower(c);
    for (char& c : flipped) c = c >= 'a' && c <= 'z' ? upper(c) : lower(c);
    if (up != s) out.push_back({"upper-case", up, "case: letters upper-cased (a case-insensitive lookup normalises the id)"});
    if (low != s) out.push_back({"lower-case", low, "case: letters lower-cased (a case-insensitive lookup normalises the id)"});
    if (flipped != s && flipped != up && flipped != low)
        out.push_back({"swapped-case", flipped, "case: the case of every letter swapped"});
    out.push_back({"padded-spaces", " " + s + " ", "padding: surrounding whitespace (trimming normalises the id)"});
    out.push_back({"braces", "{" + s + "}", "wrapping: braces"});
    out.push_back({"quoted", "\"" + s + "\"", "wrapping: double quotes"});
    if (numeric) {
        out.push_back({"leading-zero", "0" + s, "padding: a leading zero (a numeric lookup normalises the id)"});
        out.push_back({"decimal-point", s + ".0", "form: a decimal number (a numeric lookup normalises the id)"});
    } else {
        if (s.size() > 1) out.push_back({"one-char-short", s.substr(0, s.size() - 1), "length: one character short"});
        out.push_back({"one-char-long", s + s.back(), "length: one character long"});
    }
    return out;
}

}  // namespace idconform::ids
