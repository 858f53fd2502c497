#!/bin/sh
# Reproduces the figures in docs/check.md: jitcommit-check against convco and cog.
# Installs convco and cocogitto with cargo when they are absent (their --locked
# dependency set may need a newer rustc; then cargo resolves one for this toolchain).
# Not run by CI.
set -eu
cd "$(dirname "$0")/.."
for tool in convco:convco cog:cocogitto; do
    bin=${tool%%:*}; crate=${tool#*:}
    if ! command -v "$bin" >/dev/null 2>&1 && [ ! -x "${CARGO_HOME:-$HOME/.cargo}/bin/$bin" ]; then
        cargo install --locked "$crate" || cargo install "$crate"
    fi
done
exec cargo bench --bench check
