import Foundation

/// Answers' learning summed per row it writes (a memory card, an item's
/// difficulty, a skill's ability, a day of its history), in the order
/// given: what writing one answer after the other would leave, written at
/// once (a game's pairs, an offline lesson's answers: `LearningRows`). A
/// row first written takes the first answer's absolute value plus the
/// later answers' changes; a stored row moves by all of them (`change`).
public struct AnswerSums: Sendable, Equatable {
    public struct Card: Encodable, Sendable, Equatable {
        public var item: String, phase: Int, step: Int?, stability: Double?, difficulty: Double?, due: Double, lastReview: Double?
        public var reviews: Int, lapses: Int
    }
    public struct Item: Encodable, Sendable, Equatable {
        public var item: String, difficulty: Double, change: Double, responses: Int
    }
    public struct Ability: Encodable, Sendable, Equatable {
        public var skill: String, theta: Double, responses: Int, change: Double, answers: Int
    }
    public struct History: Encodable, Sendable, Equatable {
        public var skill: String, day: Double, theta: Double, level: String
    }
    public private(set) var cards: [Card] = []
    public private(set) var items: [Item] = []
    public private(set) var abilities: [Ability] = []
    public private(set) var history: [History] = []

    public init(_ learning: [AnswerLearning]) {
        for answer in learning {
            if let card = answer.card {
                var row = Card(
                    item: answer.itemID, phase: card.phase.rawValue, step: card.step, stability: card.stability,
                    difficulty: card.difficulty, due: card.due.timeIntervalSince1970,
                    lastReview: card.lastReview?.timeIntervalSince1970, reviews: 1, lapses: answer.lapse ? 1 : 0)
                if let index = cards.firstIndex(where: { $0.item == answer.itemID }) {
                    // The last review's memory, every review counted.
                    (row.reviews, row.lapses) = (cards[index].reviews + 1, cards[index].lapses + row.lapses)
                    cards[index] = row
                } else {
                    cards.append(row)
                }
            }
            if let index = items.firstIndex(where: { $0.item == answer.itemID }) {
                items[index].difficulty += answer.difficultyChange
                items[index].change += answer.difficultyChange
                items[index].responses += 1
            } else {
                items.append(
                    Item(
                        item: answer.itemID, difficulty: answer.initialDifficulty + answer.difficultyChange,
                        change: answer.difficultyChange, responses: 1))
            }
            let skill = answer.skill.rawValue
            if let index = abilities.firstIndex(where: { $0.skill == skill }) {
                abilities[index].theta += answer.abilityChange
                abilities[index].responses += 1
                abilities[index].change += answer.abilityChange
                abilities[index].answers += 1
            } else {
                abilities.append(
                    Ability(
                        skill: skill, theta: answer.ability.theta, responses: answer.ability.responses, change: answer.abilityChange,
                        answers: 1))
            }
            // Each answer's history rows take its first snapshot's day, as one write per answer did.
            guard let day = answer.snapshots.first?.day else { continue }
            for snapshot in answer.snapshots {
                let row = History(
                    skill: snapshot.skill?.rawValue ?? "overall", day: day.timeIntervalSince1970, theta: snapshot.theta,
                    level: snapshot.level.rawValue)
                history.removeAll { $0.skill == row.skill && $0.day == row.day }
                history.append(row)
            }
        }
    }
}
