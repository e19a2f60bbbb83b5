//! A tournament's replays, many games to a file: `games/batch-NNNNNN.jsonl.gz`
//! holds games `NNNNNN` to `NNNNNN + 999` in game order.
//!
//! A batch is a gzip file of one *member* per file of a game: the replay,
//! named `NNNNNN.jsonl` in the member's header, and right after it, when a
//! process bot wrote on stderr or failed, its stderr log
//! `NNNNNN.jsonl.stderr.jsonl`. Members are compressed one by one (by the
//! thread that played the game) and appended as games are written, so a
//! crash cuts at most the member being written, and `zcat` (or any gzip
//! reader) reads the whole batch as the games' files one after the other.
//!
//! Every command that reads a replay file (`replay`, `replay --verify`,
//! `--html`, `--from-tick`) takes `games/NNNNNN.jsonl` as a path even
//! though no such file exists: when the file is missing and the batch next
//! to it has a member of that name, the member is read ([`read_file`]). A
//! million games make a thousand files instead of a million (creating a
//! file costs more than playing a game of built-in snakes), and a replay
//! takes about half its size (its per-tick checksums do not compress).

use crate::exit::BadInput;
use flate2::bufread::GzDecoder;
use flate2::{Compress, Compression, Crc, FlushCompress, Status};
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Games in one batch file.
pub const GAMES_PER_BATCH: u64 = 1000;

/// The batch file holding `game`, in the games folder.
pub fn batch_name(game: u64) -> String {
    format!("batch-{:06}.jsonl.gz", game / GAMES_PER_BATCH * GAMES_PER_BATCH)
}

/// The name of `game`'s replay, in its batch and as a path.
pub fn replay_name(game: u64) -> String {
    format!("{game:06}.jsonl")
}

/// The name of `game`'s stderr log.
pub fn log_name(game: u64) -> String {
    format!("{game:06}.jsonl.stderr.jsonl")
}

/// gzip's fastest level: the batch is written while games are played, and
/// level 1 already takes most of what a higher level would.
const LEVEL: u32 = 1;

/// Packs games for their batch, keeping one compressor from game to game
/// (making one costs as much as compressing a short game).
pub struct Packer {
    deflate: Compress,
}

impl Default for Packer {
    fn default() -> Self {
        Packer { deflate: Compress::new(Compression::new(LEVEL), false) }
    }
}

impl Packer {
    /// A game's members, ready to append to its batch: the replay, then
    /// the stderr log if it is not empty.
    pub fn pack(&mut self, game: u64, replay: &[u8], log: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(replay.len() / 2 + 64);
        self.member(&mut out, &replay_name(game), replay);
        if !log.is_empty() {
            self.member(&mut out, &log_name(game), log.as_bytes());
        }
        out
    }

    /// One member: `text` compressed under `name`, framed as RFC 1952 says
    /// and as `flate2`'s `GzBuilder` frames it (no time, so the same game
    /// gives the same bytes; the fast level's flag; "unknown" system).
    fn member(&mut self, out: &mut Vec<u8>, name: &str, text: &[u8]) {
        const FNAME: u8 = 0x08;
        const FASTEST: u8 = 4;
        const UNKNOWN_OS: u8 = 255;
        out.extend_from_slice(&[0x1f, 0x8b, 8, FNAME, 0, 0, 0, 0, FASTEST, UNKNOWN_OS]);
        // A name holding a NUL would end early; ours are digits and dots.
        out.extend(name.bytes().filter(|&b| b != 0));
        out.push(0);
        self.deflate.reset();
        // The text, then the end of the stream, as `flate2`'s writer feeds
        // them (the blocks depend on it).
        let mut input = text;
        while !input.is_empty() {
            out.reserve(input.len() / 2 + 64);
            let before = self.deflate.total_in();
            self.deflate.compress_vec(input, out, FlushCompress::None).expect("deflating to memory does not fail");
            input = &input[(self.deflate.total_in() - before) as usize..];
        }
        loop {
            out.reserve(64);
            let status = self.deflate.compress_vec(&[], out, FlushCompress::Finish).expect("deflating to memory does not fail");
            if status == Status::StreamEnd {
                break;
            }
        }
        let mut crc = Crc::new();
        crc.update(text);
        out.extend_from_slice(&crc.sum().to_le_bytes());
        // ISIZE: the length modulo 2^32.
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    }
}

/// [`Packer::pack`] with a compressor of its own.
#[cfg(test)]
fn pack(game: u64, replay: &str, log: &str) -> Vec<u8> {
    Packer::default().pack(game, replay.as_bytes(), log)
}

/// One member read back: its name, its text, and its compressed bytes.
pub struct Member {
    /// The name in its header.
    pub name: String,
    /// The text.
    pub text: Vec<u8>,
    /// The member as stored.
    pub raw: std::ops::Range<usize>,
}

/// The members of a batch's bytes, in order, up to the first that is cut
/// or damaged (the crash of a writer): `(members, whole)`.
#[cfg(test)]
fn members(bytes: &[u8]) -> (Vec<Member>, bool) {
    let mut out = Vec::new();
    let whole = each_member(bytes, |m| {
        out.push(m);
        true
    });
    (out, whole)
}

/// Hands the members of a batch's bytes to `take` one at a time, in
/// order, until `take` says to stop (false) or a member is cut or
/// damaged; whether every member was whole (true when stopped early). A
/// batch is a thousand games: its text is never all in memory at once.
pub fn each_member(bytes: &[u8], mut take: impl FnMut(Member) -> bool) -> bool {
    let mut rest = bytes;
    while !rest.is_empty() {
        let start = bytes.len() - rest.len();
        let mut dec = GzDecoder::new(rest);
        let mut text = Vec::new();
        if dec.read_to_end(&mut text).is_err() {
            return false;
        }
        let name = dec.header().and_then(|h| h.filename()).map(|n| String::from_utf8_lossy(n).into_owned());
        let left = dec.into_inner();
        let Some(name) = name else { return false };
        let end = bytes.len() - left.len();
        if end == start {
            return false;
        }
        if !take(Member { name, text, raw: start..end }) {
            return true;
        }
        rest = left;
    }
    true
}

/// The game a member's name is of (`NNNNNN.jsonl` or its stderr log).
pub fn game_of(name: &str) -> Option<u64> {
    let digits = name.strip_suffix(".jsonl.stderr.jsonl").or_else(|| name.strip_suffix(".jsonl"))?;
    (digits.len() >= 6 && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok()).flatten()
}

/// The batch that would hold the file at `path` (`.../NNNNNN.jsonl` or its
/// stderr log), and the member's name.
fn batch_of(path: &Path) -> Option<(PathBuf, String)> {
    let name = path.file_name()?.to_str()?;
    let game = game_of(name)?;
    Some((path.with_file_name(batch_name(game)), name.to_string()))
}

/// Whether `path` is a file, or a member of the batch next to it.
pub fn exists(path: &Path) -> bool {
    path.exists() || matches!(read_member(path), Ok(Some(_)))
}

/// The file at `path`, or, when there is none, the member of that name in
/// the batch next to it; `Ok(None)` when neither is there.
fn read_member(path: &Path) -> Result<Option<Vec<u8>>, BadInput> {
    let Some((batch, name)) = batch_of(path) else { return Ok(None) };
    let bytes = match std::fs::read(&batch) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(BadInput(format!("{}: {e}", batch.display()))),
    };
    let mut found = None;
    each_member(&bytes, |m| {
        if m.name == name {
            found = Some(m.text);
        }
        found.is_none()
    });
    Ok(found)
}

/// The bytes of the file at `path`, read from its batch when the file is
/// not there (see the module docs).
pub fn read_file(path: &Path) -> Result<Vec<u8>, BadInput> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => match read_member(path)? {
            Some(text) => Ok(text),
            None => Err(BadInput(format!("{}: {e}", path.display()))),
        },
        Err(e) => Err(BadInput(format!("{}: {e}", path.display()))),
    }
}

/// The games of `wanted` found in the batches of `dir`: `(game, replay,
/// stderr log)`, each batch read once; a missing batch has none.
pub fn read_games(dir: &Path, wanted: &std::collections::BTreeSet<u64>) -> Result<Vec<(u64, String, Option<String>)>, BadInput> {
    let mut out: Vec<(u64, String, Option<String>)> = Vec::new();
    let mut batches: Vec<u64> = wanted.iter().map(|g| g / GAMES_PER_BATCH).collect();
    batches.dedup();
    for b in batches {
        let path = dir.join(batch_name(b * GAMES_PER_BATCH));
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            // Games of an older snakepit, one file each.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(BadInput(format!("{}: {e}", path.display()))),
        };
        each_member(&bytes, |m| {
            let Some(game) = game_of(&m.name).filter(|g| wanted.contains(g)) else { return true };
            let text = String::from_utf8_lossy(&m.text).into_owned();
            if m.name == log_name(game) {
                if let Some(last) = out.last_mut().filter(|l| l.0 == game) {
                    last.2 = Some(text);
                }
            } else {
                out.push((game, text, None));
            }
            true
        });
    }
    Ok(out)
}

/// Appends games to the batches of a games folder, in game order.
///
/// Members are kept in memory until [`Writer::flush`] (or the move to the
/// next batch) and written in one write: a write per game cost more than
/// a game of built-in snakes. A crash leaves whole members and at most one
/// cut, which [`trim`] removes.
pub struct Writer {
    dir: PathBuf,
    /// The open batch and the first game of it.
    open: Option<(u64, File)>,
    /// Members appended to the open batch and not written yet.
    buffer: Vec<u8>,
}

impl Writer {
    /// A writer into `dir`, whose batches hold exactly the games before
    /// `next` (see [`trim`]).
    pub fn new(dir: &Path) -> Writer {
        Writer { dir: dir.to_path_buf(), open: None, buffer: Vec::new() }
    }

    /// Appends `game`'s packed members ([`Packer::pack`]) to its batch.
    pub fn append(&mut self, game: u64, packed: &[u8]) -> std::io::Result<()> {
        let first = game / GAMES_PER_BATCH * GAMES_PER_BATCH;
        if self.open.as_ref().is_none_or(|(f, _)| *f != first) {
            self.flush()?;
            let path = self.dir.join(batch_name(first));
            let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
            self.open = Some((first, file));
        }
        self.buffer.extend_from_slice(packed);
        Ok(())
    }

    /// Bytes appended and not written yet.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// Writes what was appended.
    pub fn flush(&mut self) -> std::io::Result<()> {
        if let Some((_, file)) = &mut self.open
            && !self.buffer.is_empty()
        {
            file.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(())
    }
}

/// Makes the batches of `dir` hold the games before `next` and nothing
/// else: a run that stopped (or crashed) may have written a member, or
/// part of one, for a game whose result it did not write. Batches after
/// `next`'s go too.
pub fn trim(dir: &Path, next: u64) -> Result<(), BadInput> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(BadInput(format!("{}: {e}", dir.display()))),
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(first) = name.to_str().and_then(|n| n.strip_prefix("batch-")?.strip_suffix(".jsonl.gz")?.parse::<u64>().ok()) else {
            continue;
        };
        let path = entry.path();
        if first + GAMES_PER_BATCH <= next {
            continue;
        }
        let cannot = |e: std::io::Error| BadInput(format!("{}: {e}", path.display()));
        if first >= next {
            std::fs::remove_file(&path).map_err(cannot)?;
            continue;
        }
        let bytes = std::fs::read(&path).map_err(cannot)?;
        let mut keep = 0;
        let whole = each_member(&bytes, |m| {
            let before = game_of(&m.name).is_some_and(|g| g < next);
            if before {
                keep = m.raw.end;
            }
            before
        });
        if keep < bytes.len() || !whole {
            let file = std::fs::OpenOptions::new().write(true).open(&path).map_err(cannot)?;
            file.set_len(keep as u64).map_err(cannot)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_come_back_with_their_names() {
        let mut bytes = pack(7, "{\"a\":1}\n", "");
        bytes.extend(pack(8, "{\"b\":2}\n", "{\"seat\":0}\n"));
        let (found, whole) = members(&bytes);
        assert!(whole);
        let names: Vec<&str> = found.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["000007.jsonl", "000008.jsonl", "000008.jsonl.stderr.jsonl"]);
        assert_eq!(found[1].text, b"{\"b\":2}\n");
        assert_eq!(found[2].text, b"{\"seat\":0}\n");
        // Any gzip reader reads the batch as the files one after the other.
        let mut all = String::new();
        flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_string(&mut all).unwrap();
        assert_eq!(all, "{\"a\":1}\n{\"b\":2}\n{\"seat\":0}\n");
        // The same game gives the same bytes.
        assert_eq!(pack(7, "{\"a\":1}\n", ""), pack(7, "{\"a\":1}\n", ""));
    }

    #[test]
    fn members_are_framed_as_flate2_frames_them() {
        // The hand-made header and trailer give the bytes `GzBuilder` gives
        // (older batches were written with it), over texts long enough to
        // take several deflate blocks, and a compressor kept from member to
        // member gives what a new one gives.
        let text: String = (0..4000).map(|t| format!("{{\"t\":{t},\"m\":[\"U\",\"L\"],\"c\":\"{:016x}\"}}\n", (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))).collect();
        let mut packer = Packer::default();
        for (name, text) in [("000001.jsonl", &text[..]), ("000002.jsonl", "short\n"), ("000003.jsonl", ""), ("000004.jsonl", &text[..999])] {
            let mut ours = Vec::new();
            packer.member(&mut ours, name, text.as_bytes());
            let mut theirs = Vec::new();
            let mut enc = flate2::GzBuilder::new().filename(name).mtime(0).write(&mut theirs, Compression::new(LEVEL));
            enc.write_all(text.as_bytes()).unwrap();
            enc.finish().unwrap();
            assert!(ours == theirs, "{name}: {} bytes, flate2 {}", ours.len(), theirs.len());
            let (found, whole) = members(&ours);
            assert!(whole);
            assert_eq!((found[0].name.as_str(), &found[0].text[..]), (name, text.as_bytes()));
        }
    }

    #[test]
    fn a_cut_member_ends_the_batch() {
        let mut bytes = pack(1, "one\n", "");
        let second = pack(2, "two\n", "");
        bytes.extend(&second[..second.len() - 3]);
        let (found, whole) = members(&bytes);
        assert!(!whole);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].raw, 0..pack(1, "one\n", "").len());
    }

    #[test]
    fn paths_of_games_read_from_their_batch_and_trim_keeps_the_games_before_next() {
        let dir = std::env::temp_dir().join(format!("snakepit-batch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = Writer::new(&dir);
        for game in [0, 1, 2, 999, 1000] {
            w.append(game, &pack(game, &format!("game {game}\n"), if game == 1 { "log\n" } else { "" })).unwrap();
        }
        // The first batch is written when the second opens; the second on
        // a flush.
        assert_eq!(read_file(&dir.join("000999.jsonl")).unwrap(), b"game 999\n");
        assert!(read_file(&dir.join("001000.jsonl")).is_err());
        w.flush().unwrap();
        drop(w);
        assert_eq!(read_file(&dir.join("000002.jsonl")).unwrap(), b"game 2\n");
        assert_eq!(read_file(&dir.join("001000.jsonl")).unwrap(), b"game 1000\n");
        assert_eq!(read_file(&dir.join("000001.jsonl.stderr.jsonl")).unwrap(), b"log\n");
        assert!(!exists(&dir.join("000000.jsonl.stderr.jsonl")));
        assert!(read_file(&dir.join("000003.jsonl")).unwrap_err().0.contains("000003.jsonl"));
        let wanted = [1, 999].into_iter().collect();
        let games = read_games(&dir, &wanted).unwrap();
        assert_eq!(games, [(1, "game 1\n".to_string(), Some("log\n".to_string())), (999, "game 999\n".to_string(), None)]);

        // A crash cut game 3's member: trimming to the games before 2
        // keeps games 0 and 1 (with its log) whole and drops the rest.
        let batch = dir.join(batch_name(0));
        let mut bytes = std::fs::read(&batch).unwrap();
        bytes.extend(&pack(3, "game 3\n", "")[..10]);
        std::fs::write(&batch, &bytes).unwrap();
        trim(&dir, 2).unwrap();
        let (found, whole) = members(&std::fs::read(&batch).unwrap());
        assert!(whole);
        let names: Vec<&str> = found.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["000000.jsonl", "000001.jsonl", "000001.jsonl.stderr.jsonl"]);
        assert!(!dir.join(batch_name(1000)).exists(), "a later batch goes");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
