//! Sources saved by contestants, fuzzed: reading a Java program never
//! panics, and whatever it declares, the shell line that runs it carries
//! only plain words after the fixed part (no quote, no shell syntax).

use proptest::prelude::*;
use snakepit_bots::source::SourceProgram;

/// The fixed start of every Java run line; what follows is the class.
const CLASSES: &str = " -cp classes ";

fn check_line(game: &str, source: &str) {
    for lang in ["java", "c", "python", "javascript"] {
        if let Ok(p) = SourceProgram::new(game, lang, source) {
            assert!(!p.shell_line.contains(['\'', '"']), "{}", p.shell_line);
            if let Some((_, runs)) = p.shell_line.rsplit_once(CLASSES) {
                assert!(runs.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ' '), "{runs:?} from {source:?}");
            }
        }
    }
}

/// Pieces of Java, shell and escapes, glued at random.
fn java_like() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "package ", "a.b", ";", "public ", "class ", "Bot", "Harness", " implements ", "java.util.function.",
        "Supplier<Integer>", "Supplier<java.lang.Integer>", "{", "}", "(", ")", "static void main(String[] a)",
        "public static void main(String[] args) {}", "/*", "*/", "//", "\n", "\"", "'", "\"\"\"", "\\", "\\u002f",
        "\\u002a", "\\u0022", "\\uuu0070ackage", "`id`", "$(id)", "|", "&", ">", "@A(X.class) ", "enum ", "record ",
        "interface ", "é", "\u{1F40D}", " ",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn any_text_is_read_without_panic(source in ".{0,400}") {
        for game in ["duel", "multisnake", "carrots"] {
            check_line(game, &source);
        }
    }

    #[test]
    fn java_like_text_never_puts_shell_syntax_on_the_line(source in java_like()) {
        for game in ["duel", "multisnake"] {
            check_line(game, &source);
        }
    }
}
