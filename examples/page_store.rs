//! A page store: data cut into fixed-size pages, each compressed as one LZ4 block, so any page
//! can be read without the others. A reader that needs only the start of a page (a header, the
//! first records) decodes just that prefix with `block::decompress_partial`: the work is
//! proportional to the prefix, not the page.
//!
//! ```sh
//! cargo run --release --example page_store
//! ```

use std::error::Error;

use lz4_simd::block;

const PAGE_SIZE: usize = 16 * 1024;

/// Compressed pages; a page's decompressed size is `PAGE_SIZE` (the last page's is kept apart).
struct PageStore {
    pages: Vec<Vec<u8>>,
    last_len: usize,
}

impl PageStore {
    fn new(data: &[u8]) -> Result<Self, lz4_simd::Error> {
        let pages = data
            .chunks(PAGE_SIZE)
            .map(block::compress)
            .collect::<Result<_, _>>()?;
        let last_len = match data.len() % PAGE_SIZE {
            0 if !data.is_empty() => PAGE_SIZE,
            rest => rest,
        };
        Ok(Self { pages, last_len })
    }

    fn page_len(&self, index: usize) -> usize {
        if index + 1 == self.pages.len() {
            self.last_len
        } else {
            PAGE_SIZE
        }
    }

    /// A whole page. The size cap makes a corrupt page an error, never a large allocation.
    fn read_page(&self, index: usize) -> Result<Vec<u8>, Box<dyn Error>> {
        let expected = self.page_len(index);
        let page = block::decompress(&self.pages[index], expected)?;
        // A page that decodes to fewer bytes than stored is damaged too.
        if page.len() != expected {
            return Err(format!("page {index}: {} bytes, expected {expected}", page.len()).into());
        }
        Ok(page)
    }

    /// The first `buf.len()` bytes of a page (fewer if the page is shorter); returns how many.
    fn read_prefix(&self, index: usize, buf: &mut [u8]) -> Result<usize, lz4_simd::Error> {
        block::decompress_partial(&self.pages[index], buf)
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    // Records of 64 bytes, each starting with its number.
    let data: Vec<u8> = (0..10_000u32)
        .flat_map(|i| format!("record {i:06}: {:-<48}\n", i % 97).into_bytes())
        .collect();
    let store = PageStore::new(&data)?;
    let stored: usize = store.pages.iter().map(Vec::len).sum();
    println!(
        "{} bytes in {} pages of {PAGE_SIZE}: {stored} bytes compressed",
        data.len(),
        store.pages.len()
    );

    // The first record of page 5, without decoding the rest of the page.
    let mut head = [0u8; 64];
    let n = store.read_prefix(5, &mut head)?;
    assert_eq!(&head[..n], &data[5 * PAGE_SIZE..5 * PAGE_SIZE + n]);
    println!(
        "page 5 starts with {:?}",
        String::from_utf8_lossy(&head[..n]).trim_end()
    );

    // A whole page, and the last (shorter) one.
    let last = store.pages.len() - 1;
    assert_eq!(store.read_page(5)?, data[5 * PAGE_SIZE..6 * PAGE_SIZE]);
    assert_eq!(store.read_page(last)?, data[last * PAGE_SIZE..]);
    println!("pages 5 and {last} read back whole, identical");
    Ok(())
}
