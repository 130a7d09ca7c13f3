#!/usr/bin/env bash
# Installs the Debian packages Parla needs that are not installed yet.
# Swift itself comes with the machine (see README).
set -euo pipefail

packages=(
  postgresql       # the embedded cluster: initdb, pg_ctl, postgres
  libssl-dev       # TLS to an external PostgreSQL
  libpq-dev        # psql and friends for operators
  wrk              # make bench
  ca-certificates
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
# Debian starts a system-wide cluster on install; Parla runs its own.
if command -v pg_lsclusters >/dev/null 2>&1; then
  pg_lsclusters -h 2>/dev/null | while read -r version name _; do
    $sudo pg_ctlcluster "$version" "$name" stop 2>/dev/null || true
  done
fi
