#!/bin/sh
# Rebuilds the effects' WebAssembly modules from their C sources beside this script (phone-line.c,
# room-mix.c) with Debian's clang and lld 14 (apt-get install -y clang lld). The committed .wasm files are what
# tests and users get; nothing runs this at test time, and wasm-modules.test.ts checks that each committed module
# is its source's build when clang is installed. Usage: make-wasm.sh [output folder]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here"}
build() { # name, then extra linker flags
  name=$1
  shift
  clang --target=wasm32 -O3 -msimd128 -ffp-contract=off -nostdlib -fno-builtin \
    -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=4096 "$@" \
    -o "$out/$name.wasm" "$here/$name.c"
}
# The phone line's filters, buffers and codec table fit in four pages, and it never grows (phone-line.ts keeps
# views of its memory); a room mix holds its bed and echo line, so it grows.
build phone-line -Wl,--initial-memory=262144 -Wl,--max-memory=262144
build room-mix -Wl,--initial-memory=131072
