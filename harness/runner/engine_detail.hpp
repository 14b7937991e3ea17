// Small helpers the engine's two files share (engine.cpp, engine_suites.cpp).
#pragma once

#include <chrono>
#include <csignal>

namespace idconform::runner::detail {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

inline const char* signal_name(int signo) {
    return signo == SIGTERM ? "SIGTERM" : signo == SIGINT ? "SIGINT" : "a signal";
}

}  // namespace idconform::runner::detail
