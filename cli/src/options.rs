//! The options, defined once: `-h`/`-H` print this table (`render_help`), and the manual page
//! and the shell completions are generated from it (`cargo run -p lz4-simd-cli --example
//! generate -- DIR`, `examples/generate.rs`). The parser (`args.rs`) stays hand-written for
//! `lz4`'s grammar; its tests check that it takes every spelling named here.
//!
//! This file uses nothing but `std`, so that the generator and the tests can include it.

/// Where an option is listed: `-h`'s groups, and the manual's sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `Arguments :`
    Basic,
    /// `Advanced arguments :`
    Advanced,
    /// `Benchmark arguments :`
    Benchmark,
    /// `lz4-simd extras :`
    Extras,
    /// Spellings of earlier `lz4-simd` versions, still accepted: not in `-h`.
    Earlier,
}

impl Section {
    /// The heading `-h` prints above the group.
    pub fn help_heading(self) -> &'static str {
        match self {
            Section::Basic => "Options:",
            Section::Advanced => "More options:",
            Section::Benchmark => "Measuring speed:",
            Section::Extras => "Beyond lz4:",
            Section::Earlier => "",
        }
    }

    /// The manual's heading for the group (`None`: the plain OPTIONS section).
    pub fn manual_heading(self) -> Option<&'static str> {
        match self {
            Section::Basic => None,
            Section::Advanced => Some("Advanced options"),
            Section::Benchmark => Some("Benchmark options"),
            Section::Extras => Some("lz4-simd options"),
            Section::Earlier => Some("Earlier spellings"),
        }
    }
}

/// What follows an option's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Nothing.
    None,
    /// A value in the next argument (`-D FILE`, `--container NAME`; long options also take
    /// `--name=VALUE`).
    Next(&'static str),
    /// An optional number glued to a short option (`-T4`, `-b1`, `-B65536`).
    Glued(&'static str),
    /// An optional `=VALUE` (`--fast`, `--fast=3`).
    Equals(&'static str),
}

/// One option: its spellings, what follows it, and its description.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    /// Every spelling: `-x` short options (a digit for a level), `--name` long options (the
    /// first is the main one), `-Bx` a letter a short option takes glued (`-BD`), and bare
    /// words (`compress`) as the first argument.
    pub names: &'static [&'static str],
    pub value: Value,
    /// The left column in `-h`, or `""` for an option `-h` does not list.
    pub label: &'static str,
    /// The description (`-h` wraps it to its width, the manual to the page's).
    pub help: &'static str,
    /// More for the manual, after `help` (or `""`).
    pub more: &'static str,
    pub section: Section,
}

impl Opt {
    const fn new(names: &'static [&'static str], label: &'static str, help: &'static str) -> Opt {
        Opt {
            names,
            value: Value::None,
            label,
            help,
            more: "",
            section: Section::Basic,
        }
    }

    const fn value(self, value: Value) -> Opt {
        Opt { value, ..self }
    }

    const fn more(self, more: &'static str) -> Opt {
        Opt { more, ..self }
    }

    const fn section(self, section: Section) -> Opt {
        Opt { section, ..self }
    }

    /// The description on one line: `help`'s lines joined, then `more` (after a full stop
    /// unless it opens with a parenthesis).
    pub fn description(&self) -> String {
        let join = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let (help, more) = (join(self.help), join(self.more));
        match more.chars().next() {
            None => help,
            Some('(') => format!("{help} {more}"),
            Some(_) => format!("{help}. {more}"),
        }
    }
}

/// Every option, in `-h`'s order.
pub const OPTIONS: &[Opt] = &[
    Opt::new(&["-1"], "-1 .. -12", "compression level: -1 the fast compressor (the default), -2 to -12 LZ4 HC, smaller output for more time").more(
        "Any level from -1 to -12 may be given: -1 (and -0) the fast compressor, -2 to -12 LZ4 HC, \
         higher being slower and smaller.",
    ),
    Opt::new(&["-9"], "", "LZ4 HC at level 9"),
    Opt::new(
        &["-d", "--decompress", "--uncompress"],
        "-d",
        "decompress (what an input named *.lz4 gets without -z)",
    ),
    Opt::new(&["-z", "--compress"], "-z", "compress, whatever the input's name"),
    Opt::new(&["-D"], "-D FILE", "the dictionary, the same file to compress and to decompress")
        .value(Value::Next("FILE"))
        .more("(stdin: standard input)"),
    Opt::new(
        &["-f", "--force"],
        "-f",
        "replace an existing output file",
    )
    .more("(lz4-simd never prompts: without -f an existing output is refused)"),
    Opt::new(&["--no-force"], "", "cancel an earlier -f"),
    Opt::new(&["-k", "--keep"], "-k", "keep the input files (the default)"),
    Opt::new(
        &["--rm"],
        "--rm",
        "delete each input file once its output is complete",
    )
    .more("(only once the output is on disk; kept if it changed while it was read)"),
    Opt::new(&["-h", "--help"], "-h, -H", "print this help (-H: with more detail) and exit"),
    Opt::new(&["-H"], "", "print the long help and exit"),
    Opt::new(&["-V", "--version"], "-V", "print the version and exit")
        .section(Section::Advanced),
    Opt::new(&["-v", "--verbose"], "-v", "say more about each file").section(Section::Advanced),
    Opt::new(
        &["-q", "--quiet"],
        "-q",
        "say less: no warnings (-qq: no error messages either)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-c", "--stdout", "--to-stdout"],
        "-c",
        "write to standard output, a terminal included",
    )
    .section(Section::Advanced),
    Opt::new(&["-t", "--test"], "-t", "check that compressed files decode, writing nothing")
        .section(Section::Advanced),
    Opt::new(
        &["-m", "--multiple"],
        "-m",
        "every file name is an input, each with its own output name",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-r"],
        "-r",
        "the files in directories and below them (implies -m)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-l"],
        "-l",
        "the legacy frame format (what Linux kernel images use)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-B"],
        "-B#",
        "block size: 4 to 7 for 64 KB, 256 KB, 1 MB, 4 MB (default 7), or # bytes from 32 up",
    )
    .value(Value::Glued("#"))
    .more("-B4: 64 KB, -B5: 256 KB, -B6: 1 MB, -B7: 4 MB.")
    .section(Section::Advanced),
    Opt::new(&["-BI"], "-BI", "independent blocks (the default)").section(Section::Advanced),
    Opt::new(
        &["-BD"],
        "-BD",
        "linked blocks: each may refer to the one before, smaller output",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-BX"],
        "-BX",
        "a checksum after each block (off by default)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["--no-frame-crc"],
        "--no-frame-crc",
        "no checksum of the whole content (on by default)",
    )
    .section(Section::Advanced),
    Opt::new(&["--frame-crc"], "", "a checksum of the whole content (the default)").section(Section::Advanced),
    Opt::new(&["--no-crc"], "", "neither content nor block checksums").section(Section::Advanced),
    Opt::new(
        &["--content-size"],
        "--content-size",
        "record the content's size in the frame header (off by default)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["--no-content-size"],
        "",
        "no content size in the frame header (the default)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["--list"],
        "--list",
        "a table of each .lz4 file's frames, sizes and ratio (sizes need --content-size frames)",
    )
    .more("(-v: one row per frame)")
    .section(Section::Advanced),
    Opt::new(
        &["--sparse"],
        "--[no-]sparse",
        "leave runs of zeros as holes in decoded files (on for files, off for standard output)",
    )
    .section(Section::Advanced),
    Opt::new(&["--no-sparse"], "", "write every zero").section(Section::Advanced),
    Opt::new(
        &["--favor-decSpeed"],
        "--favor-decSpeed",
        "output that decodes faster, a little larger",
    )
    .more("(levels 10 to 12)")
    .section(Section::Advanced),
    Opt::new(
        &["--fast"],
        "--fast[=#]",
        "faster and larger than -1: acceleration # (default 1)",
    )
    .value(Value::Equals("#"))
    .section(Section::Advanced),
    Opt::new(&["--best"], "--best", "level 12").section(Section::Advanced),
    Opt::new(
        &["-T", "--threads"],
        "-T#",
        "threads to compress with, 0 for one per core (the default); the output is the same for any #",
    )
    .value(Value::Glued("#"))
    .section(Section::Advanced),
    Opt::new(
        &["-b"],
        "-b#",
        "measure level # (default 1) on the files, or on built-in samples without one; with -d, decoding of .lz4 files",
    )
    .value(Value::Glued("#"))
    .section(Section::Benchmark),
    Opt::new(
        &["-e"],
        "-e#",
        "measure every level from -b's to #",
    )
    .value(Value::Glued("#"))
    .section(Section::Benchmark),
    Opt::new(
        &["-i"],
        "-i#",
        "seconds to measure each for (default 3; 0: one pass)",
    )
    .value(Value::Glued("#"))
    .section(Section::Benchmark),
    Opt::new(
        &["compress", "decompress"],
        "compress, decompress",
        "as the first word: the same as -z, -d",
    )
    .more("(as the first argument)")
    .section(Section::Extras),
    Opt::new(
        &["--block"],
        "--block",
        "one block with its 4-byte size in front, instead of frames",
    )
    .section(Section::Extras),
    Opt::new(
        &["--max-out"],
        "--max-out N",
        "with --block or --container and -d: the most content to decode, in all (default: a block's largest size for --block and one-page containers, no limit for the streamed ones)",
    )
    .value(Value::Next("N"))
    .section(Section::Extras),
    Opt::new(
        &["--container"],
        "--container NAME",
        "LZ4 as another system stores it, instead of frames: hadoop, kafka, kafka-v0, lz4-java, prefixed-le32, prefixed-be32, prefixed-varint, clickhouse, linux (a legacy frame with a size trailer or zero padding; plain -d reads it too), parquet-lz4, parquet-lz4-raw (one page). --list finds kafka-v0, lz4-java, clickhouse and linux files by itself, the others when named",
    )
    .value(Value::Next("NAME"))
    .section(Section::Extras),
    Opt::new(&["--hc"], "", "HC compression at level N (2-12): the same as -N")
        .value(Value::Next("N"))
        .section(Section::Earlier),
    Opt::new(&["--linked"], "", "the same as -BD").section(Section::Earlier),
    Opt::new(&["--block-checksum"], "", "the same as -BX").section(Section::Earlier),
    Opt::new(&["--no-content-checksum"], "", "the same as --no-frame-crc")
        .section(Section::Earlier),
    Opt::new(&["--legacy"], "", "the same as -l").section(Section::Earlier),
];

/// The usage line.
pub const USAGE: &str =
    "Usage: lz4-simd [OPTIONS] [INPUT [OUTPUT]]   or   lz4-simd -m [OPTIONS] FILE...";

/// What `-h` says of the operands.
const INPUT: &str =
    "With no INPUT, or INPUT '-', standard input is read; with no OUTPUT, the name is \
                     INPUT's with .lz4 added (compression) or taken off (-d); OUTPUT '-', or -c, \
                     writes to standard output.";

/// The safety summary `-h` prints after the basic options.
const SAFER: &str = "Files are safe: an output is written under a temporary name and renamed when \
                     complete, an input is never also the output, and --rm keeps an input that \
                     changed while it was read (-H for the rules).";

/// What `-H` adds.
pub const LONG_HELP: &str = "Short options combine: -9BD is -9 -BD, -dc is -d -c.

Never losing data: an output goes to a temporary file, renamed over its name only once \
complete; an existing file is replaced only with -f; --rm deletes an input only once its \
output is on disk, and keeps it (with a warning, exit status 0) if it changed while it was read.

Exit status, as lz4's: 44 the input is not LZ4; 26 a truncated frame (63 a truncated legacy \
frame); 34 a damaged frame; 27 the dictionary cannot be read; 10 a -b input cannot be read, 12 \
-b inputs hold no data; \
40 standard input is closed (with -d too) or 1 to 3 bytes follow a frame; 42 standard output is closed while compressing, 70 \
while decompressing; with -m, the first of these, or else the number of inputs that failed; \
1 for anything else.";

/// Where `lz4-simd` refuses or keeps data that `lz4` would lose or damage (the manual's SAFETY
/// section).
pub const SAFETY: &[&str] = &[
    "Outputs are written to a temporary file beside the target, flushed to disk and renamed over \
     it only when complete; an error or a signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) removes the \
     temporary file, and on Linux it has no name until complete, so that even SIGKILL leaves \
     none. A failed run leaves no partial or empty output.",
    "An existing file is replaced only with -f; lz4-simd never prompts.",
    "An input is never an output, in any spelling (hard links, symbolic links, standard output \
     redirected onto an input, the -D dictionary): refused even with -f. So are -c with an \
     output name and a third file name (lz4 -f a b c overwrites b).",
    "--rm removes a source only once its output is on disk; it keeps the source with -t, -c, \
     /dev/null or a device as output, never removes the dictionary, and keeps a source that \
     changed while it was read (a warning; the exit status stays 0).",
    "Inside -r trees, symbolic links are not followed and FIFOs are skipped.",
    "-d on an empty input is an error, and so is a closed standard input (exit status 40).",
];

/// The exit statuses (the manual's EXIT STATUS section), as `lz4` 1.10's.
pub const EXIT_CODES: &[(&str, &str)] = &[
    ("0", "Success."),
    (
        "1",
        "A usage error, a missing input, a refused output, or another failure without a code of \
         its own.",
    ),
    ("10", "A -b input cannot be read."),
    (
        "12",
        "-b has no byte to measure (its inputs are directories, which it skips, or empty).",
    ),
    ("26", "A truncated frame."),
    ("27", "The -D dictionary cannot be read."),
    ("34", "A damaged frame, or a checksum that does not match."),
    (
        "38",
        "The output cannot be written (a full disk), compressing an input of 4 MiB or more, or \
         with -l.",
    ),
    (
        "40",
        "Standard input is closed (also with -d), or the bytes left after a frame are too few for \
         a magic number (1 to 3 bytes; --list, -d, -t).",
    ),
    (
        "42",
        "Standard output is closed, writing compressed data; or the output cannot be written, \
         compressing an input under 4 MiB.",
    ),
    ("44", "The input is not LZ4."),
    (
        "45",
        "--rm cannot remove the source of a decompressed output.",
    ),
    (
        "50",
        "--rm cannot remove the source of a compressed output.",
    ),
    ("63", "A truncated legacy frame."),
    (
        "70",
        "Standard output is closed, or the output cannot be written, writing decoded data.",
    ),
    (
        "73",
        "The output cannot be written, writing decoded data with holes (--sparse, the default \
         for a file).",
    ),
    (
        "N",
        "With several inputs (-m, -r): the code of the first failure that has one of the codes \
         above, else the number of inputs that failed.",
    ),
];

/// The width `-h` wraps its text to.
const WIDTH: usize = 79;

/// Where the descriptions start in `-h` (the labels' column is this wide).
const DESCRIPTION_COLUMN: usize = 18;

/// `text` wrapped to [`WIDTH`], its first line after `first` (padded to `indent` columns), the
/// others indented by `indent`.
fn wrap(first: &str, text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut line = format!("{first:<indent$}");
    if indent > 0 && first.len() >= indent {
        // A label that fills its column: the description starts on the next line.
        out.push_str(line.trim_end());
        out.push('\n');
        line = " ".repeat(indent);
    }
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `-h` (`long`: `-H`), rendered from [`OPTIONS`].
pub fn render_help(long: bool, version: &str) -> String {
    let mut text = format!(
        "lz4-simd {version}: LZ4 files with lz4's options and formats, kept safe\n\n{USAGE}\n\n"
    );
    text.push_str(&wrap("", INPUT, 0));
    let mut section = None;
    for opt in OPTIONS.iter().filter(|opt| !opt.label.is_empty()) {
        if section != Some(opt.section) {
            text.push('\n');
            text.push_str(opt.section.help_heading());
            text.push('\n');
            section = Some(opt.section);
        }
        text.push_str(&wrap(
            &format!("  {}", opt.label),
            opt.help,
            DESCRIPTION_COLUMN,
        ));
    }
    text.push('\n');
    text.push_str(&wrap("", SAFER, 0));
    if long {
        for paragraph in LONG_HELP.split("\n\n") {
            text.push('\n');
            text.push_str(&wrap("", paragraph, 0));
        }
    }
    text
}
