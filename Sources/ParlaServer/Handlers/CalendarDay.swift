import Foundation

/// A day as the API writes it (`format: date`, UTC): "2026-11-25".
func calendarDay(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day())
}
