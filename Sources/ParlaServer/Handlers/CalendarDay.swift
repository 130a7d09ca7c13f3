import Foundation
import ParlaCore

/// A day as the API writes it (`format: date`, UTC): "2026-11-25".
func calendarDay(_ date: Date) -> String {
    Day(date).description
}
