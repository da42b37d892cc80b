#!/usr/bin/env python3
"""kiosk's web page in a real browser: Debian's chromium, headless, driven by selenium through chromedriver.

browser-test.py BASE PASSWORD UPLOAD OUT

Logs in, pauses the slideshow with the dashboard's own Pause button (before anything else, so no slide can move
on under the test), uploads UPLOAD through the media page's file input, waits until it is listed, steps to it with
the dashboard's Next button (each step waits for the player's status to change), reads the now-playing text, and
saves the dashboard's live view as the browser shows it (OUT/live.png) once it has loaded three pictures after the
status named the upload. Then it reorders the playlist, deletes a file, saves a schedule with an error and reads its
FILE:LINE, and looks for the report's chart. Each page is saved as OUT/web-NAME.png (docs/web-page.md's pictures).
Prints one JSON object of what it saw.
"""
import base64
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_driver  # noqa: E402 (beside this script)

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

base, password, upload, out = sys.argv[1:5]
name = os.path.basename(upload)
seen = {}

driver, wait = browser_driver.start()


def shot(page):
    driver.save_screenshot(os.path.join(out, "web-%s.png" % page))


def status():
    return driver.execute_async_script(
        "const done = arguments[0]; fetch('/api/status', {credentials: 'same-origin'}).then(r => r.json()).then(done);")


try:
    # the login form, its field `password`
    driver.get(base + "/")
    wait.until(EC.presence_of_element_located((By.NAME, "password")))
    seen["redirected_to_login"] = driver.current_url.endswith("/login")
    shot("login")
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form.login button").click()
    wait.until(EC.presence_of_element_located((By.ID, "screen")))

    # the dashboard first: pause there with the page's button, so the slideshow holds from now on
    driver.find_element(By.ID, "pause").click()
    wait.until(lambda d: status().get("paused") is True)

    # the media page: upload through the file input, see it listed with its progress bar full
    driver.get(base + "/media")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#media tbody tr")))
    driver.find_element(By.CSS_SELECTOR, "input[type=file][name=files]").send_keys(upload)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, '#media tbody tr[data-name="%s"]' % name)))
    wait.until(lambda d: "stored" in d.find_element(By.ID, "progress").text)
    seen["listed"] = True
    seen["progress"] = driver.find_element(By.CSS_SELECTOR, "#progress progress").get_attribute("value")
    shot("media")

    # the dashboard: step to the upload with the page's Next button, still paused; each step waits for the status
    driver.get(base + "/")
    wait.until(EC.presence_of_element_located((By.ID, "screen")))
    wait.until(lambda d: status().get("count", 0) >= 2)  # a.png and the upload: the folder's watch took it in
    steps = 0
    while not (status().get("path") or "").endswith("/" + name):
        before = status().get("path")
        steps += 1
        if steps > 30:
            raise RuntimeError("30 steps with Next and the upload never came: %s" % status())
        driver.find_element(By.CSS_SELECTOR, "button[data-command*=playlist-next]").click()
        wait.until(lambda d: status().get("path") != before)
    seen["steps"] = steps
    seen["paused_on"] = status().get("path")
    seen["still_paused"] = status().get("paused")
    # the now-playing text names the upload, and the live view loads three pictures from here: the camera's
    # pictures are under a second old and asked for 2 s apart, so the last was taken after the status said so
    try:
        wait.until(lambda d: d.find_element(By.ID, "now").text == name + " (paused)")
    except TimeoutException:
        pass  # the test says what the text was
    seen["now_text"] = driver.find_element(By.ID, "now").text
    driver.execute_script("""window.liveLoads = 0;
        document.getElementById('screen').addEventListener('load', () => { window.liveLoads += 1; });""")
    wait.until(lambda d: d.execute_script("return window.liveLoads") >= 3)
    live = driver.execute_script("""
        const img = document.getElementById('screen');
        const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
        c.getContext('2d').drawImage(img, 0, 0); return [c.width, c.height, c.toDataURL('image/png')];""")
    seen["live_size"] = [live[0], live[1]]
    with open(os.path.join(out, "live.png"), "wb") as f:
        f.write(base64.b64decode(live[2].split(",", 1)[1]))
    seen["paused_after"] = status().get("paused")
    driver.execute_script("window.scrollTo(0, 0)")
    shot("dashboard")

    # reorder: the first item of the playlist moved down, saved
    driver.get(base + "/media")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "ol.playlist li")))
    first = driver.find_elements(By.CSS_SELECTOR, "ol.playlist li")[0].get_attribute("data-item")
    driver.find_elements(By.CSS_SELECTOR, "ol.playlist li button.down")[0].click()
    driver.find_element(By.CSS_SELECTOR, "button.save").click()
    wait.until(lambda d: "Saved" in d.find_element(By.ID, "message").text)
    seen["moved_down"] = first

    # delete a.png (two clicks: the button asks first)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, '#media tbody tr[data-name="a.png"] button.delete')))
    button = driver.find_element(By.CSS_SELECTOR, '#media tbody tr[data-name="a.png"] button.delete')
    button.click()
    button.click()
    wait.until(EC.invisibility_of_element_located((By.CSS_SELECTOR, '#media tbody tr[data-name="a.png"]')))
    seen["deleted"] = "a.png"

    # the schedule: a line with an error is refused with its FILE:LINE
    driver.get(base + "/schedule")
    area = wait.until(EC.presence_of_element_located((By.ID, "schedule-text")))
    seen["timeline"] = len(driver.find_elements(By.CSS_SELECTOR, "#schedule-timeline rect"))
    shot("schedule")
    area.send_keys("\nmonday 25:00-26:00 nowhere\n")
    driver.find_element(By.ID, "schedule-save").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#problems li")))
    seen["problems"] = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#problems li")]
    shot("schedule-error")

    # the reports: the chart of showings per day
    driver.get(base + "/reports")
    seen["chart_bars"] = len(driver.find_elements(By.CSS_SELECTOR, "svg#chart-days rect.bar"))
    seen["verdict_bars"] = len(driver.find_elements(By.CSS_SELECTOR, "svg#chart-verdicts rect.bar"))
    seen["csv_link"] = len(driver.find_elements(By.CSS_SELECTOR, 'a[href^="/api/report?by=day&format=csv"]'))
    shot("reports")
    driver.get(base + "/system")
    shot("system")
    # a phone's width: the dashboard still fits
    driver.set_window_size(360, 780)
    driver.get(base + "/")
    wait.until(EC.presence_of_element_located((By.ID, "screen")))
    seen["narrow_overflow"] = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
    shot("dashboard-phone")
finally:
    # every error the console shows but the 422 the test's own bad schedule asks for (a CSP violation is one)
    seen["console_errors"] = [e["message"] for e in driver.get_log("browser")
                              if e.get("level") == "SEVERE" and not ("/api/schedule" in e["message"] and "422" in e["message"])]
    driver.quit()
print(json.dumps(seen))
