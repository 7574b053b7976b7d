//! The CLI streams a history from its file instead of holding it: read from a stream, every
//! fixture gives the same records, notes and skipped lines as read from memory, also when the
//! stream hands over one byte at a time, with CRLF line ends and a BOM; a line that is not
//! UTF-8 stops the read naming the line.

use gpucost::history::source::Source;
use gpucost::history::{read_history, read_source, ImportOptions};
use std::io;

/// A reader that gives at most one byte per read, the worst a pipe can do.
struct OneByte<'a>(&'a [u8]);

impl io::Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.is_empty()) {
            (Some((&b, rest)), false) => {
                buf[0] = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn fixtures() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&str, String)> = [
        "sacct-gpu.txt",
        "history.swf",
        "history-relative.csv",
        "history-heavy-tail.csv",
        "job-history-hand.csv",
        "job-history-sample.csv",
    ]
    .into_iter()
    .map(|name| {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        (name, std::fs::read_to_string(path).expect("fixture"))
    })
    .collect();
    // The same sacct dump with a BOM and CRLF line ends, as a Windows editor saves it.
    let crlf = format!("\u{feff}{}", out[0].1.replace('\n', "\r\n"));
    out.push(("sacct-gpu.txt, BOM and CRLF", crlf));
    out
}

#[test]
fn streamed_histories_read_as_in_memory() {
    let options = ImportOptions::default();
    for (name, text) in fixtures() {
        let want = read_history(&text, &options);
        let bytes = text.len() as u64;
        for (how, source) in [
            ("buffered", Source::stream(text.as_bytes(), bytes)),
            (
                "one byte at a time",
                Source::stream(OneByte(text.as_bytes()), bytes),
            ),
        ] {
            let mut last = 0.0;
            let got = read_source(source, &options, &mut |share| {
                assert!(
                    (0.0..=1.0).contains(&share) && share >= last,
                    "{name}: {share}"
                );
                last = share;
            });
            assert_eq!(got, want, "{name}, {how}");
            assert_eq!(last, 1.0, "{name}, {how}");
        }
    }
}

#[test]
fn a_line_that_is_not_utf8_stops_the_stream_naming_it() {
    let mut bytes = b"JobID|State|Submit|Start|End|AllocTRES\n".to_vec();
    bytes.extend_from_slice(
        b"1|COMPLETED|2026-03-03T08:00:00|2026-03-03T08:00:00|2026-03-03T09:00:00|gres/gpu=1\n",
    );
    bytes.extend_from_slice(b"2|COMPLETED|2026-03-03T09:00:00|2026-03-03T09:00:00|2026-03-03T10:00:00|gres/gpu=1 \xff\n");
    let n = bytes.len() as u64;
    let e = read_source(
        Source::stream(bytes.as_slice(), n),
        &ImportOptions::default(),
        &mut |_| {},
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3 is not UTF-8 text: save the file as UTF-8"
    );
}

/// `text` gzip-compressed as two members (as `cat a.gz b.gz` makes, and some tools write).
fn gzipped(text: &str) -> Vec<u8> {
    use flate2::write::GzEncoder;
    use std::io::Write;
    let (a, b) = text.split_at(text.len() / 2);
    let mut out = Vec::new();
    for part in [a, b] {
        let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(part.as_bytes()).unwrap();
        out.extend(encoder.finish().unwrap());
    }
    out
}

#[test]
fn gzip_compressed_histories_read_as_the_text_they_hold() {
    let options = ImportOptions::default();
    for (name, text) in fixtures() {
        let want = read_history(&text, &options);
        let packed = gzipped(&text);
        assert_eq!(packed[..2], gpucost::history::source::GZIP_MAGIC);
        let bytes = packed.len() as u64;
        for (how, source) in [
            ("buffered", Source::stream(packed.as_slice(), bytes)),
            (
                "one byte at a time",
                Source::stream(OneByte(packed.as_slice()), bytes),
            ),
        ] {
            let got = read_source(source, &options, &mut |_| {});
            assert_eq!(got, want, "{name}, {how}");
        }
    }
}
