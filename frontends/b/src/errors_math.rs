//! ProB's scaled trigonometric externals of `LibraryMath`, `SINx(m, x)`,
//! `COSx(m, x)` and `TANx(m, x)`: `round(m * f(x / m))` for the precision
//! multiplier `m`. ProB divides by `m`, so `m = 0` stops its model
//! checker with an error (ErrorInLibraryCall's `SINx(10 - xx, xx)` at
//! `xx = 10`, ProB's `general_error_occurred`), an error of the model
//! here. Any other arguments give a floating-point result whose rounding
//! ProB's Prolog arithmetic decides: not modelled, an unmodelled external
//! (see [`crate::errors_provisional::unmodelled`]).
//!
//! Owns only these three externals' calls; the expansion of external
//! definitions stays in `parse`, their evaluation dispatch in `eval`.

use crate::ast::Pos;
use crate::eval::{Fail, E};
use crate::value::Value;

/// Which scaled function of `LibraryMath`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scaled {
    Sin,
    Cos,
    Tan,
}

impl Scaled {
    /// The external named `name` (`SINx`, `COSx`, `TANx`), if it is one.
    pub fn named(name: &str) -> Option<Scaled> {
        Some(match name {
            "SINx" => Scaled::Sin,
            "COSx" => Scaled::Cos,
            "TANx" => Scaled::Tan,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Scaled::Sin => "SINx",
            Scaled::Cos => "COSx",
            Scaled::Tan => "TANx",
        }
    }

    /// The call with multiplier `m` and argument `x`: an error for `m = 0`,
    /// unmodelled otherwise.
    pub fn apply(self, m: &Value, x: &Value, pos: Pos) -> E<Value> {
        let (Ok(m), Ok(x)) = (m.as_int(), x.as_int()) else {
            return Err(Fail::Wd(format!("{} of a non-integer", self.name()), pos));
        };
        if m == 0 {
            return Err(Fail::Wd(
                format!(
                    "{}({m},{x}): division by zero in ProB's external (x / m with the multiplier m = 0)",
                    self.name()
                ),
                pos,
            ));
        }
        Err(crate::errors_provisional::unmodelled(
            format!("external function {} (ProB built-in library)", self.name()),
            pos,
        ))
    }
}
