//! The engine child's resident set beyond its engine: the allocator's
//! handling of large blocks, and the pages of code that only loading the
//! model ran. Both count in the peak RSS a child measures (`VmHWM`). Owns
//! only these process-wide settings; must not know engines or models.
//!
//! - Large blocks ([`settle_allocator`]): glibc's malloc serves a block of
//!   at least its mmap threshold with its own mapping, given back to the
//!   kernel when freed; but the threshold rises to the largest block
//!   freed so far (up to 32 MiB), after which such blocks come from the
//!   heap, whose freed middle stays resident. A search frees large blocks
//!   all along (a Cleary table's array when it doubles or is re-keyed, a
//!   node table's when it grows), so the heap kept dead arrays beside live
//!   ones (frogs.3: peak RSS 8688 -> 7956 KiB with the threshold fixed).
//! - Code run once ([`release_loading_code`]): a model's loading runs the
//!   front-end's parser and checks, and an engine's set-up may run more
//!   (the `sample` slot order explores and scores a sample), whose code
//!   pages (and the C library's, the loader's) stay mapped, resident, in
//!   64 KiB windows around each page touched. Once the model is loaded,
//!   again once the engine starts its search, and once more when the
//!   search ends (before the report's code runs beside the full tables),
//!   the pages of every read-only file mapping with no private copy are
//!   dropped (`MADV_DONTNEED`): the search faults back in only the code it runs,
//!   from the same files (file-backed pages at the peak, frogs.3: 3244
//!   -> 2096 KiB with the drop after loading alone). Which mappings
//!   qualify is read from `smaps` once, at the child's start, before the
//!   page-by-page split multiplies them (`DROPPABLE`).
//! - Code mapped page by page ([`map_files_page_by_page`]): on a page
//!   fault in a file mapping the kernel maps up to 16 pages (64 KiB) of
//!   the file around the page touched (fault-around), within the mapping
//!   only, so a search that runs a few functions here and there has whole
//!   64 KiB windows of its binary and of libc resident. `MADV_RANDOM` on
//!   every other page of each private read-only file mapping gives
//!   neighbouring pages different flags, which the kernel keeps in
//!   separate mappings of one page each: a fault then maps its own page
//!   only. Before anything is loaded, once. Peak RSS, compact-tree, one
//!   run each: extinction.2 5412-5472 -> 4156-4172 KiB, frogs.3 4268 ->
//!   3132, brp.3 5444 -> 4084, schedule_world.2 3240 -> 2608 (the code
//!   alone split: extinction.2 4400-4420). It costs a few hundred more
//!   page faults a run.
//! - Free heap ([`release_free_heap`]): the blocks below the mmap
//!   threshold that loading, the engine's set-up and the search free
//!   (a node table's bucket array each time it grows) stay resident in
//!   the heap's middle, where malloc cannot shrink it; `malloc_trim`
//!   gives their whole pages back (extinction.2: 342 KiB free of an
//!   828 KiB heap at the end of the search).

use std::io::BufRead;
use std::sync::OnceLock;

/// Blocks of at least this many bytes get a mapping of their own, given
/// back when freed (the threshold no longer rises).
const MMAP_THRESHOLD: i32 = 64 << 10;

/// Fixes malloc's mmap threshold (module doc).
pub fn settle_allocator() {
    // SAFETY: mallopt takes two integers and changes only the allocator's
    // parameters; it is called before the child allocates anything large.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Gives the whole free pages of malloc's heap back to the kernel
/// (module doc); a page is read back as zeros when a block reuses it.
pub fn release_free_heap() {
    // SAFETY: malloc_trim only returns free memory of the allocator's own
    // heap (no live block is touched); it takes the allocator's lock.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The address range of one mapping of `/proc/self/maps` or `smaps`.
#[derive(Debug, PartialEq, Eq)]
struct Mapping {
    start: usize,
    end: usize,
}

/// The range of a `maps` or `smaps` header line, and whether the mapping
/// is a private read-only mapping of a file; `None` for any other line.
fn mapping_header(line: &str) -> Option<(Mapping, bool)> {
    let mut fields = line.split_whitespace();
    let (start, end) = fields.next()?.split_once('-')?;
    let start = usize::from_str_radix(start, 16).ok()?;
    let end = usize::from_str_radix(end, 16).ok()?;
    let perms = fields.next().unwrap_or("");
    let inode = fields.nth(2).unwrap_or("0");
    let file = inode != "0" && fields.next().is_some_and(|p| p.starts_with('/'));
    let read_only = perms.len() == 4 && !perms.contains('w') && !perms.ends_with('s');
    Some((Mapping { start, end }, file && read_only))
}

/// Splits every private read-only file mapping into mappings of one page
/// (module doc); the pages advised.
pub fn map_files_page_by_page() -> usize {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
        return 0;
    };
    // SAFETY: sysconf reads a constant of the system; no memory is passed.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        p if p > 0 => p as usize,
        _ => return 0,
    };
    let mut advised = 0;
    for (m, _) in maps.lines().filter_map(mapping_header).filter(|h| h.1) {
        // The pages of even number: advising them again (a second call,
        // or a mapping already split) keeps every other page apart, where
        // advising each mapping's first page would merge one-page
        // mappings back into one.
        let first = m.start + (m.start / page) % 2 * page;
        for p in (first..m.end).step_by(2 * page) {
            // SAFETY: [p, p + page) lies in one mapping of this process
            // (its range is page-aligned). MADV_RANDOM only sets a
            // read-ahead flag on the page: nothing is written, freed or
            // unmapped, and the code or data there stays readable.
            let r = unsafe { libc::madvise(p as *mut libc::c_void, page, libc::MADV_RANDOM) };
            advised += usize::from(r == 0);
        }
    }
    advised
}

/// The mappings of an smaps text that are file-backed, not writable and
/// hold no private (written, or anonymous) page: their resident pages
/// are exactly their file's bytes.
fn droppable(smaps: impl BufRead) -> Vec<Mapping> {
    let mut out = Vec::new();
    // The mapping being read: its range, and whether it still qualifies.
    let mut current: Option<(Mapping, bool)> = None;
    let mut close = |current: &mut Option<(Mapping, bool)>| {
        if let Some((m, true)) = current.take() {
            out.push(m);
        }
    };
    for line in smaps.lines().map_while(Result::ok) {
        if let Some(header) = mapping_header(&line) {
            close(&mut current);
            current = Some(header);
            continue;
        }
        let mut fields = line.split_whitespace();
        let first = fields.next().unwrap_or("");
        if matches!(first, "Private_Dirty:" | "Anonymous:" | "Swap:") {
            let kib = fields.next().unwrap_or("1");
            if kib != "0" {
                if let Some((_, ok)) = current.as_mut() {
                    *ok = false;
                }
            }
        }
    }
    close(&mut current);
    out
}

/// The droppable mappings (module doc), read from `smaps` at the first
/// call and kept: a read-only mapping cannot gain a private page, and the
/// mappings there at the child's start (its binary, the libraries it was
/// started with) are never unmapped. Later calls read no `smaps`, whose
/// text grows with the one-page mappings (about 90M instructions a read
/// once the files are mapped page by page: peterson.2's whole
/// hash-table search took 538M).
static DROPPABLE: OnceLock<Vec<Mapping>> = OnceLock::new();

/// The droppable mappings as ranges, the ones that touch joined.
fn droppable_ranges() -> &'static [Mapping] {
    DROPPABLE.get_or_init(|| match std::fs::File::open("/proc/self/smaps") {
        Ok(file) => joined(droppable(std::io::BufReader::new(file))),
        Err(_) => Vec::new(),
    })
}

/// Mappings in address order with each run of touching ones made one
/// range (one `madvise` for a run of one-page mappings).
fn joined(mappings: Vec<Mapping>) -> Vec<Mapping> {
    let mut out: Vec<Mapping> = Vec::with_capacity(mappings.len());
    for m in mappings {
        match out.last_mut() {
            Some(last) if last.end == m.start => last.end = m.end,
            _ => out.push(m),
        }
    }
    out
}

/// Drops the resident pages of the read-only file mappings that hold no
/// private page (module doc); the bytes of the ranges advised.
pub fn release_loading_code() -> usize {
    let mut bytes = 0;
    for m in droppable_ranges() {
        // SAFETY: the range is mapped by this process, every page of it
        // read-only from a file and without a private page, so its pages
        // are the file's: dropping them loses nothing, the next access
        // reads them back. No code writes to it (it is not writable), and
        // it is never unmapped (`DROPPABLE`: the child maps and unmaps no
        // file).
        let r = unsafe {
            libc::madvise(
                m.start as *mut libc::c_void,
                m.end - m.start,
                libc::MADV_DONTNEED,
            )
        };
        if r == 0 {
            bytes += m.end - m.start;
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMAPS: &str = "\
00200000-002f0000 r--p 00000000 08:01 123 /bin/child
Rss:                 320 kB
Private_Dirty:         0 kB
Anonymous:             0 kB
002f0000-00696000 r-xp 000ef000 08:01 123 /bin/child
Private_Dirty:         0 kB
Anonymous:             0 kB
00696000-006ae000 r--p 00495000 08:01 123 /bin/child
Private_Dirty:        96 kB
Anonymous:            96 kB
006ae000-006b0000 rw-p 004ac000 08:01 123 /bin/child
Private_Dirty:         8 kB
27d57000-27f5f000 rw-p 00000000 00:00 0 [heap]
Private_Dirty:      2056 kB
7fa857dd9000-7fa857ddc000 rw-p 00000000 00:00 0
Private_Dirty:         8 kB
7fa857e02000-7fa857f58000 r-xp 00028000 08:01 77 /usr/lib/libc.so.6
Private_Dirty:         0 kB
Anonymous:             0 kB
7fa857fab000-7fa857faf000 r--p 001d2000 08:01 77 /usr/lib/libc.so.6
Private_Dirty:        16 kB
7fa857fef000-7fa857ff1000 r-xp 00000000 00:00 0 [vdso]
Private_Dirty:         0 kB
7fa858000000-7fa858001000 r--s 00000000 08:01 88 /dev/shm/x
Private_Dirty:         0 kB
";

    #[test]
    fn only_clean_read_only_file_mappings_are_dropped() {
        let found = droppable(SMAPS.as_bytes());
        let starts: Vec<usize> = found.iter().map(|m| m.start).collect();
        // rodata and code of the binary, code of libc; not relocated
        // read-only data (private pages), writable data, the heap,
        // anonymous memory, the vdso or a shared mapping.
        assert_eq!(starts, [0x0020_0000, 0x002f_0000, 0x7fa8_57e0_2000]);
        assert_eq!(found[1].end, 0x0069_6000);
    }

    #[test]
    fn touching_mappings_are_joined() {
        let m = |start, end| Mapping { start, end };
        let runs = joined(vec![
            m(0x1000, 0x2000),
            m(0x2000, 0x3000),
            m(0x5000, 0x6000),
        ]);
        assert_eq!(runs, [m(0x1000, 0x3000), m(0x5000, 0x6000)]);
        assert!(joined(Vec::new()).is_empty());
    }

    /// This process's mappings.
    fn mappings() -> usize {
        std::fs::read_to_string("/proc/self/maps").map_or(0, |m| m.lines().count())
    }

    #[test]
    fn headers_of_maps_lines_are_read() {
        let (m, ok) =
            mapping_header("002f0000-00696000 r-xp 000ef000 08:01 123 /bin/child").unwrap();
        assert_eq!((m.start, m.end, ok), (0x2f_0000, 0x69_6000, true));
        let heap = mapping_header("27d57000-27f5f000 rw-p 00000000 00:00 0 [heap]").unwrap();
        assert!(!heap.1);
        let shared = mapping_header("7fa858000000-7fa858001000 r--s 00000000 08:01 88 /dev/shm/x");
        assert!(!shared.unwrap().1);
        assert!(mapping_header("Rss:                 320 kB").is_none());
    }

    #[test]
    fn files_mapped_page_by_page_still_run_and_drop() {
        let before = mappings();
        let advised = map_files_page_by_page();
        assert!(
            advised > 0,
            "the test binary's code is a private read-only file mapping"
        );
        // Neighbouring pages with different flags are separate mappings.
        assert!(
            mappings() > before + advised / 2,
            "{before} mappings, {advised} pages advised"
        );
        let split = mappings();
        map_files_page_by_page();
        assert!(mappings() >= split, "a second call merged mappings back");
        let squares: Vec<u64> = (0..1000u64).map(|i| i * i).collect();
        assert!(release_loading_code() > 0);
        assert_eq!(
            squares.iter().sum::<u64>(),
            (0..1000u64).map(|i| i * i).sum::<u64>()
        );
        assert_eq!(format!("{:?}", &squares[..3]), "[0, 1, 4]");
    }

    #[test]
    fn dropped_code_is_read_back_and_runs() {
        settle_allocator();
        let before: Vec<u64> = (0..1000u64).map(|i| i * i).collect();
        let dropped = release_loading_code();
        assert!(dropped > 0, "the test binary's code is a clean mapping");
        // Code and read-only data of this binary and of libc run again.
        let after: Vec<u64> = (0..1000u64).map(|i| i * i).collect();
        assert_eq!(before, after);
        assert_eq!(format!("{:?}", &after[..3]), "[0, 1, 4]");
        let big = vec![7u8; 1 << 20];
        assert_eq!(big.iter().map(|&b| b as u64).sum::<u64>(), 7 << 20);
    }
}
