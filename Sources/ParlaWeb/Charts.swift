import Foundation

/// Charts drawn as inline SVG, computed here (no script, no library): they
/// print, scale, and read out to screen readers through their labels.
public enum Charts {
    /// Escapes text for SVG and HTML.
    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// Vertical bars, one per label (learners per level), with the count over each.
    public static func bars(_ bars: [(label: String, value: Int)], title: String) -> String {
        let (width, height, top, bottom) = (360.0, 180.0, 20.0, 24.0)
        let slot = width / Double(max(bars.count, 1))
        let most = Double(max(bars.map(\.value).max() ?? 0, 1))
        // Read out whole by a screen reader: the title, then each bar's label and value.
        let label = title + ": " + bars.map { "\($0.label) \($0.value)" }.joined(separator: ", ")
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(label))\" class=\"chart\">",
            "<title>\(escape(title))</title>",
        ]
        for (index, bar) in bars.enumerated() {
            let barHeight = (height - top - bottom) * Double(bar.value) / most
            let x = Double(index) * slot + slot * 0.2
            let y = height - bottom - barHeight
            parts.append(
                "<rect x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(slot * 0.6))\" height=\"\(format(barHeight))\" class=\"bar\"><title>\(escape(bar.label)): \(bar.value)</title></rect>"
            )
            parts.append("<text x=\"\(format(x + slot * 0.3))\" y=\"\(format(y - 4))\" text-anchor=\"middle\">\(bar.value)</text>")
            parts.append(
                "<text x=\"\(format(x + slot * 0.3))\" y=\"\(format(height - 6))\" text-anchor=\"middle\">\(escape(bar.label))</text>")
        }
        parts.append("</svg>")
        return parts.joined()
    }

    /// A line over days (overall ability), with the level bands' cut scores as guides.
    public static func line(_ points: [(day: Date, value: Double)], guides: [(label: String, value: Double)], title: String) -> String {
        let (width, height, left, right, top, bottom) = (480.0, 200.0, 34.0, 8.0, 10.0, 22.0)
        let values = points.map(\.value) + guides.map(\.value)
        let (low, high) = ((values.min() ?? -2) - 0.25, (values.max() ?? 2) + 0.25)
        let first = points.first?.day.timeIntervalSince1970 ?? 0
        let span = max((points.last?.day.timeIntervalSince1970 ?? 0) - first, 86400)
        func x(_ day: Date) -> Double { left + (width - left - right) * (day.timeIntervalSince1970 - first) / span }
        func y(_ value: Double) -> Double { top + (height - top - bottom) * (high - value) / (high - low) }
        // Read out by a screen reader: the title, then where the line starts and ends.
        let label =
            if let first = points.first, let last = points.last {
                title + ": " + format(first.value) + " → " + format(last.value)
            } else { title }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(label))\" class=\"chart\">",
            "<title>\(escape(title))</title>",
        ]
        for guide in guides {
            parts.append(
                "<line x1=\"\(format(left))\" x2=\"\(format(width - right))\" y1=\"\(format(y(guide.value)))\" y2=\"\(format(y(guide.value)))\" class=\"guide\"/>"
            )
            parts.append("<text x=\"2\" y=\"\(format(y(guide.value) + 4))\">\(escape(guide.label))</text>")
        }
        if points.count == 1, let only = points.first {
            parts.append("<circle cx=\"\(format(x(only.day)))\" cy=\"\(format(y(only.value)))\" r=\"4\" class=\"point\"/>")
        } else if !points.isEmpty {
            let path = points.map { "\(format(x($0.day))),\(format(y($0.value)))" }.joined(separator: " ")
            parts.append("<polyline points=\"\(path)\" class=\"line\"/>")
        }
        parts.append("</svg>")
        return parts.joined()
    }

    /// The proficiency bar a learner sees in the app: how far along its
    /// level (0-1) towards the next, drawn small enough for a table cell;
    /// `label` says it in words (the level, the share, the next level).
    public static func proficiency(_ progress: Double, label: String) -> String {
        let (width, height) = (60.0, 8.0)
        let filled = (width - 1) * min(max(progress, 0), 1)
        return [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(escape(label))\" class=\"meter\">",
            "<title>\(escape(label))</title>",
            "<rect x=\"0.5\" y=\"0.5\" width=\"\(format(width - 1))\" height=\"\(format(height - 1))\" rx=\"3.5\" class=\"track\"/>",
            filled > 0
                ? "<rect x=\"0.5\" y=\"0.5\" width=\"\(format(filled))\" height=\"\(format(height - 1))\" rx=\"3.5\" class=\"fill\"/>" : "",
            "</svg>",
        ].joined()
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
