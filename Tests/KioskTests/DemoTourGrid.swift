// The demo tour's coarse picture comparison: frames as grids of mean colours, blind to the encoder's noise and
// to the overlays' corners (see DemoTourTests).
import Foundation
import KioskCore
import KioskMedia
import XCTest

extension DemoTourTests {
    /// A picture as a coarse grid of mean colours (cells of `cell` pixels), for comparisons that the encoder's
    /// noise does not upset. The comparisons leave out the cells where overlays go (the bottom fifth: captions; the
    /// top right: the clock), so they hold with or without overlays drawn.
    struct Grid {
        var columns: Int
        var rows: Int
        var rgb: [Double]

        /// Whether the cell at column `x`, row `y` is one where an overlay may be.
        func underOverlay(_ x: Int, _ y: Int) -> Bool {
            y >= rows * 4 / 5 || (y < rows / 6 && x >= columns * 3 / 4)
        }

        init(_ image: RGBAImage, cell: Int = 20, zoom: Double = 1) {
            columns = image.size.width / cell
            rows = image.size.height / cell
            rgb = [Double](repeating: 0, count: columns * rows * 3)
            let w = image.size.width, h = image.size.height
            for y in 0..<(rows * cell) {
                // With a zoom about the centre, each pixel takes its colour from nearer the centre.
                let sy = min(h - 1, max(0, Int((Double(y) + 0.5 - Double(h) / 2) / zoom + Double(h) / 2)))
                for x in 0..<(columns * cell) {
                    let sx = min(w - 1, max(0, Int((Double(x) + 0.5 - Double(w) / 2) / zoom + Double(w) / 2)))
                    let p = (sy * w + sx) * 4, c = ((y / cell) * columns + x / cell) * 3
                    rgb[c] += Double(image.pixels[p]); rgb[c + 1] += Double(image.pixels[p + 1]); rgb[c + 2] += Double(image.pixels[p + 2])
                }
            }
            let n = Double(cell * cell)
            for i in rgb.indices { rgb[i] /= n }
        }

        init(columns: Int, rows: Int, rgb: [Double]) {
            self.columns = columns
            self.rows = rows
            self.rgb = rgb
        }

        /// `a` and `b` mixed: `(1 - p)·a + p·b`.
        static func mix(_ a: Grid, _ b: Grid, _ p: Double) -> Grid {
            Grid(columns: a.columns, rows: a.rows, rgb: zip(a.rgb, b.rgb).map { (1 - p) * $0 + p * $1 })
        }

        /// The mean absolute difference per channel (0...255) over the columns `columns` of `self` against the
        /// columns of `other` moved by `shift` (other's column c + shift sits under our column c).
        func distance(_ other: Grid, columns range: Range<Int>? = nil, shift: Int = 0) -> Double {
            let cols = range ?? 0..<columns
            var sum = 0.0, n = 0
            for y in 0..<rows {
                for x in cols where !underOverlay(x, y) {
                    let ox = x + shift
                    guard ox >= 0, ox < other.columns else { continue }
                    for k in 0..<3 { sum += abs(rgb[(y * columns + x) * 3 + k] - other.rgb[(y * other.columns + ox) * 3 + k]) }
                    n += 3
                }
            }
            return n == 0 ? .infinity : sum / Double(n)
        }

        /// The mean distance over all columns when our columns `0..<k` are compared with `left` and the rest with
        /// `right`, each moved by its shift.
        func split(at k: Int, left: Grid, shiftLeft: Int = 0, right: Grid, shiftRight: Int = 0) -> Double {
            let l = k > 0 ? distance(left, columns: 0..<k, shift: shiftLeft) * Double(k) : 0
            let r = k < columns ? distance(right, columns: k..<columns, shift: shiftRight) * Double(columns - k) : 0
            return (l + r) / Double(columns)
        }

        /// The mix `(1 - p)·a + p·b` nearest to this grid (least squares), and its distance.
        func fitMix(_ a: Grid, _ b: Grid) -> (p: Double, distance: Double) {
            var num = 0.0, den = 0.0
            for i in rgb.indices where !underOverlay(i / 3 % columns, i / 3 / columns) {
                let d = b.rgb[i] - a.rgb[i]
                num += (rgb[i] - a.rgb[i]) * d
                den += d * d
            }
            let p = den > 0 ? num / den : 0
            return (p, distance(Grid.mix(a, b, p)))
        }

        /// The mean of all channels (0...255).
        var brightness: Double {
            let kept = rgb.indices.filter { !underOverlay($0 / 3 % columns, $0 / 3 / columns) }
            return kept.reduce(0) { $0 + rgb[$1] } / Double(max(1, kept.count))
        }
    }
}
