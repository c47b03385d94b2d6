//! The documentation kept true: the command reference in docs/reference.md
//! is the binary's own `--help`, every link of every Markdown file of the
//! repository leads to a file (and heading) inside it, the book's
//! table of contents lists every page under docs/, and results/MANIFEST.csv
//! names every committed file of results/ with its hash.
//!
//! `SENAT_BLESS_DOCS=1 cargo test --profile ci --test it docs::` writes the
//! reference again from the binary; without it a stale reference fails.

use crate::support::cli::{expect_ok, senat};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The repository's root (this crate's manifest folder).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The subcommands `senat --help` lists, in its order (`help` left out).
fn subcommands() -> Vec<String> {
    let help = expect_ok(&senat(&["--help"]), &["--help"]);
    let mut in_list = false;
    let mut names = Vec::new();
    for line in help.lines() {
        if line.starts_with("Commands:") {
            in_list = true;
            continue;
        }
        if in_list {
            if line.trim().is_empty() {
                break;
            }
            let name = line.split_whitespace().next().expect("a command line has a name");
            if name != "help" {
                names.push(name.to_string());
            }
        }
    }
    assert!(names.len() >= 10, "senat --help listed too few commands: {names:?}");
    names
}

/// The reference page as the binary describes itself today.
fn reference_text() -> String {
    let mut out = String::from(
        "# Command reference\n\n\
         Every command's `--help`, as the binary prints it. This page is generated:\n\
         `SENAT_BLESS_DOCS=1 cargo test --profile ci --test it docs::` writes it again,\n\
         and `cargo test` fails while it differs from the binary. The guides in\n\
         [the commands chapter](commands/README.md) explain the commands with examples.\n\n",
    );
    let names = subcommands();
    out.push_str("Commands: ");
    let links: Vec<String> = names.iter().map(|n| format!("[`{n}`](#senat-{n})")).collect();
    out.push_str(&links.join(", "));
    out.push_str(".\n\n## senat\n\n```text\n");
    out.push_str(&expect_ok(&senat(&["--help"]), &["--help"]));
    out.push_str("```\n");
    for name in &names {
        let help = expect_ok(&senat(&[name, "--help"]), &[name, "--help"]);
        out.push_str(&format!("\n## senat {name}\n\n```text\n{help}```\n"));
    }
    out
}

/// The long flags (`--name`) a help text offers, from its option lines.
fn flags(help: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for line in help.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("-h, ").or_else(|| t.strip_prefix("-V, ")).unwrap_or(t);
        let t = if t.len() > 4 && t.as_bytes()[0] == b'-' && t.as_bytes()[1] != b'-' && &t[2..4] == ", " {
            &t[4..]
        } else {
            t
        };
        if let Some(rest) = t.strip_prefix("--") {
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
            if !name.is_empty() {
                set.insert(format!("--{name}"));
            }
        }
    }
    set
}

#[test]
fn the_command_reference_is_the_binarys_help() {
    let path = root().join("docs/reference.md");
    let want = reference_text();
    if std::env::var_os("SENAT_BLESS_DOCS").is_some() {
        fs::write(&path, &want).expect("docs/reference.md is written");
        return;
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    // The flags first, so that a missing one is named.
    for name in subcommands() {
        let help = expect_ok(&senat(&[&name, "--help"]), &[&name, "--help"]);
        let section = have
            .split(&format!("\n## senat {name}\n"))
            .nth(1)
            .map(|s| s.split("\n## senat ").next().unwrap_or(s))
            .unwrap_or_else(|| panic!("docs/reference.md has no section `## senat {name}`; regenerate it with SENAT_BLESS_DOCS=1 cargo test --profile ci --test it docs::"));
        let missing: Vec<String> = flags(&help).into_iter().filter(|f| !section.contains(f.as_str())).collect();
        assert!(
            missing.is_empty(),
            "docs/reference.md: `senat {name}` lacks {missing:?}; regenerate it with SENAT_BLESS_DOCS=1 cargo test --profile ci --test it docs::"
        );
    }
    if have != want {
        let (n, (h, w)) = have
            .lines()
            .chain(std::iter::repeat(""))
            .zip(want.lines().chain(std::iter::repeat("")))
            .enumerate()
            .find(|(_, (h, w))| h != w)
            .expect("two different texts differ in a line");
        panic!(
            "docs/reference.md differs from the binary's --help from line {}:\n  file:   {h}\n  binary: {w}\nregenerate it with SENAT_BLESS_DOCS=1 cargo test --profile ci --test it docs::",
            n + 1
        );
    }
}

/// Every Markdown file that `--help` names is in the repository (`GAME`
/// standing for any game: `focus` is tried), and no paragraph of it stops
/// mid-phrase on a possessive (`describes each game's`), as clap's cut of
/// a doc comment's last period once left one.
#[test]
fn the_help_names_files_that_exist_and_ends_its_sentences() {
    let page = reference_text();
    // The helps only, not the page's own preamble (links relative to docs/).
    let text = &page[page.find("## senat\n").expect("the top command's section")..];
    let mut named = 0;
    for word in text.split(|c: char| c.is_whitespace() || "()`,;:[]".contains(c)) {
        let word = word.trim_end_matches('.');
        if !word.ends_with(".md") || word.starts_with('#') || word.starts_with("senat-") {
            continue;
        }
        let path = root().join(word.replace("GAME", "focus"));
        assert!(path.is_file(), "--help names `{word}`, which is not a file of the repository");
        named += 1;
    }
    assert!(named >= 2, "the help names its notation files ({named} found)");
    for paragraph in text.split("\n\n") {
        let end = paragraph.trim_end();
        assert!(!end.ends_with("'s"), "a --help paragraph stops mid-phrase: {end:?}");
    }
}

#[test]
fn the_flag_reader_finds_long_flags_only() {
    let help = "Options:\n  -g, --games <N>\n          Games\n      --out <PATH>\n  -h, --help\n  text with --inline mention\n";
    let got: Vec<String> = flags(help).into_iter().collect();
    assert_eq!(got, ["--games", "--help", "--out"]);
}

/// Every Markdown file of the repository (build outputs and hidden folders left out).
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = fs::read_dir(dir).expect("a folder of the repository reads").flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let p = e.path();
            if name.starts_with('.') || name == "target" || name == "node_modules" {
                continue;
            }
            if p.is_dir() {
                walk(&p, out);
            } else if name.ends_with(".md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out
}

/// A heading's anchor as GitHub and mdBook make it: lower case, letters,
/// digits, `-` and `_` kept, spaces made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    let mut s = String::new();
    for c in heading.trim().chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            s.extend(c.to_lowercase());
        } else if c == ' ' {
            s.push('-');
        }
    }
    s
}

/// The text of a Markdown file outside fenced code blocks, line by line
/// (with its line number), inline code spans blanked.
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        let mut kept = String::new();
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                kept.push('`');
            } else if in_code {
                kept.push(' ');
            } else {
                kept.push(c);
            }
        }
        out.push((i + 1, kept));
    }
    out
}

/// The anchors of a Markdown file's headings (repeated headings numbered).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut set = BTreeSet::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        set.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    set
}

/// The link targets of one prose line: `[text](target)` and `![alt](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b']' && b[i + 1] == b'(' {
            let start = i + 2;
            let mut depth = 1;
            let mut j = start;
            while j < b.len() {
                match b[j] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            if j < b.len() {
                let target = line[start..j].split_whitespace().next().unwrap_or("").to_string();
                out.push(target);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// `path` with `.` and `..` resolved, or `None` when it climbs above the start.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

/// Every problem with the links of the Markdown file `file` (relative to `root`).
fn link_problems(root: &Path, file: &Path) -> Vec<String> {
    let text = fs::read_to_string(file).expect("a Markdown file reads");
    let rel = file.strip_prefix(root).expect("inside the repository");
    let dir = rel.parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    for (n, line) in prose(&text) {
        for outside in ["../shared", "/work/"] {
            if line.contains(outside) {
                problems.push(format!("{}:{n}: refers to `{outside}…`, outside the repository", rel.display()));
            }
        }
        for target in link_targets(&line) {
            if target.is_empty()
                || target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (path_part, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let linked = if path_part.is_empty() { Some(rel.to_path_buf()) } else { normalise(&dir.join(path_part)) };
            let Some(linked) = linked else {
                problems.push(format!("{}:{n}: `{target}` leads outside the repository", rel.display()));
                continue;
            };
            let full = root.join(&linked);
            if !full.exists() {
                problems.push(format!("{}:{n}: `{target}`: no such file {}", rel.display(), linked.display()));
                continue;
            }
            if let Some(anchor) = anchor
                && full.extension().is_some_and(|e| e == "md")
                && !anchors(&fs::read_to_string(&full).expect("the linked file reads")).contains(anchor)
            {
                problems.push(format!(
                    "{}:{n}: `{target}`: {} has no heading `#{anchor}`",
                    rel.display(),
                    linked.display()
                ));
            }
        }
    }
    problems
}

#[test]
fn every_link_leads_inside_the_repository() {
    let root = root();
    let files = markdown_files();
    assert!(files.iter().any(|f| f.ends_with("docs/SUMMARY.md")), "docs/SUMMARY.md is missing");
    let problems: Vec<String> = files.iter().flat_map(|f| link_problems(&root, f)).collect();
    assert!(problems.is_empty(), "{} broken links:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_book_lists_every_page() {
    let root = root();
    let docs = root.join("docs");
    let summary = fs::read_to_string(docs.join("SUMMARY.md")).expect("docs/SUMMARY.md reads");
    let listed: BTreeSet<String> = prose(&summary).iter().flat_map(|(_, l)| link_targets(l)).collect();
    let mut missing = Vec::new();
    for f in markdown_files() {
        let Ok(rel) = f.strip_prefix(&docs) else { continue };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel != "SUMMARY.md" && !listed.contains(&rel) {
            missing.push(rel);
        }
    }
    assert!(missing.is_empty(), "docs/SUMMARY.md does not list {missing:?}");
}

#[test]
fn the_link_checker_catches_what_it_must() {
    let dir = std::env::temp_dir().join(format!("senat-docs-{}", std::process::id()));
    fs::create_dir_all(dir.join("sub")).unwrap();
    fs::write(dir.join("a.md"), "# Top title\n\n## Second `part`, here\n\nSee [b](sub/b.md#there), [gone](nope.md), [up](../../x.md), [me](#second-part-here), [bad](#nowhere).\n\n```\n[in code](nope2.md)\n```\nand `[span](nope3.md)`; ../shared/NOTES.md\n").unwrap();
    fs::write(dir.join("sub/b.md"), "# There\n\n[back](../a.md#top-title) [web](https://example.org)\n").unwrap();
    let mut got = link_problems(&dir, &dir.join("a.md"));
    got.extend(link_problems(&dir, &dir.join("sub/b.md")));
    fs::remove_dir_all(&dir).ok();
    let joined = got.join("\n");
    assert_eq!(got.len(), 4, "{joined}");
    assert!(joined.contains("nope.md"), "{joined}");
    assert!(joined.contains("`../../x.md` leads outside"), "{joined}");
    assert!(joined.contains("#nowhere"), "{joined}");
    assert!(joined.contains("../shared"), "{joined}");
    assert_eq!(slug(" Sénat's rules variants: `--variant`"), "sénats-rules-variants---variant");
}

/// results/MANIFEST.csv names every committed file of results/ with its
/// hash, so a change that moves a committed figure must also say how it
/// was made (`experiments/manifest.py` rewrites it; its module comment
/// explains the columns). Skipped, loudly, outside a git checkout.
#[test]
fn the_results_manifest_names_every_file_with_its_hash() {
    let root = root();
    if !root.join(".git").exists() {
        eprintln!("!! SKIPPED: not a git checkout, results/MANIFEST.csv is not checked");
        return;
    }
    let out = std::process::Command::new("python3")
        .arg(root.join("experiments/manifest.py"))
        .arg("--check")
        .current_dir(&root)
        .output()
        .expect("python3 runs experiments/manifest.py");
    assert!(
        out.status.success(),
        "results/MANIFEST.csv is out of date; run `python3 experiments/manifest.py` after rebuilding the files below \
         by their commands:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
