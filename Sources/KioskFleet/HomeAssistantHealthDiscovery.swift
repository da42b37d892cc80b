import KioskCore

/// Home Assistant's discovery for the health report on `kiosk/ID/health` (the kiosk's device only: the report is
/// machine-wide): sensors for the temperature (the hottest zone), CPU and memory use, free space (the fullest
/// folder's), frames dropped in the last hour (all screens), the content's age and the uptime, each a template into
/// the report's `readings` (a reading not there is `None`: unknown); and one `problem` binary sensor per health
/// alert kind, on while an alert of that kind holds, its alerts as attributes.
extension HomeAssistantDiscovery {
    /// One sensor: its entity and the template that reads it from the report.
    private struct HealthSensor {
        let object: String
        let title: String
        let template: String
        let unit: String
        let deviceClass: String?
        let icon: String
    }

    private static let healthSensors: [HealthSensor] = [
        HealthSensor(object: "temperature", title: "Temperature", template: readingTemplate("temperature", combine: "v | max"), unit: "°C",
                     deviceClass: "temperature", icon: "mdi:thermometer"),
        HealthSensor(object: "cpu", title: "CPU use", template: readingTemplate("cpu-system", combine: "v | max"), unit: "%", deviceClass: nil,
                     icon: "mdi:cpu-64-bit"),
        HealthSensor(object: "memory", title: "Memory use", template: memoryTemplate, unit: "%",
                     deviceClass: nil, icon: "mdi:memory"),
        HealthSensor(object: "free_space", title: "Free space", template: readingTemplate("free-space-share", combine: "v | min"), unit: "%",
                     deviceClass: nil, icon: "mdi:harddisk"),
        HealthSensor(object: "frames_dropped", title: "Frames dropped", template: readingTemplate("frames-dropped", combine: "v | sum"),
                     unit: "frames/h", deviceClass: nil, icon: "mdi:filmstrip-off"),
        HealthSensor(object: "content_age", title: "Content age", template: readingTemplate("content-age", combine: "(v | max / 3600) | round(1)"),
                     unit: "h", deviceClass: "duration", icon: "mdi:clock-alert-outline"),
        HealthSensor(object: "uptime", title: "Uptime", template: readingTemplate("uptime-process", combine: "v | max"), unit: "s",
                     deviceClass: "duration", icon: "mdi:timer-outline"),
    ]

    /// The template that reads `reading`'s numbers from the report and combines them (`None` when there are none).
    static func readingTemplate(_ reading: String, combine: String) -> String {
        "{% set v = value_json.readings | selectattr('name', 'equalto', '\(reading)') | selectattr('value', 'number')"
            + " | map(attribute='value') | list %}{{ (\(combine)) if v else None }}"
    }

    /// The share of memory in use, in percent, from `memory-available` and `memory-total` (`None` without them).
    static let memoryTemplate = "{% set r = value_json.readings | selectattr('value', 'number') | list %}"
        + "{% set a = r | selectattr('name', 'equalto', 'memory-available') | map(attribute='value') | list %}"
        + "{% set t = r | selectattr('name', 'equalto', 'memory-total') | map(attribute='value') | list %}"
        + "{{ ((1 - a[0] / t[0]) * 100) | round(1) if a and t and t[0] > 0 else None }}"

    /// The template that is `ON` while an alert of `kind` holds.
    static func alertTemplate(_ kind: HealthAlertKind) -> String {
        "{{ 'ON' if value_json.alerts | selectattr('kind', 'equalto', '\(kind.rawValue)') | list else 'OFF' }}"
    }

    /// The health entities, made with `entity` (the kiosk's common members).
    static func healthConfigs(_ topics: FleetTopics,
                              entity: (String, String, String, [(String, JSONValue)]) -> Config) -> [Config] {
        let health: JSONValue = .string(topics.health)
        var out = healthSensors.map { s in
            entity("sensor", "health_\(s.object)", s.title, [
                ("state_topic", health), ("value_template", .string(s.template)),
                ("unit_of_measurement", .string(s.unit)), ("state_class", .string("measurement")), ("icon", .string(s.icon)),
            ] + (s.deviceClass.map { [("device_class", .string($0))] } ?? []))
        }
        for kind in HealthAlertKind.allCases {
            let object = "health_" + kind.rawValue.replacingOccurrences(of: "-", with: "_")
            out.append(entity("binary_sensor", object, kind.title, [
                ("state_topic", health), ("value_template", .string(alertTemplate(kind))),
                ("payload_on", .string("ON")), ("payload_off", .string("OFF")), ("device_class", .string("problem")),
                ("json_attributes_topic", health),
                ("json_attributes_template",
                 .string("{{ {'alerts': value_json.alerts | selectattr('kind', 'equalto', '\(kind.rawValue)') | list} | tojson }}")),
            ]))
        }
        return out
    }
}
