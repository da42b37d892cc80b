import KioskCore
import KioskSeat

/// One DRM card shared by the outputs on its connectors: one descriptor (a second descriptor could not become
/// DRM master while the first is), master taken when the first output opens and given up when the last one
/// closes, and the console in graphics mode the same while. Each output keeps its own CRTC (the caller hands
/// them out with `crtcs(for:)`), GBM device and EGL context. The descriptor closes when the last output is
/// released.
public final class DRMCard {
    /// The open card.
    let device: DRMDevice
    private let log: Log
    /// The console's text mode, put back when the last output closes.
    private var console: ConsoleMode?
    /// Every output's flip waiter, kept as long as the descriptor: a flip event still queued for an output that
    /// is gone may be read by another output's wait, and writes into its waiter's slot.
    private var waiters: [DRMFlipWaiter] = []
    private lazy var hold = MasterHold(take: { [unowned self] in
        try device.becomeMaster()
        console = ConsoleMode(log: log)
    }, release: { [unowned self] in
        device.dropMaster()
        console?.restore()
        console = nil
    })

    /// Opens the card at `path` through `opener`; master is taken by the first output that joins.
    public init(path: String, opener: DeviceOpener = DirectOpener(group: "video"), log: Log = .shared) throws {
        device = try DRMDevice(path: path, opener: opener)
        self.log = log
    }

    /// The card's path.
    public var path: String { device.path }

    /// How many outputs use the card now.
    var outputs: Int { hold.holders }

    /// An output starts using the card: the first one makes it DRM master and the console graphics.
    func join() throws { try hold.join() }

    /// An output stops using the card (after restoring its CRTC): the last one drops master and puts the
    /// console back.
    func leave() { hold.leave() }

    /// Keeps `waiter` (whose slot is the user data of its output's flips) until the card is released.
    func keep(_ waiter: DRMFlipWaiter) { waiters.append(waiter) }

    /// Tries to become DRM master again (after a VT switch); true on success.
    func regainMaster() -> Bool { (try? device.becomeMaster()) != nil }

    /// One CRTC for each selection's connector (all on this card), none driving two: each connector's encoders'
    /// possible CRTCs, the one in use preferred. One line naming the connectors when the card has too few.
    public func crtcs(for selections: [DisplaySelection]) throws -> [UInt32] {
        let candidates = try selections.map { try DRMPipe.crtcCandidates(device: device, connector: $0.connector) }
        guard let crtcs = CRTCAllocation.assign(candidates) else {
            let names = selections.map(\.connector.name).joined(separator: ", ")
            throw DRMError(call: "drmModeGetEncoder", path: path,
                           reason: "the card has no CRTC for each of \(names) at once (CRTCs each can use: "
                               + zip(selections, candidates).map { "\($0.connector.name) \($1)" }.joined(separator: ", ") + ")")
        }
        return crtcs
    }
}
