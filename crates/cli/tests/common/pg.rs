//! Throwaway databases on the test PostgreSQL server named by
//! `SNAKEPIT_TEST_PG` (an admin URL; `scripts/test.sh` starts one). Without
//! that variable a test says so and passes, unless `SNAKEPIT_REQUIRE_PG=1`
//! makes that a failure.

use tokio_postgres::NoTls;

/// A database of its own for one test, named after the test and the
/// process so that parallel test binaries never share one.
pub struct Db {
    admin: String,
    name: String,
    /// Its address, for `--db`.
    pub url: String,
}

impl Db {
    /// A new empty database, or `None` (with a message) when no server is
    /// configured and none is required.
    pub async fn create(test: &str) -> Option<Db> {
        let Ok(admin) = std::env::var("SNAKEPIT_TEST_PG") else {
            assert!(std::env::var("SNAKEPIT_REQUIRE_PG").as_deref() != Ok("1"), "SNAKEPIT_TEST_PG is not set");
            eprintln!("SNAKEPIT_TEST_PG is not set: {test} skipped (scripts/test.sh runs it)");
            return None;
        };
        let name = format!("snakepit_{test}_{}", std::process::id());
        let (base, _) = admin.rsplit_once('/').expect("a URL with a database name");
        let url = format!("{base}/{name}");
        // One statement per call: DROP and CREATE DATABASE cannot share the
        // implicit transaction of a multi-statement batch.
        sql(&admin, &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
        sql(&admin, &format!("CREATE DATABASE {name}")).await;
        Some(Db { admin, name, url })
    }

    /// Removes the database, closing whatever still uses it.
    pub async fn drop(self) {
        sql(&self.admin, &format!("DROP DATABASE {} WITH (FORCE)", self.name)).await;
    }

    /// One row of integers from a query on the database.
    pub async fn ints(&self, query: &str) -> Vec<i64> {
        let (client, conn) = tokio_postgres::connect(&self.url, NoTls).await.unwrap();
        let task = tokio::spawn(conn);
        let row = client.query_one(query, &[]).await.unwrap();
        let out = (0..row.len()).map(|i| row.get::<_, i64>(i)).collect();
        drop(client);
        let _ = task.await;
        out
    }
}

async fn sql(url: &str, sql: &str) {
    let (client, conn) = tokio_postgres::connect(url, NoTls).await.expect("the test PostgreSQL server answers");
    let task = tokio::spawn(conn);
    client.batch_execute(sql).await.unwrap();
    drop(client);
    let _ = task.await;
}
