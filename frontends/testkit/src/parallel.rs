//! Running a corpus test's independent models on every core: `cargo test`
//! runs test binaries one after the other, so a binary with one long test
//! would otherwise leave all cores but one idle. Owns only the work
//! distribution and the time bound; what is done per model and how
//! results are judged stay in the test.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// `f` applied to every item, on up to `available_parallelism` threads
/// taking the next item as they become free; the results come back in the
/// items' order. A panic in `f` propagates.
pub fn map<T, R, F>(items: Vec<T>, f: F) -> Vec<R>
where
    T: Send + Sync + 'static,
    R: Send + 'static,
    F: Fn(&T) -> R + Send + Sync + 'static,
{
    map_within(items, None, f)
        .into_iter()
        .map(|r| r.expect("no time bound: every item mapped"))
        .collect()
}

/// Like [`map`], but gives up waiting once `bound` has passed since the
/// start: the items not finished by then are `None` (no new item starts
/// after the bound; one still running is left to finish in the
/// background, and the test process ends it when it exits).
pub fn map_within<T, R, F>(items: Vec<T>, bound: Option<Duration>, f: F) -> Vec<Option<R>>
where
    T: Send + Sync + 'static,
    R: Send + 'static,
    F: Fn(&T) -> R + Send + Sync + 'static,
{
    let n = items.len();
    let threads = std::thread::available_parallelism().map_or(1, |c| c.get());
    let (items, f) = (Arc::new(items), Arc::new(f));
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    for _ in 0..threads.min(n) {
        let (items, f, next, stop, tx) = (
            items.clone(),
            f.clone(),
            next.clone(),
            stop.clone(),
            tx.clone(),
        );
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                // A panic drops `tx` without a send: the receiver sees it.
                let r = f(item);
                if tx.send((i, r)).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    let deadline = bound.map(|b| Instant::now() + b);
    let mut results: Vec<Option<R>> = (0..n).map(|_| None).collect();
    for _ in 0..n {
        let got = match deadline {
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        match got {
            Ok((i, r)) => results[i] = Some(r),
            Err(mpsc::RecvTimeoutError::Timeout) => break,
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("a worker panicked"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    results
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn results_come_back_in_the_items_order() {
        let items: Vec<u64> = (0..1000).collect();
        let squares = super::map(items.clone(), |x| x * x);
        assert_eq!(squares, items.iter().map(|x| x * x).collect::<Vec<_>>());
        assert!(super::map(Vec::<u8>::new(), |_| 0).is_empty());
    }

    #[test]
    fn items_beyond_the_bound_are_none() {
        // The slow item last, so that one thread also gets to the others.
        let items = vec![1u64, 2, 3, 0];
        let r = super::map_within(items, Some(Duration::from_millis(500)), |&x| {
            if x == 0 {
                std::thread::sleep(Duration::from_secs(30));
            }
            x
        });
        assert_eq!(r, [Some(1), Some(2), Some(3), None]);
    }

    #[test]
    #[should_panic(expected = "a worker panicked")]
    fn a_panic_in_f_propagates() {
        super::map(vec![1u8, 2], |&x| assert_eq!(x, 1));
    }
}
