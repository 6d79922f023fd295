"""Screenshots of the viewer's default view for the README, in headless Chromium.

Records two runs the way a user would (``cogtree run SCENARIO --oracle --log FILE``): a
clarification turn (``which_bottle``: the robot asks which bottle, then fetches it) and a
physical task that recovers from failures (``door_closed``: the bedroom door is shut, the
robot replans and asks Paul to open it). Each log is opened in the viewer at 1400×900, as it
opens by default (at the last tick, what ran in focus), and saved as a PNG; a second shot per
log shows the tick of a story entry (a clarification question, a failed skill).

    python scripts/viewer_screenshots.py [--out docs/images]

Needs chromium and chromedriver (Debian: ``apt-get install chromium chromium-driver``) and
selenium (the ``test`` extra).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from cogtree.trees.cli.main import main as cogtree
from cogtree.trees.viewer.feed import TickFeed
from cogtree.trees.viewer.server import ViewerServer

SHOTS = (
    # scenario, file stem, the story entry to click for the second shot (kind, text in it)
    ("which_bottle", "viewer-clarification", ("said", "Which bottle")),
    ("door_closed", "viewer-recovery", ("skill_failed", "failed")),
)
WINDOW = (1400, 900)
SETTLE_S = 1.0
"""Time for py_trees_js to lay out and draw after the page says which tick it shows."""


def record(scenario: str, folder: Path) -> Path:
    """The tick log of ``cogtree run SCENARIO --oracle --log``."""
    log = folder / f"{scenario}.jsonl"
    code = cogtree(["run", scenario, "--oracle", "--log", str(log)])
    if code != 0 or not log.is_file():
        raise SystemExit(f"cogtree run {scenario} --oracle failed (exit {code})")
    return log


@contextmanager
def chromium(width: int, height: int) -> Iterator[Any]:
    """A headless Chromium window of ``width`` × ``height``."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if binary is None or not Path(driver_path).is_file():
        raise SystemExit(
            "needs chromium and chromedriver: apt-get install chromium chromium-driver"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(
        service=webdriver.ChromeService(executable_path=driver_path), options=options
    )
    try:
        driver.set_window_size(width, height)
        yield driver
    finally:
        driver.quit()


def shoot(driver: Any, log: Path, stem: str, entry: tuple[str, str], out: Path) -> list[Path]:
    """The default view of ``log``, then the view after clicking the story ``entry``."""
    last = TickFeed.from_log(log).index(limit=0).last
    with ViewerServer(TickFeed.from_log(log)) as server:
        driver.get(server.url)
        WebDriverWait(driver, 30).until(
            lambda d: (
                d.execute_script("return document.body.dataset.tick") == str(last)
                and d.find_elements(By.CSS_SELECTOR, "#story-entries .entry")
            )
        )
        time.sleep(SETTLE_S)
        default = out / f"{stem}.png"
        driver.save_screenshot(str(default))
        kind, text = entry
        item = next(
            item
            for item in driver.find_elements(By.CSS_SELECTOR, f"#story-entries .entry.{kind}")
            if text in item.text
        )
        item.click()
        tick = item.get_attribute("data-tick")
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script("return document.body.dataset.tick") == tick
        )
        time.sleep(SETTLE_S)
        story = out / f"{stem}-story.png"
        driver.save_screenshot(str(story))
    return [default, story]


def main(argv: list[str] | None = None) -> int:
    """Record the logs, take the screenshots, print where they are."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, chromium(*WINDOW) as driver:
        for scenario, stem, entry in SHOTS:
            log = record(scenario, Path(folder))
            for path in shoot(driver, log, stem, entry, args.out):
                print(f"{scenario}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
