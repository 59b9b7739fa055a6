//! What every use of Redis shares (the change bus, `redis_bus.rs`; the HTTP transport's event
//! store): how long a connection or a round trip may take, and making a connection within it.

use std::time::Duration;

/// How long connecting to Redis, or one round trip, may take.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A multiplexed connection to `client`'s Redis, within [`CONNECT_TIMEOUT`]; `Err` says why
/// not.
pub(crate) async fn connect(
    client: &redis::Client,
) -> Result<redis::aio::MultiplexedConnection, String> {
    match tokio::time::timeout(CONNECT_TIMEOUT, client.get_multiplexed_async_connection()).await {
        Ok(Ok(connection)) => Ok(connection),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {CONNECT_TIMEOUT:?}")),
    }
}
