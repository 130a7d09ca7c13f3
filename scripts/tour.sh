#!/usr/bin/env bash
# Runs README.md's five-minute tour against the real server, so that the
# README and the code cannot drift apart.
#
# Starts .build/debug/parla (or $PARLA_BINARY) on a free port with a data
# directory of its own, waits for /health, then runs every ```sh block
# between <!-- tour:start --> and <!-- tour:end --> in README.md, in order,
# in one bash session (a block may use what an earlier one set), with
# `set -euo pipefail`. The blocks talk to http://localhost:8080, as a reader
# would; here that address is rewritten to the server this script started.
# A step fails when a command in it fails (the tour's curl calls use -f, so
# an HTTP error status fails). The server is stopped on exit, whatever
# happened. The last line says how many steps passed and failed.
#
#   scripts/tour.sh            (make test runs it after the Swift tests)
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
binary="${PARLA_BINARY:-$root/.build/debug/parla}"
readme="$root/README.md"
readme_url="http://localhost:8080"
started=$SECONDS

say() { printf 'tour: %s\n' "$*"; }

[ -x "$binary" ] || { say "$binary is not built (swift build --product parla)"; say "0 passed, 1 failed"; exit 1; }
for tool in curl jq python3; do
  command -v "$tool" >/dev/null || { say "$tool is missing (make install-deps)"; say "0 passed, 1 failed"; exit 1; }
done

# The tour's steps: each ```sh block between the markers, titled by the last
# bold "**N. Title**" line before it.
work="$(mktemp -d "${TMPDIR:-/tmp}/parla-tour.XXXXXX")"
# When we are root the server's PostgreSQL runs as the postgres user, which
# must be able to reach its data directory under here.
chmod 0755 "$work"
mkdir -p "$work/steps"
awk -v dir="$work/steps" '
  /<!-- tour:start -->/ { inside = 1; next }
  /<!-- tour:end -->/   { inside = 0; next }
  !inside { next }
  /^```sh[[:space:]]*$/ { step += 1; file = sprintf("%s/%02d", dir, step); print title > (file ".title"); block = 1; next }
  block && /^```[[:space:]]*$/ { block = 0; close(file); next }
  block { print > file; next }
  match($0, /^\*\*[0-9]+\.[^*]*\*\*/) { title = substr($0, 3, RLENGTH - 4) }
' "$readme"
steps=("$work"/steps/[0-9][0-9])
if [ ! -f "${steps[0]}" ]; then
  say "no tour in README.md (\`\`\`sh blocks between <!-- tour:start --> and <!-- tour:end -->)"
  say "0 passed, 1 failed"
  rm -rf "$work"
  exit 1
fi
total=${#steps[@]}

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
server_pid=""
log="$work/server.log"

# Stops the server with SIGTERM (it drains, then stops its PostgreSQL) and
# waits; after 60 s, SIGKILL and stop the cluster it leaves behind.
stop_server() {
  [ -n "$server_pid" ] || return 0
  local pid=$server_pid
  server_pid=""
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 600); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "the server did not stop within 60 s of SIGTERM: killing it"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    local data="$work/.parla/postgres" pg_ctl
    pg_ctl="$(ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)"
    if [ -f "$data/postmaster.pid" ] && [ -n "$pg_ctl" ]; then
      if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$pg_ctl" -D "$data" stop -m immediate >/dev/null 2>&1
      else
        "$pg_ctl" -D "$data" stop -m immediate >/dev/null 2>&1
      fi
    fi
    return 1
  fi
  wait "$pid" 2>/dev/null
}

tour_pid=""
cleanup() {
  [ -z "$tour_pid" ] || kill -TERM "$tour_pid" 2>/dev/null
  stop_server
  rm -rf "$work"
}
trap cleanup EXIT
interrupted() {
  say "interrupted"
  say "$(cat "$work/marks" 2>/dev/null | wc -l) passed, 1 failed"
  exit 130
}
trap interrupted INT TERM

finish() {  # finish PASSED FAILED
  local passed=$1 failed=$2 status=0
  if [ "$failed" -gt 0 ]; then
    say "server log (last 30 lines):"
    tail -n 30 "$log" 2>/dev/null | sed 's/^/  /'
    status=1
  fi
  stop_server || { failed=$((failed + 1)); status=1; }
  say "took $((SECONDS - started)) s"
  say "$passed passed, $failed failed"
  exit $status
}

# The server as `make run` starts it (the project's Config/parla.json),
# with its files in $work; no PARLA_* setting of the caller's leaks in.
unset $(compgen -e | grep '^PARLA_') 2>/dev/null
env PARLA_SECURITY_KEY_FILE="$work/.parla/personal-data.key" \
    PARLA_CONTENT_ASSET_DIRECTORY="$work/.parla/assets" \
    PARLA_CONTENT_BUILD_ASSETS=false \
    PARLA_MAIL_OUTBOX_DIRECTORY="$work/.parla/outbox" \
    PARLA_LOG_FORMAT=text \
    "$binary" serve --port "$port" --data-directory "$work/.parla/postgres" --config "$root/Config/parla.json" \
    </dev/null >"$log" 2>&1 &
server_pid=$!
say "server $binary (pid $server_pid) on port $port, data in $work"

deadline=$((SECONDS + 180))
until curl -fsS --max-time 2 "$base/health" >/dev/null 2>&1; do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    wait "$server_pid"; code=$?; server_pid=""
    say "the server exited ($code) before answering /health"
    finish 0 1
  fi
  if [ $SECONDS -ge $deadline ]; then
    say "the server did not answer /health within 180 s"
    finish 0 1
  fi
  sleep 0.2
done
say "server up after $((SECONDS - started)) s; $total steps"

# One script: every step in order, each followed by a mark on fd 3.
script="$work/tour.bash"
{
  echo 'set -euo pipefail'
  for index in "${!steps[@]}"; do
    number=$((index + 1))
    printf 'printf "\\n== step %d/%d: %%s\\n" %q\n' "$number" "$total" "$(cat "${steps[$index]}.title")"
    sed "s#$readme_url#$base#g" "${steps[$index]}"
    printf 'echo %d >&3\n' "$number"
  done
} >"$script"

# Every curl of the tour gives up after 60 s rather than hang.
printf 'max-time = 60\n' >"$work/.curlrc"
marks="$work/marks"
# In the background, so that a signal to this script is handled at once.
(cd "$work" && CURL_HOME="$work" exec timeout 600 bash "$script" 3>"$marks") &
tour_pid=$!
wait "$tour_pid"
code=$?
tour_pid=""
passed=$(wc -l <"$marks")
if [ $code -eq 0 ] && [ "$passed" -eq "$total" ]; then
  echo
  finish "$passed" 0
fi
failing=$((passed + 1))
echo
if [ $code -eq 124 ]; then
  say "step $failing ($(cat "${steps[$passed]}.title" 2>/dev/null)) timed out"
else
  say "step $failing ($(cat "${steps[$passed]}.title" 2>/dev/null)) failed with status $code"
fi
[ $((total - failing)) -gt 0 ] && say "$((total - failing)) later steps not run"
finish "$passed" 1
