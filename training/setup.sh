#!/usr/bin/env bash
# Creates training/.venv and installs training/requirements.txt into it.
# Idempotent: an existing venv that already has the pinned versions is left
# as it is. PARLA_TORCH_PYPI_ONLY=1 ignores pip's local wheel folders (the
# image's CPU torch in /opt/wheels) and takes torch from PyPI alone (its
# Linux wheel brings the CUDA libraries: ~4.7 GB; it still runs on the CPU).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi

pinned_ok() {
  "$venv/bin/python" - "$here/requirements.txt" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
ok = True
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, want = line.split("==")
    try:
        have = version(name)
    except PackageNotFoundError:
        ok = False
        continue
    # 2.13.0+cpu satisfies ==2.13.0, as pip reads the pin.
    if have.split("+", 1)[0] != want:
        ok = False
sys.exit(0 if ok else 1)
PY
}

if pinned_ok; then
  echo "setup.sh: $venv already has the pinned requirements"
else
  if [ "${PARLA_TORCH_PYPI_ONLY:-0}" = "1" ]; then
    env -u PIP_FIND_LINKS "$venv/bin/pip" install --isolated ${PIP_CERT:+--cert "$PIP_CERT"} \
      --disable-pip-version-check -r "$here/requirements.txt"
  else
    "$venv/bin/pip" install --disable-pip-version-check -r "$here/requirements.txt"
  fi
fi
"$venv/bin/python" -c 'import torch, numpy; print("setup.sh: torch", torch.__version__, "numpy", numpy.__version__, "cuda available:", torch.cuda.is_available())'
