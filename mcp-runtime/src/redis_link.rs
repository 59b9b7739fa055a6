//! What every use of Redis shares (the change bus, `redis_bus.rs`; the HTTP transport's event
//! store; the tasks' records, `tasks/redis_records.rs`): how long a connection or a round trip
//! may take, making a connection within it, and a connection that is made again after a
//! failure; and the thread a store's writer runs on.

use std::time::Duration;

/// How long connecting to Redis, or one round trip, may take.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The client of the Redis at `url` and its address (host and port, what log lines name);
/// `Err` says why `url` is not a Redis URL, with any password in it hidden.
pub(crate) fn open(url: &str) -> Result<(redis::Client, String), String> {
    let client = redis::Client::open(url).map_err(|e| {
        format!(
            "`{}` is not a Redis URL (ServerBuilder::redis, --redis): {e}",
            without_credentials(url)
        )
    })?;
    let address = client.get_connection_info().addr().to_string();
    Ok((client, address))
}

/// `url` with its user and password, if it has any, replaced by `***`: what may be shown.
fn without_credentials(url: &str) -> String {
    let start = url.find("://").map_or(0, |scheme| scheme + 3);
    let rest = &url[start..];
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    match authority.rfind('@') {
        Some(at) => format!("{}***{}", &url[..start], &rest[at..]),
        None => url.to_owned(),
    }
}

/// A multiplexed connection to `client`'s Redis, within [`CONNECT_TIMEOUT`], whose round trips
/// each wait up to [`CONNECT_TIMEOUT`] too (the client's own defaults, 1 s to connect and
/// 500 ms an answer, would fail a round trip during a pause of Redis that the documented 5 s
/// rides out); `Err` says why not.
pub(crate) async fn connect(
    client: &redis::Client,
) -> Result<redis::aio::MultiplexedConnection, String> {
    let config = redis::AsyncConnectionConfig::new()
        .set_connection_timeout(Some(CONNECT_TIMEOUT))
        .set_response_timeout(Some(CONNECT_TIMEOUT));
    let connecting = client.get_multiplexed_async_connection_with_config(&config);
    match tokio::time::timeout(CONNECT_TIMEOUT, connecting).await {
        Ok(Ok(connection)) => Ok(connection),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {CONNECT_TIMEOUT:?}")),
    }
}

/// Starts `work` on a thread of its own named `thread`, on a single-threaded runtime of its own,
/// so that whoever queues work for `what` (a store kept in Redis) never waits on Redis. If that
/// runtime cannot start, the thread says so on stderr, with `consequence`, and ends (so the
/// store's queue closes).
#[cfg(any(feature = "http", feature = "tasks"))]
pub(crate) fn spawn_worker<Work, Done>(
    thread: &str,
    what: &'static str,
    consequence: &'static str,
    work: Work,
) -> Result<(), String>
where
    Work: FnOnce() -> Done + Send + 'static,
    Done: Future<Output = ()>,
{
    crate::named_thread::spawn(
        thread,
        Box::new(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime.block_on(work()),
                Err(e) => crate::stderr::line(format_args!(
                    "mcp: cannot start {what}'s runtime ({e}): {consequence}"
                )),
            }
        }),
    )
    .map(drop)
    .map_err(|e| format!("cannot start {what}'s thread: {e}"))
}

/// The answer `asked` of a store's writer thread, waited for at most two round trips (the
/// thread bounds each of its own; this bounds the wait behind the work queued before it);
/// `Err` says why there is none.
#[cfg(any(feature = "http", feature = "tasks"))]
pub(crate) async fn answer_within<T>(
    asked: impl Future<Output = Result<T, String>>,
) -> Result<T, String> {
    let within = CONNECT_TIMEOUT * 2;
    match tokio::time::timeout(within, asked).await {
        Ok(outcome) => outcome,
        Err(_) => Err(format!("no answer within {within:?}")),
    }
}

/// A connection made on first use, and again after a failure.
#[cfg(any(feature = "http", feature = "tasks"))]
pub(crate) struct Reconnecting {
    client: redis::Client,
    connection: Option<redis::aio::MultiplexedConnection>,
    /// How many connections were made: one more than before means Redis may have restarted
    /// and forgotten what was written on the last one.
    made: u64,
}

#[cfg(any(feature = "http", feature = "tasks"))]
impl Reconnecting {
    pub(crate) fn new(client: redis::Client) -> Reconnecting {
        Reconnecting {
            client,
            connection: None,
            made: 0,
        }
    }

    /// How many connections were made so far.
    #[cfg(feature = "tasks")]
    pub(crate) fn connections_made(&self) -> u64 {
        self.made
    }

    /// One round trip within [`CONNECT_TIMEOUT`], on the open connection (a handle to it: a
    /// multiplexed connection is shared by its clones), or on a new one (once more on a new
    /// one when an old connection fails).
    pub(crate) async fn round_trip<T, F, Fut>(&mut self, attempt: F) -> Result<T, String>
    where
        F: Fn(redis::aio::MultiplexedConnection) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        let mut last_error = String::new();
        for _ in 0..2 {
            let fresh = self.connection.is_none();
            let connection = match &self.connection {
                Some(connection) => connection.clone(),
                None => {
                    let connection = connect(&self.client).await?;
                    self.made += 1;
                    self.connection.insert(connection).clone()
                }
            };
            match tokio::time::timeout(CONNECT_TIMEOUT, attempt(connection)).await {
                Ok(Ok(value)) => return Ok(value),
                Ok(Err(e)) => last_error = e.to_string(),
                Err(_) => last_error = format!("no answer within {CONNECT_TIMEOUT:?}"),
            }
            self.connection = None;
            if fresh {
                break;
            }
        }
        Err(last_error)
    }
}

/// A real `redis-server` for the unit tests of what stands on Redis.
#[cfg(test)]
pub(crate) mod test_server {
    use std::process::{Command, Stdio};
    use std::time::Duration;

    /// A `redis-server` on a free port, killed when dropped.
    pub(crate) struct Server(std::process::Child, u16);

    impl Server {
        pub(crate) fn url(&self) -> String {
            format!("redis://127.0.0.1:{}", self.1)
        }

        /// Makes it hold every client's commands for `ms` milliseconds (`CLIENT PAUSE`): a
        /// Redis that stops answering for that long.
        pub(crate) async fn pause(&self, ms: u64) {
            let mut connection = redis::Client::open(self.url())
                .and_then(|client| client.get_connection())
                .expect("a connection to pause it");
            let () = redis::cmd("CLIENT")
                .arg("PAUSE")
                .arg(ms)
                .arg("ALL")
                .query(&mut connection)
                .expect("paused");
        }

        /// Stops this server (what was written is lost: it saves nothing).
        pub(crate) fn stop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }

        /// Starts it again, empty, on the same port.
        pub(crate) fn start_again(&mut self) {
            self.stop();
            self.0 = spawn(self.1).expect("redis-server starts again");
            wait_listening(self.1);
        }
    }

    fn spawn(port: u16) -> std::io::Result<std::process::Child> {
        Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
    }

    fn wait_listening(port: u16) {
        for _ in 0..200 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        panic!("redis-server does not listen on {port}");
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    /// `None` (and a line saying so) when `redis-server` is not installed
    /// (`scripts/install-test-tools` installs it; `tests/scale.rs` fails without it under CI).
    pub(crate) fn redis_server() -> Option<Server> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .ok()?
            .port();
        let Ok(child) = spawn(port) else {
            eprintln!("skipped: redis-server is not installed");
            return None;
        };
        let server = Server(child, port);
        wait_listening(port);
        Some(server)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SECURITY.md, "Several instances": a URL that does not parse is named in the error with
    /// its password hidden, whatever part of it is malformed.
    #[test]
    fn a_url_that_is_refused_is_named_without_its_password() {
        for url in [
            "redis://:s3cret@ho st:6379",
            "redis://user:s3cret@host:port/0",
            "rediss://:s3cret@[::1:6379",
            "nonsense:s3cret@host",
            "redis://:s3cret@host:6379/x@y z",
        ] {
            let error = open(url).err().unwrap_or_else(|| panic!("{url} opened"));
            assert!(!error.contains("s3cret"), "{url}: {error}");
            assert!(error.contains("***@"), "{url}: {error}");
            assert!(error.contains("ServerBuilder::redis"), "{url}: {error}");
        }
        assert_eq!(without_credentials("redis://host:1/0"), "redis://host:1/0");
    }

    /// RELIABILITY.md, "Several instances": a round trip waits up to 5 s. Redis paused for
    /// 1.5 s (`CLIENT PAUSE`) delays a `PING` rather than failing it, as the client's default
    /// of 500 ms an answer did.
    #[tokio::test]
    async fn a_round_trip_rides_out_a_pause_of_redis() {
        let Some(server) = test_server::redis_server() else {
            return;
        };
        let (client, _) = open(&server.url()).unwrap();
        let mut connection = connect(&client).await.unwrap();
        server.pause(1500).await;
        let started = std::time::Instant::now();
        let pong: String = redis::cmd("PING")
            .query_async(&mut connection)
            .await
            .unwrap();
        assert_eq!(pong, "PONG");
        assert!(
            started.elapsed() >= Duration::from_millis(1000),
            "not paused"
        );
    }
}
