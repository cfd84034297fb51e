//! Gettext plural formulas: parsing, evaluation and classification.
//!
//! A formula is a C expression over the integer `n` (as in the
//! `Plural-Forms` header of PO files) that yields the index of the plural
//! form to use. The parser accepts the full gettext grammar: the ternary
//! operator, `||`, `&&`, comparisons, `+ - * / %`, unary `!` and `-`,
//! parentheses, `n` and decimal literals.

use std::fmt;

/// Deepest nesting the parser accepts; keeps hostile input from exhausting the stack.
const MAX_DEPTH: usize = 64;
/// Longest formula accepted, in bytes.
const MAX_LEN: usize = 2048;

/// Why a formula could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid plural formula at offset {offset}: {message}")]
pub struct FormulaError {
    /// Byte offset in the formula where the problem was found.
    pub offset: usize,
    /// What was wrong.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Expr {
    N,
    Num(i64),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The value of the last `else` of a chain of conditionals, if it is a literal.
    fn fallback_index(&self) -> Option<usize> {
        match self {
            Expr::Cond(_, _, otherwise) => otherwise.fallback_index(),
            Expr::Num(v) => usize::try_from(*v).ok(),
            _ => None,
        }
    }

    fn eval(&self, n: i64) -> i64 {
        match self {
            Expr::N => n,
            Expr::Num(v) => *v,
            Expr::Not(e) => i64::from(e.eval(n) == 0),
            Expr::Neg(e) => e.eval(n).wrapping_neg(),
            Expr::Cond(c, a, b) => {
                if c.eval(n) != 0 {
                    a.eval(n)
                } else {
                    b.eval(n)
                }
            }
            Expr::Bin(op, a, b) => {
                let x = a.eval(n);
                // Short-circuit like C so that `n != 0 && 1 / n` stays defined.
                match op {
                    BinOp::Or => return i64::from(x != 0 || b.eval(n) != 0),
                    BinOp::And => return i64::from(x != 0 && b.eval(n) != 0),
                    _ => {}
                }
                let y = b.eval(n);
                match op {
                    BinOp::Eq => i64::from(x == y),
                    BinOp::Ne => i64::from(x != y),
                    BinOp::Lt => i64::from(x < y),
                    BinOp::Le => i64::from(x <= y),
                    BinOp::Gt => i64::from(x > y),
                    BinOp::Ge => i64::from(x >= y),
                    BinOp::Add => x.wrapping_add(y),
                    BinOp::Sub => x.wrapping_sub(y),
                    BinOp::Mul => x.wrapping_mul(y),
                    // Division by zero yields 0 instead of trapping: a formula is data.
                    BinOp::Div => x.checked_div(y).unwrap_or(0),
                    BinOp::Rem => x.checked_rem(y).unwrap_or(0),
                    BinOp::Or | BinOp::And => unreachable!("handled above"),
                }
            }
        }
    }
}

/// A parsed plural formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluralFormula {
    source: String,
    expr: Expr,
}

impl PluralFormula {
    /// Parses a gettext plural expression.
    pub fn parse(source: &str) -> Result<Self, FormulaError> {
        if source.len() > MAX_LEN {
            return Err(FormulaError {
                offset: MAX_LEN,
                message: "formula is too long".into(),
            });
        }
        let mut parser = Parser {
            src: source.as_bytes(),
            pos: 0,
            depth: 0,
        };
        let expr = parser.ternary()?;
        parser.skip_ws();
        if parser.pos != parser.src.len() {
            return Err(parser.error("unexpected trailing input"));
        }
        Ok(Self {
            source: source.to_owned(),
            expr,
        })
    }

    /// The formula text as given.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The plural form index for the count `n`.
    pub fn index(&self, n: u64) -> i64 {
        self.expr.eval(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// Checks that every sample count maps into `0..number` and that each
    /// form is used; returns a description of the first problem.
    pub fn check_forms(&self, number: usize) -> Result<(), String> {
        let mut used = vec![false; number];
        for n in sample_counts() {
            let index = self.index(n);
            match usize::try_from(index).ok().filter(|i| *i < number) {
                Some(i) => used[i] = true,
                None => {
                    return Err(format!(
                        "the formula gives form {index} for n = {n}, but only {number} forms exist"
                    ));
                }
            }
        }
        match used.iter().position(|u| !u) {
            Some(unused) if number > 1 => Err(format!("plural form {unused} is never used")),
            _ => Ok(()),
        }
    }

    /// Classifies the formula into one of Weblate's plural types (§29.10).
    ///
    /// Each form is named after the counts that select it: the form of 0
    /// alone (or a first form of 0 and the teens) is `zero`, the form of 1
    /// is `one`, a form of 2 without 3 is `two`, one of 3 alone among four
    /// forms is `three`, the form of the final `else` (or else the most
    /// used form) is `other`, and the remaining forms are `few` then `many`
    /// in index order (a lone remaining form used only by huge counts is
    /// `many`). The resulting sequence of names selects the type.
    pub fn plural_type(&self, number: usize, language_code: &str) -> PluralType {
        if number <= 1 {
            return PluralType::NONE;
        }
        if number == 2 {
            return self.two_form_type();
        }
        let names = self.form_names(number);
        let mut names: Vec<&str> = names.iter().map(|n| n.unwrap_or("?")).collect();
        // Three forms whose catch-all also serves small counts (0, 5...,
        // as in Czech or Russian) are one/few/many to Weblate; only a
        // catch-all of larger counts (Romanian's 20 and up) is `other`.
        if names == ["one", "few", "other"] && (0..=10).any(|n| self.index(n) == 2) {
            names[2] = "many";
        }
        PluralType::from_names(&names, language_code)
    }

    /// Two forms: the one not chosen for 1 decides (`two`, `zero` or `other`).
    fn two_form_type(&self) -> PluralType {
        let one = self.index(1);
        let rest: Vec<u64> = (0..100).filter(|n| self.index(*n) != one).collect();
        match rest.as_slice() {
            [2] => PluralType::TWO_OTHER,
            [0] => PluralType::ZERO_OTHER,
            _ => PluralType::ONE_OTHER,
        }
    }

    fn form_names(&self, number: usize) -> Vec<Option<&'static str>> {
        let mut members: Vec<Vec<u64>> = vec![Vec::new(); number];
        for n in sample_counts() {
            if let Some(i) = usize::try_from(self.index(n)).ok().filter(|i| *i < number) {
                members[i].push(n);
            }
        }
        let mut names: Vec<Option<&'static str>> = vec![None; number];
        let small =
            |set: &Vec<u64>| -> Vec<u64> { set.iter().copied().filter(|n| *n < 100).collect() };
        let common = |i: usize| members[i].iter().filter(|n| **n <= 1000).count();
        // The form of the final `else` is the catch-all, unless it serves
        // only zero; otherwise the most used form is.
        let other = self
            .expr
            .fallback_index()
            .filter(|i| *i < number && small(&members[*i]) != [0])
            .unwrap_or_else(|| (0..number).max_by_key(|i| (common(*i), *i)).unwrap_or(0));
        names[other] = Some("other");
        for i in 0..number {
            if names[i].is_some() {
                continue;
            }
            let s = small(&members[i]);
            names[i] = if s == [0] {
                Some("zero")
            } else if s.contains(&1) {
                Some("one")
            } else if i == 0 && s.contains(&0) && s.contains(&11) && !s.contains(&1) {
                Some("zero")
            } else if s.contains(&2) && !s.contains(&3) {
                Some("two")
            } else if s == [3] && number == 4 {
                Some("three")
            } else {
                None
            };
        }
        let rest: Vec<usize> = (0..number).filter(|i| names[*i].is_none()).collect();
        match rest.as_slice() {
            [] => {}
            [only] => {
                let sparse = members[*only].iter().all(|n| *n > 1000);
                names[*only] = Some(if sparse { "many" } else { "few" });
            }
            [first, others @ ..] => {
                names[*first] = Some("few");
                for i in others {
                    names[*i] = Some("many");
                }
            }
        }
        names
    }
}

impl fmt::Display for PluralFormula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Counts used to probe a formula: every count up to 1100 and a few large
/// round numbers that some languages treat specially.
fn sample_counts() -> impl Iterator<Item = u64> {
    (0..=1100).chain([
        10_000, 20_000, 40_000, 60_000, 80_000, 100_000, 1_000_000, 2_000_000, 1_100_000,
    ])
}

/// Weblate's numeric plural type (§29.10 of the reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PluralType(pub i32);

impl PluralType {
    /// A single form for every count.
    pub const NONE: PluralType = PluralType(0);
    /// One and other.
    pub const ONE_OTHER: PluralType = PluralType(1);
    /// Two and other.
    pub const TWO_OTHER: PluralType = PluralType(9);
    /// Zero and other.
    pub const ZERO_OTHER: PluralType = PluralType(15);
    /// Arabic-style six forms.
    pub const ARABIC: PluralType = PluralType(3);
    /// Zero, one, two, few, many and other.
    pub const ZERO_ONE_TWO_FEW_MANY_OTHER: PluralType = PluralType(12);
    /// The formula matches none of the known shapes.
    pub const UNKNOWN: PluralType = PluralType(666);

    const BY_NAMES: &'static [(&'static str, i32)] = &[
        ("one/other", 1),
        ("one/few/other", 2),
        ("one/two/other", 4),
        ("one/two/three/other", 5),
        ("one/two/few/other", 6),
        ("one/other/zero", 7),
        ("one/few/many/other", 8),
        ("two/other", 9),
        ("one/two/few/many/other", 10),
        ("zero/one/other", 11),
        ("zero/one/two/few/many/other", 12),
        ("other/one/two/few", 13),
        ("one/other/two", 14),
        ("zero/other", 15),
        ("zero/one/few/other", 16),
        ("zero/one/two/few/other", 17),
        ("zero/one/two/other", 18),
        ("zero/one/few/many/other", 19),
        ("one/many/other", 20),
        ("zero/one/many/other", 21),
        ("one/few/many", 22),
        ("one/zero/few/other", 23),
    ];

    /// The CLDR category of each form, in form order (`one`, `few`,
    /// `other`, ...); `None` for a single form or an unknown shape.
    pub fn form_names(self) -> Option<Vec<&'static str>> {
        let code = if self == Self::ARABIC {
            Self::ZERO_ONE_TWO_FEW_MANY_OTHER.0
        } else {
            self.0
        };
        Self::BY_NAMES
            .iter()
            .find(|(_, v)| *v == code)
            .map(|(names, _)| names.split('/').collect())
    }

    fn from_names(names: &[&str], language_code: &str) -> PluralType {
        let key = names.join("/");
        let found = Self::BY_NAMES
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(Self::UNKNOWN, |(_, v)| PluralType(*v));
        let base = language_code.split(['_', '-', '@']).next().unwrap_or("");
        if found == Self::ZERO_ONE_TWO_FEW_MANY_OTHER && base == "ar" {
            Self::ARABIC
        } else {
            found
        }
    }
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> FormulaError {
        FormulaError {
            offset: self.pos,
            message: message.to_owned(),
        }
    }

    fn skip_ws(&mut self) {
        while self.src.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_ws();
        if self.src[self.pos..].starts_with(token.as_bytes()) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Result<(), FormulaError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(self.error("formula is nested too deeply"))
        } else {
            Ok(())
        }
    }

    fn ternary(&mut self) -> Result<Expr, FormulaError> {
        self.enter()?;
        let cond = self.binary(0)?;
        let result = if self.eat("?") {
            let then = self.ternary()?;
            if !self.eat(":") {
                return Err(self.error("expected ':'"));
            }
            let otherwise = self.ternary()?;
            Expr::Cond(Box::new(cond), Box::new(then), Box::new(otherwise))
        } else {
            cond
        };
        self.depth -= 1;
        Ok(result)
    }

    /// Precedence levels from loosest to tightest; longer tokens first.
    const LEVELS: &'static [&'static [(&'static str, BinOp)]] = &[
        &[("||", BinOp::Or)],
        &[("&&", BinOp::And)],
        &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
        &[
            ("<=", BinOp::Le),
            (">=", BinOp::Ge),
            ("<", BinOp::Lt),
            (">", BinOp::Gt),
        ],
        &[("+", BinOp::Add), ("-", BinOp::Sub)],
        &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
    ];

    fn binary(&mut self, level: usize) -> Result<Expr, FormulaError> {
        let Some(ops) = Self::LEVELS.get(level) else {
            return self.unary();
        };
        let mut left = self.binary(level + 1)?;
        'outer: loop {
            for (token, op) in *ops {
                // `|` and `&` alone are not operators; `||`/`&&` are matched whole.
                if self.eat(token) {
                    let right = self.binary(level + 1)?;
                    left = Expr::Bin(*op, Box::new(left), Box::new(right));
                    continue 'outer;
                }
            }
            return Ok(left);
        }
    }

    fn unary(&mut self) -> Result<Expr, FormulaError> {
        self.enter()?;
        let result = if self.eat("!") {
            Expr::Not(Box::new(self.unary()?))
        } else if self.eat("-") {
            Expr::Neg(Box::new(self.unary()?))
        } else {
            self.primary()?
        };
        self.depth -= 1;
        Ok(result)
    }

    fn primary(&mut self) -> Result<Expr, FormulaError> {
        self.skip_ws();
        match self.src.get(self.pos) {
            Some(b'(') => {
                self.pos += 1;
                let inner = self.ternary()?;
                if !self.eat(")") {
                    return Err(self.error("expected ')'"));
                }
                Ok(inner)
            }
            Some(b'n') => {
                self.pos += 1;
                Ok(Expr::N)
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.pos;
                while self.src.get(self.pos).is_some_and(u8::is_ascii_digit) {
                    self.pos += 1;
                }
                let digits = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
                digits.parse().map(Expr::Num).map_err(|_| FormulaError {
                    offset: start,
                    message: "number is too large".into(),
                })
            }
            Some(_) => Err(self.error("unexpected character")),
            None => Err(self.error("unexpected end of formula")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> PluralFormula {
        PluralFormula::parse(s).unwrap()
    }

    #[test]
    fn names_each_form_by_its_cldr_category() {
        let czech = f("(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2").plural_type(3, "cs");
        assert_eq!(czech.form_names(), Some(vec!["one", "few", "many"]));
        let arabic = PluralType::ARABIC.form_names().unwrap();
        assert_eq!(arabic, ["zero", "one", "two", "few", "many", "other"]);
        assert_eq!(
            PluralType(7).form_names(),
            Some(vec!["one", "other", "zero"])
        );
        assert_eq!(PluralType::NONE.form_names(), None);
        assert_eq!(PluralType::UNKNOWN.form_names(), None);
    }

    #[test]
    fn evaluates_common_formulas() {
        let czech = f("(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2");
        let got: Vec<i64> = [0, 1, 2, 4, 5, 22]
            .iter()
            .map(|n| czech.index(*n))
            .collect();
        assert_eq!(got, vec![2, 0, 1, 1, 2, 2]);
        let russian =
            f("n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2");
        let got: Vec<i64> = [1, 11, 21, 22, 12, 25]
            .iter()
            .map(|n| russian.index(*n))
            .collect();
        assert_eq!(got, vec![0, 2, 0, 1, 2, 2]);
        assert_eq!(f("n != 1").index(0), 1);
        assert_eq!(f("n > 1").index(1), 0);
        assert_eq!(f("0").index(7), 0);
    }

    #[test]
    fn operators_follow_c_precedence() {
        assert_eq!(f("1 + 2 * 3").index(0), 7);
        assert_eq!(f("(1 + 2) * 3").index(0), 9);
        assert_eq!(f("10 - 4 - 3").index(0), 3);
        assert_eq!(f("!n").index(0), 1);
        assert_eq!(f("-n + 5").index(2), 3);
        assert_eq!(f("n == 1 || n == 2 && 0").index(2), 0);
        assert_eq!(f("n ? 1 : 0 ? 2 : 3").index(0), 3);
        assert_eq!(f("5 / n").index(0), 0, "division by zero is 0");
        assert_eq!(f("5 % n").index(0), 0);
    }

    #[test]
    fn rejects_bad_formulas_with_offsets() {
        for (bad, offset) in [
            ("", 0),
            ("n ==", 4),
            ("(n == 1", 7),
            ("n == 1 ? 0", 10),
            ("n & 1", 2),
            ("x", 0),
            ("n == 1 1", 7),
            ("99999999999999999999", 0),
        ] {
            let err = PluralFormula::parse(bad).unwrap_err();
            assert_eq!(err.offset, offset, "{bad:?}: {err}");
        }
        let deep = format!("{}n{}", "(".repeat(500), ")".repeat(500));
        assert!(PluralFormula::parse(&deep).is_err());
        let long = "n".to_owned() + &" + n".repeat(1000);
        assert!(PluralFormula::parse(&long).is_err());
    }

    /// A deterministic pseudo-random source for generated inputs.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, bound: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (self.0 >> 33) as usize % bound
        }

        /// A random valid expression of bounded depth.
        fn expression(&mut self, depth: usize) -> String {
            const OPS: &[&str] = &[
                "==", "!=", "<", "<=", ">", ">=", "&&", "||", "+", "-", "*", "/", "%",
            ];
            match if depth == 0 {
                self.next(2)
            } else {
                self.next(6)
            } {
                0 => "n".into(),
                1 => ["0", "1", "2", "10", "100", "9223372036854775807"][self.next(6)].into(),
                2 => format!("({})", self.expression(depth - 1)),
                3 => format!("!{}", self.expression(depth - 1)),
                4 => format!(
                    "{} ? {} : {}",
                    self.expression(depth - 1),
                    self.expression(depth - 1),
                    self.expression(depth - 1)
                ),
                _ => format!(
                    "{} {} {}",
                    self.expression(depth - 1),
                    OPS[self.next(OPS.len())],
                    self.expression(depth - 1)
                ),
            }
        }
    }

    #[test]
    fn arbitrary_input_never_panics() {
        let mut rng = Lcg(0x9e37_79b9_7f4a_7c15);
        let mut parsed_count = 0;
        for round in 0..5_000 {
            let mut formula = rng.expression(6);
            // Every other input is damaged: a byte removed or a junk character inserted.
            if round % 2 == 1 && !formula.is_empty() {
                let at = rng.next(formula.len());
                if formula.is_char_boundary(at) {
                    if rng.next(2) == 0 {
                        formula.remove(at);
                    } else {
                        formula.insert(at, ['(', ')', '?', ':', '&', '\u{0}', 'é'][rng.next(7)]);
                    }
                }
            }
            if let Ok(parsed) = PluralFormula::parse(&formula) {
                parsed_count += 1;
                for n in [0, 1, 2, 5, 11, 100, u64::MAX] {
                    parsed.index(n);
                }
                let _ = parsed.check_forms(3);
                let _ = parsed.plural_type(3, "xx");
            }
        }
        assert!(
            parsed_count > 2_000,
            "the inputs reach valid formulas too: {parsed_count}"
        );
    }

    #[test]
    fn check_forms_reports_out_of_range_and_unused() {
        assert!(f("n != 1").check_forms(2).is_ok());
        assert!(
            f("n != 1")
                .check_forms(1)
                .unwrap_err()
                .contains("only 1 forms")
        );
        assert!(
            f("n != 1")
                .check_forms(3)
                .unwrap_err()
                .contains("form 2 is never used")
        );
        assert!(f("0").check_forms(1).is_ok());
    }

    #[test]
    fn classifies_plural_types() {
        let cases = [
            ("0", 1, "ja", 0),
            ("n != 1", 2, "en", 1),
            ("n > 1", 2, "fr", 1),
            ("(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2", 3, "cs", 22),
            (
                "n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2",
                3,
                "ru",
                22,
            ),
            (
                "(n % 10 == 1 && (n % 100 < 11 || n % 100 > 19)) ? 0 : ((n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 1 : 2)",
                3,
                "lt",
                22,
            ),
            (
                "n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2",
                3,
                "ro",
                2,
            ),
            (
                "(n == 0 || n == 1) ? 0 : ((n >= 2 && n <= 10) ? 1 : 2)",
                3,
                "xx",
                2,
            ),
            ("n==1 ? 0 : n==2 ? 1 : 2", 3, "ga", 4),
            ("n==0 ? 0 : n==1 ? 1 : 2", 3, "lag", 11),
            ("(n==2) ? 1 : 0", 2, "xx", 9),
            ("n==0 ? 0 : 1", 2, "xx", 15),
            ("(n==0 || n==1)", 2, "xx", 1),
            (
                "n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9)",
                2,
                "ceb",
                1,
            ),
            (
                "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5",
                6,
                "ar",
                3,
            ),
            (
                "(n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2)",
                3,
                "es",
                20,
            ),
            (
                "n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3",
                4,
                "sl",
                6,
            ),
            (
                "(n % 10 == 0 || n % 100 >= 11 && n % 100 <= 19) ? 0 : ((n % 10 == 1 && n % 100 != 11) ? 1 : 2)",
                3,
                "lv",
                11,
            ),
        ];
        for (formula, number, code, expected) in cases {
            assert_eq!(
                f(formula).plural_type(number, code),
                PluralType(expected),
                "{code}: {formula}"
            );
        }
    }
}
