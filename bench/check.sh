#!/bin/sh
# Reproduces the figures in docs/check.md: jitcommit-check against convco, cog and git,
# on generated repositories laid out as real clones (see benches/check.rs).
# convco and cocogitto are reused from ~/.cargo/bin or ~/.cache/jitcommit-bench/bin when
# there, else installed with `cargo install --root ~/.cache/jitcommit-bench` (never into
# the repository). convco 0.7 needs rustc 1.96, so the script falls back to convco 0.6.2
# (--locked); convco's libz-sys build needs cmake (apt-get install cmake).
# Not run by CI.
set -eu
cd "$(dirname "$0")/.."
root="${XDG_CACHE_HOME:-$HOME/.cache}/jitcommit-bench"
PATH="$root/bin:$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH
for tool in convco:convco cog:cocogitto; do
    bin=${tool%%:*}; crate=${tool#*:}
    if ! command -v "$bin" >/dev/null 2>&1; then
        cargo install --locked --root "$root" "$crate" ||
            { [ "$crate" = convco ] && cargo install --locked --root "$root" convco@0.6.2; }
    fi
done
cargo bench --bench check
