# README's rule table is exactly what `idconform list --markdown` prints for
# the built-in suites and packs, so the documentation cannot drift.
source "$(dirname "$0")/lib.sh"
cd "$SRC"
"$IDCONFORM_BIN" list --markdown suites/ suites/packs/data-id suites/packs/nil-max suites/packs/db-identifiers \
  suites/packs/uuidv8-legacy suites/packs/viewable-id >"$WORK/table.md"
sed -n '/<!-- rules-table:begin -->/,/<!-- rules-table:end -->/p' README.md | sed '1d;$d' >"$WORK/readme.md"
diff -u "$WORK/readme.md" "$WORK/table.md" || fail "README's rule table is out of date: regenerate it with idconform list --markdown"
echo "ok: README table matches the suites"
