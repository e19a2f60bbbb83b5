//! Development server until `snakepit serve` is wired: `cargo run -p
//! snakepit-server --example dev_serve -- PORT DB [TICK_MS]`.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let mut cfg = snakepit_server::config::Config::load(None)?;
    cfg.bind = "127.0.0.1".into();
    cfg.port = args.get(1).map_or(Ok(0), |p| p.parse())?;
    cfg.db = args.get(2).map_or("dev.sqlite".into(), |d| d.into());
    if let Some(t) = args.get(3) {
        cfg.snakebattle.tick_ms = t.parse()?;
    }
    let server = snakepit_server::Server::start(cfg).await?;
    println!("snakepit listening on http://{}", server.addr);
    println!("admin token: {}", server.admin_token);
    tokio::signal::ctrl_c().await?;
    server.shutdown().await;
    Ok(())
}
