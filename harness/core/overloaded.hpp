// `overloaded{...}`: one visitor made of lambdas, for std::visit over the
// step kinds (suite::StepRequest) and other closed sets of alternatives.
#pragma once

namespace idconform {

template <class... Fs>
struct overloaded : Fs... {
    using Fs::operator()...;
};
template <class... Fs>
overloaded(Fs...) -> overloaded<Fs...>;

}  // namespace idconform
