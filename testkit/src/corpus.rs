//! The Silesia corpus: the `*.zip` files in `LZ4_SIMD_CORPUS` (or in `corpus/` at the
//! repository root, which git ignores), unzipped in memory. Absent files are not an error:
//! callers fall back to generated data ([`crate::samples`]) or skip, with a notice.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The directory holding the Silesia `*.zip` files: `LZ4_SIMD_CORPUS` if set, else `corpus/` at
/// the repository root.
pub fn dir() -> PathBuf {
    match std::env::var_os("LZ4_SIMD_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus"),
    }
}

/// The files of the zip archive at `path` as (name without folders, first `cap` bytes).
pub fn read_zip(path: &Path, cap: usize) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path)?)?;
    let mut files = Vec::new();
    for i in 0..archive.len() {
        let entry = archive.by_index(i)?;
        if entry.is_dir() {
            continue;
        }
        let name = entry
            .name()
            .map_err(std::io::Error::other)?
            .rsplit('/')
            .next()
            .unwrap_or("corpus")
            .to_string();
        let mut data = Vec::with_capacity(entry.size().min(cap as u64) as usize);
        entry.take(cap as u64).read_to_end(&mut data)?;
        files.push((name, data));
    }
    Ok(files)
}

/// Every file of every `*.zip` in [`dir()`] (in name order) as (name, first `cap` bytes); empty
/// when the folder is absent. Panics on an unreadable archive.
pub fn load(cap: usize) -> Vec<(String, Vec<u8>)> {
    let dir = dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut zips: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "zip"))
        .collect();
    zips.sort();
    zips.iter()
        .flat_map(|path| {
            read_zip(path, cap)
                .unwrap_or_else(|err| panic!("corpus archive {}: {err}", path.display()))
        })
        .collect()
}

/// The first file of `<dir()>/<name>.zip` (e.g. `dickens`), its first `cap` bytes; `None` when
/// the archive is absent or unreadable.
pub fn file(name: &str, cap: usize) -> Option<Vec<u8>> {
    let files = read_zip(&dir().join(format!("{name}.zip")), cap).ok()?;
    files.into_iter().next().map(|(_, data)| data)
}

/// The whole corpus, unzipped once per process ([`load`] without a cap). Empty, with a notice on
/// stderr, when the corpus is absent.
pub fn all() -> &'static [(String, Vec<u8>)] {
    static CORPUS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let files = load(usize::MAX);
        if files.is_empty() {
            let dir = dir();
            let what = if dir.is_dir() {
                "no corpus files in"
            } else {
                "corpus folder absent:"
            };
            eprintln!("NOTICE: {what} {}; skipping Silesia cases", dir.display());
        }
        files
    })
}
