//! Unique chart and page file names, HTML ids and filter lists.

use std::collections::HashSet;

/// Gives every chart a unique file name made of `[a-z0-9_-]`.
#[derive(Default)]
pub(crate) struct Names {
    used: HashSet<String>,
}

impl Names {
    pub(crate) fn unique(&mut self, parts: &[&str], ext: &str) -> String {
        let base = parts.iter().map(|p| slug(p)).collect::<Vec<_>>().join("-");
        let mut name = format!("{base}.{ext}");
        let mut i = 2;
        while !self.used.insert(name.clone()) {
            name = format!("{base}-{i}.{ext}");
            i += 1;
        }
        name
    }
}

/// Lower-case ASCII letters, digits, `_` and `-`; anything else becomes `_`.
pub fn slug(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '_' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect();
    if s.is_empty() { "_".to_string() } else { s }
}

pub(super) fn push_unique(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_slugs() {
        let mut names = Names::default();
        assert_eq!(
            names.unique(&["id_table", "<script>"], "svg"),
            "id_table-_script_.svg"
        );
        assert_eq!(
            names.unique(&["id_table", "(script)"], "svg"),
            "id_table-_script_-2.svg"
        );
    }
}
