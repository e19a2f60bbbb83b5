//! The documentation's relative links lead somewhere: every `[text](target)`
//! in README.md, ARCHITECTURE.md, SECURITY.md, `docs/*.md`, the client
//! templates' and the starters' READMEs names a file or folder that exists,
//! and a `#heading` after a Markdown file (or alone, for the same file) names
//! one of its headings. Links to other sites are not followed (tests make no
//! request outside the machine). It reads files and builds nothing.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The workspace root: this crate lives in `crates/cli`.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Markdown files whose links are checked, relative to the root, sorted.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "SECURITY.md", "starters/README.md"]
        .iter()
        .map(PathBuf::from)
        .filter(|p| root.join(p).is_file())
        .collect();
    for (dir, name) in [("docs", None), ("clients", Some("README.md"))] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries {
            let path = entry.expect("a readable entry").path();
            let doc = match name {
                None => path.clone(),
                Some(name) => path.join(name),
            };
            if doc.is_file() && doc.extension().is_some_and(|x| x == "md") {
                docs.push(doc.strip_prefix(root).expect("under the root").to_path_buf());
            }
        }
    }
    docs.sort();
    docs
}

/// The lines of `text` outside fenced code blocks, with their numbers
/// (from 1), and with inline code spans blanked out: a link shown as code
/// is an example, not a link.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut prose = String::with_capacity(line.len());
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                prose.push(' ');
            } else {
                prose.push(if in_code { ' ' } else { c });
            }
        }
        out.push((i + 1, prose));
    }
    out
}

/// The targets of the inline links `[text](target)` and images
/// `![alt](target)` of one line. A title after the target (`(a.md "T")`) is
/// dropped.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        if !target.is_empty() {
            targets.push(target.to_string());
        }
        rest = &after[end..];
    }
    targets
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and
/// `_` kept, spaces made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor of a Markdown text: one per heading outside code blocks, a
/// repeated heading getting `-1`, `-2`... as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(&heading.replace('`', ""));
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.insert(anchor);
    }
    found
}

/// What is wrong with the links of the document `doc` (relative to `root`)
/// whose text is `text`: one line per broken link, naming the document, the
/// line and the target.
fn broken_links(root: &Path, doc: &Path, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let dir = doc.parent().unwrap_or(Path::new(""));
    for (number, line) in prose_lines(text) {
        for target in link_targets(&line) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            if path.is_empty() {
                // A heading of this very document.
                let anchor = anchor.unwrap_or_default();
                if !anchors(text).contains(anchor) {
                    problems.push(format!("{}:{number}: ({target}): no heading #{anchor} here", doc.display()));
                }
                continue;
            }
            let file = dir.join(path);
            let full = root.join(&file);
            if !full.exists() {
                problems.push(format!("{}:{number}: ({target}): {} does not exist", doc.display(), file.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if full.extension().is_none_or(|x| x != "md") {
                continue;
            }
            let linked = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("reading {}: {e}", full.display()));
            if !anchors(&linked).contains(anchor) {
                problems.push(format!("{}:{number}: ({target}): {} has no heading #{anchor}", doc.display(), file.display()));
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_in_the_docs_leads_somewhere() {
    let root = workspace_root();
    let docs = documents(&root);
    assert!(
        docs.iter().any(|d| d == Path::new("README.md")) && docs.iter().any(|d| d.starts_with("docs")),
        "README.md and docs/*.md must be among the checked files: {docs:?}"
    );
    let mut problems = Vec::new();
    let mut links = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(root.join(doc)).unwrap_or_else(|e| panic!("reading {}: {e}", doc.display()));
        links += prose_lines(&text).iter().map(|(_, l)| link_targets(l).len()).sum::<usize>();
        problems.extend(broken_links(&root, doc, &text));
    }
    assert!(links > 20, "only {links} links found in {docs:?}: is the link reader broken?");
    assert!(problems.is_empty(), "{} broken links:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn a_broken_link_or_anchor_is_reported_and_code_is_not_read_as_links() {
    let root = workspace_root();
    let text = "# Title\n\n## A `code` heading, twice\n\n## A `code` heading, twice\n\n\
        [fine](../README.md) [self](#title) [second](#a-code-heading-twice-1) ![img](../Cargo.toml)\n\
        [missing](nowhere.md) and [bad anchor](../README.md#no-such-heading) [bad here](#nothing)\n\
        `[in code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n[site](https://example.org/x.md)\n";
    let problems = broken_links(&root, Path::new("docs/example.md"), text);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].starts_with("docs/example.md:8: (nowhere.md)"), "{problems:#?}");
    assert!(problems[1].contains("has no heading #no-such-heading"), "{problems:#?}");
    assert!(problems[2].contains("(#nothing): no heading #nothing here"), "{problems:#?}");
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let found = anchors("# For contestants\n## At home: `play`\n## Rules, settings and maps\n## Rules, settings and maps\n");
    let want: BTreeSet<String> = ["for-contestants", "at-home-play", "rules-settings-and-maps", "rules-settings-and-maps-1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, want);
}
