//! A replay's jobs as bytes, and their content key. The page keeps a replayed history in the
//! browser's IndexedDB as these bytes under the key, and a link names the key: a trace is far
//! too large for a link, and the key says which one the link was made with.
//!
//! Bytes: `GPUR`, format 1 (one byte), the job count (u32), then per job its arrival (i64),
//! class (u32), run time (f64 bits) and whether it failed (one byte), all little-endian.
//! The key is the first 16 bytes of the SHA-256 of those bytes, in lowercase hex.

use super::{Replay, ReplayJob};
use sha2::{Digest, Sha256};

const MAGIC: &[u8; 4] = b"GPUR";
const FORMAT: u8 = 1;
const JOB_BYTES: usize = 8 + 4 + 8 + 1;
const HEADER_BYTES: usize = 4 + 1 + 4;

/// Characters of a content key.
pub const KEY_CHARS: usize = 32;

impl Replay {
    /// A replay of `jobs` with its content key.
    pub fn new(jobs: Vec<ReplayJob>) -> Replay {
        let mut replay = Replay {
            jobs,
            key: String::new(),
        };
        replay.key = Replay::key_of(&replay.to_bytes());
        replay
    }

    /// The content key of a replay's bytes.
    pub fn key_of(bytes: &[u8]) -> String {
        Sha256::digest(bytes)[..KEY_CHARS / 2]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Whether `text` has the shape of a content key (32 lowercase hex digits).
    pub fn is_key(text: &str) -> bool {
        text.len() == KEY_CHARS && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    }

    /// The jobs as bytes (the module's format).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + JOB_BYTES * self.jobs.len());
        out.extend_from_slice(MAGIC);
        out.push(FORMAT);
        out.extend_from_slice(&(self.jobs.len() as u32).to_le_bytes());
        for j in &self.jobs {
            out.extend_from_slice(&j.arrival_s.to_le_bytes());
            out.extend_from_slice(&j.class.to_le_bytes());
            out.extend_from_slice(&j.run_s.to_bits().to_le_bytes());
            out.push(u8::from(j.failed));
        }
        out
    }

    /// The replay whose bytes these are, if they are whole and their key is `key`.
    pub fn from_bytes(bytes: &[u8], key: &str) -> Result<Replay, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..4] != MAGIC {
            return Err("not a stored job history".to_string());
        }
        if bytes[4] != FORMAT {
            return Err(format!(
                "stored in format {} (this page reads {FORMAT})",
                bytes[4]
            ));
        }
        let count = u32::from_le_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]) as usize;
        if bytes.len() != HEADER_BYTES + count * JOB_BYTES {
            return Err(format!(
                "{} bytes where {count} jobs take {}",
                bytes.len(),
                HEADER_BYTES + count * JOB_BYTES
            ));
        }
        let found = Replay::key_of(bytes);
        if found != key {
            return Err(format!("its content has the key {found}, not {key}"));
        }
        let jobs = bytes[HEADER_BYTES..]
            .chunks_exact(JOB_BYTES)
            .map(|c| {
                let word = |at: usize| {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&c[at..at + 8]);
                    b
                };
                ReplayJob {
                    arrival_s: i64::from_le_bytes(word(0)),
                    class: u32::from_le_bytes([c[8], c[9], c[10], c[11]]),
                    run_s: f64::from_bits(u64::from_le_bytes(word(12))),
                    failed: c[20] != 0,
                }
            })
            .collect();
        Ok(Replay {
            jobs,
            key: key.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Replay {
        Replay::new(vec![
            ReplayJob {
                arrival_s: 0,
                class: 0,
                run_s: 7_200.0,
                failed: false,
            },
            ReplayJob {
                arrival_s: 1_800,
                class: 1,
                run_s: 0.1,
                failed: true,
            },
        ])
    }

    #[test]
    fn bytes_come_back_exactly_under_their_key() {
        let r = sample();
        let bytes = r.to_bytes();
        assert_eq!(bytes.len(), 9 + 2 * 21);
        assert!(Replay::is_key(&r.key), "{}", r.key);
        assert_eq!(Replay::from_bytes(&bytes, &r.key), Ok(r));
    }

    #[test]
    fn the_key_is_sha256_of_the_bytes() {
        // SHA-256 of the empty replay's 9 bytes "GPUR" 01 00000000, by `sha256sum`:
        // printf 'GPUR\x01\x00\x00\x00\x00' | sha256sum
        let empty = Replay::new(Vec::new());
        assert_eq!(empty.to_bytes(), b"GPUR\x01\x00\x00\x00\x00");
        assert_eq!(empty.key, EMPTY_KEY);
    }

    const EMPTY_KEY: &str = "a2e4f711e16ae1e6b9360b3165d9d174";

    #[test]
    fn damaged_or_other_bytes_are_refused_saying_why() {
        let r = sample();
        let mut bytes = r.to_bytes();
        bytes[20] ^= 1;
        let e = Replay::from_bytes(&bytes, &r.key).unwrap_err();
        assert!(e.contains("not"), "{e}");
        assert!(Replay::from_bytes(&bytes[..20], &r.key)
            .unwrap_err()
            .contains("bytes where"));
        assert!(Replay::from_bytes(b"PK\x03\x04....", &r.key)
            .unwrap_err()
            .contains("not a stored"));
        assert!(!Replay::is_key("ABC"));
    }
}
