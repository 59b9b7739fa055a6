//! Newline-delimited framing with a size limit that holds even when no newline comes.

/// What the reader hands on.
pub(crate) enum Frame<'a> {
    /// One complete message (without its newline).
    Message(&'a [u8]),
    /// A message longer than the limit was skipped, up to its newline; `kept` is its first
    /// `max` bytes, where its id usually is.
    Oversized { kept: &'a [u8] },
}

/// Splits a byte stream into lines as it arrives, chunk by chunk. Blank lines are skipped; a
/// line longer than `max` is never buffered whole.
pub(crate) struct Framer {
    partial: Vec<u8>,
    skipping: bool,
    max: usize,
}

impl Framer {
    pub(crate) fn new(max: usize) -> Framer {
        Framer {
            partial: Vec::new(),
            skipping: false,
            max,
        }
    }

    /// Feeds the next bytes, calling `on_frame` for each line they complete.
    pub(crate) fn push(&mut self, mut data: &[u8], on_frame: &mut dyn FnMut(Frame<'_>)) {
        while let Some(newline) = crate::substring::find_byte(b'\n', data) {
            let line = &data[..newline];
            data = &data[newline + 1..];
            if self.skipping {
                self.skipping = false;
            } else if self.partial.is_empty() {
                deliver(self.max, line, on_frame);
            } else {
                self.partial.extend_from_slice(line);
                deliver(self.max, &self.partial, on_frame);
                self.partial.clear();
            }
        }
        if !self.skipping && !data.is_empty() {
            self.partial.extend_from_slice(data);
            if self.partial.len() > self.max {
                on_frame(Frame::Oversized {
                    kept: &self.partial[..self.max],
                });
                self.partial = Vec::new();
                self.skipping = true;
            }
        }
    }

    /// The input ended: a last line without its newline still counts.
    pub(crate) fn end(&mut self, on_frame: &mut dyn FnMut(Frame<'_>)) {
        if !std::mem::take(&mut self.skipping) && !self.partial.is_empty() {
            let partial = std::mem::take(&mut self.partial);
            deliver(self.max, &partial, on_frame);
        }
    }

    /// Takes out what it holds of a line not yet ended, for a framer that goes on with the
    /// stream later ([`resumed`](Self::resumed)): the line's first bytes, or that the line is
    /// one too long to keep whose rest up to its newline is skipped. Leaves it empty.
    pub(crate) fn take_unframed(&mut self) -> Unframed {
        Unframed {
            bytes: std::mem::take(&mut self.partial),
            skipping: std::mem::take(&mut self.skipping),
        }
    }

    /// A framer that goes on from where another one's stream was left: fed `unframed`'s bytes
    /// first, it frames what follows them as the other would have.
    pub(crate) fn resumed(max: usize, unframed: &Unframed) -> Framer {
        Framer {
            partial: Vec::new(),
            skipping: unframed.skipping,
            max,
        }
    }
}

/// What a framer held of a line not yet ended ([`Framer::take_unframed`]).
#[derive(Default)]
pub(crate) struct Unframed {
    /// The bytes of the stream that no frame took yet, in order.
    pub(crate) bytes: Vec<u8>,
    /// Whether they begin inside a line too long to keep: up to its newline they are skipped.
    pub(crate) skipping: bool,
}

fn deliver(max: usize, line: &[u8], on_frame: &mut dyn FnMut(Frame<'_>)) {
    if line.len() > max {
        on_frame(Frame::Oversized { kept: &line[..max] });
    } else if line.iter().any(|b| !b.is_ascii_whitespace()) {
        on_frame(Frame::Message(line));
    }
}

/// The buffer one `read` fills: small at first (a server that only ever sees small messages
/// never touches more memory), doubling up to 64 KiB whenever a read fills it.
pub(crate) struct ReadBuffer(Vec<u8>);

impl ReadBuffer {
    const FIRST: usize = 4 * 1024;
    const MAX: usize = 64 * 1024;

    pub(crate) fn new() -> ReadBuffer {
        ReadBuffer(vec![0; Self::FIRST])
    }

    /// A buffer of no bytes, for a read that must find nothing: what stands in for a buffer
    /// while it is lent.
    pub(crate) fn empty() -> ReadBuffer {
        ReadBuffer(Vec::new())
    }

    /// Where the next read goes.
    pub(crate) fn space(&mut self) -> &mut [u8] {
        &mut self.0
    }

    /// The `read` bytes the last read brought; the buffer grows for the next one if they
    /// filled it.
    pub(crate) fn filled(&mut self, read: usize) -> &[u8] {
        if read == self.0.len() && self.0.len() < Self::MAX {
            // Grown where it lies when the allocator can (the bytes read are kept either way):
            // no second buffer beside the first.
            self.0.resize(self.0.len() * 2, 0);
        }
        &self.0[..read]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described(frame: Frame<'_>) -> String {
        match frame {
            Frame::Message(line) => String::from_utf8_lossy(line).into_owned(),
            Frame::Oversized { kept } => format!("<oversized: {}>", String::from_utf8_lossy(kept)),
        }
    }

    fn frames(input: &[u8], max: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut framer = Framer::new(max);
        let mut on_frame = |frame: Frame<'_>| out.push(described(frame));
        // In chunks of 7 bytes, as reads may cut lines anywhere.
        for chunk in input.chunks(7) {
            framer.push(chunk, &mut on_frame);
        }
        framer.end(&mut on_frame);
        out
    }

    #[test]
    fn a_read_that_fills_the_buffer_keeps_its_bytes_and_doubles_the_buffer_up_to_its_limit() {
        let mut buffer = ReadBuffer::new();
        let mut size = ReadBuffer::FIRST;
        for round in 0..6u8 {
            let space = buffer.space();
            assert_eq!(space.len(), size);
            space.fill(round);
            let read = space.len();
            assert!(buffer.filled(read).iter().all(|&byte| byte == round));
            size = (size * 2).min(ReadBuffer::MAX);
        }
        assert_eq!(buffer.filled(10), &[5; 10]);
        assert_eq!(buffer.space().len(), ReadBuffer::MAX);
    }

    #[test]
    fn lines_are_split_and_blank_lines_skipped() {
        assert_eq!(frames(b"a\n\n  \nb\r\nc", 100), ["a", "b\r", "c"]);
    }

    #[test]
    fn an_oversized_line_is_skipped_to_its_newline_and_reading_goes_on() {
        let mut input = vec![b'x'; 200_000];
        input.extend_from_slice(b"\nok\n");
        let kept = format!("<oversized: {}>", "x".repeat(1000));
        assert_eq!(frames(&input, 1000), [kept.as_str(), "ok"]);
    }

    #[test]
    fn a_framer_resumed_from_what_another_left_frames_the_rest_as_one_framer_would() {
        let input = b"first\nxxxxxxxxxxxxxxxxxxxx\nsecond line\n\nthird";
        let whole = frames(input, 8);
        for cut in 0..=input.len() {
            let mut out = Vec::new();
            let mut on_frame = |frame: Frame<'_>| out.push(described(frame));
            let mut first = Framer::new(8);
            first.push(&input[..cut], &mut on_frame);
            let unframed = first.take_unframed();
            let mut second = Framer::resumed(8, &unframed);
            second.push(&unframed.bytes, &mut on_frame);
            second.push(&input[cut..], &mut on_frame);
            second.end(&mut on_frame);
            assert_eq!(out, whole, "cut at byte {cut}");
        }
    }

    #[test]
    fn a_line_over_the_limit_within_one_chunk_is_oversized_too() {
        assert_eq!(
            frames(b"0123456789\nabc\n", 5),
            ["<oversized: 01234>", "abc"]
        );
    }
}
