//! PNML reader: XML text → [`PetriNet`], for P/T nets
//! (`type="http://www.pnml.org/version-2009/grammar/ptnet"`) as written by
//! the Model Checking Contest.
//!
//! This module owns the PNML conventions and every check on the input; it
//! must not implement the firing rule (that is `net`) nor choose the process
//! partition (that is `partition`; we only hand it the NUPN units we find).
//! XML itself is parsed by `roxmltree`; element names are matched by local
//! name, whatever their namespace.
//!
//! What is read:
//! - exactly one `<net>` under the `<pnml>` root; its `id` names the model;
//! - `<place>`, `<transition>`, `<arc>`, `<referencePlace>` and
//!   `<referenceTransition>` directly under the net or under `<page>`s,
//!   nested to any depth, in document order (depth-first);
//! - every object's `id` (places keep it as slot name; `<name>` is ignored);
//!   ids are unique across the whole net (pages, arcs and references too);
//! - `<initialMarking><text>N</text>` (absent: 0; surrounding whitespace
//!   allowed; a non-negative integer that fits `u32`);
//! - `<inscription><text>N</text>` arc weights (absent: 1; a positive integer
//!   that fits `u32`); parallel arcs between the same place and transition
//!   are summed;
//! - reference nodes are resolved to the place / transition they denote,
//!   following chains of references (a cycle, a dangling reference or a
//!   `referencePlace` ending at a transition is an error); arcs may use them
//!   as endpoints, they never become places or transitions themselves;
//! - the first `<toolspecific tool="nupn">` annotation, for the partition.
//!
//! What is refused (kind [`ErrorKind::Unsupported`]): coloured nets (net type
//! symmetric / high-level, a net `<declaration>`, a place `<type>` or
//! `<hlinitialMarking>`, a transition `<condition>`, an arc
//! `<hlinscription>`), arcs of any type but `normal` (inhibitor, reset,
//! read...), any other net type, several nets in one file, elements nested
//! more than [`MAX_XML_DEPTH`] deep (roxmltree recurses per level),
//! elements with more than [`MAX_XML_ATTRIBUTES`] attributes (roxmltree
//! compares each attribute with all before it) and files with more than
//! [`MAX_XML_NAMESPACES`] namespace declarations (roxmltree's work per
//! element grows with the square of the namespaces in scope), all found by
//! a linear pre-scan so that no input can overflow the stack or load in
//! more than linear time.
//! Everything else (`<name>`, `<graphics>`, other tool annotations, unknown
//! elements) is ignored.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use roxmltree::{Document, Node, ParsingOptions};

use crate::error::{ErrorKind, PnmlError};
use crate::net::{PetriNet, Transition};
use crate::partition::{self, NupnUnit};

/// The only net type accepted.
pub const PTNET_TYPE: &str = "http://www.pnml.org/version-2009/grammar/ptnet";

/// Deepest element nesting accepted. roxmltree parses nested elements
/// recursively (about 4 KiB of stack per level in an unoptimised build), so
/// deeper input could overflow the stack, which aborts the process; PNML
/// needs about 6 levels plus one per nested page.
pub const MAX_XML_DEPTH: usize = 128;

/// Most attributes (namespace declarations included) on one element.
/// roxmltree checks each new attribute against all the element's earlier
/// ones, so loading is quadratic in an element's attributes; PNML elements
/// have at most 4 (a NUPN `<structure>`).
pub const MAX_XML_ATTRIBUTES: usize = 64;

/// Most namespace declarations (`xmlns` and `xmlns:*` attributes) in one
/// file; PNML needs one or two.
pub const MAX_XML_NAMESPACES: usize = 64;

/// Parses PNML text; `file` labels every error.
pub(crate) fn parse(text: &str, file: &str) -> Result<PetriNet, PnmlError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some((offset, excess)) = beyond_limits(text, MAX_XML_DEPTH, MAX_XML_ATTRIBUTES) {
        // `beyond_limits` checks MAX_XML_NAMESPACES itself
        let (line, col) = end_position(&text[..offset]);
        return Err(PnmlError::at(
            ErrorKind::Unsupported,
            file,
            line,
            col,
            match excess {
                Excess::Depth => format!(
                    "XML elements nested more than {MAX_XML_DEPTH} levels deep are not supported"
                ),
                Excess::Attributes => format!(
                    "XML elements with more than {MAX_XML_ATTRIBUTES} attributes are not supported"
                ),
                Excess::Namespaces => format!(
                    "more than {MAX_XML_NAMESPACES} XML namespace declarations are not supported"
                ),
            },
        ));
    }
    let options = ParsingOptions {
        allow_dtd: false,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(text, options).map_err(|e| xml_error(&e, text, file))?;
    Reader::new(&doc, file).read()
}

/// One-line error for malformed XML, positioned where roxmltree knows where.
fn xml_error(e: &roxmltree::Error, text: &str, file: &str) -> PnmlError {
    use roxmltree::Error as E;
    match e {
        E::UnexpectedEndOfStream | E::UnclosedRootNode => {
            let (line, col) = end_position(text);
            PnmlError::at(
                ErrorKind::Syntax,
                file,
                line,
                col,
                format!("truncated XML: {e} (end of file reached inside an element)"),
            )
        }
        E::NoRootNode
        | E::DtdDetected
        | E::NodesLimitReached
        | E::AttributesLimitReached
        | E::NamespacesLimitReached => {
            PnmlError::new(ErrorKind::Syntax, file, format!("malformed XML: {e}"))
        }
        _ => {
            let pos = e.pos();
            let message = e.to_string().replace(&format!(" at {pos}"), "");
            PnmlError::at(
                ErrorKind::Syntax,
                file,
                pos.row,
                pos.col,
                format!("malformed XML: {message}"),
            )
        }
    }
}

/// Which limit a start tag exceeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Excess {
    Depth,
    Attributes,
    Namespaces,
}

/// Byte offset of the first start tag nested more than `limit` elements
/// deep or with more than `attributes` attributes, if any. A linear scan
/// following roxmltree's tokenizer (comments, CDATA sections, processing
/// instructions, quoted attribute values); it never counts fewer levels
/// than roxmltree recurses into before that parser reports an error, so the
/// check guards the recursion. Attributes are counted as the `=` outside
/// quotes; namespace declarations (more than [`MAX_XML_NAMESPACES`] in the
/// file) as those whose name starts with `xmlns`.
fn beyond_limits(text: &str, limit: usize, attributes: usize) -> Option<(usize, Excess)> {
    let b = text.as_bytes();
    let find = |from: usize, pattern: &[u8]| {
        b.get(from..)?
            .windows(pattern.len())
            .position(|w| w == pattern)
            .map(|p| from + p + pattern.len())
    };
    let (mut i, mut depth, mut namespaces) = (0usize, 0usize, 0usize);
    while let Some(offset) = b.get(i..)?.iter().position(|&c| c == b'<') {
        let lt = i + offset;
        i = match b.get(lt + 1)? {
            b'!' if b[lt..].starts_with(b"<!--") => find(lt + 4, b"-->")?,
            b'!' if b[lt..].starts_with(b"<![CDATA[") => find(lt + 9, b"]]>")?,
            b'!' => find(lt + 2, b">")?,
            b'?' => find(lt + 2, b"?>")?,
            b'/' => {
                depth = depth.saturating_sub(1);
                lt + 2
            }
            _ => {
                // A start tag: its end is the first '>' outside quotes. A
                // '<' before it is malformed (roxmltree stops there too).
                let mut j = lt + 1;
                let mut quote: Option<u8> = None;
                let mut count = 0;
                loop {
                    let c = *b.get(j)?;
                    match (quote, c) {
                        (_, b'<') => return None,
                        (Some(q), _) if c == q => quote = None,
                        (None, b'"' | b'\'') => quote = Some(c),
                        (None, b'>') => break,
                        (None, b'=') => {
                            count += 1;
                            if count > attributes {
                                return Some((lt, Excess::Attributes));
                            }
                            let name = b[lt + 1..j].trim_ascii_end();
                            let start = name
                                .iter()
                                .rposition(u8::is_ascii_whitespace)
                                .map_or(name.len(), |k| k + 1);
                            if name[start..].starts_with(b"xmlns") {
                                namespaces += 1;
                                if namespaces > MAX_XML_NAMESPACES {
                                    return Some((lt, Excess::Namespaces));
                                }
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if b[j - 1] != b'/' {
                    depth += 1;
                    if depth > limit {
                        return Some((lt, Excess::Depth));
                    }
                }
                j + 1
            }
        };
    }
    None
}

/// 1-based line and column just after the last character of `text`.
fn end_position(text: &str) -> (u32, u32) {
    let line = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let last_line = text.rsplit('\n').next().unwrap_or("");
    let col = last_line.chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(col).unwrap_or(u32::MAX),
    )
}

/// The id table uses a fast non-cryptographic hash (rustc's FxHash): SipHash
/// dominated parsing time on the largest MCC nets.
type IdMap<K, V> = HashMap<K, V, rustc_hash::FxBuildHasher>;

/// What an id denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IdKind {
    Net,
    Page,
    Place(usize),
    Transition(usize),
    ReferencePlace,
    ReferenceTransition,
    Arc,
}

impl IdKind {
    fn describe(self) -> &'static str {
        match self {
            IdKind::Net => "the net",
            IdKind::Page => "a page",
            IdKind::Place(_) => "a place",
            IdKind::Transition(_) => "a transition",
            IdKind::ReferencePlace => "a referencePlace",
            IdKind::ReferenceTransition => "a referenceTransition",
            IdKind::Arc => "an arc",
        }
    }
}

/// A resolved arc endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Endpoint {
    Place(usize),
    Transition(usize),
}

/// Why a count did not parse.
enum CountError {
    NotInteger,
    Negative,
    TooLarge,
}

/// Parses a decimal count that must fit `u32` (optional `+`, surrounding
/// whitespace allowed).
fn parse_count(s: &str) -> Result<u32, CountError> {
    let t = s.trim();
    let all_digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = t.strip_prefix('-') {
        return if !all_digits(rest) {
            Err(CountError::NotInteger)
        } else if rest.bytes().all(|b| b == b'0') {
            Ok(0)
        } else {
            Err(CountError::Negative)
        };
    }
    let digits = t.strip_prefix('+').unwrap_or(t);
    if !all_digits(digits) {
        return Err(CountError::NotInteger);
    }
    // Only digits: the sole possible failure is overflow.
    digits.parse::<u32>().map_err(|_| CountError::TooLarge)
}

/// Quotes user text in a message: trimmed, at most 100 characters.
fn quote(s: &str) -> String {
    let t = s.trim();
    if t.chars().count() > 100 {
        format!("'{}...'", t.chars().take(100).collect::<String>())
    } else {
        format!("'{t}'")
    }
}

fn is_element_named(node: &Node, name: &str) -> bool {
    node.is_element() && node.tag_name().name() == name
}

/// The concatenated text content of the direct text children of `node`.
fn text_content<'a>(node: Node<'a, '_>) -> Cow<'a, str> {
    let mut texts = node
        .children()
        .filter(Node::is_text)
        .filter_map(|n| n.text());
    match (texts.next(), texts.next()) {
        (None, _) => Cow::Borrowed(""),
        (Some(a), None) => Cow::Borrowed(a),
        (Some(a), Some(b)) => {
            let mut s = String::from(a);
            s.push_str(b);
            texts.for_each(|t| s.push_str(t));
            Cow::Owned(s)
        }
    }
}

struct Reader<'a, 'input> {
    doc: &'a Document<'input>,
    file: &'a str,
    ids: IdMap<&'a str, (IdKind, Node<'a, 'input>)>,
    places: Vec<String>,
    initial_marking: Vec<u32>,
    transition_ids: Vec<String>,
    arcs: Vec<Node<'a, 'input>>,
    references: Vec<Node<'a, 'input>>,
    resolved: IdMap<&'a str, Endpoint>,
    nupn: Option<Node<'a, 'input>>,
}

impl<'a, 'input> Reader<'a, 'input> {
    fn new(doc: &'a Document<'input>, file: &'a str) -> Self {
        Reader {
            doc,
            file,
            ids: IdMap::default(),
            places: Vec::new(),
            initial_marking: Vec::new(),
            transition_ids: Vec::new(),
            arcs: Vec::new(),
            references: Vec::new(),
            resolved: IdMap::default(),
            nupn: None,
        }
    }

    fn error(&self, kind: ErrorKind, node: Node, message: impl AsRef<str>) -> PnmlError {
        let pos = self.doc.text_pos_at(node.range().start);
        PnmlError::at(kind, self.file, pos.row, pos.col, message)
    }

    fn structure(&self, node: Node, message: impl AsRef<str>) -> PnmlError {
        self.error(ErrorKind::Structure, node, message)
    }

    fn coloured(&self, node: Node, what: impl AsRef<str>) -> PnmlError {
        self.error(
            ErrorKind::Unsupported,
            node,
            format!("coloured net (COL) not supported: {}", what.as_ref()),
        )
    }

    fn line_of(&self, node: Node) -> u32 {
        self.doc.text_pos_at(node.range().start).row
    }

    /// The `id` attribute of a net object.
    fn id_of(&self, node: Node<'a, 'input>) -> Result<&'a str, PnmlError> {
        match node.attribute("id") {
            Some(id) if !id.trim().is_empty() => Ok(id),
            _ => Err(self.structure(
                node,
                format!("<{}> without an id attribute", node.tag_name().name()),
            )),
        }
    }

    fn register(
        &mut self,
        id: &'a str,
        kind: IdKind,
        node: Node<'a, 'input>,
    ) -> Result<(), PnmlError> {
        if let Some(&(_, first)) = self.ids.get(id) {
            return Err(self.structure(
                node,
                format!(
                    "duplicate id {} (first defined at line {})",
                    quote(id),
                    self.line_of(first)
                ),
            ));
        }
        self.ids.insert(id, (kind, node));
        Ok(())
    }

    /// The text of the `<text>` child of `node` (`<initialMarking>`,
    /// `<inscription>`), whose owner is described by `owner`.
    fn text_child(&self, node: Node<'a, 'input>, owner: &str) -> Result<Cow<'a, str>, PnmlError> {
        match node.children().find(|c| is_element_named(c, "text")) {
            Some(t) => Ok(text_content(t)),
            None => Err(self.structure(
                node,
                format!("<{}> of {owner} has no <text>", node.tag_name().name()),
            )),
        }
    }

    fn read(mut self) -> Result<PetriNet, PnmlError> {
        let root = self.doc.root_element();
        if root.tag_name().name() != "pnml" {
            return Err(self.structure(
                root,
                format!(
                    "root element is <{}>, expected <pnml>",
                    root.tag_name().name()
                ),
            ));
        }
        let nets: Vec<Node> = root
            .children()
            .filter(|n| is_element_named(n, "net"))
            .collect();
        let net = match nets.as_slice() {
            [] => return Err(self.structure(root, "no <net> element in <pnml>")),
            [net] => *net,
            [_, second, ..] => {
                return Err(self.error(
                    ErrorKind::Unsupported,
                    *second,
                    format!(
                        "the file holds {} nets; only one net per file is supported",
                        nets.len()
                    ),
                ))
            }
        };
        self.check_net_type(net)?;
        let net_id = self.id_of(net)?;
        self.register(net_id, IdKind::Net, net)?;

        self.collect(net)?;
        for i in 0..self.references.len() {
            self.resolve_reference(self.references[i])?;
        }
        let transitions = self.connect()?;

        let place_count = self.places.len();
        let partition = self
            .nupn
            .map(|ts| self.nupn_units(ts))
            .and_then(|units| partition::from_nupn(place_count, &units))
            .unwrap_or_else(|| partition::structural(place_count, &transitions));
        Ok(PetriNet::new(
            self.file,
            net_id.to_owned(),
            self.places,
            self.initial_marking,
            transitions,
            partition,
        ))
    }

    fn check_net_type(&self, net: Node) -> Result<(), PnmlError> {
        match net.attribute("type").map(str::trim) {
            Some(PTNET_TYPE) => Ok(()),
            Some(t)
                if ["symmetricnet", "highlevelnet", "hlpn", "pt-hlpng"]
                    .iter()
                    .any(|k| t.to_ascii_lowercase().contains(k)) =>
            {
                Err(self.coloured(net, format!("net type {}", quote(t))))
            }
            Some(t) => Err(self.error(
                ErrorKind::Unsupported,
                net,
                format!(
                    "net type {} not supported (expected {PTNET_TYPE})",
                    quote(t)
                ),
            )),
            None => Err(self.structure(
                net,
                format!("<net> has no type attribute (expected type=\"{PTNET_TYPE}\")"),
            )),
        }
    }

    /// Collects the net objects under `net` and its pages, depth-first in
    /// document order (an explicit stack: deep page nesting cannot overflow
    /// the call stack).
    fn collect(&mut self, net: Node<'a, 'input>) -> Result<(), PnmlError> {
        let mut stack: Vec<Node<'a, 'input>> = net.children().filter(Node::is_element).collect();
        stack.reverse();
        while let Some(node) = stack.pop() {
            match node.tag_name().name() {
                "page" => {
                    let id = self.id_of(node)?;
                    self.register(id, IdKind::Page, node)?;
                    let start = stack.len();
                    stack.extend(node.children().filter(Node::is_element));
                    stack[start..].reverse();
                }
                "place" => self.place(node)?,
                "transition" => self.transition(node)?,
                "arc" => {
                    let id = self.id_of(node)?;
                    self.register(id, IdKind::Arc, node)?;
                    self.arcs.push(node);
                }
                "referencePlace" => {
                    let id = self.id_of(node)?;
                    self.register(id, IdKind::ReferencePlace, node)?;
                    self.references.push(node);
                }
                "referenceTransition" => {
                    let id = self.id_of(node)?;
                    self.register(id, IdKind::ReferenceTransition, node)?;
                    self.references.push(node);
                }
                "declaration" | "declarations" => {
                    return Err(
                        self.coloured(node, "the net declares sorts / variables (<declaration>)")
                    );
                }
                "toolspecific" if self.nupn.is_none() && node.attribute("tool") == Some("nupn") => {
                    self.nupn = Some(node);
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn place(&mut self, node: Node<'a, 'input>) -> Result<(), PnmlError> {
        let id = self.id_of(node)?;
        self.register(id, IdKind::Place(self.places.len()), node)?;
        let mut marking: Option<u32> = None;
        for child in node.children().filter(Node::is_element) {
            match child.tag_name().name() {
                "initialMarking" => {
                    if marking.is_some() {
                        return Err(self.structure(
                            child,
                            format!("place {} has several <initialMarking> elements", quote(id)),
                        ));
                    }
                    let text = self.text_child(child, &format!("place {}", quote(id)))?;
                    let problem = match parse_count(&text) {
                        Ok(m) => {
                            marking = Some(m);
                            continue;
                        }
                        Err(CountError::NotInteger) => "is not a non-negative integer",
                        Err(CountError::Negative) => {
                            "is negative (token counts are non-negative integers)"
                        }
                        Err(CountError::TooLarge) => "exceeds 4294967295 tokens",
                    };
                    return Err(self.structure(
                        child,
                        format!(
                            "place {}: initial marking {} {problem}",
                            quote(id),
                            quote(&text)
                        ),
                    ));
                }
                "type" => {
                    return Err(self.coloured(
                        child,
                        format!("place {} has a <type> (colour domain)", quote(id)),
                    ))
                }
                "hlinitialMarking" => {
                    return Err(self.coloured(
                        child,
                        format!("place {} has an <hlinitialMarking>", quote(id)),
                    ))
                }
                _ => {}
            }
        }
        self.places.push(id.to_owned());
        self.initial_marking.push(marking.unwrap_or(0));
        Ok(())
    }

    fn transition(&mut self, node: Node<'a, 'input>) -> Result<(), PnmlError> {
        let id = self.id_of(node)?;
        self.register(id, IdKind::Transition(self.transition_ids.len()), node)?;
        if let Some(c) = node.children().find(|c| is_element_named(c, "condition")) {
            return Err(self.coloured(
                c,
                format!("transition {} has a <condition> (guard)", quote(id)),
            ));
        }
        self.transition_ids.push(id.to_owned());
        Ok(())
    }

    /// Resolves the reference node `node` (and every reference on its chain)
    /// into `self.resolved`.
    fn resolve_reference(&mut self, node: Node<'a, 'input>) -> Result<(), PnmlError> {
        let mut chain: Vec<(&'a str, Node<'a, 'input>)> = Vec::new();
        let mut on_chain: HashSet<&'a str> = HashSet::new();
        let mut current = node;
        let end = loop {
            let id = self.id_of(current)?;
            if let Some(&end) = self.resolved.get(id) {
                break end;
            }
            if !on_chain.insert(id) {
                return Err(
                    self.structure(node, format!("cycle of references through {}", quote(id)))
                );
            }
            chain.push((id, current));
            let what = current.tag_name().name();
            let Some(target) = current.attribute("ref") else {
                return Err(self.structure(
                    current,
                    format!("{what} {} has no ref attribute", quote(id)),
                ));
            };
            match self.ids.get(target) {
                Some(&(IdKind::Place(p), _)) => break Endpoint::Place(p),
                Some(&(IdKind::Transition(t), _)) => break Endpoint::Transition(t),
                Some(&(IdKind::ReferencePlace | IdKind::ReferenceTransition, next)) => {
                    current = next
                }
                other => {
                    let is = other.map_or("undefined", |(k, _)| k.describe());
                    return Err(self.structure(
                        current,
                        format!(
                            "{what} {} refers to {}, which is {is}, not a place or transition",
                            quote(id),
                            quote(target)
                        ),
                    ));
                }
            }
        };
        for (id, n) in chain {
            let expects_place = n.tag_name().name() == "referencePlace";
            if expects_place != matches!(end, Endpoint::Place(_)) {
                let denoted = match end {
                    Endpoint::Place(p) => format!("place {}", quote(&self.places[p])),
                    Endpoint::Transition(t) => {
                        format!("transition {}", quote(&self.transition_ids[t]))
                    }
                };
                return Err(self.structure(
                    n,
                    format!(
                        "{} {} resolves to {denoted}",
                        n.tag_name().name(),
                        quote(id)
                    ),
                ));
            }
            self.resolved.insert(id, end);
        }
        Ok(())
    }

    /// The endpoint named by attribute `attr` (`source` / `target`) of arc `arc`.
    fn endpoint(
        &self,
        arc: Node<'a, 'input>,
        arc_id: &str,
        attr: &str,
    ) -> Result<Endpoint, PnmlError> {
        let Some(name) = arc.attribute(attr) else {
            return Err(self.structure(
                arc,
                format!("arc {} has no {attr} attribute", quote(arc_id)),
            ));
        };
        match self.ids.get(name) {
            Some(&(IdKind::Place(p), _)) => Ok(Endpoint::Place(p)),
            Some(&(IdKind::Transition(t), _)) => Ok(Endpoint::Transition(t)),
            Some(&(IdKind::ReferencePlace | IdKind::ReferenceTransition, _)) => {
                // Every reference was resolved before arcs are connected.
                self.resolved.get(name).copied().ok_or_else(|| {
                    self.structure(
                        arc,
                        format!(
                            "arc {}: unresolved reference {}",
                            quote(arc_id),
                            quote(name)
                        ),
                    )
                })
            }
            Some(&(kind, _)) => Err(self.structure(
                arc,
                format!(
                    "arc {}: {attr} {} is {}, not a place or transition",
                    quote(arc_id),
                    quote(name),
                    kind.describe()
                ),
            )),
            None => Err(self.structure(
                arc,
                format!(
                    "arc {}: {attr} {} is not a place or transition (undefined id)",
                    quote(arc_id),
                    quote(name)
                ),
            )),
        }
    }

    /// The arc weight of `arc` (default 1), refusing special arc types.
    fn weight(&self, arc: Node<'a, 'input>, arc_id: &str) -> Result<u32, PnmlError> {
        let unsupported_type = |node: Node, ty: &str| {
            self.error(
                ErrorKind::Unsupported,
                node,
                format!(
                    "arc {}: arc type {} not supported (only normal arcs; no inhibitor, reset or read arcs)",
                    quote(arc_id),
                    quote(ty)
                ),
            )
        };
        if let Some(ty) = arc.attribute("type") {
            if ty.trim() != "normal" {
                return Err(unsupported_type(arc, ty));
            }
        }
        let mut weight = None;
        for child in arc.children().filter(Node::is_element) {
            match child.tag_name().name() {
                "inscription" => {
                    if weight.is_some() {
                        return Err(self.structure(
                            child,
                            format!("arc {} has several <inscription> elements", quote(arc_id)),
                        ));
                    }
                    let text = self.text_child(child, &format!("arc {}", quote(arc_id)))?;
                    let problem = match parse_count(&text) {
                        Ok(0) => "is zero",
                        Ok(w) => {
                            weight = Some(w);
                            continue;
                        }
                        Err(CountError::NotInteger) => "is not an integer",
                        Err(CountError::Negative) => "is negative",
                        Err(CountError::TooLarge) => "exceeds 4294967295",
                    };
                    return Err(self.structure(
                        child,
                        format!(
                            "arc {}: weight {} {problem} (arc weights are positive integers)",
                            quote(arc_id),
                            quote(&text)
                        ),
                    ));
                }
                "hlinscription" => {
                    return Err(self.coloured(
                        child,
                        format!("arc {} has an <hlinscription>", quote(arc_id)),
                    ))
                }
                "type" => {
                    let ty = match child.attribute("value") {
                        Some(v) => Cow::Borrowed(v),
                        None => child
                            .children()
                            .find(|c| is_element_named(c, "text"))
                            .map_or(Cow::Borrowed(""), text_content),
                    };
                    if ty.trim() != "normal" {
                        return Err(unsupported_type(child, &ty));
                    }
                }
                _ => {}
            }
        }
        Ok(weight.unwrap_or(1))
    }

    /// Connects arcs into per-transition pre- and post-sets, summing
    /// parallel arcs.
    fn connect(&self) -> Result<Vec<Transition>, PnmlError> {
        // The successor function indexes places and arcs with u32.
        if u32::try_from(self.arcs.len()).is_err() || u32::try_from(self.places.len()).is_err() {
            return Err(PnmlError::new(
                ErrorKind::Unsupported,
                self.file,
                format!(
                    "{} places, {} arcs: more than 4294967295 of either are not supported",
                    self.places.len(),
                    self.arcs.len()
                ),
            ));
        }
        let n = self.transition_ids.len();
        let mut pre: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
        let mut post: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
        for &arc in &self.arcs {
            let arc_id = self.id_of(arc)?;
            let source = self.endpoint(arc, arc_id, "source")?;
            let target = self.endpoint(arc, arc_id, "target")?;
            let weight = self.weight(arc, arc_id)?;
            match (source, target) {
                (Endpoint::Place(p), Endpoint::Transition(t)) => pre[t].push((p, weight)),
                (Endpoint::Transition(t), Endpoint::Place(p)) => post[t].push((p, weight)),
                (Endpoint::Place(p), Endpoint::Place(q)) => {
                    return Err(self.structure(
                        arc,
                        format!(
                            "arc {} joins place {} to place {}; an arc must join a place and a transition",
                            quote(arc_id),
                            quote(&self.places[p]),
                            quote(&self.places[q])
                        ),
                    ))
                }
                (Endpoint::Transition(t), Endpoint::Transition(u)) => {
                    return Err(self.structure(
                        arc,
                        format!(
                            "arc {} joins transition {} to transition {}; an arc must join a place and a transition",
                            quote(arc_id),
                            quote(&self.transition_ids[t]),
                            quote(&self.transition_ids[u])
                        ),
                    ))
                }
            }
        }
        let mut transitions = Vec::with_capacity(n);
        for (t, (pre, post)) in pre.into_iter().zip(post).enumerate() {
            let id = &self.transition_ids[t];
            let pre = self.merge(pre, |p| {
                format!(
                    "from place {} to transition {}",
                    quote(&self.places[p]),
                    quote(id)
                )
            })?;
            let post = self.merge(post, |p| {
                format!(
                    "from transition {} to place {}",
                    quote(id),
                    quote(&self.places[p])
                )
            })?;
            transitions.push(Transition {
                id: id.clone(),
                pre,
                post,
            });
        }
        Ok(transitions)
    }

    /// Sorts arcs by place and sums parallel ones.
    fn merge(
        &self,
        mut arcs: Vec<(usize, u32)>,
        describe: impl Fn(usize) -> String,
    ) -> Result<Vec<(usize, u32)>, PnmlError> {
        arcs.sort_unstable_by_key(|&(p, _)| p);
        let mut merged: Vec<(usize, u32)> = Vec::with_capacity(arcs.len());
        for (p, w) in arcs {
            match merged.last_mut() {
                Some((q, v)) if *q == p => {
                    *v = v.checked_add(w).ok_or_else(|| {
                        PnmlError::new(
                            ErrorKind::Structure,
                            self.file,
                            format!(
                                "parallel arcs {} weigh more than 4294967295 in total",
                                describe(p)
                            ),
                        )
                    })?;
                }
                _ => merged.push((p, w)),
            }
        }
        Ok(merged)
    }

    /// The units of a NUPN annotation, place ids resolved to indices.
    fn nupn_units(&self, toolspecific: Node<'a, 'input>) -> Vec<NupnUnit> {
        let mut units = Vec::new();
        for structure in toolspecific
            .children()
            .filter(|c| is_element_named(c, "structure"))
        {
            for unit in structure.children().filter(|c| is_element_named(c, "unit")) {
                let mut places = Vec::new();
                for list in unit.children().filter(|c| is_element_named(c, "places")) {
                    for name in text_content(list).split_whitespace() {
                        places.push(match self.ids.get(name) {
                            Some(&(IdKind::Place(p), _)) => Some(p),
                            _ => None,
                        });
                    }
                }
                units.push(NupnUnit {
                    id: unit.attribute("id").unwrap_or("").to_owned(),
                    places,
                });
            }
        }
        units
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert!(matches!(parse_count(" 12\n"), Ok(12)));
        assert!(matches!(parse_count("+3"), Ok(3)));
        assert!(matches!(parse_count("-0"), Ok(0)));
        assert!(matches!(parse_count("4294967295"), Ok(u32::MAX)));
        assert!(matches!(
            parse_count("4294967296"),
            Err(CountError::TooLarge)
        ));
        assert!(matches!(parse_count("-4"), Err(CountError::Negative)));
        assert!(matches!(parse_count("1.5"), Err(CountError::NotInteger)));
        assert!(matches!(parse_count(""), Err(CountError::NotInteger)));
        assert!(matches!(parse_count("- 4"), Err(CountError::NotInteger)));
    }

    #[test]
    fn nesting_depth_scan() {
        let nested_too_deep =
            |text: &str, limit: usize| beyond_limits(text, limit, usize::MAX).map(|(o, _)| o);
        let nest = |n: usize| format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
        assert_eq!(nested_too_deep(&nest(5), 5), None);
        assert_eq!(nested_too_deep(&nest(6), 5), Some(15));
        // empty elements, attributes with '>' and '/', comments, CDATA, PIs
        let flat = "<?xml version=\"1.0\"?><!-- <a><a><a> --><r x='>' y=\"/\"><e/><e a=\"x\"/>\
                    <![CDATA[<a><a><a>]]><?pi <a><a>?>text > more</r>";
        assert_eq!(nested_too_deep(flat, 1), None);
        assert_eq!(nested_too_deep("<r><s x='>'>", 1), Some(3));
        // malformed: the scan stops where roxmltree would
        assert_eq!(nested_too_deep("<r><s x='<'><t><u>", 1), None);
    }

    #[test]
    fn attribute_count_scan() {
        let attrs = |n: usize| (0..n).map(|k| format!(" a{k}='='")).collect::<String>();
        let doc = |n: usize| format!("<r><e{}/></r>", attrs(n));
        assert_eq!(beyond_limits(&doc(3), 9, 3), None);
        assert_eq!(beyond_limits(&doc(4), 9, 3), Some((3, Excess::Attributes)));
        assert_eq!(
            beyond_limits(&format!("<r{}>", attrs(2)), 9, 1),
            Some((0, Excess::Attributes))
        );
        let ns = |n: usize| {
            (0..n)
                .map(|k| format!("<e xmlns:n{k} = 'u'/>"))
                .collect::<String>()
        };
        let limit = MAX_XML_NAMESPACES;
        assert_eq!(beyond_limits(&ns(limit), 9, 9), None);
        let at = ns(limit).len();
        assert_eq!(
            beyond_limits(&ns(limit + 1), 9, 9),
            Some((at, Excess::Namespaces))
        );
    }

    #[test]
    fn end_position_counts_lines_and_columns() {
        assert_eq!(end_position(""), (1, 1));
        assert_eq!(end_position("ab\ncd"), (2, 3));
        assert_eq!(end_position("ab\n"), (2, 1));
    }
}
