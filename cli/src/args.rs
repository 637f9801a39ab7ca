//! The command line of `lz4` 1.10, parsed by hand.
//!
//! Why not clap: `lz4`'s grammar is not one clap can express without fighting it. Short options
//! aggregate with numbers inside them (`-9BD`, `-B7`, `-b1e3i2`, `-T4`), a digit run after `-`
//! is a compression level (`-12`), `-B` takes any run of `4`-`7`, `D`, `I`, `X` glued to it,
//! `--fast` takes an optional `=N`, a lone `-` means standard input the first time and standard
//! output the second, and positional arguments are an input and an output unless `-m`/`-r`
//! makes them all inputs. This parser walks `std::env::args_os` once, the way `lz4cli.c` does,
//! and builds [`Settings`].
//!
//! Extras beyond `lz4`: the words `compress` and `decompress` (first argument) mean `-z` and
//! `-d`; `--block` reads and writes one size-prepended block instead of frames; the spelled-out
//! options of earlier `lz4-simd` versions (`--hc N`, `--linked`, `--block-checksum`,
//! `--no-content-checksum`, `--legacy`, `--max-out N`) are still accepted.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use lz4_simd::frame::BlockSize;

/// What the run does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// No `-z`/`-d`: compress, unless the output name is chosen automatically for a `.lz4`
    /// input (then decompress), as `lz4` decides.
    Auto,
    Compress,
    Decompress,
    Test,
    List,
    Bench,
}

/// A positional argument or `-`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    Stdio,
    Path(PathBuf),
}

/// Everything the command line says.
#[derive(Debug, Clone)]
pub struct Settings {
    pub mode: Mode,
    /// `lz4`'s compression level: below 0 is `--fast=-level`, 0-1 the fast compressor, 2-12 HC.
    pub level: i32,
    /// Last level of a benchmark range (`-e#`).
    pub level_last: Option<i32>,
    pub block_size: BlockSize,
    pub linked: bool,
    pub block_checksum: bool,
    pub content_checksum: bool,
    pub content_size: bool,
    pub favor_dec_speed: bool,
    pub legacy: bool,
    pub dictionary: Option<PathBuf>,
    /// `--block`: one size-prepended block instead of frames.
    pub prepended_block: bool,
    /// `--container NAME`: one of the library's containers instead of LZ4 frames.
    pub container: Option<crate::container::Container>,
    /// `--max-out N`, decompressing `--block` or `--container`: the most content to decode
    /// (without it, the block format's largest input for what is decoded in memory, and no cap
    /// for the streamed containers).
    pub max_out: Option<usize>,
    pub force: bool,
    pub force_stdout: bool,
    /// `-c` (or the name `lz4cat`): with `-f`, `-d` copies an input that is not LZ4 as it is.
    pub pass_through: bool,
    /// `-d` with `-b`: benchmark the decompression of `.lz4` files.
    pub bench_decode: bool,
    /// `-b`: the block size in bytes for the benchmark (`-B#`); `None`: the frame block size.
    pub bench_block: Option<usize>,
    pub remove_source: bool,
    pub multiple: bool,
    pub recursive: bool,
    pub sparse: Option<bool>,
    pub threads: Option<u32>,
    /// `lz4`'s display level: 0 silent, 1 errors, 2 normal (default), 3+ verbose. Lowered from 2
    /// to 1 when the output is standard output or there are several inputs, as `lz4` does.
    pub display_level: u8,
    /// Whether a job may show a progress bar (on a terminal): the display level the user asked
    /// for is 2 or more. Set when the jobs are planned.
    pub progress_bar: bool,
    /// Benchmark seconds per level (`-i#`).
    pub bench_seconds: Option<u32>,
    pub input: Option<Operand>,
    pub output: Option<Operand>,
    /// With `-m`, `-r`, `--list`, `-b`: every positional argument.
    pub inputs: Vec<PathBuf>,
    /// How many inputs planning skipped (their output could not be named, or they could not be
    /// read while walking `-r` directories): the run fails, each counting as a failed input.
    pub skipped: u8,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: Mode::Auto,
            level: 1,
            level_last: None,
            block_size: BlockSize::Max4MB,
            linked: false,
            block_checksum: false,
            content_checksum: true,
            content_size: false,
            favor_dec_speed: false,
            legacy: false,
            dictionary: None,
            prepended_block: false,
            container: None,
            max_out: None,
            force: false,
            force_stdout: false,
            pass_through: false,
            bench_decode: false,
            bench_block: None,
            remove_source: false,
            multiple: false,
            recursive: false,
            sparse: None,
            threads: None,
            display_level: 2,
            progress_bar: false,
            bench_seconds: None,
            input: None,
            output: None,
            inputs: Vec::new(),
            skipped: 0,
        }
    }
}

/// What parsing asks for besides running.
#[derive(Debug)]
pub enum Parsed {
    Run(Box<Settings>),
    Help,
    LongHelp,
    Version,
}

/// A usage error, printed with the usage line; exit code 1.
#[derive(Debug)]
pub struct Usage(pub String, pub UsageText);

/// Whether the usage text follows the message: after a bad option or value, as `lz4` prints it;
/// not after a refusal of operands `lz4` also refuses without it (a third file name, `-c` with
/// an output name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageText {
    Shown,
    Omitted,
}

/// Reads a decimal number with `lz4`'s optional `K`/`M` (and `i`, `B`) suffixes from the front
/// of `rest`; returns it and the bytes after it. `None` when no digit comes first or it
/// overflows.
fn read_number(rest: &[u8]) -> Option<(u32, &[u8])> {
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let mut value: u32 = 0;
    for &digit in &rest[..digits] {
        value = value
            .checked_mul(10)?
            .checked_add(u32::from(digit - b'0'))?;
    }
    let mut rest = &rest[digits..];
    if let Some(&unit @ (b'K' | b'M')) = rest.first() {
        value = value.checked_mul(if unit == b'K' { 1 << 10 } else { 1 << 20 })?;
        rest = &rest[1..];
        rest = rest.strip_prefix(b"i").unwrap_or(rest);
        rest = rest.strip_prefix(b"B").unwrap_or(rest);
    }
    Some((value, rest))
}

fn usage(message: impl Into<String>) -> Usage {
    Usage(message.into(), UsageText::Shown)
}

fn refusal(message: impl Into<String>) -> Usage {
    Usage(message.into(), UsageText::Omitted)
}

/// Parses the arguments after the program name.
#[cfg(test)]
pub fn parse(args: &[OsString]) -> Result<Parsed, Usage> {
    parse_as(OsStr::new("lz4-simd"), args)
}

/// Whether the program's file name (`program`, a path) is `name`, or `name` with an extension
/// (`lz4cat.exe`), as `lz4` matches it.
fn invoked_as(program: &OsStr, name: &str) -> bool {
    let base = program
        .as_bytes()
        .rsplit(|&b| b == b'/')
        .next()
        .unwrap_or(&[]);
    base.strip_prefix(name.as_bytes())
        .is_some_and(|rest| rest.is_empty() || rest[0] == b'.')
}

/// Parses the arguments after the program name; `program` (`argv[0]`) sets `lz4`'s defaults
/// for its other names: `lz4cat` decompresses every input to standard output (`-dcfm`, inputs
/// not in LZ4 copied as they are, only errors shown), `unlz4` decompresses (`-d`), `lz4c`
/// takes the old options `-c0`, `-c1`, `-c2`, `-hc` and `-y`.
pub fn parse_as(program: &OsStr, args: &[OsString]) -> Result<Parsed, Usage> {
    let mut settings = Settings::default();
    if invoked_as(program, "lz4cat") {
        settings.mode = Mode::Decompress;
        settings.force = true;
        settings.pass_through = true;
        settings.force_stdout = true;
        settings.output = Some(Operand::Stdio);
        settings.display_level = 1;
        settings.multiple = true;
    }
    if invoked_as(program, "unlz4") {
        settings.mode = Mode::Decompress;
    }
    let old_options = invoked_as(program, "lz4c");
    let mut positionals: Vec<Operand> = Vec::new();
    let mut only_files = false;
    let mut index = 0;
    if let Some(word) = args.first() {
        if word == "compress" {
            settings.mode = Mode::Compress;
            index = 1;
        } else if word == "decompress" {
            settings.mode = Mode::Decompress;
            index = 1;
        } else if word == "bench" && !Path::new("bench").exists() {
            // `-b`, unless a file named `bench` is there to compress, as lz4 would (lz4 fails
            // on the missing file; here it is the benchmark).
            settings.mode = Mode::Bench;
            settings.multiple = true;
            index = 1;
        }
    }
    while index < args.len() {
        let arg = &args[index];
        index += 1;
        let bytes = arg.as_bytes();
        if only_files || bytes.len() < 2 || bytes[0] != b'-' {
            positionals.push(if bytes == b"-" && !only_files {
                Operand::Stdio
            } else {
                Operand::Path(PathBuf::from(arg))
            });
            continue;
        }
        if let Some(long) = bytes.strip_prefix(b"--") {
            if long.is_empty() {
                only_files = true;
                continue;
            }
            let mut next_value = |name: &str| -> Result<OsString, Usage> {
                let value = args
                    .get(index)
                    .cloned()
                    .ok_or_else(|| usage(format!("--{name} needs a value")))?;
                index += 1;
                Ok(value)
            };
            match parse_long(long, &mut settings, &mut next_value)? {
                Some(parsed) => return Ok(parsed),
                None => continue,
            }
        }
        if old_options {
            let (level, overwrite) = match &bytes[1..] {
                b"c0" => (Some(0), false),
                b"c1" => (Some(9), false),
                b"c2" | b"hc" => (Some(12), false),
                b"y" => (None, true),
                _ => (None, false),
            };
            if level.is_some() || overwrite {
                settings.level = level.unwrap_or(settings.level);
                settings.force |= overwrite;
                continue;
            }
        }
        if let Some(parsed) = parse_short(&bytes[1..], &mut settings, args, &mut index)? {
            return Ok(parsed);
        }
    }
    assign_operands(&mut settings, positionals)?;
    Ok(Parsed::Run(Box::new(settings)))
}

/// `-d`: decompress, or with `-b` benchmark decompression.
fn set_decompress(settings: &mut Settings) {
    if settings.mode != Mode::Bench {
        settings.mode = Mode::Decompress;
    }
    settings.bench_decode = true;
}

/// Long options; `Some` for those that end parsing (help, version).
fn parse_long(
    long: &[u8],
    settings: &mut Settings,
    next_value: &mut dyn FnMut(&str) -> Result<OsString, Usage>,
) -> Result<Option<Parsed>, Usage> {
    let (name, value) = match long.iter().position(|&b| b == b'=') {
        Some(eq) => (&long[..eq], Some(&long[eq + 1..])),
        None => (long, None),
    };
    let name_str = String::from_utf8_lossy(name).into_owned();
    let no_value = |settings: &mut Settings, apply: fn(&mut Settings)| -> Result<(), Usage> {
        if value.is_some() {
            return Err(usage(format!("--{name_str} takes no value")));
        }
        apply(settings);
        Ok(())
    };
    match name {
        b"compress" => no_value(settings, |s| s.mode = Mode::Compress)?,
        b"decompress" | b"uncompress" => no_value(settings, set_decompress)?,
        b"test" => no_value(settings, |s| s.mode = Mode::Test)?,
        b"list" => no_value(settings, |s| s.mode = Mode::List)?,
        b"multiple" => no_value(settings, |s| s.multiple = true)?,
        b"force" => no_value(settings, |s| s.force = true)?,
        b"no-force" => no_value(settings, |s| s.force = false)?,
        b"stdout" | b"to-stdout" => no_value(settings, |s| {
            s.force_stdout = true;
            s.output = Some(Operand::Stdio);
        })?,
        b"frame-crc" => no_value(settings, |s| s.content_checksum = true)?,
        b"no-frame-crc" | b"no-content-checksum" => {
            no_value(settings, |s| s.content_checksum = false)?
        }
        b"no-crc" => no_value(settings, |s| {
            s.content_checksum = false;
            s.block_checksum = false;
        })?,
        b"content-size" => no_value(settings, |s| s.content_size = true)?,
        b"no-content-size" => no_value(settings, |s| s.content_size = false)?,
        b"sparse" => no_value(settings, |s| s.sparse = Some(true))?,
        b"no-sparse" => no_value(settings, |s| s.sparse = Some(false))?,
        b"favor-decSpeed" => no_value(settings, |s| s.favor_dec_speed = true)?,
        b"verbose" => no_value(settings, |s| {
            s.display_level = s.display_level.saturating_add(1)
        })?,
        b"quiet" => no_value(settings, |s| {
            s.display_level = s.display_level.saturating_sub(1)
        })?,
        b"keep" => no_value(settings, |s| s.remove_source = false)?,
        b"rm" => no_value(settings, |s| s.remove_source = true)?,
        b"best" => no_value(settings, |s| s.level = 12)?,
        b"version" => return Ok(Some(Parsed::Version)),
        b"help" => return Ok(Some(Parsed::Help)),
        b"fast" => {
            settings.level = match value {
                None => -1,
                Some(digits) => match read_number(digits) {
                    Some((n, [])) if n > 0 && n <= i32::MAX as u32 => -(n as i32),
                    _ => return Err(usage("--fast=N needs a number N of at least 1")),
                },
            };
        }
        // Spellings of earlier lz4-simd versions.
        b"block" => no_value(settings, |s| s.prepended_block = true)?,
        b"linked" => no_value(settings, |s| s.linked = true)?,
        b"block-checksum" => no_value(settings, |s| s.block_checksum = true)?,
        b"legacy" => no_value(settings, |s| s.legacy = true)?,
        // `--container NAME` or `--container=NAME`.
        b"container" => {
            let owned;
            let text = match value {
                Some(text) => text,
                None => {
                    owned = next_value(&name_str)?;
                    owned.as_bytes()
                }
            };
            let text = String::from_utf8_lossy(text);
            let Some(container) = crate::container::Container::parse(&text) else {
                let names: Vec<&str> = crate::container::NAMES.iter().map(|(n, ..)| *n).collect();
                return Err(usage(format!(
                    "unknown container {text:?} (known: {})",
                    names.join(", ")
                )));
            };
            settings.container = Some(container);
        }
        // `--threads=N` or `--threads N` (lz4 1.10 takes both), and the earlier spellings.
        b"threads" | b"hc" | b"max-out" => {
            let owned;
            let text = match value {
                Some(text) => text,
                None => {
                    owned = next_value(&name_str)?;
                    owned.as_bytes()
                }
            };
            let Some((n, [])) = read_number(text) else {
                return Err(usage(format!("--{name_str} needs a number")));
            };
            match name {
                b"threads" => settings.threads = Some(n),
                b"hc" if !(2..=12).contains(&n) => {
                    return Err(usage("--hc takes a level from 2 to 12"))
                }
                b"hc" => settings.level = n as i32,
                _ => settings.max_out = Some(n as usize),
            }
        }
        _ => return Err(usage(format!("unknown option --{name_str}"))),
    }
    Ok(None)
}

/// One argument of aggregated short options (without its `-`); `-D` may take the next argument.
fn parse_short(
    mut rest: &[u8],
    settings: &mut Settings,
    args: &[OsString],
    index: &mut usize,
) -> Result<Option<Parsed>, Usage> {
    while let Some(&option) = rest.first() {
        if option.is_ascii_digit() {
            let (level, after) =
                read_number(rest).ok_or_else(|| usage("compression level too large"))?;
            settings.level = level.min(i32::MAX as u32) as i32;
            rest = after;
            continue;
        }
        rest = &rest[1..];
        match option {
            b'V' => return Ok(Some(Parsed::Version)),
            b'h' => return Ok(Some(Parsed::Help)),
            b'H' => return Ok(Some(Parsed::LongHelp)),
            b'z' => settings.mode = Mode::Compress,
            b'd' => set_decompress(settings),
            b't' => settings.mode = Mode::Test,
            b'l' => settings.legacy = true,
            b'c' => {
                settings.force_stdout = true;
                settings.pass_through = true;
                settings.output = Some(Operand::Stdio);
            }
            b'f' => settings.force = true,
            b'v' => settings.display_level = settings.display_level.saturating_add(1),
            b'q' => settings.display_level = settings.display_level.saturating_sub(1),
            b'k' => settings.remove_source = false,
            b'm' => settings.multiple = true,
            b'r' => {
                settings.recursive = true;
                settings.multiple = true;
            }
            b'b' => {
                settings.mode = Mode::Bench;
                settings.multiple = true;
            }
            b'e' | b'i' | b'T' => {
                // As in lz4, a missing number reads as 0 (`-T` alone: as many threads as cores).
                let (n, after) = match read_number(rest) {
                    Some(read) => read,
                    None if rest.first().is_some_and(u8::is_ascii_digit) => {
                        return Err(usage(format!("-{}: number too large", option as char)))
                    }
                    None => (0, rest),
                };
                rest = after;
                match option {
                    b'e' => settings.level_last = Some(n.min(i32::MAX as u32) as i32),
                    b'i' => settings.bench_seconds = Some(n),
                    _ => settings.threads = Some(n),
                }
            }
            b'D' => {
                let path = if rest.is_empty() {
                    let next = args
                        .get(*index)
                        .ok_or_else(|| usage("-D needs a dictionary file"))?;
                    *index += 1;
                    PathBuf::from(next)
                } else {
                    PathBuf::from(OsStr::from_bytes(rest))
                };
                // `stdin` is standard input, as for lz4.
                settings.dictionary = Some(if path.as_os_str() == "stdin" {
                    PathBuf::from("-")
                } else {
                    path
                });
                rest = &[];
            }
            b'B' => loop {
                match rest.first() {
                    Some(b'D') => settings.linked = true,
                    Some(b'I') => settings.linked = false,
                    Some(b'X') => settings.block_checksum = true,
                    Some(b'0'..=b'9') => {
                        let (code, after) =
                            read_number(rest).ok_or_else(|| usage("-B: block size too large"))?;
                        let (size, bytes) = block_size_of(code).ok_or_else(|| {
                            usage(format!(
                                "-B{code}: block sizes are -B4 (64 KB), -B5 (256 KB), -B6 (1 MB), \
                                 -B7 (4 MB), or -B# for # bytes from 32"
                            ))
                        })?;
                        settings.block_size = size;
                        settings.bench_block = Some(bytes);
                        rest = after;
                        continue;
                    }
                    _ => break,
                }
                rest = &rest[1..];
            },
            other => {
                return Err(usage(format!(
                    "unknown option -{}",
                    String::from_utf8_lossy(&[other])
                )))
            }
        }
    }
    Ok(None)
}

/// `-B#`: `4`-`7` name the frame's block sizes; from 32, a size in bytes (at most 4 MiB) picks
/// the smallest frame block size that holds it, as in `lz4` 1.10 (whose frames are the same
/// as with that `-B4`-`-B7`), and is `-b`'s block size. Returns the frame block size and the
/// size in bytes.
fn block_size_of(code: u32) -> Option<(BlockSize, usize)> {
    let size = match code {
        4..=7 => BlockSize::from_code(code as u8)?,
        32.. => [BlockSize::Max64KB, BlockSize::Max256KB, BlockSize::Max1MB]
            .into_iter()
            .find(|size| code as usize <= size.bytes())
            .unwrap_or(BlockSize::Max4MB),
        _ => return None,
    };
    let bytes = match code {
        4..=7 => size.bytes(),
        _ => (code as usize).min(BlockSize::Max4MB.bytes()),
    };
    Some((size, bytes))
}

/// Positional arguments: input and output, or all inputs with `-m`, `-r`, `--list`, `-b`.
fn assign_operands(settings: &mut Settings, positionals: Vec<Operand>) -> Result<(), Usage> {
    if settings.multiple || matches!(settings.mode, Mode::List | Mode::Bench) {
        // `lz4cat -`, `lz4 -m -` (or `stdin`, lz4's name for it): standard input, the only
        // input.
        let bench = settings.mode == Mode::Bench;
        let stdin_named = |operand: &Operand| match operand {
            Operand::Stdio => true,
            Operand::Path(path) => !bench && path.as_os_str() == "stdin",
        };
        if settings.multiple && positionals.len() == 1 && stdin_named(&positionals[0]) {
            settings.input = Some(Operand::Stdio);
            return Ok(());
        }
        for operand in positionals {
            match operand {
                Operand::Path(path) => settings.inputs.push(path),
                Operand::Stdio => return Err(usage("`-` cannot be one of several inputs")),
            }
        }
        return Ok(());
    }
    let mut positionals = positionals.into_iter();
    if let Some(first) = positionals.next() {
        // lz4's names for the streams: `stdin` as input, `stdout` and `null` as output.
        settings.input = Some(match first {
            Operand::Path(path) if path.as_os_str() == "stdin" => Operand::Stdio,
            other => other,
        });
    }
    match (positionals.next(), &settings.output) {
        (Some(Operand::Stdio), Some(Operand::Stdio)) | (None, _) => {}
        (Some(Operand::Path(path)), Some(Operand::Stdio)) => {
            // lz4 refuses it too (unless -f); a name that is not used must not look like one.
            return Err(refusal(format!(
                "{}: an output name with -c (which writes to standard output); \
                 use -m for several inputs",
                path.display()
            )));
        }
        (Some(second), _) => {
            settings.output = Some(match second {
                Operand::Path(path) if path.as_os_str() == "stdout" => Operand::Stdio,
                Operand::Path(path) if path.as_os_str() == "null" => {
                    Operand::Path(PathBuf::from("/dev/null"))
                }
                other => other,
            });
        }
    }
    if let Some(extra) = positionals.next() {
        // lz4 -f goes on without it; a third name is more likely a forgotten -m, and the second
        // would be replaced: refused even with -f.
        return Err(refusal(format!(
            "{}: a third file name (use -m for several inputs)",
            match extra {
                Operand::Stdio => "-".into(),
                Operand::Path(path) => path.display().to_string(),
            }
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Settings {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        match parse(&args) {
            Ok(Parsed::Run(settings)) => *settings,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn aggregated_short_options() {
        let s = run(&["-9BD", "in", "out"]);
        assert_eq!((s.level, s.linked), (9, true));
        assert_eq!(s.input, Some(Operand::Path("in".into())));
        assert_eq!(s.output, Some(Operand::Path("out".into())));
        let s = run(&["-BX", "-B5", "-dc"]);
        assert!(s.block_checksum && s.force_stdout);
        assert_eq!(
            (s.block_size, s.mode),
            (BlockSize::Max256KB, Mode::Decompress)
        );
        let s = run(&["-12", "-B4D", "-T3", "--fast=3"]);
        assert_eq!(
            (s.level, s.block_size, s.linked, s.threads),
            (-3, BlockSize::Max64KB, true, Some(3))
        );
        let s = run(&["-b1e3i2", "x"]);
        assert_eq!(
            (s.mode, s.level, s.level_last, s.bench_seconds),
            (Mode::Bench, 1, Some(3), Some(2))
        );
        assert_eq!(s.inputs, vec![PathBuf::from("x")]);
    }

    #[test]
    fn operands_and_dictionary() {
        let s = run(&["-D", "dict", "-", "-"]);
        assert_eq!(s.dictionary, Some("dict".into()));
        assert_eq!(
            (s.input, s.output),
            (Some(Operand::Stdio), Some(Operand::Stdio))
        );
        let s = run(&["-Ddict", "-m", "a", "b", "--", "-c"]);
        assert_eq!(s.dictionary, Some("dict".into()));
        assert_eq!(s.inputs, vec![PathBuf::from("a"), "b".into(), "-c".into()]);
        assert!(!s.force_stdout);
        let s = run(&["decompress", "--block", "--max-out", "10"]);
        assert_eq!(
            (s.mode, s.prepended_block, s.max_out),
            (Mode::Decompress, true, Some(10))
        );
    }

    #[test]
    fn lz4_spellings() {
        let s = run(&["-BX", "--no-crc", "--threads", "4", "-T"]);
        assert!(!s.content_checksum && !s.block_checksum);
        assert_eq!(s.threads, Some(0));
        let s = run(&["--threads=3", "-i", "-e"]);
        assert_eq!(
            (s.threads, s.bench_seconds, s.level_last),
            (Some(3), Some(0), Some(0))
        );
        // lz4's names for the streams.
        let s = run(&["stdin", "stdout"]);
        assert_eq!(
            (s.input, s.output),
            (Some(Operand::Stdio), Some(Operand::Stdio))
        );
        let s = run(&["x", "null"]);
        assert_eq!(s.output, Some(Operand::Path("/dev/null".into())));
        let s = run(&["-c", "x", "-"]);
        assert_eq!(s.output, Some(Operand::Stdio));
        // Many -v do not overflow.
        let many = vec!["-v"; 300];
        assert_eq!(run(&many).display_level, u8::MAX);
    }

    #[test]
    fn block_sizes_in_bytes() {
        for (arg, size, bytes) in [
            ("-B32", BlockSize::Max64KB, 32),
            ("-B65536", BlockSize::Max64KB, 65536),
            ("-B65537", BlockSize::Max256KB, 65537),
            ("-B1048577", BlockSize::Max4MB, 1048577),
            ("-B99999999", BlockSize::Max4MB, 4 << 20),
            ("-B5", BlockSize::Max256KB, 256 << 10),
        ] {
            let s = run(&[arg]);
            assert_eq!((s.block_size, s.bench_block), (size, Some(bytes)), "{arg}");
        }
    }

    /// Every spelling of the option table (`options.rs`, from which `-h`, the manual and the
    /// completions are made) is one this parser takes.
    #[test]
    fn takes_every_spelling_of_the_option_table() {
        use crate::options::{Value, OPTIONS};
        for opt in OPTIONS {
            for name in opt.names {
                let mut args = vec![name.to_string()];
                match (opt.value, *name) {
                    (Value::Next(_), "--container") => args.push("hadoop".into()),
                    (Value::Next(_), _) => args.push("9".into()),
                    (Value::Glued(_), long) if long.starts_with("--") => args[0].push_str("=5"),
                    (Value::Glued(_), _) => args[0].push('5'),
                    (Value::Equals(_), _) => args.push(format!("{name}=2")),
                    (Value::None, _) => {}
                }
                let args: Vec<OsString> = args.iter().map(OsString::from).collect();
                assert!(parse(&args).is_ok(), "{args:?}");
            }
        }
    }

    #[test]
    fn usage_errors() {
        for bad in [
            &["-B3"][..],
            &["-B8"],
            &["-B31"],
            &["-y"],
            &["--fast=0"],
            &["--nope"],
            &["a", "b", "c"],
            &["-f", "a", "b", "c"],
            &["-c", "a", "b"],
            &["-f", "-c", "a", "b"],
            &["-T99999999999"],
            &["--threads"],
            &["-D"],
        ] {
            let args: Vec<OsString> = bad.iter().map(OsString::from).collect();
            assert!(parse(&args).is_err(), "{bad:?}");
        }
    }
}
