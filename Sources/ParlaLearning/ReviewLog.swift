import Foundation

/// Review logs as srs-benchmark and py-fsrs write them (CSV:
/// `card_id,review_rating,review_time[,review_duration]`), for evaluating
/// the memory model.
public enum ReviewLog {
    /// The reviews of a log, or nil when a line is not a review.
    public static func parse(_ csv: String) -> [MemoryEvaluation.Review]? {
        var reviews: [MemoryEvaluation.Review] = []
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let card = Int64(fields[0]), let code = Int(fields[1]), let rating = Rating(rawValue: code),
                let reviewedAt = timestamp(String(fields[2]))
            else { return nil }
            reviews.append(MemoryEvaluation.Review(cardId: card, rating: rating, reviewedAt: reviewedAt))
        }
        return reviews
    }

    /// ISO 8601 timestamps as Python writes them: `2024-03-29T20:32:32.250000+00:00` (fraction and offset optional, `Z` allowed).
    public static func timestamp(_ text: String) -> Date? {
        let characters = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count else { return nil }
            return Int(String(decoding: characters[range], as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < characters.count, characters[index] == UInt8(ascii: ".") {
            var end = index + 1
            while end < characters.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[end]) { end += 1 }
            fraction = Double("0" + String(decoding: characters[index..<end], as: UTF8.self)) ?? 0
            index = end
        }
        var offset = 0
        if index < characters.count, characters[index] != UInt8(ascii: "Z") {
            guard let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6) else { return nil }
            offset = (hours * 3600 + minutes * 60) * (characters[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

}
