//! The `snakepit` command.
fn main() {}
