// `idconform db --sarif FILE`: the audit's findings as SARIF 2.1.0 (GitHub
// code scanning, GitLab), a reporter behind the audit stage like the
// others, so a waived finding is a result with a suppression and a baseline
// sees the same cases. Each result's location is logical: the database
// object (`schema.table.column`, kind "column"; `schema.table`, kind
// "table"; the database, kind "module"), plus the config line that declared
// the column when one did. Failures are level "error", advisory warnings
// "warning"; passed checks and errors of the run are not results (errors
// are the run's toolExecutionNotifications).
#pragma once

#include "reporters/reporter.hpp"

#include <string>
#include <vector>

namespace idconform::db {

class SarifReporter final : public reporters::Reporter {
public:
    SarifReporter(std::string path, std::string tool_version)
        : path_(std::move(path)), tool_version_(std::move(tool_version)) {}
    void case_finished(const CaseResult& c) override;
    bool run_finished(const RunSummary& s, std::string& error) override;
    // The document (run_finished writes it).
    [[nodiscard]] std::string document() const;

private:
    struct Result {
        std::string rule, level, object, message, file;
        int line = 0, column = 0;
        std::string suppression;  // the waiver's words, for a waived finding
    };
    struct Notification {
        std::string object, message;
    };
    std::string path_, tool_version_;
    std::vector<Result> results_;
    std::vector<Notification> errors_;
};

}  // namespace idconform::db
