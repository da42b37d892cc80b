/// How a remote's keys move the grid's focus ring over the layout.

extension GridLayout {
    /// Where the focus goes from `index` by `move` (nil when there are no tiles).
    public func focus(from index: Int, moving move: GridMove) -> Int? {
        guard count > 0 else { return nil }
        let i = min(max(index, 0), count - 1)
        switch move {
        case .left: return max(0, i - 1)
        case .right: return min(count - 1, i + 1)
        case .up: return moved(i, rows: -1)
        case .down: return moved(i, rows: 1)
        case .pageUp: return moved(i, rows: -pageRows)
        case .pageDown: return moved(i, rows: pageRows)
        case .home: return 0
        case .end: return count - 1
        }
    }

    /// `delta` rows from `i` in the same column, within the first and last rows; the last tile where the last
    /// row is too short for that column.
    private func moved(_ i: Int, rows delta: Int) -> Int {
        let row = min(max(i / columns + delta, 0), rows - 1)
        return min(row * columns + i % columns, count - 1)
    }
}
