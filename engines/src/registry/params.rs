//! Engine parameters, each declared once as a [`Param`]: its name, its
//! meaning, its typed default and how a `key=value` text becomes a value
//! (parsing, then a range check). A scheme's folder declares its
//! parameters as constants, lists them in its [`EngineSpec`](super::EngineSpec),
//! and reads them with [`Param::value`]; the registry checks every
//! `key=value` of a run against that list before anything is built, and
//! `statebench list` prints the same list with the defaults.
//!
//! Owns the parameter texts (`EngineOptions`), their parsing and the
//! messages of a bad value. Must not know any scheme.

/// Everything an engine may be configured with.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// Bytes the engine's tables may allocate.
    pub mem_budget: u64,
    /// Engine parameters as `(key, value)`, e.g. `("max_load", "0.8")`.
    pub params: Vec<(String, String)>,
    /// Worker threads of the search (0 and 1: the sequential explorer).
    pub threads: usize,
}

impl EngineOptions {
    /// The text given for `key` (the last one given), if any.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A type a parameter's value can have: parsed from the text after `=`
/// and shown again in `statebench list` and the rows' `engine_params`.
pub trait ParamValue: Sized + Clone {
    /// The value of `text`, or why it is not one (without the key).
    fn parse(text: &str) -> Result<Self, String>;
    /// The text that parses back to this value.
    fn show(&self) -> String;
}

/// The plain values: Rust's own parsing and printing.
macro_rules! plain_values {
    ($($t:ty),*) => {$(
        impl ParamValue for $t {
            fn parse(text: &str) -> Result<Self, String> {
                text.parse().map_err(|_| "not a valid value".to_owned())
            }
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
plain_values!(bool, u32, usize, f64);

/// A value named by one of a few words (`force` or `model`, ...): the
/// type lists its words once and is a [`ParamValue`] through them.
pub trait Word: Copy + PartialEq + 'static {
    /// Every word with the value it names, the default's not necessarily
    /// first.
    const WORDS: &'static [(&'static str, Self)];
}

/// The word naming `value`.
pub fn word<T: Word>(value: T) -> &'static str {
    T::WORDS
        .iter()
        .find(|(_, v)| *v == value)
        .map(|(word, _)| *word)
        .expect("every value has a word")
}

/// Declares an enum whose values are named by words, and its [`Word`]
/// impl, each word written once beside its value:
/// `words! { pub enum Side { Left = "left", Right = "right" } }`.
macro_rules! words {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = $word:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $crate::registry::Word for $name {
            const WORDS: &'static [(&'static str, Self)] = &[$(($word, $name::$variant)),+];
        }
    };
}
pub(crate) use words;

impl<T: Word> ParamValue for T {
    fn parse(text: &str) -> Result<Self, String> {
        T::WORDS
            .iter()
            .find(|(word, _)| *word == text)
            .map(|&(_, value)| value)
            .ok_or_else(|| {
                let words: Vec<_> = T::WORDS.iter().map(|(w, _)| *w).collect();
                format!("must be one of {}", words.join(", "))
            })
    }
    fn show(&self) -> String {
        word(*self).to_owned()
    }
}

/// A count of things: a whole number, also written like `1e4`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Count(pub usize);

impl ParamValue for Count {
    fn parse(text: &str) -> Result<Self, String> {
        if let Ok(n) = text.parse::<usize>() {
            return Ok(Count(n));
        }
        match text.parse::<f64>() {
            Ok(x) if x >= 0.0 && x.fract() == 0.0 && x <= u32::MAX as f64 => Ok(Count(x as usize)),
            _ => Err("not a whole number".to_owned()),
        }
    }
    fn show(&self) -> String {
        self.0.to_string()
    }
}

/// One parameter of one engine.
pub struct Param<T: 'static> {
    /// The key of `key=value`.
    pub name: &'static str,
    /// What it sets, for `statebench list` (the default is added there).
    pub meaning: &'static str,
    /// The value when the run does not set it.
    pub default: T,
    /// Why a parsed value is out of range, if it is ([`any`]: never).
    pub check: fn(&T) -> Result<(), String>,
}

/// Declares engine parameters, each once: its doc comment is its meaning
/// (what `statebench list` prints), then its key, its default and, after
/// `check`, its range check ([`any`] when there is none). Written inside
/// `const LIST = [...];`, they are also listed, in that order, as the
/// `&[&dyn ParamInfo]` an [`EngineSpec`](super::EngineSpec) takes:
///
/// ```ignore
/// params! {
///     pub const PARAMS = [
///         /// load factor that doubles the bucket array
///         MAX_LOAD: f64 = "max_load", default 0.75, check open_unit;
///     ];
/// }
/// ```
///
/// A configuration that is only parameters is declared as a struct whose
/// fields are the parameters (`field: type = CONST("key"), ...`); the
/// struct gets its `Default` (the defaults) and its
/// [`Configure`](super::Configure) (the run's values):
///
/// ```ignore
/// params! {
///     /// Parameters of the hash table.
///     pub struct HashTableConfig, listed in PARAMS {
///         /// load factor that doubles the bucket array
///         max_load: f64 = MAX_LOAD("max_load"), default 0.75, check open_unit;
///     }
/// }
/// ```
macro_rules! params {
    (@check) => { $crate::registry::any };
    (@check $check:expr) => { $check };
    (
        $(#[$list_meta:meta])*
        $vis:vis const $list:ident = [$(
            $(#[doc = $doc:literal])+
            $id:ident: $t:ty = $key:literal, default $default:expr $(, check $check:expr)?;
        )+];
    ) => {
        $(#[$list_meta])*
        $vis const $list: &[&dyn $crate::registry::ParamInfo] = &[$(&$id),+];
        $crate::registry::params! {$(
            $(#[doc = $doc])+
            $vis const $id: $t = $key, default $default $(, check $check)?;
        )+}
    };
    (
        $(#[$struct_meta:meta])*
        $vis:vis struct $config:ident, listed in $list:ident {$(
            $(#[doc = $doc:literal])+
            $field:ident: $t:ty = $id:ident($key:literal), default $default:expr $(, check $check:expr)?;
        )+}
    ) => {
        $(#[$struct_meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $config {$(
            $(#[doc = $doc])+
            pub $field: $t,
        )+}

        impl Default for $config {
            fn default() -> Self {
                $config { $($field: $id.default),+ }
            }
        }

        impl $crate::registry::Configure for $config {
            fn configure(
                _: &dyn ::pins::Model,
                opts: &$crate::registry::EngineOptions,
            ) -> Result<Self, String> {
                Ok($config { $($field: $id.value(opts)?),+ })
            }
        }

        $crate::registry::params! {
            $vis const $list = [$(
                $(#[doc = $doc])+
                $id: $t = $key, default $default $(, check $check)?;
            )+];
        }
    };
    ($(
        $(#[doc = $doc:literal])+
        $vis:vis const $id:ident: $t:ty = $key:literal, default $default:expr $(, check $check:expr)?;
    )+) => {$(
        $(#[doc = $doc])+
        $vis const $id: $crate::registry::Param<$t> = $crate::registry::Param {
            name: $key,
            meaning: concat!($($doc),+).trim_ascii(),
            default: $default,
            check: $crate::registry::params!(@check $($check)?),
        };
    )+};
}
pub(crate) use params;

impl<T: ParamValue> Param<T> {
    /// The run's value of this parameter, or its default; `Err` names the
    /// parameter and says why its text is not a value.
    pub fn value(&self, opts: &EngineOptions) -> Result<T, String> {
        match opts.text(self.name) {
            None => Ok(self.default.clone()),
            Some(text) => self.parse(text),
        }
    }

    fn parse(&self, text: &str) -> Result<T, String> {
        T::parse(text)
            .and_then(|v| (self.check)(&v).map(|()| v))
            .map_err(|why| format!("engine parameter {}={text}: {why}", self.name))
    }
}

/// What the registry and the harness need of a parameter, whatever its
/// type: an engine's parameter list holds these.
pub trait ParamInfo: Sync {
    fn name(&self) -> &'static str;
    /// The meaning with the default, e.g. `load factor ... (0.75)`.
    fn describe(&self) -> String;
    /// Whether `text` is a valid value (the message names the parameter).
    fn check_text(&self, text: &str) -> Result<(), String>;
}

impl<T: ParamValue + Sync> ParamInfo for Param<T> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn describe(&self) -> String {
        format!("{} ({})", self.meaning, self.default.show())
    }
    fn check_text(&self, text: &str) -> Result<(), String> {
        self.parse(text).map(|_| ())
    }
}

/// No range check.
pub fn any<T>(_: &T) -> Result<(), String> {
    Ok(())
}

/// A fraction strictly between 0 and 1 (a load factor).
pub fn open_unit(v: &f64) -> Result<(), String> {
    if *v > 0.0 && *v < 1.0 {
        Ok(())
    } else {
        Err("must be in (0, 1)".to_owned())
    }
}

/// A whole number in `LO..=HI`.
pub fn within<T: Copy + TryInto<u64>, const LO: u64, const HI: u64>(v: &T) -> Result<(), String> {
    if (*v).try_into().is_ok_and(|v| (LO..=HI).contains(&v)) {
        Ok(())
    } else {
        Err(format!("must be in {LO}..={HI}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    params! {
        const LIST = [
            /// load factor
            LOAD: f64 = "max_load", default 0.75, check open_unit;
            /// a long
            /// meaning
            LONG: bool = "long", default true;
        ];
    }

    fn opts(key: &str, value: &str) -> EngineOptions {
        EngineOptions {
            params: vec![(key.into(), value.into())],
            ..EngineOptions::default()
        }
    }

    #[test]
    fn default_parse_and_range() {
        assert_eq!(LOAD.value(&EngineOptions::default()), Ok(0.75));
        assert_eq!(LOAD.value(&opts("max_load", "0.5")), Ok(0.5));
        assert_eq!(
            LOAD.value(&opts("max_load", "1.5")),
            Err("engine parameter max_load=1.5: must be in (0, 1)".into())
        );
        assert_eq!(
            LOAD.value(&opts("max_load", "x")),
            Err("engine parameter max_load=x: not a valid value".into())
        );
        assert_eq!(LOAD.describe(), "load factor (0.75)");
        assert_eq!(LONG.describe(), "a long meaning (true)");
        let names: Vec<_> = LIST.iter().map(|p| p.name()).collect();
        assert_eq!(names, ["max_load", "long"]);
    }

    #[test]
    fn counts_accept_exponents() {
        assert_eq!(Count::parse("1e4"), Ok(Count(10_000)));
        assert_eq!(Count::parse("12"), Ok(Count(12)));
        assert!(Count::parse("1.5").is_err() && Count::parse("-1").is_err());
    }

    #[test]
    fn words_parse_and_show() {
        words! {
            enum Side {
                Left = "left",
                Right = "right",
            }
        }
        assert_eq!(Side::parse("right"), Ok(Side::Right));
        assert_eq!(Side::Left.show(), "left");
        assert_eq!(Side::parse("up"), Err("must be one of left, right".into()));
    }
}
