//! Unit tests of `closure(r)[S]` (`fast_closure::reflexive_image`) and of
//! `solve::deferred_homogeneous` (a set typed by a homogeneous relation's
//! other side, and a constant said an element of a constant set of a
//! deferred set's elements, reduced in MACE order), on small machines
//! whose counts are computed by hand or by a brute force over the
//! constants' values written here.

use crate::tests::count;

#[test]
fn the_reflexive_closure_image_holds_its_argument() {
    // closure(r)[{s}] = {s} \/ closure1(r)[{s}]: `x ::` it gives that many
    // initial states; root + 1 + k states, 1 + k edges
    let machine = |s: &str| {
        format!(
            "MACHINE C SETS E = {{a, b, c}} CONSTANTS r PROPERTIES r = {{a |-> b}}
             VARIABLES x INITIALISATION x :: closure(r)[{{{s}}}] END"
        )
    };
    // {a, b}
    assert_eq!(count(&machine("a")), (4, 3));
    // {c}: closure1 alone would give none
    assert_eq!(count(&machine("c")), (3, 2));
}

#[test]
fn an_element_of_a_subset_of_a_deferred_set_is_reduced() {
    // pw the first element of PID (2 elements), waiting holding it: {a}
    // or {a, b}: 2 solutions, root + 2 + 2 states, 2 + 2 edges (4
    // solutions unreduced)
    let m = "MACHINE P SETS PID CONSTANTS waiting, pw
             PROPERTIES waiting <: PID & pw : waiting
             VARIABLES x INITIALISATION x := 0 END";
    assert_eq!(count(m), (5, 4));
}

/// The solutions of the toy file system over `n` elements (element
/// indices), by brute force: `(root, dir, file, contents)`, sets as bit
/// masks, `contents` as one mask of targets per element.
fn file_systems(n: usize) -> Vec<(usize, u32, u32, Vec<u32>)> {
    let mut out = Vec::new();
    for dir in 0u32..1 << n {
        for file in (0u32..1 << n).filter(|f| f & dir == 0) {
            if dir.count_ones() > 2 || file.count_ones() > 2 {
                continue;
            }
            let dirs: Vec<usize> = (0..n).filter(|&i| dir >> i & 1 == 1).collect();
            // targets of each directory, not itself
            let mut rows = vec![0u32; dirs.len()];
            loop {
                let mut contents = vec![0u32; n];
                for (k, &d) in dirs.iter().enumerate() {
                    contents[d] = rows[k];
                }
                for &root in &dirs {
                    // closure(contents)[{root}]
                    let mut reach = 1u32 << root;
                    loop {
                        let next = (0..n)
                            .filter(|&i| reach >> i & 1 == 1)
                            .fold(reach, |r, i| r | contents[i]);
                        if next == reach {
                            break;
                        }
                        reach = next;
                    }
                    if (file | dir) & !reach == 0 {
                        out.push((root, dir, file, contents.clone()));
                    }
                }
                // next rows: each a subset of the elements but its own
                let Some(k) = (0..dirs.len()).find(|&k| {
                    let full = ((1u32 << n) - 1) & !(1 << dirs[k]);
                    rows[k] != full
                }) else {
                    break;
                };
                let full = ((1u32 << n) - 1) & !(1 << dirs[k]);
                rows[k] = (rows[k] | !full).wrapping_add(1) & full;
                rows[..k].iter_mut().for_each(|r| *r = 0);
            }
        }
    }
    out
}

#[test]
fn a_set_typed_by_a_closed_relation_and_its_element_are_solved() {
    // Dir is typed only by `contents : Dir <-> OBJ` beside
    // closure(contents); root, of OBJ's type, is reduced to the first
    // element
    let m = "MACHINE T SETS OBJ CONSTANTS root, File, Dir, contents
             PROPERTIES root : Dir & Dir /\\ File = {} & card(OBJ) = 3
               & card(Dir) <= 2 & card(File) <= 2 & contents : Dir <-> OBJ
               & !d.(d : Dir => d /: contents[{d}])
               & (File \\/ Dir) <: closure(contents)[{root}]
             VARIABLES x INITIALISATION x := 0 END";
    let all = file_systems(3);
    let kept = all.iter().filter(|s| s.0 == 0).count();
    // the symmetry: as many solutions for each root
    assert_eq!(all.len(), 3 * kept);
    assert_eq!(count(m), (1 + 2 * kept, 2 * kept));
}
