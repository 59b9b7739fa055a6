//! The command line [`ServerBuilder::run`](crate::ServerBuilder::run) understands.
//!
//! `--http ADDRESS` (or `--http=ADDRESS`) serves Streamable HTTP; the address is an IP or a
//! host name and a port (`127.0.0.1:8000`, `localhost:8000`); a program built without the
//! `http` feature refuses it, saying so. `--help` (or `-h`) asks for the usage, which lists
//! the options this build can use. Three options run the server as one of several instances
//! behind a load balancer:
//! `--redis URL` (the change bus shared through Redis, with the `redis` feature),
//! `--state-keys FILE` (the keys that seal `requestState`, one base64 key per line, the
//! first sealing, the file watched for rotation) and `--allow-host HOST:PORT` (repeatable,
//! with `--http`: a public host the balancer is reached at, accepted besides the local
//! forms). Any other argument that starts with `-` is refused by name, so a mistyped `--htp`
//! stops the program instead of serving stdio unnoticed. Arguments that are not options (a
//! folder to serve) and everything after `--` belong to the program and are left alone.

use std::net::SocketAddr;
#[cfg(feature = "http")]
use std::net::ToSocketAddrs;
use std::path::PathBuf;

use crate::error::Error;
use crate::suggest::did_you_mean;

/// The options that take a value.
const VALUED: [&str; 4] = ["--http", "--redis", "--state-keys", "--allow-host"];

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub(crate) enum CommandLine {
    /// Serve, as these options say.
    Serve(Launch),
    /// Print this usage and exit.
    Help(String),
}

/// How to serve.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Launch {
    /// Streamable HTTP at this address; stdio when `None`.
    pub(crate) http: Option<SocketAddr>,
    /// The Redis the change bus goes through.
    pub(crate) redis: Option<String>,
    /// The file of the keys that seal `requestState`.
    pub(crate) state_keys: Option<PathBuf>,
    /// Public `host:port` values accepted in `Host` and `Origin` besides the local forms.
    pub(crate) allow_hosts: Vec<String>,
}

/// Reads the command line, program name first (as [`std::env::args`] gives it).
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<CommandLine, Error> {
    let mut args = args.into_iter();
    let program = args.next().unwrap_or_default();
    let mut launch = Launch::default();
    // Resolved once the whole line is read, so that `--help` anywhere wins.
    let mut http = None;
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        if arg == "--help" || arg == "-h" {
            return Ok(CommandLine::Help(usage(&program)));
        }
        if !arg.starts_with('-') || arg == "-" {
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (arg.as_str(), None),
        };
        let Some(option) = VALUED.iter().find(|option| **option == name) else {
            return Err(Error::Usage(format!(
                "unknown option `{name}`{}; the options are {} (the program's own options go after `--`)",
                did_you_mean(name, offered_names()),
                options_in_words()
            )));
        };
        let value = inline
            .or_else(|| args.next())
            .filter(|value| !value.is_empty())
            .ok_or_else(|| Error::Usage(format!("`{option}` needs {}", example(option))))?;
        let twice = || Error::Usage(format!("`{option}` is given twice"));
        match *option {
            "--http" if http.is_some() => return Err(twice()),
            "--http" => http = Some(value),
            "--redis" if launch.redis.is_some() => return Err(twice()),
            "--redis" => launch.redis = Some(value),
            "--state-keys" if launch.state_keys.is_some() => return Err(twice()),
            "--state-keys" => launch.state_keys = Some(PathBuf::from(value)),
            _ => launch.allow_hosts.push(host_and_port(&value)?),
        }
    }
    launch.http = http.as_deref().map(resolve).transpose()?;
    if launch.http.is_none() && !launch.allow_hosts.is_empty() {
        return Err(Error::Usage(
            "`--allow-host` names a host HTTP clients reach the server at: it goes with `--http ADDRESS`".to_owned(),
        ));
    }
    Ok(CommandLine::Serve(launch))
}

/// What an option's value looks like, for the message when it is missing.
fn example(option: &str) -> &'static str {
    match option {
        "--http" => "an address, such as `--http 127.0.0.1:8000`",
        "--redis" => "a URL, such as `--redis redis://127.0.0.1:6379`",
        "--state-keys" => "a file, such as `--state-keys /run/secrets/mcp-state-keys`",
        _ => "a host and a port, such as `--allow-host mcp.example.com:443`",
    }
}

/// An `--allow-host` value: a host name or IP (IPv6 in brackets) and a port, nothing else.
fn host_and_port(value: &str) -> Result<String, Error> {
    let problem = |why: &str| {
        Error::Usage(format!(
            "`--allow-host {value}`: {why}; give the host and port clients use, such as `mcp.example.com:443`"
        ))
    };
    let Some((host, port)) = value.rsplit_once(':') else {
        return Err(problem("no port"));
    };
    if port.parse::<u16>().is_err() {
        return Err(problem(&format!("`{port}` is not a port (0 to 65535)")));
    }
    let bracketed = host.starts_with('[') && host.ends_with(']');
    let host_ok = !host.is_empty()
        && (bracketed || !host.contains(':'))
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._[]:".contains(&b));
    if !host_ok {
        return Err(problem(&format!(
            "`{host}` is not a host name or IP address"
        )));
    }
    Ok(value.to_ascii_lowercase())
}

/// What `--http` gets from a program built without the `http` feature, which cannot serve
/// HTTP: the address is not read (reading it would link a resolver for nothing).
#[cfg(not(feature = "http"))]
fn resolve(_: &str) -> Result<SocketAddr, Error> {
    Err(Error::Usage(
        "`--http`: this program was built without HTTP support: enable the `http` feature of mcp-runtime".to_owned(),
    ))
}

/// The address `--http` names: an IP and a port, or a host name and a port. A name that
/// resolves to several addresses gives its first IPv4 one (`localhost` is `127.0.0.1`, which
/// every client trying `localhost` reaches), else its first.
#[cfg(feature = "http")]
fn resolve(value: &str) -> Result<SocketAddr, Error> {
    if let Ok(addr) = value.parse() {
        return Ok(addr);
    }
    // (A byte scan: `split_once("://")` would link a substring searcher for this alone.)
    if let Some(at) = value.as_bytes().windows(3).position(|part| part == b"://") {
        let (scheme, rest) = (&value[..at], &value[at + 3..]);
        return Err(Error::Usage(format!(
            "`--http {value}`: give the address without `{scheme}://` (and without a path): `--http {}`",
            rest.split('/').next().unwrap_or(rest)
        )));
    }
    if value.parse::<u16>().is_ok() {
        return Err(Error::Usage(format!(
            "`--http {value}` has no host: give one with the port, `127.0.0.1:{value}` (this machine only) or `0.0.0.0:{value}` (every interface)"
        )));
    }
    let Some((host, port)) = value.rsplit_once(':') else {
        return Err(Error::Usage(format!(
            "`--http {value}` has no port: use a host and a port, such as `{value}:8000`"
        )));
    };
    if host.is_empty() {
        return Err(Error::Usage(format!(
            "`--http {value}` has no host: give one before the port, `127.0.0.1{value}` (this machine only) or `0.0.0.0{value}` (every interface)"
        )));
    }
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

/// One option as `--help` lists it.
struct Listed {
    /// The option and its value, as the usage line and the "unknown option" message give it.
    form: &'static str,
    /// Whether it may be given more than once.
    repeatable: bool,
    /// What it does, one line or more, as `--help` prints it beside the form.
    help: &'static str,
    /// Whether this build can use it (`--help` lists only those).
    built: bool,
}

/// The options `--help` lists, in its order. One a build cannot use (`--http` without the
/// `http` feature) is still read, to be refused saying why, but not offered.
const LISTED: [Listed; 4] = [
    Listed {
        form: "--http ADDRESS",
        repeatable: false,
        help: "serve Streamable HTTP at http://ADDRESS/mcp instead, with /health
and /ready beside it; ADDRESS is an IP or a host name and a port:
127.0.0.1:8000, localhost:8000, [::1]:8000",
        built: cfg!(feature = "http"),
    },
    Listed {
        form: "--allow-host HOST:PORT",
        repeatable: true,
        help: "accept this Host (and Origin) besides the local ones: the public
address of a load balancer in front; repeatable",
        built: cfg!(feature = "http"),
    },
    Listed {
        form: "--redis URL",
        repeatable: false,
        help: "share change notifications with the other instances through the
Redis at URL (redis://HOST:PORT)",
        built: cfg!(feature = "redis"),
    },
    Listed {
        form: "--state-keys FILE",
        repeatable: false,
        help: "seal input-required state with the keys in FILE (one base64 key of
32 bytes a line, the first one sealing), read again when it changes",
        built: true,
    },
];

/// The names of the options this build can use, for "did you mean".
fn offered_names() -> impl Iterator<Item = &'static str> {
    LISTED
        .iter()
        .filter(|option| option.built)
        .map(|option| option.form.split(' ').next().unwrap_or(option.form))
        .chain(["--help", "-h"])
}

/// The options this build can use, for the "unknown option" message: "`--http ADDRESS`,
/// ... and `--help`".
fn options_in_words() -> String {
    let mut words = String::new();
    for option in LISTED.iter().filter(|option| option.built) {
        words.push_str(&format!("`{}`, ", option.form));
    }
    if let Some(comma) = words.rfind(", ") {
        words.truncate(comma);
        words.push_str(" and ");
    }
    words + "`--help`"
}

/// The text `--help` prints: the options this build can use.
pub(crate) fn usage(program: &str) -> String {
    /// Where the help of each option begins.
    const HELP_COLUMN: usize = 26;
    let program = std::path::Path::new(program)
        .file_name()
        .map_or_else(|| "server".into(), |name| name.to_string_lossy());
    let built = || LISTED.iter().filter(|option| option.built);
    let mut synopsis = String::new();
    let mut options = String::new();
    for option in built() {
        let dots = if option.repeatable { "..." } else { "" };
        synopsis.push_str(&format!(" [{}]{dots}", option.form));
        for (i, line) in option.help.lines().enumerate() {
            let left = if i == 0 { option.form } else { "" };
            options.push_str(&format!(
                "  {left:<width$}{line}\n",
                width = HELP_COLUMN - 2
            ));
        }
    }
    let transports = if cfg!(feature = "http") {
        ""
    } else {
        "\nThis build serves stdio only (mcp-runtime's `http` feature adds `--http ADDRESS`).\n"
    };
    format!(
        "An MCP (Model Context Protocol) server.

Usage: {program}{synopsis}

With no option it speaks MCP over stdin and stdout: an MCP client starts it as a command.
{transports}
Options:
{options}  {help:<width$}print this help and exit
",
        help = "-h, --help",
        width = HELP_COLUMN - 2,
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

    #[cfg(feature = "http")]
    fn serve(addr: &str) -> Result<CommandLine, String> {
        Ok(CommandLine::Serve(Launch {
            http: Some(addr.parse().unwrap()),
            ..Launch::default()
        }))
    }

    fn stdio() -> Result<CommandLine, String> {
        Ok(CommandLine::Serve(Launch::default()))
    }

    #[test]
    fn no_option_is_stdio_and_other_arguments_are_the_programs() {
        assert_eq!(parsed(&[]), stdio());
        assert_eq!(parsed(&["./folder", "-"]), stdio());
        assert_eq!(parsed(&["--", "--verbose", "--http"]), stdio());
    }

    #[test]
    #[cfg(feature = "http")]
    fn http_takes_an_ip_address_in_both_spellings() {
        assert_eq!(
            parsed(&["--http", "127.0.0.1:8000"]),
            serve("127.0.0.1:8000")
        );
        assert_eq!(parsed(&["./folder", "--http=[::1]:9"]), serve("[::1]:9"));
    }

    #[test]
    #[cfg(feature = "http")]
    fn http_takes_a_host_name() {
        let Ok(CommandLine::Serve(Launch {
            http: Some(addr), ..
        })) = parsed(&["--http", "localhost:8000"])
        else {
            panic!("localhost:8000 resolves");
        };
        assert!(addr.ip().is_loopback(), "{addr}");
        assert_eq!(addr.port(), 8000);
    }

    #[test]
    fn an_address_is_needed_once() {
        for missing in [&["--http"][..], &["--http="], &["--http", ""]] {
            let error = parsed(missing).unwrap_err();
            assert!(error.contains("needs an address"), "{missing:?}: {error}");
        }
        let error = parsed(&["--http", "127.0.0.1:1", "--http", "127.0.0.1:2"]).unwrap_err();
        assert!(error.contains("given twice"), "{error}");
    }

    #[test]
    #[cfg(not(feature = "http"))]
    fn http_is_refused_without_the_feature_saying_so() {
        let error = parsed(&["--http", "127.0.0.1:8000"]).unwrap_err();
        assert!(
            error.contains("built without HTTP support")
                && error.contains("enable the `http` feature"),
            "{error}"
        );
    }

    #[test]
    #[cfg(feature = "http")]
    fn a_bad_address_says_what_is_wrong() {
        let error = parsed(&["--http", "localhost"]).unwrap_err();
        assert!(error.contains("has no port"), "{error}");
        let error = parsed(&["--http", "8000"]).unwrap_err();
        assert!(
            error.contains("has no host") && error.contains("`127.0.0.1:8000`"),
            "{error}"
        );
        let error = parsed(&["--http", ":8000"]).unwrap_err();
        assert!(
            error.contains("has no host") && error.contains("`0.0.0.0:8000`"),
            "{error}"
        );
        let error = parsed(&["--http", "http://127.0.0.1:8000/mcp"]).unwrap_err();
        assert!(
            error.contains("without `http://`") && error.contains("`--http 127.0.0.1:8000`"),
            "{error}"
        );
        let error = parsed(&["--http", "localhost:http"]).unwrap_err();
        assert!(error.contains("`http` is not a port"), "{error}");
        let error = parsed(&["--http", "nowhere.invalid:8000"]).unwrap_err();
        assert!(
            error.contains("cannot resolve `nowhere.invalid`"),
            "{error}"
        );
    }

    #[test]
    fn help_is_asked_for_with_either_spelling() {
        for help in ["--help", "-h"] {
            let Ok(CommandLine::Help(text)) = parsed(&["--http", "127.0.0.1:1", help]) else {
                panic!("{help} asks for the usage");
            };
            assert!(
                text.starts_with("An MCP (Model Context Protocol) server."),
                "{text}"
            );
            assert!(text.contains("\nUsage: server ["), "{text}");
        }
    }

    /// `--help` offers only what the build can do: a stdio-only program does not list
    /// `--http`, which it refuses.
    #[test]
    fn help_lists_the_options_this_build_can_use() {
        let Ok(CommandLine::Help(text)) = parsed(&["--help"]) else {
            panic!("--help asks for the usage");
        };
        let listed = |form: &str| text.contains(&format!("\n  {form} "));
        let in_synopsis = |form: &str| text.contains(&format!(" [{form}]"));
        for (form, built) in [
            ("--http ADDRESS", cfg!(feature = "http")),
            ("--allow-host HOST:PORT", cfg!(feature = "http")),
            ("--redis URL", cfg!(feature = "redis")),
            ("--state-keys FILE", true),
        ] {
            assert_eq!(listed(form), built, "{form}: {text}");
            assert_eq!(in_synopsis(form), built, "{form}: {text}");
        }
        assert_eq!(
            text.contains("serves stdio only"),
            !cfg!(feature = "http"),
            "{text}"
        );
        // Each option's help starts in one column, its further lines too.
        assert!(
            text.contains(
                "\n  --state-keys FILE       seal input-required state with the keys in FILE (one base64 key of\n                          32 bytes a line,"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("\n  -h, --help              print this help and exit\n"),
            "{text}"
        );
    }

    #[test]
    fn an_unknown_option_is_refused_by_name() {
        let error = parsed(&["--htp", "127.0.0.1:8000"]).unwrap_err();
        assert!(error.starts_with("unknown option `--htp`"), "{error}");
        // The options offered are this build's.
        assert_eq!(
            error.contains("did you mean `--http`?"),
            cfg!(feature = "http"),
            "{error}"
        );
        assert_eq!(
            error.contains("`--http ADDRESS`, "),
            cfg!(feature = "http"),
            "{error}"
        );
        assert!(
            error.contains("`--state-keys FILE` and `--help`"),
            "{error}"
        );
        let error = parsed(&["--verbose=2"]).unwrap_err();
        assert!(error.starts_with("unknown option `--verbose`"), "{error}");
        assert!(error.contains("go after `--`"), "{error}");
    }

    #[test]
    #[cfg(feature = "http")]
    fn the_deployment_options_are_read_in_both_spellings() {
        let Ok(CommandLine::Serve(launch)) = parsed(&[
            "--http",
            "127.0.0.1:8000",
            "--redis=redis://127.0.0.1:6379",
            "--state-keys",
            "/run/keys",
            "--allow-host",
            "MCP.example.com:443",
            "--allow-host=[2001:db8::1]:8443",
        ]) else {
            panic!("a valid command line");
        };
        assert_eq!(
            launch,
            Launch {
                http: Some("127.0.0.1:8000".parse().unwrap()),
                redis: Some("redis://127.0.0.1:6379".to_owned()),
                state_keys: Some(PathBuf::from("/run/keys")),
                allow_hosts: vec![
                    "mcp.example.com:443".to_owned(),
                    "[2001:db8::1]:8443".to_owned()
                ],
            }
        );
    }

    #[test]
    fn a_bad_deployment_option_says_what_is_wrong() {
        let error = parsed(&["--redis"]).unwrap_err();
        assert!(error.contains("`--redis` needs a URL"), "{error}");
        let error = parsed(&["--state-keys="]).unwrap_err();
        assert!(error.contains("`--state-keys` needs a file"), "{error}");
        let error = parsed(&["--redis", "redis://a:1", "--redis", "redis://b:1"]).unwrap_err();
        assert!(error.contains("`--redis` is given twice"), "{error}");
        let error = parsed(&["--allow-host", "mcp.example.com:443"]).unwrap_err();
        assert!(error.contains("goes with `--http ADDRESS`"), "{error}");
        for (value, why) in [
            ("mcp.example.com", "no port"),
            ("mcp.example.com:https", "`https` is not a port"),
            ("user@mcp.example.com:443", "is not a host name"),
            ("mcp.example.com/mcp:443", "is not a host name"),
            ("2001:db8::1:443", "is not a host name"),
        ] {
            let error = parsed(&["--http", "127.0.0.1:1", "--allow-host", value]).unwrap_err();
            assert!(error.contains(why), "{value}: {error}");
        }
        let error = parsed(&["--alow-host", "a:1"]).unwrap_err();
        assert_eq!(
            error.contains("did you mean `--allow-host`?"),
            cfg!(feature = "http"),
            "{error}"
        );
        let error = parsed(&["--state-key", "keys"]).unwrap_err();
        assert!(error.contains("did you mean `--state-keys`?"), "{error}");
    }
}
