#!/usr/bin/env python3
"""The dashboard's choice of screen (issue 40) in a real browser: Debian's chromium, headless, through selenium.

browser-screens.py BASE PASSWORD

Logs in, waits for the dashboard's screen choice to appear (it does only with several screens), reads the screens it
offers, picks the second, presses the dashboard's Next button and waits for the now-playing text to change, and reads
the status of both screens through the page's own API. Prints one JSON object of what it saw.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_driver  # noqa: E402 (beside this script)

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

base, password = sys.argv[1:3]
seen = {}

driver, wait = browser_driver.start()


def status(query):
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; fetch('/api/status' + arguments[0], {credentials: 'same-origin'})"
        + ".then(r => r.json()).then(done);",
        query)


try:
    driver.get(base + "/")
    wait.until(EC.presence_of_element_located((By.NAME, "password")))
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form.login button").click()
    wait.until(EC.visibility_of_element_located((By.ID, "screen-choice")))
    pick = Select(driver.find_element(By.ID, "screen-choice"))
    seen["offered"] = [o.text for o in pick.options]
    pick.select_by_index(1)
    # the now-playing text follows the chosen screen at the page's next look
    wait.until(lambda d: d.find_element(By.ID, "now").text.startswith("b.png"))
    seen["now_before"] = driver.find_element(By.ID, "now").text
    driver.find_element(By.CSS_SELECTOR, "button[data-command='[\"playlist-next\"]']").click()
    wait.until(lambda d: d.find_element(By.ID, "now").text.startswith("c.png"))
    seen["now_after"] = driver.find_element(By.ID, "now").text
    seen["second_index"] = status("?screen=" + seen["offered"][1])["index"]
    seen["first_index"] = status("")["index"]
finally:
    seen["console_errors"] = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    driver.quit()
print(json.dumps(seen))
