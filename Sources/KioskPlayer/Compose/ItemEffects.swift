import KioskCore

/// An item's own picture effect (`#EXTKIOSK:effect=mosaic:split=0.2..0.8:period=6`): on from the item's start (its
/// sweep starting then) while it shows; the player's effect (the command line's, or what a command set) comes back
/// with the next item that has none of its own. An effect set by a command or a key while such an item shows stays.
extension Screen {
    /// The item `id` starts at `t`: its own effect goes on, or the player's comes back.
    func applyItemEffect(of id: ItemID, at t: Double) {
        guard let own = show.playlist.item(id)?.override?.effect else {
            if let saved = itemEffect {
                effects = saved.before
                itemEffect = nil
            }
            return
        }
        let before = itemEffect?.before ?? effects
        do {
            try effects.set(own, at: t)
            itemEffect = (own, before)
        } catch {
            log.warn("\(show.playlist.item(id)?.path ?? "item \(id)"): effect=\(own): \(error); shown without it")
            effects = before
            itemEffect = nil
        }
    }
}
