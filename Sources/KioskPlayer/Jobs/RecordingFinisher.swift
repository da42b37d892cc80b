import Foundation
import KioskCore
import KioskMedia

/// Ends a recording whatever stops it, so that what is left on disk is a playable file or nothing.
///
/// A run that ends (at its length, its end, or a stop signal) has its sound mixed in and the file finalised
/// (the mp4's index written). A run that fails after frames were written is finalised with those frames and the
/// error still reported. A recording with no frame, or one that cannot be finalised (the disk is full), is
/// removed, because a file without its index plays nowhere.
struct RecordingFinisher {
    /// The encoder the run writes into.
    let encoder: VideoEncoder
    /// The file being written.
    let path: String
    /// Frames a second, to say how long the kept part is.
    let fps: Int
    /// Where the outcome is said.
    let log: Log

    /// Runs `body` (the player writing frames into `encoder`) and finalises or removes the file.
    func run(_ body: () throws -> PlayReport) throws -> PlayReport {
        let report: PlayReport
        do {
            report = try body()
        } catch {
            salvage(after: error)
            throw error
        }
        guard encoder.frameCount > 0 else {
            remove()
            throw PlayerError("\(path): nothing was recorded (no frame was drawn); no file written")
        }
        do {
            if encoder.hasSound {
                let seconds = Double(encoder.frameCount) / Double(fps)
                try encoder.appendSound(PlayJob.mixedSound(report.soundSpans, length: seconds, log: log))
            }
            try encoder.finish()
        } catch {
            remove()
            throw PlayerError("\(path): cannot finish the recording (\(error)); the incomplete file was removed")
        }
        return report
    }

    /// After a failed run: keeps the frames written so far in a finalised file, or removes the file.
    private func salvage(after error: Error) {
        guard encoder.frameCount > 0 else {
            remove()
            return
        }
        do {
            try encoder.finish()
            log.warn("\(path): the recording stopped early; kept the \(encoder.frameCount) frames "
                     + "(\(String(format: "%.3f", Double(encoder.frameCount) / Double(fps))) s) written before the error")
        } catch let finishError {
            remove()
            log.warn("\(path): cannot finish the recording (\(finishError)); the incomplete file was removed")
        }
    }

    private func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
