#!/usr/bin/env bash
# Contract fuzzing: schemathesis over every operation of openapi.yaml,
# stateful phase included (it follows the spec's links: sign-up -> session,
# learner -> course -> placement -> lesson -> game, class -> assignment,
# report -> screenshot), against a real server with its own PostgreSQL.
#
#   scripts/fuzz-api.sh           the full run (make fuzz-api): 100 examples an operation
#   scripts/fuzz-api.sh --quick   a short run (make test): 8 examples an operation
#
# Passes when no answer is a server error (5xx) and every answer keeps to
# the spec: its status is declared, its media type, headers and body match
# their schemas. The stores are configured as in production: App Store
# receipts are checked against a root made here (nothing the fuzzer makes
# is signed by it), and Google Play is a local server speaking its
# protocol (an OAuth token, and 404 for a purchase token it never issued,
# as Google answers). Rate limits are off: every request comes from here.
# The report is in $PARLA_FUZZ_REPORTS (default .build/fuzz-api).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
binary="${PARLA_BINARY:-$root/.build/debug/parla}"
python="$root/vendor/schemathesis/bin/python"
examples=100
[ "${1:-}" = "--quick" ] && examples=8
reports="${PARLA_FUZZ_REPORTS:-$root/.build/fuzz-api}"
say() { printf 'fuzz-api: %s\n' "$*"; }

[ -x "$binary" ] || { say "$binary is not built (swift build --product parla)"; exit 1; }
"$python" -c "import schemathesis" 2>/dev/null || { say "schemathesis is not installed (make install-deps)"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/parla-fuzz.XXXXXX")"
chmod 0755 "$work"
server_pid="" store_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [ -n "$store_pid" ] && kill -TERM "$store_pid" 2>/dev/null && wait "$store_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port="$(free_port)" store_port="$(free_port)"
base="http://127.0.0.1:$port"

# An App Store root of our own, and a Google service account whose token
# endpoint is the local Google Play server.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=Parla fuzz root" \
  -keyout "$work/root.key" -out "$work/root.pem" 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/play.key" 2>/dev/null
python3 - "$work/play.key" "http://127.0.0.1:$store_port/token" >"$work/service-account.json" <<'PY'
import json, sys
print(json.dumps({"type": "service_account", "client_email": "fuzz@parla.iam.gserviceaccount.com",
                  "private_key": open(sys.argv[1]).read(), "token_uri": sys.argv[2]}))
PY
python3 - "$store_port" >"$work/store.log" 2>&1 <<'PY' &
import http.server, json, sys
class GooglePlay(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/token":
            self.answer(200, {"access_token": "fuzz-access", "expires_in": 3600, "token_type": "Bearer"})
        else:
            self.answer(404, {"error": {"code": 404, "message": "The purchase token was not found.", "status": "NOT_FOUND"}})
    def do_GET(self):
        self.answer(404, {"error": {"code": 404, "message": "The purchase token was not found.", "status": "NOT_FOUND"}})
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), GooglePlay).serve_forever()
PY
store_pid=$!

unset $(compgen -e | grep '^PARLA_') 2>/dev/null
env PARLA_SECURITY_KEY_FILE="$work/personal-data.key" \
  PARLA_CONTENT_ASSET_DIRECTORY="$work/assets" \
  PARLA_CONTENT_BUILD_ASSETS=false \
  PARLA_MAIL_OUTBOX_DIRECTORY="$work/outbox" \
  PARLA_RATE_LIMITS_ENABLED=false \
  PARLA_LOG_LEVEL=warning \
  PARLA_PURCHASES_APP_STORE_ROOT_CERTIFICATES="$work/root.pem" \
  PARLA_PURCHASES_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY="$work/service-account.json" \
  PARLA_PURCHASES_GOOGLE_PLAY_BASE_URL="http://127.0.0.1:$store_port" \
  PARLA_PURCHASES_GOOGLE_PLAY_NOTIFICATION_SECRET="fuzz-$RANDOM$RANDOM" \
  "$binary" serve --port "$port" --data-directory "$work/postgres" --config "$root/Config/parla.json" \
  </dev/null >"$work/server.log" 2>&1 &
server_pid=$!
deadline=$((SECONDS + 180))
until curl -fsS --max-time 2 "$base/health" >/dev/null 2>&1; do
  kill -0 "$server_pid" 2>/dev/null || { say "the server exited"; cat "$work/server.log"; exit 1; }
  [ $SECONDS -ge $deadline ] && { say "the server did not answer /health within 180 s"; exit 1; }
  sleep 0.2
done
say "server on $base; $examples examples an operation"

mkdir -p "$reports"
started=$SECONDS
# From the scratch folder, where schemathesis leaves its cache.
cd "$work"
fuzz() {
  PARLA_FUZZ_URL="$base" PYTHONPATH="$root/scripts" SCHEMATHESIS_HOOKS=fuzz_api_hooks \
    "$python" -c 'import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())' \
    run "$root/Sources/ParlaAPI/openapi.yaml" --url "$base" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --phases examples,coverage,fuzzing,stateful --max-examples "$examples" --workers 2 --request-timeout 60 \
    --suppress-health-check all --seed "${PARLA_FUZZ_SEED:-20261127}" --no-color \
    --report junit --report-dir "$reports" >"$reports/output.txt" 2>&1
}
fuzz
status=$?
# The tool's own fault, not an answer of ours: every case passed, and the
# only error is a "Runtime Error" inside schemathesis or hypothesis (seen
# once: CPython 3.11's ast.parse failing "AST constructor recursion depth
# mismatch", which depends on the stack depth). Run once more, and say so;
# a failed case fails at once.
if [ $status -ne 0 ] && grep -q "Runtime Error" "$reports/output.txt" \
  && grep -Eq '^  ([0-9]+) generated, \1 passed$' "$reports/output.txt"; then
  say "schemathesis failed inside itself with every case passed; running it once more:"
  sed -n '/^Runtime Error/,/^    [A-Za-z]*Error/p' "$reports/output.txt" | tail -3
  cp "$reports/output.txt" "$reports/output-first.txt"
  fuzz
  status=$?
fi
sed -n '/= SUMMARY =/,$p' "$reports/output.txt"
if [ $status -ne 0 ]; then
  grep -E "^(_{3,}|- ST|\[[0-9]{3}\]|    curl)" "$reports/output.txt" | head -80
  say "server log (last 30 lines):"; tail -n 30 "$work/server.log" | sed 's/^/  /'
fi
say "took $((SECONDS - started)) s; the whole output is $reports/output.txt"
exit $status
