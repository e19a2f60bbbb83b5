//! Tidy checks over the workspace's sources, run by `cargo test` like any
//! other test: they read files and build nothing, so they take milliseconds.
//!
//! `every_module_starts_with_a_doc_comment`: every `.rs` file under
//! `crates/*/src` begins with a `//!` line, so that each module says what it
//! is for and why before any code. An inner attribute (`#![...]`) goes after
//! that doc, which Rust allows.

use std::path::{Path, PathBuf};

/// The workspace root: this crate lives in `crates/cli`.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file below `dir`, recursively. Symbolic links are not
/// followed.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
        let path = entry.path();
        let kind = entry.file_type().unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        if kind.is_dir() {
            rust_files(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// Every `.rs` file under `crates/*/src`, as paths relative to the
/// workspace root, sorted so that the report is the same on every run.
fn source_files(root: &Path) -> Vec<PathBuf> {
    let crates = root.join("crates");
    let mut files = Vec::new();
    let entries = std::fs::read_dir(&crates).unwrap_or_else(|e| panic!("reading {}: {e}", crates.display()));
    for entry in entries {
        let src = entry.expect("a readable crates/ entry").path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    let mut files: Vec<PathBuf> =
        files.into_iter().map(|p| p.strip_prefix(root).expect("found under the root").to_path_buf()).collect();
    files.sort();
    files
}

/// The first line of a file, for the report: at most 60 characters, with
/// anything that is not valid UTF-8 replaced.
fn first_line(bytes: &[u8]) -> String {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let text = String::from_utf8_lossy(line);
    let cut: String = text.chars().take(60).collect();
    if cut.len() < text.len() { format!("{cut}...") } else { cut }
}

#[test]
fn every_module_starts_with_a_doc_comment() {
    let root = workspace_root();
    let files = source_files(&root);
    // A walk that found nothing would pass vacuously; the binary's own
    // `main.rs` must be among the files.
    assert!(
        files.iter().any(|p| p == Path::new("crates/cli/src/main.rs")),
        "the walk from {} missed crates/cli/src/main.rs; found {} files",
        root.display(),
        files.len()
    );
    let mut offenders = Vec::new();
    for path in &files {
        let bytes = std::fs::read(root.join(path)).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        if !bytes.starts_with(b"//!") {
            offenders.push(format!("  {}: starts with {:?}", path.display(), first_line(&bytes)));
        }
    }
    assert!(
        offenders.is_empty(),
        "{} of {} files under crates/*/src do not start with a `//!` line saying what the module is for:\n{}",
        offenders.len(),
        files.len(),
        offenders.join("\n")
    );
}
