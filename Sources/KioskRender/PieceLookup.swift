/// Finds the effect or transition a command line names in `PassRegistry` and lets its descriptor parse the
/// options. Every error is one line naming the flag, e.g. `--transition: wipe: 'diagonal' is not a direction ...`.
import KioskCore

extension PassRegistry {
    /// The `--effect` names, in registry order.
    public static var effectNames: [String] { effects.map { $0.name } }

    /// `NAME` plus its options' usage for every effect but `none`, e.g. `mosaic[:tile=N][:split=R]`.
    public static var effectUsages: [String] { effects.filter { $0.name != NoEffect.name }.map { $0.name + $0.optionsUsage } }

    /// The `--transition` names: the registered transitions, then `random`.
    public static var transitionNames: [String] { transitions.map { $0.name } + [TransitionSpec.random.name] }

    /// `NAME` plus its options' usage for every transition, for help and docs/playing.md (e.g. `slide[:left|right|up|down]`).
    public static var transitionUsages: [String] { transitions.map { $0.name + $0.optionsUsage } + [TransitionSpec.random.name] }

    /// The effect `spec` names, its options parsed; the error names `--effect`.
    public static func effect(_ spec: EffectSpec) throws(UsageError) -> any ShaderEffect {
        guard let type = effects.first(where: { $0.name == spec.name }) else {
            throw UsageError("--effect: '\(spec.name)' is not one of \(effectNames.joined(separator: ", "))")
        }
        do {
            return try type.init(options: spec.options)
        } catch {
            throw UsageError("--effect: \(spec.name): \(error.message)")
        }
    }

    /// The transition `spec` names, its options parsed; the error names `--transition`. `random` is not a single
    /// transition: use `TransitionChooser` for it (and for any spec).
    public static func transition(_ spec: TransitionSpec) throws(UsageError) -> any ShaderTransition {
        guard let type = transitions.first(where: { $0.name == spec.name }) else {
            throw UsageError("--transition: '\(spec.name)' is not one of \(transitionNames.joined(separator: ", "))")
        }
        do {
            return try type.init(options: spec.options)
        } catch {
            throw UsageError("--transition: \(spec.name): \(error.message)")
        }
    }
}
