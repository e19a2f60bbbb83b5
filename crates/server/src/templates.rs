//! Client templates: `GET /api/templates/{lang}?user=ID&code=CODE` hands a
//! player a ready-to-run bot as a `.zip`, as Codenjoy's "download the client
//! templates" step does.
//!
//! The sources live in `clients/<lang>/` and are compiled into the binary,
//! so a deployed server needs no files beside it. Each file's placeholder
//! [`PLACEHOLDER`] is replaced by the player's page URL, which is why the
//! download is authenticated like the bot socket: the archive carries the
//! player's secret code.
//!
//! The archive is written here rather than with a crate: stored (not
//! compressed) entries need only a CRC-32 and three fixed-layout headers,
//! and the files are a few kilobytes.

use crate::app::{AppError, AppState, player_url};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The text in template files that becomes the player's page URL.
pub const PLACEHOLDER: &str = "SNAKEPIT_PLAYER_URL";

/// One language's client: its files, by path inside the archive.
pub struct Template {
    /// The `{lang}` of the route.
    pub lang: &'static str,
    /// (path, contents) of every file.
    pub files: &'static [(&'static str, &'static str)],
}

/// Includes `clients/<lang>/<path>` as (path, contents).
macro_rules! client_file {
    ($lang:literal, $path:literal) => {
        ($path, include_str!(concat!("../../../clients/", $lang, "/", $path)))
    };
}

/// Every template. Build outputs and installed packages (`node_modules`,
/// `target`) are deliberately absent: the player builds and installs.
pub const TEMPLATES: &[Template] = &[
    Template {
        lang: "python",
        files: &[
            client_file!("python", "README.md"),
            client_file!("python", "requirements.txt"),
            client_file!("python", "main.py"),
            client_file!("python", "board.py"),
            client_file!("python", "solver.py"),
        ],
    },
    Template {
        lang: "javascript",
        files: &[
            client_file!("javascript", "README.md"),
            client_file!("javascript", "package.json"),
            client_file!("javascript", "package-lock.json"),
            client_file!("javascript", "main.js"),
            client_file!("javascript", "board.js"),
            client_file!("javascript", "solver.js"),
        ],
    },
    Template {
        lang: "java",
        files: &[
            client_file!("java", "README.md"),
            client_file!("java", "Main.java"),
            client_file!("java", "Element.java"),
            client_file!("java", "Board.java"),
            client_file!("java", "Point.java"),
            client_file!("java", "Direction.java"),
            client_file!("java", "Solver.java"),
        ],
    },
    Template {
        lang: "csharp",
        files: &[
            client_file!("csharp", "README.md"),
            client_file!("csharp", "Program.cs"),
            client_file!("csharp", "Element.cs"),
            client_file!("csharp", "Board.cs"),
            client_file!("csharp", "Solver.cs"),
        ],
    },
    Template {
        lang: "rust",
        files: &[
            client_file!("rust", "README.md"),
            client_file!("rust", "Cargo.toml"),
            client_file!("rust", "Cargo.lock"),
            client_file!("rust", "src/main.rs"),
            client_file!("rust", "src/board.rs"),
            client_file!("rust", "src/solver.rs"),
        ],
    },
];

/// The template for a language, if there is one.
pub fn template(lang: &str) -> Option<&'static Template> {
    TEMPLATES.iter().find(|t| t.lang == lang)
}

/// Whether `url` can be pasted into a string literal of any template
/// language as it is. The Host header is the client's to choose, and a
/// quote or backslash in it would break (or inject into) the sources.
fn literal_safe(url: &str) -> bool {
    url.bytes().all(|b| b.is_ascii_alphanumeric() || b":/?&=.-_~[]%".contains(&b))
}

/// The archive of `t` for the player whose page is `url`, with every file
/// under a folder `snakepit-<lang>/`.
pub fn archive(t: &Template, url: &str) -> Vec<u8> {
    let mut zip = ZipWriter::default();
    for (path, text) in t.files {
        let name = format!("snakepit-{}/{path}", t.lang);
        zip.add(&name, text.replace(PLACEHOLDER, url).as_bytes());
    }
    zip.finish()
}

/// `GET /api/templates/{lang}?user=ID&code=CODE`.
pub async fn download(
    State(st): State<Arc<AppState>>,
    Path(lang): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let Some(t) = template(&lang) else {
        let langs: Vec<_> = TEMPLATES.iter().map(|t| t.lang).collect();
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no template {lang:?}; there are {}", langs.join(", "))));
    };
    let unauthorized = || AppError::Client(StatusCode::UNAUTHORIZED, "a valid user and code are required".to_string());
    let (Some(user), Some(code)) = (q.get("user").cloned(), q.get("code").cloned()) else {
        return Err(unauthorized());
    };
    if user.len() > 64 || code.len() > 64 {
        return Err(unauthorized());
    }
    let player = st.store.authenticate(&user, &code).await?.ok_or_else(unauthorized)?;
    // The clients play SnakeBattle's boards; a Hex or arena player would
    // get a bot for another game.
    if player.game != "snakebattle" {
        return Err(AppError::Client(
            StatusCode::NOT_FOUND,
            format!("the client templates play snakebattle; {} plays {}", player.name, player.game),
        ));
    }
    let url = player_url(&headers, &player.id, &code);
    if !literal_safe(&url) {
        return Err(AppError::Client(StatusCode::BAD_REQUEST, "the Host header has characters a URL cannot have".to_string()));
    }
    let body = archive(t, &url);
    let disposition = format!("attachment; filename=\"snakepit-{}.zip\"", t.lang);
    let mut resp = body.into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/zip"));
    h.insert(header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(|e| AppError::Server(e.into()))?);
    // The archive holds the player's secret code.
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// CRC-32 (IEEE 802.3, reflected, as zip uses it), one byte at a time from
/// a table built at compile time.
pub fn crc32(data: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    !data.iter().fold(!0u32, |c, &b| TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8))
}

/// A fixed timestamp (2024-01-01 00:00, MS-DOS format) so that the same
/// files always give the same archive.
const DOS_TIME: u16 = 0;
const DOS_DATE: u16 = ((2024 - 1980) << 9) | (1 << 5) | 1;
/// Bit 11: names are UTF-8.
const FLAG_UTF8: u16 = 1 << 11;
/// Version 1.0 is enough to extract stored entries.
const VERSION_NEEDED: u16 = 10;
/// Made by Unix (high byte 3), spec 2.0, so the mode in the external
/// attributes is honoured.
const VERSION_MADE_BY: u16 = (3 << 8) | 20;
/// A regular file, rw-r--r--.
const UNIX_MODE: u32 = 0o100_644;

/// Writes a zip archive of stored entries, in memory.
#[derive(Default)]
pub struct ZipWriter {
    out: Vec<u8>,
    central: Vec<u8>,
    entries: u16,
}

fn put16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn put32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

impl ZipWriter {
    /// Adds one file. Templates are kilobytes, so sizes and counts fit the
    /// classic (non-zip64) fields; larger input is a bug, hence the panic.
    pub fn add(&mut self, name: &str, data: &[u8]) {
        let size = u32::try_from(data.len()).expect("a template file is under 4 GiB");
        let offset = u32::try_from(self.out.len()).expect("a template archive is under 4 GiB");
        let name_len = u16::try_from(name.len()).expect("a file name is under 64 KiB");
        let crc = crc32(data);

        let o = &mut self.out;
        put32(o, 0x0403_4b50);
        put16(o, VERSION_NEEDED);
        put16(o, FLAG_UTF8);
        put16(o, 0); // stored
        put16(o, DOS_TIME);
        put16(o, DOS_DATE);
        put32(o, crc);
        put32(o, size);
        put32(o, size);
        put16(o, name_len);
        put16(o, 0); // extra field length
        o.extend_from_slice(name.as_bytes());
        o.extend_from_slice(data);

        let c = &mut self.central;
        put32(c, 0x0201_4b50);
        put16(c, VERSION_MADE_BY);
        put16(c, VERSION_NEEDED);
        put16(c, FLAG_UTF8);
        put16(c, 0); // stored
        put16(c, DOS_TIME);
        put16(c, DOS_DATE);
        put32(c, crc);
        put32(c, size);
        put32(c, size);
        put16(c, name_len);
        put16(c, 0); // extra field length
        put16(c, 0); // comment length
        put16(c, 0); // disk number
        put16(c, 0); // internal attributes
        put32(c, UNIX_MODE << 16);
        put32(c, offset);
        c.extend_from_slice(name.as_bytes());

        self.entries += 1;
    }

    /// Appends the central directory and its end record.
    pub fn finish(mut self) -> Vec<u8> {
        let offset = u32::try_from(self.out.len()).expect("a template archive is under 4 GiB");
        let size = u32::try_from(self.central.len()).expect("a central directory is under 4 GiB");
        self.out.extend_from_slice(&self.central);
        let o = &mut self.out;
        put32(o, 0x0605_4b50);
        put16(o, 0); // this disk
        put16(o, 0); // disk with the central directory
        put16(o, self.entries);
        put16(o, self.entries);
        put32(o, size);
        put32(o, offset);
        put16(o, 0); // comment length
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u16_at(b: &[u8], i: usize) -> u16 {
        u16::from_le_bytes([b[i], b[i + 1]])
    }

    fn u32_at(b: &[u8], i: usize) -> u32 {
        u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
    }

    /// Reads a stored archive back through its central directory, checking
    /// each entry's local header and CRC on the way.
    fn read_back(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
        let end = zip.len() - 22;
        assert_eq!(u32_at(zip, end), 0x0605_4b50, "end record at the very end");
        let count = usize::from(u16_at(zip, end + 10));
        let cd_size = u32_at(zip, end + 12) as usize;
        let mut at = u32_at(zip, end + 16) as usize;
        assert_eq!(at + cd_size, end, "the central directory ends where the end record starts");
        let mut files = Vec::new();
        for _ in 0..count {
            assert_eq!(u32_at(zip, at), 0x0201_4b50);
            let crc = u32_at(zip, at + 16);
            let size = u32_at(zip, at + 24) as usize;
            let name_len = usize::from(u16_at(zip, at + 28));
            let local = u32_at(zip, at + 42) as usize;
            let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
            assert_eq!(u32_at(zip, local), 0x0403_4b50);
            assert_eq!(u16_at(zip, local + 8), 0, "stored");
            assert_eq!(u32_at(zip, local + 14), crc);
            assert_eq!(&zip[local + 30..local + 30 + name_len], name.as_bytes());
            let data = zip[local + 30 + name_len..local + 30 + name_len + size].to_vec();
            assert_eq!(crc32(&data), crc);
            files.push((name, data));
            at += 46 + name_len;
        }
        files
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b"The quick brown fox jumps over the lazy dog"), 0x414F_A339);
    }

    #[test]
    fn an_archive_reads_back_as_written() {
        let mut z = ZipWriter::default();
        z.add("a/one.txt", b"hello");
        z.add("a/\u{263C}.txt", "☼☼".as_bytes());
        z.add("empty", b"");
        let files = read_back(&z.finish());
        assert_eq!(
            files,
            vec![
                ("a/one.txt".to_string(), b"hello".to_vec()),
                ("a/☼.txt".to_string(), "☼☼".as_bytes().to_vec()),
                ("empty".to_string(), vec![]),
            ]
        );
    }

    #[test]
    fn every_template_gets_the_url_and_keeps_no_placeholder() {
        let url = "http://example.test:8080/codenjoy-contest/board/player/abc?code=123";
        for t in TEMPLATES {
            let files = read_back(&archive(t, url));
            assert_eq!(files.len(), t.files.len(), "{}", t.lang);
            let mut has_url = false;
            for (name, data) in files {
                assert!(name.starts_with(&format!("snakepit-{}/", t.lang)), "{name}");
                let text = String::from_utf8(data).unwrap();
                assert!(!text.contains(PLACEHOLDER), "{name} still has the placeholder");
                has_url |= text.contains(url);
            }
            assert!(has_url, "{}: no file took the URL", t.lang);
        }
    }

    #[test]
    fn urls_that_could_break_a_string_literal_are_refused() {
        assert!(literal_safe("http://127.0.0.1:8080/codenjoy-contest/board/player/abc?code=123"));
        assert!(literal_safe("http://[::1]:80/x?code=1"));
        assert!(!literal_safe("http://a\"b/x"));
        assert!(!literal_safe("http://a\\b/x"));
        assert!(!literal_safe("http://a'b/x"));
        assert!(!literal_safe("http://a b/x"));
    }

    /// Each client's glyph table holds every glyph of `codenjoy.md` §1.2 in
    /// the order of upstream's enum, and none uses the CodeBattle
    /// description's typo for the enemy body.
    #[test]
    fn every_template_knows_every_glyph_in_order() {
        use snakepit_protocol::codenjoy::Element;
        const TABLES: [(&str, &str); 5] = [
            ("python", "board.py"),
            ("javascript", "board.js"),
            ("java", "Element.java"),
            ("csharp", "Element.cs"),
            ("rust", "src/board.rs"),
        ];
        for (lang, path) in TABLES {
            let t = template(lang).unwrap();
            let text = t.files.iter().find(|f| f.0 == path).unwrap().1;
            let mut last = 0;
            for e in Element::ALL {
                let glyph = e.glyph();
                let at = [format!("'{glyph}'"), format!("\"{glyph}\"")]
                    .iter()
                    .filter_map(|q| text.find(q.as_str()))
                    .min()
                    .unwrap_or_else(|| panic!("{lang} {path} lacks {e:?} {glyph:?}"));
                assert!(at >= last, "{lang} {path}: {e:?} is out of order");
                last = at;
            }
            assert!(!text.contains('\u{2014}'), "{lang} uses U+2014 for the enemy body");
        }
    }
}
