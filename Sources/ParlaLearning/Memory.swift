import Foundation

// The FSRS-6 memory model and scheduler, matching py-fsrs 6.3.2 with fuzzing off.
//
// Model: an item's memory is its stability S (days until retrievability falls to 90 %) and difficulty D (1...10).
// Retrievability after t days is R(t, S) = (1 + factor · t / S)^decay, with decay = −w20 and factor = 0.9^(1/decay) − 1,
// so that R(S, S) = 0.9 whatever the decay. Each review updates S and D from the rating; the next review is scheduled
// when R is predicted to reach the desired retention. New and lapsed cards first go through short learning steps.

// MARK: - Rating

/// How well a learner recalled an item, on FSRS's four-button scale.
public enum Rating: Int, Codable, Sendable, CaseIterable, Comparable {
    case again = 1
    case hard = 2
    case good = 3
    case easy = 4

    public static func < (lhs: Rating, rhs: Rating) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether the answer counts as recalled: FSRS treats every rating but `again` as a success.
    public var isRecall: Bool { self != .again }

    /// Grades an answer from its correctness and speed, for exercises where the learner presses no rating button.
    ///
    /// The rule:
    /// - a wrong answer is `again`;
    /// - a correct answer slower than 1.5 × `expectedTime` is `hard` (recalled, but with effort);
    /// - a correct answer faster than 0.5 × `expectedTime` is `easy` (recalled fluently);
    /// - any other correct answer is `good`.
    ///
    /// Both times are in the same unit. Without a usable expectation (`expectedTime` not positive and finite) or a
    /// measured time (NaN), speed says nothing, so a correct answer is `good`.
    public static func grade(correct: Bool, responseTime: Double, expectedTime: Double) -> Rating {
        guard correct else { return .again }
        guard expectedTime > 0, expectedTime.isFinite, !responseTime.isNaN else { return .good }
        if responseTime > 1.5 * expectedTime { return .hard }
        if responseTime < 0.5 * expectedTime { return .easy }
        return .good
    }
}

// MARK: - Card

/// Where a card is in its life; the raw values are py-fsrs's `State` codes.
public enum MemoryPhase: Int, Codable, Sendable, CaseIterable {
    /// New: shown again after short learning steps (minutes) until it graduates.
    case learning = 1
    /// Graduated: scheduled in whole days from its stability.
    case review = 2
    /// Forgotten after graduating: back on short relearning steps.
    case relearning = 3
}

/// The two memory variables FSRS keeps per item.
public struct MemoryState: Codable, Sendable, Equatable, Hashable {
    /// Days for retrievability to fall from 100 % to 90 %.
    public var stability: Double
    /// How hard the item is to remember, from 1 (easiest) to 10.
    public var difficulty: Double

    public init(stability: Double, difficulty: Double) {
        self.stability = stability
        self.difficulty = difficulty
    }
}

/// A learner's memory of one item and its schedule: the scheduler's input and output.
public struct MemoryCard: Codable, Sendable, Equatable, Hashable {
    public var phase: MemoryPhase
    /// Index into the learning or relearning steps; nil once in review.
    public var step: Int?
    /// nil until the first review.
    public var stability: Double?
    /// nil until the first review.
    public var difficulty: Double?
    public var due: Date
    public var lastReview: Date?

    /// A card never reviewed, due at `due` (usually now).
    public init(due: Date) {
        self.init(phase: .learning, step: 0, stability: nil, difficulty: nil, due: due, lastReview: nil)
    }

    public init(phase: MemoryPhase, step: Int?, stability: Double?, difficulty: Double?, due: Date, lastReview: Date?) {
        self.phase = phase
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.lastReview = lastReview
    }

    /// Stability and difficulty together, once the card has been reviewed.
    public var memory: MemoryState? {
        guard let stability, let difficulty else { return nil }
        return MemoryState(stability: stability, difficulty: difficulty)
    }

    public func isDue(at date: Date) -> Bool { due <= date }
}

// MARK: - Parameters

/// The FSRS-6 weights and the scheduling policy.
public struct MemoryParameters: Codable, Sendable, Equatable, Hashable {
    /// FSRS-6 defaults (py-fsrs 6.3.2 `DEFAULT_PARAMETERS`), fitted on the srs-benchmark collections.
    public static let defaultWeights: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]
    public static let weightCount = 21

    /// The 21 model weights w0...w20 (initial stabilities, difficulty, recall, forgetting, short-term and decay terms).
    public var w: [Double]
    /// Target probability of recall when a review falls due; lower means longer intervals and more forgetting.
    public var desiredRetention: Double
    /// Delays in seconds between the first same-day showings of a new card.
    public var learningSteps: [TimeInterval]
    /// Delays in seconds between the same-day showings of a lapsed card.
    public var relearningSteps: [TimeInterval]
    /// Longest interval, in days, a review may be scheduled.
    public var maximumInterval: Int

    public init(
        w: [Double] = MemoryParameters.defaultWeights,
        desiredRetention: Double = 0.9,
        learningSteps: [TimeInterval] = [60, 600],
        relearningSteps: [TimeInterval] = [600],
        maximumInterval: Int = 36_500
    ) {
        precondition(w.count == Self.weightCount, "FSRS-6 needs \(Self.weightCount) weights, got \(w.count)")
        precondition(desiredRetention > 0 && desiredRetention < 1, "desired retention must lie in (0, 1)")
        precondition(maximumInterval >= 1, "the maximum interval must be at least one day")
        self.w = w
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
    }

    private enum CodingKeys: String, CodingKey {
        case w, desiredRetention, learningSteps, relearningSteps, maximumInterval
    }

    /// Decoding rejects stored parameters the model cannot use instead of trapping later.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let w = try container.decode([Double].self, forKey: .w)
        let desiredRetention = try container.decode(Double.self, forKey: .desiredRetention)
        let maximumInterval = try container.decode(Int.self, forKey: .maximumInterval)
        guard w.count == Self.weightCount else {
            throw DecodingError.dataCorruptedError(forKey: .w, in: container, debugDescription: "expected \(Self.weightCount) weights")
        }
        guard desiredRetention > 0, desiredRetention < 1 else {
            throw DecodingError.dataCorruptedError(forKey: .desiredRetention, in: container, debugDescription: "must lie in (0, 1)")
        }
        guard maximumInterval >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .maximumInterval, in: container, debugDescription: "must be at least 1")
        }
        self.init(
            w: w,
            desiredRetention: desiredRetention,
            learningSteps: try container.decode([TimeInterval].self, forKey: .learningSteps),
            relearningSteps: try container.decode([TimeInterval].self, forKey: .relearningSteps),
            maximumInterval: maximumInterval
        )
    }

    /// Exponent of the power forgetting curve, −w20.
    public var decay: Double { -w[20] }
    /// Scale of the forgetting curve, chosen so that R(S, S) = 0.9 for any decay.
    public var factor: Double { pow(0.9, 1 / decay) - 1 }
}

// MARK: - Scheduler

/// FSRS-6 scheduling as py-fsrs 6.3.2 does it with fuzzing off: same formulas, clamps, rounding and step logic.
public struct MemoryScheduler: Sendable, Equatable {
    /// Floor on every stability (py-fsrs `STABILITY_MIN`), keeping the forgetting curve defined.
    public static let minimumStability = 0.001
    public static let difficultyRange: ClosedRange<Double> = 1...10
    private static let secondsPerDay: TimeInterval = 86_400

    public let parameters: MemoryParameters
    private let decay: Double
    private let factor: Double

    public init(parameters: MemoryParameters = MemoryParameters()) {
        self.parameters = parameters
        self.decay = parameters.decay
        self.factor = parameters.factor
    }

    private var w: [Double] { parameters.w }

    // MARK: Memory model (pure functions)

    /// Probability of recall `elapsedDays` after the last review of an item with this stability.
    public func forgettingCurve(elapsedDays: Double, stability: Double) -> Double {
        pow(1 + factor * elapsedDays / stability, decay)
    }

    /// Stability after the very first rating: w0...w3.
    public func initialStability(for rating: Rating) -> Double {
        max(w[rating.rawValue - 1], Self.minimumStability)
    }

    /// Difficulty after the very first rating: w4 − e^(w5·(rating − 1)) + 1. Unclamped, it anchors mean reversion.
    public func initialDifficulty(for rating: Rating, clamped: Bool = true) -> Double {
        let difficulty = w[4] - exp(w[5] * Double(rating.rawValue - 1)) + 1
        return clamped ? Self.clampDifficulty(difficulty) : difficulty
    }

    /// Difficulty after a later review: a step of −w6·(rating − 3), damped near 10, then reverted (weight w7) towards
    /// the unclamped initial difficulty of `easy`, so that difficulty cannot drift without bound.
    public func nextDifficulty(_ difficulty: Double, rating: Rating) -> Double {
        let change = -w[6] * Double(rating.rawValue - 3)
        let damped = difficulty + (10 - difficulty) * change / 9
        let reverted = w[7] * initialDifficulty(for: .easy, clamped: false) + (1 - w[7]) * damped
        return Self.clampDifficulty(reverted)
    }

    /// Stability after a successful review on a later day: it grows more when the item was harder to retrieve
    /// (low R), is easy (low D) and is still weakly held (low S). Not clamped, as in py-fsrs.
    public func nextRecallStability(difficulty: Double, stability: Double, retrievability: Double, rating: Rating) -> Double {
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        let growth = exp(w[8]) * (11 - difficulty) * pow(stability, -w[9]) * (exp((1 - retrievability) * w[10]) - 1)
        return stability * (1 + growth * hardPenalty * easyBonus)
    }

    /// Stability after a lapse on a later day; never above what a same-day `again` would leave. Not clamped.
    public func nextForgetStability(difficulty: Double, stability: Double, retrievability: Double) -> Double {
        let longTerm = w[11] * pow(difficulty, -w[12]) * (pow(stability + 1, w[13]) - 1) * exp((1 - retrievability) * w[14])
        let shortTerm = stability / exp(w[17] * w[18])
        return min(longTerm, shortTerm)
    }

    /// Stability after a review on a later day, given the retrievability at that moment.
    public func nextStability(difficulty: Double, stability: Double, retrievability: Double, rating: Rating) -> Double {
        let next =
            rating == .again
            ? nextForgetStability(difficulty: difficulty, stability: stability, retrievability: retrievability)
            : nextRecallStability(difficulty: difficulty, stability: stability, retrievability: retrievability, rating: rating)
        return max(next, Self.minimumStability)
    }

    /// Stability after another review on the same day (w17...w19). Only `again` may lower it: py-fsrs 6.3.2
    /// floors the increase at 1 for hard, good and easy.
    public func shortTermStability(_ stability: Double, rating: Rating) -> Double {
        var increase = exp(w[17] * (Double(rating.rawValue) - 3 + w[18])) * pow(stability, -w[19])
        if rating != .again { increase = max(increase, 1) }
        return max(stability * increase, Self.minimumStability)
    }

    /// Days until retrievability falls to the desired retention, before rounding.
    public func rawInterval(stability: Double) -> Double {
        stability / factor * (pow(parameters.desiredRetention, 1 / decay) - 1)
    }

    /// The review interval in whole days: rounded half to even (Python's `round`), at least 1, at most the maximum.
    public func nextInterval(stability: Double) -> Int {
        let raw = rawInterval(stability: stability)
        guard raw.isFinite else { return raw > 0 ? parameters.maximumInterval : 1 }
        let days = raw.rounded(.toNearestOrEven)
        return Int(min(max(days, 1), Double(parameters.maximumInterval)))
    }

    /// Memory after one review: the first rating sets it, a review less than a whole day after the previous one
    /// uses the short-term formula, any later one the long-term formulas at the retrievability reached.
    public func nextMemory(after memory: MemoryState?, rating: Rating, elapsedDays: Int) -> MemoryState {
        guard let memory else {
            return MemoryState(stability: initialStability(for: rating), difficulty: initialDifficulty(for: rating))
        }
        let retrievability = forgettingCurve(elapsedDays: Double(max(0, elapsedDays)), stability: memory.stability)
        return nextMemory(after: memory, rating: rating, elapsedDays: elapsedDays, retrievability: retrievability)
    }

    private func nextMemory(after memory: MemoryState, rating: Rating, elapsedDays: Int?, retrievability: Double) -> MemoryState {
        let stability =
            if let elapsedDays, elapsedDays < 1 {
                shortTermStability(memory.stability, rating: rating)
            } else {
                nextStability(difficulty: memory.difficulty, stability: memory.stability, retrievability: retrievability, rating: rating)
            }
        return MemoryState(stability: stability, difficulty: nextDifficulty(memory.difficulty, rating: rating))
    }

    /// Whole days from `start` to `end`, rounded down like Python's `timedelta.days` (at microsecond precision),
    /// which is what py-fsrs feeds the model: a review 23 hours later is still the same day.
    public static func elapsedDays(from start: Date, to end: Date) -> Int {
        let microseconds = Int64((end.timeIntervalSince(start) * 1_000_000).rounded())
        let microsecondsPerDay: Int64 = 86_400_000_000
        var days = microseconds / microsecondsPerDay
        if microseconds % microsecondsPerDay != 0, microseconds < 0 { days -= 1 }
        return Int(days)
    }

    private static func clampDifficulty(_ difficulty: Double) -> Double {
        min(max(difficulty, difficultyRange.lowerBound), difficultyRange.upperBound)
    }

    // MARK: Scheduling

    /// Predicted probability of recalling the card at `date`, from whole days since its last review; 0 for a new card.
    public func retrievability(of card: MemoryCard, at date: Date) -> Double {
        guard let lastReview = card.lastReview, let stability = card.stability else { return 0 }
        let days = max(0, Self.elapsedDays(from: lastReview, to: date))
        return forgettingCurve(elapsedDays: Double(days), stability: stability)
    }

    /// The card after being rated at `date`: updated memory, phase, step and due date.
    public func review(_ card: MemoryCard, rating: Rating, at date: Date) -> MemoryCard {
        var card = card
        let elapsedDays = card.lastReview.map { Self.elapsedDays(from: $0, to: date) }
        if let memory = card.memory {
            let retrievability = retrievability(of: card, at: date)
            let next = nextMemory(after: memory, rating: rating, elapsedDays: elapsedDays, retrievability: retrievability)
            card.stability = next.stability
            card.difficulty = next.difficulty
        } else {
            card.stability = initialStability(for: rating)
            card.difficulty = initialDifficulty(for: rating)
        }
        let delay: TimeInterval =
            switch card.phase {
            case .learning: advanceSteps(&card, steps: parameters.learningSteps, rating: rating)
            case .relearning: advanceSteps(&card, steps: parameters.relearningSteps, rating: rating)
            case .review: scheduleReview(&card, rating: rating)
            }
        card.due = date.addingTimeInterval(delay)
        card.lastReview = date
        return card
    }

    /// Learning and relearning share one step logic; returns the delay in seconds until the card is due.
    private func advanceSteps(_ card: inout MemoryCard, steps: [TimeInterval], rating: Rating) -> TimeInterval {
        let step = card.step ?? 0
        // Steps may have been shortened since the card was last scheduled: past the end, any success graduates.
        if steps.isEmpty || (step >= steps.count && rating != .again) {
            return graduate(&card)
        }
        switch rating {
        case .again:
            card.step = 0
            return steps[0]
        case .hard:
            // Stays on its step; on the first step, wait between it and the next (or 1.5 × a lone step).
            if step == 0 {
                return steps.count == 1 ? steps[0] * 1.5 : (steps[0] + steps[1]) / 2
            }
            return steps[step]
        case .good:
            if step + 1 == steps.count { return graduate(&card) }
            card.step = step + 1
            return steps[step + 1]
        case .easy:
            return graduate(&card)
        }
    }

    private func scheduleReview(_ card: inout MemoryCard, rating: Rating) -> TimeInterval {
        if rating == .again, !parameters.relearningSteps.isEmpty {
            card.phase = .relearning
            card.step = 0
            return parameters.relearningSteps[0]
        }
        return dayInterval(for: card)
    }

    private func graduate(_ card: inout MemoryCard) -> TimeInterval {
        card.phase = .review
        card.step = nil
        return dayInterval(for: card)
    }

    private func dayInterval(for card: MemoryCard) -> TimeInterval {
        TimeInterval(nextInterval(stability: card.stability ?? Self.minimumStability)) * Self.secondsPerDay
    }

    // MARK: Due queue

    /// Cards due at `date`, least likely to be recalled first, so that a short session rescues the weakest
    /// memories. New cards count as retrievability 0; ties go to the card due earlier, then to input order.
    public func dueQueue(_ cards: [MemoryCard], at date: Date) -> [MemoryCard] {
        dueQueue(cards, at: date, card: { $0 })
    }

    /// `dueQueue(_:at:)` for any element that carries a card, such as an item with its identifier.
    public func dueQueue<Element>(_ elements: [Element], at date: Date, card: (Element) -> MemoryCard) -> [Element] {
        let due = elements.enumerated().compactMap { offset, element -> (offset: Int, due: Date, recall: Double, element: Element)? in
            let memoryCard = card(element)
            guard memoryCard.isDue(at: date) else { return nil }
            return (offset, memoryCard.due, retrievability(of: memoryCard, at: date), element)
        }
        return due.sorted { lhs, rhs in
            if lhs.recall != rhs.recall { return lhs.recall < rhs.recall }
            if lhs.due != rhs.due { return lhs.due < rhs.due }
            return lhs.offset < rhs.offset
        }.map { $0.element }
    }
}
