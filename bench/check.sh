#!/bin/sh
# Reproduces the figures in docs/check.md: jitcommit-check against convco, cog and git,
# on generated repositories laid out as real clones (see bench/check.rs).
# convco and cocogitto are reused from ~/.cache/jitcommit-bench/bin or ~/.cargo/bin when
# there, else installed with `cargo install --root ~/.cache/jitcommit-bench` (never into
# the repository). convco 0.7.0 is the one to compare with; it needs rustc 1.96, so the
# script tries the default toolchain, then `cargo +nightly`, and falls back to convco
# 0.6.2 (--locked) only when neither builds it; convco's libz-sys build needs cmake
# (apt-get install cmake). The versions measured are printed first.
# Not run by CI.
set -eu
cd "$(dirname "$0")/.."
root="${XDG_CACHE_HOME:-$HOME/.cache}/jitcommit-bench"
PATH="$root/bin:$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH
if ! convco --version 2>/dev/null | grep -q '0\.7\.0'; then
    cargo install --locked --root "$root" convco@0.7.0 ||
        cargo +nightly install --locked --root "$root" convco@0.7.0 ||
        command -v convco >/dev/null 2>&1 ||
        cargo install --locked --root "$root" convco@0.6.2
fi
command -v cog >/dev/null 2>&1 || cargo install --locked --root "$root" cocogitto
echo "convco: $(convco --version 2>&1 | head -n 1); cog: $(cog --version 2>&1 | head -n 1)"
cargo bench --bench check
