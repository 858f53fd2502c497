//! The next version: the highest bump any entry of the unreleased commits asks for.

use std::collections::BTreeMap;

pub use crate::config::BumpLevel;
use crate::config::ChangelogSettings;

use super::{Release, Version};

/// Which bump each type asks for, and the 0.x convention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BumpRules {
    /// type → level; a type not named asks for none.
    pub types: BTreeMap<String, BumpLevel>,
    /// Before 1.0.0 a breaking change bumps the minor version, as Cargo reads `0.x`
    /// versions.
    pub zero_major_is_minor: bool,
}

impl Default for BumpRules {
    /// feat → minor, fix and perf → patch, breaking → major; 0.x: breaking → minor.
    fn default() -> Self {
        let types = [
            ("feat", BumpLevel::Minor),
            ("fix", BumpLevel::Patch),
            ("perf", BumpLevel::Patch),
        ]
        .into_iter()
        .map(|(t, l)| (t.to_owned(), l))
        .collect();
        BumpRules {
            types,
            zero_major_is_minor: true,
        }
    }
}

impl BumpRules {
    /// The built-in rules with the convention's `changelog.bump-types` over them.
    pub fn for_settings(settings: &ChangelogSettings) -> BumpRules {
        let mut rules = BumpRules::default();
        if let Some(z) = settings.breaking_before_1 {
            rules.zero_major_is_minor = z == crate::config::ZeroMajor::Minor;
        }
        rules
            .types
            .extend(settings.bump_types.iter().map(|(t, l)| (t.clone(), *l)));
        rules
    }

    /// The level `release`'s conforming commits ask for, types without a changelog
    /// section included (a reverted commit asks for nothing).
    pub fn level(&self, release: &Release) -> BumpLevel {
        let mut level = if release.breaking.is_empty() && !release.breaking_excluded {
            BumpLevel::None
        } else {
            BumpLevel::Major
        };
        for ty in release.types.keys() {
            level = level.max(self.types.get(ty).copied().unwrap_or(BumpLevel::None));
        }
        level
    }
}

/// `current` moved by `level` (`None`: no release); from `None` (no tag yet) the base
/// is `0.0.0`. Pre-release and build parts are dropped.
pub fn next_version(
    current: Option<&Version>,
    level: BumpLevel,
    rules: &BumpRules,
) -> Option<Version> {
    let base = current.cloned().unwrap_or_else(|| Version::new(0, 0, 0));
    let level = if base.major == 0 && rules.zero_major_is_minor {
        match level {
            BumpLevel::Major => BumpLevel::Minor,
            other => other,
        }
    } else {
        level
    };
    Some(match level {
        BumpLevel::None => return None,
        BumpLevel::Major => Version::new(base.major.saturating_add(1), 0, 0),
        BumpLevel::Minor => Version::new(base.major, base.minor.saturating_add(1), 0),
        BumpLevel::Patch if !base.pre.is_empty() => {
            Version::new(base.major, base.minor, base.patch)
        }
        BumpLevel::Patch => Version::new(base.major, base.minor, base.patch.saturating_add(1)),
    })
}
