"""What `kiosk fleet --json` showed in a VM run (issue 41), for check.py and cec-check.py: the seconds from a step
to the poll that saw what it waited for (fleet.steps: `NAME WHEN T0` lines), and one kiosk's state and alert kinds
from a saved roster."""
import json


def seconds(steps_text):
    """{step name: seconds from its T0 to the poll that ended it} from fleet.steps' text."""
    out = {}
    for line in steps_text.splitlines():
        f = line.split()
        if len(f) == 3:
            out[f[0]] = float(f[1]) - float(f[2])
    return out


def kiosk(roster_text, kiosk_id):
    """(state or None, [alert kinds], the roster) of `kiosk_id` in a saved `kiosk fleet --json` output."""
    try:
        roster = json.loads(roster_text or 'null') or {}
    except ValueError as e:
        roster = {'error': str(e)}
    screen = next((k for k in roster.get('kiosks', []) if k.get('id') == kiosk_id), None)
    kinds = [al.get('kind') for al in (screen or {}).get('alerts', [])]
    return (screen.get('state') if screen else None), kinds, roster
