//! The command line [`ServerBuilder::run`](super::ServerBuilder::run) understands.
//!
//! `--http ADDRESS` (or `--http=ADDRESS`) serves Streamable HTTP; the address is an IP or a
//! host name and a port (`127.0.0.1:8000`, `localhost:8000`). `--help` (or `-h`) asks for the
//! usage. Any other argument that starts with `-` is refused by name, so a mistyped `--htp`
//! stops the program instead of serving stdio unnoticed. Arguments that are not options (a
//! folder to serve) and everything after `--` belong to the program and are left alone.

use std::net::{SocketAddr, ToSocketAddrs};

use super::suggest::did_you_mean;
use crate::error::Error;

/// The options, for the usage and for "did you mean".
const OPTIONS: [&str; 3] = ["--http", "--help", "-h"];

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub(crate) enum CommandLine {
    /// Serve stdio (`None`) or Streamable HTTP at this address.
    Serve(Option<SocketAddr>),
    /// Print this usage and exit.
    Help(String),
}

/// Reads the command line, program name first (as [`std::env::args`] gives it).
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<CommandLine, Error> {
    let mut args = args.into_iter();
    let program = args.next().unwrap_or_default();
    let mut http = None;
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--" => break,
            "--help" | "-h" => return Ok(CommandLine::Help(usage(&program))),
            "--http" => args.next(),
            _ if arg.starts_with("--http=") => Some(arg["--http=".len()..].to_owned()),
            _ if arg.starts_with('-') && arg != "-" => {
                let name = arg.split('=').next().unwrap_or(&arg);
                return Err(Error::Usage(format!(
                    "unknown option `{name}`{}; the options are `--http ADDRESS` and `--help`",
                    did_you_mean(name, OPTIONS)
                )));
            }
            _ => continue,
        };
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return Err(Error::Usage(
                "`--http` needs an address, such as `--http 127.0.0.1:8000`".to_owned(),
            ));
        };
        if http.is_some() {
            return Err(Error::Usage("`--http` is given twice".to_owned()));
        }
        http = Some(resolve(&value)?);
    }
    Ok(CommandLine::Serve(http))
}

/// The address `--http` names: an IP and a port, or a host name and a port. A name that
/// resolves to several addresses gives its first IPv4 one (`localhost` is `127.0.0.1`, which
/// every client trying `localhost` reaches), else its first.
fn resolve(value: &str) -> Result<SocketAddr, Error> {
    if let Ok(addr) = value.parse() {
        return Ok(addr);
    }
    let Some((host, port)) = value.rsplit_once(':') else {
        return Err(Error::Usage(format!(
            "`--http {value}` has no port: use a host and a port, such as `{value}:8000`"
        )));
    };
    if port.parse::<u16>().is_err() {
        return Err(Error::Usage(format!(
            "`--http {value}`: `{port}` is not a port (0 to 65535)"
        )));
    }
    let addrs: Vec<SocketAddr> = value
        .to_socket_addrs()
        .map_err(|e| Error::Usage(format!("`--http {value}`: cannot resolve `{host}`: {e}")))?
        .collect();
    addrs
        .iter()
        .find(|addr| addr.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| Error::Usage(format!("`--http {value}`: `{host}` has no address")))
}

/// The text `--help` prints.
pub(crate) fn usage(program: &str) -> String {
    let program = std::path::Path::new(program)
        .file_name()
        .map_or_else(|| "server".into(), |name| name.to_string_lossy());
    format!(
        "An MCP (Model Context Protocol) server.

Usage: {program} [--http ADDRESS]

With no option it speaks MCP over stdin and stdout: an MCP client starts it as a command.

Options:
  --http ADDRESS  serve Streamable HTTP at http://ADDRESS/mcp instead; ADDRESS is an IP or a
                  host name and a port: 127.0.0.1:8000, localhost:8000, [::1]:8000
  -h, --help      print this help and exit
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<CommandLine, String> {
        let args = std::iter::once("/bin/server")
            .chain(args.iter().copied())
            .map(str::to_owned);
        parse(args).map_err(|e| e.to_string())
    }

    fn serve(addr: &str) -> Result<CommandLine, String> {
        Ok(CommandLine::Serve(Some(addr.parse().unwrap())))
    }

    #[test]
    fn no_option_is_stdio_and_other_arguments_are_the_programs() {
        assert_eq!(parsed(&[]), Ok(CommandLine::Serve(None)));
        assert_eq!(parsed(&["./folder", "-"]), Ok(CommandLine::Serve(None)));
        assert_eq!(
            parsed(&["--", "--verbose", "--http"]),
            Ok(CommandLine::Serve(None))
        );
    }

    #[test]
    fn http_takes_an_ip_address_in_both_spellings() {
        assert_eq!(
            parsed(&["--http", "127.0.0.1:8000"]),
            serve("127.0.0.1:8000")
        );
        assert_eq!(parsed(&["./folder", "--http=[::1]:9"]), serve("[::1]:9"));
    }

    #[test]
    fn http_takes_a_host_name() {
        let Ok(CommandLine::Serve(Some(addr))) = parsed(&["--http", "localhost:8000"]) else {
            panic!("localhost:8000 resolves");
        };
        assert!(addr.ip().is_loopback(), "{addr}");
        assert_eq!(addr.port(), 8000);
    }

    #[test]
    fn a_bad_address_says_what_is_wrong() {
        for missing in [&["--http"][..], &["--http="], &["--http", ""]] {
            let error = parsed(missing).unwrap_err();
            assert!(error.contains("needs an address"), "{missing:?}: {error}");
        }
        let error = parsed(&["--http", "localhost"]).unwrap_err();
        assert!(error.contains("has no port"), "{error}");
        let error = parsed(&["--http", "localhost:http"]).unwrap_err();
        assert!(error.contains("`http` is not a port"), "{error}");
        let error = parsed(&["--http", "nowhere.invalid:8000"]).unwrap_err();
        assert!(
            error.contains("cannot resolve `nowhere.invalid`"),
            "{error}"
        );
        let error = parsed(&["--http", "127.0.0.1:1", "--http", "127.0.0.1:2"]).unwrap_err();
        assert!(error.contains("given twice"), "{error}");
    }

    #[test]
    fn help_is_asked_for_with_either_spelling() {
        for help in ["--help", "-h"] {
            let Ok(CommandLine::Help(text)) = parsed(&["--http", "127.0.0.1:1", help]) else {
                panic!("{help} asks for the usage");
            };
            assert!(text.contains("Usage: server [--http ADDRESS]"), "{text}");
        }
    }

    #[test]
    fn an_unknown_option_is_refused_by_name() {
        let error = parsed(&["--htp", "127.0.0.1:8000"]).unwrap_err();
        assert!(error.starts_with("unknown option `--htp`"), "{error}");
        assert!(error.contains("did you mean `--http`?"), "{error}");
        let error = parsed(&["--verbose=2"]).unwrap_err();
        assert!(error.starts_with("unknown option `--verbose`"), "{error}");
    }
}
