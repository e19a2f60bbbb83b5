//! Stand-ins for APIs that are being written in other crates right now
//! (`snakepit_protocol::codenjoy` and `snakepit_bots::builtin`), with the
//! same signatures, so that this crate builds until they land. Deleted then.

pub mod codenjoy {
    //! Stand-in for `snakepit_protocol::codenjoy`.

    use snakepit_engine::snakebattle::{Action, CommandRule, Item, SnakeBattle, SnakeIdx, Terrain, Token};
    use snakepit_engine::Dir;

    /// Stand-in.
    pub fn parse_action(text: &str, rule: CommandRule) -> Action {
        let tokens: Vec<Token> = text
            .split(',')
            .filter_map(|w| match w.trim() {
                "UP" => Some(Token::Dir(Dir::Up)),
                "DOWN" => Some(Token::Dir(Dir::Down)),
                "LEFT" => Some(Token::Dir(Dir::Left)),
                "RIGHT" => Some(Token::Dir(Dir::Right)),
                "ACT" => Some(Token::Act),
                "ACT(0)" => Some(Token::ActZero),
                _ => None,
            })
            .collect();
        Action::from_tokens(&tokens, rule)
    }

    /// Stand-in.
    pub fn render_board(game: &SnakeBattle, _seat: Option<SnakeIdx>) -> String {
        let map = game.map();
        let mut cells: Vec<char> = (0..map.size * map.size)
            .map(|i| match (map.terrain[i], game.items()[i]) {
                (Terrain::Wall, _) => '☼',
                (Terrain::StartFloor, _) => '#',
                (_, Some(Item::Apple)) => '○',
                (_, Some(Item::Stone)) => '●',
                (_, Some(Item::Gold)) => '$',
                (_, Some(Item::FuryPill)) => '®',
                (_, Some(Item::FlyingPill)) => '©',
                _ => ' ',
            })
            .collect();
        for (seat, s) in game.snakes().iter().enumerate() {
            for (k, p) in s.body.iter().enumerate() {
                if let Some(i) = map.index(*p) {
                    cells[i] = if k == 0 { char::from(b'A' + seat as u8) } else { char::from(b'a' + seat as u8) };
                }
            }
        }
        cells.into_iter().collect()
    }

    /// Stand-in.
    pub fn render_boards(game: &SnakeBattle) -> Vec<String> {
        (0..game.snakes().len()).map(|i| render_board(game, Some(i))).collect()
    }

    /// Stand-in.
    pub fn message(board: &str) -> String {
        format!("board={board}")
    }
}

pub mod builtin {
    //! Stand-in for `snakepit_bots::builtin`.

    use snakepit_engine::Rng;

    /// Stand-in.
    pub trait SnakeBot: Send {
        /// Stand-in.
        fn answer(&mut self, message: &str) -> String;
    }

    /// Stand-in.
    pub const NAMES: &[&str] = &["random", "greedy"];

    struct Random(Rng);

    impl SnakeBot for Random {
        fn answer(&mut self, _message: &str) -> String {
            ["UP", "RIGHT", "DOWN", "LEFT"][self.0.index(4)].to_string()
        }
    }

    /// Stand-in.
    pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn SnakeBot>> {
        NAMES.contains(&name).then(|| Box::new(Random(Rng::new(seed))) as Box<dyn SnakeBot>)
    }
}
