//! Columnar outputs: `selfplay --format parquet` for every game (games,
//! moves, rounds and summary files, each the Parquet copy of the CSV the
//! same batch writes, identity in the metadata), `--format csv,parquet`,
//! resuming a Parquet run, `senat convert`, and the refusals.

use senat_lab::selfplay::columnar::{IDENTITY_KEY, Table, convert_bytes, read_table};

use crate::support::cli::{fails_in as fails, ok_in as ok};
use crate::support::files::TempDir;

/// The table of a Parquet file.
fn table(d: &TempDir, name: &str) -> Table {
    read_table(d.read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The table the CSV file converts to.
fn csv_table(d: &TempDir, name: &str) -> Table {
    read_table(convert_bytes(&d.read(name)).unwrap_or_else(|e| panic!("{name}: {e}")).0).unwrap()
}

#[test]
fn every_game_writes_parquet_copies_of_its_csv_files() {
    let d = TempDir::new("parquet-games");
    for game in ["senat", "focus", "focus4", "debacle", "dominoes"] {
        let base = ["selfplay", "--game", game, "--games", "6", "--seed", "3", "--quiet"];
        let rounds = game == "dominoes";
        let csv = [&base[..], &["--out", "c.csv", "--moves", "cm.csv", "--summary", "cs.csv", "--force"]].concat();
        let csv = [&csv[..], if rounds { &["--rounds", "cr.csv"][..] } else { &[][..] }].concat();
        ok(&d.0, &csv);
        let pq = [
            &base[..],
            &["--format", "parquet", "--out", "g.parquet", "--moves", "m.parquet", "--summary", "s.parquet"],
            if rounds { &["--rounds", "r.parquet"][..] } else { &[][..] },
            &["--force"],
        ]
        .concat();
        let line = ok(&d.0, &pq);
        assert!(line.contains("games g.parquet") && line.contains("summary s.parquet"), "{game}: {line}");
        let mut pairs = vec![("g.parquet", "c.csv"), ("m.parquet", "cm.csv"), ("s.parquet", "cs.csv")];
        if rounds {
            pairs.push(("r.parquet", "cr.csv"));
        }
        // Every file has the games file's identity, the summary too (its CSV has none).
        let id = d.text("c.csv").lines().next().unwrap().to_string();
        for (pq, csv) in pairs {
            let mut t = table(&d, pq);
            assert!(!t.rows.is_empty(), "{game}: {pq} has no rows");
            assert_eq!(t.metadata, [(IDENTITY_KEY.to_string(), id.clone())], "{game}: {pq}");
            if !d.text(csv).starts_with('#') {
                t.metadata.clear();
            }
            assert_eq!(t, csv_table(&d, csv), "{game}: {pq} is not the Parquet copy of {csv}");
        }
        assert_eq!(table(&d, "g.parquet").rows.len(), 6, "{game}");
        // The CSV files the run played into are gone, and nothing temporary is left.
        for name in d.names() {
            assert!(!name.ends_with(".partial"), "{game}: {name} left");
            assert!(!name.ends_with(".parquet.csv"), "{game}: {name} kept");
        }
    }
}

#[test]
fn both_formats_keep_the_csv_and_a_parquet_run_resumes_its_csv() {
    let d = TempDir::new("parquet-both");
    let base = ["selfplay", "--games", "300", "--seed", "5", "--red", "greedy", "--quiet"];
    ok(&d.0, &[&base[..], &["--out", "c.csv", "--summary", "cs.csv"]].concat());
    let line = ok(&d.0, &[&base[..], &["--format", "csv,parquet", "--out", "g.csv", "--summary", "s.csv"]].concat());
    assert!(line.contains("games g.parquet, games csv g.csv"), "{line}");
    assert_eq!(d.read("g.csv"), d.read("c.csv"));
    assert_eq!(table(&d, "g.parquet"), csv_table(&d, "c.csv"));
    assert_eq!(table(&d, "s.parquet").rows, csv_table(&d, "cs.csv").rows);
    // An interrupted Parquet run left its CSV's `.partial`: --resume continues it.
    let full = d.text("c.csv");
    let cut: String = full.lines().take(120).map(|l| format!("{l}\n")).collect();
    d.write("r.parquet.csv.partial", cut);
    let resumed = [&base[..], &["--format", "parquet", "--out", "r.parquet", "--summary", "rs.parquet", "--resume"]];
    ok(&d.0, &resumed.concat());
    assert_eq!(table(&d, "r.parquet"), csv_table(&d, "c.csv"));
    assert!(!d.exists("r.parquet.csv") && !d.exists("r.parquet.csv.partial"));
    // A finished Parquet file whose CSV is gone cannot be resumed.
    let err = fails(&d.0, &resumed.concat());
    assert!(err.contains("cannot resume") && err.contains("r.parquet.csv"), "{err}");
    // Nor replaced without --force.
    let fresh = [&base[..], &["--format", "parquet", "--out", "r.parquet", "--summary", ""]].concat();
    let err = fails(&d.0, &fresh);
    assert!(err.contains("r.parquet already exists"), "{err}");
    ok(&d.0, &[&fresh[..], &["--force"]].concat());
    // A Parquet run named after an existing CSV (`--out c.csv`) writes
    // c.parquet and leaves c.csv as it was, even with --force.
    let before = d.read("c.csv");
    ok(&d.0, &[&base[..], &["--format", "parquet", "--out", "c.csv", "--summary", "", "--force"]].concat());
    assert_eq!(d.read("c.csv"), before);
    assert_eq!(table(&d, "c.parquet"), csv_table(&d, "c.csv"));
}

#[test]
fn parquet_outputs_refuse_what_cannot_work() {
    let d = TempDir::new("parquet-refusals");
    let base = ["selfplay", "--games", "5", "--quiet", "--summary", ""];
    let err = fails(&d.0, &[&base[..], &["--format", "json"]].concat());
    assert!(err.contains("expected csv, parquet or csv,parquet"), "{err}");
    let err = fails(&d.0, &[&base[..], &["--format", "parquet", "--moves", "/dev/null"]].concat());
    assert!(err.contains("must be a regular file"), "{err}");
    // The Parquet file and the CSV of another output are one file.
    let err =
        fails(&d.0, &[&base[..], &["--format", "csv,parquet", "--out", "a.csv", "--moves", "a.parquet"]].concat());
    assert!(err.contains("name the same file"), "{err}");
    assert!(d.names().is_empty(), "{:?}", d.names());
}

#[test]
fn convert_writes_a_parquet_file_and_refuses_to_overwrite_or_guess() {
    let d = TempDir::new("parquet-convert");
    ok(&d.0, &["selfplay", "--game", "focus", "--games", "4", "--quiet", "--out", "f.csv", "--summary", "fs.csv"]);
    let line = ok(&d.0, &["convert", "f.csv"]);
    assert!(line.contains("4 rows") && line.ends_with("wrote parquet f.parquet\n"), "{line}");
    assert_eq!(table(&d, "f.parquet"), csv_table(&d, "f.csv"));
    let err = fails(&d.0, &["convert", "f.csv"]);
    assert!(err.contains("f.parquet already exists; pass --force"), "{err}");
    ok(&d.0, &["convert", "fs.csv", "--out", "f.parquet", "--force", "--quiet"]);
    assert_eq!(table(&d, "f.parquet"), csv_table(&d, "fs.csv"));
    d.write("plain.csv", "a,b\n1,2\n");
    let err = fails(&d.0, &["convert", "plain.csv"]);
    assert!(err.contains("plain.csv: not a senat batch file"), "{err}");
    assert!(!d.exists("plain.parquet"));
    let err = fails(&d.0, &["convert", "missing.csv"]);
    assert!(err.contains("cannot read missing.csv"), "{err}");
    let err = fails(&d.0, &["convert", "f.parquet"]);
    assert!(err.contains("name the same file"), "{err}");
}
