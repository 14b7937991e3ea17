// The man page and the shell completions, written from the CLI11 app tree;
// see help_docs.hpp.
#include "cli/help_docs.hpp"

#include "cli/exit_codes.hpp"

#include "core/diagnostic.hpp"
#include "core/input_file.hpp"
#include "ids/kind.hpp"

#include <iostream>
#include <map>
#include <vector>

namespace idconform::cli {

namespace {

// How a value is completed: from a fixed set, as a path, as a directory, or
// not at all (a number, a duration: nothing to offer).
enum class Complete { none, words, files, dirs };

struct Arg {
    std::vector<std::string> names;  // "-k", "--kind"; empty for a positional
    std::string positional;          // the positional's name ("SUITE_OR_DIR")
    std::string type;                // what --help shows after the names ("TEXT:{full,strict}")
    std::string description;
    std::string default_value;
    std::vector<std::string> values;  // Complete::words
    Complete complete = Complete::none;
    bool takes_value = false;
    bool many = false;  // takes several values, or may be repeated
    bool required = false;
};

struct Command {
    std::string name;
    std::string description;
    std::string footer;  // empty when it is the app's
    std::vector<Arg> options;
    std::vector<Arg> positionals;
};

// The fixed set CLI11 checks (IsMember shows it as "{a,b,c}" in the type).
std::vector<std::string> member_set(const std::string& type) {
    std::vector<std::string> out;
    const auto open = type.find('{');
    const auto close = type.find('}', open);
    if (open == std::string::npos || close == std::string::npos) return out;
    const std::string inner = type.substr(open + 1, close - open - 1);
    std::size_t start = 0;
    while (start <= inner.size()) {
        const auto comma = inner.find(',', start);
        const auto end = comma == std::string::npos ? inner.size() : comma;
        if (end > start) out.push_back(inner.substr(start, end - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

// Values a command checks in its own code rather than with a CLI11 set:
// `inspect --kind` takes every id kind (ids/kind.hpp) and v1..v8
// (cmd_inspect.cpp's kind_option). Each entry must name an option of the
// tree (checked when the model is made), so the table cannot outlive one.
std::map<std::pair<std::string, std::string>, std::vector<std::string>> values_checked_in_code() {
    std::vector<std::string> kinds = ids::kind_names();
    for (const auto& k : ids::kind_names())
        if (k.size() == 6 && k.rfind("uuidv", 0) == 0) kinds.push_back(k.substr(4));
    return {{{"inspect", "--kind"}, kinds}};
}

Arg make_arg(const CLI::Option& o) {
    Arg a;
    for (const auto& s : o.get_snames()) a.names.push_back("-" + s);
    for (const auto& l : o.get_lnames()) a.names.push_back("--" + l);
    if (a.names.empty()) a.positional = o.get_name(true);
    a.type = o.get_type_name();
    a.description = o.get_description();
    a.default_value = o.get_default_str();
    a.takes_value = o.get_items_expected_max() > 0;  // a flag expects 0 items
    a.many = a.takes_value &&
             (o.get_items_expected_max() > 1 || o.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll);
    a.required = o.get_required();
    if (!a.takes_value) return a;
    a.values = member_set(a.type);
    if (!a.values.empty()) {
        a.complete = Complete::words;
    } else if (a.type.rfind("TEXT", 0) == 0 && a.type.find(':') == std::string::npos) {
        // plain text: a path, as far as anything can be offered (a folder for --*-dir)
        const bool dir = !a.names.empty() && a.names.back().size() > 4 &&
                         a.names.back().compare(a.names.back().size() - 4, 4, "-dir") == 0;
        a.complete = dir ? Complete::dirs : Complete::files;
    }
    return a;
}

// Every command, in the order --help lists them, then `help [COMMAND]`
// (main.cpp answers it before CLI11 parses). nullopt when the table of values
// checked in code names an option that does not exist.
std::optional<std::vector<Command>> commands_of(const CLI::App& app, std::string& error) {
    auto in_code = values_checked_in_code();
    std::vector<Command> out;
    for (const CLI::App* sub : app.get_subcommands({})) {
        Command c;
        c.name = sub->get_name();
        c.description = sub->get_description();
        if (sub->get_footer() != app.get_footer()) c.footer = sub->get_footer();
        for (const CLI::Option* o : sub->get_options({})) {
            if (o->get_group().empty()) continue;  // hidden
            Arg a = make_arg(*o);
            if (!a.names.empty()) {
                const auto it = in_code.find({c.name, a.names.back()});
                if (it != in_code.end()) {
                    a.values = it->second;
                    a.complete = Complete::words;
                    in_code.erase(it);
                }
            }
            (a.names.empty() ? c.positionals : c.options).push_back(std::move(a));
        }
        out.push_back(std::move(c));
    }
    if (!in_code.empty()) {
        error = "no option " + in_code.begin()->first.first + " " + in_code.begin()->first.second +
                " (help_docs.cpp's values_checked_in_code is out of date)";
        return std::nullopt;
    }
    Command help;
    help.name = "help";
    help.description = "Print the commands, or one command's options (as --help)";
    Arg cmd;
    cmd.positional = "COMMAND";
    cmd.takes_value = true;
    cmd.complete = Complete::words;
    cmd.description = "The command whose options to print";
    for (const auto& c : out) cmd.values.push_back(c.name);
    help.positionals.push_back(std::move(cmd));
    out.push_back(std::move(help));
    return out;
}

std::string join(const std::vector<std::string>& words, std::string_view sep) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : std::string(sep)) + w;
    return s;
}

// Runs of white space (the footers' wrapping) as one space.
std::string one_line(std::string_view s) {
    std::string out;
    bool space = false;
    for (const char c : s) {
        if (c == ' ' || c == '\n' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// A short description for the completion menus: without its parenthesised
// asides, up to the first "; " or ". ", at most 80 characters.
std::string short_description(const std::string& d) {
    std::string s;
    int depth = 0;
    for (const char c : one_line(d)) {
        if (c == '(' && depth++ == 0 && !s.empty() && s.back() == ' ') s.pop_back();
        if (depth == 0) s += c;
        if (c == ')' && depth > 0) --depth;
    }
    s = one_line(s);
    for (const char* stop : {"; ", ". ", " :"}) {
        const auto at = s.find(stop);
        if (at != std::string::npos && at > 0) s.resize(at);
    }
    if (s.size() > 80) s = s.substr(0, 77) + "...";
    return s;
}

// ---- man page ------------------------------------------------------------

// Text as roff: backslashes and minus signs escaped, a control character at
// the start of a line defused.
std::string roff(std::string_view s) {
    std::string out;
    bool line_start = true;
    for (const char c : s) {
        if (line_start && (c == '.' || c == '\'')) out += "\\&";
        line_start = c == '\n';
        if (c == '\\') out += "\\e";
        else if (c == '-') out += "\\-";
        else out += c;
    }
    return out;
}

std::string bold(std::string_view s) { return "\\fB" + roff(s) + "\\fR"; }
std::string italic(std::string_view s) { return "\\fI" + roff(s) + "\\fR"; }

// "TEXT", "INT", "DURATION", "auto|always|never": the value as --help names it.
std::string man_value(const Arg& a) {
    if (!a.values.empty() && a.values.size() <= 6) {  // a longer set is the description's to list
        std::vector<std::string> v;
        for (const auto& w : a.values) v.push_back(italic(w));
        return join(v, "|");
    }
    const auto colon = a.type.find(':');
    std::string shown = a.type.substr(0, colon);
    if (colon != std::string::npos) {  // a named validator ("TEXT:DURATION", "UINT:N") says more
        const std::string named = a.type.substr(colon + 1);
        if (!named.empty() && named.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string::npos)
            shown = named;
    }
    return italic(shown);
}

std::string man_option_head(const Arg& a) {
    std::vector<std::string> names;
    for (const auto& n : a.names) names.push_back(bold(n));
    std::string head = join(names, ", ");
    if (a.takes_value) head += " " + man_value(a) + (a.many ? " ..." : "");
    return head;
}

std::string man_positional(const Arg& a) {
    std::string s = italic(a.positional) + (a.many ? " ..." : "");
    return a.required ? s : "[" + s + "]";
}

std::string man_synopsis(const std::vector<Command>& cmds) {
    std::string out;
    for (const auto& c : cmds) {
        out += ".br\n" + bold("idconform " + c.name);
        bool optional_options = false;
        for (const auto& o : c.options) {
            if (!o.required) {
                optional_options = true;
                continue;
            }
            out += " " + bold(o.names.back()) + (o.takes_value ? " " + man_value(o) : "");
        }
        if (optional_options) out += " [" + italic("OPTIONS") + "]";
        for (const auto& p : c.positionals) out += " " + man_positional(p);
        out += "\n";
    }
    return out.substr(4);  // no .br before the first
}

std::string man_commands(const std::vector<Command>& cmds, const std::map<std::string, std::string>& about) {
    std::string out;
    for (const auto& c : cmds) {
        out += ".SS " + bold(c.name) + "\n" + roff(one_line(c.description)) + ".\n";
        if (const auto it = about.find(c.name); it != about.end()) out += ".PP\n" + it->second;
        for (const auto& p : c.positionals) {
            out += ".TP\n" + italic(p.positional) + (p.many ? " ..." : "") + "\n" + roff(one_line(p.description));
            if (!p.values.empty()) out += ": " + join(p.values, ", ");
            out += "\n";
        }
        for (const auto& o : c.options) {
            out += ".TP\n" + man_option_head(o) + "\n" + roff(one_line(o.description));
            if (!o.default_value.empty()) out += " (default: " + roff(o.default_value) + ")";
            if (o.required) out += " (required)";
            out += "\n";
        }
        if (!c.footer.empty()) out += ".PP\n" + roff(one_line(c.footer)) + "\n";
    }
    return out;
}

// ---- completions ---------------------------------------------------------

std::string sh_quote(std::string_view s) {
    std::string out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string header(std::string_view shell, const std::string& comment) {
    return comment + " " + std::string(shell) + " completion for idconform, written by `idconform help --completion " +
           std::string(shell) + "`\n" + comment +
           " from the options the binary has (cmake/Install.cmake runs it at build time: do not edit).\n";
}

std::string bash_script(const std::vector<Command>& cmds, const CLI::App& app) {
    std::vector<std::string> names;
    for (const auto& c : cmds) names.push_back(c.name);
    std::vector<std::string> top;
    for (const CLI::Option* o : app.get_options({}))
        if (!o->get_group().empty())
            for (const auto& l : o->get_lnames()) top.push_back("--" + l);
    std::string s = header("bash", "#");
    s += "_idconform() {\n"
         "    local cur prev sub i\n"
         "    COMPREPLY=()\n"
         "    cur=${COMP_WORDS[COMP_CWORD]}\n"
         "    prev=${COMP_WORDS[COMP_CWORD-1]}\n"
         "    # --opt=value: bash splits the word at '=' (COMP_WORDBREAKS)\n"
         "    if [[ $cur == = ]]; then\n"
         "        cur=\n"
         "    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then\n"
         "        prev=${COMP_WORDS[COMP_CWORD-2]}\n"
         "    fi\n"
         "    sub=\n"
         "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "        case ${COMP_WORDS[i]} in\n"
         "            -*) ;;\n"
         "            *) sub=${COMP_WORDS[i]}; break ;;\n"
         "        esac\n"
         "    done\n"
         "    case $sub in\n"
         "        '')\n"
         "            if [[ $cur == -* ]]; then\n"
         "                COMPREPLY=($(compgen -W " +
         sh_quote(join(top, " ")) +
         " -- \"$cur\"))\n"
         "            else\n"
         "                COMPREPLY=($(compgen -W " +
         sh_quote(join(names, " ")) +
         " -- \"$cur\"))\n"
         "            fi\n"
         "            return 0 ;;\n";
    for (const auto& c : cmds) {
        s += "        " + c.name + ")\n";
        std::map<Complete, std::vector<std::string>> by_kind;
        std::vector<std::string> flags;
        std::string words_cases;
        for (const auto& o : c.options) {
            for (const auto& n : o.names) flags.push_back(n);
            if (!o.takes_value) continue;
            if (o.complete == Complete::words)
                words_cases += "                " + join(o.names, "|") + ") COMPREPLY=($(compgen -W " +
                               sh_quote(join(o.values, " ")) + " -- \"$cur\")); return 0 ;;\n";
            else
                for (const auto& n : o.names) by_kind[o.complete].push_back(n);
        }
        if (!words_cases.empty() || !by_kind.empty()) {
            s += "            case $prev in\n" + words_cases;
            if (!by_kind[Complete::files].empty())
                s += "                " + join(by_kind[Complete::files], "|") +
                     ") COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;\n";
            if (!by_kind[Complete::dirs].empty())
                s += "                " + join(by_kind[Complete::dirs], "|") +
                     ") COMPREPLY=($(compgen -d -- \"$cur\")); return 0 ;;\n";
            if (!by_kind[Complete::none].empty())
                s += "                " + join(by_kind[Complete::none], "|") +
                     ") return 0 ;;  # a number, a duration...\n";
            s += "            esac\n";
        }
        s += "            if [[ $cur == -* ]]; then\n"
             "                COMPREPLY=($(compgen -W " +
             sh_quote(join(flags, " ")) + " -- \"$cur\"))\n";
        if (!c.positionals.empty()) {
            const Arg& p = c.positionals.front();
            s += "            else\n";
            if (p.complete == Complete::words)
                s += "                COMPREPLY=($(compgen -W " + sh_quote(join(p.values, " ")) + " -- \"$cur\"))\n";
            else s += "                COMPREPLY=($(compgen -f -- \"$cur\"))\n";
        }
        s += "            fi\n"
             "            return 0 ;;\n";
    }
    s += "    esac\n"
         "    return 0\n"
         "}\n"
         "complete -o filenames -F _idconform idconform\n";
    return s;
}

// Text inside a zsh _arguments spec, itself in single quotes.
std::string zsh_text(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '\'') out += "'\\''";
        else if (c == '[' || c == ']' || c == ':' || c == '\\') out += std::string("\\") + c;
        else out += c;
    }
    return out;
}

std::string zsh_action(const Arg& a) {
    switch (a.complete) {
        case Complete::words: return "(" + join(a.values, " ") + ")";
        case Complete::files: return "_files";
        case Complete::dirs: return "_files -/";
        case Complete::none: return " ";
    }
    return " ";
}

std::string zsh_script(const std::vector<Command>& cmds) {
    std::string s = "#compdef idconform\n" + header("zsh", "#");
    for (const auto& c : cmds) {
        s += "\n_idconform_" + c.name + "() {\n    _arguments -s -S";
        for (const auto& o : c.options) {
            const std::string desc = "[" + zsh_text(short_description(o.description)) + "]";
            std::string value;
            if (o.takes_value) value = ":" + zsh_text(o.type.substr(0, o.type.find(':'))) + ":" + zsh_action(o);
            const bool help = o.names.back() == "--help" || o.names.back() == "--version";
            std::string exclusive = help ? "(- *)" : (o.names.size() > 1 ? "(" + join(o.names, " ") + ")" : "");
            if (o.many) exclusive.clear();
            for (const auto& n : o.names) {
                const std::string name = (o.many ? "*" : "") + n + (o.takes_value ? (n.size() == 2 ? "+" : "=") : "");
                s += " \\\n        '" + exclusive + name + desc + value + "'";
            }
        }
        for (std::size_t i = 0; i < c.positionals.size(); ++i) {
            const Arg& p = c.positionals[i];
            const std::string pos = p.many ? "*" : std::to_string(i + 1);
            s += " \\\n        '" + pos + ":" + zsh_text(p.positional) + ":" + zsh_action(p) + "'";
        }
        s += "\n}\n";
    }
    s += "\n_idconform() {\n"
         "    local curcontext=$curcontext state line ret=1\n"
         "    typeset -A opt_args\n"
         "    _arguments -C \\\n"
         "        '(- *)'{-h,--help}'[Print the commands]' \\\n"
         "        '(- *)--version[Print the version]' \\\n"
         "        '1:command:->command' \\\n"
         "        '*::argument:->argument' && ret=0\n"
         "    case $state in\n"
         "        command)\n"
         "            local -a commands\n"
         "            commands=(\n";
    for (const auto& c : cmds)
        s += "                '" + zsh_text(c.name) + ":" + zsh_text(short_description(c.description)) + "'\n";
    s += "            )\n"
         "            _describe -t commands 'idconform command' commands && ret=0 ;;\n"
         "        argument)\n"
         "            curcontext=${curcontext%:*:*}:idconform-$line[1]:\n"
         "            case $line[1] in\n";
    for (const auto& c : cmds) s += "                " + c.name + ") _idconform_" + c.name + " && ret=0 ;;\n";
    s += "            esac ;;\n"
         "    esac\n"
         "    return ret\n"
         "}\n"
         "\n_idconform \"$@\"\n";
    return s;
}

std::string fish_quote(std::string_view s) {
    std::string out = "'";
    for (const char c : s) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    return out + "'";
}

std::string fish_script(const std::vector<Command>& cmds) {
    std::string s = header("fish", "#");
    std::vector<std::string> names;
    for (const auto& c : cmds) names.push_back(c.name);
    s += "complete -c idconform -f\n"
         "complete -c idconform -n __fish_use_subcommand -s h -l help -d 'Print the commands'\n"
         "complete -c idconform -n __fish_use_subcommand -l version -d 'Print the version'\n";
    for (const auto& c : cmds)
        s += "complete -c idconform -n __fish_use_subcommand -a " + c.name + " -d " +
             fish_quote(short_description(c.description)) + "\n";
    for (const auto& c : cmds) {
        const std::string cond = " -n " + fish_quote("__fish_seen_subcommand_from " + c.name);
        s += "\n";
        for (const auto& o : c.options) {
            s += "complete -c idconform" + cond;
            for (const auto& n : o.names) s += (n.size() == 2 ? " -s " + n.substr(1) : " -l " + n.substr(2));
            if (o.takes_value) {
                switch (o.complete) {
                    case Complete::words: s += " -x -a " + fish_quote(join(o.values, " ")); break;
                    case Complete::files: s += " -r -F"; break;
                    case Complete::dirs: s += " -x -a '(__fish_complete_directories)'"; break;
                    case Complete::none: s += " -x"; break;
                }
            }
            s += " -d " + fish_quote(short_description(o.description)) + "\n";
        }
        for (const auto& p : c.positionals) {
            s += "complete -c idconform" + cond;
            if (p.complete == Complete::words) s += " -x -a " + fish_quote(join(p.values, " "));
            else s += " -F";
            s += " -d " + fish_quote(short_description(p.description)) + "\n";
        }
    }
    return s;
}

}  // namespace

std::optional<std::string> man_page(const CLI::App& app, std::string_view prose, std::string_view version,
                                    std::string& error) {
    const auto cmds = commands_of(app, error);
    if (!cmds) return std::nullopt;
    // First pass: the about blocks, by command.
    std::map<std::string, std::string> about;
    std::vector<std::string> lines;
    {
        std::size_t start = 0;
        std::string* into = nullptr;
        std::string current;
        int line_no = 0;
        while (start < prose.size()) {
            const auto nl = prose.find('\n', start);
            const std::string line(
                prose.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
            start = nl == std::string_view::npos ? prose.size() : nl + 1;
            ++line_no;
            const std::string where = std::to_string(line_no) + ":1: ";
            if (line.rfind(".\\\" about: ", 0) == 0) {
                current = line.substr(11);
                bool known = false;
                for (const auto& c : *cmds) known = known || c.name == current;
                if (!known) {
                    error = where + "about block for '" + current + "', which is no command";
                    return std::nullopt;
                }
                into = &about[current];
                continue;
            }
            if (line == ".\\\" end") {
                if (!into) {
                    error = where + "'.\\\" end' without an about block";
                    return std::nullopt;
                }
                into = nullptr;
                continue;
            }
            if (into) *into += line + "\n";
            else lines.push_back(line);
        }
        if (into) {
            error = "the about block for '" + current + "' has no '.\\\" end'";
            return std::nullopt;
        }
    }
    std::map<std::string, bool> seen{{"name", false}, {"synopsis", false}, {"commands", false}, {"exit-status", false}};
    std::string out;
    for (const auto& line : lines) {
        if (line.rfind(".\\\" generated: ", 0) == 0) {
            const std::string what = line.substr(15);
            const auto it = seen.find(what);
            if (it == seen.end()) {
                error = "unknown marker '" + line + "' (name, synopsis, commands, exit-status)";
                return std::nullopt;
            }
            it->second = true;
            if (what == "name") {
                const std::string d = app.get_description();  // "idconform: what it is"
                const auto colon = d.find(": ");
                out += "idconform \\- " + roff(colon == std::string::npos ? d : d.substr(colon + 2)) + "\n";
            } else if (what == "synopsis") out += man_synopsis(*cmds);
            else if (what == "commands") out += man_commands(*cmds, about);
            else
                out += ".\\\" exit-codes:begin (idconform list --exit-codes man)\n" + exit_codes_man() +
                       ".\\\" exit-codes:end\n";
            continue;
        }
        std::string l = line;
        for (auto at = l.find("@VERSION@"); at != std::string::npos; at = l.find("@VERSION@"))
            l.replace(at, 9, version);
        out += l + "\n";
    }
    for (const auto& [what, found] : seen)
        if (!found) {
            error = "the template lacks the line '.\\\" generated: " + what + "'";
            return std::nullopt;
        }
    return out;
}

std::optional<std::string> completion_script(const CLI::App& app, std::string_view shell) {
    std::string error;
    const auto cmds = commands_of(app, error);
    if (!cmds) return std::nullopt;
    if (shell == "bash") return bash_script(*cmds, app);
    if (shell == "zsh") return zsh_script(*cmds);
    if (shell == "fish") return fish_script(*cmds);
    return std::nullopt;
}

std::string_view completion_shells() { return "bash, zsh, fish"; }

int help_docs_main(const CLI::App& app, int argc, char** argv) {
    const std::string what = argv[2];
    if (argc != 4) {
        std::cerr << "idconform help " << what << ": expected one argument ("
                  << (what == "--man" ? "the template, docs/idconform.1.in" : std::string(completion_shells()))
                  << ")\n";
        return exit_usage;
    }
    const std::string arg = argv[3];
    if (what == "--completion") {
        const auto script = completion_script(app, arg);
        if (!script) {
            std::cerr << "idconform help --completion: no completion for '" << arg
                      << "' (shells: " << completion_shells() << ")\n";
            return exit_usage;
        }
        std::cout << *script;
        return exit_ok;
    }
    const auto in = input::read_input(arg, input::Policy{});
    if (!in.text) {
        std::cerr << render(in.error);
        return exit_usage;
    }
    std::string error;
    const auto page = man_page(app, *in.text, IDCONFORM_VERSION, error);
    if (!page) {
        // a positioned error starts with LINE:COL
        const bool positioned = !error.empty() && error[0] >= '0' && error[0] <= '9';
        std::cerr << arg << (positioned ? ":" : ": ") << error << '\n';
        return exit_usage;
    }
    std::cout << *page;
    return exit_ok;
}

}  // namespace idconform::cli
