#!/usr/bin/env python3
"""The dashboard's Health panel (issue 41) in a real browser: Debian's chromium, headless, through selenium.

browser-health.py BASE PASSWORD [OUT]

Logs in, waits for the panel to show the running kiosk's report, and reads its text as chromium rendered it: the
alerts line, the machine's readings, the displays and the screens. Then hands the page's own `health()` a report
with hostile texts (markup in a monitor's name, a subject and an alert) and two alerts, and reads back what it drew
in the same turn (before the next look at the status redraws it). Prints one JSON object of what it saw; with OUT,
the panel as drawn goes to OUT/web-health.png (the hostile report with its alerts).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_driver  # noqa: E402 (beside this script)

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

base, password = sys.argv[1:3]
out = sys.argv[3] if len(sys.argv) > 3 else None
seen = {}

HOSTILE_NAME = '<img src=x onerror="window.pwned=1">'
HOSTILE = {
    "time": "2026-12-07T10:00:00Z",
    "readings": [
        {"name": "temperature", "subject": "thermal_zone0 <b>cpu</b>", "value": 71.5, "unit": "°C", "time": "2026-12-07T10:00:00Z"},
        {"name": "free-space", "subject": "cache /var/lib/kiosk", "value": 3 * 1073741824, "unit": "bytes", "time": "2026-12-07T10:00:00Z"},
        {"name": "frames-dropped", "subject": "hall", "value": 42, "unit": "per hour", "time": "2026-12-07T10:00:00Z"},
        {"name": "tv-power", "subject": "hall", "value": "standby", "unit": "", "time": "2026-12-07T10:00:00Z"},
        {"name": "content-age", "subject": "hall", "value": 7260, "unit": "s", "time": "2026-12-07T10:00:00Z"},
    ],
    "displays": [{"screen": "hall", "connector": "HDMI-A-1", "state": "connected",
                  "monitor": {"manufacturer": "DEL", "product": 41153, "serial": 12345, "serial-text": None, "name": HOSTILE_NAME},
                  "time": "2026-12-07T10:00:00Z"}],
    "alerts": [{"kind": "tv-off", "subject": "hall", "since": "2026-12-07T09:58:00Z", "message": "the TV is in standby <script>window.pwned=2</script>"},
               {"kind": "temperature", "subject": "thermal_zone0", "since": "2026-12-07T09:59:00Z", "message": "71.5 °C is above 70 °C"}],
}

driver, wait = browser_driver.start()
try:
    driver.get(base + "/")
    wait.until(EC.presence_of_element_located((By.NAME, "password")))
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form.login button").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#health-screens tbody tr")))
    # read in one turn of the page: the next look at the status redraws the panel (separate reads could meet
    # elements that are gone)
    seen.update(driver.execute_script("""
        const rows = (id) => [...document.querySelectorAll('#' + id + ' tr')].map((tr) => [...tr.cells].map((c) => c.innerText));
        return {time: document.getElementById('health-time').innerText,
                alerts: [...document.querySelectorAll('#health-alerts li')].map((li) => li.innerText),
                alert_classes: [...document.querySelectorAll('#health-alerts li')].map((li) => li.className),
                machine: rows('health-machine'), displays: rows('health-displays'), screens: rows('health-screens')};
        """))
    seen["hostile"] = driver.execute_script("""
        health(arguments[0]);
        const box = document.getElementById('health');
        return {text: box.innerText, markup: box.querySelectorAll('img, b, script').length,
                alerts: [...box.querySelectorAll('#health-alerts li')].map((li) => [li.className, li.innerText]),
                highlighted: box.classList.contains('has-alerts'),
                colour: getComputedStyle(box.querySelector('#health-alerts li')).backgroundColor,
                screens: [...box.querySelectorAll('#health-screens tr')].map((tr) => [...tr.cells].map((c) => c.innerText)),
                displays: [...box.querySelectorAll('#health-displays tbody tr')].map((tr) => [...tr.cells].map((c) => c.innerText))};
        """, HOSTILE)
    if out:
        driver.set_window_size(1280, 1800)
        panel = driver.find_element(By.ID, "health")
        driver.execute_script("health(arguments[0]); arguments[1].scrollIntoView();", HOSTILE, panel)
        panel.screenshot(os.path.join(out, "web-health.png"))
    seen["pwned"] = driver.execute_script("return window.pwned === undefined ? null : window.pwned")
finally:
    seen["console_errors"] = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    driver.quit()
print(json.dumps(seen))
