//! The streams a job runs, each from a reader to a writer: frame compression as `lz4` does it,
//! legacy frames (`-l`), size-prepended blocks (`--block`), and decompression of any mix of
//! frames. Memory stays bounded by 4 MiB (the first read) and the block size (8 MiB for legacy
//! frames), except for `--block`, whose single block is read whole.
//!
//! How `lz4` 1.10 compresses a file, and so how we do to get its bytes: it reads 4 MiB first; an
//! input shorter than that is compressed in one call (`LZ4F_compressFrame`, which picks the
//! smallest block size that holds an input shorter than a block, marks a frame of one block
//! independent, records the content size when asked, and compresses linked blocks as one
//! update); a longer one in 4 MiB chunks, each linked chunk starting from the previous chunk's
//! last 64 KiB loaded as a dictionary. Independent blocks are the same whichever way the input
//! is cut, so they are streamed a block at a time; linked blocks are compressed in 1.10's chunks
//! ([`LinkedChunks`]). `lz4`'s levels map onto the library as: a negative level (`--fast=N`) is
//! acceleration `N + 1`, 0 and 1 the fast compressor, 2-12 HC (above 12 means 12).

use std::io::{self, BufRead, BufReader, Read, Write};

use lz4_simd::block::{self, Dictionary, HcDictionary};
use lz4_simd::frame::{
    self, BlockMode, BlockSize, FrameCompressor, FrameDecoder, FrameDecompressor, FrameEncoder,
    FrameOptions, ParallelFrameDecoder, ParallelFrameEncoder, Status,
};

use crate::args::Settings;

/// Input buffer of the decoder.
const READ_BUFFER: usize = 128 << 10;

/// The most threads decompression uses (`-T` above it, or 0 on a larger machine, means this).
/// The caller's thread reads the input, runs the frame parser, hashes the content checksum and
/// hands every byte out, in order, while the others decode blocks: that serial part is about
/// half of the sequential decoder's time per block, so decoding stops gaining near 3 threads
/// (README, "Frames on every core"), while each thread keeps two blocks and their input in
/// flight (16 MiB per thread with 4 MiB blocks).
const MAX_DECODE_THREADS: usize = 4;

/// The longest frame header: magic, FLG, BD, content size, dictionary ID, checksum.
pub const MAX_HEADER: usize = 4 + 2 + 8 + 4 + 1;

/// The block compressor a level asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compressor {
    Fast { acceleration: u32 },
    Hc { level: u8 },
}

impl Compressor {
    pub fn from_level(level: i32) -> Self {
        match level {
            i32::MIN..=-1 => Compressor::Fast {
                acceleration: level.unsigned_abs().saturating_add(1),
            },
            0 | 1 => Compressor::Fast { acceleration: 1 },
            _ => Compressor::Hc {
                level: level.min(i32::from(block::HC_LEVEL_MAX)) as u8,
            },
        }
    }
}

/// The frame options the settings ask for.
pub fn frame_options(settings: &Settings) -> FrameOptions {
    let options = FrameOptions::new()
        .block_size(settings.block_size)
        .block_mode(if settings.linked {
            BlockMode::Linked
        } else {
            BlockMode::Independent
        })
        .block_checksum(settings.block_checksum)
        .content_checksum(settings.content_checksum)
        .favor_dec_speed(settings.favor_dec_speed);
    match Compressor::from_level(settings.level) {
        Compressor::Fast { acceleration } => options.acceleration(acceleration),
        Compressor::Hc { level } => options.hc_level(Some(level)),
    }
}

/// Reads until `buf` is full or the input ends; returns how much was read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Compresses `reader` into one LZ4 frame on `writer`, as `lz4` does (see the module docs).
/// `content_size` is the input file's size when `--content-size` asked for it.
pub fn compress_frame(
    reader: &mut impl Read,
    writer: &mut impl Write,
    settings: &Settings,
    dictionary: Option<&[u8]>,
    content_size: Option<u64>,
) -> io::Result<()> {
    let options = frame_options(settings);
    // Prepared as lz4 1.10's `LZ4F_createCDict` prepares it (`LZ4_loadDictSlow`).
    let dictionary = dictionary.map(Dictionary::new_dense);
    let dictionary = dictionary.as_ref();
    let block_len = settings.block_size.bytes();
    // lz4 1.10 reads 4 MiB first: an input shorter than that is one `LZ4F_compressFrame` call.
    let mut buf = vec![0u8; BlockSize::Max4MB.bytes()];
    let first = read_full(reader, &mut buf)?;
    if first < buf.len() {
        if first > block_len && settings.linked {
            // Several linked blocks in one update: each continues the one before it in the same
            // buffer (liblz4's prefix mode), which the block-by-block stream does not give.
            let declared = content_size.filter(|&len| len > 0).map(|_| first as u64);
            let options = options.declared_content_size(declared);
            return writer.write_all(&one_update_frame(&buf[..first], options, dictionary)?);
        }
        // A size of 0 from the system (a file of `/proc`) is "unknown" to lz4 1.10: not declared.
        let options = options.content_size(content_size.is_some_and(|len| len > 0));
        // One block: independent, as `LZ4F_compressFrame` marks a frame that fits in one.
        let options = if first <= block_len {
            options.block_mode(BlockMode::Independent)
        } else {
            options
        };
        let framed = match dictionary {
            Some(dict) => frame::compress_with_prepared_dictionary(&buf[..first], dict, &options),
            None => frame::compress(&buf[..first], &options),
        };
        return writer.write_all(&framed);
    }
    let declared = content_size.filter(|&len| len > 0);
    // `-T#` (0, the default as in lz4 1.10: one thread per core). Same bytes either way.
    let threads = settings.threads.map_or(0, |n| n as usize);
    let options = options.declared_content_size(declared);
    if settings.linked {
        let chunks = LinkedChunks {
            options,
            dictionary,
            compressor: Compressor::from_level(settings.level),
            block_len,
            block_checksum: settings.block_checksum,
            content_checksum: settings.content_checksum,
            declared,
            // At most one per core and 8 (each chunk in flight holds about 8 MiB).
            threads: {
                let cores = std::thread::available_parallelism().map_or(1, usize::from);
                match threads {
                    0 => cores,
                    n => n.min(cores),
                }
                .clamp(1, 8)
            },
        };
        return chunks.compress(reader, writer, buf);
    }
    if threads == 1 {
        let mut encoder = match dictionary {
            // Independent blocks from here on: each block written is compressed apart (the
            // last, shorter one too, with auto-flush as `lz4` sets it).
            Some(dict) => FrameEncoder::with_compressor(
                writer,
                FrameCompressor::with_prepared_dictionary(options, dict).auto_flush(true),
            ),
            None => FrameEncoder::with_compressor(
                writer,
                FrameCompressor::with_options(options).auto_flush(true),
            ),
        };
        pump(reader, &mut encoder, &mut buf, block_len)?;
        encoder.finish()?;
    } else {
        // Auto-flush too: the same frames as the one-thread path for the same reads.
        let mut encoder = match dictionary {
            Some(dict) => {
                ParallelFrameEncoder::with_prepared_dictionary(writer, options, dict, threads)
            }
            None => ParallelFrameEncoder::with_options(writer, options, threads),
        }
        .auto_flush(true);
        pump(reader, &mut encoder, &mut buf, block_len)?;
        encoder.finish()?;
    }
    Ok(())
}

/// A frame of linked blocks (`-BD`) of an input of 4 MiB or more, as lz4 1.10 writes it: in
/// chunks of 4 MiB, each compressed as a new stream. The first is the frame's first update
/// (header and blocks, from the `-D` dictionary if there is one); each later one starts from the
/// previous chunk's last 64 KiB, loaded as `LZ4_loadDict` / `LZ4_loadDictHC` load a dictionary
/// right before it in memory ([`block::StreamCompressor::reset_with_history`],
/// [`block::HcStreamCompressor::reset_with_prepared_dictionary`]; the HC load also turns
/// `--favor-decSpeed` off, as in 1.10), and its blocks are made as `LZ4F_compressUpdate` makes
/// them (stored raw when the compressed block would not be shorter). Then the end mark and the
/// checksum of the whole content.
struct LinkedChunks<'d> {
    options: FrameOptions,
    dictionary: Option<&'d Dictionary>,
    compressor: Compressor,
    block_len: usize,
    block_checksum: bool,
    content_checksum: bool,
    declared: Option<u64>,
    /// How many chunks are compressed at once.
    threads: usize,
}

/// The history each later chunk starts from.
const CHUNK_HISTORY: usize = 64 << 10;

impl LinkedChunks<'_> {
    /// `buf` holds the first 4 MiB read (a whole chunk). The chunks are compressed `threads` at
    /// a time, each on its own thread (they depend on the input only), and written in order.
    fn compress(
        self,
        reader: &mut impl Read,
        writer: &mut impl Write,
        buf: Vec<u8>,
    ) -> io::Result<()> {
        let chunk_len = buf.len();
        let bound = frame::compress_bound(chunk_len, &self.options);
        let mut hasher = xxhash_rust::xxh32::Xxh32::new(0);
        let mut total = 0u64;
        let mut slots: Vec<Slot> = Vec::new();
        let mut history = vec![0u8; CHUNK_HISTORY];
        let mut first = Some(buf);
        let mut index = 0usize;
        let mut ended = false;
        while !ended {
            let mut count = 0;
            while count < self.threads && !ended {
                if slots.len() == count {
                    slots.push(Slot {
                        window: vec![0u8; CHUNK_HISTORY + chunk_len],
                        len: 0,
                        out: vec![0u8; bound],
                    });
                }
                let Slot { window, len, .. } = &mut slots[count];
                window[..CHUNK_HISTORY].copy_from_slice(&history);
                *len = match first.take() {
                    Some(buf) => {
                        window[CHUNK_HISTORY..].copy_from_slice(&buf);
                        chunk_len
                    }
                    None => read_full(reader, &mut window[CHUNK_HISTORY..])?,
                };
                let content = &window[CHUNK_HISTORY..CHUNK_HISTORY + *len];
                hasher.update(content);
                total += content.len() as u64;
                ended = *len < chunk_len;
                if !ended {
                    history.copy_from_slice(&content[chunk_len - CHUNK_HISTORY..]);
                }
                if *len > 0 {
                    count += 1;
                }
            }
            let this = &self;
            let produced: Vec<io::Result<usize>> = std::thread::scope(|scope| {
                let jobs: Vec<_> = slots[..count]
                    .iter_mut()
                    .enumerate()
                    .map(|(at, slot)| {
                        let window = &slot.window[..CHUNK_HISTORY + slot.len];
                        let out = &mut slot.out;
                        scope.spawn(move || this.chunk(index + at, window, out))
                    })
                    .collect();
                jobs.into_iter()
                    .map(|job| {
                        job.join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    })
                    .collect()
            });
            for (slot, produced) in slots.iter().zip(produced) {
                writer.write_all(&slot.out[..produced?])?;
            }
            index += count;
        }
        if let Some(declared) = self.declared.filter(|&declared| declared != total) {
            // The header would lie about the content: no frame.
            return Err(io::Error::other(
                lz4_simd::Error::FrameContentSizeMismatch {
                    declared,
                    actual: total,
                },
            ));
        }
        writer.write_all(&0u32.to_le_bytes())?;
        if self.content_checksum {
            writer.write_all(&hasher.digest().to_le_bytes())?;
        }
        Ok(())
    }

    /// Chunk `index`, `window[CHUNK_HISTORY..]` after the previous chunk's last 64 KiB, into
    /// `out`: the first is the frame's first update (its header too); each later one a new stream
    /// from the history before it.
    fn chunk(&self, index: usize, window: &[u8], out: &mut [u8]) -> io::Result<usize> {
        if index == 0 {
            return self.first_chunk(&window[CHUNK_HISTORY..], out);
        }
        let history = &window[..CHUNK_HISTORY];
        let mut stream = match self.compressor {
            Compressor::Fast { acceleration } => {
                let mut fast = block::StreamCompressor::new();
                fast.reset_with_history(history);
                ChunkStream::Fast(fast, acceleration)
            }
            Compressor::Hc { level } => {
                let mut hc = block::HcStreamCompressor::new(level);
                hc.reset_with_prepared_dictionary(&HcDictionary::new(history));
                ChunkStream::Hc(Box::new(hc))
            }
        };
        let mut produced = 0;
        for start in (CHUNK_HISTORY..window.len()).step_by(self.block_len) {
            let end = (start + self.block_len).min(window.len());
            produced += self.block(&mut stream, &window[..end], start, &mut out[produced..])?;
        }
        Ok(produced)
    }

    /// The frame's header and the first chunk's blocks: its first update.
    fn first_chunk(&self, chunk: &[u8], out: &mut [u8]) -> io::Result<usize> {
        let mut compressor = frame_compressor(self.options.clone(), self.dictionary);
        one_update(&mut compressor, chunk, out)
    }

    /// One block, `window[start..]`, into `out`: its size word, its bytes, its checksum.
    fn block(
        &self,
        stream: &mut ChunkStream,
        window: &[u8],
        start: usize,
        out: &mut [u8],
    ) -> io::Result<usize> {
        let src = &window[start..];
        // As `LZ4F_makeBlock`: room for one byte less than the input, else stored raw.
        let room = &mut out[4..4 + src.len() - 1];
        let compressed = match stream {
            ChunkStream::Fast(stream, acceleration) => {
                stream.compress_contiguous_into(window, start, room, *acceleration)
            }
            ChunkStream::Hc(stream) => stream.compress_contiguous_into(window, start, room),
        };
        let (word, len) = match compressed {
            Ok(len) => (len as u32, len),
            Err(lz4_simd::Error::OutputTooSmall { .. }) => {
                out[4..4 + src.len()].copy_from_slice(src);
                (src.len() as u32 | 1 << 31, src.len())
            }
            Err(err) => return Err(io::Error::other(err)),
        };
        out[..4].copy_from_slice(&word.to_le_bytes());
        let mut used = 4 + len;
        if self.block_checksum {
            let sum = xxhash_rust::xxh32::xxh32(&out[4..4 + len], 0);
            out[used..used + 4].copy_from_slice(&sum.to_le_bytes());
            used += 4;
        }
        Ok(used)
    }
}

/// The stream a later chunk of [`LinkedChunks`] is compressed with.
enum ChunkStream {
    Fast(block::StreamCompressor<'static>, u32),
    Hc(Box<block::HcStreamCompressor>),
}

/// A chunk of [`LinkedChunks`] in flight: the previous chunk's last 64 KiB, then the chunk
/// (`len` bytes); its compressed blocks.
struct Slot {
    window: Vec<u8>,
    len: usize,
    out: Vec<u8>,
}

/// Writes the full `buf`, then the rest of `reader`, to `encoder` a block (`block_len` bytes) a
/// write: each write is one update, compressed apart.
fn pump(
    reader: &mut impl Read,
    encoder: &mut impl Write,
    buf: &mut [u8],
    block_len: usize,
) -> io::Result<()> {
    for block in buf.chunks(block_len) {
        encoder.write_all(block)?;
    }
    let buf = &mut buf[..block_len];
    loop {
        let len = read_full(reader, buf)?;
        if len == 0 {
            return Ok(());
        }
        encoder.write_all(&buf[..len])?;
    }
}

/// `src` as `LZ4F_compressFrame` writes it: one update of the whole input, with auto-flush.
fn one_update_frame(
    src: &[u8],
    options: FrameOptions,
    dictionary: Option<&Dictionary>,
) -> io::Result<Vec<u8>> {
    let mut out = vec![0u8; frame::compress_bound(src.len(), &options)];
    let mut compressor = frame_compressor(options, dictionary);
    let mut produced = one_update(&mut compressor, src, &mut out)?;
    loop {
        let progress = compressor
            .finish(&mut out[produced..])
            .map_err(io::Error::other)?;
        produced += progress.produced;
        if progress.status != Status::OutputFull {
            break;
        }
    }
    out.truncate(produced);
    Ok(out)
}

/// The frame compressor `lz4` sets up: auto-flush, from the `-D` dictionary if there is one.
fn frame_compressor(options: FrameOptions, dictionary: Option<&Dictionary>) -> FrameCompressor {
    match dictionary {
        Some(dict) => FrameCompressor::with_prepared_dictionary(options, dict),
        None => FrameCompressor::with_options(options),
    }
    .auto_flush(true)
}

/// Gives `src` to `compressor` as one update (the calls up to the one that reports
/// `NeedInput`), into `out`, which holds the frame's bound; returns the bytes produced.
fn one_update(compressor: &mut FrameCompressor, src: &[u8], out: &mut [u8]) -> io::Result<usize> {
    let (mut input, mut produced) = (src, 0);
    loop {
        let progress = compressor
            .compress(input, &mut out[produced..])
            .map_err(io::Error::other)?;
        input = &input[progress.consumed..];
        produced += progress.produced;
        if progress.status == Status::NeedInput {
            return Ok(produced);
        }
    }
}

/// Compresses `reader` into a legacy frame (`lz4 -l`): the magic, then every 8 MiB of input as
/// one block behind its 4-byte size.
pub fn compress_legacy(
    reader: &mut impl Read,
    writer: &mut impl Write,
    settings: &Settings,
) -> io::Result<()> {
    let mut chunk = vec![0u8; frame::LEGACY_BLOCK_SIZE];
    // As lz4 1.10 compresses legacy blocks: the fast compressor below level 3 (level 2 too), at
    // acceleration N for `--fast=N` (one less than in frames); HC from level 3.
    let compressor = match settings.level {
        level @ i32::MIN..=2 => Compressor::Fast {
            acceleration: if level < 0 { level.unsigned_abs() } else { 1 },
        },
        level => Compressor::from_level(level),
    };
    let mut hc = block::HcCompressor::new();
    let mut compressed = vec![0u8; block::compress_bound(frame::LEGACY_BLOCK_SIZE)];
    writer.write_all(&frame::LEGACY_MAGIC.to_le_bytes())?;
    loop {
        let len = read_full(reader, &mut chunk)?;
        if len == 0 {
            return Ok(());
        }
        match compressor {
            Compressor::Fast { acceleration } => {
                // The library writes a whole legacy frame; its blocks follow the 4-byte magic.
                let framed = frame::compress_legacy(&chunk[..len], acceleration);
                writer.write_all(&framed[4..])?;
            }
            Compressor::Hc { level } => {
                let n = hc
                    .compress_into(&chunk[..len], &mut compressed, level)
                    .map_err(io::Error::other)?;
                writer.write_all(&(n as u32).to_le_bytes())?;
                writer.write_all(&compressed[..n])?;
            }
        }
        if len < chunk.len() {
            return Ok(());
        }
    }
}

/// Whether `word` (read little-endian) starts a frame: LZ4, legacy or skippable.
pub fn is_magic(word: u32) -> bool {
    word == frame::MAGIC
        || word == frame::LEGACY_MAGIC
        || word & 0xFFFF_FFF0 == frame::SKIPPABLE_MAGIC
}

/// The threads decoding uses for `-T` `requested` (0: one per core): at most
/// [`MAX_DECODE_THREADS`].
pub fn decode_threads(requested: usize) -> usize {
    match requested {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
    .min(MAX_DECODE_THREADS)
}

/// Decompresses every frame of `reader` onto `writer`. With a dictionary, frames are decoded
/// with it whatever dictionary ID the first frame's header holds (`lz4` writes none and checks
/// none). With `pass_through` (`lz4 -dcf`), an input that does not start with a frame magic
/// number is copied as it is.
///
/// On more than one thread (`threads`, from [`decode_threads`]), the blocks of
/// independent-block frames are decoded ahead on the others ([`ParallelFrameDecoder`]); the
/// content and every error are the sequential decoder's. The caller passes 1 for a reader that
/// may wait for its input (a pipe): reading ahead waits for more input before a block that has
/// arrived is handed out.
pub fn decompress_frames(
    mut reader: impl Read,
    writer: &mut impl Write,
    dictionary: Option<&[u8]>,
    pass_through: bool,
    threads: usize,
) -> io::Result<u64> {
    // The first frame header, read whole even from a pipe that delivers it in pieces.
    let mut head = [0u8; MAX_HEADER];
    let head_len = read_full(&mut reader, &mut head)?;
    let head = &head[..head_len];
    let reader = BufReader::with_capacity(READ_BUFFER, head.chain(reader));
    let starts_frame = head
        .first_chunk()
        .is_some_and(|word| is_magic(u32::from_le_bytes(*word)));
    if pass_through && head.len() >= 4 && !starts_frame {
        let mut reader = reader;
        return io::copy(&mut reader, writer);
    }
    // `-D`: the dictionary serves every frame, whatever ID its header names, as in `lz4`. A
    // legacy frame may end with a kernel image's size trailer or zero padding, and more legacy
    // frames may follow the padding (as the kernel reads images and initrds).
    if threads > 1 {
        let decoder = match dictionary {
            Some(dict) => ParallelFrameDecoder::with_any_dictionary(reader, dict, threads),
            None => ParallelFrameDecoder::new(reader, threads),
        };
        return hand_out(&mut decoder.kernel_trailer(true), writer);
    }
    let decompressor = match dictionary {
        Some(dict) => FrameDecompressor::with_any_dictionary(dict),
        None => FrameDecompressor::new(),
    };
    let mut decoder = FrameDecoder::with_decompressor(reader, decompressor.kernel_trailer(true));
    hand_out(&mut decoder, writer)
}

/// The most content written in one call: Zen 4's L2 cache, so the content checksum hashes what
/// the write just read (to a file or a pipe, the kernel's copy) from the L2; as large as the
/// output's buffer, so that it is written without a copy into it.
const HAND_OUT_PIECE: usize = 1 << 20;

/// Writes the decoded content onto `writer` straight from the decoder's buffers, a piece at a
/// time; the decoder hashes each piece for the content checksum once it is written
/// (`BufRead::consume`). `io::copy` would copy the content twice more on the caller's thread,
/// into its buffer and then into the writer's.
fn hand_out(decoder: &mut impl BufRead, writer: &mut impl Write) -> io::Result<u64> {
    let mut total = 0u64;
    loop {
        let content = decoder.fill_buf()?;
        if content.is_empty() {
            return Ok(total);
        }
        let len = content.len().min(HAND_OUT_PIECE);
        writer.write_all(&content[..len])?;
        decoder.consume(len);
        total += len as u64;
    }
}

/// The whole input if it is at most `max` bytes long; otherwise an `InputTooLarge` error with
/// its length (counted, not kept: memory stays bounded by `max` whatever the input).
pub(crate) fn read_at_most(reader: &mut impl Read, max: usize) -> io::Result<Vec<u8>> {
    let mut data = Vec::new();
    reader.take(max as u64).read_to_end(&mut data)?;
    let rest = io::copy(reader, &mut io::sink())?;
    if rest > 0 {
        return Err(too_large(data.len(), rest));
    }
    Ok(data)
}

fn too_large(kept: usize, rest: u64) -> io::Error {
    io::Error::other(lz4_simd::Error::InputTooLarge {
        len: usize::try_from((kept as u64).saturating_add(rest)).unwrap_or(usize::MAX),
        max: kept,
    })
}

/// `--block`: compresses the whole input as one size-prepended block (a 4-byte little-endian
/// size, then the block), at any level.
pub fn compress_prepended(
    reader: &mut impl Read,
    writer: &mut impl Write,
    settings: &Settings,
) -> io::Result<()> {
    let data = read_at_most(reader, block::MAX_INPUT_SIZE)?;
    let len = u32::try_from(data.len()).map_err(io::Error::other)?;
    let mut out = vec![0u8; block::compress_bound(data.len())];
    let n = match Compressor::from_level(settings.level) {
        Compressor::Fast { acceleration } => block::compress_into(&data, &mut out, acceleration),
        Compressor::Hc { level } => block::compress_hc_into(&data, &mut out, level),
    }
    .map_err(io::Error::other)?;
    writer.write_all(&len.to_le_bytes())?;
    writer.write_all(&out[..n])
}

/// `--block -d`: decompresses one size-prepended block of at most `max_out` bytes.
pub fn decompress_prepended(
    reader: &mut impl Read,
    writer: &mut impl Write,
    max_out: usize,
) -> io::Result<u64> {
    // No valid block decoding to at most `max_out` bytes is longer than its bound.
    let bound = block::compress_bound(max_out.min(block::MAX_INPUT_SIZE));
    let data = read_at_most(reader, 4 + bound)?;
    let decoded = block::decompress_size_prepended(&data, max_out).map_err(io::Error::other)?;
    writer.write_all(&decoded)?;
    Ok(decoded.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_map_as_lz4_maps_them() {
        assert_eq!(
            Compressor::from_level(-3),
            Compressor::Fast { acceleration: 4 }
        );
        assert_eq!(
            Compressor::from_level(0),
            Compressor::Fast { acceleration: 1 }
        );
        assert_eq!(
            Compressor::from_level(1),
            Compressor::Fast { acceleration: 1 }
        );
        assert_eq!(Compressor::from_level(2), Compressor::Hc { level: 2 });
        assert_eq!(Compressor::from_level(99), Compressor::Hc { level: 12 });
    }

    #[test]
    fn block_mode_keeps_at_most_one_block_in_memory() {
        let too_large = |result: io::Result<Vec<u8>>| {
            let err = result.unwrap_err();
            err.get_ref()
                .and_then(|inner| inner.downcast_ref::<lz4_simd::Error>())
                .cloned()
        };
        assert_eq!(read_at_most(&mut &[7u8; 4][..], 4).unwrap(), [7u8; 4]);
        assert_eq!(
            too_large(read_at_most(&mut &[7u8; 10][..], 4)),
            Some(lz4_simd::Error::InputTooLarge { len: 10, max: 4 })
        );
        // A size-prepended input longer than any block of `max_out` bytes is refused whole.
        let mut long = block::compress_prepend_size(&[1u8; 100]).unwrap();
        long.extend([0u8; 1000]);
        let err = decompress_prepended(&mut &long[..], &mut Vec::new(), 100).unwrap_err();
        assert!(err.to_string().contains("larger than"), "{err}");
    }

    #[test]
    fn prepended_block_matches_library_at_level_1() {
        let settings = Settings::default();
        for (_, sample) in crate::samples::generated(64 * 1024) {
            let mut out = Vec::new();
            compress_prepended(&mut &sample[..], &mut out, &settings).unwrap();
            assert_eq!(out, block::compress_prepend_size(&sample).unwrap());
            let mut back = Vec::new();
            decompress_prepended(&mut &out[..], &mut back, sample.len()).unwrap();
            assert!(back == sample);
        }
    }
}
