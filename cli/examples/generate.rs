//! Writes the manual page and the shell completions of `lz4-simd`, made from its option table
//! (`src/options.rs`, which also prints `-h`):
//!
//! ```text
//! cargo run -p lz4-simd-cli --example generate -- DIR
//! ```
//!
//! writes `DIR/lz4-simd.1` and `DIR/completions/` (`lz4-simd.bash`, `_lz4-simd` for zsh,
//! `lz4-simd.fish`). `man` or `completions` before `DIR` writes only that part. The output
//! depends on the table and the version only (no date), so it is the same on every run.
//!
//! The `lz4-simd` binary does not link clap: the table is built into a `clap::Command` here,
//! for clap_mangen and clap_complete to render.

#[allow(dead_code)]
#[path = "../src/options.rs"]
pub mod options;

use std::path::Path;

use clap::builder::PossibleValue;
use clap::{Arg, ArgAction, Command, ValueHint};
use clap_complete::Shell;
use roff::{bold, roman, Roff};

use options::{Opt, Value, EXIT_CODES, OPTIONS, SAFETY};

const NAME: &str = "lz4-simd";
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The shells completions are written for, and each one's file name.
pub const SHELLS: &[(Shell, &str)] = &[
    (Shell::Bash, "lz4-simd.bash"),
    (Shell::Zsh, "_lz4-simd"),
    (Shell::Fish, "lz4-simd.fish"),
];

const ABOUT: &str = "compress or decompress .lz4 files, as lz4 does, without losing data";

const DESCRIPTION: &str = "\
lz4-simd takes the command line of lz4 1.10 and reads and writes its formats: LZ4 frames, the \
legacy format of Linux kernel images, and frames with dictionaries, checksums and content sizes. \
Compression gives lz4's bytes for the same options.

With one file, it is compressed to FILE.lz4, or decompressed when its name ends in .lz4 \
(FILE.lz4 becomes FILE); a second name is the output. With no file, or -, standard input is \
read and standard output written. With -m or -r, every name is an input and each output is \
named after its input. Short options can be aggregated: -9BD is -9 -BD.

Invoked as lz4cat (a link to lz4-simd), it decompresses every input to standard output (-dcfm; \
input that is not LZ4 is copied as it is); as unlz4 it decompresses (-d); as lz4c it also takes \
the old options -c0, -c1, -c2, -hc and -y.

Unlike lz4, no run can destroy a file: outputs are written to a temporary file and renamed into \
place when complete and on disk, an existing file is replaced only with -f, and an input is \
never its own output (see SAFETY).";

/// The option table as a `clap::Command` (never used to parse: `args.rs` does).
pub fn command() -> Command {
    let mut cmd = Command::new(NAME)
        .version(VERSION)
        .about(ABOUT)
        .long_about(DESCRIPTION)
        .override_usage("lz4-simd [OPTIONS] [INPUT [OUTPUT]]\nlz4-simd -m [OPTIONS] [FILE]...")
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true);
    let mut order = 0;
    for opt in OPTIONS {
        for name in opt.names {
            order += 1;
            if !name.starts_with('-') {
                cmd = cmd.subcommand(
                    Command::new(*name)
                        .about(opt.description())
                        .disable_help_flag(true)
                        .display_order(order),
                );
            } else if name.len() > 2 && !name.starts_with("--") {
                // `-BD`: a letter the option `-B` takes.
                let (short, letter) = (name.as_bytes()[1] as char, &name[2..]);
                cmd = cmd.mut_arg(short.to_string(), |arg| {
                    let mut values: Vec<PossibleValue> = arg.get_possible_values();
                    values.push(PossibleValue::new(letter).help(opt.description()));
                    arg.value_parser(values)
                });
            }
        }
        if let Some(arg) = option_arg(opt, order) {
            cmd = cmd.arg(arg);
        }
    }
    cmd.arg(
        Arg::new("FILE")
            .num_args(0..)
            .value_hint(ValueHint::FilePath)
            .help(
                "Input, then output (with -m, -r, --list or -b: inputs); - or no FILE: \
                 standard input (as input) or standard output (as output).",
            ),
    )
}

/// The `clap::Arg` of one row: `None` for rows that are words or letters of another option.
fn option_arg(opt: &Opt, order: usize) -> Option<Arg> {
    let short = opt
        .names
        .iter()
        .find(|name| name.len() == 2 && name.starts_with('-'));
    let mut longs = opt.names.iter().filter_map(|name| name.strip_prefix("--"));
    let long = longs.next();
    let others: Vec<&str> = longs.collect();
    let id = short.map(|s| &s[1..]).or(long)?;
    let mut help = opt.description();
    if !others.is_empty() {
        let also: Vec<String> = others.iter().map(|name| format!("--{name}")).collect();
        help.push_str(&format!(". Also {}.", also.join(", ")));
    }
    let mut arg = Arg::new(id)
        .help(help)
        .display_order(order)
        .visible_aliases(others);
    if let Some(short) = short {
        arg = arg.short(short.as_bytes()[1] as char);
    }
    if let Some(long) = long {
        arg = arg.long(long);
    }
    arg = match opt.value {
        Value::None => arg.action(ArgAction::SetTrue),
        Value::Next(name) => arg.num_args(1).value_name(name),
        Value::Glued(name) => arg.num_args(0..=1).value_name(name),
        Value::Equals(name) => arg.num_args(0..=1).require_equals(true).value_name(name),
    };
    if opt.value == Value::Next("FILE") {
        arg = arg.value_hint(ValueHint::FilePath);
    }
    if let Some(heading) = opt.section.manual_heading() {
        arg = arg.help_heading(heading);
    }
    Some(arg)
}

/// The manual page, `lz4-simd.1`.
pub fn manual() -> Vec<u8> {
    let mut cmd = command();
    cmd.build();
    let man = clap_mangen::Man::new(cmd.clone())
        .title(NAME.to_uppercase())
        .section("1")
        .source(format!("{NAME} {VERSION}"))
        .manual("User Commands");
    let mut out = Vec::new();
    man.render_title(&mut out).unwrap();
    man.render_name_section(&mut out).unwrap();
    man.render_synopsis_section(&mut out).unwrap();
    man.render_description_section(&mut out).unwrap();
    man.render_options_section(&mut out).unwrap();

    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    roff.text([roman(
        "As the first argument, lz4-simd also takes these words:",
    )]);
    for opt in OPTIONS {
        let words: Vec<&str> = opt
            .names
            .iter()
            .copied()
            .filter(|name| !name.starts_with('-'))
            .collect();
        if !words.is_empty() {
            roff.control("TP", []);
            roff.text([bold(words.join(", "))]);
            roff.text([roman(opt.description())]);
        }
    }
    roff.control("SH", ["SAFETY"]);
    roff.text([roman(
        "Where lz4 would lose or damage data, lz4-simd refuses, or keeps the data:",
    )]);
    for item in SAFETY {
        roff.control("IP", ["-", "2"]);
        roff.text([roman(*item)]);
    }
    roff.control("SH", ["EXIT STATUS"]);
    roff.text([roman(
        "lz4-simd exits with the codes of lz4 1.10 where it has one for the failure:",
    )]);
    for (code, meaning) in EXIT_CODES {
        roff.control("TP", []);
        roff.text([bold(*code)]);
        roff.text([roman(*meaning)]);
    }
    roff.control("SH", ["SEE ALSO"]);
    roff.text([bold("lz4"), roman("(1)")]);
    roff.to_writer(&mut out).unwrap();
    out
}

/// The completion script for `shell`.
pub fn completions(shell: Shell) -> Vec<u8> {
    let mut cmd = command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, NAME, &mut out);
    out
}

/// What `main` writes: `man`, `completions`, or both (`all`); prints each file's path.
pub fn write_to(dir: &Path, what: &str) -> std::io::Result<()> {
    let write = |path: &Path, bytes: &[u8]| -> std::io::Result<()> {
        std::fs::write(path, bytes)?;
        println!("{}", path.display());
        Ok(())
    };
    if what != "completions" {
        std::fs::create_dir_all(dir)?;
        write(&dir.join("lz4-simd.1"), &manual())?;
    }
    if what != "man" {
        let dir = dir.join("completions");
        std::fs::create_dir_all(&dir)?;
        for (shell, file) in SHELLS {
            write(&dir.join(file), &completions(*shell))?;
        }
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (what, dir) = match args.as_slice() {
        [what, dir] if what == "man" || what == "completions" => (what.as_str(), dir),
        [dir] if dir != "man" && dir != "completions" && !dir.starts_with('-') => ("all", dir),
        _ => {
            eprintln!(
                "usage: cargo run -p lz4-simd-cli --example generate -- [man|completions] DIR"
            );
            std::process::exit(2);
        }
    };
    if let Err(err) = write_to(Path::new(dir), what) {
        eprintln!("generate: {dir}: {err}");
        std::process::exit(1);
    }
}
