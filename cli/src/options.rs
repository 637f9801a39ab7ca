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
            Section::Basic => "Arguments :",
            Section::Advanced => "Advanced arguments :",
            Section::Benchmark => "Benchmark arguments :",
            Section::Extras => "lz4-simd extras :",
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
    /// The left column in `-h` (padded to 8 columns), or `""` for an option `-h` does not list.
    pub label: &'static str,
    /// The description, with `-h`'s line breaks and indentation (the manual joins the lines).
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
    Opt::new(&["-1"], " -1", "fast compression (default)").more(
        "Any level from -1 to -12 may be given: -1 (and -0) the fast compressor, -2 to -12 LZ4 HC, \
         higher being slower and smaller.",
    ),
    Opt::new(&["-9"], " -9", "high compression (levels 2-12 are LZ4 HC)"),
    Opt::new(
        &["-d", "--decompress", "--uncompress"],
        " -d",
        "decompression (default for .lz4 extension)",
    ),
    Opt::new(&["-z", "--compress"], " -z", "force compression"),
    Opt::new(&["-D"], " -D FILE", "use FILE as dictionary")
        .value(Value::Next("FILE"))
        .more("(stdin: standard input)"),
    Opt::new(
        &["-f", "--force"],
        " -f",
        "overwrite output without prompting",
    )
    .more("(lz4-simd never prompts: without -f an existing output is refused)"),
    Opt::new(&["--no-force"], "", "cancel an earlier -f"),
    Opt::new(&["-k", "--keep"], " -k", "preserve source files (default)"),
    Opt::new(
        &["--rm"],
        "--rm",
        "remove source file(s) after successful de/compression",
    )
    .more("(only once the output is on disk; kept if it changed while it was read)"),
    Opt::new(&["-h", "--help"], " -h/-H", "display help/long help and exit"),
    Opt::new(&["-H"], "", "display long help and exit"),
    Opt::new(&["-V", "--version"], " -V", "display version number and exit")
        .section(Section::Advanced),
    Opt::new(&["-v", "--verbose"], " -v", "verbose mode").section(Section::Advanced),
    Opt::new(
        &["-q", "--quiet"],
        " -q",
        "suppress warnings; specify twice to suppress errors too",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-c", "--stdout", "--to-stdout"],
        " -c",
        "force write to standard output, even if it is the console",
    )
    .section(Section::Advanced),
    Opt::new(&["-t", "--test"], " -t", "test compressed file integrity")
        .section(Section::Advanced),
    Opt::new(
        &["-m", "--multiple"],
        " -m",
        "multiple input files (implies automatic output filenames)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-r"],
        " -r",
        "operate recursively on directories (sets also -m)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-l"],
        " -l",
        "compress using Legacy format (Linux kernel compression)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-B"],
        " -B#",
        "cut file into blocks of size # bytes [32+]
          or predefined block size [4-7] (default: 7)",
    )
    .value(Value::Glued("#"))
    .more("-B4: 64 KB, -B5: 256 KB, -B6: 1 MB, -B7: 4 MB.")
    .section(Section::Advanced),
    Opt::new(&["-BI"], " -BI", "Block Independence (default)").section(Section::Advanced),
    Opt::new(
        &["-BD"],
        " -BD",
        "Block dependency (improves compression ratio)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["-BX"],
        " -BX",
        "enable block checksum (default:disabled)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["--no-frame-crc"],
        "--no-frame-crc ",
        "disable stream checksum (default:enabled)",
    )
    .section(Section::Advanced),
    Opt::new(&["--frame-crc"], "", "enable stream checksum (default)").section(Section::Advanced),
    Opt::new(&["--no-crc"], "", "disable stream and block checksums").section(Section::Advanced),
    Opt::new(
        &["--content-size"],
        "--content-size ",
        "compressed frame includes original size (default:not present)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["--no-content-size"],
        "",
        "compressed frame does not include the original size (default)",
    )
    .section(Section::Advanced),
    Opt::new(
        &["--list"],
        "--list FILE ",
        "lists information about .lz4 files (useful for files compressed with
              --content-size flag)",
    )
    .more("(-v: one row per frame)")
    .section(Section::Advanced),
    Opt::new(
        &["--sparse"],
        "--[no-]sparse  ",
        "sparse mode (default:enabled on file, disabled on stdout)",
    )
    .section(Section::Advanced),
    Opt::new(&["--no-sparse"], "", "disable sparse mode").section(Section::Advanced),
    Opt::new(
        &["--favor-decSpeed"],
        "--favor-decSpeed",
        "compressed files decompress faster, but are less compressed",
    )
    .more("(levels 10 to 12)")
    .section(Section::Advanced),
    Opt::new(
        &["--fast"],
        "--fast[=#]",
        "switch to ultra fast compression level (default: 1)",
    )
    .value(Value::Equals("#"))
    .section(Section::Advanced),
    Opt::new(&["--best"], "--best", "same as -12").section(Section::Advanced),
    Opt::new(
        &["-T", "--threads"],
        "-T#",
        "use # threads (default: 0 = one per core; same output for any #)",
    )
    .value(Value::Glued("#"))
    .section(Section::Advanced),
    Opt::new(
        &["-b"],
        " -b#",
        "benchmark file(s), using # compression level (default : 1);
          with no file, built-in generated samples; -b -d: decompression of .lz4 files",
    )
    .value(Value::Glued("#"))
    .section(Section::Benchmark),
    Opt::new(
        &["-e"],
        " -e#",
        "test all compression levels from -bX to # (default : 1)",
    )
    .value(Value::Glued("#"))
    .section(Section::Benchmark),
    Opt::new(
        &["-i"],
        " -i#",
        "minimum evaluation time in seconds (default : 3s; 0: one pass)",
    )
    .value(Value::Glued("#"))
    .section(Section::Benchmark),
    Opt::new(
        &["compress", "decompress"],
        " compress / decompress ",
        "the same as -z / -d",
    )
    .more("(as the first argument)")
    .section(Section::Extras),
    Opt::new(
        &["--block"],
        "--block ",
        "one size-prepended block (4-byte size + block) instead of frames",
    )
    .section(Section::Extras),
    Opt::new(
        &["--max-out"],
        "--max-out N ",
        "with --block or --container -d, the most content to decode (the whole
          output, every container; default: the block format's largest input, none for
          the streamed hadoop, kafka, lz4-java, clickhouse)",
    )
    .value(Value::Next("N"))
    .section(Section::Extras),
    Opt::new(
        &["--container"],
        "--container NAME ",
        "read/write LZ4 inside another system's format instead of frames:
          hadoop, kafka, kafka-v0, lz4-java, prefixed-le32, prefixed-be32,
          prefixed-varint, clickhouse, linux (legacy frame + size trailer or zero
          padding, also read by plain -d), parquet-lz4, parquet-lz4-raw (one page);
          --list recognises kafka-v0, lz4-java, clickhouse and linux files by
          themselves, the others when named",
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
pub const USAGE: &str = "Usage : lz4-simd [arg] [input] [output]";

/// What `-h` says of the operands.
const INPUT: &str = "input   : a filename (with no FILE, or when FILE is - : read standard input)";

/// The safety summary `-h` prints after the basic options.
const SAFER: &str =
    "Safer than lz4: outputs go to a temporary file renamed into place when complete, an input is
never its own output, and --rm keeps a source that changed while it was read (-H: more)";

/// What `-H` adds.
pub const LONG_HELP: &str =
    "Which parameters can be used as aggregated short options: -9BD, -dc, -BX -B5.
Never loses data: outputs are written to a temporary file and renamed when complete,
an existing file is replaced only with -f, and --rm removes a source only once its
output is on disk, and keeps it (a warning, exit status 0) if it changed while it was read.
Exit codes are lz4's: 44 not LZ4, 26 a truncated frame (63 legacy), 34 a damaged frame,
27 the dictionary, 10 a -b input; a closed standard stream 40 reading (also with -d), 42
writing compressed data, 70 writing decoded data; with -m the first of those, else the number
of inputs that failed; 1 otherwise.";

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
    ("26", "A truncated frame."),
    ("27", "The -D dictionary cannot be read."),
    ("34", "A damaged frame, or a checksum that does not match."),
    ("40", "Standard input is closed (also with -d)."),
    ("42", "Standard output is closed, writing compressed data."),
    ("44", "The input is not LZ4."),
    ("63", "A truncated legacy frame."),
    ("70", "Standard output is closed, writing decoded data."),
    (
        "N",
        "With several inputs (-m, -r): the code of the first failure that has one of the codes \
         above, else the number of inputs that failed.",
    ),
];

/// `-h` (`long`: `-H`), rendered from [`OPTIONS`].
pub fn render_help(long: bool, version: &str) -> String {
    let mut text = format!(
        "lz4-simd {version}: the lz4 command line, on a codec that cannot lose data\n{USAGE}\n\n\
         {INPUT}\n"
    );
    let mut section = None;
    for opt in OPTIONS.iter().filter(|opt| !opt.label.is_empty()) {
        if section != Some(opt.section) {
            match opt.section {
                Section::Basic => {}
                Section::Advanced => text.push_str(&format!("{SAFER}\n\n")),
                Section::Benchmark => {}
                Section::Extras | Section::Earlier => text.push('\n'),
            }
            text.push_str(opt.section.help_heading());
            text.push('\n');
            section = Some(opt.section);
        }
        text.push_str(&format!("{:<8}: {}\n", opt.label, opt.help));
    }
    if long {
        text.push('\n');
        text.push_str(LONG_HELP);
        text.push('\n');
    }
    text
}
