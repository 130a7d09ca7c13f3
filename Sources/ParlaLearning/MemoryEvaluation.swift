import Foundation

/// Offline evaluation of the FSRS memory model with fixed parameters on a review log, following the protocol of
/// open-spaced-repetition/srs-benchmark for FSRS-6 (features/base.py, utils.py), so figures compare with its tables.
///
/// The protocol, per card in time order:
/// - Time is counted in review days (day numbers with a rollover hour, as Anki and the benchmark dataset do), not in
///   24-hour periods: the elapsed days of a review are its day number minus that of the card's previous review.
/// - Every review updates the memory (same-day ones with the short-term formula), but only reviews on a later day
///   than the previous one are predicted: R = forgetting curve(elapsed days, stability before the review), and the
///   label is 1 unless the rating is `again`. The first review of a card is never predicted.
/// - As sklearn's `TimeSeriesSplit(n_splits: 5)` does, the predicted reviews, in time order, are cut into six folds and
///   the first is not scored (in the benchmark it only ever trains).
///
/// Scores: log loss, RMSE(bins) (srs-benchmark `rmse_matrix`) and AUC.
public struct MemoryEvaluation: Sendable {
    /// One rating of one card, as stored in a review log.
    public struct Review: Sendable, Equatable, Hashable {
        public var cardId: String
        public var rating: Rating
        public var reviewedAt: Date

        public init(cardId: String, rating: Rating, reviewedAt: Date) {
            self.cardId = cardId
            self.rating = rating
            self.reviewedAt = reviewedAt
        }

        public init(cardId: Int64, rating: Rating, reviewedAt: Date) {
            self.init(cardId: String(cardId), rating: rating, reviewedAt: reviewedAt)
        }
    }

    /// The choices the benchmark leaves to the dataset.
    public struct Options: Sendable, Equatable {
        /// When a review day begins, in seconds after midnight UTC: Anki's default rollover (4:00) plus the learner's
        /// offset from UTC (a learner at UTC−7 with a 4:00 rollover: 11 h). The figures shift by about ±0.003 with it.
        public var dayStart: TimeInterval
        /// Time-ordered folds scored after the unscored first one; 0 scores every predicted review.
        public var testSplits: Int
        /// fsrs-optimizer's `remove_outliers`, which srs-benchmark applies to its dataset: per first rating, rare first
        /// intervals (and intervals over 100 days, 365 after `easy`) are dropped with the card's later reviews.
        /// A training-data filter, off by default; the reference figures for the py-fsrs log match it off.
        public var removesFirstIntervalOutliers: Bool
        /// The benchmark keeps the first 2 × `max_seq_len` (64) reviews of each card.
        public var maximumReviewsPerCard: Int

        public init(
            dayStart: TimeInterval = 4 * 3600,
            testSplits: Int = 5,
            removesFirstIntervalOutliers: Bool = false,
            maximumReviewsPerCard: Int = 128
        ) {
            self.dayStart = dayStart
            self.testSplits = testSplits
            self.removesFirstIntervalOutliers = removesFirstIntervalOutliers
            self.maximumReviewsPerCard = maximumReviewsPerCard
        }
    }

    /// One scored review.
    public struct Prediction: Sendable, Equatable {
        public var cardId: String
        public var reviewedAt: Date
        /// Review days since the card's previous review (at least 1).
        public var elapsedDays: Int
        /// 1-based count of the card's reviews on distinct days, this one included (the benchmark's `i`).
        public var reviewNumber: Int
        /// Earlier `again` ratings given on a later day than the review before them (the benchmark's lapses).
        public var lapses: Int
        public var retrievability: Double
        public var recalled: Bool

        /// Public so that the scores below can rate predictions from other models too.
        public init(
            cardId: String, reviewedAt: Date, elapsedDays: Int, reviewNumber: Int, lapses: Int, retrievability: Double, recalled: Bool
        ) {
            self.cardId = cardId
            self.reviewedAt = reviewedAt
            self.elapsedDays = elapsedDays
            self.reviewNumber = reviewNumber
            self.lapses = lapses
            self.retrievability = retrievability
            self.recalled = recalled
        }
    }

    public struct Result: Sendable, Equatable {
        public var logLoss: Double
        /// srs-benchmark's RMSE(bins): calibration error over bins of elapsed days, review number and lapses.
        public var rmseBins: Double
        /// Area under the ROC curve: how well retrievability ranks recalls above lapses.
        public var auc: Double
        public var predictions: [Prediction]
    }

    public let scheduler: MemoryScheduler
    public let options: Options

    public init(parameters: MemoryParameters = MemoryParameters(), options: Options = Options()) {
        self.scheduler = MemoryScheduler(parameters: parameters)
        self.options = options
    }

    /// Replays the log and scores the predictions. Reviews may come in any order.
    public func evaluate(_ reviews: [Review]) -> Result {
        let predictions = predict(reviews)
        return Result(
            logLoss: Self.logLoss(predictions),
            rmseBins: Self.rmseBins(predictions),
            auc: Self.auc(predictions),
            predictions: predictions
        )
    }

    /// A review kept in the benchmark dataset: the first of each card or one on a later day.
    private struct Candidate {
        var order: Int
        var prediction: Prediction
        var firstRating: Rating
        var isFirst: Bool
    }

    /// The scored predictions, in time order.
    public func predict(_ reviews: [Review]) -> [Prediction] {
        // Time order, stable for equal times: the benchmark's `review_th`.
        let ordered = reviews.enumerated().sorted {
            $0.element.reviewedAt != $1.element.reviewedAt ? $0.element.reviewedAt < $1.element.reviewedAt : $0.offset < $1.offset
        }.map { $0.element }
        var historyByCard: [String: [(order: Int, review: Review)]] = [:]
        var cardOrder: [String] = []
        for (order, review) in ordered.enumerated() {
            if historyByCard[review.cardId] == nil { cardOrder.append(review.cardId) }
            historyByCard[review.cardId, default: []].append((order, review))
        }

        var cards: [[Candidate]] = []
        for cardId in cardOrder {
            let history = historyByCard[cardId, default: []].prefix(max(0, options.maximumReviewsPerCard))
            guard let firstRating = history.first?.review.rating else { continue }
            var candidates: [Candidate] = []
            var memory: MemoryState?
            var previousDay: Int64?
            var reviewNumber = 1
            var lapses = 0
            for (order, review) in history {
                let day = dayNumber(review.reviewedAt)
                let elapsedDays = previousDay.map { Int(day - $0) } ?? 0
                if elapsedDays > 0 { reviewNumber += 1 }
                if previousDay == nil || elapsedDays > 0 {
                    let retrievability =
                        memory.map {
                            scheduler.forgettingCurve(elapsedDays: Double(elapsedDays), stability: $0.stability)
                        } ?? 0
                    let prediction = Prediction(
                        cardId: cardId, reviewedAt: review.reviewedAt, elapsedDays: elapsedDays, reviewNumber: reviewNumber,
                        lapses: lapses, retrievability: retrievability, recalled: review.rating.isRecall
                    )
                    let isFirst = previousDay == nil
                    candidates.append(Candidate(order: order, prediction: prediction, firstRating: firstRating, isFirst: isFirst))
                }
                memory = scheduler.nextMemory(after: memory, rating: review.rating, elapsedDays: elapsedDays)
                if review.rating == .again, elapsedDays > 0 { lapses += 1 }
                previousDay = day
            }
            cards.append(candidates)
        }

        if options.removesFirstIntervalOutliers { cards = Self.removingFirstIntervalOutliers(cards) }

        var scored = cards.joined().filter { !$0.isFirst }.sorted { $0.order < $1.order }.map { $0.prediction }
        if options.testSplits > 0 {
            let foldSize = scored.count / (options.testSplits + 1)
            if foldSize > 0 { scored = Array(scored.suffix(options.testSplits * foldSize)) }
        }
        return scored
    }

    /// Review day of a moment: whole days since the epoch, counted from `dayStart` (exact to the microsecond).
    private func dayNumber(_ date: Date) -> Int64 {
        let microseconds = Int64(((date.timeIntervalSince1970 - options.dayStart) * 1_000_000).rounded())
        let microsecondsPerDay: Int64 = 86_400_000_000
        var day = microseconds / microsecondsPerDay
        if microseconds % microsecondsPerDay != 0, microseconds < 0 { day -= 1 }
        return day
    }

    /// fsrs-optimizer `remove_outliers` on the second reviews, grouped by first rating, then srs-benchmark's
    /// `remove_non_continuous_rows`: a card whose second review is dropped keeps only its first.
    private static func removingFirstIntervalOutliers(_ cards: [[Candidate]]) -> [[Candidate]] {
        var secondReviewsByFirstRating: [Rating: [Int]] = [:]  // first rating -> elapsed days of each second review
        for candidates in cards where candidates.count > 1 {
            secondReviewsByFirstRating[candidates[0].firstRating, default: []].append(candidates[1].prediction.elapsedDays)
        }
        var dropped: Set<[Int]> = []  // (first rating, elapsed days)
        for (firstRating, intervals) in secondReviewsByFirstRating {
            let counts = Dictionary(intervals.map { ($0, 1) }, uniquingKeysWith: +)
            // Rarest first; among equally rare, longest first.
            let ranked = counts.sorted { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }
            let budget = max(Double(intervals.count) * 0.05, 20)
            let longest = firstRating == .easy ? 365 : 100
            var removed = 0
            for (elapsedDays, count) in ranked {
                if Double(removed + count) >= budget, count >= 6, elapsedDays <= longest { continue }
                dropped.insert([firstRating.rawValue, elapsedDays])
                removed += count
            }
        }
        return cards.map { candidates in
            guard candidates.count > 1,
                dropped.contains([candidates[0].firstRating.rawValue, candidates[1].prediction.elapsedDays])
            else { return candidates }
            return [candidates[0]]
        }
    }

    // MARK: Scores

    /// Mean binary cross-entropy; probabilities are clipped to [ε, 1 − ε] as sklearn does.
    public static func logLoss(_ predictions: [Prediction]) -> Double {
        guard !predictions.isEmpty else { return .nan }
        let epsilon = Double.ulpOfOne
        let total = predictions.reduce(0.0) { sum, prediction in
            let p = min(max(prediction.retrievability, epsilon), 1 - epsilon)
            return sum - (prediction.recalled ? log(p) : log(1 - p))
        }
        return total / Double(predictions.count)
    }

    /// srs-benchmark `rmse_matrix`: reviews are binned by elapsed days (powers of 3.62), review number (powers of
    /// 1.89) and lapses (0, then powers of 1.73); the RMSE between each bin's recall rate and mean prediction is
    /// weighted by bin size. Bins are keyed by the exponent, which is what the benchmark's rounded bin values encode.
    public static func rmseBins(_ predictions: [Prediction]) -> Double {
        guard !predictions.isEmpty else { return .nan }
        struct Bin: Hashable { var elapsed: Int, number: Int, lapses: Int }
        func exponent(_ value: Double, base: Double) -> Int { Int((log(value) / log(base)).rounded(.down)) }
        var sums: [Bin: (count: Double, recalled: Double, predicted: Double)] = [:]
        for prediction in predictions {
            let bin = Bin(
                elapsed: exponent(max(Double(prediction.elapsedDays), 1e-6), base: 3.62),
                number: exponent(Double(prediction.reviewNumber), base: 1.89),
                lapses: prediction.lapses == 0 ? Int.min : exponent(Double(prediction.lapses), base: 1.73)
            )
            sums[bin, default: (0, 0, 0)].count += 1
            sums[bin, default: (0, 0, 0)].recalled += prediction.recalled ? 1 : 0
            sums[bin, default: (0, 0, 0)].predicted += prediction.retrievability
        }
        var squaredError = 0.0
        for (count, recalled, predicted) in sums.values {
            let difference = recalled / count - predicted / count
            squaredError += count * difference * difference
        }
        return (squaredError / Double(predictions.count)).squareRoot()
    }

    /// ROC AUC via the rank-sum statistic, ties sharing their mean rank; NaN when only one outcome occurs.
    public static func auc(_ predictions: [Prediction]) -> Double {
        let sorted = predictions.sorted { $0.retrievability < $1.retrievability }
        var recalledRankSum = 0.0
        var start = 0
        while start < sorted.count {
            var end = start
            while end + 1 < sorted.count, sorted[end + 1].retrievability == sorted[start].retrievability { end += 1 }
            let meanRank = Double(start + end) / 2 + 1
            for index in start...end where sorted[index].recalled { recalledRankSum += meanRank }
            start = end + 1
        }
        let recalled = Double(predictions.count(where: { $0.recalled }))
        let forgotten = Double(predictions.count) - recalled
        guard recalled > 0, forgotten > 0 else { return .nan }
        return (recalledRankSum - recalled * (recalled + 1) / 2) / (recalled * forgotten)
    }
}
