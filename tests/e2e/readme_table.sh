# The rule table of docs/rules.md is exactly what `idconform list --markdown` prints for
# the built-in suites and packs, so the documentation cannot drift.
source "$(dirname "$0")/lib.sh"
cd "$SRC"
"$IDCONFORM_BIN" list --markdown suites/ suites/packs/data-id suites/packs/nil-max suites/packs/db-identifiers \
  suites/packs/uuidv8-legacy suites/packs/viewable-id >"$WORK/table.md"
sed -n '/<!-- rules-table:begin -->/,/<!-- rules-table:end -->/p' docs/rules.md | sed '1d;$d' >"$WORK/readme.md"
diff -u "$WORK/readme.md" "$WORK/table.md" || fail "docs/rules.md's rule table is out of date: regenerate it with idconform list --markdown"
echo "ok: docs/rules.md's table matches the suites"

# README's exit-code table and the man page's EXIT STATUS are what
# `idconform list --exit-codes` prints (cli/exit_codes.cpp, also every --help).
"$IDCONFORM_BIN" list --exit-codes markdown >"$WORK/exit.md"
sed -n '/<!-- exit-codes:begin -->/,/<!-- exit-codes:end -->/p' README.md | sed '1d;$d' >"$WORK/readme_exit.md"
diff -u "$WORK/readme_exit.md" "$WORK/exit.md" ||
  fail "README's exit-code table is out of date: regenerate it with idconform list --exit-codes markdown"
"$IDCONFORM_BIN" list --exit-codes man >"$WORK/exit.man"
"$IDCONFORM_BIN" help --man docs/idconform.1.in | sed -n '/exit-codes:begin/,/exit-codes:end/p' | sed '1d;$d' >"$WORK/man_exit.man"
diff -u "$WORK/man_exit.man" "$WORK/exit.man" ||
  fail "the man page's EXIT STATUS is out of date: regenerate it with idconform list --exit-codes man"
"$IDCONFORM_BIN" --help | grep -F "2 usage error, a suite or profile that does not load" >/dev/null ||
  fail "--help lacks the exit-code text"
echo "ok: exit-code table in README, man page and --help"
