#!/bin/sh
# Builds the release wheel with the CLI binary in it (make dist-python).
#
# usage: python_wheel.sh CLI DATA_DIR OUT_DIR [VAR=value ...] maturin build ...
#
# maturin puts a package's wheel-data directory (DATA_DIR, by default
# `<module-name>.data` beside pyproject.toml) into the wheel as
# `<name>-<version>.data/`; pip installs its `scripts/` into the venv's
# bin/ (Scripts\ on Windows), executable. So the native `agenthooks`
# binary is on PATH in every venv the wheel goes into, with no Python in
# front of it. The directory exists only while maturin runs: the sdist and
# the suite's dev wheel are built without it.
set -eu
cli=$1 data=$2 out=$3
shift 3
case "$data" in
  */agenthooks._native.data) ;;
  *) echo "python_wheel.sh: $data is not the package's wheel-data directory" >&2; exit 2 ;;
esac
trap 'rm -rf "$data"' EXIT
trap 'exit 130' INT TERM
rm -rf "$data"
mkdir -p "$data/scripts"
# (agenthooks, or agenthooks.exe on Windows: pip installs it under its name)
cp "$cli" "$data/scripts/"
chmod 755 "$data/scripts/$(basename "$cli")"
env "$@" --out "$out"
