//! Robustness: corpus files cut at pseudo-random points (and a few
//! mangled ones) must load or fail with an error, never panic; a model
//! that loads is explored a few steps, which must not panic either.

mod common;

use pins::Model;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn try_model(text: &str, label: &str) {
    if let Ok(m) = mcrl2::parse_str(text, label) {
        let mut frontier = vec![m.initial_state()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for s in frontier.iter().take(20) {
                let _ = m.next_all(s, &mut |_, t| next.push(t.to_vec()));
            }
            frontier = next;
        }
    }
}

#[test]
fn truncated_corpus_files_never_panic() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let mut files: Vec<_> = std::fs::read_dir(dir.join("lps"))
        .expect("list lps")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut tried = 0;
    for p in files {
        let text = std::fs::read_to_string(&p).expect("read");
        if text.len() > 200_000 {
            continue; // the large files cost time, not coverage
        }
        let label = p.display().to_string();
        for _ in 0..4 {
            let mut cut = (rng.next() % (text.len() as u64 + 1)) as usize;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            try_model(&text[..cut], &label);
            // The same cut with the rest of the file after a deleted span.
            let skip = (cut + 1 + (rng.next() % 40) as usize).min(text.len());
            if text.is_char_boundary(skip) {
                try_model(&format!("{}{}", &text[..cut], &text[skip..]), &label);
            }
            tried += 2;
        }
    }
    eprintln!("{tried} mangled files loaded or refused without a panic");
}
