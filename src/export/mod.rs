//! Pages a person reads outside the program, pure: each is a function from
//! the model to a `String` of HTML with its map as inline SVG, no I/O.
//! `report_page` is a side's report ([`crate::model::report::Report`]) as one
//! self-contained page for play by email, with no scripts; `orders_page` the
//! side's orders form that `umpire serve` sends, whose one inline script
//! talks only to the server's address it is given.

mod charts;
mod chronicle;
mod map_svg;
mod orders_page;
mod report_page;

pub use chronicle::chronicle_page;
pub use orders_page::{OrdersForm, orders_page};
pub use report_page::report_page;

/// `text` safe inside HTML and SVG, in element text and in quoted attributes
/// alike: `&`, `<`, `>`, `"` and `'` written as entities. Every text from a
/// file or a save goes through it.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_writes_every_markup_character_as_an_entity() {
        for (text, escaped) in [
            ("Cairo", "Cairo"),
            ("<b>&", "&lt;b&gt;&amp;"),
            ("\"Q\" & 'A'", "&quot;Q&quot; &amp; &#39;A&#39;"),
            ("&amp;", "&amp;amp;"),
            ("Māhdī", "Māhdī"),
        ] {
            assert_eq!(escape(text), escaped);
        }
    }
}
