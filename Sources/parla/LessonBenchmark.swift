import Foundation
import ParlaLearningStore

/// pgbench scripts of the statements a lesson answer runs, as the store
/// runs them (`LessonStore.answerStatements`): PostgreSQL's own rate for
/// them on this machine, without our server, which bounds the rate at
/// which the server can answer (Benchmarks/course.sh).
enum LessonBenchmark {
    static func writePgbenchScripts(to directory: String) throws {
        let (read, write) = LessonStore.answerStatements
        func pick(_ column: String) -> String { "(SELECT \(column) FROM lesson_bench_open WHERE n = :n)" }
        // The version held is the lesson's own: the state is not sent, as
        // for an answer whose lesson this server kept (`OpenLessons`).
        let reading = bound(read, ["$1": pick("id"), "$2": pick("learner_id"), "$3": "lessons.version"])
        let writing = bound(write, ["$1": pick("state"), "$2": "false", "$3": pick("id"), "$4": "version"])
        let pickOne = "\\set n random(1, :count)\n"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, script) in [
            ("read", pickOne + reading), ("write", pickOne + writing), ("answer", pickOne + reading + writing), ("one", "SELECT 1;\n"),
        ] {
            try script.write(toFile: directory + "/\(name).sql", atomically: true, encoding: .utf8)
        }
    }

    /// `sql` with its parameters replaced by `values` (highest number
    /// first: `$1` is a prefix of `$10`), on one line as pgbench reads a
    /// statement (one per line unless it ends in a backslash); the
    /// leaderboard's scripts are bound the same way.
    static func bound(_ sql: String, _ values: [String: String]) -> String {
        var sql = sql
        for (parameter, value) in values.sorted(by: { Int($0.key.dropFirst())! > Int($1.key.dropFirst())! }) {
            sql = sql.replacingOccurrences(of: parameter, with: value)
        }
        return sql.split(separator: "\n").joined(separator: " ") + ";\n"
    }
}
