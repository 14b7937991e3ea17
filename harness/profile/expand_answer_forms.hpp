// What the expander makes of the answer forms of real APIs (the profile
// side is load_answer_forms.cpp): a new id named only in an answer header,
// entities addressed at their create answer's Location, reads answering an
// array, fields the create answer lacks. Called from expand.cpp's Instance;
// internal to harness/profile/.
#pragma once

#include "binding/access.hpp"
#include "binding/deletion.hpp"
#include "binding/id_answer.hpp"
#include "binding/operations.hpp"
#include "profile/profile.hpp"
#include "suite/model.hpp"

#include <memory>
#include <vector>

namespace idconform::profile::answer_forms {

// Before the calls are bound: a create call whose id checks judge what its
// answer lacks (a field declared in_create: false, or anything but the id
// when the create answer names the id only in a header) keeps its other
// checks, captures its new id and is followed by a read of that entity that
// judges the moved checks. `vars` are the instance's res.* variables.
void add_read_backs(const Resource& r, const std::vector<suite::Variable>& vars, suite::Suite& s);

// Before the calls are bound: a suite that addresses entities of `r` at a
// Location URL but creates none in its setup (nil-max) gets a setup create,
// so that the URL around another id (Nil, Max) is known.
void add_location_probe(const Resource& r, suite::Suite& s);

// Where the answers of `r` name its id, for the binding's adaptation of
// bound calls (binding/id_answer.hpp).
[[nodiscard]] binding::IdAnswer id_answer(const Resource& r);

// How a request of `op` at endpoint `ep` reaches the entity and reads the
// answer: a `{location}` endpoint goes to the create answer's Location; a
// read answering an array is judged by its one element. Null: as written.
[[nodiscard]] std::shared_ptr<const binding::Access> access_of(const Resource& r, suite::Operation op,
                                                             const Endpoint& ep);

// The id checks and captures of a create of `r` (a setup step made for
// references) read the header the profile names.
void adapt_create_answer(const Resource& r, suite::Step& st);

// Before the calls are bound, for an update whose answer says nothing of
// what it matched (`not_found: {status: 204, empty: true}`, PostgREST's
// filtered PATCH): an update a case expects refused is followed by a read of
// the entity it aimed at, as its owner, which must not hold the update
// body's text, so a 204 that did change the entity fails. One aimed at an id
// no entity has (Nil, Max) changed nothing whatever it answered: no read. A
// refused update with no read, or no text in the update body to look for,
// would pass whatever happened: not applicable, saying so.
// An update a case expects to succeed answers no body either: its checks and
// captures of the answer move to a read of the entity right after it.
void add_unchanged_reads(const Resource& r, suite::Suite& s);

// How an entity of `r` is found after its create and deleted at the end.
void adapt_cleanup(const Resource& r, binding::Deletion& d);

// Last, on an HTTP instance: cases that need what this resource's answers
// do not have (an id in a body for an update body to change, a path
// template where the profile names the Location URL) are reported as not
// applicable, saying why; a call is judged as `b` binds it.
void skip_inapplicable(const Resource& r, const binding::SuiteBinding& b, suite::Suite& s);

}  // namespace idconform::profile::answer_forms
