# Special files given to or named by the inputs (#24 items 3 and 6): FIFOs,
# /proc/self/fd/N, symlinks to devices and to /proc/self/environ, folders.
# Each ends at once with exit 2 (or a finding) naming what the file is; none
# blocks (every run is under `timeout`, with a stdin pipe whose writer stays
# open, so a regression fails instead of hanging) and no environment
# variable reaches any output. Needs only the idconform binary.
source "$(dirname "$0")/lib.sh"
export IDCONFORM_E2E_MARKER=marker_d41d8cd98f00b204
# stdin: a pipe whose writer (this shell, fd 3) stays open and never writes.
mkfifo "$WORK/stdin"
exec 3<>"$WORK/stdin"
ic() {
  set +e
  timeout 15 "$IDCONFORM_BIN" "$@" <&3 >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
  [ "$CODE" -ne 124 ] || fail "idconform $* did not end (timeout)"
  cat "$WORK/out" "$WORK/err" >>"$WORK/all"
}
err_has() { grep -qF -- "$1" "$WORK/err" "$WORK/out" || { cat "$WORK/err" >&2; fail "output lacks: $1"; }; }

cd "$WORK"
mkfifo fifo
ln -s /dev/zero zero.proto
ln -s /proc/self/environ environ.proto
mkdir folder
printf 'name: t\ncases: []\n' >ok.yaml
printf 'name: t\ninclude: [/proc/self/environ]\ncases: []\n' >environ.yaml
printf 'name: t\ninclude: [environ.proto]\ncases: []\n' >environ_link.yaml
printf 'name: t\ninclude: [folder]\ncases: []\n' >folder.yaml
printf 'name: t\ninclude: [/dev/zero]\ncases: []\n' >zero.yaml
printf 'name: t\ninclude: [fifo]\ncases: []\n' >fifo.yaml

# --target and --waivers FIFOs (no writer): read as empty files, never waited on.
ic run --target fifo
expect_code 2
err_has "the profile file is empty"
ic run ok.yaml --waivers fifo
[ "$CODE" -ne 124 ]

# A .proto symlinked to /dev/zero or to /proc/self/environ, and a FIFO.
ic lint zero.proto
expect_code 2
err_has "cannot read .proto file: 'zero.proto' is a character device (a symlink to /dev/zero)"
ic lint environ.proto
expect_code 2
err_has "'environ.proto' is under /proc (it resolves to /proc/"
mv fifo fifo.proto
ic lint fifo.proto
expect_code 2
err_has "'fifo.proto' is a pipe (FIFO)"
mv fifo.proto fifo

# $ref to /proc/self/fd/0 (stdin: a pipe whose writer never writes) and fd/1.
for fd in 0 1; do
  cat >ref$fd.yaml <<DOC
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {\$ref: "/proc/self/fd/$fd"}
DOC
  ic lint ref$fd.yaml
  err_has "cannot load the file a \$ref names: cannot read schema document: '/proc/self/fd/$fd' is "
  err_has "under /proc"
done

# Includes: /proc/self/environ (directly and through a symlink), a folder,
# /dev/zero and a FIFO each say what they are at the include.
ic run environ.yaml --junit j1.xml
expect_code 2
err_has "environ.yaml:2:11: error: cannot read included file: '/proc/self/environ' is under /proc"
ic run environ_link.yaml --junit j2.xml
expect_code 2
err_has "'environ.proto' is under /proc (it resolves to /proc/"
ic run folder.yaml
expect_code 2
err_has "cannot read included file: 'folder' is a directory"
ic run zero.yaml
expect_code 2
err_has "'/dev/zero' is a character device under /dev"
ic run fifo.yaml
expect_code 2
err_has "'fifo' is a pipe (FIFO)"

# Reports read back: a FIFO or a device is refused, not read.
ic report fifo --html r.html
expect_code 2
err_has "'fifo' is a pipe (FIFO)"
ic run ok.yaml --baseline /dev/zero
expect_code 2
err_has "is a character device"

# No environment variable reached any output (console, reports written).
cat ./*.xml ./*.html >>"$WORK/all" 2>/dev/null || true
if grep -qF "$IDCONFORM_E2E_MARKER" "$WORK/all"; then fail "an environment variable reached the output"; fi
echo "special files: ok"
