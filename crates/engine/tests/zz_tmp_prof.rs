//! Temporary timing probe.
use snakepit_engine::snakebattle::{Action, Map, Settings, SnakeBattle};
use snakepit_engine::{Dir, Game, Rng};
use std::time::Instant;
#[test]
fn probe() {
    for small in [false, true] {
        let map = if small { Map::parse("☼☼☼☼☼☼☼☼☼☼☼☼\n☼#         ☼\n☼   ○  ●   ☼\n☼#     ☼   ☼\n☼   $      ☼\n☼#   ☼☼  ○ ☼\n☼          ☼\n☼#    ●    ☼\n☼   ○   ☼  ☼\n☼#         ☼\n☼     ○    ☼\n☼☼☼☼☼☼☼☼☼☼☼☼\n").unwrap() } else { Map::default_map() };
        let mut g = SnakeBattle::new(Settings::default(), map, 5, 1).unwrap();
        let mut rng = Rng::new(3);
        let t = Instant::now();
        let mut inv = std::time::Duration::ZERO;
        let mut clone = std::time::Duration::ZERO;
        for _ in 0..10000 {
            let a: Vec<Action> = (0..5).map(|_| Action::go(Dir::ALL[rng.index(4)])).collect();
            let t2 = Instant::now();
            let c = g.clone();
            clone += t2.elapsed();
            drop(c);
            g.step(&a);
            let t1 = Instant::now();
            g.check_invariants().unwrap();
            inv += t1.elapsed();
        }
        println!("small={small} total {:?} inv {:?} clone {:?}", t.elapsed(), inv, clone);
    }
}
