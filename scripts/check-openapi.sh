#!/usr/bin/env bash
# The OpenAPI document says what it means (make test runs this first):
# openapi-spec-validator checks it against the OpenAPI 3.1 meta-schema, and
# scripts/check_openapi.py refuses any key an object of it does not define,
# in Schema Objects too, where the meta-schema lets any key through (a
# description in a flow mapping cut by YAML at a comma leaves one).
#
#   scripts/check-openapi.sh [FILE]   default Sources/ParlaAPI/openapi.yaml
#
# Prints each stray key with its JSON path and exits 1; prints
# "openapi: N schema objects checked, no stray key" otherwise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="$root/vendor/openapi-spec-validator/bin/python"
spec="${1:-$root/Sources/ParlaAPI/openapi.yaml}"

"$python" -c "import openapi_spec_validator, yaml" 2>/dev/null || {
  echo "openapi: openapi-spec-validator is not installed (make install-deps)"
  exit 1
}
exec "$python" "$root/scripts/check_openapi.py" "$spec"
