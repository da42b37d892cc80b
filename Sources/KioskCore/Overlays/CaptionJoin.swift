import Foundation

/// Joins a caption format's rendered pieces, dropping the separators that an empty field leaves dangling
/// (the rule is written on `CaptionFormat`).
enum CaptionJoin {
    /// One rendered piece.
    enum Part: Equatable {
        /// The format's own text.
        case text(String)
        /// A field's value, "" when the item has none.
        case field(String)
    }

    /// The separator characters a text between fields may consist of (besides spaces), at most one of them.
    static let separators: Set<Character> = ["·", "•", "-", "–", "—", ",", "/", "|", ";"]

    /// Whether `text` is only a separator: whitespace and at most one separator character.
    static func isSeparator(_ text: String) -> Bool {
        let core = text.filter { !$0.isWhitespace }
        return core.isEmpty || (core.count == 1 && core.first.map(separators.contains) == true)
    }

    /// The caption of `parts`, or nil when it comes out empty or every field in it is empty.
    static func join(_ parts: [Part]) -> String? {
        var out = ""
        var pending: String?        // a separator waiting for the next non-empty field
        var afterField = false      // a non-empty field was written since the last other text
        var anyField = false, anyValue = false
        for (i, part) in parts.enumerated() {
            switch part {
            case .field(let value):
                anyField = true
                guard !value.isEmpty else { continue }
                anyValue = true
                if let p = pending { out += p }
                pending = nil
                out += value
                afterField = true
            case .text(let text):
                let between = i > 0 && i < parts.count - 1  // texts never follow texts: fields on both sides
                if between && isSeparator(text) {
                    if afterField { pending = text }
                } else {
                    pending = nil
                    out += text
                    afterField = false
                }
            }
        }
        if anyField && !anyValue { return nil }
        let trimmed = out.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
