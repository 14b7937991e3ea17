# Sourced by the demo (scripts/demo.sh), the db e2e tests and the bench:
# starts a PostgreSQL 15 server of its own in a temporary data directory
# ($PGTMP), listening on a Unix socket in
# that directory and on 127.0.0.1 at a free port, as a non-root user
# (PostgreSQL refuses root: under root the server runs as `nobody`). Sets
# PGBIN, PGTMP, PGPORT, PGSOCK and pg_admin (psql as the superuser
# `postgres`); stop_pg stops it (the caller's EXIT trap calls it).
# Authentication: the superuser over the socket is trusted, every other
# role gives its password (scram-sha-256), so wrong credentials fail.
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
[ -x "$PGBIN/initdb" ] || { echo "FAIL: no PostgreSQL 15 at $PGBIN (scripts/setup.sh installs postgresql-15)" >&2; exit 1; }
PGTMP=$(mktemp -d /tmp/idconform-pg.XXXXXX)
chmod 0755 "$PGTMP"
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
if [ "$(id -u)" -eq 0 ]; then chown nobody "$PGTMP"; fi
PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PGSOCK=$PGTMP
as_pg "$PGBIN/initdb" -D "$PGTMP/data" -U postgres -A scram-sha-256 --auth-local=trust --no-sync -E UTF8 \
  --locale=C >"$PGTMP/initdb.log" 2>&1 || { cat "$PGTMP/initdb.log" >&2; echo "FAIL: initdb" >&2; exit 1; }
cat >"$PGTMP/data/pg_hba.conf" <<HBA
local all postgres trust
local all all scram-sha-256
host all all 127.0.0.1/32 scram-sha-256
HBA
as_pg "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGSOCK -c fsync=off -c full_page_writes=off -c max_connections=20" \
  start >/dev/null || { cat "$PGTMP/server.log" >&2; echo "FAIL: the server did not start" >&2; exit 1; }
stop_pg() {
  as_pg "$PGBIN/pg_ctl" -D "$PGTMP/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PGTMP"
}
pg_admin() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGSOCK" -p "$PGPORT" -U postgres "$@"; }
