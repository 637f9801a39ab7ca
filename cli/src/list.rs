//! `--list`: what `.lz4` files hold, read from their headers without decoding.
//!
//! Each file is walked frame by frame: an LZ4 frame's header is parsed (every check the library
//! makes), then its blocks are skipped by their size words (and checksums), then the end mark
//! and the content checksum; a legacy frame's blocks are skipped until the next magic number or
//! the end; a skippable frame by its size. Nothing is read but those words, so a large file is
//! listed at once. The uncompressed size is known only when every frame records its content
//! size (as `lz4` shows it: `-` otherwise). The table is `lz4 --list`'s, byte for byte (scripts
//! parse it): one line per file, or with `-v` one table of frames per file (type, block size
//! and mode, content checksum, sizes).

use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use lz4_simd::frame::{self, BlockMode, FrameHeader, FrameInfo};
use lz4_simd::Error;

use crate::codec::{is_magic, MAX_HEADER};
use crate::container::{self, Container};
use crate::Failure;

/// What one frame is.
struct FrameSummary {
    kind: &'static str,
    info: Option<FrameInfo>,
    compressed: u64,
    uncompressed: Option<u64>,
}

impl FrameSummary {
    fn block(&self) -> String {
        match &self.info {
            Some(info) => format!(
                "B{}{}",
                info.block_size.code(),
                if info.block_mode == BlockMode::Linked {
                    "D"
                } else {
                    "I"
                }
            ),
            None => "-".into(),
        }
    }
}

/// Human size as `lz4 --list` prints it (1024-based, two decimals).
fn human(size: u64) -> String {
    const UNITS: &[u8] = b" KMGTPE";
    let mut value = size as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.2}{}", UNITS[unit] as char)
        .trim_end()
        .to_string()
}

fn read_u32(reader: &mut impl Read) -> io::Result<Option<u32>> {
    let mut word = [0u8; 4];
    let mut filled = 0;
    while filled < 4 {
        match reader.read(&mut word[filled..])? {
            0 if filled == 0 => return Ok(None),
            0 => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "truncated 4-byte word",
                ))
            }
            n => filled += n,
        }
    }
    Ok(Some(u32::from_le_bytes(word)))
}

/// `err`, from a header read at `base`, with its offset counted from the start of the file.
fn at_offset(mut err: Error, base: u64) -> Error {
    match &mut err {
        Error::FrameBadMagic { input_pos, .. }
        | Error::FrameTruncated { input_pos, .. }
        | Error::FrameUnsupportedVersion { input_pos, .. }
        | Error::FrameReservedBitSet { input_pos, .. }
        | Error::FrameBadBlockSizeCode { input_pos, .. }
        | Error::FrameHeaderChecksum { input_pos, .. } => *input_pos += base,
        _ => {}
    }
    err
}

/// The failure a run reports after `failure`, `earlier` being the one recorded before: the first
/// exit code of lz4's that a failure carried (a magic number cut short: 40), else a failure
/// already reported.
fn keep_code(earlier: Option<Failure>, failure: &Failure) -> Failure {
    match (earlier, failure) {
        (Some(Failure::Quiet(code)), _) => Failure::Quiet(code),
        (_, Failure::Exit(code, _)) => Failure::Quiet(*code),
        _ => Failure::Reported,
    }
}

/// Walks the frames of one file.
fn frames_of(path: &Path) -> Result<Vec<FrameSummary>, Failure> {
    let name = path.display().to_string();
    let io_failure = |e| Failure::Io(name.clone(), e);
    // A FIFO or a device has no length to walk frames by (lz4 refuses them too); checked before
    // opening, which would wait for a FIFO's writer.
    if !fs::metadata(path).map_err(io_failure)?.is_file() {
        return Err(Failure::Message(format!("{name}: not a regular file")));
    }
    let file = File::open(path).map_err(io_failure)?;
    let len = file.metadata().map_err(io_failure)?.len();
    if len == 0 {
        return Err(Failure::Message(format!("{name}: empty, not an LZ4 file")));
    }
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let truncated = |what: &str, at: u64| {
        Failure::Message(format!(
            "{name}: truncated frame: {what} at offset {at} is past the end"
        ))
    };
    let mut frames = Vec::new();
    let mut pos = 0u64;
    while pos < len {
        if len - pos < 4 {
            // lz4's exit code when the bytes left cannot hold a magic number.
            return Err(Failure::Exit(
                40,
                format!(
                    "{name}: {} bytes at offset {pos} are too few for a magic number",
                    len - pos
                ),
            ));
        }
        let mut head = [0u8; MAX_HEADER];
        let want = (len - pos).min(MAX_HEADER as u64) as usize;
        reader.read_exact(&mut head[..want]).map_err(io_failure)?;
        let (header, header_len) = frame::read_frame_header(&head[..want])
            .map_err(|e| Failure::InFile(name.clone(), Box::new(at_offset(e, pos).into())))?;
        let start = pos;
        pos += header_len as u64;
        reader.seek(SeekFrom::Start(pos)).map_err(io_failure)?;
        let summary = match header {
            FrameHeader::Skippable { payload_len, .. } => {
                pos += u64::from(payload_len);
                if pos > len {
                    return Err(truncated("a skippable frame's payload", pos));
                }
                reader.seek(SeekFrom::Start(pos)).map_err(io_failure)?;
                FrameSummary {
                    kind: "SkippableFrame",
                    info: None,
                    compressed: pos - start,
                    uncompressed: Some(0),
                }
            }
            FrameHeader::Legacy => {
                while let Some(word) = read_u32(&mut reader).map_err(io_failure)? {
                    if is_magic(word) {
                        reader.seek(SeekFrom::Start(pos)).map_err(io_failure)?;
                        break;
                    }
                    pos += 4 + u64::from(word);
                    if pos > len {
                        return Err(truncated("a legacy block", pos));
                    }
                    reader.seek(SeekFrom::Start(pos)).map_err(io_failure)?;
                }
                FrameSummary {
                    kind: "LegacyFrame",
                    info: None,
                    compressed: pos - start,
                    uncompressed: None,
                }
            }
            FrameHeader::Lz4(info) => {
                let block_max = info.block_size.bytes() as u64;
                let checksum = if info.block_checksum { 4 } else { 0 };
                loop {
                    let word = read_u32(&mut reader)
                        .map_err(io_failure)?
                        .ok_or_else(|| truncated("a block size or the end mark", pos))?;
                    pos += 4;
                    if word == 0 {
                        break;
                    }
                    let size = u64::from(word & 0x7FFF_FFFF);
                    if size > block_max {
                        return Err(Failure::Message(format!(
                            "{name}: a block of {size} bytes at offset {} exceeds the frame's \
                             block size of {block_max}",
                            pos - 4
                        )));
                    }
                    pos += size + checksum;
                    if pos > len {
                        return Err(truncated("a data block", pos));
                    }
                    reader.seek(SeekFrom::Start(pos)).map_err(io_failure)?;
                }
                if info.content_checksum {
                    pos += 4;
                    if pos > len {
                        return Err(truncated("the content checksum", pos));
                    }
                    reader.seek(SeekFrom::Start(pos)).map_err(io_failure)?;
                }
                FrameSummary {
                    kind: "LZ4Frame",
                    uncompressed: info.content_size,
                    info: Some(info),
                    compressed: pos - start,
                }
            }
            _ => {
                return Err(Failure::Message(format!(
                    "{name}: a frame of a kind this version cannot list at offset {start}"
                )))
            }
        };
        frames.push(summary);
    }
    Ok(frames)
}

/// The container a file holds when it is not LZ4 frames: the one named by `--container`, or
/// one recognised from its first bytes (a Kafka v0 frame's header checksum, lz4-java's magic, a
/// ClickHouse block's checksum).
/// Returns it with the file's size and its content's size (decoded, within `max_out`).
fn container_of(
    path: &Path,
    named: Option<Container>,
    max_out: Option<usize>,
) -> Result<Option<(Container, u64, u64)>, Failure> {
    let name = path.display().to_string();
    let io_failure = |e| Failure::Io(name.clone(), e);
    if !fs::metadata(path).map_err(io_failure)?.is_file() {
        return Ok(None);
    }
    let mut head = Vec::new();
    File::open(path)
        .map_err(io_failure)?
        .take(1 << 20)
        .read_to_end(&mut head)
        .map_err(io_failure)?;
    let Some(found) = named.or_else(|| container::identify(&head)) else {
        return Ok(None);
    };
    let mut file = File::open(path).map_err(io_failure)?;
    let size = file.metadata().map_err(io_failure)?.len();
    let content = container::decompress(found, &mut file, &mut io::sink(), max_out)
        .map_err(|e| Failure::Io(format!("{name} ({} container)", found.name()), e))?;
    Ok(Some((found, size, content)))
}

/// The line of a file holding `found`: `size` bytes, `content` bytes decoded.
fn container_line(found: Container, size: u64, content: u64, path: &Path) -> String {
    summary_line("-", found.name(), "-", size, Some(content), path)
}

/// The name `lz4 --list` shows: the file's name without its folders.
fn base_name(path: &Path) -> String {
    let text = path.display().to_string();
    match text.rsplit_once('/') {
        Some((_, base)) => base.to_string(),
        None => text,
    }
}

/// The table's header, in `lz4 --list`'s columns.
fn summary_header() -> String {
    format!(
        "{:>10} {:>14} {:>5} {:>11} {:>13} {:>8}   {}\n",
        "Frames", "Type", "Block", "Compressed", "Uncompressed", "Ratio", "Filename"
    )
}

/// One file's line, byte for byte as `lz4 --list` prints it (a ratio is followed by two spaces
/// and the name by one, `-` by three and nothing).
fn summary_line(
    frames: &str,
    kind: &str,
    block: &str,
    size: u64,
    content: Option<u64>,
    path: &Path,
) -> String {
    let name = base_name(path);
    let head = format!(
        "{frames:>10} {kind:>14} {block:>5} {:>11} {:>13} ",
        human(size),
        content.map_or("-".into(), human)
    );
    match content {
        Some(content) if content > 0 => format!(
            "{head}{:>8.2}%  {name} \n",
            size as f64 / content as f64 * 100.0
        ),
        _ => format!("{head}{:>8}   {name}\n", "-"),
    }
}

/// `-v`: the line of one frame, as `lz4 --list -v` prints it.
fn frame_line(number: usize, f: &FrameSummary) -> String {
    let checksum = match &f.info {
        Some(info) if info.content_checksum => "XXH32",
        _ => "-",
    };
    let head = format!(
        "    {number:>6} {:>14} {:>5} {checksum:>8}",
        f.kind,
        f.block()
    );
    match (&f.info, f.uncompressed) {
        (Some(_), Some(content)) if content > 0 => format!(
            "{head} {:>20} {content:>20} {:>9.2}%\n",
            f.compressed,
            f.compressed as f64 / content as f64 * 100.0
        ),
        (Some(_), _) => format!("{head} {:>20} {:>20} {:>9} \n", f.compressed, "-", "-"),
        (None, _) => format!("{head} {:>20} {:>20} {:>9}\n", f.compressed, "-", "-"),
    }
}

/// Whether `path` is a regular file (one that can be read again: not a pipe or a device).
fn is_regular_file(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| meta.is_file())
}

/// Lists `paths`; `verbose` adds the frame table. Output goes to stdout, as `lz4`'s does.
/// Files that hold a container (named by `--container`, or recognised) get one line naming it.
pub fn run(
    paths: &[std::path::PathBuf],
    verbose: bool,
    named: Option<Container>,
    max_out: Option<usize>,
) -> Result<(), Failure> {
    // As lz4: without a file name (`lz4 --list < f.lz4`) the table is empty.
    let mut out = String::new();
    let mut failed = None;
    if !verbose {
        out.push_str(&summary_header());
    }
    for (index, path) in paths.iter().enumerate() {
        match container_of(path, named, max_out) {
            Ok(Some((found, size, content))) => {
                out.push_str(&container_line(found, size, content, path));
                continue;
            }
            Ok(None) => {}
            Err(failure) => {
                eprintln!("lz4-simd: {failure}");
                failed = Some(Failure::Reported);
                continue;
            }
        }
        let frames = match frames_of(path) {
            Ok(frames) => frames,
            // Input that is not a whole stream of frames may be a kernel image (frames ending
            // with a legacy frame, then a size trailer), as `-d` reads it.
            Err(failure) if named.is_none() && is_regular_file(path) => {
                match container_of(path, Some(Container::Linux), max_out) {
                    Ok(Some((found, size, content))) => {
                        out.push_str(&container_line(found, size, content, path));
                    }
                    _ => {
                        eprintln!("lz4-simd: {failure}");
                        failed = Some(keep_code(failed, &failure));
                    }
                }
                continue;
            }
            Err(failure) => {
                eprintln!("lz4-simd: {failure}");
                failed = Some(keep_code(failed, &failure));
                continue;
            }
        };
        let size = fs::metadata(path).map_or(0, |meta| meta.len());
        // The content size is known when every frame is an LZ4 frame that records one.
        let content = frames
            .iter()
            .try_fold(0u64, |sum, f| match (&f.info, f.uncompressed) {
                (Some(_), Some(n)) if n > 0 => Some(sum + n),
                _ => None,
            });
        if verbose {
            out.push_str(&format!(
                "{}({}/{})\n",
                base_name(path),
                index + 1,
                paths.len()
            ));
            out.push_str(&format!(
                "    {:>6} {:>14} {:>5} {:>8} {:>20} {:>20} {:>9}\n",
                "Frame", "Type", "Block", "Checksum", "Compressed", "Uncompressed", "Ratio"
            ));
            for (number, f) in frames.iter().enumerate() {
                out.push_str(&frame_line(number + 1, f));
            }
            out.push('\n');
        } else {
            // A column shows what every frame has in common, `-` otherwise; the block column
            // only for LZ4 frames.
            let kind = match frames.first() {
                Some(first) if frames.iter().all(|f| f.kind == first.kind) => first.kind,
                _ => "-",
            };
            let block = match frames.first() {
                Some(first)
                    if frames
                        .iter()
                        .all(|f| f.info.is_some() && f.block() == first.block()) =>
                {
                    first.block()
                }
                _ => "-".into(),
            };
            out.push_str(&summary_line(
                &frames.len().to_string(),
                kind,
                &block,
                size,
                content,
                path,
            ));
        }
    }
    use std::io::Write;
    if crate::stdio::stdout_closed() {
        // The runtime reopened it on /dev/null (`stdio.rs`), which would swallow the table:
        // the write fails as it would have on the closed descriptor.
        let closed = io::Error::from_raw_os_error(libc::EBADF);
        return Err(Failure::Io("stdout".into(), closed));
    }
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::Io("stdout".into(), e))?;
    failed.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes_as_lz4() {
        assert_eq!(human(100_115), "97.77K");
        assert_eq!(human(300_000), "292.97K");
        assert_eq!(human(23), "23.00");
    }
}
