//! The SVG status badge: a grey label (`translated`) beside a coloured
//! value (`85%`), 20 pixels high, as the shields that READMEs show. The
//! colour follows Weblate's thresholds: green from 90 %, yellow from
//! 75 %, red below. Text widths are estimated from the widths of a
//! common 11-pixel sans-serif face, so that no font is needed to draw it.

/// What a badge says and in which colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    /// The left part (`translated`).
    pub label: String,
    /// The right part (`85%`).
    pub value: String,
    /// The right part's colour (`#4c1`).
    pub color: &'static str,
}

impl Badge {
    /// The badge of a share translated, in whole percent rounded down
    /// (`percent` as the statistics give it, with one decimal).
    pub fn translated(percent: f64, capitalize: bool) -> Badge {
        let color = if percent >= 90.0 {
            "#4c1"
        } else if percent >= 75.0 {
            "#dfb317"
        } else {
            "#e05d44"
        };
        let label = if capitalize {
            "Translated"
        } else {
            "translated"
        };
        Badge {
            label: label.to_owned(),
            value: format!("{}%", percent.floor()),
            color,
        }
    }

    /// The badge drawn as an SVG document.
    pub fn svg(&self) -> String {
        let label_width = text_width(&format!("   {}   ", self.label));
        let value_width = text_width(&format!("  {}  ", self.value));
        let width = label_width + value_width;
        let (label, value) = (escaped(&self.label), escaped(&self.value));
        let color = self.color;
        let label_x = label_width / 2;
        let value_x = label_width + value_width / 2;
        let text = |x: u32, body: &str| {
            format!(
                "<text x=\"{x}\" y=\"15\" fill=\"#010101\" fill-opacity=\".3\">{body}</text>\
                 <text x=\"{x}\" y=\"14\">{body}</text>"
            )
        };
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"20\" \
             role=\"img\" aria-label=\"{label} {value}\">\
             <title>{label} {value}</title>\
             <linearGradient id=\"s\" x2=\"0\" y2=\"100%\">\
             <stop offset=\"0\" stop-color=\"#bbb\" stop-opacity=\".1\"/>\
             <stop offset=\"1\" stop-opacity=\".1\"/></linearGradient>\
             <rect width=\"{width}\" height=\"20\" fill=\"#555\" rx=\"3\"/>\
             <rect x=\"{label_width}\" width=\"{value_width}\" height=\"20\" fill=\"{color}\" rx=\"3\"/>\
             <path fill=\"{color}\" d=\"M{label_width} 0h4v20h-4z\"/>\
             <rect width=\"{width}\" height=\"20\" fill=\"url(#s)\" rx=\"3\"/>\
             <g fill=\"#fff\" text-anchor=\"middle\" font-size=\"11\" \
             font-family=\"DejaVu Sans,Verdana,Geneva,sans-serif\">{}{}</g></svg>",
            text(label_x, &label),
            text(value_x, &value),
        )
    }
}

/// The width in pixels of `text` in an 11-pixel sans-serif face, rounded
/// up: by the widths of its characters' kinds.
fn text_width(text: &str) -> u32 {
    let tenths: u32 = text
        .chars()
        .map(|c| match c {
            ' ' | 'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' => 35,
            'f' | 't' | 'r' | 'I' => 45,
            'm' | 'w' | 'M' | 'W' | '%' => 95,
            '0'..='9' => 70,
            c if c.is_ascii_uppercase() => 75,
            _ => 65,
        })
        .sum();
    tenths.div_ceil(10)
}

/// Text safe inside an SVG element or attribute.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_colour_and_value_follow_the_share() {
        let badge = |p| Badge::translated(p, false);
        assert_eq!(
            (badge(100.0).value.as_str(), badge(100.0).color),
            ("100%", "#4c1")
        );
        assert_eq!(
            (badge(90.0).value.as_str(), badge(90.0).color),
            ("90%", "#4c1")
        );
        assert_eq!(
            (badge(89.9).value.as_str(), badge(89.9).color),
            ("89%", "#dfb317")
        );
        assert_eq!(badge(75.0).color, "#dfb317");
        assert_eq!(
            (badge(74.9).value.as_str(), badge(74.9).color),
            ("74%", "#e05d44")
        );
        assert_eq!(badge(0.0).value, "0%");
        assert_eq!(Badge::translated(50.0, true).label, "Translated");
    }

    #[test]
    fn the_picture_is_wide_enough_for_its_words() {
        let svg = Badge::translated(66.6, false).svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""));
        assert!(svg.contains("<title>translated 66%</title>"));
        assert!(svg.contains("fill=\"#e05d44\""));
        // Wider text, wider badge.
        assert!(text_width("  100%  ") > text_width("  7%  "));
        assert!(text_width("   Translated   ") >= text_width("   translated   "));
        assert_eq!(escaped("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
