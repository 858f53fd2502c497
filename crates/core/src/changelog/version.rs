//! Versions: which tags name a release (a [`TagPattern`]), the versions they name
//! (the `semver` crate's), and the release date of a timestamp (jiff's calendar).

/// A semantic version `MAJOR.MINOR.PATCH[-PRE][+BUILD]`: the `semver` crate's, parsed
/// strictly (no leading zeros, no `v`) and ordered as semver orders it, a pre-release
/// before its release.
pub use semver::{Prerelease, Version};

/// Which tag names are version tags: a regular expression whose group `version` (or
/// else the whole match) is a semantic version.
#[derive(Debug, Clone)]
pub struct TagPattern {
    regex: regex::Regex,
    source: String,
}

/// A `--tag-pattern` that is not a usable regular expression.
#[derive(Debug, thiserror::Error)]
#[error("tag pattern {pattern:?}: {reason}")]
pub struct TagPatternError {
    /// The pattern as given.
    pub pattern: String,
    /// What is wrong with it.
    pub reason: String,
}

impl TagPattern {
    /// The default: `v1.2.3` or `1.2.3`, pre-releases and build metadata included.
    pub const DEFAULT: &'static str =
        r"^v?(?P<version>[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$";

    /// Compiles `pattern`.
    pub fn new(pattern: &str) -> Result<TagPattern, TagPatternError> {
        let regex = regex::Regex::new(pattern).map_err(|e| TagPatternError {
            pattern: pattern.to_owned(),
            reason: e.to_string(),
        })?;
        Ok(TagPattern {
            regex,
            source: pattern.to_owned(),
        })
    }

    /// The pattern's text.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The version a tag name names, if it is a version tag.
    pub fn version(&self, tag: &str) -> Option<Version> {
        let caps = self.regex.captures(tag)?;
        let m = caps.name("version").or_else(|| caps.get(0))?;
        Version::parse(m.as_str()).ok()
    }

    /// The tag name for `version`, keeping the prefix `like` (the last tag) used before
    /// its version; `v` when there is no earlier tag.
    pub fn tag_name(&self, version: &Version, like: Option<&str>) -> String {
        let prefix = like
            .and_then(|t| {
                let caps = self.regex.captures(t)?;
                let m = caps.name("version").or_else(|| caps.get(0))?;
                t.get(..m.start())
            })
            .unwrap_or("v");
        format!("{prefix}{version}")
    }
}

impl Default for TagPattern {
    fn default() -> Self {
        #[allow(clippy::expect_used)]
        TagPattern::new(Self::DEFAULT).expect("the default tag pattern compiles")
    }
}

/// The UTC calendar date `YYYY-MM-DD` of `secs` since the epoch (`1970-01-01` for a
/// time out of jiff's range, years -9999 to 9999, which no commit carries).
pub fn date_of(secs: i64) -> String {
    jiff::Timestamp::from_second(secs)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date()
        .to_string()
}

/// Whether `s` is a calendar date written `YYYY-MM-DD` (`2026-02-30` is not).
pub fn is_date(s: &str) -> bool {
    s.len() == 10 && s.parse::<jiff::civil::Date>().is_ok()
}
