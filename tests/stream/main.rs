//! `block::StreamCompressor` and `block::StreamDecoder` (linked blocks) against liblz4 1.10's
//! streaming API, in one test binary.
//!
//! - `layouts`: the C layouts the API documents (saved history, contiguous buffers, attached
//!   dictionaries), the decoder's ring and external-dictionary forms.
//! - `adversarial`: every destination size, foreign histories, resets mid-stream, the window
//!   edge.

mod adversarial;
mod layouts;
