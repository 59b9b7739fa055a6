//! Serving from a plain `fn main`: [`ServerBuilder::run`] reads the command line
//! (`command_line.rs`) and serves the transport it names. It sits above the transports, as it
//! starts one of them.

mod command_line;

use command_line::{CommandLine, Launch};

use crate::error::Error;
use crate::sealed_state::{StateKeys, watch_file_if_sealing};
use crate::server::{Server, ServerBuilder};
#[cfg(feature = "http")]
use crate::transport::http::{HostPolicy, HttpOptions};

impl ServerBuilder {
    /// Builds the server and serves it from a plain `fn main`, on a Tokio runtime of its own:
    /// over stdin/stdout until stdin closes, or over Streamable HTTP at `http://ADDRESS/mcp`
    /// when the program was started with `--http ADDRESS` (`--http 127.0.0.1:8000`,
    /// `--http localhost:8000`; needs the `http` feature). `--help` prints the usage (the
    /// options this build can use) and returns; any other option (an argument starting with `-`, before a `--`) is refused by
    /// name with [`Error::Usage`]. Arguments that are not options are left to the program.
    ///
    /// Three options run it as one instance of several behind a load balancer:
    /// `--redis URL` (`ServerBuilder::redis`, with the `redis` feature), `--state-keys FILE`
    /// ([`state_keys`](Self::state_keys) with [`StateKeys::watch_file`], the grace being
    /// [`StateKeys::DEFAULT_LIFETIME`]; not read, a line on stderr saying so, when no handler
    /// can ask the client, see
    /// [`Requirements::may_ask_client`](crate::Requirements::may_ask_client)) and
    /// `--allow-host HOST:PORT` (repeatable, with
    /// `--http`: `HostPolicy::allow` on the local policy; since every connection then comes
    /// from the balancer's address, the cap per peer address is lifted to the cap of all
    /// connections). Options given on the command line replace what the builder was told.
    /// Serving HTTP, SIGTERM or Ctrl-C shuts down gracefully
    /// (`Server::serve_http_with_shutdown`), with the default `HttpOptions`; `run_with` takes
    /// yours.
    ///
    /// One client talks to a stdio server, and most handlers finish in microseconds, so stdio
    /// is served by a runtime of one thread, fastest: a request is read, answered and written
    /// without waking another thread (during a run of requests that finish at once, by a
    /// thread that reads stdin itself; see ARCHITECTURE.md). Handlers that wait (I/O, timers,
    /// the client) still run
    /// concurrently. A handler that *computes* or *blocks* for long holds the others back:
    /// move such work to `tokio::task::spawn_blocking`, or serve from a multi-threaded runtime
    /// of your own with [`Server::serve_stdio`](crate::Server::serve_stdio).
    pub fn run(self) -> Result<(), Error> {
        #[cfg(feature = "http")]
        return self.run_with(HttpOptions::new());
        #[cfg(not(feature = "http"))]
        {
            // `--http` is refused as the command line is read (`command_line::resolve`).
            let Some((server, _)) = self.prepare()? else {
                return Ok(());
            };
            server.run_stdio()
        }
    }

    /// [`run`](Self::run), serving Streamable HTTP with `options` when the program is started
    /// with `--http ADDRESS`: limits, a resource server, a host policy, without leaving a plain
    /// `fn main` (stdio ignores them). `--allow-host` on the command line replaces the
    /// options' host policy, as `run` says.
    ///
    /// ```no_run
    /// use mcp_runtime::HttpOptions;
    ///
    /// fn main() -> Result<(), mcp_runtime::Error> {
    ///     mcp_runtime::server!().run_with(HttpOptions::new().max_body_bytes(64 * 1024).max_sessions(100))
    /// }
    /// ```
    #[cfg(feature = "http")]
    pub fn run_with(self, options: HttpOptions) -> Result<(), Error> {
        let Some((server, launch)) = self.prepare()? else {
            return Ok(());
        };
        let Some(addr) = launch.http else {
            return server.run_stdio();
        };
        let mut options = options;
        if !launch.allow_hosts.is_empty() {
            let hosts = launch
                .allow_hosts
                .into_iter()
                .fold(HostPolicy::local(), HostPolicy::allow);
            // Every connection comes from the balancer's address.
            let all = options.max_connections;
            options = options.hosts(hosts).max_connections_per_peer(all);
        }
        server.run_http(addr, options)
    }

    /// The server `run` serves, built with what the command line says, and the command line;
    /// `None` when it asked for the usage, which this printed.
    ///
    /// Not inlined into `run`: the builder's copies and the command line stay in this frame,
    /// given back before serving starts, rather than under every request `run` serves (the
    /// main thread's stack, resident up to the deepest any request reached).
    #[inline(never)]
    fn prepare(mut self) -> Result<Option<(Server, Launch)>, Error> {
        // `args_os`: an argument that is not Unicode (a file name, for the program) must not
        // panic here. The options read are all ASCII, so such an argument stands as one
        // replacement character (a value given to one of them is then refused, shown so).
        let args = std::env::args_os().map(|arg| {
            arg.into_string()
                .unwrap_or_else(|_| char::REPLACEMENT_CHARACTER.to_string())
        });
        let launch = match command_line::parse(args)? {
            CommandLine::Serve(launch) => launch,
            CommandLine::Help(usage) => {
                // Help goes to stdout, where a person asked for it (`server --help | less`):
                // stdout carries protocol messages only while serving, and this returns
                // before serving anything, so no client ever reads it.
                use std::io::Write as _;
                std::io::stdout().write_all(usage.as_bytes())?;
                return Ok(None);
            }
        };
        if let Some(path) = &launch.state_keys {
            match watch_file_if_sealing(path, StateKeys::DEFAULT_LIFETIME) {
                Some(keys) => {
                    let keys = keys.map_err(|e| {
                        Error::Usage(format!("`--state-keys {}`: {e}", path.display()))
                    })?;
                    self = self.state_keys(keys);
                }
                None => crate::stderr::line(format_args!(
                    "mcp: `--state-keys {}` is not read: no handler of this server can ask the client, so it seals no requestState",
                    path.display()
                )),
            }
        }
        #[cfg(feature = "redis")]
        if let Some(url) = &launch.redis {
            self = self.redis(url.as_str());
        }
        #[cfg(not(feature = "redis"))]
        if launch.redis.is_some() {
            return Err(Error::Usage(
                "this program was built without Redis support: enable the `redis` feature of mcp-runtime to use `--redis`".to_owned(),
            ));
        }
        Ok(Some((self.build()?, launch)))
    }
}
