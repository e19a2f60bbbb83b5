//! Programs saved as source text (uploaded in the browser): the languages,
//! the files each is written as, and the shell line that builds and runs
//! it in the bot's folder.
//!
//! Compiled languages are compiled inside the sandbox, by a compiler with
//! no more rights than the program, within the first move's longer
//! deadline; the compiler's messages go to stderr, the owner's pane. A
//! caller that builds once ([`SourceProgram::build_check_line`]) keeps what
//! the build made beside the source ([`SourceProgram::keep_built`]), and
//! every later start runs it without compiling again.
//! The same [`SourceProgram`] serves a room's program and a queued game
//! (ladder, fork), so a program plays the same way in both.
//!
//! Java comes in two shapes. A class with `main` reads stdin and writes
//! stdout like any other program. In a duel, a class that implements
//! `java.util.function.Supplier<Integer>` is a KingOfBots bot as that arena
//! takes it, unmodified (a `main` beside it is ignored, as there): it runs
//! under the harness of `starters/duel/java-harness`, which writes each
//! round's input to `input.txt` and calls `get()` on a new instance of a
//! freshly loaded class.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use crate::process::{BotCommand, BotFault, ProcessBot, Reply, SandboxLimits, SpawnError, StderrLines};

/// One language a program may be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Language {
    /// The key clients send (`python`).
    pub key: &'static str,
    /// The name shown to people.
    pub label: &'static str,
}

/// Every language of saved programs.
pub const LANGUAGES: &[Language] = &[
    Language { key: "python", label: "Python 3" },
    Language { key: "javascript", label: "JavaScript (node)" },
    Language { key: "c", label: "C (gcc)" },
    Language { key: "java", label: "Java 17" },
];

/// The harness that runs a KingOfBots `Supplier<Integer>` bot.
const KINGOFBOTS_HARNESS: &str = include_str!("../../../starters/duel/java-harness/Harness.java");

/// The options that keep `javac` within the sandbox's address space (see
/// [`BotCommand::JVM_ARGS_FOR_SANDBOX`]); the C1 compiler alone starts it
/// faster, which the first move's deadline feels.
const JAVAC_JVM_ARGS: &str = "-J-Xmx128m -J-Xss512k -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 \
     -J-XX:ReservedCodeCacheSize=32m -J-XX:CompressedClassSpaceSize=64m";

/// A saved program ready to be written and run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceProgram {
    /// Files to write into the bot's folder: name and contents.
    pub files: Vec<(String, String)>,
    /// The line `/bin/sh -c` runs in the bot's folder. It holds no quote
    /// characters, so it can be quoted as one word of a command line.
    pub shell_line: String,
    /// For a compiled language, the build alone: run in the bot's folder, it
    /// waits for a request line, sends the compiler's messages to stderr and
    /// answers one line, the compiler's exit status (so the transport's ask
    /// can wait for it), then waits until it is killed.
    pub build_check_line: Option<String>,
    /// What the build makes in the bot's folder (a file or a folder), which
    /// the run line uses as it is when it is there already.
    pub built: Option<&'static str>,
    /// For an interpreted language, a check that the program parses, run
    /// like the build (one line back, the checker's exit status; its
    /// messages on stderr) when the program is saved: a program with a
    /// syntax error is refused with the interpreter's words instead of
    /// failing at every start.
    pub syntax_check_line: Option<String>,
}

/// The most [`SourceProgram::keep_built`] copies, in bytes, files and
/// folder depth: far more than a bot's build makes.
const BUILT_BYTES_MAX: u64 = 64 << 20;
const BUILT_FILES_MAX: usize = 4096;
const BUILT_DEPTH_MAX: usize = 32;

impl SourceProgram {
    /// How to run `source`, written in the language `lang`, as a player of
    /// `game`. Fails, with a message for the program's author, when the
    /// language is unknown or a Java program has nothing to run.
    pub fn new(game: &str, lang: &str, source: &str) -> Result<SourceProgram, String> {
        let one = |name: &str, line: String| SourceProgram {
            files: vec![(name.to_string(), source.to_string())],
            shell_line: line,
            build_check_line: None,
            built: None,
            syntax_check_line: None,
        };
        Ok(match lang {
            // Unbuffered, so that an answer printed without a flush still
            // arrives.
            "python" => SourceProgram {
                // Compiled to bytecode only, never run; what it writes stays
                // in the sandbox's folder.
                syntax_check_line: Some(check_line("python3 -m py_compile bot.py")),
                ..one("bot.py", "exec python3 -u bot.py".to_string())
            },
            "javascript" => SourceProgram {
                syntax_check_line: Some(check_line("node --check bot.js")),
                ..one("bot.js", "exec node bot.js".to_string())
            },
            // The compiler's messages go to stderr: stdout is the answer
            // pipe.
            "c" => {
                let build = "gcc -O2 -o bot bot.c -lm";
                SourceProgram {
                    build_check_line: Some(check_line(build)),
                    built: Some("bot"),
                    ..one("bot.c", format!("[ -f bot ] || {build} 1>&2 && exec ./bot"))
                }
            }
            "java" => java(game, source)?,
            other => {
                let keys: Vec<&str> = LANGUAGES.iter().map(|l| l.key).collect();
                return Err(format!("unknown language {other:?}: the languages are {}", keys.join(", ")));
            }
        })
    }

    /// Writes the files into `dir` (which must exist).
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        for (name, contents) in &self.files {
            std::fs::write(dir.join(name), contents)?;
        }
        Ok(())
    }

    /// Builds the program from the files in `dir` in the sandbox (its
    /// [`build_check_line`](Self::build_check_line), within `deadline`)
    /// and, when the build succeeds, keeps what it made in `dir`
    /// ([`keep_built`](Self::keep_built)), so that starts from `dir` run
    /// it. `None` for a language that is not compiled.
    pub async fn build(&self, dir: &Path, limits: &SandboxLimits, deadline: std::time::Duration) -> Result<Option<Build>, SpawnError> {
        let Some(line) = &self.build_check_line else { return Ok(None) };
        let mut limits = limits.clone();
        limits.stop_between_moves = false;
        let mut bot = ProcessBot::spawn(&BotCommand::shell(line).file(dir), &limits)?;
        let status = bot.ask("\n", deadline).await;
        let stderr = bot.take_stderr();
        let mut kept = Err("it did not build".to_string());
        if matches!(&status, Ok(reply) if reply.line.trim() == "0") {
            // Read through the build's process, which waits until it is
            // dropped (below): its folder is in its own mount namespace.
            let (from, to, program) = (bot.live_folder(), dir.to_path_buf(), self.clone());
            kept = match tokio::task::spawn_blocking(move || program.keep_built(&from, &to)).await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(e) => Err(e.to_string()),
            };
        }
        drop(bot);
        Ok(Some(Build { status, stderr, kept }))
    }

    /// Checks that the program in `dir` parses, in the sandbox (its
    /// [`syntax_check_line`](Self::syntax_check_line), within `deadline`);
    /// keeps nothing. `None` for a language without such a check.
    pub async fn check_syntax(&self, dir: &Path, limits: &SandboxLimits, deadline: std::time::Duration) -> Result<Option<Build>, SpawnError> {
        let Some(line) = &self.syntax_check_line else { return Ok(None) };
        let mut limits = limits.clone();
        limits.stop_between_moves = false;
        let mut bot = ProcessBot::spawn(&BotCommand::shell(line).file(dir), &limits)?;
        let status = bot.ask("\n", deadline).await;
        let mut stderr = bot.take_stderr();
        // Node names the file by its full path, in a folder its owner
        // never sees: `bot.js:1` says as much.
        let folder = format!("{}/", bot.folder().display());
        for line in &mut stderr.lines {
            if line.contains(&folder) {
                *line = line.replace(&folder, "");
            }
        }
        drop(bot);
        Ok(Some(Build { status, stderr, kept: Err("a check keeps nothing".to_string()) }))
    }

    /// Copies what the build made in `bot_folder` (the
    /// [`live_folder`](crate::process::ProcessBot::live_folder) of a bot
    /// that ran [`build_check_line`](Self::build_check_line) successfully,
    /// which waits after answering until it is dropped) into
    /// `dir`, beside the files [`write`](Self::write) wrote there, so that
    /// starts from `dir` run it without compiling. The build ran with the
    /// program's rights, so its folder is read as the program's: regular
    /// files and folders only, never through a link, and within
    /// `BUILT_BYTES_MAX`; anything else is an error and nothing is kept.
    pub fn keep_built(&self, bot_folder: &Path, dir: &Path) -> io::Result<()> {
        let Some(name) = self.built else { return Ok(()) };
        let mut budget = Budget { bytes: BUILT_BYTES_MAX, files: BUILT_FILES_MAX };
        let kept = copy_untrusted(&bot_folder.join(name), Path::new(name), &dir.join(name), 0, &mut budget);
        if kept.is_err() {
            let target = dir.join(name);
            let _ = std::fs::remove_dir_all(&target).or_else(|_| std::fs::remove_file(&target));
        }
        kept
    }

    /// The command that runs the program from the files written in `dir`:
    /// they are copied into the bot's own folder at every start.
    pub fn command(&self, dir: &Path) -> BotCommand {
        BotCommand::shell(&self.shell_line).file(dir)
    }
}

/// A Java program: its file is named after its public class (as `javac`
/// wants), and it runs its class with `main` or, in a duel, under the
/// KingOfBots harness.
fn java(game: &str, source: &str) -> Result<SourceProgram, String> {
    let shape = JavaShape::of(source);
    let Some(first) = shape.classes.first() else {
        return Err("a Java program declares a class".to_string());
    };
    let file_class = shape.classes.iter().find(|c| c.public).unwrap_or(first);
    let qualified = |name: &str| match &shape.package {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    };
    let build = format!("javac {JAVAC_JVM_ARGS} -encoding UTF-8 -d classes *.java");
    let mut line = format!("[ -d classes ] || {build} 1>&2 && exec java");
    for arg in BotCommand::JVM_ARGS_FOR_SANDBOX {
        let _ = write!(line, " {arg}");
    }
    line.push_str(" -cp classes ");
    let mut files = vec![(format!("{}.java", file_class.name), source.to_string())];
    // What `java` is told to run: names checked to be identifiers, so the
    // shell reads them as plain words.
    let runs;
    // In a duel a `Supplier<Integer>` goes under the harness even when it
    // has a `main` of its own: KingOfBots only ever calls `get()`, and that
    // `main` is the contestant's test hook. A `main` in another class is a
    // program that reads stdin, whatever its helper classes implement.
    let main = shape.classes.iter().find(|c| c.has_main);
    let supplier = shape.classes.iter().find(|c| c.supplier).filter(|_| game == "duel");
    let harnessed = supplier.filter(|s| main.is_none_or(|m| m.name == s.name));
    if let Some(main) = main.filter(|_| harnessed.is_none()) {
        runs = qualified(&main.name);
    } else if let Some(bot) = harnessed {
        // The harness's file and class sit beside the bot's.
        if shape.classes.iter().any(|c| c.name == "Harness") {
            return Err("the class that runs a KingOfBots bot is called Harness: give yours another name".to_string());
        }
        runs = format!("Harness {}", qualified(&bot.name));
        files.push(("Harness.java".to_string(), KINGOFBOTS_HARNESS.to_string()));
    } else if game == "duel" {
        return Err("a Java program needs a class with `public static void main(String[] args)` that reads stdin, \
                    or, as on KingOfBots, a class that implements java.util.function.Supplier<Integer>"
            .to_string());
    } else {
        return Err("a Java program needs a class with `public static void main(String[] args)`".to_string());
    }
    if !runs.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ' ') {
        return Err("class and package names of letters, digits and `_` only, please".to_string());
    }
    line.push_str(&runs);
    Ok(SourceProgram {
        files,
        shell_line: line,
        build_check_line: Some(check_line(&build)),
        built: Some("classes"),
        syntax_check_line: None,
    })
}

/// Builds that may run at once in this process (each is a compiler in the
/// sandbox): every caller of [`SourceProgram::build`] takes a place first,
/// so that a server's saves and its queue's games share the bound.
pub static BUILDS_AT_ONCE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Syntax checks of Python and JavaScript programs that may run at once:
/// a lane of their own, since they take a moment where a compiler may take
/// a minute, so that programs that compile slowly never hold up a check.
pub static CHECKS_AT_ONCE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// What [`SourceProgram::build`] did.
#[derive(Debug)]
pub struct Build {
    /// The build's answer: one line, the compiler's exit status.
    pub status: Result<Reply, BotFault>,
    /// The compiler's messages.
    pub stderr: StderrLines,
    /// Whether what it made was kept beside the source, or why not.
    pub kept: Result<(), String>,
}

impl Build {
    /// Whether the program compiled.
    pub fn compiled(&self) -> bool {
        matches!(&self.status, Ok(reply) if reply.line.trim() == "0")
    }
}

/// What [`SourceProgram::keep_built`] may still copy.
struct Budget {
    bytes: u64,
    files: usize,
}

/// Copies a regular file or a folder of them from a folder the program
/// could write, opening every entry without following links or blocking
/// (a FIFO), and checking what was opened rather than what was listed.
fn copy_untrusted(from: &Path, shown: &Path, to: &Path, depth: usize, budget: &mut Budget) -> io::Result<()> {
    use std::io::Read;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let refuse = |why: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", shown.display()));
    if depth > BUILT_DEPTH_MAX || budget.files == 0 {
        return Err(refuse("too many files"));
    }
    budget.files -= 1;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(from)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        std::fs::create_dir(to)?;
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755))?;
        // Entries are listed and opened through the descriptor (its
        // /proc link), not the folder's name, which could be a link by now.
        let opened = Path::new("/proc/self/fd").join(std::os::fd::AsRawFd::as_raw_fd(&file).to_string());
        for entry in std::fs::read_dir(&opened)? {
            let name = entry?.file_name();
            copy_untrusted(&opened.join(&name), &shown.join(&name), &to.join(&name), depth + 1, budget)?;
        }
        return Ok(());
    }
    if !meta.is_file() {
        return Err(refuse("not a regular file"));
    }
    if meta.len() > budget.bytes {
        return Err(refuse("too large"));
    }
    let mut out = std::fs::OpenOptions::new().write(true).create_new(true).mode(if meta.permissions().mode() & 0o111 != 0 { 0o755 } else { 0o644 }).open(to)?;
    // The file may grow while it is read: the budget bounds the copy, not
    // the size seen before.
    let copied = io::copy(&mut file.take(budget.bytes + 1), &mut out)?;
    if copied > budget.bytes {
        return Err(refuse("too large"));
    }
    budget.bytes -= copied;
    Ok(())
}

/// The build line of [`SourceProgram::build_check_line`].
fn check_line(build: &str) -> String {
    // The build starts once the request's newline is read: its answer
    // written before the runner asked would be output nobody asked for,
    // which is what a runner that starts it and is then kept off the CPU
    // for as long as the build takes would find. After the answer the
    // shell waits, so that what the build made can be read in the bot's
    // folder until the bot is dropped.
    format!("read a; {build} 1>&2; echo $?; read a")
}

/// What a Java source declares, found without a Java parser: comments and
/// literals blanked, then tokens, braces counted.
#[derive(Debug, Default, PartialEq, Eq)]
struct JavaShape {
    package: Option<String>,
    /// Top-level classes, in order.
    classes: Vec<JavaClass>,
}

#[derive(Debug, Default, PartialEq, Eq)]
struct JavaClass {
    name: String,
    public: bool,
    /// Declares `main(`, as a method of its own body.
    has_main: bool,
    /// Names `Supplier<Integer>` in its header.
    supplier: bool,
}

impl JavaShape {
    fn of(source: &str) -> JavaShape {
        // As javac reads it: `\uXXXX` escapes first, then comments and
        // literals.
        let tokens = java_tokens(&blank_comments_and_literals(&decode_unicode_escapes(source)));
        let mut shape = JavaShape::default();
        let mut depth = 0usize;
        // Modifiers seen since the last declaration ended, at depth 0.
        let mut public = false;
        let mut i = 0;
        while i < tokens.len() {
            let t = tokens[i].as_str();
            match t {
                "{" => depth += 1,
                "}" => depth = depth.saturating_sub(1),
                ";" if depth == 0 => public = false,
                "package" if depth == 0 && shape.package.is_none() => {
                    let parts: Vec<&str> =
                        tokens[i + 1..].iter().take_while(|t| t.as_str() != ";").map(String::as_str).collect();
                    // `a . b . c`: identifiers between dots, or nothing
                    // usable (and the run line then refuses the name).
                    let well_formed = parts.len() % 2 == 1
                        && parts.iter().enumerate().all(|(k, p)| if k.is_multiple_of(2) { is_identifier(p) } else { *p == "." });
                    shape.package = Some(if well_formed { parts.concat() } else { "?".to_string() });
                }
                "public" if depth == 0 => public = true,
                // `X.class` in an annotation is a literal, not a declaration.
                "class" | "record" | "enum" | "interface" if depth == 0 && (i == 0 || tokens[i - 1] != ".") => {
                    if let Some(name) = tokens.get(i + 1).filter(|n| is_identifier(n)) {
                        let header_end = tokens[i..].iter().position(|t| t == "{").map_or(tokens.len(), |p| i + p);
                        let header = tokens[i..header_end].concat();
                        let supplier = header.contains("Supplier<Integer>") || header.contains("Supplier<java.lang.Integer>");
                        shape.classes.push(JavaClass {
                            name: name.clone(),
                            public,
                            has_main: false,
                            supplier: t == "class" && supplier,
                        });
                    }
                    public = false;
                }
                "main" if depth == 1 && tokens.get(i + 1).is_some_and(|n| n == "(") => {
                    let void = i >= 1 && tokens[i - 1] == "void";
                    if let Some(class) = shape.classes.last_mut().filter(|_| void) {
                        class.has_main = true;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        shape
    }
}

/// A Java identifier (of those a run line may carry: no `$`).
fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Java's first step: `\uXXXX` (any number of `u`s) becomes its character
/// wherever the backslash is not itself escaped. A bad escape is left as
/// it is (javac then reports it).
fn decode_unicode_escapes(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    // Backslashes just before `i`, for telling `\\u` from `\u`.
    let mut backslashes = 0usize;
    while i < chars.len() {
        if chars[i] == '\\' && backslashes.is_multiple_of(2) && chars.get(i + 1) == Some(&'u') {
            let mut k = i + 1;
            while chars.get(k) == Some(&'u') {
                k += 1;
            }
            let hex: String = chars.iter().skip(k).take(4).collect();
            if let Some(c) = (hex.len() == 4).then(|| u32::from_str_radix(&hex, 16).ok()).flatten().and_then(char::from_u32) {
                out.push(c);
                i = k + 4;
                backslashes = 0;
                continue;
            }
        }
        backslashes = if chars[i] == '\\' { backslashes + 1 } else { 0 };
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Identifiers (with dots kept apart) and single punctuation characters.
fn java_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' || c == '$' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            tokens.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    if !word.is_empty() {
        tokens.push(word);
    }
    tokens
}

/// The source with comments, string, text-block and char literals replaced
/// by spaces, so that braces and words inside them do not count.
fn blank_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let at = |i: usize, s: &str| s.chars().enumerate().all(|(k, c)| chars.get(i + k) == Some(&c));
    while i < chars.len() {
        let end = if at(i, "//") {
            chars[i..].iter().position(|&c| c == '\n').map_or(chars.len(), |p| i + p)
        } else if at(i, "/*") {
            (i + 2..chars.len()).find(|&k| at(k, "*/")).map_or(chars.len(), |k| k + 2)
        } else if at(i, "\"\"\"") {
            // To the first unescaped `"""` (`\"` and `\\` are escapes).
            let mut k = i + 3;
            while k < chars.len() && !at(k, "\"\"\"") {
                k += if chars[k] == '\\' { 2 } else { 1 };
            }
            (k + 3).min(chars.len())
        } else if chars[i] == '"' || chars[i] == '\'' {
            let quote = chars[i];
            let mut k = i + 1;
            while k < chars.len() && chars[k] != quote && chars[k] != '\n' {
                k += if chars[k] == '\\' { 2 } else { 1 };
            }
            (k + 1).min(chars.len())
        } else {
            out.push(chars[i]);
            i += 1;
            continue;
        };
        out.push(' ');
        i = end.max(i + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run line's end (what runs) for a Java source, or the error.
    fn check(game: &str, source: &str, expect: &str) {
        let got = match SourceProgram::new(game, "java", source) {
            Ok(p) => {
                let names: Vec<&str> = p.files.iter().map(|f| f.0.as_str()).collect();
                let runs = p.shell_line.rsplit(" -cp classes ").next().unwrap_or_default();
                format!("{} | {runs}", names.join(" "))
            }
            Err(e) => format!("error: {e}"),
        };
        assert!(got.starts_with(expect), "source:\n{source}\ngot:    {got}\nexpect: {expect}");
    }

    #[test]
    fn java_programs_run_their_main_class_or_the_kingofbots_harness() {
        check("multisnake", "public class Bot { public static void main(String[] a) {} }", "Bot.java | Bot");
        check("carrots", "class Helper {}\npublic final class Go { static public void main(String[] a) {} }", "Go.java | Go");
        check("duel", "package a.b;\nclass Bot { public static void main(String... a) {} }", "Bot.java | a.b.Bot");
        // The sample bot of KingOfBots' description, as KingOfBots takes it.
        let seed = include_str!("../../../starters/duel/java-harness/seed/com/ilvxgee/botrunningsystem/utils/Bot.java");
        check("duel", seed, "Bot.java Harness.java | Harness com.ilvxgee.botrunningsystem.utils.Bot");
        check("duel", "public class Mine implements Supplier<Integer> { public Integer get() { return 1; } }", "Mine.java Harness.java | Harness Mine");
        // The bot's own `main` is its test hook: the harness runs it.
        check("duel", "class B implements java.util.function.Supplier<Integer> { public Integer get() { return 0; } public static void main(String[] a) {} }", "B.java Harness.java | Harness B");
        // A helper that happens to be a Supplier does not take the program
        // away from its `main`.
        check("duel", "class Pick implements Supplier<Integer> { public Integer get() { return 0; } }\npublic class Main { public static void main(String[] a) {} }", "Main.java | Main");
        // Nested classes and methods named main elsewhere do not count.
        check("multisnake", "public class Outer { static class In { public static void main(String[] a) {} } }", "error: a Java program needs a class with `public static void main");
        check("multisnake", "public class Bot { int main = 0; }", "error:");
    }

    #[test]
    fn comments_and_literals_hide_what_they_contain() {
        check("multisnake", "// public class Fake { public static void main(String[] a) {} }\nclass Real { public static void main(String[] a) { String s = \"}class X{\"; char c = '}'; } }", "Real.java | Real");
        check("multisnake", "/* class A {} */ class B { /* } */ public static void main(String[] a) {} }", "B.java | B");
        check("multisnake", "class T { String s = \"\"\"\n } class U {\n\"\"\"; public static void main(String[] a) {} }", "T.java | T");
    }

    #[test]
    fn names_that_are_not_identifiers_never_reach_the_shell() {
        // A comment once escapes are decoded, as javac decodes them: the
        // package inside it is no package.
        let escaped = "\\u002f\\u002a package a`id>&2`; \\u002a\\u002f\npublic class Bot { public static void main(String[] a){} }";
        check("duel", escaped, "Bot.java | Bot");
        check("duel", "package a|id>&2|b;\npublic class Bot { public static void main(String[] a){} }", "error: class and package names");
        check("duel", "package a.b;\npublic class Bot$1 { public static void main(String[] a){} }", "error: a Java program declares a class");
        // A decoded escape that makes a plain name is fine.
        check("multisnake", "public class \\u0042ot { public static void main(String[] a){} }", "Bot.java | Bot");
        // An escaped backslash is not an escape.
        check("multisnake", "class A { String s = \"\\\\u0022\"; public static void main(String[] a){} }", "A.java | A");
    }

    #[test]
    fn java_forms_that_read_differently_at_first_sight() {
        check("multisnake", "class Helper {}\npublic @Deprecated(since = X.class) class Bot { public static void main(String[] a){} }", "Bot.java | Bot");
        check("duel", "public class K implements java.util.function.Supplier<java.lang.Integer> { public Integer get() { return 1; } }", "K.java Harness.java | Harness K");
        check("multisnake", "class T { String s = \"\"\"\n a \\\\\"\"\"; } public class U { public static void main(String[] a){} }", "U.java | U");
        // The harness's name is taken by the harness, in any package.
        check("duel", "package p;\npublic class Harness implements Supplier<Integer> { public Integer get() { return 1; } }", "error: the class that runs");
        check("duel", "class Harness {}\npublic class Bot implements Supplier<Integer> { public Integer get() { return 1; } }", "error: the class that runs");
    }

    #[test]
    fn java_programs_that_cannot_run_are_refused_with_a_reason() {
        check("duel", "int x;", "error: a Java program declares a class");
        check("duel", "class Bot { }", "error: a Java program needs a class with `public static void main(String[] args)` that reads stdin, or, as on KingOfBots");
        check("multisnake", "class Bot implements Supplier<Integer> { public Integer get() { return 1; } }", "error: a Java program needs");
        check("duel", "class Harness implements Supplier<Integer> { public Integer get() { return 1; } }", "error: the class that runs");
    }

    #[test]
    fn every_language_has_a_line_without_quotes() {
        for lang in LANGUAGES {
            let source = "public class Bot { public static void main(String[] a) {} }";
            let p = SourceProgram::new("duel", lang.key, source).unwrap();
            assert!(!p.shell_line.contains(['\'', '"']), "{}", p.shell_line);
        }
        assert!(SourceProgram::new("duel", "cobol", "x").unwrap_err().contains("the languages are python, javascript, c, java"));
    }
}
