//! A history's text as the readers take it: from memory (the page, which has the file's text)
//! or streamed from a file (the CLI, which reads files of any size without holding them),
//! line by line or as bytes for the CSV reader, with the share read so far for progress.

use std::borrow::Cow;
use std::io::{self, BufRead, Read as _};

/// Bytes read ahead to detect the format (the first lines).
const PEEK_BYTES: usize = 64 * 1024;
/// The first bytes of a gzip stream (RFC 1952).
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Where a history's text comes from.
pub enum Source<'a> {
    /// Text in memory (a leading BOM is skipped).
    Text(&'a str),
    /// A stream of `bytes` bytes in all (for progress; 0 when unknown).
    Stream {
        /// The stream.
        reader: Box<dyn BufRead + 'a>,
        /// Its length, bytes.
        bytes: u64,
    },
}

impl<'a> Source<'a> {
    /// A stream read through a buffer large enough to detect the format from; a gzip stream
    /// (`.gz`, as public traces ship, every member of it) is read unpacked, its length then
    /// unknown.
    pub fn stream(mut reader: impl io::Read + 'a, bytes: u64) -> Source<'a> {
        // Its first two bytes (a pipe may hand them over one at a time), put back in front.
        let mut head = [0u8; 2];
        let mut got = 0;
        while got < head.len() {
            match reader.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // The read that follows meets the error again and reports it.
                Err(_) => break,
            }
        }
        let gzip = head[..got] == GZIP_MAGIC;
        let reader = io::BufReader::with_capacity(
            PEEK_BYTES,
            io::Cursor::new(head[..got].to_vec()).chain(reader),
        );
        if gzip {
            return Source::Stream {
                reader: Box::new(io::BufReader::with_capacity(
                    PEEK_BYTES,
                    flate2::bufread::MultiGzDecoder::new(reader),
                )),
                bytes: 0,
            };
        }
        Source::Stream {
            reader: Box::new(reader),
            bytes,
        }
    }

    /// Skips a leading UTF-8 BOM and gives the text's beginning (all of it in memory; the
    /// first [`PEEK_BYTES`] of a stream, up to its last whole line), to detect the format from.
    pub(crate) fn start(&mut self) -> io::Result<Cow<'_, str>> {
        Ok(match self {
            Source::Text(t) => {
                *t = t.strip_prefix('\u{feff}').unwrap_or(t);
                Cow::Borrowed(*t)
            }
            Source::Stream { reader, .. } => {
                let mut rest = std::mem::replace(reader, Box::new(io::empty()));
                let mut head = Vec::with_capacity(PEEK_BYTES);
                (&mut rest).take(PEEK_BYTES as u64).read_to_end(&mut head)?;
                let from = if head.starts_with(b"\xef\xbb\xbf") {
                    3
                } else {
                    0
                };
                let end = head
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(head.len(), |i| i + 1)
                    .max(from);
                let text = String::from_utf8_lossy(&head[from..end]).into_owned();
                head.drain(..from);
                *reader = Box::new(io::BufReader::with_capacity(
                    PEEK_BYTES,
                    io::Cursor::new(head).chain(rest),
                ));
                Cow::Owned(text)
            }
        })
    }

    /// The text line by line, numbered from 1, without their line ends (`\n` or `\r\n`, as
    /// `str::lines` drops them).
    pub(crate) fn lines(self) -> Lines<'a> {
        match self {
            Source::Text(t) => Lines {
                inner: LinesOf::Text {
                    lines: t.lines(),
                    text: t,
                },
                n: 0,
                total: t.len() as u64,
                done: 0,
                error: None,
            },
            Source::Stream { reader, bytes } => Lines {
                inner: LinesOf::Stream(reader),
                n: 0,
                total: bytes,
                done: 0,
                error: None,
            },
        }
    }

    /// The text as bytes, and its length.
    pub(crate) fn bytes(self) -> (Box<dyn io::Read + 'a>, u64) {
        match self {
            Source::Text(t) => (Box::new(t.as_bytes()), t.len() as u64),
            Source::Stream { reader, bytes } => (Box::new(reader), bytes),
        }
    }
}

enum LinesOf<'a> {
    Text {
        lines: std::str::Lines<'a>,
        text: &'a str,
    },
    Stream(Box<dyn BufRead + 'a>),
}

/// A history's lines: `(line number, text)`.
pub(crate) struct Lines<'a> {
    inner: LinesOf<'a>,
    n: u64,
    total: u64,
    done: u64,
    error: Option<(u64, io::Error)>,
}

impl Lines<'_> {
    /// The share of the text read so far (0–1).
    pub(crate) fn share(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            (self.done as f64 / self.total as f64).min(1.0)
        }
    }

    /// Why the stream stopped early, with the line it stopped at: `None` when it ended.
    pub(crate) fn take_error(&mut self) -> Option<(u64, io::Error)> {
        self.error.take()
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u64, Cow<'a, str>);

    fn next(&mut self) -> Option<Self::Item> {
        let line = match &mut self.inner {
            LinesOf::Text { lines, text } => {
                let line = lines.next()?;
                let start = line.as_ptr() as usize - text.as_ptr() as usize;
                self.done = (start + line.len()) as u64;
                Cow::Borrowed(line)
            }
            LinesOf::Stream(reader) => {
                let mut bytes = Vec::new();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) => return None,
                    Ok(k) => self.done += k as u64,
                    Err(e) => {
                        self.error = Some((self.n + 1, e));
                        return None;
                    }
                }
                if bytes.last() == Some(&b'\n') {
                    bytes.pop();
                    if bytes.last() == Some(&b'\r') {
                        bytes.pop();
                    }
                }
                match String::from_utf8(bytes) {
                    Ok(s) => Cow::Owned(s),
                    Err(_) => {
                        self.error = Some((
                            self.n + 1,
                            io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"),
                        ));
                        return None;
                    }
                }
            }
        };
        self.n += 1;
        Some((self.n, line))
    }
}
