import Foundation
import ParlaDatabase
import ParlaGames

// Design note: leaderboards, and what holds them together.
//
// Order. A board (language, game kind, period) lists its entries best
// first: by score, the higher score, then who reached it first
// (`score_at`), then the learner's id byte by byte (PostgreSQL's uuid
// order); by time, the shorter time, then `seconds_at`, then the id.
// `BoardPlace` (ParlaGames, with `BoardRanks`) is that order, once: Swift compares places, and SQL sorts by
// `Metric.order`, the same keys as one ascending row (`(-best_score), ...`),
// so that a row comparison walks the index of migration 0013.
// `LeaderboardOrderTests` checks that PostgreSQL's ORDER BY agrees.
//
// Buckets. What ranks: a score is its own bucket; a time's bucket is its
// tenth of a second, cut (`Metric.tenths`: 2.34 s is 23), the one the board
// shows. A rank is 1 + the entries in strictly better buckets, so ties
// share a rank; the order decides who is listed first among them. SQL
// buckets with `leaderboard_bucket` (migration 0016), tested to agree.
//
// Counts. A trigger keeps `leaderboard_counts` per bucket and per block of
// 64 buckets in step with every insert, improvement and deletion (0016):
// the fallback page sums a few dozen rows, never the entries.
//
// Memory. Each server keeps loaded boards (`LeaderboardRanks`: a Fenwick
// tree per metric and the board in order) and learners' names
// (`LearnerDirectory`). Every entry and learner change is announced on
// `parla_changes` at commit, in commit order, with absolute values (0019).
// A board loads on first use while the server listens; changes that
// arrive meanwhile wait and are applied after the load. This server's own
// results apply at once as improvements (harmless twice). A row read from
// the database is kept only if nothing was dropped since its read began
// (the stamp: listening generation and drops), so a change committed during
// the read is never lost behind it; a load begun before a reconnection is
// thrown away.
//
// Lost notifications. A lost connection, a heartbeat not back within three
// intervals, or an unreadable payload drops every board and every kept row;
// pages come from SQL (the fallback) until listening resumes, and boards
// load again on demand. A half-open connection can leave memory stale for
// at most those three intervals (6 s).

extension LeaderboardStore.Metric {
    /// Ranks for rows in board order from the first: a row ties with
    /// the one before it, or is ranked by its place.
    func ranked(_ rows: [LeaderboardStore.Row]) -> [LeaderboardStore.Row] {
        var ranked: [LeaderboardStore.Row] = []
        for var row in rows {
            row.rank = ranked.last.map { bucket(of: $0) == bucket(of: row) ? $0.rank : ranked.count + 1 } ?? 1
            ranked.append(row)
        }
        return ranked
    }

    /// The order of `BoardPlace` over entries `e`, as SQL sorts it.
    var order: String { self == .score ? "(-e.best_score), e.score_at, e.learner_id" : "e.best_seconds, e.seconds_at, e.learner_id" }

    /// The bucket of the entry `alias`, in SQL (as `leaderboard_bucket`).
    func bucketSQL(_ alias: String) -> String {
        self == .score ? "\(alias).best_score" : "floor(\(alias).best_seconds * 10)::integer"
    }

    /// What ranks in a shown row: the score, or the time's tenth.
    func bucket(of row: LeaderboardStore.Row) -> Int {
        self == .score ? row.score : Int(Self.tenths(row.seconds))
    }

    /// Whether `row` comes before `other` on the board.
    func precedes(_ row: LeaderboardStore.Row, _ other: LeaderboardStore.Row) -> Bool {
        place(of: row) < place(of: other)
    }

    func place(of row: LeaderboardStore.Row) -> BoardPlace {
        place(
            learner: row.learner.uuid, score: Int32(clamping: row.score), seconds: row.seconds,
            scoreAt: BoardRanks.microseconds(read: row.scoreAt), secondsAt: BoardRanks.microseconds(read: row.secondsAt))
    }
}
