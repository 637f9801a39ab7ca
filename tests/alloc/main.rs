//! What the decoders allocate, under one global allocator (`allocator`): it records per thread
//! the largest allocation (`testkit::alloc::LargestAllocation`, which it wraps), counts live
//! bytes and their peak while a measurement runs, and refuses allocations above a limit set
//! for the current thread.
//!
//! - `cap`: every frame and block decode API allocates within the caller's cap.
//! - `block`: the block decoders' `Vec` operations on sizes a 32-bit target cannot address.
//! - `read_to_end_oom`: `read_to_end` into a `Vec` that cannot grow.

mod allocator;
mod block;
mod cap;
mod read_to_end_oom;
