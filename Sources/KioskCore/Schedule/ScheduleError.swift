/// Why a schedule file could not be read: every problem found, each one line `FILE:LINE: reason`.
public struct ScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One problem on one line of the file.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The file as the user named it.
        public var file: String
        /// The line, counting from 1.
        public var line: Int
        /// What is wrong, quoting the text.
        public var reason: String

        /// A problem at `file:line`.
        public init(file: String, line: Int, reason: String) {
            self.file = file
            self.line = line
            self.reason = reason
        }

        /// `FILE:LINE: reason`.
        public var description: String { "\(file):\(line): \(reason)" }
    }

    /// The problems in line order (never empty when thrown).
    public var problems: [Problem]

    /// An error listing `problems`.
    public init(problems: [Problem]) { self.problems = problems }

    /// One `FILE:LINE: reason` line per problem.
    public var lines: [String] { problems.map(\.description) }

    /// The lines joined with newlines.
    public var description: String { lines.joined(separator: "\n") }
}

/// Why one field (days, time, dates, a playlist item's window key) could not be read: one line quoting the text.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason.
    public var description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
