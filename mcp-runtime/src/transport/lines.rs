//! Newline-delimited framing with a size limit that holds even when no newline comes.

use std::io::{self, Read};

/// What the reader hands on.
pub(crate) enum Frame<'a> {
    /// One complete message (without its newline).
    Message(&'a [u8]),
    /// A message longer than the limit was skipped, up to its newline.
    Oversized,
}

/// Reads `input` to its end, calling `on_frame` for each line. Blank lines are skipped; a line
/// longer than `max` is never buffered whole.
pub(crate) fn read_lines(
    mut input: impl Read,
    max: usize,
    mut on_frame: impl FnMut(Frame<'_>),
) -> io::Result<()> {
    let mut chunk = vec![0u8; 64 * 1024];
    let mut partial: Vec<u8> = Vec::new();
    let mut skipping = false;
    let deliver = |line: &[u8], on_frame: &mut dyn FnMut(Frame<'_>)| {
        if line.len() > max {
            on_frame(Frame::Oversized);
        } else if line.iter().any(|b| !b.is_ascii_whitespace()) {
            on_frame(Frame::Message(line));
        }
    };
    loop {
        let read = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        let mut data = &chunk[..read];
        while let Some(newline) = data.iter().position(|b| *b == b'\n') {
            let line = &data[..newline];
            data = &data[newline + 1..];
            if skipping {
                skipping = false;
            } else if partial.is_empty() {
                deliver(line, &mut on_frame);
            } else {
                partial.extend_from_slice(line);
                deliver(&partial, &mut on_frame);
                partial.clear();
            }
        }
        if !skipping && !data.is_empty() {
            partial.extend_from_slice(data);
            if partial.len() > max {
                on_frame(Frame::Oversized);
                partial = Vec::new();
                skipping = true;
            }
        }
    }
    if !skipping && !partial.is_empty() {
        deliver(&partial, &mut on_frame);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], max: usize) -> Vec<String> {
        let mut out = Vec::new();
        read_lines(input, max, |frame| {
            out.push(match frame {
                Frame::Message(line) => String::from_utf8_lossy(line).into_owned(),
                Frame::Oversized => "<oversized>".to_owned(),
            });
        })
        .unwrap();
        out
    }

    #[test]
    fn lines_are_split_and_blank_lines_skipped() {
        assert_eq!(frames(b"a\n\n  \nb\r\nc", 100), ["a", "b\r", "c"]);
    }

    #[test]
    fn an_oversized_line_is_skipped_to_its_newline_and_reading_goes_on() {
        let mut input = vec![b'x'; 200_000];
        input.extend_from_slice(b"\nok\n");
        assert_eq!(frames(&input, 1000), ["<oversized>", "ok"]);
    }

    #[test]
    fn a_line_over_the_limit_within_one_chunk_is_oversized_too() {
        assert_eq!(frames(b"0123456789\nabc\n", 5), ["<oversized>", "abc"]);
    }
}
