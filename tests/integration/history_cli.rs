//! `gpucost history` as a user runs it: every skipped row on standard error, the zone of
//! times written without one, and flags it cannot use refused naming them.

use std::process::{Command, Output};

fn gpucost(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpucost"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("gpucost runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file of its own for this test (removed when dropped).
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("gpucost-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn every_skipped_row_is_listed_on_standard_error_with_its_line() {
    // 50 good jobs, then 150 rows whose end is not a time (the page lists the first 100; the
    // command line lists all of them).
    let mut text = String::from("job,submit_time,start_time,end_time,gpus\n");
    for i in 0..50 {
        text.push_str(&format!(
            "g{i},2026-03-02T{h:02}:00:00,2026-03-02T{h:02}:00:00,2026-03-02T{h:02}:30:00,1\n",
            h = i % 24
        ));
    }
    for i in 0..150 {
        text.push_str(&format!(
            "b{i},2026-03-03T00:00:00,2026-03-03T00:00:00,later,1\n"
        ));
    }
    let file = TempFile::new("bad-rows.csv", &text);
    let out = gpucost(&["history", file.path(), "--link"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let listed: Vec<u64> = err
        .lines()
        .filter(|l| l.contains(": skipped: "))
        .map(|l| {
            let rest = l.strip_prefix(file.path()).expect("names the file");
            rest[1..rest[1..].find(':').unwrap() + 1].parse().unwrap()
        })
        .collect();
    // Data rows 51 to 200 are lines 52 to 201 (the header is line 1).
    assert_eq!(listed, (52..=201).collect::<Vec<u64>>(), "{err}");
    assert!(err.contains("150 skipped"), "{err}");
}

#[test]
fn the_zone_of_times_written_without_one_is_stated() {
    let utc = gpucost(&["history", "tests/data/sacct-gpu.txt", "--link"]);
    assert!(utc.status.success(), "{}", stderr(&utc));
    assert!(
        stderr(&utc).contains("read as UTC+00:00;"),
        "{}",
        stderr(&utc)
    );
    let east = gpucost(&[
        "history",
        "tests/data/sacct-gpu.txt",
        "--tz",
        "-05:00",
        "--link",
    ]);
    assert!(east.status.success(), "{}", stderr(&east));
    assert!(stderr(&east).contains("UTC−05:00"), "{}", stderr(&east));
    // Durations and rates do not depend on the zone: the same classes, the same link.
    assert_eq!(utc.stdout, east.stdout);
    let bad = gpucost(&["history", "tests/data/sacct-gpu.txt", "--tz", "Mars"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--tz Mars: give an offset from UTC"),
        "{}",
        stderr(&bad)
    );
}
