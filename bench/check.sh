#!/bin/sh
# Reproduces the figures in docs/check.md: jitcommit-check against convco and cog.
# Installs convco and cocogitto with cargo when they are absent. convco 0.7 needs
# rustc 1.96, so the script falls back to convco 0.6.2 (--locked); convco's libz-sys
# build needs cmake (apt-get install cmake).
# Not run by CI.
set -eu
cd "$(dirname "$0")/.."
for tool in convco:convco cog:cocogitto; do
    bin=${tool%%:*}; crate=${tool#*:}
    if ! command -v "$bin" >/dev/null 2>&1 && [ ! -x "${CARGO_HOME:-$HOME/.cargo}/bin/$bin" ]; then
        cargo install --locked "$crate" || { [ "$crate" = convco ] && cargo install --locked convco@0.6.2; }
    fi
done
cargo bench --bench check
