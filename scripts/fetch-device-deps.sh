#!/usr/bin/env bash
# Runs HERE, on a Debian/Ubuntu machine with network: downloads the .deb packages of the build
# dependencies that the GPU machine lacks (GoogleTest, nlohmann/json, CLI11) into .device-deps/
# (git-ignored). scripts/gpu-check.sh unpacks them there with `dpkg -x`; nothing is installed.
#
#   scripts/fetch-device-deps.sh        # then carry .device-deps to the GPU machine
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest="$root/.device-deps"
packages=(libgtest-dev nlohmann-json3-dev libcli11-dev libbenchmark-dev libbenchmark1debian)

mkdir -p "$dest"
rm -f "$dest"/*.deb
cd "$dest"
apt-get download "${packages[@]}"
echo "downloaded into $dest:"
ls -l "$dest"/*.deb
