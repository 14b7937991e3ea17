# The man page and the bash, zsh and fish completions the build makes with
# `idconform help --man|--completion` (cmake/Install.cmake): what the build
# installs is what the binary prints now, the page is clean roff, every
# script parses in its shell, every command and option --help lists is in
# each of them, and bash, fish and zsh really complete from them.
# Usage: help_docs.sh man|syntax|coverage|bash|fish|zsh  (CTest passes
# IDCONFORM_BIN, SRC and DOCS, the build's generated docs folder).
set -euo pipefail
: "${IDCONFORM_BIN:?}" "${SRC:?}" "${DOCS:?}"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
bin=$IDCONFORM_BIN
man_page=$DOCS/idconform.1
bash_script=$DOCS/idconform.bash
zsh_script=$DOCS/_idconform
fish_script=$DOCS/idconform.fish

# The commands --help lists, and the options of one command.
commands() { "$bin" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'; }
options_of() {  # every -x and --long of `idconform CMD --help`
  "$bin" "$1" --help | sed -n '/^Options:/,/^$/p' | grep -E '^  -' | awk '{ print $1 }' | tr ',' '\n' | grep -E '^-'
}

case ${1:?scenario} in
man)
  # what the build made is what the binary says now (no stale page installed)
  "$bin" help --man "$SRC/docs/idconform.1.in" >"$WORK/now.1"
  diff -u "$man_page" "$WORK/now.1" || fail "the built man page differs from what the binary prints: rebuild"
  gzip -dc "$DOCS/idconform.1.gz" | cmp -s - "$man_page" || fail "idconform.1.gz is not the built page"
  command -v groff >/dev/null || fail "groff is not installed (scripts/setup.sh tests)"
  groff -man -ww -z "$man_page" 2>"$WORK/groff.err" || fail "groff failed"
  [ ! -s "$WORK/groff.err" ] || { cat "$WORK/groff.err" >&2; fail "groff warns about the man page"; }
  command -v man >/dev/null || fail "man-db is not installed (scripts/setup.sh tests)"
  LC_ALL=C.UTF-8 MANWIDTH=200 man --warnings -l "$man_page" >"$WORK/man.txt" 2>"$WORK/man.err" || fail "man -l failed"
  [ ! -s "$WORK/man.err" ] || { cat "$WORK/man.err" >&2; fail "man --warnings warns about the man page"; }
  for section in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
    grep -qx "$section" "$WORK/man.txt" || fail "the man page has no $section section"
  done
  # its EXIT STATUS is the table every --help and README give
  "$bin" list --exit-codes man >"$WORK/exit.man"
  sed -n '/exit-codes:begin/,/exit-codes:end/p' "$man_page" | sed '1d;$d' | diff -u - "$WORK/exit.man" ||
    fail "the man page's EXIT STATUS is not idconform list --exit-codes man"
  grep -E '@VERSION@|^\.\\" (generated|about): |^\.\\" end$' "$man_page" && fail "a template marker was left in the page"
  # a template that names a command the binary lacks is refused at its line
  { sed -n 1,6p "$SRC/docs/idconform.1.in"; printf '.\\" about: frobnicate\nx\n.\\" end\n'; } >"$WORK/bad.1.in"
  set +e
  "$bin" help --man "$WORK/bad.1.in" >/dev/null 2>"$WORK/err"
  code=$?
  set -e
  [ "$code" = 2 ] || fail "a bad template exited $code, not 2"
  grep -q "bad.1.in:7:1: about block for 'frobnicate', which is no command" "$WORK/err" || { cat "$WORK/err" >&2; fail "no positioned error"; }
  echo "ok: man page" ;;
syntax)
  for s in bash zsh fish; do
    "$bin" help --completion $s >"$WORK/$s"
  done
  diff -u "$bash_script" "$WORK/bash" || fail "the built bash completion differs from what the binary prints: rebuild"
  diff -u "$zsh_script" "$WORK/zsh" || fail "the built zsh completion differs from what the binary prints: rebuild"
  diff -u "$fish_script" "$WORK/fish" || fail "the built fish completion differs from what the binary prints: rebuild"
  bash -n "$bash_script" || fail "bash -n rejects the bash completion"
  command -v zsh >/dev/null || fail "zsh is not installed (scripts/setup.sh tests)"
  zsh -n "$zsh_script" || fail "zsh -n rejects the zsh completion"
  head -n 1 "$zsh_script" | grep -x '#compdef idconform' >/dev/null || fail "the zsh completion does not start with #compdef"
  command -v fish >/dev/null || fail "fish is not installed (scripts/setup.sh tests)"
  fish --no-execute "$fish_script" || fail "fish --no-execute rejects the fish completion"
  set +e
  "$bin" help --completion tcsh >/dev/null 2>"$WORK/err"
  code=$?
  set -e
  [ "$code" = 2 ] && grep -q "shells: bash, zsh, fish" "$WORK/err" || fail "an unknown shell is not a usage error naming the shells"
  echo "ok: completions parse" ;;
coverage)
  # every command and option of --help, in the man page and each script
  LC_ALL=C.UTF-8 MANWIDTH=400 man -l "$man_page" >"$WORK/man.txt" 2>/dev/null
  n=0
  for cmd in $(commands) help; do
    grep -qE "^   $cmd\$" "$WORK/man.txt" || fail "the man page has no entry for $cmd"
    grep -qE "^        $cmd\)" "$bash_script" || fail "the bash completion lacks the command $cmd"
    grep -q "^_idconform_$cmd() {" "$zsh_script" || fail "the zsh completion lacks the command $cmd"
    grep -q "__fish_use_subcommand -a $cmd " "$fish_script" || fail "the fish completion lacks the command $cmd"
    [ "$cmd" = help ] && continue
    # the command's entry in the man page: from its heading to the next one
    awk -v c="$cmd" '$0 ~ "^   [a-z]+$" { on = ($0 == "   " c) } on' "$WORK/man.txt" >"$WORK/entry.txt"
    # the words bash offers for a "-" in this command
    sed -n "/^        $cmd)/,/^            return 0 ;;/p" "$bash_script" | grep -A1 -F 'if [[ $cur == -* ]]; then' |
      sed -n "s/.*compgen -W '\([^']*\)'.*/ \1 /p" >"$WORK/entry.bash"
    sed -n "/^_idconform_$cmd() {/,/^}/p" "$zsh_script" >"$WORK/entry.zsh"
    for opt in $(options_of "$cmd"); do
      grep -qE -- "(^|[ ,])$opt([ ,]|\$)" "$WORK/entry.txt" || fail "the man page's $cmd lacks $opt"
      grep -qF -- " $opt " "$WORK/entry.bash" || fail "the bash completion of $cmd lacks $opt"
      grep -qE -- "[)'*]$opt[+=[]" "$WORK/entry.zsh" || fail "the zsh completion of $cmd lacks $opt"
      if [ "${opt#--}" != "$opt" ]; then flag="-l ${opt#--}"; else flag="-s ${opt#-}"; fi
      grep -qE -- "__fish_seen_subcommand_from $cmd' .*$flag( |\$)" "$fish_script" || fail "the fish completion of $cmd lacks $opt"
      n=$((n + 1))
    done
  done
  [ "$n" -ge 80 ] || fail "only $n options found in --help: the parsing of --help broke"
  echo "ok: $n options of $(commands | wc -l) commands in the man page and the three completions" ;;
bash)
  # the real thing: source the script, set COMP_WORDS/COMP_CWORD, call it
  cd "$WORK"
  touch profile.yaml report.json
  mkdir packs
  PATH="$(dirname "$bin"):$PATH" bash -c '
    source "$1"
    complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _idconform; printf "%s\n" "${COMPREPLY[@]}"; }
    expect() { local want=$1; shift; complete_words "$@" | grep -x -- "$want" >/dev/null || { echo "no $want for: $*" >&2; complete_words "$@" >&2; exit 1; }; }
    refuse() { local unwanted=$1; shift; complete_words "$@" | grep -x -- "$unwanted" >/dev/null && { echo "$unwanted offered for: $*" >&2; exit 1; }; return 0; }
    expect run idconform r
    expect report idconform r
    expect merge idconform m
    refuse run idconform m
    expect --version idconform --v
    expect --shard idconform run --sh
    expect --no-progress idconform run --no
    expect always idconform run --color al
    expect always idconform run --color = al
    expect never idconform merge --color ""
    expect strict idconform lint --junit-flavor s
    expect uuidv8-legacy idconform inspect --kind uuidv
    expect v7 idconform gen -k v
    refuse uuidv7 idconform gen -k u
    expect --junit idconform merge -
    expect --from-openapi idconform init --fr
    expect --html idconform report --h
    expect profile.yaml idconform run --target pro
    expect packs idconform run --packs-dir pa
    refuse profile.yaml idconform run --packs-dir pro
    expect report.json idconform report --html x rep
    refuse profile.yaml idconform run --timeout pro
    expect profile.yaml idconform run --verbose pro
    expect inspect idconform help ins
    expect man idconform list --exit-codes m
  ' _ "$bash_script" || fail "bash completion"
  echo "ok: bash completes" ;;
fish)
  command -v fish >/dev/null || fail "fish is not installed (scripts/setup.sh tests)"
  cd "$WORK"
  touch profile.yaml
  export HOME=$WORK XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data
  fish -c "source $fish_script
    function expect; set want \$argv[1]; if not complete -C \"\$argv[2]\" | string match -q -r -- \"^\$want(\t|\\\$)\"; echo \"no \$want for: \$argv[2]\" >&2; complete -C \"\$argv[2]\" >&2; exit 1; end; end
    expect run 'idconform r'
    expect --shard 'idconform run --sh'
    expect always 'idconform run --color al'
    expect uuidv8-legacy 'idconform inspect --kind uuidv'
    expect strict 'idconform scan --junit-flavor s'
    expect profile.yaml 'idconform run --target pro'
    expect merge 'idconform help m'
  " || fail "fish completion"
  echo "ok: fish completes" ;;
zsh)
  # a real zsh: an interactive shell on a pseudo-terminal (zsh/zpty), compinit
  # with the script on fpath, a Tab after each command line; compadd is
  # wrapped to log what the completion offers, END:n after each line
  command -v zsh >/dev/null || fail "zsh is not installed (scripts/setup.sh tests)"
  mkdir "$WORK/fpath" "$WORK/cwd"
  cp "$zsh_script" "$WORK/fpath/_idconform"
  touch "$WORK/cwd/profile.yaml"
  probes=("idconform r" "idconform run --col" "idconform run --color " "idconform inspect --kind uuidv8"
          "idconform gen -k v" "idconform run --target pro" "idconform help m" "idconform merge --j")
  wants=("run report" "--color" "auto always never" "uuidv8 uuidv8-legacy" "v7 v4" "profile.yaml" "merge" "--junit --junit-flavor")
  {
    echo 'zmodload zsh/zpty'
    echo 'zpty z env -i HOME="$1" TERM=xterm PATH="$PATH" zsh -f -i'
    echo 'zpty -w z "PS1=; cd ${(q)1}/cwd; fpath=(${(q)1}/fpath \$fpath); autoload -U compinit; compinit -u -D"'
    echo "zpty -w z 'compadd() { local -a h; builtin compadd -O h \"\$@\"; print -r -- \"HIT \${^h[@]}\" >&2; builtin compadd \"\$@\"; }'"
    echo 'zpty -w z "exec 2>${(q)1}/hits; print -r -- END:-2 >&2"'
    # each line is typed once the shell has answered the one before (type-ahead is not relied on)
    echo 'wait_for() { for n in {1..600}; do grep -qx "END:$2" "$1/hits" 2>/dev/null && return; sleep 0.05; done; }'
    echo 'wait_for "$1" -2'
    # a first Tab, not judged: under ctest -j2 the first completion of the shell was seen to offer
    # nothing at times (cause not found); the judged lines come after it
    printf 'zpty -n -w z %q%s\n' "idconform " "\$'\\t\\C-u'"
    echo "zpty -w z 'print -r -- END:-1 >&2'"
    echo 'wait_for "$1" -1'
    i=0
    for p in "${probes[@]}"; do
      printf 'zpty -n -w z %q%s\n' "$p" "\$'\\t\\C-u'"
      echo "zpty -w z 'print -r -- END:$i >&2'"
      echo "wait_for \"\$1\" $i"
      i=$((i + 1))
    done
    echo 'zpty -d z'
  } >"$WORK/drive.zsh"
  zsh -f "$WORK/drive.zsh" "$WORK" || fail "the zsh driver failed"
  grep -q "^END:$((i - 1))\$" "$WORK/hits" || { cat "$WORK/hits" >&2; fail "zsh did not finish the completions"; }
  for ((k = 0; k < i; k++)); do
    # what was offered for probe k: the HIT lines before END:k and after END:k-1
    awk -v k="$k" 'BEGIN { on = 0 } /^END:/ { n = substr($0, 5) + 0; if (n == k) exit; if (n == k - 1) on = 1; next } on && /^HIT / { for (f = 2; f <= NF; f++) print $f }' \
      "$WORK/hits" >"$WORK/offered.$k"
    for w in ${wants[k]}; do
      grep -qx -- "$w" "$WORK/offered.$k" || { cat "$WORK/hits" >&2; fail "zsh offers no $w for '${probes[k]}'"; }
    done
  done
  grep -qx uuidv7 "$WORK/offered.4" && fail "zsh offers inspect's kinds for gen -k"
  echo "ok: zsh completes ($i command lines)" ;;
*) fail "unknown scenario $1" ;;
esac
