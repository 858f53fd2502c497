//! Versions: which tags name a release (a [`TagPattern`]), semver ordering, and the
//! release date of a timestamp.

use std::cmp::Ordering;
use std::fmt;

/// A semantic version `MAJOR.MINOR.PATCH[-PRE][+BUILD]`, ordered as semver orders it
/// (build metadata ignored, a pre-release before its release).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
    /// The pre-release identifiers after `-`, empty for a release.
    pub pre: String,
    /// Build metadata after `+`.
    pub build: String,
}

impl Version {
    /// Parses `1.2.3`, `1.2.3-rc.1`, `1.2.3+build`; `None` for anything else.
    pub fn parse(s: &str) -> Option<Version> {
        let (rest, build) = match s.split_once('+') {
            Some((r, b)) => (r, b),
            None => (s, ""),
        };
        let (core, pre) = match rest.split_once('-') {
            Some((c, p)) => (c, p),
            None => (rest, ""),
        };
        let ident_ok = |x: &str| {
            x.split('.').all(|id| {
                !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            })
        };
        if (!pre.is_empty() && !ident_ok(pre))
            || (!build.is_empty() && !ident_ok(build))
            || rest.ends_with('-')
            || s.ends_with('+')
        {
            return None;
        }
        let mut parts = core.split('.');
        let mut num = || -> Option<u64> {
            let p = parts.next()?;
            if p.is_empty()
                || !p.bytes().all(|b| b.is_ascii_digit())
                || (p.len() > 1 && p.starts_with('0'))
            {
                return None;
            }
            p.parse().ok()
        };
        let (major, minor, patch) = (num()?, num()?, num()?);
        if parts.next().is_some() {
            return None;
        }
        Some(Version {
            major,
            minor,
            patch,
            pre: pre.to_owned(),
            build: build.to_owned(),
        })
    }

    /// `major.minor.patch` with nothing after.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            pre: String::new(),
            build: String::new(),
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre)?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build)?;
        }
        Ok(())
    }
}

fn cmp_pre(a: &str, b: &str) -> Ordering {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        (false, false) => {}
    }
    let mut x = a.split('.');
    let mut y = b.split('.');
    loop {
        match (x.next(), y.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) => {
                let o = match (p.parse::<u64>(), q.parse::<u64>()) {
                    (Ok(m), Ok(n)) => m.cmp(&n),
                    (Ok(_), Err(_)) => Ordering::Less,
                    (Err(_), Ok(_)) => Ordering::Greater,
                    (Err(_), Err(_)) => p.cmp(q),
                };
                if o != Ordering::Equal {
                    return o;
                }
            }
        }
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| cmp_pre(&self.pre, &other.pre))
            .then_with(|| self.build.cmp(&other.build))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

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
        Version::parse(m.as_str())
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

/// The UTC calendar date `YYYY-MM-DD` of `secs` since the epoch.
pub fn date_of(secs: i64) -> String {
    // Howard Hinnant's days-to-civil.
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}
