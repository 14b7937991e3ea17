// Case expansion: which cases of a suite run (tags, --filter) and what each
// stands for (for_each over a count, a vector set or the mutations of a
// captured id; requires:, skip:). An element of a vector set is kept as a
// pointer to its vector until the case runs (see element()): 100,000 cases
// then hold no copies of names and values.
#pragma once

#include "core/result.hpp"
#include "runner/runner.hpp"
#include "runner/scope.hpp"
#include "suite/model.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::runner {

// A case after expansion: the case and, for for_each, one element's bindings.
// An element of a vector set is kept as a pointer to its vector until the case
// runs (see element()): 100,000 cases then hold no copies of names and values.
struct Expanded {
    const suite::Case* c = nullptr;
    std::string name;
    std::vector<std::pair<std::string, boost::json::value>> bindings;
    std::vector<Property> properties;
    std::string pre_error;   // expansion failed: reported as an error
    std::string pre_skip;    // reported as skipped
    SkipCause pre_skip_cause = SkipCause::none;  // why, with pre_skip
    const suite::Vector* vector = nullptr;  // set: name, bindings and properties not filled yet
};

class SendCheck;  // runner/send_check.hpp

// Appends the cases `c` stands for that the options select (--filter,
// --tags, --exclude-tags); adds those they leave out to `*filtered_out`.
// `check` (the suite's transports, if given) says which values their typed
// fields cannot hold: a case of such a value is skipped, saying why.
void expand(const RunOptions& opts, const suite::Suite& s, const suite::Case& c, const Scope& scope,
            std::vector<Expanded>& out, std::size_t* filtered_out = nullptr, const SendCheck* check = nullptr);

// Whether the run selects cases by name or tag at all.
[[nodiscard]] bool selects(const RunOptions& opts) noexcept;
// Whether the options can select any case of `s`, told before its setup
// runs: the names of a for_each over the mutations of a live id are known
// only after it, so such a case counts when the filter can match a name
// "NAME [..."). A suite for which this is false runs nothing, not even its
// setup, and creates nothing.
[[nodiscard]] bool may_select_any(const RunOptions& opts, const suite::Suite& s);
// Which of `suites` a run with these options starts, told before any setup:
// every one without a selection; with one, a suite that has a selectable
// case, and a preflight suite when any other suite runs. The engine, the
// dry run and the environment check all go by this.
[[nodiscard]] std::vector<bool> suites_selected(const std::vector<suite::Suite>& suites, const RunOptions& opts);
// The same for one case of `s`.
[[nodiscard]] bool may_select(const RunOptions& opts, const suite::Suite& s, const suite::Case& c);
// The cases of a suite not run at all because nothing in it was selected,
// counted without its setup (a for_each over mutations: as many as a UUID
// has, less its `except:`).
[[nodiscard]] std::size_t unselected_count(const suite::Suite& s);

// The case `e` stands for, with its name, bindings and properties: `e`
// itself, or (a vector element kept as a pointer) `scratch` filled in.
[[nodiscard]] const Expanded& element(const Expanded& e, Expanded& scratch);

// A case's element whose id the case made anew (`fresh:`): the mutation
// named `name` of a for_each over mutations, made again from the id `f.set`
// now names in `scope` and bound there in place of the suite's one. Returns
// "" when bound (or nothing to rebind); else why not, `*not_applicable` set
// when the new id does not admit the mutation (the element is then skipped).
[[nodiscard]] std::string rebind_mutation(const suite::ForEach& f, const std::string& name, Scope& scope,
                                          bool* not_applicable);

// The number of testcases of a run when it is known before the run, else 0
// (for_each over the mutations of a captured id, filters and tags).
[[nodiscard]] std::size_t known_case_count(const std::vector<suite::Suite>& suites, const RunOptions& options);

}  // namespace idconform::runner
