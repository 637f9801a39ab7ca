//! Compresses arbitrary data into frames with options taken from the input and checks every
//! round trip: one-shot and streaming encoders (written in uneven pieces, with a flush), one-shot
//! and streaming decoders, with and without a dictionary; the frame's header says what the
//! options asked for.
//!
//! Input layout: two option bytes, a write-size byte, then the data (its first part doubles as
//! the dictionary when one is selected).
#![no_main]

use std::io::{Read, Write};

use libfuzzer_sys::fuzz_target;
use lz4_simd::frame::{self, BlockMode, BlockSize, FrameDecoder, FrameEncoder, FrameOptions};
use lz4_simd_fuzz::{Bytes, Trickle};

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let flags = bytes.u8();
    let more = bytes.u8();
    let piece = usize::from(bytes.u8()) * 31 + 1;
    let data = bytes.rest();

    let block_size = BlockSize::ALL[usize::from(flags & 3)];
    let block_mode = if flags & 4 != 0 {
        BlockMode::Linked
    } else {
        BlockMode::Independent
    };
    let use_dict = flags & 0x40 != 0;
    let options = FrameOptions::new()
        .block_size(block_size)
        .block_mode(block_mode)
        .content_checksum(flags & 8 != 0)
        .block_checksum(flags & 16 != 0)
        .content_size(flags & 32 != 0)
        .dict_id(use_dict.then_some(u32::from(more)))
        .acceleration(u32::from(more >> 4) + 1);
    let dict_len = if use_dict { data.len() / 3 } else { 0 };
    let (dict, data) = data.split_at(dict_len);

    let decode_one_shot = |framed: &[u8]| {
        if use_dict {
            frame::decompress_with_dictionary(framed, dict, u32::from(more), data.len())
        } else {
            frame::decompress(framed, data.len())
        }
    };
    let decode_streaming = |framed: &[u8]| {
        let reader = Trickle {
            data: framed,
            chunk: piece,
        };
        let mut out = Vec::new();
        if use_dict {
            FrameDecoder::with_dictionary(reader, dict, u32::from(more)).read_to_end(&mut out)
        } else {
            FrameDecoder::new(reader).read_to_end(&mut out)
        }
        .map(|_| out)
    };

    let framed = frame::compress_with_dictionary(data, dict, &options);
    let info = frame::read_frame_info(&framed).expect("our header does not parse");
    assert_eq!(info.block_checksum, flags & 16 != 0);
    assert_eq!(info.content_checksum, flags & 8 != 0);
    assert_eq!(info.dict_id, use_dict.then_some(u32::from(more)));
    if flags & 32 != 0 && !data.is_empty() {
        assert_eq!(info.content_size, Some(data.len() as u64));
    }
    assert!(info.block_size <= block_size);
    assert_eq!(
        decode_one_shot(&framed).as_deref(),
        Ok(data),
        "one-shot round trip"
    );
    assert!(
        decode_streaming(&framed).unwrap() == data,
        "streaming round trip"
    );

    let mut encoder =
        FrameEncoder::with_dictionary(Vec::new(), options.clone().content_size(false), dict);
    for (i, chunk) in data.chunks(piece).enumerate() {
        encoder.write_all(chunk).unwrap();
        if i == 3 {
            encoder.flush().unwrap();
        }
    }
    let streamed = encoder.finish().unwrap();
    assert_eq!(
        decode_one_shot(&streamed).as_deref(),
        Ok(data),
        "streamed frame, one-shot"
    );
    assert!(
        decode_streaming(&streamed).unwrap() == data,
        "streamed frame, streaming"
    );

    // Without the dictionary such a frame is refused, not mis-decoded.
    if use_dict {
        assert!(frame::decompress(&framed, data.len()).is_err());
    }
});
