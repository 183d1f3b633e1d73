"""Headless Chromium plays a whole game of each game (and of The Big Score's solo game) against
bots by clicking the page (the highlighted table elements and the move list), and checks that
it ends with a result; each test saves screenshots (into $HEISTBENCH_SCREENSHOTS, else the
test's temporary folder). They run where HEISTBENCH_BROWSER is set: `scripts/test_web.sh`,
the last step of the README's test command, installs the browser and runs them."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from heistbench.envs import GAMES

pytest.importorskip("flask")
webdriver = pytest.importorskip("selenium.webdriver")
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = [
    pytest.mark.skipif(not os.environ.get("HEISTBENCH_BROWSER"),
                       reason="browser tests run with HEISTBENCH_BROWSER=1 (scripts/test_web.sh "
                       "sets it)"),
    pytest.mark.skipif(not (CHROMIUM and DRIVER),
                       reason="needs Debian's chromium and chromium-driver"),
]
MAX_CLICKS = 800


@pytest.fixture(scope="module")
def server():
    from heistbench.training.web import create_app
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, create_app(), threaded=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    t.join()


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,1400"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(DRIVER), options=opts)
    yield drv
    drv.quit()


def _shot(drv, folder: Path, name: str) -> None:
    """A palette PNG of the page (small enough for the docs)."""
    from io import BytesIO

    from PIL import Image

    drv.execute_script("window.scrollTo(0, 0)")  # the page from its top, the header in view
    img = Image.open(BytesIO(drv.get_screenshot_as_png())).convert("RGB")
    img.quantize(colors=128).save(folder / f"{name}.png", optimize=True)


def _turn(drv) -> str:
    return drv.execute_script("return document.body.dataset.turn || ''")


CASES = [(name, 2) for name in GAMES] + [("big_score_v1", 1)]  # (game, players)
IDS = [*GAMES, "big_score-solo"]


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_a_whole_game_by_clicking(server, browser, name, players, tmp_path):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    folder = Path(os.environ.get("HEISTBENCH_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    drv, rng = browser, np.random.default_rng(1)
    drv.get(server + "/")
    wait = WebDriverWait(drv, 30, poll_frequency=0.02)
    wait.until(lambda d: d.find_elements("css selector", f"#game option[value='{name}']"))
    Select(drv.find_element("id", "game")).select_by_value(name)
    Select(drv.find_element("id", "players")).select_by_value(str(players))
    shot = name.rsplit("_v", 1)[0] + ("-solo" if players == 1 else "")
    if players == 1:  # the solo game: a scenario from the form, no bots
        assert not drv.find_element("id", "bots").is_displayed()
        Select(drv.find_element("css selector", "#options select[data-option='scenario']")
               ).select_by_value('"heat_is_on"')
    drv.find_element("id", "seed").send_keys("3")
    start = time.perf_counter()
    drv.find_element("id", "start").click()
    wait.until(lambda d: _turn(d) != "")
    clicks = 0
    while drv.execute_script("return document.body.dataset.over") != "true":
        assert clicks < MAX_CLICKS, f"{name}: no end after {clicks} clicks"
        targets = drv.find_elements("css selector", ".legal, #legal button.move")
        assert targets, "the person is to move but nothing is clickable"
        before = _turn(drv)
        el = targets[int(rng.integers(len(targets)))]
        drv.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
        menu = drv.find_elements("css selector", "#menu:not([hidden]) button.move")
        if menu:  # an element standing for several moves opens a menu of them
            menu[int(rng.integers(len(menu)))].click()
        wait.until(lambda d, b=before: _turn(d) != b)
        assert not drv.find_element("id", "message").is_displayed(), \
            drv.find_element("id", "message").text
        clicks += 1
        if clicks == 12:
            _shot(drv, folder, shot)
            now, log = _turn(drv), drv.find_element("id", "log").text
            drv.refresh()  # the game survives a reload
            wait.until(lambda d, b=now: _turn(d) == b)
            assert drv.find_element("id", "log").text == log
    took = time.perf_counter() - start
    result = drv.find_element("id", "result")
    assert result.is_displayed()
    assert "winner" in result.text or (players == 1 and "objective not met" in result.text)
    _shot(drv, folder, f"{shot}-end")
    print(f"{name}: {clicks} clicks in {took:.1f} s ({1000 * took / clicks:.0f} ms a click)")
