//! What to run: a program with arguments (or a shell line), and the files
//! to copy into the bot's own folder first.
//!
//! Files are copied, not linked: under landlock the bot can only read its
//! own folder and the system paths, so a link to the contestant's upload
//! directory would not open. Symbolic links inside a copied folder are
//! recreated as links (never followed by the runner, which may be root).

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, lchown, symlink};
use std::path::{Path, PathBuf};

use super::fault::SpawnError;

/// A bot program to run in a fresh folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    pub(crate) program: OsString,
    pub(crate) args: Vec<OsString>,
    pub(crate) files: Vec<PathBuf>,
    pub(crate) env: Vec<(OsString, OsString)>,
}

impl BotCommand {
    /// JVM options that let `java` start within a 512 MiB address space
    /// (`address_space_bytes_max`): without them the JVM reserves heap,
    /// code cache and class space for the whole machine's memory up front
    /// and needs about 4 GiB. Put them before the class name.
    pub const JVM_ARGS_FOR_SANDBOX: [&str; 5] = [
        "-Xmx64m",
        "-Xss512k",
        "-XX:+UseSerialGC",
        "-XX:ReservedCodeCacheSize=32m",
        "-XX:CompressedClassSpaceSize=64m",
    ];

    /// Runs `program`: a name found in the sandbox's `PATH`
    /// (`/usr/local/bin:/usr/bin:/bin`), an absolute path, or a path
    /// relative to the bot's folder such as `./bot` (see [`file`](Self::file)).
    pub fn new(program: impl Into<OsString>) -> BotCommand {
        BotCommand {
            program: program.into(),
            args: Vec::new(),
            files: Vec::new(),
            env: Vec::new(),
        }
    }

    /// Runs `line` with `/bin/sh -c`, in the bot's folder.
    pub fn shell(line: impl Into<OsString>) -> BotCommand {
        BotCommand::new("/bin/sh").arg("-c").arg(line)
    }

    /// Runs the executable at `path`, copied into the bot's folder first.
    pub fn executable(path: impl Into<PathBuf>) -> BotCommand {
        let path = path.into();
        let mut program = OsString::from("./");
        program.push(path.file_name().unwrap_or(path.as_os_str()));
        BotCommand::new(program).file(path)
    }

    /// Adds an argument.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<OsString>) -> BotCommand {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    #[must_use]
    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> BotCommand {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Copies a file into the bot's folder under its own name, or a folder's
    /// contents into the bot's folder, before the program starts.
    #[must_use]
    pub fn file(mut self, path: impl Into<PathBuf>) -> BotCommand {
        self.files.push(path.into());
        self
    }

    /// Sets one more environment variable. The sandbox starts from an empty
    /// environment with `PATH`, `HOME` and `TMPDIR` (the bot's folder) and
    /// `LANG=C.UTF-8`.
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> BotCommand {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Parses a command line as a user types it after `--bot`
    /// (`python3 bots/random.py`, `./a.out`, `java -cp . Bot`). Words are
    /// split on whitespace, with `'…'` and `"…"` quoting (no escapes, no
    /// variables: this is not a shell). A word that contains a `/` and names
    /// an existing file or folder outside the system paths is copied into
    /// the bot's folder and replaced by `./` plus its file name (the program)
    /// or its file name (an argument). So is an argument without a `/` that
    /// names a file of the working folder (`python3 bot.py`), under its own
    /// name; a program without a `/` is looked up in `PATH`, as a shell does.
    pub fn from_command_line(
        line: &str,
        system_paths: &[PathBuf],
    ) -> Result<BotCommand, SpawnError> {
        let words = split_words(line).map_err(|why| SpawnError::Exec {
            program: line.to_string(),
            source: io::Error::new(io::ErrorKind::InvalidInput, why),
        })?;
        let Some((first, rest)) = words.split_first() else {
            return Err(SpawnError::Exec {
                program: line.to_string(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "empty command line"),
            });
        };
        let mut files = Vec::new();
        let mut local = |word: &str, program: bool| -> OsString {
            let path = Path::new(word);
            let is_system = path.is_absolute() && system_paths.iter().any(|p| path.starts_with(p));
            let bare_file = !program && !word.contains('/') && path.is_file();
            match path.file_name() {
                Some(name) if (word.contains('/') && !is_system && path.exists()) || bare_file => {
                    files.push(path.to_path_buf());
                    let mut local = OsString::from(if program { "./" } else { "" });
                    local.push(name);
                    local
                }
                _ => OsString::from(word),
            }
        };
        let program = local(first, true);
        let args: Vec<OsString> = rest.iter().map(|w| local(w, false)).collect();
        Ok(BotCommand {
            program,
            args,
            files,
            env: Vec::new(),
        })
    }

    /// The first file this command copies (the script of `python3
    /// bot.py`, the program of `./bot`), or `None` when it copies no file
    /// or its first is a folder.
    pub fn first_file(&self) -> Option<&Path> {
        self.files.first().map(PathBuf::as_path).filter(|f| f.is_file())
    }

    /// The folder of the first file this command copies (the script of
    /// `python3 bot.py`, the program of `./bot`), or `None` when it copies
    /// no file or its first is a folder already.
    pub fn first_file_folder(&self) -> Option<PathBuf> {
        let first = self.first_file()?;
        Some(match first.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        })
    }

    /// Copies the whole folder of the first file (see
    /// [`first_file_folder`](Self::first_file_folder)) into `snapshot`, an
    /// empty folder of the caller's, and has every start of the bot copy
    /// `snapshot` instead of that file alone, when the folder holds at most
    /// `entries_max` entries (files, folders and links, counted through
    /// every subfolder) and `bytes_max` bytes of files: a bot made of
    /// several files (a module it imports, weights it reads) then finds them
    /// next to it, as it does where it was written. The copy is taken once,
    /// now, so that what is written into the folder later (replays, logs)
    /// never reaches the bot. The contents land in the bot's folder where
    /// the file alone would have been, so the command line is unchanged.
    /// Gives the folder copied, or `None` when there is none to copy.
    ///
    ///
    /// What the runner itself writes into that folder (`left_out`: a
    /// tournament's `--out`, a replay file, given as absolute paths) is
    /// neither counted nor copied: a bot run from its own folder would
    /// otherwise get the run's growing results at every start.
    ///
    /// # Errors
    /// A bigger folder (it could be a whole project or a home directory),
    /// or one that cannot be read or copied, is left alone: the command
    /// still copies the named files only, and the error says which folder
    /// and why.
    pub fn copy_folder_of_first_file(
        &mut self,
        entries_max: usize,
        bytes_max: u64,
        snapshot: &Path,
        left_out: &[PathBuf],
    ) -> Result<Option<PathBuf>, String> {
        let Some(folder) = self.first_file_folder() else {
            return Ok(None);
        };
        // Entries are matched by their place under the folder's real path,
        // as `left_out` holds real paths.
        let real = folder.canonicalize().map_err(|e| format!("{}: it cannot be read: {e}", folder.display()))?;
        let skip = LeftOut { folder: &real, paths: left_out };
        let mut budget = FolderBudget { entries_left: entries_max, bytes_left: bytes_max };
        budget.count(&folder, &skip).map_err(|why| format!("{}: {why}", folder.display()))?;
        copy_tree(&folder, snapshot, &skip, Path::new("")).map_err(|e| format!("{}: it cannot be copied: {e}", folder.display()))?;
        self.files[0] = snapshot.to_path_buf();
        Ok(Some(folder))
    }

    /// Whether the program can be started at all: a path (with a `/`) that
    /// exists, or a name found in the `PATH` bots run with
    /// ([`SANDBOX_PATH_DIRS`](Self::SANDBOX_PATH_DIRS)).
    pub fn program_is_found(&self) -> bool {
        let program = Path::new(&self.program);
        if self.program.to_string_lossy().contains('/') {
            // Copied under its name, or with its folder's contents.
            let copied = |f: &PathBuf| {
                f.file_name() == program.file_name()
                    || program.file_name().is_some_and(|name| f.is_dir() && f.join(name).exists())
            };
            return program.exists() || self.files.iter().any(copied);
        }
        super::sandbox::SANDBOX_PATH.split(':').any(|dir| Path::new(dir).join(program).is_file())
    }

    /// The words of a command line as [`from_command_line`](Self::from_command_line)
    /// splits them (whitespace, `'…'` and `"…"` quoting), before any file
    /// is looked at.
    pub fn words(line: &str) -> Result<Vec<String>, &'static str> {
        split_words(line)
    }

    /// The `PATH` bots run with, for messages.
    pub const SANDBOX_PATH_DIRS: &'static str = super::sandbox::SANDBOX_PATH;

    /// The program as given, for messages.
    pub fn program_display(&self) -> String {
        self.program.to_string_lossy().into_owned()
    }
}

/// The paths a folder copy leaves out, and the real path of the folder
/// they are matched under.
struct LeftOut<'a> {
    folder: &'a Path,
    paths: &'a [PathBuf],
}

impl LeftOut<'_> {
    /// Whether the entry at `relative` (to the folder) is left out.
    fn skips(&self, relative: &Path) -> bool {
        !self.paths.is_empty() && self.paths.iter().any(|p| *p == self.folder.join(relative))
    }
}

/// A copy that leaves nothing out.
fn leave_nothing_out() -> LeftOut<'static> {
    LeftOut { folder: Path::new(""), paths: &[] }
}

/// What is left of the size allowed for a copied folder.
struct FolderBudget {
    entries_left: usize,
    bytes_left: u64,
}

impl FolderBudget {
    /// Counts `folder`'s entries, through its subfolders (links are
    /// counted, not followed, as [`copy_tree`] recreates them), stopping
    /// at the first that does not fit.
    fn count(&mut self, folder: &Path, skip: &LeftOut<'_>) -> Result<(), String> {
        let (entries_max, bytes_max) = (self.entries_left, self.bytes_left);
        self.count_inner(folder, skip, Path::new("")).map_err(|e| match e {
            BudgetError::Entries => format!("it holds more than {entries_max} files and folders"),
            BudgetError::Bytes => format!("its files hold more than {bytes_max} bytes"),
            BudgetError::Io(e) => format!("it cannot be read: {e}"),
        })
    }

    fn count_inner(&mut self, folder: &Path, skip: &LeftOut<'_>, relative: &Path) -> Result<(), BudgetError> {
        for entry in fs::read_dir(folder).map_err(BudgetError::Io)? {
            let entry = entry.map_err(BudgetError::Io)?;
            let here = relative.join(entry.file_name());
            if skip.skips(&here) {
                continue;
            }
            self.entries_left = self.entries_left.checked_sub(1).ok_or(BudgetError::Entries)?;
            let kind = entry.file_type().map_err(BudgetError::Io)?;
            if kind.is_dir() {
                self.count_inner(&entry.path(), skip, &here)?;
            } else if kind.is_file() {
                let len = entry.metadata().map_err(BudgetError::Io)?.len();
                self.bytes_left = self.bytes_left.checked_sub(len).ok_or(BudgetError::Bytes)?;
            }
        }
        Ok(())
    }
}

/// Why a folder does not fit its [`FolderBudget`].
enum BudgetError {
    Entries,
    Bytes,
    Io(io::Error),
}

/// Splits on whitespace with single and double quotes.
fn split_words(line: &str) -> Result<Vec<String>, &'static str> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err("unclosed quote");
    }
    words.extend(word);
    Ok(words)
}

/// Copies each of `files` into `folder` (a file under its name, a folder's
/// contents merged in) and gives everything in `folder` to `owner`.
pub(crate) fn fill_folder(
    folder: &Path,
    files: &[PathBuf],
    owner: Option<u32>,
) -> Result<(), SpawnError> {
    for source in files {
        let err = |source_err: io::Error| SpawnError::Folder {
            path: source.clone(),
            source: source_err,
        };
        let meta = fs::metadata(source).map_err(err)?;
        if meta.is_dir() {
            copy_tree(source, folder, &leave_nothing_out(), Path::new("")).map_err(err)?;
        } else {
            let name = source
                .file_name()
                .ok_or_else(|| err(io::ErrorKind::InvalidInput.into()))?;
            fs::copy(source, folder.join(name)).map_err(err)?;
        }
    }
    if let Some(uid) = owner {
        chown_tree(folder, uid).map_err(|source| SpawnError::Folder {
            path: folder.to_path_buf(),
            source,
        })?;
    }
    Ok(())
}

/// Copies the contents of `from` (at `relative` under the folder `skip`
/// matches against) into `to`, recreating symbolic links, leaving out what
/// `skip` names.
fn copy_tree(from: &Path, to: &Path, skip: &LeftOut<'_>, relative: &Path) -> io::Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let here = relative.join(entry.file_name());
        if skip.skips(&here) {
            continue;
        }
        let target = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            symlink(fs::read_link(entry.path())?, &target)?;
        } else if kind.is_dir() {
            fs::create_dir_all(&target)?;
            fs::set_permissions(&target, entry.metadata()?.permissions())?;
            copy_tree(&entry.path(), &target, skip, &here)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), &target)?;
        }
        // Sockets, FIFOs and devices are not program files; skip them.
    }
    Ok(())
}

/// Gives `path` and everything below it to `uid` (and the gid of the same
/// number), without following links.
fn chown_tree(path: &Path, uid: u32) -> io::Result<()> {
    let meta = fs::symlink_metadata(path)?;
    if meta.uid() != uid || meta.gid() != uid {
        lchown(path, Some(uid), Some(uid))?;
    }
    if meta.is_dir() {
        for entry in fs::read_dir(path)? {
            chown_tree(&entry?.path(), uid)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_with_quotes() {
        assert_eq!(
            split_words(" python3  'my bot.py' \"a b\"c ").unwrap(),
            ["python3", "my bot.py", "a bc"]
        );
        assert_eq!(split_words("x ''").unwrap(), ["x", ""]);
        assert!(split_words("x 'y").is_err());
    }

    #[test]
    fn a_small_folder_of_the_first_file_is_copied_whole() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("bot.py");
        fs::write(&script, "import helper").unwrap();
        fs::write(dir.path().join("helper.py"), "x = 1").unwrap();
        let line = format!("/usr/bin/python3 {}", script.display());
        let cmd = BotCommand::from_command_line(&line, &[PathBuf::from("/usr")]).unwrap();
        let snapshot = tempfile::tempdir().unwrap();
        let mut wide = cmd.clone();
        assert_eq!(wide.copy_folder_of_first_file(2, 100, snapshot.path(), &[]), Ok(Some(dir.path().to_path_buf())));
        assert_eq!(wide.files, [snapshot.path().to_path_buf()]);
        assert_eq!(wide.args, ["bot.py"], "the command line is unchanged");
        // Taken once: a file written into the folder later is not copied.
        fs::write(dir.path().join("late.txt"), "x").unwrap();
        assert!(snapshot.path().join("helper.py").exists() && !snapshot.path().join("late.txt").exists());
        let again = tempfile::tempdir().unwrap();
        let mut exe = BotCommand::from_command_line(&script.display().to_string(), &[]).unwrap();
        assert!(exe.copy_folder_of_first_file(3, 100, again.path(), &[]).unwrap().is_some());
        assert!(exe.program_is_found(), "found in the folder copied");
        let mut same = cmd.clone();
        let why = same.copy_folder_of_first_file(1, 100, again.path(), &[]).unwrap_err();
        assert!(why.contains("more than 1 files"), "{why}");
        assert_eq!(same, cmd);
        let why = same.copy_folder_of_first_file(3, 5, again.path(), &[]).unwrap_err();
        assert!(why.contains("more than 5 bytes"), "{why}");
        assert_eq!(BotCommand::new("python3").copy_folder_of_first_file(2, 100, again.path(), &[]), Ok(None));
    }

    #[test]
    fn what_the_runner_writes_in_the_folder_is_neither_counted_nor_copied() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("bot.py");
        fs::write(&script, "import helper").unwrap();
        fs::write(dir.path().join("helper.py"), "x = 1").unwrap();
        // A tournament's output of many files, and a replay beside the bot.
        let out = dir.path().join("tournament");
        fs::create_dir_all(out.join("games")).unwrap();
        for k in 0..50 {
            fs::write(out.join("games").join(format!("{k}.jsonl")), "x".repeat(100)).unwrap();
        }
        fs::write(dir.path().join("game.jsonl"), "x").unwrap();
        let line = format!("/usr/bin/python3 {}", script.display());
        let cmd = BotCommand::from_command_line(&line, &[PathBuf::from("/usr")]).unwrap();
        let real = |p: &Path| p.canonicalize().unwrap();
        let left_out = [real(&out), real(&dir.path().join("game.jsonl"))];
        let snapshot = tempfile::tempdir().unwrap();
        // Two entries and 18 bytes fit: the output is not counted.
        let mut copy = cmd.clone();
        assert_eq!(copy.copy_folder_of_first_file(2, 18, snapshot.path(), &left_out), Ok(Some(dir.path().to_path_buf())));
        let mut copied: Vec<_> = fs::read_dir(snapshot.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        copied.sort();
        assert_eq!(copied, ["bot.py", "helper.py"]);
        // Without leaving them out, the same folder is too big.
        let mut all = cmd.clone();
        assert!(all.copy_folder_of_first_file(2, 18, tempfile::tempdir().unwrap().path(), &[]).is_err());
    }

    #[test]
    fn local_files_are_copied_and_renamed() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("bot.py");
        fs::write(&script, "print()").unwrap();
        let line = format!("/usr/bin/python3 {} --fast", script.display());
        let cmd = BotCommand::from_command_line(&line, &[PathBuf::from("/usr")]).unwrap();
        assert_eq!(cmd.program, "/usr/bin/python3");
        assert_eq!(cmd.args, ["bot.py", "--fast"]);
        assert_eq!(cmd.files, std::slice::from_ref(&script));
        let cmd = BotCommand::from_command_line(&script.display().to_string(), &[]).unwrap();
        assert_eq!(cmd.program, "./bot.py");
    }
}
