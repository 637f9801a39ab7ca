//! Many small, similar messages (JSON events here) compress poorly one by one: a block of a few
//! hundred bytes has little history to match against. A dictionary of typical content, prepared
//! once and shared by both sides, gives every message that history.
//!
//! ```sh
//! cargo run --release --example small_messages_dictionary
//! ```

use lz4_simd::block::{self, Compressor, Dictionary};

/// One message, as a service might send it.
fn message(i: u32) -> String {
    format!(
        r#"{{"id":{i},"type":"order.created","customer":{{"id":"c-{:05}","tier":"gold"}},"items":[{{"sku":"SKU-{:04}","qty":{}}}],"currency":"EUR","status":"pending"}}"#,
        i * 7 % 10_000,
        i * 13 % 1000,
        i % 5 + 1
    )
}

fn main() -> Result<(), lz4_simd::Error> {
    // The dictionary: samples of real traffic (only its last 64 KiB count). Both sides must use
    // the same bytes: store or version them with the data.
    let samples: String = (10_000..10_050).map(message).collect();
    // Prepared once (a pass over the bytes and a table), reused for every message.
    let dict = Dictionary::new(samples.as_bytes());
    // A compressor reused across messages allocates nothing per call.
    let mut compressor = Compressor::new();

    let (mut raw, mut plain, mut with_dict) = (0, 0, 0);
    let mut out = vec![0u8; block::compress_bound(4096)];
    for i in 0..1000 {
        let msg = message(i);
        let msg = msg.as_bytes();
        raw += msg.len();

        // Without the dictionary.
        plain += block::compress(msg)?.len();

        // With it; the decoder needs the same dictionary bytes and a cap on the output size.
        let n = compressor.compress_into_with_prepared_dictionary(msg, &mut out, &dict, 1)?;
        with_dict += n;
        let back = block::decompress_with_dictionary(&out[..n], dict.as_bytes(), 4096)?;
        assert_eq!(back, msg);
    }

    println!("1000 messages, {raw} bytes");
    println!(
        "  without a dictionary: {plain} bytes ({:.2}x)",
        ratio(raw, plain)
    );
    println!(
        "  with a dictionary:    {with_dict} bytes ({:.2}x)",
        ratio(raw, with_dict)
    );
    Ok(())
}

fn ratio(raw: usize, compressed: usize) -> f64 {
    raw as f64 / compressed as f64
}
